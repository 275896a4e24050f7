"""Fan Tan's picture: the suit rows as a grid by rank order (FT-3.3) and the hand as it is held.

The layout keeps the grid of a deck's rank order, and each suit row it has drawn, from one
picture to the next (a page's state is drawn for every seat after every move); these tests
hold each picture of seeded random deals to what the rules say it shows, position by position.
"""

from __future__ import annotations

import random

from tapete import load_variant

VARIANTS = ("fantan/pagat", "fantan/low-ace", "fantan/eight-before-six")


def _views(name: str, deals: int = 2):
    """Every seat's view at every position of seeded random deals (four players)."""
    variant = load_variant(name)
    rng = random.Random(name)
    for seed in range(deals):
        deal = variant.new_deal(4, seed=seed)
        while True:
            for seat in range(4):
                yield deal.view(seat)
            if deal.over:
                break
            legal = deal.legal_actions()
            deal.play(legal[rng.randrange(len(legal))])


def test_ft_3_3_each_row_puts_its_cards_in_their_ranks_columns_after_every_move():
    for name in VARIANTS:
        layout = load_variant(name).record.layout
        for view in _views(name):
            pos, deck = view.facts.pos, view.deck
            low = min(pos[c] for c in deck.ids)
            columns = max(pos[c] for c in deck.ids) - low + 1
            rows = layout.table(view)
            assert [r.strip() for r in rows[0].cards] == [
                next((deck.rank_of[c] for c in deck.ids if pos[c] == low + i), "") for i in range(columns)
            ]
            suit_rows = [r for r in rows if r.label.endswith(" row")]
            assert [r.label for r in suit_rows] == [
                f"{s} row" for s in layout.suit_order(view) if f"row.{s}" in view.counts
            ]
            for r in suit_rows:
                held = set(view.cards(f"row.{r.label[0]}"))
                assert len(r.cards) == columns
                for i, cell in enumerate(r.cards):
                    here = [c for c in held if pos[c] == low + i]
                    assert cell == (here[0] if here else None), (name, r.label, i)


def test_the_hand_is_held_in_sort_key_order():
    for name in VARIANTS:
        layout = load_variant(name).record.layout
        for view in _views(name, deals=1):
            assert layout.sorted_hand(view) == sorted(view.hand, key=lambda c: layout.sort_key(view, c))
