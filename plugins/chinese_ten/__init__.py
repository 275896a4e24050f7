"""The fishing family as a tapete plugin: Chinese Ten (Jiǎn Hóng Diǎn) and Scopa.

Registered through the ``tapete`` entry-point group like any third-party game.
"""

from __future__ import annotations

from importlib import resources

from tapete import hookimpl

from .bots import GreedyBot
from .game import ChineseTen
from .scopa_bot import CountingBot

SCOPA = "scopa"  # Scopa (SC-...): the same family's class, its own name and variant folder


@hookimpl
def tapete_register_games(register):
    register(ChineseTen)
    register(ChineseTen, name=SCOPA)


@hookimpl
def tapete_register_variants(register):
    register(resources.files("tapete_variants") / "chinese-ten")
    register(resources.files("tapete_variants") / SCOPA)


@hookimpl
def tapete_register_bots(register):
    register("greedy", GreedyBot, game=ChineseTen.name)
    register("greedy", CountingBot, game=SCOPA)
