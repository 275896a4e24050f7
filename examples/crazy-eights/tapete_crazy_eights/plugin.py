"""The plugin module named by the ``tapete`` entry point: the game, its variants and its bot."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tapete import hookimpl

from .bots import ShedderBot
from .game import Eights


@hookimpl
def tapete_register_games(register: Callable[[type], None]) -> None:
    register(Eights)


@hookimpl
def tapete_register_variants(register: Callable[[Path], None]) -> None:
    register(Path(__file__).parent / "variants")


@hookimpl
def tapete_register_bots(register: Callable[..., Any]) -> None:
    register("shedder", ShedderBot, game=Eights.name)
