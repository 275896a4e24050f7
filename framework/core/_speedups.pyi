# tapete.core._speedups (framework/core/_speedups.c): optional C loops, each with a Python twin.
from typing import Any

def pcg_shuffle(items: list[Any], state: int, inc: int, /) -> int: ...
def seed_of(text: str, /) -> int: ...

class DealSteps:
    """The base of tapete.play.deal.Deal where built (its twin: tapete.play.deal.DealSteps)."""

    _state: Any
    _offered: Any
    _quick_legal: Any
    _quick_apply: Any
    _behind: Any
    _recorder: Any
    _moves: Any
    @property
    def over(self) -> bool: ...
    @property
    def to_move(self) -> int: ...
    def legal_actions(self) -> list[Any]: ...
    def play(self, action: Any) -> list[dict[str, Any]]: ...
