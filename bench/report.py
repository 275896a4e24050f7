"""What ``tapete report``'s measurements cost over plain ``tapete simulate`` on the same matches.

    python bench/report.py [--variant NAME] [--games N] [--bots B] [--runs R]

Each run plays the same seeded matches twice in this process, in alternating order:
``simulate`` is ``tapete.simulate(workers=1)`` (its own records); ``report`` is the same
call with ``player=tapete.design.report_stats.play_match`` (every decision's legal moves
counted, each deal's length, the standings after every deal) followed by the report's
statistics over the records (``arm_stats``). Both use one process, so the ratio is the
measuring's cost, not the pool's. CPU time of the process (``time.process_time``) is
measured, so other load on the machine counts for neither side. Prints JSON: the medians,
the ratio ``report / simulate`` per run and its median (the goal: at most 1.20).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

from tapete import simulate
from tapete.design.report_stats import arm_stats, play_match


def plain(name: str, games: int, bots: list[str], seed: str) -> float:
    t = time.process_time()
    sim = simulate(name, games, bots=bots, seed=seed, workers=1)
    assert sim.complete
    return time.process_time() - t


def measured(name: str, games: int, bots: list[str], seed: str) -> float:
    t = time.process_time()
    sim = simulate(name, games, bots=bots, seed=seed, workers=1, player=play_match)
    assert sim.complete
    arm_stats(sim.records, sim.plan.players)
    return time.process_time() - t


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--variant", default="chinchon/fournier")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--bots", default="heuristic")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    bots = args.bots.split(",")
    simulate(args.variant, 2, bots=bots, workers=1)  # load the variant and warm its caches once
    times: dict[str, list[float]] = {"simulate": [], "report": []}
    for r in range(args.runs):
        seed = f"bench-{r}"
        order = ("simulate", "report") if r % 2 == 0 else ("report", "simulate")
        for side in order:
            run = plain if side == "simulate" else measured
            times[side].append(run(args.variant, args.games, bots, seed))
    ratios = [m / s for m, s in zip(times["report"], times["simulate"], strict=True)]
    out = {
        "variant": args.variant,
        "games": args.games,
        "bots": bots,
        "runs": args.runs,
        "cpu_seconds": {k: round(statistics.median(v), 3) for k, v in times.items()},
        "ratios": [round(x, 3) for x in ratios],
        "ratio_median": round(statistics.median(ratios), 3),
        "goal": "report / simulate <= 1.20",
        "python": platform.python_version(),
        "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
    }
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
