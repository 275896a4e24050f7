"""The search front-end's plugin: it registers ``ismcts`` for every game.

Registered by the plugin manager as one of tapete's default plugins, exactly as an
installed package registers its bots; the registry never imports the search itself.
"""

from __future__ import annotations

from ..hookspecs import RegisterBot, hookimpl
from ..plugins.lazy import LazyFactory


@hookimpl
def tapete_register_bots(register: RegisterBot) -> None:
    register("ismcts", LazyFactory("tapete.search.ismcts:ISMCTSBot"))  # searches any game from its seat's view
