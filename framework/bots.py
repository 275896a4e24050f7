"""Bots: anything with ``choose(view, legal) -> Action``.

A bot sees the deal through a `View` (what its seat knows, and nothing else)
and picks one of the legal actions. A bot class that never looks at the view
sets ``observes = False`` and is handed ``None``, so it costs the engine nothing.
A bot may also define ``refused(action, reason) -> bool``: when the game refuses
its choice, the engine tells it why and asks again if it returns True (the
human bot does this); otherwise a refused choice ends the match with an error.

A bot gets its own seeded random source, derived from the match seed and its
seat, so a seeded match is the same whatever other seats do with their dice.

Bots written for tapete 0.1 (``choose(game, state, legal)``) keep working
through `adapt`, with a `DeprecationWarning`; they see the whole state, so they
are not covered by the per-seat guarantees.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from .core.actions import Action
from .core.rng import Random
from .game import Game

if TYPE_CHECKING:
    from .core.state import DealState
    from .view import View


class Bot(Protocol):
    def choose(self, view: View, legal: list[Action]) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions: the baseline every game gets."""

    observes = False

    def __init__(self, game: Game, seat: int, rng: Random):
        self.rng = rng

    def choose(self, view: View | None, legal: list[Action]) -> Action:
        return legal[self.rng.below(len(legal))] if len(legal) > 1 else legal[0]


def is_legacy(bot: object) -> bool:
    """True for a bot written against the old ``choose(game, state, legal)`` contract."""
    choose = getattr(bot, "choose", None)
    if choose is None:
        return False
    try:
        params = [
            p
            for p in inspect.signature(choose).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
    except (TypeError, ValueError):
        return False
    return len(params) == 3


LEGACY_MESSAGE = (
    "{name}.choose(game, state, legal) is deprecated since tapete 0.2: write "
    "choose(self, view, legal) and read the seat's tapete.View instead of the state; "
    "the old form will stop working in tapete 0.3"
)


class LegacyBot:
    """Runs an old-contract bot; it reads the state, so it is never given to a view check."""

    observes = False
    legacy = True

    def __init__(self, bot: Any):
        self.bot = bot
        warnings.warn(LEGACY_MESSAGE.format(name=type(bot).__name__), DeprecationWarning, stacklevel=4)

    @property
    def rng(self) -> Any:
        return getattr(self.bot, "rng", None)

    @rng.setter
    def rng(self, value: Any) -> None:
        self.bot.rng = value

    def decide(self, game: Game, state: DealState, legal: list[Action]) -> Action:
        action: Action = self.bot.choose(game, state, legal)
        return action

    def choose(self, view: View | None, legal: list[Action]) -> Action:  # pragma: no cover - never called
        raise TypeError("a legacy bot needs the state")


def adapt(bot: Any) -> Any:
    """The bot itself, or a `LegacyBot` around an old-contract bot."""
    return LegacyBot(bot) if is_legacy(bot) and not isinstance(bot, LegacyBot) else bot


def observes(bot: Any) -> bool:
    return bool(getattr(bot, "observes", True))


BotFactory = Callable[[Game, int, Random], Any]
