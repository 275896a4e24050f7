"""Installed, the plugin shows up in the tapete command line and plays and replays from it."""

from __future__ import annotations

import subprocess
import sys


def tapete(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tapete", *args], capture_output=True, text=True, check=False)


def test_plugins_and_variants_list_the_game():
    plugins = tapete("plugins")
    assert plugins.returncode == 0, plugins.stderr
    assert "tapete-crazy-eights" in plugins.stdout and "eights" in plugins.stdout
    variants = tapete("variants")
    assert "eights/pagat" in variants.stdout and "eights/penalty" in variants.stdout


def test_a_match_plays_and_replays_from_the_cli(tmp_path):
    log = tmp_path / "eights.jsonl"
    played = tapete("play", "eights/pagat", "--players", "3", "--seed", "2", "--log", str(log))
    assert played.returncode == 0, played.stderr
    assert "Winner: seat" in played.stdout and "plays" in played.stdout
    replayed = tapete("replay", str(log))
    assert replayed.returncode == 0 and "reproduced" in replayed.stdout
