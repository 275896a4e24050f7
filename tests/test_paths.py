"""Names the system will not look up — too long, under a folder that may not be searched — are
refused in words, never a traceback.

The fuzzer found it: a variant file whose script name grew to 4,000 brackets made ``tapete
check`` end in ``OSError: File name too long``, because ``Path.is_file()`` raises where
``os.path.isfile`` answers False. Every probe of a name goes through `tapete.core.paths`, and
the last test here fails on a ``Path`` probe written anywhere else in the framework.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest
from hostile import tapete

import tapete as tapete_pkg
from tapete.core import paths

LONG = "x" * 300  # one name of more than 255 bytes: ENAMETOOLONG on every common file system


def _variant_naming(tmp_path: Path, script: str) -> Path:
    (tmp_path / "ok.rules").write_text("")
    file = tmp_path / "v.yaml"
    file.write_text(f"game: fantan\nname: v\nscripts: [{script}]\n")
    return file


def test_a_script_name_too_long_to_look_up_is_refused_at_its_place_in_the_variant_file(tmp_path):
    _variant_naming(tmp_path, "(" * 300 + "down.rules" + ")" * 300)
    run = tapete("check", "v.yaml", cwd=tmp_path)
    assert run.code == 1
    first = run.err.splitlines()[0]
    assert first.startswith("v.yaml:3:11: scripts.0: script file '((((")
    assert first.endswith("(610 characters) cannot be read: File name too long")
    play = tapete("play", "v.yaml", "--players", "3", "--quiet", cwd=tmp_path)
    assert play.code != 0 and "v.yaml:3:11: scripts.0" in play.err


def test_a_missing_script_is_still_called_not_found(tmp_path):
    _variant_naming(tmp_path, "gone.rules")
    run = tapete("check", "v.yaml", cwd=tmp_path)
    assert "v.yaml:3:11: scripts.0: script file 'gone.rules' not found next to v.yaml" in run.err


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("check", f"{LONG}.yaml"), f"{LONG}.yaml: File name too long"),
        (("play", f"{LONG}.yaml"), f"{LONG}.yaml: File name too long"),
        (("rules", f"{LONG}.yaml"), f"{LONG}.yaml: File name too long"),
        (("replay", f"{LONG}.jsonl"), f"{LONG}.jsonl: cannot read the log: File name too long"),
        (("resume", f"{LONG}.json"), f"{LONG}.json: cannot read the save: File name too long"),
        (
            ("play", "fantan/pagat", "--players", "3", "--quiet", "--log", f"{LONG}.jsonl"),
            f"{LONG}.jsonl: cannot write a log there: File name too long",
        ),
    ],
    ids=["check", "play", "rules", "replay", "resume", "log"],
)
def test_a_name_too_long_on_the_command_line_is_refused_with_the_systems_reason(tmp_path, args, says):
    run = tapete(*args, cwd=tmp_path)
    assert run.code == 1
    assert run.err.strip().endswith(says), run.err[-200:]
    assert list(tmp_path.iterdir()) == []  # nothing written, nothing left behind


def test_the_probes_answer_for_every_name_and_say_why_not(tmp_path):
    (tmp_path / "f").write_text("")
    os.symlink(tmp_path / "nowhere", tmp_path / "dangling")
    assert paths.is_file(tmp_path / "f") and not paths.is_dir(tmp_path / "f")
    assert paths.is_dir(tmp_path) and not paths.is_file(tmp_path)
    assert not paths.exists(tmp_path / "dangling") and paths.lexists(tmp_path / "dangling")
    for name in (tmp_path / LONG, tmp_path / "a\x00b", tmp_path / "f" / "under-a-file"):
        assert not paths.exists(name) and not paths.lexists(name) and not paths.is_file(name)
    assert paths.why_not(tmp_path / LONG) == "File name too long"
    assert paths.why_not(tmp_path / "f" / "x") == "Not a directory"
    assert paths.why_not(tmp_path / "f") == ""


PROBES = {"exists", "is_file", "is_dir", "is_symlink", "is_fifo", "is_socket", "is_mount"}


def test_no_module_of_the_framework_probes_a_name_with_pathlibs_raising_methods():
    """``x.exists()`` and its kin, called on anything: the framework asks `tapete.core.paths` instead."""
    root = Path(tapete_pkg.__file__).parent
    found = []
    for file in sorted(root.rglob("*.py")):
        if file == root / "core" / "paths.py":
            continue
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in PROBES
                and not (isinstance(node.func.value, ast.Name) and node.func.value.id in ("paths", "os"))
            ):
                found.append(f"{file.relative_to(root)}:{node.lineno}: .{node.func.attr}()")
    assert found == []
