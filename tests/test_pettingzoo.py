"""Every variant is a PettingZoo environment that passes PettingZoo's own API test (with the ``rl`` extra)."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

from tapete import Action, Random
from tapete.core.errors import TapeteError
from tapete.core.rng import derive_seed
from tapete.play.match import Match
from tapete.testing import hidden_positions, variant_params

pettingzoo = pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")
from pettingzoo.test import api_test  # noqa: E402

from tapete.pettingzoo import env  # noqa: E402


@pytest.mark.parametrize("name", variant_params())
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


@pytest.mark.parametrize("name", variant_params())
def test_api_test_passes_with_match_episodes(name):
    e = env(name, episode="match")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(e, num_cycles=8)


@pytest.mark.parametrize(("name", "episode"), [("chinchon/fournier", "match"), ("scopa/classic", "deal")])
def test_api_test_passes_with_history_planes(name, episode):
    e = env(name, episode=episode, history=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(e, num_cycles=8)


def _random_steps(e, rng, on_step=None, limit=None, rewards=None):
    """Play random legal moves until the episode ends (or ``limit`` steps); the moves played, in order.

    ``on_step(agent)`` runs before each move; ``rewards`` (a dict) receives each agent's last reward.
    """
    played = []
    for agent in e.agent_iter():
        obs, reward, done, truncated, _ = e.last()
        if done or truncated:
            if rewards is not None:
                rewards[agent] = reward
            e.step(None)
            continue
        if limit is not None and len(played) >= limit:
            break
        if on_step is not None:
            on_step(agent)
        legal = np.flatnonzero(obs["action_mask"])
        slot = int(legal[rng.below(len(legal))])
        played.append(e.legal_moves()[slot])
        e.step(slot)
    return played


@pytest.mark.parametrize("history", [0, 3])
@pytest.mark.parametrize("name", variant_params())
def test_the_observation_is_what_the_seats_view_holds(name, history):
    # The environment builds observations from the visibility rules and each seat's memory,
    # without views; a deal recording full histories, fed the same moves, gives every seat a
    # view whose observation must be the same array, at every step (the history planes too).
    e = env(name, history=history)
    e.reset(seed=3)
    twin = e.variant.new_deal(e.players, seed=derive_seed(3, "episode", 0))
    rng = Random(name, "observe")
    steps = 0
    while not twin.over and steps < (40 if history else 80):  # the history planes: a shorter walk
        for s, agent in enumerate(e.possible_agents):
            assert np.array_equal(e.observe(agent)["observation"], e.layout.observe_view(twin.view(s))), (steps, s)
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        slot = int(legal[rng.below(len(legal))])
        twin.play(e.legal_moves()[slot])
        e.step(slot)
        steps += 1
    for s, agent in enumerate(e.possible_agents):
        assert np.array_equal(e.observe(agent)["observation"], e.layout.observe_view(twin.view(s)))


@pytest.mark.parametrize("name", ["chinchon/fournier", "chinchon/reenganche", "gin/standard", "scopa/classic"])
def test_an_observation_ignores_cards_the_seat_cannot_see(name):
    # Swap two cards a seat cannot see (the stock, other hands, the discard below its top):
    # the seat's observation of the swapped deal is the same array, memory and history planes
    # included (the history planes read the seat's events, never the state).
    e = env(name, players=3 if name.startswith("chinchon") else None, history=4)
    e.reset(seed=5)
    rng = Random(name, "swap")
    checked = 0

    def swap_and_compare(_agent):
        nonlocal checked
        state = e.deal.state
        for seat in range(state.players):
            hidden = hidden_positions(e.game, state, seat)
            if len(hidden) < 2:
                continue
            pins, events = e._recorder.pins(seat), e._recorder.events(seat)
            before = e.layout.observe_seat(state, seat, pins, None, events)
            assert np.array_equal(before, e.observe(f"player_{seat}")["observation"])
            twin = state.clone()
            (za, ia), (zb, ib) = hidden[rng.below(len(hidden))], hidden[rng.below(len(hidden))]
            twin.zones[za][ia], twin.zones[zb][ib] = twin.zones[zb][ib], twin.zones[za][ia]
            assert np.array_equal(e.layout.observe_seat(twin, seat, pins, None, events), before), (seat, za, zb)
            checked += 1

    _random_steps(e, rng, swap_and_compare, limit=120)
    assert checked > 0


class _Replay:
    """A bot that plays a list of moves in order (to replay an environment's match through `Match`)."""

    observes = False

    def __init__(self, moves):
        self.moves = moves

    def choose(self, view, legal):
        return self.moves.pop(0)


@pytest.mark.parametrize(
    ("name", "players"),
    [("chinchon/fournier", 3), ("chinchon/reenganche", 3), ("fantan/pagat", 4), ("gin/single-hand", 2)],
)
def test_a_match_episode_follows_the_match_rules_and_rewards_the_winner(name, players):
    # CH-6: a Chinchón match eliminates players over 100 (reenganche: they may rejoin); Fan Tan and
    # Gin Rummy end at their targets. The episode's moves, replayed through the match loop, give the
    # same match, and the reward is 1 for its winner, 0 for the others.
    e = env(name, players=players, episode="match")
    e.reset(seed=7)
    rewards = {}
    played = _random_steps(e, Random(name, "match"), rewards=rewards)
    result = e.result
    assert result is not None and result.deals > 1
    assert rewards == {f"player_{s}": 1.0 if s == result.winner else 0.0 for s in range(players)}
    again = Match(e.variant, players, derive_seed(7, "episode", 0), agents=[_Replay(played)] * players).play()
    assert (again.winner, again.totals, again.deals) == (result.winner, result.totals, result.deals)
    assert not played


def test_match_rewards_can_be_the_final_totals():
    e = env("fantan/pagat", players=3, episode="match", reward="score")
    e.reset(seed=2)
    rewards = {}
    _random_steps(e, Random("totals"), rewards=rewards)
    assert rewards == {f"player_{s}": float(t) for s, t in enumerate(e.result.totals)}


def test_a_seat_out_of_the_match_observes_nothing_and_waits_for_the_end():
    # CH-6: a player over 100 points is out; the next deals are dealt to the others only.
    e = env("chinchon/fournier", players=3, episode="match")
    e.reset(seed=2)
    seen_out = []

    def check(agent):
        out = [s for s in range(3) if e.match.ledger.out[s]]
        for s in out:
            seen_out.append(s)
            assert f"player_{s}" != agent
            assert not e.observe(f"player_{s}")["observation"].any()
        if out:  # the others' observations agree with their views (totals by deal seat, rotated)
            for s in range(e.deal.state.players):
                match_seat = e.match.ledger.active[s]
                obs_s = e.observe(f"player_{match_seat}")["observation"]
                assert np.array_equal(obs_s, e.layout.observe_view(e.deal.view(s)))

    _random_steps(e, Random("out"), check)
    assert seen_out


def test_match_episodes_are_reproducible_from_the_seed():
    e = env("chinchon/fournier", episode="match")

    def episode(seed):
        e.reset(seed=seed)
        moves = _random_steps(e, Random("same"))
        return moves, e.result

    first = episode(4)
    assert first == episode(4)
    assert first[1].deals > 1


def test_unknown_episode_or_reward_is_refused():
    with pytest.raises(TapeteError, match="episode must be one of deal, match"):
        env("fantan/pagat", episode="series")
    with pytest.raises(TapeteError, match="reward must be one of"):
        env("fantan/pagat", reward="points")


def test_seed_then_reset_reproduces_episodes_and_action_samples():
    e = env("fantan/pagat", players=3)

    def run():
        e.seed(9)
        e.reset()
        trace = []
        for agent in e.agent_iter():
            obs, reward, done, truncated, _ = e.last()
            action = None if done or truncated else e.action_space(agent).sample(obs["action_mask"])
            trace.append((agent, action, reward))
            e.step(action)
        return trace

    first = run()
    assert first == run()
    e.reset(seed=9)  # seed(9) then reset() deals what reset(seed=9) deals
    dealt = {z: list(cards) for z, cards in e.deal.state.zones.items()}
    e.seed(9)
    e.reset()
    assert e.deal.state.zones == dealt


@pytest.mark.parametrize("name", ["chinchon/fournier", "gin/standard", "fantan/pagat", "scopa/classic"])
def test_the_history_planes_of_twin_deals_differing_in_unseen_cards_are_the_same(name):
    # Two environments deal the same, but for two cards seat 0 cannot see, swapped in the second;
    # the same moves are played in both. Until seat 0 sees either card or a move names it, its
    # observation (history planes included: other seats' draws from the stock, moves it could
    # not follow) is the same array, while other seats' differ.
    compared = differed = 0
    for seed in range(3):
        found = _twin_histories(name, seed)
        compared, differed = compared + found[0], differed + found[1]
    assert compared > 10 and differed > 0


def _twin_histories(name, seed):
    """(moments compared, moments where the other seat's observations differed) of one twin pair."""
    first, second = env(name, history=6), env(name, history=6)
    first.reset(seed=seed)
    second.reset(seed=seed)
    state = second.deal.state
    hidden = [(z, i) for z, i in hidden_positions(second.game, state, 0) if z.startswith("hand.") or z == "stock"]
    (za, ia), (zb, ib) = next((a, b) for a in hidden for b in hidden if a[0].startswith("hand.") and a[0] != b[0])
    other = f"player_{za.split('.')[1]}"  # whose hand holds one of the two cards
    swapped = {state.zones[za][ia], state.zones[zb][ib]}
    twin = state.clone()
    twin.zones[za][ia], twin.zones[zb][ib] = twin.zones[zb][ib], twin.zones[za][ia]
    second._start(twin, list(range(twin.players)), None)
    rng = Random(f"{name} {seed}", "twins")
    compared = differed = 0
    for _agent in first.agent_iter():
        obs, _, done, truncated, _ = first.last()
        if done or truncated or swapped & first.deal.view(0).seen:
            break
        ours = [x.observe("player_0")["observation"] for x in (first, second)]
        assert np.array_equal(*ours), (seed, compared)
        theirs = [x.observe(other)["observation"] for x in (first, second)]
        differed += not np.array_equal(*theirs)
        compared += 1
        slots = np.flatnonzero(obs["action_mask"])
        slot = int(slots[rng.below(len(slots))])
        move = first.legal_moves()[slot]
        if swapped & set(move.cards) or second.layout.index(move) not in second.legal_moves():
            break
        first.step(slot)
        second.step(second.layout.index(move))
    return compared, differed


def test_the_history_planes_say_who_moved_what_as_the_seat_saw_it():
    # CH-4.2: seat 1 draws from the stock. Seat 0's latest event: seat 1 (rotated: the next
    # seat) moved, a "draw stock", one card left the stock and entered seat 1's hand, which
    # card it was is not shown. Seat 1's own latest event names the card it drew.
    e = env("chinchon/fournier", players=2, history=2)
    e.reset(seed=2)
    layout, n = e.layout, e.layout.deck_size
    for _agent in e.agent_iter():  # play until seat 1 is to draw
        if e.deal.to_move == 1 and e.deal.state.counters.get("drawn", 0) == 0:
            break
        obs, *_ = e.last()
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    e.step(layout.index(Action("draw", (), "stock")))
    drawn = e.deal.state.zones["hand.1"][-1]
    fields = dict(layout.event_fields())
    offsets, at = {}, layout.history_at
    for field, size in layout.event_fields():
        offsets[field] = at
        at += size

    def part(obs, field):
        return obs[offsets[field] : offsets[field] + fields[field]]

    mine = e.observe("player_0")["observation"]
    assert list(part(mine, "event")) == [0, 1, 0]  # an action
    assert list(part(mine, "mover")) == [0, 1]  # the next seat
    assert layout.action_kinds[int(np.argmax(part(mine, "kind")))] == ("draw", "stock")
    assert not part(mine, "moved").any() and not part(mine, "revealed").any()
    zones = layout.zones
    assert part(mine, "from")[zones.index("stock")] == pytest.approx(1 / n)
    assert part(mine, "to")[zones.index("hand.1")] == pytest.approx(1 / n)
    theirs = e.observe("player_1")["observation"]
    assert list(part(theirs, "mover")) == [1, 0]  # itself
    assert np.flatnonzero(part(theirs, "moved")).tolist() == [drawn]
    assert part(theirs, "to")[zones.index("hand.0")] == pytest.approx(1 / n)  # its own hand, rotated


def test_history_must_be_a_whole_number_of_events():
    for bad in (-1, True, 2.5, "3"):
        with pytest.raises(TapeteError, match="history must be a whole number from 0 to 1,000"):
            env("fantan/pagat", history=bad)


def test_the_docs_describe_every_field_of_an_event():
    text = (Path(__file__).resolve().parents[1] / "docs" / "rl.md").read_text(encoding="utf-8")
    section = text.split("### The history planes", 1)[1].split("\n## ", 1)[0]
    documented = re.findall(r"^\| `(\w+)` \|", section, re.M)
    assert documented == [name for name, _ in env("fantan/pagat", history=1).layout.event_fields()]
