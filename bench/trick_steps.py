"""The trick family's steps in C against its Python, alternating in one process.

    python bench/trick_steps.py [--deals D] [--rounds R] [--variant NAME ...]

Random deals through the public API (``variant.new_deal(players, seed, record=False)``, then
``legal_actions()`` and ``play(action)`` to the end), the same seeds and the same random moves
both ways: once with the C steps (the game's, `tapete_plugins.tricks._fast`, and `Deal`'s own,
`tapete.core._speedups.DealSteps`), once with both turned off (``game._fast = None``:
`Tricks.legal_actions` and `Tricks.apply` in Python; `Deal` on its Python twin's steps), as
without a compiler. The two alternate R rounds, so the machine's changes of speed hit both alike;
reported: the medians of the rounds' CPU time per player action (the deal itself included)
and the ratio Python / C.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from tapete import load_variant
from tapete.play.deal import Deal, DealSteps

VARIANTS = ("hearts/classic", "briscola/classic", "oh-hell/classic", "spades/classic")
DEAL_STEPS = ("legal_actions", "play", "over", "to_move")


def deal_in_python(on: bool) -> None:
    """`Deal` on its Python twin's steps (``on``), or back on its base's (the C ones where built)."""
    for name in DEAL_STEPS:
        if on:
            setattr(Deal, name, DealSteps.__dict__[name])
        elif name in Deal.__dict__:
            delattr(Deal, name)


def one_round(name: str, c_steps: bool, deals: int) -> float:
    """CPU microseconds per player action over ``deals`` seeded deals."""
    variant = load_variant(name)
    game = variant._game
    deal_in_python(not c_steps)
    if not c_steps:
        game._fast = None
    players = variant.player_range()[0]
    rng = random.Random(1)
    actions = 0
    start = time.process_time()
    for i in range(deals):
        deal = variant.new_deal(players, seed=i, record=False)
        while not deal.over:
            legal = deal.legal_actions()
            deal.play(legal[rng.randrange(len(legal))])
            actions += 1
    spent = time.process_time() - start
    deal_in_python(False)
    return spent / actions * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--variant", nargs="*", default=list(VARIANTS))
    args = parser.parse_args()
    out: dict[str, object] = {}
    for name in args.variant:
        if load_variant(name)._game._fast is None:
            out[name] = "no C steps for this variant (or the module was not built)"
            continue
        rounds: dict[bool, list[float]] = {True: [], False: []}
        for _ in range(args.rounds):
            for c_steps in (False, True):
                rounds[c_steps].append(one_round(name, c_steps, args.deals))
        python, c = statistics.median(rounds[False]), statistics.median(rounds[True])
        out[name] = {
            "us/action python": round(python, 2),
            "us/action C": round(c, 2),
            "python / C": round(python / c, 2),
        }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
