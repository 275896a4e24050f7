"""Scopa from the command line, for real (a subprocess): a whole match, its log replays."""

from __future__ import annotations

import json
import subprocess
import sys


def tapete(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tapete", *args], capture_output=True, text=True, timeout=120)


def test_play_scopa_classic_prints_captures_sweeps_and_the_count_and_replays(tmp_path):
    log = tmp_path / "g.jsonl"
    out = tapete("play", "scopa/classic", "--seed", "3", "--log", str(log))
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert ", takes " in text and "the dealer deals 3 more to each" in text
    assert "sweep (scopa) by seat" in text and "the last capturer, seat" in text
    assert "cards, " in text and "primiera" in text and "prizes " in text
    assert "Winner: seat" in text
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert max(events[-1]["totals"]) >= 11  # SC-5.1
    again = tapete("replay", str(log))
    assert again.returncode == 0 and "reproduced" in again.stdout


def test_scopone_names_the_winning_partnership():
    out = tapete("play", "scopa/scopone", "--seed", "2", "-q")
    assert out.returncode == 0, out.stderr
    assert "(with seat " in out.stdout


def test_variants_lists_scopa():
    out = tapete("variants")
    for name in ("scopa/classic", "scopa/to-21", "scopa/kings", "scopa/assi", "scopa/scopone", "scopa/napola"):
        assert name in out.stdout
