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


def stop_workers(pool: Any) -> None:
    """Stop a `concurrent.futures.ProcessPoolExecutor`'s processes now and wait for them.

    The pool has no public way to stop a running task, and ``shutdown`` alone waits for
    every task that started, so a command that was told to stop would not. The futures are
    not cancelled here: the pool's own thread, finding its processes terminated, fails the
    ones it still holds (one cancelled meanwhile by another thread would make it fail with
    InvalidStateError, and print a traceback)."""
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        proc.terminate()
    pool.shutdown(wait=True, cancel_futures=True)
