"""A person playing from the terminal through the human bot."""

from __future__ import annotations

from typer.testing import CliRunner

from tapete.cli.main import app


def test_a_person_plays_by_number_or_by_card_and_refusals_are_explained():
    moves = "pass\n" + "1\n" * 400
    result = CliRunner().invoke(
        app, ["play", "fantan/pagat", "--bots", "human,random,random,random", "--seed", "2", "--quiet"], input=moves
    )
    assert "your move, seat 0" in result.output
    assert "refused: you may not pass while you can play: playable 7♥ 7♠" in result.output
    assert result.exit_code == 0 and "Winner: seat" in result.output


def test_a_card_alone_is_read_as_playing_it():
    result = CliRunner().invoke(
        app,
        ["play", "fantan/pagat", "--bots", "human,random,random,random", "--seed", "2", "--quiet"],
        input="7S\n" + "1\n" * 400,
    )
    assert result.exit_code == 0
    assert "♠ row:" in result.output and "you: play 7♠" not in result.output
    assert "seat 1: play" in result.output or "seat 1: pass" in result.output  # what the others did since


def test_running_out_of_input_stops_the_match_cleanly_and_saves_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        app, ["play", "fantan/pagat", "--bots", "human,random,random,random", "--seed", "2"], input=""
    )
    assert result.exit_code == 1 and "the input ended: the match is saved in" in result.output
    assert "tapete resume fantan-pagat-seed-2.tapete-save.json" in result.output
    assert (tmp_path / "fantan-pagat-seed-2.tapete-save.json").exists()
