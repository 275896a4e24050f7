"""The golden set: what every built-in variant plays, byte for byte, kept through refactors.

A refactor of the engine must not change a single game. This records, for every built-in
variant at its smallest and largest player count, seeds 1-5, with the game's default bot and
with ``random`` in every seat, the SHA-256 of the match's whole JSON-lines log; and for seed 1
at the smallest count, the SHA-256 of every view a bot is handed (its zones, counts, counters,
data, ledger, history and memory). Through the step-by-step API (`Deal`), for one random deal
per variant: every seat's view after every move (``deal_views``), the same deal's views asked
only now and then, with a view kept from early on read again at the end (``sparse_views``: a
history built late must read as one built move by move), and every seat's ``Deal.observe``
after every move without its private ``_`` keys (``observe``: the observation's public part).
``golden.json`` beside this file holds the digests.

    python tests/golden/record.py            # compare with golden.json; exit 1 on any difference
    python tests/golden/record.py --write    # record golden.json anew (only for an intended change)
    python tests/golden/record.py --only chinchon/fournier
    python tests/golden/record.py --add hearts/classic   # record a new variant, keeping the rest

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
    from tapete.plugins.loader import registry
    from tapete.testing import variant_names

    files = registry().variants()  # each variant's file, without loading it
    return [n for n in variant_names() if Path(files[n]).resolve().is_relative_to(_variants_root())]


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


DEAL_SEED = 1
DEAL_MOVES = 400  # a random rummy deal can last thousands of moves; the opening is where views change most
SPARSE_EVERY = 23  # moves between two looks in ``sparse_views``


def _dump(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, default=repr, ensure_ascii=False).encode()


def _public(observed: dict[str, Any]) -> dict[str, Any]:
    """An observation without its private (``_``) counters and data."""
    out = dict(observed)
    for part in ("counters", "data"):
        out[part] = {k: v for k, v in observed[part].items() if not k.startswith("_")}
    return out


def deal_digests(name: str) -> dict[str, str]:
    """Digests of one random deal's views and observations through the `Deal` API (see the module docstring)."""
    from tapete.core.rng import Random
    from tapete.testing import variant

    v = variant(name)
    players = v.player_range()[0]
    every, sparse, observed = hashlib.sha256(), hashlib.sha256(), hashlib.sha256()

    def walk(look: Any) -> Any:
        deal = v.new_deal(players, seed=DEAL_SEED)
        rng = Random(DEAL_SEED, "golden deal")
        look(deal, 0)
        moves = 0
        while not deal.over and moves < DEAL_MOVES:
            legal = deal.legal_actions()
            deal.play(legal[rng.below(len(legal))])
            moves += 1
            look(deal, moves)
        return deal

    def every_move(deal: Any, moves: int) -> None:
        legal = deal.legal_actions()
        for seat in range(players):
            every.update(_dump(view_record(deal.view(seat), legal)))
            observed.update(_dump(_public(deal.observe(seat))))

    kept: list[Any] = []

    def now_and_then(deal: Any, moves: int) -> None:
        if moves % SPARSE_EVERY == SPARSE_EVERY - 1 or deal.over or moves == DEAL_MOVES:
            legal = deal.legal_actions()
            views = [deal.view(seat) for seat in range(players)]
            if not kept:
                kept.extend(views)
            for view in views:
                sparse.update(_dump(view_record(view, legal)))

    walk(every_move)
    walk(now_and_then)
    for view in kept:  # a view is fixed at the moment it was made
        sparse.update(_dump(view_record(view, [])))
    return {"deal_views": every.hexdigest(), "sparse_views": sparse.hexdigest(), "observe": observed.hexdigest()}


DEAL_PARTS = ("deal_views", "sparse_views", "observe")


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

    names = list(names)
    logs: dict[str, str] = {}
    views: dict[str, str] = {}
    deals: dict[str, dict[str, str]] = {part: {} for part in DEAL_PARTS}
    for name in names:
        for part, digest in deal_digests(name).items():
            deals[part][name] = digest
    for name, players, seed, who in cases(names):
        lo = variant(name).player_range()[0]
        want_views = seed == 1 and players == lo
        digest, vd = play_digest(name, players, seed, bots_for(name, who), views=want_views)
        logs[key(name, players, seed, who)] = digest
        if vd is not None:
            views[key(name, players, seed, who)] = vd
    return {"logs": logs, "views": views, **deals}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="record golden.json anew")
    parser.add_argument("--only", action="append", help="a variant to compare (repeatable)")
    parser.add_argument("--add", action="append", help="a new variant to record into golden.json (repeatable)")
    args = parser.parse_args(argv)
    if args.add:  # a variant new to the set: its digests join the others, which stay as they are
        kept = json.loads(GOLDEN.read_text())
        new = record(args.add)
        for part, digests in new.items():
            kept.setdefault(part, {}).update(digests)
        GOLDEN.write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n")
        print(f"added {len(new['logs'])} logs, {len(new['views'])} view sets and {len(new['deal_views'])} deals")
        return 0
    names = args.only or builtin_variants()
    got = record(names)
    if args.write:
        GOLDEN.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        print(f"recorded {len(got['logs'])} logs, {len(got['views'])} view sets and {len(got['deal_views'])} deals")
        return 0
    want = json.loads(GOLDEN.read_text())
    bad = [
        f"{part}: {k}" for part, digests in got.items() for k, d in digests.items() if want.get(part, {}).get(k) != d
    ]
    for line in bad:
        print("differs:", line)
    print(
        f"compared {len(got['logs'])} logs, {len(got['views'])} view sets and {len(got['deal_views'])} deals: "
        f"{len(bad)} differ"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
