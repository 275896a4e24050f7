"""Finding plugins and building the registry of games, variants, bots and words.

Built-in games are found exactly like third-party ones: through the ``tapete``
entry-point group. The registry is built once; ``check_pending`` makes a plugin
with a misspelt hook name fail at start-up instead of being silently ignored.
Each game ends up as one complete `GameRecord` (``Registry.records``), whether its
plugin registered a record or used the older one-piece-per-hook registrations.
``TAPETE_TRACE_PLUGINS=1`` prints every hook call, its arguments and results to stderr.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pluggy

from .. import hookspecs
from ..core import paths
from ..core.errors import TapeteError, suggest
from ..core.inputs import bot_name as check_bot_name
from ..rules.corewords import core_vocabulary
from ..rules.vocabulary import Function, Quantity, StatementSpec, Vocabulary
from .record import Folder, GameRecord

if TYPE_CHECKING:
    from ..game import Game

ENTRY_POINT_GROUP = "tapete"
TRACE_ENV = "TAPETE_TRACE_PLUGINS"


@dataclass
class BotEntry:
    name: str
    factory: Callable[..., Any]
    game: str | None
    plugin: str


@dataclass
class Registry:
    pm: pluggy.PluginManager
    records: dict[str, GameRecord] = field(default_factory=dict)  # game name -> its complete record
    games: dict[str, type[Game]] = field(default_factory=dict)  # game name -> its family's class
    variant_dirs: list[Path] = field(default_factory=list)
    bots: dict[tuple[str | None, str], BotEntry] = field(default_factory=dict)  # every bot registration
    vocab: dict[str | None, Vocabulary] = field(default_factory=dict)
    lifecycle: set[str] = field(default_factory=set)
    problems: list[PluginProblem] = field(default_factory=list)  # plugins left out, names registered twice
    dists: dict[str, tuple[str, str]] = field(default_factory=dict)  # plugin name -> (package, version)
    layouts: dict[str, Any] = field(default_factory=dict)  # layouts as registered, by game name

    def package_of(self, plugin: str) -> str:
        return self.dists.get(plugin, ("tapete", ""))[0]

    # variant folder -> (its plugin, {game it registered but another plugin owns: that plugin}):
    # the folder's variants of those games are not listed, since they would play on the other's mechanics
    foreign_games: dict[Path, tuple[str, dict[str, str]]] = field(default_factory=dict)

    def vocabulary(self, game: str) -> Vocabulary:
        """The words a script of ``game`` may use: the core's, then the family class's
        ``words``, then words registered through the vocabulary hook for every game, then
        for this game. A later word of the same name replaces an earlier one."""
        v = core_vocabulary()
        cls = self.games.get(game)
        if cls is not None:
            for item in getattr(cls, "words", ()):
                v.add(item)
        for key in (None, game):
            if key in self.vocab:
                v = v.merged(self.vocab[key])
        return v

    def record(self, game: str, family: type[Game] | None = None) -> GameRecord:
        """``game``'s record; a game nobody registered gets one (of ``family``, else of
        `tapete.Game`) offering the bots every game gets."""
        found = self.records.get(game)
        if found is not None:
            return found
        if family is None:
            from ..game import Game

            family = Game
        return GameRecord(game, family, bots={n: e.factory for (g, n), e in self.bots.items() if g is None})

    def bot(self, game: str, name: str) -> BotEntry:
        """The bot ``name`` for ``game`` (`GameRecord.bot`); ``name:key=value,...`` fills its parameters."""
        from .botspec import parse_spec

        record = self.record(game)
        factory = record.bot(name)
        base = parse_spec(name)[0]
        base = record.aliases.get(base, base)
        found = self.bots.get((game, base)) or self.bots.get((None, base))
        return BotEntry(name, factory, found.game if found else game, found.plugin if found else "?")

    def bot_names(self, game: str) -> list[str]:
        return self.record(game).bot_names()

    def call(self, hook: str, **kwargs: Any) -> None:
        """Lifecycle hooks are called only when some plugin implements them."""
        if hook in self.lifecycle:
            getattr(self.pm.hook, hook)(**kwargs)

    def variants(self) -> dict[str, Path]:
        from ..rules.variant_file import scan_variants

        return scan_variants(self.variant_dirs, ignore=self.foreign_games)

    def variant_problems(self) -> list[str]:
        """Variant files of the registered folders that cannot be listed, and names used twice."""
        from ..rules.variant_file import scan_variants

        problems: list[str] = []
        scan_variants(self.variant_dirs, problems, ignore=self.foreign_games)
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
    if os.environ.get(TRACE_ENV):
        trace(pm)
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


def failure(exc: BaseException) -> str:
    """How a plugin failed, for its `PluginProblem`; Ctrl-C is the person's, not the plugin's, and goes on.

    Any other BaseException counts: a plugin whose import calls ``sys.exit()`` (SystemExit)
    or raises GeneratorExit is left out like one raising ImportError, and the rest works."""
    if isinstance(exc, KeyboardInterrupt):
        raise exc
    return f"{type(exc).__name__}: {exc}"


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
        except BaseException as exc:  # any import failure of a third-party module is that plugin's fault
            problems.append(PluginProblem(ep.name, package, f"cannot be imported: {failure(exc)}"))
            continue
        try:
            bad = unknown_hooks(pm, plugin)
            if bad:
                problems.append(PluginProblem(ep.name, package, "; ".join(bad)))
                continue
            pm.register(plugin, name=ep.name)
        except (pluggy.PluginValidationError, ValueError) as exc:
            problems.append(PluginProblem(ep.name, package, f"invalid: {exc}"))
        except BaseException as exc:  # its attributes fail to be read (a module __getattr__ that raises)
            problems.append(PluginProblem(ep.name, package, f"cannot be read: {failure(exc)}"))


def trace(pm: pluggy.PluginManager) -> None:
    """Print each hook call to stderr as it happens: the hook, its arguments, who answers, the results.

    For a plugin author asking "is my hook called, and with what?" (datasette's
    ``DATASETTE_TRACE_PLUGINS``): ``TAPETE_TRACE_PLUGINS=1 tapete play ...``."""

    def shown(value: Any) -> str:
        if isinstance(getattr(value, "__self__", None), _Staging):
            return "register"
        text = repr(value)
        return text if len(text) <= 100 else text[:97] + "..."

    def before(hook: str, impls: Sequence[pluggy.HookImpl], kwargs: Mapping[str, Any]) -> None:
        args = ", ".join(f"{key}={shown(value)}" for key, value in kwargs.items())
        print(f"{hook}({args}) -> {', '.join(impl.plugin_name for impl in impls)}", file=sys.stderr)

    def after(
        outcome: pluggy.Result[Any], hook: str, impls: Sequence[pluggy.HookImpl], kwargs: Mapping[str, Any]
    ) -> None:
        if outcome.exception is not None:
            print(f"  {hook} raised {type(outcome.exception).__name__}: {outcome.exception}", file=sys.stderr)
        elif outcome.get_result() not in (None, []):
            print(f"  {hook} returned {shown(outcome.get_result())}", file=sys.stderr)

    pm.add_hookcall_monitoring(before, after)


def build_registry(extra_plugins: Iterable[object] = (), entry_points: bool = True) -> Registry:
    """The registry of the installed plugins (and ``extra_plugins``), every game's record complete.

    Each plugin's registrations are staged first and committed only if the whole of its
    hooks ran: a plugin that fails half-way adds nothing. A name another plugin took
    first (a game, a bot of a game, a layout, a variant folder, a rule word) is left out
    and described in ``problems``; a game left out takes its record's bots and layout
    with it."""
    problems: list[PluginProblem] = []
    dists: dict[str, tuple[str, str]] = {}
    pm = make_manager(extra_plugins, entry_points, problems, dists)
    reg = Registry(pm)
    reg.problems, reg.dists = problems, dists
    owner: dict[tuple[str, Any], str] = {}
    declared: dict[str, tuple[GameRecord, bool]] = {}  # name -> (record, built by the adapter of the old hooks)
    for name, plugin in list(pm.list_name_plugin()):
        if plugin is None:
            continue
        staging = _Staging(reg, declared, name)
        package = reg.package_of(name)
        try:
            for hook in REGISTRATION_HOOKS:
                call_one(pm, hook, plugin, register=getattr(staging, hook))
        except BaseException as exc:  # a plugin failing while it registers is left out, the rest load
            problems.append(PluginProblem(name, package, f"failed while registering: {failure(exc)}"))
            pm.unregister(plugin)
            continue
        refused: set[str] = set()  # games of this plugin's records that another plugin registered first
        lost = {
            key: owner[("game", key)] for kind, key, _, _ in staging.staged if kind == "game" and ("game", key) in owner
        }
        lost = {game: first for game, first in lost.items() if first != name}
        for kind, key, apply, game in staging.staged:
            if game in refused:
                continue
            target = key if kind == "layout" else key[0] if kind in ("bot", "word") else None
            if kind != "game" and (game in lost or target in lost):
                continue  # a bot, word or layout for a game this plugin does not get: said with the game
            if kind == "variants" and lost:
                reg.foreign_games[key] = (name, lost)  # its variants of those games are left out too
            first = owner.get((kind, key))
            if first is not None and first != name:
                also = " (and its variants, bots, words and layout for that game)" if kind == "game" else ""
                problems.append(
                    PluginProblem(
                        name,
                        package,
                        f"registers {_WHAT[kind]} {_key_text(key)!r}, already registered by {first!r}; ignored{also}",
                    )
                )
                if kind == "game" and game is not None:
                    refused.add(game)
                continue
            owner[(kind, key)] = name
            apply()
    _complete_records(reg, declared)
    for hook in ("tapete_deal_started", "tapete_deal_scored", "tapete_match_ended"):
        if getattr(pm.hook, hook).get_hookimpls():
            reg.lifecycle.add(hook)
    return reg


_WHAT = {"game": "game", "bot": "bot", "word": "rule word", "variants": "variant folder", "layout": "layout"}


def _key_text(key: Any) -> str:
    return "/".join(str(k) for k in key if k is not None) if isinstance(key, tuple) else str(key)


def call_one(pm: pluggy.PluginManager, hook: str, plugin: object, **kwargs: Any) -> None:
    """Call ``plugin``'s implementation of ``hook`` alone, through pluggy (so tracing sees it)."""
    if not any(impl.plugin is plugin for impl in getattr(pm.hook, hook).get_hookimpls()):
        return
    others = [p for _, p in pm.list_name_plugin() if p is not None and p is not plugin]
    pm.subset_hook_caller(hook, remove_plugins=others)(**kwargs)


class _Staging:
    """One plugin's registrations, staged; its methods are the ``register`` callbacks of its hooks.

    Each staged item is ``(kind, key, apply, game)``: ``game`` names the record an item
    came with, so that a refused game takes its pieces along."""

    def __init__(self, reg: Registry, declared: dict[str, tuple[GameRecord, bool]], plugin: str) -> None:
        self.reg, self.declared, self.plugin = reg, declared, plugin
        self.staged: list[tuple[str, Any, Callable[[], None], str | None]] = []
        self.tracing = bool(os.environ.get(TRACE_ENV))

    def _stage(self, kind: str, key: Any, apply: Callable[[], None], game: str | None = None) -> None:
        if self.tracing:
            print(f"  {self.plugin} registers {_WHAT[kind]} {_key_text(key)}", file=sys.stderr)
        self.staged.append((kind, key, apply, game))

    def tapete_register_games(self, game: GameRecord | type[Game], name: str | None = None) -> None:
        if isinstance(game, GameRecord):
            if name is not None and name != game.name:
                raise TapeteError(f"register(GameRecord({game.name!r}, ...), name={name!r}): the record names the game")
            self._record(game, adapted=False)
        else:  # the old way, a class under its own or a member's name: the adapter makes its record
            self._record(GameRecord(name or game.name, game), adapted=True)

    def _record(self, record: GameRecord, adapted: bool) -> None:
        game = record.name

        def commit() -> None:
            self.declared[game] = (record, adapted)
            self.reg.games[game] = record.family

        self._stage("game", game, commit, game)
        for folder in record.variants:
            self.tapete_register_variants(folder, game)
        for bot_name, factory in record.bots.items():
            self.tapete_register_bots(bot_name, factory, game, _record=game)
        if record.layout is not None:
            self.tapete_register_layouts(game, record.layout, _record=game)

    def tapete_register_variants(self, directory: Folder, _record: str | None = None) -> None:
        path = Path(str(directory))
        if paths.exists(path) and not paths.is_dir(path):  # a file or a device: listing it would read it, or hang
            raise TapeteError(f"the variants folder {str(path)!r:.80} is not a folder")
        self._stage("variants", path, lambda: self.reg.variant_dirs.append(path), _record)

    def tapete_register_bots(
        self, name: str, factory: Callable[..., Any], game: str | None = None, _record: str | None = None
    ) -> None:
        check_bot_name(name)  # a name a --bots list can hold: not '42', not 'a,b'
        if not callable(factory):
            raise TapeteError(
                f"bot {name!r}: the factory must be callable as factory(game, seat, rng), not {factory!r:.60}"
            )
        entry = BotEntry(name, factory, game, self.plugin)

        def commit() -> None:
            self.reg.bots[(game, name)] = entry

        self._stage("bot", (game, name), commit, _record)

    def tapete_register_vocabulary(self, game: str | None, item: StatementSpec | Quantity | Function) -> None:
        if not isinstance(item, StatementSpec | Quantity | Function):
            raise TapeteError(
                f"a word is a tapete.StatementSpec, Quantity or Function, not {type(item).__name__} {item!r:.60}"
            )
        if game is not None and not isinstance(game, str):
            raise TapeteError(f"a word's game is a game's name or None (every game), not {game!r:.60}")

        def commit() -> None:
            self.reg.vocab.setdefault(game, Vocabulary()).add(item)

        self._stage("word", (game, getattr(item, "name", "?")), commit)

    def tapete_register_layouts(self, game: str, layout: Any, _record: str | None = None) -> None:
        def commit() -> None:
            self.reg.layouts[game] = layout

        self._stage("layout", game, commit, _record)


def _complete_records(reg: Registry, declared: dict[str, tuple[GameRecord, bool]]) -> None:
    """Each game's record with every bot offered to it and its layout: what a `Variant` carries.

    A record a plugin wrote names its layout; a game registered the old way gets the layout
    registered under its own name, else the one under its family's name, as before records."""
    shared = {n: e.factory for (g, n), e in reg.bots.items() if g is None}
    for name, (record, adapted) in declared.items():
        own = {n: e.factory for (g, n), e in reg.bots.items() if g == name}
        layout = reg.layouts.get(name) or (reg.layouts.get(record.family.name) if adapted else None)
        reg.records[name] = replace(record, bots={**shared, **own}, layout=layout)


_DEFAULT: Registry | None = None


def registry() -> Registry:
    """The process-wide registry of installed plugins, built on first use."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = build_registry()
    return _DEFAULT
