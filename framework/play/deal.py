"""One deal in play through the public Python API: dealing, moving, views, snapshots.

A `Deal` wraps a game and a state for callers who play move by move: it refuses
illegal moves without touching the state and hides what a seat cannot see. The
match loop (`tapete.play.match`) deals through `start_deal` too, so a deal begun
here and a deal of a match start alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.actions import Action
from ..core.errors import IllegalAction, SnapshotError
from ..core.ledger import Ledger
from ..core.rng import Random
from ..core.state import DealState
from ..game import Game
from ..rules.program import Rules
from ..rules.vocabulary import Ctx
from ..view import Recorder, View, game_facts, make_view

if TYPE_CHECKING:
    from .loading import Variant


def state_from_snapshot(game: Game, obj: Any, partial: bool = False) -> DealState:
    """A deal state read completely or not at all: SnapshotError lists every problem."""
    state = DealState.from_json(obj, game.deck)
    problems = game.check_state(state, partial)
    if problems:
        raise SnapshotError("broken deal snapshot: " + "; ".join(problems))
    return state


def first_dealer(rules: Rules, players: int, seed: object) -> int:
    how = rules.constant("first_dealer", "lot")
    if how == "lot":
        return Random(seed, "first-dealer").below(players)
    return int(how) % players


def start_deal(game: Game, players: int, dealer: int, rng: Random, ledger: Ledger) -> DealState:
    state = DealState(players=players, dealer=dealer)
    ctx = Ctx(game=game, state=state, ledger=ledger)
    game.deal(state, rng, ctx)
    leader = game.rules.expr("leader")
    state.to_move = (leader(ctx) % players) if leader is not None else game.next_seat(state, dealer)
    state.rng = rng.getstate()
    return state


class Deal:
    """One deal in play, for callers who move step by step (tests, tools, people).

    A deal keeps every seat's history as it is played (``record=False`` skips
    that), so ``view(seat)`` is exactly what a bot at that seat would be handed.
    """

    def __init__(self, variant: Variant, game: Game, state: DealState, record: bool = True):
        self.variant, self.game, self.state = variant, game, state
        self.recorder: Recorder | None = Recorder(game, state, None, None, variant.options) if record else None

    @property
    def to_move(self) -> int:
        return self.state.to_move

    @property
    def over(self) -> bool:
        return self.state.over

    def legal_actions(self) -> list[Action]:
        return [] if self.state.over else self.game.legal_actions(self.state)

    def action(self, text: str) -> Action:
        return Action.parse(text, self.game.deck)

    def play(self, action: Action | str) -> list[dict[str, Any]]:
        """Make a move; an illegal one raises IllegalAction saying why and changes nothing."""
        if isinstance(action, str):
            try:
                action = self.action(action)
            except ValueError as exc:
                raise IllegalAction(str(exc)) from None
        if self.state.over:
            raise IllegalAction("the deal is over")
        why = self.game.refusal(self.state, action)
        if why is not None:
            raise IllegalAction(why)
        if self.recorder is None:
            return self.game.apply(self.state, action)
        mover = self.state.to_move
        before = self.recorder.before(self.state)
        events = self.game.apply(self.state, action)
        self.recorder.after(self.state, before, mover, action, events)
        return events

    def clone(self) -> Deal:
        """A copy to try moves on; it starts without history."""
        return Deal(self.variant, self.game, self.state.clone(), record=False)

    def view(self, seat: int | None = None) -> View:
        """What ``seat`` (default: the seat to move) knows now: the view its bot would get."""
        seat = self.state.to_move if seat is None else seat
        if self.recorder is not None:
            return self.recorder.view(self.state, seat)
        return make_view(self.game, self.state, seat, game_facts(self.game), self.variant.options, None)

    def snapshot(self) -> dict[str, Any]:
        return self.state.to_json(self.game.deck)

    def observe(self, seat: int) -> dict[str, Any]:
        return observe(self.game, self.state, seat)


def observe(game: Game, state: DealState, seat: int) -> dict[str, Any]:
    """What ``seat`` may know, from the script's ``see`` statements (unlisted zones: count only)."""
    names = game.deck.names
    zones: dict[str, Any] = {}
    for name, cards in state.zones.items():
        kind, _, owner = name.partition(".")
        mode = game.visibility.get(kind, "count")
        if mode == "own":
            mode = "all" if owner == str(seat) else "count"
        if mode == "all":
            zones[name] = [names[c] for c in cards]
        elif mode == "top":
            zones[name] = {"top": names[cards[-1]] if cards else None, "count": len(cards)}
        elif mode == "count":
            zones[name] = {"count": len(cards)}
    return {
        "seat": seat,
        "players": state.players,
        "dealer": state.dealer,
        "to_move": state.to_move,
        "over": state.over,
        "zones": zones,
        "counters": dict(state.counters),
        "data": state.data,
    }
