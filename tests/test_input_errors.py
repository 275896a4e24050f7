"""Bad rule scripts and variant files: each gets one exact, located message.

The messages are the product here: a designer reads them in a terminal, so each
test pins the whole ``file:line:col: message`` line.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tapete import ErrorList, load_variant
from tapete.cli.main import app


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def errors_of(workdir, script: str | None = None, yaml_text: str | None = None) -> list[str]:
    if script is not None:
        (workdir / "bad.rules").write_text(script, encoding="utf-8")
    (workdir / "v.yaml").write_text(
        yaml_text or "extends: fantan/pagat\nname: bad\nscripts: [bad.rules]\n", encoding="utf-8"
    )
    with pytest.raises(ErrorList) as info:
        load_variant(workdir / "v.yaml")
    return [str(e).splitlines()[0] for e in info.value.errors]


SCRIPT_CASES = [
    ("row start 7\nrowz start 8\n", "bad.rules:2:1: unknown statement 'rowz' for game 'fantan' (did you mean 'row'?)"),
    (
        "match_ends when max(deals_wonn) >= 3\n",
        "bad.rules:1:21: unknown name 'deals_wonn': not an option, a symbol or a quantity of this game"
        " (did you mean 'deals_won'?)",
    ),
    ("row start Z\n", "bad.rules:1:11: unknown rank 'Z': this deck has 2 3 4 5 6 7 8 9 10 J Q K A"),
    ("score = went_out $ 2\n", "bad.rules:1:18: unexpected character '$'"),
    ("score = foo(1)\n", "bad.rules:1:9: unknown function 'foo'"),
    (
        "match_ends when cards_left > 0\n",
        "bad.rules:1:17: 'cards_left' belongs to one player; here it needs an aggregate such as"
        " max(cards_left) or count(cards_left > 0)",
    ),
    ("leader = next()\n", "bad.rules:1:10: next() takes 1 to 2 argument(s), not 0"),
    (
        "deck french53\n",
        "bad.rules:1:6: unknown deck 'french53': use one of french52, spanish40, "
        "spanish48 or 'deck ranks ... suits ...'",
    ),
    (
        "score = (1 +\n",
        "bad.rules:1:13: unexpected end of line, expected '(', '-', a card, a name, a number, a string, a suit",
    ),
    ("see hand mine\n", "bad.rules:1:10: unknown visibility 'mine': use one of all, own, top, count, none"),
    ("order 2 3 4\n", "bad.rules:1:1: the order must list every rank once (missing 5 6 7 8 9 10 J Q K A)"),
    (
        "if wins_to > 2 {\n  score = cards_left\n",
        "bad.rules:2:21: unexpected end of file, expected 'if', '}', a name, end of line",
    ),
    (
        "if cards_left > 2 {\n  score = 1\n}\n",
        "bad.rules:1:4: 'cards_left' is known only during play; here only options and symbols may be used",
    ),
    ("score = 1 when 2\n", "bad.rules:1:16: 'score' takes no 'when' condition"),
    ("row start 7♥\n", "bad.rules:1:11: unknown rank '7♥': this deck has 2 3 4 5 6 7 8 9 10 J Q K A"),
]


@pytest.mark.parametrize("script,message", SCRIPT_CASES)
def test_script_error_is_reported_at_its_place(workdir, script, message):
    assert message in errors_of(workdir, script)


def test_a_match_that_cannot_end_is_refused(workdir):
    (workdir / "base.rules").write_text(
        "game fantan\ndeck french52\nplayers = 3..8\nrow start 7\nscore = cards_left\n", encoding="utf-8"
    )
    (workdir / "v.yaml").write_text("game: fantan\nname: endless\nscripts: [base.rules]\n", encoding="utf-8")
    with pytest.raises(ErrorList) as info:
        load_variant(workdir / "v.yaml")
    assert str(info.value) == "base.rules:1:1: the match never ends: add 'match_ends when ...' or 'out when ...'"


def test_several_errors_are_reported_together(workdir):
    errs = errors_of(workdir, "rowz start 8\nscore = foo(1)\n")
    assert [e.split(": ")[0] for e in errs] == ["bad.rules:1:1", "bad.rules:2:9"]


def test_a_script_for_another_game_is_refused(workdir):
    assert errors_of(workdir, "game chinchon\n") == [
        "bad.rules:1:1: script says 'game chinchon' but the variant is for 'fantan'"
    ]


YAML_CASES = [
    (
        "extends: fantan/pagat\nname: y\noptoins:\n  wins_to: 3\n",
        "v.yaml:3:1: optoins: unknown key (did you mean 'options'?); known keys: game, name, summary, "
        "extends, scripts, declare, options, players",
    ),
    (
        "extends: fantan/pagat\nname: y\noptions:\n  wins_to: three\n",
        "v.yaml:4:3: options.wins_to: must be a whole number, not text 'three'",
    ),
    (
        "extends: fantan/pagat\nname: y\noptions:\n  wins_to: 0\n",
        "v.yaml:4:3: options.wins_to: 0 is below the smallest allowed value 1",
    ),
    (
        "extends: fantan/pagat\nname: y\noptions:\n  win_to: 2\n",
        "v.yaml:4:3: options.win_to: unknown option (did you mean 'wins_to'?); declared options: ace, wins_to",
    ),
    (
        "extends: fantan/pagat\nname: y\nscripts: [missing.rules]\n",
        "v.yaml:3:11: scripts.0: script file 'missing.rules' not found next to v.yaml",
    ),
    (
        "extends: fantan/nope\nname: y\n",
        "v.yaml:1:1: extends: no variant 'fantan/nope' (neither a registered name nor a file next to this one)",
    ),
    (
        "extends: fantan/pagat\nname: y\noptions: [1, 2\n",
        "v.yaml:4:1: not valid YAML: expected ',' or ']', but got '<stream end>'",
    ),
    (
        "extends: fantan/pagat\nname: y\noptions:\n  ace: middle\n",
        "v.yaml:4:3: options.ace: 'middle' is not one of high, low",
    ),
    (
        "game: fantan\nname: y\nscripts: [bad.rules]\ndeclare:\n  n: {type: integer, default: 1}\n",
        "v.yaml:5:7: declare.n.type: must be one of int, bool, str, choice, not 'integer'",
    ),
    (
        "extends: fantan/pagat\nname: y\nplayers: 40\n",
        "v.yaml:3:1: players: must be a whole number from 1 to 16, not 40",
    ),
    (
        "extends: fantan/pagat\nname: y\noptions:\n  wins_to: 1000\n",
        "v.yaml:4:3: options.wins_to: 1000 is above the largest allowed value 99",
    ),
]


@pytest.mark.parametrize("text,message", YAML_CASES)
def test_variant_error_is_reported_at_its_key(workdir, text, message):
    (workdir / "bad.rules").write_text("row start 7\n", encoding="utf-8")
    assert errors_of(workdir, None, text) == [message]


def test_extending_itself_is_refused(workdir):
    (workdir / "a.yaml").write_text("extends: b.yaml\nname: a\n", encoding="utf-8")
    (workdir / "b.yaml").write_text("extends: a.yaml\nname: b\n", encoding="utf-8")
    with pytest.raises(ErrorList) as info:
        load_variant(workdir / "a.yaml")
    assert "extends itself through a.yaml -> b.yaml -> a.yaml" in str(info.value)


def test_check_command_prints_file_line_col_with_a_caret_and_exits_1(workdir):
    (workdir / "bad.rules").write_text("row start 7\nscore = went_out $ 2\n", encoding="utf-8")
    (workdir / "v.yaml").write_text("extends: fantan/pagat\nname: bad\nscripts: [bad.rules]\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["check", "v.yaml"])
    assert result.exit_code == 1
    assert result.output.splitlines()[:3] == [
        "bad.rules:2:18: unexpected character '$'",
        "    score = went_out $ 2",
        "                     ^",
    ]


def test_check_command_accepts_every_shipped_variant():
    from tapete import registry

    files = [str(p) for p in registry().variants().values()]
    result = CliRunner().invoke(app, ["check", *files])
    assert result.exit_code == 0, result.output


def test_check_finds_semantic_errors_in_a_script_no_variant_uses_yet(workdir):
    (workdir / "alone.rules").write_text(
        "game fantan\ndeck french52\nplayers = 3..8\nrow start Z\nscore = cards_left\n", encoding="utf-8"
    )
    result = CliRunner().invoke(app, ["check", "alone.rules"])
    assert result.exit_code == 1
    assert (
        result.output.splitlines()[0] == "alone.rules:4:11: unknown rank 'Z': this deck has 2 3 4 5 6 7 8 9 10 J Q K A"
    )


def test_check_says_when_only_the_syntax_of_an_overlay_could_be_checked(workdir):
    (workdir / "overlay.rules").write_text("row start 8\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["check", "overlay.rules"])
    assert result.exit_code == 0
    assert "syntax only" in result.output
    (workdir / "v.yaml").write_text("extends: fantan/pagat\nname: v\nscripts: [overlay.rules]\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["check", "overlay.rules"])
    assert result.exit_code == 0 and "checked with v.yaml" in result.output
