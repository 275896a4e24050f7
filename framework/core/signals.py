"""How a long command ends on Ctrl-C (SIGINT) and on SIGTERM: at once, with no child left, nothing half written.

Python turns Ctrl-C into a `KeyboardInterrupt` raised wherever the main thread is, a
sleeping plugin hook included. SIGTERM (``kill PID``, a batch system ending the job, a
service manager stopping ``tapete serve``) would by default end the process on the spot,
leaving worker processes playing as orphans and no word said. `stopping` makes SIGTERM
raise `Terminated`, a `KeyboardInterrupt`, so one path serves both: every ``except
KeyboardInterrupt`` that stops a worker pool or a cluster stops it for SIGTERM too, an
output being written (`tapete.core.outputs`) is discarded, and the command's one error
handler says ``interrupted`` (exit 130) or ``terminated`` (exit 143) in one line.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C
EXIT_TERMINATED = 143  # 128 + SIGTERM


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C would be."""


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated


def how(exc: BaseException) -> tuple[str, int]:
    """The word and the exit code for a stop: ``("terminated", 143)`` or ``("interrupted", 130)``."""
    if isinstance(exc, Terminated):
        return "terminated", EXIT_TERMINATED
    return "interrupted", EXIT_INTERRUPTED


@contextmanager
def stopping() -> Iterator[None]:
    """Within the block, SIGTERM raises `Terminated` in the main thread (elsewhere it keeps its handler)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Any] = {}
    try:
        previous[signal.SIGTERM] = signal.signal(signal.SIGTERM, _raise_terminated)
    except ValueError:  # pragma: no cover - not the main interpreter
        pass
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


STOP_GRACE = 0.5  # seconds a worker has to end on SIGTERM before it is killed


def stop_workers(pool: Any) -> None:
    """Stop a `concurrent.futures.ProcessPoolExecutor`'s processes now and wait for them and the pool.

    The pool has no public way to stop a running task, and ``shutdown`` alone waits for every task that started,
    so a command that was told to stop would not. Each process is sent SIGTERM and, if it has not ended within
    `STOP_GRACE`, killed: a worker forked a moment ago still has its parent's handler, which only notes the signal,
    until its initializer has run, and a plugin may have set a handler of its own in it.

    Then this process's copy of the writing end of the pipe the results come back on is closed. A worker stopped
    in the middle of sending a result leaves part of a message in that pipe (a message over 16 KiB is written as
    its length and then its bytes, and a pipe holds 64 KiB: a report's chunk of 100 matches is about 40 KB). The
    pool's own thread, reading it, would wait for the rest for ever, so would ``shutdown(wait=True)``, and so
    would the interpreter's exit, which joins that thread. With every writing end closed (the workers' ended with
    them), the thread reads the end of the pipe instead, finds the pool broken and fails the futures it holds.

    The futures are not cancelled here: the pool's own thread, finding its processes ended, fails the ones it
    still holds (one cancelled meanwhile by another thread would make it fail with InvalidStateError, and print
    a traceback)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for proc in processes:
        proc.terminate()
    for proc in _still_running(processes, STOP_GRACE):
        proc.kill()
    _still_running(processes, STOP_GRACE)  # SIGKILL cannot be ignored: they end at once
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        writer.close()
    pool.shutdown(wait=True, cancel_futures=True)


def _still_running(processes: list[Any], seconds: float) -> list[Any]:
    """The processes that have not ended within ``seconds``, found by their sentinels (not reaped: the pool's
    own thread may be joining them at the same time)."""
    from multiprocessing.connection import wait

    left = {proc.sentinel: proc for proc in processes}
    deadline = time.monotonic() + seconds
    while left and (remaining := deadline - time.monotonic()) > 0:
        for ended in wait(list(left), remaining):
            left.pop(ended)
    return list(left.values())
