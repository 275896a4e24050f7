"""Shared helpers: load variants once, and build deals from readable snapshots; reproducible hypothesis runs.

Every property and fuzz test runs derandomized with no example database (profile
``tapete``): the same examples on every machine and every run, so a red run always
means the change under test. ``--hypothesis-profile=fuzz`` is the longer, randomised
run (README, Checks), which looks for new failures instead.
"""

from __future__ import annotations

import pytest
from hypothesis import settings

from tapete.testing import deal_from_zones
from tapete.testing import variant as variant  # one cache of loaded variants for the whole suite

settings.register_profile("tapete", derandomize=True, database=None)
settings.register_profile("fuzz", derandomize=False, database=None, max_examples=2000, print_blob=True)
settings.load_profile("tapete")  # --hypothesis-profile=fuzz, read after this file, replaces it


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
