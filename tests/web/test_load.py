"""The load script runs: ten tables of bots and simulated people over real sockets, briefly.

The figures themselves (moves/s, round trips, memory per table) are measured by
``bench/web_load.py`` at full size and recorded in bench/README.md; here only that the
run completes, that people's moves were acknowledged and nothing was refused.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "web_load.py"


def test_ten_tables_of_bots_and_people_play_over_sockets() -> None:
    args = ["--tables", "10", "--seconds", "4", "--warmup", "2", "--pace", "0.05", "--think", "0.1"]
    run = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["tables"] == 10 and result["moves_per_s"] > 0
    assert result["person_moves_measured"] > 0 and result["refusals"] == 0
    assert result["memory_per_table_kib"] > 0
