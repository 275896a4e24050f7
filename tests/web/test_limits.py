"""Limits no client can exhaust: each is exceeded here while another table keeps playing.

Tables per address and in all, openings per minute, the expiry of abandoned tables, a bot's
time per move and the bots' shared pool with its deadline, request bodies, slow headers and
idle connections, and one page's messages a second. Every server is real, on loopback
sockets; a second client address is 127.0.0.2 or 4 (Linux routes all of 127/8 to loopback). The limits
in all and per address are checked on one process and on two behind ``tapete serve --workers``'s front.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import socket
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tapete.web.guards import OPTION, Limits

from .conftest import FAST, WAIT, Client, ProcessServer, ThreadServer, create, get, token

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@contextlib.contextmanager
def limited(tmp_path: Path, processes: int = 0, **limits: Any) -> Iterator[Any]:
    """A server under ``limits``: in a thread of the test (``processes=0``), or ``tapete serve --workers N``,
    N processes behind the front, where a limit in all must count every process's tables."""
    base = {k: getattr(FAST, k) for k in ("message_rate", "creates_per_minute", "tables_per_client")}
    chosen = {**base, **limits}
    srv: Any
    if processes:
        options = [f"--{OPTION[k]}={v:g}" for k, v in chosen.items()]
        srv = ProcessServer(tmp_path / "tables.db", options=("--workers", str(processes), *options)).start()
    else:
        srv = ThreadServer(tmp_path / "tables.db", Limits(**chosen)).start()
    try:
        yield srv
    finally:
        srv.stop()


# The processes a limit in all is checked over: one, and two behind the front (slower to start: slow).
PROCESSES = [0, pytest.param(2, marks=pytest.mark.slow)]
# A second client address whose new tables the front sends to the other of two processes than 127.0.0.1's.
OTHER = "127.0.0.4"


def open_from(srv: ThreadServer, source: str, variant: str = "fantan/pagat") -> tuple[int, dict[str, Any]]:
    """POST a table from the address ``source`` (127.0.0.1 or 127.0.0.2)."""
    body = {"variant": variant, "players": 3, "seats": [{"kind": "person"}, {"kind": "person"}, {"kind": "person"}]}
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=WAIT, source_address=(source, 0))
    try:
        conn.request("POST", "/api/tables", json.dumps(body), {"Content-Type": "application/json"})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read())
    finally:
        conn.close()


async def a_move_is_acknowledged(srv: ThreadServer, made: dict[str, Any]) -> None:
    """The other table plays on: a person's move there is stored and acknowledged."""
    pages = [await Client.open(srv.ws_url, token(s["link"])) for s in made["seats"]]
    try:
        states = [await p.next_of("state") for p in pages]
        i = next(i for i, st in enumerate(states) if st["moves"])
        st = states[i]
        await pages[i].send({"type": "move", "seq": st["seq"], "move": st["moves"][0]["text"]})
        assert (await pages[i].next_of("ack"))["seq"] == st["seq"]
    finally:
        for p in pages:
            await p.close()


@pytest.mark.parametrize("processes", PROCESSES)
def test_tables_per_address_and_in_all(tmp_path: Path, processes: int) -> None:
    with limited(tmp_path, processes, tables=3, tables_per_client=2) as srv:
        first = create(srv.url, "chinchon/fournier", ["person", "person"])
        assert open_from(srv, "127.0.0.1")[0] == 200
        status, reply = open_from(srv, "127.0.0.1")
        assert status == 429 and "this address are in play (at most 2)" in reply["errors"][""]
        assert open_from(srv, OTHER)[0] == 200  # another address may still open one (in the other process)
        status, reply = open_from(srv, OTHER)
        assert status == 429 and "already holds 3 tables in play" in reply["errors"][""]
        asyncio.run(a_move_is_acknowledged(srv, first))


@pytest.mark.parametrize("processes", PROCESSES)
def test_openings_per_minute_from_one_address(tmp_path: Path, processes: int) -> None:
    with limited(tmp_path, processes, creates_per_minute=3) as srv:
        first = create(srv.url, "chinchon/fournier", ["person", "person"])
        assert [open_from(srv, "127.0.0.1")[0] for _ in range(2)] == [200, 200]
        status, reply = open_from(srv, "127.0.0.1")
        assert status == 429 and "at most 3 a minute from one address" in reply["errors"][""]
        assert open_from(srv, OTHER)[0] == 200  # counted per address
        asyncio.run(a_move_is_acknowledged(srv, first))


def test_a_table_nobody_has_open_is_closed_and_its_record_kept(tmp_path: Path) -> None:
    with limited(tmp_path, expire_hours=1 / 3600) as srv:  # one second
        abandoned = create(srv, "chinchon/fournier", ["person", "random"])
        kept = create(srv, "chinchon/fournier", ["person", "person"])

        async def run() -> None:
            pages = [await Client.open(srv.ws_url, token(s["link"])) for s in kept["seats"]]
            deadline = time.monotonic() + WAIT
            while abandoned["table"] in srv.hub.rooms:
                assert time.monotonic() < deadline, "the abandoned table was not closed"
                await asyncio.sleep(0.1)
            assert kept["table"] in srv.hub.rooms  # pages open: it stays
            for p in pages:
                await p.close()
            await a_move_is_acknowledged(srv, kept)  # and it plays on
            back = await Client.open(srv.ws_url, token(abandoned["seats"][0]["link"]))
            state = await back.next_of("state")
            assert state["phase"] == "closed" and "nobody had it open for" in state["title"]
            assert state["fair"]["seed"] and state["fair"]["salt"]  # it never goes on: its seed is shown
            await back.close()

        asyncio.run(run())
        with sqlite3.connect(srv.db) as con:
            row = con.execute("SELECT finished, closed FROM tables WHERE id = ?", (abandoned["table"],)).fetchone()
        con.close()
        assert row[0] == 1 and "nobody had it open" in row[1]


SEARCHER = "ismcts:iterations=10000000"  # the documented maximum: hours of thinking without a cap


def bot_steps(srv: ThreadServer, table_id: str) -> list[dict[str, Any]]:
    return [s for s in srv.hub.store.steps(table_id) if s["kind"] == "move" and s["seat"] != 0]


def test_a_bots_time_per_move_is_capped_and_other_tables_bots_play_on(tmp_path: Path) -> None:
    with limited(tmp_path, bot_seconds=0.2, bot_workers=1, bot_deadline=30) as srv:
        searching = [create(srv, "fantan/pagat", [SEARCHER] * 3) for _ in range(2)]
        quick = create(srv, "fantan/pagat", ["random"] * 3)
        deadline = time.monotonic() + WAIT
        while len(bot_steps(srv, searching[0]["table"])) < 3 or len(bot_steps(srv, quick["table"])) < 6:
            assert time.monotonic() < deadline, "the bots stopped"
            time.sleep(0.1)
        assert {s["by"] for s in bot_steps(srv, searching[0]["table"])} == {"bot"}  # in time, by the bot itself
        assert get(srv.url + "/")[0] == 200


def test_a_bot_not_back_by_its_deadline_is_replaced_for_that_move(tmp_path: Path) -> None:
    with limited(tmp_path, bot_seconds=3, bot_workers=1, bot_deadline=0.3) as srv:
        slow = create(srv, "fantan/pagat", [SEARCHER] * 3)
        other = create(srv, "chinchon/fournier", ["person", "person"])
        deadline = time.monotonic() + WAIT
        while not any(s["by"] == "late" for s in bot_steps(srv, slow["table"])):
            assert time.monotonic() < deadline, "no stand-in played for the late bot"
            time.sleep(0.05)
        asyncio.run(a_move_is_acknowledged(srv, other))
        assert srv.hub.pool.late >= 1


def raw(srv: ThreadServer, data: bytes) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=WAIT)
    s.sendall(data)
    return s


def read_all(s: socket.socket) -> bytes:
    out = b""
    while chunk := s.recv(65536):
        out += chunk
    return out


def test_a_body_over_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    with limited(tmp_path, max_body=2048) as srv:
        head = b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        # 200 MB announced: 413 with only the first kilobyte sent.
        s = raw(srv, head + b"Content-Length: 200000000\r\n\r\n" + b" " * 1024)
        reply = read_all(s)
        s.close()
        assert reply.startswith(b"HTTP/1.1 413") and b"at most 2,048 bytes" in reply
        # No length announced (chunked): refused at the first chunk beyond the limit, the rest never sent.
        s = raw(srv, head + b"Transfer-Encoding: chunked\r\n\r\n")
        for _ in range(3):
            s.sendall(b"400\r\n" + b" " * 1024 + b"\r\n")
        reply = read_all(s)
        s.close()
        assert reply.startswith(b"HTTP/1.1 413")
        assert get(srv.url + "/static/style.css")[0] == 200


@pytest.mark.slow  # it waits out the timeouts
def test_slow_headers_idle_connections_and_stalled_bodies_are_closed(tmp_path: Path) -> None:
    with limited(tmp_path, header_timeout=0.5, idle_timeout=0.5) as srv:
        started = time.monotonic()
        trickle = raw(srv, b"GET / HTTP/1.1\r\n")
        closed = False
        while time.monotonic() - started < 5:
            try:
                trickle.sendall(b"X")  # one byte of a header, every 0.1 s: never a whole request
            except OSError:
                closed = True
                break
            trickle.settimeout(0.1)
            try:
                if trickle.recv(1) == b"":
                    closed = True
                    break
            except TimeoutError:
                pass
        trickle.close()
        assert closed, "a client trickling its headers was kept"
        assert get(srv.url + "/")[0] == 200  # others are answered meanwhile

        # A kept-alive connection that says nothing more is closed.
        idle = raw(srv, b"GET /static/style.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert read_all(idle).startswith(b"HTTP/1.1 200")  # the answer, then the close (not WAIT later)
        idle.close()

        # A body that stops arriving: 408.
        stall = raw(
            srv,
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{",
        )
        assert read_all(stall).startswith(b"HTTP/1.1 408")
        stall.close()


def test_a_page_sending_too_fast_is_refused_and_the_table_plays_on(tmp_path: Path) -> None:
    with limited(tmp_path, message_rate=5) as srv:
        made = create(srv, "chinchon/fournier", ["person", "person"])
        other = create(srv, "chinchon/fournier", ["person", "person"])

        async def run() -> None:
            page = await Client.open(srv.ws_url, token(made["seats"][0]["link"]))
            await page.next_of("state")
            for _ in range(40):
                await page.send({"type": "ping"})
            answers = [(await page.next_of("pong", "error"))["type"] for _ in range(40)]
            assert answers.count("pong") <= 12 and "error" in answers  # a burst of twice the rate, then refusals
            refusal = next(m for m in page.received if m["type"] == "error")
            assert refusal["code"] == "too-fast"
            await a_move_is_acknowledged(srv, other)
            await asyncio.sleep(0.5)  # the rate allows it again
            await page.send({"type": "ping"})
            assert (await page.next_of("pong", "error"))["type"] == "pong"
            await page.close()

        asyncio.run(run())


@pytest.mark.parametrize("processes", PROCESSES)
def test_pages_frames_go_uncompressed_and_a_compressed_frame_is_refused(tmp_path: Path, processes: int) -> None:
    """A browser offers permessage-deflate; the server declines it, so it keeps no zlib state per page
    and never inflates what a client sends: a frame marked compressed anyway closes that page alone."""
    with limited(tmp_path, processes) as srv:
        made = create(srv, "chinchon/fournier", ["person", "person"])

        async def run() -> None:
            page = await Client.open(srv.ws_url, token(made["seats"][0]["link"]))  # offers deflate, as browsers do
            assert "permessage-deflate" in page.ws.request.headers.get("Sec-WebSocket-Extensions", "")
            assert page.ws.response.headers.get("Sec-WebSocket-Extensions") is None
            assert page.ws.protocol.extensions == []
            await page.next_of("state")
            other = await Client.open(srv.ws_url, token(made["seats"][1]["link"]))
            await other.next_of("state")
            # A text frame with RSV1 set (compressed, never agreed): FIN|RSV1|text, masked, "{}" deflated.
            payload = b"\xab\xae\x05\x00"
            frame = bytes([0xC1, 0x80 | len(payload)]) + b"\0\0\0\0" + payload
            page.ws.transport.write(frame)
            with pytest.raises(ConnectionClosed):
                while True:
                    await page.recv()
            assert page.ws.close_code == 1002  # a protocol error, said as such
            await other.send({"type": "ping"})
            assert (await other.next_of("pong"))["type"] == "pong"
            await other.close()

        asyncio.run(run())
