"""A void deal: the game ends it without scores, and the same dealer deals again."""

from __future__ import annotations

from tapete import Match, build_registry, hookimpl, load_variant


class VoidFirstDeal:
    """Marks the first deal void (as a game does when, say, the stock runs short)."""

    def __init__(self):
        self.deals = 0

    @hookimpl
    def tapete_deal_started(self, match, state):
        self.deals += 1
        if self.deals == 1:
            state.data["void"] = "a test says so"


def test_a_void_deal_scores_nothing_and_the_same_dealer_deals_again():
    variant = load_variant("chinchon/fournier", build_registry(extra_plugins=[VoidFirstDeal()]))
    events = []
    Match(variant, 2, seed=3).play(events.append)
    deals = [e for e in events if e["type"] == "deal"]
    voids = [e for e in events if e["type"] == "void"]
    scores = [e for e in events if e["type"] == "score"]
    assert [v["number"] for v in voids] == [1] and voids[0]["reason"] == "a test says so"
    assert deals[1]["dealer"] == deals[0]["dealer"]  # the same dealer deals again
    assert scores[0]["number"] == 2  # deal 1 scored nothing; the totals start from deal 2
    assert scores[0]["totals"] == [int(scores[0]["scores"][str(s)]) for s in range(2)]
