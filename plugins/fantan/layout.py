"""Fan Tan at the terminal: the suit rows as a grid from low to high, playable cards marked.

Each suit's row is drawn in columns by rank order, so the sevens line up and a
gap shows where a card is still missing. The rows go down in the order the hand
is held (`Layout.suit_order`), so a card is found in the row on the same line of
suits as in the hand; a card that fits a row now is marked.
"""

from __future__ import annotations

from collections.abc import Sequence

from tapete import Action, Deck, Layout, Row, View
from tapete.layout import Token, cards_words

MAX_GRIDS = 64  # decks and rank orders drawn (one per variant in play)
MAX_ROWS = 4_096  # suit rows kept per grid: a suit's row holds a run of its ranks, so few occur


class FanTanLayout(Layout):
    def __init__(self) -> None:
        # what `table` draws the same way every time, made once: the grid of a deck's rank order
        # (its columns and the ranks over them), and each suit row for the cards it holds
        self._grids: dict[tuple[int, tuple[int, ...]], _Grid] = {}

    def sort_key(self, view: View, card: int) -> tuple[int, int]:
        suit_rank, _ = super().sort_key(view, card)
        return (suit_rank, view.facts.pos[card])

    def sorted_hand(self, view: View) -> list[int]:
        """The hand in `sort_key`'s order, with the suits' order looked up once, not once a card."""
        order = self.suit_order(view)
        suit_rank: dict[str, int] = {}
        for i, suit in enumerate(order):
            suit_rank.setdefault(suit, i)
        suit_of, pos, last = view.deck.suit_of, view.facts.pos, len(order)
        return sorted(view.hand, key=lambda c: (suit_rank.get(suit_of[c], last), pos[c]))

    def table(self, view: View) -> list[Row]:
        """FT-3.3: rows grow from their start card (FT-3.2) outwards, one rank at a time."""
        grid = self._grid(view)
        rows: list[Row] = [grid.ranks]  # the ranks over the grid's columns
        for suit in self.suit_order(view):
            zone = f"row.{suit}"
            if zone not in view.counts:
                continue
            rows.append(grid.row(suit, view.cards(zone)))
        rows.append(self.others(view))
        for name in ("pool",):
            if name in view.counters:
                rows.append(Row(name, note=f"{view.counters[name]} chips"))
        return rows

    def _grid(self, view: View) -> _Grid:
        """The grid of this deck in this rank order (a state is drawn for every seat after every move)."""
        deck = view.deck
        key = (id(deck), tuple(view.facts.pos))
        grid = self._grids.get(key)
        if grid is None or grid.deck is not deck:  # the grid keeps its deck, so the id is never another's
            if len(self._grids) >= MAX_GRIDS:
                self._grids.clear()  # a bound, not an eviction policy: the grids in play are made again at once
            grid = self._grids[key] = _Grid(deck, key[1])
        return grid

    def hand(self, view: View, legal: Sequence[Action]) -> list[Row]:
        marked = self.playable(view, legal)
        note = "(* fits a row now)" if marked else "(nothing fits: pass, FT-3.5)"
        return [
            Row("your hand", tuple(self.sorted_hand(view)), note=f"{cards_words(len(view.hand))} {note}", marked=marked)
        ]


class _Grid:
    """A deck's columns from its lowest rank position to its highest, and the suit rows drawn on them."""

    def __init__(self, deck: Deck, pos: tuple[int, ...]) -> None:
        self.deck, self.pos = deck, pos
        self.low = min(pos[c] for c in deck.ids)
        self.high = max(pos[c] for c in deck.ids)
        self.width = max(len(n) for n in deck.names)
        rank_at = {pos[c]: deck.rank_of[c] for c in deck.ids}
        ranks = tuple(rank_at.get(p, "").ljust(self.width) for p in range(self.low, self.high + 1))
        self.ranks = Row("", ranks, width=self.width)
        self._rows: dict[tuple[str, tuple[int, ...]], Row] = {}

    def row(self, suit: str, cards: tuple[int, ...]) -> Row:
        """The row of ``suit`` holding ``cards``, each in its rank's column (a gap where none is)."""
        key = (suit, cards)
        made = self._rows.get(key)
        if made is None:
            pos = self.pos
            by_pos = {pos[c]: c for c in cards}
            cells: tuple[Token, ...] = tuple(by_pos.get(p) for p in range(self.low, self.high + 1))
            if len(self._rows) >= MAX_ROWS:
                self._rows.clear()
            made = self._rows[key] = Row(f"{suit} row", cells, width=self.width)
        return made
