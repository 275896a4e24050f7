"""The skill ladder of every game: random < the game's default bot < ismcts at two budgets.

Each game's ladder is a `tapete tournament` (a seeded round robin, seats rotated) of
``random``, the game's default bot and ``ismcts`` at two rollout budgets, printed as one
JSON line per game with the ratings (openskill's Plackett-Luce model over whole matches, the
Elo scale, random = 0) and their 95 % intervals, as `tapete tournament` prints them. The
single-deal or short variants keep a budget of minutes on two cores.

    python bench/ladder.py                       # every game, 40 matches a pair
    python bench/ladder.py --games 100 --only fantan/pagat --budgets 50,200
"""

from __future__ import annotations

import argparse
import json
import os
import time

from tapete import load_variant
from tapete.simulation.tournament import round_robin

GAMES = [
    "fantan/pagat",
    "chinchon/fournier",
    "gin/single-hand",
    "chinese-ten/one-deal",
    "scopa/classic",
    "hearts/classic",
    "briscola/classic",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="matches per pair of bots")
    parser.add_argument("--budgets", default="20,100", help="the two ismcts rollout budgets")
    parser.add_argument("--only", action="append", help="a variant (repeatable)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    low, high = (int(b) for b in args.budgets.split(","))
    for name in args.only or GAMES:
        default = load_variant(name).record.default_bot  # the game's own (Scopa's counting bot, not its family's)
        bots = ["random", default, f"ismcts:iterations={low}", f"ismcts:iterations={high}"]
        start = time.perf_counter()
        result = round_robin(name, bots, args.games, workers=args.workers, seed="ladder")
        print(
            json.dumps(
                {
                    "variant": name,
                    "games_per_pair": args.games,
                    "seconds": round(time.perf_counter() - start, 1),
                    "ratings": [
                        {
                            "bot": r.bot,
                            "elo": round(r.elo),
                            "low": round(r.low),
                            "high": None if r.high is None else round(r.high),
                        }
                        for r in result.ratings
                    ],
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
