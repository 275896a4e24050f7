"""The family's rule-script words: capture rules, opening rules, sizes, bonuses, and their errors."""

from __future__ import annotations

import pytest

from tapete import ErrorList, load_variant

from .helpers import legal, position, variants

two = variants["two-player"]


def _variant(tmp_path, rules: str, options: str = ""):
    (tmp_path / "house.rules").write_text(rules, encoding="utf-8")
    (tmp_path / "house.yaml").write_text(
        "extends: chinese-ten/two-player\nname: house\nscripts: [house.rules]\n" + options, encoding="utf-8"
    )
    return load_variant(tmp_path / "house.yaml")


def _errors(tmp_path, rules: str, options: str = "") -> list[str]:
    with pytest.raises(ErrorList) as info:
        _variant(tmp_path, rules, options)
    return [str(e) for e in info.value.errors]


def test_ct2_1_capture_rules_are_read_from_the_script():
    rules = two.rules
    assert rules.parsed_words("capture", "sum") == ("A", "2", "3", "4", "5", "6", "7", "8", "9")
    assert rules.constant("capture", first="sum") == 10
    assert rules.parsed_words("capture", "rank") == ("10", "J", "Q", "K")
    assert rules.parsed_words("opening") == ("specials", ("K", "Q", "J", "10", "5"))


def test_a_new_capture_total_needs_no_python(tmp_path):
    # a house rule through an option only: pairs make 11, so a 2 takes a 9 and no longer an 8
    v = _variant(tmp_path, "", "options:\n  target: 11\n")
    deal = position(v, hand0=["2♣"], table=["9♥", "8♥"], stock=["K♣"])
    assert legal(deal) == ["capture 2♣ 9♥"]


def test_errors_point_at_the_script(tmp_path):
    msg = _errors(tmp_path, "capture rank 9..K\n")[0]
    assert "house.rules:1:1: rank(s) 9 capture both by sum and by rank" in msg
    msgs = _errors(tmp_path, "capture rank 10..K = 3\nopening specials K Q 11\ncapture sum 9..A = 10\n")
    assert any(":1:22: 'capture rank' takes no '= value'" in m for m in msgs)
    assert any(":2:22: unknown rank '11'" in m for m in msgs)
    assert any(":3:13: empty rank range 9..A" in m for m in msgs)
    msgs = _errors(tmp_path, "opening sometimes K\nbonus x = 1\nscore = took(5♦)\n")
    assert any(":1:9: unknown opening rule 'sometimes'" in m for m in msgs)
    assert any(":2:1: 'bonus' needs 'when condition'" in m for m in msgs)
    assert any(":3:9: 'took()' cannot be used here" in m for m in msgs)


def test_ct1_3_deal_sizes_must_fit_the_deck_and_the_turns(tmp_path):
    msgs = _errors(tmp_path, "", "options:\n  hand: 11\n")
    assert "must use the 52 cards of the deck" in msgs[0] and "hand_size = hand" in msgs[0]
    msgs = _errors(tmp_path, "", "options:\n  table: 8\n  stock: 20\n")
    assert "stock_size 20 must equal the 24 hand cards" in msgs[0]
