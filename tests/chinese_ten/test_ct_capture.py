"""CT-2: a turn plays a hand card, then turns the stock card; forced capture, one card at a time."""

from __future__ import annotations

import pytest

from tapete import IllegalAction

from .helpers import legal, names, position, says, variants

two = variants["two-player"]

SUM_PAIRS = [("A", "9"), ("2", "8"), ("3", "7"), ("4", "6"), ("5", "5")]


@pytest.mark.parametrize("mine,theirs", SUM_PAIRS + [(b, a) for a, b in SUM_PAIRS if a != b])
def test_ct2_1_cards_a_to_9_take_the_card_that_makes_ten(mine, theirs):
    deal = position(two, hand0=[mine + "♣", "K♠"], table=[theirs + "♥", "Q♦"], stock=["J♣", "J♦"])
    assert f"capture {mine}♣ {theirs}♥" in legal(deal)  # CT-2.1 (ace counts 1)


@pytest.mark.parametrize("rank", ["10", "J", "Q", "K"])
def test_ct2_1_ten_and_pictures_take_only_their_own_rank(rank):
    deal = position(
        two,
        hand0=[rank + "♣"],
        table=[r + "♥" for r in ("10", "J", "Q", "K") if r != rank] + [rank + "♦", "A♦"],
        stock=["2♣"],
    )
    assert legal(deal) == [f"capture {rank}♣ {rank}♦"]  # CT-2.1 same rank only


def test_ct2_1_no_other_pairs():
    deal = position(two, hand0=["6♣"], table=["6♥", "10♦", "5♦", "A♥"], stock=["2♣"])
    assert legal(deal) == ["play 6♣"]  # 6+6, 6+10, 6+5, 6+1 are not 10


def test_ct2_2_a_choice_between_two_capturable_cards():
    deal = position(two, hand0=["3♣"], table=["7♥", "7♠"], stock=["K♣"])
    assert legal(deal) == ["capture 3♣ 7♠", "capture 3♣ 7♥"]  # CT-2.2 one action per target
    deal.play("capture 3♣ 7♠")  # the player chooses the black one
    assert names(deal, "captures.0") == ["3♣", "7♠"]
    assert names(deal, "table") == ["7♥", "K♣"]


def test_ct2_2_several_table_cards_are_never_summed():
    """CT-2.2: 6 + 2 + 2 makes 10, but a card takes one table card only."""
    deal = position(two, hand0=["6♣"], table=["2♥", "2♦"], stock=["K♣"])
    assert legal(deal) == ["play 6♣"]
    with pytest.raises(IllegalAction, match="never summed"):
        deal.play("capture 6♣ 2♥ 2♦")
    with pytest.raises(IllegalAction):
        deal.play("capture 6♣ 2♥")


def test_ct2_2_the_stock_card_choice_belongs_to_the_player_to_move():
    """CT-2.2 / CT-2.4: a turned card matching several table cards: the mover chooses."""
    deal = position(two, hand0=["K♠", "Q♣"], hand1=["J♣"], table=["6♥", "6♣"], stock=["2♣", "4♦"])
    events = deal.play("play K♠")
    assert says(events) == ["plays K♠; turns 4♦, which may take 6♥ or 6♣"]
    assert names(deal, "turned") == ["4♦"]
    assert deal.to_move == 0  # the same player chooses
    assert legal(deal) == ["take 4♦ 6♣", "take 4♦ 6♥"]
    with pytest.raises(IllegalAction, match="turned 4♦"):
        deal.play("play Q♣")  # the choice comes first
    events = deal.play("take 4♦ 6♥")
    assert says(events) == ["turned 4♦ takes 6♥"]
    assert names(deal, "captures.0") == ["4♦", "6♥"]
    assert names(deal, "table") == ["6♣", "K♠"]
    assert deal.to_move == 1  # then the turn passes


def test_ct2_3_capture_is_forced():
    deal = position(two, hand0=["8♣", "K♠"], table=["2♥"], stock=["Q♣", "J♣"])
    before = deal.snapshot()
    with pytest.raises(IllegalAction, match=r"must capture \(CT-2.3\)"):
        deal.play("play 8♣")
    assert deal.snapshot() == before  # a refused move changes nothing
    deal.play("capture 8♣ 2♥")
    assert names(deal, "captures.0") == ["8♣", "2♥"]  # CT-2.3 the pair goes to the pile


def test_ct2_3_a_card_that_captures_nothing_stays_on_the_table():
    deal = position(two, hand0=["8♣", "K♠"], table=["2♥"], stock=["Q♣", "J♣"])
    deal.play("play K♠")  # a card that cannot capture may be played instead
    assert names(deal, "table") == ["2♥", "K♠", "J♣"]
    with pytest.raises(IllegalAction, match="takes nothing"):
        position(two, hand0=["K♠"], table=["2♥"], stock=["Q♣"]).play("capture K♠ 2♥")


def test_ct2_4_the_stock_card_meets_the_table_as_it_now_stands():
    """CT-2.4: the turned stock card is resolved against the table after the hand card."""
    # the 2♥ is gone when the stock's 8♦ is turned: the 8♦ stays
    deal = position(two, hand0=["8♣", "K♠"], table=["2♥", "5♠"], stock=["Q♣", "8♦"])
    deal.play("capture 8♣ 2♥")
    assert names(deal, "table") == ["5♠", "8♦"]
    # the card just played is already on the table: the stock's 7♦ takes it
    deal = position(two, hand0=["3♣", "K♠"], table=["Q♥"], stock=["Q♣", "7♦"])
    events = deal.play("play 3♣")
    assert says(events) == ["plays 3♣; turns 7♦, takes 3♣"]
    assert names(deal, "captures.0") == ["7♦", "3♣"]


def test_ct2_4_the_stock_card_never_goes_to_the_hand_and_cannot_be_skipped():
    """CT-2.4: no draw, no skipping the second action; the turn passes after it."""
    deal = position(two, hand0=["K♠", "Q♠"], hand1=["J♣"], table=["A♥"], stock=["2♣", "5♦"])
    for move in ("draw", "pass", "draw stock"):
        with pytest.raises(IllegalAction):
            deal.play(move)
    assert all(a.kind in ("play", "capture") for a in deal.legal_actions())
    deal.play("play K♠")
    assert names(deal, "hand.0") == ["Q♠"]  # one card fewer, none drawn
    assert names(deal, "stock") == ["2♣"]  # the stock card was turned
    assert names(deal, "table") == ["A♥", "K♠", "5♦"]
    assert deal.to_move == 1


def test_ct2_refusals_say_why():
    """CT-2.1 / CT-2.3: an illegal move is refused with the reason and the legal choices."""
    deal = position(two, hand0=["8♣"], table=["2♥", "2♦"], stock=["Q♣"])
    with pytest.raises(IllegalAction, match="not in your hand"):
        deal.play("play 9♣")
    with pytest.raises(IllegalAction, match="may take 2♥ or 2♦"):
        deal.play("capture 8♣ Q♣")
    with pytest.raises(IllegalAction, match="no turned stock card"):
        deal.play("take 8♣ 2♥")
