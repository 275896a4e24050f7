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


def hidden_room(walked: Walked) -> tuple[list[int], dict[str, int]]:
    """The cards the seat to move can neither see nor place by memory, and how many of them each zone holds."""
    deal = walked.deal
    view = deal.view(deal.to_move)
    shown = {c for cards in view.zones.values() for c in cards}
    known = {c for c, z in view.known.items() if z in view.counts and c not in shown}
    pool = sorted(c for cards in deal.state.zones.values() for c in cards if c not in shown and c not in known)
    room = {}
    for zone, cards in deal.state.zones.items():
        n = sum(1 for c in cards if c in pool)
        if n:
            room[zone] = n
    return pool, room


def world_key(world: DealState, room: dict[str, int], pool: set[int]) -> tuple[tuple[int, ...], ...]:
    """Which unseen cards a world puts in each zone (their order aside)."""
    return tuple(tuple(sorted(c for c in world.zones[z] if c in pool)) for z in sorted(room))


def every_world(walked: Walked) -> tuple[list[DealState], int]:
    """Every way to put the unseen cards into the zones' room, and how many of them could have happened.

    Returns the possible worlds (as states) and the number of ways tried. For small decks only:
    it tries every split of the unseen cards."""
    from itertools import combinations

    deal = walked.deal
    view = deal.view(deal.to_move)
    pool, room = hidden_room(walked)
    zones = sorted(room)

    def splits(cards: list[int], k: int) -> list[list[tuple[int, ...]]]:
        if k == len(zones):
            return [[]]
        out = []
        for part in combinations(cards, room[zones[k]]):
            rest = [c for c in cards if c not in part]
            out += [[part, *tail] for tail in splits(rest, k + 1)]
        return out

    possible, tried = [], 0
    for split in splits(pool, 0):
        world = deal.state.clone()
        for zone, part in zip(zones, split, strict=True):
            world.zones[zone] = [c for c in world.zones[zone] if c not in pool] + list(part)
        tried += 1
        if impossibility(deal.game, walked.start, walked.moves, view, world) is None:
            possible.append(world)
    return possible, tried
