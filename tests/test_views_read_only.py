"""A bot cannot corrupt the game through its view: what a view reaches is read-only or a copy.

A bot that zeroed ``view.facts.point_of`` once turned Chinese Ten totals from [0, 0] into
[-630, -630] with the same moves, and every later match in the process inherited it. Here a
vandal seat, in every variant, walks everything its views reach (reflectively, closures too:
`tapete.testing.reachable`) and writes junk into every container that lets it; the moves and
scores of that match, and of a later match of the same loaded variant, must be exactly those
of the same matches on a freshly loaded variant. No container a view reaches may be one the
game itself holds.
"""

from __future__ import annotations

import json
import types
from typing import Any

import pytest

from tapete import Match, load_variant
from tapete.bots import RandomBot
from tapete.core.rng import Random, derive_seed
from tapete.testing import reachable, variant_params

DEALS = 2  # deals compared per match
WRECKS = 25  # decisions of the vandal's at which it writes into everything it reaches
READ_ONLY = (tuple, frozenset, types.MappingProxyType)


def mutable(obj: Any) -> bool:
    return isinstance(obj, list | dict | set | bytearray)


def wreck(view: Any) -> int:
    """Write junk into every container reachable from ``view``; check the read-only ones refuse."""
    found = list(reachable(view))
    for obj in found:
        if isinstance(obj, types.MappingProxyType):
            with pytest.raises(TypeError):
                obj["junk"] = 0  # type: ignore[index]
        elif type(obj).__name__ in ("View", "Facts", "Deck"):
            with pytest.raises(AttributeError):
                obj.junk = 0
    wrecked = 0
    for obj in found:
        if isinstance(obj, list | bytearray):
            obj[:] = [0] * len(obj) if isinstance(obj, list) else bytes(len(obj))
        elif isinstance(obj, dict):
            for key in list(obj):
                obj[key] = 0
            obj["junk"] = 0
        elif isinstance(obj, set):
            obj.clear()
        else:
            continue
        wrecked += 1
    return wrecked


class Vandal:
    """Plays like the random bot (its own dice), and wrecks what its view reaches after choosing."""

    observes = True

    def __init__(self, rng: Random, wrecking: bool):
        self.rng, self.wrecking, self.times = rng, wrecking, 0

    def choose(self, view: Any, legal: list[Any]) -> Any:
        action = legal[self.rng.below(len(legal))] if len(legal) > 1 else legal[0]
        if self.wrecking and self.times < WRECKS:
            self.times += 1
            wreck(view)
        return action


class _Enough(Exception):
    pass


def first_deals(variant: Any, seed: int, wrecking: bool | None) -> list[dict[str, Any]]:
    """The events of a match's first deals: seat 0 a vandal (None: a bot that never looks), the rest random."""
    players = variant.default_players()
    game = variant.new_game()
    agents: list[Any] = [RandomBot(game, s, Random(derive_seed(seed, "bot", s))) for s in range(players)]
    if wrecking is not None:
        agents[0] = Vandal(Random(derive_seed(seed, "bot", 0)), wrecking)
    events: list[dict[str, Any]] = []

    def emit(event: dict[str, Any]) -> None:
        events.append(json.loads(json.dumps(event)))
        if event["type"] in ("score", "void") and event["number"] >= DEALS:
            raise _Enough

    try:
        Match(variant, players, seed, agents=agents).play(emit)
    except _Enough:
        pass
    return events


@pytest.mark.parametrize("name", variant_params())
def test_a_bot_that_writes_into_everything_its_view_reaches_changes_nothing_in_the_game(name):
    clean = first_deals(load_variant(name), 1, wrecking=False)
    later_clean = first_deals(load_variant(name), 2, wrecking=None)
    variant = load_variant(name)
    assert first_deals(variant, 1, wrecking=True) == clean  # the same moves, the same scores
    assert first_deals(variant, 2, wrecking=None) == later_clean  # and the next match in the process too


@pytest.mark.parametrize("name", variant_params())
def test_no_container_a_view_reaches_is_one_the_game_holds(name):
    variant = load_variant(name)
    game = variant.new_game()
    deal = variant.new_deal(seed=1)
    views = [deal.view(s) for s in range(deal.state.players)]
    held = {id(o) for o in reachable(game, skip=("_public_facts",)) if mutable(o)}
    held |= {id(o) for o in reachable(deal.state) if mutable(o)}
    shared = [type(o).__name__ for view in views for o in reachable(view) if mutable(o) and id(o) in held]
    assert shared == []


def test_zeroing_chinese_ten_points_through_a_view_is_refused_and_the_totals_stand():
    variant = load_variant("chinese-ten/two-player")
    view = variant.new_deal(seed=1).view(0)
    with pytest.raises(TypeError):
        view.facts.point_of[0] = 0  # the bot: totals went from [0, 0] to [-630, -630]
    assert sum(variant.new_game().point_of) == sum(view.facts.point_of) > 0
