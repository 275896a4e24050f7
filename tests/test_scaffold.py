"""``tapete new``: the files it writes pass ``tapete check``, play, install and pass their own tests."""

from __future__ import annotations

import site
import subprocess
import sys
import venv
from pathlib import Path

import pytest


def tapete(*args: str, python: str = sys.executable, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([python, "-m", "tapete", *args], capture_output=True, text=True, check=False, cwd=cwd)


def test_new_variants_pass_check_and_play_as_written(tmp_path):
    made = tapete("new", "variant", "jacks", "--from", "fantan/pagat", "--dir", str(tmp_path / "mine"))
    assert made.returncode == 0, made.stderr
    yaml_file, rules = tmp_path / "mine" / "jacks.yaml", tmp_path / "mine" / "jacks.rules"
    assert "extends: fantan/pagat" in yaml_file.read_text(encoding="utf-8")
    child = tapete("new", "variant", "child", "--from", str(yaml_file), "--dir", str(tmp_path / "b"))
    assert child.returncode == 0, child.stderr  # a variant of a file extends it by relative path
    assert "extends: ../mine/jacks.yaml" in (tmp_path / "b" / "child.yaml").read_text(encoding="utf-8")
    rules.write_text("row start J\n", encoding="utf-8")  # the designer's first change
    checked = tapete("check", str(yaml_file), str(tmp_path / "b" / "child.yaml"))
    assert checked.returncode == 0 and checked.stdout.count(": ok") == 2, checked.stdout + checked.stderr
    played = tapete("play", str(tmp_path / "b" / "child.yaml"), "--quiet", "--seed", "2")
    assert played.returncode == 0 and "Winner: seat" in played.stdout


def test_new_refuses_to_overwrite_and_names_an_unknown_parent(tmp_path):
    (tmp_path / "x.yaml").write_text("name: x\n", encoding="utf-8")
    again = tapete("new", "variant", "x", "--from", "fantan/pagat", "--dir", str(tmp_path))
    assert again.returncode == 1 and "x.yaml already exists" in again.stderr
    unknown = tapete("new", "variant", "y", "--from", "fantan/pagot", "--dir", str(tmp_path))
    assert unknown.returncode == 1 and "did you mean fantan/pagat" in unknown.stderr
    assert not (tmp_path / "y.yaml").exists() and not (tmp_path / "x.rules").exists()


def _venv_on_top_of_this_one(where: Path) -> str:
    """A fresh environment that sees this one's packages (tapete, pytest) but installs into its own."""
    venv.create(where, with_pip=False)
    python = where / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    found = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    )
    inherited = [p for p in site.getsitepackages() if Path(p).is_dir()]
    lines = "".join(f"import site; site.addsitedir({p!r})\n" for p in inherited)
    (Path(found.stdout.strip()) / "_inherit.pth").write_text(lines, encoding="utf-8")
    return str(python)


@pytest.mark.slow  # pip installs the scaffolded package and runs its own suite
def test_a_new_plugin_installs_registers_and_passes_its_own_tests(tmp_path):
    made = tapete("new", "plugin", "high-card", "--dir", str(tmp_path))
    assert made.returncode == 0, made.stderr
    package = tmp_path / "high-card"
    python = _venv_on_top_of_this_one(tmp_path / "env")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-build-isolation"]
        + ["-e", str(package)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert install.returncode == 0, install.stderr
    listed = tapete("variants", python=python)
    assert "high_card/basic" in listed.stdout, listed.stdout + listed.stderr
    assert "high_card/basic" not in tapete("variants").stdout  # this environment is untouched
    tests = subprocess.run(
        [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(package)],
        capture_output=True,
        text=True,
        check=False,
        cwd=package,
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "2 passed" in tests.stdout


def test_the_scaffolds_from_python(tmp_path):
    from tapete import TapeteError, load_variant
    from tapete.cli.new import new_plugin, new_variant

    files = new_plugin("snap", tmp_path)
    names = {p.relative_to(tmp_path / "snap").as_posix() for p in files}
    assert {"pyproject.toml", "conftest.py", "tapete_snap/game.py", "tests/test_snap.py"} <= names
    assert (
        '[project.entry-points.tapete]\nsnap = "tapete_snap.plugin"' in (tmp_path / "snap/pyproject.toml").read_text()
    )
    written = new_variant("mine", "chinese-ten/four-player", tmp_path / "v")
    assert load_variant(written[0]).options["break_even"] == 70  # the parent's values, written out
    for bad in ("Snap", "9lives", "a b"):
        try:
            new_plugin(bad, tmp_path)
        except TapeteError as exc:
            assert "use lower-case letters" in str(exc)
        else:
            raise AssertionError(bad)


def test_tapete_new_reports_like_every_command(tmp_path):
    from typer.testing import CliRunner

    from tapete.cli.main import app

    runner = CliRunner()
    made = runner.invoke(app, ["new", "variant", "v", "--from", "fantan/nines", "--dir", str(tmp_path)])
    assert made.exit_code == 0 and "next: tapete check" in made.output
    assert runner.invoke(app, ["new", "plugin", "card-game", "--dir", str(tmp_path)]).exit_code == 0
    again = runner.invoke(app, ["new", "plugin", "card-game", "--dir", str(tmp_path)])
    assert again.exit_code == 1 and "already exists" in again.output
