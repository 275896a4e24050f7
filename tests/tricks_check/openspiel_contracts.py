"""OpenSpiel's ``oh_hell`` and ``spades`` following a tapete deal: the same cards, trump, dealer, bids and plays.

``oh_hell`` numbers a card ``rank * 4 + suit`` (ranks 2..A as 0..12, suits clubs, diamonds,
spades, hearts), a bid ``52 + b``; its chance steps are the number of tricks, the dealer,
the cards (card ``i`` to player ``i % n``, player 0 first whoever deals, OH-3.2) and the
turned trump card; it returns each player's points for the hand. ``spades`` numbers a card
``suit * 13 + rank`` (suits clubs, diamonds, hearts, spades), a bid ``52 + b`` (52: nil); it
deals in 52 chance steps (card ``i`` to player ``i % 4``, North first) and returns each
side's score for the hand. tapete's seat ``s`` is OpenSpiel's player ``s``: both number the
seats in the order of play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

RANKS = "2 3 4 5 6 7 8 9 10 J Q K A".split()
OH_HELL_SUITS = "♣♦♠♥"
SPADES_SUITS = "♣♦♥♠"
BID = 52  # the first bid's action in both games


def oh_hell_codes(deck: Any) -> dict[int, int]:
    return {c: RANKS.index(deck.rank_of[c]) * 4 + OH_HELL_SUITS.index(deck.suit_of[c]) for c in deck.ids}


def spades_codes(deck: Any) -> dict[int, int]:
    return {c: SPADES_SUITS.index(deck.suit_of[c]) * 13 + RANKS.index(deck.rank_of[c]) for c in deck.ids}


class Twin:
    """One OpenSpiel hand set up like a tapete deal, moved along with it."""

    def __init__(self, name: str, params: Mapping[str, Any], chance: Sequence[int]):
        self.game = pyspiel.load_game(name, dict(params))
        self.state = self.game.new_initial_state()
        for outcome in chance:
            assert self.state.is_chance_node()
            self.state.apply_action(outcome)
        assert not self.state.is_chance_node()

    @property
    def to_move(self) -> int:
        return int(self.state.current_player())

    def legal(self) -> set[int]:
        return set(self.state.legal_actions())

    def move(self, action: int) -> None:
        self.state.apply_action(action)

    @property
    def over(self) -> bool:
        return bool(self.state.is_terminal())

    def returns(self) -> list[int]:
        return [round(r) for r in self.state.returns()]


def dealt_in_turn(hands: Sequence[Sequence[int]]) -> list[int]:
    """The cards as OpenSpiel deals them: card ``i`` to player ``i % n``, player 0 first."""
    return [hands[i % len(hands)][i // len(hands)] for i in range(sum(len(h) for h in hands))]
