"""SC-2: three cards each and four on the table, hands dealt again from the stock, play to the right."""

from __future__ import annotations

import pytest

from .helpers import legal, names, position, says, variants

classic = variants["classic"]


def test_sc2_2_three_each_four_face_up_thirty_in_the_stock():
    deal = classic.new_deal(2, seed=4)
    zones = deal.state.zones
    assert [len(zones["hand.0"]), len(zones["hand.1"]), len(zones["table"]), len(zones["stock"])] == [3, 3, 4, 30]
    assert "turned" not in zones  # no stock card is ever turned in Scopa


def test_sc1_1_three_players_each_for_themselves():
    deal = classic.new_deal(3, seed=4)
    zones = deal.state.zones
    assert [len(zones[f"hand.{s}"]) for s in range(3)] == [3, 3, 3]
    assert len(zones["stock"]) == 27  # four more rounds of three each


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_sc2_1_sc2_3_play_goes_to_the_right_starting_right_of_the_dealer(dealer):
    deal = classic.new_deal(3, seed=1, dealer=dealer)
    first = (dealer - 1) % 3  # counterclockwise: seat numbers count down
    assert deal.to_move == first
    deal.play(deal.legal_actions()[0])
    assert deal.to_move == (first - 1) % 3


def test_sc2_2_when_every_hand_is_empty_the_dealer_deals_three_more_none_to_the_table():
    deal = position(
        classic,
        dealer=1,
        to_move=1,
        hand1=["K♣"],
        table=["2♦"],
        stock=["A♣", "2♣", "3♣", "4♣", "5♣", "6♣"],
    )
    events = deal.play("play K♣")
    assert says(events) == ["plays K♣", "the dealer deals 3 more to each"]
    # one at a time from the dealer's right (seat 0), from the top of the stock (its end)
    assert names(deal, "hand.0") == ["6♣", "4♣", "2♣"]
    assert names(deal, "hand.1") == ["5♣", "3♣", "A♣"]
    assert names(deal, "table") == ["2♦", "K♣"]
    assert deal.to_move == 0 and not deal.over


def test_sc2_2_six_rounds_of_three_for_two_players():
    deal = classic.new_deal(2, seed=11)
    refills = plays = 0
    while not deal.over:
        events = deal.play(deal.legal_actions()[0])
        plays += 1
        refills += sum(1 for e in events if "refill" in e)
    assert refills == 5 and plays == 36  # the first three and five more: 18 cards each


def test_a_play_is_always_one_action_from_the_hand():
    deal = position(classic, hand0=["3♣"], hand1=["4♣"], table=["A♦", "2♦"], stock=[])
    assert legal(deal) == ["capture 3♣ A♦ 2♦"]
