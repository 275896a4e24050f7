"""The Scopa counting bot ('counting', once 'greedy') against random: its match win rate with a 95% interval.

Each seed is played twice, the bot once in each seat, so the cards' luck cancels out
between the two seatings. A match is the whole game to 11 (SC-5.1).

    python bench/scopa_bots.py [--matches 500] [--seed-base 0] [--variant scopa/classic]
"""

from __future__ import annotations

import argparse
import math
import time

from tapete import Match, load_variant


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion: sound near 0% and 100% too."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def run(variant_name: str, matches: int, seed_base: int, bot: str, against: str) -> dict:
    variant = load_variant(variant_name)
    players = variant.default_players()
    wins = played = 0
    points = 0
    for i in range(matches):
        seed = seed_base + i
        for bot_seat in (0, 1):
            bots = [bot if variant.new_game().same_team(s, bot_seat) else against for s in range(players)]
            result = Match(variant, players, seed, bots=bots).play()
            played += 1
            wins += result.winner >= 0 and variant.new_game().same_team(result.winner, bot_seat)
            points += result.totals[bot_seat] - result.totals[1 - bot_seat]
    return {"wins": wins, "played": played, "margin": points / played}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=500, help="seeds, each played in both seatings")
    parser.add_argument("--seed-base", type=int, default=0, help="first seed")
    parser.add_argument("--variant", default="scopa/classic")
    parser.add_argument("--bot", default="counting")
    parser.add_argument("--against", default="random")
    args = parser.parse_args()
    start = time.perf_counter()
    r = run(args.variant, args.matches, args.seed_base, args.bot, args.against)
    elapsed = time.perf_counter() - start
    lo, hi = wilson(r["wins"], r["played"])
    print(
        f"{args.variant}, {args.bot} vs {args.against}, {args.matches} seeds x 2 seatings "
        f"(seeds {args.seed_base}..{args.seed_base + args.matches - 1})"
    )
    print(
        f"  {args.bot} won {r['wins']} of {r['played']} matches: {r['wins'] / r['played']:.1%} "
        f"(95% interval {lo:.1%} to {hi:.1%}); average final margin {r['margin']:+.2f} points"
    )
    print(f"  ({elapsed:.1f} s)")


if __name__ == "__main__":
    main()
