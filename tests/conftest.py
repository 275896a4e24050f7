"""Shared helpers: load variants once, and build deals from readable snapshots."""

from __future__ import annotations

from functools import cache

import pytest

from tapete import load_variant


@cache
def variant(name: str):
    return load_variant(name)


def snapshot_deal(
    name: str,
    zones: dict[str, list[str]],
    to_move: int = 0,
    dealer: int | None = None,
    counters: dict | None = None,
    data: dict | None = None,
    players: int | None = None,
):
    """A deal in the middle of play, written the way the rules' worked examples read."""
    v = variant(name)
    if players is None:
        players = sum(1 for z in zones if z.startswith("hand."))
    snap = {
        "players": players,
        "dealer": (to_move - 1) % players if dealer is None else dealer,
        "to_move": to_move,
        "zones": zones,
        "counters": counters or {},
        "data": data or {},
    }
    return v.deal_from_snapshot(snap)


@pytest.fixture
def load():
    return variant
