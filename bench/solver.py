"""Benchmark of the Chinchón meld solver (tapete_plugins.chinchon.melds).

    python bench/solver.py [--hands N] [--runs R] [--seed S]

For each scenario: N distinct random hands drawn with ``random.Random(seed)``;
each run builds a fresh ``MeldSolver`` (empty caches) and times ``penalty()``
over all hands twice with ``time.perf_counter``: ``cold`` is the first pass
(every cache miss paid), ``warm`` the second.  ``best()`` is timed on the first
``N // 20`` hands.  Where fewer than N distinct hands exist (ranks A-5:
C(20, 8) = 125,970) every hand is used once.  Prints JSON: hands/second as median, min and max over the R
runs.  Needs the package installed (``pip install -e .`` in the checkout).
"""

from __future__ import annotations

import argparse
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


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=150_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=12345)
    args = ap.parse_args(argv)
    n, runs, seed = args.hands, args.runs, args.seed
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
