"""Gin Rummy from the command line, and the heuristic bot finishing every deal."""

from __future__ import annotations

import subprocess
import sys

from gin_helpers import variant

from tapete import Match, load_variant


def test_tapete_play_gin_standard_plays_a_whole_match_and_its_log_replays(tmp_path):
    log = tmp_path / "gin.jsonl"
    cmd = [sys.executable, "-m", "tapete", "play", "gin/standard", "--seed", "3", "--log", str(log)]
    played = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert played.returncode == 0, played.stderr
    assert "Winner: seat" in played.stdout and "knocks showing" in played.stdout
    assert "match bonuses" in played.stdout  # GR-6.4
    replayed = subprocess.run([sys.executable, "-m", "tapete", "replay", str(log)], capture_output=True, text=True)
    assert replayed.returncode == 0, replayed.stderr


def test_the_heuristic_bot_finishes_every_deal_and_beats_random():
    wins = 0
    for seed in range(6):
        events = []
        result = Match(variant(), 2, seed=seed, bots=["heuristic", "random"]).play(events.append)
        wins += result.winner == 0
        assert all(e["type"] in ("score", "void") for e in events if e.get("number") and e["type"] != "deal")
    assert wins >= 5


def test_heuristic_bots_play_each_other_to_the_end_in_every_gin_variant():
    for name in ("standard", "oklahoma", "big-gin", "single-hand"):
        short = load_variant(f"gin/{name}", options={"game_to": 30})  # a short game keeps the test quick
        result = Match(short, 2, seed=11, bots=["heuristic"]).play()
        assert result.winner in (0, 1)
