"""A plugin package adds ``tapete <cmd>`` (``tapete_register_commands``), and ``--help`` stays cheap.

A fake installed package (a ``*.dist-info`` folder with an ``entry_points.txt``) is put on
PYTHONPATH for real ``tapete`` subprocesses, each with a cache directory of its own.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DEALER = '''
import typer

from tapete import TapeteError, hookimpl, load_variant


@hookimpl
def tapete_register_commands(app):
    @app.command()
    def deck_size(variant: str = typer.Argument(..., help="a registered variant")) -> None:
        """Print how many cards a variant deals with."""
        if variant == "none":
            raise TapeteError("no such deck: none")
        print(len(load_variant(variant).rules.deck))

    @app.command("play")
    def my_play() -> None:
        """A second 'play', which tapete refuses."""
        print("not tapete's play")
'''

PROBE = (
    "import atexit, json, sys\n"
    "atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))\n"
    "sys.argv = ['tapete', *sys.argv[1:]]\n"
    "from tapete.cli import app\n"
    "app(prog_name='tapete')\n"
)


def install(site: Path, name: str, source: str) -> None:
    (site / f"{name}.py").write_text(source, encoding="utf-8")
    info = site / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[tapete]\n{name} = {name}\n", encoding="utf-8")


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    site = tmp_path / "site"
    site.mkdir()
    install(site, "dealer_tools", DEALER)
    return {
        **os.environ,
        "PYTHONPATH": str(site) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        "TAPETE_CACHE_DIR": str(tmp_path / "cache"),
        "COLUMNS": "200",
    }


def tapete(env: dict[str, str], *args: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """Run ``tapete ARGS``; return the process and the modules it had loaded when it exited."""
    work = Path(env["TAPETE_CACHE_DIR"]).parent / "work"  # the folder the command runs in (on sys.path, as '')
    work.mkdir(exist_ok=True)
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env, cwd=work, timeout=120
    )
    *stderr, modules = proc.stderr.splitlines() or [""]
    proc.stderr = "\n".join(stderr)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    return proc, json.loads(modules)


def test_a_plugin_command_runs_with_tapetes_error_handling(env):
    ran, _ = tapete(env, "deck-size", "fantan/pagat")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "52"
    failed, _ = tapete(env, "deck-size", "none")
    assert failed.returncode == 1
    assert failed.stderr.splitlines()[-1] == "no such deck: none"  # one line, after the clash warning


def test_help_lists_the_plugin_command_and_once_listed_loads_no_plugin(env):
    cold, _ = tapete(env, "--help")
    assert cold.returncode == 0
    assert "deck-size" in cold.stdout and "Print how many cards a variant deals with." in cold.stdout
    warm, modules = tapete(env, "--help")
    assert warm.stdout == cold.stdout
    assert "pluggy" not in modules and "dealer_tools" not in modules and "tapete.plugins" not in modules


def test_installing_or_removing_a_plugin_changes_help_at_once(env, tmp_path):
    tapete(env, "--help")
    site = tmp_path / "site"
    more = DEALER.replace("deck_size", "card_count").replace('@app.command("play")', '@app.command("more")')
    install(site, "more_tools", more)
    added, _ = tapete(env, "--help")
    assert "card-count" in added.stdout and "deck-size" in added.stdout
    shutil.rmtree(site / "dealer_tools-0.1.dist-info")
    removed, _ = tapete(env, "--help")
    assert "deck-size" not in removed.stdout and "card-count" in removed.stdout


def test_a_command_name_tapete_uses_is_refused_with_a_warning(env):
    played, _ = tapete(env, "play", "fantan/pagat", "-q")
    assert played.returncode == 0 and "Winner: seat" in played.stdout  # tapete's play, no plugin loaded for it
    asked, _ = tapete(env, "deck-size", "fantan/pagat")
    assert "plugin 'dealer_tools' (dealer_tools): command 'play' is taken; ignored" in asked.stderr


def test_an_unknown_command_loads_the_plugins_then_says_so():
    proc = subprocess.run(
        [sys.executable, "-m", "tapete", "no-such-command"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 2 and "No such command 'no-such-command'" in proc.stderr
