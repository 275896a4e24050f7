"""tapete.testing, the helpers plugin authors test with, checked on a built-in game."""

from __future__ import annotations

import pytest

from tapete import testing


def test_the_property_checks_pass_on_a_correct_game(tmp_path):
    assert testing.check_hidden_information("fantan/pagat", seeds=range(1)) > 0
    assert testing.check_conservation("chinese-ten/two-player", seeds=range(1)) > 0
    assert testing.check_termination("fantan/pagat", seeds=range(1))[0].deals >= 1
    assert testing.check_replay("fantan/pagat", tmp_path, seed=3) > 10
    assert "fantan/pagat" in testing.variant_names("fantan") and "chinchon/fournier" not in testing.variant_names(
        "fantan"
    )


def test_the_hidden_information_check_catches_a_seat_that_sees_too_much():
    def leaky(game, state, seat):  # a picture that includes every hand
        return {name: list(cards) for name, cards in state.zones.items()}

    with pytest.raises(AssertionError, match="seat .* can tell"):
        testing.check_hidden_information("fantan/pagat", seeds=range(1), look=leaky)


def test_a_deal_from_zones_reads_like_a_worked_example():
    deal = testing.deal_from_zones("fantan/pagat", {"hand.0": ["7♥", "2♣"], "hand.1": ["8♥"], "hand.2": ["9♥"]})
    deal.state.zones.update({f"row.{s}": [] for s in "♣♦♥♠"})
    assert [a.text(deal.game.deck) for a in deal.legal_actions()] == ["play 7♥"]
    assert deal.state.dealer == 2 and deal.state.players == 3
