"""No match runs for ever: every registered variant, every player count, every bot.

For each registered variant and each player count it allows, whole matches are
played with the game's default bot at every seat, with random bots, and with the
bots mixed, over several seeds. Each must end within a bounded number of actions
(the bound is far above any real match; reaching it means a loop). A game that
sees its own deal stall says so in words (``stall``); a test failure here names
the variant, the players, the bots and the seed to replay.
"""

from __future__ import annotations

import pytest
from conftest import variant

from tapete import Match, registry
from tapete.testing import base_variants

MAX_ACTIONS_PER_MATCH = 400_000
# a person; a search bot is too slow to seat in every match; a policy needs a trained file
SKIP_BOTS = {"human", "ismcts", "policy"}


def player_counts(name: str) -> list[int]:
    lo, hi = variant(name).player_range()
    return sorted({lo, hi, min(max(lo, variant(name).default_players()), hi)})


def line_ups(name: str, players: int) -> list[tuple[str, list[str]]]:
    record = variant(name).record
    default = record.default_bot
    offered = [b for b in record.bot_names() if b not in SKIP_BOTS]
    mixed = [offered[s % len(offered)] for s in range(players)]
    return [("default", [default]), ("random", ["random"]), ("mixed", mixed)]


CASES = [
    (name, players, label, bots, seed)
    for name in sorted(registry().variants())
    for players in player_counts(name)
    for label, bots in line_ups(name, players)
    for seed in ((1, 2) if label == "default" else (3,))
]
EVERYDAY = set(base_variants())  # each game's base every run; every other variant in the slow tier


class TooLong(Exception):
    pass


@pytest.mark.parametrize(
    ("name", "players", "label", "bots", "seed"),
    [pytest.param(*c, marks=() if c[0] in EVERYDAY else pytest.mark.slow) for c in CASES],
    ids=[f"{n}-{p}p-{lab}-s{s}" for n, p, lab, _, s in CASES],
)
def test_every_match_ends(name, players, label, bots, seed):
    actions = 0

    def count(event: dict) -> None:
        nonlocal actions
        if event["type"] == "action":
            actions += 1
            if actions > MAX_ACTIONS_PER_MATCH:
                raise TooLong(f"{name} with {players} players, bots {bots}, seed {seed}: still going")

    result = Match(variant(name), players, seed, bots=bots).play(count)
    assert result.deals >= 1 and actions > 0
    assert result.winner == -1 or result.winner in range(players)
