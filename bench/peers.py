"""tapete's random Chinchón beside OpenSpiel's and RLCard's Gin Rummy, in one process.

    pip install -e '.[bench]'        # open-spiel, rlcard
    python bench/peers.py [--seconds S] [--runs R]

Each run gives every contender about S seconds, in turn (so load on the machine
hits them alike), and counts the players' actions of whole random deals:

* ``tapete/<variant>``: the bare deal loop of ``bench/actions.py`` (legal actions,
  a random choice, the refusal check, apply), two players;
* ``open_spiel/gin_rummy``: ``game.new_initial_state()`` per deal, random legal
  actions, chance outcomes sampled (not counted as actions), from Python;
* ``open_spiel/gin_rummy_cached``: the same, each deal starting from a clone of a
  cached initial state;
* ``rlcard/gin-rummy``: ``env.reset()`` and ``env.step`` with random legal actions.

Prints JSON: actions/s medians and each tapete variant's ratio to the OpenSpiel
figures, and to ``chinchon/fournier`` (per action). A peer that is not installed
is skipped with a note.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from actions import play_deals

from tapete import load_variant

VARIANTS = ("chinchon/fournier", "chinchon/wild-cards", "chinchon/two-decks")


def tapete_runner(name: str) -> Callable[[float], tuple[int, float]]:
    v = load_variant(name)
    players = max(2, v.player_range()[0])
    play_deals(v, players, 5, seed=99)  # warm the variant's caches as a long run would
    counter = [0]

    def run(seconds: float) -> tuple[int, float]:
        actions, spent = 0, 0.0
        while spent < seconds:
            counter[0] += 1
            a, t = play_deals(v, players, 5, seed=counter[0])
            actions += a
            spent += t
        return actions, spent

    return run


def open_spiel_runner(cached: bool) -> Callable[[float], tuple[int, float]] | None:
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    root = game.new_initial_state()
    rng = random.Random(1)

    def run(seconds: float) -> tuple[int, float]:
        actions = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            state = root.clone() if cached else game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])  # uniform deck draws
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                    actions += 1
        return actions, time.perf_counter() - t0

    return run


def rlcard_runner() -> Callable[[float], tuple[int, float]] | None:
    try:
        import rlcard  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    env: Any = rlcard.make("gin-rummy", config={"seed": 1})
    rng = random.Random(1)

    def run(seconds: float) -> tuple[int, float]:
        actions = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[rng.randrange(len(legal))])
                actions += 1
        return actions, time.perf_counter() - t0

    return run


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    runners: dict[str, Callable[[float], tuple[int, float]]] = {f"tapete/{n}": tapete_runner(n) for n in VARIANTS}
    skipped = []
    for key, maker in (
        ("open_spiel/gin_rummy", lambda: open_spiel_runner(False)),
        ("open_spiel/gin_rummy_cached", lambda: open_spiel_runner(True)),
        ("rlcard/gin-rummy", rlcard_runner),
    ):
        r = maker()
        if r is None:
            skipped.append(key)
        else:
            runners[key] = r
    rates: dict[str, list[float]] = {k: [] for k in runners}
    for _ in range(args.runs):
        for key, run in runners.items():
            actions, spent = run(args.seconds)
            rates[key].append(actions / spent)
    med = {k: statistics.median(v) for k, v in rates.items()}
    ratios: dict[str, dict[str, float]] = {}
    for n in VARIANTS:
        mine = med[f"tapete/{n}"]
        ratios[n] = {"per_action_vs_fournier": round(mine / med["tapete/chinchon/fournier"], 3)}
        for peer in ("open_spiel/gin_rummy", "open_spiel/gin_rummy_cached", "rlcard/gin-rummy"):
            if peer in med:
                ratios[n][f"vs_{peer}"] = round(mine / med[peer], 3)
    json.dump(
        {
            "python": platform.python_version(),
            "seconds_per_turn": args.seconds,
            "runs": args.runs,
            "actions_per_second_median": {k: round(v) for k, v in med.items()},
            "actions_per_second_min_max": {k: [round(min(v)), round(max(v))] for k, v in rates.items()},
            "ratios": ratios,
            "skipped (not installed)": skipped,
        },
        sys.stdout,
        indent=2,
    )
    print()


if __name__ == "__main__":
    main()
