"""tapete: a framework for playing, simulating and inventing card games.

Plugin authors and API users import from here: ``from tapete import Game, hookimpl``.

The names below are loaded on first use (PEP 562), not when ``tapete`` is imported:
the command line imports this package on every run, and ``tapete --help`` should
not pay for the rule parser, YAML, rich or the game plugins it does not use.
``from tapete import Game`` and ``tapete.Game`` work as before; type checkers read
the imports under ``TYPE_CHECKING``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .bots import Bot, RandomBot
    from .core.actions import Action
    from .core.cards import SPANISH_SUITS, SUIT_LETTERS, SUIT_NAMES, Deck, face_value
    from .core.errors import ErrorList, IllegalAction, ScriptError, SnapshotError, TapeteError, VariantError
    from .core.ledger import Ledger
    from .core.limits import MAX_PLAYERS
    from .core.problems import ERROR, WARNING, DesignProblem
    from .core.rng import Random
    from .core.state import DealState
    from .game import Game, MoveHelp, MoveKind, QuickSteps, RuleText
    from .hookspecs import hookimpl
    from .layout import Layout, Row
    from .play.choices import HiddenChoices
    from .play.deal import Deal
    from .play.loading import Variant, load_variant
    from .play.match import Match, MatchResult
    from .plugins.loader import build_registry, registry
    from .plugins.record import GameRecord
    from .rules.compiler import Compiled, Env, card_set, constant
    from .rules.forms import Form, holder_form, next_form
    from .rules.program import Rules
    from .rules.tree import Expr, Pos, Statement, Word
    from .rules.vocabulary import (
        AT_DEAL_START,
        CARD,
        CONSTANT,
        DEAL,
        DEAL_ONLY,
        IN_TABLE,
        MATCH,
        MATCH_WIDE,
        PER_SEAT,
        PLAY,
        SEAT,
        SEAT_IN_DEAL,
        SEAT_IN_MATCH,
        Ctx,
        Function,
        Quantity,
        StatementSpec,
        scopes,
    )
    from .simulation.plan import MatchRecord, Simulation, SimulationError, simulate
    from .view import Event, Facts, History, Move, View

    __version__: str

__all__ = [
    "AT_DEAL_START",
    "ERROR",
    "WARNING",
    "Action",
    "Bot",
    "CARD",
    "CONSTANT",
    "Compiled",
    "Ctx",
    "DEAL",
    "DEAL_ONLY",
    "Deal",
    "HiddenChoices",
    "DealState",
    "Event",
    "Facts",
    "History",
    "Move",
    "View",
    "Deck",
    "DesignProblem",
    "Env",
    "ErrorList",
    "Expr",
    "Function",
    "Game",
    "GameRecord",
    "QuickSteps",
    "IN_TABLE",
    "IllegalAction",
    "Layout",
    "Ledger",
    "Row",
    "RuleText",
    "MATCH",
    "MAX_PLAYERS",
    "MATCH_WIDE",
    "Match",
    "MatchRecord",
    "MatchResult",
    "PER_SEAT",
    "PLAY",
    "Pos",
    "Quantity",
    "Random",
    "RandomBot",
    "Rules",
    "Form",
    "holder_form",
    "next_form",
    "SEAT",
    "SEAT_IN_DEAL",
    "SEAT_IN_MATCH",
    "SUIT_LETTERS",
    "SUIT_NAMES",
    "SPANISH_SUITS",
    "ScriptError",
    "Simulation",
    "SimulationError",
    "SnapshotError",
    "Statement",
    "StatementSpec",
    "TapeteError",
    "Variant",
    "VariantError",
    "Word",
    "build_registry",
    "card_set",
    "constant",
    "face_value",
    "hookimpl",
    "load_variant",
    "registry",
    "simulate",
    "scopes",
    "MoveHelp",
    "MoveKind",
]

# Where each public name lives: the same imports as the TYPE_CHECKING block above
# (tests/test_startup.py checks that this table and __all__ agree).
_MODULES: dict[str, tuple[str, ...]] = {
    ".core.actions": ("Action",),
    ".bots": ("Bot", "RandomBot"),
    ".core.cards": ("Deck", "SPANISH_SUITS", "SUIT_LETTERS", "SUIT_NAMES", "face_value"),
    ".core.ledger": ("Ledger",),
    ".core.limits": ("MAX_PLAYERS",),
    ".core.problems": ("DesignProblem", "ERROR", "WARNING"),
    ".play.choices": ("HiddenChoices",),
    ".play.deal": ("Deal",),
    ".play.loading": ("Variant", "load_variant"),
    ".core.errors": ("ErrorList", "IllegalAction", "ScriptError", "SnapshotError", "TapeteError", "VariantError"),
    ".game": ("Game", "MoveHelp", "MoveKind", "QuickSteps", "RuleText"),
    ".hookspecs": ("hookimpl",),
    ".layout": ("Layout", "Row"),
    ".play.match": ("Match", "MatchResult"),
    ".plugins.loader": ("build_registry", "registry"),
    ".plugins.record": ("GameRecord",),
    ".core.rng": ("Random",),
    ".rules.compiler": ("Compiled", "Env", "card_set", "constant"),
    ".rules.forms": ("Form", "holder_form", "next_form"),
    ".rules.program": ("Rules",),
    ".rules.tree": ("Expr", "Pos", "Statement", "Word"),
    ".rules.vocabulary": (
        "AT_DEAL_START",
        "CARD",
        "CONSTANT",
        "DEAL",
        "DEAL_ONLY",
        "IN_TABLE",
        "MATCH",
        "MATCH_WIDE",
        "PER_SEAT",
        "PLAY",
        "SEAT",
        "SEAT_IN_DEAL",
        "SEAT_IN_MATCH",
        "Ctx",
        "Function",
        "Quantity",
        "StatementSpec",
        "scopes",
    ),
    ".simulation.plan": ("MatchRecord", "Simulation", "SimulationError", "simulate"),
    ".core.state": ("DealState",),
    ".view": ("Event", "Facts", "History", "Move", "View"),
}
_HOME = {name: module for module, names in _MODULES.items() for name in names}


if not TYPE_CHECKING:  # hidden from type checkers, so that a misspelt name is still an error to them

    def __getattr__(name: str) -> object:
        """Import the module that holds ``name`` the first time it is asked for, and keep it."""
        if name == "__version__":
            from .core.version import version

            value: object = version()
        elif name in _HOME:
            value = getattr(import_module(_HOME[name], __name__), name)
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, "__version__"})
