"""No bot learns what its seat cannot know, in every registered variant.

The probe: at many moments of many deals, take two cards the seat to move has
never seen (not in its view now, not anywhere in its history of the deal) and
swap them in a copy of the state. The seat's view must be identical, and every
bot offered to the game must pick the same action from the same random state.
A bot that read the state, or a view that leaked a hidden card, would sooner or
later choose differently.
"""

from __future__ import annotations

import copy

import pytest
from conftest import variant

from tapete import Random, registry
from tapete.bots import is_legacy, observes
from tapete.core.rng import derive_seed
from tapete.testing import base_variants

VARIANTS = sorted(registry().variants())
# human asks a person (its view is what this file checks); policy needs a trained file (tests/test_rl_train.py)
SKIP_BOTS = {"human", "policy"}
SEARCH = "ismcts"  # probed at a budget where it searches, in test_search_sees_only_its_seat.py


def bots_for(name: str) -> list[str]:
    game = name.split("/", 1)[0]  # a registered name starts with its game: no variant loaded to collect
    return [b for b in registry().bot_names(game) if b not in SKIP_BOTS]


def make_bot(name: str, bot: str, seat: int, seed: int):
    v = variant(name)
    entry = registry().bot(v.spec.game, bot)
    rng = Random(derive_seed(seed, "bot", seat))
    return entry.factory(v.new_game(), seat, rng)


def never_seen(deal, seat: int) -> list[tuple[str, int]]:
    """(zone, index) of every card ``seat`` has never seen this deal."""
    view = deal.view(seat)
    seen = view.seen
    return [(z, i) for z, cards in deal.state.zones.items() for i, c in enumerate(cards) if c not in seen]


def twin_view(deal, seat: int, rng):
    """The view ``seat`` gets of a copy of the deal with two cards it never saw swapped, and where
    they were; None when it has seen all but one. The view itself must not change."""
    hidden = never_seen(deal, seat)
    if len(hidden) < 2:
        return None
    (za, ia), (zb, ib) = (hidden[rng.below(len(hidden))] for _ in range(2))
    twin = deal.state.clone()
    twin.zones[za][ia], twin.zones[zb][ib] = twin.zones[zb][ib], twin.zones[za][ia]
    seen, theirs = deal.view(seat), deal.recorder.view(twin, seat)
    assert repr(theirs) == repr(seen) and theirs.known == seen.known
    assert list(theirs.history) == list(seen.history)
    return theirs, (za, zb)


CASES = [(name, bot) for name in VARIANTS for bot in bots_for(name) if bot != SEARCH]
EVERYDAY = set(base_variants())  # every bot on its game's base variant each run; on the others, the slow tier


@pytest.mark.parametrize(
    ("name", "bot_name"),
    [pytest.param(n, b, marks=() if n in EVERYDAY else pytest.mark.slow) for n, b in CASES],
    ids=[f"{n}-{b}" for n, b in CASES],
)
def test_swapping_cards_a_seat_never_saw_changes_neither_its_view_nor_its_bots_choice(name, bot_name):
    v = variant(name)
    lo, hi = v.player_range()
    players = min(max(lo, v.default_players()), hi)
    rng = Random(f"{name} {bot_name}", "probe")
    probes = 0
    for seed in range(3):
        deal = v.new_deal(players, seed=seed)
        bots = [make_bot(name, bot_name, s, seed) for s in range(players)]
        assert not any(is_legacy(b) for b in bots), f"{bot_name} still uses choose(game, state, legal)"
        steps = 0
        while not deal.over and steps < 150:
            seat = deal.to_move
            legal = deal.legal_actions()
            bot = bots[seat]
            view = deal.view(seat) if observes(bot) else None
            found = twin_view(deal, seat, rng) if steps % 5 == 0 and len(legal) > 1 else None
            if found is not None:
                twin, where = found
                mine = copy.deepcopy(bot).choose(view, legal)
                theirs = copy.deepcopy(bot).choose(twin if view is not None else None, legal)
                assert mine == theirs, (seed, steps, where)
                probes += 1
            deal.play(bot.choose(view, legal))
            steps += 1
    assert probes > 0
