"""The plugin module named by the ``tapete`` entry point: the game, with its variants and its bot."""

from __future__ import annotations

from pathlib import Path

from tapete import GameRecord, hookimpl
from tapete.hookspecs import RegisterGame

from .bots import ShedderBot
from .game import Eights


@hookimpl
def tapete_register_games(register: RegisterGame) -> None:
    register(
        GameRecord(
            Eights.name,
            Eights,
            variants=Path(__file__).parent / "variants",
            bots={"shedder": ShedderBot},
            default_bot="shedder",
        )
    )
