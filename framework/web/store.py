"""The server's one file: every table and every step, in SQLite (the standard library's).

A step is committed here before the table applies it and before anyone is told,
so a server killed at any moment (``kill -9``) comes back with every table where
it was: the steps replay from the match seed to the same position, the same
cards to come. The database runs in WAL mode with ``synchronous=NORMAL``: a
committed step survives the process dying; only the machine losing power can
take back the last few (``durable=True`` syncs every commit, at a cost).

Link tokens are not stored, only their SHA-256: a copy of the database lets
nobody sit at a table. Nothing else secret is kept; the match seed is, since it
rebuilds the deals (so the file itself must stay private to whoever runs the
server).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .tables import Step, TableConfig

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    config TEXT NOT NULL,          -- TableConfig as JSON: variant, options, players, seed, seats, timings
    digest TEXT NOT NULL,          -- the variant files' digest: a changed variant is not replayed blindly
    finished INTEGER NOT NULL DEFAULT 0
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
"""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class StoredTable:
    table_id: str
    config: TableConfig
    digest: str
    finished: bool
    steps: list[Step]


class Store:
    """Tables, link tokens and steps in one SQLite file (see the module docstring)."""

    def __init__(self, path: Path | str, durable: bool = False):
        self.path = str(path)
        # One connection, used only from the server's event loop thread.
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def create(self, table_id: str, config: TableConfig, digest: str, tokens: dict[int, str]) -> None:
        """A new table with its link tokens (seat -> token; -1 the spectators'), in one transaction."""
        with self._transaction():
            self.db.execute(
                "INSERT INTO tables (id, created, config, digest) VALUES (?, ?, ?, ?)",
                (table_id, time.time(), json.dumps(config.to_json(), ensure_ascii=False), digest),
            )
            self.db.executemany(
                "INSERT INTO tokens (hash, table_id, seat) VALUES (?, ?, ?)",
                [(token_hash(t), table_id, seat) for seat, t in tokens.items()],
            )

    def append(self, table_id: str, step: Step, finished: bool = False) -> None:
        """Commit one step; returns only once it is in the file (the caller then applies and tells)."""
        with self._transaction():
            self.db.execute(
                "INSERT INTO steps (table_id, seq, kind, seat, move, by, rng, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table_id,
                    step.seq,
                    step.kind,
                    step.seat,
                    step.move,
                    step.by,
                    None if step.rng is None else json.dumps(step.rng),
                    time.time(),
                ),
            )
            if finished:
                self.db.execute("UPDATE tables SET finished = 1 WHERE id = ?", (table_id,))

    def mark_finished(self, table_id: str) -> None:
        self.db.execute("UPDATE tables SET finished = 1 WHERE id = ?", (table_id,))

    def seat_of(self, token: str) -> tuple[str, int] | None:
        """(table, seat) a link token opens, or None."""
        row = self.db.execute("SELECT table_id, seat FROM tokens WHERE hash = ?", (token_hash(token),)).fetchone()
        return (str(row[0]), int(row[1])) if row else None

    def table_ids(self, unfinished_only: bool = False) -> list[str]:
        sql = "SELECT id FROM tables" + (" WHERE finished = 0" if unfinished_only else "") + " ORDER BY created"
        return [str(r[0]) for r in self.db.execute(sql)]

    def load(self, table_id: str) -> StoredTable | None:
        row = self.db.execute("SELECT config, digest, finished FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        steps = [
            Step(int(seq), str(kind), int(seat), str(move), str(by), None if rng is None else json.loads(rng))
            for seq, kind, seat, move, by, rng in self.db.execute(
                "SELECT seq, kind, seat, move, by, rng FROM steps WHERE table_id = ? ORDER BY seq", (table_id,)
            )
        ]
        return StoredTable(table_id, TableConfig.from_json(json.loads(row[0])), str(row[1]), bool(row[2]), steps)

    def steps(self, table_id: str) -> list[dict[str, Any]]:
        """The stored steps as plain rows (for tools and tests that check a table from outside)."""
        cur = self.db.execute(
            "SELECT seq, kind, seat, move, by FROM steps WHERE table_id = ? ORDER BY seq", (table_id,)
        )
        return [{"seq": r[0], "kind": r[1], "seat": r[2], "move": r[3], "by": r[4]} for r in cur]

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, value: object, tb: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
