"""The server's limits, which no client can exhaust, and the small counters that enforce them.

A table open to strangers must stay up for everyone else: one client opening
thousands of tables, a bot asked to think for ever, a body of 200 MB or a page
sending a thousand messages a second must each hit a limit that refuses it alone,
while every other table plays on. `Limits` holds them all, one field per
``tapete serve`` option (docs/web.md lists them with their defaults); `Bucket` is the
token bucket behind every rate; `client_key` is how an address is remembered (its
hash: the database holds no address).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, fields
from typing import Any

from ..core.limits import check_number


@dataclass(frozen=True)
class Limits:
    """Every limit of one server (the defaults suit a table among friends on a small machine)."""

    tables: int = 2000  # tables in play at once, in all (--max-tables)
    tables_per_client: int = 20  # tables in play opened from one address (--max-tables-per-client)
    expire_hours: float = 24.0  # a table with no page open this long is closed, its record kept (--expire-after)
    creates_per_minute: float = 10.0  # tables one address may open per minute, in bursts of as many (--create-rate)
    bot_seconds: float = 5.0  # the most time any bot may give itself per move (--bot-seconds)
    bot_deadline: float = 15.0  # seconds a bot's move may take before the stand-in plays it (--bot-deadline)
    bot_workers: int = 2  # threads the bots of every table think in, first come first served (--bot-workers)
    max_body: int = 16384  # bytes of a request's body (--max-body)
    header_timeout: float = 10.0  # seconds a connection has to send its request's headers (--header-timeout)
    idle_timeout: float = 30.0  # seconds a connection may stay silent: between requests, inside a body (--idle-timeout)
    message_rate: float = 20.0  # messages a second one page may send, in bursts of twice as many (--message-rate)
    lease_seconds: float = 10.0  # a table's lease: another server takes it over this long after this one died (--lease)
    allow_origins: tuple[str, ...] = ()  # origins besides the server's own that may use it (--allow-origin)
    policies: tuple[tuple[str, str], ...] = ()  # (name, file): policies pages may seat (--policy; web.trusted)

    def checked(self) -> Limits:
        """These limits, each within its bounds, or a `NumberError` naming the option."""
        for f in fields(self):
            if f.name in ("allow_origins", "policies"):
                continue
            low, high = BOUNDS[f.name]
            check_number(getattr(self, f.name), f"--{OPTION[f.name]}", whole=isinstance(low, int), low=low, high=high)
        for origin in self.allow_origins:
            if not origin.startswith(("http://", "https://")) or origin.count("/") != 2:
                raise ValueError(f"--allow-origin: {origin!r} is not an origin such as https://cards.example.org")
        return self


OPTION = {
    "tables": "max-tables",
    "tables_per_client": "max-tables-per-client",
    "expire_hours": "expire-after",
    "creates_per_minute": "create-rate",
    "bot_seconds": "bot-seconds",
    "bot_deadline": "bot-deadline",
    "bot_workers": "bot-workers",
    "max_body": "max-body",
    "header_timeout": "header-timeout",
    "idle_timeout": "idle-timeout",
    "message_rate": "message-rate",
    "lease_seconds": "lease",
}
BOUNDS: dict[str, tuple[Any, Any]] = {
    "tables": (1, 1_000_000),
    "tables_per_client": (1, 1_000_000),
    "expire_hours": (0.0001, 24.0 * 365),
    "creates_per_minute": (0.01, 100_000.0),
    "bot_seconds": (0.01, 3600.0),
    "bot_deadline": (0.01, 3600.0),
    "bot_workers": (1, 64),
    "max_body": (1024, 16 * 1024 * 1024),
    "header_timeout": (0.1, 3600.0),
    "idle_timeout": (0.1, 3600.0),
    "message_rate": (0.1, 100_000.0),
    "lease_seconds": (0.5, 3600.0),
}


class Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` saved up; `take` spends one if there is one."""

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def wait(self) -> float:
        """Seconds until the next token."""
        return max(0.0, (1 - self.tokens) / self.rate)


def client_key(address: str | None) -> str:
    """What the server remembers of a client's address: a hash, the same for the same address."""
    return hashlib.sha256((address or "").encode("utf-8")).hexdigest()[:32]


def cap_budget(agent: Any, seconds: float) -> None:
    """Cap a bot's own time budget per move (``ismcts:seconds=``) at ``seconds``; a bot without one is left.

    A search bot stops at whichever of its bounds comes first, so ``iterations=10000000``
    still ends after ``seconds``: the server's cap on a bot's work, whatever its parameters."""
    if not hasattr(agent, "seconds"):
        return
    own = agent.seconds
    if own is None or not isinstance(own, int | float) or own > seconds:
        agent.seconds = seconds
