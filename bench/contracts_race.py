"""Oh Hell and Spades random play: tapete against OpenSpiel's ``oh_hell`` and ``spades``, in one process.

    pip install -e '.[bench]'        # open-spiel
    python bench/contracts_race.py [--seconds S] [--runs R]

Every contender plays whole hands with uniformly random legal moves drawn from Python's
``random`` (the same cost for all), on one core, taking turns within each run, so load on
the machine hits them alike; time is CPU time of this process. A *deal* is dealt, bid and
played to its last trick; *player actions* are the bids and cards the players choose.
OpenSpiel's chance steps (the deal, the trump card) are applied, not counted.

* ``tapete``: ``oh-hell/openspiel`` (4 players, ``--option cards=10``: the variant's own default
  is 7) and ``spades/openspiel`` through the public API: ``variant.new_deal(players, seed,
  record=False)``, then ``legal_actions()`` and ``play(action)`` (which checks the move) to the end.
* ``openspiel``: ``pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 10})`` and
  ``pyspiel.load_game("spades")`` from Python, a new initial state per deal, every chance
  outcome drawn from ``chance_outcomes()``.

The report is JSON: medians, min and max over R runs, and the ratios tapete / OpenSpiel.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from collections.abc import Callable

import pyspiel

from tapete import load_variant

Runner = Callable[[random.Random], int]  # plays one deal, returns the player actions


def tapete_runner(name: str, players: int, options: dict[str, int] | None = None) -> Runner:
    variant = load_variant(name, options=options)
    seeds = iter(range(10**9))

    def run(rng: random.Random) -> int:
        deal = variant.new_deal(players, seed=next(seeds), record=False)
        actions = 0
        while not deal.over:
            legal = deal.legal_actions()
            deal.play(legal[rng.randrange(len(legal))])
            actions += 1
        return actions

    return run


def openspiel_runner(name: str, params: dict[str, int], forced: tuple[int, ...] = ()) -> Runner:
    """OpenSpiel's ``name`` from Python; ``forced`` are chance outcomes applied first (Hearts' pass direction)."""
    game = pyspiel.load_game(name, params)

    def run(rng: random.Random) -> int:
        state = game.new_initial_state()
        for outcome in forced:
            state.apply_action(outcome)
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
        return actions

    return run


def measure(run: Runner, seconds: float, rng: random.Random) -> tuple[float, float]:
    """(player actions per CPU second, deals per CPU second) over about ``seconds``."""
    start = time.process_time()
    deals = actions = 0
    while time.process_time() - start < seconds:
        actions += run(rng)
        deals += 1
    spent = time.process_time() - start
    return actions / spent, deals / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per contender and run")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    games = {
        "oh_hell": {
            "tapete": tapete_runner("oh-hell/openspiel", 4, {"cards": 10}),
            "openspiel": openspiel_runner("oh_hell", {"players": 4, "num_tricks_fixed": 10}),
        },
        "spades": {"tapete": tapete_runner("spades/openspiel", 4), "openspiel": openspiel_runner("spades", {})},
    }
    report: dict[str, object] = {"python": platform.python_version(), "seconds": args.seconds, "runs": args.runs}
    for game, contenders in games.items():
        keys = ("actions/s", "deals/s", "actions/deal")  # the last shows both play the same hand
        figures: dict[str, dict[str, list[float]]] = {c: {k: [] for k in keys} for c in contenders}
        rng = random.Random(29)
        for _ in range(args.runs):
            for name, run in contenders.items():
                per_action, per_deal = measure(run, args.seconds, rng)
                figures[name]["actions/s"].append(per_action)
                figures[name]["deals/s"].append(per_deal)
                figures[name]["actions/deal"].append(per_action / per_deal)
        out: dict[str, object] = {}
        for name, fig in figures.items():
            out[name] = {k: {"median": statistics.median(v), "min": min(v), "max": max(v)} for k, v in fig.items()}
        out["ratio tapete/openspiel"] = {
            k: statistics.median(figures["tapete"][k]) / statistics.median(figures["openspiel"][k])
            for k in ("actions/s", "deals/s")
        }
        report[game] = out
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
