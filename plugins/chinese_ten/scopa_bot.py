"""A counting bot for Scopa: take what the count rewards, sweep, and leave no sweep behind.

It looks one play deep. A move is worth what its captured cards bring towards the
count (SC-4.1: a card towards most cards, a coin, the settebello, the primiera
cards of each suit by the script's primiera table), plus a point for a sweep
(SC-3.6), minus what the next player is likely to get from the table the move
leaves: the chance that some card they may hold sweeps it, and the chance that
they take each valuable card left there. When the next player is a partner
(SC-V3) what they may take counts for the bot instead. It reads the capture rules
from the game's public facts (equal cards, sums, the ace's whole-table rule), so it
plays every Scopa variant, and it knows only what its seat knows (its view).
"""

from __future__ import annotations

from collections.abc import Sequence

from tapete import Action, Game, Random, View

CARD = 0.12  # a card towards "most cards" (about one point over twenty-odd cards)
COIN = 0.25  # a coin towards "most coins"
SWEEP = 1.0  # SC-4.3 a point
COINS = "♦"  # SC-1.2 denari
SETTEBELLO = "7♦"  # SC-4.1


class CountingBot:
    def __init__(self, game: Game, seat: int, rng: Random):
        self.rng = rng
        deck = game.deck
        facts = game.facts()
        primiera: list[int] = facts.get("primiera") or [0] * len(deck)
        top = max(primiera) or 1
        # The count's worth of each card: a card, a coin, its primiera weight, the settebello (SC-4).
        self.worth = [
            CARD
            + (COIN if deck.suit_of[c] == COINS else 0.0)
            + 0.35 * (primiera[c] / top) ** 3
            + (1.0 if deck.names[c] == SETTEBELLO else 0.0)
            for c in deck.ids
        ]

    def choose(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        facts = view.facts
        seat = view.seat
        hand = view.hand
        table = list(view.cards("table"))
        unseen = [c for c in view.unseen() if c not in hand]
        nxt = view.next_seat(seat)
        teams = facts.teams
        partner_next = bool(teams) and nxt % teams == seat % teams
        others_empty = all(view.count(f"hand.{s}") == 0 for s in range(view.players) if s != seat)
        last_play = len(hand) == 1 and view.count("stock") == 0 and others_empty
        their_hand = view.count(f"hand.{nxt}")
        best, best_value = legal[0], float("-inf")
        for action in legal:
            value = self.value(view, action, table, unseen, their_hand, partner_next, last_play)
            if value > best_value:
                best, best_value = action, value
        return best

    def value(
        self,
        view: View,
        action: Action,
        table: list[int],
        unseen: list[int],
        their_hand: int,
        partner_next: bool,
        last_play: bool,
    ) -> float:
        worth = self.worth
        card, taken = action.cards[0], action.cards[1:]
        if action.kind == "capture":
            gain = worth[card] + sum(worth[t] for t in taken)
            after = [t for t in table if t not in taken]
            if not after and view.facts.sweeps and not last_play:
                gain += SWEEP  # the script may still say no (SC-V4's ace): a small optimism
        else:
            gain = -0.5 * worth[card]  # a card given to the table is half lost
            after = [*table, card]
        if not unseen or not their_hand or not after:
            return gain
        risk = self.reply_risk(view, after, unseen, their_hand)
        return gain + 0.5 * risk if partner_next else gain - risk

    def reply_risk(self, view: View, after: Sequence[int], unseen: list[int], their_hand: int) -> float:
        """What the next player may take from ``after``: a sweep, and the valuable cards."""
        facts = view.facts
        pips, takes = facts.pips, facts.takes
        set_ranks, all_ranks = facts.set_ranks, facts.all_ranks
        rank_of = view.deck.rank_of
        n = len(unseen)
        draws = min(their_hand, n)

        def chance(k: int) -> float:
            """That at least one of k cards is among the next player's hand."""
            miss = 1.0
            for i in range(draws):
                miss *= max(n - k - i, 0) / (n - i)
            return 1.0 - miss

        total = sum(pips[t] for t in after)
        sweepers = 0
        for u in unseen:
            if any(t in takes[u] for t in after):
                sweepers += len(after) == 1  # SC-3.2 an equal card takes one card only
            elif rank_of[u] in all_ranks or (rank_of[u] in set_ranks and len(after) >= 2 and total == pips[u]):
                sweepers += 1
        risk = chance(sweepers) * (SWEEP + sum(self.worth[t] for t in after)) if sweepers else 0.0
        for t in after:
            k = sum(1 for u in unseen if t in takes[u])
            if k:
                risk += 0.5 * chance(k) * self.worth[t]
        return risk
