"""Fan Tan (Sevens): the layout-building family, as a tapete plugin.

Registered through the ``tapete`` entry-point group like any third-party game.
"""

from __future__ import annotations

from importlib import resources

from tapete import hookimpl

from .bots import SensibleBot
from .game import FanTan


@hookimpl
def tapete_register_games(register):
    register(FanTan)


@hookimpl
def tapete_register_variants(register):
    register(resources.files("tapete_variants") / "fantan")


@hookimpl
def tapete_register_bots(register):
    register("sensible", SensibleBot, game=FanTan.name)
