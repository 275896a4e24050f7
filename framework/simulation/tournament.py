"""A round robin of bots in one variant, and ratings with intervals.

Every pair of bots meets at the same table over ``games`` seeded matches: the seats
alternate between the two (``a, b, a, b`` at four players), and every rotation of that
order is played equally, so each bot sits in each seat as often as the other; the first
dealer is drawn from each match's seed. A match counts as a win for the bot whose seat won
it (a draw is half a win for each; a match stopped by an error of the game counts for
nobody and is reported).

Ratings come from the whole matches, rated with openskill's Plackett-Luce model (a
maintained rating library for free-for-all games and teams): each match is one game of
two teams, a bot's team being its seats at that table (in a partnership game such as
Scopone, the seats alternate so that a bot's seats are partners), ranked by whose seat won
(a draw: a tie). The matches are rated without drift between them (``tau = 0``: the bots do
not change during a tournament), in an even order and its reverse (`openskill_elo`: an online
rating otherwise depends on the order of the matches, which a tournament does not have). The
rating shown is openskill's μ on the Elo scale, so that 400 points are about 10:1 odds between
two bots; ``random`` is the zero when it plays, otherwise the ratings average to zero.

The 95 % interval is a bootstrap over matches: each of ``BOOTSTRAP_ROUNDS`` rounds draws as
many matches as were played, with replacement, from each pair's own matches, and rates them
again; the interval is the 2.5 and 97.5 percentiles. The matches are the only noise, added
once. A bot that won every match has no upper bound (its rating grows with the number of
matches, not with its strength): the table says "better than every other at 95 %" instead,
which it is when it rates above every other bot in at least 97.5 % of the rounds.

`bradley_terry` (Hunter's MM fit of the pairwise results) stays as a check of the ratings
on two-player results (tests/test_tournament_ratings.py).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import TapeteError
from ..core.inputs import MAX_GAMES, declare, flag, read_bots
from ..core.inputs import count as read_games
from ..core.signals import Terminated
from ..play.loading import load_variant
from ..play.match import check_bots
from .plan import Progress, simulate

BOOTSTRAP_ROUNDS = 200  # rounds of the bootstrap over matches: the 2.5 and 97.5 percentiles settle to a few points
ELO = 400 / math.log(10)  # one natural-log unit of odds on the Elo scale


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
    results: list[float] = field(default_factory=list)  # a's score in each finished match: 1, 0 or ½

    @property
    def games(self) -> int:
        return self.wins_a + self.wins_b + self.draws


@dataclass
class Rating:
    bot: str
    elo: float
    low: float
    high: float | None  # None: no upper bound (it won every match)
    games: int
    score: float  # wins + half the draws, over games
    best: bool = False  # rated above every other bot in at least 97.5 % of the bootstrap rounds

    @property
    def interval(self) -> str:
        """The interval in words, as the table prints it."""
        if self.high is None:
            return f"better than every other at 95 % (at least {self.low:.0f})"
        said = f"{self.low:.0f} to {self.high:.0f}"
        return f"{said}; better than every other at 95 %" if self.best else said


@dataclass
class Tournament:
    variant: str
    players: int
    bots: list[str]
    games: int
    seed: str
    pairs: list[PairResult]
    ratings: list[Rating]
    order: list[dict[str, Any]] = field(default_factory=list)  # --until-decided: each step of the order

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
            "rating": RATING_MODEL,
            "ratings": [r.__dict__ for r in self.ratings],
            "head_to_head": h2h,
            "lineups": {f"{p.a} vs {p.b}": p.lineups for p in self.pairs},
            "order": self.order,
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
    until_decided="flag",
    budget="count",
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
    until_decided: bool = False,
    budget: int | None = None,
) -> Tournament:
    """Play every pair of ``bots`` ``games`` times (see the module docstring) and rate them.

    With ``until_decided``, rounds of ``games`` matches a pair until every two bots next to each
    other in the rating order are ordered by their own matches (a confidence sequence on the
    first's score against the second, `tapete.simulation.sequential`, each at 5 % / (bots − 1)), or
    ``budget`` matches a pair are played; `Tournament.order` says where each step stands."""
    names = read_bots(bots, person=False, where="a tournament")
    if len(names) < 2:
        raise TapeteError("a tournament needs at least two bots: --bots a,b[,c...]")
    if len(set(names)) != len(names):
        raise TapeteError("each bot is listed once in a tournament; give a copy parameters to tell it apart")
    read_games(games, "--games", low=1, high=MAX_GAMES)
    until_decided = flag(until_decided, "until_decided")
    if budget is not None:
        budget = read_games(budget, "--budget", low=1, high=MAX_GAMES)
    if until_decided and (budget is None or budget < games):
        raise TapeteError("--until-decided needs a --budget of at least --games matches a pair")
    v = load_variant(variant, options=dict(options or {}))
    n = players if players is not None else max(2, v.default_players())
    v.check_players(n)
    check_bots(v, names, person=False, where="a tournament")  # every bot built once: a bad spec fails here
    pairs = [PairResult(a, b, lineups=lineups(a, b, n)) for a, b in itertools.combinations(names, 2)]
    played = 0
    order: list[dict[str, Any]] = []
    while True:
        size = games if not until_decided else min(games, int(budget or 0) - played)
        for i, pair in enumerate(pairs):
            _play_pair(variant, pair, i, played, size, n, options, seed, workers, scheduler, progress)
        played += size
        if not until_decided:
            break
        order = ordering(names, pairs, games)
        if all(step["decided"] for step in order) or played >= int(budget or 0):
            break
    result = Tournament(str(variant), n, names, played, str(seed), pairs, rate(names, pairs, seed))
    result.order = order
    return result


def _play_pair(
    variant: str,
    pair: PairResult,
    i: int,
    done: int,
    size: int,
    players: int,
    options: Mapping[str, Any] | None,
    seed: object,
    workers: int | None,
    scheduler: Any,
    progress: Progress | None,
) -> None:
    """The pair's matches ``done`` .. ``done + size - 1``: match j at lineup j mod (lineups), so every
    rotation is played as often however the matches are split into rounds."""
    count = len(pair.lineups)
    for k, lineup in enumerate(pair.lineups):
        first = (done - k + count - 1) // count if done > k else 0  # this lineup's matches before `done`
        mine = sum(1 for j in range(done, done + size) if j % count == k)
        if mine == 0:
            continue
        sim = simulate(
            variant,
            mine,
            players=players,
            bots=lineup,
            options=options,
            seed=f"{seed}/{i}/{k}",
            workers=workers,
            scheduler=scheduler,
            progress=progress,
            first=first,
        )
        if sim.stopped == "interrupted":  # Ctrl-C: the command ends on it, with no pair left to play
            raise KeyboardInterrupt
        if sim.stopped == "terminated":
            raise Terminated
        if sim.stopped:
            raise TapeteError(f"the tournament was stopped ({sim.stopped}) during {pair.a} against {pair.b}")
        for r in sim.records:
            if r.error is not None:
                pair.errors += 1
                continue
            sides = {lineup[w] for w in r.winners}  # a win shared by both bots' seats is a draw between them
            if len(sides) != 1:
                pair.draws += 1
                pair.results.append(0.5)
            elif pair.a in sides:
                pair.wins_a += 1
                pair.results.append(1.0)
            else:
                pair.wins_b += 1
                pair.results.append(0.0)


def ordering(names: Sequence[str], pairs: Sequence[PairResult], size: int) -> list[dict[str, Any]]:
    """Each step of the rating order (the better bot first) and whether their own matches decide it."""
    from . import sequential

    point = openskill_elo(names, [(p.a, p.b, x) for p in pairs for x in p.results])
    ranked = sorted(names, key=lambda n: -point[n])
    alpha = 0.05 / max(len(names) - 1, 1)
    steps = []
    for better, worse in zip(ranked, ranked[1:], strict=False):
        pair = next(p for p in pairs if {p.a, p.b} == {better, worse})
        scores = [x - 0.5 if pair.a == better else 0.5 - x for x in pair.results]  # better's score, less a half
        state = sequential.decide(scores, alpha, size)
        steps.append(
            {
                "better": better,
                "worse": worse,
                **state,
                "more": None if state["decided"] else sequential.more_text(state),
            }
        )
    return steps


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


RATING_MODEL = (
    "openskill Plackett-Luce over whole matches (a bot's seats are its team), mu on the Elo scale, "
    "95% bootstrap over matches"
)


def _model() -> Any:
    try:
        from openskill.models import PlackettLuce  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise TapeteError("tapete tournament rates with openskill: pip install 'tapete[stats]'") from None
    return PlackettLuce(tau=0.0)  # no drift: the bots are the same from the first match to the last


def openskill_elo(names: Sequence[str], matches: Sequence[tuple[str, str, float]]) -> dict[str, float]:
    """Elo-scale ratings from whole matches (a, b, a's score) with openskill's Plackett-Luce model.

    openskill rates online, one match after another, so the order of the matches moves the
    result; a tournament's matches have no order (the bots do not change). So the order is made
    even: each pair's wins, draws and losses are spread evenly through its matches and the pairs
    interleaved, and the matches are rated once in that order and once in the reverse order, the
    two averaged. The scale is that of openskill's win probability between two bots of the
    average uncertainty left (μ difference / √(2β² + 2σ̄²), in natural-log odds), times 400 / ln 10.
    The zero is ``random`` when it plays, else the mean."""
    model = _model()
    order = _even(matches)
    mus: dict[str, float] = dict.fromkeys(names, 0.0)
    spread = 0.0
    for sequence in (order, order[::-1]):
        ratings = {n: model.rating(name=n) for n in names}
        for a, b, score in sequence:
            ranks = [1, 1] if score == 0.5 else [1, 2] if score == 1.0 else [2, 1]
            [[ratings[a]], [ratings[b]]] = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
        for n, r in ratings.items():
            mus[n] += r.mu / 2
        spread += sum(r.sigma**2 for r in ratings.values()) / len(ratings) / 2
    scale = ELO / math.sqrt(2 * model.beta**2 + 2 * spread)
    elo = {n: mu * scale for n, mu in mus.items()}
    zero = elo["random"] if "random" in elo else sum(elo.values()) / len(elo)
    return {n: e - zero for n, e in elo.items()}


def _even(matches: Sequence[tuple[str, str, float]]) -> list[tuple[str, str, float]]:
    """The matches in an even order: within a pair each outcome spread evenly through its matches (centred),
    and the pairs interleaved by the place of each match within its pair."""
    by_pair: dict[tuple[str, str], list[float]] = {}
    for a, b, x in matches:
        by_pair.setdefault((a, b), []).append(x)
    keyed = []
    for p, ((a, b), results) in enumerate(by_pair.items()):
        spots = []
        for outcome in (1.0, 0.5, 0.0):
            c = sum(1 for x in results if x == outcome)
            spots += [((i + 0.5) / c, outcome) for i in range(c)]
        spots.sort()
        n = len(spots)
        keyed += [((k + 0.5) / n, p, (a, b, outcome)) for k, (_, outcome) in enumerate(spots)]
    keyed.sort(key=lambda item: (item[0], item[1]))
    return [m for _, _, m in keyed]


def rate(names: Sequence[str], pairs: Sequence[PairResult], seed: object) -> list[Rating]:
    """Ratings with their 95 % bootstrap intervals over matches, best first (see the module docstring)."""
    matches = [(p.a, p.b, x) for p in pairs for x in p.results]
    point = openskill_elo(names, matches)
    rng = random.Random(f"tournament-bootstrap/{seed}")
    samples: dict[str, list[float]] = {n: [] for n in names}
    top: dict[str, int] = dict.fromkeys(names, 0)
    seen: dict[tuple[Any, ...], dict[str, float]] = {}
    for _ in range(BOOTSTRAP_ROUNDS):
        drawn = []
        for p in pairs:  # each pair's matches redrawn from its own: every pair still meets as often
            drawn += [(p.a, p.b, p.results[rng.randrange(len(p.results))]) for _ in p.results]
        key = tuple(sorted(Counter(drawn).items()))  # the rating depends on each pair's counts alone
        found = seen.get(key) or seen.setdefault(key, openskill_elo(names, drawn))
        for n, e in found.items():
            samples[n].append(e)
        first = max(found, key=lambda n: found[n])
        if all(found[first] > found[o] for o in names if o != first):
            top[first] += 1
    out = []
    for n in names:
        mine = [(p.wins_a + p.draws / 2, p.games) for p in pairs if p.a == n] + [
            (p.wins_b + p.draws / 2, p.games) for p in pairs if p.b == n
        ]
        games = sum(g for _, g in mine)
        score = sum(s for s, _ in mine) / games if games else 0.0
        ordered = sorted(samples[n])
        low = ordered[int(0.025 * (len(ordered) - 1))]
        high: float | None = ordered[int(math.ceil(0.975 * (len(ordered) - 1)))]
        if games and score == 1.0:
            high = None  # it won every match: no upper bound, and the table says so
        out.append(Rating(n, point[n], low, high, games, score, top[n] >= 0.975 * BOOTSTRAP_ROUNDS))
    return sorted(out, key=lambda r: -r.elo)
