"""No seat learns what it cannot see, in every registered variant.

For a seat, swap the identities of two cards it cannot see (other hands, the stock, a
face-down pile, the discard below its top): neither its observation (`Deal.observe`) nor
anything in its view may change. The check (`tapete.testing.check_hidden_information`)
also plants a hidden card in the private counters and data of the states it compares, so
a picture that passes the game's private records on fails too. Run over several seeds,
player counts and moments of each deal.
"""

from __future__ import annotations

import pytest
from conftest import variant

from tapete.testing import check_hidden_information, variant_params


@pytest.mark.parametrize("name", variant_params())
def test_neither_observation_nor_view_tells_apart_cards_a_seat_cannot_see(name):
    assert check_hidden_information(name, steps=60, every=7) > 0


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others():
    deal = variant("fantan/pagat").new_deal(4, seed=5)
    seen = deal.observe(1)
    assert isinstance(seen["zones"]["hand.1"], list) and len(seen["zones"]["hand.1"]) == 13
    assert seen["zones"]["hand.0"] == {"count": 13}
    assert seen["zones"]["row.♥"] == []
