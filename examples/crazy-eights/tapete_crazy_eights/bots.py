"""The ``shedder`` bot: plays from its seat's view only (``choose(view, legal)``).

It keeps its eights for when nothing else fits, sheds its costliest card among those
of the suit it holds most of (so the suit it leaves on the table is one it can
follow again), and names the suit it holds most of when it plays an eight. When an
opponent is down to one card it plays an eight, if it has one, to change the suit.
"""

from __future__ import annotations

from collections import Counter

from tapete import Action, Game, Random, View


class ShedderBot:
    def __init__(self, game: Game, seat: int, rng: Random):
        self.rng = rng

    def choose(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        wild, points = view.facts.is_wild, view.facts.point_of
        suit_of = view.deck.suit_of
        mine = Counter(suit_of[c] for c in view.hand if not wild[c])
        plays = [a for a in legal if a.kind == "play"]
        if not plays:
            return legal[0]
        plain = [a for a in plays if not wild[a.cards[0]]]
        danger = any(view.count(f"hand.{s}") == 1 for s in range(view.players) if s != view.seat)
        if plain and not (danger and len(plain) < len(plays)):
            return max(plain, key=lambda a: (mine[suit_of[a.cards[0]]], points[a.cards[0]], -a.cards[0]))
        best_suit = max(view.deck.suits, key=lambda s: (mine[s], -view.deck.suits.index(s)))
        for a in plays:
            if wild[a.cards[0]] and a.detail == best_suit:
                return a
        return plays[0]
