"""Every module path that moved in 0.2 still works for a user's code, and says where to go.

docs/api.md promises one minor release of grace: ``from tapete.engine import load_variant``
written against 0.1 must keep running, give the very same object as the new path, and warn
at the user's line with the new home. Each old path is found from the files themselves
(a module whose only job is ``moved(...)``), so a path moved later is covered the day it
moves.
"""

from __future__ import annotations

import ast
import importlib
import runpy
import sys
import warnings
from pathlib import Path

import pytest

FRAMEWORK = Path(__file__).resolve().parent.parent / "framework"


def old_paths() -> dict[str, tuple[str, ...]]:
    """Old module name -> the new homes its ``moved(...)`` call lists, read from the source."""
    found: dict[str, tuple[str, ...]] = {}
    for path in sorted(FRAMEWORK.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "moved":
                homes = node.args[1]
                assert isinstance(homes, ast.Tuple)
                found[f"tapete.{path.stem}"] = tuple(ast.literal_eval(e) for e in homes.elts)
    return found


OLD = old_paths()


def public_names(home: str) -> list[str]:
    """A few names a user's code could have imported: ones the new home defines itself."""
    module = importlib.import_module(home)
    own = [
        name
        for name, obj in vars(module).items()
        if not name.startswith("_") and getattr(obj, "__module__", None) == home
    ]
    return own[:3] or [n for n in vars(module) if not n.startswith("_")][:1]


def test_the_old_paths_are_found() -> None:
    assert len(OLD) >= 20 and "tapete.engine" in OLD and "tapete.match" in OLD


@pytest.mark.parametrize("old", sorted(OLD))
def test_an_old_path_gives_the_same_object_and_names_its_new_home(old: str) -> None:
    module = importlib.import_module(old)
    homes = [importlib.import_module(h) for h in OLD[old]]
    for home in OLD[old]:
        for name in public_names(home):
            first = next(h for h in homes if hasattr(h, name))  # the first home that has it answers
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                got = getattr(module, name)
            assert got is getattr(first, name)
            (w,) = caught
            assert w.category is DeprecationWarning
            assert f"{old}.{name} is deprecated since tapete 0.2.0; use {first.__name__}.{name} instead" in str(
                w.message
            )
            assert w.filename == __file__  # at the user's line, not inside tapete


@pytest.mark.parametrize("old", sorted(OLD))
def test_a_name_no_new_home_has_is_an_attribute_error(old: str) -> None:
    module = importlib.import_module(old)
    with pytest.raises(AttributeError, match=f"module '{old}' has no attribute 'no_such_name'"):
        module.no_such_name  # noqa: B018


def test_python_dash_m_tapete_runs_the_command_line(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "argv", ["tapete", "variants"])
    with pytest.raises(SystemExit) as stop:
        runpy.run_module("tapete", run_name="__main__")
    assert stop.value.code in (0, None)
    assert "chinchon/fournier" in capsys.readouterr().out
