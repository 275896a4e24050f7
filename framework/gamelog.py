"""JSON-lines match logs, and replaying them to check every event.

The first line records what is needed to play the match again (tapete version,
variant, resolved options, a digest of the variant's files, the seed); every
later line is one event. Replay feeds the logged actions back through the rules
and compares each event it produces with the logged one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .core import paths
from .core.actions import Action
from .core.errors import IllegalAction, ScriptError, SnapshotError, TapeteError, display_path
from .core.limits import MAX_LOG_BYTES, FileRefused, decode, load_json, read_file
from .core.outputs import LOG, Outputs, StreamedOutput
from .formats import LOG_FORMAT, UNNUMBERED, check_format
from .play.loading import load_variant
from .play.match import Match

if TYPE_CHECKING:
    from .core.cards import Deck
    from .play.loading import Variant
    from .plugins.loader import Registry


class LogWriter:
    """A match log, written through `tapete.core.outputs`: judged before the match starts, complete or nothing.

    The events go to a temporary file beside ``path``; `close` moves it into place, and
    `discard` (a match stopped by Ctrl-C or an error) leaves whatever was at ``path`` as
    it was. A path that is a folder, a FIFO or a device, a file that is not a tapete log
    (without ``force``) or a file the command reads (``outputs`` knows them) is refused
    before the first event."""

    def __init__(self, path: Path, outputs: Outputs | None = None, force: bool = False):
        outputs = outputs if outputs is not None else Outputs(force=force)
        if outputs._find_or_none(path) is None:
            outputs.add(path, LOG, "--log")
        self.file = StreamedOutput(outputs, path)

    def __call__(self, event: dict[str, Any]) -> None:
        self.file.write((json.dumps(event, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8"))

    def close(self) -> None:
        self.file.commit()

    def discard(self) -> None:
        self.file.discard()


def read_log(path: Path) -> list[dict[str, Any]]:
    """Every event of a log, or SnapshotError naming the file and line that is wrong."""
    shown = display_path(path)
    try:
        data = read_file(path, "log", MAX_LOG_BYTES)
    except FileRefused as exc:
        raise SnapshotError(f"{shown}: {exc}") from None
    try:
        text = decode(data, shown, "log", ScriptError)
    except ScriptError as exc:
        raise SnapshotError(f"{exc.location.path}:{exc.location.line}: {exc.message}") from None
    events = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = load_json(line)
        except json.JSONDecodeError as exc:
            raise SnapshotError(f"{shown}:{n}: not a JSON line: {exc.msg} (column {exc.colno})") from None
        except ValueError as exc:  # nested beyond MAX_NESTING
            raise SnapshotError(f"{shown}:{n}: {exc}") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
            raise SnapshotError(f"{shown}:{n}: an event must be a JSON object with a 'type'")
        obj["_line"] = n
        events.append(obj)
    if not events:
        raise SnapshotError(f"{shown}: the log is empty")
    if events[0].get("type") != "match":
        raise SnapshotError(f"{shown}:{events[0]['_line']}: the first event must be the match header")
    try:
        check_format("log", events[0], LOG_FORMAT)
    except SnapshotError as exc:
        raise SnapshotError(f"{shown}:{events[0]['_line']}: {exc}") from None
    events[0].setdefault("format", UNNUMBERED)
    return events


class _LoggedMoves:
    """A bot that plays what the log says, seat by seat."""

    def __init__(self, moves: Iterator[dict[str, Any]], deck: Deck, shown: str, last_line: int) -> None:
        self.moves, self.deck, self.shown, self.last_line = moves, deck, shown, last_line

    observes = False

    def choose(self, view: None, legal: list[Action]) -> Action:
        try:
            event = next(self.moves)
        except StopIteration:
            raise Divergence(
                self.last_line + 1,
                f"the log ends after line {self.last_line} but the match goes on (was the log cut short?)",
                self.shown,
            ) from None
        line = event["_line"]
        text = event.get("action")
        if not isinstance(text, str):
            raise Divergence(line, "an action event needs an 'action' text", self.shown)
        try:
            return Action.parse(text, self.deck)
        except ValueError as exc:
            raise Divergence(line, f"unreadable action {text!r}: {exc}", self.shown) from None


class Divergence(TapeteError):
    """A log that does not reproduce: the file, the first line that differs, and how."""

    def __init__(self, line: int, message: str, path: str = ""):
        super().__init__(f"{path}:{line}: {message}" if path else f"line {line}: {message}")
        self.line, self.path = line, path


@dataclass
class ReplayReport:
    events: int
    deals: int
    winner: int


def _header(head: dict[str, Any], shown: str) -> None:
    """The match header's fields, checked before any of them is used."""
    line = head["_line"]
    checks: dict[str, Callable[[Any], bool]] = {
        "variant": lambda v: isinstance(v, str),
        "players": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "seed": lambda v: isinstance(v, int | str) and not isinstance(v, bool),
        "options": lambda v: v is None or isinstance(v, dict),
        "bots": lambda v: v is None or (isinstance(v, list) and all(isinstance(b, str) for b in v)),
        "path": lambda v: v is None or isinstance(v, str),
        "files": lambda v: v is None or (isinstance(v, list) and all(_pair(p) for p in v)),
    }
    for key, ok in checks.items():
        if key in ("variant", "players", "seed") and key not in head:
            raise SnapshotError(f"{shown}:{line}: the match header lacks {key!r}")
        if not ok(head.get(key)):
            raise SnapshotError(f"{shown}:{line}: the match header's {key!r} is broken: {head.get(key)!r}")


def _pair(p: Any) -> bool:
    return isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)


def _variant_of(head: dict[str, Any], log: Path, registry: Registry | None, shown: str) -> Variant:
    """The variant a log was played with: its file when it was played from one, else its name."""
    line = head["_line"]
    source = head.get("path")
    if source is not None:
        candidates = [Path(source), Path(log).parent / Path(source).name]
        found = next((c for c in candidates if paths.is_file(c)), None)
        if found is None:
            raise Divergence(line, f"the variant file {source} it was played with is gone", shown)
        source = str(found)
    variant = load_variant(source or head["variant"], registry, options=head.get("options"))
    if variant.digest != head.get("digest"):
        changed = [
            name
            for (name, digest), (_, logged) in zip(variant.file_digests, head.get("files") or [], strict=False)
            if digest != logged
        ]
        now = [n for n, _ in variant.file_digests]
        then = [n for n, _ in head.get("files") or []]
        if head.get("files") is not None and now != then:
            what = f"its files are now {', '.join(now)}; the log has {', '.join(then)}"
        elif changed:
            what = f"changed since the log was written: {', '.join(changed)}"
        else:
            what = f"files changed since the log was written (digest {variant.digest}, log has {head.get('digest')})"
        where = f" ({source})" if source else ""
        raise Divergence(line, f"{variant.name}{where}: {what}", shown)
    return variant


# Header fields a replay takes as written: the tapete that wrote the log (any tapete reading its format
# replays it), and a web table's commitment to its seed (``fair``: ``tapete verify`` checks it).
HEADER_NOTES = ("tapete", "fair")


def replay(path: Path, registry: Registry | None = None) -> ReplayReport:
    """Re-run a log; raise Divergence naming the first event that differs."""
    events = read_log(path)
    shown = display_path(path)
    head = events[0]
    _header(head, shown)
    variant = _variant_of(head, path, registry, shown)
    action_lines = iter([e for e in events if e.get("type") == "action"])
    players = head["players"]
    moves = _LoggedMoves(action_lines, variant.rules.deck, shown, events[-1]["_line"])
    match = Match(variant, players, head["seed"], bots=head.get("bots"), agents=[moves] * players)
    produced: list[dict[str, Any]] = []
    position = iter(events)

    def compare(event: dict[str, Any]) -> None:
        produced.append(event)
        try:
            logged = dict(next(position))
        except StopIteration:
            raise Divergence(
                events[-1]["_line"] + 1,
                f"the log ends after line {events[-1]['_line']} but the match goes on with {event['type']}",
                shown,
            ) from None
        n = logged.pop("_line")
        expect = json.loads(json.dumps(event, ensure_ascii=False))
        if expect["type"] == "match":
            for key in HEADER_NOTES:
                if key in logged:
                    expect[key] = logged[key]
        if expect != logged:
            where, was, now = first_difference(logged, expect)
            raise Divergence(
                n,
                f"{logged.get('type')} event differs at {where}: log has {_short(was)}, replay gives {_short(now)}",
                shown,
            )

    try:
        result = match.play(compare)
    except IllegalAction as exc:
        n = events[len(produced)]["_line"] if len(produced) < len(events) else events[-1]["_line"] + 1
        raise Divergence(n, f"illegal move in the log: {exc}", shown) from None
    if len(produced) != len(events):
        raise Divergence(events[len(produced)]["_line"], "the log goes on after the match ended", shown)
    return ReplayReport(len(events), result.deals, result.winner)


_MISSING = object()


def first_difference(logged: Any, expect: Any, where: str = "") -> tuple[str, Any, Any]:
    """The first place (``state.zones.hand.0[3]``) where two JSON values differ, and both values there."""
    if isinstance(logged, dict) and isinstance(expect, dict):
        for key in [*expect, *(k for k in logged if k not in expect)]:
            a, b = logged.get(key, _MISSING), expect.get(key, _MISSING)
            if a != b:
                return first_difference(a, b, f"{where}.{key}" if where else str(key))
    if isinstance(logged, list) and isinstance(expect, list) and len(logged) == len(expect):
        for i, (a, b) in enumerate(zip(logged, expect, strict=True)):
            if a != b:
                return first_difference(a, b, f"{where}[{i}]")
    return where or "the whole event", logged, expect


def _short(value: Any) -> str:
    if value is _MISSING:
        return "nothing"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) < 200 else text[:197] + "..."
