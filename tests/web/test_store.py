"""The store writes in its own thread: a slow disk holds up only the moves being written.

A move is acknowledged only once it is in the file, even when the file is slow; the
rest of the server (other tables, other pages) goes on meanwhile, and a page opened
while a move is being written is shown the table after that move, not a position
about to change. The writes of one turn of the loop share a transaction, and one
that fails fails alone.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tapete.web.store import StoreFailed, open_store
from tapete.web.tables import SeatPlan, Step, TableConfig

from .conftest import STORES, Client, ThreadServer, create, stored_rows, token


def stored_moves(db: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as con:
        return list(con.execute("SELECT table_id, seq, move FROM steps ORDER BY table_id, seq"))


async def settled(page: Client) -> dict[str, Any]:
    """The page's state once both people are shown at the table."""
    while True:
        state = await page.next_of("state")
        if all(s["here"] for s in state["seats"]):
            return state


def test_a_slow_disk_delays_the_move_being_written_and_nothing_else(server: ThreadServer) -> None:
    a = create(server, "chinchon/fournier", ["person", "person"], seed="slow disk")
    b = create(server, "chinchon/fournier", ["person", "person"], seed="other table")

    async def run() -> None:
        pages = [await Client.open(server.ws_url, token(s["link"])) for s in a["seats"]]
        states = [await settled(p) for p in pages]
        mover = next(p for p, st in zip(pages, states, strict=True) if st["moves"])
        shown = next(st for st in states if st["moves"])
        other = await Client.open(server.ws_url, token(b["seats"][0]["link"]))
        await other.next_of("state")

        # Another program holds the file's write lock: the server's writes wait for it.
        holder = sqlite3.connect(server.db, timeout=30, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            await mover.send({"type": "move", "seq": shown["seq"], "move": shown["moves"][0]["text"]})
            watcher = await Client.open(server.ws_url, token(a["spectator"]))
            # The server answers the other table's page while the move waits for the disk...
            await other.send({"type": "ping"})
            assert (await other.next_of("pong", "state"))["type"] == "pong"
            # ... and the move is neither acknowledged nor shown, nor in the file.
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(mover.next_of("ack", "state", "error"), 0.5)
            assert stored_moves(server.db) == []
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert (await mover.next_of("ack"))["seq"] == shown["seq"]
        assert [(seq, move) for _, seq, move in stored_moves(server.db)] == [(shown["seq"], shown["moves"][0]["text"])]
        # The page opened during the write was first shown the table after the move.
        assert (await watcher.next_of("state"))["seq"] == shown["seq"] + 1
        for c in (*pages, other, watcher):
            await c.close()

    asyncio.run(run())


@pytest.mark.parametrize("database", STORES, indirect=True)
def test_writes_of_one_turn_share_a_transaction_and_a_bad_one_fails_alone(database: Path | str) -> None:
    config = TableConfig("fantan/pagat", {}, 3, "seed", [SeatPlan(), SeatPlan("random"), SeatPlan("random")])

    async def run() -> list[Any]:
        store = open_store(database)
        try:
            before = store.batches
            await asyncio.gather(store.create("t1", config, "d", {0: "a"}), store.create("t2", config, "d", {0: "b"}))
            assert store.batches == before + 1  # both tables in one transaction
            step = Step(0, "move", 0, "play 7♥", "person")
            results = await asyncio.gather(
                store.append("t1", step),
                store.append("t1", Step(0, "move", 0, "play 7♠", "person")),  # the same position twice
                store.append("t2", step),
                return_exceptions=True,
            )
            store.mark_finished("t2")  # nobody waits for it; closing writes it
            return results
        finally:
            store.close()

    results = asyncio.run(run())
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], StoreFailed)  # refused, and said why (each database in its words)
    assert "UNIQUE" in str(results[1]) or "duplicate key" in str(results[1])
    assert stored_rows(database, "SELECT table_id, seq, move FROM steps ORDER BY table_id, seq") == [
        ("t1", 0, "play 7♥"),
        ("t2", 0, "play 7♥"),
    ]
    assert stored_rows(database, "SELECT id FROM tables WHERE finished = 1") == [("t2",)]
    # Opened again (a server started again on the same database), the tables, tokens and steps are there.
    store = open_store(database)
    try:
        loaded = store.load("t1")
        assert loaded is not None and loaded.config == config and [s.move for s in loaded.steps] == ["play 7♥"]
        assert store.seat_of("a") == ("t1", 0) and store.seat_of("nobody's") is None
        assert store.table_ids(unfinished_only=True) == ["t1"]
    finally:
        store.close()


def test_a_page_closed_while_its_move_is_written_still_has_the_move_played(server: ThreadServer) -> None:
    made = create(server, "chinchon/fournier", ["person", "random"], seed="left during write")
    link = token(made["seats"][0]["link"])

    async def run() -> tuple[int, str, dict[str, Any]]:
        page = await Client.open(server.ws_url, link)
        state = await page.next_of("state")
        while not state["moves"]:
            state = await page.next_of("state")
        move = state["moves"][0]["text"]
        holder = sqlite3.connect(server.db, timeout=30, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            await page.send({"type": "move", "seq": state["seq"], "move": move})
            await page.close()
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        again = await Client.open(server.ws_url, link)
        try:
            return state["seq"], move, await again.next_of("state")
        finally:
            await again.close()

    seq, move, later = asyncio.run(run())
    step = server.hub.store.steps(made["table"])[seq]
    assert (step["move"], step["by"]) == (move, "person")
    assert later["seq"] > seq
