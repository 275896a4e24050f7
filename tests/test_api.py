"""The Python API as docs/api.md shows it."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tapete import IllegalAction, Match, load_variant
from tapete.cli.main import app


def test_load_by_name_or_path_gives_the_same_variant():
    a = load_variant("fantan/pagat")
    path = a.spec.path
    b = load_variant(str(path))
    assert a.digest == b.digest and a.options == b.options


def test_options_can_be_set_when_loading():
    v = load_variant("fantan/pagat", options={"wins_to": "2"})
    assert v.options["wins_to"] == 2
    assert Match(v, 3, seed=1).play().deals_won.count(2) == 1


def test_deal_step_by_step():
    v = load_variant("fantan/pagat")
    deal = v.new_deal(players=4, seed=9)
    seat = deal.to_move
    moves = deal.legal_actions()
    deal.play(moves[0])
    assert deal.to_move != seat
    with pytest.raises(IllegalAction):
        deal.play("play 7♥") if "7♥" not in deal.observe(deal.to_move)["zones"][f"hand.{deal.to_move}"] else deal.play(
            "pass"
        )


def test_variants_and_show_commands():
    runner = CliRunner()
    listed = runner.invoke(app, ["variants"])
    assert listed.exit_code == 0
    for name in ("fantan/pagat", "fantan/low-ace", "fantan/chips", "fantan/nines"):
        assert name in listed.output
    shown = runner.invoke(app, ["show", "fantan/points"])
    assert shown.exit_code == 0
    assert "limit = 100" in shown.output and "score = cards_left" in shown.output
    missing = runner.invoke(app, ["show", "fantan/pagatt"])
    assert missing.exit_code == 1 and "did you mean fantan/pagat" in missing.output


def test_play_refuses_a_wrong_player_count_and_unknown_bot():
    runner = CliRunner()
    r = runner.invoke(app, ["play", "fantan/pagat", "--players", "2"])
    assert r.exit_code == 1 and "3-8 players" in r.output
    r = runner.invoke(app, ["play", "fantan/pagat", "--bots", "genius"])
    assert r.exit_code == 1 and "no bot 'genius'" in r.output


def test_grammar_and_variants_ship_as_package_data():
    from importlib import resources

    assert resources.files("tapete.grammars").joinpath("rules.lark").is_file()
    assert resources.files("tapete_variants").joinpath("fantan", "pagat.yaml").is_file()


def test_python_dash_m_tapete_runs_the_command_line():
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "tapete", "play", "fantan/pagat", "--seed", "1", "-q"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "Winner: seat" in out.stdout
