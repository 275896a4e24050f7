"""Hook specifications: how plugins add games, bots, rule words and house rules.

Registration hooks hand the plugin a ``register`` callback (the style of `llm`
and `datasette`): a plugin calls it once per thing it provides, and tapete keeps
the registry. They run once at start-up. Lifecycle hooks run once per deal or
match, never per action, so the hot path has no plugin dispatch.
"""

from __future__ import annotations

import pluggy

hookspec = pluggy.HookspecMarker("tapete")
hookimpl = pluggy.HookimplMarker("tapete")


@hookspec
def tapete_register_games(register):
    """Call ``register(GameClass)`` for each game family the plugin provides.

    ``register(GameClass, name="gin")`` also offers the family's class under a member game's own
    name, so that its variants are listed as ``gin/...`` while the mechanics stay one class."""


@hookspec
def tapete_register_variants(register):
    """Call ``register(directory)`` for each folder of variant YAML files."""


@hookspec
def tapete_register_bots(register):
    """Call ``register(name, factory, game=None)``; ``factory(game, seat, rng)`` returns a bot.

    ``game=None`` offers the bot to every game."""


@hookspec
def tapete_register_vocabulary(register):
    """Call ``register(game, item)`` to add a rule-script word to a game (``game=None``: all).

    ``item`` is a ``StatementSpec``, ``Quantity`` or ``Function`` from ``tapete``."""


@hookspec
def tapete_deal_started(match, state):
    """A deal has been dealt and is about to be played."""


@hookspec
def tapete_deal_scored(match, state, scores):
    """A deal is over; ``scores`` maps seats to what they add to their totals.

    A house-rule plugin may change ``scores`` in place, or wrap this hook."""


@hookspec
def tapete_match_ended(match, result):
    """The match is over; ``result`` holds the winner and the totals."""
