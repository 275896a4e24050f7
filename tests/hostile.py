"""Running the real ``tapete`` command for the hostile-input tests."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err


def tapete(*args: str, cwd: Path | None = None, stdin: str = "") -> Run:
    """``python -m tapete ARGS`` in a subprocess; asserts that no traceback was printed."""
    proc = subprocess.run(
        [sys.executable, "-m", "tapete", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=120,
    )
    run = Run(proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in run.text, run.text
    return run


def cli(*args: str, cwd: Path | None = None) -> Run:
    """The same command in this process (typer's runner): for long lists of cases, where a process each
    would cost the everyday run a second a case. ``tapete`` above keeps a real process for each class."""
    import os

    from typer.testing import CliRunner

    from tapete.cli.main import app

    here = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        result = CliRunner().invoke(app, list(args))
    finally:
        os.chdir(here)
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crashed, repr(result.exception)
    return Run(result.exit_code, result.stdout, result.stderr)
