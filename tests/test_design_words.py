"""Words a designer asked for: per-suit row starts in Fan Tan, and total(TABLE) in any expression."""

from __future__ import annotations

import re

import pytest
from children import child_file

from tapete import ErrorList, Match, load_variant


def write_variant(tmp_path, parent: str, rules: str, name: str = "v"):
    return child_file(tmp_path, parent, rules, name)


def legal(deal) -> set[str]:
    return {a.text(deal.game.deck) for a in deal.legal_actions()}


def test_a_suit_row_can_start_from_its_own_rank(tmp_path):
    """FT-3.2 with a per-suit start: the hearts row opens with J♥, the clubs and spades rows with 8."""
    v = load_variant(write_variant(tmp_path, "fantan/pagat", "row start J ♥\nrow start 8 ♣ spades\n"))
    zones = {"hand.0": ["7♥", "J♥", "7♦", "8♣", "7♠", "8♠"], "hand.1": ["2♣"], "hand.2": ["3♣"]}
    zones |= {f"row.{s}": [] for s in "♣♦♥♠"}
    deal = v.deal_from_snapshot({"players": 3, "dealer": 2, "to_move": 0, "zones": zones})
    assert legal(deal) == {"play J♥", "play 7♦", "play 8♣", "play 8♠"}
    deal.play("play J♥")
    deal.play("pass")
    deal.play("pass")
    assert "play 7♥" not in legal(deal)  # the hearts row grows from the jack: Q♥ or 10♥ next


def test_two_starts_for_one_suit_are_refused_where_written(tmp_path):
    with pytest.raises(ErrorList) as info:
        load_variant(write_variant(tmp_path, "fantan/pagat", "row start J ♥\nrow start 8 ♣ hearts\n"))
    assert "v.rules:2:1: ♥ already has its row start in 'row start J ♥'" in str(info.value.errors[0])


def test_a_plain_row_start_still_applies_to_every_suit():
    v = load_variant("fantan/nines")
    deal = v.new_deal(4, seed=1)
    starts = {a.text(v.rules.deck)[-2] for a in deal.legal_actions() if a.kind == "play"}
    assert starts <= {"9"}


def test_total_of_a_points_table_gives_the_break_even(tmp_path):
    """CT-4.2 for a new points table: break_even = total(points) / players keeps deal results summing to 0."""
    rules = "points { black A: 15, red A: 20, red 2..8: rank, red 9..K: 10, _: 0 }\n"
    rules += "break_even = total(points) / players\n"
    v = load_variant(write_variant(tmp_path, "chinese-ten/two-player", rules))
    result = Match(v, 2, seed=3).play()
    assert sum(result.totals) == 0
    for record in result.history:
        assert sum(record["scores"].values()) == 0


def test_total_is_a_constant_usable_before_its_table_is_written(tmp_path):
    rules = "break_even = total(points) / 2 + 1\npoints { red _: 1, _: 0 }\n"
    v = load_variant(write_variant(tmp_path, "chinese-ten/two-player", rules))
    assert v.rules.expr("break_even").value == 14


def test_total_of_something_that_is_not_a_table_is_refused(tmp_path):
    with pytest.raises(ErrorList, match="'score' is not a card table of this game; tables: pips, points"):
        load_variant(write_variant(tmp_path, "chinese-ten/two-player", "break_even = total(score)\n"))


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ("if total(points) > 100 {\n  deals = 2\n}\n", "total() is not known yet here"),
        ("points { A: total(points), _: 0 }\n", "table 'points' cannot use its own total"),
        ("break_even = total(points, pips)\n", "total() takes the name of a card table"),
    ],
)
def test_total_is_refused_where_it_cannot_be_known(tmp_path, rules, message):
    with pytest.raises(ErrorList, match=re.escape(message)):
        load_variant(write_variant(tmp_path, "chinese-ten/two-player", rules))


def test_total_of_a_table_the_variant_does_not_write(tmp_path):
    with pytest.raises(ErrorList, match="this variant has no 'wild' table"):
        load_variant(write_variant(tmp_path, "chinchon/fournier", "close when unmatched <= total(wild)\n"))
