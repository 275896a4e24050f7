"""The plugins' commands (``tapete_register_commands``), found without slowing ``tapete --help``.

Knowing which commands the plugins add means importing every installed plugin through
pluggy, which costs several times what the rest of ``--help`` does. So the command line
does it only when it must:

* tapete's own commands (``simulate``, ``new``) are attached by tapete's own plugin
  (`tapete.cli.plugin`), called directly when the app is built, without the plugin
  manager;
* a first argument that is not one of them (``tapete mycmd ...``) loads the plugins and
  their commands, and runs the command;
* ``tapete --help`` lists the plugins' commands from the list the last load wrote to the
  cache directory (`tapete.core.cache`). The list is used only while nothing it was
  made from has changed: the folders on ``sys.path`` (installing or removing any package
  changes its folder) and the files of the plugins that were loaded (editing a plugin
  installed in place). Otherwise ``--help`` loads the plugins and writes the list again,
  so it is never out of date, and usually costs a few ``stat`` calls.

A plugin's commands run under the same error handling as tapete's own (`guarded`), and a
name already taken is refused with a warning.
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib
from contextlib import suppress
from pathlib import Path
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

CACHE_FORMAT = 1
HOOK = "tapete_register_commands"


class _Listed(TyperCommand):
    """A plugin command as the cached list shows it in ``--help``; running it loads the real one."""


class CommandGroup(TyperGroup):
    """The ``tapete`` group: its own commands, and the plugins' when they are asked for."""

    plugins = ""  # "": not looked for yet; "listed": names and help from the cache; "loaded"

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command line; an option a reader refused (`tapete.cli.params`) ends in its one message.

        The readers run while the command line is parsed, before any command's own error
        handling: a refusal (a `TapeteError`) is printed here as one plain line, exit code 1,
        the way every bad input ends, rather than as a usage box or a traceback."""
        from ..core.errors import TapeteError

        try:
            return super().main(*args, **kwargs)
        except TapeteError as exc:
            from .main import EXIT_INPUT, console

            console(stderr=True).print(str(exc))
            sys.exit(EXIT_INPUT)

    def list_commands(self, ctx: Any) -> list[str]:
        self.add_plugin_commands(load=False)
        return super().list_commands(ctx)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and (args[0] not in self.commands or isinstance(self.commands[args[0]], _Listed)):
            self.add_plugin_commands(load=True)
        return super().resolve_command(ctx, args)

    def add_plugin_commands(self, load: bool) -> None:
        """Add the plugins' commands: from the cached list, or (``load``, or no sound list) for real."""
        if self.plugins == "loaded" or (self.plugins == "listed" and not load):
            return
        if not load:
            listed = read_list()
            if listed is not None:
                for entry in listed:
                    self.commands.setdefault(entry["name"], _placeholder(entry))
                self.plugins = "listed"
                return
        for name in [n for n, c in self.commands.items() if isinstance(c, _Listed)]:
            del self.commands[name]
        found, files = load_commands(set(self.commands))
        self.commands.update(found)
        write_list(found, files)
        self.plugins = "loaded"


def _placeholder(entry: dict[str, Any]) -> _Listed:
    command = _Listed(name=entry["name"], help=entry["help"], hidden=entry["hidden"], rich_help_panel=entry["panel"])
    command.deprecated = entry["deprecated"]
    return command


def load_commands(taken: set[str]) -> tuple[dict[str, Any], list[str]]:
    """Every installed plugin's commands (name -> click command), and the files they came from.

    Each plugin gets a ``typer.Typer`` of its own, so that its commands are told apart; a
    plugin failing in the hook, or a name taken already, is a warning and the rest load."""
    from ..plugins.loader import call_one, registry
    from .main import guard_all

    reg = registry()
    found: dict[str, Any] = {}
    files: set[str] = set()
    for name, plugin in reg.pm.list_name_plugin():
        if plugin is None:
            continue
        source = _source(plugin)
        if source is not None:
            files.add(source)
        sub = typer.Typer()
        try:
            call_one(reg.pm, HOOK, plugin, app=sub)
        except Exception as exc:  # a plugin's fault: the others' commands still load
            _warn(f"plugin {name!r} ({reg.package_of(name)}): failed adding commands: {type(exc).__name__}: {exc}")
            continue
        if not (sub.registered_commands or sub.registered_groups):
            continue
        guard_all(sub)
        for command_name, command in typer.main.get_group(sub).commands.items():
            if command_name in taken or command_name in found:
                _warn(f"plugin {name!r} ({reg.package_of(name)}): command {command_name!r} is taken; ignored")
                continue
            found[command_name] = command
    return found, sorted(files)


def _warn(message: str) -> None:
    from .main import console

    console(stderr=True).print(f"warning: {message} ('tapete plugins' lists the plugins)")


def _source(plugin: object) -> str | None:
    """The file a plugin (a module, or an object of a class) is defined in."""
    module = plugin if isinstance(getattr(plugin, "__file__", None), str) else sys.modules.get(type(plugin).__module__)
    file = getattr(module, "__file__", None)
    return file if isinstance(file, str) else None


# -- the list in the cache directory --------------------------------------------------------
def list_path() -> Path | None:
    """The cached list for this interpreter and ``sys.path`` (another environment keeps its own).

    It is written with `marshal`, Python's own format for its compiled files, which reads
    without importing anything (``json`` would cost ``--help`` more than the list saves)."""
    from ..core.cache import cache_dir

    directory = cache_dir()
    if directory is None:
        return None
    key = "\n".join([sys.executable, *sys.path]).encode("utf-8", "surrogateescape")
    return directory / f"commands-{zlib.crc32(key):08x}{zlib.adler32(key):08x}.marshal"


def _stamps(paths: list[str]) -> list[list[Any]]:
    """``[path, modification time]`` of each path (None: missing), what the list is valid for."""
    out: list[list[Any]] = []
    for path in paths:
        try:
            out.append([path, os.stat(path or ".").st_mtime_ns])
        except OSError:
            out.append([path, None])
    return out


def read_list() -> list[dict[str, Any]] | None:
    """The plugins' commands as last loaded, or None when there is no list or it is out of date."""
    path = list_path()
    if path is None:
        return None
    try:
        data = marshal.loads(path.read_bytes())
        if data["format"] != CACHE_FORMAT or data["path"] != _stamps(sys.path):
            return None
        if data["files"] != _stamps([f for f, _ in data["files"]]):
            return None
        commands: list[dict[str, Any]] = data["commands"]
        return commands
    except (OSError, ValueError, KeyError, TypeError, EOFError):  # missing, or another format: load again
        return None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None  # typer's defaults are placeholder objects


def write_list(found: dict[str, Any], files: list[str]) -> None:
    path = list_path()
    if path is None:
        return
    from ..core.cache import write_whole

    commands = [
        {
            "name": name,
            "help": _text(command.short_help) or _text(command.help) or "",
            "hidden": bool(command.hidden),
            "deprecated": bool(getattr(command, "deprecated", False)),
            "panel": _text(getattr(command, "rich_help_panel", None)),
        }
        for name, command in found.items()
    ]
    with suppress(OSError):  # made before the stamps are taken: a new folder changes its parent's time
        path.parent.mkdir(parents=True, exist_ok=True)
    data = {"format": CACHE_FORMAT, "path": _stamps(sys.path), "files": _stamps(files), "commands": commands}
    write_whole(path, marshal.dumps(data))
