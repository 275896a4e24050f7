"""Shared helpers: load variants once, and build deals from readable snapshots."""

from __future__ import annotations

from functools import cache

import pytest

from tapete import load_variant
from tapete.testing import deal_from_zones


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
    return deal_from_zones(variant(name), zones, to_move, dealer, counters, data, players)


@pytest.fixture
def load():
    return variant
