"""The one writer: every file a command writes is judged before any work and written whole.

A command that writes files (``--log``, ``--json``, ``--csv``, ``--plot``, ``--out``, ``--md``)
must never destroy anything a person has, so every output goes through an `Outputs` made
when the command starts:

- a path that is a folder, a FIFO, a socket, a device, a symlink loop or a symlink to
  nothing is refused up front, with one message, before a single match is played (a
  10-minute simulation must not run and then fail to write);
- a file that is an input of the same command (the variant file, a file it extends, a rule
  script: compared by resolved path and by inode, so a hard link is caught) is never
  replaced, not even with ``--force``;
- an existing file is replaced only when it is a tapete output of the same kind, recognised
  by its content (the marks below); anything else needs ``--force``;
- two outputs of one command never share a path (a derived twin, such as the report's
  Markdown page beside ``--out r.html``, is judged like a named one);
- each file is written to an anonymous temporary file in the target's folder (``O_TMPFILE``
  where the system has it, so a process killed with ``kill -9`` leaves nothing) and moved
  over the target only when it is complete (``os.replace``): a failure, Ctrl-C or SIGTERM
  leaves the old file as it was and no partial output.

The marks (say them in ``docs/bad-input.md`` when one changes): a JSON output starts with
``{"type": "tapete-..."`` and carries a ``"tapete"`` version key; a JSON-lines log's first
line is the match header (``"type": "match"`` with a ``"tapete"`` key); a CSV starts with its
header row; an HTML page has ``<meta name="generator" content="tapete VERSION KIND">``; a
Markdown page and a text rulebook start with the comment line `first_line` gives; a PNG has
a ``Software`` text chunk ``tapete VERSION KIND`` (matplotlib's ``metadata``).
"""

from __future__ import annotations

import errno
import os
import re
import stat
import weakref
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import InitVar, dataclass, field
from pathlib import Path
from typing import IO

from . import paths
from .errors import TapeteError, display_path
from .limits import not_a_file
from .version import __version__

HEAD_BYTES = 4096  # how much of an existing file is read to recognise a tapete output


@dataclass(frozen=True)
class Kind:
    """One kind of output: what it is called in messages and how its content is recognised."""

    name: str  # the word in the marks: "simulation", "report", ...
    noun: str  # "a tapete simulation (JSON)", as messages say it
    marks: tuple[bytes, ...]  # regular expressions over the file's first HEAD_BYTES; any one recognises it
    folder: bool = False  # a folder of PNG plots rather than a file
    own_rules: bool = False  # judged and written by its own module (the save file): only its path is claimed here

    def recognises(self, head: bytes) -> bool:
        return any(re.search(m, head) for m in self.marks)


def _json(kind: str) -> bytes:
    return rb'\A\{\s*"type":\s*"tapete-' + kind.encode() + rb'"'


def _generated(kind: str) -> bytes:
    return rb'<meta name="generator" content="tapete [^" ]+ ' + kind.encode() + rb'">'


def _comment(kind: str) -> bytes:
    return rb"\A(?:<!-- |# )tapete [^ ]+ " + kind.encode() + rb"(?: -->)?\r?\n"


def _png(kind: str) -> bytes:
    return rb"(?s)\A\x89PNG\r\n\x1a\n.*?tEXtSoftware\x00tapete [^\x00 ]+ " + kind.encode()


LOG = Kind("log", "a tapete match log", (rb'\A\{[^\n]*"tapete": "[^\n]*"type": "match"',))
SIMULATION_JSON = Kind("simulation", "a tapete simulation (JSON)", (_json("simulation"),))
SIMULATION_CSV = Kind("simulation", "a tapete simulation (CSV)", (rb"\Apoint,match,seed,",))
SIMULATION_PLOT = Kind("simulate", "a tapete simulation plot (PNG)", (_png("simulate"),))
TOURNAMENT_JSON = Kind("tournament", "a tapete tournament (JSON)", (_json("tournament"),))
REPORT_HTML = Kind("report", "a tapete report (HTML)", (_generated("report"),))
REPORT_MD = Kind("report", "a tapete report (Markdown)", (_comment("report"),))
REPORT_JSON = Kind("report", "a tapete report's figures (JSON)", (_json("report"),))
REPORT_PLOTS = Kind("report", "a tapete report plot (PNG)", (_png("report"),), folder=True)
RULEBOOK = Kind("rulebook", "a tapete rulebook", (_generated("rulebook"), _comment("rulebook")))
POLICY = Kind("policy", "a tapete policy", (rb"(?s)\APK\x03\x04.{26}tapete-policy\.json",))  # its header comes first
SAVE = Kind("save", "a saved match", (_json("save"),), own_rules=True)  # `tapete.table.savefile` judges and writes it


def generator(kind: str) -> str:
    """``tapete VERSION KIND``: the mark an HTML page's generator meta and a PNG's Software chunk carry."""
    return f"tapete {__version__} {kind}"


def first_line(kind: str, comment: str = "<!--") -> str:
    """The first line that marks a Markdown page (``<!-- tapete 1.0 report -->``) or a text file (``#``)."""
    return f"<!-- {generator(kind)} -->\n" if comment == "<!--" else f"# {generator(kind)}\n"


class OutputRefused(TapeteError):
    """An output path tapete will not write; the message names the path, why, and what would do."""


class WriteFailed(OutputRefused):
    """The system refused the write itself (a full disk, a read-only folder); ``reason`` says what it said."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{_shown(path)}: cannot write there: {reason}")
        self.reason = reason


# -- what is at a path ----------------------------------------------------------------------
def _shown(path: Path | str) -> str:
    """A path as messages show it: as named (a symlink is not followed), relative to here when under it."""
    full, here = os.path.abspath(path), os.getcwd()
    return os.path.relpath(full, here) if full.startswith(here + os.sep) else str(path)


def _identity(info: os.stat_result) -> tuple[int, int]:
    return (info.st_dev, info.st_ino)


def _head(path: Path) -> bytes:
    """The first bytes of a regular file, opened without blocking (it was judged a file just before)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        return os.read(fd, HEAD_BYTES)
    except OSError:
        return b""
    finally:
        os.close(fd)


def target_of(path: Path | str, what: str, purpose: str = "") -> Path:
    """Where writing ``path`` writes: the path itself, or the file a symlink points to.

    The one judgement of a path to write, made twice with the same words: by the path reader while
    the command line is read (`tapete.core.inputs.output_path`, before any work) and here again just
    before the write (the disk may have changed meanwhile). ``what`` names the output with its article
    ("a log", "a tapete rulebook (--out)"); ``purpose`` is what a folder is told to name a file for.
    Refused by name: a symlink loop, a symlink to nothing (writing would create a file somewhere the
    person did not name), a folder, a FIFO, a socket or a device, and a path whose folder is missing
    or not writable."""
    shown = _shown(path)
    try:
        info: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise OutputRefused(
                f"{shown}: is a link to nowhere ({os.readlink(path)}); tapete does not write through it"
            ) from None
        info = None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OutputRefused(f"{shown}: is a loop of symbolic links, not a place for {what}") from None
        if exc.errno == errno.ENOTDIR:
            raise OutputRefused(f"{shown}: a part of the path is a file, not a folder; name a file") from None
        raise OutputRefused(f"{shown}: cannot write {what} there: {exc.strerror or exc}") from None
    real = Path(os.path.realpath(path))
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            raise OutputRefused(f"{shown}: is a folder; name a file to {purpose or f'write {what} in'}")
        kind = not_a_file(info.st_mode)  # the folder is said above, in its own words
        if kind is not None:
            raise OutputRefused(f"{shown}: is {kind}, not a place for {what}: tapete writes regular files")
    folder = real.parent
    if not paths.is_dir(folder):
        raise OutputRefused(f"{shown}: cannot write {what} there: its folder {_shown(folder)} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputRefused(f"{shown}: cannot write {what} there: its folder {_shown(folder)} is not writable")
    return real


# -- one command's outputs --------------------------------------------------------------------
@dataclass
class _Output:
    path: Path  # as the person named it (or as it was derived)
    target: Path  # what is written: the path, or the file its symlink points to
    kind: Kind
    option: str  # "--json", "the Markdown twin of --out", ...
    written: bool = False


@dataclass(eq=False)  # compared (and hashed, in _LIVE) as the one object it is
class Outputs:
    """One command's outputs, judged together before any work (see the module docstring).

    ``force``: the person said ``--force``, so a file that is not a tapete output of the
    same kind may be replaced (never an input of the command)."""

    force: bool = False
    read: InitVar[Iterable[Path | str]] = ()  # what the command was told to read, as typed (names of files or not)
    inputs: list[tuple[Path, tuple[int, int] | None]] = field(default_factory=list)
    outputs: list[_Output] = field(default_factory=list)

    def __post_init__(self, read: Iterable[Path | str]) -> None:
        _LIVE.add(self)
        self.add_inputs(read)

    def add(self, path: Path | str | None, kind: Kind, option: str, inside: Iterable[str] = ()) -> Path | None:
        """Judge one output now (None: the option was not given); the path to write, as named.

        A folder output (``kind.folder``) names the files it will hold (``inside``): each is judged too."""
        if path is None:
            return None
        path = Path(path)
        what = f"{kind.noun} ({option})"
        shown = _shown(path)
        if kind.own_rules:  # judged by its own writer: only its path is claimed here
            target = Path(os.path.realpath(path))
        elif kind.folder:
            target = self._folder(path, what, option)
        else:
            target = target_of(path, what)
        here = self._identity(target)
        for other in self.outputs:
            if other.target == target or (here is not None and here == self._identity(other.target)):
                raise OutputRefused(
                    f"{shown}: named for both {other.option} and {option}; give each output a file of its own"
                )
        out = _Output(path, target, kind, option)
        self._check_inputs(out)
        if not kind.own_rules and not kind.folder:
            self._check_content(out)
        if kind.folder and paths.is_dir(target):
            for name in inside:
                self._inner(out, name)
        self.outputs.append(out)
        return path

    def add_inputs(self, files: Iterable[Path | str]) -> None:
        """Files the command reads (a variant's files, once loaded): no output may replace one."""
        for p in files:
            real = Path(os.path.realpath(p))
            ident = self._identity(real)
            if ident is not None:  # a registered variant's name is not a file
                self.inputs.append((real, ident))
        for out in self.outputs:
            self._check_inputs(out)

    def unwritten(self) -> list[str]:
        """The outputs not written (yet): what a stopped command names as left as it was."""
        return [_shown(o.path) for o in self.outputs if not o.written and not o.kind.own_rules]

    # -- judging
    @staticmethod
    def _identity(path: Path) -> tuple[int, int] | None:
        try:
            return _identity(os.stat(path))
        except OSError:
            return None

    def _check_inputs(self, out: _Output) -> None:
        here = self._identity(out.target)
        for real, ident in self.inputs:
            if real == out.target or (here is not None and ident == here):
                raise OutputRefused(
                    f"{_shown(out.path)}: is a file this command reads ({display_path(real)}); "
                    f"tapete never writes {out.option} over its own input, even with --force; name another file"
                )

    def _check_content(self, out: _Output) -> None:
        if not paths.exists(out.target) or self.force:
            return
        head = _head(out.target)
        shown = _shown(out.path)
        if out.kind.recognises(head):
            return
        other = next((k for k in KINDS if k.recognises(head)), None)
        what = f"is {other.noun}, not {out.kind.noun}" if other is not None else f"is not {out.kind.noun}"
        raise OutputRefused(
            f"{shown}: the file exists and {what}; name another file for {out.option}, or add --force to replace it"
        )

    def _folder(self, path: Path, what: str, option: str) -> Path:
        """A folder output (the report's plots): a folder or nothing; each file in it is judged when written."""
        shown = _shown(path)
        try:
            info = os.stat(path)
        except FileNotFoundError:
            if os.path.islink(path):
                raise OutputRefused(f"{shown}: is a symlink to nothing; name a folder for {what}") from None
            target_of(path, what)  # its own folder must be there and writable
            return Path(os.path.realpath(path))
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise OutputRefused(f"{shown}: is a symlink loop; name a folder for {what}") from None
            raise OutputRefused(f"{shown}: cannot write {what} there: {exc.strerror or exc}") from None
        if not stat.S_ISDIR(info.st_mode):
            raise OutputRefused(f"{shown}: is a file, not a folder; {option} is a folder of PNG plots")
        return Path(os.path.realpath(path))

    def _inner(self, folder: _Output, name: str) -> _Output:
        """A file a folder output will hold, judged as an output of the folder's kind."""
        inner = _Output(
            folder.path / name,
            target_of(folder.path / name, f"{folder.kind.noun} ({folder.option})"),
            folder.kind,
            folder.option,
        )
        self._check_inputs(inner)
        self._check_content(inner)
        return inner

    def _find_or_none(self, path: Path) -> _Output | None:
        return next((out for out in self.outputs if out.path == Path(path)), None)

    def _find(self, path: Path) -> _Output:
        out = self._find_or_none(path)
        if out is None:  # pragma: no cover - a write site names an output it did not add
            raise KeyError(path)
        return out

    # -- writing
    def write(self, path: Path, data: str | bytes) -> None:
        """Write one added output whole (atomically), judged again first: it may have changed meanwhile."""
        with self.open(path) as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)

    def write_in(self, folder: Path, name: str, data: bytes) -> Path:
        """Write ``name`` into an added folder output (made if missing); an existing file there is
        replaced only when it is a tapete output of the folder's kind (or with ``--force``)."""
        out = self._find(folder)
        try:
            out.target.mkdir(exist_ok=True)
        except OSError as exc:
            raise OutputRefused(f"{_shown(folder)}: cannot make the folder: {exc.strerror or exc}") from None
        inner = self._inner(out, name)
        with _pending(inner.target) as f:
            f.write(data)
        out.written = True
        return folder / name

    @contextmanager
    def open(self, path: Path) -> Iterator[IO[bytes]]:
        """A binary file for an added output; it replaces the target when the block ends without
        an exception, and vanishes (the target untouched) when one is raised."""
        out = self._find(path)
        out.target = target_of(out.path, f"{out.kind.noun} ({out.option})")
        self._check_inputs(out)
        self._check_content(out)
        with _pending(out.target) as f:
            yield f
        out.written = True


_LIVE: weakref.WeakSet[Outputs] = weakref.WeakSet()  # the outputs alive, so a stopped command can say what it left


def unwritten() -> list[str]:
    """Every output of the running command not written: ``interrupted: nothing written to ...``."""
    return [name for outputs in _LIVE for name in outputs.unwritten()]


def forget() -> None:
    """A new command starts (the app called again in one process): the last one's outputs are not its own."""
    _LIVE.clear()


def stopped_line(word: str) -> str:
    """The one line a stopped command ends on: ``interrupted; nothing written to r.html, r.md``."""
    left = unwritten()
    return f"{word}; nothing written to {', '.join(left)}" if left else word


# -- atomic files ---------------------------------------------------------------------------------
def _stale(target: Path) -> Path:
    """The one hidden name a write passes through on its way to ``target`` (removed by the next write)."""
    return target.with_name(f".{target.name}.tapete-tmp")


def replace_whole(path: Path, data: bytes) -> None:
    """Put ``data`` at ``path`` whole (a writer that judged the path itself: the save file)."""
    with _pending(Path(os.path.realpath(path))) as f:
        f.write(data)


def write_new(path: Path, data: str | bytes) -> None:
    """Create ``path``, which must not exist (a file ``tapete new`` writes), whole or not at all:
    a file put there meanwhile is never replaced."""
    with _pending(Path(os.path.realpath(path)), exclusive=True) as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)


@contextmanager
def _pending(target: Path, exclusive: bool = False) -> Iterator[IO[bytes]]:
    """A temporary file in ``target``'s folder, moved over ``target`` when the block succeeds
    (``exclusive``: linked to ``target`` only if nothing is there)."""
    folder = target.parent
    tmp = _stale(target)
    anonymous = hasattr(os, "O_TMPFILE")
    fd = -1
    if anonymous:
        try:
            fd = os.open(folder, os.O_TMPFILE | os.O_RDWR, 0o666)
        except OSError:  # a file system without anonymous files
            anonymous = False
    if not anonymous:
        _remove(tmp)
        try:
            fd = os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o666)
        except OSError as exc:
            raise WriteFailed(target, exc.strerror or str(exc)) from None
    f = os.fdopen(fd, "w+b")
    try:
        try:
            yield f
            f.flush()
            os.fsync(f.fileno())
            if anonymous:
                _name_anonymous(f, tmp)
            if exclusive:
                os.link(tmp, target)
            else:
                os.replace(tmp, target)
        except FileExistsError:
            raise OutputRefused(f"{_shown(target)}: already exists; tapete leaves it as it is") from None
        except OSError as exc:
            raise WriteFailed(target, exc.strerror or str(exc)) from None
    finally:
        f.close()
        _remove(tmp)


def _name_anonymous(f: IO[bytes], tmp: Path) -> None:
    """Give an anonymous file the hidden name ``tmp``: a link where /proc allows it, else a copy."""
    _remove(tmp)
    try:
        os.link(f"/proc/self/fd/{f.fileno()}", tmp, follow_symlinks=True)
        return
    except OSError:
        pass
    f.seek(0)
    with open(tmp, "xb") as copy:
        while chunk := f.read(1 << 20):
            copy.write(chunk)
        copy.flush()
        os.fsync(copy.fileno())


def _remove(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    except OSError:  # pragma: no cover - a folder of that name, or no permission: left as it is
        pass


class StreamedOutput:
    """An output written piece by piece (a match log): a complete file, or nothing.

    `commit` moves the file into place; `discard` leaves the target as it was. Either may
    be called more than once; only the first counts."""

    def __init__(self, outputs: Outputs, path: Path) -> None:
        self._cm = outputs.open(Path(path))
        self.file: IO[bytes] | None = self._cm.__enter__()

    def write(self, data: bytes) -> None:
        if self.file is None:
            raise ValueError("the output is closed")
        self.file.write(data)

    def commit(self) -> None:
        if self.file is not None:
            self.file = None
            self._cm.__exit__(None, None, None)

    def discard(self) -> None:
        if self.file is not None:
            self.file = None
            try:
                self._cm.__exit__(_Discarded, _Discarded(), None)
            except _Discarded:
                pass


class _Discarded(Exception):
    """Thrown into a pending write to drop it."""


KINDS = (
    LOG,
    SIMULATION_JSON,
    SIMULATION_CSV,
    SIMULATION_PLOT,
    TOURNAMENT_JSON,
    REPORT_HTML,
    REPORT_MD,
    REPORT_JSON,
    RULEBOOK,
    SAVE,
)
