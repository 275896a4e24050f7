"""The core's own plugin: the bot every game gets without any front-end, ``random``.

The front-ends' bots come from their own default plugins (`DEFAULT_PLUGINS` in
`tapete.plugins.loader`): ``ismcts`` from the search, ``human`` from the terminal table.
"""

from __future__ import annotations

from ..bots import RandomBot
from ..hookspecs import RegisterBot, hookimpl


@hookimpl
def tapete_register_bots(register: RegisterBot) -> None:
    register("random", RandomBot)
