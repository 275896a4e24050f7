"""The cost of sealed facts: bots reading read-only facts against the game's own, side by side.

    python bench/facts.py [--matches N] [--runs R] [VARIANT ...]

`tapete.view.Facts` seals what a game's ``facts()`` returns (lists as tuples, a solver
as the facts' own copy, with caches of its own) once per game and seat. Each run plays the same seeded matches of the
game's default bots twice in one process, alternating: with the game's facts handed
out as they are (the old way) and sealed. CPU seconds per run (``time.process_time``),
medians, and the ratio sealed / old (1.0: no cost).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from types import MappingProxyType
from typing import Any

from tapete import Match, load_variant
from tapete.view import Facts


class _OwnFacts(Facts):
    """The facts as they were: the game's own objects behind a read-only attribute."""

    __slots__ = ()

    def __init__(self, values: Any) -> None:
        object.__setattr__(self, "_values", MappingProxyType(dict(values)))


def _run(name: str, sealed: bool, matches: int) -> float:
    variant = load_variant(name)
    game = variant.new_game()
    make = Facts if sealed else _OwnFacts
    seats = [None, *range(variant.player_range()[1])]  # the facts of each seat, and the search's
    game._public_facts = {s: make(game.facts()) for s in seats}  # type: ignore[attr-defined]
    bots = [variant.game_class.default_bot]
    start = time.process_time()
    for seed in range(matches):
        Match(variant, variant.default_players(), seed, bots=bots).play()
    return time.process_time() - start


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("variants", nargs="*", default=["chinchon/fournier", "gin/standard", "chinese-ten/two-player"])
    p.add_argument("--matches", type=int, default=12)
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args(argv)
    out = {}
    for name in args.variants:
        own, sealed = [], []
        for _ in range(args.runs):
            own.append(_run(name, False, args.matches))
            sealed.append(_run(name, True, args.matches))
        a, b = statistics.median(own), statistics.median(sealed)
        out[name] = {"own_s": round(a, 3), "sealed_s": round(b, 3), "ratio": round(b / a, 3)}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
