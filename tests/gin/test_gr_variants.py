"""The Gin Rummy variants GR-V3 ... GR-V6 (GR-V1 and GR-V2 are in test_gr_rules)."""

from __future__ import annotations

from gin_helpers import make_deal, rule, texts, variant

from tapete import Match, load_variant

KNOCKER = "3♥ 4♥ 5♥ 9♠ 9♦ 9♣ K♣ K♦ K♥ 2♣ 7♣"  # GR-7: deadwood 2 once 7♣ goes face down
OPPONENT = "6♥ 7♥ 8♣ 8♦ 8♥ J♠ Q♠ 2♦ 4♣ 5♠"  # deadwood 31 after laying off
HAND_8 = "A♠ 2♠ 3♠ 4♦ 5♦ 6♦ 9♣ 9♥ 9♠ 8♠ K♥"  # deadwood 8 once K♥ goes


def test_gr_v3_knock_card_sets_the_knock_limit():
    strict = load_variant("gin/standard", options={"knock_card": 5})
    deal = strict.deal_from_snapshot(
        {
            "players": 2,
            "dealer": 1,
            "to_move": 0,
            "zones": {"hand.0": HAND_8.split(), "hand.1": OPPONENT.split(), "stock": ["10♥"], "discard": ["5♣"]},
            "counters": {"drawn": 1},
        }
    )
    assert not any(t.startswith("knock") for t in texts(deal))
    assert any(t.startswith("knock") for t in texts(make_deal([HAND_8, OPPONENT], counters={"drawn": 1})))


def test_gr_v4_oklahoma_the_upcard_sets_the_limit_and_a_spade_doubles():
    low = make_deal([HAND_8, OPPONENT], counters={"drawn": 1}, data={"upcard": "5♥"}, name="oklahoma")
    assert not any(t.startswith("knock") for t in texts(low))  # 8 > 5
    high = make_deal([KNOCKER, OPPONENT], counters={"drawn": 1}, data={"upcard": "Q♠"}, name="oklahoma")
    high.play("knock 7♣")
    assert rule(high, "score", 0) == 2 * 29  # GR-7's 29, doubled by the spade
    plain = make_deal([KNOCKER, OPPONENT], counters={"drawn": 1}, data={"upcard": "Q♥"}, name="oklahoma")
    plain.play("knock 7♣")
    assert rule(plain, "score", 0) == 29


def test_gr_v5_single_hand_is_zero_sum_as_openspiel_scores_it():
    deal = make_deal([KNOCKER, OPPONENT], counters={"drawn": 1}, name="single-hand")
    deal.play("knock 7♣")
    assert [rule(deal, "score", s) for s in (0, 1)] == [29, -29]
    result = Match(variant("single-hand"), 2, seed=5).play()
    assert sum(result.totals) == 0 and result.totals[result.winner] > 0  # one hand, no bonuses


def test_gr_v6_big_gin_goes_out_without_a_discard_for_31():
    eleven = "A♠ 2♠ 3♠ 4♦ 5♦ 6♦ 9♣ 9♥ 9♠ 9♦ 7♦"  # 4♦-7♦ and the four nines
    deal = make_deal([eleven, OPPONENT], counters={"drawn": 1}, name="big-gin")
    assert "knock" in texts(deal)
    deal.play("knock")
    assert deal.over and deal.state.counters["big_gin"] == 1
    assert rule(deal, "score", 0) == 31 + 44  # the opponent keeps 8♣ 8♦ 8♥; nothing is laid off on gin
    assert "knock" not in texts(make_deal([eleven, OPPONENT], counters={"drawn": 1}))  # not in standard
