"""Chinchón: the Spanish rummy family, as a tapete plugin.

Registered through the ``tapete`` entry-point group like any third-party game.
The exact meld solver lives in ``melds`` and ``layoff``; ``game`` holds the turn
mechanics, ``showing`` the showing and laying off after a close, ``words`` the
family's rule-script vocabulary and ``bots`` the heuristic bot.
"""

from __future__ import annotations

from importlib import resources

from tapete import hookimpl

from .bots import HeuristicBot
from .game import Chinchon


@hookimpl
def tapete_register_games(register):
    register(Chinchon)


@hookimpl
def tapete_register_variants(register):
    register(resources.files("tapete_variants") / "chinchon")


@hookimpl
def tapete_register_bots(register):
    register("heuristic", HeuristicBot, game=Chinchon.name)
