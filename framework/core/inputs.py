"""One reader per kind of input: every command and every public entry point reads through these.

Each wave of hostile input found the same classes again on whatever surface was added
since, because each command read its own numbers, paths and bot specs. Here is the one
place for each kind, so that a new option or parameter starts guarded:

* `count` / `read_count`: a whole number within a named bound (numpy integers are whole
  numbers; ``True`` and ``3.0`` are not);
* `finite` / `read_finite`: a finite number within bounds;
* `seed` / `read_seed`: a match seed (a whole number or a short word);
* `input_path` and `output_path`: the up-front shape of a file to read or to write (a
  folder, FIFO, device, socket or symlink loop is refused by name before any work);
  reading itself goes through `tapete.core.limits.read_file`;
* `bot_spec` / `read_bots`: bot specs (``ismcts:iterations=400,c=0.5``), one parser for
  the command line, the web lobby and the Python API; `read_bots` also refuses a seat
  that needs a person where nobody can answer (``simulate``, ``report``, ``tournament``,
  ``tapete.rl``);
* `option_pairs` and `read_sweep`: ``NAME=VALUE`` option texts and sweeps (their values
  are typed by the variant's declarations in `tapete.rules.options`);
* `word` and `choice`: short printable text, and one word of a fixed list;
* `seat`: a seat number of a table of a known size.

Every refusal is a `tapete.core.limits.NumberError` or an `InputError` (both
`TapeteError` and `ValueError`) whose message names the input and what it was, and
nothing has been changed when it is raised. The readers run at the edges (the command
line, constructor arguments, file loading), never per move. Functions of the public API
say which reader each of their parameters goes through with `declare`, which the
inventory test (``tests/test_inventory.py``) reads; docs/bad-input.md lists every bound.
"""

from __future__ import annotations

import errno
import itertools
import math
import operator
import os
import re
import stat
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from . import paths
from .errors import TapeteError
from .limits import (
    MAX_PLAYERS,
    FileRefused,
    NumberError,
    check_number,
    looks_numeric,
    not_a_file,
    number_text,
    read_file,
    read_number,
)
from .outputs import OutputRefused, target_of
from .rng import read_seed

__all__ = [
    "KINDS",
    "MAX_BOT_PARAMETERS",
    "MAX_GAMES",
    "MAX_WORKERS",
    "MAX_BOTS_TEXT",
    "MAX_PATH_TEXT",
    "MAX_SWEEP_ARMS",
    "MAX_WORD_TEXT",
    "PERSON_BOTS",
    "BotSpec",
    "served_policies",
    "FileRefused",
    "as_whole",
    "flag",
    "InputError",
    "NumberError",
    "bot_name",
    "bot_spec",
    "check_number",
    "choice",
    "count",
    "declare",
    "declared",
    "finite",
    "input_path",
    "option_pairs",
    "output_folder",
    "output_path",
    "path",
    "read_bots",
    "read_count",
    "read_file",
    "read_finite",
    "read_number",
    "read_seed",
    "read_sweep",
    "seat",
    "seed",
    "split_bots",
    "word",
]

MAX_GAMES = 1_000_000  # matches per sweep point or arm (a million takes hours; a typo more takes for ever)
MAX_WORKERS = 256  # processes of one run on this machine
MAX_BOTS_TEXT = 10_000  # characters of one bot spec (a 5,000-digit parameter is refused by the number reader)
MAX_BOT_PARAMETERS = 32  # KEY=VALUE parameters of one bot spec
MAX_SWEEP_ARMS = 1_000  # sweep points (arms) of one run: the product of every --sweep's values
MAX_WORD_TEXT = 200  # characters of a free word: a variant's name, a scheduler's address, a host
MAX_PATH_TEXT = 4_096  # characters of a path typed on the command line
PERSON_BOTS = ("human",)  # bots that wait for a person to answer at a terminal
FILE_BOTS = ("policy",)  # bots that read a file their spec names: seated by whoever runs tapete, never by a web page

_BOT_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,63}")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")

F = TypeVar("F", bound=Callable[..., Any])


class InputError(TapeteError, ValueError):
    """An input tapete refuses before doing anything with it; the message names the input and why."""


# -- the declarations the inventory reads -----------------------------------------------------------
KINDS = {
    "count": "a whole number with a named bound (`count`)",
    "finite": "a finite number with bounds (`finite`)",
    "seed": "a match seed (`seed`)",
    "seat": "a seat of the table (`seat`)",
    "bots": "bot specs (`bot_spec`, `read_bots`)",
    "options": "option values, typed by the variant's declarations (`tapete.rules.options.resolve`)",
    "choice": "one word of a fixed list (`choice`)",
    "flag": "True or False (`flag`)",
    "word": "short printable text (`word`)",
    "input_path": "a file to read (`input_path`, then `tapete.core.limits.read_file`)",
    "output_path": "a file to write (`output_path`)",
    "database": (
        "the file `tapete serve` keeps its tables in, or a postgresql:// URL, judged before the server starts "
        "(`tapete.web.dbfile`, `tapete.web.pgstore`)"
    ),
    "variant": "a variant: a registered name or a YAML path, or a loaded Variant (`tapete.play.loading`)",
    "action": "a move: an Action or its text, checked by `Deal.play` (`tapete.play.deal.malformed`)",
    "snapshot": "a deal's snapshot, checked whole (`tapete.play.deal.state_from_snapshot`)",
    "callable": "a function the caller provides (a progress display, a bot factory, a player)",
    "object": "an object of tapete's own making, checked by its type (a Game, a DealState, a Random)",
}


def declare(**kinds: str) -> Callable[[F], F]:
    """Mark which reader each parameter of a public function goes through (the function is unchanged).

    A declaration costs nothing per call: it is read only by the inventory test, which fails
    when a public parameter has none, so a parameter added without a reader is seen."""
    unknown = sorted(set(kinds.values()) - set(KINDS))
    if unknown:
        raise ValueError(f"unknown kind of input {unknown[0]!r}; kinds: {', '.join(KINDS)}")

    def mark(fn: F) -> F:
        merged = dict(declared(fn), **kinds)
        try:
            fn.__tapete_inputs__ = merged  # type: ignore[attr-defined]
        except AttributeError:  # a method written in C takes no attribute: kept here instead
            _DECLARED[fn] = merged
        return fn

    return mark


_DECLARED: dict[Any, dict[str, str]] = {}  # what `declare` said of callables that take no attribute


def declared(fn: Callable[..., Any]) -> dict[str, str]:
    """The kinds `declare` gave ``fn``'s parameters ({} when none)."""
    found = getattr(fn, "__tapete_inputs__", None)
    if not isinstance(found, dict):
        try:
            found = _DECLARED.get(fn)
        except TypeError:  # unhashable: nothing was declared of it here
            found = None
    return dict(found) if isinstance(found, dict) else {}


# -- numbers --------------------------------------------------------------------------------------
def as_whole(value: Any) -> int | None:
    """``value`` as an int when it is a whole number of any integer type (numpy's included), else None.

    A bool (Python's or numpy's) is a truth value, not a number, and a float is never whole here."""
    if isinstance(value, bool | float):
        return None
    if isinstance(value, int):
        return int(value)
    if type(value).__name__ == "bool_":  # numpy's bool: a truth value, not a number
        return None
    try:
        return operator.index(value)  # numpy.int64 and every type that says it is an integer
    except TypeError:
        return None


def count(value: Any, what: str, *, low: int = 0, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (its named bound): NumberError otherwise.

    Integers of any type count (``numpy.int64(5)`` is 5); ``True``, ``3.0``, ``"3"`` and
    ``nan`` are refused, naming ``what`` and the bounds."""
    whole = as_whole(value)
    if whole is None:
        check_number(value, what, whole=True, low=low, high=high)  # raises, saying what it is instead
        raise NumberError(f"{what} must be a whole number from {number_text(low)} to {number_text(high)}")
    checked: int = check_number(whole, what, whole=True, low=low, high=high)
    return checked


def read_count(text: str, what: str, *, low: int = 0, high: int) -> int:
    """A count typed as text (``--games 20``): ASCII digits only, so ``3.0``, ``1e3`` and ``1_000`` are refused."""
    return count(read_number(text, what, whole=True, low=low, high=high), what, low=low, high=high)


def finite(value: Any, what: str, *, low: float | None = None, high: float | None = None) -> float:
    """``value`` as a finite float within the bounds (numpy numbers included; a bool, nan, inf refused)."""
    whole = as_whole(value)
    if whole is not None:
        value = whole
    elif not isinstance(value, bool) and type(value).__name__ not in ("bool_",):
        try:
            if not isinstance(value, int | float) and hasattr(value, "__float__") and hasattr(value, "dtype"):
                value = float(value)  # numpy.float64 and its kin
        except (TypeError, ValueError):
            pass
    checked = check_number(value, what, whole=False, low=low, high=high)
    return float(checked)


def read_finite(text: str, what: str, *, low: float | None = None, high: float | None = None) -> float:
    """A finite number typed as text (``--delay 0.5``)."""
    return float(read_number(text, what, whole=False, low=low, high=high))


def seat(value: Any, players: int, what: str = "seat") -> int:
    """A seat of a table of ``players``: a whole number from 0 to players - 1 (``"0"`` and ``True`` are not)."""
    return count(value, what, low=0, high=players - 1)


def seed(value: Any, what: str = "seed") -> int | str:
    """A match seed given from Python: a whole number (numpy's included) or a word.

    A float (``1.5``, ``nan``), a bool, None or a list is refused: two seeds that print the
    same must deal the same cards, which ``1.5`` and ``[1]`` would not promise."""
    if isinstance(value, str):
        return value  # a word from Python is a seed as it is (typed text is read by `read_seed`)
    whole = as_whole(value)
    if whole is None:
        raise InputError(f"{what} must be a whole number or a word, not {_shown(value)}")
    return whole  # of any size: a seed is hashed, never computed with


# -- words ----------------------------------------------------------------------------------------
def word(value: Any, what: str, *, limit: int = MAX_WORD_TEXT, empty: bool = False) -> str:
    """Printable text of at most ``limit`` characters (empty only if ``empty``)."""
    if not isinstance(value, str):
        raise InputError(f"{what} must be text, not {_shown(value)}")
    if len(value) > limit:
        raise InputError(f"{what}: {len(value):,} characters are refused; at most {limit:,}")
    if not value.strip() and not empty:
        raise InputError(f"{what} is empty")
    if not value.isprintable():
        raise InputError(f"{what}: {value!r:.60} holds characters that do not print (a control character or NUL)")
    return value


def flag(value: Any, what: str) -> bool:
    """``value`` when it is True or False (numpy's bool too); 1, "yes" and None are refused."""
    if isinstance(value, bool):
        return value
    kind = type(value)
    if kind.__module__ == "numpy" and kind.__name__ in ("bool_", "bool"):  # numpy 1's name, and numpy 2's
        return bool(value)
    raise InputError(f"{what} must be True or False, not {_shown(value)}")


def choice(value: Any, what: str, choices: Sequence[str | None]) -> Any:
    """``value`` when it is one of ``choices`` (None may be one); InputError listing them otherwise."""
    if isinstance(value, str | type(None)) and value in choices:
        return value
    listed = ", ".join("None" if c is None else c for c in choices)
    raise InputError(f"{what} must be one of {listed}, not {_shown(value)}")


# -- paths ----------------------------------------------------------------------------------------
def _path_text(value: Any, what: str) -> Path:
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if isinstance(value, bytes) or not isinstance(value, str):
        raise InputError(f"{what} must be a path, not {_shown(value)}")
    if not value or len(value) > MAX_PATH_TEXT or "\x00" in value:
        raise InputError(f"{what}: {value!r:.60} is not a path (empty, too long, or holding NUL)")
    return Path(value)


def path(value: Any, what: str) -> Path:
    """A path as typed: text of at most `MAX_PATH_TEXT` characters without NUL (what it names is not looked at)."""
    return _path_text(value, what)


DATABASE_URLS = ("postgresql://", "postgres://")


def database(value: Any, what: str) -> Path | str:
    """``tapete serve``'s store: a ``postgresql://`` URL, kept as text (the server connects before it starts),
    else a path as typed (the file is judged by `tapete.web.dbfile` before the server starts)."""
    if isinstance(value, str) and value.startswith(DATABASE_URLS):
        if len(value) > MAX_PATH_TEXT or "\x00" in value or any(c.isspace() for c in value):
            raise InputError(f"{what}: {value[:60]!r} is not a database URL (too long, or holding NUL or spaces)")
        return value
    return _path_text(value, what)


def input_path(value: Any, what: str, *, folder: bool = False) -> Path:
    """A file to read, named by a person: it must exist and be a regular file (checked again when read).

    ``folder=True``: a folder is passed on too, for a command that says what to do with one."""
    path = _path_text(value, what)
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise InputError(f"{path}: cannot read the {what}: {_why(exc)}") from None
    kind = not_a_file(mode)
    if stat.S_ISDIR(mode) and not folder:
        raise InputError(f"{path}: is a folder, not a {what}")  # the words of tapete.core.limits.read_file
    if kind is not None and not stat.S_ISDIR(mode):
        raise InputError(f"{path}: is {kind}, not a {what}: tapete reads only regular files")
    return path


def output_path(value: Any, what: str, purpose: str = "") -> Path:
    """A file to write, as named: refused up front when it is a folder, a FIFO, a device, a socket, a
    symlink loop or a link to nowhere, or its folder is missing or not writable. The judgement is the
    writer's own (`tapete.core.outputs.target_of`), so the command line and the write say the same
    words; whether an existing file may be replaced is the writer's decision, when it writes.

    ``what`` is the output's noun ("log"); ``purpose`` is what a folder is told to name a file for
    (default: ``write a WHAT in``)."""
    path = _path_text(value, what)
    try:
        target_of(path, f"{_article(what)} {what}", purpose)
    except OutputRefused as exc:
        raise InputError(str(exc)) from None
    return path


def _article(noun: str) -> str:
    return "an" if noun[:1].lower() in "aeiou" else "a"


def output_folder(value: Any, what: str) -> Path:
    """A folder to write into: an existing folder, or a name whose parent folder exists (it is made)."""
    path = _path_text(value, what)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if not paths.is_dir(path.parent):
            raise InputError(f"{path}: cannot make the {what} there: its folder {path.parent} does not exist") from None
        return path
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(f"{path}: is a loop of symbolic links, not a {what}") from None
        raise InputError(f"{path}: cannot use it as the {what}: {_why(exc)}") from None
    if not stat.S_ISDIR(mode):
        raise InputError(f"{path}: is {not_a_file(mode) or 'a file'}, not a folder for the {what}")
    return path


def _why(exc: OSError) -> str:
    return str(exc.strerror or exc)


# -- bot specs ------------------------------------------------------------------------------------
class BotSpec(NamedTuple):
    """One seat's bot: its name and its parameters, as typed (``ismcts:iterations=400``)."""

    name: str
    params: dict[str, Any]

    def text(self) -> str:
        """The spec written back (what logs and snapshots keep)."""
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={_param_text(v)}" for k, v in self.params.items())


def _param_text(value: Any) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def bot_name(name: Any, what: str = "bot") -> str:
    """A bot's name: a letter, then letters, digits, ``_ . -`` (so ``42``, ``a,b`` and ``a b`` are none)."""
    if not isinstance(name, str) or not _BOT_NAME.fullmatch(name):
        raise InputError(
            f"{name!r:.60} is not a {what} name: a bot's name starts with a letter and holds letters, digits, _ . -"
        )
    return name


def split_bots(text: str) -> list[str]:
    """One spec per seat from a ``--bots`` value (a comma starts a new seat unless ``KEY=VALUE`` follows)."""
    seats: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" in part and ":" not in part.split("=", 1)[0] and seats and ":" in seats[-1]:
            seats[-1] += "," + part
        else:
            seats.append(part)
    return seats


def bot_spec(spec: Any, what: str = "bot") -> BotSpec:
    """``NAME`` or ``NAME:KEY=VALUE,...`` read strictly: InputError saying what is wrong.

    A name is a letter then letters, digits, ``_ . -`` (so ``42``, ``a b`` or an empty
    name are no bots); ``random:`` (a colon and nothing), ``iterations=`` (no value), a key
    given twice and more than `MAX_BOT_PARAMETERS` parameters are refused. Values read as
    whole numbers, then decimals, then words, by the one number reader: a value that starts
    like a number must be one (``1e400`` and ``nan`` are refused, naming the parameter).
    Whether the bot takes those parameters, and in what range, its factory decides when it
    is built once up front (`tapete.play.match.check_bots`)."""
    if not isinstance(spec, str):
        raise InputError(f"a {what} is named by text such as 'random' or 'ismcts:iterations=400', not {_shown(spec)}")
    text = spec.strip()
    if not text:
        raise InputError(f"an empty {what} spec: name a bot, such as 'random'")
    if len(text) > MAX_BOTS_TEXT:
        raise InputError(f"a {what} spec of {len(text):,} characters is refused; at most {MAX_BOTS_TEXT:,}")
    name, colon, rest = text.partition(":")
    name = bot_name(name.strip())
    params: dict[str, Any] = {}
    items = [p.strip() for p in rest.replace(":", ",").split(",")] if colon else []
    if colon and not any(items):
        raise InputError(f"{what} {text!r:.60}: nothing follows the colon; give KEY=VALUE or leave out the ':'")
    for item in items:
        if not item:
            continue
        key, eq, value = (s.strip() for s in item.partition("="))
        if not eq or not _KEY.fullmatch(key):
            raise InputError(f"bot parameter {item!r:.60} of {name!r} is not KEY=VALUE")
        if not value:
            raise InputError(f"bot parameter {key!r} of {name!r} has no value: write {key}=VALUE")
        if key in params:
            raise InputError(f"bot parameter {key!r} of {name!r} is given twice")
        if len(params) >= MAX_BOT_PARAMETERS:
            raise InputError(f"bot {name!r}: more than {MAX_BOT_PARAMETERS} parameters")
        params[key] = _bot_value(value, f"bot parameter {key!r} of {name!r}")
    return BotSpec(name, params)


def _bot_value(text: str, what: str) -> Any:
    """A whole number, a decimal, or the word itself; text meant as a number that is none is refused."""
    if not looks_numeric(text):
        return word(text, what)
    try:
        return read_number(text, what, whole=True)
    except TapeteError:
        return read_number(text, what, whole=False)


def read_bots(value: Any, *, what: str = "--bots", person: bool = True, where: str = "") -> list[str]:
    """The bot spec of each seat from a ``--bots`` text or a list of specs, each read by `bot_spec`.

    ``person=False`` (``simulate``, ``report``, ``tournament``, ``tapete.rl``: nobody is there
    to answer) refuses a seat whose bot waits for a person, saying where one can sit."""
    if isinstance(value, str):
        if len(value) > MAX_BOTS_TEXT * MAX_PLAYERS:  # a seat's spec each, at most
            raise InputError(f"{what}: {len(value):,} characters are refused")
        specs = split_bots(value)
        if not specs:
            raise InputError(f"{what} is empty: name at least one bot, such as 'random'")
    elif isinstance(value, Sequence) and not isinstance(value, bytes):
        specs = list(value)
    else:
        raise InputError(f"{what} must be bot specs (text such as 'random,ismcts'), not {_shown(value)}")
    out: list[str] = []
    for item in specs:
        parsed = bot_spec(item)
        if not person and parsed.name in PERSON_BOTS:
            here = f"{where} plays" if where else "this plays"
            raise InputError(
                f"{what}: a {parsed.name!r} seat waits for a person, but {here} with nobody at the table; "
                "seat a person with 'tapete play' (or 'tapete serve'), and bots here"
            )
        out.append(item.strip())
    return out


# -- options and sweeps ---------------------------------------------------------------------------
def option_pairs(pairs: Sequence[str] | None, flag: str = "--option") -> list[tuple[str, str]]:
    """``NAME=VALUE`` texts as (name, value) pairs; a name given twice is refused, naming both values."""
    out: list[tuple[str, str]] = []
    seen: dict[str, str] = {}
    for pair in pairs or ():
        key, eq, value = pair.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key:
            raise InputError(f"{flag} wants NAME=VALUE, not {pair!r:.80}")
        if key in seen:
            raise InputError(f"{flag} {key} is given twice ({seen[key]!r} and {value!r}): give each option once")
        seen[key] = value
        out.append((key, value))
    return out


def served_policies(pairs: Sequence[str] | None, flag: str = "--policy") -> list[tuple[str, Path]]:
    """``NAME=FILE`` texts as (name, file) pairs: the trained policies a server's pages may seat
    by name (``tapete serve --policy``). The name is a bot's word, given once; the file is one to
    read (`input_path`); whether it holds a policy, and for which game, its reader says
    (`tapete.web.trusted`)."""
    out: list[tuple[str, Path]] = []
    for name, file in option_pairs(pairs, flag):
        out.append((bot_name(name, f"{flag} policy"), input_path(file, "policy file")))
    return out


def read_sweep(
    pairs: Sequence[str] | None, options: Mapping[str, Any] | None = None, flag: str = "--sweep"
) -> dict[str, list[str]]:
    """``NAME=V1,V2,...`` sweeps as {name: values}; an option both swept and set, or more than
    `MAX_SWEEP_ARMS` arms in all, is refused with the reason (the values are typed by the variant)."""
    grid: dict[str, list[str]] = {}
    for key, values in option_pairs(pairs, flag):
        if options is not None and key in options:
            raise InputError(f"option {key} is given both as --option and as {flag}: give it once")
        grid[key] = [v.strip() for v in values.split(",")]  # an empty item is a value too, judged as one
    arms = math.prod(len(v) for v in grid.values()) if grid else 1
    if arms > MAX_SWEEP_ARMS:
        sizes = " x ".join(str(len(v)) for v in grid.values())
        raise InputError(f"{flag}: {sizes} = {arms:,} arms are refused; a run has at most {MAX_SWEEP_ARMS:,} arms")
    return grid


def read_counts(text: str, what: str, *, n: int, low: int = 0, high: int) -> list[int]:
    """Exactly ``n`` comma-separated counts (``--budgets 5,20``): fewer or more are refused, saying how many."""
    items = [s.strip() for s in text.split(",")]
    if len(items) != n or not all(items):
        raise InputError(f"{what} takes {n} whole numbers separated by commas, not {text!r:.60}")
    return [read_count(s, what, low=low, high=high) for s in items]


def sweep_points(grid: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Every combination of the swept values, in order (one point without a sweep)."""
    return [dict(zip(grid, combo, strict=True)) for combo in itertools.product(*grid.values())] or [{}]


def _shown(value: Any) -> str:
    """A value as a message shows it: text quoted, anything else by its type and a short repr."""
    text = repr(value)
    text = text[:57] + "..." if len(text) > 60 else text
    return text if isinstance(value, str) else f"{type(value).__name__} {text}"
