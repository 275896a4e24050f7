"""The core's own plugin: the bots every game gets without any front-end, ``random`` and ``policy``
(a trained policy file; PyTorch is imported only when one is seated).

The front-ends' bots come from their own default plugins (`DEFAULT_PLUGINS` in
`tapete.plugins.loader`): ``ismcts`` from the search, ``human`` from the terminal table.
"""

from __future__ import annotations

from ..bots import RandomBot
from ..hookspecs import RegisterBot, hookimpl
from .lazy import LazyFactory


@hookimpl
def tapete_register_bots(register: RegisterBot) -> None:
    register("random", RandomBot)
    register("policy", LazyFactory("tapete.policy:PolicyBot"))  # a trained policy file, for every game
