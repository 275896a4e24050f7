"""How fast this machine runs Python right now: a fixed piece of work, timed, to read other figures by.

    python bench/machine_speed.py [--repeats N]

A virtual machine's speed is not a constant. On the 2-core machines tapete is measured on,
the same server, the same load and the same code spent 0.6 ms of CPU a move in one minute
and 1.1 ms a few minutes later, with nothing else running in the machine; the time the host
took from its cores (``steal`` in ``/proc/stat``) explains only part of that, since the host's
other tenants also share its caches, memory and clock. A figure in CPU time
per unit of work is therefore stated together with this one, taken in the same minutes, so
that a reader can tell a change of the code from a change of the machine.

The work is plain Python and touches nothing of tapete (so that a change of tapete cannot
change the yardstick): building and reading small dicts and lists, sorting, formatting
and JSON, the kinds of work a server spends a move on. It runs in a process of its own
(``python bench/machine_speed.py``) or in-process (`reference_ms`), single-threaded, and
reports the median CPU time of ``repeats`` rounds in milliseconds: lower is faster.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROUNDS = 5


def _work() -> int:
    """One round of the fixed work; its checksum, so that nothing in it can be skipped."""
    total = 0
    seats = [{"seat": s, "name": f"seat {s}", "cards": list(range(s, 52, 4))} for s in range(4)]
    for i in range(2_000):
        row = {"seq": i, "phase": "play", "to_move": i % 4, "seats": []}
        for s in seats:
            hand = sorted(s["cards"], key=lambda c: (c % 4, -(c // 4)))
            row["seats"].append({"seat": s["seat"], "count": len(hand), "last": f"play {hand[i % len(hand)]}"})
        text = json.dumps(row, separators=(",", ":"))
        back = json.loads(text)
        changed = {k: v for k, v in back.items() if row.get(k) != v}
        total += len(text) + len(changed) + sum(x["count"] for x in back["seats"])
    return total


def reference_ms(repeats: int = ROUNDS) -> float:
    """The median CPU time (ms, this thread) of ``repeats`` rounds of the fixed work, in this process."""
    times = []
    for _ in range(repeats):
        started = time.thread_time()
        _work()
        times.append((time.thread_time() - started) * 1000)
    return round(statistics.median(times), 2)


def reference_ms_apart(repeats: int = ROUNDS) -> float:
    """`reference_ms` measured in a fresh process of this interpreter (nothing of the caller's shares its time)."""
    out = subprocess.run(
        [sys.executable, str(Path(__file__)), "--repeats", str(repeats)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(json.loads(out.stdout)["reference_ms"])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeats", type=int, default=ROUNDS)
    args = p.parse_args()
    print(json.dumps({"reference_ms": reference_ms(args.repeats)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
