"""CT-5: the rules document's worked example, as a snapshot test."""

from __future__ import annotations

from .helpers import legal, names, position, says, variants

two = variants["two-player"]


def test_ct5_two_captures_in_one_turn():
    # CT-5 Table 2♥ 6♣ J♦ 9♠; the player plays 8♣; the stock card is 4♦.
    deal = position(
        two, hand0=["8♣", "K♠"], hand1=["Q♣", "3♠"], table=["2♥", "6♣", "J♦", "9♠"], stock=["7♣", "A♣", "4♦"]
    )
    assert legal(deal) == ["capture 8♣ 2♥", "play K♠"]

    events = deal.play("capture 8♣ 2♥")

    # 8 + 2 = 10 takes 2♥; then 4 + 6 = 10 takes 6♣ from the table as it now stands.
    assert says(events) == ["plays 8♣, takes 2♥; turns 4♦, takes 6♣"]
    assert names(deal, "captures.0") == ["8♣", "2♥", "4♦", "6♣"]
    assert names(deal, "table") == ["J♦", "9♠"]  # J♦ is not captured yet
    assert names(deal, "stock") == ["7♣", "A♣"]
    assert names(deal, "hand.0") == ["K♠"]
    # red 2♥ and 4♦: 2 + 4 = 6 points this turn
    assert deal.game.points(deal.state, 0) == 6
    assert deal.to_move == 1  # only now does the turn pass
