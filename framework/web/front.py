"""``tapete serve --workers N``: N server processes behind one front that routes by table.

Why a front and not N processes sharing the port (``SO_REUSEPORT``): the kernel hands a
new connection to any process, but a page's connection must reach the process that
plays its table (its state, its bots, its other pages live there). The front reads only
the head of each request (the table is in it: `tapete.web.routing`) and sends it to the
process that owns the table:

- A page's WebSocket is **handed over**: the front passes the connection itself (its
  file descriptor, over a Unix socket, with the head it read) to the owner, which serves
  it as if it had accepted it, and the front lets go of it. A page's moves and every
  change sent to it then cost the front nothing (a copy through the front cost about half
  the server's CPU a move again). Where descriptors cannot be passed (not Linux), or the
  owner's channel is down, the front connects to the owner and copies bytes both ways
  without reading them, as a reverse proxy does between machines (docs/web.md,
  "Deployment").
- A plain HTTP request is always copied that way (it is short, and the next request on a
  kept-alive connection may name another table).

- A request naming a table goes to its owner; one naming none (the lobby, the pages)
  to the next process in turn; a new table's form by the client's address, so one
  client's tables and openings are counted by one process (the per-address limits).
- The client's address travels in ``X-Forwarded-For``: a header the client sent is
  dropped, unless the client is a proxy on this machine (nginx before the front: its
  header names the client, as uvicorn believes it from loopback); the processes listen on
  loopback ports and believe the front's header.
- A plain HTTP request is sent with ``Connection: close``: each request is routed on its
  own.
- A process that does not answer (it died) is skipped for the next one, and started again
  (`_supervise`); a page reconnecting meanwhile lands on the next process and is asked to
  try again, and the restarted process takes its tables back at once (its own leases). Were
  it not to come back, the other processes take its tables over once their leases run out
  (`tapete.web.store.Store.hold`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import signal
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..core.errors import TapeteError
from .guards import Limits
from .routing import owner, table_of_target, worker_of_target

log = logging.getLogger("tapete.web")

MAX_HEAD = 64 * 1024  # bytes of a request's head (uvicorn's own limit is lower; beyond it the front closes)
CHUNK = 64 * 1024
TRUSTED = ("127.0.0.1", "::1")  # peers whose X-Forwarded-For is believed (uvicorn's default, forwarded_allow_ips)
DROPPED = (b"x-forwarded-for", b"connection", b"forwarded")  # headers the front writes itself (or drops)


HANDOVER = sys.platform == "linux" and hasattr(socket, "send_fds")  # descriptors pass over Unix sockets


def channel_name(front: int, index: int) -> str:
    """The abstract Unix socket (Linux: no file, gone with its process) where process ``index`` of the front
    with process id ``front`` takes the connections handed over to it."""
    return f"\0tapete-serve-{front}-{index}"


def default_workers() -> int:
    """The number of cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def free_loopback_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Front:
    """The routing front over the processes listening on ``ports`` (process i on ports[i])."""

    def __init__(self, ports: Sequence[int], header_timeout: float, channels: Sequence[str] = ()):
        """``channels``: each process's Unix socket for handed-over connections (`channel_name`); none: copy."""
        self.ports = list(ports)
        self.header_timeout = header_timeout
        self._turn = itertools.cycle(range(len(self.ports)))
        self.channels = list(channels)
        self._open: dict[int, socket.socket] = {}  # process -> the front's connected channel to it
        self.handed = 0  # connections handed over (the tests and the bench read it)

    def choose(self, method: str, target: str, client: str) -> int:
        asked = worker_of_target(target, len(self.ports))
        if asked is not None:
            return asked
        table = table_of_target(target)
        if table:
            return owner(table, len(self.ports))
        if method == "POST" and target.split("?")[0] == "/api/tables":
            return owner(client, len(self.ports))
        return next(self._turn)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One connection, routed; at the server's stop its open connections are closed quietly.

        asyncio's streams (CPython 3.11) log a connection task ended by cancellation as an error with
        its traceback, so a stop (Ctrl-C, SIGTERM) while pages are open would print one per page."""
        try:
            await self._route(reader, writer)
        except asyncio.CancelledError:
            writer.close()

    async def _route(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        client = str(peer[0]) if peer else ""
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), self.header_timeout)
        except (asyncio.TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, OSError):
            writer.close()
            return
        lines = head[:-4].split(b"\r\n")
        try:
            method, target, _ = lines[0].decode("latin-1").split(" ", 2)
        except ValueError:
            writer.close()
            return
        if client in TRUSTED:  # a reverse proxy on this machine (nginx) names the client, as uvicorn believes it
            for h in lines[1:]:
                name, _, value = h.partition(b":")
                if name.strip().lower() == b"x-forwarded-for" and value.strip():
                    client = value.decode("latin-1").split(",")[-1].strip()
        headers = [h for h in lines[1:] if h.split(b":", 1)[0].strip().lower() not in DROPPED]
        upgrade = any(h.split(b":", 1)[0].strip().lower() == b"upgrade" for h in headers)
        headers.append(b"Connection: Upgrade" if upgrade else b"Connection: close")
        headers.append(b"X-Forwarded-For: " + client.encode("latin-1"))
        out = b"\r\n".join([lines[0], *headers]) + b"\r\n\r\n"
        first = self.choose(method, target, client)
        if upgrade and self.channels:
            transport: Any = writer.transport  # a socket transport: it reads as well as writes
            transport.pause_reading()  # what follows the head stays in the socket, for the process to read
            pending = bytes(getattr(reader, "_buffer", b""))  # read with the head already (a client that did not wait)
            if self._hand_over(first, writer, out + pending):
                self.handed += 1
                transport.abort()  # the front's copy of the descriptor; the process holds its own
                return
            transport.resume_reading()  # its channel is not up (starting, or gone): copied, as below
        upstream = await self._connect(first)
        if upstream is None:
            writer.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            with contextlib.suppress(Exception):
                await writer.drain()
            writer.close()
            return
        up_reader, up_writer = upstream
        up_writer.write(out)
        await asyncio.gather(_copy(reader, up_writer), _copy(up_reader, writer))

    def _hand_over(self, index: int, writer: asyncio.StreamWriter, head: bytes) -> bool:
        """Pass the client's connection, with the head already read, to process ``index``; False if its channel
        is down or full (a process starting, dying or stalled: the connection is then copied, `_connect`).
        Never waits: the channel does not block, so a stalled process cannot hold the front up."""
        sock = writer.get_extra_info("socket")
        if sock is None:
            return False
        for _ in range(2):  # a channel cached from before the process started again is refused once
            channel = self._open.get(index)
            try:
                if channel is None:
                    channel = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
                    channel.setblocking(False)
                    self._open[index] = channel
                    channel.connect(self.channels[index])
                socket.send_fds(channel, [head], [sock.fileno()])
                return True
            except OSError:
                dropped = self._open.pop(index, None)
                if dropped is not None:
                    dropped.close()
        return False

    async def _connect(self, first: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        """The connection to process ``first``, or to the next one that answers if it does not."""
        n = len(self.ports)
        for i in range(n):
            with contextlib.suppress(OSError):
                return await asyncio.open_connection("127.0.0.1", self.ports[(first + i) % n])
        return None


async def _copy(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
    try:
        while True:
            data = await src.read(CHUNK)
            if not data:
                break
            dst.write(data)
            await dst.drain()
    except (OSError, asyncio.IncompleteReadError):
        pass
    finally:
        with contextlib.suppress(Exception):
            dst.close()


def _worker(
    index: int,
    workers: int,
    port: int,
    db: Path | str,
    limits: Limits,
    loopback: bool,
    holder: str,
    rules_text: Callable[..., Any] | None,
    channel: str = "",
) -> None:
    """One server process: the application of `tapete.web.app.make_app`, on a loopback port, behind the front;
    ``channel`` names the Unix socket where it takes the connections the front hands over (`Front`)."""
    import uvicorn

    from .app import process_app, uvicorn_options

    app = process_app(db, rules_text, limits, loopback, f"{holder}/{index}", (index, workers))
    options = uvicorn_options(limits) | {"proxy_headers": True, "forwarded_allow_ips": "127.0.0.1"}
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, **options))

    async def main() -> None:
        serving = asyncio.create_task(server.serve())
        while not server.started and not serving.done():
            await asyncio.sleep(0.01)
        if server.started and channel:
            _take_handed(server, channel)
        await serving

    asyncio.run(main())


def _take_handed(server: Any, name: str) -> None:
    """Serve the connections the front hands over on the Unix socket ``name`` as if uvicorn had accepted them.

    Each message is the head of the request the front read, with the client's connection as its
    descriptor; the connection gets uvicorn's own protocol (the same guards, the same WebSocket
    upgrade), which reads the head first and then the socket."""
    loop = asyncio.get_running_loop()
    config = server.config
    front = os.getppid()

    class Handed(config.http_protocol_class):  # type: ignore[name-defined,misc]
        head = b""

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self.data_received(self.head)

    def make(head: bytes) -> asyncio.Protocol:
        protocol = Handed(config=config, server_state=server.server_state, app_state=server.lifespan.state, _loop=loop)
        protocol.head = head
        return protocol

    async def adopt(fd: int, head: bytes) -> None:
        sock = socket.socket(fileno=fd)
        try:
            await loop.connect_accepted_socket(lambda: make(head), sock)
        except OSError:  # the client went away meanwhile
            sock.close()

    def receive(conn: socket.socket) -> None:
        try:
            head, fds, _, _ = socket.recv_fds(conn, MAX_HEAD + CHUNK, 4)
        except BlockingIOError:
            return
        except OSError:
            head, fds = b"", []
        if not head and not fds:  # the front closed its end
            loop.remove_reader(conn)
            conn.close()
            return
        for fd in fds[:1]:
            loop.create_task(adopt(fd, head))
        for fd in fds[1:]:  # one connection a message: anything more is not the front's
            os.close(fd)

    def accept() -> None:
        with contextlib.suppress(BlockingIOError):
            conn, _ = listener.accept()
            creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
            pid, _, _ = struct.unpack("3i", creds)
            if pid != front:  # only the front hands connections over (an abstract name is open to the machine)
                conn.close()
                return
            conn.setblocking(False)
            loop.add_reader(conn, receive, conn)

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(name)
    listener.listen(16)
    listener.setblocking(False)
    loop.add_reader(listener, accept)


def _exit_with_parent(parent: int) -> None:
    """A process whose front was killed (kill -9: no clean-up ran there) ends too, within a second."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def _wait_ready(ports: Sequence[int], procs: Sequence[Any], seconds: float = 120.0) -> None:
    """Until every process accepts connections (the front opens its port only then); a process that died is an error."""
    deadline = time.monotonic() + seconds
    for port, proc in zip(ports, procs, strict=True):
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if not proc.is_alive():
                    raise TapeteError(f"tapete serve: server process {proc.name} stopped as it started") from None
                if time.monotonic() > deadline:
                    raise TapeteError(f"tapete serve: server process {proc.name} did not start") from None
                time.sleep(0.05)


def run(
    host: str,
    port: int,
    workers: int,
    db: Path | str,
    limits: Limits,
    loopback: bool,
    rules_text: Callable[..., Any] | None,
    ready: Callable[[], None] | None = None,
) -> None:
    """Start ``workers`` server processes and the front before them; until interrupted (then all stop).

    ``ready`` is called once every process is up, before the front listens."""
    ctx = multiprocessing.get_context("spawn")  # a fresh interpreter each: no event loop or thread inherited
    ports = [free_loopback_port() for _ in range(workers)]
    holder = f"{socket.gethostname()}:{port}"
    channels = [channel_name(os.getpid(), i) for i in range(workers)] if HANDOVER else []

    def make(i: int) -> Any:
        return ctx.Process(
            target=_worker,
            args=(i, workers, ports[i], db, limits, loopback, holder, rules_text, channels[i] if channels else ""),
            name=f"tapete-serve-{i}",
            daemon=True,
        )

    procs = [make(i) for i in range(workers)]
    front = Front(ports, limits.header_timeout, channels)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        server = await asyncio.start_server(front.handle, host, port, limit=MAX_HEAD)
        watch = asyncio.create_task(_supervise(procs, make, stop))
        async with server:
            await stop.wait()
        watch.cancel()

    try:
        for p in procs:
            p.start()
        _wait_ready(ports, procs)
        if ready is not None:
            ready()
        asyncio.run(main())
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.join(10)


RESTART_FIRST = 1.0  # seconds before a process that ended is started again; doubled each time it ends soon after
RESTART_MOST = 60.0
RESTART_STEADY = 60.0  # a process that has run this long is well again: its next end waits RESTART_FIRST


async def _supervise(procs: list[Any], make: Callable[[int], Any], stop: asyncio.Event) -> None:
    """Start again a server process that ended (a crash, the out-of-memory killer, ``kill -9``).

    It comes back on its port under its name, so the front routes its tables to it again and
    its leases are its own at once (`tapete.web.store.Store.hold`): a page reconnecting in
    the meantime was sent to the next process and asked to try again. One that keeps
    ending waits longer each time, up to a minute, so a process that cannot start does not
    make the machine spin; each end is logged with its exit code."""
    wait = [RESTART_FIRST] * len(procs)
    due: list[float | None] = [None] * len(procs)
    began = [time.monotonic()] * len(procs)
    while not stop.is_set():
        now = time.monotonic()
        for i, proc in enumerate(procs):
            if proc.is_alive():
                if now - began[i] > RESTART_STEADY:
                    wait[i] = RESTART_FIRST
                continue
            when = due[i]
            if when is None:
                due[i] = now + wait[i]
                log.warning(
                    "server process %d ended (exit code %s); starting it again in %g s", i, proc.exitcode, wait[i]
                )
            elif now >= when:
                procs[i] = make(i)
                procs[i].start()
                began[i], due[i] = now, None
                wait[i] = min(wait[i] * 2, RESTART_MOST)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.25)
