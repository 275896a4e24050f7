"""Benchmark of the Chinchón meld solver (tapete_plugins.chinchon.melds).

    python bench/solver.py [--hands N] [--runs R] [--seed S]
    python bench/solver.py --openspiel [--hands N] [--runs R] [--block B] [--also FILE ...]

For each scenario: N distinct random hands drawn with ``random.Random(seed)``;
each run builds a fresh ``MeldSolver`` (empty caches) and times ``penalty()``
over all hands twice with ``time.perf_counter``: ``cold`` is the first pass
(every cache miss paid), ``warm`` the second.  ``best()`` is timed on the first
``N // 20`` hands.  Where fewer than N distinct hands exist (ranks A-5:
C(20, 8) = 125,970) every hand is used once.  Prints JSON: hands/second as median, min and max over the R
runs.  Needs the package installed (``pip install -e .`` in the checkout).

``--openspiel`` (needs the ``bench`` extra) races ``penalty()`` against OpenSpiel's C++
``GinRummyUtils.min_deadwood`` on the same N distinct random 8-card hands, cold, side by
side in one process: the 52 cards of ``gin/standard``, and the 40 of ``chinchon/fournier``
(OpenSpiel with 10 ranks: the same values 1-10 and the same melds, sets of 3-4 and runs of
3 or more). Each run builds a fresh solver; the hands go in blocks of B, each block solved
by every contender in turn (the order rotating block by block), so that other load on the
machine falls on all alike; each contender's CPU time (``time.process_time``) and wall
time are summed over the blocks. The ratio of a run is tapete's hands/s over OpenSpiel's
(by CPU time, and by wall time, where waiting for a core counts too); the report gives
every run's ratio and their median. Every answer is checked against OpenSpiel's.
``--also FILE`` adds a contender: the ``MeldSolver`` of another copy of ``melds.py`` (for
example ``git show REV:plugins/chinchon/melds.py > old.py``), the before and after of a
change side by side.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import itertools
import json
import math
import platform
import random
import statistics
import sys
import time

from tapete_plugins.chinchon.melds import TWO_DECK_RULES, MeldRules, MeldSolver, spanish_deck


def distinct_hands(pool: list[int], size: int, n: int, seed: int) -> list[tuple[int, ...]]:
    """``n`` distinct hands (all of them, shuffled, when fewer than ``n`` exist)."""
    rng = random.Random(seed)
    total = math.comb(len(pool), size)
    if n >= total // 4:  # small space: draw from the list of every hand
        every = list(itertools.combinations(pool, size))
        return rng.sample(every, min(n, total))
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[int, ...]] = []
    while len(out) < n:
        hand = tuple(rng.sample(pool, size))
        key = tuple(sorted(hand))
        if key not in seen:
            seen.add(key)
            out.append(hand)
    return out


def rate(fn, hands) -> float:
    t0 = time.perf_counter()
    for h in hands:
        fn(h)
    return len(hands) / (time.perf_counter() - t0)


def summary(values: list[float]) -> dict:
    return {
        "median": round(statistics.median(values)),
        "min": round(min(values)),
        "max": round(max(values)),
    }


def scenario(name, deck, rules, pool, size, n, runs, seed, best_hands):
    hands = distinct_hands(pool, size, n, seed)
    cold, warm, best, build = [], [], [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        solver = MeldSolver(deck, rules)
        build.append(time.perf_counter() - t0)
        cold.append(rate(solver.penalty, hands))
        warm.append(rate(solver.penalty, hands))
        best.append(rate(solver.best, hands[:best_hands]))
    values = [c.value for c in deck]
    with_meld = sum(solver.penalty(h) < sum(values[c] for c in h) for h in hands)
    return name, {
        "hands": len(hands),
        "hand_size": size,
        "fast_path": solver.fast_path,
        "hands_with_a_meld": round(with_meld / n, 3),
        "penalty_cold_hands_per_s": summary(cold),
        "penalty_warm_hands_per_s": summary(warm),
        "best_hands": best_hands,
        "best_hands_per_s": summary(best),
        "solver_build_ms_median": round(statistics.median(build) * 1000, 2),
    }


def load_melds(path: str, name: str):
    """Another copy of melds.py as a module of its own (it imports nothing of the package at run time)."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def openspiel_race(variant_name: str, ranks: int, n: int, runs: int, seed: int, block: int, also: list[str]) -> dict:
    """``penalty()`` of tapete's solver(s) against OpenSpiel's ``min_deadwood``, cold, in blocks, alternating."""
    import pyspiel  # the bench extra

    from tapete import load_variant

    tables = load_variant(variant_name).new_game().tables
    infos, rules = tables.infos, tables.meld_rules
    # OpenSpiel's card: suit * ranks + rank, rank 0 the lowest (ace); tapete's: run_pos and suit.
    to_openspiel = [c.suit * ranks + c.run_pos for c in infos]
    hands = distinct_hands(list(range(len(infos))), 8, n, seed)
    theirs = [[to_openspiel[c] for c in h] for h in hands]
    utils = pyspiel.gin_rummy.GinRummyUtils(ranks, 4, 8)  # 8 cards: no discard, plain deadwood
    expected = [utils.min_deadwood(h) for h in theirs]
    builders = {"tapete": lambda: MeldSolver(infos, rules)}
    for k, path in enumerate(also):
        module = load_melds(path, f"_bench_melds_{k}")
        cards = [module.CardInfo(c.run_pos, c.suit, c.value, c.wild, c.identity) for c in infos]
        mrules = module.MeldRules(**{f: getattr(rules, f) for f in rules.__dataclass_fields__})
        builders[path] = lambda module=module, cards=cards, mrules=mrules: module.MeldSolver(cards, mrules)
    names = ["openspiel", *builders]
    seconds: dict[str, list[float]] = {k: [] for k in names}  # CPU time
    walls: dict[str, list[float]] = {k: [] for k in names}  # wall time, waits for a core included
    for _ in range(runs):
        solve = {"openspiel": (utils.min_deadwood, theirs)}
        for k, build in builders.items():
            solver = build()  # cold: empty caches, every hand new to it
            solve[k] = (solver.penalty, hands)
        spent = dict.fromkeys(names, 0.0)
        wall = dict.fromkeys(names, 0.0)
        gc.collect()
        for b, lo in enumerate(range(0, n, block)):
            turn = names[b % len(names) :] + names[: b % len(names)]
            for k in turn:
                fn, items = solve[k]
                part = items[lo : lo + block]
                w0, t0 = time.perf_counter(), time.process_time()
                for h in part:
                    fn(h)
                spent[k] += time.process_time() - t0
                wall[k] += time.perf_counter() - w0
        for k in names:
            seconds[k].append(spent[k])
            walls[k].append(wall[k])
        for k in builders:
            answers = [solve[k][0](h) for h in hands]  # warm now; checked outside the timing
            wrong = sum(a != e for a, e in zip(answers, expected, strict=True))
            if wrong:
                raise SystemExit(f"{k}: {wrong} of {n} hands differ from OpenSpiel's min_deadwood")
    out = {"hands": n, "cards": len(infos), "openspiel_ranks": ranks, "block": block}
    for k in names:
        out[f"{k}_hands_per_s"] = summary([n / t for t in seconds[k]])
    for k in builders:
        for clock, times in (("cpu", seconds), ("wall", walls)):
            ratios = [o / t for o, t in zip(times["openspiel"], times[k], strict=True)]
            out[f"{k}_vs_openspiel_{clock}"] = {
                "runs": [round(r, 3) for r in ratios],
                "median": round(statistics.median(ratios), 3),
            }
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=150_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--openspiel", action="store_true", help="race penalty() against OpenSpiel's min_deadwood")
    ap.add_argument("--block", type=int, default=1000, help="hands per turn of the --openspiel race")
    ap.add_argument("--also", action="append", default=[], metavar="FILE", help="another melds.py to race too")
    args = ap.parse_args(argv)
    n, runs, seed = args.hands, args.runs, args.seed
    if args.openspiel:
        out = {
            "python": platform.python_version(),
            "seed": seed,
            "runs": runs,
            "clock": "hands/s by CPU time (process_time); ratios by CPU time and by wall time",
            "scenarios": {
                "gin52_8cards": openspiel_race("gin/standard", 13, n, runs, seed, args.block, args.also),
                "spanish40_8cards": openspiel_race("chinchon/fournier", 10, n, runs, seed, args.block, args.also),
            },
        }
        json.dump(out, sys.stdout, indent=2)
        print()
        return
    nb = max(1, n // 20)
    d40, d48, d80 = spanish_deck(40), spanish_deck(48), spanish_deck(40, decks=2)
    dwild = spanish_deck(40, jokers=2)
    rich40 = [i for i, c in enumerate(d40) if c.run_pos <= 4]  # ranks A-5
    small = max(1, n // 20)
    cases = [
        ("random40_8cards", d40, MeldRules(), list(range(40)), 8, n, nb),
        ("rich40_A-5_8cards", d40, MeldRules(), rich40, 8, n, nb),
        ("random48_8cards", d48, MeldRules(), list(range(48)), 8, n, nb),
        ("random40_7cards", d40, MeldRules(), list(range(40)), 7, n, nb),
        ("random48_7cards", d48, MeldRules(), list(range(48)), 7, n, nb),
        # General path (not a speed target): two decks, and a deck with 2 jokers.
        ("two_decks80_8cards_general", d80, TWO_DECK_RULES, list(range(80)), 8, small, max(1, small // 4)),
        ("jokers42_8cards_mixed", dwild, MeldRules(), list(range(42)), 8, small, max(1, small // 4)),
    ]
    out = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "seed": seed,
        "runs": runs,
        "scenarios": dict(scenario(*c[:5], c[5], runs, seed, c[6]) for c in cases),
    }
    json.dump(out, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
