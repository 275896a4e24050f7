"""Finding plugins and building the registry of games, variants, bots and words.

Built-in games are found exactly like third-party ones: through the ``tapete``
entry-point group. The registry is built once; ``check_pending`` makes a plugin
with a misspelt hook name fail at start-up instead of being silently ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pluggy

from . import hookspecs
from .corewords import core_vocabulary
from .errors import TapeteError
from .rules.vocabulary import Vocabulary

ENTRY_POINT_GROUP = "tapete"


@dataclass
class BotEntry:
    name: str
    factory: Callable[..., Any]
    game: str | None
    plugin: str


@dataclass
class Registry:
    pm: pluggy.PluginManager
    games: dict[str, type] = field(default_factory=dict)
    variant_dirs: list[Path] = field(default_factory=list)
    bots: dict[tuple[str | None, str], BotEntry] = field(default_factory=dict)
    vocab: dict[str | None, Vocabulary] = field(default_factory=dict)
    lifecycle: set[str] = field(default_factory=set)

    def vocabulary(self, game: str) -> Vocabulary:
        v = core_vocabulary()
        cls = self.games.get(game)
        if cls is not None:
            for item in getattr(cls, "words", ()):
                v.add(item)
        for key in (None, game):
            if key in self.vocab:
                v = v.merged(self.vocab[key])
        return v

    def bot(self, game: str, name: str) -> BotEntry:
        entry = self.bots.get((game, name)) or self.bots.get((None, name))
        if entry is None:
            raise TapeteError(f"no bot {name!r} for {game}; known: {', '.join(self.bot_names(game))}")
        return entry

    def bot_names(self, game: str) -> list[str]:
        return sorted({n for g, n in self.bots if g in (None, game)})

    def call(self, hook: str, **kwargs) -> None:
        """Lifecycle hooks are called only when some plugin implements them."""
        if hook in self.lifecycle:
            getattr(self.pm.hook, hook)(**kwargs)

    def variants(self) -> dict[str, Path]:
        from .variants import scan_variants

        return scan_variants(self.variant_dirs)

    def plugin_info(self) -> list[dict[str, Any]]:
        rows = []
        dist_of = {id(p): d for p, d in self.pm.list_plugin_distinfo()}
        for name, plugin in self.pm.list_name_plugin():
            if plugin is None:
                continue
            dist = dist_of.get(id(plugin))
            hooks = sorted(h.name for h in self.pm.get_hookcallers(plugin) or [])
            rows.append(
                {
                    "name": name,
                    "package": dist.project_name if dist else "tapete",
                    "version": dist.version if dist else _own_version(),
                    "hooks": hooks,
                }
            )
        return rows


def _own_version() -> str:
    from . import __version__

    return __version__


def make_manager(extra_plugins: Iterable[object] = (), entry_points: bool = True) -> pluggy.PluginManager:
    pm = pluggy.PluginManager("tapete")
    pm.add_hookspecs(hookspecs)
    from . import builtin

    pm.register(builtin, name="tapete.builtin")
    if entry_points:
        pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
    for plugin in extra_plugins:
        pm.register(plugin)
    pm.check_pending()
    return pm


def build_registry(extra_plugins: Iterable[object] = (), entry_points: bool = True) -> Registry:
    pm = make_manager(extra_plugins, entry_points)
    reg = Registry(pm)

    def add_game(cls, name=None):
        reg.games[name or cls.name] = cls  # a family's class may also serve a member game by its own name

    def add_variants(directory):
        reg.variant_dirs.append(Path(str(directory)))

    def add_bot(name, factory, game=None, _plugin="?"):
        reg.bots[(game, name)] = BotEntry(name, factory, game, _plugin)

    def add_word(game, item):
        reg.vocab.setdefault(game, Vocabulary()).add(item)

    pm.hook.tapete_register_games(register=add_game)
    pm.hook.tapete_register_variants(register=add_variants)
    pm.hook.tapete_register_bots(register=add_bot)
    pm.hook.tapete_register_vocabulary(register=add_word)
    for hook in ("tapete_deal_started", "tapete_deal_scored", "tapete_match_ended"):
        if getattr(pm.hook, hook).get_hookimpls():
            reg.lifecycle.add(hook)
    return reg


_DEFAULT: Registry | None = None


def registry() -> Registry:
    """The process-wide registry of installed plugins, built on first use."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = build_registry()
    return _DEFAULT
