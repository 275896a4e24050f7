"""Every code block of README.md and docs/ runs, so the documentation cannot drift from tapete.

How each block runs, by its fence's language:

- ``python``: the blocks of one page run in order in one namespace (a later block may use
  an earlier one's names); then every ``test_*`` function a block defines is called, with
  ``tmp_path``, ``tapete_deal``, ``tapete_variant`` and the first value of a parametrize.
  A page that plays many episodes with ``tapete.rl.play`` runs with fewer in the everyday
  tier and as written in the slow tier (``EPISODES_BOUNDED``).
- ``sh``: every command runs in a scratch folder that sees the checkout's ``variants/`` and
  ``examples/``, and must succeed. Installing (``pip install``) and the project's own tool
  runs (``pytest``, ``ruff``, ``pre-commit``, ``.ci/...``) are skipped: CI runs those. A
  command seating the ``human`` bot runs with no input and must reach the first question.
- ``yaml`` and ``rules``: each block starts with ``# file: NAME``; the page's files are
  written to one folder and every variant file is put through ``tapete check`` (scripts
  through the variant files that use them, others alone).
- ``toml``: must parse.

Any other fence (or none) fails: a block either runs or is not in the docs.
"""

from __future__ import annotations

import inspect
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

from tapete import testing

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\S*)\n(.*?)^```", re.S | re.M)
SKIPPED = ("pip install", "python3 -m pip", "python -m pip", "pytest", "ruff", "pre-commit", ".ci/")
KNOWN = {"python", "sh", "yaml", "rules", "toml", "text"}  # text: a diagram or output, shown as is


def blocks(page: Path) -> list[tuple[str, str, int]]:
    text = page.read_text(encoding="utf-8")
    return [(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1) for m in FENCE.finditer(text)]


def page_id(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def test_every_block_has_a_language_the_docs_test_runs():
    unknown = [f"{page_id(p)}:{line} ```{lang}" for p in PAGES for lang, _, line in blocks(p) if lang not in KNOWN]
    assert not unknown, "blocks nobody runs: " + ", ".join(unknown)


def workspace(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    for name in ("variants", "examples", "bench"):
        (work / name).symlink_to(ROOT / name)
    return work


def tapete_cli() -> str:
    return f"{shlex.quote(sys.executable)} -m tapete"


# The pages whose blocks play many matches run in the slow tier (a CI step of its own): every block
# still runs on every CI run, and a contributor's everyday run keeps the fast pages.
SLOW_PYTHON = {"simulate.md"}
# rl.md measures the default bot against random play over a few hundred episodes each, for a margin it prints
# and nothing checks (tests/test_rl.py does): the everyday tier runs every line of its blocks with
# `tapete.rl.play` held to this many episodes a call, on the same seeds; the page as written is the slow tier's.
EPISODES_BOUNDED = {"rl.md": 20}


def python_pages():
    for p in PAGES:
        if not any(b[0] == "python" for b in blocks(p)):
            continue
        if p.name in SLOW_PYTHON:
            yield pytest.param(p, None, marks=pytest.mark.slow, id=page_id(p))
        elif p.name in EPISODES_BOUNDED:
            yield pytest.param(p, EPISODES_BOUNDED[p.name], id=f"{page_id(p)}-bounded")
            yield pytest.param(p, None, marks=pytest.mark.slow, id=page_id(p))
        else:
            yield pytest.param(p, None, id=page_id(p))


@pytest.mark.parametrize(("page", "cap"), list(python_pages()))
def test_python_blocks_run(page, cap, tmp_path, monkeypatch):
    monkeypatch.chdir(workspace(tmp_path))
    asked: list[int] = []
    if cap is not None:
        from tapete import rl

        play = rl.play

        def play_fewer(e, policy, episodes, seed=0):
            asked.append(episodes)
            return play(e, policy, min(episodes, cap), seed)

        monkeypatch.setattr(rl, "play", play_fewer)
    namespace: dict[str, object] = {"__name__": f"docs_{page.stem}"}
    for lang, code, line in blocks(page):
        if lang != "python":
            continue
        before = set(namespace)
        exec(compile(code, f"{page_id(page)}:{line}", "exec"), namespace)
        for name in sorted(set(namespace) - before):
            fn = namespace[name]
            if name.startswith("test_") and callable(fn):
                fn(**_arguments(fn, tmp_path))
    if cap is not None:
        assert any(n > cap for n in asked), f"{page_id(page)} plays {cap} episodes at most: run it as written"


def _arguments(fn, tmp_path: Path) -> dict[str, object]:
    given = {"tmp_path": tmp_path, "tapete_deal": testing.deal_from_zones, "tapete_variant": testing.variant}
    for mark in getattr(fn, "pytestmark", []):
        if mark.name == "parametrize":
            names, values = mark.args[0], mark.args[1]
            given[names] = values[0]
    return {p: given[p] for p in inspect.signature(fn).parameters}


def shell_commands(page: Path) -> list[tuple[str, int]]:
    out = []
    for lang, code, line in blocks(page):
        if lang != "sh":
            continue
        for offset, raw in enumerate(code.splitlines()):
            command = raw.split(" # ")[0].strip()
            for part in command.split("&&"):
                part = part.strip()
                if part and not any(skip in part for skip in SKIPPED):
                    out.append((part, line + 1 + offset))
    return out


SH_PAGES = [p for p in PAGES if shell_commands(p)]


@pytest.mark.slow  # each command is a whole tapete run (matches, simulations, reports): minutes in all
@pytest.mark.parametrize("page", SH_PAGES, ids=page_id)
def test_shell_blocks_run(page, tmp_path):
    work = workspace(tmp_path)
    for command, line in shell_commands(page):
        runnable = re.sub(r"^(python3 -m tapete|tapete)\b", tapete_cli(), command)
        runnable = re.sub(r"^python3? ", shlex.quote(sys.executable) + " ", runnable)
        human = "human" in command
        if re.search(r"\btapete (play|simulate)\b", command) and "--seed" not in command:
            # without --seed a match draws a new deal each run: pin one, so that the same docs give
            # the same run (a drawn deal can let a bot close before the person's first move)
            runnable += " --seed 1"
        result = subprocess.run(
            ["bash", "-c", runnable],
            cwd=work,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            check=False,
            env={**os.environ, "COLUMNS": "200"},
        )
        where = f"{page_id(page)}:{line}: {command}\n{result.stdout[-2000:]}{result.stderr[-2000:]}"
        if human:
            assert "your move" in result.stdout, where
        else:
            assert result.returncode == 0, where


FILE_PAGES = [p for p in PAGES if any(b[0] in ("yaml", "rules") for b in blocks(p))]


@pytest.mark.parametrize("page", FILE_PAGES, ids=page_id)
def test_variant_files_and_scripts_pass_check(page, tmp_path):
    folder = workspace(tmp_path) / f"page-{page.stem}"
    folder.mkdir()
    written = []
    for lang, code, line in blocks(page):
        if lang not in ("yaml", "rules"):
            continue
        first = code.splitlines()[0] if code else ""
        assert first.startswith("# file: "), f"{page_id(page)}:{line}: start the block with '# file: NAME'"
        path = folder / first.removeprefix("# file: ").strip()
        path.write_text(code, encoding="utf-8")
        written.append(path)
    variants = [p for p in written if p.suffix == ".yaml"]
    used = " ".join(p.read_text(encoding="utf-8") for p in variants)
    alone = [p for p in written if p.suffix == ".rules" and p.name not in used]
    result = subprocess.run(
        [sys.executable, "-m", "tapete", "check", *(str(p) for p in variants + alone)],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "syntax only" not in result.stdout, "a script checked only for syntax: name its game or use it in a variant"


@pytest.mark.parametrize("page", [p for p in PAGES if any(b[0] == "toml" for b in blocks(p))], ids=page_id)
def test_toml_blocks_parse(page):
    for lang, code, _line in blocks(page):
        if lang == "toml":
            tomllib.loads(code)
