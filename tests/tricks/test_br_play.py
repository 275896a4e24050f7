"""Briscola played literally from snapshots: the worked example BR-5 and the draw after each trick.

Seat 0 is the non-dealer, seat 1 the dealer (tests/tricks/helpers.py). Trump is cups (♥).
"""

from __future__ import annotations

from tapete import Ctx, load_variant
from tapete.core.ledger import Ledger

from .helpers import legal_cards, position, scores

CLASSIC = "briscola/classic"
CUPS = {"trump": 1 + load_variant(CLASSIC).rules.deck.suits.index("♥")}  # the public trump counter: cups


def text(deal, zone):
    return [deal.game.deck.format(c) for c in deal.state.zones[zone]]


def test_br_5_1_the_ace_beats_the_three_in_the_suit_led_and_the_winner_draws_first():
    # BR-5.1: the non-dealer leads 3♠, the dealer plays A♠ and wins 21 points; BR-3.4 the winner
    # draws the top of the stock first, then the other player the next card.
    deal = position(
        CLASSIC,
        players=2,
        dealer=1,
        to_move=0,
        counters=CUPS,
        hand0=["3♠", "4♦", "5♣"],
        hand1=["A♠", "K♦", "6♣"],
        stock=["7♦", "J♣", "2♦"],  # the last is the top
        turned=["4♥"],
    )
    assert len(legal_cards(deal)) == 3  # BR-3.2 any card
    deal.play("play 3♠")
    deal.play("play A♠")
    assert deal.to_move == 1 and scores(deal) == [0, 21]
    assert text(deal, "taken.1") == ["3♠", "A♠"]
    assert "2♦" in text(deal, "hand.1") and "J♣" in text(deal, "hand.0")  # winner first
    assert sum(deal.game.tables["points"][c] for c in deal.state.zones["taken.1"]) == 21


def test_br_5_2_any_trump_beats_any_card_of_another_suit():
    # BR-5.2: the dealer leads K♦; the non-dealer plays 2♥, a trump, and wins 4 points
    deal = position(CLASSIC, players=2, dealer=1, to_move=1, counters=CUPS, hand0=["2♥"], hand1=["K♦"])
    deal.play("play K♦")
    deal.play("play 2♥")
    assert text(deal, "taken.0") == ["K♦", "2♥"]


def test_br_5_3_a_card_of_another_suit_that_is_not_a_trump_never_wins():
    # BR-5.3: the non-dealer leads 7♣; the dealer plays Q♠ and loses: 7♣ wins 3 points
    deal = position(CLASSIC, players=2, dealer=1, to_move=0, counters=CUPS, hand0=["7♣"], hand1=["Q♠"])
    deal.play("play 7♣")
    deal.play("play Q♠")
    assert text(deal, "taken.0") == ["7♣", "Q♠"] and deal.over


def test_br_3_4_the_turned_card_is_drawn_last_by_the_loser_of_the_trick():
    deal = position(
        CLASSIC,
        players=2,
        dealer=1,
        to_move=0,
        counters=CUPS,
        hand0=["2♣", "4♦", "5♣"],
        hand1=["A♣", "K♦", "6♣"],
        stock=["J♣"],
        turned=["4♥"],
    )
    deal.play("play 2♣")
    deal.play("play A♣")  # seat 1 wins and draws the stock's top; seat 0 draws the turned card
    assert "J♣" in text(deal, "hand.1") and "4♥" in text(deal, "hand.0")
    assert deal.state.zones["turned"] == [] and deal.state.zones["stock"] == []


def won(deal):
    """Who wins the deal by the script's ``won`` rule."""
    rules = deal.game.rules
    ctx = Ctx(game=deal.game, state=deal.state, ledger=Ledger(2))
    return [s for s in range(2) if rules.condition("won")(ctx.for_seat(s))]


def test_br_4_1_more_than_60_wins_the_deal_and_60_each_is_a_draw():
    many = ["A♦", "3♦", "K♦", "A♥", "3♥", "K♥", "A♠", "3♠"]  # 11+10+4+11+10+4+11+10 = 71
    deal = position(CLASSIC, players=2, dealer=1, to_move=0, taken0=many)
    assert scores(deal) == [71, 0] and won(deal) == [0]
    even = ["A♦", "3♦", "K♦", "A♥", "3♥", "K♥", "Q♦", "Q♥", "J♦", "J♥"]  # 60
    deal = position(CLASSIC, players=2, dealer=1, to_move=0, taken0=even)
    assert scores(deal) == [60, 0] and won(deal) == []  # BR-4.1 60 each: nobody wins the deal
