"""Rules that used to be accepted silently or to disagree between ``check`` and ``play``.

Whatever ``play`` refuses about a variant, ``check`` reports, with the same message.
"""

from __future__ import annotations

import pytest
from hostile import cli, tapete

from tapete import ErrorList, Match, TapeteError, load_variant

CASES = [
    (
        "players out of range",
        None,
        "players: 2\n",
        "v.yaml:4:1: players: 2 players, but the rules of fantan/v allow 3-8",
    ),
    ("players zero", "players = 0..3\n", "", "x.rules:1:1: players must be a number or a range such as 3..8"),
    ("repeat", "score = 1\nscore = 2\n", "", "x.rules:2:1: 'score' is already set on line 1 of this script"),
    ("won when 5", "won when 5\n", "", "x.rules:1:10: a 'when' condition must be true or false, not 5"),
    ("divide by 0", "score = cards_left / 0\n", "", "x.rules:1:9: division by zero: / 0"),
    ("modulo 0", "score = cards_left % (2 - 2)\n", "", "x.rules:1:9: division by zero: % 0"),
]


def _write(tmp_path, script, extra):
    (tmp_path / "x.rules").write_text(script or "row start 7\n", encoding="utf-8")
    (tmp_path / "v.yaml").write_text("extends: fantan/pagat\nname: v\nscripts: [x.rules]\n" + extra, encoding="utf-8")


@pytest.mark.parametrize("script,extra,message", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_check_and_play_refuse_the_same_variant_with_the_same_message(tmp_path, script, extra, message):
    _write(tmp_path, script, extra)
    checked = tapete("check", "v.yaml", cwd=tmp_path)  # a real process; play's words from the same code, in this one
    played = cli("play", "v.yaml", "-q", cwd=tmp_path)
    assert checked.code == played.code == 1
    assert checked.err.splitlines()[0].startswith(message)
    assert played.err.splitlines()[0] == checked.err.splitlines()[0]


def test_a_division_by_zero_in_play_is_reported_at_its_place(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # Whoever goes out has 0 cards left: the score divides by zero at the end of the first deal.
    _write(tmp_path, "score = 10 / cards_left\n", "")
    variant = load_variant(tmp_path / "v.yaml")
    with pytest.raises(TapeteError) as info:
        Match(variant, 4, seed=1).play()
    assert str(info.value).splitlines()[0] == ("x.rules:1:9: division by zero in play: the divisor of '/' was 0")


def test_a_repeat_in_an_overlay_script_still_replaces_the_parent(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, "score = 0 - cards_left\n", "")
    assert load_variant(tmp_path / "v.yaml").rules.has("score")
    _write(tmp_path, "score = 0 - cards_left\nscore = 1\n", "")
    with pytest.raises(ErrorList):
        load_variant(tmp_path / "v.yaml")
