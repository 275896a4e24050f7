"""The server's work for each stored move, in one process and without sockets.

    python bench/move_path.py [--tables N] [--moves M] [--variant NAME] [--profile]

What `tapete serve` does with a move (issue 30, item 1), minus uvicorn and the WebSocket
library: N tables of ``VARIANT`` on a `Hub` over a fresh SQLite file, each with a person at
seat 0 (one page), random bots at the others and a spectator's page. Each step is either
the person's move, sent as the page's JSON text through `Hub.handle` (parsed, checked,
stored, applied, acknowledged), or a bot's through `Hub._bot_move`; both commit to the file
and then build, change and encode each page's message (`Hub.broadcast`). The pages' queues
are emptied, not sent. The tables' drivers are stopped, so the steps come from here, one
table after another, each step's commit awaited (one loop turn each). The bots decide and the
commits are made on the loop, as on a machine at its normal speed (`QUICK_BOT` and
`QUICK_COMMIT` lifted: under valgrind every decision and commit would look slow).

Prints the process's CPU time per move and a digest of every text the pages were queued
(the same digest before and after a change: every page got the same bytes). Under
``valgrind --tool=callgrind`` run it with ``--moves 0`` too and subtract, for instructions
per move that the machine's load does not move; ``--profile`` prints cProfile's top lines.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import hashlib
import json
import pstats
import tempfile
import time
from pathlib import Path
from typing import Any

from tapete.core.rng import Random
from tapete.web import app, messages, store
from tapete.web.app import Connection, Hub
from tapete.web.guards import Limits
from tapete.web.tables import DEAL_OVER, PLAY, SPECTATOR, SeatPlan, TableConfig

PLAYERS = {"fantan/pagat": 4, "hearts/classic": 4, "briscola/classic": 2, "chinchon/fournier": 2}


def drain(conns: list[Connection], digest: Any) -> int:
    """Empty the pages' queues into ``digest``; the number of texts."""
    n = 0
    for conn in conns:
        while not conn.queue.empty():
            text = conn.queue.get_nowait()
            if text is not None:
                digest.update(text.encode())
                n += 1
    return n


async def run(args: argparse.Namespace, db: Path) -> tuple[float, int, int, str]:
    db_store = store.open_store(db)
    hub = Hub(db_store, limits=Limits(tables=10_000, tables_per_client=10_000), seeds=lambda: "seed")
    variant = hub.variant(args.variant)
    players = PLAYERS[args.variant]
    rooms = []
    for k in range(args.tables):
        seats = [SeatPlan()] + [SeatPlan("random")] * (players - 1)
        config = TableConfig(args.variant, {}, players, f"moves-{k}", seats, salt="s", away_after=0.0, pace=0.0)
        created = await hub._make(config, variant, f"client-{k}")
        room = hub.rooms[created.table_id]
        assert room.driver is not None
        room.driver.cancel()
        conns = [Connection(None, room.table.id, 0), Connection(None, room.table.id, SPECTATOR)]  # type: ignore[arg-type]
        for conn in conns:
            hub._join(room, conn)
        rooms.append((room, conns, Random(k, "moves")))
    await asyncio.sleep(0)
    for _, conns, _ in rooms:
        drain(conns, hashlib.sha256())  # the welcomes name the tables' random ids
    digest = hashlib.sha256()
    profile = cProfile.Profile() if args.profile else None
    moves = texts = 0
    start = time.process_time()
    if profile:
        profile.enable()
    for _ in range(args.moves):
        for room, conns, rng in rooms:
            table = room.table
            if table.phase == DEAL_OVER:
                await hub._next_deal(room)
            elif table.phase != PLAY:
                continue
            elif table.to_move == 0:
                action = rng.choice(table.legal())
                text = json.dumps({"type": "move", "seq": table.seq, "move": action.text(table.deck)})
                await hub.handle(room, conns[0], text)
            else:
                await hub._bot_move(room, False, "")
            moves += 1
            texts += drain(conns, digest)
    if profile:
        profile.disable()
    spent = time.process_time() - start
    await hub.stop()
    db_store.close()
    if profile:
        pstats.Stats(profile).sort_stats(args.sort).print_stats(35)
    return spent, moves, texts, digest.hexdigest()[:16]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=100, help="steps per table")
    parser.add_argument("--variant", default="fantan/pagat", choices=list(PLAYERS))
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--sort", default="tottime", help="cProfile's order for --profile (tottime, cumulative)")
    args = parser.parse_args(argv)
    # The paths of a machine at its normal speed, also under valgrind (which runs code ~50x slower):
    # the random bots decide on the loop, the commits are made on the loop.
    app.QUICK_BOT = store.QUICK_COMMIT = float("inf")
    messages.encode({})  # warm
    with tempfile.TemporaryDirectory() as tmp:
        spent, moves, texts, digest = asyncio.run(run(args, Path(tmp) / "moves.db"))
    out = {
        "moves": moves,
        "texts": texts,
        "us_per_move": round(spent / max(moves, 1) * 1e6, 1),
        "digest": digest,
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
