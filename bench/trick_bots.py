"""The trick family's default bots against random: match win rates with a 95% interval.

Hearts (4 players): the heuristic bot in one seat, random in the other three, each seed
played four times with the bot in each seat in turn, so the cards' luck cancels out; a win
shared with others (HE-5.2) counts as a win, and random's fair share is 25 %. Also the
bot's mean penalty points per hand beside a random seat's. Briscola (2 players): each seed
played twice, the bot once in each seat; a fair share is 50 %. Oh Hell (4 players) as Hearts;
Spades (two sides) with the bot's side in each seating, a fair share 50 %. ``--against naive``
seats the naive bidder (an even share of the tricks, then the same play) instead of random:
the margin the bidding estimate is worth.

    python bench/trick_bots.py [--matches 200] [--seed-base 0] [--only hearts/classic] [--against naive]
"""

from __future__ import annotations

import argparse
import time

from scopa_bots import wilson  # the Wilson interval, as the other bots' benches give it (bench/ is on the path)

from tapete import Match, load_variant


def run(name: str, matches: int, seed_base: int, bot: str, against: str) -> dict:
    variant = load_variant(name)
    players = variant.default_players()
    game = variant.new_game()
    wins = played = 0
    mine = theirs = deals = 0
    for i in range(matches):
        for seat in range(players):
            bots = [bot if game.same_team(s, seat) else against for s in range(players)]
            result = Match(variant, players, seed_base + i, bots=bots).play()
            played += 1
            wins += any(game.same_team(w, seat) for w in result.winners)
            other = next(s for s in range(players) if not game.same_team(s, seat))
            mine += result.totals[seat]
            theirs += result.totals[other]
            deals += result.deals
    return {
        "wins": wins,
        "played": played,
        "mine": mine / deals,
        "theirs": theirs / deals,
        "fair": 1 / players * (2 if game.teams else 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=200, help="seeds, each played in every seating")
    parser.add_argument("--seed-base", type=int, default=0)
    parser.add_argument(
        "--only", action="append", help="a variant (repeatable); default hearts/classic and briscola/classic"
    )
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--against", default="random")
    args = parser.parse_args()
    for name in args.only or ["hearts/classic", "briscola/classic"]:
        start = time.perf_counter()
        r = run(name, args.matches, args.seed_base, args.bot, args.against)
        lo, hi = wilson(r["wins"], r["played"])
        print(f"{name}, {args.bot} vs {args.against}, {args.matches} seeds x every seating")
        print(
            f"  {args.bot} won {r['wins']} of {r['played']} matches: {r['wins'] / r['played']:.1%} "
            f"(95% interval {lo:.1%} to {hi:.1%}; fair share {r['fair']:.0%}); points per deal "
            f"{r['mine']:.2f} against a {args.against} seat's {r['theirs']:.2f}  ({time.perf_counter() - start:.1f} s)"
        )


if __name__ == "__main__":
    main()
