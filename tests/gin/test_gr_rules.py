"""Gin Rummy rules GR-1 ... GR-6, each as a small worked example."""

from __future__ import annotations

import pytest
from gin_helpers import make_deal, names, rule, texts, variant

from tapete import Ctx, IllegalAction, Match
from tapete.core.ledger import Ledger


def test_gr3_ten_cards_each_the_upcard_and_a_31_card_stock():
    deal = variant().new_deal(seed=7)
    s = deal.state
    assert [len(s.zones["hand.0"]), len(s.zones["hand.1"])] == [10, 10]  # GR-3.2
    assert len(s.zones["discard"]) == 1 and len(s.zones["stock"]) == 31
    assert deal.to_move == 1 - s.dealer  # GR-3.2 the non-dealer plays first
    assert s.data["upcard"] == names(deal, "discard")[0]


def test_gr1_values_ace_low_runs_and_no_wrapping():
    game = variant().new_game()
    solver, deck = game.solver, game.deck

    def deadwood(text):
        return solver.penalty([deck.parse(c) for c in text.split()])

    assert deadwood("A♠ 2♠ 3♠") == 0  # GR-1.2 A-2-3 is a run
    assert deadwood("Q♠ K♠ A♠") == 21  # GR-1.2 Q-K-A is not; GR-1.3 ace 1, court 10
    assert deadwood("7♦ 7♣ 7♥ 7♠ 2♥") == 2  # GR-2.1 a set of four


def test_gr41_the_upcard_goes_to_the_non_dealer_then_the_dealer_then_the_stock():
    deal = make_deal(["2♣ 3♣", "4♣ 5♣"], stock="6♣ 7♣", discard="K♥", counters={"offer": 1})
    assert texts(deal) == ["draw discard", "pass"]
    deal.play("pass")
    assert deal.to_move == 1 and texts(deal) == ["draw discard", "pass"]  # the dealer may take it
    deal.play("pass")
    assert deal.to_move == 0 and texts(deal) == ["draw stock"]  # both passed: the non-dealer draws
    with pytest.raises(IllegalAction, match="GR-4.1"):
        deal.play("draw discard")
    deal.play("draw stock")
    assert names(deal, "hand.0") == ["2♣", "3♣", "7♣"]


def test_gr41_whoever_takes_the_upcard_discards_and_play_passes_to_the_other():
    deal = make_deal(["2♣ 3♣", "4♣ 5♣"], stock="A♦ 2♦ 6♣ 7♣", discard="K♥", counters={"offer": 1})
    deal.play("pass")
    deal.play("draw discard")  # the dealer takes it
    deal.play("discard 4♣")
    assert deal.to_move == 0 and texts(deal) == ["draw discard", "draw stock"]


def test_gr42_a_card_taken_from_the_discard_pile_stays_this_turn():
    deal = make_deal(["2♣ 3♣ 9♥", "4♣ 5♣ 6♥"], stock="A♦ 6♣ 7♣", discard="K♥")
    deal.play("draw discard")
    assert "discard K♥" not in texts(deal)
    with pytest.raises(IllegalAction, match="GR-4.2"):
        deal.play("discard K♥")
    deal.play("discard 9♥")
    assert names(deal, "discard") == ["9♥"]


def test_gr_v2_the_card_taken_may_go_straight_back():
    deal = make_deal(["2♣ 3♣ 9♥", "4♣ 5♣ 6♥"], stock="A♦ 6♣ 7♣", discard="K♥", name="discard-taken")
    deal.play("draw discard")
    deal.play("discard K♥")
    assert names(deal, "discard") == ["K♥"]


HAND_8 = "A♠ 2♠ 3♠ 4♦ 5♦ 6♦ 9♣ 9♥ 9♠ 8♥"  # deadwood 8 (8♥)


def test_gr43_knock_with_deadwood_ten_or_less_and_never_on_more():
    deal = make_deal([HAND_8, "J♣ Q♣ K♣ J♦ Q♦ 2♥ 3♥ 4♥ 7♣ 7♦"], stock="10♥ K♠ Q♠ J♠", discard="5♣")
    deal.play("draw stock")  # J♠: knocking discards it face down, deadwood 8
    assert "knock J♠" in texts(deal) and "knock 8♥" in texts(deal)  # GR-4.4 optional: discards stay
    assert "knock 9♣" not in texts(deal)  # 9♣ out leaves 9♥ 9♠ 8♥ J♠ = 36
    with pytest.raises(IllegalAction, match="leave 36 point"):
        deal.play("knock 9♣")


def test_gr51_the_knocker_does_not_lay_off_but_the_opponent_does():
    # Knocker: run 4♦-6♦ and deadwood 7♣; the opponent's set of sevens could take 7♣ but the knocker never lays off.
    deal = make_deal(
        ["A♠ 2♠ 3♠ 4♦ 5♦ 6♦ 9♣ 9♥ 9♠ 7♣ K♥", "7♥ 7♦ 7♠ 3♦ J♣ Q♣ 2♥ 3♥ 8♣ K♦"],
        stock="10♥",
        discard="5♣",
        counters={"drawn": 1},
    )
    deal.play("knock K♥")
    assert deal.state.counters["unmatched.0"] == 7
    assert names(deal, "hand.0") == ["7♣"]
    # the opponent lays 3♦ on the run 4♦-6♦ (GR-5.1)
    assert deal.state.counters["unmatched.1"] == 10 + 10 + 2 + 3 + 8 + 10
    assert rule(deal, "score", 0) == 43 - 7  # GR-6.1


def test_gr51_gr63_nothing_is_laid_off_on_gin_and_gin_scores_the_deadwood_plus_25():
    deal = make_deal(
        ["A♠ 2♠ 3♠ 4♦ 5♦ 6♦ 9♣ 9♥ 9♠ 9♦ K♥", "7♦ 3♦ J♣ Q♣ 2♥ 3♥ 8♣ K♦ 10♠ 4♠"],
        stock="10♥",
        discard="5♣",
        counters={"drawn": 1},
    )
    deal.play("knock K♥")
    assert deal.state.counters["full_close"] == 1
    # 7♦, 3♦ and 4♠ would fit the runs, but gin takes no lay-offs (GR-5.1)
    assert deal.state.counters["unmatched.1"] == 7 + 3 + 10 + 10 + 2 + 3 + 8 + 10 + 10 + 4
    assert rule(deal, "score", 0) == 67 + 25 and rule(deal, "score", 1) == 0


def test_gr62_an_undercut_gives_the_opponent_the_difference_plus_25():
    deal = make_deal(
        ["A♠ 2♠ 3♠ 4♦ 5♦ 6♦ 9♣ 9♥ 9♠ 8♥ K♥", "7♣ 7♥ 7♦ J♣ Q♣ K♣ 2♥ 3♥ 4♥ 3♣"],
        stock="10♥",
        discard="5♣",
        counters={"drawn": 1},
    )
    deal.play("knock K♥")  # deadwood 8 against the opponent's 3 (3♣)
    assert deal.state.counters["unmatched.1"] == 3
    assert rule(deal, "score", 0) == 0
    assert rule(deal, "score", 1) == 8 - 3 + 25
    assert rule(deal, "won", 1, "condition") and not rule(deal, "won", 0, "condition")


def test_gr62_equal_deadwood_is_an_undercut_too():
    deal = make_deal(
        ["A♠ 2♠ 3♠ 4♦ 5♦ 6♦ 9♣ 9♥ 9♠ 8♥ K♥", "7♣ 7♥ 7♦ J♣ Q♣ K♣ 2♥ 3♥ 4♥ 8♣"],
        stock="10♥",
        discard="5♣",
        counters={"drawn": 1},
    )
    deal.play("knock K♥")
    assert rule(deal, "score", 1) == 0 + 25 and rule(deal, "score", 0) == 0


def test_gr53_two_stock_cards_left_after_a_discard_void_the_hand():
    deal = make_deal(["2♣ 3♣ 9♥", "4♣ 5♣ 6♥"], stock="A♦ 6♣ 7♣", discard="K♥")
    deal.play("draw stock")  # the third-last card
    deal.play("discard 9♥")
    assert deal.over and deal.state.data["void"]


def test_gr53_a_void_hand_scores_nothing_and_the_same_dealer_deals_again():
    events = []
    Match(variant(), 2, seed=1).play(events.append)
    kinds = [e["type"] for e in events]
    assert "void" in kinds
    i = kinds.index("void")
    before = next(e for e in reversed(events[:i]) if e["type"] == "deal")
    after = next(e for e in events[i:] if e["type"] == "deal")
    assert after["dealer"] == before["dealer"]


def test_gr31_the_winner_of_a_hand_deals_the_next():
    events = []
    Match(variant(), 2, seed=4, bots=["heuristic", "random"]).play(events.append)
    for k, e in enumerate(events):
        if e["type"] == "score":
            nxt = next((d for d in events[k:] if d["type"] == "deal"), None)
            if nxt is not None:
                winner = [int(s) for s, v in e["scores"].items() if v > 0]
                assert winner == [nxt["dealer"]]


def test_gr_v1_the_deal_alternates():
    events = []
    Match(variant("alternate-deal"), 2, seed=4, bots=["heuristic"]).play(events.append)
    dealers = []
    for e in events:
        if e["type"] == "deal":
            dealers.append(e["dealer"])
        if e["type"] == "void":
            dealers.pop()  # the same dealer deals again
    assert len(dealers) > 2 and all(a != b for a, b in zip(dealers, dealers[1:], strict=False))


def bonus(totals, deals_won, winner, name="standard"):
    ledger = Ledger(2, totals=list(totals), deals_won=list(deals_won))
    expr = variant(name).rules.expr("match_bonus")
    return [expr(Ctx(ledger=ledger, seat=s, extra={"winner": winner})) for s in (0, 1)]


def test_gr64_game_bonus_100_and_25_a_hand_won_to_each():
    assert bonus([104, 61], [4, 3], winner=0) == [100 + 4 * 25, 3 * 25]


def test_gr64_a_shutout_doubles_the_winners_whole_score():
    assert bonus([110, 0], [3, 0], winner=0) == [110 + 2 * (100 + 3 * 25), 0]  # (110 + 175) * 2 in all


def test_gr64_a_match_ends_at_100_with_its_bonuses():
    result = Match(variant(), 2, seed=2, bots=["heuristic"]).play()
    w, lose = result.winner, 1 - result.winner
    assert result.totals[w] >= 100 + 100 + 25 * result.deals_won[w]
    assert result.totals[lose] % 1 == 0 and result.deals_won[w] >= 1
