"""The one place that knows tapete's version: the installed package's metadata.

Logs, snapshots and saves record the version that wrote them; the match loop, the save
format and the command line read it from here, so none of them imports the ``tapete``
facade above them. It is read on first use, because ``importlib.metadata`` costs start-up
time that ``tapete --help`` should not pay.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING


@cache
def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("tapete")  # the one place: [project] version in pyproject.toml
    except PackageNotFoundError:  # pragma: no cover - running from a checkout that is not installed
        return "0+unknown"


if TYPE_CHECKING:
    __version__: str
else:

    def __getattr__(name: str) -> object:
        if name == "__version__":
            return version()
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
