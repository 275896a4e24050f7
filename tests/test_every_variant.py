"""Every registered variant plays a whole match from the command line, and the log replays."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tapete.cli.main import app
from tapete.testing import variant_params


@pytest.mark.parametrize("name", variant_params())  # each game's base every run; the rest in the slow tier
def test_variant_plays_a_match_from_the_cli_and_replays(name, tmp_path):
    log = tmp_path / "g.jsonl"
    runner = CliRunner()
    played = runner.invoke(app, ["play", name, "--seed", "1", "--bots", "random", "--quiet", "--log", str(log)])
    assert played.exit_code == 0, played.output
    assert "Winner: seat" in played.output or "Draw" in played.output
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output
