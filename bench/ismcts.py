"""Strength of the searching bot: ismcts against each game's best heuristic bot.

Each deal is a single seeded deal (not a match): ``ismcts`` sits at seat ``k % players``
of deal k (seats rotate) and the game's default bot takes every other seat. Prints, per
game, the ismcts seat's win rate (Fan Tan, Chinchón: the variant's ``won`` rule) or mean
points per deal (Chinese Ten: the ``score`` expression, the deal result), each with a 95 %
interval, the heuristic seats' figure for comparison, and the time per ismcts decision
(decisions with one legal move are not searched and not counted).

    python bench/ismcts.py                          # the full run: 1000 deals per game
    python bench/ismcts.py --deals 200 --games fantan --jobs 2
    python bench/ismcts.py --spec chinchon/fournier=ismcts:iterations=40,rollout=default
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from tapete import load_variant, registry
from tapete.ismcts import ISMCTSBot
from tapete.ledger import Ledger
from tapete.rng import Random, derive_seed

GAMES = {
    "fantan": ("fantan/pagat", 4, "ismcts:iterations=200", "won"),
    "chinese-ten": ("chinese-ten/two-player", 2, "ismcts:iterations=100,reward=score", "score"),
    "chinchon": ("chinchon/fournier", 2, "ismcts:iterations=20,rollout=default", "won"),
}


def play_deal(args: tuple[str, int, str, str, int]) -> tuple[float, float, float, int]:
    """One deal; returns (ismcts figure, mean heuristic figure, search seconds, decisions)."""
    name, players, spec, measure, k = args
    v = load_variant(name)
    reg = registry()
    game = v.new_game()
    seat = k % players
    deal = v.new_deal(players, seed=derive_seed("bench-ismcts", k))
    bots: list[Any] = []
    for s in range(players):
        entry = reg.bot(v.spec.game, spec if s == seat else game.default_bot)
        bots.append(entry.factory(game, s, Random(derive_seed("bench-ismcts", k, "bot", s))))
    spent = 0.0
    while not deal.over:
        s = deal.to_move
        legal = deal.legal_actions()
        view = deal.view(s)
        if s == seat and len(legal) > 1:
            t = time.perf_counter()
            action = bots[s].choose(view, legal)
            spent += time.perf_counter() - t
        else:
            action = bots[s].choose(view, legal)
        deal.play(action)
    judge = ISMCTSBot(game, 0, Random(0), iterations=1, reward=measure)
    values = judge.evaluate(deal.state, Ledger(players))
    others = [values[s] for s in range(players) if s != seat]
    return values[seat], sum(others) / len(others), spent, bots[seat].decisions


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
    print(f"{'variant':24} {'players':>7} {'deals':>6}  {'ismcts':>16}  {'heuristic':>16}  {'s/decision':>10}  spec")
    for key in args.games.split(","):
        name, players, spec, measure = GAMES[key]
        spec = specs.get(name, spec)
        tasks = [(name, players, spec, measure, k) for k in range(args.deals)]
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(play_deal, tasks, chunksize=8))
        mine, theirs = interval([r[0] for r in rows]), interval([r[1] for r in rows])
        decisions = sum(r[3] for r in rows)
        per = sum(r[2] for r in rows) / decisions if decisions else 0.0
        unit = "win rate" if measure == "won" else "points"
        print(
            f"{name:24} {players:>7} {len(rows):>6}  {mine[0]:7.3f} ± {mine[1]:6.3f}  "
            f"{theirs[0]:7.3f} ± {theirs[1]:6.3f}  {per:10.3f}  {spec} ({unit})",
            flush=True,
        )


if __name__ == "__main__":
    main()
