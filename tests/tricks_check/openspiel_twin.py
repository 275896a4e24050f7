"""OpenSpiel's ``hearts`` following a tapete deal: the same cards dealt, the same passes and plays.

OpenSpiel numbers a card ``rank * 4 + suit`` (ranks 2..A as 0..12, suits clubs, diamonds,
hearts, spades), deals in 53 chance steps (the pass direction, then card ``i`` to player
``i % 4``), passes one card per action, player 0 first, each passing to ``(player +
direction) % 4`` (0 no pass, 1 left, 2 across, 3 right), and returns ``26 - points`` at the
end (a moon: the shooter's points drop by 26 and everyone else's rise by 26). Its chance
outcomes at the root offer every direction even with ``pass_cards=false``, so the direction
is always applied by hand here. tapete's seat ``s`` is OpenSpiel's player ``s``: both number
the seats in the order of play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

pyspiel = pytest.importorskip("pyspiel")

RANKS = "2 3 4 5 6 7 8 9 10 J Q K A".split()
SUITS = "♣♦♥♠"
PARAMETERS = (
    "pass_cards",
    "no_pts_on_first_trick",
    "can_lead_any_club",
    "jd_bonus",
    "avoid_all_tricks_bonus",
    "must_break_hearts",
    "qs_breaks_hearts",
    "can_lead_hearts_instead_of_qs",
)
DEFAULTS = {
    p: p in ("pass_cards", "no_pts_on_first_trick", "must_break_hearts", "qs_breaks_hearts") for p in PARAMETERS
}
PASS = 3  # cards each player passes


def card_codes(deck: object) -> dict[int, int]:
    """tapete card id -> OpenSpiel card number."""
    return {
        c: RANKS.index(deck.rank_of[c]) * 4 + SUITS.index(deck.suit_of[c])  # type: ignore[attr-defined]
        for c in deck.ids  # type: ignore[attr-defined]
    }


class Twin:
    """One OpenSpiel deal set up like a tapete one, moved along with it."""

    def __init__(self, settings: Mapping[str, bool], hands: Sequence[Sequence[int]], direction: int):
        unknown = set(settings) - set(PARAMETERS)
        assert not unknown, f"not OpenSpiel hearts parameters: {unknown}"
        self.game = pyspiel.load_game("hearts", {**DEFAULTS, **settings})
        state = self.game.new_initial_state()
        state.apply_action(direction)
        for i in range(len(hands[0])):
            for hand in hands:
                state.apply_action(hand[i])
        self.state = state

    @property
    def to_move(self) -> int:
        return int(self.state.current_player())

    def legal(self) -> set[int]:
        return set(self.state.legal_actions())

    def move(self, card: int) -> None:
        self.state.apply_action(card)

    @property
    def over(self) -> bool:
        return bool(self.state.is_terminal())

    def points(self) -> list[int]:
        """Each player's points for the deal, read back from OpenSpiel's returns (26 - points)."""
        return [round(26 - r) for r in self.state.returns()]
