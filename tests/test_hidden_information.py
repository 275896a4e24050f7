"""No seat learns what it cannot see, in every registered variant.

For a seat, swap the identities of two cards it cannot see (other hands, the
stock, a face-down pile, the discard below its top): its observation must not
change. Run over several seeds and several moments of each deal.
"""

from __future__ import annotations

import pytest
from conftest import variant

from tapete import Random, registry
from tapete.play.deal import observe
from tapete.testing import hidden_positions

VARIANTS = sorted(registry().variants())


@pytest.mark.parametrize("name", VARIANTS)
def test_observation_ignores_cards_a_seat_cannot_see(name):
    v = variant(name)
    lo, hi = v.player_range()
    rng = Random(name, "swaps")
    checked = 0
    for seed in range(3):
        deal = v.new_deal(min(max(lo, v.default_players()), hi), seed=seed)
        steps = 0
        while not deal.over and steps < 60:
            if steps % 7 == 0:
                for seat in range(deal.state.players):
                    hidden = hidden_positions(deal.game, deal.state, seat)
                    if len(hidden) < 2:
                        continue
                    before = observe(deal.game, deal.state, seat)
                    (za, ia), (zb, ib) = hidden[rng.below(len(hidden))], hidden[rng.below(len(hidden))]
                    twin = deal.clone().state
                    twin.zones[za][ia], twin.zones[zb][ib] = twin.zones[zb][ib], twin.zones[za][ia]
                    assert observe(deal.game, twin, seat) == before, (seat, za, zb)
                    checked += 1
            legal = deal.legal_actions()
            deal.play(legal[rng.below(len(legal))])
            steps += 1
    assert checked > 0


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others():
    deal = variant("fantan/pagat").new_deal(4, seed=5)
    seen = deal.observe(1)
    assert isinstance(seen["zones"]["hand.1"], list) and len(seen["zones"]["hand.1"]) == 13
    assert seen["zones"]["hand.0"] == {"count": 13}
    assert seen["zones"]["row.♥"] == []
