"""tapete: a framework for playing, simulating and inventing card games.

Plugin authors and API users import from here: ``from tapete import Game, hookimpl``.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tapete")  # the one place: [project] version in pyproject.toml
except PackageNotFoundError:  # pragma: no cover - running from a checkout that is not installed
    __version__ = "0+unknown"

from .actions import Action
from .bots import Bot, RandomBot
from .cards import Deck
from .designer_checks import DesignProblem
from .engine import Deal, Variant, load_variant
from .errors import ErrorList, IllegalAction, ScriptError, SnapshotError, TapeteError, VariantError
from .game import Game
from .hookspecs import hookimpl
from .layout import Layout, Row
from .match import Match, MatchResult
from .plugins import build_registry, registry
from .rng import Random
from .rules.program import Rules
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
from .simulation import MatchRecord, Simulation, SimulationError, simulate
from .state import DealState
from .view import Event, Facts, History, Move, View

__all__ = [
    "AT_DEAL_START",
    "Action",
    "Bot",
    "CARD",
    "CONSTANT",
    "Ctx",
    "DEAL",
    "DEAL_ONLY",
    "Deal",
    "DealState",
    "Event",
    "Facts",
    "History",
    "Move",
    "View",
    "Deck",
    "DesignProblem",
    "ErrorList",
    "Function",
    "Game",
    "IN_TABLE",
    "IllegalAction",
    "Layout",
    "Row",
    "MATCH",
    "MATCH_WIDE",
    "Match",
    "MatchRecord",
    "MatchResult",
    "PER_SEAT",
    "PLAY",
    "Quantity",
    "Random",
    "RandomBot",
    "Rules",
    "SEAT",
    "SEAT_IN_DEAL",
    "SEAT_IN_MATCH",
    "ScriptError",
    "Simulation",
    "SimulationError",
    "SnapshotError",
    "StatementSpec",
    "TapeteError",
    "Variant",
    "VariantError",
    "build_registry",
    "hookimpl",
    "load_variant",
    "registry",
    "simulate",
    "scopes",
]
