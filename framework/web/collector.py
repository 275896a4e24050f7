"""The cyclic garbage collector of a process that holds many long-lived tables.

Why the server does not leave Python's collector as it is (measured with
``bench/web_load.py --breakdown`` and ``bench/move_path.py``; figures in bench/README.md,
"The collector freezes what survives"):

- A table's objects live long: each seat's last state (kept to work out the next
  change), the deal's history, the messages' line caches. Most of what a move makes
  outlives the next young collection, so Python's older generations fill with live
  objects and each of their collections walks all of them again. At 500 tables a
  process's middle generation held about 116,000 objects, and each middle collection
  stopped every table for 90-130 ms of CPU every few seconds: the largest part of the
  round trip's tail.
- The server makes almost no cyclic garbage: in 70 collections, 8 objects were found to
  be garbage. The older generations' walks find nothing.

So after every young collection its survivors are frozen out of the collector's walks
(``gc.freeze``: they are still freed by reference counting the moment nothing holds
them, only no longer walked), and the older generations never hold anything to walk.
The young generation is collected at Python's own threshold (700 new objects) again:
with nothing promoted, a small young generation is the cheapest (at 1,000 tables on two
processes, young collections of at most 24-52 ms of wall time and 0.046-0.072 ms of the
collector's CPU a move, against 155-203 ms and 0.067-0.077 ms with 10,000, the threshold
the server had used to make its middle collections rarer).

What a frozen cycle would hold is found by a *full walk*: everything unfrozen, collected
and frozen again. `Collector.keep` makes one on the loop, between two moves, when an hour
has passed since the last and the frozen set has grown by a quarter since (Python's own
rule for a full collection, paced by the clock). It stops the process's tables for up to
a second at 500 tables (it walks every object). The walks as a server starts free a few
hundred objects, the cycles the start leaves; the moves leave almost none. Walking on
growth alone came every half minute while the histories grew, and raised the p99 of
1,000 tables from about 200 to 434 ms.
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

YOUNG = 700  # new objects between young collections (Python's own default)
GROWTH = 0.25  # a full walk once the frozen set has grown by this share since the last one...
WALK_AFTER = 3600.0  # ...and at least this many seconds have passed since it
WATCH_EVERY = 60.0  # seconds between the loop's looks once the hour is up (counting the frozen set walks it)


class Collector:
    """The collector's settings and its full walks, for a process that is the server.

    `install` sets the process's collector; `keep` is the loop's task that makes the full
    walks; ``walks``, ``found`` and ``walk_seconds`` count them, what they freed and how
    long they took (``/api/debug/timers``, read by ``bench/web_load.py --breakdown``)."""

    def __init__(self, growth: float = GROWTH, walk_after: float = WALK_AFTER, clock: Any = time.monotonic) -> None:
        self.growth = growth
        self.walk_after = walk_after
        self.clock = clock
        self.walked = clock()
        self.walk_at = 0
        self.walks = 0
        self.found = 0
        self.walk_seconds = 0.0

    def install(self) -> None:
        """Walk and freeze what is loaded now (code, variants, restored tables), and from now on freeze
        each young collection's survivors. Called again (once the catalogue is loaded), it walks again."""
        self.walk()
        gc.set_threshold(YOUNG)
        if self._after_collection not in gc.callbacks:
            gc.callbacks.append(self._after_collection)

    def _after_collection(self, phase: str, info: dict[str, Any]) -> None:
        # Runs inside whichever code allocated the object that started the collection: it only
        # joins the collector's lists (no walk, no allocation) and leaves any walk to the loop.
        if phase == "stop" and info.get("generation", 0) < 2:
            gc.freeze()

    def due(self) -> bool:
        """Whether a full walk is due: long enough since the last, and the frozen set grown enough."""
        return self.clock() - self.walked >= self.walk_after and gc.get_freeze_count() > self.walk_at

    def walk(self) -> int:
        """The full walk: every object unfrozen, collected, and the survivors frozen again; what it freed."""
        started = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self.walked = self.clock()
        self.walk_at = int(gc.get_freeze_count() * (1 + self.growth))
        self.walks += 1
        self.found += found
        self.walk_seconds += time.perf_counter() - started
        return found

    def report(self) -> dict[str, Any]:
        """The full walks so far, for ``/api/debug/timers``: how many, what they freed, their wall time."""
        return {
            "walks": self.walks,
            "found": self.found,
            "walk_ms": round(self.walk_seconds * 1000, 3),
            "frozen": gc.get_freeze_count(),
        }

    async def keep(self, every: float = WATCH_EVERY) -> None:
        """The loop's task: a full walk whenever one is due, between two moves.

        It first looks when the hour is up, then every ``every`` seconds: the frozen set is counted
        by walking its list (6 ms at 750,000 objects), not a thing to do on the loop every second."""
        while True:
            await asyncio.sleep(max(every, self.walked + self.walk_after - self.clock()))
            if self.due():
                self.walk()


COLLECTOR = Collector()  # the process's own: a server that is the whole process installs it
