"""Hook specifications: how plugins add games, bots, rule words, house rules and commands.

Registration hooks hand the plugin a ``register`` callback (the style of `llm` and
`datasette`): a plugin calls it once per thing it provides, and tapete keeps the
registry. Lifecycle hooks run once per deal or match, never per action, so the hot
path has no plugin dispatch. Each ``Register*`` type sits above the hook that hands it
over; a plugin may annotate its hook implementations with them.

Every hook is called on every plugin that implements it (none stops the others), in
pluggy's order: the last registered first, ``tryfirst``/``trylast`` to say otherwise.
``TAPETE_TRACE_PLUGINS=1`` prints each call as it happens.
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

    import typer

    from .core.state import DealState
    from .game import Game
    from .layout import Layout
    from .play.match import Match, MatchResult
    from .plugins.record import GameRecord
    from .rules.vocabulary import Function, Quantity, StatementSpec

hookspec = pluggy.HookspecMarker("tapete")
hookimpl = pluggy.HookimplMarker("tapete")


# =====================================================================================
# Registration (once, when the registry is built)
#
# Each plugin's registration hooks run one plugin at a time, and what it registers is
# committed only when all of them return: a plugin that raises is left out whole and
# reported, the others load. A name another plugin registered first is ignored and
# reported ('tapete plugins' lists both).
# =====================================================================================


class RegisterGame(Protocol):
    """``register(GameRecord(...))``: a whole game at once; or ``register(GameClass, name=None)``."""

    def __call__(self, game: GameRecord | type[Game], name: str | None = None) -> None: ...


@hookspec
def tapete_register_games(register: RegisterGame) -> None:
    """Call ``register(GameRecord(name, Family, variants=..., bots=..., default_bot=..., layout=...))``
    once for each game the plugin provides.

    The record holds everything tapete needs to load, seat, search and show the game, so a
    game is registered in one place, and every part of tapete reads the same record (the
    one its `Variant` carries). It is handed to this hook, rather than to a hook of its
    own, because a record *is* the registration of a game: a plugin has one place to look,
    and an older plugin keeps working unchanged.

    The older form ``register(GameClass)`` (or ``register(GameClass, name="gin")``, the
    family's class serving a member game under the member's name) still works: tapete
    builds the record from the class and from what the bots, variants and layouts hooks
    register under the game's name."""


RegisterVariants = Callable[["str | PathLike[str] | Traversable"], None]
"""``register(folder)``: a folder of variant YAML files (a path or ``importlib.resources.files(...)``)."""


@hookspec
def tapete_register_variants(register: RegisterVariants) -> None:
    """Call ``register(directory)`` for each folder of variant YAML files.

    A `GameRecord` names its own folders; this hook is for folders of variants of games
    registered elsewhere (a pack of house variants of Chinchón, say)."""


class RegisterBot(Protocol):
    """``register(name, factory, game=None)``; ``factory(game, seat, rng)`` returns a bot."""

    def __call__(self, name: str, factory: Callable[..., Any], game: str | None = None) -> None: ...


@hookspec
def tapete_register_bots(register: RegisterBot) -> None:
    """Call ``register(name, factory, game=None)``; ``factory(game, seat, rng)`` returns a bot.

    ``game=None`` offers the bot to every game; ``game="scopa"`` adds it to that game's
    record, beside the bots the record names itself."""


class RegisterWord(Protocol):
    """``register(game, item)``: a rule-script word for one game (``None``: every game)."""

    def __call__(self, game: str | None, item: StatementSpec | Quantity | Function) -> None: ...


@hookspec
def tapete_register_vocabulary(register: RegisterWord) -> None:
    """Call ``register(game, item)`` to add a rule-script word to a game (``game=None``: all).

    ``item`` is a ``StatementSpec``, ``Quantity`` or ``Function`` from ``tapete``. A
    family's own words belong in its class's ``words``; this hook is for a plugin adding
    words to a game it does not own. Precedence, later replacing earlier: the core's
    words, the family class's ``words``, words registered here for every game, words
    registered here for the game."""


class RegisterLayout(Protocol):
    """``register(game, layout)``: a `tapete.Layout` that shows ``game`` at the terminal."""

    def __call__(self, game: str, layout: Layout) -> None: ...


@hookspec
def tapete_register_layouts(register: RegisterLayout) -> None:
    """Call ``register(game, layout)`` to show a game at the terminal in its own shape.

    ``layout`` is a ``tapete.Layout`` (usually a subclass): how hands are sorted, the
    table drawn, others' moves told and a move confirmed. A `GameRecord` names its own
    layout; a game without one gets ``tapete.Layout`` itself."""


@hookspec
def tapete_register_commands(app: typer.Typer) -> None:
    """Add commands to the ``tapete`` command line: ``@app.command()`` on a function.

    ``app`` is a ``typer.Typer`` of the plugin's own; each command added to it becomes
    ``tapete <name>``, with tapete's error handling (a `TapeteError` ends in one line and
    exit code 1). ``app.add_typer(sub, name="x")`` adds a group of commands. A name tapete
    or another plugin already uses is refused with a warning. Called once per process, and
    only when the command line needs the plugins' commands: when the first argument is
    not one of tapete's own commands, or when ``tapete --help`` finds its list of plugin
    commands out of date (it is kept in tapete's cache directory, so that ``--help``
    usually starts no plugin)."""


# =====================================================================================
# Lifecycle (once per deal or match)
#
# Called only when some plugin implements them (so a match without house rules makes no
# plugin call at all), with the match that is playing.
# =====================================================================================


@hookspec
def tapete_deal_started(match: Match, state: DealState) -> None:
    """A deal has been dealt and is about to be played; every implementation runs."""


@hookspec
def tapete_deal_scored(match: Match, state: DealState, scores: dict[int, int]) -> None:
    """A deal is over; ``scores`` maps seats to what they add to their totals.

    Every implementation runs, each seeing the changes of those before it: a house rule
    changes ``scores`` in place. A ``hookwrapper=True`` implementation runs around all the
    others, so it may change ``scores`` after them (after its ``yield``)."""


@hookspec
def tapete_match_ended(match: Match, result: MatchResult) -> None:
    """The match is over; ``result`` holds the winner and the totals. Every implementation runs."""
