"""Which of N server processes plays a table, decided from what every request carries.

``tapete serve --workers N`` runs N server processes behind one front (`tapete.web.front`);
a reverse proxy in front of several machines does the same job (docs/web.md,
"Deployment"). For that the table must be readable from the request itself, before any
process has looked in the database: a seat's link token begins with its table's id
(``<table>.<secret>``), the page opens ``/ws?table=<table>``, a record's address holds
it (``/api/tables/<table>/record``). A table belongs to process ``owner(table, N)``,
a hash every process and the front compute alike (CRC-32, not Python's salted ``hash``);
a process opening a table draws ids until one is its own. Requests naming no table (the
lobby, the pages, a new table) may go anywhere; a new table's form goes by the client's
address, so the per-address limits of one client are counted by one process.
"""

from __future__ import annotations

import secrets
import zlib
from urllib.parse import parse_qs, urlsplit


def owner(key: str, workers: int) -> int:
    """The process (0 .. workers-1) that plays table ``key`` (or takes a client's new tables)."""
    return zlib.crc32(key.encode("utf-8")) % workers if workers > 1 else 0


def new_table_id(worker: int, workers: int) -> str:
    """A new table id that `owner` gives to ``worker`` (about ``workers`` draws)."""
    while True:
        table_id = secrets.token_hex(8)
        if owner(table_id, workers) == worker:
            return table_id


def table_of_token(token: str) -> str:
    """The table a link token names (its part before the dot), or "" for a token made before tokens named it."""
    table, dot, _ = token.partition(".")
    return table if dot else ""


def table_of_target(target: str) -> str:
    """The table a request's target names (``/ws?table=...``, ``/api/tables/<id>/...``), or ""."""
    parts = urlsplit(target)
    if parts.path == "/ws":
        return (parse_qs(parts.query).get("table") or [""])[0][:32]
    pieces = parts.path.split("/")
    if len(pieces) >= 5 and pieces[1:3] == ["api", "tables"] and pieces[3]:
        return pieces[3][:32]
    return ""


def worker_of_target(target: str, workers: int) -> int | None:
    """The process a debugging request names (``/api/debug/timers?worker=1``), or None.

    Each process times its own moves (`tapete.web.timing`): a measurement over ``--workers``
    asks each one in turn, rather than whichever the front would choose."""
    parts = urlsplit(target)
    if not parts.path.startswith("/api/debug/"):
        return None
    asked = (parse_qs(parts.query).get("worker") or [""])[0]
    return int(asked) if asked.isdigit() and int(asked) < workers else None
