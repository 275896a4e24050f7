"""Fan Tan at the terminal: the suit rows as a grid from low to high, playable cards marked.

Each suit's row is drawn in columns by rank order, so the sevens line up and a
gap shows where a card is still missing. The rows go down in the order the hand
is held (`Layout.suit_order`), so a card is found in the row on the same line of
suits as in the hand; a card that fits a row now is marked.
"""

from __future__ import annotations

from collections.abc import Sequence

from tapete import Action, Layout, Row, View
from tapete.layout import Token, cards_words


class FanTanLayout(Layout):
    def sort_key(self, view: View, card: int) -> tuple[int, int]:
        suit_rank, _ = super().sort_key(view, card)
        return (suit_rank, view.facts.pos[card])

    def table(self, view: View) -> list[Row]:
        """FT-3.3: rows grow from their start card (FT-3.2) outwards, one rank at a time."""
        deck, pos = view.deck, view.facts.pos
        low = min(pos[c] for c in deck.ids)
        high = max(pos[c] for c in deck.ids)
        width = max(len(n) for n in deck.names)
        rank_at = {pos[c]: deck.rank_of[c] for c in deck.ids}
        ranks = tuple(rank_at.get(p, "").ljust(width) for p in range(low, high + 1))
        rows: list[Row] = [Row("", ranks, width=width)]  # the ranks over the grid's columns
        for suit in self.suit_order(view):
            zone = f"row.{suit}"
            if zone not in view.counts:
                continue
            by_pos = {pos[c]: c for c in view.cards(zone)}
            cells: tuple[Token, ...] = tuple(by_pos.get(p) for p in range(low, high + 1))
            rows.append(Row(f"{suit} row", cells, width=width))
        rows.append(self.others(view))
        for name in ("pool",):
            if name in view.counters:
                rows.append(Row(name, note=f"{view.counters[name]} chips"))
        return rows

    def hand(self, view: View, legal: Sequence[Action]) -> list[Row]:
        marked = self.playable(view, legal)
        note = "(* fits a row now)" if marked else "(nothing fits: pass, FT-3.5)"
        return [
            Row("your hand", tuple(self.sorted_hand(view)), note=f"{cards_words(len(view.hand))} {note}", marked=marked)
        ]
