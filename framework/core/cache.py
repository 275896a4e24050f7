"""Where tapete keeps what it saves between runs: the user's own cache directory.

``TAPETE_CACHE_DIR``, else ``$XDG_CACHE_HOME/tapete`` (``~/.cache/tapete``),
``~/Library/Caches/tapete`` on macOS or ``%LOCALAPPDATA%\\tapete`` on Windows. The rule
parser's tables (`tapete.rules.grammar_cache`) and the list of the plugins' commands that
``tapete --help`` shows (`tapete.cli.commands`) live there. Everything in it can be thrown
away: it is rebuilt on the next run.
"""

from __future__ import annotations

import os
import sys
from contextlib import suppress
from pathlib import Path


def cache_dir() -> Path | None:
    """The directory tapete keeps its caches in, or None when there is no home to put one."""
    explicit = os.environ.get("TAPETE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    try:
        if sys.platform == "win32":
            base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
        elif sys.platform == "darwin":
            base = Path.home() / "Library" / "Caches"
        else:
            base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    except RuntimeError:  # no home directory can be determined
        return None
    return base / "tapete"


def write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (a process reading it at that moment sees
    the old file or the new one); a cache that cannot be written is no error."""
    import tempfile  # only when writing: reading a cache stays cheap

    with suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        finally:
            with suppress(OSError):
                os.unlink(tmp)  # gone already when the rename happened
