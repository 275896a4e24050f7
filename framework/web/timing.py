"""Where the server's time goes, move by move: timers that exist only in a server asked to keep them.

``tapete serve`` never times itself: nothing here runs, no function is wrapped and no
route is added, unless the server is made with ``timers=True`` (``make_app``), which
``serve`` does only when the environment says ``TAPETE_WEB_TIMERS=1``
(``bench/web_load.py --breakdown`` starts its server so). Then `Timers.install` wraps
the functions a move passes through, in this process only, each adding the CPU time of
its thread (``time.thread_time``: a machine busy with other work does not inflate it)
to its part:

- ``parse``: a page's message read as JSON; ``check``: a person's move checked;
- ``apply``: a stored step carried out on the table (the engine's move);
- ``store_loop`` / ``store_thread``: commits of the store, on the loop or in its writer thread;
- ``broadcast``: every page of a table shown its seat's state, which includes
  ``state`` (a seat's view turned into its state message), ``change`` (what differs from
  the page's last one) and ``encode`` (the message as JSON text);
- ``send``: the text handed to the connection (framing and the socket write);
- ``bots_loop`` / ``bots_threads``: the bots' decisions, on the loop or in the pool;
- ``gc``: the cyclic collector's pauses, by generation (inside whichever part was running: not added to the others);
- ``lag``: how late the loop wakes from a 10 ms sleep (its p50, p99 and worst), the wait every move meets.

The figures are read (and, with ``?reset=1``, started again) at ``/api/debug/timers``, a
route that exists only in such a server.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

ENV = "TAPETE_WEB_TIMERS"
LAG_EVERY = 0.01  # seconds between two looks at the loop's lateness

Json = dict[str, Any]


def wanted() -> bool:
    """Whether this process's server should keep timers (the environment says ``TAPETE_WEB_TIMERS=1``)."""
    return os.environ.get(ENV, "") == "1"


class Timers:
    """CPU time per part of a move, the collector's pauses and the loop's lateness, since the last reset."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self.gc_pauses: list[tuple[int, float]] = []  # (generation, seconds)
        self.lags: list[float] = []
        self._gc_started = 0.0
        self._gc_cpu_started = 0.0
        self.gc_cpu = 0.0  # CPU seconds of the collections: what the pauses cost, less the waits for a core
        self._lag_task: asyncio.Task[None] | None = None
        self.started = time.perf_counter()

    def reset(self) -> None:
        self.seconds.clear()
        self.calls.clear()
        self.gc_pauses.clear()
        self.gc_cpu = 0.0
        self.lags.clear()
        self.started = time.perf_counter()

    def add(self, part: str, seconds: float) -> None:
        self.seconds[part] = self.seconds.get(part, 0.0) + seconds
        self.calls[part] = self.calls.get(part, 0) + 1

    # -- wrapping ------------------------------------------------------------------------
    def wrap(self, owner: Any, name: str, part: str) -> None:
        """``owner.name`` (a function of a module or a class) replaced by one that times each call."""
        fn = getattr(owner, name)
        if getattr(fn, "_timed_part", None) is not None:
            return  # already wrapped (a second server in one process)
        add = self.add
        clock = time.thread_time

        if asyncio.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def timed_async(*args: Any, **kwargs: Any) -> Any:
                started = clock()
                try:
                    return await fn(*args, **kwargs)
                finally:
                    add(part, clock() - started)

            timed_async._timed_part = part  # type: ignore[attr-defined]
            setattr(owner, name, timed_async)
            return

        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                add(part, clock() - started)

        timed._timed_part = part  # type: ignore[attr-defined]
        setattr(owner, name, timed)

    def install(self) -> None:
        """Wrap the functions a move passes through (see the module docstring), in this process."""
        from starlette.websockets import WebSocket

        from . import app, messages, store, tables

        self.wrap(app, "_parse", "parse")
        self.wrap(tables.LiveTable, "check_move", "check")
        self.wrap(tables.LiveTable, "apply", "apply")
        self.wrap(store.Store, "_commit_here", "store_loop")
        self.wrap(store.Store, "_commit", "store_thread")
        self.wrap(app.Hub, "broadcast", "broadcast")
        self.wrap(messages, "state_message", "state")
        self.wrap(messages, "change_message", "change")
        self.wrap(messages, "encode", "encode")
        self.wrap(WebSocket, "send_text", "send")
        original = app._timed
        if getattr(original, "_timed_part", None) is None:

            def timed_decision(decide: Callable[..., Any], *args: Any) -> tuple[Any, float]:
                action, cost = original(decide, *args)
                on_loop = asyncio_loop_running()
                self.add("bots_loop" if on_loop else "bots_threads", cost)
                return action, cost

            timed_decision._timed_part = "bots"  # type: ignore[attr-defined]
            app._timed = timed_decision
        gc.callbacks.append(self._gc)

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started, self._gc_cpu_started = time.perf_counter(), time.thread_time()
        elif self._gc_started:
            self.gc_pauses.append((int(info.get("generation", -1)), time.perf_counter() - self._gc_started))
            self.gc_cpu += time.thread_time() - self._gc_cpu_started
            self._gc_started = 0.0

    # -- the loop's lateness -----------------------------------------------------------------
    def start(self) -> None:
        """Begin looking at the loop's lateness (called on the loop, as the server starts)."""
        self._lag_task = asyncio.get_running_loop().create_task(self._watch())

    def stop(self) -> None:
        if self._lag_task is not None:
            self._lag_task.cancel()

    async def _watch(self) -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(LAG_EVERY)
            self.lags.append(time.perf_counter() - t - LAG_EVERY)

    # -- reading -----------------------------------------------------------------------------
    def snapshot(self, steps: int) -> Json:
        """Everything since the last reset, in milliseconds; ``steps`` is the hub's count of steps played."""
        lags = sorted(self.lags)
        return {
            "loop": loop_name(),
            "wall_s": round(time.perf_counter() - self.started, 3),
            "steps": steps,
            "cpu_ms": {k: round(v * 1000, 3) for k, v in sorted(self.seconds.items())},
            "calls": dict(sorted(self.calls.items())),
            "gc_cpu_ms": _ms(self.gc_cpu),
            "gc": {str(g): _pauses([p for gen, p in self.gc_pauses if gen == g]) for g in range(3)},
            "lag_ms": {
                "p50": _ms(_quantile(lags, 0.50)),
                "p99": _ms(_quantile(lags, 0.99)),
                "max": _ms(lags[-1]) if lags else 0.0,
            },
        }


def loop_name() -> str:
    """Which event loop runs this server: ``uvloop`` where it is installed (uvicorn takes it), else ``asyncio``.

    A figure of the server's CPU per move is read with it: the loop's own work is part of every move."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return "none"
    return "uvloop" if type(loop).__module__.startswith("uvloop") else "asyncio"


def asyncio_loop_running() -> bool:
    """Whether this thread runs an event loop (a decision on the loop, not in the bots' pool)."""
    with contextlib.suppress(RuntimeError):
        asyncio.get_running_loop()
        return True
    return False


def _pauses(seconds: list[float]) -> Json:
    """How many pauses of one generation's collections, their total and the longest, in milliseconds."""
    return {"pauses": len(seconds), "total_ms": _ms(sum(seconds)), "max_ms": _ms(max(seconds, default=0.0))}


def _quantile(values: list[float], q: float) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)
