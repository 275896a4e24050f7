"""Fan Tan moves: FT-3 and the FT-5 worked example."""

from __future__ import annotations

import pytest

from tapete import IllegalAction

from .helpers import cards, fantan, legal


def test_ft_5_worked_example():
    """FT-5: table 6♥ 7♥ 8♥, hand 5♥ 10♥ 7♣: legal are 5♥ and 7♣; after 5♥ the turn ends."""
    deal = fantan(["5♥ 10♥ 7♣", "2♠ 3♠", "4♠ 5♠"], rows={"♥": "6♥ 7♥ 8♥"})
    assert legal(deal) == {"play 5♥", "play 7♣"}
    with pytest.raises(IllegalAction, match="10♥ does not fit"):
        deal.play("play 10♥")  # blocked by the missing 9♥
    deal.play("play 5♥")
    assert deal.game.deck.format_all(deal.state.zones["row.♥"]) == ["5♥", "6♥", "7♥", "8♥"]
    assert cards(deal, 0) == ["10♥", "7♣"]
    assert deal.to_move == 1  # the turn ended after one card


def test_ft_3_1_one_card_per_turn_then_the_turn_moves_on():
    """FT-3.1: exactly one card is played, then the next player (clockwise, FT-2.1) moves."""
    deal = fantan(["7♣ 8♣", "2♠", "3♠"])
    deal.play("play 7♣")
    assert cards(deal, 0) == ["8♣"] and deal.to_move == 1


def test_ft_3_2_any_unplayed_seven_opens_its_row():
    """FT-3.2: every seven not yet played is playable; nothing else opens an empty row."""
    deal = fantan(["7♣ 7♦ 7♥ 7♠ 8♣ 6♦", "2♠", "3♠"])
    assert legal(deal) == {"play 7♣", "play 7♦", "play 7♥", "play 7♠"}


def test_ft_3_3_only_the_next_rank_at_either_end():
    """FT-3.3: with 6♥ 7♥ 8♥ down, 5♥ and 9♥ fit; 4♥ and 10♥ do not; other suits extend nothing."""
    deal = fantan(["5♥ 9♥ 4♥ 10♥ 9♣ 5♦", "2♠", "3♠"], rows={"♥": "6♥ 7♥ 8♥"})
    assert legal(deal) == {"play 5♥", "play 9♥"}


def test_ft_3_4_no_pass_while_a_card_fits_even_to_keep_a_seven():
    """FT-3.4: a player with a legal card must play one - even if the only one is a seven."""
    deal = fantan(["7♠ 2♣", "2♠", "3♠"])
    assert legal(deal) == {"play 7♠"}
    with pytest.raises(IllegalAction, match="may not pass"):
        deal.play("pass")


def test_ft_3_5_pass_without_drawing_when_nothing_fits():
    """FT-3.5: no legal card: pass, draw nothing, the turn moves on."""
    deal = fantan(["2♣ 3♦", "7♣", "4♠"])
    assert legal(deal) == {"pass"}
    deal.play("pass")
    assert cards(deal, 0) == ["2♣", "3♦"] and deal.to_move == 1


def test_ft_3_6_a_wrongful_pass_is_refused_and_changes_nothing():
    """FT-3.6: a pass while a card is playable is refused; the player must play the card."""
    deal = fantan(["8♥ 2♣", "2♠", "3♠"], rows={"♥": "7♥"})
    before = deal.snapshot()
    with pytest.raises(IllegalAction, match="playable 8♥"):
        deal.play("pass")
    assert deal.snapshot() == before
    deal.play("play 8♥")
    assert deal.game.deck.format_all(deal.state.zones["row.♥"]) == ["7♥", "8♥"]


def test_ft_3_7_played_cards_cannot_be_taken_back():
    """FT-3.7: no move takes a card from a row; rows only grow during a deal."""
    from conftest import variant

    v = variant("fantan/pagat")
    deal = v.new_deal(4, seed=11)
    sizes = {z: 0 for z in deal.state.zones if z.startswith("row.")}
    while not deal.over:
        assert all(a.kind in ("play", "pass") for a in deal.legal_actions())
        deal.play(deal.legal_actions()[0])
        for z in sizes:
            assert len(deal.state.zones[z]) >= sizes[z]
            sizes[z] = len(deal.state.zones[z])


def test_illegal_moves_say_why_and_leave_the_state_unchanged():
    deal = fantan(["7♣ 8♣", "2♠", "3♠"])
    before = deal.snapshot()
    for move, why in [
        ("play 9♦", "not in your hand"),
        ("play 8♣", "does not fit"),
        ("draw", "'play CARD' or 'pass'"),
        ("play Z9", "'Z9' is not a card"),
    ]:
        with pytest.raises(IllegalAction, match=why):
            deal.play(move)
        assert deal.snapshot() == before
