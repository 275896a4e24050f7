"""Bots: anything with ``choose(game, state, legal) -> Action``.

A bot gets its own seeded random source, derived from the match seed and its
seat, so a seeded match is the same whatever other seats do with their dice.
"""

from __future__ import annotations

from typing import Protocol

from .actions import Action
from .game import Game
from .rng import Random
from .state import DealState


class Bot(Protocol):
    def choose(self, game: Game, state: DealState, legal: list[Action]) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions: the baseline every game gets."""

    def __init__(self, game: Game, seat: int, rng: Random):
        self.rng = rng

    def choose(self, game: Game, state: DealState, legal: list[Action]) -> Action:
        return legal[self.rng.below(len(legal))] if len(legal) > 1 else legal[0]
