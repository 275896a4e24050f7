"""Whether a file may be ``tapete serve``'s database, decided before a byte of it is written.

The server writes every move to its ``--db`` file, so a wrong file named there is
worse than a refusal: SQLite would happily add tapete's tables to another program's
database, and a folder, a FIFO or a device would end in a traceback (or a wait for
ever) once the server had started. So the file is judged first, by reading only: what
the name is (``stat``, which never blocks on a FIFO), its first 100 bytes (an SQLite
file says so in its header), and, through a read-only connection, the marks tapete
puts on its own databases: SQLite's ``application_id`` (`APPLICATION_ID`) and
``user_version`` (the schema's version, `SCHEMA_VERSION`). A database made before
the mark existed is recognised by its three tables (`LEGACY_TABLES`) and marked when
the store opens it. Anything else is refused with one sentence naming the file.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

from ..core import paths
from ..core.errors import TapeteError, display_path
from ..core.limits import not_a_file

APPLICATION_ID = 0x54617065  # "Tape": SQLite's application_id of a tapete tables database
SCHEMA_VERSION = 3  # 1: the unmarked tables, tokens and steps; 2: a table's client and its closing reason; 3: leases
LEGACY_TABLES = frozenset({"tables", "tokens", "steps"})
SQLITE_MAGIC = b"SQLite format 3\x00"


class DatabaseRefused(TapeteError):
    """A ``--db`` file the server will not use; the message names it and says why."""


def check_database(path: Path | str) -> int:
    """The schema version of tapete database ``path`` (0: there is none yet, the store makes it), or `DatabaseRefused`.

    Reads only: the file's bytes and modification time are as they were, whatever the answer."""
    shown = display_path(path)
    where = f"{shown}: cannot keep the tables there"
    try:
        info = os.stat(path)
    except FileNotFoundError:
        folder = Path(path).parent
        if not paths.is_dir(folder):
            raise DatabaseRefused(f"{where}: the folder {display_path(folder)} does not exist") from None
        if not os.access(folder, os.W_OK):
            raise DatabaseRefused(f"{where}: the folder {display_path(folder)} is read-only") from None
        return 0
    except OSError as exc:
        raise DatabaseRefused(f"{where}: {exc.strerror or exc}") from None
    kind = not_a_file(info.st_mode)  # judged by stat, which never opens (nor waits on) a FIFO
    if kind is not None:
        raise DatabaseRefused(f"{where}: it is {kind}, not a database file")
    writable = info.st_mode & 0o222 and os.access(path, os.R_OK | os.W_OK)  # marked read-only counts, even for root
    if not writable or not os.access(Path(path).parent, os.W_OK):
        raise DatabaseRefused(
            f"{where}: it is read-only (the server writes every move to it, and its journal beside it)"
        )
    if info.st_size == 0:
        return 0  # an empty file is an empty database: the store makes tapete's tables in it
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError as exc:
        raise DatabaseRefused(f"{where}: {exc.strerror or exc}") from None
    if not head.startswith(SQLITE_MAGIC):
        raise DatabaseRefused(f"{where}: it is not an SQLite database (not a file tapete serve made)")
    app_id, version, tables = _marks(path, where)
    if app_id == APPLICATION_ID:
        if version > SCHEMA_VERSION:
            raise DatabaseRefused(
                f"{where}: it was written by a newer tapete (database version {version}; "
                f"this tapete reads versions up to {SCHEMA_VERSION}): upgrade tapete"
            )
        return max(version, 1)
    if app_id == 0 and tables == LEGACY_TABLES:
        return 1  # made before the mark: the store marks it
    if app_id == 0 and not tables:
        return 0  # an SQLite file with nothing in it yet
    owner = f"application id 0x{app_id:08x}" if app_id else f"tables {', '.join(sorted(tables)[:5])}"
    raise DatabaseRefused(f"{where}: it is another program's SQLite database ({owner}); name a file of its own")


def _marks(path: Path | str, where: str) -> tuple[int, int, frozenset[str]]:
    """The file's application_id, user_version and table names, read through a read-only connection."""
    uri = f"file:{quote(str(Path(path).resolve()))}?mode=ro"
    try:
        db = sqlite3.connect(uri, uri=True, timeout=5.0)
        try:
            app_id = int(db.execute("PRAGMA application_id").fetchone()[0])
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
            names = frozenset(str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")) - {
                "sqlite_sequence"
            }
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise DatabaseRefused(f"{where}: it cannot be read as an SQLite database ({exc})") from None
    return app_id, version, names
