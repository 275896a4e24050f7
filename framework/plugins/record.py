"""One record per registered game: its name, mechanics, variants, bots and layout together.

A game used to be registered through four hooks that each named it again (the class, its
variant folder, its bots by game name, its layout by the family's name), and every reader
looked the pieces up in the process-wide registry, some by the member's name (``scopa``),
some by the family's (``chinese-ten``). A `GameRecord` holds them all, in the style of
llm's ``register(model, aliases=...)`` and OpenSpiel's ``register_game(GAME_TYPE, cls)``:
a plugin registers it once, the registry completes it (the bots offered to every game,
what other plugins add by the game's name), and the loaded `Variant` carries the complete
record, so the match, ``hint``, the search's rollouts, the table and ``tapete check`` all
read the same one.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Union, cast

from ..core.errors import TapeteError

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:
        from importlib.abc import Traversable

    from ..game import Game
    from ..layout import Layout

Folder = Union[str, "PathLike[str]", "Traversable"]
"""A folder of variant files: a path, or ``importlib.resources.files(...) / "name"``."""


def _frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class GameRecord:
    """A registered game: ``register(GameRecord("scopa", ChineseTen, variants=..., bots=..., ...))``.

    * ``name``: the game as variant files and rule scripts name it (``game: scopa``).
    * ``family``: the `tapete.Game` subclass with its mechanics; several games may share one
      (Gin Rummy plays on Chinchón's class, Scopa on Chinese Ten's).
    * ``variants``: the folder(s) of its variant files.
    * ``bots``: name -> factory, ``factory(game, seat, rng)`` returning a bot; the bots every
      game gets (``random``, ``ismcts``, ``human``) are added by the registry.
    * ``default_bot``: what ``tapete play`` seats, ``hint`` asks and the search's rollouts
      play when nothing else is said; empty means the family class's ``default_bot``.
    * ``layout``: the `tapete.Layout` that shows it at the terminal (None: `Layout` itself).
    * ``aliases``: old bot name -> current name, so saved matches and command lines that
      use a renamed bot still seat it (the aliases are not listed among the bots).
    """

    name: str
    family: type[Game]
    variants: tuple[Path, ...] = ()
    bots: Mapping[str, Callable[..., Any]] = field(default_factory=dict, hash=False)
    default_bot: str = ""
    layout: Layout | None = field(default=None, hash=False)
    aliases: Mapping[str, str] = field(default_factory=dict, hash=False)

    def __init__(
        self,
        name: str,
        family: type[Game],
        variants: Folder | Iterable[Folder] = (),
        bots: Mapping[str, Callable[..., Any]] | None = None,
        default_bot: str = "",
        layout: Layout | None = None,
        aliases: Mapping[str, str] | None = None,
    ) -> None:
        from ..game import Game

        if not isinstance(name, str) or not name:
            raise TapeteError(f"a game record needs the game's name, not {name!r}")
        if not (isinstance(family, type) and issubclass(family, Game)):
            raise TapeteError(f"game {name!r}: the family must be a subclass of tapete.Game, not {family!r}")
        one = isinstance(variants, (str, PathLike)) or hasattr(variants, "iterdir")  # a path or a Traversable
        folders = (variants,) if one else tuple(cast("Iterable[Folder]", variants))
        set_ = object.__setattr__  # frozen: the fields are set once, here
        set_(self, "name", name)
        set_(self, "family", family)
        set_(self, "variants", tuple(Path(str(f)) for f in folders))
        set_(self, "bots", _frozen(bots or {}))
        set_(self, "default_bot", default_bot or str(family.default_bot))
        set_(self, "layout", layout)
        set_(self, "aliases", _frozen(aliases or {}))

    def bot(self, spec: str) -> Callable[..., Any]:
        """The factory of the bot ``spec`` names; ``name:key=value,...`` fills its parameters."""
        from .botspec import parse_spec, with_params

        base, params = parse_spec(spec)
        base = self.aliases.get(base, base)
        factory = self.bots.get(base)
        if factory is None:
            raise TapeteError(f"no bot {base!r} for {self.name}; known: {', '.join(self.bot_names())}")
        return with_params(base, factory, params)

    def bot_names(self) -> list[str]:
        return sorted(self.bots)

    def default_factory(self) -> Callable[..., Any]:
        """The factory of the game's default bot (what an unnamed seat, ``hint`` and rollouts play)."""
        return self.bot(self.default_bot)
