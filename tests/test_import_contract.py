"""The floors of the house: every import inside ``tapete`` goes down, never up or sideways.

``framework/`` is laid out in floors (docs/api.md draws them). A module may import its own
floor's package and any floor below; a front-end (search, the terminal table, simulation,
the designer's tools, the web table, the RL environments, logs, the test kit) may not import
another front-end; only the command line may import anything. Old module paths that moved
are thin re-exports that nothing inside the package may use, and nothing inside the package
reads names from the facade ``tapete/__init__``. Imports under ``TYPE_CHECKING`` are for
type checkers only and do not count: they run never.

The check reads the source with ``ast``, so it needs no import and fails on the line that
breaks the rule.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

FRAMEWORK = Path(__file__).resolve().parent.parent / "framework"

CONTRACT = {"game", "view", "bots", "layout", "hookspecs", "formats"}
FRONT_ENDS = {"search", "table", "simulation", "design", "web", "gamelog", "pettingzoo", "rl", "policy", "testing"}
FLOORS = {
    "core": 0,
    "rules": 1,
    **dict.fromkeys(CONTRACT, 2),
    "plugins": 3,
    "play": 4,
    **dict.fromkeys(FRONT_ENDS, 5),
    "cli": 6,
    "__main__": 6,
}
# the few sideways steps between front-ends that are part of the design, each with its reason
ALLOWED_SIDEWAYS = {
    ("design", "simulation"),  # `tapete report` plays its matches through simulate's public run and statistics
    ("table", "gamelog"),  # the terminal table writes the match log as it plays
    ("testing", "gamelog"),  # check_replay replays a log
    ("rl", "pettingzoo"),  # the single-agent environment is built on the AEC environment's public API
    ("policy", "pettingzoo"),  # a trained policy reads its seat through the layout it was trained on
    ("web", "policy"),  # the server judges the policies its host serves (their headers) before it offers them
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(FRAMEWORK).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def is_shim(path: Path) -> bool:
    """An old path kept for one release: a module whose only job is ``moved(...)``."""
    return path.parent == FRAMEWORK and "__getattr__ = moved(" in path.read_text()


MODULES = {module_name(p): p for p in FRAMEWORK.rglob("*.py")}
SHIMS = {name for name, p in MODULES.items() if is_shim(p)}


def runtime_imports(path: Path, me: str) -> list[tuple[int, str, list[str]]]:
    """(line, absolute module inside tapete, names) of every import that runs, at any depth."""
    tree = ast.parse(path.read_text())
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                skip.update(id(n) for n in ast.walk(inner))
    parts = me.split(".") if me else []
    package = parts if path.name == "__init__.py" else parts[:-1]
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            elif node.module and (node.module == "tapete" or node.module.startswith("tapete.")):
                target = node.module.removeprefix("tapete").removeprefix(".")
            else:
                continue
            found.append((node.lineno, target, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "tapete" or alias.name.startswith("tapete."):
                    found.append((node.lineno, alias.name.removeprefix("tapete").removeprefix("."), []))
    return found


def floor_of(module: str) -> tuple[str, int]:
    top = module.split(".")[0]
    return top, FLOORS[top]


def problems(path: Path, me: str | None = None) -> list[str]:
    """What is wrong with the imports of ``path``, the module ``me`` (by default, where it stands)."""
    me = module_name(path) if me is None else me
    if not me or me in SHIMS:
        return []
    my_top, my_floor = floor_of(me)
    out = []
    for line, target, names in runtime_imports(path, me):
        where = f"{path.name if not path.is_relative_to(FRAMEWORK) else path.relative_to(FRAMEWORK.parent)}:{line}"
        if target == "":
            submodules = [n for n in names if n in MODULES]
            facade = [n for n in names if n not in submodules]
            if facade:
                out.append(f"{where}: reads {facade} from the tapete facade; import them from their module")
            targets = submodules
        else:
            targets = [target]
        for t in targets:
            if t in SHIMS:
                out.append(f"{where}: imports the old path tapete.{t}, a re-export kept for users only")
                continue
            top, floor = floor_of(t)
            if top == my_top:
                continue
            if floor > my_floor:
                out.append(f"{where}: tapete.{me} (floor {my_top}) imports tapete.{t}, a floor above it")
            elif floor == my_floor and my_floor == FLOORS["search"] and (my_top, top) not in ALLOWED_SIDEWAYS:
                out.append(f"{where}: front-end tapete.{me} imports another front-end, tapete.{t}")
    return out


def test_every_module_stands_on_a_named_floor():
    assert sorted({floor_of(m)[0] for m in MODULES if m and m not in SHIMS} - set(FLOORS)) == []


@pytest.mark.parametrize("path", sorted(MODULES.values()), ids=lambda p: str(p.relative_to(FRAMEWORK)))
def test_imports_go_down_the_floors(path: Path):
    assert problems(path) == []


def test_the_check_catches_an_import_that_goes_up(tmp_path):
    """A core module that imports the match, and one that reads the facade, are both caught."""
    planted = tmp_path / "planted.py"
    planted.write_text(
        "def f():\n    from ..play.match import Match\n    from .. import Game\n    return Match, Game\n"
    )
    found = problems(planted, "core.planted")
    assert len(found) == 2
    assert "a floor above it" in found[0] and "facade" in found[1]


def test_the_check_catches_a_front_end_that_imports_another_and_a_use_of_an_old_path(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text("from ..search.ismcts import ISMCTSBot\nfrom ..engine import Deal\n")
    found = problems(planted, "simulation.planted")
    assert len(found) == 2
    assert "another front-end" in found[0] and "old path" in found[1]
