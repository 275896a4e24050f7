"""The core's own plugin: the bots every game gets."""

from __future__ import annotations

from .bots import RandomBot
from .hookspecs import RegisterBot, hookimpl
from .human import HumanBot
from .ismcts import ISMCTSBot


@hookimpl
def tapete_register_bots(register: RegisterBot) -> None:
    register("random", RandomBot)
    register("human", HumanBot)
    register("ismcts", ISMCTSBot)  # searches any game from its seat's view
