"""The golden set: what every built-in variant plays, byte for byte, kept through refactors.

A refactor of the engine must not change a single game. This records, for every built-in
variant at its smallest and largest player count, seeds 1-5, with the game's default bot and
with ``random`` in every seat, the SHA-256 of the match's whole JSON-lines log; and for seed 1
at the smallest count, the SHA-256 of every view a bot is handed (its zones, counts, counters,
data, ledger, history and memory). ``golden.json`` beside this file holds the digests.

    python tests/golden/record.py            # compare with golden.json; exit 1 on any difference
    python tests/golden/record.py --write    # record golden.json anew (only for an intended change)
    python tests/golden/record.py --only chinchon/fournier

``tests/test_golden.py`` runs the comparison over a bounded part of the set in the suite.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden.json"
SEEDS = range(1, 6)


def builtin_variants() -> list[str]:
    """The variants the project ships (a plugin installed beside it is not part of the set)."""
    from tapete.testing import variant, variant_names

    return [n for n in variant_names() if variant(n).spec.path.resolve().is_relative_to(_variants_root())]


def _variants_root() -> Path:
    import tapete_variants

    return Path(tapete_variants.__file__).resolve().parent


def view_record(view: Any, legal: list[Any]) -> dict[str, Any]:
    """A view as plain JSON: everything a bot can read from it except the game's constant facts."""
    return {
        "seat": view.seat,
        "players": view.players,
        "dealer": view.dealer,
        "to_move": view.to_move,
        "over": view.over,
        "zones": {z: list(cs) for z, cs in view.zones.items()},
        "counts": dict(view.counts),
        "counters": dict(view.counters),
        "data": dict(view.data),
        "totals": list(view.totals),
        "deals_won": list(view.deals_won),
        "out": list(view.out),
        "deal_number": view.deal_number,
        "history": [repr(e) for e in view.history],
        "seen": sorted(view.seen),
        "known": sorted([c, z] for c, z in view.known.items()),
        "facts": sorted(dir(view.facts)),
        "legal": [repr(a) for a in legal],
    }


def play_digest(name: str, players: int, seed: int, bots: list[str], views: bool = False) -> tuple[str, str | None]:
    """The digest of the match's log, and of the views its bots were handed (when asked)."""
    from tapete.play.match import Match
    from tapete.testing import variant

    v = variant(name)
    match = Match(v, players, seed, bots=bots)
    log = hashlib.sha256()
    seen = hashlib.sha256() if views else None
    if seen is not None:
        for agent in match.agents:
            original = agent.choose

            def choose(view: Any, legal: list[Any], _original: Any = original) -> Any:
                if view is not None:
                    seen.update(json.dumps(view_record(view, legal), sort_keys=True, default=repr).encode())
                return _original(view, legal)

            agent.choose = choose
    match.play(lambda event: log.update((json.dumps(event, sort_keys=True) + "\n").encode()))
    return log.hexdigest(), None if seen is None else seen.hexdigest()


def cases(names: Iterable[str]) -> Iterable[tuple[str, int, int, str]]:
    from tapete.testing import variant

    for name in names:
        v = variant(name)
        lo, hi = v.player_range()
        for players in sorted({lo, hi}):
            for seed in SEEDS:
                for who in ("default", "random"):
                    yield name, players, seed, who


def bots_for(name: str, who: str) -> list[str]:
    """The bots of a case: the family class's ``default_bot`` names the game's default bot in every
    variant (Scopa's ``greedy`` is an alias of its record's ``counting``), as the set was recorded."""
    from tapete.testing import variant

    return [variant(name).new_game().default_bot if who == "default" else "random"]


def key(name: str, players: int, seed: int, who: str) -> str:
    return f"{name} players={players} seed={seed} bots={who}"


def record(names: Iterable[str]) -> dict[str, dict[str, str]]:
    from tapete.testing import variant

    logs: dict[str, str] = {}
    views: dict[str, str] = {}
    for name, players, seed, who in cases(names):
        lo = variant(name).player_range()[0]
        want_views = seed == 1 and players == lo
        digest, vd = play_digest(name, players, seed, bots_for(name, who), views=want_views)
        logs[key(name, players, seed, who)] = digest
        if vd is not None:
            views[key(name, players, seed, who)] = vd
    return {"logs": logs, "views": views}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="record golden.json anew")
    parser.add_argument("--only", action="append", help="a variant to compare (repeatable)")
    args = parser.parse_args(argv)
    names = args.only or builtin_variants()
    got = record(names)
    if args.write:
        GOLDEN.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        print(f"recorded {len(got['logs'])} logs and {len(got['views'])} view sets")
        return 0
    want = json.loads(GOLDEN.read_text())
    bad = [f"{part}: {k}" for part in ("logs", "views") for k, d in got[part].items() if want[part].get(k) != d]
    for line in bad:
        print("differs:", line)
    print(f"compared {len(got['logs'])} logs and {len(got['views'])} view sets: {len(bad)} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
