"""Every seeded Chinchón match between the default bots finishes.

    python bench/chinchon_termination.py [--first 1] [--last 200] [--players 2,3,4] [--workers 2]

Plays ``chinchon/fournier`` with the heuristic bot at every seat, for every seed
and player count, and prints JSON: how many matches finished, how many stopped
with an error (a stalled deal or a runaway guard) with their seeds, and the
longest match in actions. Four heuristic bots used to pass the court cards round
for ever on about one seed in six (1, 2, 13, 16, 22, 35 at four players).
"""

from __future__ import annotations

import argparse
import json
import time
from multiprocessing import Pool

from tapete import Match, TapeteError, load_variant


def play(job: tuple[str, int, int]) -> tuple[int, int, str, int]:
    name, players, seed = job
    actions = 0

    def count(event: dict) -> None:
        nonlocal actions
        actions += event["type"] == "action"

    try:
        Match(load_variant(name), players, seed, bots=["heuristic"]).play(count)
        return players, seed, "ok", actions
    except TapeteError as exc:
        return players, seed, str(exc), actions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="chinchon/fournier")
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--last", type=int, default=200)
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    jobs = [(args.variant, int(p), s) for p in args.players.split(",") for s in range(args.first, args.last + 1)]
    t0 = time.perf_counter()
    with Pool(args.workers) as pool:
        results = pool.map(play, jobs, chunksize=4)
    errors = [{"players": p, "seed": s, "error": e} for p, s, e, _ in results if e != "ok"]
    print(
        json.dumps(
            {
                "variant": args.variant,
                "matches": len(results),
                "finished": len(results) - len(errors),
                "errors": errors,
                "most_actions": max(a for *_, a in results),
                "seconds": round(time.perf_counter() - t0, 1),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
