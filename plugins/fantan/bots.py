"""A simple sensible Fan Tan bot.

It plays the card that opens the way to most of its own cards further along the
same row, and among equals the one that gives opponents the least: the card
nearest the row's end. It never holds a playable card back, because FT-3.4
forbids passing while a card fits.
"""

from __future__ import annotations

from tapete import Action, Game, Random, View


class SensibleBot:
    def __init__(self, game: Game, seat: int, rng: Random):
        self.rng = rng

    def choose(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        hand = view.hand
        facts = view.facts
        pos, suit_of, start_of = facts.pos, facts.suit_of, facts.start_of
        best, best_key = legal[0], None
        for action in legal:
            if not action.cards:
                continue
            card = action.cards[0]
            p, s, start = pos[card], suit_of[card], start_of[card]
            if p >= start:  # growing up: own cards above it become reachable
                mine = sum(1 for c in hand if suit_of[c] == s and pos[c] > p)
            else:
                mine = sum(1 for c in hand if suit_of[c] == s and pos[c] < p)
            key = (mine, abs(p - start), -card)
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best
