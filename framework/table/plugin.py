"""The terminal table's plugin: it registers ``human``, a person at the keyboard, for every game.

One of tapete's default plugins; building a registry (every `load_variant`, every
simulation worker) imports neither the terminal nor rich until a seat is given to a person.
"""

from __future__ import annotations

from ..hookspecs import RegisterBot, hookimpl
from ..plugins.lazy import LazyFactory


@hookimpl
def tapete_register_bots(register: RegisterBot) -> None:
    register("human", LazyFactory("tapete.table.human:HumanBot"))
