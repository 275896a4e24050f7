"""How long the command line takes to start, against Python itself and against importing typer.

    python bench/startup.py [--runs N] [--tapete PATH]

Each run starts ``python -c pass``, ``python -c "import typer"``, ``python -c "import tapete"``,
``tapete --help`` and ``tapete --version`` as fresh processes, one after the other in a
shuffled order (seeded by the run's number), so that a burst of load on the machine, or
whatever one command leaves behind for the next, touches all of them alike. One run
before the timed ones fills the bytecode caches. Prints JSON: the median wall-clock
seconds of each command over N runs, and the ratios of ``tapete --help`` and
``tapete --version`` to ``import typer`` (the target for ``--help`` is at most 3)
and to ``python -c pass``. The machine's load average is printed too.

``tapete --help (first)`` is ``--help`` with an empty cache directory each time: the first
``--help`` after an install, which imports the plugins once to list their commands
(`tapete.cli.commands`); every later one reads that list. ``first_help_vs_help`` is the ratio.

``tapete`` is the console script next to this Python (a virtual environment's),
else the one on PATH; ``--tapete`` names another.

The commands run with Python's bytecode cache on, as after a normal install (the
warm-up writes it), even when PYTHONDONTWRITEBYTECODE is set here;
``--no-bytecode-cache`` sets it for them instead, so every start compiles tapete's
modules from source (what an editable install under that setting pays).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGET_HELP_VS_TYPER = 3.0


def find_tapete() -> str:
    beside = Path(sys.executable).parent / ("tapete.exe" if os.name == "nt" else "tapete")
    if beside.exists():
        return str(beside)
    found = shutil.which("tapete")
    if found is None:
        sys.exit("no tapete console script beside this Python or on PATH; install tapete or pass --tapete")
    return found


def commands(tapete: str) -> dict[str, list[str]]:
    py = sys.executable
    return {
        "python -c pass": [py, "-c", "pass"],
        "python -c 'import typer'": [py, "-c", "import typer"],
        "python -c 'import tapete'": [py, "-c", "import tapete"],
        "tapete --help": [tapete, "--help"],
        "tapete --help (first)": [tapete, "--help"],
        "tapete --version": [tapete, "--version"],
    }


FIRST = "tapete --help (first)"  # run with a cache directory of its own, empty every time


def timed(argv: list[str], env: dict[str, str], fresh_cache: bool = False) -> float:
    if fresh_cache:
        import tempfile

        with tempfile.TemporaryDirectory() as cache:
            return timed(argv, {**env, "TAPETE_CACHE_DIR": cache})
    t = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
    return time.perf_counter() - t


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--tapete", default=None, help="the tapete console script to time (default: found)")
    ap.add_argument("--no-bytecode-cache", action="store_true", help="run the commands with PYTHONDONTWRITEBYTECODE=1")
    args = ap.parse_args(argv)
    cmds = commands(args.tapete or find_tapete())
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if args.no_bytecode_cache:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    for argv_ in cmds.values():  # warm-up: bytecode caches, the page cache
        timed(argv_, env)
    times: dict[str, list[float]] = {name: [] for name in cmds}
    for run in range(args.runs):
        order = list(cmds.items())
        random.Random(run).shuffle(order)
        for name, argv_ in order:
            times[name].append(timed(argv_, env, fresh_cache=name == FIRST))
    med = {name: statistics.median(v) for name, v in times.items()}
    typer_s, pass_s = med["python -c 'import typer'"], med["python -c pass"]
    help_s, version_s = med["tapete --help"], med["tapete --version"]
    out = {
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
        "runs": args.runs,
        "bytecode_cache": not args.no_bytecode_cache,
        "seconds_median": {name: round(v, 4) for name, v in med.items()},
        "help_vs_import_typer": round(help_s / typer_s, 2),
        "version_vs_import_typer": round(version_s / typer_s, 2),
        "help_vs_python_pass": round(help_s / pass_s, 2),
        "version_vs_python_pass": round(version_s / pass_s, 2),
        "first_help_vs_help": round(med[FIRST] / help_s, 2),
        "target_help_vs_import_typer": TARGET_HELP_VS_TYPER,
        "target_met": help_s / typer_s <= TARGET_HELP_VS_TYPER,
    }
    json.dump(out, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
