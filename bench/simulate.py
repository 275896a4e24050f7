"""`tapete.simulate` against the bare match loop, and W worker processes against one.

    python bench/simulate.py [--variant NAME] [--games N] [--bots B] [--players P] [--runs R] [--workers W]

For the same seeds, side by side in each run: ``bare`` plays the matches with
``Match(...).play()`` in a plain loop (no records, no processes); ``sim_1`` is
``tapete.simulate(workers=1)`` (this process: the records, the event counter);
``sim_W`` is ``tapete.simulate(workers=W)`` (W processes, chunks, pickled records).
Prints JSON: matches/s medians over R runs, the overhead per match of ``sim_1``
over ``bare`` in microseconds, and the speed-up of ``sim_W`` over ``sim_1``.
The machine's load average is printed too: the speed-up needs idle cores.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

from tapete import Match, load_variant, simulate
from tapete.simulation.plan import match_seed


def bare(name: str, games: int, players: int | None, bots: list[str], seed: str) -> float:
    v = load_variant(name)
    t = time.perf_counter()
    for i in range(games):
        Match(v, players, match_seed(seed, i), bots=bots).play()
    return time.perf_counter() - t


def timed_simulate(name: str, games: int, players: int | None, bots: list[str], seed: str, workers: int) -> float:
    t = time.perf_counter()
    sim = simulate(name, games, players=players, bots=bots, seed=seed, workers=workers)
    assert sim.complete
    return time.perf_counter() - t


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--variant", default="fantan/pagat")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--bots", default="random")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args(argv)
    bots = args.bots.split(",")
    times: dict[str, list[float]] = {"bare": [], "sim_1": [], f"sim_{args.workers}": []}
    for r in range(args.runs):
        seed = f"bench-{r}"
        times["bare"].append(bare(args.variant, args.games, args.players, bots, seed))
        times["sim_1"].append(timed_simulate(args.variant, args.games, args.players, bots, seed, 1))
        times[f"sim_{args.workers}"].append(
            timed_simulate(args.variant, args.games, args.players, bots, seed, args.workers)
        )
    med = {k: statistics.median(v) for k, v in times.items()}
    out = {
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "variant": args.variant,
        "bots": bots,
        "games": args.games,
        "runs": args.runs,
        "matches_per_second_median": {k: round(args.games / v, 1) for k, v in med.items()},
        "overhead_per_match_us_sim_1_vs_bare": round((med["sim_1"] - med["bare"]) / args.games * 1e6, 1),
        "overhead_ratio_sim_1_vs_bare": round(med["sim_1"] / med["bare"], 3),
        f"speedup_{args.workers}_workers_vs_1": round(med["sim_1"] / med[f"sim_{args.workers}"], 2),
    }
    json.dump(out, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
