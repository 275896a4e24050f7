"""``--until-decided``: a report, a skill ladder and a tournament that play rounds until they know.

The sequence is checked for what makes stopping early safe (looked at after every round, it
leaves out the true value at most about 5 % of the time, where a fixed-size interval looked at
as often does far more), and each command is run on a small budget: it stops when the
differences asked about are decided, says which remain undecided and roughly how many more
matches they would need.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys

import pytest

from tapete.design.report import Arm, run_report
from tapete.simulation import sequential
from tapete.simulation.tournament import round_robin


def tapete(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tapete", *args], capture_output=True, text=True, timeout=600)


def test_the_sequence_stays_valid_when_looked_at_every_round():
    """No difference (mean 0): the share of runs whose sequence ever leaves out 0 over 300 looks stays near 5 %;
    a fixed 95 % interval looked at as often leaves it out in far more runs."""
    rng = random.Random(11)
    ever_cs = ever_fixed = 0
    runs = 150
    for _ in range(runs):
        total = squares = 0.0
        hit_cs = hit_fixed = False
        for n in range(1, 301):
            x = rng.gauss(0, 1)
            total += x
            squares += x * x
            if n < 10:
                continue
            mean = total / n
            sd = math.sqrt(max(squares / n - mean * mean, 0) * n / (n - 1))
            hit_cs |= sequential.half_width(sd, n, 0.05, 100) < abs(mean)
            hit_fixed |= 1.96 * sd / math.sqrt(n) < abs(mean)
        ever_cs += hit_cs
        ever_fixed += hit_fixed
    assert ever_cs / runs <= 0.08
    assert ever_fixed / runs >= 0.2


def test_the_matches_still_needed_are_where_the_sequence_would_decide():
    rng = random.Random(2)
    diffs = [rng.gauss(0.1, 1) for _ in range(100)]
    state = sequential.decide(diffs, 0.05, 100)
    assert not state["decided"] and state["needed"] > 100
    sd = math.sqrt(sum((x - state["mean"]) ** 2 for x in diffs) / 99)
    assert sequential.half_width(sd, state["needed"], 0.05, 100) < abs(state["mean"])
    assert sequential.half_width(sd, state["needed"] - 1, 0.05, 100) >= abs(state["mean"])
    assert sequential.more_text(state) == f"about {state['needed'] - 100:,} more matches"
    nothing = sequential.decide([0.5, -0.5] * 20, 0.05, 40)
    assert nothing["needed"] is None and "no difference shows" in sequential.more_text(nothing)


def test_the_report_plays_until_decided_and_says_what_remains(tmp_path):
    """Nines' deals are shorter than Sevens' at once; who moves first wins no more in either: undecided."""
    args = ["report", "fantan/pagat", "fantan/nines", "-o", "wins_to=1", "--games", "6", "--no-ladder"]
    args += ["--until-decided", "--budget", "12", "--decide", "actions_per_deal,first_player", "--workers", "1"]
    args += ["--out", str(tmp_path / "r.html"), "--json", str(tmp_path / "r.json"), "--quiet"]
    proc = tapete(*args)
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    seq = data["sequential"]
    assert seq["matches"] == 12 and seq["rounds"] == 2 and "confidence sequences" in seq["method"]
    decided = {st["metric"]: st["decided"] for st in seq["states"]}
    assert decided == {"actions_per_deal": True, "first_player": False}
    (left,) = seq["undecided"]
    assert left["metric"] == "first_player"
    assert "Played until decided: 2 round(s), 12 matches an arm; undecided: first player wins" in proc.stdout
    rows = {r["metric"]: r for r in data["comparisons"][0]["rows"]}
    assert rows["actions_per_deal"]["real"] and "decided: real at 95 %" in rows["actions_per_deal"]["text"]
    assert data["arms"][0]["games"] == 12 and data["arms"][0]["stats"]["matches"] == 12


@pytest.mark.slow  # the report's until-decided run above is the everyday one
def test_the_report_stops_as_soon_as_every_difference_is_decided():
    arms = [Arm("fantan/pagat", {"wins_to": 1}), Arm("fantan/nines", {"wins_to": 1})]
    data = run_report(arms, 6, ladder=False, workers=1, until_decided=True, budget=60, decide=["actions_per_deal"]).data
    assert data["sequential"]["rounds"] == 1 and data["sequential"]["undecided"] == []
    assert "every difference asked about is decided" in data["summary"][-2]


def test_the_ladder_plays_until_its_rungs_are_ordered_or_the_budget_ends():
    arms = [Arm("fantan/pagat", {"wins_to": 1})]
    data = run_report(arms, 4, ladder_games=6, budgets=(2, 3), workers=1, until_decided=True, budget=12).data
    ladder = data["arms"][0]["ladder"]
    assert [r["matches"] for r in ladder] == [12] * len(ladder)  # nothing ordered at 6: a second round
    steps = [r["against_previous"] for r in ladder[1:]]
    assert all("decided" in s for s in steps) and ladder[0].get("against_previous") is None
    assert any("the ladder cannot yet order" in line for line in data["summary"])


@pytest.mark.slow
def test_the_tournament_plays_until_its_order_is_decided():
    result = round_robin("chinese-ten/one-deal", ["random", "greedy"], 10, workers=1, until_decided=True, budget=40)
    (step,) = result.order
    assert step["better"] == "greedy" and step["decided"]
    assert result.games == 10  # decided after the first round
    close = round_robin(
        "chinese-ten/one-deal", ["greedy", "ismcts:iterations=2"], 6, workers=1, until_decided=True, budget=12
    )
    assert close.games == 12 and not close.order[0]["decided"] and "more" in close.order[0]


def test_until_decided_needs_a_budget_of_a_round_at_least():
    proc = tapete(
        "tournament", "chinese-ten/one-deal", "--bots", "random,greedy", "-n", "10", "--until-decided", "--budget", "5"
    )
    assert proc.returncode == 1 and "--budget of at least --games" in proc.stderr and "Traceback" not in proc.stderr
    bad = tapete("report", "fantan/pagat", "--until-decided", "--decide", "speed", "--no-ladder", "-n", "2")
    assert bad.returncode == 1 and "--decide takes measures among first_player" in bad.stderr
