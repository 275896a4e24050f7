"""The searching bot: it plays every variant, imagines only deals its seat cannot rule out, and is seeded."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections import Counter

import pytest
from conftest import snapshot_deal

from tapete import Deal, Match, Random, TapeteError, registry
from tapete.plugins.botspec import parse_spec, split_bots
from tapete.search.determinise import Determiniser, count_assignments
from tapete.testing import variant, variant_params

VARIANTS = sorted(registry().variants())


class _FirstDeal(Exception):
    pass


def _one_deal(name: str, bots: list[str], seed: int = 1) -> tuple[Match, dict]:
    v = variant(name)
    match = Match(v, v.default_players(), seed, bots=bots)
    actions: list[str] = []

    def emit(event: dict) -> None:
        if event["type"] == "action":
            actions.append(event["action"])
        if event["type"] in ("score", "void"):
            raise _FirstDeal(event)

    with pytest.raises(_FirstDeal) as ended:
        match.play(emit)
    return match, {"end": ended.value.args[0], "actions": actions}


@pytest.mark.parametrize("name", variant_params())
def test_ismcts_plays_a_deal_of_every_variant(name):
    match, played = _one_deal(name, ["ismcts:iterations=3,depth=30", "random"])
    assert played["actions"]
    assert match.agents[0].decisions >= 0


def test_same_seed_same_choices():
    bots = ["ismcts:iterations=30", "greedy"]
    first = _one_deal("chinese-ten/two-player", bots, seed=4)[1]
    again = _one_deal("chinese-ten/two-player", bots, seed=4)[1]
    assert first == again


def test_without_evidence_the_paired_search_plays_the_heuristics_moves():
    """The default bot's move stands unless another beats it on the same imagined deals by the margin."""
    sensible = ["sensible"] * 3
    cautious = ["ismcts:iterations=6,depth=8,margin=1000", "sensible", "sensible"]
    assert _one_deal("fantan/pagat", cautious, seed=3)[1] == _one_deal("fantan/pagat", sensible, seed=3)[1]


def test_a_clear_advantage_on_the_same_deals_overrides_the_heuristic():
    """Chinese Ten: with no margin asked for, a move that does better on the imagined deals is played."""
    match, _ = _one_deal("chinese-ten/two-player", ["ismcts:iterations=150,margin=0,rollout=random", "greedy"], seed=2)
    bot = match.agents[0]
    assert bot.decisions > 0 and 0 < bot.overrides <= bot.decisions


def test_tree_search_still_plays():
    match, played = _one_deal("fantan/pagat", ["ismcts:search=tree,iterations=10,rollout=random", "sensible"])
    assert played["actions"] and match.agents[0].iterations_done >= 10 * match.agents[0].decisions


def test_bot_specs_split_per_seat():
    assert split_bots("ismcts:iterations=400,c=0.5,random") == ["ismcts:iterations=400,c=0.5", "random"]
    assert split_bots("sensible, random") == ["sensible", "random"]
    assert parse_spec("ismcts:iterations=400,c=0.5,rollout=default") == (
        "ismcts",
        {"iterations": 400, "c": 0.5, "rollout": "default"},
    )


@pytest.mark.parametrize(
    ("bot", "message"),
    [
        ("ismcts:depht=3", "no parameter 'depht'"),
        ("random:x=1", "no parameter 'x'"),
        ("ismcts:rollout=smart", "rollout must be one of"),
        ("ismcts:search=deep", "search must be one of"),
        ("ismcts:prior=oracle", "prior must be one of"),
        ("ismcts:margin=-1", "margin must be"),
    ],
)
def test_bad_bot_parameters_are_refused_by_name(bot, message):
    with pytest.raises(TapeteError, match=message):
        Match(variant("fantan/pagat"), 3, 1, bots=[bot])


def test_cli_plays_with_parameters_and_the_log_replays(tmp_path):
    log = tmp_path / "g.jsonl"
    cmd = [sys.executable, "-m", "tapete", "play", "fantan/pagat", "--seed", "2", "-q", "--log", str(log)]
    played = subprocess.run(
        [*cmd, "--bots", "ismcts:iterations=20,c=0.5,sensible,random"], capture_output=True, text=True, timeout=120
    )
    assert played.returncode == 0, played.stderr
    assert "Winner: seat" in played.stdout
    assert '"bots": ["ismcts:iterations=20,c=0.5", "sensible", "random"]' in log.read_text().splitlines()[0]
    replayed = subprocess.run([sys.executable, "-m", "tapete", "replay", str(log)], capture_output=True, text=True)
    assert replayed.returncode == 0, replayed.stderr
    bad = subprocess.run([*cmd, "--bots", "ismcts:iterations=0"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "iterations must be" in bad.stderr


# -- determinisation -------------------------------------------------------------------
def _fantan_after_a_pass() -> Deal:
    """Three players, four cards still hidden from seat 0; seat 1 has to pass (FT-3.4)."""
    rows = {
        "row.♣": ["A♣", "2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣", "9♣", "10♣", "J♣", "Q♣", "K♣"],
        "row.♦": ["A♦", "2♦", "3♦", "4♦", "5♦", "6♦", "7♦", "8♦", "9♦", "10♦", "J♦", "Q♦", "K♦"],
        "row.♥": ["4♥", "5♥", "6♥", "7♥", "8♥", "9♥", "10♥", "J♥"],
        "row.♠": ["3♠", "4♠", "5♠", "6♠", "7♠", "8♠", "9♠", "10♠", "J♠", "Q♠"],
    }
    zones = {
        "hand.0": ["3♥", "K♠"],
        "hand.1": ["A♥", "A♠"],
        "hand.2": ["2♥", "Q♥", "K♥", "2♠"],
        **rows,
    }
    deal = snapshot_deal("fantan/pagat", zones, to_move=0, counters={"opened": 1})
    deal.play("play 3♥")  # seat 0
    assert [a.kind for a in deal.legal_actions()] == ["pass"]
    deal.play("pass")  # seat 1 holds A♥ A♠: nothing fits
    deal.play("play 2♠")  # seat 2
    return deal


def test_a_sample_is_uniform_over_the_deals_the_seat_cannot_rule_out():
    deal = _fantan_after_a_pass()
    view = deal.view(0)
    unseen = sorted(view.unseen())
    game = deal.game
    hands_now = {1: 2, 2: 3}
    names = game.deck.names
    # Enumerate: every split of the unseen cards into the two hidden hands ...
    consistent = []
    for cards1 in itertools.combinations(unseen, hands_now[1]):
        # ... where seat 1, at its pass (rows then: today's less the 2♠ played since), had no playable card.
        passed_with = set(cards1)
        playable_then = {names[c] for c in passed_with} & {"2♥", "Q♥"}  # next to 3♥ and J♥; K♥ needs the Q♥
        if not playable_then:
            consistent.append(frozenset(cards1))
    assert consistent and len(consistent) < len(list(itertools.combinations(unseen, 2)))
    det = Determiniser(game, view)
    rng = Random(7)
    draws = 3000
    seen = Counter(frozenset(det.sample(rng).zones["hand.1"]) for _ in range(draws))
    assert set(seen) == set(consistent)
    expected = draws / len(consistent)
    assert all(abs(n - expected) < 0.2 * expected for n in seen.values()), seen


def test_counting_matches_enumeration():
    # 5 cards into places of sizes 2, 2, 1; card 0 may not go to place 0, cards 1-2 not to place 2.
    allowed = {0: (1, 2), 1: (0, 1), 2: (0, 1), 3: (0, 1, 2), 4: (0, 1, 2)}
    caps = (2, 2, 1)
    brute = 0
    for places in itertools.product(range(3), repeat=5):
        if all(places[c] in allowed[c] for c in range(5)) and all(places.count(z) == caps[z] for z in range(3)):
            brute += 1
    groups = [((1, 2), 1), ((0, 1), 2), ((0, 1, 2), 2)]
    assert count_assignments(groups, caps) == brute


def test_samples_keep_what_the_seat_sees_and_remembers():
    v = variant("chinchon/fournier")
    deal = v.new_deal(2, seed=5)
    rng = Random(3)
    for _ in range(12):  # take the discard at times, so the opponent holds a remembered card
        legal = deal.legal_actions()
        deal.play(legal[rng.below(len(legal))])
    view = deal.view(deal.to_move)
    det = Determiniser(deal.game, view)
    for _ in range(20):
        state = det.sample(rng)
        assert sorted(c for z in state.zones.values() for c in z) == sorted(v.rules.deck.ids)
        for zone, cards in view.zones.items():
            assert len(state.zones[zone]) == view.counts[zone]
            assert state.zones[zone][len(state.zones[zone]) - len(cards) :] == list(cards)
        for card, zone in view.known.items():
            assert card in state.zones[zone]
