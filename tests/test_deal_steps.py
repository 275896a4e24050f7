"""`Deal`'s steps in C (``tapete.core._speedups.DealSteps``) play exactly as their Python twin does.

A caller stepping through a deal calls `Deal.legal_actions`, `Deal.play`, `Deal.over` and
`Deal.to_move` for every move; where the C module is built they are C, and with a game's own
steps in C (the trick family's) a move runs no Python frame at all. The Python twin,
`tapete.play.deal.DealSteps`, is what runs without a compiler and stays the reference: here two
deals from one seed are played side by side, one through the C methods and one through the
twin's, with the moves a careless caller makes mixed in (an equal copy of an offered move, a
move's text, a move not legal now, a reach for ``deal.state``), and compared after every step.
"""

from __future__ import annotations

import copy
import gc
import weakref

import pytest

from tapete import Action, IllegalAction, Random, load_variant
from tapete.play.deal import Deal, DealSteps
from tapete.testing import variant_params

speedups = pytest.importorskip("tapete.core._speedups", reason="the C module is not built here")
py_legal, py_play = DealSteps.legal_actions, DealSteps.play


def test_deal_stands_on_the_c_steps_where_they_are_built() -> None:
    assert issubclass(Deal, speedups.DealSteps)
    assert type(Deal.play) is not type(py_play)  # the C method, not the twin's function


def _refused(play, deal: Deal, move: object) -> str | None:
    try:
        play(deal, move)
    except IllegalAction as exc:
        return str(exc)
    return None


def lockstep(name: str, seed: int, record: bool) -> int:
    """Play one deal of ``name`` both ways; every step compared. The number of moves made."""
    variant = load_variant(name)
    players = variant.default_players()
    c_deal = variant.new_deal(players, seed=seed, record=record)
    py_deal = variant.new_deal(players, seed=seed, record=record)
    rng = Random(seed, "lockstep")
    moves = 0
    while True:
        assert c_deal.over == DealSteps.over.fget(py_deal)  # type: ignore[attr-defined]
        assert c_deal.to_move == DealSteps.to_move.fget(py_deal)  # type: ignore[attr-defined]
        c_offered, py_offered = c_deal.legal_actions(), py_legal(py_deal)
        assert c_offered == py_offered
        assert c_deal.legal_actions() == c_offered and c_deal.legal_actions() is not c_offered  # a copy each time
        if c_deal.over:
            assert c_offered == []
            break
        pick = rng.below(len(c_offered))
        how = rng.below(6)
        if how == 0:  # a move not among those offered: refused alike, nothing changed
            snapshot = c_deal.snapshot()
            stranger = Action("play", (len(c_deal.game.deck) + 3,))
            why = _refused(Deal.play, c_deal, stranger)
            assert why is not None and why == _refused(py_play, py_deal, stranger)
            assert c_deal.snapshot() == snapshot
            continue
        if how == 1:  # the state reached for by hand: the moves offered are forgotten, then offered again
            c_deal.state  # noqa: B018
            py_deal.state  # noqa: B018
            assert c_deal._offered is None and py_deal._offered is None
            assert c_deal._session is None and py_deal._session is None  # and the session following it dropped
            continue
        move = c_offered[pick]
        if how == 2:  # an equal Action made by the caller
            c_move: object = Action(move.kind, move.cards, move.detail)
            py_move: object = Action(move.kind, move.cards, move.detail)
        elif how == 3:  # the move's text
            c_move = py_move = move.text(c_deal.game.deck)
        else:
            c_move, py_move = move, py_offered[pick]
        c_events, py_events = c_deal.play(c_move), py_play(py_deal, py_move)
        assert c_events == py_events
        assert c_deal.snapshot() == py_deal.snapshot()
        assert c_deal._offered is None
        moves += 1
    if record:
        for seat in range(players):  # every seat's history, as its bot is handed it
            assert c_deal.observe(seat) == py_deal.observe(seat)
            assert list(c_deal.view(seat).history) == list(py_deal.view(seat).history)
    return moves


@pytest.mark.parametrize("name", variant_params())
def test_the_c_steps_play_every_variant_as_the_python_twin_does(name: str) -> None:
    made = [lockstep(name, seed, record=seed % 2 == 0) for seed in range(4)]
    assert all(n > 0 for n in made)


def test_a_move_is_named_by_position_or_keyword_and_nothing_else() -> None:
    deal = load_variant("hearts/classic").new_deal(4, seed=3)  # the pass: each seat chooses three cards
    first = deal.legal_actions()[0]
    deal.play(action=first)
    assert first not in deal.legal_actions()  # the card chosen by keyword is chosen
    second = deal.legal_actions()[0]
    before = deal.snapshot()
    with pytest.raises(TypeError):
        deal.play()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        deal.play(second, second)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        deal.play(move=second)  # type: ignore[call-arg]
    assert deal.snapshot() == before and deal.legal_actions()[0] == second  # the wrong calls changed nothing
    deal.play(second)
    assert deal.snapshot() != before and second not in deal.legal_actions()


def test_a_deal_on_c_steps_is_copied_and_collected_like_any_object() -> None:
    deal = load_variant("briscola/classic").new_deal(2, seed=5)
    deal.play(deal.legal_actions()[0])
    offered = deal.legal_actions()
    twin = copy.copy(deal)  # a shallow copy holds what the deal holds, the fields kept in C too
    assert twin._state is deal._state and twin._moves == deal._moves and twin.game is deal.game
    assert deal._offered is deal._session  # the session vouches for the moves it handed out (no copy kept) ...
    assert twin._offered is None and twin._session is None  # ... and is the deal's own: the copy asks anew
    twin.state = deal.state.clone()
    twin.play(twin.legal_actions()[0])
    assert twin.snapshot() != deal.snapshot() and deal.legal_actions() == offered  # given its own state, its own deal
    gone = weakref.ref(twin)
    twin.self_reference = twin  # a cycle through the deal: only the collector frees it
    del twin
    gc.collect()
    assert gone() is None
