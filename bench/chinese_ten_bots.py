"""The greedy Chinese Ten bot against random: its average deal result over seeded deals.

Each seeded two-player deal is played twice with the same cards, the greedy bot
once in each seat, so the deal's luck cancels out between the two seatings.

    python bench/chinese_ten_bots.py [--deals 1000] [--seed-base 0]
"""

from __future__ import annotations

import argparse
import statistics
import time

from tapete import Match, load_variant


def run(deals: int, seed_base: int) -> dict:
    variant = load_variant("chinese-ten/one-deal")
    by_seat: dict[int, list[int]] = {0: [], 1: []}
    for i in range(deals):
        seed = seed_base + i
        for greedy_seat in (0, 1):
            bots = ["greedy", "random"] if greedy_seat == 0 else ["random", "greedy"]
            result = Match(variant, 2, seed, bots=bots).play()
            by_seat[greedy_seat].append(result.totals[greedy_seat])
    return by_seat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=1000, help="seeded deals, each played in both seatings")
    parser.add_argument("--seed-base", type=int, default=0, help="first seed")
    args = parser.parse_args()
    start = time.perf_counter()
    by_seat = run(args.deals, args.seed_base)
    elapsed = time.perf_counter() - start
    every = by_seat[0] + by_seat[1]
    print(
        f"chinese-ten/one-deal, greedy vs random, {args.deals} seeded deals x 2 seatings "
        f"(seeds {args.seed_base}..{args.seed_base + args.deals - 1})"
    )
    for seat, results in by_seat.items():
        wins = sum(1 for r in results if r > 0)
        draws = sum(1 for r in results if r == 0)
        print(
            f"  greedy in seat {seat}: average result {statistics.mean(results):+.2f} points "
            f"(won {wins}, drew {draws}, lost {len(results) - wins - draws})"
        )
    err = statistics.stdev(every) / len(every) ** 0.5
    wins = sum(1 for r in every if r > 0)
    print(
        f"  overall: average result {statistics.mean(every):+.2f} +/- {err:.2f} points per deal; "
        f"greedy won {wins / len(every):.1%} of {len(every)} deals"
    )
    print(f"  ({elapsed:.1f} s)")


if __name__ == "__main__":
    main()
