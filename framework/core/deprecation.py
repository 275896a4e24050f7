"""Deprecating public names the way docs/api.md promises.

A deprecated name, argument or calling convention keeps working for at least one minor
release after the one that deprecates it, and every use says so with a
``DeprecationWarning`` naming the release, what to use instead and the earliest release
that may remove it. Record each deprecation under "Deprecated" in CHANGELOG.md.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def next_minor(release: str) -> str:
    """The first release allowed to remove what ``release`` deprecates: 0.2.0 -> 0.3.0."""
    major, minor = (int(part) for part in release.split(".")[:2])
    return f"{major}.{minor + 1}.0"


def message(what: str, since: str, instead: str | None = None, removed_in: str | None = None) -> str:
    text = f"{what} is deprecated since tapete {since}"
    if instead:
        text += f"; use {instead} instead"
    return text + f"; it may be removed in tapete {removed_in or next_minor(since)}"


def warn(
    what: str, *, since: str, instead: str | None = None, removed_in: str | None = None, stacklevel: int = 2
) -> None:
    """Warn that ``what`` is deprecated; call it where the deprecated thing is used.

    ``stacklevel=2`` points the warning at the caller of the function that calls ``warn``
    (the plugin's or user's line), which is what they need to change."""
    warnings.warn(message(what, since, instead, removed_in), DeprecationWarning, stacklevel=stacklevel + 1)


def deprecated(
    since: str, instead: str | None = None, removed_in: str | None = None
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a function or method that still works but warns on every call."""

    def decorate(func: Callable[P, R]) -> Callable[P, R]:
        what = f"{func.__qualname__}()"

        @functools.wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            warn(what, since=since, instead=instead, removed_in=removed_in, stacklevel=2)
            return func(*args, **kwargs)

        return wrapper

    return decorate


def moved(old: str, homes: tuple[str, ...], since: str = "0.2.0") -> Callable[[str], object]:
    """A module ``__getattr__`` for a module that moved: its names are found in ``homes``.

    The old module keeps working for one minor release (docs/api.md's policy): each name
    read through it is taken from the first new module that has it, with a
    ``DeprecationWarning`` at the reader's line naming the new home."""

    def __getattr__(name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        from importlib import import_module

        for home in homes:
            module = import_module(home)
            if hasattr(module, name):
                warn(f"{old}.{name}", since=since, instead=f"{home}.{name}")
                return getattr(module, name)
        raise AttributeError(f"module {old!r} has no attribute {name!r}")

    return __getattr__
