"""The report's verdicts at 300 matches against the same run carried on to 1,000 (tests/test_report_verdicts.py).

Each pair of variants plays 1,000 seeded report matches per arm (no ladder; the game's
default bot at every seat, its default players). Match *i* has the same seed in a run of
300 as in a run of 1,000, so the first 300 records are the 300-match run. The figures of
both sizes (`report_stats.arm_stats`) go to ``bench/report_replay.json``; the test draws
the verdicts from them and checks that no verdict at 300 matches is contradicted at 1,000.

    python bench/report_replay.py                  # the two pairs, 1,000 matches an arm
    python bench/report_replay.py --games 200 --small 60 --out /tmp/replay.json
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from tapete.design import report_stats
from tapete.simulation.plan import simulate

PAIRS = [("fantan/pagat", "fantan/nines"), ("chinchon/fournier", "chinchon/to-70")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="matches per arm of the long run")
    parser.add_argument("--small", type=int, default=300, help="matches per arm of the short run (its first ones)")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("report_replay.json"))
    args = parser.parse_args()
    out: dict[str, object] = {
        "command": "python bench/report_replay.py"
        + (f" --games {args.games} --small {args.small}" if (args.games, args.small) != (1000, 300) else ""),
        "seed": args.seed,
        "games": args.games,
        "small": args.small,
        "pairs": [],
    }
    for pair in PAIRS:
        arms = []
        for name in pair:
            start = time.perf_counter()
            run = simulate(name, args.games, seed=args.seed, workers=args.workers, player=report_stats.play_match)
            n = run.plan.players
            arms.append(
                {
                    "variant": name,
                    "players": n,
                    "bots": run.plan.bots,
                    "seconds": round(time.perf_counter() - start, 1),
                    "small": report_stats.arm_stats(run.records[: args.small], n),
                    "large": report_stats.arm_stats(run.records, n),
                }
            )
            print(f"{name}: {args.games} matches in {arms[-1]['seconds']} s", flush=True)
        out["pairs"].append({"a": pair[0], "b": pair[1], "arms": arms})  # type: ignore[attr-defined]
    args.out.write_text(json.dumps(out, indent=None, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
