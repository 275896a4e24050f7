"""Bad input typed on the command line: one clean message, exit code 1, never a traceback.

Each case is run through the real ``tapete`` command in a subprocess, the way a
person meets it.
"""

from __future__ import annotations

import pytest
from hostile import tapete
from typer.testing import CliRunner

from tapete.cli.main import app


@pytest.mark.parametrize("command,value", [("play", "abc"), ("show", "5.5")])
def test_an_option_that_is_not_a_whole_number_is_refused(command, value):
    run = tapete(command, "fantan/pagat", "-o", f"wins_to={value}")
    assert run.code == 1
    assert run.err.strip() == f"option wins_to: {value!r} is not a whole number"


@pytest.mark.parametrize("value", ["", "1e3", "٣", " 7 7", "0x10", "9" * 300])
def test_more_option_values_that_are_not_whole_numbers(value):
    result = CliRunner().invoke(app, ["show", "fantan/pagat", "-o", f"wins_to={value}"])
    assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit)
    assert result.output.startswith("option wins_to: ")


def test_a_misspelt_true_is_refused_with_a_suggestion():
    run = tapete("show", "chinchon/wild-cards", "-o", "ace_of_coins_wild=ture")
    assert run.code == 1
    assert run.err.strip() == "option ace_of_coins_wild: 'ture' is not true or false (did you mean 'true'?)"


def test_show_writes_true_and_false_as_a_variant_file_does():
    run = tapete("show", "chinchon/wild-cards", "-o", "ace_of_coins_wild=no")
    assert run.code == 0
    assert "ace_of_coins_wild = false" in run.out
    assert "False" not in run.out and "True" not in run.out


def test_emoji_codes_and_markup_in_user_text_print_as_typed(tmp_path):
    run = tapete("play", "nosuch:100:x")
    assert run.code == 1 and run.err.startswith("no variant 'nosuch:100:x'")
    (tmp_path / "l100.rules").write_text("\n" * 99 + "score = :smile: [bold]x[/bold]\n", encoding="utf-8")
    (tmp_path / "v.yaml").write_text("extends: fantan/pagat\nname: v\nscripts: [l100.rules]\n", encoding="utf-8")
    run = tapete("check", "v.yaml", cwd=tmp_path)
    assert run.code == 1
    assert run.err.splitlines()[:2] == [
        "l100.rules:100:9: unexpected ':', expected '(', '-', a card, a name, a number, a string, a suit",
        "    score = :smile: [bold]x[/bold]",
    ]


@pytest.mark.parametrize(
    "target,reason",
    [
        (".", "is a folder; name a file to write a log in"),
        ("missing/game.jsonl", "cannot write a log there: its folder missing does not exist"),
    ],
)
def test_a_log_that_cannot_be_written_is_refused(tmp_path, target, reason):
    """The output-path reader (`tapete.core.inputs.output_path`) refuses it before the match starts."""
    run = tapete("play", "fantan/pagat", "-q", "--log", target, cwd=tmp_path)
    assert run.code == 1
    assert run.err.strip() == f"{target}: {reason}"
    assert run.out == ""


def test_zero_players_is_refused_not_replaced():
    run = tapete("play", "fantan/pagat", "--players", "0")
    assert run.code == 1 and run.err.strip() == "--players must be a whole number from 1 to 16, not 0"
    run = tapete("play", "fantan/pagat", "--players", "2")
    assert run.code == 1 and run.err.strip() == "fantan/pagat is for 3-8 players, not 2"


def test_the_bots_listed_set_the_player_count(tmp_path):
    run = tapete("play", "fantan/pagat", "-q", "--bots", "sensible,random,random", "--log", "g.jsonl", cwd=tmp_path)
    assert run.code == 0, run.err
    assert '"bots": ["sensible", "random", "random"]' in (tmp_path / "g.jsonl").read_text(encoding="utf-8")
    run = tapete("play", "fantan/pagat", "--bots", ",".join(["random"] * 9))
    assert run.code == 1
    assert (
        run.err.strip()
        == "9 bots were listed, so 9 players, but fantan/pagat is for 3-8 players: list at most 8 bots, one per seat"
    )
    run = tapete("play", "fantan/pagat", "-p", "3", "--bots", "random,random,random,random")
    assert run.code == 1
    assert run.err.strip() == "4 bots were listed for 3 players: list at most one bot per seat"


def test_check_on_a_folder_says_it_is_a_folder(tmp_path):
    run = tapete("check", ".", cwd=tmp_path)
    assert run.code == 1
    assert run.err.strip() == ".: is a folder; name the variant files or scripts in it (e.g. ./*.yaml)"
