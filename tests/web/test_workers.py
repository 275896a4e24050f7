"""``tapete serve --workers 2``: two server processes behind the front, each table in exactly one.

New tables from two addresses land in the two processes (the front sends a form by its
address, and a process draws ids of its own, `tapete.web.routing`); a table's person and
its spectator reach the same process (the spectator is shown the person's move); the
lobby counts every process's tables whichever process answers it. Killed with SIGKILL,
one process's table is taken over by the other once its lease has run out, and the
person's page, reconnecting through the front, carries on with every acknowledged move.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tapete.web.front import HANDOVER
from tapete.web.routing import owner

from .conftest import WAIT, Client, ProcessServer, ThreadServer, create, get, stored_rows, token
from .test_limits import OTHER
from .test_resume import FORM, SEATS, play

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def two(tmp_path: Path) -> Iterator[ProcessServer]:
    options = ("--workers", "2", "--lease", "1", "--max-tables-per-client", "1000", "--create-rate", "1000")
    srv = ProcessServer(tmp_path / "tables.db", options=options).start()
    try:
        yield srv
    finally:
        srv.stop()


def open_from(srv: ProcessServer, source: str, seats: list[str]) -> dict[str, Any]:
    """A table opened from the address ``source``: ``seats`` are "person" or a bot."""
    body = {
        "variant": "chinchon/fournier",
        "players": len(seats),
        "seats": [{"kind": "person"} if s == "person" else {"kind": "bot", "bot": s} for s in seats],
        "pace": 0,
        **FORM,
    }
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=WAIT, source_address=(source, 0))
    try:
        conn.request("POST", "/api/tables", json.dumps(body), {"Content-Type": "application/json"})
        resp = conn.getresponse()
        assert resp.status == 200
        return dict(json.loads(resp.read()))
    finally:
        conn.close()


def test_each_table_lives_in_one_process_and_every_link_and_the_lobby_reach_it(two: ProcessServer) -> None:
    a = open_from(two, "127.0.0.1", ["person", "person"])
    b = open_from(two, OTHER, ["person", "person"])
    assert {owner(a["table"], 2), owner(b["table"], 2)} == {0, 1}  # one table in each process
    lobbies = [json.loads(get(two.url + "/api/tables")[1]) for _ in range(4)]  # the front takes turns
    assert [lobby["in_play"] for lobby in lobbies] == [2, 2, 2, 2]

    async def run(made: dict[str, Any]) -> None:
        pages = [await Client.open(two.ws_url, token(s["link"])) for s in made["seats"]]
        watcher = await Client.open(two.ws_url, token(made["spectator"]))
        try:
            states = [await p.next_of("state") for p in pages]
            i, st = next((i, st) for i, st in enumerate(states) if st["moves"])
            await pages[i].send({"type": "move", "seq": st["seq"], "move": st["moves"][0]["text"]})
            assert (await pages[i].next_of("ack"))["seq"] == st["seq"]
            assert (await watcher.state_after(st["seq"]))["seq"] == st["seq"] + 1  # the same process showed it
        finally:
            for c in (*pages, watcher):
                await c.close()

    for made in (a, b):
        asyncio.run(run(made))


def sockets_of(pid: int) -> int:
    """How many sockets the process ``pid`` holds open (its descriptors that are sockets)."""
    held = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            held += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
    return held


@pytest.mark.skipif(not HANDOVER, reason="connections are handed over only where descriptors pass (Linux)")
def test_the_front_hands_each_page_over_to_its_tables_process_and_holds_none_of_them(two: ProcessServer) -> None:
    """A page's WebSocket is passed to the process that owns its table (`tapete.web.front`): with 24 pages
    open and playing, the front holds no more sockets than with none (copying, it held two a page), and
    each page is still answered by its table's process: its move acknowledged, its spectator shown it."""
    made = [open_from(two, source, ["person", "person"]) for source in ("127.0.0.1", OTHER) * 4]
    assert {owner(m["table"], 2) for m in made} == {0, 1}
    before = sockets_of(two.proc.pid)

    async def run() -> int:
        pages = [await Client.open(two.ws_url, token(s["link"])) for m in made for s in m["seats"]]
        watchers = [await Client.open(two.ws_url, token(m["spectator"])) for m in made]
        try:
            for k in range(len(made)):
                mine = pages[2 * k : 2 * k + 2]
                states = [await p.next_of("state") for p in mine]
                i, st = next((i, st) for i, st in enumerate(states) if st["moves"])
                await mine[i].send({"type": "move", "seq": st["seq"], "move": st["moves"][0]["text"]})
                assert (await mine[i].next_of("ack"))["seq"] == st["seq"]
                assert (await watchers[k].state_after(st["seq"]))["seq"] == st["seq"] + 1
            return sockets_of(two.proc.pid)
        finally:
            for c in (*pages, *watchers):
                await c.close()

    during = asyncio.run(run())
    assert during - before < 4, (before, during)  # 24 pages open: none of them held by the front


def workers_of(front: int) -> list[int]:
    """The front's server processes, in the order they were started (process 0 first)."""
    found: list[tuple[int, int]] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == front and b"spawn_main" in cmdline:
            found.append((int(fields[19]), int(entry)))  # start time, pid
    return [pid for _, pid in sorted(found)]


@pytest.mark.slow  # a lease waited out behind the front: about 6 s
def test_a_killed_process_s_table_is_taken_over_and_its_page_carries_on(two: ProcessServer) -> None:
    made = open_from(two, "127.0.0.1", SEATS)
    other = open_from(two, OTHER, ["person", "person"])
    link = token(made["seats"][0]["link"])
    workers = workers_of(two.proc.pid)
    assert len(workers) == 2

    async def before() -> list[int]:
        page = await Client.open(two.ws_url, link)
        await play(page, stop_after=12)
        os.kill(workers[owner(made["table"], 2)], signal.SIGKILL)
        return [m["seq"] for m in page.raw if m["type"] == "ack"]

    acked = asyncio.run(before())
    stored = stored_rows(two.db, f"SELECT seq FROM steps WHERE table_id = '{made['table']}' ORDER BY seq")
    assert acked and all((seq,) in stored for seq in acked)
    started = time.monotonic()

    async def after() -> tuple[dict[str, Any], dict[str, Any]]:
        page, _ = await Client.reopen(two.ws_url, link)  # the front sends it to the process still alive
        shown = await page.next_of("state")
        try:
            return shown, await play(page, first=shown)
        finally:
            await page.close()

    shown, end = asyncio.run(after())
    assert time.monotonic() - started < WAIT
    assert shown["seq"] >= len(stored) and end["phase"] == "match-over"
    final = stored_rows(two.db, f"SELECT seq FROM steps WHERE table_id = '{made['table']}' ORDER BY seq")
    assert final[: len(stored)] == stored

    # The other process's table was never touched: its link still opens it there.
    async def still() -> dict[str, Any]:
        page = await Client.open(two.ws_url, token(other["seats"][0]["link"]))
        try:
            return await page.next_of("state")
        finally:
            await page.close()

    assert asyncio.run(still())["seq"] == 0


@pytest.mark.slow  # a process started again behind the front: about 5 s
def test_a_killed_process_is_started_again_and_takes_its_tables_back_before_their_leases_run_out(
    tmp_path: Path,
) -> None:
    """The lease is a minute, so no other process may take the table over meanwhile: only the
    restarted process, holding its own lease again, can show it to its page."""
    options = ("--workers", "2", "--lease", "60", "--max-tables-per-client", "1000", "--create-rate", "1000")
    srv = ProcessServer(tmp_path / "tables.db", options=options).start()
    try:
        made = open_from(srv, "127.0.0.1", ["person", "person"])
        index = owner(made["table"], 2)
        before = workers_of(srv.proc.pid)
        assert len(before) == 2
        os.kill(before[index], signal.SIGKILL)
        deadline = time.monotonic() + WAIT
        while True:
            now = workers_of(srv.proc.pid)
            if len(now) == 2 and before[index] not in now:
                break
            assert time.monotonic() < deadline, f"the process was not started again: {now}"
            time.sleep(0.1)
        assert now[1 - index] == before[1 - index] or now[index] == before[1 - index]  # the other one untouched

        async def reopen() -> dict[str, Any]:
            page, _ = await Client.reopen(srv.ws_url, token(made["seats"][0]["link"]))
            try:
                return await page.next_of("state")
            finally:
                await page.close()

        started = time.monotonic()
        assert asyncio.run(reopen())["seq"] == 0
        assert time.monotonic() - started < WAIT  # well before the minute's lease ran out
        srv.stop()
        said = "".join(srv.output)
        assert f"server process {index} ended (exit code -9); starting it again in 1 s" in said, said
    finally:
        srv.kill()


@pytest.mark.slow  # two processes started: about 5 s
def test_every_process_lists_a_table_that_cannot_be_loaded_whichever_owns_it(tmp_path: Path) -> None:
    """Each process opens only its own tables, so the lobby of the other one never heard of a
    broken one: every process now looks at the variants of all the unfinished tables at start."""
    import sqlite3

    db = tmp_path / "tables.db"
    srv = ProcessServer(db, options=("--workers", "2", "--max-tables-per-client", "1000")).start()
    try:
        made = [open_from(srv, "127.0.0.1", ["person", "person"]), open_from(srv, OTHER, ["person", "person"])]
    finally:
        srv.stop()
    bad = made[0]["table"]
    with sqlite3.connect(db) as con:  # its variant is gone (a plugin uninstalled)
        (config,) = con.execute("SELECT config FROM tables WHERE id = ?", (bad,)).fetchone()
        con.execute(
            "UPDATE tables SET config = ? WHERE id = ?",
            (json.dumps(json.loads(config) | {"variant": "nosuch/gone"}), bad),
        )
    con.close()
    srv = ProcessServer(db, options=("--workers", "2")).start()
    try:
        lobbies = [json.loads(get(srv.url + "/api/tables")[1]) for _ in range(4)]  # the front takes turns
        assert [[b["table"] for b in lobby["broken"]] for lobby in lobbies] == [[bad]] * 4
        assert [lobby["in_play"] for lobby in lobbies] == [1, 1, 1, 1]
    finally:
        srv.stop()


def test_the_front_sends_a_debugging_request_to_the_process_it_names() -> None:
    """Each process times its own moves: ``bench/web_load.py --breakdown`` asks every one of them by
    ``?worker=i``, and adds up what they say; any other request is routed as always."""
    from tapete.web.front import Front

    front = Front([1, 2, 3], header_timeout=5.0)
    assert [front.choose("GET", f"/api/debug/timers?worker={i}&reset=1", "me") for i in (2, 0, 1)] == [2, 0, 1]
    turns = [front.choose("GET", "/api/debug/timers?worker=7", "me") for _ in range(3)]  # no such process
    assert sorted(turns) == [0, 1, 2]  # taken in turn, as a request naming no table
    assert front.choose("GET", "/api/tables?worker=2", "me") in (0, 1, 2)  # only the debugging routes


def test_a_page_whose_process_takes_no_handed_connection_is_copied_through_the_front(server: ThreadServer) -> None:
    """Where the owner's channel is not up (a process starting, or gone), the front falls back to copying
    the page's bytes to the owner's port: the page plays as ever and nothing was handed over."""
    from tapete.web.front import Front

    made = create(server, "fantan/pagat", ["person", "random", "random"])
    front = Front([server.port], header_timeout=5.0, channels=["\0tapete-test-no-such-channel"])

    async def run() -> int:
        listening = await asyncio.start_server(front.handle, "127.0.0.1", 0)
        port = listening.sockets[0].getsockname()[1]
        async with listening:
            page = await Client.open(f"ws://127.0.0.1:{port}/ws", token(made["seats"][0]["link"]))
            try:
                st = await page.next_of("state")
                while not st["moves"]:
                    st = await page.next_of("state")
                await page.send({"type": "move", "seq": st["seq"], "move": st["moves"][0]["text"]})
                return int((await page.next_of("ack"))["seq"])
            finally:
                await page.close()

    assert asyncio.run(run()) >= 0
    assert front.handed == 0
