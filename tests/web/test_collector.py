"""The server's garbage collector (`tapete.web.collector`): survivors frozen, cycles still found.

A server that is its own process freezes each young collection's survivors out of the
collector's walks, so that 500 tables' live objects are not walked again and again
(bench/README.md, "The collector freezes what survives"). These worked examples show
what a host would otherwise worry about: nothing live is freed, nothing acyclic waits,
and a cycle the freeze held back is freed by the next full walk, which comes by itself
once the frozen set has grown by a quarter. Each runs in a fresh interpreter: the
settings are the whole process's, and the test runner's own must not change.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

SETUP = """
import gc, weakref
from tapete.web.collector import Collector
now = [0.0]  # the clock, in seconds: an hour passes when a test says so
collector = Collector(walk_after=3600, clock=lambda: now[0])
collector.install()

class Node:
    pass
"""


def run(body: str) -> None:
    code = SETUP + textwrap.dedent(body)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_what_survives_a_young_collection_is_frozen_and_still_freed_the_moment_nothing_holds_it() -> None:
    run("""
        state = Node()  # a seat's last state: nothing cyclic
        gone = weakref.ref(state)
        before = gc.get_freeze_count()
        gc.collect(0)
        assert gc.get_freeze_count() > before  # the survivor is out of the walks...
        assert gone() is state
        del state
        assert gone() is None  # ...and reference counting frees it at once, as before
    """)


def test_a_cycle_held_back_by_the_freeze_is_freed_by_the_next_full_walk() -> None:
    run("""
        loop = Node()
        loop.me = loop  # a cycle: only a walk can free it
        gone = weakref.ref(loop)
        gc.collect(0)  # it survives one young collection, so it is frozen
        del loop
        gc.collect(0)
        gc.collect(1)
        assert gone() is not None  # the generations' walks no longer reach it
        assert collector.walk() >= 1  # the full walk does
        assert gone() is None and collector.found >= 1
    """)


def test_a_full_walk_falls_due_an_hour_after_the_last_once_the_frozen_set_has_grown_by_a_quarter() -> None:
    """Python's own rule for a full collection, paced by the clock: growth alone once made a walk every
    half minute while the tables' histories grew, each stopping every table for most of a second."""
    run("""
        assert not collector.due()  # just walked, by install
        kept = [Node() for _ in range(gc.get_freeze_count() // 10)]
        gc.collect(0)
        now[0] += 3600
        assert not collector.due()  # an hour, but a tenth more: no walk yet
        kept += [Node() for _ in range(gc.get_freeze_count() // 4)]
        gc.collect(0)
        assert collector.due()  # an hour, and grown by more than a quarter
        collector.walk()
        assert not collector.due()
        kept += [Node() for _ in range(gc.get_freeze_count() // 3)]
        gc.collect(0)
        now[0] += 3599
        assert not collector.due()  # grown, but within the hour
        now[0] += 1
        assert collector.due()
    """)


def test_the_loop_makes_the_walk_that_is_due() -> None:
    run("""
        import asyncio
        kept = [Node() for _ in range(gc.get_freeze_count())]  # twice the frozen set
        gc.collect(0)
        now[0] += 3600
        assert collector.due()

        async def main():
            task = asyncio.get_running_loop().create_task(collector.keep(every=0.01))
            for _ in range(100):
                await asyncio.sleep(0.01)
                if not collector.due():
                    break
            task.cancel()

        walks = collector.walks
        asyncio.run(main())
        assert collector.walks == walks + 1 and not collector.due()
    """)
