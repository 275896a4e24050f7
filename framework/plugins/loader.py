"""Finding plugins and building the registry of games, variants, bots and words.

Built-in games are found exactly like third-party ones: through the ``tapete``
entry-point group. The registry is built once; ``check_pending`` makes a plugin
with a misspelt hook name fail at start-up instead of being silently ignored.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import import_module
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pluggy

from .. import hookspecs
from ..core.errors import TapeteError, suggest
from ..rules.corewords import core_vocabulary
from ..rules.vocabulary import Function, Quantity, StatementSpec, Vocabulary

if TYPE_CHECKING:
    from ..game import Game

    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:
        from importlib.abc import Traversable

ENTRY_POINT_GROUP = "tapete"
Staged = tuple[str, Any, Callable[[], None]]  # (what, its key, how to add it): a plugin's registrations


@dataclass
class BotEntry:
    name: str
    factory: Callable[..., Any]
    game: str | None
    plugin: str


@dataclass
class Registry:
    pm: pluggy.PluginManager
    games: dict[str, type[Game]] = field(default_factory=dict)
    variant_dirs: list[Path] = field(default_factory=list)
    bots: dict[tuple[str | None, str], BotEntry] = field(default_factory=dict)
    vocab: dict[str | None, Vocabulary] = field(default_factory=dict)
    lifecycle: set[str] = field(default_factory=set)
    problems: list[PluginProblem] = field(default_factory=list)  # plugins left out, names registered twice
    dists: dict[str, tuple[str, str]] = field(default_factory=dict)  # plugin name -> (package, version)

    def package_of(self, plugin: str) -> str:
        return self.dists.get(plugin, ("tapete", ""))[0]

    layouts: dict[str, Any] = field(default_factory=dict)  # game -> tapete.Layout

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
        """The bot ``name`` for ``game``; ``name:key=value,...`` fills the factory's parameters."""
        from .botspec import parse_spec, with_params

        base, params = parse_spec(name)
        entry = self.bots.get((game, base)) or self.bots.get((None, base))
        if entry is None:
            raise TapeteError(f"no bot {base!r} for {game}; known: {', '.join(self.bot_names(game))}")
        if params:
            entry = BotEntry(name, with_params(base, entry.factory, params), entry.game, entry.plugin)
        return entry

    def bot_names(self, game: str) -> list[str]:
        return sorted({n for g, n in self.bots if g in (None, game)})

    def call(self, hook: str, **kwargs: Any) -> None:
        """Lifecycle hooks are called only when some plugin implements them."""
        if hook in self.lifecycle:
            getattr(self.pm.hook, hook)(**kwargs)

    def variants(self) -> dict[str, Path]:
        from ..rules.variant_file import scan_variants

        return scan_variants(self.variant_dirs)

    def variant_problems(self) -> list[str]:
        """Variant files of the registered folders that cannot be listed, and names used twice."""
        from ..rules.variant_file import scan_variants

        problems: list[str] = []
        scan_variants(self.variant_dirs, problems)
        return problems

    def plugin_info(self) -> list[dict[str, Any]]:
        rows = []
        for name, plugin in self.pm.list_name_plugin():
            if plugin is None:
                continue
            hooks = sorted(h.name for h in self.pm.get_hookcallers(plugin) or [])
            package, version = self.dists.get(name, ("tapete", _own_version()))
            rows.append({"name": name, "package": package, "version": version, "hooks": hooks, "broken": ""})
        for problem in self.problems:
            if not any(r["name"] == problem.plugin for r in rows):
                version = self.dists.get(problem.plugin, ("", "?"))[1]
                rows.append(
                    {
                        "name": problem.plugin,
                        "package": problem.package,
                        "version": version,
                        "hooks": [],
                        "broken": problem.message,
                    }
                )
        return rows


def _own_version() -> str:
    from ..core.version import __version__

    return __version__


REGISTRATION_HOOKS = (
    "tapete_register_games",
    "tapete_register_variants",
    "tapete_register_bots",
    "tapete_register_vocabulary",
    "tapete_register_layouts",
)


@dataclass
class PluginProblem:
    """A plugin that was not loaded, or a name two plugins both register."""

    plugin: str
    package: str
    message: str

    def __str__(self) -> str:
        return f"plugin {self.plugin!r} ({self.package}): {self.message}"


def unknown_hooks(pm: pluggy.PluginManager, plugin: object) -> list[str]:
    """Hook implementations of ``plugin`` that match no hook, each with a did-you-mean."""
    known = [n for n in dir(hookspecs) if n.startswith("tapete_")]
    found = []
    for name in dir(plugin):
        if name.startswith("_") or pm.parse_hookimpl_opts(plugin, name) is None or name in known:
            continue
        found.append(f"unknown hook {name!r}{suggest(name, known)}")
    return found


# tapete's own plugins, registered on every manager before the installed ones (llm's
# DEFAULT_PLUGINS): the core's bot, then each front-end's. Each registers what it offers
# through the same hooks a third-party package uses, so the registry imports no front-end.
DEFAULT_PLUGINS = ("tapete.plugins.builtin", "tapete.search.plugin", "tapete.table.plugin")


def make_manager(
    extra_plugins: Iterable[object] = (),
    entry_points: bool = True,
    problems: list[PluginProblem] | None = None,
    dists: dict[str, tuple[str, str]] | None = None,
) -> pluggy.PluginManager:
    """The plugin manager with the core, the installed plugins and ``extra_plugins``.

    An installed plugin that fails to import or has a hook tapete does not know is
    left out and described in ``problems``; the rest load. An extra plugin object
    (handed over in code) with such a fault raises PluginValidationError at once."""
    problems = [] if problems is None else problems
    dists = {} if dists is None else dists
    pm = pluggy.PluginManager("tapete")
    pm.add_hookspecs(hookspecs)
    for module in DEFAULT_PLUGINS:
        pm.register(import_module(module), name=module)
    if entry_points:
        _load_entry_points(pm, problems, dists)
    for plugin in extra_plugins:
        bad = unknown_hooks(pm, plugin)
        if bad:
            raise pluggy.PluginValidationError(plugin, f"plugin {plugin!r}: {'; '.join(bad)}")
        pm.register(plugin)
    pm.check_pending()
    return pm


def _load_entry_points(
    pm: pluggy.PluginManager, problems: list[PluginProblem], dists: dict[str, tuple[str, str]]
) -> None:
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        dist = getattr(ep, "dist", None)
        package = dist.metadata["name"] if dist is not None else "?"
        version = dist.version if dist is not None else "?"
        if ep.name in dists:
            problems.append(
                PluginProblem(ep.name, package, f"the plugin name is taken by package {dists[ep.name][0]}; not loaded")
            )
            continue
        dists[ep.name] = (package, version)
        try:
            plugin = ep.load()
        except Exception as exc:  # any import failure of a third-party module is that plugin's fault
            problems.append(PluginProblem(ep.name, package, f"cannot be imported: {type(exc).__name__}: {exc}"))
            continue
        bad = unknown_hooks(pm, plugin)
        if bad:
            problems.append(PluginProblem(ep.name, package, "; ".join(bad)))
            continue
        try:
            pm.register(plugin, name=ep.name)
        except (pluggy.PluginValidationError, ValueError) as exc:
            problems.append(PluginProblem(ep.name, package, f"invalid: {exc}"))


def build_registry(extra_plugins: Iterable[object] = (), entry_points: bool = True) -> Registry:
    problems: list[PluginProblem] = []
    dists: dict[str, tuple[str, str]] = {}
    pm = make_manager(extra_plugins, entry_points, problems, dists)
    reg = Registry(pm)
    reg.problems, reg.dists = problems, dists
    owner: dict[tuple[str, Any], str] = {}

    for name, plugin in list(pm.list_name_plugin()):
        if plugin is None:
            continue
        staged: list[Staged] = []

        def add_game(cls: type[Game], name: str | None = None, _staged: list[Staged] = staged) -> None:
            key = name or cls.name

            def commit() -> None:
                reg.games[key] = cls  # a family's class may also serve a member game by its own name

            _staged.append(("game", key, commit))

        def add_variants(directory: str | PathLike[str] | Traversable, _staged: list[Staged] = staged) -> None:
            path = Path(str(directory))
            _staged.append(("variants", path, lambda: reg.variant_dirs.append(path)))

        def add_bot(
            bot_name: str,
            factory: Callable[..., Any],
            game: str | None = None,
            _plugin: str = "?",
            _staged: list[Staged] = staged,
            _name: str = name,
        ) -> None:
            entry = BotEntry(bot_name, factory, game, _name)

            def commit() -> None:
                reg.bots[(game, bot_name)] = entry

            _staged.append(("bot", (game, bot_name), commit))

        def add_word(
            game: str | None, item: StatementSpec | Quantity | Function, _staged: list[Staged] = staged
        ) -> None:
            def commit() -> None:
                reg.vocab.setdefault(game, Vocabulary()).add(item)

            _staged.append(("word", (game, getattr(item, "name", "?")), commit))

        def add_layout(game: str, layout: Any, _staged: list[Staged] = staged) -> None:
            def commit() -> None:
                reg.layouts[game] = layout

            _staged.append(("layout", game, commit))

        callbacks = dict(zip(REGISTRATION_HOOKS, (add_game, add_variants, add_bot, add_word, add_layout), strict=True))
        package = reg.package_of(name)
        try:
            for hook in REGISTRATION_HOOKS:
                for impl in getattr(pm.hook, hook).get_hookimpls():
                    if impl.plugin is plugin:
                        impl.function(register=callbacks[hook])
        except Exception as exc:  # a plugin failing while it registers is left out, the rest load
            problems.append(PluginProblem(name, package, f"failed while registering: {type(exc).__name__}: {exc}"))
            pm.unregister(plugin)
            continue
        for kind, key, apply in staged:
            first = owner.get((kind, key))
            if first is not None and first != name:
                what = {
                    "game": "game",
                    "bot": "bot",
                    "word": "rule word",
                    "variants": "variant folder",
                    "layout": "layout",
                }[kind]
                shown = key if not isinstance(key, tuple) else "/".join(str(k) for k in key if k is not None)
                problems.append(
                    PluginProblem(
                        name, package, f"registers {what} {shown!r}, already registered by {first!r}; ignored"
                    )
                )
                continue
            owner[(kind, key)] = name
            apply()
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
