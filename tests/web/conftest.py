"""A real server on a free loopback port for each test, and clients that speak to it over sockets.

The server runs in a thread of the test process (uvicorn, as ``tapete serve`` runs it) so
that a test can also read what it stored; the clients connect over real TCP sockets with
the ``websockets`` library, exactly as a browser's page does. Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from needs import unavailable  # tests/ is on the path: re-exported for the web tests

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

import uvicorn
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tapete.web.app import make_app, uvicorn_options
from tapete.web.guards import Limits
from tapete.web.routing import table_of_token

from .pgcluster import Cluster, ClusterUnavailable, start_cluster

WAIT = 30.0  # seconds any single wait for the server may take before the test fails
# The tests' clients move as fast as the server answers and open many tables from one address:
# the tests of the limits set their own, the others play under these.
FAST = Limits(message_rate=100_000.0, creates_per_minute=100_000.0, tables_per_client=100_000)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ThreadServer:
    """``tapete serve`` in a thread: start, stop, and the hub for looking inside."""

    def __init__(self, db: Path | str, limits: Limits | None = None):
        self.db = db
        self.port = free_port()
        self.seeds: list[str] = []  # the seeds of the next tables opened (`create`'s seed=), else drawn
        limits = limits or FAST
        self.app = make_app(db, limits=limits, seeds=self._seed)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, **uvicorn_options(limits))
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def _seed(self) -> str:
        """A test's chosen seed (through the Python API: the web API takes none), else a drawn one."""
        from tapete.web.tables import new_seed

        return self.seeds.pop(0) if self.seeds else new_seed()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def hub(self) -> Any:
        return self.app.state.hub

    def start(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + WAIT
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(WAIT)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    srv = ThreadServer(tmp_path / "tables.db").start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """One throwaway PostgreSQL server for the run (`tests.web.pgcluster`), or the test is skipped saying why."""
    try:
        cluster = start_cluster()
    except ClusterUnavailable as exc:
        unavailable(f"no PostgreSQL server to test against: {exc}")
    try:
        yield cluster
    finally:
        cluster.stop()


# The two stores behind the server: the SQLite file, and PostgreSQL (its runs of the heavy tests are slow).
STORES = ["sqlite", "postgres"]
STORES_HEAVY = ["sqlite", pytest.param("postgres", marks=pytest.mark.slow)]


@pytest.fixture
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """A new, empty store for one test: an SQLite file, or a PostgreSQL database (``params`` by `STORES`)."""
    kind = getattr(request, "param", "sqlite")
    if kind == "postgres":
        cluster: Cluster = request.getfixturevalue("pg_cluster")
        return cluster.database()
    return tmp_path / "store.db"  # not `server`'s file: a test may use both


@pytest.fixture
def any_server(database: Path | str) -> Iterator[ThreadServer]:
    """`server` over the store of `database` (parametrise ``database`` indirectly to choose)."""
    srv = ThreadServer(database).start()
    try:
        yield srv
    finally:
        srv.stop()


def stored_rows(db: Path | str, sql: str) -> list[tuple[Any, ...]]:
    """Rows of the store's tables as they are committed, read from outside the server (either store);
    a statement that returns none (a test preparing a database) returns []."""
    if isinstance(db, str):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            cur = conn.execute(sql)
            return [tuple(r) for r in cur.fetchall()] if cur.description else []
    import sqlite3

    with sqlite3.connect(db) as con:
        return list(con.execute(sql))


def post(url: str, body: Any, content_type: str = "application/json") -> tuple[int, Any]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": content_type}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=WAIT) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=WAIT) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def create(
    srv: ThreadServer | str, variant: str, seats: list[str], seed: str | None = None, **form: Any
) -> dict[str, Any]:
    """A table with ``seats`` ("person" or a bot spec), bots moving at once; its links, by seat.

    ``seed`` is handed to the server through the Python API (`ThreadServer.seeds`), as a
    test replaying a table needs; the form itself never carries one."""
    base = srv if isinstance(srv, str) else srv.url
    if seed is not None:
        assert isinstance(srv, ThreadServer), "a seed is chosen through the server's Python API"
        srv.seeds.append(seed)
    body = {
        "variant": variant,
        "players": len(seats),
        "seats": [{"kind": "person"} if s == "person" else {"kind": "bot", "bot": s} for s in seats],
        "pace": 0,
        **form,
    }
    status, reply = post(base + "/api/tables", body)
    assert status == 200, reply
    return dict(reply)


def token(link: str) -> str:
    return link.split("#", 1)[1]


def routed(ws_url: str, tok: str) -> str:
    """The socket's address as the page opens it, naming the link's table for a front to route by (routing)."""
    table = table_of_token(tok)
    return f"{ws_url}?table={table}" if table else ws_url


class Client:
    """One page's connection: every message it received, in order, and helpers to wait for some.

    Like the page, it keeps the table it was last shown: a ``change`` (only the keys
    that differ, and the items of lists in its ``patch``) is merged into the state before it, and ``received`` holds the
    merged state, as the page shows it; ``raw`` holds the messages as they came."""

    def __init__(self, ws: ClientConnection, seat: int):
        self.ws, self.seat = ws, seat
        self.received: list[dict[str, Any]] = []
        self.raw: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None

    @classmethod
    async def open(cls, ws_url: str, tok: str, ssl: Any = None) -> Client:
        ws = await connect(routed(ws_url, tok), open_timeout=WAIT, max_size=None, ssl=ssl)
        await ws.send(json.dumps({"type": "hello", "token": tok}))
        client = cls(ws, -2)
        welcome = await client.next_of("welcome")
        client.seat = welcome["seat"]
        return client

    @classmethod
    async def reopen(cls, ws_url: str, tok: str, ssl: Any = None) -> tuple[Client, list[str]]:
        """Connect as the page does after its connection closed: again and again while the server says the
        table is played elsewhere (another server process holds its lease), or the connection fails (the process
        reached was dying); the client, and the refusals (codes, or the failures' names)."""
        refusals: list[str] = []
        deadline = time.monotonic() + WAIT
        while True:
            assert time.monotonic() < deadline, f"the table was never served here (refused: {refusals})"
            try:
                ws = await connect(routed(ws_url, tok), open_timeout=WAIT, max_size=None, ssl=ssl)
                await ws.send(json.dumps({"type": "hello", "token": tok}))
                first = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            except (OSError, InvalidHandshake, ConnectionClosed) as exc:  # a process dying as it was reached
                refusals.append(type(exc).__name__)
                await asyncio.sleep(0.1)
                continue
            if first["type"] == "welcome":
                client = cls(ws, first["seat"])
                client.raw.append(first)
                client.received.append(first)
                return client, refusals
            await ws.close()
            assert first["type"] == "error" and first["code"] == "elsewhere", first
            refusals.append(first["code"])
            await asyncio.sleep(0.1)

    async def recv(self) -> dict[str, Any]:
        try:
            msg = json.loads(await asyncio.wait_for(self.ws.recv(), WAIT))
        except asyncio.TimeoutError:
            raise AssertionError(f"the page heard nothing for {WAIT} s; the last it heard: {self.raw[-3:]}") from None
        self.raw.append(msg)
        if msg["type"] == "change":
            assert self.state is not None, f"a change before any state: {msg}"
            assert set(msg) <= set(self.state) | {"type", "patch"}, f"a change with keys no state has: {msg}"
            patch = msg.get("patch", {})
            msg = {**self.state, **{k: v for k, v in msg.items() if k != "patch"}, "type": "state"}
            for key, items in patch.items():
                merged = list(msg[key])
                for i, item in items.items():
                    merged[int(i)] = item
                msg[key] = merged
        if msg["type"] == "state":
            self.state = msg
        self.received.append(msg)
        return dict(msg)

    async def next_of(self, *types: str) -> dict[str, Any]:
        while True:
            msg = await self.recv()
            if msg["type"] in types:
                return msg

    async def state_after(self, seq: int) -> dict[str, Any]:
        """The first state message at a position later than ``seq``."""
        while True:
            msg = await self.next_of("state")
            if msg["seq"] > seq:
                return msg

    async def state_at(self, seq: int) -> dict[str, Any]:
        """The latest state message at position ``seq`` (already received, or the next to come)."""
        for msg in reversed(self.received):
            if msg["type"] == "state" and msg["seq"] == seq:
                return msg
        while True:
            msg = await self.next_of("state")
            if msg["seq"] == seq:
                return msg
            assert msg["seq"] < seq, f"position {seq} was skipped"

    async def send(self, obj: Any) -> None:
        await self.ws.send(obj if isinstance(obj, str) else json.dumps(obj))

    async def close(self) -> None:
        await self.ws.close()


# The server of `ProcessServer` when a test chooses the seeds: tapete serve itself, through the
# Python API (the command line and the web API take no seed).
SEEDED = """
import secrets, sys
import uvicorn
from tapete.web.app import make_app, uvicorn_options
from tapete.web.guards import Limits
seeds = sys.argv[3:]
app = make_app(
    sys.argv[1],
    own_process=True,
    seeds=lambda: seeds.pop(0) if seeds else secrets.token_hex(16),
    holder=f"127.0.0.1:{sys.argv[2]}",  # as tapete serve names itself: started again, it holds its tables at once
)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), **uvicorn_options(Limits()))
"""


class ProcessServer:
    """``tapete serve`` as its own process, as a host runs it; `kill` is ``kill -9``.

    With ``seeds``, the first tables opened get those seeds (through the Python API)."""

    def __init__(
        self, db: Path | str, port: int | None = None, seeds: list[str] | None = None, options: tuple[str, ...] = ()
    ):
        self.db, self.port = db, port or free_port()
        self.seeds = seeds
        self.options = options  # more options of tapete serve (not with ``seeds``); one process unless --workers
        self.proc: Any = None
        # What the server wrote, read as it comes: a pipe nobody reads stops a server that fills it, and a
        # failed test's report shows it (`pytest_runtest_makereport`).
        self.output: list[str] = []
        self._reader: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> ProcessServer:
        import subprocess
        import sys

        options = self.options if "--workers" in self.options else ("--workers", "1", *self.options)
        cmd = [sys.executable, "-m", "tapete", "serve", "--port", str(self.port), "--db", str(self.db), *options]
        if self.seeds:
            cmd = [sys.executable, "-c", SEEDED, str(self.db), str(self.port), *self.seeds]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self._reader = threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True)
        self._reader.start()
        STARTED.append(self)
        deadline = time.monotonic() + WAIT
        while True:
            if self.proc.poll() is not None:
                self._finish()
                raise RuntimeError(f"the server stopped: {''.join(self.output)}")
            try:
                if get(self.url + "/")[0] == 200:
                    return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError("the server did not start")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind runs in the server."""
        import signal

        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(WAIT)
        self._finish()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(WAIT)
            except Exception:
                self.kill()
        self._finish()

    def _read(self, pipe: Any) -> None:
        for line in pipe:
            self.output.append(line)

    def _finish(self) -> None:
        """The process has ended (killed, stopped, or by itself): what it wrote is read to the end, and the
        pipe closed; once."""
        if self._reader is not None:
            self._reader.join(WAIT)
            self._reader = None
            self.proc.stdout.close()


STARTED: list[ProcessServer] = []  # the servers the running test started, for its report


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed test's report shows what each server process it started wrote (warnings, tracebacks)."""
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        for srv in STARTED:
            text = "".join(srv.output[-200:]) or "(nothing)"
            report.sections.append((f"Captured output of tapete serve on port {srv.port}", text))
    if report.when == "teardown":
        STARTED.clear()


def first_in_play(
    open_table: Callable[[], dict[str, Any]], begin: Callable[[str], Awaitable[list[int] | None]], steps: int
) -> tuple[dict[str, Any], str, list[int]]:
    """A table still in play after ``begin`` has played its first ``steps`` (``begin(link)`` returns the
    steps acknowledged, or None when the match ended meanwhile), with its link and those steps.

    The web API draws each table's seed, and a short match can be over within a test's first
    steps: a test that kills a server mid-match takes the first table that is not (of eight)."""
    for _ in range(8):
        made = open_table()
        link = token(made["seats"][0]["link"])
        acked = asyncio.run(begin(link))
        if acked is not None:
            return made, link, acked
    pytest.fail(f"eight matches in a row ended within {steps} steps")
