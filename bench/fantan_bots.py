"""The sensible Fan Tan bot against three random bots.

    python bench/fantan_bots.py [--matches N]

Plays N seeded 4-player matches of fantan/pagat with the sensible bot in each
seat in turn; prints JSON with its match and deal win rates (chance: 25%).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from tapete import Match, load_variant


def main(argv=None) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--matches", type=int, default=200)
    args = p.parse_args(argv)
    v = load_variant("fantan/pagat")
    wins = deals_won = deals = 0
    start = time.perf_counter()
    for k in range(args.matches):
        seat = k % 4
        bots = ["random"] * 4
        bots[seat] = "sensible"
        result = Match(v, 4, seed=f"ft-{k}", bots=bots).play()
        wins += result.winner == seat
        deals_won += result.deals_won[seat]
        deals += result.deals
    json.dump(
        {
            "variant": v.name,
            "matches": args.matches,
            "sensible_match_win_rate": round(wins / args.matches, 3),
            "sensible_deal_win_rate": round(deals_won / deals, 3),
            "chance": 0.25,
            "seconds": round(time.perf_counter() - start, 1),
        },
        sys.stdout,
        indent=2,
    )
    print()


if __name__ == "__main__":
    main()
