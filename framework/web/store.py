"""The server's one file: every table and every step, in SQLite (the standard library's).

A step is committed here before the table applies it and before anyone is told,
so a server killed at any moment (``kill -9``) comes back with every table where
it was: the steps replay from the match seed to the same position, the same
cards to come. The database runs in WAL mode with ``synchronous=NORMAL``: a
committed step survives the process dying; only the machine losing power can
take back the last few (``durable=True`` syncs every commit, at a cost).

The writes of one turn of the event loop are committed together, in one transaction
(group commit, across tables; `Store.flush`), and each caller's future is resolved
only once its write is in the file, so a step is still stored before it is
acknowledged. Where they are committed is chosen so that a slow disk never holds up
the loop: on the loop itself while that is quick (the file is free at once, the last
such commit took under `QUICK_COMMIT`; in WAL mode with ``synchronous=NORMAL`` a commit
is an append to the log, no sync), which costs no hand-over between threads, and
otherwise, and always for ``durable`` syncs, in a writer thread with its own
connection, which waits for the file while the loop goes on. The loop's connection
never checkpoints the log (the slow part of WAL): the writer thread does, now and
then. Reads (a link token, a table to restore) use the loop's connection; in WAL
mode they never wait for a writer.

Link tokens are not stored, only their SHA-256: a copy of the database lets
nobody sit at a table. Nothing else secret is kept; the match seed is, since it
rebuilds the deals (so the file itself must stay private to whoever runs the
server).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import queue
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

from ..core.errors import TapeteError
from ..core.inputs import DATABASE_URLS
from .dbfile import APPLICATION_ID, SCHEMA_VERSION, check_database
from .tables import Step, TableConfig

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    config TEXT NOT NULL,          -- TableConfig as JSON: variant, options, players, seed, seats, timings
    digest TEXT NOT NULL,          -- the variant files' digest: a changed variant is not replayed blindly
    finished INTEGER NOT NULL DEFAULT 0,
    client TEXT,                   -- sha256 of the address that opened it (the per-client limits), or NULL
    closed TEXT                    -- why the server closed it (nobody came back), or NULL
);
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY,         -- sha256 of the link token; the token itself is never stored
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL          -- a match seat, or -1 for the spectators' link
);
CREATE TABLE IF NOT EXISTS steps (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,          -- the position the step answered: 0, 1, 2, ...
    kind TEXT NOT NULL,            -- 'move' or 'next'
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,
    by TEXT NOT NULL,              -- person, bot, stand-in, clock, table
    rng TEXT,                      -- the moving bot's dice after the move (JSON), to resume it exactly
    at REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,            -- the line's number at its table: 0, 1, 2, ...
    seat INTEGER NOT NULL,         -- the match seat that wrote it
    text TEXT NOT NULL,            -- plain text, at most a line (tapete.web.app.MAX_CHAT characters)
    at REAL NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS leases (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    holder TEXT NOT NULL,          -- the server process that plays the table (its address, or a random name)
    until REAL NOT NULL,           -- wall-clock time the lease ends unless renewed; then another may take it
    wanted TEXT                    -- another process a page of the table reached (it asks for the table), or NULL
);
"""
CHAT_TABLE = SCHEMA[SCHEMA.index("CREATE TABLE IF NOT EXISTS chat") : SCHEMA.index("CREATE TABLE IF NOT EXISTS leases")]
CHAT_TABLE = CHAT_TABLE.rstrip().rstrip(";")
LEASES_TABLE = SCHEMA[SCHEMA.index("CREATE TABLE IF NOT EXISTS leases") :].rstrip().rstrip(";")


UPGRADES = {  # schema version -> the statements that bring a database of that version to the next
    1: ["ALTER TABLE tables ADD COLUMN client TEXT", "ALTER TABLE tables ADD COLUMN closed TEXT", CHAT_TABLE],
    2: [LEASES_TABLE],
}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class StoreFailed(TapeteError):
    """A write the file did not take (the disk is full, another program holds the lock): nothing of it is stored."""


@dataclass
class StoredTable:
    table_id: str
    config: TableConfig
    digest: str
    finished: bool
    steps: list[Step]
    client: str = ""
    closed: str = ""


Sql = tuple[str, Sequence[tuple[Any, ...]]]  # one statement and the rows it is run for


@dataclass(eq=False)
class Write:
    """Statements that must land together, and the loop's future waiting for them (None: nobody waits)."""

    statements: list[Sql]
    future: asyncio.Future[None] | None = None
    error: BaseException | None = field(default=None, repr=False)


class TableStore(Protocol):
    """What the hub asks of its store: the whole interface, so another store (one server process
    among several, on a shared database) can stand behind the same hub. `Store` is SQLite's."""

    async def create(
        self, table_id: str, config: TableConfig, digest: str, tokens: dict[int, str], client: str = ""
    ) -> None: ...
    async def append(self, table_id: str, step: Step) -> None: ...
    def mark_finished(self, table_id: str) -> None: ...
    def close_table(self, table_id: str, why: str) -> None: ...
    async def add_chat(self, table_id: str, n: int, seat: int, text: str) -> None: ...
    def chat(self, table_id: str, last: int) -> list[dict[str, Any]]: ...
    def close(self) -> None: ...
    def seat_of(self, token: str) -> tuple[str, int] | None: ...
    def table_ids(self, unfinished_only: bool = False) -> list[str]: ...
    def load(self, table_id: str) -> StoredTable | None: ...
    def steps(self, table_id: str) -> list[dict[str, Any]]: ...
    def hold(self, table_id: str, holder: str, seconds: float) -> bool: ...
    def in_play(self, client: str) -> tuple[int, int]: ...
    async def renew(self, holder: str, seconds: float) -> set[str]: ...
    def release(self, holder: str) -> None: ...
    def want(self, table_id: str, by: str) -> None: ...
    def wanted(self, holder: str) -> list[str]: ...
    def give_up(self, table_id: str, holder: str) -> None: ...
    def expired(self) -> list[str]: ...


QUICK_COMMIT = 0.002  # seconds: a commit on the loop that took longer sends the next ones to the writer thread
CHECKPOINT_EVERY = 500  # commits on the loop between two checkpoints of the log by the writer thread
CHECKPOINT: list[Write] = []  # the writer thread's job of checkpointing the log


class Store:
    """Tables, link tokens and steps in one SQLite file (see the module docstring).

    The group commit (`submit`, `flush`, the writer thread) is shared with
    `tapete.web.pgstore.PgStore`, which overrides the hooks below it: where the writer
    connects, how one transaction runs, how rows are read, and which errors mean "not stored"."""

    errors: tuple[type[BaseException], ...] = (sqlite3.Error,)  # a write that failed for these was not stored
    loop_commits = True  # quick commits may run on the loop (SQLite's WAL append); a networked store never does

    def __init__(self, path: Path | str, durable: bool = False):
        self.path = str(path)
        self.durable = durable
        self._open()
        self._pending: list[Write] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._flush_due = False
        self._jobs: queue.SimpleQueue[list[Write] | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._in_writer = 0  # batches handed to the writer thread and not yet answered
        self.quick = not durable  # commit on the loop (see the module docstring)
        self.batches = 0  # transactions committed
        self.writes = 0  # writes they held
        self.on_loop = 0  # transactions committed on the loop

    def _open(self) -> None:
        """Judge the file, then open the loop's connection and make or upgrade tapete's tables in it."""
        version = check_database(self.path)  # before the first write: a file that is not tapete's stays as it was
        # The loop's connection, used on the loop only: reads and the quick commits; it never
        # waits for the file's lock and never checkpoints.
        self.db = _connect(self.path, self.durable, timeout=0.0)
        self._mark(version)
        self.db.execute("PRAGMA wal_autocheckpoint=0")

    def _mark(self, version: int) -> None:
        """Make the tables of a new database, or bring an older one to this version, and mark it tapete's."""
        statements: list[str] = []
        if version == 0:
            statements = [sql for sql in SCHEMA.split(";\n") if sql.strip()]
        for v in range(version or SCHEMA_VERSION, SCHEMA_VERSION):
            statements += UPGRADES[v]
        if version == SCHEMA_VERSION:
            return
        statements += [f"PRAGMA application_id={APPLICATION_ID}", f"PRAGMA user_version={SCHEMA_VERSION}"]
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for sql in statements:
                self.db.execute(sql)
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

    # -- writing ------------------------------------------------------------------------------
    def submit(self, statements: list[Sql], wait: bool = True) -> asyncio.Future[None] | None:
        """Queue ``statements`` (one transaction's worth) for the writer; a future resolved once they are in the file.

        Called on the event loop. The writes of one turn of the loop go to the writer
        thread together, when the turn ends; ``wait=False`` returns no future (a write
        nobody waits for, such as marking a table finished: it still lands in order)."""
        loop = asyncio.get_running_loop()
        if self._writer is None:
            self._loop = loop
            self._writer = threading.Thread(target=self._write_loop, name="tapete-store-writer", daemon=True)
            self._writer.start()
        future: asyncio.Future[None] | None = loop.create_future() if wait else None
        self._pending.append(Write(statements, future))
        if not self._flush_due:
            self._flush_due = True
            loop.call_soon(self.flush)
        return future

    def flush(self) -> None:
        """Commit this turn's writes in one transaction: here while that is quick, else in the writer thread."""
        self._flush_due = False
        if not self._pending:
            return
        batch, self._pending = self._pending, []
        if self.quick and self.loop_commits and not self._in_writer and self._commit_here(batch):
            _resolve(batch)
            return
        self._in_writer += 1
        self._jobs.put(batch)

    def _commit_here(self, batch: list[Write]) -> bool:
        """One transaction on the loop's connection; False (nothing written) when the file is busy or anything fails.

        The writer thread then does it, waiting for the file and isolating a bad write."""
        started = time.perf_counter()
        try:
            _transaction(self.db, [sql for w in batch for sql in w.statements])
        except Exception:
            return False
        self.quick = time.perf_counter() - started < QUICK_COMMIT
        self.batches += 1
        self.writes += len(batch)
        self.on_loop += 1
        if self.on_loop % CHECKPOINT_EVERY == 0:
            self._jobs.put(CHECKPOINT)
        return True

    def _write_loop(self) -> None:
        db = self._writer_connection()
        try:
            while True:
                job = self._jobs.get()
                if job is None:
                    return
                batch: list[Write] = []
                jobs, checkpoint = 0, False
                while job is not None:  # whatever else has arrived meanwhile goes in the same transaction
                    if job is CHECKPOINT:
                        checkpoint = True
                    else:
                        batch.extend(job)
                        jobs += 1
                    try:
                        job = self._jobs.get_nowait()
                    except queue.Empty:
                        break
                    if job is None:
                        self._jobs.put(None)  # stop once this batch is written
                        break
                if batch:
                    started = time.perf_counter()
                    self._commit(db, batch)
                    quick = self.loop_commits and not self.durable and time.perf_counter() - started < QUICK_COMMIT
                    if self._loop is not None and not self._loop.is_closed():
                        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                            self._loop.call_soon_threadsafe(self._answered, batch, jobs, quick)
                if checkpoint:
                    with contextlib.suppress(*self.errors):
                        db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    # -- the hooks another store overrides ---------------------------------------------------------
    def _writer_connection(self) -> Any:
        """The writer thread's own connection (it waits for the file's lock; the loop's never does)."""
        return _connect(self.path, self.durable)

    def _transaction(self, db: Any, statements: list[Sql]) -> None:
        _transaction(db, statements)

    def _rows(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """A read on the loop's connection (in WAL mode it never waits for a writer)."""
        return list(self.db.execute(sql, params).fetchall())

    def _rows_apart(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """A read through a connection of its own, from any thread: what is committed, never a write in progress."""
        with contextlib.closing(sqlite3.connect(self.path, timeout=30.0)) as db:
            return list(db.execute(sql, params).fetchall())

    def _close_reader(self) -> None:
        self.db.close()

    def _commit(self, db: Any, batch: list[Write]) -> None:
        """One transaction for the whole batch; if it fails, each write alone, so that one bad write fails alone."""
        try:
            self._transaction(db, [sql for w in batch for sql in w.statements])
            self.batches += 1
            self.writes += len(batch)
            return
        except Exception:  # found again below, write by write
            pass
        for w in batch:
            try:
                self._transaction(db, w.statements)
                self.batches += 1
                self.writes += 1
            except Exception as exc:  # the write's own caller is told; the writer thread goes on
                w.error = exc

    def _answered(self, batch: list[Write], jobs: int, quick: bool) -> None:
        """On the loop: the writer thread committed ``jobs`` batches; if that was quick, the next go on the loop."""
        self._in_writer -= jobs
        self.quick = quick
        _resolve(batch)

    async def create(
        self, table_id: str, config: TableConfig, digest: str, tokens: dict[int, str], client: str = ""
    ) -> None:
        """A new table with its link tokens (seat -> token; -1 the spectators'), in one transaction.

        ``client`` is the hash of the address that opened it (`tapete.web.guards.client_key`)."""
        row = (table_id, time.time(), json.dumps(config.to_json(), ensure_ascii=False), digest, client or None)
        future = self.submit(
            [
                ("INSERT INTO tables (id, created, config, digest, client) VALUES (?, ?, ?, ?, ?)", [row]),
                (
                    "INSERT INTO tokens (hash, table_id, seat) VALUES (?, ?, ?)",
                    [(token_hash(t), table_id, seat) for seat, t in tokens.items()],
                ),
            ]
        )
        assert future is not None
        await future

    async def append(self, table_id: str, step: Step) -> None:
        """Store one step; returns only once it is in the file (the caller then applies and tells)."""
        rng = None if step.rng is None else json.dumps(step.rng)
        row = (table_id, step.seq, step.kind, step.seat, step.move, step.by, rng, time.time())
        future = self.submit([(INSERT_STEP, [row])])
        assert future is not None
        try:
            await future
        except self.errors as exc:
            raise StoreFailed(f"the server could not store it ({exc})") from None

    def mark_finished(self, table_id: str) -> None:
        """The table needs no replay at start-up (nobody waits: a table not yet marked replays to its end)."""
        self.submit([("UPDATE tables SET finished = 1 WHERE id = ?", [(table_id,)])], wait=False)

    async def add_chat(self, table_id: str, n: int, seat: int, text: str) -> None:
        """One line of the table's chat; returns once it is in the file (then it is shown)."""
        future = self.submit(
            [
                (
                    "INSERT INTO chat (table_id, n, seat, text, at) VALUES (?, ?, ?, ?, ?)",
                    [(table_id, n, seat, text, time.time())],
                )
            ]
        )
        assert future is not None
        try:
            await future
        except self.errors as exc:
            raise StoreFailed(f"the server could not store it ({exc})") from None

    def chat(self, table_id: str, last: int) -> list[dict[str, Any]]:
        """The table's last ``last`` chat lines, oldest first."""
        rows = self._rows("SELECT n, seat, text FROM chat WHERE table_id = ? ORDER BY n DESC LIMIT ?", (table_id, last))
        return [{"n": int(n), "seat": int(seat), "text": str(text)} for n, seat, text in reversed(rows)]

    def close_table(self, table_id: str, why: str) -> None:
        """The server closed the table (nobody came back to it): it is kept, finished, with the reason."""
        self.submit([("UPDATE tables SET finished = 1, closed = ? WHERE id = ?", [(why, table_id)])], wait=False)

    # -- leases: each table played by one server process at a time ------------------------------
    def hold(self, table_id: str, holder: str, seconds: float) -> bool:
        """Take or keep ``table_id``'s lease for ``holder`` (free, expired, or its own); False if held elsewhere.

        Asked when a table is loaded or opened, before it is played; synchronous, since the
        answer decides what the page is told. Its own short transaction (not the group commit's),
        on a connection that waits for the file a moment if another process is writing."""
        now = time.time()
        statements: list[Sql] = [(HOLD, [(table_id, holder, now + seconds, now)])]
        try:
            self._hold_transaction(statements)
            rows = self._rows("SELECT holder FROM leases WHERE table_id = ?", (table_id,))
        except self.errors:
            return False
        return bool(rows) and rows[0][0] == holder

    def _hold_transaction(self, statements: list[Sql]) -> None:
        if getattr(self, "_hold_db", None) is None:
            self._hold_db = _connect(self.path, self.durable, timeout=5.0)
        _transaction(self._hold_db, statements)

    async def renew(self, holder: str, seconds: float) -> set[str]:
        """Extend every lease ``holder`` holds; the tables it still holds (not one taken over meanwhile)."""
        future = self.submit([("UPDATE leases SET until = ? WHERE holder = ?", [(time.time() + seconds, holder)])])
        assert future is not None
        await future
        return {str(r[0]) for r in self._rows("SELECT table_id FROM leases WHERE holder = ?", (holder,))}

    def release(self, holder: str) -> None:
        """Give up ``holder``'s leases (a server stopping cleanly): another may take its tables over at once."""
        self.submit([("DELETE FROM leases WHERE holder = ?", [(holder,)])], wait=False)

    def want(self, table_id: str, by: str) -> None:
        """A page of ``table_id`` reached process ``by``, not its holder (a proxy sent it there): ask for it."""
        with contextlib.suppress(*self.errors):
            self._hold_transaction([("UPDATE leases SET wanted = ? WHERE table_id = ?", [(by, table_id)])])

    def wanted(self, holder: str) -> list[str]:
        """Tables ``holder`` holds that another process asked for."""
        rows = self._rows("SELECT table_id FROM leases WHERE holder = ? AND wanted IS NOT NULL", (holder,))
        return [str(r[0]) for r in rows]

    def give_up(self, table_id: str, holder: str) -> None:
        """Let go of one table (no page of it is open here): the process that asked takes it at its next try."""
        with contextlib.suppress(*self.errors):
            self._hold_transaction([("DELETE FROM leases WHERE table_id = ? AND holder = ?", [(table_id, holder)])])

    def in_play(self, client: str) -> tuple[int, int]:
        """Tables in play in the whole database, and those ``client`` opened (every process's, for the limits)."""
        rows = self._rows(
            "SELECT COUNT(*), SUM(CASE WHEN client = ? THEN 1 ELSE 0 END) FROM tables WHERE finished = 0", (client,)
        )
        return int(rows[0][0]), int(rows[0][1] or 0)

    def expired(self) -> list[str]:
        """Unfinished tables whose lease has run out: their server died (or stopped renewing), another may take them."""
        sql = (
            "SELECT l.table_id FROM leases l JOIN tables t ON t.id = l.table_id"
            " WHERE l.until < ? AND t.finished = 0 ORDER BY l.until"
        )
        return [str(r[0]) for r in self._rows(sql, (time.time(),))]

    def close(self) -> None:
        """Write what is queued, stop the writer thread, close the file."""
        self.flush()
        if self._writer is not None:
            self._jobs.put(None)
            self._writer.join()
            self._writer = None
        self._close_reader()
        hold_db = getattr(self, "_hold_db", None)
        if hold_db is not None:
            hold_db.close()

    # -- reading ------------------------------------------------------------------------------
    def seat_of(self, token: str) -> tuple[str, int] | None:
        """(table, seat) a link token opens, or None."""
        rows = self._rows("SELECT table_id, seat FROM tokens WHERE hash = ?", (token_hash(token),))
        return (str(rows[0][0]), int(rows[0][1])) if rows else None

    def table_ids(self, unfinished_only: bool = False) -> list[str]:
        sql = "SELECT id FROM tables" + (" WHERE finished = 0" if unfinished_only else "") + " ORDER BY created"
        return [str(r[0]) for r in self._rows(sql, ())]

    def load(self, table_id: str) -> StoredTable | None:
        found = self._rows("SELECT config, digest, finished, client, closed FROM tables WHERE id = ?", (table_id,))
        if not found:
            return None
        row = found[0]
        steps = [
            Step(int(seq), str(kind), int(seat), str(move), str(by), None if rng is None else json.loads(rng))
            for seq, kind, seat, move, by, rng in self._rows(
                "SELECT seq, kind, seat, move, by, rng FROM steps WHERE table_id = ? ORDER BY seq", (table_id,)
            )
        ]
        config = TableConfig.from_json(json.loads(row[0]))
        return StoredTable(table_id, config, str(row[1]), bool(row[2]), steps, row[3] or "", row[4] or "")

    def steps(self, table_id: str) -> list[dict[str, Any]]:
        """The stored steps as plain rows (for tools and tests that check a table from outside, from any thread).

        Read through a connection of its own: what is committed, never a write in progress."""
        rows = self._rows_apart(
            "SELECT seq, kind, seat, move, by FROM steps WHERE table_id = ? ORDER BY seq", (table_id,)
        )
        return [{"seq": r[0], "kind": r[1], "seat": r[2], "move": r[3], "by": r[4]} for r in rows]


def open_store(db: Path | str, durable: bool = False) -> Store:
    """The store ``--db`` names: a ``postgresql://`` URL (`tapete.web.pgstore`, the postgres extra), else a file."""
    if is_database_url(db):
        try:
            from .pgstore import PgStore
        except ImportError as exc:
            raise TapeteError(
                f"a PostgreSQL --db needs the postgres extra ({exc.name or exc} is missing): "
                "pip install 'tapete[postgres]'"
            ) from None
        return PgStore(str(db), durable=durable)
    return Store(db, durable=durable)


def is_database_url(db: Path | str) -> bool:
    return isinstance(db, str) and db.startswith(DATABASE_URLS)


def shown_url(url: str) -> str:
    """A database URL without its password (for messages and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = f"{parts.username}@{parts.hostname or ''}" if parts.username else parts.hostname or ""
    if parts.port:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


HOLD = (  # the lease is taken when free or expired, kept when already ours; else left as it is
    "INSERT INTO leases (table_id, holder, until) VALUES (?, ?, ?) ON CONFLICT (table_id) DO UPDATE"
    " SET holder = excluded.holder, until = excluded.until,"
    " wanted = CASE WHEN leases.holder = excluded.holder THEN leases.wanted END"  # a new holder: nobody asks yet
    " WHERE leases.holder = excluded.holder OR leases.until < ?"
)
INSERT_STEP = "INSERT INTO steps (table_id, seq, kind, seat, move, by, rng, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"


def _connect(path: str, durable: bool, timeout: float = 30.0) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=timeout)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
    db.execute("PRAGMA foreign_keys=ON")
    return db


def _resolve(batch: list[Write]) -> None:
    """On the loop: every write of a committed batch is answered (its error, if it alone failed)."""
    for w in batch:
        f = w.future
        if f is None or f.done():
            continue
        if w.error is None:
            f.set_result(None)
        else:
            f.set_exception(w.error)


def _transaction(db: sqlite3.Connection, statements: list[Sql]) -> None:
    db.execute("BEGIN IMMEDIATE")
    try:
        for sql, rows in statements:
            db.executemany(sql, rows)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
