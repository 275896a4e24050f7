"""The C steps' shortcuts fall back where a state is not the plain `DealState` they expect.

`_fast.c` reads a state's attributes (zones, counters, to_move, players, data, over) straight from
the instance dict, and `_speedups.DealSteps` reads ``over`` so, when the state's class has the
generic getattr and no data descriptor for those names (checked once per class, again whenever the
class changes). A class with a property for one of them, a class given one later, and a state whose
zones are no plain dict must still be read as getattr reads them. The pass's last card, handed on in
C, is left to the Python when the blind nil exchange is on or the pass's counter is missing."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tapete import load_variant
from tapete.core.ledger import Ledger
from tapete.core.rng import Random
from tapete.core.state import DealState
from tapete.play.deal import Deal, start_deal
from tapete_plugins.tricks import game as trick_game
from tapete_plugins.tricks.blind import PASSING

pytestmark = pytest.mark.skipif(trick_game._fast is None, reason="the C steps were not built (no C compiler)")


def _games() -> tuple[Any, Any]:
    fast, plain = load_variant("hearts/classic")._game, load_variant("hearts/classic")._game
    plain._fast = None
    return fast, plain


def _in_play(game: Any) -> DealState:
    """A deal of Hearts after its pass, a few cards into the first trick."""
    state = start_deal(game, 4, 0, Random(3, "deal"), Ledger(players=4))
    while state.data.get("choosing") or len(state.zones["trick"]) < 2:
        game.apply(state, game.legal_actions(state)[-1])
    return state


def _at_last_pass_card(game: Any) -> DealState:
    state = start_deal(game, 4, 0, Random(5, "deal"), Ledger(players=4))
    while sum(len(state.zones[f"chosen.{s}"]) for s in range(4)) < 11:
        game.apply(state, game.legal_actions(state)[0])
    return state


def _as(cls: type, state: DealState, **extra: Any) -> Any:
    """``state``'s attributes on an instance of ``cls`` (built without its __init__), plus ``extra``."""
    obj = object.__new__(cls)
    obj.__dict__.update(copy.deepcopy(state.__dict__))
    obj.__dict__.update(extra)
    return obj


def _other_seat_zones(state: DealState) -> dict[str, list[int]]:
    """The zones with seat to move's hand swapped for the next seat's: other legal moves."""
    zones = copy.deepcopy(state.zones)
    s, t = state.to_move, (state.to_move + 1) % state.players
    zones[f"hand.{s}"], zones[f"hand.{t}"] = zones[f"hand.{t}"], zones[f"hand.{s}"]
    return zones


class ZonesElsewhere(DealState):
    """getattr reads ``zones`` through a property, not from the instance dict."""

    @property  # type: ignore[override]
    def zones(self) -> dict[str, list[int]]:
        return self.__dict__["elsewhere"]


class SubState(DealState):
    """A plain subclass, given a property later."""


def test_a_property_on_a_subclass_is_read_as_getattr_reads_it() -> None:
    game, plain = _games()
    state = _in_play(game)
    game._fast.legal(state)  # the plain class checked and remembered first
    elsewhere = _other_seat_zones(state)
    odd = _as(ZonesElsewhere, state, elsewhere=elsewhere)
    assert odd.zones is elsewhere and odd.__dict__["zones"] == state.zones
    moves = game._fast.legal(odd)
    assert moves is not None and moves == plain.legal_actions(odd)
    assert moves != game.legal_actions(state)  # the hand through the property, not the dict's
    card = moves[0]
    a, b = odd, _as(ZonesElsewhere, state, elsewhere=copy.deepcopy(elsewhere))
    assert game.apply(a, card) == plain.apply(b, card)
    assert a.zones == b.zones and a.__dict__ == b.__dict__


def test_a_class_changed_after_it_was_read_is_read_again() -> None:
    game, plain = _games()
    state = _in_play(game)
    sub = _as(SubState, state)
    assert game._fast.legal(sub) == plain.legal_actions(sub)  # SubState remembered as plain
    seat = (state.to_move + 1) % 4
    SubState.to_move = property(lambda self: seat)  # type: ignore[assignment]
    try:
        moves = game._fast.legal(sub)
        assert sub.to_move == seat and sub.__dict__["to_move"] == state.to_move
        assert moves == plain.legal_actions(sub)
        assert all(m.cards[0] in sub.zones[f"hand.{seat}"] for m in moves or [])
    finally:
        del SubState.to_move
    assert game._fast.legal(sub) == plain.legal_actions(sub) == game.legal_actions(state)


def test_zones_not_a_plain_dict_are_left_to_python() -> None:
    game, plain = _games()
    state = _in_play(game)
    odd = copy.deepcopy(state)

    class Zones(dict):  # type: ignore[type-arg]
        pass

    odd.zones = Zones(odd.zones)
    assert game._fast.legal(odd) is None
    assert game.legal_actions(odd) == plain.legal_actions(state)


def test_over_through_a_property_is_read_by_the_deal() -> None:
    class OverSaid(DealState):
        @property  # type: ignore[override]
        def over(self) -> bool:
            return bool(self.__dict__.get("said_over"))

        @over.setter
        def over(self, value: bool) -> None:
            self.__dict__["said_over"] = value

    variant = load_variant("hearts/classic")
    deal = variant.new_deal(4, seed="shapes", record=False)
    assert deal.over is False and deal.legal_actions()
    odd = _as(OverSaid, deal.state, said_over=True)
    deal.state = odd
    assert odd.__dict__["over"] is False
    assert deal.over is True and deal.legal_actions() == []
    odd.__dict__["said_over"] = False
    deal.state = odd
    assert deal.over is False and deal.legal_actions()
    assert isinstance(deal, Deal)


def test_the_last_pass_card_is_handed_on_in_c_as_in_python() -> None:
    game, plain = _games()
    state = _at_last_pass_card(game)
    move = game.legal_actions(state)[0]
    a, b = copy.deepcopy(state), copy.deepcopy(state)
    said = game._fast.play(a, move)
    assert said is not None and said == plain.apply(b, move)
    assert a == b and list(a.zones) == list(b.zones) and a.data == b.data
    assert not any(name.startswith("chosen.") for name in a.zones)


@pytest.mark.parametrize("how", ["blind", "no pass_to", "pass_to not an int"])
def test_the_last_pass_card_is_left_to_python_when_not_as_kept(how: str) -> None:
    game, plain = _games()
    state = _at_last_pass_card(game)
    if how == "blind":
        state.counters[PASSING] = 1
    elif how == "no pass_to":
        del state.counters["pass_to"]
    else:
        state.counters["pass_to"] = 1.0  # type: ignore[assignment]
    move = game.choices.moves()[state.zones[f"hand.{state.to_move}"][0]]
    before = copy.deepcopy(state)
    assert game._fast.play(state, move) is None
    assert state == before


def test_a_blind_pass_state_plays_alike_both_ways() -> None:
    game, plain = _games()
    state = _at_last_pass_card(game)
    state.counters[PASSING] = 0  # present and false: the family's own pass
    move = game.legal_actions(state)[0]
    a, b = copy.deepcopy(state), copy.deepcopy(state)
    assert game._fast.play(a, move) == plain.apply(b, move)
    assert a == b
