# tapete_plugins.tricks._fast (_fast.c): the trick family's commonest steps in C; game.py is their reference.
from collections.abc import Callable
from typing import Any

from tapete import Action, DealState

class Rules:
    def __init__(
        self,
        suit_of: bytes,
        suit_masks: tuple[int, ...],
        follow: int,
        first_mask: int,
        breaks: int,
        lead_bans: list[tuple[int, bool]],
        play_bans: list[tuple[int, bool]],
        plays: tuple[Action, ...],
        hand_keys: tuple[str, ...],
        step: int,
        /,
    ) -> None: ...

def legal(
    rules: Rules, state: DealState, judge: Callable[[DealState, int, bool, int], Any], /
) -> list[Action] | None: ...
def play(rules: Rules, state: DealState, card: int, /) -> bool: ...
