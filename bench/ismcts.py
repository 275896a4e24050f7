"""Strength of the searching bot: ismcts against each game's best heuristic bot.

Each deal is a single seeded deal (not a match): ``ismcts`` sits at seat ``k % players``
of deal k (seats rotate) and the game's default bot takes every other seat. Prints, per
game, the ismcts seat's win rate (Fan Tan, Chinchón: the variant's ``won`` rule) or mean
points per deal (Chinese Ten: the ``score`` expression, the deal result), each with a 95 %
interval, the heuristic seats' figure for comparison, and the time per ismcts decision
(decisions with one legal move are not searched and not counted).

Every deal is played a second time from the same seed with the default bot in the ismcts
seat; "paired gain" is the mean of (ismcts figure - that figure) over the deals with its 95 %
interval: the same cards and the same opponents on both sides, so the luck of the deal
cancels and the interval measures what the search changes. "left" is the share of searched
decisions where ismcts played another move than the default bot would have.

    python bench/ismcts.py --jobs 1                 # the full run: 1000 deals per game
    python bench/ismcts.py --deals 200 --games fantan --jobs 2
    python bench/ismcts.py --spec chinchon/fournier=ismcts:iterations=100,margin=3
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from tapete import load_variant
from tapete.core.ledger import Ledger
from tapete.core.rng import Random, derive_seed
from tapete.search.ismcts import ISMCTSBot

GAMES = {
    "fantan": ("fantan/pagat", 4, "ismcts:iterations=1000,margin=2.5", "won"),
    "chinese-ten": (
        "chinese-ten/two-player",
        2,
        "ismcts:iterations=1500,reward=score,rollout=random,margin=2.5",
        "score",
    ),
    "chinchon": ("chinchon/fournier", 2, "ismcts:iterations=300", "won"),
}


def play_deal(args: tuple[str, int, str, str, int]) -> tuple[float, float, float, int, float, int]:
    """One deal, played twice from the same seed: with ismcts at the deal's seat, then with the
    default bot there instead. Returns (ismcts figure, mean figure of the other seats, search
    seconds, searched decisions, the default bot's figure at that seat, decisions where ismcts
    left the default bot's move)."""
    name, players, spec, measure, k = args
    v = load_variant(name)
    record = v.record
    game = v.new_game()
    seat = k % players
    judge = ISMCTSBot(game, 0, Random(0), iterations=1, reward=measure)
    results: list[list[float]] = []
    spent = 0.0
    bots: list[Any] = []
    for at_seat in (spec, record.default_bot):
        deal = v.new_deal(players, seed=derive_seed("bench-ismcts", k))
        bots = []
        for s in range(players):
            factory = record.bot(at_seat if s == seat else record.default_bot)
            bots.append(factory(game, s, Random(derive_seed("bench-ismcts", k, "bot", s))))
        searching = at_seat == spec
        while not deal.over:
            s = deal.to_move
            legal = deal.legal_actions()
            view = deal.view(s)
            if searching and s == seat and len(legal) > 1:
                t = time.perf_counter()
                action = bots[s].choose(view, legal)
                spent += time.perf_counter() - t
            else:
                action = bots[s].choose(view, legal)
            deal.play(action)
        results.append(judge.evaluate(deal.state, Ledger(players)))
        if searching:
            searcher = bots[seat]
    values, baseline = results
    others = [values[s] for s in range(players) if s != seat]
    return (
        values[seat],
        sum(others) / len(others),
        spent,
        searcher.decisions,
        baseline[seat],
        getattr(searcher, "overrides", 0),
    )


def interval(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--spec", action="append", default=[], help="VARIANT=BOTSPEC to change a budget")
    args = parser.parse_args()
    specs = dict(item.split("=", 1) for item in args.spec)
    print(
        f"{'variant':24} {'players':>7} {'deals':>6}  {'ismcts':>16}  {'heuristic':>16}  "
        f"{'paired gain':>16}  {'s/decision':>10}  {'left':>5}  spec"
    )
    for key in args.games.split(","):
        name, players, spec, measure = GAMES[key]
        spec = specs.get(name, spec)
        tasks = [(name, players, spec, measure, k) for k in range(args.deals)]
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(play_deal, tasks, chunksize=8))
        mine, theirs = interval([r[0] for r in rows]), interval([r[1] for r in rows])
        gain = interval([r[0] - r[4] for r in rows])
        decisions = sum(r[3] for r in rows)
        per = sum(r[2] for r in rows) / decisions if decisions else 0.0
        left = sum(r[5] for r in rows) / decisions if decisions else 0.0
        unit = "win rate" if measure == "won" else "points"
        print(
            f"{name:24} {players:>7} {len(rows):>6}  {mine[0]:7.3f} ± {mine[1]:6.3f}  "
            f"{theirs[0]:7.3f} ± {theirs[1]:6.3f}  {gain[0]:+7.3f} ± {gain[1]:6.3f}  "
            f"{per:10.3f}  {left:5.2f}  {spec} ({unit})",
            flush=True,
        )


if __name__ == "__main__":
    main()
