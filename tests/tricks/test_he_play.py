"""Hearts played literally from snapshots: the worked example HE-6 and the rules it rests on.

Seats clockwise: 0 South, 1 West, 2 North, 3 East (tests/tricks/helpers.py).
"""

from __future__ import annotations

import pytest

from tapete import IllegalAction

from .helpers import NORTH, SOUTH, WEST, legal_cards, position, scores

CLASSIC = "hearts/classic"
HEARTS = [f"{r}♥" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]


def test_he_6_1_south_leads_the_two_of_clubs_and_north_takes_the_first_trick():
    # HE-6.1 / HE-3.1: South holds 2♣ and must lead it; HE-3.2 everyone holds a club and follows;
    # HE-3.4 the highest club wins and its taker leads next.
    deal = position(
        CLASSIC,
        to_move=SOUTH,
        hand0=["2♣", "A♠", "7♥"],
        hand1=["9♣", "4♦", "Q♠"],
        hand2=["K♣", "3♥", "8♦"],
        hand3=["5♣", "J♥", "2♠"],
    )
    assert legal_cards(deal) == ["2♣"]  # HE-3.1: not A♠, not the heart
    for card in ("2♣", "9♣", "K♣", "5♣"):
        deal.play(f"play {card}")
    assert deal.to_move == NORTH
    assert [deal.game.deck.format(c) for c in deal.state.zones[f"taken.{NORTH}"]] == ["2♣", "9♣", "K♣", "5♣"]
    assert deal.state.counters[f"tricks.{NORTH}"] == 1


def test_he_3_3_no_penalty_card_on_the_first_trick_unless_nothing_else_is_left():
    # HE-3.3: West has no club; of its hearts, Q♠ and a diamond only the diamond may go.
    deal = position(CLASSIC, to_move=WEST, trick=["2♣"], counters={"lead": SOUTH}, hand1=["4♦", "Q♠", "7♥"])
    assert legal_cards(deal) == ["4♦"]
    with pytest.raises(IllegalAction, match="first trick"):
        deal.play("play Q♠")
    # ...and with nothing but penalty cards, any of them (the ban removes cards only when others remain)
    deal = position(CLASSIC, to_move=WEST, trick=["2♣"], counters={"lead": SOUTH}, hand1=["Q♠", "7♥"])
    assert legal_cards(deal) == ["7♥", "Q♠"]


def test_he_3_2_following_suit_comes_before_the_first_trick_ban():
    # HE-3.3 "following suit comes first": a club must follow even if penalty cards could not go anyway
    deal = position(CLASSIC, to_move=WEST, trick=["2♣"], counters={"lead": SOUTH}, hand1=["9♣", "Q♠", "4♦"])
    assert legal_cards(deal) == ["9♣"]
    with pytest.raises(IllegalAction, match="must follow suit"):
        deal.play("play 4♦")


def test_he_6_2_east_discards_the_queen_and_south_takes_it_with_the_ace_of_diamonds():
    # HE-6.2: North leads 7♦; East has no diamond and plays Q♠; South A♦, West 3♦: South takes
    # the trick and its 13 points, and hearts are broken (HE-3.5: Q♠ breaks them).
    deal = position(
        CLASSIC,
        to_move=NORTH,
        counters={"played": 4},
        hand0=["A♦", "5♣"],
        hand1=["3♦", "6♣"],
        hand2=["7♦", "8♣"],
        hand3=["Q♠", "4♥"],
    )
    deal.play("play 7♦")
    assert legal_cards(deal) == ["4♥", "Q♠"]  # void in diamonds: any card
    for card in ("Q♠", "A♦", "3♦"):
        deal.play(f"play {card}")
    assert deal.to_move == SOUTH
    assert deal.state.counters["broken"] == 1
    assert scores(deal)[SOUTH] == 13


def test_he_3_5_hearts_are_not_led_until_broken_unless_the_leader_holds_only_hearts():
    deal = position(CLASSIC, to_move=SOUTH, counters={"played": 2}, hand0=["5♥", "9♥", "3♣"])
    assert legal_cards(deal) == ["3♣"]
    with pytest.raises(IllegalAction, match="not broken"):
        deal.play("play 5♥")
    deal = position(CLASSIC, to_move=SOUTH, counters={"played": 2}, hand0=["5♥", "9♥"])
    assert legal_cards(deal) == ["5♥", "9♥"]
    deal = position(CLASSIC, to_move=SOUTH, counters={"played": 2, "broken": 1}, hand0=["5♥", "3♣"])
    assert legal_cards(deal) == ["3♣", "5♥"]


def test_he_6_3_east_shoots_the_moon_and_everyone_else_scores_26():
    # HE-6.3 / HE-4.2: East took all 13 hearts and Q♠: East 0, the others 26 each (the script's score)
    deal = position(CLASSIC, to_move=SOUTH, counters={"played": 13}, taken3=[*HEARTS, "Q♠"], taken0=["2♣"])
    assert scores(deal) == [26, 26, 26, 0]


def test_he_4_1_each_player_scores_the_penalty_cards_of_their_tricks():
    # HE-1.3 / HE-4.1: a heart 1, Q♠ 13, every other card 0
    deal = position(CLASSIC, to_move=SOUTH, taken0=["2♥", "3♥", "K♠"], taken1=["Q♠", "4♥"], taken2=["A♣"])
    assert scores(deal) == [2, 14, 0, 0]
