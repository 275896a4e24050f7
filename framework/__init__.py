"""tapete: a framework for playing, simulating and inventing card games.

Plugin authors and API users import from here: ``from tapete import Game, hookimpl``.
"""

from __future__ import annotations

__version__ = "0.1.0"

from .actions import Action
from .bots import Bot, RandomBot
from .cards import Deck
from .engine import Deal, Variant, load_variant
from .errors import ErrorList, IllegalAction, ScriptError, SnapshotError, TapeteError, VariantError
from .game import Game
from .hookspecs import hookimpl
from .match import Match, MatchResult
from .plugins import build_registry, registry
from .rng import Random
from .rules.vocabulary import CARD, DEAL, MATCH, SEAT, Ctx, Function, Quantity, StatementSpec
from .state import DealState

__all__ = [
    "Action",
    "Bot",
    "CARD",
    "Ctx",
    "DEAL",
    "Deal",
    "DealState",
    "Deck",
    "ErrorList",
    "Function",
    "Game",
    "IllegalAction",
    "MATCH",
    "Match",
    "MatchResult",
    "Quantity",
    "Random",
    "RandomBot",
    "SEAT",
    "ScriptError",
    "SnapshotError",
    "StatementSpec",
    "TapeteError",
    "Variant",
    "VariantError",
    "build_registry",
    "hookimpl",
    "load_variant",
    "registry",
]
