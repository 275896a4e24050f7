"""The tables in PostgreSQL (``tapete serve --db postgresql://...``), through psycopg 3.

The same tables, rows and promises as the SQLite store (`tapete.web.store`): a step
is committed before it is applied or acknowledged, and the writes of one turn of the
event loop go in one transaction. What differs is where: the database is another
process, perhaps on another machine, shared by several servers, so

- every commit runs in the writer thread, on its own connection (a commit is a round
  trip, which the loop must not wait for); reads (a link token, a table to restore)
  use the loop's own connection, in autocommit, so that no transaction stays open;
- a connection that breaks (the database restarted, the network dropped) is opened
  again at the next read or write; a write that failed with it is refused to its
  page as not stored (`tapete.web.store.StoreFailed`), never acknowledged;
- ``durable=False`` commits with ``synchronous_commit=off``: a committed step is in
  the database server's memory, so it survives any tapete process dying (kill -9);
  only the database server itself crashing can take back its last fraction of a
  second, as only a power cut can with SQLite's ``synchronous=NORMAL``.
  ``durable=True`` waits for the database's own sync.

The database is judged before a row is written, as the SQLite file is
(`tapete.web.dbfile`): tapete's tables carry a version row in ``tapete_schema``; a
database holding tables of the same names without it is another program's and is
refused, as is one written by a newer tapete. The URL's password never appears in a message.
"""

from __future__ import annotations

import contextlib
from typing import Any

import psycopg

from .dbfile import SCHEMA_VERSION, DatabaseRefused
from .store import SCHEMA, Sql, Store, shown_url

PG_SCHEMA = [sql.replace(" REAL ", " DOUBLE PRECISION ") for sql in SCHEMA.split(";\n") if sql.strip()]
OWN_TABLES = ("tables", "tokens", "steps", "chat")
SCHEMA_LOCK = 0x54617065  # the advisory lock two servers starting at once on a new database take in turn
CONNECT_TIMEOUT = 5  # seconds to reach the database before the server refuses to start (or a write fails)


def _sql(sql: str) -> str:
    """The store's statements are written with SQLite's ``?``; psycopg's placeholder is ``%s``."""
    return sql.replace("?", "%s")


class Link:
    """One connection, opened again when it has broken (the writer thread's, or the loop's)."""

    def __init__(self, url: str, durable: bool):
        self.url, self.durable = url, durable
        self.conn: psycopg.Connection[tuple[Any, ...]] | None = None

    def get(self) -> psycopg.Connection[tuple[Any, ...]]:
        if self.conn is None or self.conn.closed or self.conn.broken:
            self.drop()
            self.conn = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
            self.conn.execute(f"SET synchronous_commit = {'on' if self.durable else 'off'}")
        return self.conn

    def drop(self) -> None:
        if self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.close()
        self.conn = None

    def close(self) -> None:
        self.drop()


class PgStore(Store):
    """Tables, link tokens and steps in a PostgreSQL database (see the module docstring)."""

    errors = (psycopg.Error,)
    loop_commits = False

    def _open(self) -> None:
        where = f"{shown_url(self.path)}: cannot keep the tables there"
        self.reader = Link(self.path, self.durable)
        try:
            conn = self.reader.get()
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                self._mark_database(conn, where)
        except psycopg.Error as exc:
            self.reader.close()
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise DatabaseRefused(f"{where}: {first}") from None
        except DatabaseRefused:
            self.reader.close()
            raise

    def _mark_database(self, conn: psycopg.Connection[tuple[Any, ...]], where: str) -> None:
        """Make tapete's tables in a new database; accept tapete's own of this version; refuse anything else."""
        names = {
            str(r[0])
            for r in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            )
        }
        if "tapete_schema" in names:
            row = conn.execute("SELECT version FROM tapete_schema").fetchone()
            version = int(row[0]) if row else 0
            if version > SCHEMA_VERSION:
                raise DatabaseRefused(
                    f"{where}: it was written by a newer tapete (database version {version}; "
                    f"this tapete reads versions up to {SCHEMA_VERSION}): upgrade tapete"
                )
            if version == SCHEMA_VERSION:
                return
        clash = sorted(names & set(OWN_TABLES))
        if clash and "tapete_schema" not in names:
            raise DatabaseRefused(
                f"{where}: it holds another program's tables ({', '.join(clash)}); name a database of its own"
            )
        for sql in PG_SCHEMA:
            conn.execute(sql)
        conn.execute("CREATE TABLE IF NOT EXISTS tapete_schema (version INTEGER NOT NULL)")
        conn.execute("DELETE FROM tapete_schema")
        conn.execute("INSERT INTO tapete_schema (version) VALUES (%s)", (SCHEMA_VERSION,))

    # -- the hooks of `Store` ---------------------------------------------------------------------
    def _writer_connection(self) -> Any:
        return Link(self.path, self.durable)

    def _transaction(self, db: Any, statements: list[Sql]) -> None:
        """One transaction on the writer's link; a broken connection is dropped (opened again next time)."""
        link: Link = db
        try:
            conn = link.get()
            with conn.transaction(), conn.cursor() as cur:
                for sql, rows in statements:
                    cur.executemany(_sql(sql), list(rows))
        except psycopg.OperationalError:
            link.drop()
            raise

    def _rows(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """A read on the loop's connection, tried once more on a new one if that had broken."""
        for attempt in (1, 2):
            try:
                return list(self.reader.get().execute(_sql(sql), params).fetchall())
            except psycopg.OperationalError:
                self.reader.drop()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _rows_apart(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.path, autocommit=True, connect_timeout=CONNECT_TIMEOUT) as conn:
            return list(conn.execute(_sql(sql), params).fetchall())

    def _hold_transaction(self, statements: list[Sql]) -> None:
        self._transaction(self.reader, statements)

    def _close_reader(self) -> None:
        self.reader.close()
