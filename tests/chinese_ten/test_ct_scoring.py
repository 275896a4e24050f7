"""CT-4: red points, the deal result against 105, and the six-deal series."""

from __future__ import annotations

import pytest

from tapete import Ctx, Match
from tapete.core.ledger import Ledger

from .helpers import position, seat_rules, variants

two = variants["two-player"]

RED_VALUES = {
    "A": 20,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 10,
    "10": 10,
    "J": 10,
    "Q": 10,
    "K": 10,
}


def test_ct4_1_only_red_cards_score():
    deck, points = two.rules.deck, two.new_game().point_of
    for card in deck.ids:
        rank, suit = deck.rank_of[card], deck.suit_of[card]
        expected = RED_VALUES[rank] if suit in "♦♥" else 0  # CT-4.1 black A and 10 too: 0
        assert points[card] == expected, deck.names[card]


def test_ct4_2_the_deck_holds_210_and_105_breaks_even():
    assert sum(two.new_game().point_of) == 210  # CT-4.2
    assert two.options["break_even"] == 105


def _scores(deal):
    """What the match would record for each seat: the script's score and won rules."""
    return seat_rules(deal)


def test_ct4_2_result_is_points_minus_105_and_opposite():
    red = [f"{r}{s}" for s in "♦♥" for r in RED_VALUES]
    # seat 0 took red A-8 of both red suits + red 9 and 10 of hearts: 2*(20+35) + 20 = 130
    mine = [c for c in red if c[:-1] in ("A", "2", "3", "4", "5", "6", "7", "8")] + ["9♥", "10♥"]
    theirs = [c for c in red if c not in mine]
    deal = position(two, captures0=mine + ["A♠"], captures1=theirs + ["10♣"])
    assert [deal.game.points(deal.state, s) for s in (0, 1)] == [130, 80]
    assert _scores(deal) == [(25, True), (-25, False)]  # CT-4.2 opposite results
    assert deal.game.describe_deal(deal.state)[0].startswith("seat 0: 19 cards, 130 points, result +25")


def test_ct4_2_exactly_105_draws():
    # 105 each: seat 0 has both red aces (40), red K Q J 10 9 of hearts (50), 8♦ 7♦ (15)
    mine = ["A♥", "A♦", "K♥", "Q♥", "J♥", "10♥", "9♥", "8♦", "7♦"]
    red = [f"{r}{s}" for s in "♦♥" for r in RED_VALUES]
    deal = position(two, captures0=mine, captures1=[c for c in red if c not in mine])
    assert _scores(deal) == [(0, False), (0, False)]  # neither wins: a drawn deal


def test_ct4_3_a_series_of_six_deals_summed():
    events = []
    result = Match(two, 2, seed=11).play(events.append)
    scores = [e for e in events if e["type"] == "score"]
    assert result.deals == 6 == len(scores)  # CT-4.3
    totals = [sum(e["scores"][str(s)] for e in scores) for s in (0, 1)]
    assert totals == result.totals and totals[0] == -totals[1]
    assert result.winner == (-1 if totals[0] == totals[1] else totals.index(max(totals)))


@pytest.mark.parametrize("totals,winner", [([12, -12], 0), ([-3, 3], 1), ([0, 0], -1)])
def test_ct4_3_highest_total_wins_equal_totals_draw(totals, winner):
    ctx = Ctx(ledger=Ledger(2, totals=list(totals)))
    assert two.rules.expr("winner")(ctx) == winner  # CT-4.3 equal totals: a draw


def test_ct4_3_and_ct_v4_one_deal_is_a_valid_game():
    result = Match(variants["one-deal"], 2, seed=5).play()
    assert result.deals == 1  # CT-V4
    assert result.totals[0] == -result.totals[1]


def test_ct4_scoring_lines_are_printed():
    events = []
    Match(two, 2, seed=3).play(events.append)
    lines = [e["lines"] for e in events if e["type"] == "score"]
    assert all(len(ls) == 2 and "points" in ls[0] and "result" in ls[0] for ls in lines)
