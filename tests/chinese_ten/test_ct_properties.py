"""Properties over many seeded deals: everything is captured, points and results add up,
seeded play repeats exactly, and an observation hides what a seat cannot see."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tapete import IllegalAction, Match, Random, RandomBot
from tapete_plugins.chinese_ten.bots import GreedyBot

from .helpers import play_out, random_moves, seat_rules, variants

two = variants["two-player"]

# variant -> (players, points in the deck, break-even)
FULL_CAPTURE = {
    "two-player": (2, 210, 105),
    "one-deal": (2, 210, 105),
    "three-player": (3, 240, 80),
    "four-player": (4, 280, 70),
    "taiwan": (4, 240, 60),
}
SEEDS = st.integers(min_value=0, max_value=2**32)


def _results(deal):
    return [score for score, _ in seat_rules(deal)]


def _play_checking_turns(deal, seed, greedy_seat=None):
    """Play out; after every complete turn the stock holds one card per hand card (CT-3.4)."""
    bots = {}
    if greedy_seat is not None:
        bots[greedy_seat] = GreedyBot(deal.game, greedy_seat, Random(seed))
    z = deal.state.zones
    players = deal.state.players
    for seat in range(players):
        bots.setdefault(seat, RandomBot(deal.game, seat, Random(seed, seat)))
    while not deal.over:
        deal.play(bots[deal.to_move].choose(deal.view(), deal.legal_actions()))
        if not z["turned"]:
            assert len(z["stock"]) == sum(len(z[f"hand.{s}"]) for s in range(players))
    return deal


@pytest.mark.parametrize("name", sorted(FULL_CAPTURE))
@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_ct3_4_everything_runs_out_together_and_adds_up(name, seed):
    players, total, base = FULL_CAPTURE[name]
    deal = _play_checking_turns(variants[name].new_deal(players, seed=seed), seed, greedy_seat=seed % players)
    z = deal.state.zones
    # CT-3.4 hands, stock and table are empty together; every card is in a capture pile
    assert all(not z[f"hand.{s}"] for s in range(players))
    assert z["stock"] == [] and z["table"] == [] and z["turned"] == []
    piles = [card for s in range(players) for card in z[f"captures.{s}"]]
    assert sorted(piles) == list(deal.game.deck.ids)
    # CT-4.2 / CT-V1 / CT-V2 / CT-V3: points sum to the deck's total, results to 0
    assert sum(deal.game.points(deal.state, s) for s in range(players)) == total
    assert sum(_results(deal)) == 0
    if name != "taiwan":
        assert [r + base for r in _results(deal)] == [deal.game.points(deal.state, s) for s in range(players)]


@pytest.mark.parametrize("name,players", [("main-merah", 2), ("main-merah-three", 3)])
@settings(max_examples=30, deadline=None)
@given(seed=SEEDS)
def test_ct_v5_main_merah_deals_end_with_nothing_capturable_left(name, players, seed):
    deal = _play_checking_turns(variants[name].new_deal(players, seed=seed), seed)
    z = deal.state.zones
    assert all(not z[f"hand.{s}"] for s in range(players)) and z["stock"] == []
    piles = [card for s in range(players) for card in z[f"captures.{s}"]]
    assert sorted(piles + z["table"]) == list(deal.game.deck.ids)
    # A 12- or 10-card opening can strand pairs: with four 8s and two 2s face up, the two
    # 2s still to come take two 8s and the other 2-8 pairs are left, with nothing left to play
    # them. They stay on the table unscored (CT-3.4: no sweep), and each has a partner there.
    takes = deal.game.takes
    assert all(any(b in takes[a] for b in z["table"]) for a in z["table"])


def test_two_player_points_sum_to_210_over_many_seeded_deals():
    for seed in range(150):
        deal = play_out(two.new_deal(seed=seed), seed=seed)
        assert deal.game.points(deal.state, 0) + deal.game.points(deal.state, 1) == 210
        r0, r1 = _results(deal)
        assert r0 == -r1  # CT-4.2


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_seeded_play_is_deterministic(seed):
    runs = []
    for _ in range(2):
        events = []
        Match(two, 2, seed=seed, bots=["greedy", "random"]).play(events.append)
        runs.append(json.dumps(events, sort_keys=True, ensure_ascii=False))
    assert runs[0] == runs[1]


def test_different_seeds_give_different_deals():
    tables = {tuple(two.new_deal(seed=s).state.zones["stock"]) for s in range(20)}
    assert len(tables) == 20


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, moves=st.integers(min_value=0, max_value=30))
def test_snapshots_resume_exactly(seed, moves):
    deal = random_moves(two.new_deal(seed=seed), seed, moves)
    text = json.dumps(deal.snapshot(), ensure_ascii=False)
    again = two.deal_from_snapshot(text)
    assert again.snapshot() == deal.snapshot()
    assert again.legal_actions() == deal.legal_actions()


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, moves=st.integers(min_value=0, max_value=30))
def test_refused_moves_leave_the_state_unchanged(seed, moves):
    deal = random_moves(two.new_deal(seed=seed), seed, moves)
    if deal.over:
        return
    before = deal.snapshot()
    legal = {a.text(deal.game.deck) for a in deal.legal_actions()}
    names = deal.game.deck.names
    tried = [
        f"{kind} {a}" + (f" {b}" if b else "")
        for kind in ("play", "capture", "take")
        for a in names[::5]
        for b in ("", names[7], names[20])
    ]
    for text in tried:
        if text in legal:
            continue
        with pytest.raises(IllegalAction):
            deal.play(text)
        assert deal.snapshot() == before


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, moves=st.integers(min_value=0, max_value=20))
def test_observation_hides_opponent_hand_and_stock_order(seed, moves):
    v = variants["three-player"]
    deal = v.new_deal(3, seed=seed)
    rng = Random(seed, "moves")
    for _ in range(moves):
        if deal.over:
            break
        legal = deal.legal_actions()
        deal.play(legal[rng.below(len(legal))])
    seen = deal.observe(0)
    z = seen["zones"]
    assert z["hand.0"] == [deal.game.deck.names[c] for c in deal.state.zones["hand.0"]]
    assert z["hand.1"] == {"count": len(deal.state.zones["hand.1"])}
    assert z["hand.2"] == {"count": len(deal.state.zones["hand.2"])}
    assert z["stock"] == {"count": len(deal.state.zones["stock"])}
    assert z["table"] == [deal.game.deck.names[c] for c in deal.state.zones["table"]]
    # shuffle the cards seat 0 cannot see (other hands and the stock): nothing observable changes
    other = deal.clone()
    hidden = [c for key in ("hand.1", "hand.2", "stock") for c in other.state.zones[key]]
    Random(seed, "hide").shuffle(hidden)
    for key in ("hand.1", "hand.2", "stock"):
        n = len(other.state.zones[key])
        other.state.zones[key], hidden = hidden[:n], hidden[n:]
    assert other.observe(0) == seen
    text = json.dumps(seen, ensure_ascii=False)
    for key in ("hand.1", "hand.2", "stock"):
        for card in deal.state.zones[key]:
            assert deal.game.deck.names[card] not in text
