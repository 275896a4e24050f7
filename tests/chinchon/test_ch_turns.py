"""Turns, melds held in hand, closing and the stock (CH-3, CH-4), played through the Deal API."""

from __future__ import annotations

import pytest
from chinchon_helpers import make_deal, names, shown_melds, variant

from tapete import IllegalAction, Random

OPPONENT = "4♦ 6♦ J♦ K♦ 3♠ 4♠ K♣"


def texts(deal):
    return [a.text(deal.game.deck) for a in deal.legal_actions()]


def test_ch_4_2_draw_from_the_stock_then_discard_face_up():
    """CH-4.2: draw from the stock then discard face up."""
    deal = make_deal(["3♥ 4♥ 5♥ 7♣ 7♦ 7♠ A♦", OPPONENT], stock="J♠ Q♠ 6♥", discard="K♠ 5♣")
    assert texts(deal) == ["draw stock", "draw discard"]
    deal.play("draw stock")
    assert names(deal, "hand.0")[-1] == "6♥" and len(deal.state.zones["hand.0"]) == 8
    assert names(deal, "stock") == ["J♠", "Q♠"]
    assert deal.to_move == 0
    deal.play("discard 3♥")
    assert len(deal.state.zones["hand.0"]) == 7
    assert names(deal, "discard") == ["K♠", "5♣", "3♥"]
    assert deal.to_move == 1


def test_ch_4_2_draw_the_top_discard():
    """CH-4.2: draw the top discard."""
    deal = make_deal(["3♥ 4♥ 5♥ 7♣ 7♦ 7♠ A♦", OPPONENT], stock="J♠ Q♠ 6♥", discard="K♠ 5♣")
    deal.play("draw discard")
    assert "5♣" in names(deal, "hand.0") and names(deal, "discard") == ["K♠"]
    assert all(a.startswith(("discard", "close")) for a in texts(deal))


def test_ch_4_2_moves_out_of_turn_order_are_refused_and_change_nothing():
    """CH-4.2: moves out of turn order are refused and change nothing."""
    deal = make_deal(["3♥ 4♥ 5♥ 7♣ 7♦ 7♠ A♦", OPPONENT], stock="J♠ Q♠ 6♥", discard="K♠ 5♣")
    before = deal.snapshot()
    with pytest.raises(IllegalAction, match="draw first"):
        deal.play("discard 3♥")
    with pytest.raises(IllegalAction, match="draw first"):
        deal.play("close 3♥")
    assert deal.snapshot() == before
    deal.play("draw stock")
    before = deal.snapshot()
    with pytest.raises(IllegalAction, match="drawn already"):
        deal.play("draw discard")
    with pytest.raises(IllegalAction, match="not in your hand"):
        deal.play("discard K♥")
    assert deal.snapshot() == before


def test_ch_4_1_play_goes_counterclockwise():
    """CH-4.1: play goes counterclockwise."""
    deal = make_deal(
        ["2♣ 3♦ 4♠ 6♣ J♦ Q♣ K♥", "A♣ 3♣ 5♦ 7♦ J♣ Q♦ K♠", "A♥ 2♥ 4♦ 6♦ J♥ Q♥ K♦"],
        stock="5♠ 6♠ 7♠ J♠ Q♠ K♣",
        discard="4♥",
    )
    seen = []
    for _ in range(3):
        seen.append(deal.to_move)
        deal.play("draw stock")
        deal.play(f"discard {names(deal, f'hand.{deal.to_move}')[0]}")
    assert seen == [0, 2, 1]


def test_ch_3_4_melds_stay_in_hand_during_ordinary_turns():
    """CH-3.4: melds stay in hand during ordinary turns."""
    deal = variant().new_deal(3, seed=8)
    rng = Random(8, "moves")
    for _ in range(40):
        if deal.over:
            break
        assert not [z for z in deal.state.zones if z.startswith("meld")]
        if deal.state.counters["drawn"] == 0:
            assert len(deal.state.zones[f"hand.{deal.to_move}"]) == 7
        legal = [a for a in deal.legal_actions() if a.kind != "close"]
        deal.play(legal[rng.below(len(legal))])


def test_ch_4_3_close_discarding_face_down_with_five_points_or_less():
    """CH-4.3: close discarding face down with five points or less."""
    deal = make_deal(["2♣ 2♦ 2♠ 5♥ 6♥ 7♥ K♠", OPPONENT], stock="J♠ 5♠", discard="Q♦")
    deal.play("draw stock")
    assert "close K♠" in texts(deal)
    deal.play("close K♠")
    assert deal.over
    assert names(deal, "facedown") == ["K♠"] and names(deal, "discard") == ["Q♦"]
    assert names(deal, "stock") == ["J♠"]  # nobody draws again
    assert deal.state.counters["closer"] == 0
    assert deal.state.counters["unmatched.0"] == 5


def test_ch_4_3_six_points_may_not_close():
    """CH-4.3: six points may not close."""
    deal = make_deal(["2♣ 2♦ 2♠ 5♥ 6♥ 7♥ K♠", OPPONENT], stock="J♠ 6♠", discard="Q♦")
    deal.play("draw stock")
    assert not [a for a in texts(deal) if a.startswith("close")]
    before = deal.snapshot()
    with pytest.raises(IllegalAction, match="6 point"):
        deal.play("close K♠")
    assert deal.snapshot() == before


def test_ch_3_2_run_6_7_J_is_legal_when_closing():
    """CH-3.2: run 6 7 J is legal when closing."""
    deal = make_deal(["6♥ 7♥ J♥ 2♣ 2♦ 2♠ K♠", OPPONENT], stock="A♣", discard="Q♦")
    deal.play("draw stock")
    deal.play("close K♠")
    assert deal.state.counters["unmatched.0"] == 1
    assert ["6♥", "7♥", "J♥"] in [cards for owner, cards in shown_melds(deal) if owner == 0]


def test_ch_3_2_run_7_Q_K_is_not_a_run():
    """CH-3.2: run 7 Q K is not a run."""
    deal = make_deal(["7♥ Q♥ K♥ 2♣ 2♦ 2♠ K♠", OPPONENT], stock="A♣", discard="Q♦")
    deal.play("draw stock")
    with pytest.raises(IllegalAction, match="27 point"):
        deal.play("close K♠")


def test_ch_3_1_a_group_of_five_is_refused_with_one_deck():
    """CH-3.1: a group of five is refused with one deck."""
    # wild cards give a fifth "seven"; with one deck a group holds at most 4 cards
    deal = make_deal(["7♣ 7♦ 7♥ 7♠ Jk 2♣ K♠", OPPONENT], stock="3♦", discard="Q♦", name="wild-cards")
    deal.play("draw stock")
    with pytest.raises(IllegalAction, match="12 point"):
        deal.play("close K♠")
    solver, deck = deal.game.solver, deal.game.deck
    assert solver.meld_kinds(deck.parse_all("7♣ 7♦ 7♥ 7♠".split())) == ("group",)
    assert solver.meld_kinds(deck.parse_all("7♣ 7♦ 7♥ 7♠ Jk".split())) == ()


def test_ch_3_1_group_of_five_with_two_decks_is_accepted():
    """CH-3.1: group of five with two decks is accepted."""
    hands = [
        "7♣ 7♦ 7♥ 7♠ 7♣/2 2♣ K♠",
        "2♦ 4♦ 6♦ J♦ Q♦ K♦ A♠",
        "2♥ 4♥ 6♥ J♥ Q♥ K♥ A♣",
        "3♠ 5♠ 6♠ J♠ Q♠ K♣ A♦",
        "2♠ 4♠ 6♣ J♣ Q♣ K♥/2 A♥",
    ]
    deal = make_deal(hands, stock="3♦", discard="5♦", name="two-decks")
    deal.play("draw stock")
    deal.play("close K♠")
    assert ["7♣", "7♣/2", "7♦", "7♥", "7♠"] in [cards for _, cards in shown_melds(deal)]


def test_ch_3_3_no_card_serves_two_melds():
    """CH-3.3: no card serves two melds."""
    # 5♥ would finish both the run 3-4-5♥ and the group of fives: only one may have it
    deal = make_deal(["3♥ 4♥ 5♥ 5♣ 5♦ A♠ K♠", OPPONENT], stock="A♣", discard="Q♦")
    deal.play("draw stock")
    assert deal.game.solver.penalty(deal.game.deck.parse_all("3♥ 4♥ 5♥ 5♣ 5♦ A♠ A♣".split())) == 9
    with pytest.raises(IllegalAction, match="9 point"):
        deal.play("close K♠")


def test_ch_4_4_the_stock_is_rebuilt_under_the_top_discard():
    """CH-4.4: the stock is rebuilt under the top discard."""
    deal = make_deal(["3♥ 4♥ 5♥ 7♣ 7♦ 7♠ K♠", OPPONENT], stock="Q♠", discard="2♣ 3♣ 4♣ 5♣ 6♣")
    rng_before = list(deal.state.rng)
    deal.play("draw stock")
    assert deal.state.zones["stock"] == []
    events = deal.play("discard K♠")
    assert names(deal, "discard") == ["K♠"]  # the top card stays face up
    assert sorted(names(deal, "stock")) == ["2♣", "3♣", "4♣", "5♣", "6♣"]
    assert deal.state.rng != rng_before  # shuffled with the deal's rng
    assert deal.state.counters["rebuilds"] == 1
    assert events == [{"rebuilt": 5}]


def test_ch_4_4_the_rebuild_is_seeded_by_the_state():
    """CH-4.4: the rebuild is seeded by the state."""

    def rebuilt(rng):
        deal = make_deal(["3♥ 4♥ 5♥ 7♣ 7♦ 7♠ K♠", OPPONENT], stock="Q♠", discard="A♣ 2♣ 3♣ 4♣ 5♣ 6♣ J♣ Q♣")
        deal.state.rng = list(rng)
        deal.play("draw stock")
        deal.play("discard K♠")
        return names(deal, "stock")

    states = [Random(k).getstate() for k in range(5)]
    assert [rebuilt(s) for s in states] == [rebuilt(s) for s in states]
    assert len({tuple(rebuilt(s)) for s in states}) > 1


def test_ch_4_4_with_an_empty_stock_and_one_discard_only_the_discard_can_be_drawn():
    """CH-4.4: with an empty stock and one discard only the discard can be drawn."""
    deal = make_deal(["3♥ 4♥ 5♥ 7♣ 7♦ 7♠ K♠", OPPONENT], stock="", discard="Q♠")
    assert texts(deal) == ["draw discard"]
