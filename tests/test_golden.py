"""Every built-in variant still plays exactly as it did when the golden set was recorded.

``tests/golden/golden.json`` holds the digests of whole match logs and of every view a bot is
handed (``tests/golden/record.py`` says what is in the set and how to record it). Refactoring
the engine must leave every one of them byte-identical; the suite compares seed 1 of every
case and the step-by-step API's deal of every variant, and ``python tests/golden/record.py``
compares the whole set (seeds 1-5). Each game's base variant is compared in the everyday run, every
other variant in the slow tier (`tapete.testing.base_variants`), so the everyday run does not grow
with every variant file a family gains.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "golden"))
import record

from tapete.testing import base_variants

GOLDEN = json.loads(record.GOLDEN.read_text())
EVERYDAY = set(base_variants())


def tiered(name: str, *values: object) -> object:
    """A case of ``name``: as it is for a base variant, under the slow marker for the others."""
    case = values if len(values) > 1 else values[0]
    return case if name in EVERYDAY else pytest.param(*values, marks=pytest.mark.slow)


def recorded_case(k: str) -> tuple[str, int, int, str]:
    """A case back from its key (``name players=P seed=S bots=W``): the cases are read from the set,
    without loading a variant while the suite is collected; the first test checks they are the set's."""
    name, players, seed, who = k.split(" ")
    return name, int(players.split("=")[1]), int(seed.split("=")[1]), who.split("=")[1]


CASES = sorted(c for c in map(recorded_case, GOLDEN["logs"]) if c[2] == 1)


def test_the_golden_set_covers_every_builtin_variant() -> None:
    recorded = {k.split(" ")[0] for k in GOLDEN["logs"]}
    assert recorded == set(record.builtin_variants())
    assert set(GOLDEN["logs"]) == {record.key(*c) for c in record.cases(record.builtin_variants())}


@pytest.mark.parametrize(
    ("name", "players", "seed", "who"), [tiered(c[0], *c) for c in CASES], ids=[record.key(*c) for c in CASES]
)
def test_the_match_log_and_the_views_are_unchanged(name: str, players: int, seed: int, who: str) -> None:
    k = record.key(name, players, seed, who)
    want_views = k in GOLDEN["views"]
    log, views = record.play_digest(name, players, seed, record.bots_for(name, who), views=want_views)
    assert log == GOLDEN["logs"][k]
    if want_views:
        assert views == GOLDEN["views"][k]


@pytest.mark.parametrize("name", [tiered(n, n) for n in record.builtin_variants()])
def test_the_deal_api_views_and_observations_are_unchanged(name: str) -> None:
    # One random deal through Deal: every seat's view after every move, views asked now and then
    # (a history built late reads as one built move by move), and the public part of observe.
    got = record.deal_digests(name)
    assert got == {part: GOLDEN[part][name] for part in record.DEAL_PARTS}
