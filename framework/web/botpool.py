"""The threads the bots think in: a bounded pool, first come first served, with a deadline per move.

Every table's bot decisions (and the hints) go to one pool of `Limits.bot_workers`
threads. A table asks for one decision at a time, so a queue served in order is a
fair one: a table whose bots think long waits its turn behind the others' moves and
never holds more than one thread. A decision that is not back by its deadline is
given up (still queued: it never starts) and the table's quick stand-in plays that
move; a thread cannot be stopped, so the bot keeps its thread until it is done (its
time budget is capped, `tapete.web.guards.cap_budget`) and is not asked again
meanwhile (`busy`): two threads never use one bot.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class BotLate(Exception):
    """The decision did not come back in time (or the bot is still busy with an earlier one)."""


class BotPool:
    def __init__(self, workers: int):
        self.executor = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="tapete-bot")
        self.busy: set[int] = set()  # keys (id of a bot) whose decision still runs in a thread
        self.late = 0  # decisions given up at their deadline

    async def run(self, key: int, deadline: float, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker thread; `BotLate` after ``deadline`` seconds or while ``key`` is busy."""
        if key in self.busy:
            raise BotLate
        self.busy.add(key)
        future = self.executor.submit(fn, *args)
        future.add_done_callback(lambda _: self.busy.discard(key))
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), deadline)
        except asyncio.TimeoutError:
            future.cancel()  # one that never started is dropped; one running finishes in its thread
            self.late += 1
            raise BotLate from None

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
