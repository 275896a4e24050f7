"""Hook specifications: how plugins add games, bots, rule words and house rules.

Registration hooks hand the plugin a ``register`` callback (the style of `llm`
and `datasette`): a plugin calls it once per thing it provides, and tapete keeps
the registry. They run once at start-up. Lifecycle hooks run once per deal or
match, never per action, so the hot path has no plugin dispatch.

The ``Register*`` types below are what each ``register`` accepts; a plugin may
annotate its hook implementations with them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from os import PathLike
from typing import TYPE_CHECKING, Any, Protocol

import pluggy

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:
        from importlib.abc import Traversable

    from .core.state import DealState
    from .game import Game
    from .layout import Layout
    from .play.match import Match, MatchResult
    from .rules.vocabulary import Function, Quantity, StatementSpec

hookspec = pluggy.HookspecMarker("tapete")
hookimpl = pluggy.HookimplMarker("tapete")


class RegisterGame(Protocol):
    """``register(GameClass, name=None)``: a subclass of `tapete.Game`, under its own or another name."""

    def __call__(self, game: type[Game], name: str | None = None) -> None: ...


RegisterVariants = Callable[["str | PathLike[str] | Traversable"], None]
"""``register(folder)``: a folder of variant YAML files (a path or ``importlib.resources.files(...)``)."""


class RegisterBot(Protocol):
    """``register(name, factory, game=None)``; ``factory(game, seat, rng)`` returns a bot."""

    def __call__(self, name: str, factory: Callable[..., Any], game: str | None = None) -> None: ...


class RegisterWord(Protocol):
    """``register(game, item)``: a rule-script word for one game (``None``: every game)."""

    def __call__(self, game: str | None, item: StatementSpec | Quantity | Function) -> None: ...


@hookspec
def tapete_register_games(register: RegisterGame) -> None:
    """Call ``register(GameClass)`` for each game family the plugin provides.

    ``register(GameClass, name="gin")`` also offers the family's class under a member game's own
    name, so that its variants are listed as ``gin/...`` while the mechanics stay one class."""


@hookspec
def tapete_register_variants(register: RegisterVariants) -> None:
    """Call ``register(directory)`` for each folder of variant YAML files."""


@hookspec
def tapete_register_bots(register: RegisterBot) -> None:
    """Call ``register(name, factory, game=None)``; ``factory(game, seat, rng)`` returns a bot.

    ``game=None`` offers the bot to every game."""


@hookspec
def tapete_register_vocabulary(register: RegisterWord) -> None:
    """Call ``register(game, item)`` to add a rule-script word to a game (``game=None``: all).

    ``item`` is a ``StatementSpec``, ``Quantity`` or ``Function`` from ``tapete``."""


class RegisterLayout(Protocol):
    """``register(game, layout)``: a `tapete.Layout` that shows ``game`` at the terminal."""

    def __call__(self, game: str, layout: Layout) -> None: ...


@hookspec
def tapete_register_layouts(register: RegisterLayout) -> None:
    """Call ``register(game, layout)`` to show a game at the terminal in its own shape.

    ``layout`` is a ``tapete.Layout`` (usually a subclass): how hands are sorted, the
    table drawn, others' moves told and a move confirmed. A game without one gets
    ``tapete.Layout`` itself."""


@hookspec
def tapete_deal_started(match: Match, state: DealState) -> None:
    """A deal has been dealt and is about to be played."""


@hookspec
def tapete_deal_scored(match: Match, state: DealState, scores: dict[int, int]) -> None:
    """A deal is over; ``scores`` maps seats to what they add to their totals.

    A house-rule plugin may change ``scores`` in place, or wrap this hook."""


@hookspec
def tapete_match_ended(match: Match, result: MatchResult) -> None:
    """The match is over; ``result`` holds the winner and the totals."""
