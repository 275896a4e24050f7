"""The words Scopa added to the fishing family, and the mistakes they catch when a variant loads."""

from __future__ import annotations

import pytest

from tapete import ErrorList, TapeteError, load_variant

from .helpers import legal, position, variants


def _variant(tmp_path, rules: str, options: str = ""):
    (tmp_path / "house.rules").write_text(rules, encoding="utf-8")
    (tmp_path / "house.yaml").write_text(
        "extends: scopa/classic\nname: house\nscripts: [house.rules]\n" + options, encoding="utf-8"
    )
    return load_variant(tmp_path / "house.yaml")


def _errors(tmp_path, rules: str, options: str = "") -> str:
    with pytest.raises(ErrorList) as info:
        _variant(tmp_path, rules, options)
    return "\n".join(str(e) for e in info.value.errors)


def test_scopa_and_chinese_ten_are_one_class():
    assert type(variants["classic"].new_game()) is type(load_variant("chinese-ten/two-player").new_game())


def test_the_refill_must_deal_the_stock_out_in_whole_rounds(tmp_path):
    v = _variant(tmp_path, "refill = 4\n")  # 30 cards left in the stock do not make rounds of 4 x 2
    with pytest.raises(TapeteError, match=r"whole rounds of refill 4 x 2 players \(SC-2.2\)"):
        v.new_deal(2, seed=1)


def test_a_rank_cannot_both_sum_in_pairs_and_in_sets(tmp_path):
    errors = _errors(tmp_path, "capture value K\ncapture sum A..7 = 10\n")
    assert "'capture set' and 'capture sum'" in errors


def test_leftover_says_who_gets_the_rest(tmp_path):
    assert "unknown leftover rule 'dealer'" in _errors(tmp_path, "leftover dealer\n")


def test_most_needs_a_player_to_compare(tmp_path):
    assert "most() compares one player" in _errors(tmp_path, "match_ends when most(total)\n")


def test_unknown_capture_kind_lists_the_four(tmp_path):
    assert "'capture all RANKS', not 'capture every'" in _errors(tmp_path, "capture every A\n")


def test_a_house_rule_in_words_only_sums_to_fifteen(tmp_path):
    # Scopa a quindici style: a card takes sets that make 15 with it - here only as pips, to show
    # that the pips table alone moves every sum: pictures count 10 and the king takes 3 + 7.
    v = _variant(tmp_path, "pips { A: 1, 2..7: rank, J | Q | K: 10 }\n")
    deal = position(v, hand0=["J♣"], hand1=["4♣"], table=["3♦", "7♥", "Q♠"])
    assert legal(deal) == ["capture J♣ Q♠"]  # the same value (10) comes first
    deal = position(v, hand0=["J♣"], hand1=["4♣"], table=["3♦", "7♥"])
    assert legal(deal) == ["capture J♣ 3♦ 7♥"]


def test_the_ace_sweep_counts_when_a_house_says_so(tmp_path):
    (tmp_path / "a.rules").write_text("sweep when not last_play\n", encoding="utf-8")
    (tmp_path / "a.yaml").write_text("extends: scopa/assi\nname: house-assi\nscripts: [a.rules]\n", encoding="utf-8")
    v = load_variant(tmp_path / "a.yaml")
    deal = position(v, hand0=["A♣", "K♠"], hand1=["4♣"], table=["7♦", "K♥"])
    deal.play("capture A♣ 7♦ K♥")
    assert deal.state.counters["sweeps.0"] == 1
