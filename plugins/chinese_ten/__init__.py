"""The fishing family as a tapete plugin: Chinese Ten (Jiǎn Hóng Diǎn) and Scopa.

Registered through the ``tapete`` entry-point group like any third-party game.
"""

from __future__ import annotations

from importlib import resources

from tapete import GameRecord, hookimpl
from tapete.hookspecs import RegisterGame

from .bots import GreedyBot
from .game import ChineseTen
from .layout import ChineseTenLayout
from .scopa_bot import CountingBot

SCOPA = "scopa"  # Scopa (SC-...): the same family's class, its own name, variant folder and bot


@hookimpl
def tapete_register_games(register: RegisterGame) -> None:
    variants = resources.files("tapete_variants")
    layout = ChineseTenLayout()
    register(
        GameRecord(
            ChineseTen.name,
            ChineseTen,
            variants=variants / "chinese-ten",
            bots={"greedy": GreedyBot},
            default_bot="greedy",
            layout=layout,
        )
    )
    register(
        GameRecord(
            SCOPA,
            ChineseTen,
            variants=variants / SCOPA,
            bots={"counting": CountingBot},
            default_bot="counting",
            layout=layout,
            aliases={"greedy": "counting"},  # its name in tapete 0.1, kept for saved matches and scripts
        )
    )
