"""The built-in plugins and the outside example import from tapete only what is public.

A newcomer writes a plugin by copying one of ours, so ours must show the public way: every
``from tapete import X`` names an X of ``tapete.__all__``, and every other import from
tapete names a module docs/api.md lists under "What is public" (``tapete.layout``,
``tapete.hookspecs``, ...) and no ``_private`` name of it. Imports under ``TYPE_CHECKING``
count too: typing a callback against a private class couples the plugin just the same.
What a word author needs (``Env``, ``Statement``, ``constant``, the scopes, ...) is exported
for this reason. The check reads the source with ``ast`` and names the file and line.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import tapete

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    [*(ROOT / "plugins").rglob("*.py"), *(ROOT / "examples/crazy-eights/tapete_crazy_eights").rglob("*.py")]
)


def public_modules() -> set[str]:
    """The modules docs/api.md names in its "What is public" section."""
    text = (ROOT / "docs/api.md").read_text(encoding="utf-8")
    section = text.split("## What is public", 1)[1].split("Everything else", 1)[0]
    return set(re.findall(r"`(tapete(?:\.\w+)+)`", section))


PUBLIC = public_modules()
EXPORTED = set(tapete.__all__)


def private_imports(source: str, where: str = "<source>") -> list[str]:
    """``where:line: ...`` for each import from tapete that reaches past the public API."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            module, names = node.module, [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            module, names = "", [alias.name for alias in node.names]
        else:
            continue
        if module == "tapete":
            bad = [n for n in names if n not in EXPORTED]
            found += [f"{where}:{node.lineno}: 'from tapete import {n}': {n} is not in tapete.__all__" for n in bad]
        elif module.startswith("tapete."):
            if module not in PUBLIC:
                found.append(f"{where}:{node.lineno}: 'from {module} import ...': {module} is not a public module")
            else:
                bad = [n for n in names if n.startswith("_")]
                found += [f"{where}:{node.lineno}: {module}.{n} is private" for n in bad]
        else:  # import tapete.x
            bad = [n for n in names if n.startswith("tapete.") and n not in PUBLIC]
            found += [f"{where}:{node.lineno}: 'import {n}': {n} is not a public module" for n in bad]
    return found


def test_the_documented_public_modules_are_the_ones_plugins_may_use():
    assert {"tapete.layout", "tapete.hookspecs", "tapete.testing", "tapete.gamelog"} <= PUBLIC
    assert not {m for m in PUBLIC if m.startswith(("tapete.rules", "tapete.core", "tapete.play"))}


def test_every_plugin_module_is_checked():
    names = {p.relative_to(ROOT).as_posix() for p in SOURCES}
    assert {"plugins/chinchon/words.py", "plugins/chinchon/game.py", "plugins/fantan/words.py"} <= names
    assert "examples/crazy-eights/tapete_crazy_eights/words.py" in names


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_plugin_module_imports_only_public_names(path: Path):
    assert private_imports(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix()) == []


@pytest.mark.parametrize(
    "line",
    [
        "from tapete.rules.compiler import Env",
        "from tapete.rules.tree import Binary, Name",
        "from tapete.core.cards import SUIT_NAMES",
        "from tapete import _HOME",
        "from tapete.layout import _action_cards",
        "import tapete.play.match",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from tapete.view import Recorder",
    ],
)
def test_a_planted_private_import_is_caught(line: str):
    assert len(private_imports(line)) == 1


def test_the_public_way_passes():
    source = (
        "import tapete\nimport tapete.testing\n"
        "from tapete import Env, Statement, constant, SEAT_IN_DEAL\n"
        "from tapete.layout import Token, cards_words\nfrom tapete.hookspecs import RegisterGame\n"
    )
    assert private_imports(source) == []
