"""Errors that point at the place in a file where the input went wrong.

Every problem a designer can cause in a script or a variant file is reported as
``file:line:col: message`` followed by the offending line and a caret, so that an
editor can jump to it and a terminal user can see it at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from os import PathLike


@dataclass(frozen=True)
class Location:
    path: str
    line: int = 0
    column: int = 0
    source_line: str | None = None

    def __str__(self) -> str:
        if self.line:
            return f"{self.path}:{self.line}:{self.column}"
        return self.path


class TapeteError(Exception):
    """Base of every error tapete raises on purpose."""


class LocatedError(TapeteError):
    """One problem at one place in a script or variant file."""

    def __init__(self, location: Location, message: str):
        super().__init__(message)
        self.location = location
        self.message = message

    def __str__(self) -> str:
        text = f"{self.location}: {self.message}"
        src = self.location.source_line
        if src is not None and self.location.line:
            src, column = _window(src.rstrip(), max(self.location.column, 1))
            caret = " " * (column - 1) + "^"
            text += f"\n    {src}\n    {caret}"
        return text


SHOWN_LINE = 100  # characters of a source line shown under a message


def _window(src: str, column: int) -> tuple[str, int]:
    """A long source line is shown as the part around the column, marked with '...'."""
    if len(src) <= SHOWN_LINE:
        return src, column
    start = max(0, min(column - SHOWN_LINE // 2, len(src) - SHOWN_LINE))
    part = src[start : start + SHOWN_LINE]
    if start > 0:
        part, column = "..." + part, column - start + 3
    if start + SHOWN_LINE < len(src):
        part += "..."
    return part, column


class ScriptError(LocatedError):
    """A rule script that does not parse or does not check."""


class VariantError(LocatedError):
    """A variant file with a wrong key, type, value or missing file."""


class ErrorList(TapeteError):
    """Several located errors found in one pass, reported together."""

    def __init__(self, errors: list[LocatedError]):
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = errors


class IllegalAction(TapeteError):
    """A move the rules refuse; the state it was tried on is unchanged."""


class SnapshotError(TapeteError):
    """A saved state or log that cannot be read back; nothing was loaded."""


def line_of(text: str, line: int) -> str | None:
    lines = text.splitlines()
    if 1 <= line <= len(lines):
        return lines[line - 1]
    return None


def display_path(file: str | PathLike[str]) -> str:
    """Paths in messages are relative to where the command runs, when under it."""
    from pathlib import Path

    try:
        return str(Path(file).resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, RuntimeError, OSError):  # elsewhere, or a symlink loop (RuntimeError before Python 3.13)
        return str(file)


def suggest(word: str, known: Iterable[str], *, most: int = 1, quote: bool = True) -> str:
    """`` (did you mean 'x'?)``, naming up to ``most`` close matches of ``word`` in ``known``, or ``""``.

    Every did-you-mean tapete prints comes from here (an unknown name in a script, a key of a
    variant file, a plugin's hook, a variant name), so a slip is answered the same way
    everywhere. Names are quoted as Python quotes them unless ``quote=False`` (variant names,
    which read like paths: ``fantan/pagat``)."""
    import difflib  # only when something is misspelt: the command line's start-up stays cheap

    close = difflib.get_close_matches(word, list(known), n=most, cutoff=0.6)
    if not close:
        return ""
    return f" (did you mean {', '.join(repr(c) if quote else c for c in close)}?)"
