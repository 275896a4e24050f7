# tapete_plugins.tricks._fast (_fast.c): the trick family's commonest steps in C; game.py is their reference.
from collections.abc import Callable, Sequence
from typing import Any

from tapete import Action, DealState

# A ban: (cards' mask, always) or (cards' mask, always, (counter, truth) | None): with a counter,
# the ban's condition holds when the counter's truth is ``truth`` (read in C, not by the judge).
Ban = tuple[int, bool] | tuple[int, bool, tuple[str, bool] | None]
Judge = Callable[[DealState, int, bool, int], Any]
# The phase of hidden choices (the pass): its data key, its move's word, the move choosing each card,
# the zones "chosen.0", ...; then what ends it in C: `passed(state)` -> the words said (None: the last
# card is left to Python), the counters that leave it to Python when set, and the counter of the seats
# the cards go on by; then the leader rule's plain form (`tapete.rules.forms`, or None) and the words
# said of the pass by where it went (nowhere, to the left, to the right, across): with both, `passed`
# is done in C wherever the form reads the state.
Choices = (
    tuple[str, str, Sequence[Action], tuple[str, ...], Callable[[DealState], Any] | None, tuple[str, ...], str]
    | tuple[
        str,
        str,
        Sequence[Action],
        tuple[str, ...],
        Callable[[DealState], Any] | None,
        tuple[str, ...],
        str,
        tuple[Any, ...] | None,
        tuple[str, str, str, str],
    ]
)
# The round of bids, for the session: the legal bids' moves(state), the move's word, each bid's word, each seat's
# bid counter, the counters of the round, of the bids' sum and of the bids made; then `Bidding.closed` and
# `Bidding.plain()` (what finds the legal bids without the script, or None).
Bids = tuple[Any, ...]

class Session:
    def legal(self) -> list[Action] | None: ...
    def offered(self, action: object, /) -> bool: ...
    def play(self, action: Action, /) -> list[dict[str, Any]] | None: ...

class Rules:
    def __init__(
        self,
        suit_of: bytes,
        suit_masks: tuple[int, ...],
        follow: int,
        first_mask: int,
        breaks: int,
        lead_bans: Sequence[Ban],
        play_bans: Sequence[Ban],
        plays: tuple[Action, ...],
        hand_keys: tuple[str, ...],
        step: int,
        pos: bytes,
        names: tuple[str, ...],
        taken_keys: tuple[str, ...],
        tricks_keys: tuple[str, ...],
        draws: bool,
        phase_data: tuple[str, ...],
        phase_counters: tuple[str, ...],
        judge: Judge | None = None,
        choices: Choices | None = None,
        bids: Bids | None = None,
        /,
    ) -> None: ...
    def legal(self, state: DealState, /) -> list[Action] | None: ...
    def play(self, state: DealState, action: Action, /) -> list[dict[str, Any]] | None: ...
    def session(self, state: DealState, /) -> Session | None: ...

def legal(rules: Rules, state: DealState, judge: Judge, /) -> list[Action] | None: ...
