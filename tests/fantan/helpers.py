"""Fan Tan test helpers: a table of rows and hands from card names."""

from __future__ import annotations

from conftest import snapshot_deal

SUITS = "♣♦♥♠"


def fantan(
    hands: list[str],
    rows: dict[str, str] | None = None,
    to_move: int = 0,
    variant: str = "fantan/pagat",
    counters: dict | None = None,
):
    """hands: one string of cards per seat; rows: suit -> cards low to high."""
    zones = {f"hand.{i}": h.split() for i, h in enumerate(hands)}
    for s in SUITS:
        zones[f"row.{s}"] = (rows or {}).get(s, "").split()
    return snapshot_deal(variant, zones, to_move=to_move, counters=counters)


def cards(deal, seat: int) -> list[str]:
    return deal.game.deck.format_all(deal.state.zones[f"hand.{seat}"])


def legal(deal) -> set[str]:
    return {a.text(deal.game.deck) for a in deal.legal_actions()}
