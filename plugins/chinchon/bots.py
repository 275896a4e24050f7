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
        self._memo: dict[Any, int] = {}  # penalty by hand code: a pure function, kept across decisions
        self._scanned = 0  # history events read this deal
        self._recycled: frozenset[int] | None = None  # what the last rebuilt stock was made of

    def choose(self, view: View, legal: list[Action]) -> Action:
        hand = list(view.hand)
        if len(legal) == 1 or not hand:
            return legal[0]
        facts = view.facts
        value = facts.value
        if len(self._memo) > 1 << 18:
            self._memo.clear()
        judge = _Judge(facts.solver, self._memo)
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
        after = judge.expected_after_each_discard(hand, pool)
        scored = []
        for a in discards:
            c = a.cards[0]
            scored.append(((after[c], -value[c], c), a))
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

    def __init__(self, solver: Any, memo: dict[Any, int]):
        self.codes: list[int] | None = solver.codes
        self.of_code: Callable[[int], int] | None = solver.penalty_of_code
        self.penalty: Callable[[Sequence[int]], int] = solver.penalty
        self.memo = memo
        self.info = solver.cards  # run position, suit and value of each card

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
            return self._expected_code(hand, pool)
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

    def _expected_code(self, hand: list[int], pool: list[tuple[int, int]]) -> float:
        """``expected`` on card codes. A stock card that can join no meld with the hand is
        simply kept instead of the hand's best discard: its penalty is that of the best
        six-card hand plus its own value, with no solver call (exact, and most cards are such)."""
        codes, memo, of_code = self.codes, self.memo, self.of_code
        assert codes is not None and of_code is not None
        hand_codes = [codes[d] for d in hand]
        t = sum(hand_codes)
        now = memo.get(t)
        if now is None:
            now = memo[t] = of_code(t)
        if not pool or now == 0:
            return now
        info = self.info
        melds_with = _meld_partners(info, hand)
        six = None
        gain = total = 0
        for x, copies in pool:
            total += copies
            ix = info[x]
            if melds_with(ix):
                tx = t + codes[x]
                best = None
                for d in hand_codes:
                    k = tx - d
                    v = memo.get(k)
                    if v is None:
                        v = memo[k] = of_code(k)
                    if best is None or v < best:
                        best = v
            else:
                if six is None:
                    six = min(self._pc(t - d) for d in hand_codes)
                best = six + ix.value
            if best is not None and best < now:
                gain += (now - best) * copies
        return now - gain / total

    def expected_after_each_discard(self, hand: list[int], pool: list[tuple[int, int]]) -> dict[int, float]:
        """``expected`` of the hand less each of its cards, for every card of the hand at once.

        On card codes the hands two cards away from ``hand`` (plus a stock card) are
        shared between discards: each pair is judged once instead of once per discard."""
        if self.codes is None or len(set(hand)) != len(hand):
            return {c: self.expected_without(hand, c, pool) for c in hand}
        codes, memo, of_code = self.codes, self.memo, self.of_code
        assert of_code is not None

        def p(k: int) -> int:
            v = memo.get(k)
            if v is None:
                v = memo[k] = of_code(k)
            return v

        n = len(hand)
        hc = [codes[c] for c in hand]
        t = sum(hc)
        now = [p(t - hc[i]) for i in range(n)]
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        two = [[0] * n for _ in range(n)]
        for i, j in pairs:
            two[i][j] = two[j][i] = p(t - hc[i] - hc[j])
        six = [min(two[i][j] for j in range(n) if j != i) for i in range(n)]
        if not pool:
            return {hand[i]: float(now[i]) for i in range(n)}
        info = self.info
        melds_with = _meld_partners(info, hand)
        gains = [0] * n
        total = 0
        loose: dict[int, int] = {}
        grid = [[0] * n for _ in range(n)]
        for x, copies in pool:
            total += copies
            ix = info[x]
            if melds_with(ix):
                tx = t + codes[x]
                for i, j in pairs:
                    grid[i][j] = grid[j][i] = p(tx - hc[i] - hc[j])
                for i in range(n):
                    row = grid[i]
                    best = min(row[j] for j in range(n) if j != i)
                    if best < now[i]:
                        gains[i] += (now[i] - best) * copies
            else:
                loose[ix.value] = loose.get(ix.value, 0) + copies
        for value, copies in loose.items():  # cards that meld with nothing, by value
            for i in range(n):
                best = six[i] + value
                if best < now[i]:
                    gains[i] += (now[i] - best) * copies
        return {hand[i]: (now[i] if now[i] == 0 else now[i] - gains[i] / total) for i in range(n)}

    def expected_without(self, hand: list[int], card: int, pool: list[tuple[int, int]]) -> float:
        if self.codes is not None:
            return self._expected_code([c for c in hand if c != card], pool)
        return self.expected(_without(hand, card), pool)


def _meld_partners(info: Sequence[Any], hand: list[int]) -> Callable[[Any], bool]:
    """Whether a card could join a meld with cards of ``hand`` (or of any part of it).

    On the solver's fast path melds are groups of three or more of a rank and runs of
    three or more in suit (CH-3.1, CH-3.2): a card needs two hand cards of its rank, or
    two suited neighbours that make a run of three with it. A card that cannot is never
    matched, so the hand's penalty with it is simply that of the rest plus its value."""
    per_rank: dict[int, int] = {}
    places: set[tuple[int, int]] = set()
    for c in hand:
        ci = info[c]
        per_rank[ci.run_pos] = per_rank.get(ci.run_pos, 0) + 1
        places.add((ci.suit, ci.run_pos))

    def partners(ix: Any) -> bool:
        if per_rank.get(ix.run_pos, 0) >= 2:
            return True
        s, p = ix.suit, ix.run_pos
        below2, below1 = (s, p - 2) in places, (s, p - 1) in places
        above1, above2 = (s, p + 1) in places, (s, p + 2) in places
        return (below2 and below1) or (below1 and above1) or (above1 and above2)

    return partners


def _without(cards: list[int], card: int) -> list[int]:
    out = list(cards)
    out.remove(card)
    return out
