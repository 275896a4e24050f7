"""One observer: every way of showing a seat part of a deal shows it the same thing.

Views (and so every bot), `Deal.observe`, the search's views of imagined deals and the
learning environment's observation all read the deal through the game's `Observer`
(tapete.view): the ``see`` modes are applied there and the private (``_``) counters and
data dropped there. These tests hold the four faces to one picture on every registered
variant, and keep the one leak there was: `Deal.observe` used to hand out the deal's data
whole, so after a Chinchón stock rebuild (CH-4.4) it listed every player's hand.
"""

from __future__ import annotations

import json

import pytest
from conftest import variant

from tapete import Random
from tapete.play.deal import observe
from tapete.search.ismcts import _RolloutViews
from tapete.testing import check_hidden_information, variant_params, view_picture
from tapete.view import Recorder, game_facts, make_view


def rebuilt_chinchon():
    """A Chinchón deal just after its stock was rebuilt from the discard pile (CH-4.4)."""
    deal = variant("chinchon/fournier").new_deal(players=2, seed=0, record=False)
    rng = Random(0)
    while not deal.over and "_hands_at_rebuild" not in deal.state.data:
        legal = [a for a in deal.legal_actions() if a.kind != "close"] or deal.legal_actions()
        deal.play(legal[rng.below(len(legal))])
    assert not deal.over and deal.state.counters["rebuilds"] == 1
    return deal


def test_after_a_stock_rebuild_the_observation_names_no_card_of_the_other_hand():
    deal = rebuilt_chinchon()
    seen = deal.observe(0)
    assert "_hands_at_rebuild" not in seen["data"] and "_still_rebuilds" not in seen["counters"]
    text = json.dumps(seen, ensure_ascii=False)
    other = [deal.game.deck.names[c] for c in deal.state.zones["hand.1"]]
    assert not [name for name in other if name in text]
    assert seen["data"] == dict(deal.view(0).data) and seen["counters"] == dict(deal.view(0).counters)


def leaky_observe(game, state, seat):
    """`Deal.observe` as it was: the visibility rules applied, but the counters and data handed out whole."""
    out = observe(game, state, seat)
    return {**out, "counters": dict(state.counters), "data": state.data}


def test_the_hidden_information_check_fails_an_observation_that_passes_private_data_on():
    # The check plants a hidden card in the private data and counters of the states it compares:
    # the old observe fails at its first comparison, long before any deal's stock is rebuilt.
    def look(game, state, seat):
        return leaky_observe(game, state, seat), view_picture(make_view(game, state, seat, game_facts(game), {}, None))

    with pytest.raises(AssertionError, match="seat .* can tell"):
        check_hidden_information("chinchon/fournier", seeds=range(1), look=look)
    assert check_hidden_information("chinchon/fournier", seeds=range(1)) > 0


def moments(name: str, seeds=range(2), steps: int = 80):
    """Deals of ``name`` at every allowed player count, yielded before every move and at the end."""
    v = variant(name)
    lo, hi = v.player_range()
    rng = Random(name, "observer")
    for seed in seeds:
        deal = v.new_deal(lo + seed % (hi - lo + 1), seed=seed)
        for _ in range(steps):
            yield deal
            if deal.over:
                break
            legal = deal.legal_actions()
            deal.play(legal[rng.below(len(legal))])


@pytest.mark.parametrize("name", variant_params())
def test_views_observations_and_the_searchs_views_show_a_seat_the_same_deal(name):
    checked = 0
    for deal in moments(name):
        game, state = deal.game, deal.state
        facts, options = game_facts(game), deal.variant.options
        rollout = _RolloutViews(game, options)
        names = game.deck.names
        for seat in range(state.players):
            plain = make_view(game, state, seat, facts, options, None)
            assert view_picture(rollout.view(state, seat)) == view_picture(plain)
            recorded = deal.view(seat)
            assert (dict(recorded.zones), dict(recorded.counts)) == (dict(plain.zones), dict(plain.counts))
            assert (dict(recorded.counters), dict(recorded.data)) == (dict(plain.counters), dict(plain.data))
            seen = observe(game, state, seat)
            assert (seen["counters"], seen["data"]) == (dict(plain.counters), dict(plain.data))
            if state.over:  # a view shows every card at the end; the observation keeps to the rules
                continue
            for zone, shown in seen["zones"].items():
                if isinstance(shown, list):
                    assert shown == [names[c] for c in plain.zones[zone]] and len(shown) == plain.count(zone)
                elif "top" in shown:
                    top = plain.top(zone)
                    assert shown == {"top": None if top is None else names[top], "count": plain.count(zone)}
                else:
                    assert shown == {"count": plain.count(zone)} and plain.zones[zone] == ()
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", variant_params())
def test_a_deal_records_lazily_exactly_what_a_recorder_following_every_move_records(name):
    # A Deal works every seat's history out from its moves when a view is first asked for;
    # a Recorder that follows each move as it is made is the reference. Views are asked now
    # and then, and one made early is read again at the end: it stays as it was made.
    v = variant(name)
    lo, hi = v.player_range()
    rng = Random(name, "lazy")
    for seed in range(2):
        deal = v.new_deal(hi if seed else lo, seed=seed)
        reference = v.new_deal(hi if seed else lo, seed=seed, record=False)
        reference.recorder = Recorder(reference.game, reference.state, None, None, v.options)
        early = []
        for step in range(300):
            if step % (3 + seed * 8) == 0 or deal.over:
                for seat in range(deal.state.players):
                    got, want = deal.view(seat), reference.view(seat)
                    assert view_picture(got) == view_picture(want), (seed, step, seat)
                    if not early:
                        early.append((got, view_picture(want)))
            if deal.over:
                break
            legal = deal.legal_actions()
            action = legal[rng.below(len(legal))]
            assert deal.play(action) == reference.play(action)
        got, want = early[0]
        assert view_picture(got) == want


def test_a_state_changed_by_hand_is_seen_as_it_is_now_and_recording_goes_on_from_there():
    # Moving a card by hand is no move: no history has it, but every view shows the state as it
    # is, and the moves made after it are recorded from the state as it was changed.
    deal = variant("fantan/pagat").new_deal(4, seed=5)
    for _ in range(3):
        deal.play(deal.legal_actions()[0])
    hand = deal.state.zones["hand.1"]
    deal.state.zones["hand.0"].append(hand.pop())
    deal.play(deal.legal_actions()[0])
    view = deal.view(0)
    assert view.hand == tuple(deal.state.zones["hand.0"]) and view.count("hand.1") == len(hand)
    mover = deal.to_move
    action = deal.legal_actions()[0]
    deal.play(action)
    after = deal.view(0)
    assert len(after.history) == len(view.history) + 1
    assert after.history[-1].seat == mover and after.history[-1].text == action.text(deal.game.deck)
