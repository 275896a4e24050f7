"""The size and depth limits on what tapete reads, and reading text files safely.

Every file a person or a plugin hands tapete (variant YAML, rule scripts, logs,
snapshots) is read through here, so that a file too big, too deep or not UTF-8 is
refused by name, at once, with its location, instead of exhausting memory or
Python's recursion limit somewhere inside a parser. The numbers are far above
anything a real game needs (the largest built-in script is under 3 KB and nests 3
levels) and are listed in ``docs/bad-input.md``.
"""

from __future__ import annotations

import re
from pathlib import Path

from .errors import LocatedError, Location, TapeteError, display_path

MAX_SCRIPT_BYTES = 64 * 1024  # one rule script
MAX_VARIANT_BYTES = 64 * 1024  # one variant YAML file
MAX_LOG_BYTES = 64 * 1024 * 1024  # one JSON-lines log
MAX_NESTING = 32  # brackets '(' '{' in a script; lists and mappings in YAML and JSON
MAX_OPERATORS_PER_LINE = 100  # operators in one line of a script (each one nests an expression)
MAX_YAML_VALUES = 10_000  # values in a variant file once its aliases are expanded
MAX_ERRORS = 200  # problems collected from one load before the rest are skipped
MAX_PLAYERS = 16  # seats at one table: a variant's ``players`` and its file's default count

_SCRIPT_TOKENS = re.compile(r'"[^"\n]*"|#[^\n]*|\b(?:and|or|not)\b|[-+*/%]|[<>=!]=?|[(){}]|\n')


def _kb(n: int) -> str:
    return f"{n // 1024 // 1024} MB" if n >= 1024 * 1024 else f"{n // 1024} KB"


def read_source(path: Path, what: str, limit: int, error: type[LocatedError]) -> str:
    """The text of a file: refused (as ``error``) when unreadable, too big or not UTF-8."""
    shown = display_path(path)
    try:
        size = path.stat().st_size
        if size > limit:
            raise error(Location(shown), f"the {what} is {size:,} bytes; tapete reads {what}s of at most {_kb(limit)}")
        data = path.read_bytes()
    except IsADirectoryError:
        raise error(Location(shown), f"is a folder, not a {what}") from None
    except OSError as exc:
        raise error(Location(shown), f"cannot read the {what}: {exc.strerror or exc}") from None
    return decode(data, shown, what, error)


def decode(data: bytes, shown: str, what: str, error: type[LocatedError]) -> str:
    """UTF-8 text (a leading byte-order mark is dropped); a bad byte is reported at its line."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        start = data.rfind(b"\n", 0, exc.start) + 1
        end = data.find(b"\n", exc.start)
        text = data[start : end if end >= 0 else len(data)].decode("utf-8", errors="replace")
        column = len(data[start : exc.start].decode("utf-8", errors="replace")) + 1
        raise error(
            Location(shown, line, column, text),
            f"the {what} is not UTF-8 text (byte 0x{data[exc.start]:02x}); save it as UTF-8",
        ) from None


def check_script_shape(text: str, path: str, error: type[LocatedError]) -> None:
    """Refuse a script nested deeper than MAX_NESTING or with a line of too many operators.

    Both would nest the parse tree (and Python's recursion) without bound; checking
    the text first costs one regular-expression pass."""
    depth, line, operators = 0, 1, 0
    for m in _SCRIPT_TOKENS.finditer(text):
        tok = m.group()
        if tok == "\n":
            line, operators = line + 1, 0
        elif tok in "({":
            depth += 1
            if depth > MAX_NESTING:
                raise _at(error, text, path, m.start(), f"brackets nest deeper than {MAX_NESTING} levels")
        elif tok in ")}":
            depth = max(depth - 1, 0)
        elif tok[0] not in '"#':
            operators += 1
            if operators > MAX_OPERATORS_PER_LINE:
                raise _at(
                    error,
                    text,
                    path,
                    m.start(),
                    f"more than {MAX_OPERATORS_PER_LINE} operators on one line; split the expression",
                )


def _at(error: type[LocatedError], text: str, path: str, offset: int, message: str) -> LocatedError:
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    source = text[start : end if end >= 0 else len(text)]
    return error(Location(path, line, offset - start + 1, source), message)


class LimitError(TapeteError):
    """Input beyond one of the documented limits."""
