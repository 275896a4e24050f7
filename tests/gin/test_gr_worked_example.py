"""GR-7, the worked example of the Gin Rummy rules, played move by move."""

from __future__ import annotations

from gin_helpers import make_deal, names, rule

KNOCKER = "3♥ 4♥ 5♥ 9♠ 9♦ 9♣ K♣ K♦ K♥ 2♣ 7♣"  # after drawing 7♣, which goes face down
OPPONENT = "6♥ 7♥ 8♣ 8♦ 8♥ J♠ Q♠ 2♦ 4♣ 5♠"


def test_gr7_the_opponent_keeps_the_set_lays_off_on_the_run_and_the_knocker_scores_29():
    deal = make_deal([KNOCKER, OPPONENT], stock="A♠ 2♠ 3♠ 4♠ 5♣", discard="10♣", counters={"drawn": 1})
    deal.play("knock 7♣")  # GR-4.3 deadwood 2 once 7♣ is set aside
    assert deal.over and names(deal, "facedown") == ["7♣"]
    melds = {tuple(names(deal, f"meld.{k}")): m["owner"] for k, m in enumerate(deal.state.data["melds"])}
    # GR-5.1 the opponent lays off 6♥ and then 7♥ on the knocker's run and keeps 8♣ 8♦ 8♥ as a set
    assert melds[("3♥", "4♥", "5♥", "6♥", "7♥")] == 0
    assert melds[("8♣", "8♦", "8♥")] == 1
    assert sorted(names(deal, "hand.1")) == sorted("J♠ Q♠ 2♦ 4♣ 5♠".split())
    assert deal.state.counters["unmatched.0"] == 2
    assert deal.state.counters["unmatched.1"] == 31  # not 47, as 6♥ 7♥ 8♥ as a run would leave
    assert rule(deal, "score", 0) == 31 - 2 == 29  # GR-6.1
    assert rule(deal, "score", 1) == 0
    assert rule(deal, "won", 0, "condition") and not rule(deal, "won", 1, "condition")
