"""JSON-lines match logs, and replaying them to check every event.

The first line records what is needed to play the match again (tapete version,
variant, resolved options, a digest of the variant's files, the seed); every
later line is one event. Replay feeds the logged actions back through the rules
and compares each event it produces with the logged one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .actions import Action
from .engine import load_variant
from .errors import IllegalAction, SnapshotError, TapeteError
from .formats import LOG_FORMAT, UNNUMBERED, check_format
from .match import Match


class LogWriter:
    def __init__(self, path: Path):
        try:
            self.file = open(path, "w", encoding="utf-8")
        except OSError as exc:
            raise TapeteError(f"{path}: cannot write the log there: {exc.strerror}") from None

    def __call__(self, event: dict[str, Any]) -> None:
        self.file.write(json.dumps(event, ensure_ascii=False, sort_keys=True) + "\n")

    def close(self) -> None:
        self.file.close()


def read_log(path: Path) -> list[dict[str, Any]]:
    events = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise SnapshotError(f"{path}: cannot read log: {exc.strerror}") from None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SnapshotError(f"{path}:{n}: not a JSON line: {exc.msg}") from None
        if not isinstance(obj, dict) or "type" not in obj:
            raise SnapshotError(f"{path}:{n}: an event needs a 'type'")
        events.append(obj)
    if not events or events[0].get("type") != "match":
        raise SnapshotError(f"{path}:1: the first line must be the match header")
    try:
        check_format("log", events[0], LOG_FORMAT)
    except SnapshotError as exc:
        raise SnapshotError(f"{path}:1: {exc}") from None
    events[0].setdefault("format", UNNUMBERED)
    return events


class _LoggedMoves:
    """A bot that plays what the log says, seat by seat."""

    def __init__(self, moves: Iterator[tuple[int, dict]], deck):
        self.moves, self.deck = moves, deck

    observes = False

    def choose(self, view, legal):
        try:
            line, event = next(self.moves)
        except StopIteration:
            raise Divergence(0, "the log ends but the match goes on") from None
        try:
            return Action.parse(event["action"], self.deck)
        except (KeyError, ValueError) as exc:
            raise Divergence(line, f"unreadable action: {exc}") from None


class Divergence(TapeteError):
    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line


@dataclass
class ReplayReport:
    events: int
    deals: int
    winner: int


def replay(path: Path, registry=None) -> ReplayReport:
    """Re-run a log; raise Divergence naming the first event that differs."""
    events = read_log(path)
    head = events[0]
    variant = load_variant(head["variant"], registry, options=head.get("options"))
    if variant.digest != head.get("digest"):
        raise Divergence(
            1,
            f"the files of {variant.name} changed since the log was written "
            f"(digest {variant.digest}, log has {head.get('digest')})",
        )
    numbered = list(enumerate(events, 1))
    action_lines = iter([(n, e) for n, e in numbered if e.get("type") == "action"])
    players = int(head["players"])
    moves = _LoggedMoves(action_lines, variant.rules.deck)
    match = Match(variant, players, head["seed"], bots=head.get("bots"), agents=[moves] * players)
    produced: list[dict[str, Any]] = []
    position = iter(numbered)

    def compare(event: dict[str, Any]) -> None:
        produced.append(event)
        try:
            n, logged = next(position)
        except StopIteration:
            raise Divergence(
                len(events) + 1, f"the match goes on past the end of the log with {event['type']}"
            ) from None
        expect = json.loads(json.dumps(event, ensure_ascii=False))
        if expect["type"] == "match" and "tapete" in logged:
            expect["tapete"] = logged["tapete"]  # any tapete reading the log's format replays it
        if expect != logged:
            keys = sorted(k for k in set(expect) | set(logged) if expect.get(k) != logged.get(k))
            raise Divergence(
                n,
                f"{logged.get('type')} event differs in {', '.join(keys)}: "
                f"log has {_short(logged, keys)}, replay gives {_short(expect, keys)}",
            )

    try:
        result = match.play(compare)
    except IllegalAction as exc:
        raise Divergence(len(produced) + 1, f"illegal move in the log: {exc}") from None
    if len(produced) != len(events):
        raise Divergence(len(produced) + 1, "the log goes on after the match ended")
    return ReplayReport(len(events), result.deals, result.winner)


def _short(obj: dict, keys) -> str:
    text = json.dumps({k: obj.get(k) for k in keys}, ensure_ascii=False)
    return text if len(text) < 200 else text[:197] + "..."
