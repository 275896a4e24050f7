"""Gin Rummy random play: tapete against OpenSpiel and RLCard, side by side in one process.

    python bench/gin_race.py [--seconds S] [--runs R]

Needs the ``bench`` extra (``pip install -e '.[bench]'``: open-spiel, rlcard). Every
contender plays whole hands of two-player Gin Rummy with uniformly random moves
drawn from Python's ``random`` (the same cost for all), on one core, and the
contenders take turns within each run so that load on the machine hits them
alike. A *game* is one hand, dealt to its end (a knock, gin, or a void / wall
hand); *actions* are the players' moves (dealing is not counted: OpenSpiel's 21
chance moves per hand are applied but not counted).

* ``tapete``: ``gin/standard`` through the loop a match uses (legal_actions ->
  choose -> refusal -> apply), a fresh shuffled deal per hand.
* ``tapete-match``: ``Match.play`` of ``gin/single-hand`` with the random bot, the
  whole match machinery (scoring, events, views) per hand.
* ``openspiel``: ``pyspiel.load_game("gin_rummy")`` played from Python, a new
  initial state per hand and every chance outcome sampled in Python.
* ``openspiel-clone``: the same, each hand starting from ``clone()`` of one cached,
  already dealt state (no dealing cost at all; every hand has the same cards).
* ``rlcard-step``: RLCard's bare ``GinRummyGame``: ``init_game`` then ``judge.
  get_legal_actions()`` and ``step`` per move.
* ``rlcard-env``: ``rlcard.make("gin-rummy")`` with two ``RandomAgent`` and
  ``env.run`` (what RLCard's examples time), state encoding included.

The report is JSON: actions/s and games/s per contender, median, min and max over R runs.
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
from typing import Any

from tapete import Match, Random, load_variant
from tapete.core.ledger import Ledger
from tapete.play.deal import start_deal

Runner = Callable[[float, int], tuple[int, int, float]]  # (seconds, seed) -> (games, actions, elapsed)


def tapete_bare(seconds: float, seed: int) -> tuple[int, int, float]:
    variant = load_variant("gin/standard")
    game = variant.new_game()
    rng = random.Random(seed)
    legal_actions, refusal, apply = game.legal_actions, game.refusal, game.apply
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        ledger = Ledger(2)
        ledger.deal_number = 1
        state = start_deal(game, 2, games % 2, Random(seed, games), ledger)
        while not state.over:
            legal = legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            if refusal(state, action) is not None:
                raise RuntimeError("random play chose an illegal move")
            apply(state, action)
            actions += 1
        games += 1
    return games, actions, time.perf_counter() - start


def tapete_match(seconds: float, seed: int) -> tuple[int, int, float]:
    variant = load_variant("gin/single-hand")
    games = 0
    counted = [0]

    def emit(event: dict[str, Any]) -> None:
        if event["type"] == "action":
            counted[0] += 1
        elif event["type"] in ("score", "void"):
            nonlocal games
            games += 1

    start = time.perf_counter()
    n = 0
    while time.perf_counter() - start < seconds:
        Match(variant, 2, seed=str((seed, n)), bots=["random"]).play(
            emit
        )  # a word seed: str((s, n)) deals as (s, n) did
        n += 1
    return games, counted[0], time.perf_counter() - start


def openspiel(seconds: float, seed: int, cached: bool = False) -> tuple[int, int, float]:
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    dealt = None
    if cached:
        dealt = game.new_initial_state()
        while dealt.is_chance_node():
            outcomes = dealt.chance_outcomes()
            dealt.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = dealt.clone() if dealt is not None else game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
        games += 1
    return games, actions, time.perf_counter() - start


def openspiel_clone(seconds: float, seed: int) -> tuple[int, int, float]:
    return openspiel(seconds, seed, cached=True)


def rlcard_step(seconds: float, seed: int) -> tuple[int, int, float]:
    from rlcard.games.gin_rummy.game import GinRummyGame

    game = GinRummyGame()
    game.np_random.seed(seed)
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.init_game()
        while not game.is_over():
            legal = game.judge.get_legal_actions()
            game.step(legal[rng.randrange(len(legal))])
            actions += 1
        games += 1
    return games, actions, time.perf_counter() - start


def rlcard_env(seconds: float, seed: int) -> tuple[int, int, float]:
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("gin-rummy", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        trajectories, _ = env.run(is_training=False)
        actions += sum((len(t) - 1) // 2 for t in trajectories)
        games += 1
    return games, actions, time.perf_counter() - start


CONTENDERS: dict[str, Runner] = {
    "tapete": tapete_bare,
    "tapete-match": tapete_match,
    "openspiel": openspiel,
    "openspiel-clone": openspiel_clone,
    "rlcard-step": rlcard_step,
    "rlcard-env": rlcard_env,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="playing time per contender and run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=list(CONTENDERS), choices=list(CONTENDERS))
    args = parser.parse_args(argv)
    figures: dict[str, dict[str, list[float]]] = {
        n: {"actions/s": [], "games/s": [], "actions/game": []} for n in args.only
    }
    for run in range(args.runs):
        for name in args.only:
            games, actions, elapsed = CONTENDERS[name](args.seconds, run)
            figures[name]["actions/s"].append(actions / elapsed)
            figures[name]["games/s"].append(games / elapsed)
            figures[name]["actions/game"].append(actions / games)
    report: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seconds": args.seconds,
        "runs": args.runs,
        "contenders": {
            name: {
                key: {"median": round(statistics.median(v), 1), "min": round(min(v), 1), "max": round(max(v), 1)}
                for key, v in fig.items()
            }
            for name, fig in figures.items()
        },
    }
    base = report["contenders"].get("tapete")
    if base is not None:
        report["tapete_vs"] = {
            name: {key: round(base[key]["median"] / f[key]["median"], 2) for key in ("actions/s", "games/s")}
            for name, f in report["contenders"].items()
            if name != "tapete"
        }
    json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main()
