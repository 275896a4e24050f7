"""The fishing family as a tapete plugin: Chinese Ten (Jiǎn Hóng Diǎn) and Scopa.

Registered through the ``tapete`` entry-point group like any third-party game.
"""

from __future__ import annotations

from importlib import resources

from tapete import hookimpl
from tapete.hookspecs import RegisterBot, RegisterGame, RegisterLayout, RegisterVariants

from .bots import GreedyBot
from .game import ChineseTen
from .layout import ChineseTenLayout
from .scopa_bot import CountingBot

SCOPA = "scopa"  # Scopa (SC-...): the same family's class, its own name and variant folder


@hookimpl
def tapete_register_games(register: RegisterGame) -> None:
    register(ChineseTen)
    register(ChineseTen, name=SCOPA)


@hookimpl
def tapete_register_variants(register: RegisterVariants) -> None:
    register(resources.files("tapete_variants") / "chinese-ten")
    register(resources.files("tapete_variants") / SCOPA)


@hookimpl
def tapete_register_bots(register: RegisterBot) -> None:
    register("greedy", GreedyBot, game=ChineseTen.name)
    register("greedy", CountingBot, game=SCOPA)


@hookimpl
def tapete_register_layouts(register: RegisterLayout) -> None:
    register(ChineseTen.name, ChineseTenLayout())
