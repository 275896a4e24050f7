"""The family's script words: located errors, and new variants written without Python."""

from __future__ import annotations

import pytest

from tapete import ErrorList, load_variant


def write(tmp_path, rules: str, options: str = ""):
    (tmp_path / "x.rules").write_text(rules, encoding="utf-8")
    (tmp_path / "x.yaml").write_text(
        "extends: chinchon/fournier\nname: x\nscripts: [x.rules]\n" + options, encoding="utf-8"
    )
    return tmp_path / "x.yaml"


def test_wrong_values_of_the_family_words_are_reported_where_they_are(tmp_path):
    path = write(
        tmp_path, "group_size = 4..3\nrun_wrap = true\nlayoff_upward_only = 3\nclose when unmatched <= total\n"
    )
    with pytest.raises(ErrorList) as info:
        load_variant(path)
    found = sorted(f"{e.location.line}:{e.message.split(' ')[0]}" for e in info.value.errors)
    assert found == ["1:group_size", "2:runs", "3:layoff_upward_only", "4:'total'"]


def test_a_house_rule_is_a_script_line(tmp_path):
    """CH-4.3 as data: a table that lets a player close with up to 10 points."""
    v = load_variant(write(tmp_path, "close when unmatched <= 10\n"))
    deal = v.deal_from_snapshot(
        {
            "players": 2,
            "dealer": 1,
            "counters": {"drawn": 0},
            "zones": {
                "hand.0": "2♣ 2♦ 2♠ 5♥ 6♥ 7♥ K♠".split(),
                "hand.1": "4♦ 6♦ J♦ K♦ 3♠ Q♣ K♣".split(),
                "stock": ["J♠"],
                "discard": [],
            },
        }
    )
    deal.play("draw stock")
    deal.play("close K♠")  # J♠ left: 8 points
    assert deal.state.counters["unmatched.0"] == 8
