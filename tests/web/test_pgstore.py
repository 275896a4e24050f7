"""The PostgreSQL store keeps what the SQLite file keeps, and says no the same way.

The same writes land the same way (tests/web/test_store.py runs its store tests on both
stores, as test_resume.py, test_leaks.py and test_takeover.py do); a database that restarts under a
running server breaks its connections, and the server opens them again: a move sent
while it was down is refused as not stored, never acknowledged, and the next one plays.
A database the server cannot use is refused before it starts, in one sentence that
names it without its password (exit 1, no traceback).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import pytest

from tapete.web.tables import SeatPlan, TableConfig

from .conftest import Client, ThreadServer, create, free_port, stored_rows, token
from .pgcluster import Cluster

CONFIG = TableConfig("fantan/pagat", {}, 3, "seed", [SeatPlan(), SeatPlan("random"), SeatPlan("random")])


def test_a_database_restarted_under_the_server_refuses_one_move_and_plays_the_next(pg_cluster: Cluster) -> None:
    srv = ThreadServer(pg_cluster.database()).start()
    try:
        made = create(srv, "chinchon/fournier", ["person", "person"], seed="restart")

        async def run() -> tuple[list[str], list[tuple[Any, ...]]]:
            pages = [await Client.open(srv.ws_url, token(s["link"])) for s in made["seats"]]
            answers: list[str] = []
            try:
                states = [await p.next_of("state") for p in pages]
                mover, state = next((p, st) for p, st in zip(pages, states, strict=True) if st["moves"])
                await asyncio.to_thread(pg_cluster.restart)  # every connection of the server breaks
                while "ack" not in answers and len(answers) < 3:  # a refused move was not played: sent again
                    await mover.send({"type": "move", "seq": state["seq"], "move": state["moves"][0]["text"]})
                    reply = await mover.next_of("ack", "refused")
                    answers.append(reply["type"] if reply["type"] == "ack" else reply["code"])
                after = await mover.state_after(state["seq"])
                assert after["seq"] == state["seq"] + 1  # the table moved on by that one move
            finally:
                for p in pages:
                    await p.close()
            return answers, stored_rows(srv.db, "SELECT seq, move FROM steps ORDER BY seq")

        answers, stored = asyncio.run(run())
    finally:
        srv.stop()
    assert answers[-1] == "ack" and set(answers[:-1]) <= {"not-stored"}
    assert len(stored) == 1 and stored[0][0] == 0  # the acknowledged move is stored, once


def serve(db: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "tapete", "serve", "--port", str(free_port()), "--db", db]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.parametrize(
    "kind, why",
    [
        ("closed", "Connection refused"),
        pytest.param("foreign", "another program's tables (steps)", marks=pytest.mark.slow),
        pytest.param("newer", "written by a newer tapete (database version 99", marks=pytest.mark.slow),
    ],
)
def test_serve_refuses_a_database_it_cannot_use_in_one_sentence_without_the_password(
    kind: str, why: str, pg_cluster: Cluster
) -> None:
    db = f"postgresql://tapete:s3cret@127.0.0.1:{free_port()}/tables"  # nothing listens there
    if kind != "closed":
        db = pg_cluster.database()
        made = {"foreign": "CREATE TABLE steps (x INTEGER)", "newer": "CREATE TABLE tapete_schema (version INTEGER)"}
        stored_rows(db, made[kind])
        if kind == "newer":
            stored_rows(db, "INSERT INTO tapete_schema VALUES (99)")
    before = [] if kind == "closed" else stored_rows(db, TABLES)
    done = serve(db)
    assert done.returncode == 1, done.stderr
    assert why in done.stderr and "Traceback" not in done.stderr and "s3cret" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    if kind != "closed":
        assert stored_rows(db, TABLES) == before  # nothing of tapete's was written to it


TABLES = "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1"


@pytest.mark.parametrize("url", ["postgresql://host/db with space", "postgresql://" + "x" * 5000])
def test_serve_refuses_a_malformed_database_url(url: str) -> None:
    done = serve(url)
    assert done.returncode == 1 and "is not a database URL" in done.stderr and "Traceback" not in done.stderr
