"""Fan Tan (Sevens): the layout-building family, as a tapete plugin.

Registered through the ``tapete`` entry-point group like any third-party game.
"""

from __future__ import annotations

from importlib import resources

from tapete import hookimpl
from tapete.hookspecs import RegisterBot, RegisterGame, RegisterLayout, RegisterVariants

from .bots import SensibleBot
from .game import FanTan
from .layout import FanTanLayout


@hookimpl
def tapete_register_games(register: RegisterGame) -> None:
    register(FanTan)


@hookimpl
def tapete_register_variants(register: RegisterVariants) -> None:
    register(resources.files("tapete_variants") / "fantan")


@hookimpl
def tapete_register_bots(register: RegisterBot) -> None:
    register("sensible", SensibleBot, game=FanTan.name)


@hookimpl
def tapete_register_layouts(register: RegisterLayout) -> None:
    register(FanTan.name, FanTanLayout())
