"""The trick table at the terminal: the trick in the middle with who played each card, tricks taken, the trump.

Read from the seat's view only: the trick's cards are face up, the seat that led it is
the public counter ``lead`` (the others follow in the direction of play), and the last
finished trick is told from the seat's history. During the pass the hand carries the
prompt ("choose 3 cards to pass to the left") and the cards already chosen; during the bids,
the bids it may make (OH-4.3's hook leaves one out), and every seat's bid stays by it in play.
"""

from __future__ import annotations

from collections.abc import Sequence

from tapete import Action, Event, Layout, Row, View
from tapete.layout import Token, cards_words, count_words, seat_name

from .bidding import BID_OF_WORD, PHASE
from .blind import ROUND

WAYS = {1: "to the left", -1: "to the right"}


def pass_words(view: View) -> str:
    """Where this deal's pass goes, said to a player (HE-2.3)."""
    steps = view.counters.get("pass_to", 0)
    if not steps:
        return "nowhere"
    if steps == 1:
        return WAYS[view.step]
    if steps == view.players - 1:
        return WAYS[-view.step]
    return "across"


def trick_rows(view: View) -> list[Row]:
    """The trick in play, card by card with the seat that played it, then the last trick taken."""
    trick = view.cards("trick")
    lead = view.counters.get("lead", view.to_move)
    rows = []
    if trick:
        tokens: list[Token] = []
        for i, card in enumerate(trick):
            tokens += [f"{seat_name(view, view.next_seat(lead, i))}:", card]
        rows.append(Row("trick", tuple(tokens)))
    else:
        rows.append(Row("trick", note=f"empty: {seat_name(view, view.to_move)} to lead"))
    last = last_trick(view)
    if last:
        rows.append(Row("last trick", tuple(last)))
    return rows


def last_finished(view: View, seated: bool = False) -> tuple[tuple[Event, ...], int | None]:
    """The plays of the last finished trick, in order, and the seat that took it (none yet: (), None).

    Read from the end of the seat's history, so only the trick in play and the last finished
    one are looked at, not the whole deal. A page's state asks it of one view up to six times
    (the middle, the table, each seat's place), so the answer for the view last asked is kept:
    a view never changes, and the one kept cannot be freed and its id given to another.
    ``seated``: plays of no seat are passed over."""
    kept = _last_asked.get(seated)
    if kept is not None and kept[0] is view:
        return kept[1]
    found: list[Event] = []
    taker: str | None = None
    for event in reversed(list(view.history)):
        if event.kind != "action" or event.action is None or event.action.kind != "play":
            continue
        if seated and event.seat is None:
            continue
        target = next((m.target for m in event.moves if m.target.startswith("taken.")), None)
        if taker is None:
            if target is None:  # a card of the trick in play
                continue
            taker = target
        elif target is not None:  # the trick before it
            break
        found.append(event)
    found.reverse()
    answer = (tuple(found), None if taker is None else int(taker.split(".")[1]))
    _last_asked[seated] = (view, answer)
    return answer


_last_asked: dict[bool, tuple[View, tuple[tuple[Event, ...], int | None]]] = {}  # by ``seated``: the view, its answer


def last_taken(view: View) -> tuple[dict[int, int], int | None]:
    """The last finished trick's card of each seat, and the seat that took it (none yet: empty, None)."""
    plays, taker = last_finished(view, seated=True)
    played: dict[int, int] = {}
    for event in plays:
        assert event.seat is not None and event.action is not None
        played[event.seat] = event.action.cards[0]
    return played, taker


def last_trick(view: View) -> list[Token]:
    """The cards of the last finished trick and who took it, from the seat's history."""
    plays, taker = last_finished(view)
    if taker is None:
        return []
    out: list[Token] = []
    for event in plays:
        assert event.action is not None
        out += [f"{seat_name(view, event.seat)}:", *event.action.cards]
    return [*out, f"(taken by {seat_name(view, taker)})"]


def bid_words(view: View) -> str:
    """Each seat's bid and the tricks it has taken ("seat 0 bid 3, took 2"), a dash before it has bid."""
    counters = view.counters
    said = []
    for s in range(view.players):
        bid = counters.get(f"bid.{s}")
        blind = "blind nil" if counters.get(f"blind.{s}") else None  # SP-V1: declared before the cards were seen
        said.append(
            f"{seat_name(view, s)} "
            + ("-" if bid is None and blind is None else f"bid {blind or bid}, took {counters.get(f'tricks.{s}', 0)}")
        )
    return ", ".join(said)


class TrickLayout(Layout):
    seat_rows = ("trick", "last trick", "tricks taken", "other hands")  # the web draws these at the seats

    def seat_facts(self, view: View, seat: int) -> list[str]:
        facts = [*super().seat_facts(view, seat), count_words(view.counters.get(f"tricks.{seat}", 0), "trick")]
        bid = view.counters.get(f"bid.{seat}")
        if view.counters.get(f"blind.{seat}"):  # SP-V1: a blind nil is announced at once
            facts.append("bid blind nil")
        elif bid is not None:  # OH-4.2: every bid is announced; it stays by the seat through the play
            facts.append(f"bid {bid}")
        facedown = view.count(f"facedown.{seat}")
        if facedown:  # SP-V1: a hand dealt face down, not looked at yet
            facts.append(f"{cards_words(facedown)} face down")
        return facts

    def seat_played(self, view: View, seat: int) -> tuple[Token, ...]:
        """Its card of the trick in play (the seat that led it is the counter ``lead``, the others follow);
        between two tricks, its card of the last one, which stays in the middle until the next is led."""
        trick = view.cards("trick")
        if not trick:
            cards, _ = last_taken(view)
            return (cards[seat],) if seat in cards else ()
        lead = view.counters.get("lead", view.to_move)
        return tuple(c for i, c in enumerate(trick) if view.next_seat(lead, i) == seat)

    def middle(self, view: View) -> str:
        if view.cards("trick"):
            return ""
        _, taker = last_taken(view)
        return "" if taker is None else f"{seat_name(view, taker)} took the trick"

    def table(self, view: View) -> list[Row]:
        rows = trick_rows(view)
        taken = ", ".join(f"{seat_name(view, s)} {view.counters.get(f'tricks.{s}', 0)}" for s in range(view.players))
        rows.append(Row("tricks taken", note=taken))
        facts = view.facts
        if PHASE in view.counters or ROUND in view.counters:  # a round of bids (a counter is there from the deal on)
            rows.append(Row("bids", note=bid_words(view)))
        if facts.breaks:  # named for the suit that breaks: spades when only spades do (SP-4.4), else hearts (HE-3.5)
            suit = "spades" if all(facts.suit_of[c] == "♠" for c in facts.breaks) else "hearts"
            rows.append(Row(suit, note="broken" if view.counters.get("broken") else "not broken yet"))
        turned = view.cards("turned")
        trump = view.counters.get("trump", 0)
        if trump:  # the turned card while it lies under the stock, else the suit alone
            suit = view.deck.suits[trump - 1]
            drawn = " (the turned card is drawn)" if facts.trump_rule == "turned" and not turned else ""
            rows.append(Row("trump", tuple(turned), note=f"{suit} are trumps{drawn}"))
        elif facts.trump_rule == "turned":  # OH-3.4: no card was left to turn
            rows.append(Row("trump", note="no trumps this deal"))
        if "stock" in view.counts:
            rows.append(Row("stock", note=cards_words(view.count("stock") + view.count("turned"))))
        if view.cards("removed"):
            rows.append(Row("out of play", tuple(view.cards("removed"))))
        rows.append(self.others(view))
        if any(view.count(f"facedown.{s}") for s in range(view.players)):  # SP-V1: the hands not looked at yet
            said = ", ".join(
                f"{seat_name(view, s)} {cards_words(view.count(f'facedown.{s}'))}" for s in range(view.players)
            )
            rows.append(Row("face down", note=said))
        return rows

    def hand(self, view: View, legal: Sequence[Action]) -> list[Row]:
        rows = [Row("your hand", tuple(self.sorted_hand(view)), marked=self.playable(view, legal))]
        if legal and legal[0].kind in ("blind", "look"):
            rows.append(Row("to bid", note="before looking at your cards: 'blind nil', or 'look' and bid as usual"))
        if legal and legal[0].kind == "pass":
            chosen = view.cards(f"chosen.{view.seat}")
            left = int(view.data.get("choosing") or view.facts.pass_count) - len(chosen)
            way = pass_words(view)
            if view.counters.get("blind_pass"):  # SP-V1: between a blind nil bidder and the partner
                way = "face down to your partner" if view.counters["blind_pass"] == 1 else "back to your partner"
            rows.append(Row("to pass", tuple(chosen), note=f"choose {cards_words(left)} to pass {way}"))
        if legal and legal[0].kind == "bid":
            allowed = ", ".join(str(BID_OF_WORD[a.detail]) for a in legal)
            made = view.counters.get("bids", 0)
            rows.append(
                Row("to bid", note=f"bid {allowed} tricks of {view.counters.get('dealt', 0)}; bids so far {made}")
            )
        return rows

    def event(self, view: View, event: Event) -> list[Token]:
        if event.action is not None and event.action.kind == "pass":
            mine = event.seat == view.seat
            return [f"{seat_name(view, event.seat)}:", "passes", *(event.action.cards if mine else ["a card"])] + [
                f"- {s}" for s in event.said
            ]
        return super().event(view, event)
