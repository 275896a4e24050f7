"""An independent replay of a table's stored steps: each seat's view at every position.

The leak test checks what the server sent against these views. They are rebuilt here
from the steps alone with the engine's own pieces (a `Match`'s deals, the game's
moves, a `Recorder` for every seat and the spectators), not with the server's table
code, so that a fault in the server's bookkeeping cannot hide a leak.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from tapete import Action, Match, load_variant
from tapete.view import Recorder, View

SPECTATOR = -1


def card_pattern(names: Iterable[str]) -> re.Pattern[str]:
    """Finds every card name in a text: ``7♥`` and ``7♥/2`` apart, ``10♥`` whole."""
    alts = [re.escape(n) + ("" if "/" in n else r"(?!/\d)") for n in sorted(names, key=len, reverse=True)]
    return re.compile(r"(?<![0-9A-Za-z])(?:" + "|".join(alts) + ")")


def strings(obj: Any) -> Iterable[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from strings(v)


class Replayed:
    """Per position (seq) and match seat: the names of the cards the seat has seen, its hand."""

    def __init__(
        self,
        variant_name: str,
        options: dict[str, str],
        players: int,
        seed: str,
        steps: list[dict[str, Any]],
        keep: Iterable[int] = (),
    ):
        self.variant = load_variant(variant_name, options=dict(options))
        self.players = players
        match = Match(self.variant, players, seed, bots=["random"])
        self.game = match.game
        deck = self.game.deck
        self.names = deck.names
        self.allowed: dict[tuple[int, int], frozenset[str]] = {}
        self.hands: dict[tuple[int, int], list[str]] = {}
        self.over: dict[int, bool] = {}
        self.keep = set(keep)
        self.states: dict[int, tuple[Any, list[int]]] = {}  # seq -> (a copy of the deal, its match seats)

        def emit(event: dict[str, Any]) -> None:
            pass

        history: list[dict[str, Any]] = []
        state, seats, local = match.next_deal(emit)
        recorder = Recorder(self.game, state, [*range(state.players), SPECTATOR], local, self.variant.options)
        self._snap(0, recorder, state, seats)
        for i, step in enumerate(steps):
            assert step["seq"] == i
            if step["kind"] == "next":
                state, seats, local = match.next_deal(emit)
                recorder = Recorder(self.game, state, [*range(state.players), SPECTATOR], local, self.variant.options)
            else:
                action = Action.parse(step["move"], deck)
                assert seats[state.to_move] == step["seat"], f"step {i}: seat {step['seat']} out of turn"
                assert self.game.refusal(state, action) is None, f"step {i}: {step['move']} is not legal"
                mover = state.to_move
                before = recorder.before(state)
                events = self.game.apply(state, action)
                recorder.after(state, before, mover, action, events)
                if state.over:
                    winner = match.deal_ended(state, seats, local, history, emit)
                    if winner is not None:
                        match.finish(winner, history, emit)
            self._snap(i + 1, recorder, state, seats)
        self.final = state

    def _snap(self, seq: int, recorder: Recorder, state: Any, seats: list[int]) -> None:
        names = self.names
        if seq in self.keep:
            self.states[seq] = (state.clone(), list(seats))
        spectator = recorder.view(state, SPECTATOR)
        common = _seen(spectator)
        for seat in range(self.players):
            view = recorder.view(state, seats.index(seat)) if seat in seats else spectator
            seen = _seen(view)
            self.allowed[(seq, seat)] = frozenset(names[c] for c in seen)
            self.hands[(seq, seat)] = sorted(names[c] for c in view.hand) if seat in seats else []
            common &= seen
        # The spectators may know only what every seat knows.
        self.allowed[(seq, SPECTATOR)] = frozenset(names[c] for c in common)
        self.over[seq] = state.over


def _seen(view: View) -> set[int]:
    """Every card the view shows the seat: seen in a zone, remembered, or named in what the
    game said of a move (``say`` narration is public by the game contract)."""
    visible = {c for cards in view.zones.values() for c in cards}
    said = {c for e in view.history for text in e.said for c in _named(view, text)}
    return set(view.seen) | visible | set(view.known) | said


def _named(view: View, text: str) -> set[int]:
    names = tuple(view.deck.names)
    pattern = _patterns.get(names)
    if pattern is None:
        pattern = _patterns[names] = card_pattern(names)
    return {view.deck.parse(m) for m in pattern.findall(text)}


# By the deck's names, not by id(deck): a deck of an earlier test, freed, may leave its id to
# another deck, whose cards the first one's pattern would not find.
_patterns: dict[tuple[str, ...], re.Pattern[str]] = {}


def reads_the_same(game: Any, state: Any, seat: int, action: Action, text: str, twins: int = 8) -> bool:
    """True when the game's reason for refusing ``action`` is ``text`` however the cards hidden from
    ``seat`` (a deal seat) lie: the words then tell the seat nothing it cannot see."""
    import random

    from tapete.testing import hidden_positions

    hidden = hidden_positions(game, state, seat)
    rng = random.Random(text)
    for _ in range(twins):
        twin = state.clone()
        cards = [twin.zones[z][i] for z, i in hidden]
        rng.shuffle(cards)
        for (z, i), c in zip(hidden, cards, strict=True):
            twin.zones[z][i] = c
        if game.refusal(twin, action) != text:
            return False
    return True
