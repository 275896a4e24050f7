"""A bot factory that imports its class on first use.

The registry is built by every `load_variant`, including in headless simulation workers.
A front-end's bot (the terminal's ``human`` with rich, the search's ``ismcts``) registers a
`LazyFactory` naming its class, so building the registry imports neither; the class is
imported the first time a seat is given that bot or its parameters are read.
"""

from __future__ import annotations

import inspect
from importlib import import_module
from typing import Any


class LazyFactory:
    """``LazyFactory("tapete.search.ismcts:ISMCTSBot")``: called like the class it names."""

    def __init__(self, target: str) -> None:
        self.target = target
        self._loaded: Any = None

    def load(self) -> Any:
        if self._loaded is None:
            module, _, name = self.target.partition(":")
            self._loaded = getattr(import_module(module), name)
        return self._loaded

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.load()(*args, **kwargs)

    @property
    def __signature__(self) -> inspect.Signature:  # bot parameters are checked against the class
        return inspect.signature(self.load())

    def __repr__(self) -> str:
        return f"LazyFactory({self.target!r})"
