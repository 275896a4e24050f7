"""CT-1: the cards and the deal, and who plays when."""

from __future__ import annotations

from collections import Counter

from tapete import Match

from .helpers import names, position, variants

two = variants["two-player"]


def test_ct1_1_one_52_card_deck_two_players():
    deck = two.rules.deck
    assert len(deck) == 52 and deck.jokers == 0  # CT-1.1
    assert Counter(deck.suit_of) == Counter(dict.fromkeys("♣♦♥♠", 13))
    assert two.player_range() == (2, 2)


def test_ct1_2_dealer_by_lot():
    # CT-1.2 the first dealer is drawn by lot from the seed: both seats deal first for some seed
    dealers = {two.new_deal(seed=seed).state.dealer for seed in range(20)}
    assert dealers == {0, 1}


def test_ct1_3_twelve_each_four_up_twenty_four_in_stock():
    for seed in range(10):
        state = two.new_deal(seed=seed).state
        if state.data.get("quads"):  # CT-3.2 moves the table
            continue
        assert len(state.zones["hand.0"]) == len(state.zones["hand.1"]) == 12  # CT-1.3
        assert len(state.zones["table"]) == 4
        assert len(state.zones["stock"]) == 24
        assert state.card_count() == 52
        assert state.zones["captures.0"] == state.zones["captures.1"] == []


def test_ct1_4_non_dealer_leads():
    for seed in range(6):
        deal = two.new_deal(seed=seed)
        assert deal.to_move == 1 - deal.state.dealer  # CT-1.4


def test_ct1_4_dealer_alternates_and_play_goes_round():
    events = []
    Match(two, 2, seed=4).play(events.append)
    deals = [e for e in events if e["type"] == "deal"]
    dealers = [e["dealer"] for e in deals]
    assert len(deals) == 6
    assert dealers == [dealers[0], 1 - dealers[0]] * 3  # CT-1.4 the dealer alternates
    # the first action of every deal is the non-dealer's, then turns alternate
    seats = []
    for e in events:
        if e["type"] == "deal":
            seats.append([])
        elif e["type"] == "action" and not e["action"].startswith("take"):
            seats[-1].append(e["seat"])
    for dealer, order in zip(dealers, seats, strict=False):
        assert order == [1 - dealer, dealer] * 12


def test_ct1_5_separate_piles_and_suits_never_limit():
    deal = position(two, hand0=["8♣", "K♦"], hand1=["2♠", "5♣"], table=["2♥", "8♦"], stock=["Q♦", "J♠", "A♠", "9♥"])
    deal.play("capture 8♣ 2♥")  # a black card takes a red one (CT-1.5: suits never matter)
    assert names(deal, "captures.0") == ["8♣", "2♥"]
    assert names(deal, "table") == ["8♦", "9♥"]  # the turned 9♥ took nothing
    deal.play("capture 2♠ 8♦")
    assert names(deal, "captures.1") == ["2♠", "8♦", "A♠", "9♥"]  # each player's own pile
    assert names(deal, "captures.0") == ["8♣", "2♥"]


def test_ct1_5_capture_piles_are_face_down():
    deal = two.new_deal(seed=2)
    assert two.rules.parsed_words("see", "captures") == "count"  # CT-1.5
    deal.state.zones["captures.0"].append(deal.state.zones["table"].pop())
    seen = deal.observe(1)["zones"]["captures.0"]
    assert seen == {"count": 1}
