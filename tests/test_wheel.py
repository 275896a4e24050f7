"""The wheel a user installs: it ships the type marker, so a plugin's type checker reads tapete's types."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("tapete-*.whl")
    return built


def test_the_wheel_ships_py_typed_for_both_packages(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"tapete/py.typed", "tapete_plugins/py.typed"} <= names
    assert {"tapete/__init__.py", "tapete/grammars/rules.lark", "tapete_plugins/fantan/game.py"} <= names
