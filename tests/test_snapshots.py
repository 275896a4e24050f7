"""Deal states snapshot to JSON and back exactly; broken snapshots are reported, never half-loaded."""

from __future__ import annotations

import json

import pytest
from conftest import variant
from hypothesis import given, settings
from hypothesis import strategies as st

from tapete import SnapshotError
from tapete.testing import variant_params


@pytest.mark.parametrize("name", variant_params())
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 40))
def test_snapshot_round_trip_is_exact_and_resumes_the_same(name, seed, steps):
    v = variant(name)
    deal = v.new_deal(None, seed=seed)
    for _ in range(steps):
        if deal.over:
            break
        deal.play(deal.legal_actions()[0])
    text = json.dumps(deal.snapshot(), ensure_ascii=False)
    resumed = v.deal_from_snapshot(text)
    assert json.dumps(resumed.snapshot(), ensure_ascii=False) == text
    assert resumed.state == deal.state
    # both continue identically
    for _ in range(10):
        if deal.over:
            break
        a, b = deal.legal_actions(), resumed.legal_actions()
        assert a == b
        deal.play(a[-1])
        resumed.play(b[-1])
    assert resumed.snapshot() == deal.snapshot()


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda s: s["zones"]["hand.1"].append("7♥"), "card 7♥ is in zone"),
        (lambda s: s["zones"]["hand.0"].append("X9"), "zone 'hand.0': no card 'X9'"),
        (lambda s: s.pop("dealer"), "deal snapshot lacks 'dealer'"),
        (lambda s: s.__setitem__("to_move", 9), "'to_move' must be a seat from 0 to 3"),
        (lambda s: s.__setitem__("players", "four"), "'players' must be an integer"),
        (lambda s: s["zones"].__setitem__("row.♥", "7♥"), "zone 'row.♥' must be a list of cards"),
    ],
)
def test_broken_snapshots_are_refused_with_a_reason(change, message):
    v = variant("fantan/pagat")
    snap = v.new_deal(4, seed=1).snapshot()
    hand = snap["zones"]["hand.0"]
    if "7♥" not in hand:  # make sure the duplicate case duplicates a real card
        owner = next(k for k, z in snap["zones"].items() if "7♥" in z)
        snap["zones"][owner].remove("7♥")
        hand.append("7♥")
    change(snap)
    with pytest.raises(SnapshotError, match=message.replace("(", "\\(")):
        v.deal_from_snapshot(snap)


def test_clone_is_independent():
    deal = variant("fantan/pagat").new_deal(4, seed=2)
    twin = deal.clone()
    deal.play(deal.legal_actions()[0])
    assert twin.snapshot() != deal.snapshot()
    assert twin.state.to_move != deal.state.to_move
