"""Seeded matches are identical; logs replay; a tampered log is caught at its line."""

from __future__ import annotations

import json

import pytest
from conftest import variant
from typer.testing import CliRunner

from tapete import Match
from tapete.cli.main import app
from tapete.gamelog import Divergence, LogWriter, replay


def write_log(path, name="fantan/pagat", players=4, seed=7, bots=("random",)):
    writer = LogWriter(path)
    try:
        Match(variant(name), players, seed, bots=list(bots)).play(writer)
    finally:
        writer.close()
    return path.read_text(encoding="utf-8").splitlines()


def test_same_seed_same_log_different_seed_different_log(tmp_path):
    a = write_log(tmp_path / "a.jsonl", seed=7)
    b = write_log(tmp_path / "b.jsonl", seed=7)
    c = write_log(tmp_path / "c.jsonl", seed=8)
    assert a == b
    assert a != c


def test_log_header_records_what_replay_needs(tmp_path):
    head = json.loads(write_log(tmp_path / "g.jsonl")[0])
    assert head["type"] == "match" and head["variant"] == "fantan/pagat"
    assert head["options"] == {"ace": "high", "wins_to": 3}
    assert head["seed"] == 7 and len(head["digest"]) == 16 and head["tapete"]


def test_replay_reproduces_a_log(tmp_path):
    lines = write_log(tmp_path / "g.jsonl", bots=("sensible", "random", "random", "random"))
    report = replay(tmp_path / "g.jsonl")
    assert report.events == len(lines)


def _tamper(path, lines, index, change):
    event = json.loads(lines[index])
    change(event)
    lines = list(lines)
    lines[index] = json.dumps(event, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_replay_names_the_first_tampered_score(tmp_path):
    path = tmp_path / "g.jsonl"
    lines = write_log(path)
    index = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "score")
    _tamper(path, lines, index, lambda e: e["totals"].__setitem__(0, 99))
    with pytest.raises(Divergence) as info:
        replay(path)
    assert info.value.line == index + 1
    assert "score event differs at totals[0]: log has 99, replay gives " in str(info.value)


def test_replay_catches_a_changed_move(tmp_path):
    path = tmp_path / "g.jsonl"
    lines = write_log(path)
    index = next(i for i, line in enumerate(lines) if json.loads(line).get("action", "").startswith("play") and i > 20)
    _tamper(path, lines, index, lambda e: e.__setitem__("action", "pass"))
    with pytest.raises(Divergence) as info:
        replay(path)
    assert info.value.line >= index + 1


def test_replay_refuses_a_log_that_ends_early(tmp_path):
    path = tmp_path / "g.jsonl"
    lines = write_log(path)
    path.write_text("\n".join(lines[:-5]) + "\n", encoding="utf-8")
    with pytest.raises(Divergence):
        replay(path)


def test_cli_play_then_replay(tmp_path):
    runner = CliRunner()
    log = tmp_path / "g.jsonl"
    played = runner.invoke(app, ["play", "fantan/pagat", "--players", "4", "--seed", "1", "--log", str(log)])
    assert played.exit_code == 0, played.output
    assert "Winner: seat" in played.output and "deal 1 scores" in played.output
    ok = runner.invoke(app, ["replay", str(log)])
    assert ok.exit_code == 0 and "reproduced" in ok.output
    lines = log.read_text(encoding="utf-8").splitlines()
    lines[5] = lines[5].replace('"seat": ', '"seat": 1')  # now an impossible seat number
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    bad = runner.invoke(app, ["replay", str(log)])
    assert bad.exit_code == 1 and "g.jsonl:6: action event differs at seat: log has 12" in bad.output


def test_a_broken_log_file_is_reported(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text('{"type": "match"}\nnot json\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and "g.jsonl:2: not a JSON line" in result.output
