"""Broken third-party plugins: left out, reported once, and the rest of tapete works.

A fake installed package (a ``*.dist-info`` folder with an ``entry_points.txt``)
is put on PYTHONPATH for a real ``tapete`` subprocess.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tapete import ErrorList, build_registry, hookimpl, load_variant
from tapete.plugins.loader import PluginProblem

MISSPELT = """
from tapete import hookimpl

@hookimpl
def tapete_register_bot(register):
    pass
"""
IMPORT_ERROR = "import no_such_module_anywhere\n"
CLASH = """
from tapete import hookimpl
from tapete_plugins.fantan.game import FanTan

class Impostor(FanTan):
    pass

@hookimpl
def tapete_register_games(register):
    register(Impostor)
"""
RAISES = """
from tapete import hookimpl

@hookimpl
def tapete_register_bots(register):
    raise RuntimeError("no config file")
"""


def install(tmp_path, plugins: dict[str, str]) -> dict[str, str]:
    for name, source in plugins.items():
        (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
        info = tmp_path / f"{name}-0.3.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.3\n", encoding="utf-8")
        (info / "entry_points.txt").write_text(f"[tapete]\n{name} = {name}\n", encoding="utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tmp_path) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def run(env, *args):
    proc = subprocess.run(
        [sys.executable, "-m", "tapete", *args], capture_output=True, text=True, env=env, encoding="utf-8"
    )
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    return proc


def test_broken_plugins_are_listed_with_the_reason_and_the_rest_works(tmp_path):
    env = install(tmp_path, {"misspelt": MISSPELT, "brokenimport": IMPORT_ERROR, "clash": CLASH, "raises": RAISES})
    listed = run(env, "plugins")
    assert listed.returncode == 0
    lines = listed.stdout.splitlines()
    for line in [
        "broken: plugin 'misspelt' (misspelt): unknown hook 'tapete_register_bot'"
        " (did you mean 'tapete_register_bots'?)",
        "broken: plugin 'brokenimport' (brokenimport): cannot be imported: ModuleNotFoundError: "
        "No module named 'no_such_module_anywhere'",
        "broken: plugin 'raises' (raises): failed while registering: RuntimeError: no config file",
        "clash: plugin 'clash' (clash): registers game 'fantan', already registered by 'fantan'; ignored"
        " (and its variants, bots, words and layout for that game)",
    ]:
        assert line in lines
    assert "fantan" in listed.stdout and "games: " in listed.stdout
    played = run(env, "play", "fantan/pagat", "-q")
    assert played.returncode == 0 and "Winner: seat" in played.stdout
    warnings = played.stderr.splitlines()
    assert len(warnings) == 4  # each problem once
    assert warnings[0].startswith("warning: plugin ")


class Misspelt:
    @hookimpl
    def tapete_deal_startd(self, match, state):
        pass


def test_a_misspelt_hook_handed_over_in_code_fails_at_once_with_a_suggestion():
    from pluggy import PluginValidationError

    with pytest.raises(PluginValidationError, match="did you mean 'tapete_deal_started'"):
        build_registry([Misspelt()])


class NoMoves:
    """A game plugin with a bug: its deal offers no legal action."""

    @hookimpl
    def tapete_register_games(self, register):
        from tapete_plugins.fantan.game import FanTan

        class Stuck(FanTan):
            name = "stuck"

            def legal_actions(self, state):
                return []

        register(Stuck)


def test_a_game_offering_no_legal_move_is_named_not_an_index_error(tmp_path):
    from tapete import Match, TapeteError

    reg = build_registry([NoMoves()])
    pagat = load_variant("fantan/pagat")
    for file in pagat.spec.files:  # pagat's own files, for the game 'stuck'
        text = file.read_text(encoding="utf-8").replace("game: fantan", "game: stuck")
        (tmp_path / file.name).write_text(text.replace("game fantan", "game stuck"), encoding="utf-8")
    try:
        variant = load_variant(tmp_path / "pagat.yaml", reg)
    except ErrorList as exc:  # pragma: no cover - shows what went wrong
        raise AssertionError(str(exc)) from None
    with pytest.raises(TapeteError, match="offers seat .* no legal move .*a bug in the game plugin"):
        Match(variant, 4, seed=1).play()


def test_plugin_problem_reads_as_one_line():
    assert str(PluginProblem("x", "pkg", "cannot be imported")) == "plugin 'x' (pkg): cannot be imported"
