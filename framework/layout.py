"""What a person at the table sees of a game: layouts, in plain data.

A layout turns a seat's `View` into rows of cards and words: the hand sorted
the way players hold it, the table in the game's own shape, the scores, and a
line for each thing another seat did. It never sees more than the view, so a
picture cannot show a hidden card. Rendering (colours, terminals) lives in
``tapete.table``; this module has no terminal code, so a plugin can build and
test its layout without one.

A game plugin supplies its layout through the ``tapete_register_layouts`` hook
(``register(game_name, layout)``), usually a subclass of `Layout` overriding
what its game shows differently. A game without one gets `Layout` itself: every
zone in words, hands sorted by suit and rank.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from .core.actions import Action
from .core.cards import spoken_names
from .core.deprecation import deprecated
from .core.ledger import carried_of

if TYPE_CHECKING:
    from .view import Event, View

Token = int | str | None
"""One place in a row: a card id, literal words, or None for an empty place (shown as a dot)."""

SUIT_ORDER = "♠♥♣♦"  # how people hold a hand: the colours alternate
_ORDERS: dict[tuple[str, tuple[str, ...]], str] = {}  # (a suit order, a deck's suits) -> `Layout.suit_order`


class Row(NamedTuple):
    """One line of the picture: a label, then cards and words.

    ``marked`` cards are emphasised (playable now, or part of a meld held);
    ``width`` pads every card to that many characters, so that rows line up as
    a grid (Fan Tan's suit rows).

    A named tuple, read-only like a frozen dataclass and built, hashed and compared
    in C: a web page's state makes every row of its table again after each move and
    finds the ones it has drawn before by their content (`tapete.web.messages.row`)."""

    label: str
    cards: tuple[Token, ...] = ()
    note: str = ""
    marked: frozenset[int] = frozenset()
    width: int = 0


@dataclass(frozen=True)
class Picture:
    """Everything shown to one seat when it is asked to move."""

    title: str
    scores: list[str]
    recap: list[list[Token]]
    table: list[Row]
    hand: list[Row]


def seat_name(view: View, seat: int | None) -> str:
    if seat is None:
        return "the table"
    return "you" if seat == view.seat else f"seat {seat}"


def zone_words(view: View, zone: str) -> str:
    """A zone's name as a person says it: ``hand.2`` is "seat 2's hand", ``row.♥`` the "♥ row"."""
    kind, _, owner = zone.partition(".")
    word = kind.replace("_", " ")
    if owner.isdigit():
        whose = "your" if int(owner) == view.seat else f"seat {owner}'s"
        return f"{whose} {word}"
    if owner:
        return f"{owner} {word}"
    return {"discard": "discard pile", "facedown": "face-down card"}.get(word, word)


def cards_words(n: int) -> str:
    return count_words(n, "card")


def count_words(n: int, word: str) -> str:
    """``1 point``, ``2 points``, ``0 points``: a count with its word, singular for one."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class Layout:
    """The generic picture of a game; subclass it to show a game in its own shape.

    Every method reads only the view. Override `table` and `hand` for the game's
    shape, `sort_key` for how its hands are held, `confirm` to show a person what
    a move would do before it is made, and `event` for how others' moves read;
    `suit_names` to show a deck's suits in words (a Spanish deck's oros, copas, ...).
    ``card_move`` is the move a card typed alone makes when no legal move names it
    (so that the game can say why it is refused in its own words)."""

    card_move = "play"
    seat_rows: tuple[str, ...] = ("other hands",)
    """Labels of `table` rows that only say what `seat_facts` and `seat_played` say: a front-end
    that draws the seats around the table (the web's) leaves these rows out."""

    def suit_names(self, view: View) -> dict[str, str] | None:
        """Words shown for the suits instead of their symbols, in the order hands are held; None: symbols.

        The default shows symbols (``7♦``); a layout returns `tapete.core.cards.SPANISH_SUITS`
        for a Spanish deck (``7 de oros``). Only what a person is shown changes: typed
        moves, logs and saves keep the written cards."""
        return None

    def card_names(self, view: View) -> list[str]:
        """Each card's name as shown to a person: the deck's (``7♦``) or with the suit in words."""
        suits = self.suit_names(view)
        return spoken_names(view.deck, suits) if suits else list(view.deck.names)

    def suit_order(self, view: View) -> str:
        """The suits in the order a hand is held and suit rows are drawn: one order for both.

        Alternating colours (``♠♥♣♦``), or the order of `suit_names` (oros, copas,
        espadas, bastos); suits of the deck missing here come last."""
        suits = self.suit_names(view)
        order = "".join(suits) if suits else SUIT_ORDER
        key = (order, view.deck.suits)
        found = _ORDERS.get(key)
        if found is None:  # asked for every card sorted: the few orders met are made once
            found = _ORDERS[key] = order + "".join(s for s in view.deck.suits if s not in order)
        return found

    def sort_key(self, view: View, card: int) -> tuple[int, int]:
        """Suits apart in `suit_order`, ranks in the deck's order."""
        order = self.suit_order(view)
        suit = view.deck.suit_of[card]
        return (order.index(suit) if suit in order else len(order), card)

    def sorted_hand(self, view: View) -> list[int]:
        return sorted(view.hand, key=lambda c: self.sort_key(view, c))

    def title(self, view: View) -> str:
        """Which deal, who dealt it and whose move it is, in words: ``deal 2: you dealt; your move, seat 0``."""
        return f"deal {view.deal_number}: {seat_name(view, view.dealer)} dealt; your move, seat {view.seat}"

    def scores(self, view: View) -> list[str]:
        """Match totals (and deals won when they differ from the totals)."""
        seats = range(view.players)
        line = "totals: " + ", ".join(
            f"{seat_name(view, s)} {view.totals[s]}" + (" (out)" if view.out[s] else "")
            for s in seats
            if s < len(view.totals)
        )
        lines = [line]
        for name, values in carried_of(view.counters).items():  # ``carry`` values, as the deal began
            lines.append(f"{name}: " + ", ".join(f"{seat_name(view, s)} {values[s]}" for s in sorted(values)))
        if any(view.deals_won) and list(view.deals_won) != list(view.totals):
            lines.append("deals won: " + ", ".join(f"{seat_name(view, s)} {view.deals_won[s]}" for s in seats))
        return lines

    def table(self, view: View) -> list[Row]:
        """Every zone but the hands, in words; the other hands as card counts."""
        rows: list[Row] = []
        for zone in view.counts:
            if zone.startswith("hand."):
                continue
            rows.append(self.zone_row(view, zone))
        rows.append(self.others(view))
        return rows

    def zone_row(self, view: View, zone: str, label: str | None = None) -> Row:
        """A zone as a row: its visible cards, or its size when the seat sees fewer cards than it holds."""
        label = zone_words(view, zone) if label is None else label
        cards, count = view.cards(zone), view.count(zone)
        if not count:
            return Row(label, note="empty")
        if len(cards) == count:
            return Row(label, tuple(cards))
        if cards:
            return Row(label, (cards[-1],), note=f"on top ({cards_words(count)})")
        return Row(label, note=cards_words(count))

    def others(self, view: View) -> Row:
        """How many cards each other seat holds."""
        parts = [
            f"seat {s} {cards_words(view.count(f'hand.{s}'))}"
            for s in range(view.players)
            if s != view.seat and f"hand.{s}" in view.counts
        ]
        return Row("other hands", note=", ".join(parts))

    def seat_facts(self, view: View, seat: int) -> list[str]:
        """A few words about ``seat`` shown at its place around the table: its hand's size, by default."""
        zone = f"hand.{seat}"
        return [cards_words(view.count(zone))] if zone in view.counts else []

    def seat_played(self, view: View, seat: int) -> tuple[Token, ...]:
        """The cards ``seat`` has put in the middle, drawn in front of it (its card of the trick); none by default."""
        return ()

    def middle(self, view: View) -> str:
        """Words on the cards `seat_played` put in the middle when they are no longer in play
        (``seat 1 took the trick``: the last trick, shown until the next is led); "" while in play."""
        return ""

    def playable(self, view: View, legal: Sequence[Action]) -> frozenset[int]:
        """Hand cards some legal move names first."""
        hand = set(view.hand)
        return frozenset(a.cards[0] for a in legal if a.cards and a.cards[0] in hand)

    def hand(self, view: View, legal: Sequence[Action]) -> list[Row]:
        return [Row("your hand", tuple(self.sorted_hand(view)), marked=self.playable(view, legal))]

    def menu(self, view: View, legal: Sequence[Action]) -> list[Action]:
        """The legal moves in the order a person reads them: by kind, then cards as the hand is held.

        Every front-end lists moves in this order (the terminal's numbered menu, the web
        table's buttons), so a move has the same place wherever a person plays."""
        first_seen: dict[str, int] = {}
        for a in legal:
            first_seen.setdefault(a.kind, len(first_seen))
        return sorted(legal, key=lambda a: (first_seen[a.kind], [self.sort_key(view, c) for c in a.cards]))

    def card_move_kind(self, legal: Sequence[Action]) -> str:
        """The kind of move a card chosen alone makes when no legal move starts with it.

        The commonest kind among the legal moves that name cards, else ``card_move``: the
        game is then asked about that move and says why it is refused in its own words."""
        counts: dict[str, int] = {}  # a plain count: asked for every seat's state after every move
        for a in legal:
            if a.cards:
                counts[a.kind] = counts.get(a.kind, 0) + 1
        return max(counts, key=counts.__getitem__) if counts else self.card_move  # the first commonest

    def help(self, view: View) -> list[str]:
        """Rules a person needs to move, with their rule ids, that the game's own `rules_help` does not give.

        ``help`` lists the game's moves (`tapete.Game.moves_help`) and rules
        (`tapete.Game.rules_help`), then these."""
        return []

    def confirm(self, view: View, action: Action) -> list[str] | None:
        """Lines to show before ``action`` is made, asking the person to confirm; None: no question."""
        return None

    def event(self, view: View, event: Event) -> list[Token]:
        """An event of the seat's history as a line: who did what, with the cards this seat saw move.

        The line depends on the event and the viewer's seat only, not on later play: the web
        table makes each seat's last move once per event and viewer and shows it again in later
        states (`tapete.web.messages.around`)."""
        who = seat_name(view, event.seat)
        tokens: list[Token] = [f"{who}:"]
        if event.action is not None:
            tokens.append(event.action.kind)
            tokens.extend(_action_cards(view, event))
            if event.action.detail:
                tokens.append(event.action.detail)
            # the cards the move put in the mover's hand that this seat saw ("draw discard (7♥)"); not the
            # others it moved (a trick going to its taker, another seat's draw: "play J♥ (5♦ 6♥)" said nothing)
            hand = f"hand.{event.seat}"
            taken = [
                m.card
                for m in event.moves
                if m.card is not None and m.target == hand and m.card not in event.action.cards
            ]
            if taken and event.seat is not None:
                tokens.append("(")
                tokens.extend(taken)
                tokens.append(")")
        else:
            tokens.append(event.text)
        for said in event.said:
            tokens.append(f"- {said}")
        return tokens


def _action_cards(view: View, event: Event) -> list[Token]:
    """The action's cards as the seat saw them: a card it could not see is a ``?``."""
    action = event.action
    assert action is not None
    shown = list(action.cards)
    words = event.text.split()[1:]
    out: list[Token] = []
    for w in words:
        if w == "?":
            out.append("?")
        elif shown and view.deck.names[shown[0]] == w:
            out.append(shown.pop(0))
    return out


def recap(
    layout: Layout, view: View, start: int, line: Callable[[View, Event], list[Token]] | None = None
) -> list[list[Token]]:
    """What happened since history index ``start``: others' moves, and the cards this seat drew.

    ``line`` writes an event (``layout.event`` by default; the web table passes one that keeps
    each event's line, made once per event and viewer)."""
    event_line = layout.event if line is None else line
    lines: list[list[Token]] = []
    for event in list(view.history)[start:]:
        if event.kind != "action":
            continue
        if event.seat == view.seat:
            drawn = [m.card for m in event.moves if m.card is not None and m.target == f"hand.{view.seat}"]
            if drawn and event.action is not None and not set(drawn) & set(event.action.cards):
                lines.append(["you drew", *drawn, f"({event.text})"])
            elif event.said:  # what the game said of your move (a stock card it turned for you)
                lines.append(event_line(view, event))
            continue
        lines.append(event_line(view, event))
        # cards another seat's move put in this seat's hand: Briscola's draw after a trick its taker won,
        # a pass that reached it (HE-2.3); said on a line of its own, as a draw of its own move is
        mine = f"hand.{view.seat}"
        came = [m for m in event.moves if m.card is not None and m.target == mine and m.source != mine]
        if came:
            given = all(m.source.rpartition(".")[2].isdigit() for m in came)  # from a seat's zone, not the stock
            lines.append(["you received" if given else "you drew", *(m.card for m in came)])
    return lines


def since_last_move(view: View) -> int:
    """History index just after this seat's last action (0 when it has not moved this deal)."""
    history = list(view.history)
    for i in range(len(history) - 1, -1, -1):
        if history[i].kind == "action" and history[i].seat == view.seat:
            return i + 1
    return 0


@deprecated(since="0.2.0", instead="Variant.record.layout (a game's layout is in its record)")
def layout_for(layouts: Mapping[str, Layout], game: str) -> Layout:
    """The layout registered under ``game``, or the plain one: looked up by a name, which
    for a family's member (Scopa in Chinese Ten) is the family's and the wrong layout."""
    return layouts.get(game) or Layout()
