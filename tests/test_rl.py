"""A learner among the game's bots: `tapete.rl.env` is a Gymnasium environment for every variant (``rl`` extra).

What a learner relies on: Gymnasium's own checker passes; the mask is the learner's legal
moves; the bots are handed exactly the views a recorded deal hands their seats (so they
play as in a match and read nothing of the real deal); the k-th episode of a seed is the
same deal whatever the learner did before, which is what makes `margin` a paired
comparison. Training itself (PyTorch) is in test_rl_train.py.
"""

from __future__ import annotations

import warnings

import pytest

from tapete.core.errors import TapeteError
from tapete.core.rng import derive_seed
from tapete.testing import variant, variant_params, view_picture

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from tapete import rl  # noqa: E402


@pytest.mark.parametrize("name", variant_params())
def test_gymnasiums_checker_passes_against_random_and_the_default_bot(name):
    default = variant(name).record.default_bot
    for opponents in ("random", default):
        e = rl.env(name, opponents)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # what the checker only warns of (an observation outside its space) fails
            warnings.filterwarnings("ignore", message=".*infinity.*")  # but unbounded counters, as in tapete.pettingzoo
            check_env(e, skip_render_check=True)
        obs, info = e.reset(seed=3)
        assert e.observation_space.contains(obs)
        assert e.action_masks().any() and info["seat"] == 0
        rl.play(e, rl.random_policy(1), 2, seed=4)
        assert e.reduced == 0  # the action space holds every move the bots may choose


def test_the_history_planes_reach_the_learner():
    """aec_options go to tapete.pettingzoo.env: history=k lengthens the learner's vector by its planes."""
    plain, recalled = rl.env("chinchon/fournier"), rl.env("chinchon/fournier", aec_options={"history": 4})
    layout = recalled.aec.layout
    assert recalled.observation_space.shape[0] == plain.observation_space.shape[0] + 4 * layout.event_size
    obs, _ = recalled.reset(seed=2)
    assert obs[layout.history_at :].any()  # the deal is the first event the learner remembers


class Spy:
    """A bot that plays like another and keeps every view it is handed."""

    def __init__(self, inner, seat, log):
        self.inner, self.seat, self.log = inner, seat, log

    def choose(self, view, legal):
        action = self.inner.choose(view, legal)
        self.log.append((self.seat, view_picture(view), action))
        return action


@pytest.mark.parametrize("name", ["fantan/pagat", "chinchon/fournier", "chinese-ten/two-player", "scopa/classic"])
def test_bots_are_handed_the_views_a_recorded_deal_hands_their_seats(name):
    """Replaying each episode on a fully recorded `Deal` gives every bot's view, history included, at each move."""
    v = variant(name)
    inner = v.record.default_factory()
    log: list = []

    def spy(game, seat, rng):
        return Spy(inner(game, seat, rng), seat, log)

    e = rl.env(name, [spy])
    mine = rl.random_policy(5)
    for k in range(3):
        log.clear()
        e.reset(seed=8) if k == 0 else e.reset()
        deal = v.new_deal(e.players, seed=derive_seed(8, "episode", k))  # the AEC environment's episode k (docs/rl.md)
        replayed, done = 0, False
        while True:
            for seat, picture, action in log[replayed:]:  # the bots' moves since the learner's last
                assert deal.to_move == seat != e.learner_seat
                assert picture == view_picture(deal.view(seat))
                deal.play(action)
            replayed = len(log)
            if done:
                break
            slot = mine(e, None)
            deal.play(e.legal_moves()[slot])
            _, _, terminated, truncated, _ = e.step(slot)
            done = terminated or truncated
        assert deal.over and replayed > 0


def test_the_mask_is_the_learners_legal_moves_and_the_reward_is_its_result():
    e = rl.env("fantan/pagat", "random", players=3)
    hand = e.aec.layout.counts_at + e.aec.layout.zones.index("hand.0")
    obs, _ = e.reset(seed=1)
    pick = rl.random_policy(2)
    for _ in range(30):
        done = False
        while not done:
            legal = e.legal_moves()
            assert set(np.flatnonzero(e.action_masks())) == set(legal)
            assert e.aec.agent_selection == f"player_{e.learner_seat}"
            obs, reward, terminated, truncated, _ = e.step(pick(e, obs))
            done = terminated or truncated
        assert reward == (1.0 if obs[hand] == 0 else 0.0)  # FT-4.1: the deal is won by going out first
        obs, _ = e.reset()


def test_the_seat_rotates_episode_by_episode_or_stays_where_it_is_put():
    rotating, fixed = rl.env("fantan/pagat", "random", players=3), rl.env("fantan/pagat", "random", players=3, seat=2)
    seats, kept = [], []
    for k in range(6):
        seats.append((rotating.reset(seed=4) if k == 0 else rotating.reset())[1]["seat"])
        kept.append((fixed.reset(seed=4) if k == 0 else fixed.reset())[1]["seat"])
    assert seats == [0, 1, 2, 0, 1, 2] and kept == [2] * 6


def test_the_kth_episode_of_a_seed_is_the_same_whatever_the_learner_did_before():
    e = rl.env("chinchon/fournier", "heuristic")
    firsts = []
    for policy in (rl.random_policy(1), rl.random_policy(2), rl.bot_policy("heuristic")):
        rl.play(e, policy, 3, seed=6)
        firsts.append(e.reset()[0])  # episode 3 of seed 6
    assert all(np.array_equal(firsts[0], f) for f in firsts[1:])
    assert not np.array_equal(firsts[0], e.reset(seed=7)[0])


def test_a_slot_the_mask_forbids_ends_the_episode_with_the_illegal_reward():
    e = rl.env("fantan/pagat", "random", players=3, illegal_reward=-2.0)
    e.reset(seed=1)
    banned = int(np.flatnonzero(~e.action_masks())[0])
    _, reward, terminated, truncated, info = e.step(banned)
    assert (reward, terminated, truncated) == (-2.0, True, False)
    assert f"slot {banned}" in info["illegal"]
    with pytest.raises(TapeteError, match="reset"):
        e.step(banned)


def test_opponents_are_checked_when_the_environment_is_built():
    e = rl.env("fantan/pagat", "sensible", players=4)
    assert e.opponents == ["sensible"] * 3  # a short list is filled with its last
    assert rl.env("fantan/pagat", "sensible,random", players=4).opponents == ["sensible", "random", "random"]
    with pytest.raises(TapeteError, match="no bot 'nobody'.*known: .*sensible"):
        rl.env("fantan/pagat", "nobody")
    with pytest.raises(TapeteError, match="4 opponents were listed for 2 other seats"):
        rl.env("fantan/pagat", "random,random,random,random", players=3)
    with pytest.raises(TapeteError, match="seat must be a whole number from 0 to 2, not 5"):
        rl.env("fantan/pagat", players=3, seat=5)


def test_an_old_contract_bot_that_reads_the_whole_deal_is_refused():
    class Peeker:
        def choose(self, game, state, legal):
            return legal[0]

    e = rl.env("fantan/pagat", [lambda game, seat, rng: Peeker()], players=3)
    with pytest.warns(DeprecationWarning), pytest.raises(TapeteError, match="chooses from a view|only bots"):
        e.reset(seed=1)


def test_match_episodes_hand_the_bots_the_match_so_far():
    """In a match episode a bot's view carries the deal's number and the totals before it, as the match loop's do."""
    seen: list = []

    class Counter:
        def __init__(self, inner):
            self.inner = inner

        def choose(self, view, legal):
            seen.append((view.deal_number, view.totals))
            return self.inner.choose(view, legal)

    heuristic = variant("chinchon/fournier").record.default_factory()
    e = rl.env("chinchon/fournier", [lambda game, seat, rng: Counter(heuristic(game, seat, rng))], episode="match")
    e.reset(seed=3)
    done = False
    while not done:
        _, reward, terminated, truncated, _ = e.step(int(np.flatnonzero(e.action_masks())[0]))
        done = terminated or truncated
    result = e.aec.result
    assert result is not None and result.deals > 1
    assert reward == (1.0 if result.winner == e.learner_seat else 0.0)  # the match reward (docs/rl.md)
    before = {1: (0, 0), **{r["number"] + 1: tuple(r["totals"]) for r in result.history if r["type"] == "score"}}
    assert {n for n, _ in seen} == set(range(1, result.deals + 1))
    assert all(totals == before[n] for n, totals in seen)


@pytest.mark.parametrize("episodes", [100, pytest.param(400, marks=pytest.mark.slow)])
def test_the_default_bot_beats_random_at_the_learners_seat_by_a_confirmed_margin(episodes):
    """bot_policy plays from the learner's view; the paired margin finds what the bench reports (0.68 against 0.34).

    100 episodes already confirm it (pairing removes the luck of the deal); the bench's 400 are in the slow tier."""
    e = rl.env("fantan/pagat", "random", players=3)
    bot = rl.play(e, rl.bot_policy("sensible"), episodes, seed=2)
    chance = rl.play(e, rl.random_policy(3), episodes, seed=2)
    m = rl.margin(bot, chance)
    assert m.confirmed and 0.2 < m.mean < 0.5, m


def test_the_margin_is_the_mean_paired_difference_with_its_interval():
    m = rl.margin([1, 0, 1, 1], [0, 0, 1, 0])
    assert m.mean == 0.5 and m.n == 4
    half = 1.96 * np.std([1, 0, 0, 1], ddof=1) / 2
    assert (m.low, m.high) == (pytest.approx(0.5 - half), pytest.approx(0.5 + half))
    assert not m.confirmed  # four episodes cannot tell
    assert rl.margin([1] * 20, [0] * 19 + [1]).confirmed and not rl.margin([1, 0] * 10, [0, 1] * 10).confirmed
    with pytest.raises(ValueError):
        rl.margin([1], [0])
