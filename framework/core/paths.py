"""Looking at a name without being thrown by it.

``Path.exists()``, ``is_file()`` and ``is_dir()`` answer False for a missing file but raise for a
name the system will not look up: one too long (``ENAMETOOLONG``), one under a folder that may
not be searched (``EACCES``), one a fuzzer or a person typed with 4,000 brackets. Every such
name is a name of nothing tapete can read, so every question the engine asks of a name goes
through here and gets an answer, never a traceback; the reason, when a message needs one, is
`why_not`. (``tests/test_paths.py`` fails on a ``Path`` probe written anywhere else in the
framework, so a new command cannot bring the traceback back.)
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["exists", "is_dir", "is_file", "lexists", "mode_of", "why_not"]


def mode_of(path: Path | str, *, follow: bool = True) -> int | None:
    """``st_mode`` of what ``path`` names (``follow=False``: of the link itself), None when nothing can be looked at."""
    try:
        return os.stat(path, follow_symlinks=follow).st_mode
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return None


def exists(path: Path | str) -> bool:
    """True when ``path`` names something (a link is followed: a link to nowhere is not there)."""
    return mode_of(path) is not None


def lexists(path: Path | str) -> bool:
    """True when ``path`` names something, a link to nowhere or a loop of links included."""
    return mode_of(path, follow=False) is not None


def is_file(path: Path | str) -> bool:
    """True when ``path`` names a regular file (through links)."""
    mode = mode_of(path)
    return mode is not None and stat.S_ISREG(mode)


def is_dir(path: Path | str) -> bool:
    """True when ``path`` names a folder (through links)."""
    mode = mode_of(path)
    return mode is not None and stat.S_ISDIR(mode)


def why_not(path: Path | str) -> str:
    """Why ``path`` cannot be looked at, in the system's words ("File name too long"); "" when it can."""
    try:
        os.stat(path)
    except ValueError:
        return "the name holds a NUL character"
    except OSError as exc:
        return str(exc.strerror or exc)
    return ""
