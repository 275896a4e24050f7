"""What the step-by-step API costs per action, next to the match loop, for random Chinchón.

    python bench/deal_api.py [--variant chinchon/fournier] [--players 2] [--seconds S] [--rounds R]

Both sides play uniformly random legal moves and count actions per CPU second of this
process (``time.process_time``), in alternation, ``--rounds`` times, in one process:

* **match loop**: ``Match(variant, players, seed, bots=["random"]).play()``, whole matches
  one after another (the random bot reads no view, so nothing is recorded);
* **Deal, default**: ``variant.new_deal(players, seed=k)``, then ``deal.legal_actions()``
  and ``deal.play(action)`` until the deal is over, one deal after another: what a caller
  of the public API pays, with every seat's history kept (``record=True``, the default);
* **Deal, record=False**: the same without any history;
* **Deal, views**: the default deal with ``deal.view(deal.to_move)`` read after every move,
  what a caller who looks at every step pays (the cost of the histories themselves).

Each round prints the rates and the ratio of each Deal figure to the match loop (time per
action, so > 1 is slower); the last lines are the medians of the rounds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from tapete import Random, load_variant
from tapete.play.match import Match


def match_loop(variant: Any, players: int, seconds: float) -> float:
    actions = 0

    def count(event: dict[str, Any]) -> None:
        nonlocal actions
        if event["type"] == "action":
            actions += 1

    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        Match(variant, players, seed, bots=["random"]).play(count)
        seed += 1
    return actions / (time.process_time() - start)


def deal_loop(record: bool, look: bool) -> Callable[[Any, int, float], float]:
    def run(variant: Any, players: int, seconds: float) -> float:
        rng = Random(0, "deal api")
        actions, seed = 0, 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            deal = variant.new_deal(players, seed=seed, record=record)
            while not deal.over:
                legal = deal.legal_actions()
                deal.play(legal[rng.below(len(legal))] if len(legal) > 1 else legal[0])
                actions += 1
                if look:
                    deal.view(deal.to_move)
            seed += 1
        return actions / (time.process_time() - start)

    return run


SIDES: dict[str, Callable[[Any, int, float], float]] = {
    "match loop": match_loop,
    "Deal, default": deal_loop(True, False),
    "Deal, record=False": deal_loop(False, False),
    "Deal, views": deal_loop(True, True),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="chinchon/fournier")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per side per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    variant = load_variant(args.variant)
    for run in SIDES.values():  # warm the caches (rule programs, meld tables) before measuring
        run(variant, args.players, 0.3)
    ratios: dict[str, list[float]] = {name: [] for name in SIDES if name != "match loop"}
    rates: dict[str, list[float]] = {name: [] for name in SIDES}
    for r in range(args.rounds):
        got = {name: run(variant, args.players, args.seconds) for name, run in SIDES.items()}
        base = got["match loop"]
        for name, rate in got.items():
            rates[name].append(rate)
            if name in ratios:
                ratios[name].append(base / rate)
        line = ", ".join(f"{name} {rate:,.0f}/s" for name, rate in got.items())
        print(f"round {r + 1}: {line}; " + ", ".join(f"{n} {x[-1]:.2f}x" for n, x in ratios.items()))
    print(f"{args.variant}, {args.players} players, actions per CPU second, median of {args.rounds} rounds:")
    for name in SIDES:
        extra = "" if name == "match loop" else f"  ({statistics.median(ratios[name]):.2f}x the match loop's time)"
        print(f"  {name:20} {statistics.median(rates[name]):>9,.0f}{extra}")


if __name__ == "__main__":
    main()
