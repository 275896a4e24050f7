"""Many seeded matches of one variant: the plan, the per-match records and `simulate()`.

A run is a grid of *points* (the base options with one combination of the sweep
values each) times ``games`` matches. Match *i* gets the seed
``derive_seed(seed, "simulate", i)`` at every point, so the points are compared
on the same deals (common random numbers) and a record names the seed that
``tapete play`` replays. Everything a match produces depends only on the variant,
its options, the players, the bots and that seed; so any split of the matches
over processes or cluster workers (``simworkers``) gives the same records, which
are returned ordered by point and match.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import TapeteError
from ..core.inputs import MAX_GAMES, MAX_SWEEP_ARMS, MAX_WORKERS, count, declare, finite, read_bots, sweep_points
from ..core.inputs import seed as read_seed
from ..core.rng import derive_seed
from ..play.hook_checks import PluginFault
from ..play.loading import Variant, load_variant
from ..rules.options import declaration, option_value

if TYPE_CHECKING:
    from ..play.match import Match, MatchResult

Progress = Callable[[int, int], None]  # (matches done, matches in the run)
# plays one match (variant, players, bots, seed, point, index) and returns its record: `play_match`, or a
# caller's module-level function that measures more while it plays (``simulate(player=...)``)
Player = Callable[["Variant", int, Sequence[str], int, int, int], "MatchRecord"]


class SimulationError(TapeteError):
    """A run that could not go on; ``partial`` holds what had finished."""

    def __init__(self, message: str, partial: Simulation | None = None):
        super().__init__(message)
        self.partial = partial


@dataclass
class MatchRecord:
    """One finished match, as plain data (JSON, CSV, pickling between processes)."""

    point: int  # index into Simulation.points
    match: int  # i: the match's number within its point
    seed: int  # derive_seed(run seed, "simulate", i): `tapete play --seed` replays it
    players: int
    bots: list[str]
    winner: int  # -1 for a draw
    first: int  # the seat that moved first in the first deal
    position: int | None  # the winner's place in that playing order (0 = first), None on a draw
    totals: list[int]
    deals_won: list[int]
    out: list[bool]  # eliminated (bust) by the end
    reentries: list[int]
    deals: int
    void_deals: int
    actions: int
    error: str | None = None  # the match stopped on an error of the game (a stalled deal, ...): not in the rates
    winners: list[int] = field(default_factory=list)  # every seat that won: several share a tie (HE-5.2)

    def __post_init__(self) -> None:
        if not self.winners and self.winner >= 0:
            self.winners = [self.winner]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Job:
    """A chunk of matches of one point, sent to a process or a cluster worker."""

    variant: str  # a registered name or an absolute path
    digest: str  # the variant files' digest, checked where the chunk runs
    options: tuple[tuple[str, Any], ...]
    point: int
    players: int
    bots: tuple[str, ...]
    seed: str
    matches: tuple[int, ...]
    player: Player | None = None  # None: `play_match`


@dataclass
class Plan:
    """What a run plays: checked in the calling process before any match starts."""

    variant: str
    name: str  # the variant's registered name
    digest: str
    players: int
    bots: list[str]
    seed: str
    games: int
    options: dict[str, Any]  # --option values
    sweep: dict[str, list[Any]]
    points: list[dict[str, Any]]  # the sweep values of each point ({} without a sweep)
    eliminates: bool = False  # the rules put players out (busts are worth a column)
    player: Player | None = None  # plays each match (None: `play_match`)
    first: int = 0  # the number of the first match: a run in rounds plays matches first .. first + games - 1

    def point_options(self, point: int) -> dict[str, Any]:
        return {**self.options, **self.points[point]}

    def jobs(self, chunk: int) -> list[Job]:
        out = []
        for p in range(len(self.points)):
            opts = tuple(sorted(self.point_options(p).items()))
            end = self.first + self.games
            for lo in range(self.first, end, chunk):
                idx = tuple(range(lo, min(lo + chunk, end)))
                bots = tuple(self.bots)
                out.append(Job(self.variant, self.digest, opts, p, self.players, bots, self.seed, idx, self.player))
        return out

    @property
    def total(self) -> int:
        return self.games * len(self.points)


@dataclass
class Simulation:
    """The records of a run (ordered by point, then match) and how it ended."""

    plan: Plan
    records: list[MatchRecord] = field(default_factory=list)
    stopped: str | None = None  # why the run ended early ("interrupted", an error), None when complete
    seconds: float = 0.0

    @property
    def complete(self) -> bool:
        return self.stopped is None and len(self.records) == self.plan.total

    def summary(self) -> dict[str, Any]:
        from .stats import summarize

        return summarize(self)


def check_run_size(games: Any, workers: Any) -> None:
    """``games`` and ``workers`` are whole numbers within their limits (NumberError says which is not)."""
    count(games, "--games", low=1, high=MAX_GAMES)
    if workers is not None:
        count(workers, "--workers", low=1, high=MAX_WORKERS)


def match_seed(seed: object, index: int) -> int:
    return derive_seed(seed, "simulate", index)


# -- options and sweeps: read by tapete.rules.options, like every other option value ----------
def make_plan(
    variant: str | Path,
    games: int,
    players: int | None = None,
    bots: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    sweep: Mapping[str, Sequence[Any]] | None = None,
    seed: object = 1,
) -> Plan:
    """Check everything a run needs (variant, options, sweep values, players, bots) up front."""
    check_run_size(games, None)
    name = str(variant)
    if Path(name).suffix in (".yaml", ".yml"):
        name = str(Path(name).resolve())
    base = load_variant(name)
    base.require_sound()
    opts: dict[str, Any] = {}
    for key, value in (options or {}).items():
        opts[key] = option_value(declaration(base.spec.declarations, key, base.name), value)
    grid: dict[str, list[Any]] = {}
    for key, values in (sweep or {}).items():
        decl = declaration(base.spec.declarations, key, base.name)
        if key in opts:
            raise TapeteError(f"option {key} is given both as --option and as --sweep")
        if not values:
            raise TapeteError(f"--sweep {key}= needs at least one value")
        grid[key] = [option_value(decl, v) for v in values]
    arms = math.prod(len(v) for v in grid.values())
    if arms > MAX_SWEEP_ARMS:
        raise TapeteError(f"a sweep of {arms:,} points is refused; a run has at most {MAX_SWEEP_ARMS:,}")
    points = sweep_points(grid)
    from ..play.match import check_bots, seat_bots

    default = base.record.default_bot
    given = read_bots(bots if bots else [default], person=False, where="a simulation")
    players, kinds = seat_bots(base, players, given)
    plan = Plan(name, base.name, base.digest, players, kinds, str(seed), games, opts, grid, points)
    plan.eliminates = base.rules.has("out")
    for p in range(len(points)):
        v = cached_variant(name, tuple(sorted(plan.point_options(p).items())))
        v.check_players(players)
        v.require_sound()  # an option value may make the deal impossible (a hand the deck cannot fill)
        check_bots(v, kinds, person=False, where="a simulation")  # an unknown or misbuilt bot fails here, once
        if v.digest != plan.digest:  # pragma: no cover - the files changed while loading
            raise TapeteError(f"{name} changed on disk while the run was being prepared")
    return plan


# -- playing ----------------------------------------------------------------------
_local = threading.local()  # one cache per thread: a Game's scratch space is not shared between threads


def cached_variant(variant: str, options: tuple[tuple[str, Any], ...]) -> Variant:
    """Each process (or cluster thread) loads a variant with given options once."""
    cache: dict[tuple[str, tuple[tuple[str, Any], ...]], Variant] | None = getattr(_local, "variants", None)
    if cache is None:
        cache = _local.variants = {}
    v = cache.get((variant, options))
    if v is None:
        v = cache[(variant, options)] = load_variant(variant, options=dict(options))
    return v


def play_match(variant: Variant, players: int, bots: Sequence[str], seed: int, point: int, index: int) -> MatchRecord:
    from ..play.match import Match

    match = Match(variant, players, seed, bots=list(bots))
    first: list[int] = []
    counts = [0, 0]  # actions, void deals

    def emit(event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "action":
            counts[0] += 1
        elif kind == "deal" and not first:
            first.append(event["seats"][event["state"]["to_move"]])
        elif kind == "void":
            counts[1] += 1

    return match_record(match, match.play(emit), first, counts[1], counts[0], point, index, seed, bots)


def match_record(
    match: Match,
    result: MatchResult,
    first: Sequence[int],
    voids: int,
    actions: int,
    point: int,
    index: int,
    seed: int,
    bots: Sequence[str],
) -> MatchRecord:
    """The record of a match played to its ``result``; ``first`` holds the seat that moved
    first in each deal. A caller that measures more (the report's records) copies its
    fields and adds its own."""
    players = match.players
    lead = first[0] if first else 0
    position = None if result.winner < 0 else ((result.winner - lead) * match.game.step) % players
    ledger = match.ledger
    return MatchRecord(
        point,
        index,
        seed,
        players,
        list(bots),
        result.winner,
        lead,
        position,
        list(result.totals),
        list(result.deals_won),
        list(ledger.out),
        list(ledger.reentries),
        result.deals,
        voids,
        actions,
        winners=list(result.winners),
    )


def play_chunk(job: Job) -> list[MatchRecord]:
    """Play one chunk where it lands (this process, a pool process, a cluster worker)."""
    v = cached_variant(job.variant, job.options)
    if v.digest != job.digest:
        raise TapeteError(
            f"this worker's {v.name} differs from the one the run was planned with "
            f"(digest {v.digest}, not {job.digest}): install the same tapete and variant files everywhere"
        )
    return [_play_or_record(v, job, i) for i in job.matches]


def _play_or_record(v: Variant, job: Job, index: int) -> MatchRecord:
    """A match the game itself stops (a stalled deal the rules give no end to) is recorded, not fatal.

    A plugin that broke the deal (`PluginFault`: a hook that failed, or handed back what cannot be
    played on) is not the game's doing and would break every match alike: it ends the whole run, with
    its one message naming the plugin, rather than a run of empty tables."""
    seed = match_seed(job.seed, index)
    try:
        return (job.player or play_match)(v, job.players, job.bots, seed, job.point, index)
    except PluginFault:
        raise
    except TapeteError as exc:
        n = job.players
        return MatchRecord(
            job.point,
            index,
            seed,
            n,
            list(job.bots),
            -1,
            0,
            None,
            [0] * n,
            [0] * n,
            [False] * n,
            [0] * n,
            0,
            0,
            0,
            str(exc),
        )


def default_workers() -> int:
    return os.cpu_count() or 1


def chunk_size(total: int, workers: int) -> int:
    """Small enough to balance the load and move the progress bar, big enough to be cheap."""
    return max(1, min(100, total // (workers * 20)))


@declare(
    variant="variant",
    games="count",
    players="count",
    bots="bots",
    options="options",
    sweep="options",
    seed="seed",
    workers="count",
    scheduler="word",
    progress="callable",
    connect_timeout="finite",
    player="callable",
    first="count",
)
def simulate(
    variant: str | Path,
    games: int = 100,
    *,
    players: int | None = None,
    bots: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    sweep: Mapping[str, Sequence[Any]] | None = None,
    seed: object = 1,
    workers: int | None = None,
    scheduler: Any = None,
    progress: Progress | None = None,
    connect_timeout: float = 10.0,
    player: Player | None = None,
    first: int = 0,
) -> Simulation:
    """Play ``games`` seeded matches at every sweep point and return the records.

    ``workers`` processes (default: one per core; 1 plays in this process), or
    the Dask cluster at ``scheduler``: ``"tcp://host:port"`` (given up after
    ``connect_timeout`` seconds), ``"local"`` for a ``distributed.LocalCluster``
    of ``workers`` processes, or a ``distributed.Client`` the caller made. The records are
    the same whichever way they are played. Ctrl-C stops the run: the result
    then holds the matches that finished and ``stopped == "interrupted"`` (SIGTERM:
    ``"terminated"``; either way every worker process is stopped first). A
    failure (a worker dying, an unreachable scheduler) raises `SimulationError`
    whose ``partial`` holds the finished matches. ``.summary()`` gives the tables.

    ``player`` plays each match instead of `play_match`, with its arguments, and returns
    its record (a `MatchRecord`, or a subclass carrying more): how ``tapete report``
    measures moves and standings while the matches play. It must be a module-level
    function, so that pool processes and Dask workers find it by its name.

    ``first`` numbers the matches from there (match *i* always has the same seed): a run
    played in rounds (``tapete report --until-decided``) plays the next ones each round.
    """
    from .workers import run

    check_run_size(games, workers)
    read_seed(seed)  # checked, kept as given: "01" and 1 are different seeds
    connect_timeout = finite(connect_timeout, "connect_timeout", low=0.001, high=3_600)
    for name, given in (("progress", progress), ("player", player)):
        if given is not None and not callable(given):
            raise TapeteError(f"{name} must be a function, not {given!r:.60}")
    plan = make_plan(variant, games, players, bots, options, sweep, seed)
    plan.player = player
    plan.first = count(first, "first", low=0, high=MAX_GAMES * 1000)  # a round's place among a run's rounds
    return run(plan, workers or default_workers(), scheduler, progress, connect_timeout)
