"""Fishing mechanics: Chinese Ten (CT-…) and Scopa (SC-…) are two scripts for this one class.

The script decides the deal sizes, which ranks capture by sum and which by rank,
the opening-table rule, the points table, bonuses and scoring; this module only
knows how a card is resolved against the table. In Chinese Ten each turn plays a
hand card, then turns a stock card. A turn is one action when it needs one
decision, and two when the turned stock card matches several table cards: the
card then waits, face up in the ``turned`` zone, for the same player to choose
(CT-2.2, CT-2.4), so a snapshot taken between the two is complete. With
``refill`` (Scopa) nothing is turned: empty hands are dealt again from the stock.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from tapete import (
    WARNING,
    Action,
    Compiled,
    Ctx,
    DealState,
    DesignProblem,
    Game,
    Ledger,
    MoveHelp,
    MoveKind,
    Random,
    Rules,
    RuleText,
    TapeteError,
    View,
)
from tapete.layout import count_words

from .captures import capture_partners, card_pips, every_sum_set, fallback_ranks, sum_sets
from .opening import apply_specials, crowded_ranks
from .words import WORDS
from .words import primiera as words_primiera

MAX_REDEALS = 1000
# The most sets of table cards a card's SC-3.3 sum may name that `move_kinds` lists one by one (the
# built-in decks have at most 1,701 per card, a king of Scopa); past it, the card's sums share one slot (docs/rl.md).
MAX_SUM_SETS = 20_000

# What a person at the table is told cites the rules document of the member being played:
# Chinese Ten's (CT-...) or Scopa's (SC-...); another member of the family gets Chinese Ten's.
MEMBERS: dict[str, dict[str, str]] = {
    "chinese-ten": {"title": "Chinese Ten", "must": "CT-2.3", "takes": "CT-2.1", "count": "CT-4.1", "end": "CT-4.3"},
    "scopa": {"title": "Scopa", "must": "SC-3.4", "takes": "SC-3.2", "count": "SC-4.1", "end": "SC-5.1"},
}


class ChineseTen(Game):
    name = "chinese-ten"
    default_bot = "greedy"
    summary = "Chinese Ten (Jiǎn Hóng Diǎn): capture pairs making ten, score the red cards"
    words = WORDS
    zone_kinds = ("hand", "table", "stock", "turned", "captures")
    hand_size_word = "hand_size"  # CT-1.3, SC-2.2: a snapshot's hand holds at most hand_size + 1 cards

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        deck = self.deck
        self.names = deck.names
        self.rank_of = deck.rank_of
        self.takes = capture_partners(rules)  # CT-2.1, SC-3.2
        self.set_ranks, self.all_ranks = fallback_ranks(rules)  # SC-3.3, SC-V4
        self.fallback = bool(self.set_ranks or self.all_ranks)
        self.pips = card_pips(rules)
        self.refill = rules.expr("refill")  # SC-2.2; None: a stock card is turned each turn (CT-2.4)
        self.sweep = rules.condition("sweep")  # SC-3.6
        self.leftover = rules.parsed_words("leftover", "", "table")  # SC-3.7
        self.primiera_of = rules.table("primiera")  # SC-4.2
        # prize, bonus and the sizes need their value and condition (the words say so): never None here
        self.prizes: list[tuple[str, Compiled, Compiled]] = [
            (first, rules.expr("prize", first), rules.condition("prize", first))  # type: ignore[misc]
            for first, _ in rules.each("prize")
        ]
        points = rules.table("points")
        self.point_of = list(points) if points is not None else [0] * len(deck)  # CT-4.1
        mode, ranks = rules.parsed_words("opening", "", ("none", ()))
        self.opening_mode, self.special_ranks = mode, frozenset(ranks)
        self.sizes: tuple[Compiled, Compiled, Compiled] = (
            rules.expr("hand_size"),  # type: ignore[assignment]
            rules.expr("table_size"),
            rules.expr("stock_size"),
        )
        self._break_even = rules.expr("break_even")
        self.bonuses: list[tuple[str, Compiled, Compiled]] = [
            (first, rules.expr("bonus", first), rules.condition("bonus", first))  # type: ignore[misc]
            for first, _ in rules.each("bonus")
        ]
        self._ctx: Ctx[ChineseTen] = Ctx(game=self)
        self.says = MEMBERS.get(rules.game, MEMBERS["chinese-ten"])
        players = rules.constant("players")
        refill_const = self.refill is None or self.refill.const
        if isinstance(players, int) and all(size.const for size in self.sizes) and refill_const:
            refill = self.refill.value if self.refill is not None else None
            problem = self.size_problem(*(size.value for size in self.sizes), players, refill)  # type: ignore[call-arg]
            if problem:  # found at load time when nothing depends on the deal
                raise rules.error("hand_size", "", problem)

    def facts(self) -> dict[str, Any]:
        """What a fishing bot may know without seeing a deal: card points, who takes whom, sums, sweeps."""
        return {
            "point_of": self.point_of,
            "takes": self.takes,
            "pips": self.pips,  # SC-1.3
            "set_ranks": self.set_ranks,  # SC-3.3
            "all_ranks": self.all_ranks,  # SC-V4
            "sweeps": self.sweep is not None,  # SC-3.6
            "primiera": self.primiera_of,  # SC-4.2
            "teams": self.teams,  # SC-V3
        }

    # -- dealing (CT-1, SC-2) ----------------------------------------------------------
    def size_problem(self, hand: int, table: int, stock: int, players: int, refill: int | None = None) -> str | None:
        if hand * players + table + stock != len(self.deck):
            return (
                f"hand_size {hand} x {players} players + table_size {table} + stock_size "
                f"{stock} must use the {len(self.deck)} cards of the deck (CT-1.3)"
            )
        if refill is not None:
            if refill < 1 or stock % (refill * players):
                return (
                    f"stock_size {stock} must be dealt out in whole rounds of refill {refill} x {players} "
                    f"players (SC-2.2)"
                )
            return None
        if stock != hand * players:
            return (
                f"stock_size {stock} must equal the {hand * players} hand cards: each turn "
                f"turns one stock card per hand card played (CT-2.4, CT-3.4)"
            )
        return None

    def deal(self, state: DealState, rng: Random, ctx: Ctx) -> None:
        ctx.state = state
        hand, table, stock = (int(size(ctx)) for size in self.sizes)
        n = state.players
        refill = int(self.refill(ctx)) if self.refill is not None else None
        problem = self.size_problem(hand, table, stock, n, refill)
        if problem:
            raise TapeteError(problem)
        redeals = 0
        while True:
            cards = self.shuffled_deck(rng)  # CT-1.2 (a cut of a shuffled pack changes nothing: none is made)
            self.deal_round_robin(state, cards, hand, self.next_seat(state, state.dealer))  # CT-1.3
            state.zones["table"] = [cards.pop() for _ in range(table)]
            state.zones["stock"] = cards
            if self.opening_mode != "redeal" or not crowded_ranks(
                self.rank_of, state.zones["table"], self.special_ranks
            ):
                break
            redeals += 1  # CT-V5: deal again
            if redeals > MAX_REDEALS:
                raise TapeteError(f"no acceptable opening table in {MAX_REDEALS} redeals")
        if refill is None:
            state.zones["turned"] = []  # CT-2.4 (with refill no stock card is ever turned)
        for s in range(n):
            state.zones[f"captures.{s}"] = []  # CT-1.5
        if redeals:
            state.counters["redeals"] = redeals
        if self.opening_mode == "specials":
            apply_specials(self.rank_of, state, self.special_ranks)  # CT-3.1, CT-3.2

    # -- what may be taken (CT-2.1, CT-2.2, CT-3.1) -----------------------------------
    def targets(self, state: DealState, card: int) -> list[tuple[int, ...]]:
        """Each choice ``card`` has on the table now: one card each, or a whole opening triple."""
        table = state.zones["table"]
        triples = state.data.get("triples")
        if triples:
            rank = self.rank_of[card]
            if rank in triples:  # CT-3.1 the fourth takes all three
                group = tuple(t for t in table if self.rank_of[t] == rank)
                if len(group) == 3:
                    return [group]
        takes = self.takes[card]
        single: list[tuple[int, ...]] = [
            (t,) for t in table if t in takes
        ]  # CT-2.2 never a sum of several; SC-3.2 one equal card
        if single or not self.fallback:
            return single  # SC-3.2 an equal-value card takes precedence over sums
        rank = self.rank_of[card]
        if rank in self.all_ranks:  # SC-V4 the whole table (an empty table: nothing to take)
            return [tuple(table)] if table else []
        if rank in self.set_ranks:  # SC-3.3 any set of two or more adding up to the card
            return sum_sets(table, self.pips, self.pips[card])
        return single

    def legal_actions(self, state: DealState) -> list[Action]:
        turned = state.zones.get("turned")
        if turned:  # CT-2.2 / CT-2.4 the stock card's choice
            card = turned[-1]
            return [Action("take", (card, *t)) for t in self.targets(state, card)]
        actions: list[Action] = []
        for card in state.zones[f"hand.{state.to_move}"]:
            options = self.targets(state, card)
            if options:  # CT-2.3 a possible capture is made
                actions.extend(Action("capture", (card, *t)) for t in options)
            else:
                actions.append(Action("play", (card,)))
        return actions

    def move_kinds(self) -> list[MoveKind]:
        """A card played alone (CT-2.3), or a capture of what it may take (CT-2.1, SC-3.2, SC-3.3), and in
        Chinese Ten the turned stock card's choice (``take``, CT-2.2, CT-2.4); each capture lists every set
        of table cards it could ever name: one card it takes, the opening triple its fourth card takes
        (CT-3.1), every set adding up to it (SC-3.3). A card that takes the whole table (SC-V4), or whose
        sums would be more than `MAX_SUM_SETS`, names whatever the table holds: one choice per card."""
        deck = self.deck
        takes: dict[int, list[frozenset[int]]] = {}
        whole: list[int] = []
        specials = self.special_ranks if self.opening_mode == "specials" else frozenset()
        for c in deck.ids:
            sets = [frozenset((t,)) for t in sorted(self.takes[c])]
            rank = self.rank_of[c]
            if rank in specials:  # CT-3.1 the fourth card takes the opening triple
                same = [t for t in deck.ids if t != c and self.rank_of[t] == rank]
                sets += [frozenset(group) for group in combinations(same, 3)]
            if rank in self.all_ranks:  # SC-V4
                whole.append(c)
            elif rank in self.set_ranks:  # SC-3.3
                found = every_sum_set([t for t in deck.ids if t != c], self.pips, self.pips[c], MAX_SUM_SETS)
                if found is None:
                    whole.append(c)
                else:
                    sets += found
            if sets:
                takes[c] = sets
        capture = MoveKind("capture", cards=sorted({*takes, *whole}), takes=takes, whole=whole)
        kinds = [MoveKind("play", cards=deck.ids), capture]
        if self.refill is None:  # CT-2.4
            kinds.append(MoveKind("take", cards=capture.cards, takes=takes, whole=whole))
        return kinds

    def refusal(self, state: DealState, action: Action) -> str | None:
        names = self.names
        turned = state.zones.get("turned")
        if turned:
            card = turned[-1]
            options = self.targets(state, card)
            if (
                action.kind == "take"
                and action.cards[:1] == (card,)
                and action.cards[1:] in options
                and not action.detail
            ):
                return None
            return f"first say what the turned {names[card]} takes (CT-2.2): " + " or ".join(
                f"'take {names[card]} {self._fmt(t)}'" for t in options
            )
        if action.kind == "take" and self.refill is None:
            return "no turned stock card is waiting: play a card from your hand"
        if action.kind not in ("play", "capture") or not action.cards or action.detail:
            title = self.says["title"]
            if self.refill is None:
                return (
                    f"a {title} move is 'play CARD', 'capture CARD TABLE-CARD', or 'take TURNED TABLE-CARD' "
                    "for a turned stock card"
                )
            return f"a {title} move is 'play CARD' or 'capture CARD TABLE-CARDS'"
        card = action.cards[0]
        if card not in state.zones[f"hand.{state.to_move}"]:
            return f"{names[card]} is not in your hand"
        options = self.targets(state, card)
        if action.kind == "play":
            if len(action.cards) != 1:
                return f"'play {names[card]}' names one card; a capture reads 'capture CARD TABLE-CARD'"
            if options:  # CT-2.3, SC-3.4
                return f"{names[card]} must capture ({self.says['must']}): " + " or ".join(
                    f"'capture {names[card]} {self._fmt(t)}'" for t in options
                )
            return None
        taken = action.cards[1:]
        if taken in options:
            return None
        if self.fallback and (self.rank_of[card] in self.set_ranks or self.rank_of[card] in self.all_ranks):
            return self._set_refusal(card, taken, options)
        if len(taken) > 1:
            why = (
                f"{names[card]} cannot take {self._fmt(taken)}: a card takes one table card; "
                f"several are never summed (CT-2.2)"
            )
        elif options:
            why = f"{names[card]} cannot take {self._fmt(taken) or 'nothing'} (CT-2.1)"
        else:
            return f"{names[card]} takes nothing on the table: 'play {names[card]}'"
        if not options:
            return f"{why}; play it with 'play {names[card]}'"
        return f"{why}; it may take " + " or ".join(self._fmt(t) for t in options)

    def _set_refusal(self, card: int, taken: tuple[int, ...], options: list[tuple[int, ...]]) -> str | None:
        """Why a capture by a card with sum-of-several or whole-table rules is wrong (SC-3.2, SC-3.3, SC-V4)."""
        names = self.names
        if len(set(taken)) == len(taken) and frozenset(taken) in {frozenset(o) for o in options}:
            return None  # the same cards in another order
        choices = " or ".join(self._fmt(t) for t in options)
        if not options:
            return f"{names[card]} takes nothing on the table: 'play {names[card]}'"
        if len(options[0]) == 1 and self.takes[card] and options[0][0] in self.takes[card]:
            return (
                f"{names[card]} cannot take {self._fmt(taken) or 'nothing'}: a card of equal value on the table "
                f"must be taken instead (SC-3.2): {choices}"
            )
        return f"{names[card]} cannot take {self._fmt(taken) or 'nothing'} (SC-3.3); it may take {choices}"

    # -- words for a person at the table ------------------------------------------------
    def moves_help(self) -> list[MoveHelp]:
        says = self.says
        if self.fallback:  # SC-3.2, SC-3.3 (and SC-V4: an ace takes the whole table)
            what = "a table card of the same value, or else table cards adding up to it"
            if self.all_ranks:
                what += f"; {'/'.join(sorted(self.all_ranks))} takes the whole table (SC-V4)"
            ids: tuple[str, ...] = (says["takes"], "SC-3.3", says["must"])
            table_cards = "TABLE-CARDS"
        else:  # CT-2.1 pairs making ten, tens and courts their own rank; one card only (CT-2.2)
            what = "one table card that makes ten with it (a ten or a court card: one of its own rank)"
            ids, table_cards = (says["takes"], "CT-2.2", says["must"]), "TABLE-CARD"
        moves = [
            MoveHelp(
                "play CARD",
                "play",
                "put a card that takes nothing on the table (the card alone does it)",
                (says["must"],),
            ),
            MoveHelp(
                f"capture CARD {table_cards}", "capture", f"play a card and take {what}; a card that can take must", ids
            ),
        ]
        if self.refill is None:  # CT-2.4 the turned stock card
            moves.append(
                MoveHelp(
                    "take TURNED TABLE-CARD",
                    "take",
                    "say which table card the stock card just turned takes, when it may take several",
                    ("CT-2.2", "CT-2.4"),
                )
            )
        return moves

    def rules_help(self) -> list[str]:
        lines = []
        if self.refill is None:
            lines.append("CT-2.4 after your card, the top stock card is turned and takes the same way")
        else:
            lines.append("SC-2.2 when every hand is empty, the dealer deals more from the stock")
        if self.sweep is not None:
            lines.append("SC-3.6 a capture that empties the table is a scopa, a point (not on the deal's last play)")
        if self.leftover == "last_capturer":
            lines.append("SC-3.7 the cards left on the table at the end go to the last capturer")
        if self.rules.table("points") is not None:
            lines.append(f"{self.says['count']} your captured cards score by the points table ('rules' shows it)")
        return lines

    def standing(self, view: View) -> list[str]:
        """What each side has captured so far, as far as the seat saw it (CT-4.1, SC-4.1), and the match's end."""
        lines = [self._captured(view)]
        end, says = self.bound("match_ends"), self.says
        if end is not None and end.op == ">=" and end.quantity == "deal_number":
            lines.append(f"deal {view.deal_number} of {end.value} ({says['end']})")
        elif end is not None and end.op == ">=" and end.quantity == "max(total)":
            lines.append(f"the game ends when a total reaches {count_words(end.value, 'point')} ({says['end']})")
        return lines

    def _captured(self, view: View) -> str:
        """``captured: you 12 cards, 30 points; seat 1 8 cards (7 seen), 10 points`` in the member's terms."""
        prizes = {first for first, _ in self.rules.each("prize")}
        scored = self.rules.table("points") is not None
        parts = []
        for side in range(self.teams or view.players):
            seats = self.team_seats(view.players, side)
            zones = {f"captures.{t}" for t in seats}
            count = sum(view.count(z) for z in zones)
            seen = [c for c, z in view.known.items() if z in zones]
            who = (
                "you"
                if view.seat in seats and len(seats) == 1
                else "your side"
                if view.seat in seats
                else (f"seat {side}" if len(seats) == 1 else "seats " + "+".join(map(str, seats)))
            )
            words = [count_words(count, "card") + (f" ({len(seen)} seen)" if len(seen) < count else "")]
            if scored:
                words.append(count_words(sum(self.point_of[c] for c in seen), "point"))
            if "coins" in prizes:
                words.append(count_words(sum(1 for c in seen if self.deck.suit_of[c] == "♦"), "coin"))
            if "settebello" in prizes and any(self.names[c] == "7♦" for c in seen):
                words.append("the settebello 7♦")
            if self.sweep is not None:
                sweeps = sum(view.counters.get(f"sweeps.{t}", 0) for t in seats)
                words.append(f"{sweeps} scopa" if sweeps == 1 else f"{sweeps} scope")
            parts.append(f"{who} {', '.join(words)}")
        return f"captured so far: {'; '.join(parts)} ({self.says['count']})"

    # -- carrying out a turn (CT-2, SC-3) ------------------------------------------------
    def apply(self, state: DealState, action: Action) -> list[dict[str, Any]]:
        seat = state.to_move
        names = self.names
        extra: list[dict[str, Any]] = []
        if action.kind == "take":  # the turned card's chosen capture
            card, taken = action.cards[0], action.cards[1:]
            state.zones["turned"].remove(card)
            self._capture(state, seat, card, taken, extra)
            self._end_turn(state, seat, extra)
            return [{"say": f"turned {names[card]} takes {self._fmt(taken)}"}, *extra]
        card = action.cards[0]
        state.zones[f"hand.{seat}"].remove(card)
        table = state.zones["table"]
        if action.kind == "capture":  # CT-2.3 the pair goes to the pile (CT-5: both steps)
            taken = action.cards[1:]
            self._capture(state, seat, card, taken, extra)
            said = f"plays {names[card]}, takes {self._fmt(taken)}"
        else:
            table.append(card)  # CT-2.3 no capture: it stays
            said = f"plays {names[card]}"
        stock = state.zones.get("stock")
        if stock and self.refill is None:  # CT-2.4 then turn the stock card
            top = stock.pop()
            options = self.targets(state, top)
            if not options:
                table.append(top)
                said += f"; turns {names[top]}"
            elif len(options) == 1:
                self._capture(state, seat, top, options[0], extra)
                said += f"; turns {names[top]}, takes {self._fmt(options[0])}"
                # CT-2.4 the stock card is turned face up for all before it goes to the pile
                self._end_turn(state, seat, extra)
                return [{"say": said, "show": [names[top]]}, *extra]
            else:  # CT-2.2 the player chooses
                state.zones.setdefault("turned", []).append(top)
                said += f"; turns {names[top]}, which may take " + " or ".join(self._fmt(t) for t in options)
                return [{"say": said}, *extra]
        self._end_turn(state, seat, extra)
        return [{"say": said}, *extra]

    def _capture(
        self, state: DealState, seat: int, card: int, taken: tuple[int, ...], events: list[dict[str, Any]]
    ) -> None:
        table = state.zones["table"]
        for t in taken:
            table.remove(t)
        state.zones.setdefault(f"captures.{seat}", []).extend((card, *taken))  # CT-1.5
        triples = state.data.get("triples")
        if triples and len(taken) > 1 and self.rank_of[card] in triples:
            triples.remove(self.rank_of[card])  # CT-3.1 used once
            if not triples:
                del state.data["triples"]
        if self.bonuses:
            self._bonuses(state, seat, (card, *taken), events)
        if self.leftover == "last_capturer":
            state.counters["last_capturer"] = seat  # SC-3.7
        if self.sweep is not None and not table and taken:
            self._sweep(state, seat, card, taken, events)

    def _sweep(
        self, state: DealState, seat: int, card: int, taken: tuple[int, ...], events: list[dict[str, Any]]
    ) -> None:
        """SC-3.6 a capture that empties the table is a sweep when the script's condition holds."""
        zones = state.zones
        last = not zones.get("stock") and not any(zones[f"hand.{s}"] for s in range(state.players))
        extra = {
            "took": (card, *taken),
            "last_play": last,
            "whole_table": self.rank_of[card] in self.all_ranks and not self.takes[card] & set(taken),
        }
        assert self.sweep is not None  # called only when the variant has a sweep rule
        with self._ctx.bound(state, seat, extra) as ctx:  # a game keeps no reference to a deal
            swept = self.sweep(ctx)
        if swept:
            key = f"sweeps.{seat}"
            state.counters[key] = state.counters.get(key, 0) + 1
            events.append({"say": f"sweep (scopa) by seat {seat}", "sweep": seat})

    def _bonuses(self, state: DealState, seat: int, cards: tuple[int, ...], events: list[dict[str, Any]]) -> None:
        """Event rules (CT-V3): every other player pays the capturer the bonus's value."""
        counters = state.counters
        with self._ctx.bound(state, seat, {"took": cards}) as ctx:  # a game keeps no reference to a deal
            for name, value, condition in self.bonuses:
                if condition(ctx):
                    amount = int(value(ctx))
                    for s in range(state.players):
                        if s != seat:
                            counters[f"bonus.{s}"] = counters.get(f"bonus.{s}", 0) - amount
                            counters[f"bonus.{seat}"] = counters.get(f"bonus.{seat}", 0) + amount
                    events.append(
                        {"say": f"bonus {name}: {amount} from each other player", "bonus": name, "amount": amount}
                    )

    def _end_turn(self, state: DealState, seat: int, events: list[dict[str, Any]]) -> None:
        hands = [state.zones[f"hand.{s}"] for s in range(state.players)]
        if not any(hands):
            stock = state.zones.get("stock")
            if self.refill is not None and stock:  # SC-2.2 the same dealer deals again, none to the table
                with self._ctx.bound(state) as ctx:
                    per_hand = min(int(self.refill(ctx)), len(stock) // state.players)
                self.deal_round_robin(state, stock, per_hand, self.next_seat(state, state.dealer))
                events.append({"say": f"the dealer deals {per_hand} more to each", "refill": per_hand})
                hands = [state.zones[f"hand.{s}"] for s in range(state.players)]
            else:
                state.over = True  # CT-3.4 hands and stock ran out; SC-3.7
                if self.leftover == "last_capturer":
                    self._leftover(state, events)
                return
        nxt = self.next_seat(state, seat)
        while not hands[nxt]:
            nxt = self.next_seat(state, nxt)
        state.to_move = nxt

    def _leftover(self, state: DealState, events: list[dict[str, Any]]) -> None:
        """SC-3.7 the cards left on the table go to the last capturer; this is not a sweep."""
        table = state.zones["table"]
        taker = state.counters.get("last_capturer")
        if not table or taker is None:
            return  # nobody captured all deal: the cards stay on the table (our choice)
        events.append({"say": f"the last capturer, seat {taker}, takes {self._fmt(table)}", "rest": taker})
        state.zones[f"captures.{taker}"].extend(table)
        table.clear()

    # -- scoring (CT-4, SC-4) ----------------------------------------------------------
    def prizes_won(self, ctx: Ctx) -> list[tuple[str, int]]:
        """The prizes (name, value) the seat in ``ctx`` wins at the end of the deal (SC-4.1)."""
        return [(name, int(value(ctx))) for name, value, condition in self.prizes if condition(ctx)]

    def break_even(self, ctx: Ctx) -> int:
        return int(self._break_even(ctx)) if self._break_even is not None else 0

    def points(self, state: DealState, seat: int) -> int:
        point_of = self.point_of
        return sum(point_of[c] for c in state.zones.get(f"captures.{seat}", ()))

    # -- the players' rulebook (tapete rules) ---------------------------------------------
    zone_words = {"captures": "capture piles", "turned": "a turned stock card waiting for its capture"}

    def rulebook_phrases(self) -> dict[str, str]:
        """CT-4.2 without bonus rules: a deal's result is the pile's points minus the break-even, no bonuses."""
        if self.bonuses:
            return {}
        return {"result": "your deal result (the points of your pile − the break-even)"}

    def rulebook(self) -> list[tuple[str, list[RuleText]]]:
        """The deal, the turn and the captures in players' words (CT-1 to CT-3; SC-2, SC-3)."""
        rules, scopa = self.rules, self.rules.game == "scopa"

        def ids(ct: str, sc: str) -> tuple[str, ...]:
            return tuple((sc if scopa else ct).split())

        deal = [
            RuleText(
                "The dealer deals {hand_size} cards to each player, one at a time, starting with the player after "
                "the dealer, then {table_size} face up to the table; {stock_size} stay face down as the stock",
                ids=ids("CT-1.3", "SC-2.2"),
            )
        ]
        if self.refill is not None:
            deal.append(
                RuleText(
                    "When every hand is empty, the same dealer deals {refill} more to each player from the stock, "
                    "none to the table, until the stock is used up",
                    ids=ids("", "SC-2.2"),
                )
            )
        mode, ranks = self.opening_mode, " ".join(sorted(self.special_ranks, key=rules.order.index))
        if mode == "specials":
            deal.append(
                RuleText(
                    f"If the opening table holds three cards of one of the ranks {ranks}, the fourth card of that "
                    "rank takes all three at once; if it holds all four, the dealer takes them at once and play "
                    "starts from an empty table",
                    covers=("opening",),
                    ids=ids("CT-3.1 CT-3.2 CT-3.3", ""),
                )
            )
        elif mode == "redeal":
            deal.append(
                RuleText(
                    f"If the opening table holds three or four cards of one of the ranks {ranks}, the cards are "
                    "dealt again",
                    covers=("opening",),
                    ids=ids("CT-V5", "SC-V2"),
                )
            )
        else:
            deal.append(RuleText("The opening table has no special rule", covers=("opening",)))
        takes = []
        for first, _ in rules.each("capture"):
            listed = rules.parsed_words("capture", first, ())
            names = _ranks_text(listed, rules.order)
            if first == "sum":
                total = rules.constant("capture", None, first="sum")
                takes.append(f"{names} take one table card that makes {total} with them")
            elif first == "rank":
                takes.append(f"{names} take one table card of their own rank")
            elif first == "value":
                takes.append(f"{names} take one table card of the same value")
        turn = [
            RuleText(
                "Play one card from your hand face up. If it can take, it must: "
                + "; ".join(takes)
                + ("; with several to choose from, you choose one" if takes else ""),
                move="capture CARD TAKEN",
                covers=("capture sum", "capture rank", "capture value"),
                ids=ids("CT-2.1 CT-2.2 CT-2.3", "SC-3.1 SC-3.2 SC-3.4"),
            )
        ]
        if self.set_ranks:
            turn.append(
                RuleText(
                    f"When no table card has its value, {_ranks_text(self.set_ranks, rules.order)} take two or more "
                    "table cards whose values add up to their own (your choice of set)",
                    covers=("capture set",),
                    ids=ids("", "SC-3.3"),
                )
            )
        else:
            turn.append(RuleText("Several table cards are never added up", ids=ids("CT-2.2", "")))
        if self.all_ranks:
            turn.append(
                RuleText(
                    f"{_ranks_text(self.all_ranks, rules.order)} take{'s' * (len(self.all_ranks) == 1)} the whole "
                    "table, unless a card of the same value is there to take",
                    covers=("capture all",),
                    ids=ids("", "SC-V4"),
                )
            )
        turn.append(
            RuleText(
                "A card that can take nothing stays face up on the table",
                move="play CARD",
                ids=ids("CT-2.3", "SC-3.4"),
            )
        )
        if self.refill is None:
            turn.append(
                RuleText(
                    "Then the top card of the stock is turned face up and takes the same way from the table as it "
                    "now stands, or stays there; when it could take in more than one way, you choose",
                    move="take TURNED TAKEN",
                    ids=ids("CT-2.4 CT-2.2", ""),
                )
            )
        pile = [RuleText("The cards taken go face down to your pile", ids=ids("CT-1.5", "SC-3.5"))]
        if self.teams:
            pile.append(RuleText("Partners' piles count together", ids=ids("", "SC-V3")))
        if rules.has("sweep"):
            pile.append(RuleText("A capture that leaves the table empty is a sweep (scopa) when {sweep}"))
        if self.leftover == "last_capturer":
            pile.append(
                RuleText(
                    "When the last card has been played, the cards left on the table go to the last player who "
                    "captured; this is not a sweep",
                    covers=("leftover",),
                )
            )
        elif rules.has("leftover"):
            pile.append(RuleText("Cards left on the table at the end stay there, unscored", covers=("leftover",)))
        for first, _ in rules.each("bonus"):
            pile.append(
                RuleText(
                    f"Bonus {first.replace('_', ' ')}: when {{bonus {first}.condition}}, every other player pays the "
                    f"capturer {{bonus {first}.value}} points"
                )
            )
        scoring = [
            RuleText(f"Prize {first}: you score {{prize {first}.value}} when {{prize {first}.condition}}")
            for first, _ in rules.each("prize")
        ]
        if rules.has("break_even"):
            scoring.append(RuleText("The break-even is {break_even} points: a deal's result is your points minus it"))
        end = [RuleText("A deal ends when every hand and the stock are empty", ids=ids("CT-3.4", "SC-3.7"))]
        return [("The deal", deal), ("A turn", turn), ("Captures", pile), ("Scoring", scoring), ("The end", end)]

    def design_problems(self, players: int) -> list[DesignProblem]:
        """Deal sizes that do not use the deck (CT-1.3, CT-3.4, SC-2.2); a break-even the points miss (CT-4.2)."""
        state = DealState(players=players, dealer=0)
        ctx = Ctx(game=self, state=state, ledger=Ledger(players))
        problems = []
        sizes = [int(size(ctx)) for size in self.sizes]
        refill = int(self.refill(ctx)) if self.refill is not None else None  # SC-2.2 hands dealt again
        problem = self.size_problem(*sizes, players, refill)  # type: ignore[call-arg]
        if problem:
            problems.append(DesignProblem("hand_size", f"with {players} players: {problem}"))
        if self._break_even is not None:
            total, even = sum(self.point_of), self.break_even(ctx)
            if total != even * players:
                fair = f"{total // players}" if total % players == 0 else f"{total / players:.2f} (not a whole number)"
                problems.append(
                    DesignProblem(
                        "break_even",
                        f"the points table totals {total}, so with {players} players a deal breaks even at {fair},"
                        f" but break_even is {even}: deal results will not sum to 0"
                        " (write 'break_even = total(points) / players' to follow the table)",
                        WARNING,
                    )
                )
        return problems

    def describe_deal(self, state: DealState) -> list[str]:
        names = self.names
        lines = []
        if state.counters.get("redeals"):
            lines.append(f"redealt {state.counters['redeals']} time(s) for a crowded opening table")
        for rank in state.data.get("quads", ()):
            lines.append(f"the opening table held four {rank}s: the dealer (seat {state.dealer}) took them")
        ctx: Ctx[ChineseTen] = Ctx(game=self, state=state)
        if self.rules.table("points") is None:
            return lines + self._describe_count(state, ctx)
        for s in range(state.players):
            ctx.seat = s
            pile = state.zones.get(f"captures.{s}", [])
            points = self.points(state, s)
            bonus = state.counters.get(f"bonus.{s}", 0)
            result = points + bonus - self.break_even(ctx)
            scoring = " ".join(names[c] for c in sorted(pile, key=lambda c: -self.point_of[c]) if self.point_of[c])
            lines.append(
                f"seat {s}: {len(pile)} cards, {points} points"
                + (f", bonus {bonus:+d}" if bonus else "")
                + f", result {result:+d}"
                + (f" ({scoring})" if scoring else "")
            )
        return lines

    def _describe_count(self, state: DealState, ctx: Ctx[ChineseTen]) -> list[str]:
        """A deal scored by prizes and sweeps (SC-4): one line per player, or per partnership."""
        lines = []
        for s in range(self.teams or state.players):
            ctx.seat = s
            seats = self.team_seats(state.players, s)
            pile = [c for t in seats for c in state.zones.get(f"captures.{t}", ())]
            who = f"seat {s}" if len(seats) == 1 else "seats " + "+".join(map(str, seats))
            parts = [f"{len(pile)} cards"]
            if self.sweep is not None:
                sweeps = sum(state.counters.get(f"sweeps.{t}", 0) for t in seats)
                parts.append(f"{sweeps} sweep{'s' if sweeps != 1 else ''}")
            if self.primiera_of is not None:
                parts.append(f"primiera {words_primiera(ctx)}")
            won = self.prizes_won(ctx)
            if won:
                parts.append("prizes " + ", ".join(name if v == 1 else f"{name} {v}" for name, v in won))
            lines.append(f"{who}: " + ", ".join(parts))
        return lines

    def _fmt(self, cards: Iterable[int]) -> str:
        return " ".join(self.names[c] for c in cards)


def _ranks_text(ranks: Iterable[str], order: Sequence[str]) -> str:
    """'A 2 3 4 5 6 7 8 9' -> 'cards from A to 9', a single rank -> 'a K', others listed."""
    listed = sorted(ranks, key=list(order).index)
    if len(listed) == 1:
        return f"an {listed[0]}" if listed[0] in ("A", "8") else f"a {listed[0]}"
    idx = [list(order).index(r) for r in listed]
    if idx == list(range(idx[0], idx[0] + len(idx))) and len(idx) > 2:
        return f"cards from {listed[0]} to {listed[-1]}"
    return ", ".join(listed[:-1]) + f" and {listed[-1]}"
