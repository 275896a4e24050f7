"""Hearts random play and determinised samples: tapete against OpenSpiel's ``hearts``, in one process.

    pip install -e '.[bench]'        # open-spiel
    python bench/hearts_race.py [--seconds S] [--runs R] [--positions P] [--samples N]

Every contender plays whole four-player deals of Hearts with uniformly random legal
moves drawn from Python's ``random`` (the same cost for all), on one core, and the
contenders take turns within each run, so load on the machine hits them alike. Time is
CPU time of this process (``time.process_time``). A *deal* is dealt, passed (three
cards each, to the left, as in a match's first deal, HE-2.3) and played to its last
trick; *player actions* are the moves the players make. tapete deals in one step and
OpenSpiel in 53 chance steps (the pass direction, then 52 cards), which are applied but
not counted; so the figures to compare are player actions/s and deals/s, not steps.

* ``tapete``: ``hearts/classic`` through the public API: ``variant.new_deal(4, seed)``
  (``record=False``: no seat's history is kept, as OpenSpiel keeps none), then
  ``deal.legal_actions()`` and ``deal.play(action)`` (which checks the move) to the end.
  Its player actions are what ``legal_actions`` offers, one a decision.
* ``tapete-game``: the loop a match runs, on the game object: ``start_deal``, then
  ``game.legal_actions(state)`` and ``game.apply(state, action)`` (a choice among the legal
  moves needs no second check), no `Deal` around it.
* ``openspiel``: ``pyspiel.load_game("hearts")`` from Python, a new initial state per
  deal, the pass direction forced to left, every card drawn from ``chance_outcomes()``.
* ``openspiel-shuffled``: the same, but the 52 cards are one Python shuffle applied
  card by card, without asking for the chance outcomes (OpenSpiel's fastest deal from
  Python). OpenSpiel passes one card per action: 12 pass actions and 52 plays a deal.

Then the cost of one determinised sample, on the same positions for both, after 3, 6
and 9 tricks of random deals (``--positions`` deals each), for the player to move:

* ``tapete``: ``Determiniser(game, view)`` built once per position (what ``ismcts``
  does once per decision) and ``sample(rng)`` drawn ``--samples`` times; ``us/sample``
  counts both (the build shared over the samples), ``us/draw`` and ``us/build`` each alone;
  every sample is replayed with ``tapete.search.worlds.impossibility`` (not timed) and
  the impossible ones counted.
* ``openspiel``: ``state.resample_from_infostate(player, sampler)``; every sample's
  history is replayed from the start with ``legal_actions()`` at each player node (not
  timed) and the impossible ones counted (its resampler ignores voids).

The report is JSON: medians, min and max over R runs, the ratios tapete / OpenSpiel,
and the sample figures per number of tricks.
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

from tapete import Random, load_variant
from tapete.core.ledger import Ledger
from tapete.play.deal import start_deal
from tapete.search.determinise import Determiniser
from tapete.search.worlds import impossibility

VARIANT = "hearts/classic"
LEFT = 1  # OpenSpiel's pass directions: 0 no pass, 1 left, 2 across, 3 right
Runner = Callable[[float, int], tuple[int, int, float]]  # (seconds, seed) -> (deals, actions, cpu seconds)


def tapete_deals(seconds: float, seed: int) -> tuple[int, int, float]:
    variant = load_variant(VARIANT)
    rng = random.Random(seed)
    deals = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        deal = variant.new_deal(4, seed=f"{seed}-{deals}", record=False)
        legal_actions, play = deal.legal_actions, deal.play
        while not deal.over:
            legal = legal_actions()
            play(legal[rng.randrange(len(legal))])
            actions += 1
        deals += 1
    return deals, actions, time.process_time() - start


def tapete_game(seconds: float, seed: int) -> tuple[int, int, float]:
    variant = load_variant(VARIANT)
    game = variant.new_game()
    rng = random.Random(seed)
    legal_actions, apply = game.legal_actions, game.apply
    deals = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        ledger = Ledger(4)
        ledger.deal_number = 1
        state = start_deal(game, 4, deals % 4, Random(seed, deals), ledger)
        while not state.over:
            legal = legal_actions(state)
            apply(state, legal[rng.randrange(len(legal))])
            actions += 1
        deals += 1
    return deals, actions, time.process_time() - start


def openspiel_deals(seconds: float, seed: int, shuffled: bool = False) -> tuple[int, int, float]:
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    cards = list(range(52))
    deals = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        state.apply_action(LEFT)
        if shuffled:
            rng.shuffle(cards)
            for card in cards:
                state.apply_action(card)
        else:
            while state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
        deals += 1
    return deals, actions, time.process_time() - start


def openspiel_shuffled(seconds: float, seed: int) -> tuple[int, int, float]:
    return openspiel_deals(seconds, seed, shuffled=True)


CONTENDERS: dict[str, Runner] = {
    "tapete": tapete_deals,
    "tapete-game": tapete_game,
    "openspiel": openspiel_deals,
    "openspiel-shuffled": openspiel_shuffled,
}


def tapete_samples(tricks: int, positions: int, samples: int) -> dict[str, Any]:
    """µs per determinised sample (the build shared), per draw alone and per build; impossible samples."""
    variant = load_variant(VARIANT)
    rng = random.Random(tricks)
    draw = Random(tricks, "samples")
    per_sample, per_build, per_draw = [], [], []
    impossible = total = 0
    for p in range(positions):
        deal = variant.new_deal(4, seed=f"positions-{tricks}-{p}")
        begin = deal.state.clone()
        moves = []
        while _tricks_done(deal) < tricks:
            legal = deal.legal_actions()
            action = legal[rng.randrange(len(legal))]
            deal.play(action)
            moves.append(action)
        view = deal.view(deal.to_move)
        t0 = time.process_time()
        sampler = Determiniser(deal.game, view)
        t1 = time.process_time()
        worlds = [sampler.sample(draw) for _ in range(samples)]
        t2 = time.process_time()
        per_build.append((t1 - t0) * 1e6)
        per_draw.append((t2 - t1) * 1e6 / samples)
        per_sample.append((t2 - t0) * 1e6 / samples)
        for world in worlds:
            total += 1
            impossible += impossibility(deal.game, begin, moves, view, world) is not None
    return {
        "us/sample": round(statistics.median(per_sample), 1),
        "us/draw": round(statistics.median(per_draw), 1),
        "us/build": round(statistics.median(per_build), 1),
        "impossible": impossible,
        "samples": total,
    }


def _tricks_done(deal: Any) -> int:
    """Tricks finished so far (the family's public counter ``played``)."""
    return int(deal.state.counters.get("played", 0))


def openspiel_samples(tricks: int, positions: int, samples: int) -> dict[str, Any]:
    """OpenSpiel's ``resample_from_infostate``: µs per sample and how many samples cannot have happened."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(tricks)
    sampler = pyspiel.UniformProbabilitySampler(tricks, 0.0, 1.0)
    per_sample = []
    impossible = total = 0
    for _ in range(positions):
        state = game.new_initial_state()
        state.apply_action(LEFT)
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        for _ in range(12 + 4 * tricks):
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        player = state.current_player()
        t0 = time.process_time()
        worlds = [state.resample_from_infostate(player, sampler) for _ in range(samples)]
        per_sample.append((time.process_time() - t0) * 1e6 / samples)
        for world in worlds:
            total += 1
            impossible += not _openspiel_replays(game, world.history())
    return {
        "us/sample": round(statistics.median(per_sample), 1),
        "impossible": impossible,
        "samples": total,
    }


def _openspiel_replays(game: Any, history: list[int]) -> bool:
    """Whether every player action of ``history`` is legal when replayed from the start."""
    state = game.new_initial_state()
    for action in history:
        if not state.is_chance_node() and action not in state.legal_actions():
            return False
        state.apply_action(action)
    return True


def spread(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values), 1), "min": round(min(values), 1), "max": round(max(values), 1)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per contender and run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=list(CONTENDERS), choices=list(CONTENDERS))
    parser.add_argument("--positions", type=int, default=100, help="deals per number of tricks for the samples")
    parser.add_argument("--samples", type=int, default=20, help="samples per position")
    args = parser.parse_args(argv)
    for name in args.only:  # warm the caches (rule programs, the pyspiel module) before measuring
        CONTENDERS[name](0.2, 99)
    figures: dict[str, dict[str, list[float]]] = {
        n: {"actions/s": [], "deals/s": [], "actions/deal": []} for n in args.only
    }
    for run in range(args.runs):
        for name in args.only:
            deals, actions, spent = CONTENDERS[name](args.seconds, run)
            figures[name]["actions/s"].append(actions / spent)
            figures[name]["deals/s"].append(deals / spent)
            figures[name]["actions/deal"].append(actions / deals)
    report: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seconds": args.seconds,
        "runs": args.runs,
        "contenders": {name: {key: spread(v) for key, v in fig.items()} for name, fig in figures.items()},
    }
    base = report["contenders"].get("tapete")
    if base is not None:
        report["tapete_vs"] = {
            name: {key: round(base[key]["median"] / f[key]["median"], 2) for key in ("actions/s", "deals/s")}
            for name, f in report["contenders"].items()
            if name != "tapete"
        }
    if args.positions > 0:
        report["samples"] = {
            f"after {k} tricks": {
                "tapete": tapete_samples(k, args.positions, args.samples),
                "openspiel": openspiel_samples(k, args.positions, args.samples),
            }
            for k in (3, 6, 9)
        }
    json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main()
