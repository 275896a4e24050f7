"""``tapete tournament``'s ratings: openskill's Plackett-Luce over whole matches, intervals by a bootstrap over
matches, no capped rating, partnerships rated as teams.

What a researcher relies on: on two-player results the ratings agree with a Bradley-Terry fit
within their intervals; the interval is as wide as the matches make it (the noise added once:
the old bootstrap drew each pair's rate and then replayed coin flips, about 1.4 times too
wide); a bot that wins everything is "better than every other at 95 %", not a capped number;
and four-player Fan Tan and Scopone's partnerships are rated from real matches.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys

import pytest

from tapete.simulation.tournament import ELO, PairResult, bradley_terry, rate, round_robin


def synthetic(strengths: dict[str, float], per_pair: int, seed: int) -> list[PairResult]:
    """Seeded two-player results of bots with known Elo strengths."""
    rng = random.Random(seed)
    pairs = []
    names = list(strengths)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            p = 1 / (1 + 10 ** ((strengths[b] - strengths[a]) / 400))
            pair = PairResult(a, b)
            for _ in range(per_pair):
                won = rng.random() < p
                pair.results.append(1.0 if won else 0.0)
                pair.wins_a += won
                pair.wins_b += not won
            pairs.append(pair)
    return pairs


STRENGTHS = {"random": 0.0, "greedy": 150.0, "counting": 300.0, "search": 420.0}


def test_two_player_ratings_agree_with_bradley_terry_within_their_intervals():
    agree(STRENGTHS, [1], 40)


@pytest.mark.slow
def test_two_player_ratings_agree_with_bradley_terry_on_many_seeds():
    agree(STRENGTHS, range(2, 12), 150)


def agree(strengths: dict[str, float], seeds, per_pair: int) -> None:
    for seed in seeds:
        pairs = synthetic(strengths, per_pair, seed)
        ratings = {r.bot: r for r in rate(list(strengths), pairs, seed)}
        bt = bradley_terry(list(strengths), [(p.a, p.b, p.wins_a, p.wins_b) for p in pairs])
        for bot, r in ratings.items():
            if bot == "random":
                continue  # the zero of both scales
            assert r.high is not None and r.low <= bt[bot] <= r.high, (seed, bot, r, bt[bot])
        assert [r.bot for r in sorted(ratings.values(), key=lambda r: -r.elo)] == list(strengths)[::-1]


def test_the_interval_adds_the_noise_once():
    """Two bots, 400 matches at 60 %: the Elo-scale standard error of the log-odds is ELO / sqrt(n p (1 - p));
    the bootstrap's 95 % interval is about 2 × 1.96 of it wide, not 1.4 times that."""
    pair = PairResult("random", "b")
    wins = 240
    pair.results = [1.0] * (400 - wins) + [0.0] * wins  # random's score: 40 %
    pair.wins_a, pair.wins_b = 400 - wins, wins
    (b,) = [r for r in rate(["random", "b"], [pair], 7) if r.bot == "b"]
    expected = 2 * 1.96 * ELO / math.sqrt(400 * 0.6 * 0.4)
    assert b.high is not None
    assert 0.75 * expected < b.high - b.low < 1.2 * expected


def test_a_bot_that_wins_everything_is_better_than_every_other_not_capped():
    pairs = synthetic({"random": 0.0, "greedy": 100.0}, 40, 1)
    perfect = PairResult("random", "search", wins_b=40, results=[0.0] * 40)
    other = PairResult("greedy", "search", wins_b=40, results=[0.0] * 40)
    ratings = {r.bot: r for r in rate(["random", "greedy", "search"], [*pairs, perfect, other], 3)}
    top = ratings["search"]
    assert top.high is None and top.best and top.interval.startswith("better than every other at 95 %")
    assert ratings["greedy"].high is not None and not ratings["greedy"].best


def test_four_player_fan_tan_is_rated_from_whole_matches():
    result = round_robin("fantan/pagat", ["random", "sensible"], 12, players=4, workers=1, seed=2)
    assert result.players == 4
    ratings = {r.bot: r for r in result.ratings}
    assert ratings["sensible"].low > 0  # above random, the whole interval
    data = result.to_json()
    assert data["rating"].startswith("openskill Plackett-Luce over whole matches")
    assert sum(len(p.results) for p in result.pairs) == 12


def test_scopone_partnerships_are_rated_as_teams():
    """SC: Scopone is played by two partnerships; a bot's seats at the table are partners (seats 0 and 2)."""
    result = round_robin("scopa/scopone", ["random", "counting"], 4, workers=1, seed=1)
    assert all(lineup[0] == lineup[2] and lineup[1] == lineup[3] for lineup in result.pairs[0].lineups)
    ratings = {r.bot: r for r in result.ratings}
    assert ratings["random"].elo == 0 and ratings["counting"].games == 4


def test_the_command_prints_the_model_and_a_perfect_record_in_words():
    proc = subprocess.run(
        [sys.executable, "-m", "tapete", "tournament", "chinese-ten/one-deal", "--bots", "random,greedy", "-n", "6"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "openskill's Plackett-Luce model over whole matches" in proc.stdout
    assert "Bradley-Terry" not in proc.stdout
