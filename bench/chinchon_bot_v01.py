"""A strong heuristic Chinchón bot.

It plays from what a seated player knows: its own hand, the discard pile (every
card in it was seen face up) and the rules. Its yardstick is the expected
penalty after one more stock draw: a hand's penalty minus the average gain the
next unseen card could bring (``expected``). With it the bot

* takes the discard when keeping it beats what the stock is expected to give;
* discards the card whose loss leaves the lowest expected penalty (on a tie the
  higher-valued card goes, as it costs most if the deal ends now);
* closes as soon as the rules allow, choosing the face-down card that leaves the
  fewest points (a full close first): waiting only gives the others time.
"""

from __future__ import annotations

from tapete import Action, DealState, Random
from tapete_plugins.chinchon.game import DRAW_DISCARD, DRAW_STOCK


class HeuristicBot:
    def __init__(self, game, seat: int, rng: Random):
        self.rng = rng

    def choose(self, game, state: DealState, legal: list[Action]) -> Action:
        seat = state.to_move
        hand = state.zones[f"hand.{seat}"]
        if len(legal) == 1 or not hand:
            return legal[0]
        penalty = _Memo(game.solver.penalty)
        value = game.tables.value
        unseen = self._unseen(game, state, hand)
        if legal[0].kind == "draw":
            if DRAW_DISCARD not in legal:
                return DRAW_STOCK
            if DRAW_STOCK not in legal:
                return DRAW_DISCARD
            top = state.zones["discard"][-1]
            taken = min(penalty(_without(hand + [top], d)) for d in hand)
            if taken < expected(penalty, hand, unseen):
                return DRAW_DISCARD
            return DRAW_STOCK
        closes = [a for a in legal if a.kind == "close"]
        if closes:
            return min(closes, key=lambda a: (penalty(_without(hand, a.cards[0])), -value[a.cards[0]], a.cards[0]))
        discards = [a for a in legal if a.kind == "discard"]
        if not discards:
            return legal[0]
        best, best_key = discards[0], None
        for a in discards:
            c = a.cards[0]
            key = (expected(penalty, _without(hand, c), unseen), -value[c], c)
            if best_key is None or key < best_key:
                best, best_key = a, key
        return best

    @staticmethod
    def _unseen(game, state: DealState, hand: list[int]) -> list[tuple[int, int]]:
        """Cards not seen yet, one of each kind with how many copies are unseen."""
        seen = set(hand)
        seen.update(state.zones["discard"])
        deck = game.deck
        kinds: dict[tuple[str, str], list[int]] = {}
        for c in deck.ids:
            if c not in seen:
                kinds.setdefault((deck.rank_of[c], deck.suit_of[c]), []).append(c)
        return [(cards[0], len(cards)) for cards in kinds.values()]


def expected(penalty, hand: list[int], unseen: list[tuple[int, int]]) -> float:
    """Penalty of ``hand`` after one more draw from the stock and the best discard."""
    now = penalty(hand)
    if not unseen or now == 0:
        return now
    gain = total = 0
    for x, copies in unseen:
        total += copies
        grown = hand + [x]
        best = min(penalty(_without(grown, d)) for d in hand)
        if best < now:
            gain += (now - best) * copies
    return now - gain / total


class _Memo:
    """Penalties asked for during one decision: the same 7 cards come up again and again."""

    __slots__ = ("fn", "seen")

    def __init__(self, fn):
        self.fn, self.seen = fn, {}

    def __call__(self, cards: list[int]) -> int:
        key = tuple(sorted(cards))
        v = self.seen.get(key)
        if v is None:
            v = self.seen[key] = self.fn(cards)
        return v


def _without(cards: list[int], card: int) -> list[int]:
    out = list(cards)
    out.remove(card)
    return out
