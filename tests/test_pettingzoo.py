"""Every variant is a PettingZoo environment that passes PettingZoo's own API test (with the ``rl`` extra)."""

from __future__ import annotations

import warnings

import pytest

from tapete import registry

pettingzoo = pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")
from pettingzoo.test import api_test  # noqa: E402

from tapete.pettingzoo import env  # noqa: E402

VARIANTS = sorted(registry().variants())


@pytest.mark.parametrize("name", VARIANTS)
def test_api_test_passes(name):
    e = env(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about style (e.g. unbounded boxes)
        api_test(e, num_cycles=8)


def _episode(e, seed):
    e.reset(seed=seed)
    trace = []
    for agent in e.agent_iter():
        obs, reward, done, truncated, _ = e.last()
        if done or truncated:
            e.step(None)
            trace.append((agent, reward))
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[len(trace) % len(legal)])
        trace.append((agent, action, obs["observation"].tobytes()))
        e.step(action)
    return trace


def test_reset_with_a_seed_reproduces_the_episode():
    e = env("chinese-ten/two-player")
    first = _episode(e, 11)
    assert first == _episode(e, 11)
    assert first != _episode(e, 12)


def test_the_mask_is_exactly_the_legal_moves_and_rewards_follow_the_rules():
    e = env("fantan/pagat", players=3)
    e.reset(seed=1)
    deal = e.deal
    obs, *_ = e.last()
    legal = {e.layout.describe(i) for i in np.flatnonzero(obs["action_mask"])}
    assert legal == {a.text(deal.game.deck) for a in deal.legal_actions()}
    totals = {}
    for agent in e.agent_iter():
        obs, reward, done, truncated, _ = e.last()
        if done:
            totals[agent] = reward
            e.step(None)
        else:
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert sorted(totals.values()) == [0.0, 0.0, 1.0]  # FT-4.1: the one who went out wins the deal


def test_the_observer_sees_its_own_hand_and_not_the_others():
    e = env("chinchon/fournier", players=2)
    e.reset(seed=2)
    seat = e.deal.to_move
    obs = e.observe(f"player_{seat}")["observation"]
    n = e.layout.deck_size
    row = e.layout.zones.index("hand.0")  # planes are rotated: hand.0 is the observer's
    mine = set(np.flatnonzero(obs[row * n : (row + 1) * n]))
    assert mine == set(e.deal.state.zones[f"hand.{seat}"])
    other = e.layout.zones.index("hand.1")
    assert not obs[other * n : (other + 1) * n].any()
