"""The wheel a user installs: it ships the type marker, so a plugin's type checker reads tapete's types."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tapete import Match, build_registry, load_variant

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = Path(__file__).resolve().parent / "typed_plugin" / "tapete_typed_example.py"


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


@pytest.mark.slow  # builds the wheel and installs it: packaging, checked in the slow tier
def test_the_wheel_ships_py_typed_for_both_packages(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"tapete/py.typed", "tapete_plugins/py.typed"} <= names
    assert {"tapete/__init__.py", "tapete/grammars/rules.lark", "tapete_plugins/fantan/game.py"} <= names


@pytest.mark.slow
def test_a_typed_plugin_passes_mypy_strict_against_the_installed_wheel(wheel: Path, tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="mypy comes with the lint extra")
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)  # a pure-Python wheel installs by unpacking
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nstrict = True\n", encoding="utf-8")
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(config),
            "--cache-dir",
            str(tmp_path / "cache"),
            str(PLUGIN),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(site), "PATH": ""},  # tapete from the wheel, its dependencies from this environment
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Success: no issues found in 1 source file" in checked.stdout


def test_the_typed_plugin_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(PLUGIN.parent))
    import tapete_typed_example as plugin

    reg = build_registry([plugin])
    assert reg.games["top-card"] is plugin.TopCard
    v = load_variant("fantan/pagat", reg, options={"wins_to": 1})
    result = Match(v, 3, seed=4, bots=["lowest"]).play()
    assert result.deals == len(plugin.scored) >= 1
