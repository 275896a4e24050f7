"""Chinese Ten (Jiǎn Hóng Diǎn): the East-Asian fishing family, as a tapete plugin.

Registered through the ``tapete`` entry-point group like any third-party game.
"""

from __future__ import annotations

from importlib import resources

from tapete import hookimpl

from .bots import GreedyBot
from .game import ChineseTen


@hookimpl
def tapete_register_games(register):
    register(ChineseTen)


@hookimpl
def tapete_register_variants(register):
    register(resources.files("tapete_variants") / "chinese-ten")


@hookimpl
def tapete_register_bots(register):
    register("greedy", GreedyBot, game=ChineseTen.name)
