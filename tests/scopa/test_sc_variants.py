"""SC-V1 to SC-V5: each variant file changes only what its rule says."""

from __future__ import annotations

import pytest

from tapete import Ctx, IllegalAction, Match, TapeteError
from tapete.core.ledger import Ledger

from .helpers import deal_scores, legal, names, position, prizes, says, variants


def test_scv1_to_21():
    rules = variants["to-21"].rules
    ends = rules.condition("match_ends")
    game = variants["to-21"].new_game()
    assert not ends(Ctx(game=game, ledger=Ledger(2, totals=[20, 15])))
    assert ends(Ctx(game=game, ledger=Ledger(2, totals=[21, 15])))
    assert variants["to-21"].options["target"] == 21


def test_scv2_three_kings_on_the_opening_table_void_the_deal():
    kings = variants["kings"]
    redealt = 0
    for seed in range(200):
        state = kings.new_deal(2, seed=seed).state
        table = [kings.rules.deck.rank_of[c] for c in state.zones["table"]]
        assert table.count("K") < 3  # SC-V2 never played with three or four kings face up
        redealt += bool(state.counters.get("redeals"))
    assert redealt > 0  # about one deal in a hundred and fifty needs a second deal


def test_scv2_the_same_dealer_deals_again():
    kings = variants["kings"]
    seed = next(s for s in range(2000) if kings.new_deal(2, seed=s).state.counters.get("redeals"))
    deal = kings.new_deal(2, seed=seed, dealer=1)
    assert deal.state.dealer == 1 and deal.to_move == 0


def test_scv3_scopone_four_in_partnerships_nine_each_four_on_the_table():
    scopone = variants["scopone"]
    deal = scopone.new_deal(4, seed=2)
    zones = deal.state.zones
    assert [len(zones[f"hand.{s}"]) for s in range(4)] == [9, 9, 9, 9]
    assert len(zones["table"]) == 4 and zones["stock"] == []
    game = deal.game
    assert game.same_team(0, 2) and game.same_team(1, 3) and not game.same_team(0, 1)  # partners opposite
    with pytest.raises(TapeteError, match="4-4 players"):
        scopone.new_deal(3, seed=1)


def test_scv3_scientifico_ten_each_and_an_empty_table():
    deal = variants["scientifico"].new_deal(4, seed=2)
    zones = deal.state.zones
    assert [len(zones[f"hand.{s}"]) for s in range(4)] == [10, 10, 10, 10] and zones["table"] == []


def test_scv3_partners_piles_and_scope_count_together():
    scopone = variants["scopone"]
    deal = position(
        scopone,
        players=4,
        captures0=["7♦", "A♦", "2♦"],  # seat 0 and seat 2 together: 6 cards, 4 coins, all suits
        captures2=["6♣", "A♥", "5♠"],
        captures1=["K♣", "Q♣", "J♣", "K♦", "Q♦"],  # seats 1 and 3: 5 cards, 2 coins
        counters={"sweeps.2": 1, "sweeps.3": 2},
    )
    assert prizes(deal) == [
        ["cards", "coins", "primiera", "settebello"],
        [],
        ["cards", "coins", "primiera", "settebello"],
        [],
    ]
    assert deal_scores(deal) == [5, 2, 5, 2]  # seat 2's scopa counts for seat 0 too


def test_scv3_a_scopone_match_is_won_by_a_partnership():
    result = Match(variants["scopone"], 4, seed=3, bots=["greedy", "random", "greedy", "random"]).play()
    totals = result.totals
    assert totals[0] == totals[2] and totals[1] == totals[3]  # partners always share the score
    assert result.winner in (0, 1) and max(totals) >= 11


def test_scv4_an_ace_takes_the_whole_table_and_it_is_no_scopa():
    assi = variants["assi"]
    deal = position(assi, hand0=["A♣", "K♠"], hand1=["4♣"], table=["7♦", "K♥", "3♠"])
    assert legal(deal)[0] == "capture A♣ 7♦ K♥ 3♠"
    events = deal.play("capture A♣ 7♦ K♥ 3♠")
    assert says(events) == ["plays A♣, takes 7♦ K♥ 3♠"]  # the table is empty, but no scopa
    assert names(deal, "table") == [] and deal.state.counters.get("sweeps.0", 0) == 0


def test_scv4_unless_an_ace_is_there_to_take():
    assi = variants["assi"]
    deal = position(assi, hand0=["A♣", "K♠"], hand1=["4♣"], table=["7♦", "A♥", "3♠"])
    assert [a for a in legal(deal) if "A♣" in a] == ["capture A♣ A♥"]
    with pytest.raises(IllegalAction, match=r"SC-3.2"):
        deal.play("capture A♣ 7♦ A♥ 3♠")
    lone = position(assi, hand0=["A♣", "K♠"], hand1=["4♣"], table=["A♥"])
    assert says(lone.play("capture A♣ A♥")) == ["plays A♣, takes A♥", "sweep (scopa) by seat 0"]


def test_scv4_an_ace_on_an_empty_table_stays_and_other_cards_still_sum():
    assi = variants["assi"]
    deal = position(assi, hand0=["A♣", "K♠"], hand1=["4♣"], table=[])
    assert legal(deal) == ["play A♣", "play K♠"]
    deal = position(assi, hand0=["K♠"], hand1=["4♣"], table=["3♦", "7♥", "2♠"])
    assert legal(deal) == ["capture K♠ 3♦ 7♥"]


@pytest.mark.parametrize(
    "pile,points",
    [
        (["A♦", "2♦", "3♦"], 3),
        (["A♦", "2♦", "3♦", "4♦", "5♦", "7♦"], 5),  # the 6 breaks the sequence: 7♦ does not count
        (["A♦", "2♦", "3♦", "4♦", "5♦", "6♦", "7♦", "J♦", "Q♦", "K♦"], 10),
        (["A♦", "3♦", "4♦"], 0),
    ],
)
def test_scv5_napola(pile, points):
    deal = position(variants["napola"], captures0=pile, captures1=["K♣"])
    ctx = Ctx(game=deal.game, state=deal.state, seat=0)
    won = dict(deal.game.prizes_won(ctx))
    assert won.get("napola", 0) == points


def test_scv3_partners_do_not_see_each_others_hands():
    deal = variants["scopone"].new_deal(4, seed=5)
    seen = deal.observe(0)["zones"]
    assert isinstance(seen["hand.0"], list) and len(seen["hand.0"]) == 9
    assert seen["hand.2"] == {"count": 9}  # the partner's hand is as hidden as the opponents'
    view = deal.view(0)
    assert view.cards("hand.2") == () and view.count("hand.2") == 9
