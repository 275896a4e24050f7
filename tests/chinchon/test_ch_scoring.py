"""Scoring, elimination and the end of the match (CH-6).

Match-level tests replace each deal's scores with scripted ones through the
``tapete_deal_scored`` hook, so that the totals are known exactly.
"""

from __future__ import annotations

from chinchon_helpers import forced_variant, make_deal, rule, variant

from tapete import Match


def play(v, players):
    events = []
    result = Match(v, players, seed=3, bots=["heuristic"]).play(events.append)
    return result, [e for e in events if e["type"] == "score"]


def test_ch_6_1_totals_start_at_zero_and_add_the_unmatched_points():
    """CH-6.1: totals start at zero and add the unmatched points."""
    result, scores = play(variant(), 3)
    totals = [0, 0, 0]
    for record in scores:
        for seat, points in record["scores"].items():
            totals[int(seat)] += points
        assert record["totals"] == totals
    assert result.totals == totals
    # a player who did not close adds the points of their unmatched cards
    deal = make_deal(["3♥ 4♥ 5♥ Q♣ Q♦ Q♠ A♣", "2♣ 6♦ 7♦ K♠ J♠ Q♥ 2♠"], stock="3♣ A♠")
    deal.play("draw stock")
    deal.play("close A♠")
    assert rule(deal, "score", 1) == deal.state.counters["unmatched.1"] == 2 + 6 + 7 + 10 + 8 + 2
    assert rule(deal, "score", 0) == 1


def test_ch_6_2_full_close_scores_minus_ten_another_zero_scores_zero():
    """CH-6.2: full close scores minus ten another zero scores zero."""
    deal = make_deal(["3♥ 4♥ 5♥ 7♣ 7♦ 7♠ A♦", "J♣ Q♣ K♣ 2♠ 3♠ 4♠ 5♠"], stock="A♣ 6♥")
    deal.play("draw stock")
    deal.play("close A♦")
    assert rule(deal, "score", 0) == -10
    assert deal.state.counters["unmatched.1"] == 0 and rule(deal, "score", 1) == 0


def test_ch_6_2_a_total_may_go_negative():
    """CH-6.2: a total may go negative."""
    result, scores = play(forced_variant("fournier", {0: -10, 1: 5}, {0: -10, 1: 200}), 2)
    assert scores[0]["totals"] == [-10, 5]
    assert result.totals == [-20, 205] and result.winner == 0


def test_ch_6_3_exactly_100_stays_in_101_goes_out():
    """CH-6.3: exactly 100 stays in 101 goes out."""
    result, scores = play(forced_variant("fournier", {0: 100, 1: 101, 2: 50}, {0: 1, 2: 0}), 3)
    assert scores[0]["totals"] == [100, 101, 50] and scores[0]["out"] == [False, True, False]
    # CH-6.4 the last player not out wins the match
    assert scores[1]["out"] == [True, True, False]
    assert result.winner == 2 and result.deals == 2


def test_ch_6_3_the_out_rule_reads_above_the_limit():
    """CH-6.3: the out rule reads above the limit."""
    deal = make_deal(["3♥ 4♥ 5♥ 7♣ 7♦ 7♠ A♦", "J♣ Q♣ K♣ 2♠ 3♠ 4♠ 5♠"])
    assert not rule(deal, "out", 0, kind="condition", totals=[100, 101])
    assert rule(deal, "out", 1, kind="condition", totals=[100, 101])


def test_ch_6_4_the_last_player_standing_wins():
    """CH-6.4: the last player standing wins."""
    result, scores = play(forced_variant("fournier", {0: 30, 1: 30}, {0: 75, 1: 60}), 2)
    assert scores[-1]["out"] == [True, False]
    assert result.winner == 1 and result.deals == 2


def test_ch_6_5_all_out_together_the_lowest_total_wins():
    """CH-6.5: all out together the lowest total wins."""
    result, scores = play(forced_variant("fournier", {0: 120, 1: 110, 2: 130}), 3)
    assert result.winner == 1 and result.deals == 1
    assert scores[0]["out"] == [True, False, True]


def test_ch_6_5_a_shared_lowest_total_plays_on_until_the_totals_differ():
    """CH-6.5: a shared lowest total plays on until the totals differ."""
    result, scores = play(forced_variant("fournier", {0: 110, 1: 110, 2: 130}, {0: 3, 1: 3}, {0: 3, 1: 2}), 3)
    assert scores[0]["out"] == [False, False, True]  # the two at 110 play on
    assert scores[1]["out"] == [False, False, True]  # 113 and 113: still tied
    assert scores[2]["totals"][:2] == [116, 115]
    assert result.winner == 1 and result.deals == 3
