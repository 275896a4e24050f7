"""Chinchón: the Spanish rummy family, as a tapete plugin; Gin Rummy is a member.

Registered through the ``tapete`` entry-point group like any third-party game.
The exact meld solver lives in ``melds`` and ``layoff``; ``game`` holds the turn
mechanics, ``showing`` the showing and laying off after a close, ``words`` the
family's rule-script vocabulary and ``bots`` the heuristic bot.
"""

from __future__ import annotations

from importlib import resources

from tapete import hookimpl
from tapete.hookspecs import RegisterBot, RegisterGame, RegisterLayout, RegisterVariants

from .bots import HeuristicBot
from .game import Chinchon
from .layout import ChinchonLayout

GIN = "gin"  # Gin Rummy (GR-...): the same family's class, its own name and variant folder


@hookimpl
def tapete_register_games(register: RegisterGame) -> None:
    register(Chinchon)
    register(Chinchon, name=GIN)


@hookimpl
def tapete_register_variants(register: RegisterVariants) -> None:
    register(resources.files("tapete_variants") / "chinchon")
    register(resources.files("tapete_variants") / GIN)


@hookimpl
def tapete_register_bots(register: RegisterBot) -> None:
    register("heuristic", HeuristicBot, game=Chinchon.name)
    register("heuristic", HeuristicBot, game=GIN)


@hookimpl
def tapete_register_layouts(register: RegisterLayout) -> None:
    register(Chinchon.name, ChinchonLayout())
