"""`tapete simulate`: tables, records that replay, the same results on any number of workers.

Driven through the real command line (subprocess), as a designer runs it. Fan Tan
with random bots keeps each match to milliseconds.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import hostile
import pytest

from tapete import SimulationError, simulate
from tapete.simulation.stats import wilson

BASE = ["fantan/pagat", "--bots", "random", "--seed", "7"]


def tapete(*args: str, check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "tapete", *args], capture_output=True, text=True, timeout=timeout, check=False
    )
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def records(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["records"]


def test_tables_and_the_same_records_on_one_and_two_workers(tmp_path: Path) -> None:
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    a = tapete("simulate", *BASE, "--games", "40", "--workers", "1", "--json", str(one))
    tapete("simulate", *BASE, "--games", "40", "--workers", "2", "--json", str(two), "--quiet")
    assert "per seat" in a.stdout and "won (95% interval)" in a.stdout and "deals/match" in a.stdout
    assert "by playing order" in a.stdout
    first, second = records(one), records(two)
    assert [r["match"] for r in first] == list(range(40))
    assert first == second
    summary = json.loads(one.read_text())["summary"]
    assert sum(s["wins"] for s in summary["points"][0]["seats"]) + summary["points"][0]["draws"] == 40


def test_a_record_replays_with_tapete_play() -> None:
    sim = simulate("fantan/pagat", 3, bots=["random"], seed=7, workers=1)
    rec = sim.records[2]
    played = tapete("play", "fantan/pagat", "--bots", "random", "--seed", str(rec.seed), "--quiet")
    assert f"Winner: seat {rec.winner} after {rec.deals} deal(s); totals {rec.totals}" in played.stdout


def test_library_call_returns_records_and_summary() -> None:
    sim = simulate("fantan/pagat", 6, bots=["sensible", "random", "random", "random"], seed=1, workers=1)
    assert sim.complete and len(sim.records) == 6
    summary = sim.summary()
    point = summary["points"][0]
    assert [b["bot"] for b in point["bots"]] == ["sensible", "random"]
    assert point["bots"][1]["fair_share"] == 0.75
    assert point["actions_per_deal"] > 0


def test_sweep_prints_each_value_and_a_comparison(tmp_path: Path) -> None:
    out_csv = tmp_path / "runs.csv"
    proc = tapete("simulate", *BASE, "--games", "12", "--workers", "1", "--sweep", "wins_to=1,2", "--csv", str(out_csv))
    assert "wins_to=1: per seat" in proc.stdout and "wins_to=2: per seat" in proc.stdout
    assert "comparison across sweep values" in proc.stdout
    with out_csv.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 24
    assert {r["wins_to"] for r in rows} == {"1", "2"}
    # the same seeds at every point: match i is dealt the same first deal
    assert [r["seed"] for r in rows[:12]] == [r["seed"] for r in rows[12:]]
    short = [int(r["deals"]) for r in rows if r["wins_to"] == "1"]
    longer = [int(r["deals"]) for r in rows if r["wins_to"] == "2"]
    assert sum(short) < sum(longer)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--games", "0"], "--games must be a whole number from 1 to 1,000,000, not 0"),
        (["--workers", "0"], "--workers must be a whole number from 1 to 256, not 0"),
        (["--games", "100000000000000"], "--games must be a whole number from 1 to 1,000,000, not 100,000,000,000,000"),
        (["--workers", "100000"], "--workers must be a whole number from 1 to 256, not 100,000"),
        (["--option", "nosuch=1"], "unknown option 'nosuch'"),
        (["--sweep", "wins_to=2,abc"], "option wins_to: 'abc' is not a whole number"),
        (["--sweep", "wins_to=0,2"], "below the smallest allowed value"),
        (["--players", "4", "--bots", "random,random,random,random,random"], "5 bots were listed for 4 players"),
    ],
)
def test_bad_input_gets_one_clear_line(args: list[str], words: str) -> None:
    if args == ["--games", "0"]:  # one case as a real process; the others' words come from the same code
        proc = tapete("simulate", "fantan/pagat", "--games", "5", *args, check=False)
        code, err = proc.returncode, proc.stderr
    else:
        run = hostile.cli("simulate", "fantan/pagat", "--games", "5", *args)
        code, err = run.code, run.err
    assert code != 0
    assert words in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.fixture
def start(tmp_path: Path):
    """Start a 200,000-match run and return once some matches have finished; stop it for good afterwards."""
    started: list[subprocess.Popen[str]] = []

    def run(*extra: str) -> tuple[subprocess.Popen[str], Path]:
        out = tmp_path / "partial.json"
        proc = subprocess.Popen(
            [sys.executable, "-m", "tapete", "simulate", *BASE, "--games", "200000", "--json", str(out), *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its own process group: the workers can be stopped with it
        )
        started.append(proc)
        assert proc.stderr is not None
        line = proc.stderr.readline()  # the first progress line: some matches have finished
        assert line.startswith("simulate:"), line
        return proc, out

    yield run
    for proc in started:  # a run the test could not stop must not go on playing on the machine
        if proc.poll() is None:
            if hasattr(os, "killpg"):
                os.killpg(proc.pid, signal.SIGKILL)
            else:  # pragma: no cover - Windows
                proc.kill()
            proc.communicate()


def test_ctrl_c_prints_the_finished_games_and_writes_no_partial_file(start) -> None:
    # Issue 25, class 6: a stopped run prints what finished, but writes no file that would look complete.
    proc, out = start("--workers", "2")
    asked = time.monotonic()
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert time.monotonic() - asked < 2.0  # issue 25: a long command ends within 2 s of the signal
    assert proc.returncode == 130
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("interrupted: ") and last.endswith(f"; nothing written to {out}"), stderr
    assert "Traceback" not in stderr
    assert "per seat" in stdout
    assert not out.exists() and list(out.parent.iterdir()) == []


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc to find the worker processes")
@pytest.mark.parametrize("workers", ["2", "1"])
def test_sigterm_stops_every_worker_and_says_so(start, workers) -> None:
    proc, out = start("--workers", workers)
    me = Path(f"/proc/{proc.pid}/cmdline").read_bytes()
    children = [c for c in _children(proc.pid) if Path(f"/proc/{c}/cmdline").read_bytes() == me]
    assert len(children) == (2 if workers == "2" else 0)
    proc.send_signal(signal.SIGTERM)  # to the parent alone, as kill PID does
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 143
    assert stderr.strip().splitlines()[-1].startswith("terminated: ") and "Traceback" not in stderr
    assert "per seat" in stdout and not out.exists()
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{c}").exists() for c in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [c for c in children if Path(f"/proc/{c}").exists() and "Z" not in _state(c)]
    assert left == []  # no worker survives its parent


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].split()[0]
    except (OSError, IndexError):
        return "gone"


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc to find the worker processes")
def test_a_dying_worker_keeps_the_finished_matches(start) -> None:
    proc, out = start("--workers", "2")
    me = Path(f"/proc/{proc.pid}/cmdline").read_bytes()
    workers = [c for c in _children(proc.pid) if Path(f"/proc/{c}/cmdline").read_bytes() == me]
    assert workers
    os.kill(workers[0], signal.SIGKILL)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 1
    assert "a worker process died" in stderr and "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1
    assert len(records(out)) > 0


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert round(lo, 4) == 0.4038 and round(hi, 4) == 0.5962
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_plain_progress_lines_when_not_a_terminal() -> None:
    proc = tapete("simulate", *BASE, "--games", "10", "--workers", "1")
    assert "simulate: 10/10 matches" in proc.stderr
    quiet = tapete("simulate", *BASE, "--games", "10", "--workers", "1", "--quiet")
    assert quiet.stderr == ""


@pytest.mark.slow  # a local Dask cluster: the slow tier
def test_a_dask_cluster_gives_the_single_process_results() -> None:
    distributed = pytest.importorskip("distributed")
    here = simulate("fantan/pagat", 12, bots=["random"], seed=3, workers=1, sweep={"wins_to": ["1", "2"]})
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        there = simulate(
            "fantan/pagat", 12, bots=["random"], seed=3, workers=2, sweep={"wins_to": ["1", "2"]}, scheduler=client
        )
    assert there.complete
    assert [r.to_json() for r in there.records] == [r.to_json() for r in here.records]
    assert there.summary()["points"] == here.summary()["points"]


def test_an_unreachable_scheduler_is_one_clear_error() -> None:
    pytest.importorskip("distributed")
    with pytest.raises(SimulationError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        simulate("fantan/pagat", 2, bots=["random"], scheduler="tcp://127.0.0.1:9", connect_timeout=0.5)
