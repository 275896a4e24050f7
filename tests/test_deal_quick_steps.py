"""`Game.quick_steps`: a game's steps that `tapete.Deal` calls with no frame of the game's between.

A game may hand the engine two callables, ``legal(state)`` and ``apply(state, action)``, that
answer as its `legal_actions` and `apply` do or say None for a state they leave to them (the
trick family hands over its C methods). These tests give Fan Tan (which has none) a pair
that answers every other position and count what each side did: the deal plays the same
moves to the same end either way, a move is still refused before anything is applied, and a
recorded deal keeps every seat's history.
"""

from __future__ import annotations

import random

import pytest

from tapete import Action, IllegalAction, QuickSteps, load_variant

VARIANT = "fantan/pagat"


class Halfway:
    """Quick steps answering every other call as the game does, None for the others; counted."""

    def __init__(self, game):
        self.game, self.calls, self.answered, self.applied = game, 0, 0, []

    def legal(self, state):
        self.calls += 1
        if self.calls % 2:
            return None
        self.answered += 1
        return list(self.game.legal_actions(state))

    def apply(self, state, action):
        self.calls += 1
        if self.calls % 2:
            return None
        self.answered += 1
        self.applied.append(action)
        return self.game.apply(state, action)


def _play_out(variant, seed: int, quick: Halfway | None, record: bool = False) -> tuple[list[str], dict]:
    if quick is not None:
        variant._game.quick_steps = lambda: QuickSteps(quick.legal, quick.apply)
    deal = variant.new_deal(4, seed=seed, record=record)
    chooser = random.Random(seed)
    moves = []
    while not deal.over:
        legal = deal.legal_actions()
        move = legal[chooser.randrange(len(legal))]
        moves.append(move.text(deal.game.deck))
        deal.play(move)
    return moves, deal.snapshot()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_deal_with_quick_steps_plays_as_the_game_alone_does(seed):
    quick = Halfway(load_variant(VARIANT)._game)
    with_quick = _play_out(load_variant(VARIANT), seed, quick)
    assert with_quick == _play_out(load_variant(VARIANT), seed, None)
    assert quick.answered > 10 and quick.calls > quick.answered  # both sides took moves


def test_a_move_not_handed_out_is_refused_before_a_quick_step_sees_it():
    variant = load_variant(VARIANT)
    quick = Halfway(variant._game)
    variant._game.quick_steps = lambda: QuickSteps(quick.legal, quick.apply)
    deal = variant.new_deal(4, seed=5, record=False)
    offered = deal.legal_actions()
    held = deal.state.zones[f"hand.{deal.to_move}"]
    wrong = next(Action("play", (c,)) for c in held if Action("play", (c,)) not in offered)
    before = deal.snapshot()
    with pytest.raises(IllegalAction):
        deal.play(wrong)
    assert deal.snapshot() == before and quick.applied == []
    deal.play(offered[0].text(deal.game.deck))  # its text: parsed, found among the moves handed out
    assert deal.snapshot() != before


def test_a_recorded_deal_keeps_every_history_with_quick_steps():
    variant = load_variant(VARIANT)
    moves, end = _play_out(variant, 7, Halfway(variant._game), record=True)
    plain = load_variant(VARIANT)
    assert (moves, end) == _play_out(plain, 7, None, record=True)
    deal = variant.new_deal(4, seed=7, record=True)
    for text in moves[:8]:
        deal.play(text)
    view = deal.view(0)
    assert len(view.history) > 8  # the deal and the eight moves, as seat 0 saw them
