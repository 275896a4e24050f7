"""A greedy Chinese Ten bot: take the most points now and leave the next player little.

It looks one turn deep. A move is worth the points it takes, plus what the stock
card about to be turned is expected to take from the table the move leaves (that
capture is the mover's too, CT-2.4), minus what the next player may take from that
table: for each card left there, the chance that the next player's hand or stock
card holds a partner for it, times the points of the card and of such a partner
(denial: a black 8 left out is a gift when a red 2 can take it). It knows only what
a player at the table knows: its own hand, the face-up table and the captured cards.
"""

from __future__ import annotations

from tapete import Action, Game, Random, View


class GreedyBot:
    def __init__(self, game: Game, seat: int, rng: Random):
        self.rng = rng

    def choose(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        point_of, takes = view.facts.point_of, view.facts.takes
        seat = view.seat
        table = list(view.cards("table"))
        seen = set(view.hand)
        seen.update(table)
        seen.update(view.cards("turned"))
        seen.update(view.known)  # captured cards and any other card whose place the seat remembers
        unseen = [c for c in view.deck.ids if c not in seen]
        n_unseen = len(unseen) or 1
        draws = min(view.count(f"hand.{view.next_seat(seat)}") + 1, n_unseen)
        exposure: dict[int, float] = {}

        def risk(card: int) -> float:
            """Expected points the next player takes with ``card`` as the table card."""
            value = exposure.get(card)
            if value is None:
                partners = [u for u in unseen if u in takes[card]]
                k = len(partners)
                miss = 1.0  # no partner among their hand and stock card
                for i in range(draws):
                    miss *= max(n_unseen - k - i, 0) / (n_unseen - i)
                worth = point_of[card] + (sum(point_of[u] for u in partners) / k if k else 0)
                value = exposure[card] = (1.0 - miss) * worth
            return value

        def stock_gain(after: list[int]) -> float:
            total = 0
            for u in unseen:
                pts = [point_of[t] for t in after if t in takes[u]]
                if pts:
                    total += point_of[u] + max(pts)
            return total / n_unseen

        best, best_value = legal[0], None
        for action in legal:
            card, taken = action.cards[0], action.cards[1:]
            if action.kind == "play":
                gain, after = 0.0, table + [card]
            else:  # capture or take: the pair goes to our pile
                gain = point_of[card] + sum(point_of[t] for t in taken)
                after = [t for t in table if t not in taken]
            if action.kind != "take":
                gain += stock_gain(after)
            value = gain - sum(risk(t) for t in after)
            if best_value is None or value > best_value:
                best, best_value = action, value
        return best
