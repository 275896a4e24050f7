"""tapete: a framework for playing, simulating and inventing card games.

Plugin authors and API users import from here: ``from tapete import Game, hookimpl``.
"""
from __future__ import annotations

__version__ = "0.1.0"

from .actions import Action
from .bots import Bot, RandomBot
from .cards import Deck
from .errors import (ErrorList, IllegalAction, ScriptError, SnapshotError, TapeteError,
                     VariantError)
from .game import Game
from .hookspecs import hookimpl
from .rng import Random
from .rules.vocabulary import CARD, DEAL, MATCH, SEAT, Ctx, Function, Quantity, StatementSpec
from .state import DealState

from .engine import Deal, Variant, load_variant  # noqa: E402  (needs the names above)
from .match import Match, MatchResult  # noqa: E402
from .plugins import build_registry, registry  # noqa: E402

__all__ = [
    "Action", "Bot", "CARD", "Ctx", "DEAL", "Deal", "DealState", "Deck", "ErrorList", "Function",
    "Game", "IllegalAction", "MATCH", "Match", "MatchResult", "Quantity", "Random", "RandomBot",
    "SEAT", "ScriptError", "SnapshotError", "StatementSpec", "TapeteError", "Variant",
    "VariantError", "build_registry", "hookimpl", "load_variant", "registry",
]
