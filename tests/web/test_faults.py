"""Faults stay where they are: bad bytes get a clean refusal, a bad database is refused unwritten,
a table that cannot be loaded is shown broken while the rest serve, and a move the disk does not
take is refused to its page with nothing acknowledged.

Every check runs against a real server on a loopback socket; ``tapete serve``'s options are
checked through the command itself, as a host runs it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tapete.cli.main import app
from tapete.web import store as store_module
from tapete.web.dbfile import APPLICATION_ID, SCHEMA_VERSION

from .conftest import WAIT, Client, ThreadServer, create, get, post, token

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert not bad, [r.getMessage() for r in bad]


async def send_invalid_utf8(ws: Any) -> None:
    """A text frame whose bytes are not UTF-8 (the client library would refuse to make one)."""
    async with ws.send_context():
        ws.protocol.send_text(b"\xff\xfe{")


def test_deep_json_and_invalid_utf8_get_clean_errors_and_no_traceback(
    server: ThreadServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    made = create(server, "chinchon/fournier", ["person", "person"])
    # The form: nested 8,000 deep, not UTF-8, not JSON.
    for body, words in ((b"[" * 8000, "nests deeper"), (b"\xff\xfe{}", "UTF-8"), (b"{" * 8000 + b"}", "nests")):
        status, reply = post(server.url + "/api/tables", body)
        assert status == 400 and words in reply["errors"][""], reply

    async def run() -> None:
        # A hello nested 8,000 deep is a hello without a token.
        async with connect(server.ws_url, open_timeout=WAIT) as ws:
            await ws.send("[" * 8000)
            reply = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            assert reply["code"] == "bad-token"
        # At the table: a deep message is refused and the page stays; an invalid UTF-8 frame closes it (1007).
        page = await Client.open(server.ws_url, token(made["seats"][0]["link"]))
        await page.send('{"type": ' + "[" * 1500 + "]" * 1500 + "}")
        refused = await page.next_of("refused", "error")
        assert refused["code"] == "malformed"
        await page.send({"type": "ping"})
        assert (await page.next_of("pong"))["type"] == "pong"
        await send_invalid_utf8(page.ws)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(page.ws.recv(), WAIT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
        # ... and the table still serves its other seat.
        other = await Client.open(server.ws_url, token(made["seats"][1]["link"]))
        await other.next_of("state")
        await other.close()

    asyncio.run(run())
    no_tracebacks(caplog)


def serve(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``tapete serve`` with ``args``: every one of these is refused before the server listens."""
    return subprocess.run(
        [sys.executable, "-m", "tapete", "serve", "--port", "1", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
    )


def foreign_sqlite(path: Path) -> None:
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        con.execute("INSERT INTO notes (text) VALUES ('mine')")
    con.close()


def test_serve_refuses_bad_options_and_files_with_one_message_before_starting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    refuses_bad_options_and_files(tmp_path, monkeypatch, as_subprocess=(8,))  # another program's database


@pytest.mark.slow
def test_serve_refuses_each_bad_option_and_file_as_a_host_runs_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    refuses_bad_options_and_files(tmp_path, monkeypatch, as_subprocess=range(100))


def refuses_bad_options_and_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, as_subprocess: Any) -> None:
    """Each case once, as a subprocess (as a host runs it) when its number is in ``as_subprocess``,
    else in this process through the same command (quicker; the everyday run does most so)."""
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "notes.txt").write_text("not a database\n")
    (tmp_path / "random.bin").write_bytes(bytes(range(256)) * 20)
    readonly = tmp_path / "readonly.db"
    foreign_sqlite(readonly)
    readonly.chmod(0o444)
    foreign = tmp_path / "foreign.db"
    foreign_sqlite(foreign)
    newer = tmp_path / "newer.db"
    with sqlite3.connect(newer) as con:
        con.execute(f"PRAGMA application_id={APPLICATION_ID}")
        con.execute(f"PRAGMA user_version={SCHEMA_VERSION + 7}")
        con.execute("CREATE TABLE tables (id TEXT)")
    con.close()
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in (foreign, newer, readonly)}
    cases = [
        (["--port", "70000"], "--port must be a whole number from 1 to 65,535, not 70,000"),
        (["--port", "-1"], "--port must be a whole number from 1 to 65,535, not -1"),
        (["--db", "folder"], "folder: cannot keep the tables there: it is a folder"),
        (["--db", "fifo"], "it is a FIFO"),
        (["--db", "/dev/null"], "it is a device"),
        (["--db", "notes.txt"], "it is not an SQLite database"),
        (["--db", "random.bin"], "it is not an SQLite database"),
        (["--db", "readonly.db"], "it is read-only"),
        (["--db", "foreign.db"], "it is another program's SQLite database (tables notes)"),
        (["--db", "newer.db"], f"database version {SCHEMA_VERSION + 7}; this tapete reads versions up to"),
        (["--db", "gone/tables.db"], "the folder gone does not exist"),
        (["--max-body", "10"], "--max-body must be a whole number from 1,024"),
        (["--bot-deadline", "nan"], "--bot-deadline must be a finite number"),
    ]
    runner = CliRunner()
    for n, (args, words) in enumerate(cases):
        if n in as_subprocess:
            done = serve(*args, cwd=tmp_path)
            code, out, printed = done.returncode, done.stderr, done.stdout
        else:
            with monkeypatch.context() as m:
                m.chdir(tmp_path)
                result = runner.invoke(app, ["serve", "--port", "1", *args])
            code, out, printed = result.exit_code, result.output, result.output
        assert code == 1, (args, out)
        assert words in out, (args, out)
        assert "Traceback" not in out and len(out.strip().splitlines()) == 1, out
        assert "lobby is at" not in printed  # refused before the server started
    for path, (data, mtime) in before.items():  # not a single write
        assert path.read_bytes() == data and path.stat().st_mtime_ns == mtime, path
        assert not Path(f"{path}-wal").exists() and not Path(f"{path}-journal").exists()


OLD_SCHEMA = """
CREATE TABLE tables (id TEXT PRIMARY KEY, created REAL NOT NULL, config TEXT NOT NULL, digest TEXT NOT NULL,
                     finished INTEGER NOT NULL DEFAULT 0);
CREATE TABLE tokens (hash TEXT PRIMARY KEY, table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL);
CREATE TABLE steps (table_id TEXT NOT NULL REFERENCES tables(id), seq INTEGER NOT NULL, kind TEXT NOT NULL,
                    seat INTEGER NOT NULL, move TEXT NOT NULL, by TEXT NOT NULL, rng TEXT, at REAL NOT NULL,
                    PRIMARY KEY (table_id, seq));
"""


def test_a_database_made_before_the_mark_opens_and_is_marked(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as con:
        con.executescript(OLD_SCHEMA)
    con.close()
    srv = ThreadServer(db).start()
    try:
        create(srv, "fantan/pagat", ["person", "random", "random"])
    finally:
        srv.stop()
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert con.execute("SELECT count(*) FROM tables WHERE client IS NOT NULL").fetchone()[0] == 1
    con.close()


def test_a_table_that_cannot_be_loaded_is_shown_broken_while_every_other_serves(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    srv = ThreadServer(db).start()
    try:
        good = create(srv, "fantan/pagat", ["person", "random", "random"])
        bad = create(srv, "chinchon/fournier", ["person", "random"])
    finally:
        srv.stop()
    with sqlite3.connect(db) as con:  # the second table's variant is gone (a plugin uninstalled)
        (config,) = con.execute("SELECT config FROM tables WHERE id = ?", (bad["table"],)).fetchone()
        cfg = json.loads(config)
        cfg["variant"] = "nosuchgame/gone"
        con.execute("UPDATE tables SET config = ? WHERE id = ?", (json.dumps(cfg), bad["table"]))
    con.close()
    srv = ThreadServer(db).start()  # the server starts, with the other table in play
    try:
        status, body = get(srv.url + "/api/tables")
        listing = json.loads(body)
        assert status == 200 and listing["in_play"] == 1
        [broken] = listing["broken"]
        assert broken["table"] == bad["table"] and broken["variant"] == "nosuchgame/gone"
        assert "nosuchgame" in broken["reason"]

        async def run() -> None:
            page = await Client.open(srv.ws_url, token(good["seats"][0]["link"]))
            assert (await page.next_of("state"))["phase"] == "play"
            await page.close()
            async with connect(srv.ws_url, open_timeout=WAIT) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token(bad["seats"][0]["link"])}))
                reply = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
                assert reply["code"] == "broken" and "nosuchgame" in reply["message"]

        asyncio.run(run())
    finally:
        srv.stop()


def test_a_move_the_disk_does_not_take_is_refused_with_nothing_acknowledged(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    made = create(server, "chinchon/fournier", ["person", "person"])
    full = {"on": False}
    real = store_module._transaction

    def transaction(db: sqlite3.Connection, statements: Any) -> None:
        if full["on"]:
            raise sqlite3.OperationalError("database or disk is full")
        real(db, statements)

    monkeypatch.setattr(store_module, "_transaction", transaction)

    async def run() -> None:
        pages = [await Client.open(server.ws_url, token(s["link"])) for s in made["seats"]]
        states = [await p.next_of("state") for p in pages]
        while not any(st["moves"] for st in states):
            states = [await p.next_of("state") for p in pages]
        i = next(i for i, st in enumerate(states) if st["moves"])
        mover, shown = pages[i], states[i]
        move = {"type": "move", "seq": shown["seq"], "move": shown["moves"][0]["text"]}
        full["on"] = True
        await mover.send(move)
        refused = await mover.next_of("error", "refused", "ack")
        assert refused["type"] == "error" and refused["code"] == "not-stored", refused
        assert "not played" in refused["message"] and "disk is full" in refused["message"]
        assert server.hub.store.steps(made["table"]) == []
        assert server.hub.rooms[made["table"]].table.seq == shown["seq"]
        full["on"] = False  # the disk has room again: the same move plays, once
        await mover.send(move)
        answer = await mover.next_of("ack", "error", "refused")
        assert answer == {"type": "ack", "seq": shown["seq"]}, answer
        assert [s["move"] for s in server.hub.store.steps(made["table"])] == [move["move"]]
        for p in pages:
            await p.close()

    asyncio.run(run())
    no_tracebacks(caplog)
