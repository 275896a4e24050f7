"""The load script runs: ten tables of bots and simulated people over real sockets, briefly.

The figures themselves (moves/s, round trips, memory per table, where a move's time
goes) are measured by ``bench/web_load.py`` at full size and recorded in
bench/README.md; here only that the run completes, that people's moves were
acknowledged and nothing was refused, that ``--breakdown`` names every part of a move
it timed, and that a server nobody asked to time keeps no timers and has no route for them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ThreadServer, get

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "web_load.py"


@pytest.mark.slow  # a load run (10 tables over real sockets): the slow tier; bench/web_load.py for figures
def test_ten_tables_of_bots_and_people_play_over_sockets_and_the_time_of_a_move_is_broken_down() -> None:
    args = ["--tables", "10", "--seconds", "4", "--warmup", "2", "--pace", "0.05", "--think", "0.1", "--breakdown"]
    run = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["tables"] == 10 and result["moves_per_s"] > 0
    assert result["person_moves_measured"] > 0 and result["refusals"] == 0
    assert result["person_moves_unanswered"] == 0  # every move a page sent had its round trip
    assert result["memory_per_table_kib"] > 0
    # No match to 99 wins ends in seconds, and no table broke: the tables still playing at the end are not
    # counted as finished (they once were, making a short run look like many ended matches).
    assert result["matches_finished"] == 0 and result["tables_broken"] == 0
    # The machine's speed around the run (bench/machine_speed.py) and the host's share of its cores.
    assert len(result["machine_reference_ms"]) == 2 and min(result["machine_reference_ms"]) > 0
    assert result["host_took_cores"] >= 0
    parts = result["breakdown"]
    # Every step is applied and stored once; people's moves are parsed and checked; pages are shown it.
    assert parts["calls_per_move"]["apply"] >= 0.99
    for part in ("parse", "check", "apply", "broadcast", "state", "change", "encode", "send", "bots_loop"):
        assert parts["ms_per_move"][part] > 0, part
    assert parts["ms_per_move"].get("store_loop", 0) + parts["ms_per_move"].get("store_thread", 0) > 0
    assert parts["server_lag_ms"]["max"] >= parts["server_lag_ms"]["p99"] >= parts["server_lag_ms"]["p50"] >= 0
    # The server is its own process, so it set its collector (tapete.web.collector): what it loaded is
    # frozen out of the walks by a full walk as it started (another follows once the catalogue is loaded).
    walks = parts["full_walks_since_start"]
    assert walks["walks"] >= 1 and walks["frozen"] > 0


@pytest.mark.slow  # two load runs side by side: one server process, then two behind the front
def test_the_load_runs_on_one_and_two_server_processes_side_by_side() -> None:
    args = ["--tables", "10", "--workers", "1,2", "--seconds", "3", "--warmup", "1", "--pace", "0.05", "--think", "0.1"]
    run = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert [(r["workers"], r["store"]) for r in result["medians"]] == [(1, "sqlite"), (2, "sqlite")]
    assert all(r["moves_per_s"] > 0 and r["person_moves_measured"] > 0 for r in result["medians"])
    assert all(r["refusals"] == 0 for r in result["runs"])
    assert result["scaling"][0]["workers"] == 2 and result["scaling"][0]["moves_per_s_ratio"] > 0


@pytest.mark.slow  # two load runs: the most one and two server processes play, every seat a bot
def test_a_saturating_load_of_bots_and_bare_pages_measures_what_one_and_two_processes_play_at_most() -> None:
    args = ["--tables", "6", "--workers", "1,2", "--saturate", "--seconds", "3", "--warmup", "1", "--pace", "0.05"]
    run = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    for r in result["runs"]:
        assert r["saturate"] and r["moves_per_s"] > 0 and r["refusals"] == 0 and r["tables_broken"] == 0
        assert r["pages_lost"] == 0  # no bare page was closed by the server (each ping had its pong)
        # Nobody moves, so there is no round trip to time; the pages were read, every table opened and played.
        assert r["person_moves_measured"] == 0 and r["rtt_p99_ms"] is None
        assert r["server_cpu_ms_per_move"] > 0
    assert result["scaling"][0]["workers"] == 2 and result["scaling"][0]["moves_per_s_ratio"] > 0


def test_a_server_not_asked_to_time_itself_has_no_timers(server: ThreadServer) -> None:
    from tapete.web import app

    status, _ = get(server.url + "/api/debug/timers")
    assert status == 404
    assert getattr(app._parse, "_timed_part", None) is None  # nothing on a move's path is wrapped
    assert getattr(app.Hub.broadcast, "_timed_part", None) is None
