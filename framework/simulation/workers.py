"""Where the chunks of a run are played: this process, a pool of processes, or a Dask cluster.

Every way collects the same `MatchRecord`s (a match depends only on its seed) and
files them by (point, match), so the result does not depend on the way. A run
that stops early keeps every chunk that finished: Ctrl-C returns them with
``stopped = "interrupted"``, SIGTERM with ``stopped = "terminated"`` (every worker
process stopped first, none left running); a failure raises `SimulationError`
carrying them.
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
import threading
import time
from collections.abc import Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..core.errors import TapeteError
from ..core.signals import how, stop_workers, stopping
from .plan import Job, MatchRecord, Plan, Progress, Simulation, SimulationError, chunk_size, play_chunk


class _Collector:
    def __init__(self, plan: Plan, progress: Progress | None):
        self.plan, self.progress = plan, progress
        self.records: list[MatchRecord] = []
        self.start = time.perf_counter()

    def add(self, records: Iterable[MatchRecord]) -> None:
        self.records.extend(records)
        if self.progress is not None:
            self.progress(len(self.records), self.plan.total)

    def result(self, stopped: str | None = None) -> Simulation:
        self.records.sort(key=lambda r: (r.point, r.match))
        return Simulation(self.plan, self.records, stopped, time.perf_counter() - self.start)

    def fail(self, message: str) -> SimulationError:
        return SimulationError(message, self.result(message))


def run(
    plan: Plan, workers: int, scheduler: Any, progress: Progress | None, connect_timeout: float = 10.0
) -> Simulation:
    if scheduler is not None and scheduler != "":
        return _run_dask(plan, workers, scheduler, progress, connect_timeout)
    if workers == 1:
        return _run_here(plan, progress)
    return _run_processes(plan, workers, progress)


def _run_here(plan: Plan, progress: Progress | None) -> Simulation:
    """In this process; SIGTERM stops it as Ctrl-C does (`tapete.core.signals`)."""
    out = _Collector(plan, progress)
    if progress is not None:
        progress(0, plan.total)
    with stopping():
        try:
            for job in plan.jobs(1):
                out.add(play_chunk(job))
        except KeyboardInterrupt as exc:
            return out.result(how(exc)[0])
        except TapeteError as exc:
            raise out.fail(str(exc)) from None
    return out.result()


def _ignore_sigint() -> None:
    """Pool processes leave Ctrl-C to the parent, which stops them itself; SIGTERM (how the parent
    stops them) ends them, whatever handler the parent had when they were forked."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


# Libraries whose native thread pools do not survive a fork: once one is imported (a learned
# policy's bot loads PyTorch in the parent when the bots are checked), a forked worker can hang
# or die in its first call into it, so the workers are spawned instead.
FORK_UNSAFE = ("torch",)


def _context() -> Any:
    # fork shares the variants the parent already loaded (and their warm caches)
    methods = multiprocessing.get_all_start_methods()
    forkable = "fork" in methods and sys.platform == "linux" and not any(m in sys.modules for m in FORK_UNSAFE)
    return multiprocessing.get_context("fork" if forkable else "spawn")


class _CtrlC:
    """Ctrl-C (and SIGTERM) noted as a flag while a pool of processes lives, instead of an exception.

    An exception raised by a signal handler comes out of whatever line the main thread is
    on. Inside `concurrent.futures.wait` it can leave one of the futures' locks held (it
    takes and releases every pending future's lock), and the pool's own thread then waits
    on that lock for ever when the pool is stopped; inside the pool's start, its shutdown
    or the stop of its workers it leaves the pool half started or half stopped, with its
    thread and processes going on (and the interpreter's exit waits for that thread, which
    waits for every chunk already queued). So from before the pool is made until its last
    process has ended, the parent only notes the signal, checks the flag between short
    waits and stops the pool itself. SIGTERM (``kill``, a batch system ending the job) is
    noted the same way, so the parent stops every worker before it exits instead of dying
    and leaving them playing as orphans. Where no handler can be set (not the main thread),
    Ctrl-C stays a KeyboardInterrupt.

    Setting and putting back the handlers are moments a signal can come too: the handler
    still in place may raise (`tapete.core.signals.stopping` makes SIGTERM raise
    `Terminated`) before the other one is set, or one just put back before the other one
    is. Such an exception is noted like the signal itself and the handlers set all the
    same (each step can be done again), so entering and leaving never raise and never
    leave one handler swapped and not the other.
    """

    POLL = 0.2  # seconds: the longest a Ctrl-C waits to be noticed
    SIGNALS = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}

    def __init__(self) -> None:
        self.pressed = False
        self.how = "interrupted"
        self.previous: dict[int, Any] = {}

    def __enter__(self) -> _CtrlC:
        if threading.current_thread() is not threading.main_thread():
            return self
        while True:
            try:
                for signum in self.SIGNALS:
                    if signum not in self.previous:
                        self.previous[signum] = signal.getsignal(signum)
                    if self.previous[signum] is not None:  # None: a handler not set from Python, left alone
                        signal.signal(signum, self._note)
                return self
            except KeyboardInterrupt as exc:  # raised by the handler still in place: this run's signal all the same
                self.noted(exc)
            except ValueError:  # not the main interpreter: no handler can be set there, none was
                self.previous.clear()
                return self

    def _note(self, signum: int, frame: object) -> None:
        if not self.pressed:
            self.how = self.SIGNALS.get(signal.Signals(signum), "interrupted")
        self.pressed = True

    def noted(self, exc: KeyboardInterrupt) -> None:
        """A stop that came as an exception (`Terminated` for SIGTERM), noted as `_note` notes a signal."""
        if not self.pressed:
            self.how = how(exc)[0]
        self.pressed = True

    def __exit__(self, *exc: object) -> None:
        while self.previous:
            try:
                for signum, previous in list(self.previous.items()):
                    if previous is not None:
                        signal.signal(signum, previous)
                    del self.previous[signum]
            except KeyboardInterrupt as stop:  # raised by a handler just put back: noted, the others put back too
                self.noted(stop)


def _run_processes(plan: Plan, workers: int, progress: Progress | None) -> Simulation:
    """On a pool of processes, made, used and stopped inside `_CtrlC`: a signal anywhere in the pool's life (its
    start, a wait, the last chunk's end, its shutdown) is noted, the pool stopped, and the run returned stopped."""
    out = _Collector(plan, progress)
    jobs = plan.jobs(chunk_size(plan.total, workers))
    failure: SimulationError | None = None
    with _CtrlC() as ctrl_c:
        pool = ProcessPoolExecutor(min(workers, len(jobs)), mp_context=_context(), initializer=_ignore_sigint)
        finished = False
        try:
            if not ctrl_c.pressed:
                pending: set[Future[list[MatchRecord]]] = {pool.submit(play_chunk, job) for job in jobs}
                if progress is not None:
                    progress(0, plan.total)
                while pending and not ctrl_c.pressed:
                    done, pending = wait(pending, timeout=_CtrlC.POLL, return_when=FIRST_COMPLETED)
                    for fut in done:
                        out.add(fut.result())
                finished = not pending
        except KeyboardInterrupt as exc:  # only where no handler could be set (not the main thread)
            ctrl_c.noted(exc)
        except BrokenProcessPool:  # the pool has failed every pending chunk itself
            done_matches = len(out.records)
            failure = out.fail(f"a worker process died; {done_matches} of {plan.total} matches had finished")
        except Exception as exc:  # a match failed in a worker: one line, the finished matches kept
            failure = out.fail(str(exc) if isinstance(exc, TapeteError) else f"{type(exc).__name__}: {exc}")
        finally:
            if finished:
                pool.shutdown()  # every chunk is back: the idle workers are told to end
            else:
                _stop(pool)
    if ctrl_c.pressed:  # even after a failure: the command was told to stop, and says so
        return out.result(ctrl_c.how)
    if failure is not None:
        raise failure from None
    return out.result()


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop the workers now; the pool's own thread cancels the chunks that have not started."""
    stop_workers(pool)


def _run_dask(plan: Plan, workers: int, scheduler: Any, progress: Progress | None, timeout: float) -> Simulation:
    """On a Dask cluster: ``"local"``, a scheduler address, or a ``distributed.Client`` (left open)."""
    try:
        import distributed  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise TapeteError("--scheduler needs Dask: pip install 'tapete[dask]' (dask[distributed])") from None
    dist: Any = distributed  # untyped library
    import logging

    logging.getLogger("distributed").setLevel(logging.CRITICAL)  # its shutdown chatter is not ours
    out = _Collector(plan, progress)
    cluster: Any = None
    client: Any = None
    stopped = False
    before: set[int] = set()
    try:
        try:
            if not isinstance(scheduler, str):
                client = scheduler
            elif scheduler == "local":
                before = {child.pid for child in multiprocessing.active_children() if child.pid is not None}
                cluster = dist.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.CRITICAL,  # the workers' shutdown chatter too
                )
                client = dist.Client(cluster)
            else:
                client = dist.Client(scheduler, timeout=timeout)
        except (OSError, TimeoutError, ValueError) as exc:
            raise out.fail(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        jobs = plan.jobs(chunk_size(plan.total, max(workers, len(client.scheduler_info().get("workers", {})))))
        futures = [client.submit(play_chunk, job, pure=False) for job in jobs]
        if progress is not None:
            progress(0, plan.total)
        try:
            for fut in dist.as_completed(futures):
                out.add(fut.result())
        except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM under the command's `stopping`
            stopped = True
            if cluster is None:  # another's cluster goes on: only this run's tasks are dropped
                client.cancel(futures)
            return out.result(how(exc)[0])
        except SimulationError:
            raise
        except TapeteError as exc:  # a chunk's own failure (a plugin that broke the deal), said as itself
            client.cancel(futures)
            raise out.fail(str(exc)) from None
        except Exception as exc:  # the cluster reports failures with its own exception types
            client.cancel(futures)
            done = len(out.records)
            raise out.fail(
                f"the Dask cluster failed ({type(exc).__name__}: {exc}); {done} of {plan.total} matches had finished"
            ) from None
    finally:
        if stopped and cluster is not None:
            _end_local(cluster, before)  # the run's own cluster, ended rather than closed politely
        elif client is not None and isinstance(scheduler, str):
            # A stopped run does not wait for another's cluster to finish the chunks it was given.
            try:
                client.close(timeout=1 if stopped else None)
            except TimeoutError:
                if not stopped:
                    raise
            if cluster is not None:
                cluster.close()
    return out.result()


def _end_local(cluster: Any, before: set[int]) -> None:
    """End this run's own local cluster at once: a signal asked the command to stop within 2 s.

    Its workers are this process's children that were not there before the cluster (``before``); they
    are killed, not waited for (a nanny may be starting or restarting one at that moment, so this is
    done on both sides of the scheduler's close). The scheduler lives in this process, which is ending:
    Dask's own exit hook, which would close the cluster again and wait up to 10 s, is told not to.
    """
    _end_new_children(before)
    cluster.shutdown_on_close = False
    try:
        cluster.close(timeout=0.5)
    except (TimeoutError, OSError):
        pass
    _end_new_children(before)


def _end_new_children(before: set[int]) -> None:
    ours = [child for child in multiprocessing.active_children() if child.pid not in before]
    for child in ours:
        child.kill()
    for child in ours:
        child.join(1)


__all__ = ["Job", "run"]
