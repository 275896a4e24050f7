"""What ``tapete report`` measures in each match while it plays, and the statistics over many.

A report match is the same match ``tapete simulate`` plays (same variant, bots and seed,
hence the same record), measured on the way: every decision's number of legal moves (the
bots are wrapped by a counter that passes their choice through unchanged), each deal's
length, why a deal was void, and after every scored deal each seat's *standing*: what the
variant's own ``winner`` rule ranks by (``highest(deals_won)``: deals won; ``lowest(total)``:
minus the total; with players put out and no winner rule, minus the total of those still in).
From the standings come the lead changes, decisiveness and drama, defined as Ludii's
metrics define them (per deal end here, where Ludii looks at every move, since a card
game's standing changes only when a deal is scored).

The intervals: Wilson for a proportion, mean ± 1.96 standard errors for a mean (a per-deal
mean with the match as the unit: `cluster_mean`), Newcombe's hybrid score interval (built
from the two Wilson intervals) for a difference of two proportions, and Welch's normal
interval for a difference of two means; each difference has the p-value that goes with its
interval, for the report's correction over many comparisons.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from ..core.errors import TapeteError
from ..rules import tree as t
from ..rules.vocabulary import SEAT_IN_MATCH, Ctx
from ..simulation.plan import MatchRecord, match_record
from ..simulation.stats import Z95, wilson

if TYPE_CHECKING:
    from ..core.actions import Action
    from ..play.loading import Variant


@dataclass
class ReportRecord(MatchRecord):
    """A `MatchRecord` with what the report measured while the match played."""

    deal_actions: list[int] = field(default_factory=list)  # moves of each finished deal, void ones included
    decisions: int = 0  # choices the bots were asked to make
    choices: int = 0  # legal moves offered over those decisions
    forced: int = 0  # decisions with exactly one legal move
    stalls: int = 0  # deals voided because they could never end (``stall = annul``)
    standings: list[list[float | None]] = field(default_factory=list)  # per scored deal, per seat (None: out)


class _Counting:
    """A bot whose every decision is counted (legal moves offered, forced or not); its choice is its own."""

    def __init__(self, bot: Any, tally: list[int]):
        self.bot, self.tally = bot, tally
        self.observes = bool(getattr(bot, "observes", True))

    def choose(self, view: Any, legal: list[Action]) -> Action:
        tally = self.tally
        n = len(legal)
        tally[0] += 1
        tally[1] += n
        if n == 1:
            tally[2] += 1
        action: Action = self.bot.choose(view, legal)
        return action

    def __getattr__(self, name: str) -> Any:  # rng, refused, ...: the bot's own
        return getattr(self.bot, name)


def standing_rule(variant: Variant) -> tuple[Callable[[Ctx], Any], int, str]:
    """How the variant ranks players for its match winner: (value of a seat, +1/-1, its unit in words)."""
    from ..rules.compiler import Env, compile_expr

    rules = variant.rules
    winner = rules.statement("winner")
    expr: t.Expr = t.Name("total", t.Pos("", 0, 0))
    sign = -1 if rules.has("out") else 1
    if isinstance(winner, t.Statement) and isinstance(winner.value, t.Call):
        call = winner.value
        if call.name in ("highest", "lowest") and len(call.args) == 1:
            expr, sign = call.args[0], 1 if call.name == "highest" else -1
    env = Env(variant.registry.vocabulary(variant.spec.game), rules.options, rules.sources, rules.deck, rules.order)
    env.table_values = lambda key, pos: rules.tables[key]
    try:
        compiled = compile_expr(expr, env, SEAT_IN_MATCH)
    except Exception:  # a winner rule on something we cannot rank by: the total
        expr = t.Name("total", t.Pos("", 0, 0))
        compiled = compile_expr(expr, env, SEAT_IN_MATCH)
    unit = {"total": "points", "deals_won": "deal wins"}.get(expr.name if isinstance(expr, t.Name) else "", "points")
    if compiled.const:
        value = compiled.value
        return (lambda ctx: value), sign, unit
    return compiled, sign, unit


def play_match(variant: Variant, players: int, bots: Sequence[str], seed: int, point: int, index: int) -> ReportRecord:
    """One match as `tapete.simulation.plan.play_match` plays it, measured for the report."""
    from ..bots import LegacyBot
    from ..play.match import Match

    match = Match(variant, players, seed, bots=list(bots))
    tally = [0, 0, 0]  # decisions, legal moves offered, forced decisions
    match.agents = [a if isinstance(a, LegacyBot) else _Counting(a, tally) for a in match.agents]
    value, sign, _unit = _standing(variant)
    ctx = Ctx(game=match.game, ledger=match.ledger)
    first: list[int] = []
    deal_actions: list[int] = []
    standings: list[list[float | None]] = []
    counts = [0, 0, 0, 0]  # actions, void deals, stalls, actions in this deal

    def emit(event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "action":
            counts[0] += 1
            counts[3] += 1
        elif kind == "deal" and not first:
            first.append(event["seats"][event["state"]["to_move"]])
        elif kind == "void":
            counts[1] += 1
            if str(event.get("reason", "")).startswith("stalled"):
                counts[2] += 1
            deal_actions.append(counts[3])
            counts[3] = 0
        elif kind == "score":
            deal_actions.append(counts[3])
            counts[3] = 0
            ledger = match.ledger
            row: list[float | None] = []
            for s in range(players):
                if ledger.out[s]:
                    row.append(None)
                else:
                    ctx.seat = s
                    row.append(sign * float(value(ctx)))
            standings.append(row)

    base = match_record(match, match.play(emit), first, counts[1], counts[0], point, index, seed, bots)
    return ReportRecord(
        **{f.name: getattr(base, f.name) for f in fields(MatchRecord)},
        deal_actions=deal_actions,
        decisions=tally[0],
        choices=tally[1],
        forced=tally[2],
        stalls=counts[2],
        standings=standings,
    )


_RULES: dict[int, tuple[Callable[[Ctx], Any], int, str]] = {}


def _standing(variant: Variant) -> tuple[Callable[[Ctx], Any], int, str]:
    """`standing_rule` once per loaded variant in this process."""
    key = id(variant)
    found = _RULES.get(key)
    if found is None:
        found = _RULES[key] = standing_rule(variant)
    return found


# -- one match's tension --------------------------------------------------------------
def leaders(row: Sequence[float | None]) -> frozenset[int]:
    """The seats sharing the best standing among those still in."""
    alive = [v for v in row if v is not None]
    if not alive:
        return frozenset()
    best = max(alive)
    return frozenset(s for s, v in enumerate(row) if v is not None and v == best)


def lead_changes(standings: Sequence[Sequence[float | None]]) -> int:
    """How often the set of leaders differs from one scored deal to the next (Ludii's Lead Change)."""
    sets = [leaders(row) for row in standings]
    return sum(1 for a, b in zip(sets, sets[1:], strict=False) if a != b)


def decisiveness(standings: Sequence[Sequence[float | None]], winner: int) -> float | None:
    """The share of the match's scored deals played when the winner took the lead alone, for good.

    1.0: only the last deal put the winner alone in front; 1/deals: the first deal did and
    nothing changed after. None for a draw or a match with no scored deal."""
    if winner < 0 or not standings:
        return None
    k = len(standings)
    while k > 0 and leaders(standings[k - 1]) == frozenset({winner}):
        k -= 1
    return (k + 1) / len(standings) if k < len(standings) else 1.0


def drama(standings: Sequence[Sequence[float | None]], winner: int) -> tuple[float, float] | None:
    """(share of deal ends the winner was behind, mean gap to the leader then): Ludii's Drama, per deal.

    The last deal end is left out (the winner leads there, by definition of winning); the gap
    is in the standing's own units (points, deal wins)."""
    if winner < 0 or len(standings) < 2:
        return None
    gaps = []
    ends = standings[:-1]
    for row in ends:
        mine = row[winner] if winner < len(row) else None
        alive = [v for v in row if v is not None]
        if mine is None or not alive:
            continue
        gap = max(alive) - mine
        if gap > 0:
            gaps.append(gap)
    return len(gaps) / len(ends), (sum(gaps) / len(gaps) if gaps else 0.0)


# -- intervals ----------------------------------------------------------------------------
def mean_interval(xs: Sequence[float]) -> dict[str, Any]:
    """Mean with a normal 95 % interval (mean ± 1.96 standard errors); n, sd."""
    n = len(xs)
    if n == 0:
        return {"n": 0, "mean": None, "low": None, "high": None, "sd": None}
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n) if n > 1 else 0.0
    return {"n": n, "mean": m, "low": m - half, "high": m + half, "sd": sd}


def cluster_mean(clusters: Sequence[Sequence[float]]) -> dict[str, Any]:
    """The mean of values observed in clusters (a match's deals), with the cluster-robust 95 % interval.

    The mean is the pooled one (every deal counts once); its standard error treats the match, not
    the deal, as the unit: the deals of one match share its players, its seats and its pace, so
    they are not independent, and an interval that took them as such would be too narrow. It is
    the intercept of an ordinary least-squares fit with statsmodels' cluster-robust covariance
    (``cov_type="cluster"``, groups = matches, with its small-sample correction). ``se`` is kept
    so that a difference of two arms can be worked out from the figures alone."""
    values = [float(x) for c in clusters for x in c]
    groups = [g for g, c in enumerate(clusters) for _ in c]
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "low": None, "high": None, "sd": None, "se": None, "clusters": 0}
    m = sum(values) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in values) / (n - 1)) if n > 1 else 0.0
    used = sum(1 for c in clusters if c)
    se = 0.0
    if used > 1 and sd > 0:
        import numpy as np
        import statsmodels.api as sm  # type: ignore[import-untyped]

        fit = sm.OLS(np.asarray(values), np.ones((n, 1))).fit(cov_type="cluster", cov_kwds={"groups": groups})
        se = float(fit.bse[0])
    half = Z95 * se
    return {"n": n, "mean": m, "low": m - half, "high": m + half, "sd": sd, "se": se, "clusters": used}


def proportion(successes: int, trials: int) -> dict[str, Any]:
    lo, hi = wilson(successes, trials)
    return {"n": trials, "count": successes, "mean": successes / trials if trials else None, "low": lo, "high": hi}


def diff_proportions(a: dict[str, Any], b: dict[str, Any]) -> tuple[float, float, float] | None:
    """b − a with Newcombe's hybrid score interval (method 10), from the two Wilson intervals."""
    if not a["n"] or not b["n"]:
        return None
    p1, p2 = a["mean"], b["mean"]
    l1, u1, l2, u2 = a["low"], a["high"], b["low"], b["high"]
    d = p2 - p1
    low = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return d, low, high


def diff_means(a: dict[str, Any], b: dict[str, Any]) -> tuple[float, float, float] | None:
    """b − a with Welch's normal 95 % interval."""
    if not a["n"] or not b["n"] or a["mean"] is None or b["mean"] is None:
        return None
    d = b["mean"] - a["mean"]
    se = mean_se(a, b)
    return d, d - Z95 * se, d + Z95 * se


def mean_se(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The standard error of b − a: Welch's from the standard deviations, or from the clustered
    standard errors (`cluster_mean`) when the figures carry them (the two arms' matches are apart)."""
    if "se" in a and "se" in b:
        return math.sqrt((a["se"] or 0.0) ** 2 + (b["se"] or 0.0) ** 2)
    return math.sqrt((a["sd"] or 0.0) ** 2 / a["n"] + (b["sd"] or 0.0) ** 2 / b["n"])


def p_means(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The two-sided p-value of b − a = 0 that goes with `diff_means`' normal interval: it is below 5 %
    exactly when that interval leaves out 0."""
    from scipy.stats import norm  # type: ignore[import-untyped]

    d = b["mean"] - a["mean"]
    se = mean_se(a, b)
    if se == 0:
        return 1.0 if d == 0 else 0.0
    return float(2 * norm.sf(abs(d) / se))


def p_proportions(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The two-sided p-value that goes with Newcombe's interval (`diff_proportions`): the level at which the
    interval, rebuilt from Wilson intervals at that level, just touches 0. Below 5 % exactly when the 95 %
    interval leaves out 0, so the verdict and the interval printed beside it never disagree."""
    from scipy.stats import norm

    x1, n1, x2, n2 = int(a["count"]), int(a["n"]), int(b["count"]), int(b["n"])
    d = x2 / n2 - x1 / n1
    if d == 0:
        return 1.0

    def bound(z: float) -> float:  # the interval's end nearer 0, at the level of z
        p1, p2 = x1 / n1, x2 / n2
        l1, u1 = wilson(x1, n1, z)
        l2, u2 = wilson(x2, n2, z)
        if d > 0:
            return d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
        return -(d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2))

    lo, hi = 0.0, 40.0
    if bound(hi) > 0:
        return float(2 * norm.sf(hi))
    for _ in range(100):  # bound(z) falls as z grows: bisect for the z where it crosses 0
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if bound(mid) > 0 else (lo, mid)
    return float(2 * norm.sf((lo + hi) / 2))


# -- an arm's statistics --------------------------------------------------------------------
def arm_stats(records: Sequence[MatchRecord], players: int) -> dict[str, Any]:
    """Every figure of the report for one arm's matches (matches stopped by an error aside, but counted)."""
    stalled = [r for r in records if r.error is not None]
    ok = [r for r in records if r.error is None]
    rich = [r for r in ok if isinstance(r, ReportRecord)]
    n = len(ok)
    deal_lengths = [x for r in rich for x in r.deal_actions]
    per_match_deals = [[float(x) for x in r.deal_actions] for r in rich]
    per_match_bf = [r.choices / r.decisions for r in rich if r.decisions]
    per_match_forced = [r.forced / r.decisions for r in rich if r.decisions]
    lc = [float(lead_changes(r.standings)) for r in rich if r.standings]
    lc_per_deal = [lead_changes(r.standings) / (len(r.standings) - 1) for r in rich if len(r.standings) > 1]
    dec = [d for r in rich if (d := decisiveness(r.standings, r.winner)) is not None]
    dr = [x for r in rich if (x := drama(r.standings, r.winner)) is not None]
    behind = [gap for share, gap in dr if share > 0]
    decisions = sum(r.decisions for r in rich)
    return {
        "matches": len(records),
        "played": n,
        "first_player": proportion(sum(1 for r in ok if r.position == 0), n),
        "positions": [proportion(sum(1 for r in ok if r.position == p), n) for p in range(players)],
        "seats": [proportion(sum(1 for r in ok if s in r.winners), n) for s in range(players)],
        "draws": proportion(sum(1 for r in ok if not r.winners), n),
        "deals_per_match": mean_interval([float(r.deals) for r in ok]),
        "actions_per_match": mean_interval([float(r.actions) for r in ok]),
        "actions_per_deal": cluster_mean(per_match_deals),
        "deals_hist": _hist([r.deals for r in ok]),
        "deal_length_hist": _hist(deal_lengths),
        "busts_per_match": mean_interval([float(sum(r.out)) for r in ok]),
        "reentries_per_match": mean_interval([float(sum(r.reentries)) for r in ok]),
        "void_deals_per_match": mean_interval([float(r.void_deals) for r in ok]),
        "stalled_matches": proportion(len(stalled), len(records)),
        "stalled_deals": sum(r.stalls for r in rich),
        "first_error": stalled[0].error if stalled else None,
        "lead_changes": mean_interval(lc),
        "lead_changes_per_deal": mean_interval(lc_per_deal),
        "decisiveness": mean_interval(dec),
        "drama_share": mean_interval([share for share, _ in dr]),
        "drama_gap": mean_interval(behind),
        "branching": mean_interval(per_match_bf),
        "forced": mean_interval(per_match_forced),
        "decisions": decisions,
        "forced_pooled": proportion(sum(r.forced for r in rich), decisions),
    }


def _hist(values: Sequence[int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in sorted(values):
        out[str(v)] = out.get(str(v), 0) + 1
    return out


def check_records(records: Sequence[MatchRecord]) -> None:
    """A report needs the measured records: a run played without the report's player has none."""
    if records and not any(isinstance(r, ReportRecord) for r in records if r.error is None):
        if any(r.error is None for r in records):
            raise TapeteError("these matches were played without the report's measurements")


__all__ = [
    "ReportRecord",
    "arm_stats",
    "cluster_mean",
    "decisiveness",
    "diff_means",
    "diff_proportions",
    "drama",
    "lead_changes",
    "leaders",
    "mean_interval",
    "mean_se",
    "p_means",
    "p_proportions",
    "play_match",
    "proportion",
    "standing_rule",
]
