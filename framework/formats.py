"""Format numbers of the files tapete writes, and the check every reader makes first.

A match log (``tapete play --log``), a match snapshot (``Match.snapshot()``) and a save
(``tapete play --save``) carry
``"format": N`` next to the ``tapete`` version that wrote them. The number goes up when the
shape or the meaning of the file changes, so that an old log is refused with a message
saying what to do instead of failing halfway through a replay with a puzzling difference.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .core.errors import SnapshotError

LOG_FORMAT = 1  # the header line of a match log
SNAPSHOT_FORMAT = 1  # a saved match (Match.snapshot)
SAVE_FORMAT = 1  # a match saved from the command line (tapete play --save, tapete resume)

UNNUMBERED = 1  # tapete 0.1.0 wrote format 1 without the number


def check_format(what: str, header: Mapping[str, Any], current: int) -> None:
    """Refuse a ``what`` (e.g. "log") written in a format this tapete does not read."""
    from .core.version import __version__

    found = header.get("format", UNNUMBERED)
    if isinstance(found, bool) or not isinstance(found, int):
        raise SnapshotError(f"the {what} has format {found!r}, which is not a format number")
    if found == current:
        return
    writer = f"tapete {header['tapete']}" if header.get("tapete") else "another tapete"
    if found > current:
        raise SnapshotError(
            f"the {what} is in format {found}, written by {writer}; tapete {__version__} reads "
            f"{what} format {current}: upgrade tapete to read it"
        )
    raise SnapshotError(
        f"the {what} is in the older format {found}, written by {writer}; tapete {__version__} reads "
        f"{what} format {current} only: use {writer} to read it"
    )
