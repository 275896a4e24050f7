"""The size and depth limits on what tapete reads, and reading files and numbers safely.

Every file a person or a plugin hands tapete (variant YAML, rule scripts, logs,
saves, snapshots) is read through `read_file`, so that a file too big, too deep, not
UTF-8 or not a file at all (a folder, a FIFO, a device such as ``/dev/zero``) is
refused by name, at once, with its location, instead of hanging, exhausting memory
or Python's recursion limit somewhere inside a parser. Every number a person types
(``--delay``, ``--games``, a bot parameter, a move's number at the table's prompt)
is read by `read_number`, which bounds its digits and refuses ``nan`` and ``inf``,
and checked by `check_number`, which the Python API's parameters go through too.
The numbers are far above anything a real game needs (the largest built-in script
is under 3 KB and nests 3 levels) and are listed in ``docs/bad-input.md``.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any

from .errors import LocatedError, Location, TapeteError, display_path

MAX_SCRIPT_BYTES = 64 * 1024  # one rule script
MAX_VARIANT_BYTES = 64 * 1024  # one variant YAML file
MAX_LOG_BYTES = 64 * 1024 * 1024  # one JSON-lines log
MAX_SAVE_BYTES = 64 * 1024 * 1024  # one saved match (its moves grow with the match, like a log)
MAX_NESTING = 32  # brackets '(' '{' in a script; lists and mappings in YAML and JSON
MAX_EXTENDS = 32  # variant files in one 'extends:' chain
MAX_DIGITS = 100  # digits of a whole number read from text (a seed, a bot parameter, a move's number)
MAX_NUMBER_TEXT = 100  # characters of a decimal number read from text
MAX_DELAY = 60.0  # seconds 'tapete play --watch --delay' waits after a bot's move
MAX_OPERATORS_PER_LINE = 100  # operators in one line of a script (each one nests an expression)
MAX_YAML_VALUES = 10_000  # values in a variant file once its aliases are expanded
MAX_ERRORS = 200  # problems collected from one load before the rest are skipped
MAX_PLAYERS = 16  # seats at one table: a variant's ``players`` and its file's default count
MAX_SCORE = 10**15  # a deal's score and a running total, either sign (a real game's are under 10,000)

_SCRIPT_TOKENS = re.compile(r'"[^"\n]*"|#[^\n]*|\b(?:and|or|not)\b|[-+*/%]|[<>=!]=?|[(){}]|\n')


def _kb(n: int) -> str:
    return f"{n // 1024 // 1024} MB" if n >= 1024 * 1024 else f"{n // 1024} KB"


class FileRefused(TapeteError):
    """A file tapete will not read: not a regular file, too big, or unreadable; the message says which."""


NOT_FILES = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)


def not_a_file(mode: int) -> str | None:
    """What a file of ``mode`` (``os.stat``'s) is when it is not a regular file ("a FIFO (named pipe)"), else None."""
    return next((kind for test, kind in NOT_FILES if test(mode)), None)


def read_file(path: Path | str, what: str, limit: int) -> bytes:
    """The bytes of a file a person named, or `FileRefused` saying why not (without the path).

    The file is opened without blocking and judged by what was opened (``fstat``), so a
    FIFO, a device or a folder is refused before a byte is read, even one put in place
    after a check of the name; at most ``limit`` bytes are read, so a file that grows
    while it is read (or claims a size of 0, as ``/proc`` files do) cannot exhaust
    memory either."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except IsADirectoryError:
        raise FileRefused(f"is a folder, not a {what}") from None
    except OSError as exc:
        raise FileRefused(f"cannot read the {what}: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise FileRefused(f"is a folder, not a {what}")
        for test, kind in NOT_FILES:
            if test(mode):
                raise FileRefused(f"is {kind}, not a {what}: tapete reads only regular files")
        size = os.fstat(fd).st_size
        if size > limit:
            raise FileRefused(f"the {what} is {size:,} bytes; tapete reads {what}s of at most {_kb(limit)}")
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise FileRefused(f"the {what} is more than {limit:,} bytes; tapete reads {what}s of at most {_kb(limit)}")
        return b"".join(chunks)
    except OSError as exc:
        raise FileRefused(f"cannot read the {what}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_source(path: Path, what: str, limit: int, error: type[LocatedError]) -> str:
    """The text of a file: refused (as ``error``) when unreadable, not a file, too big or not UTF-8."""
    try:
        data = read_file(path, what, limit)
    except FileRefused as exc:
        raise error(Location(display_path(path)), str(exc)) from None
    if not data.startswith(b"\xef\xbb\xbf"):
        try:
            return data.decode("utf-8")  # the usual case, without resolving the path a message would show
        except UnicodeDecodeError:
            pass
    return decode(data, display_path(path), what, error)


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


# -- JSON -------------------------------------------------------------------------------
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def json_depth_problem(text: str) -> str | None:
    """Why ``text`` nests too deeply to be read as JSON, or None.

    Counting brackets outside strings takes one pass and is done only when the text
    holds more brackets than the limit, so an ordinary log line costs two ``count``
    calls; Python's JSON reader would otherwise recurse once per level."""
    if text.count("[") + text.count("{") <= MAX_NESTING:
        return None
    depth = 0
    for m in _JSON_TOKENS.finditer(text):
        tok = m.group()
        if tok in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return f"the JSON nests deeper than {MAX_NESTING} levels"
        elif tok in "]}":
            depth -= 1
    return None


def load_json(text: str) -> Any:
    """``json.loads`` with the nesting limit: ValueError (a JSONDecodeError when it is not JSON) says why not."""
    problem = json_depth_problem(text)
    if problem is not None:
        raise ValueError(problem)
    try:
        return json.loads(text)
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise ValueError(f"the JSON nests deeper than {MAX_NESTING} levels") from None


# -- numbers ----------------------------------------------------------------------------
class NumberError(TapeteError, ValueError):
    """Text that is not a number tapete reads, or a number outside its bounds; the message says which."""


_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_NOT_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)


def looks_numeric(text: str) -> bool:
    """Text a person means as a number: it starts with a digit, or a sign or point and a digit, or says nan/inf."""
    word = text.strip()
    head = word.lstrip("+-.")
    return bool(head[:1].isdigit()) or bool(_NOT_FINITE.fullmatch(word))


def number_text(value: int | float) -> str:
    """A number as a message shows it: a whole number of many digits by its length, never by its digits."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * MAX_DIGITS:
        return f"a number of about {int(value.bit_length() * math.log10(2)):,} digits"
    if isinstance(value, float):
        return f"{value:g}"
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 1000 else str(value)


def read_number(
    text: str,
    what: str,
    *,
    whole: bool = True,
    low: int | float | None = None,
    high: int | float | None = None,
) -> int | float:
    """The number ``text`` writes, checked like `check_number`; `NumberError` naming ``what`` if it is none.

    A whole number is ASCII digits with an optional sign, at most `MAX_DIGITS` of them
    (so 5,000 digits never reach ``int()``); with ``whole=False`` a decimal such as
    ``0.5`` or ``1e-3`` is read too. ``nan``, ``inf``, ``1_000``, ``0x10`` and digits of
    other scripts are not numbers here."""
    word = text.strip()
    if _WHOLE.fullmatch(word):
        digits = len(word.lstrip("+-"))
        if digits > MAX_DIGITS:
            raise NumberError(
                f"{what}: a number of {digits:,} digits is refused; tapete reads numbers of at most {MAX_DIGITS} digits"
            )
        value: int | float = int(word)
    elif not whole and len(word) <= MAX_NUMBER_TEXT and _DECIMAL.fullmatch(word):
        value = float(word)
        if not math.isfinite(value):
            raise NumberError(f"{what}: {_quoted(text)} is too large a number")
    elif _NOT_FINITE.fullmatch(word):
        raise NumberError(f"{what}: {_quoted(text)} is not a finite number")
    else:
        kind = "a whole number" if whole else "a number"
        raise NumberError(f"{what}: {_quoted(text)} is not {kind}")
    checked: int | float = check_number(value, what, whole=whole, low=low, high=high)
    return checked


def check_number(
    value: Any,
    what: str,
    *,
    whole: bool = False,
    low: int | float | None = None,
    high: int | float | None = None,
) -> Any:
    """``value`` if it is a finite number (a whole one if ``whole``; never a bool) within [low, high].

    The one check behind every numeric parameter, whether typed or passed from Python:
    `NumberError` says ``WHAT must be ...`` and what it was."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        kind = "a whole number" if whole else "a number"
        raise NumberError(f"{what} must be {kind}{_bounds(low, high)}, not {_quoted(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise NumberError(f"{what} must be a finite number{_bounds(low, high)}, not {value}")
    if whole and not isinstance(value, int):
        raise NumberError(f"{what} must be a whole number{_bounds(low, high)}, not {value}")
    if (low is not None and value < low) or (high is not None and value > high):
        kind = "a whole number" if whole else "a number"
        raise NumberError(f"{what} must be {kind}{_bounds(low, high)}, not {number_text(value)}")
    return value


def _bounds(low: int | float | None, high: int | float | None) -> str:
    if low is not None and high is not None:
        return f" from {number_text(low)} to {number_text(high)}"
    if low is not None:
        return f" of at least {number_text(low)}"
    if high is not None:
        return f" of at most {number_text(high)}"
    return ""


def _quoted(value: Any) -> str:
    """A value as a message quotes it: text cut to a readable length, a huge number by its size."""
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:37] + "...") + f" ({len(value):,} characters)"
    if isinstance(value, int) and not isinstance(value, bool):
        return number_text(value)
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
