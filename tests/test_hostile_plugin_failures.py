"""Plugins that fail in any way, or take a game name already taken: left out whole, said once, the rest works.

A plugin whose import calls ``sys.exit(3)`` made ``tapete variants`` exit 3 with no output;
a plugin reported as ignored for registering a taken game name still had its variants listed
and played on the other plugin's mechanics. Each case runs the real ``tapete`` with a fake
installed package (see ``test_hostile_plugins.install``).
"""

from __future__ import annotations

import pytest
from test_hostile_plugins import install, run

FAILURES = {
    "exits": ("import sys\nsys.exit(3)\n", "cannot be imported: SystemExit: 3"),
    "genexit": ("raise GeneratorExit('stop')\n", "cannot be imported: GeneratorExit: stop"),
    "baseexc": ("class Odd(BaseException):\n    pass\nraise Odd('odd')\n", "cannot be imported: Odd: odd"),
    "regexit": (
        "import sys\nfrom tapete import hookimpl\n\n@hookimpl\ndef tapete_register_bots(register):\n    sys.exit(4)\n",
        "failed while registering: SystemExit: 4",
    ),
    "badattr": (  # the module replaces itself by an object that cannot even list its attributes
        "import sys\n\nclass Weird:\n    def __dir__(self):\n        raise SystemExit(5)\n\n"
        "sys.modules[__name__] = Weird()\n",
        "cannot be read: SystemExit: 5",
    ),
}


@pytest.mark.parametrize(
    "name", [n if n in ("exits", "regexit") else pytest.param(n, marks=pytest.mark.slow) for n in FAILURES]
)
def test_a_plugin_failing_with_any_base_exception_is_listed_as_broken_and_the_rest_works(tmp_path, name):
    source, reason = FAILURES[name]
    env = install(tmp_path, {name: source})
    listed = run(env, "variants")
    assert listed.returncode == 0, listed.stderr
    assert "fantan/pagat" in listed.stdout
    warning = f"warning: plugin {name!r} ({name}): {reason} ('tapete plugins' lists the plugins)"
    assert listed.stderr.splitlines() == [warning]
    plugins = run(env, "plugins")
    assert f"broken: plugin {name!r} ({name}): {reason}" in plugins.stdout.splitlines()
    played = run(env, "play", "fantan/pagat", "-q")
    assert played.returncode == 0 and "Winner: seat" in played.stdout


IMPOSTOR = """
from pathlib import Path
from tapete import hookimpl
from tapete_plugins.fantan.game import FanTan
from tapete_plugins.fantan.bots import SensibleBot

class Impostor(FanTan):
    pass

@hookimpl
def tapete_register_games(register):
    register(Impostor)

@hookimpl
def tapete_register_variants(register):
    register(Path(__file__).parent / "impostor_variants")

@hookimpl
def tapete_register_bots(register):
    register("sneaky", SensibleBot, game="fantan")
    register("own", SensibleBot, game="impostor-only")
"""


def test_a_plugin_whose_game_name_is_taken_loses_its_variants_and_bots_for_that_game(tmp_path):
    env = install(tmp_path, {"impostor": IMPOSTOR})
    folder = tmp_path / "impostor_variants" / "fantan"
    folder.mkdir(parents=True)
    (folder / "x.rules").write_text("row start 7\n", encoding="utf-8")
    (folder / "impostor.yaml").write_text(
        "extends: fantan/pagat\ngame: fantan\nname: impostor\nscripts: [x.rules]\n", encoding="utf-8"
    )
    listed = run(env, "variants")
    assert listed.returncode == 0
    assert "fantan/impostor" not in listed.stdout and "fantan/pagat" in listed.stdout
    said = " ".join(listed.stderr.split())
    assert (
        "impostor.yaml: variant 'fantan/impostor' of plugin 'impostor' is ignored: its game 'fantan' is plugin"
        " 'fantan''s, so it would play on other rules"
    ) in said
    plugins = run(env, "plugins")
    assert (
        "clash: plugin 'impostor' (impostor): registers game 'fantan', already registered by 'fantan'; ignored"
        " (and its variants, bots, words and layout for that game)"
    ) in plugins.stdout.splitlines()
    played = run(env, "play", "fantan/impostor", "-q")
    assert played.returncode == 1 and played.stderr.splitlines()[-1].startswith("no variant 'fantan/impostor'")
    bot = run(env, "play", "fantan/pagat", "-q", "--bots", "sneaky")
    assert bot.returncode == 1 and "no bot 'sneaky' for fantan" in bot.stderr


NAN_SCORER = """
from tapete import hookimpl

@hookimpl
def tapete_deal_scored(match, state, scores):
    scores[0] = float("nan")
"""
NAN_SAYS = "plugin 'nanscore' (nanscore) broke the deal in tapete_deal_scored: seat 0's score is nan (float)"


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "fantan/pagat", "-n", "20", "--workers", "1"),
        pytest.param(("simulate", "fantan/pagat", "-n", "20", "--workers", "2"), marks=pytest.mark.slow),
        pytest.param(
            ("tournament", "fantan/pagat", "--bots", "random,sensible", "--games", "4"), marks=pytest.mark.slow
        ),
        pytest.param(("report", "fantan/pagat", "fantan/nines", "--games", "6", "--no-ladder"), marks=pytest.mark.slow),
    ],
    ids=["simulate", "simulate-workers", "tournament", "report"],
)
def test_a_plugin_that_breaks_every_deal_stops_the_run_with_its_name_not_a_run_of_empty_tables(tmp_path, args):
    """Before, `simulate` printed twenty empty matches and exited 0; a broken plugin is not the game's doing."""
    env = install(tmp_path, {"nanscore": NAN_SCORER})
    if args[0] == "report":  # it would write its page here, were anything played
        args = (*args, "--out", str(tmp_path / "r.html"), "--md", str(tmp_path / "r.md"))
    proc = run(env, *args)
    assert proc.returncode == 1 and not (tmp_path / "r.html").exists()
    assert NAN_SAYS in proc.stderr.strip().splitlines()[-1]
