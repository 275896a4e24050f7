"""The trick-taking family as a tapete plugin: Hearts (HE-…), Briscola (BR-…), Oh Hell (OH-…) and Spades (SP-…).

The games play on one class (`Tricks`); each has its own variant folder, default bot
and rule ids. Registered through the ``tapete`` entry-point group like any third-party game.
"""

from __future__ import annotations

from importlib import resources

from tapete import GameRecord, hookimpl
from tapete.hookspecs import RegisterGame

from .bots import BriscolaBot, HeartsBot, NaiveOhHellBot, NaiveSpadesBot, OhHellBot, SpadesBot
from .game import Tricks
from .layout import TrickLayout


@hookimpl
def tapete_register_games(register: RegisterGame) -> None:
    variants = resources.files("tapete_variants")
    layout = TrickLayout()
    games: tuple[tuple[str, dict[str, type]], ...] = (
        ("hearts", {"heuristic": HeartsBot}),
        ("briscola", {"heuristic": BriscolaBot}),
        ("oh-hell", {"heuristic": OhHellBot, "naive": NaiveOhHellBot}),  # naive: the bidding's yardstick
        ("spades", {"heuristic": SpadesBot, "naive": NaiveSpadesBot}),
    )
    for game, bots in games:  # one class, each game its own bots
        register(GameRecord(game, Tricks, variants=variants / game, bots=bots, default_bot="heuristic", layout=layout))
