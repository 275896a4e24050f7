"""The file a match is saved in: claimed before the first move, locked while the match runs.

A save must never destroy anything. So:

- a file that exists and is not this match's save is never replaced (``--force`` says the
  person means it); a folder, a device or a pipe is refused by name;
- the default name (no ``--save``) is made unique, so quitting two matches the same way
  keeps both;
- while a match runs, its save is locked (``flock`` on a hidden ``.NAME.lock`` beside it), so
  a second ``tapete play --save`` or ``tapete resume`` of the same file is refused, naming it;
- each write goes through the one writer (`tapete.core.outputs`): an anonymous temporary
  file beside the save, moved over it (``os.replace``), so a process killed at any moment
  leaves the previous or the next complete save, and at most the writer's hidden
  ``.NAME.tapete-tmp`` (killed between naming it and moving it), which the next write takes
  away; a hidden ``.NAME.tmp`` left by an older tapete is removed by the next claim of the save.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import IO

from ..core import paths
from ..core.errors import TapeteError
from ..core.outputs import WriteFailed, replace_whole

SAVE_TYPE = "tapete-save"  # the first field of every save file

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: saves are not locked
    fcntl = None  # type: ignore[assignment]


def hidden(path: Path, suffix: str) -> Path:
    return path.with_name(f".{path.name}.{suffix}")


def is_a_save(path: Path) -> bool:
    """Whether ``path`` starts as a tapete save does (read no further than its first line or two)."""
    try:
        with open(path, "rb") as f:
            head = f.read(200)
    except OSError:
        return False
    return f'"type": "{SAVE_TYPE}"'.encode() in head


def unique(path: Path) -> Path:
    """``path``, or ``NAME-2.EXT``, ``NAME-3.EXT``, ... the first that no file has taken."""
    if not paths.lexists(path):
        return path
    name = path.name
    stem, dot, ext = name.partition(".")
    for n in range(2, 10_000):
        candidate = path.with_name(f"{stem}-{n}{dot}{ext}")
        if not paths.lexists(candidate):
            return candidate
    raise TapeteError(f"{path}: no free name for the save beside it; name one with --save")


class SaveFile:
    """One match's claim on its save file (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock: IO[bytes] | None = None

    def claim(self, ours: bool = False, force: bool = False) -> SaveFile:
        """Take the file for this match; ``ours``: it already is this match's save (a resume)."""
        path = self.path
        try:
            info = path.stat()
        except FileNotFoundError:
            info = None
        except OSError as exc:
            raise TapeteError(f"{path}: cannot save the match there: {exc.strerror}") from None
        if info is not None:
            if stat.S_ISDIR(info.st_mode):
                raise TapeteError(f"{path}: is a folder; name a file to save the match in")
            if not stat.S_ISREG(info.st_mode):
                raise TapeteError(f"{path}: is not a regular file; name a file to save the match in")
            if not ours and not force:
                if is_a_save(path):
                    raise TapeteError(
                        f"{path}: the file holds another saved match; continue it with 'tapete resume {path}', "
                        "or name another file (--force replaces it)"
                    )
                raise TapeteError(
                    f"{path}: the file exists and is not this match's save; name another file, "
                    "or add --force to replace it"
                )
        self._take_lock()
        stale = hidden(path, "tmp")
        if paths.exists(stale):
            stale.unlink()
        return self

    def _take_lock(self) -> None:
        if fcntl is None:  # pragma: no cover
            return
        lock_path = hidden(self.path, "lock")
        for _ in range(10):
            try:
                f = open(lock_path, "a+b")
            except OSError as exc:
                raise TapeteError(f"{self.path}: cannot save the match there: {exc.strerror}") from None
            try:
                fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                f.close()
                raise TapeteError(
                    f"{self.path}: another tapete is playing the match saved in this file; "
                    "finish or quit it there first, or name another file"
                ) from None
            try:
                same = os.fstat(f.fileno()).st_ino == os.stat(lock_path).st_ino
            except FileNotFoundError:
                same = False
            if same:  # not a lock file its last holder removed while we waited for it
                self._lock = f
                return
            f.close()
        raise TapeteError(f"{self.path}: could not lock the save")  # pragma: no cover

    def write(self, text: str) -> None:
        """Replace the save with ``text``, whole (`tapete.core.outputs`: an anonymous temporary
        file moved over it, so even ``kill -9`` leaves the previous or the next save)."""
        try:
            replace_whole(self.path, text.encode("utf-8"))
        except WriteFailed as exc:
            raise TapeteError(f"{self.path}: cannot save the match there: {exc.reason}") from None

    def release(self) -> None:
        """Let another tapete take the save (the match stopped); the lock file goes."""
        if self._lock is not None:
            try:
                hidden(self.path, "lock").unlink()
            except FileNotFoundError:
                pass
            self._lock.close()
            self._lock = None
