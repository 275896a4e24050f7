"""Every card is accounted for after every action, in every variant (property test)."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import variant
from hypothesis import given, settings
from hypothesis import strategies as st

from tapete import Random
from tapete.play.match import MAX_ACTIONS_PER_DEAL
from tapete.testing import variant_params


@pytest.mark.parametrize("name", variant_params())
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**9))
def test_every_card_is_somewhere_exactly_once(name, seed):
    v = variant(name)
    lo, hi = v.player_range()
    players = lo + seed % (hi - lo + 1)
    deal = v.new_deal(players, seed=seed)
    full = Counter(v.rules.deck.ids)
    rng = Random(seed, "moves")
    moves = 0
    while not deal.over:
        assert Counter(c for z in deal.state.zones.values() for c in z) == full
        legal = deal.legal_actions()
        assert legal, "a player to move always has a legal action"
        deal.play(legal[rng.below(len(legal))])
        moves += 1
        assert moves < MAX_ACTIONS_PER_DEAL  # random rummy deals run to thousands of moves
    assert Counter(c for z in deal.state.zones.values() for c in z) == full
