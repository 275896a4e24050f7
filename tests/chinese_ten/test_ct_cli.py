"""The command line: play a series with a log, replay it, and run every variant."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tapete.cli.main import app

from .helpers import VARIANTS

runner = CliRunner()


def test_play_prints_captures_and_deal_results_and_replays(tmp_path):
    log = tmp_path / "g.jsonl"
    out = runner.invoke(app, ["play", "chinese-ten/two-player", "--seed", "3", "--log", str(log)])
    assert out.exit_code == 0, out.output
    text = out.output
    assert "seat 0: plays" in text and "turns" in text and ", takes " in text
    assert text.count("-- deal") == 6  # CT-4.3 six deals
    assert "points, result" in text and "deal 6 scores" in text
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    says = [e["say"] for ev in events if ev["type"] == "action" for e in ev.get("events", [])]
    assert says and all(s.startswith(("plays ", "turned ", "bonus ")) for s in says)
    again = runner.invoke(app, ["replay", str(log)])
    assert again.exit_code == 0 and "reproduced" in again.output


def test_replay_notices_a_changed_move(tmp_path):
    log = tmp_path / "g.jsonl"
    runner.invoke(app, ["play", "chinese-ten/one-deal", "--seed", "8", "--log", str(log)])
    lines = log.read_text(encoding="utf-8").splitlines()
    i = next(n for n, line in enumerate(lines) if json.loads(line)["type"] == "action")
    event = json.loads(lines[i])
    event["action"] = "play 2♣" if event["action"] != "play 2♣" else "play 3♣"
    lines[i] = json.dumps(event, ensure_ascii=False)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert runner.invoke(app, ["replay", str(log)]).exit_code == 1


@pytest.mark.parametrize("name", VARIANTS)
def test_every_variant_plays_and_replays_from_the_cli(tmp_path, name):
    log = tmp_path / f"{name}.jsonl"
    out = runner.invoke(
        app,
        [
            "play",
            f"chinese-ten/{name}",
            "--seed",
            "2",
            "--bots",
            "greedy,random" if name in ("two-player", "one-deal", "main-merah") else "greedy",
            "--log",
            str(log),
            "-q",
        ],
    )
    assert out.exit_code == 0, out.output
    assert "Winner" in out.output or "Draw" in out.output
    assert runner.invoke(app, ["replay", str(log)]).exit_code == 0
    shown = runner.invoke(app, ["show", f"chinese-ten/{name}"])
    assert shown.exit_code == 0 and "capture sum" in shown.output
