"""The web table's seat states without the server: CPU per state, and a digest of every message.

    python bench/seat_states.py [--tables N] [--steps S] [--runs R] [--variant NAME ...]

What `bench/web_load.py --breakdown` reports as ``state`` (a seat's whole table from its
view, `tapete.web.messages.state_message`), measured apart from the server, its sockets and
the machine's other load: N seeded tables of each variant, a person at seat 0 and random
bots at the others, played S steps; after every step the person's state and the spectators'
are made, as the server makes them after every move. Time is CPU time of this process
around the two states only (the moves themselves are not counted), the median of R runs.

The digest hashes the JSON text of every state made in the first run: the same digest before
and after a change says every page was sent the same text. Run it on the code before a
change by putting a copy of that code first on ``PYTHONPATH`` (the packages ``tapete``,
``tapete_plugins`` and ``tapete_variants`` pointing at its ``framework``, ``plugins`` and
``variants``), and compare medians taken alternately.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import time
from typing import Any

from tapete.core.rng import Random
from tapete.layout import Layout
from tapete.play.loading import load_variant
from tapete.plugins.loader import registry
from tapete.web import messages
from tapete.web.tables import DEAL_OVER, PLAY, SPECTATOR, LiveTable, SeatPlan, TableConfig

VARIANTS = {
    "fantan/pagat": 4,
    "hearts/classic": 4,
    "briscola/classic": 2,
    "chinchon/fournier": 2,
    "scopa/classic": 2,
    "chinese-ten/two-player": 2,
}


def one_run(name: str, players: int, tables: int, steps: int, digest: Any = None) -> tuple[float, int]:
    """(CPU seconds in the states, states made) over ``tables`` tables of ``steps`` steps."""
    variant = load_variant(name, registry(), options={})
    layout = variant.record.layout or Layout()
    spent, made = 0.0, 0
    for k in range(tables):
        seats = [SeatPlan()] + [SeatPlan("random")] * (players - 1)
        config = TableConfig(variant=name, options={}, players=players, seed=f"states-{k}", seats=seats, salt="s")
        table, rng = LiveTable("t", config, variant), Random(k, "seat-states")
        for _ in range(steps):
            start = time.process_time()
            person = messages.state_message(table, layout, 0)
            public = messages.state_message(table, layout, SPECTATOR)
            spent += time.process_time() - start
            made += 2
            if digest is not None:
                digest.update(messages.encode(person).encode())
                digest.update(messages.encode(public).encode())
            if table.phase == PLAY:
                table.apply(table.person_step(table.to_move, rng.choice(table.legal())))
            elif table.phase == DEAL_OVER:
                table.apply(table.next_step())
            else:
                break
    return spent, made


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--steps", type=int, default=150)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--variant", action="append", choices=list(VARIANTS))
    args = parser.parse_args(argv)
    out: dict[str, Any] = {}
    for name in args.variant or list(VARIANTS):
        digest = hashlib.sha256()
        per_state = []
        for r in range(args.runs):
            spent, made = one_run(name, VARIANTS[name], args.tables, args.steps, digest if r == 0 else None)
            per_state.append(spent / max(made, 1) * 1e6)
        out[name] = {
            "us_per_state": round(statistics.median(per_state), 1),
            "min": round(min(per_state), 1),
            "max": round(max(per_state), 1),
            "states_per_run": made,
            "digest": digest.hexdigest()[:16],
        }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
