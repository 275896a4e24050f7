"""The opening table: its specials (CT-3.1, CT-3.2) or, in Main Merah, a redeal (CT-V5).

Three or four cards of a rank that pairs only with itself (K, Q, J, 10, 5) would
never all be captured one at a time, so the rules treat them at the start: the
fourth card takes a triple at once, a quad goes straight to the dealer, or the
cards are dealt again. Nothing here applies to a triple formed later (CT-3.3).
"""

from __future__ import annotations

from collections.abc import Sequence

from tapete import DealState


def crowded_ranks(rank_of: Sequence[str], table: list[int], ranks: frozenset[str]) -> dict[str, list[int]]:
    """The listed ranks that have three or more cards on the table, with those cards."""
    found: dict[str, list[int]] = {}
    for c in table:
        r = rank_of[c]
        if r in ranks:
            found.setdefault(r, []).append(c)
    return {r: cards for r, cards in found.items() if len(cards) >= 3}


def apply_specials(rank_of: Sequence[str], state: DealState, ranks: frozenset[str]) -> None:
    """CT-3.1 remember each triple for its fourth card; CT-3.2 a quad goes to the dealer."""
    table = state.zones["table"]
    triples: list[str] = []
    for rank, cards in crowded_ranks(rank_of, table, ranks).items():
        if len(cards) == 3:
            triples.append(rank)  # CT-3.1
        else:
            for c in cards:  # CT-3.2
                table.remove(c)
            state.zones[f"captures.{state.dealer}"].extend(cards)
            state.data.setdefault("quads", []).append(rank)
    if triples:
        state.data["triples"] = triples
