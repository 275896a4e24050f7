"""Fan Tan (Sevens): the layout-building family, as a tapete plugin.

Registered through the ``tapete`` entry-point group like any third-party game.
"""

from __future__ import annotations

from importlib import resources

from tapete import GameRecord, hookimpl
from tapete.hookspecs import RegisterGame

from .bots import SensibleBot
from .game import FanTan
from .layout import FanTanLayout


@hookimpl
def tapete_register_games(register: RegisterGame) -> None:
    register(
        GameRecord(
            FanTan.name,
            FanTan,
            variants=resources.files("tapete_variants") / "fantan",
            bots={"sensible": SensibleBot},
            default_bot="sensible",
            layout=FanTanLayout(),
        )
    )
