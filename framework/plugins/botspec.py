"""Bot names with parameters: ``ismcts:iterations=400,rollout=default``.

A seat's bot is written ``NAME`` or ``NAME:KEY=VALUE,KEY=VALUE``. In a list of
seats (``--bots``) a comma starts a new seat unless what follows is another
``KEY=VALUE`` (a bot name never holds ``=``), so
``ismcts:iterations=400,c=0.5,random`` is two seats. Values read as whole
numbers, then decimals, then words, by the one bot-spec reader
(`tapete.core.inputs.bot_spec`): a value that starts like a number must be
one, finite and of at most 100 digits (``nan``, ``inf``, ``1e400`` and 5,000
digits are refused, naming the parameter), and anything else is a word. The
full spec is what logs and snapshots keep, so a replay builds the same bots.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import partial
from typing import Any

from ..core.errors import TapeteError
from ..core.inputs import bot_spec, split_bots

__all__ = ["parse_spec", "split_bots", "with_params"]


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``name:key=value,...`` -> (name, parameters), read by the one bot-spec reader (`tapete.core.inputs.bot_spec`)."""
    name, params = bot_spec(spec)
    return name, params


def with_params(name: str, factory: Callable[..., Any], params: dict[str, Any]) -> Callable[..., Any]:
    """``factory`` with its keyword parameters filled; an unknown key is refused, naming the known ones."""
    if not params:
        return factory
    try:
        accepted = [
            p.name
            for p in inspect.signature(factory).parameters.values()
            if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
        ][3:]
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        accepted = []
    unknown = [k for k in params if k not in accepted]
    if unknown:
        known = ", ".join(accepted) if accepted else "none"
        raise TapeteError(f"bot {name!r} has no parameter {unknown[0]!r} (its parameters: {known})")
    return partial(factory, **params)
