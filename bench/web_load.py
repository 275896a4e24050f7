"""Load on `tapete serve`: N tables at once, bots and simulated people over real sockets.

The server runs as its own process on a free loopback port (as a host runs it) with a
fresh database. This script opens N tables; at each one person's seat is played by a
simulated page (a WebSocket client that thinks ``--think`` seconds, then sends a legal
move) and the other seats by bots that wait ``--pace`` seconds before each move; a
spectator page per table (``--spectators``) receives every update too. Every page speaks
WebSocket over a bare socket (`Page`): at a thousand tables a general client library took
half a core of the two the server needs. Once every
table is open (``opening_s``), and after a further warm-up, it measures for ``--seconds``:

- moves/s: every step the server stored, over all tables (bots, people, next deals);
- the round trip of a person's move, as the person meets it: from sending the move to
  having both its acknowledgement (stored, applied) and the table at the new position
  (``rtt_*``: median, 99th percentile, worst); the acknowledgement alone is ``ack_*``; a move
  sent while measuring and still without its round trip a second before the end is counted
  in ``person_moves_unanswered`` (a page waits as long as it takes: none is given up on);
- the server process's CPU time per stored move and its share of one core, read from
  ``/proc``: what the server costs, whatever else the machine is doing;
- the machine while it ran: the 1-minute load average (median and highest of one sample
  a second), and how many cores everything else but the server and this script kept busy
  (from ``/proc/stat``): with 2 cores, a load above 2 means the server waited for a core;
- this script's own CPU share and how late its event loop woke (``client_lag_p99_ms``):
  a late client makes round trips look longer than the server made them;
- how long the server's event loop was ready to run but waited for a core (``/proc/PID/schedstat``,
  ms per second): on a busy machine, a wait every page meets whatever the server costs;
- how much of this machine's cores the host gave to others (``host_took_cores``, the ``steal``
  of ``/proc/stat``), and the machine's speed before and after the run (``machine_reference_ms``,
  `bench/machine_speed.py`: the CPU time of a fixed piece of plain Python, lower is faster): a
  virtual machine's speed changes from minute to minute, and the server's CPU per move with it;
- with ``--breakdown``, where each stored move's server CPU went (``tapete.web.timing``), the
  collector's pauses by generation (wall and CPU time) and the server loop's own lateness;
- memory per table: the server's resident memory with the tables open, less its memory
  before they were opened, divided by N.

With ``--saturate`` every seat is a bot and each spectator page is read at the least cost to
this script (the frames are walked, nothing parsed), so that the
bots' ``--pace`` can ask more moves than the server can play: ``moves_per_s`` is then what the
server plays at most, and ``--workers 1,2`` its scaling ratio, with this script taking little
of the cores the server's processes share (the round-trip figures are empty: nobody moves).

A table whose match ends is replaced by a new one, so N stay in play. ``--tables`` takes a
list (``10,50,100,200``) and ``--runs`` repeats each size on a fresh server, the sizes
taken in turn within each round so that the machine's changing load falls on all of them;
with more than one run or size the output has every run and the median of each figure
per size (``--markdown`` also prints the medians as the rows of bench/README.md's table).
Prints JSON. ``--check`` exits 1 when a p99 round trip is above ``--p99-goal`` ms (used by
the test suite's small run, which asserts nothing about time itself).

    python bench/web_load.py --tables 200 --seconds 60
    python bench/web_load.py --tables 10,50,100,200 --runs 3 --seconds 60 --warmup 15 --markdown
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from machine_speed import reference_ms_apart  # bench/ is on the path

from tapete.web.routing import table_of_token

try:  # the web extra's JSON reader, several times the standard library's speed; either gives the same values
    from orjson import loads as parse
except ImportError:
    parse = json.loads

TIMEOUT = 30.0
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process ``pid`` and all its threads so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14 and 15 of stat)


def server_pids(pid: int) -> list[int]:
    """The server: ``tapete serve``'s process and, under ``--workers``, its server processes (its children)."""
    found = [pid]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def tree_cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            total += cpu_seconds(pid)
        except OSError:
            pass
    return total


def waited_for_core(pid: int) -> float:
    """Seconds the process's main thread (the event loop) has so far spent ready to run but waiting for a core.

    From ``/proc/PID/schedstat`` (its second field, in nanoseconds); 0 where the kernel does not keep it."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def machine_jiffies() -> tuple[int, int, int]:
    """(busy, total, steal) CPU time of the whole machine so far, in clock ticks, from /proc/stat.

    ``steal`` is the time the host ran something else while this machine's cores wanted to run:
    it is not counted as busy (no process here used it)."""
    first = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    ticks = [int(x) for x in first]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle + iowait
    steal = ticks[7] if len(ticks) > 7 else 0
    total = sum(ticks[:8])  # guest time is already counted in user
    return total - idle - steal, total, steal


def post(url: str, body: Any) -> Any:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
        return json.loads(resp.read())


def ms_at(sorted_values: list[float], q: float) -> float | None:
    """The ``q`` quantile in milliseconds, or None when there is none (nobody moved: ``--saturate``)."""
    return round(quantile(sorted_values, q) * 1000, 2) if sorted_values else None


def quantile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    if len(sorted_values) == 1:
        return sorted_values[0]
    return statistics.quantiles(sorted_values, n=100, method="inclusive")[round(q * 100) - 1]


def post_from(url: str, body: Any, source: str) -> Any:
    """POST from the loopback address ``source``: the tables come from several clients, as a front shares them out."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=TIMEOUT, source_address=(source, 0))
    try:
        conn.request("POST", parts.path, json.dumps(body), {"Content-Type": "application/json"})
        resp = conn.getresponse()
        return json.loads(resp.read())
    finally:
        conn.close()


SOURCES = [f"127.0.0.{i}" for i in range(1, 9)]  # the clients' addresses (Linux routes all of 127/8 to loopback)


class Load:
    def __init__(self, args: argparse.Namespace, base: str, tables: int):
        self.args, self.base, self.tables = args, base, tables
        self.rtts: list[float] = []  # send -> ack and the new position both received
        self.acks: list[float] = []  # send -> ack
        self.lags: list[float] = []  # how late this script's loop woke from a 10 ms sleep
        self.measuring = False
        self.window = (0.0, 0.0)  # when the measuring began and ended (perf_counter), once it has ended
        self.unanswered = 0  # people's moves sent while measuring, still without their round trip a second after
        self.stop = False
        self.matches_done = 0  # matches that ended (or broke) while the load ran: their tables were replaced
        self.broken = 0
        self.lost = 0  # pages the server closed while the load ran (unanswered pings would do it)
        self.opened = 0  # tables whose person has been shown the table once
        self.all_open = asyncio.Event()
        self.errors: list[str] = []

    def form(self, k: int) -> dict[str, Any]:
        a = self.args
        bot = {"kind": "bot", "bot": a.bot}
        seats = [bot if a.saturate else {"kind": "person"}] + [bot] * (a.players - 1)
        return {
            "variant": a.variant,
            "players": a.players,
            "seats": seats,
            "options": dict(o.split("=", 1) for o in a.option),
            "pace": a.pace,
            "away_after": 0,
        }

    async def table(self, k: int) -> None:
        """Keeps one table in play: a person's page and a spectator's; a new table when a match ends."""
        rng = random.Random(k)
        while not self.stop:
            made = await asyncio.to_thread(
                post_from, self.base + "/api/tables", self.form(k), SOURCES[k % len(SOURCES)]
            )
            leads = self.args.saturate  # every seat a bot: the first spectator stands for the table
            watchers = [
                asyncio.create_task(self.watch(made["spectator"], leads=leads and i == 0))
                for i in range(self.args.spectators)
            ]
            try:
                if leads:
                    await watchers[0]  # until the match ends (a new table then) or the run does
                else:
                    await self.person(made["seats"][0]["link"], rng)
            finally:
                for w in watchers:
                    w.cancel()

    async def watch(self, link: str, leads: bool = False) -> None:
        """A spectator's page: its frames are walked and dropped, unread; it returns when its table's match
        ends or the server closes it. The page that ``leads`` (``--saturate``, where nobody plays) stands for
        its table: it counts the table open, and its match's end."""
        page = await Page.open(self.base, link)
        counted = not leads  # the leading page counts its table open, at its first frame
        try:
            async for payload in page.texts(self):
                if not counted:
                    counted = True
                    self.count_open()
                if b'"phase":"match-over"' in payload or b'"phase":"broken"' in payload:
                    if leads:
                        self.matches_done += 1
                        self.broken += b'"phase":"broken"' in payload
                    return
        finally:
            page.close()

    def count_open(self) -> None:
        self.opened += 1
        if self.opened >= self.tables:
            self.all_open.set()

    async def person(self, link: str, rng: random.Random) -> None:
        """A page that keeps the table as the server sends it (whole, or changed keys) and plays it."""
        page = await Page.open(self.base, link)
        first = True
        acted = -1
        pending: dict[int, list[float]] = {}  # seq -> [sent at, ack at]
        state: dict[str, Any] = {}
        try:
            async for payload in page.texts(self):
                msg = parse(payload)
                kind = msg["type"]
                if kind == "ack":
                    got = pending.get(msg["seq"])
                    if got is not None:
                        got[1] = time.perf_counter()
                    continue
                if kind in ("error", "refused"):
                    self.errors.append(msg["message"])
                    continue
                if kind == "state":
                    state = msg
                elif kind == "change":
                    merge(state, msg)
                else:
                    continue
                if first:
                    first = False
                    self.count_open()
                seq = state["seq"]
                now = time.perf_counter()
                for s in [s for s in pending if s < seq]:
                    sent, acked = pending.pop(s)
                    if acked and self.measuring:
                        self.acks.append(acked - sent)
                        self.rtts.append(now - sent)
                if state["phase"] in ("match-over", "broken"):
                    self.matches_done += 1
                    self.broken += state["phase"] == "broken"
                    return
                if seq <= acted:
                    continue
                me = state["seats"][0]
                if state["phase"] == "deal-over" and not me["ready"]:
                    acted = seq
                    page.send({"type": "next", "seq": seq})
                elif state["moves"]:
                    acted = seq
                    await asyncio.sleep(self.args.think * rng.uniform(0.5, 1.5))
                    move = rng.choice(state["moves"])["text"]
                    pending[seq] = [time.perf_counter(), 0.0]
                    page.send({"type": "move", "seq": seq, "move": move})
        finally:
            page.close()
            began, ended = self.window
            self.unanswered += sum(1 for sent, _ in pending.values() if began <= sent < ended - 1.0)

    async def lag(self) -> None:
        while not self.stop:
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            if self.measuring:
                self.lags.append(time.perf_counter() - t - 0.01)


class Page:
    """A page's WebSocket, spoken over a bare socket: the handshake, the client's masked frames, and
    the server's frames walked as they come (pings answered, fragments joined, nothing decoded).

    The pages are most of this script's work at a thousand tables, and a general client library
    costs several times this for each frame; the cores this script does not take are the server's."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, base: str, link: str) -> Page:
        """The page of ``link`` (a seat's or a spectator's), upgraded and greeted with its token."""
        token, route = page_route(link)
        where = urllib.parse.urlsplit(base)
        reader, writer = await asyncio.open_connection(where.hostname, where.port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            f"GET /ws{route} HTTP/1.1\r\nHost: {where.netloc}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
            if not head.startswith(b"HTTP/1.1 101"):
                raise RuntimeError(f"the server refused a page: {head[:60]!r}")
        except BaseException:
            writer.close()
            raise
        page = cls(reader, writer)
        page.send({"type": "hello", "token": token})
        return page

    def send(self, msg: Any) -> None:
        self.writer.write(client_frame(0x1, json.dumps(msg).encode()))

    async def texts(self, load: Load) -> AsyncIterator[bytes]:
        """Each text message the server sends, as bytes, until it closes the page or ``load`` stops
        (a close the run did not ask for counts in ``load.lost``)."""
        buf, parts = b"", b""
        while not load.stop:
            data = await self.reader.read(1 << 16)  # no timeout: a move left unanswered is counted instead
            if not data:
                load.lost += not load.stop
                return
            buf += data
            while len(buf) >= 2:  # each whole frame: its opcode and length (a server's frames are not masked)
                fin, op, n, at = buf[0] & 0x80, buf[0] & 0x0F, buf[1] & 0x7F, 2
                if n >= 126:
                    at = 4 if n == 126 else 10
                    if len(buf) < at:
                        break
                    n = int.from_bytes(buf[2:at], "big")
                if len(buf) < at + n:
                    break
                payload, buf = buf[at : at + n], buf[at + n :]
                if op == 0x9:  # a ping: the pong, or the server closes the page
                    self.writer.write(client_frame(0xA, payload))
                elif op == 0x8:
                    load.lost += not load.stop
                    return
                elif op in (0x0, 0x1):
                    parts += payload
                    if fin:
                        text, parts = parts, b""
                        yield text

    def close(self) -> None:
        self.writer.close()


def page_route(link: str) -> tuple[str, str]:
    """A seat's or spectator's link: its token, and the query the page opens ``/ws`` with (naming its table)."""
    token = link.split("#", 1)[1]
    table = table_of_token(token)
    return token, f"?table={table}" if table else ""


def client_frame(opcode: int, payload: bytes) -> bytes:
    """A client's WebSocket frame, whole and masked, as a client's must be (by zeros: the payload unchanged)."""
    n = len(payload)
    if n < 126:
        size = bytes([0x80 | n])
    elif n < 1 << 16:
        size = bytes([0x80 | 126]) + n.to_bytes(2, "big")
    else:
        size = bytes([0x80 | 127]) + n.to_bytes(8, "big")
    return bytes([0x80 | opcode]) + size + b"\0\0\0\0" + payload


def merge(state: dict[str, Any], change: dict[str, Any]) -> None:
    """The table a page holds, changed in place: its keys replaced, then the items of its patched lists
    (the page's own copy, parsed from the frames it was sent: nothing else holds it)."""
    patch = change.pop("patch", None)
    state.update(change)
    state["type"] = "state"
    if patch:
        for key, items in patch.items():
            held = state[key]
            for i, item in items.items():
                held[int(i)] = item


def stored_steps(db: Path | str) -> int:
    if isinstance(db, str):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            row = conn.execute("SELECT COUNT(*) FROM steps").fetchone()
            return int(row[0]) if row else 0
    import sqlite3

    with sqlite3.connect(db) as con:
        return int(con.execute("SELECT COUNT(*) FROM steps").fetchone()[0])


async def measure(
    args: argparse.Namespace, tables: int, base: str, front: int, db: Path | str, workers: int, store: str
) -> dict[str, Any]:
    load = Load(args, base, tables)
    pids = server_pids(front)

    def rss() -> int:
        return sum(rss_kib(p) for p in pids)

    def waited() -> float:
        return sum(waited_for_core(p) for p in pids)

    pid = front
    before = rss()
    started = time.perf_counter()
    tasks = [asyncio.create_task(load.table(k)) for k in range(tables)]
    tasks.append(asyncio.create_task(load.lag()))
    await asyncio.wait_for(load.all_open.wait(), max(TIMEOUT * 10, tables * 0.9))  # a busy machine opens slowly
    opened_in = time.perf_counter() - started
    await asyncio.sleep(args.warmup)
    open_rss = rss()
    load.measuring = True
    loads: list[float] = []
    if args.breakdown:
        await asyncio.to_thread(timers, base, True, workers)
    steps0, t0 = stored_steps(db), time.perf_counter()
    server0, client0, machine0 = tree_cpu_seconds(pids), time.process_time(), machine_jiffies()
    waited0 = waited()
    end = t0 + args.seconds
    while (left := end - time.perf_counter()) > 0:
        loads.append(os.getloadavg()[0])
        await asyncio.sleep(min(1.0, left))
    steps1, t1 = stored_steps(db), time.perf_counter()
    load.window = (t0, t1)
    server1, client1, machine1 = tree_cpu_seconds(pids), time.process_time(), machine_jiffies()
    waited1 = waited()
    loads.append(os.getloadavg()[0])
    parts = await asyncio.to_thread(timers, base, False, workers) if args.breakdown else None
    load.measuring = False
    peak = rss()
    del pid
    load.stop = True
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    wall = t1 - t0
    moves = steps1 - steps0
    server_cpu, client_cpu = server1 - server0, client1 - client0
    busy = (machine1[0] - machine0[0]) / TICK
    stolen = (machine1[2] - machine0[2]) / TICK
    rtts, acks, lags = sorted(load.rtts), sorted(load.acks), sorted(load.lags)
    out = {
        "tables": tables,
        "workers": workers,
        "store": store,
        "variant": args.variant,
        "players": args.players,
        "bots": args.bot,
        "pace_s": args.pace,
        "think_s": args.think,
        "spectators_per_table": args.spectators,
        "saturate": args.saturate,
        "seconds": round(wall, 1),
        "opening_s": round(opened_in, 1),
        "moves_per_s": round(moves / wall, 1),
        "person_moves_measured": len(rtts),
        "person_moves_unanswered": load.unanswered,  # sent while measuring, no round trip a second before its end
        "rtt_p50_ms": ms_at(rtts, 0.50),
        "rtt_p99_ms": ms_at(rtts, 0.99),
        "rtt_max_ms": round(rtts[-1] * 1000, 2) if rtts else None,
        "ack_p50_ms": ms_at(acks, 0.50),
        "ack_p99_ms": ms_at(acks, 0.99),
        "server_cpu_ms_per_move": round(server_cpu / moves * 1000, 3) if moves else None,
        "server_core_share": round(server_cpu / wall, 3),
        "client_core_share": round(client_cpu / wall, 3),
        "client_lag_p99_ms": ms_at(lags, 0.99),
        "load_avg_median": round(statistics.median(loads), 2),
        "load_avg_max": round(max(loads), 2),
        "other_busy_cores": round(max(0.0, busy - server_cpu - client_cpu) / wall, 2),
        "host_took_cores": round(stolen / wall, 3),  # steal: the host running others on this machine's cores
        "server_waited_for_core_ms_per_s": round((waited1 - waited0) / wall * 1000, 1),
        "cores": os.cpu_count(),
        "server_rss_mib": round(peak / 1024, 1),
        "memory_per_table_kib": round((open_rss - before) / tables, 1),
        "matches_finished": load.matches_done,
        "tables_broken": load.broken,
        "refusals": len(load.errors),
        "pages_lost": load.lost,
    }
    if parts is not None:
        out["breakdown"] = breakdown(parts, server_cpu, moves)
    return out


def timers(base: str, reset: bool, workers: int = 1) -> Any:
    """The server's timers (tapete.web.timing) since they were last reset; ``reset`` starts them again.

    With several processes, each is asked (``?worker=i``: the front sends it there) and their
    CPU, calls and steps are added up; the loop's lag is the worst process's."""

    def one(i: int) -> Any:
        query = "&".join(q for q in (f"worker={i}" if workers > 1 else "", "reset=1" if reset else "") if q)
        url = base + "/api/debug/timers" + (f"?{query}" if query else "")
        with urllib.request.urlopen(url, timeout=TIMEOUT) as r:
            return json.loads(r.read())

    each = [one(i) for i in range(workers)]
    if workers == 1:
        return each[0]
    out = dict(each[0])
    out["steps"] = sum(e["steps"] for e in each)
    out["gc_cpu_ms"] = round(sum(e["gc_cpu_ms"] for e in each), 3)
    for key in ("cpu_ms", "calls"):
        out[key] = {k: round(sum(e[key].get(k, 0) for e in each), 3) for k in sorted({k for e in each for k in e[key]})}
    out["lag_ms"] = {k: max(e["lag_ms"][k] for e in each) for k in each[0]["lag_ms"]}
    out["gc"] = {
        g: {
            "pauses": sum(e["gc"][g]["pauses"] for e in each),
            "total_ms": round(sum(e["gc"][g]["total_ms"] for e in each), 3),
            "max_ms": max(e["gc"][g]["max_ms"] for e in each),
        }
        for g in each[0]["gc"]
    }
    if "collector" in each[0]:
        out["collector"] = {k: round(sum(e["collector"][k] for e in each), 3) for k in each[0]["collector"]}
    return out


TOP_PARTS = ("parse", "check", "apply", "broadcast", "send", "store_loop", "bots_loop")  # on the loop, not nested


def breakdown(parts: dict[str, Any], server_cpu: float, moves: int) -> dict[str, Any]:
    """Where a move's server CPU went: each timed part's milliseconds per stored move, and what is left.

    ``rest`` is the process's CPU per move less the loop's timed parts and the threads' work:
    uvicorn's and the WebSocket library's framing and reading, asyncio's own scheduling,
    the lobby's requests, and the timers themselves."""
    steps = max(1, moves)
    cpu = parts["cpu_ms"]
    per_move = {k: round(v / steps, 4) for k, v in cpu.items()}
    timed = sum(cpu.get(k, 0.0) for k in TOP_PARTS) + cpu.get("store_thread", 0.0) + cpu.get("bots_threads", 0.0)
    return {
        "loop": parts.get("loop", "?"),  # the server's event loop (uvicorn takes uvloop where it is installed)
        "ms_per_move": per_move,
        "rest_ms_per_move": round((server_cpu * 1000 - timed) / steps, 4),
        "gc_pauses": {g: p["pauses"] for g, p in parts["gc"].items()},  # by generation: 0, 1, 2 (full)
        "gc_ms_per_move": round(sum(p["total_ms"] for p in parts["gc"].values()) / steps, 4),
        "gc_cpu_ms_per_move": round(parts["gc_cpu_ms"] / steps, 4),
        "gc_max_ms": {g: p["max_ms"] for g, p in parts["gc"].items()},
        # the server's full walks (tapete.web.collector) since it started; those in the window are gc_pauses' 2s
        "full_walks_since_start": parts.get("collector"),
        "server_lag_ms": parts["lag_ms"],
        "calls_per_move": {k: round(v / steps, 2) for k, v in parts["calls"].items()},
    }


def fresh_database(admin: str, n: int) -> str:
    """A new, empty PostgreSQL database on the server of ``admin`` (a URL whose user may create databases)."""
    import psycopg

    name = f"tapete_bench_{os.getpid()}_{n}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    parts = urllib.parse.urlsplit(admin)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


RUNS = iter(range(1_000_000))


def one_run(args: argparse.Namespace, tables: int, workers: int = 1, store: str = "sqlite") -> dict[str, Any]:
    """A fresh server (``workers`` processes) and database, ``tables`` tables, one measurement."""
    speed_before = reference_ms_apart()  # the machine's speed now, before the server starts (bench/machine_speed.py)
    with tempfile.TemporaryDirectory() as tmp:
        db: Path | str = Path(tmp) / "load.db"
        if store == "postgres":
            if not args.postgres:
                raise SystemExit(
                    "--store postgres needs --postgres URL (a server where this user may create databases)"
                )
            db = fresh_database(args.postgres, next(RUNS))
        port = free_port()
        cmd = [sys.executable, "-m", "tapete", "serve", "--port", str(port), "--db", str(db), "--workers", str(workers)]
        cmd += ["--max-tables-per-client", "100000", "--create-rate", "100000"]  # every table opens from here
        env = {**os.environ, "TAPETE_WEB_TIMERS": "1"} if args.breakdown else None  # tapete.web.timing
        server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + TIMEOUT
            while True:
                try:
                    urllib.request.urlopen(base + "/", timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.05)
            out = asyncio.run(measure(args, tables, base, server.pid, db, workers, store))
        finally:
            server.terminate()
            try:
                server.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                server.kill()
    # The same yardstick after the server stopped: a figure is read with the machine's speed around it.
    out["machine_reference_ms"] = [speed_before, reference_ms_apart()]
    return out


MEDIANS = (
    "moves_per_s",
    "person_moves_measured",
    "person_moves_unanswered",
    "rtt_p50_ms",
    "rtt_p99_ms",
    "rtt_max_ms",
    "ack_p50_ms",
    "ack_p99_ms",
    "server_cpu_ms_per_move",
    "server_core_share",
    "client_core_share",
    "client_lag_p99_ms",
    "load_avg_median",
    "load_avg_max",
    "other_busy_cores",
    "host_took_cores",
    "server_waited_for_core_ms_per_s",
    "server_rss_mib",
    "memory_per_table_kib",
)


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    first = runs[0]
    out: dict[str, Any] = {"tables": first["tables"], "workers": first["workers"], "store": first["store"]}
    out["runs"] = len(runs)
    for key in MEDIANS:
        values = [r[key] for r in runs if r.get(key) is not None]
        out[key] = round(statistics.median(values), 3) if values else None
    out["rtt_p99_ms_each_run"] = [r["rtt_p99_ms"] for r in runs]
    out["machine_reference_ms"] = round(statistics.median(x for r in runs for x in r["machine_reference_ms"]), 2)
    return out


def scaling(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each size and store's moves/s with more workers over one worker's: the scaling ratio.

    Meaningful where one process is saturated (its core share near 1, its p99 far above the goal):
    below that, the paced load plays the same moves whatever the server, and the ratio is about 1."""
    out = []
    for r in rows:
        one = next((o for o in rows if (o["tables"], o["store"], o["workers"]) == (r["tables"], r["store"], 1)), None)
        if one is not None and r["workers"] > 1 and one["moves_per_s"]:
            out.append(
                {
                    "tables": r["tables"],
                    "store": r["store"],
                    "workers": r["workers"],
                    "moves_per_s_ratio": round(r["moves_per_s"] / one["moves_per_s"], 2),
                    "rtt_p99_ms": [one["rtt_p99_ms"], r["rtt_p99_ms"]],
                }
            )
    return out


def markdown(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| tables | workers | store | runs | machine reference | host took | load average | others' cores "
        "| server waited for a core | moves/s | server CPU per move | server core share | p50 round trip "
        "| p99 round trip (each run) | client lag p99 | memory per table |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        each = ", ".join("-" if x is None else f"{x:g}" for x in r["rtt_p99_ms_each_run"])
        p50, p99, lag = (_ms(r[k]) for k in ("rtt_p50_ms", "rtt_p99_ms", "client_lag_p99_ms"))
        lines.append(
            f"| {r['tables']} | {r['workers']} | {r['store']} | {r['runs']} "
            f"| {r['machine_reference_ms']:g} ms | {r['host_took_cores']:g} "
            f"| {r['load_avg_median']:g} | {r['other_busy_cores']:g} "
            f"| {r['server_waited_for_core_ms_per_s']:g} ms/s "
            f"| {r['moves_per_s']:g} | {r['server_cpu_ms_per_move']:g} ms | {r['server_core_share']:.0%} "
            f"| {p50} | **{p99}** ({each}) | {lag} "
            f"| {r['memory_per_table_kib']:g} KiB |"
        )
    return "\n".join(lines)


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{x:g} ms"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", default="200", help="tables at once; a list (10,50,200) measures each size")
    p.add_argument("--runs", type=int, default=1, help="fresh servers per size; the medians are reported")
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--warmup", type=float, default=10.0)
    p.add_argument("--variant", default="fantan/pagat")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--bot", default="sensible")
    p.add_argument("--option", action="append", default=["wins_to=99"])
    p.add_argument("--pace", type=float, default=0.5, help="seconds a bot waits before each move")
    p.add_argument("--think", type=float, default=1.0, help="seconds a simulated person thinks (x0.5-1.5)")
    p.add_argument("--spectators", type=int, default=1, help="spectator pages per table")
    p.add_argument(
        "--saturate",
        action="store_true",
        help="every seat a bot, the spectators read at the least cost: what the server plays at most (--pace 0.05)",
    )
    p.add_argument("--check", action="store_true", help="exit 1 when a p99 round trip misses the goal")
    p.add_argument("--p99-goal", type=float, default=50.0)
    p.add_argument(
        "--breakdown",
        action="store_true",
        help="time the server's parts of a move (parse, apply, store, views, sending, bots, gc, loop lag)",
    )
    p.add_argument("--markdown", action="store_true", help="also print the medians as a markdown table (stderr)")
    p.add_argument(
        "--workers", default="1", help="server processes (tapete serve --workers); a list (1,2) measures each"
    )
    p.add_argument("--store", default="sqlite", help="sqlite or postgres; a list (sqlite,postgres) measures each")
    p.add_argument(
        "--postgres", default="", help="for --store postgres: a URL of a server where this user may create databases"
    )
    args = p.parse_args()
    sizes = [int(x) for x in str(args.tables).split(",") if x.strip()]
    counts = [int(x) for x in str(args.workers).split(",") if x.strip()]
    stores = [x.strip() for x in str(args.store).split(",") if x.strip()]
    combos = [(n, w, st) for n in sizes for st in stores for w in counts]
    runs: list[dict[str, Any]] = []
    for _ in range(args.runs):
        for n, w, st in combos:
            runs.append(one_run(args, n, w, st))
            print(json.dumps(runs[-1]), file=sys.stderr, flush=True)
    if len(runs) == 1:
        result: dict[str, Any] = runs[0]
        rows = [summary(runs)]
    else:
        rows = [summary([r for r in runs if (r["tables"], r["workers"], r["store"]) == c]) for c in combos]
        result = {"medians": rows, "runs": runs, "scaling": scaling(rows)}
    print(json.dumps(result, indent=1))
    if args.markdown:
        print(markdown(rows), file=sys.stderr)
    if args.check and not all(r["rtt_p99_ms"] is None or r["rtt_p99_ms"] <= args.p99_goal for r in rows):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
