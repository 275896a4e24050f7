"""Crazy Eights rules, each tested on a deal written out card by card (tapete.testing's ``tapete_deal``)."""

from __future__ import annotations

import pytest

from tapete import IllegalAction, Match

PAGAT = "eights/pagat"


def legal(deal) -> set[str]:
    return {a.text(deal.game.deck) for a in deal.legal_actions()}


def table(tapete_deal, hands, discard="9♣", stock="2♦ 3♦ 4♦", suit=None, variant=PAGAT, to_move=0):
    zones = {f"hand.{i}": h.split() for i, h in enumerate(hands)}
    zones |= {"discard": discard.split(), "stock": stock.split()}
    top = discard.split()[-1]
    return tapete_deal(
        variant, zones, to_move=to_move, counters={"drawn": 0, "stuck": 0}, data={"suit": suit or top[-1]}
    )


def test_a_card_follows_the_suit_or_the_rank_of_the_top_discard(tapete_deal):
    deal = table(tapete_deal, ["5♣ 9♥ K♦ 2♠", "7♥"])
    assert legal(deal) == {"play 5♣", "play 9♥"}


def test_an_eight_goes_on_anything_and_names_the_suit_to_follow(tapete_deal):
    deal = table(tapete_deal, ["8♠ K♦", "7♥ 7♦"])
    assert legal(deal) == {"play 8♠ ♣", "play 8♠ ♦", "play 8♠ ♥", "play 8♠ ♠"}
    deal.play("play 8S hearts")  # a person may type the suit's name or letter
    assert deal.state.data["suit"] == "♥"
    assert legal(deal) == {"play 7♥"}


def test_an_eight_must_name_a_suit(tapete_deal):
    deal = table(tapete_deal, ["8♠ K♦", "7♥"])
    with pytest.raises(IllegalAction, match="8♠ is wild: name the suit to follow"):
        deal.play("play 8♠")


def test_a_card_that_fits_nothing_is_refused_with_the_reason(tapete_deal):
    deal = table(tapete_deal, ["5♣ K♦", "7♥"])
    with pytest.raises(IllegalAction, match="K♦ matches neither the suit ♣ nor the rank of 9♣"):
        deal.play("play K♦")


def test_who_cannot_play_draws_one_card_then_plays_it_or_passes(tapete_deal):
    deal = table(tapete_deal, ["K♦ 2♥", "7♥"], stock="3♦ 9♥")
    assert legal(deal) == {"draw"}
    deal.play("draw")
    assert "9♥" in deal.game.deck.format_all(deal.state.zones["hand.0"])
    assert legal(deal) == {"play 9♥", "pass"}  # a drawn card that fits may be played, or kept
    deal.play("pass")
    assert deal.to_move == 1


def test_in_penalty_a_player_draws_until_a_card_fits(tapete_deal):
    deal = table(tapete_deal, ["K♦ 2♥", "7♥"], stock="9♥ 3♦ 4♦", variant="eights/penalty")
    deal.play("draw")
    deal.play("draw")
    assert legal(deal) == {"draw"}
    deal.play("draw")
    assert legal(deal) == {"play 9♥"}


def test_an_empty_stock_is_rebuilt_from_the_discards_below_the_top(tapete_deal):
    deal = table(tapete_deal, ["K♦ 2♥", "7♥"], discard="3♠ 4♠ 5♠ 9♣", stock="")
    deal.play("draw")
    zones = deal.state.zones
    assert deal.game.deck.format_all(zones["discard"]) == ["9♣"]
    assert len(zones["stock"]) == 2 and len(zones["hand.0"]) == 3


def test_nobody_able_to_play_or_draw_makes_the_deal_void(tapete_deal):
    deal = table(tapete_deal, ["K♦", "2♥"], discard="9♣", stock="")
    deal.play("pass")
    deal.play("pass")
    assert deal.over and deal.game.deal_void(deal.state) == "blocked: nobody can play or draw"


def test_going_out_ends_the_deal_and_collects_the_cards_left(tapete_deal, tapete_variant):
    deal = table(tapete_deal, ["5♣", "8♥ K♦ A♠"])
    deal.play("play 5♣")
    assert deal.over
    v = tapete_variant(PAGAT)
    assert deal.game.describe_deal(deal.state) == ["out: seat 0; seat 1: 3 card(s), 61 points"]
    assert v.rules.table("points")[v.rules.deck.parse("8♥")] == 50


def test_a_wild_starter_is_buried_and_the_next_card_starts(tapete_variant):
    v = tapete_variant(PAGAT)
    wild = [c for c in v.rules.deck.ids if v.rules.deck.rank_of[c] == "8"]
    for seed in range(40):
        deal = v.new_deal(3, seed=seed)
        assert deal.state.zones["discard"][-1] not in wild


def test_a_match_is_won_by_reaching_the_target():
    from tapete import load_variant

    result = Match(load_variant(PAGAT, options={"target": 60}), 3, seed=4, bots=["random"]).play()
    assert max(result.totals) >= 60 and result.totals[result.winner] == max(result.totals)
