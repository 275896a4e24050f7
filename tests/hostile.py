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
