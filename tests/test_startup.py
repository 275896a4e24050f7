"""Starting tapete loads only what the command needs (how fast it is goes to bench/startup.py).

``import tapete`` loads nothing heavy: the public names are imported on first use.
``tapete --help`` and ``--version`` build no rule parser, read no YAML, load no plugin
and scan no entry points; the commands that need them import them themselves.
These tests watch which modules a fresh process has loaded, not the clock.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import tapete
from tapete.cli.main import app

# (typer's rich help imports importlib.metadata through pygments; no pluggy means no entry points were scanned)
HEAVY = ("lark", "yaml", "pluggy", "tapete_plugins", "tapete.play", "tapete.plugins", "tapete.search", "tapete.table")


def loaded_after(code: str, *argv: str, cache: Path | None = None) -> tuple[list[str], str]:
    """Run ``code`` in a fresh Python; return the modules it had loaded when it exited, and its stdout.

    ``cache``: the cache directory it uses (it runs in a folder beside it)."""
    probe = (
        "import atexit, json, sys\n"
        "atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))\n"
        f"sys.argv = ['tapete', *{list(argv)!r}]\n" + code
    )
    env, cwd = None, None
    if cache is not None:
        env, cwd = {**os.environ, "TAPETE_CACHE_DIR": str(cache)}, cache.parent / "work"
        cwd.mkdir(exist_ok=True)
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, env=env, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stderr.splitlines()[-1]), proc.stdout


def heavy(modules: list[str], names: tuple[str, ...] = HEAVY) -> list[str]:
    return [m for m in modules if any(m == n or m.startswith(n + ".") for n in names)]


def test_import_tapete_loads_no_parser_yaml_rich_or_game_plugin():
    modules, _ = loaded_after("import tapete")
    assert heavy(modules, (*HEAVY, "rich")) == []
    assert [m for m in modules if m.startswith("tapete.")] == []


def test_help_lists_every_command_without_loading_the_parser_yaml_or_the_plugins(tmp_path):
    """The first ``--help`` after an install loads the plugins once, to list their commands
    (tests/test_plugin_commands.py); after that the list comes from the cache directory."""
    help_ = ("from tapete.cli import app\napp(prog_name='tapete')", "--help")
    _, first = loaded_after(*help_, cache=tmp_path / "cache")
    modules, out = loaded_after(*help_, cache=tmp_path / "cache")
    assert out == first
    assert heavy(modules) == []
    names = [c.name or c.callback.__name__ for c in app.registered_commands] + [g.name for g in app.registered_groups]
    assert len(names) >= 10
    for name in names:
        assert f" {name} " in out, f"{name} is missing from tapete --help"


def test_version_prints_the_version_without_rich():
    modules, out = loaded_after("from tapete.cli import app\napp(prog_name='tapete')", "--version")
    assert out == tapete.__version__ + "\n"
    assert heavy(modules, ("rich", "lark", "yaml", "pluggy", "tapete_plugins")) == []


def test_every_public_name_still_comes_from_tapete():
    from importlib import import_module

    assert sorted(tapete._HOME) == sorted(tapete.__all__)
    for name in tapete.__all__:
        assert getattr(tapete, name) is getattr(import_module(tapete._HOME[name], "tapete"), name)
        assert name in dir(tapete)
    namespace: dict[str, object] = {}
    exec("from tapete import *", namespace)
    assert set(tapete.__all__) <= set(namespace)
    try:
        tapete.NoSuchName  # noqa: B018
    except AttributeError as exc:
        assert "NoSuchName" in str(exc)
    else:
        raise AssertionError("tapete.NoSuchName did not raise AttributeError")


def test_loading_and_playing_a_variant_imports_neither_the_terminal_nor_the_search():
    """A headless match (a simulation worker's whole job) loads no rich, no terminal table, no search."""
    modules, out = loaded_after(
        "from tapete import Match, load_variant\n"
        "v = load_variant('chinchon/fournier')\n"
        "print(Match(v, 2, 1, bots=['heuristic', 'random']).play().winner)"
    )
    assert out.strip() in {"0", "1"}
    assert front_ends(modules) == []


def test_a_simulation_imports_neither_the_terminal_nor_the_search():
    modules, out = loaded_after(
        "from tapete import simulate\nprint(len(simulate('fantan/pagat', games=3, seed=1, workers=1).records))"
    )
    assert out.strip() == "3"
    assert front_ends(modules) == []


def front_ends(modules: list[str]) -> list[str]:
    """What of rich, the terminal, the search and the command line is loaded, beyond the front-ends'
    registration plugins (a few lines each, which register their bots lazily)."""
    registering = {"tapete.search", "tapete.search.plugin", "tapete.table", "tapete.table.plugin"}
    return [m for m in heavy(modules, ("rich", "tapete.search", "tapete.table", "tapete.cli")) if m not in registering]
