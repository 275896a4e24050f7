"""SC-3.6 sweeps, SC-3.7 the rest of the table, SC-4 the count, SC-5 the game to 11."""

from __future__ import annotations

import pytest

from tapete import Ctx, Match
from tapete.core.ledger import Ledger

from .helpers import deal_scores, names, position, prizes, says, variants

classic = variants["classic"]


def test_sc3_6_a_capture_that_empties_the_table_is_a_scopa():
    deal = position(classic, hand0=["7♣", "2♣"], hand1=["4♣", "5♣"], table=["3♦", "4♥"])
    events = deal.play("capture 7♣ 3♦ 4♥")
    assert says(events) == ["plays 7♣, takes 3♦ 4♥", "sweep (scopa) by seat 0"]
    assert deal.state.counters["sweeps.0"] == 1
    assert names(deal, "table") == []


def test_sc3_6_no_scopa_on_the_very_last_play_of_the_deal():
    deal = position(classic, dealer=0, to_move=0, hand0=["7♣"], table=["3♦", "4♥"], counters={"last_capturer": 1})
    events = deal.play("capture 7♣ 3♦ 4♥")
    assert says(events) == ["plays 7♣, takes 3♦ 4♥"]
    assert deal.over and deal.state.counters.get("sweeps.0", 0) == 0


def test_sc3_6_playing_to_an_empty_table_is_no_scopa():
    deal = position(classic, hand0=["7♣", "2♣"], hand1=["4♣"], table=[])
    deal.play("play 7♣")
    assert deal.state.counters.get("sweeps.0", 0) == 0


def test_sc3_7_the_last_capturer_takes_the_rest_and_it_is_no_scopa():
    deal = position(
        classic, dealer=0, to_move=1, hand0=["K♠"], hand1=["5♣"], table=["5♦", "J♥"], captures1=["2♣", "2♦"]
    )
    deal.play("capture 5♣ 5♦")  # seat 1 captures ...
    events = deal.play("play K♠")  # ... then seat 0 plays the deal's last card, taking nothing
    assert says(events) == ["plays K♠", "the last capturer, seat 1, takes J♥ K♠"]
    assert deal.over
    assert names(deal, "captures.1") == ["2♣", "2♦", "5♣", "5♦", "J♥", "K♠"]
    assert names(deal, "table") == [] and deal.state.counters.get("sweeps.1", 0) == 0


def pile(*ranks_and_suits: str) -> list[str]:
    return list(ranks_and_suits)


def finished(captures0, captures1, sweeps=(0, 0)):
    counters = {f"sweeps.{s}": n for s, n in enumerate(sweeps) if n}
    return position(classic, captures0=captures0, captures1=captures1, counters=counters)


def test_sc4_1_the_count_cards_coins_settebello_primiera():
    mine = ["7♦", "7♣", "7♥", "7♠", "A♦", "2♦", "3♦", "K♣", "J♣", "2♠", "3♠", "4♠", "5♠", "6♠"]  # 14 cards, 4 coins
    theirs = ["4♦", "5♦", "6♦", "J♦", "Q♦", "A♣", "2♣"]  # 7 cards, 5 coins, no cups
    deal = finished(mine, theirs, sweeps=(0, 2))
    assert prizes(deal) == [["cards", "primiera", "settebello"], ["coins"]]
    assert deal_scores(deal) == [3, 1 + 2]  # SC-4.3 each scopa adds a point


def test_sc4_1_a_tie_for_cards_or_coins_scores_nothing():
    deal = finished(["A♦", "2♦", "3♣"], ["4♦", "5♦", "6♣"])
    assert prizes(deal) == [[], []]  # 3 cards each, 2 coins each, nobody has every suit
    assert deal_scores(deal) == [0, 0]


@pytest.mark.parametrize(
    "mine,theirs,winner",
    [
        # SC-4.2 7 = 21, 6 = 18, A = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, pictures 10
        (["7♦", "6♣", "A♥", "5♠"], ["6♦", "7♣", "5♥", "A♠"], None),  # 70 against 70: a tie
        (["7♦", "7♣", "7♥", "2♠"], ["6♦", "6♣", "6♥", "6♠"], 0),  # 63 + 12 = 75 against 72
        (["7♦", "2♣", "2♥", "2♠"], ["6♦", "6♣", "6♥", "6♠"], 1),  # 21 + 36 = 57 against 72
        (["K♦", "K♣", "K♥", "K♠"], ["7♦", "7♣", "7♥"], 0),  # 40 with all four suits beats three sevens
        (["7♦", "7♣", "7♥"], ["7♠", "6♦", "6♣"], None),  # neither has all four suits: nobody
    ],
)
def test_sc4_2_primiera(mine, theirs, winner):
    deal = finished(mine, theirs)
    won = [("primiera" in p) for p in prizes(deal)]
    assert won == [winner == 0, winner == 1]


def test_sc4_2_primiera_takes_the_best_card_of_each_suit():
    deal = finished(["7♦", "2♦", "6♣", "A♥", "K♠", "5♠"], [])
    ctx = Ctx(game=deal.game, state=deal.state, seat=0)
    from tapete_plugins.chinese_ten.words import primiera

    assert primiera(ctx) == 21 + 18 + 16 + 15  # 7♦, 6♣, A♥, 5♠


@pytest.mark.parametrize(
    "totals,ends,winner",
    [([10, 9], False, None), ([11, 3], True, 0), ([11, 12], True, 1), ([12, 12], False, None)],
)
def test_sc5_1_the_game_ends_at_11_and_a_tie_at_the_top_plays_on(totals, ends, winner):
    rules = classic.rules
    ctx = Ctx(game=classic.new_game(), ledger=Ledger(2, totals=list(totals)))
    assert bool(rules.condition("match_ends")(ctx)) == ends
    if ends:
        assert rules.expr("winner")(ctx) == winner


def test_a_match_plays_to_11_and_every_deal_counts_all_40_cards():
    history = Match(classic, 2, seed=5).play().history
    assert max(history[-1]["totals"]) >= 11
    for record in history:
        cards = sum(int(line.split(": ")[1].split(" cards")[0]) for line in record["lines"])
        assert cards == 40  # SC-3.7 nothing is left on the table
