"""Deals walked to a moment of play, keeping what the sampling checks replay: the start and every move."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tapete import Deal, Random
from tapete.core.actions import Action
from tapete.core.state import DealState
from tapete.play.loading import Variant
from tapete.search.determinise import Determiniser
from tapete.search.worlds import impossibility


@dataclass
class Walked:
    """A deal in play with the state it was dealt in and the moves made since."""

    deal: Deal
    start: DealState
    moves: list[Action]


def walk(v: Variant, players: int, seed: int, stop: Callable[[list[Action]], bool]) -> Walked | None:
    """Random legal moves from a fresh deal until ``stop(moves)``; None if the deal ends first."""
    deal = v.new_deal(players, seed=seed)
    start = deal.state.clone()
    moves: list[Action] = []
    rng = Random(seed, "walk")
    while not stop(moves):
        if deal.over:
            return None
        legal = deal.legal_actions()
        action = legal[rng.below(len(legal))]
        deal.play(action)
        moves.append(action)
    return Walked(deal, start, moves)


def impossible_worlds(walked: Walked, samples: int, rng: Random, game: object | None = None) -> list[str]:
    """Why each impossible one of ``samples`` worlds imagined for the seat to move cannot have happened.

    ``game`` stands in for the deal's game when building the determiniser (a game whose
    public deductions are switched off, to show that the check finds what they prevent)."""
    deal = walked.deal
    view = deal.view(deal.to_move)
    sampler = Determiniser(game or deal.game, view)  # type: ignore[arg-type]
    found = []
    for _ in range(samples):
        why = impossibility(deal.game, walked.start, walked.moves, view, sampler.sample(rng))
        if why is not None:
            found.append(why)
    return found


class Blind:
    """The game with its public deductions (``Game.excluded``) switched off, the rest its own."""

    def __init__(self, game: object):
        self._game = game

    def __getattr__(self, name: str) -> object:
        if name == "excluded":
            raise AttributeError(name)
        return getattr(self._game, name)
