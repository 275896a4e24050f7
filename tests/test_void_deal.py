"""How a deal and a match end is the family's word: `Game.deal_void`, `deal_stalled`, `going_out`.

The match loop knows no family's rules: it asks the game whether a finished deal is void or
stalled, and which of the players whose ``out`` condition holds really go out. These tests
drive the generic loop through those hooks on Fan Tan, whose own rules use none of them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tapete import Ledger, Match, TapeteError, build_registry, hookimpl, load_variant
from tapete.play.rewards import DealRewards


def fantan_with(tmp_path: Path, lines: str) -> Path:
    """Fan Tan (pagat) with a few script lines added."""
    (tmp_path / "extra.rules").write_text(lines + "\n", encoding="utf-8")
    path = tmp_path / "extra.yaml"
    path.write_text("extends: fantan/pagat\nname: extra\nscripts: [extra.rules]\n", encoding="utf-8")
    return path


def void_first_deal(match: Match, reason: str = "a test says so") -> None:
    """Make the game say the first deal is void, as a family does when, say, the stock runs short."""
    match.game.deal_void = lambda state: reason if match.ledger.deal_number == 1 else None  # type: ignore[method-assign]


def test_a_void_deal_scores_nothing_and_the_same_dealer_deals_again():
    match = Match(load_variant("fantan/pagat"), 4, seed=3)
    void_first_deal(match)
    events: list[dict] = []
    match.play(events.append)
    deals = [e for e in events if e["type"] == "deal"]
    voids = [e for e in events if e["type"] == "void"]
    scores = [e for e in events if e["type"] == "score"]
    assert [v["number"] for v in voids] == [1] and voids[0]["reason"] == "a test says so"
    assert deals[1]["dealer"] == deals[0]["dealer"]  # the same dealer deals again
    assert scores[0]["number"] == 2  # deal 1 scored nothing; the totals start from deal 2
    assert scores[0]["totals"] == [int(scores[0]["scores"][str(s)]) for s in range(4)]


def test_a_void_deal_is_worth_nothing_to_a_search_or_a_learner():
    variant = load_variant("fantan/pagat")
    deal = variant.new_deal(players=3, seed=1)
    while not deal.over:
        deal.play(deal.legal_actions()[0])
    rewards = DealRewards(deal.game, "score")
    assert sum(rewards.every_seat(deal.state, Ledger(3))) == 1  # the seat that went out
    deal.game.deal_void = lambda state: "void"  # type: ignore[method-assign]
    assert rewards.every_seat(deal.state, Ledger(3)) == [0.0, 0.0, 0.0]
    assert rewards.of(deal.state, Ledger(3), 0) == 0.0


class MarksTheFirstDealVoid:
    """The 0.1 way: a ``"void"`` entry in the deal's data, here set by a house rule."""

    def __init__(self) -> None:
        self.deals = 0

    @hookimpl
    def tapete_deal_started(self, match, state):
        self.deals += 1
        if self.deals == 1:
            state.data["void"] = "marked the old way"


def test_the_old_void_entry_still_voids_the_deal_with_a_deprecation_warning():
    variant = load_variant("fantan/pagat", build_registry(extra_plugins=[MarksTheFirstDealVoid()]))
    events: list[dict] = []
    with pytest.warns(DeprecationWarning, match=r'state\.data\["void"\].*FanTan\.deal_void\(state\)'):
        Match(variant, 4, seed=3).play(events.append)
    assert [e["reason"] for e in events if e["type"] == "void"] == ["marked the old way"]


def test_a_stalled_deal_stops_the_match_unless_the_rules_annul_it(tmp_path):
    match = Match(load_variant("fantan/pagat"), 4, seed=3)
    match.game.deal_stalled = lambda state: "round and round"  # type: ignore[method-assign]
    with pytest.raises(
        TapeteError, match=r"deal 1 of fantan/pagat \(seed 3\) stalled: round and round\. .*stall = annul"
    ):
        match.play()
    match = Match(load_variant(fantan_with(tmp_path, "stall = annul")), 4, seed=3)
    match.game.deal_stalled = lambda state: "round and round" if match.ledger.deal_number == 1 else None  # type: ignore[method-assign]
    events: list[dict] = []
    match.play(events.append)
    assert [e["reason"] for e in events if e["type"] == "void"] == ["stalled: round and round"]


def test_everyone_going_out_at_once_ends_the_match_in_a_draw_without_a_family_rule(tmp_path):
    """The core has no tie rule of its own (CH-6.5 is Chinchón's): all out together is a draw."""
    result = Match(load_variant(fantan_with(tmp_path, "out when deals_won >= 0")), 4, seed=3).play()
    assert result.winner == -1 and result.deals == 1


def test_the_family_decides_who_of_those_going_really_goes(tmp_path):
    match = Match(load_variant(fantan_with(tmp_path, "out when deals_won >= 0")), 4, seed=3)
    asked: list[tuple[list[int], list[int]]] = []

    def keep_seat_two(going: list[int], ledger: Ledger) -> list[int]:
        asked.append((list(going), list(ledger.active)))
        return [s for s in going if s != 2]

    match.game.going_out = keep_seat_two  # type: ignore[method-assign]
    result = match.play()
    assert asked == [([0, 1, 2, 3], [0, 1, 2, 3])]  # asked once, with everyone whose 'out' held
    assert result.winner == 2 and result.deals == 1  # CH-6.4's generic half: the last one in wins


@pytest.mark.parametrize(
    ("totals", "staying"),
    [
        ([120, 110, 130], [1]),  # CH-6.5 all out together: the lowest total wins
        ([110, 110, 130], [0, 1]),  # CH-6.5 a shared lowest total plays on
        ([120, 120, 120], [0, 1, 2]),  # all equal: nobody goes out yet
    ],
)
def test_ch_6_5_chinchon_keeps_the_lowest_total_in_when_everyone_would_go_out(totals, staying):
    game = load_variant("chinchon/fournier").new_game()
    ledger = Ledger(3, totals=list(totals))
    going = game.going_out([0, 1, 2], ledger)
    assert [s for s in range(3) if s not in going] == staying


def test_ch_6_3_chinchon_lets_out_whoever_the_script_names_while_someone_stays():
    game = load_variant("chinchon/fournier").new_game()
    assert game.going_out([0, 2], Ledger(3, totals=[120, 40, 130])) == [0, 2]
