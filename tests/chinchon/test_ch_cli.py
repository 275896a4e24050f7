"""The command line: play a match with bots, print every deal, replay the log."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tapete.cli.main import app

VARIANTS = Path(__file__).resolve().parents[2] / "variants" / "chinchon"


def test_play_prints_closer_melds_unmatched_and_totals_then_replay_verifies(tmp_path):
    runner = CliRunner()
    log = tmp_path / "g.jsonl"
    r = runner.invoke(app, ["play", "chinchon/fournier", "--players", "3", "--seed", "5", "--log", str(log)])
    assert r.exit_code == 0, r.output
    out = r.output
    assert "closed" in out and "face down" in out
    assert out.count("melds") >= 3 and "unmatched" in out
    assert "totals" in out and "Winner: seat" in out
    r = runner.invoke(app, ["replay", str(log)])
    assert r.exit_code == 0, r.output
    assert "reproduced" in r.output


def test_the_heuristic_bot_plays_from_the_command_line():
    r = CliRunner().invoke(
        app,
        ["play", "chinchon/wild-cards", "--players", "3", "--seed", "2", "--bots", "heuristic,random,heuristic", "-q"],
    )
    assert r.exit_code == 0, r.output
    assert "Winner: seat" in r.output


def test_every_variant_file_checks():
    files = sorted(str(p) for p in VARIANTS.glob("*.yaml")) + [str(VARIANTS / "fournier.rules")]
    r = CliRunner().invoke(app, ["check", *files])
    assert r.exit_code == 0, r.output
    assert r.output.count(": ok") == len(files) == 11


def test_show_lists_the_family_words():
    r = CliRunner().invoke(app, ["show", "chinchon/fournier"])
    assert r.exit_code == 0, r.output
    for word in (
        "close when unmatched <= close_limit",
        "sealed when full_close",
        "group_size",
        "out when total > bust",
    ):
        assert word in r.output
