"""The trick-taking family as a tapete plugin: Hearts (HE-…), Briscola (BR-…), Oh Hell (OH-…) and Spades (SP-…).

The games play on one class (`Tricks`); each has its own variant folder, default bot
and rule ids. Registered through the ``tapete`` entry-point group like any third-party game.
"""

from __future__ import annotations

from importlib import resources

from tapete import GameRecord, hookimpl
from tapete.hookspecs import RegisterGame

from .bots import BriscolaBot, HeartsBot, OhHellBot, SpadesBot
from .game import Tricks
from .layout import TrickLayout


@hookimpl
def tapete_register_games(register: RegisterGame) -> None:
    variants = resources.files("tapete_variants")
    layout = TrickLayout()
    games = (("hearts", HeartsBot), ("briscola", BriscolaBot), ("oh-hell", OhHellBot), ("spades", SpadesBot))
    for game, bot in games:  # one class, each game its own bot
        register(
            GameRecord(
                game, Tricks, variants=variants / game, bots={"heuristic": bot}, default_bot="heuristic", layout=layout
            )
        )
