"""Chinchón: the Spanish rummy family, as a tapete plugin; Gin Rummy is a member.

Registered through the ``tapete`` entry-point group like any third-party game.
The exact meld solver lives in ``melds`` and ``layoff``; ``game`` holds the turn
mechanics, ``showing`` the showing and laying off after a close, ``words`` the
family's rule-script vocabulary and ``bots`` the heuristic bot.
"""

from __future__ import annotations

from importlib import resources

from tapete import GameRecord, hookimpl
from tapete.hookspecs import RegisterGame

from .bots import HeuristicBot
from .game import MEMBERS, Chinchon
from .layout import ChinchonLayout

GIN = "gin"  # Gin Rummy (GR-...): the same family's class, its own name and variant folder


@hookimpl
def tapete_register_games(register: RegisterGame) -> None:
    variants = resources.files("tapete_variants")
    for name in (Chinchon.name, GIN):  # both play on Chinchón's class and its heuristic bot
        register(
            GameRecord(
                name,
                Chinchon,
                variants=variants / name,
                bots={"heuristic": HeuristicBot},
                default_bot="heuristic",
                layout=ChinchonLayout(loose=MEMBERS[name]["loose"]),  # unmatched, deadwood
            )
        )
