"""The inventory: every option of every command, and every parameter of the public API, goes through a reader.

Each wave of hostile input found the same classes of bad input again on whatever was
added since, because a new option started unguarded. This test walks the whole command
line (tapete's commands, its own plugin's, every installed plugin's) and the entry points
a researcher calls, and fails on a parameter that is not declared through one of the
readers of `tapete.core.inputs` (`tapete.cli.params` on the command line, `declare` in
the API), unless it is listed below as a plain flag whose behaviour a test covers. A
second pair of tests adds an unguarded option and an unguarded function on purpose and
checks that the inventory names exactly them.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

from tapete.cli.params import reader_of
from tapete.core.inputs import KINDS, declare, declared

# Plain flags: on or off, nothing to read. Each is listed with the test that covers what it does.
PLAIN = {
    "tapete --version": "tests/test_startup.py (prints the version)",
    "tapete play --quiet": "tests/test_hostile_cli.py (quiet matches)",
    "tapete play --force": "tests/test_new_deal_and_safe_saves.py, tests/test_outputs.py (--save and --log)",
    "tapete play --watch": "tests/test_table.py (the table prints every move)",
    "tapete resume --watch": "tests/test_match_resume.py",
    "tapete simulate --quiet": "tests/test_simulate.py",
    "tapete rules --ids": "tests/test_rulebook.py (rule ids beside each rule)",
    "tapete diff --json": "tests/test_diff.py (differences as JSON)",
    "tapete report --no-ladder": "tests/test_report.py",
    "tapete report --quiet": "tests/test_report.py",
    "tapete report --force": "tests/test_outputs.py (replaces a file that is not a tapete report)",
    "tapete rules --force": "tests/test_outputs.py (the output-path property: --force on every state)",
    "tapete simulate --force": "tests/test_outputs.py (replaces a person's --json/--csv, never an input)",
    "tapete tournament --force": "tests/test_outputs.py (the slow sweep of every output option)",
    "tapete report --until-decided": "tests/test_until_decided.py (rounds until every difference is decided)",
    "tapete tournament --until-decided": "tests/test_until_decided.py",
}

# An option that cannot have its reader yet would be listed here, with the reason; none is.
PENDING: set[str] = set()  # options waiting for a reader; none now


def walk(command: Any, path: tuple[str, ...] = ("tapete",)) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every command under ``command`` (itself first), with its path of names."""
    yield path, command
    subcommands = getattr(command, "commands", None)
    if isinstance(subcommands, dict):
        for name in sorted(subcommands):
            yield from walk(subcommands[name], (*path, name))


def label(path: tuple[str, ...], param: Any) -> str:
    opts = [o for o in getattr(param, "opts", []) if o.startswith("--")]
    return " ".join(path) + " " + (opts[0] if opts else param.name)


def unguarded_options(root: Any, allowed: set[str]) -> list[str]:
    """Every option or argument under ``root`` without a reader and not in ``allowed``."""
    found = []
    for path, command in walk(root):
        for param in getattr(command, "params", []):
            if reader_of(param) is not None or label(path, param) in allowed:
                continue
            found.append(label(path, param))
    return found


def whole_app() -> Any:
    """tapete's click tree with the installed plugins' commands loaded too."""
    from tapete.cli.main import app

    root = typer.main.get_command(app)
    root.add_plugin_commands(load=True)
    return root


def test_every_option_of_every_command_goes_through_a_reader():
    root = whole_app()
    names = {" ".join(p) for p, _ in walk(root)}
    assert {"tapete play", "tapete simulate", "tapete report", "tapete tournament", "tapete new variant"} <= names
    assert unguarded_options(root, set(PLAIN) | PENDING) == []


def test_the_allowed_lists_name_only_real_options():
    """A plain flag or pending option that no longer exists is taken off the lists, not left to hide one."""
    root = whole_app()
    every = {label(path, param) for path, command in walk(root) for param in getattr(command, "params", [])}
    assert set(PLAIN) - every == set()
    assert PENDING - every == set()
    for name in PLAIN:
        (param,) = [p for path, c in walk(root) for p in c.params if label(path, p) == name]
        assert getattr(param, "is_flag", False), f"{name} is listed as a plain flag but takes a value"


def test_the_inventory_reports_an_unguarded_option_added_on_purpose():
    from tapete.cli import params

    app = typer.Typer(add_completion=False)

    @app.command()
    def guarded(games: int = params.games_option(5, "matches")) -> None:
        """A command whose option goes through its reader."""

    @app.command()
    def careless(
        games: int = params.games_option(5, "matches"),
        limit: int = typer.Option(3, "--limit"),  # no reader: the inventory must see it
        out: Path = typer.Argument(...),
    ) -> None:
        """A command with two parameters declared without a reader."""

    root = typer.main.get_command(app)
    assert unguarded_options(root, set()) == ["tapete careless --limit", "tapete careless out"]


def test_a_plugin_command_is_walked_like_tapete_s_own():
    """A plugin's command (added through the commands hook) is part of the tree the inventory walks."""
    from tapete.cli.plugin import tapete_register_commands

    sub = typer.Typer(add_completion=False)
    tapete_register_commands(sub)  # tapete's own plugin, attached the way an installed plugin's are

    @sub.command("deck-size")
    def deck_size(variant: str = typer.Argument(...)) -> None:
        """A plugin command whose argument has no reader."""

    root = typer.main.get_command(sub)
    assert {"deck-size", "simulate", "report"} <= set(root.commands)
    assert unguarded_options(root, set(PLAIN) | {"tapete simulate --quiet", "tapete tournament --quiet"}) == [
        "tapete deck-size variant"
    ]


# -- the public API -------------------------------------------------------------------------------
def entry_points() -> dict[str, Callable[..., Any]]:
    """The functions and constructors a researcher calls, by the name they are reached with."""
    import tapete
    import tapete.pettingzoo as pz
    import tapete.rl as rl
    from tapete.search.ismcts import ISMCTSBot
    from tapete.simulation.tournament import round_robin

    return {
        "tapete.load_variant": tapete.load_variant,
        "tapete.Variant.new_deal": tapete.Variant.new_deal,
        "tapete.Variant.deal_from_snapshot": tapete.Variant.deal_from_snapshot,
        "tapete.Deal.observe": tapete.Deal.observe,
        "tapete.Deal.view": tapete.Deal.view,
        "tapete.Deal.play": tapete.Deal.play,
        "tapete.Deal.action": tapete.Deal.action,
        "tapete.Action.parse": tapete.Action.parse,
        "tapete.Match": tapete.Match.__init__,
        "tapete.simulate": tapete.simulate,
        "tapete.simulation.tournament.round_robin": round_robin,
        "tapete.rl.env": rl.env.__init__,
        "tapete.rl.env.reset": rl.LearnerEnv.reset,
        "tapete.rl.env.step": rl.LearnerEnv.step,
        "tapete.pettingzoo.env": pz.env,
        "tapete.pettingzoo.TapeteEnv": pz.TapeteEnv.__init__,
        "tapete.pettingzoo.TapeteEnv.reset": pz.TapeteEnv.reset,
        "tapete.pettingzoo.TapeteEnv.step": pz.TapeteEnv.step,
        "tapete.pettingzoo.TapeteEnv.observe": pz.TapeteEnv.observe,
        "tapete.pettingzoo.TapeteEnv.seed": pz.TapeteEnv.seed,
        "tapete.search.ismcts.ISMCTSBot": ISMCTSBot.__init__,
    }


def undeclared(functions: dict[str, Callable[..., Any]]) -> list[str]:
    """``name(parameter)`` for every parameter of ``functions`` that no reader is declared for."""
    found = []
    for name, fn in functions.items():
        kinds = declared(fn)
        for param in inspect.signature(fn).parameters.values():
            if param.name in ("self", "cls") or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                continue
            if kinds.get(param.name) not in KINDS:
                found.append(f"{name}({param.name})")
    return found


def test_every_parameter_of_the_public_api_is_declared_through_a_reader():
    assert undeclared(entry_points()) == []


# Constructors of tapete.__all__ that take a seed or a player count but are plumbing, not an entry point:
# a researcher gets these objects from the entry points above, already checked.
PLUMBING = {
    "Deal": "made by Variant.new_deal and Variant.deal_from_snapshot",
    "DealState": "a deal's state, made by the deal; a snapshot of it is read by deal_from_snapshot",
    "Ledger": "the match's score sheet, made by Match",
    "Random": "a random stream: any printable seed makes one, and it runs in every rollout (hot)",
    "MatchRecord": "one simulated match's record, made by simulate",
    "GameRecord": "what a plugin registers; checked when registered (tests/test_hostile_plugins.py)",
}


def test_the_callables_of_tapete_s_facade_that_run_a_game_are_in_the_inventory():
    """A function added to ``tapete.__all__`` that takes a variant, seed or bots joins the entry points."""
    import tapete

    listed = set(entry_points().values())
    watched = {"variant", "name_or_path", "seed", "bots", "players", "games"}
    missing = []
    for name in tapete.__all__:
        obj = getattr(tapete, name)
        for member in [obj, getattr(obj, "__init__", None)] if inspect.isclass(obj) else [obj]:
            if not inspect.isfunction(member):
                continue
            params = set(inspect.signature(member).parameters)
            if params & watched and member not in listed and name not in PLUMBING:
                missing.append(name)
    assert missing == []


def test_the_inventory_reports_an_undeclared_api_parameter_added_on_purpose():
    @declare(games="count")
    def half_declared(games: int, seed: object = 0) -> None:
        """``seed`` has no reader."""

    def careless(variant: str) -> None:
        """Nothing is declared."""

    assert undeclared({"half": half_declared, "careless": careless}) == ["half(seed)", "careless(variant)"]


def test_a_declaration_names_a_kind_of_reader():
    with pytest.raises(ValueError, match="unknown kind of input 'number'"):
        declare(games="number")
