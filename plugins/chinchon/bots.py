"""A strong heuristic Chinchón bot, playing from its seat's view.

It knows what a seated player knows: its own hand, the face-up discard top, and
its memory of the deal (``view.known``: the cards buried in the discard pile, a
card an opponent took from it, the cards recycled into the stock). Its yardstick
is the expected penalty after one more stock draw: a hand's penalty minus the
average gain the next stock card could bring, over the cards that can still be
in the stock (``expected``). With it the bot

* takes the discard when keeping it beats what the stock is expected to give;
* discards the card whose loss leaves the lowest expected penalty (on a tie the
  higher-valued card goes, as it costs most if the deal ends now);
* closes as soon as the rules allow, choosing the face-down card that leaves the
  fewest points (a full close first): waiting only gives the others time.

Stalemates (CH-4.4 reshuffles without limit): when the stock has been rebuilt and
the bot's hand is the one it held at the previous rebuild, four careful players
can pass the same junk round for ever. The bot then loosens up, more with each
such rebuild: it picks among discards whose expected penalty is close to the
best with its own random state, so that the cards others wait for come loose.

Penalties are computed on the solver's card codes where the deck allows it (a
hand is the sum of its cards' codes), which makes a decision a few hundred
integer sums instead of a few thousand list copies.

In Gin Rummy (the same family) closing is knocking; the bot knocks as soon as it
may, takes the offered first upcard (GR-4.1) on the same yardstick as any
discard, and goes big gin (GR-V6) whenever it can.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tapete import Action, Game, Random, View

from .game import DRAW_DISCARD, DRAW_STOCK, PASS


class HeuristicBot:
    def __init__(self, game: Game, seat: int, rng: Random):
        self.rng = rng
        self._deal: int | None = None
        self._rebuilds = 0
        self._hand_at_rebuild: tuple[int, ...] | None = None
        self.stuck = 0  # rebuilds in a row with the same hand
        self._scanned = 0  # history events read this deal
        self._recycled: frozenset[int] | None = None  # what the last rebuilt stock was made of

    def choose(self, view: View, legal: list[Action]) -> Action:
        hand = list(view.hand)
        if len(legal) == 1 or not hand:
            return legal[0]
        facts = view.facts
        value = facts.value
        judge = _Judge(facts.solver)
        pool = self._stock_candidates(view, self._recycled_cards(view))
        if legal[0].kind == "draw":
            self._watch(view, hand)
            other = PASS if PASS in legal else DRAW_STOCK  # GR-4.1 the upcard offer: take it or pass
            if DRAW_DISCARD not in legal:
                return legal[0]
            if other not in legal:
                return DRAW_DISCARD
            top = view.top("discard")
            assert top is not None
            taken = judge.best_after_swap(hand, top)
            if taken < judge.expected(hand, pool):
                return DRAW_DISCARD
            return other
        closes = [a for a in legal if a.kind == facts.close_kind]
        if closes:
            for a in closes:
                if not a.cards:  # GR-V6 big gin
                    return a
            return min(closes, key=lambda a: (judge.without(hand, a.cards[0]), -value[a.cards[0]], a.cards[0]))
        discards = [a for a in legal if a.kind == "discard"]
        if not discards:
            return legal[0]
        scored = []
        for a in discards:
            c = a.cards[0]
            scored.append(((judge.expected_without(hand, c, pool), -value[c], c), a))
        scored.sort(key=lambda item: item[0])
        if self.stuck:
            # Loosen up: any discard within ``slack`` expected points of the best.
            slack = 2.0 * self.stuck
            best = scored[0][0][0]
            near = [a for key, a in scored if key[0] <= best + slack]
            return near[self.rng.below(len(near))]
        return scored[0][1]

    def _watch(self, view: View, hand: list[int]) -> None:
        """Count stock rebuilds (CH-4.4) that found this seat's hand unchanged."""
        if view.deal_number != self._deal:
            self._deal, self._rebuilds, self._hand_at_rebuild, self.stuck = view.deal_number, 0, None, 0
        rebuilds = view.counters.get("rebuilds", 0)
        if rebuilds < self._rebuilds:  # a new deal with the same number (a replayed deal)
            self._rebuilds, self._hand_at_rebuild, self.stuck = 0, None, 0
        if rebuilds > self._rebuilds:
            self._rebuilds = rebuilds
            key = tuple(sorted(hand))
            self.stuck = self.stuck + 1 if key == self._hand_at_rebuild else 0
            self._hand_at_rebuild = key

    def _recycled_cards(self, view: View) -> frozenset[int] | None:
        """The cards the stock was last rebuilt from (CH-4.4), read from this seat's history.

        Until the next rebuild the stock holds only some of them: every card that went
        into it was seen in the discard pile."""
        history = view.history
        if view.deal_number != self._deal or len(history) < self._scanned:
            self._deal, self._rebuilds, self._hand_at_rebuild, self.stuck = view.deal_number, 0, None, 0
            self._scanned, self._recycled = 0, None
        for i in range(self._scanned, len(history)):
            moves = [m for m in history[i].moves if m.target == "stock"]
            if moves:
                cards = [m.card for m in moves]
                self._recycled = None if None in cards else frozenset(c for c in cards if c is not None)
        self._scanned = len(history)
        return self._recycled

    @staticmethod
    def _stock_candidates(view: View, recycled: frozenset[int] | None) -> list[tuple[int, int]]:
        """Cards the next stock draw may be, one of each kind with how many copies may be there."""
        visible = {c for cards in view.zones.values() for c in cards}
        known = view.known
        deck = view.deck
        kinds: dict[tuple[str, str], list[int]] = {}
        for c in deck.ids if recycled is None else sorted(recycled):
            if c not in visible and known.get(c, "stock") == "stock":
                kinds.setdefault((deck.rank_of[c], deck.suit_of[c]), []).append(c)
        return [(cards[0], len(cards)) for cards in kinds.values()]


class _Judge:
    """Penalties of hands one or two cards away from the bot's hand, memoised for one decision."""

    def __init__(self, solver: Any):
        self.codes: list[int] | None = solver.codes
        self.of_code: Callable[[int], int] | None = solver.penalty_of_code
        self.penalty: Callable[[Sequence[int]], int] = solver.penalty
        self.memo: dict[Any, int] = {}

    def _p(self, cards: list[int]) -> int:
        """Penalty of a list of cards (general path)."""
        key = tuple(sorted(cards))
        v = self.memo.get(key)
        if v is None:
            v = self.memo[key] = self.penalty(cards)
        return v

    def _pc(self, t: int) -> int:
        v = self.memo.get(t)
        if v is None:
            assert self.of_code is not None
            v = self.memo[t] = self.of_code(t)
        return v

    def without(self, hand: list[int], card: int) -> int:
        if self.codes is not None:
            codes = self.codes
            return self._pc(sum(codes[c] for c in hand) - codes[card])
        return self._p(_without(hand, card))

    def best_after_swap(self, hand: list[int], extra: int) -> int:
        """Least penalty after adding ``extra`` and discarding one of ``hand``."""
        if self.codes is not None:
            codes, pc = self.codes, self._pc
            t = sum(codes[c] for c in hand) + codes[extra]
            return min(pc(t - codes[d]) for d in hand)
        grown = hand + [extra]
        return min(self._p(_without(grown, d)) for d in hand)

    def expected(self, hand: list[int], pool: list[tuple[int, int]]) -> float:
        """Penalty of ``hand`` after one more draw from the stock and the best discard."""
        if self.codes is not None:
            codes = self.codes
            return self._expected_code(sum(codes[c] for c in hand), [codes[d] for d in hand], pool)
        now = self._p(hand)
        if not pool or now == 0:
            return now
        gain = total = 0
        for x, copies in pool:
            total += copies
            best = self.best_after_swap(hand, x)
            if best < now:
                gain += (now - best) * copies
        return now - gain / total

    def _expected_code(self, t: int, hand_codes: list[int], pool: list[tuple[int, int]]) -> float:
        pc, codes = self._pc, self.codes
        assert codes is not None
        now = pc(t)
        if not pool or now == 0:
            return now
        gain = total = 0
        for x, copies in pool:
            total += copies
            tx = t + codes[x]
            best = min(pc(tx - d) for d in hand_codes)
            if best < now:
                gain += (now - best) * copies
        return now - gain / total

    def expected_without(self, hand: list[int], card: int, pool: list[tuple[int, int]]) -> float:
        if self.codes is not None:
            codes = self.codes
            rest = [codes[c] for c in hand if c != card]
            return self._expected_code(sum(rest), rest, pool)
        return self.expected(_without(hand, card), pool)


def _without(cards: list[int], card: int) -> list[int]:
    out = list(cards)
    out.remove(card)
    return out
