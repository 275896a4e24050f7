"""A round robin of bots in one variant, and ratings with intervals.

Every pair of bots meets at the same table over ``games`` seeded matches: the seats
alternate between the two (``a, b, a, b`` at four players), and every rotation of that
order is played equally, so each bot sits in each seat as often as the other; the first
dealer is drawn from each match's seed. A match counts as a win for the bot whose seat won
it (a draw is half a win for each; a match stopped by an error of the game counts for
nobody and is reported).

Ratings are a Bradley-Terry fit of those pairwise results on the Elo scale (400 points of
rating difference are 10:1 odds), with one virtual draw per pair as a prior so that a bot
that wins everything still gets a finite rating. The 95 % interval comes from a seeded
parametric bootstrap: each round draws every pair's share of wins from its Jeffreys
posterior (Beta(wins + ½, losses + ½)), replays the pair's matches as coin flips with that
share and fits again, so that a perfect record still has an interval. The ``random`` bot is the zero of the scale
when it plays; otherwise the ratings average to zero. Chosen over a rating library because
a round robin's results are complete and pairwise, which is exactly what Bradley-Terry
models, and the bootstrap gives intervals that say how much the games decide.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import TapeteError
from ..core.inputs import MAX_GAMES, declare, read_bots
from ..core.inputs import count as read_games
from ..core.signals import Terminated
from ..play.loading import load_variant
from ..play.match import check_bots
from .plan import Progress, simulate

BOOTSTRAP_ROUNDS = 400  # enough for the 2.5 and 97.5 percentiles to settle to a few points


@dataclass
class PairResult:
    """What one pair of bots did against each other."""

    a: str
    b: str
    wins_a: int = 0
    wins_b: int = 0
    draws: int = 0
    errors: int = 0
    lineups: list[list[str]] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.wins_a + self.wins_b + self.draws


@dataclass
class Rating:
    bot: str
    elo: float
    low: float
    high: float
    games: int
    score: float  # wins + half the draws, over games


@dataclass
class Tournament:
    variant: str
    players: int
    bots: list[str]
    games: int
    seed: str
    pairs: list[PairResult]
    ratings: list[Rating]

    def to_json(self) -> dict[str, Any]:
        h2h: dict[str, dict[str, dict[str, Any]]] = {b: {} for b in self.bots}
        for p in self.pairs:
            for me, other, won, lost in ((p.a, p.b, p.wins_a, p.wins_b), (p.b, p.a, p.wins_b, p.wins_a)):
                h2h[me][other] = {
                    "games": p.games,
                    "wins": won,
                    "losses": lost,
                    "draws": p.draws,
                    "errors": p.errors,
                    "score": (won + p.draws / 2) / p.games if p.games else None,
                }
        return {
            "variant": self.variant,
            "players": self.players,
            "games_per_pair": self.games,
            "seed": self.seed,
            "rating": "Bradley-Terry on the Elo scale, 95% bootstrap interval",
            "ratings": [r.__dict__ for r in self.ratings],
            "head_to_head": h2h,
            "lineups": {f"{p.a} vs {p.b}": p.lineups for p in self.pairs},
        }


def lineups(a: str, b: str, players: int) -> list[list[str]]:
    """Every rotation of the seats ``a, b, a, b, ...`` and of ``b, a, b, a, ...``, each once."""
    found: list[list[str]] = []
    for first, second in ((a, b), (b, a)):
        base = [first if s % 2 == 0 else second for s in range(players)]
        for r in range(players):
            turn = base[r:] + base[:r]
            if turn not in found:
                found.append(turn)
    return found


@declare(
    variant="variant",
    bots="bots",
    games="count",
    players="count",
    options="options",
    seed="seed",
    workers="count",
    scheduler="word",
    progress="callable",
)
def round_robin(
    variant: str,
    bots: Sequence[str],
    games: int = 100,
    *,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: object = 1,
    workers: int | None = None,
    scheduler: Any = None,
    progress: Progress | None = None,
) -> Tournament:
    """Play every pair of ``bots`` ``games`` times (see the module docstring) and rate them."""
    names = read_bots(bots, person=False, where="a tournament")
    if len(names) < 2:
        raise TapeteError("a tournament needs at least two bots: --bots a,b[,c...]")
    if len(set(names)) != len(names):
        raise TapeteError("each bot is listed once in a tournament; give a copy parameters to tell it apart")
    read_games(games, "--games", low=1, high=MAX_GAMES)
    v = load_variant(variant, options=dict(options or {}))
    n = players if players is not None else max(2, v.default_players())
    v.check_players(n)
    check_bots(v, names, person=False, where="a tournament")  # every bot built once: a bad spec fails here
    pairs: list[PairResult] = []
    for i, (a, b) in enumerate(itertools.combinations(names, 2)):
        pair = PairResult(a, b, lineups=lineups(a, b, n))
        per = [
            games // len(pair.lineups) + (1 if k < games % len(pair.lineups) else 0) for k in range(len(pair.lineups))
        ]
        for k, (lineup, count) in enumerate(zip(pair.lineups, per, strict=True)):
            if count == 0:
                continue
            sim = simulate(
                variant,
                count,
                players=n,
                bots=lineup,
                options=options,
                seed=f"{seed}/{i}/{k}",
                workers=workers,
                scheduler=scheduler,
                progress=progress,
            )
            if sim.stopped == "interrupted":  # Ctrl-C: the command ends on it, with no pair left to play
                raise KeyboardInterrupt
            if sim.stopped == "terminated":
                raise Terminated
            if sim.stopped:
                raise TapeteError(f"the tournament was stopped ({sim.stopped}) during {a} against {b}")
            for r in sim.records:
                if r.error is not None:
                    pair.errors += 1
                    continue
                sides = {lineup[w] for w in r.winners}  # a win shared by both bots' seats is a draw between them
                if len(sides) != 1:
                    pair.draws += 1
                elif a in sides:
                    pair.wins_a += 1
                else:
                    pair.wins_b += 1
        pairs.append(pair)
    return Tournament(str(variant), n, names, games, str(seed), pairs, rate(names, pairs, seed))


def bradley_terry(names: Sequence[str], results: Sequence[tuple[str, str, float, float]]) -> dict[str, float]:
    """Elo-scale ratings from (a, b, score of a, score of b) per pair, one virtual draw each as a prior."""
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    wins = [0.0] * k
    meets = [[0.0] * k for _ in range(k)]
    for a, b, sa, sb in results:
        i, j = index[a], index[b]
        wins[i] += sa + 0.5
        wins[j] += sb + 0.5
        meets[i][j] += sa + sb + 1
        meets[j][i] += sa + sb + 1
    strength = [1.0] * k
    for _ in range(10_000):  # the MM iteration of Hunter (2004); converges in a few hundred steps
        new = []
        for i in range(k):
            denominator = sum(meets[i][j] / (strength[i] + strength[j]) for j in range(k) if meets[i][j])
            new.append(wins[i] / denominator if denominator else strength[i])
        mean_log = sum(math.log(s) for s in new) / k
        new = [s / math.exp(mean_log) for s in new]
        done = max(abs(x - y) for x, y in zip(new, strength, strict=True)) < 1e-10
        strength = new
        if done:
            break
    elo = {n: 400 * math.log10(strength[index[n]]) for n in names}
    zero = elo["random"] if "random" in elo else 0.0
    return {n: e - zero for n, e in elo.items()}


def rate(names: Sequence[str], pairs: Sequence[PairResult], seed: object) -> list[Rating]:
    """Ratings with their 95 % bootstrap intervals, best first."""
    point = bradley_terry(names, [(p.a, p.b, p.wins_a + p.draws / 2, p.wins_b + p.draws / 2) for p in pairs])
    rng = random.Random(f"tournament-bootstrap/{seed}")
    samples: dict[str, list[float]] = {n: [] for n in names}
    for _ in range(BOOTSTRAP_ROUNDS):
        resampled = []
        for p in pairs:
            sa, sb = p.wins_a + p.draws / 2, p.wins_b + p.draws / 2
            share = rng.betavariate(sa + 0.5, sb + 0.5)  # Jeffreys: a 20-0 record still leaves doubt
            won = sum(1 for _ in range(p.games) if rng.random() < share)
            resampled.append((p.a, p.b, float(won), float(p.games - won)))
        for n, e in bradley_terry(names, resampled).items():
            samples[n].append(e)
    out = []
    for n in names:
        mine = [(p.wins_a + p.draws / 2, p.games) for p in pairs if p.a == n] + [
            (p.wins_b + p.draws / 2, p.games) for p in pairs if p.b == n
        ]
        games = sum(g for _, g in mine)
        ordered = sorted(samples[n])
        low = ordered[int(0.025 * (len(ordered) - 1))]
        high = ordered[int(math.ceil(0.975 * (len(ordered) - 1)))]
        out.append(Rating(n, point[n], low, high, games, sum(s for s, _ in mine) / games if games else 0.0))
    return sorted(out, key=lambda r: -r.elo)
