"""What a designer reads from a run: win rates with 95 % intervals, match length, busts.

Plain numbers in plain dicts (the CLI prints them, ``--json`` stores them, a
notebook reads them). Win rates carry Wilson score intervals, which stay inside
0..1 and behave for rates near 0 or 1 and for few matches.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .plan import MatchRecord, Simulation

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (0, 1 for no trials)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= trials else min(1.0, centre + half)
    return lo, hi


def _rate(wins: int, trials: int) -> dict[str, Any]:
    lo, hi = wilson(wins, trials)
    return {"wins": wins, "rate": wins / trials if trials else 0.0, "low": lo, "high": hi}


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def point_summary(records: Sequence[MatchRecord], players: int, bots: Sequence[str]) -> dict[str, Any]:
    """The tables of one sweep point (or of a run without a sweep); matches that ended in an error aside."""
    failed = [r for r in records if r.error is not None]
    records = [r for r in records if r.error is None]
    n = len(records)
    seats = []
    for s in range(players):
        seats.append(
            {
                "seat": s,
                "bot": bots[s],
                **_rate(sum(1 for r in records if s in r.winners), n),  # a shared win counts for each sharer
                "mean_total": _mean([r.totals[s] for r in records]),
                "mean_deals_won": _mean([r.deals_won[s] for r in records]),
                "out": sum(1 for r in records if r.out[s]),
                "reentries": sum(r.reentries[s] for r in records),
            }
        )
    by_bot = []
    for name in dict.fromkeys(bots):
        mine = [s for s in range(players) if bots[s] == name]
        wins = sum(1 for r in records if any(w in mine for w in r.winners))
        by_bot.append(
            {
                "bot": name,
                "seats": mine,
                **_rate(wins, n),
                "fair_share": len(mine) / players,
                "mean_total": _mean([r.totals[s] for r in records for s in mine]),
            }
        )
    positions = [{"position": p, **_rate(sum(1 for r in records if r.position == p), n)} for p in range(players)]
    deals = sum(r.deals for r in records)
    return {
        "matches": n,
        "draws": sum(1 for r in records if not r.winners),
        "shared_wins": sum(1 for r in records if len(r.winners) > 1),
        "seats": seats,
        "bots": by_bot,
        "positions": positions,
        "deals_per_match": deals / n if n else 0.0,
        "deals_per_match_sd": _sd([r.deals for r in records]),
        "actions_per_deal": sum(r.actions for r in records) / deals if deals else 0.0,
        "actions_per_match": _mean([r.actions for r in records]),
        "eliminations_per_match": _mean([sum(r.out) for r in records]),
        "reentries_per_match": _mean([sum(r.reentries) for r in records]),
        "void_deals": sum(r.void_deals for r in records),
        "errors": len(failed),
        "first_error": failed[0].error if failed else None,
    }


def _sd(xs: Sequence[int]) -> float:
    if len(xs) < 2:
        return 0.0
    m = _mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def summarize(sim: Simulation) -> dict[str, Any]:
    """Per point: the tables of `point_summary`, with the point's sweep values."""
    plan = sim.plan
    by_point: list[list[MatchRecord]] = [[] for _ in plan.points]
    for r in sim.records:
        by_point[r.point].append(r)
    return {
        "variant": plan.name,
        "players": plan.players,
        "bots": plan.bots,
        "seed": plan.seed,
        "options": plan.options,
        "sweep": plan.sweep,
        "eliminates": plan.eliminates,
        "matches": len(sim.records),
        "planned": plan.total,
        "stopped": sim.stopped,
        "seconds": round(sim.seconds, 3),
        "points": [
            {"values": plan.points[p], **point_summary(recs, plan.players, plan.bots)}
            for p, recs in enumerate(by_point)
        ],
    }
