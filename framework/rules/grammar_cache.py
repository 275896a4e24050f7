"""The analysed rule grammar, kept between runs in the user's cache directory.

Building the LALR tables for ``grammars/rules.lark`` takes several times longer than
loading them, and every process that reads a rule script needs them: each ``tapete``
command, each worker of ``tapete simulate``. So the built parser is saved once and
loaded after that.

Why not Lark's own ``cache=True``: it keeps the file in the shared temporary directory
under a name anyone can predict, and unpickles whatever it finds there; and it writes
the file in place, so a process starting at that moment can read half a file. Here the
file lives in the user's own cache directory (``TAPETE_CACHE_DIR``, else
``$XDG_CACHE_HOME/tapete``, ``~/.cache/tapete``, ``~/Library/Caches/tapete`` or
``%LOCALAPPDATA%\\tapete``), its name is the digest of everything the tables depend on
(grammar text, options, Lark and Python versions), it is written to a temporary file and
renamed into place, and a file that does not load is ignored and written again. When no
cache directory can be written the parser is simply built each time.
"""

from __future__ import annotations

import hashlib
import sys
from io import BytesIO
from pathlib import Path
from typing import Any

import lark
from lark import Lark

from ..core.cache import cache_dir, write_whole


def cache_file(grammar: str, options: dict[str, Any]) -> Path | None:
    """Where the parser for ``grammar`` built with ``options`` is kept; the name changes with any of its inputs."""
    directory = cache_dir()
    if directory is None:
        return None
    key = "\n".join([grammar, repr(sorted(options.items())), lark.__version__, sys.version])
    return directory / f"rules-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:32]}.lark"


def cached_parser(grammar: str, **options: Any) -> Lark:
    """``Lark(grammar, **options)``, loaded from the cache when it is there and sound."""
    path = cache_file(grammar, options)
    if path is not None:
        try:
            with path.open("rb") as f:
                return Lark.load(f)
        except Exception:  # missing, truncated or unreadable: build it again and replace it
            pass
    parser = Lark(grammar, **options)
    if path is not None:
        _save(parser, path)
    return parser


def _save(parser: Lark, path: Path) -> None:
    """Write ``parser`` to ``path`` whole or not at all; a cache that cannot be written is no error."""
    data = BytesIO()
    parser.save(data)
    write_whole(path, data.getvalue())
