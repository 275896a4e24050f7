"""``tapete tournament``: a seeded round robin with seats rotated, rated with intervals."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter

import pytest

from tapete import TapeteError
from tapete.simulation.tournament import bradley_terry, lineups, round_robin


def tapete(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tapete", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("games", [2, pytest.param(8, marks=pytest.mark.slow)])
def test_a_three_bot_round_robin_on_the_command_line(tmp_path, games):
    """Every pair meets --games times, played on a pool of worker processes. At Fan Tan's four seats a pair sits
    two ways (a b a b and b a b a): 2 matches a pair play each way once, the everyday size; the slow tier plays 8,
    each way four times."""
    proc = tapete(
        "tournament",
        "fantan/pagat",
        "--bots",
        "random,sensible,ismcts:iterations=4",
        "--games",
        str(games),
        "--workers",
        "2",
        "--json",
        str(tmp_path / "t.json"),
    )
    assert proc.returncode == 0, proc.stderr
    assert "head to head" in proc.stdout and "95% interval" in proc.stdout
    data = json.loads((tmp_path / "t.json").read_text())
    h2h = data["head_to_head"]
    for a in ("random", "sensible", "ismcts:iterations=4"):
        for b, cell in h2h[a].items():
            assert cell["games"] + cell["errors"] == games  # every pair meets --games times
            assert cell["wins"] == h2h[b][a]["losses"]
    ratings = [r["elo"] for r in data["ratings"]]
    assert ratings == sorted(ratings, reverse=True)
    assert next(r for r in data["ratings"] if r["bot"] == "random")["elo"] == 0


def test_the_default_bot_is_rated_above_random_and_the_interval_says_so():
    result = round_robin("fantan/pagat", ["random", "sensible"], 16, workers=1)
    sensible = next(r for r in result.ratings if r.bot == "sensible")
    assert sensible.low > 0  # the whole 95% interval is above random


def test_the_same_seed_gives_the_same_tournament():
    one = round_robin("chinese-ten/two-player", ["random", "greedy"], 6, workers=1, seed="x")
    two = round_robin("chinese-ten/two-player", ["random", "greedy"], 6, workers=1, seed="x")
    assert one.to_json() == two.to_json()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_bot_sits_in_every_seat_equally_often(players):
    ways = lineups("a", "b", players)
    for seat in range(players):
        counts = Counter(lineup[seat] for lineup in ways)
        assert counts["a"] == counts["b"]


def test_bradley_terry_worked_example():
    """A beats B 75 times in 100: odds of 3:1 are 191 Elo points; the prior of one draw makes it 75.5:25.5."""
    r = bradley_terry(["a", "b"], [("a", "b", 75, 25)])
    assert r["a"] - r["b"] == pytest.approx(400 * math.log10(75.5 / 25.5))
    chain = bradley_terry(["x", "y", "z"], [("x", "y", 30, 10), ("y", "z", 30, 10), ("x", "z", 38, 2)])
    assert chain["x"] > chain["y"] > chain["z"]


@pytest.mark.parametrize(
    ("bots", "words"),
    [(["random"], "at least two bots"), (["random", "random"], "each bot is listed once")],
)
def test_a_tournament_that_cannot_be_played_is_refused(bots, words):
    with pytest.raises(TapeteError, match=words):
        round_robin("fantan/pagat", bots, 4, workers=1)


@pytest.mark.slow  # a local Dask cluster: the slow tier
def test_a_tournament_plays_on_a_dask_cluster_as_on_processes():
    pytest.importorskip("distributed")
    local = round_robin("fantan/pagat", ["random", "sensible"], 4, workers=1, seed=3)
    dask = round_robin("fantan/pagat", ["random", "sensible"], 4, workers=1, seed=3, scheduler="local")
    assert local.to_json() == dask.to_json()
