"""Every Spades variant as a file on the family (SP-V1 ... SP-V8), checked against its rule.

SP-V1 (blind nil, with its exchange of two cards between partners) is checked in test_sp_blind.py.
"""

from __future__ import annotations

import pytest

from tapete import Ctx, IllegalAction
from tapete.core.ledger import Ledger

from .helpers import legal_cards, position, variants
from .test_sp_play import EAST, NORTH, SOUTH, SP_7_3, WEST
from .test_sp_play import side_scores as sp_scores

SPADES_TRUMP = {"trump": 4}


def side_scores(name, counters, bags=(0, 0, 0, 0)):
    return sp_scores(counters, bags=bags, name=f"spades/{name}")


def ends(name, totals, number=5):
    variant = variants[f"spades/{name}"]
    game = variant.new_game()
    ledger = Ledger(4, list(totals))
    ledger.deal_number = number
    return bool(game.rules.condition("match_ends")(Ctx(game=game, ledger=ledger)))


def test_sp_v2_another_target_ends_the_match():
    """SP-V2: spades/to-250 ends at 260 points, where classic (SP-6.1, 500) plays on."""
    assert ends("to-250", [260, 100, 260, 100]) and not ends("classic", [260, 100, 260, 100])


def test_sp_v3_without_the_bag_penalty_overtricks_score_and_are_not_counted():
    assert side_scores("no-bags", SP_7_3, bags=(8, 0, 8, 0))[NORTH] == (62, 0)  # SP-V3: SP-7.4 without SP-5.5


def test_sp_v4_the_mercy_rule_ends_the_match_at_minus_200():
    assert ends("mercy", [-210, 100, -210, 100]) and not ends("classic", [-210, 100, -210, 100])  # SP-V4
    assert not ends("mercy", [-250, -250, -250, -250])  # both at the floor, equal: play on


def test_sp_v5_a_nil_bidders_tricks_count_for_the_contract_and_as_bags():
    assert side_scores("nil-tricks-count", SP_7_3)[EAST] == (30 + 2 - 100, 2)  # SP-7.4 under SP-V5


def test_sp_v6_a_partner_may_bid_at_most_13_less_the_partners_bid():
    deal = variants["spades/capped"].new_deal(4, seed=1)
    first = deal.to_move
    deal.play("bid ten")
    deal.play("bid two")
    assert {a.detail for a in deal.legal_actions()} == {"zero", "one", "two", "three"}  # 13 - 10
    assert deal.game.same_team(first, deal.to_move)


def test_sp_v7_spades_are_never_broken():
    deal = position(
        "spades/never-broken",
        dealer=SOUTH,
        to_move=NORTH,
        counters={"broken": 1, "bid.0": 1, "bid.1": 1, "bid.2": 1, "bid.3": 1} | SPADES_TRUMP,
        hand0=["A♠", "2♥"],
        hand1=["3♦", "4♦"],
        hand2=["5♦", "6♦"],
        hand3=["7♦", "8♦"],
    )
    assert legal_cards(deal) == ["2♥"]  # a spade was played before, but the leader holds a heart
    with pytest.raises(IllegalAction):
        deal.play("play A♠")


def test_sp_v8_openspiels_set_up_is_one_hand_with_west_dealing_and_north_first():
    variant = variants["spades/openspiel"]
    deal = variant.new_deal(4, seed=1)
    assert deal.state.dealer == WEST and deal.to_move == NORTH
    assert ends("openspiel", [10, 20, 10, 20], number=1)


@pytest.mark.parametrize(
    "name", sorted(n for n in variants["spades/classic"].registry.variants() if n.startswith("spades/"))
)
def test_every_spades_variant_is_a_file_on_the_family(name):
    assert type(variants[name].new_game()).__name__ == "Tricks"
    assert variants[name].new_game().teams == 2  # SP-1.1
