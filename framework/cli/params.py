"""How a command declares its options: each kind of input has its factory here, backed by its reader.

A command writes ``games: int = games_option(100)`` or ``log: Path | None = output_option("--log", ...)``
instead of a bare ``typer.Option``: the value then goes through the one reader of its kind
(`tapete.core.inputs`) when the command line is parsed, before the command runs. A refusal
is one message naming the option and exit code 1, like every other bad input
(``--games must be a whole number from 1 to 1,000,000, not 0``).
The inventory test (``tests/test_inventory.py``) walks every command and fails on an
option or argument whose parser is not a `Reader`, so a new option cannot arrive unguarded.

Plain flags (``--quiet``) need no reader; the inventory lists them by name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import typer

from ..core import inputs
from ..core.errors import TapeteError
from ..core.inputs import MAX_GAMES, MAX_WORKERS
from ..core.limits import MAX_DELAY, MAX_PLAYERS


class Refused(TapeteError):
    """A value a reader refused while the command line was parsed (not a ValueError, which the parser
    would turn into a usage box): `CommandGroup.main` prints its one message, exit code 1."""


class Reader:
    """The parser of an option or argument: reads its value through one reader of `tapete.core.inputs`.

    ``kind`` names the reader (a key of `tapete.core.inputs.KINDS`); the inventory reads it
    from the parameter. Defaults go through it too, so a default is held to the same bounds."""

    def __init__(self, kind: str, read: Callable[[Any], Any], flag: str = "") -> None:
        if kind not in inputs.KINDS:
            raise ValueError(f"unknown kind of input {kind!r}")
        self.kind, self.read, self.flag = kind, read, flag

    def __call__(self, value: Any) -> Any:
        """The value read; a refusal is the reader's `TapeteError`, printed by `CommandGroup.main` (exit 1)."""
        if value is None:
            return None
        try:
            return self.read(value)
        except TapeteError as exc:
            raise Refused(str(exc)) from None

    def __repr__(self) -> str:
        return f"Reader({self.kind!r})"


def reader_of(param: Any) -> Reader | None:
    """The `Reader` a command-line parameter was declared with, or None (what the inventory asks)."""
    info = getattr(getattr(param, "type_descriptor", None), "parameter_info", None)
    found = getattr(info, "parser", None)
    return found if isinstance(found, Reader) else None


def _count_reader(what: str, low: int, high: int) -> Callable[[Any], int]:
    def read(value: Any) -> int:
        if isinstance(value, str):
            return inputs.read_count(value, what, low=low, high=high)
        return inputs.count(value, what, low=low, high=high)

    return read


def count_option(
    default: int | None, *names: str, high: int, low: int = 1, what: str | None = None, help: str | None = None
) -> Any:
    """A whole number from ``low`` to ``high`` (its named bound; ``3.0`` and ``1e3`` are refused)."""
    reader = Reader("count", _count_reader(what or names[0], low, high), names[0])
    return typer.Option(default, *names, parser=reader, help=help)


def games_option(default: int, help: str) -> Any:
    return count_option(default, "--games", "-n", high=MAX_GAMES, help=f"{help} (at most {MAX_GAMES:,})")


def players_option(help: str | None = None) -> Any:
    return count_option(None, "--players", "-p", high=MAX_PLAYERS, help=help)


def workers_option() -> Any:
    return count_option(
        None, "--workers", "-w", high=MAX_WORKERS, help=f"processes (default: one per core; at most {MAX_WORKERS})"
    )


def finite_option(
    default: float, *names: str, low: float | None, high: float | None, what: str, help: str | None = None
) -> Any:
    """A finite number within bounds (``nan``, ``inf`` refused)."""

    def read(value: Any) -> float:
        if isinstance(value, str):
            return inputs.read_finite(value, what, low=low, high=high)
        return inputs.finite(value, what, low=low, high=high)

    return typer.Option(default, *names, parser=Reader("finite", read, names[0]), help=help)


def _seed(value: Any) -> int | str:
    return inputs.read_seed(value) if isinstance(value, str) else inputs.seed(value)


def seed_option(default: str | None, help: str) -> Any:
    """A seed: a whole number or a short word (``--seed tuesday``)."""
    return typer.Option(default, "--seed", "-s", parser=Reader("seed", _seed, "--seed"), help=help)


def bots_option(default: Any, help: str, *, person: bool = True, where: str = "") -> Any:
    """Bot specs, one per seat; ``person=False`` refuses a seat that waits for a person (``human``)."""

    def read(value: Any) -> str:
        inputs.read_bots(value, person=person, where=where)
        return str(value)

    return typer.Option(default, "--bots", "-b", parser=Reader("bots", read, "--bots"), help=help)


def _pair(flag: str) -> Callable[[Any], str]:
    def read(value: Any) -> str:
        inputs.option_pairs([str(value)], flag)  # the value itself is typed (and bounded) by the variant
        return str(value)

    return read


def option_option(help: str = "NAME=VALUE (repeatable)") -> Any:
    """``--option NAME=VALUE``, repeatable; the value is typed by the variant (`tapete.rules.options`)."""
    reader = Reader("options", _pair("--option"))
    return typer.Option(None, "--option", "-o", parser=reader, help=help)


def policy_option(help: str) -> Any:
    """``--policy NAME=FILE``, repeatable: a trained policy a server's pages may seat by its name
    (`tapete.core.inputs.served_policies`: the name a bot's word, the file one to read)."""

    def read(value: Any) -> str:
        inputs.served_policies([str(value)])
        return str(value)

    return typer.Option(None, "--policy", parser=Reader("input_path", read, "--policy"), help=help)


def sweep_option(help: str) -> Any:
    """``--sweep NAME=V1,V2``, repeatable; the arms are bounded (`tapete.core.inputs.read_sweep`)."""
    return typer.Option(None, "--sweep", parser=Reader("options", _pair("--sweep")), help=help)


def output_option(*names: str, what: str, default: Any = None, help: str | None = None, purpose: str = "") -> Any:
    """A file to write: a folder, FIFO, device, socket or symlink loop is refused before any work."""
    return typer.Option(
        default,
        *names,
        parser=Reader("output_path", lambda v: inputs.output_path(v, what, purpose), names[0]),
        help=help,
    )


def input_argument(what: str, help: str) -> Any:
    """A file to read: it must be a regular file (a folder, a FIFO or a device is refused by name)."""
    return typer.Argument(..., parser=Reader("input_path", lambda v: inputs.input_path(v, what)), help=help)


def files_argument(help: str) -> Any:
    """Files a command judges one by one (``tapete check``): each path is read as a path here, and
    the command says of each what it is (a folder, a FIFO, a missing file), going on to the next."""
    return typer.Argument(..., parser=Reader("input_path", lambda v: inputs.path(v, "file")), help=help)


def variant_argument(help: str = "registered name or YAML path") -> Any:
    """A variant: a registered name or a YAML path (loading it says what is wrong with it)."""
    return typer.Argument(..., parser=_variant_reader(), help=help)


def variant_option(*names: str, help: str) -> Any:
    return typer.Option(..., *names, parser=_variant_reader(), help=help)


def _variant_reader() -> Reader:
    return Reader("variant", lambda v: inputs.word(v, "the variant", limit=inputs.MAX_PATH_TEXT))


def word_argument(what: str, help: str) -> Any:
    return typer.Argument(..., parser=Reader("word", lambda v: inputs.word(v, what)), help=help)


def word_option(default: str | None, *names: str, what: str, help: str | None = None) -> Any:
    """Short printable text (a scheduler's address)."""
    return typer.Option(default, *names, parser=Reader("word", lambda v: inputs.word(v, what)), help=help)


def choice_option(default: str, *names: str, choices: Sequence[str], help: str | None = None) -> Any:
    """One word of ``choices``."""
    what = names[0]
    reader = Reader("choice", lambda v: inputs.choice(v, what, choices), what)
    return typer.Option(default, *names, parser=reader, help=help)


def folder_option(default: Any, *names: str, what: str, help: str | None = None) -> Any:
    """A folder to write into: an existing folder, or a new one whose parent exists."""
    reader = Reader("output_path", lambda v: inputs.output_folder(v, what), names[0])
    return typer.Option(default, *names, parser=reader, help=help)


def delay_option() -> Any:
    """``--delay``: seconds after a bot's move with ``--watch``, 0 to `MAX_DELAY`."""
    return finite_option(
        0.0,
        "--delay",
        low=0,
        high=MAX_DELAY,
        what="the delay",
        help=f"with --watch: seconds to wait after a bot's move (at most {MAX_DELAY:g})",
    )


def scheduler_option() -> Any:
    return word_option(
        None,
        "--scheduler",
        what="--scheduler",
        help="a Dask scheduler, tcp://HOST:PORT, or 'local' (needs tapete[dask])",
    )


def counts_option(default: str, *names: str, n: int, high: int, low: int = 1, help: str | None = None) -> Any:
    """Exactly ``n`` comma-separated counts (``--budgets 5,20``); one or three are refused, saying so."""

    def read(value: Any) -> str:
        inputs.read_counts(str(value), names[0], n=n, low=low, high=high)
        return str(value)

    return typer.Option(default, *names, parser=Reader("count", read, names[0]), help=help)


def database_option(default: Path, *names: str, help: str) -> Any:
    """The table database: a path here; `tapete.web.dbfile.check_database` judges the file itself
    (tapete's own, an empty one or a new one; a folder, a FIFO, a foreign SQLite file refused
    unwritten) before the server starts, where the web extra is known to be installed."""
    reader = Reader("database", lambda v: inputs.database(v, names[0]), names[0])
    return typer.Option(default, *names, parser=reader, help=help)


def limit_option(name: str, default: float, *names: str, help: str) -> Any:
    """One of the web server's limits (`tapete.web.guards.Limits`), read with the bounds written there."""
    from ..web.guards import BOUNDS

    low, high = BOUNDS[name]
    if isinstance(low, int):
        return count_option(int(default), *names, low=low, high=int(high), help=f"{help} ({low:,} to {high:,})")
    return finite_option(
        float(default), *names, low=low, high=high, what=names[0], help=f"{help} ({low:g} to {high:g})"
    )
