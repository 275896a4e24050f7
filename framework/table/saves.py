"""Saved matches: what ``tapete play --save`` writes after every move and ``tapete resume`` reads.

A save records how the match was started (the variant as it was named, a digest
of its files, the options typed, the seed, the bots) and every action made, in
order. Resuming plays the match again from its seed with those actions: the
bots are asked again and must choose what they chose before, so the resumed
match is the very match that was stopped, with the same cards to come, and a
save that no longer fits (another tapete, a changed bot) is found out instead
of silently diverging.

The file is written whole to a temporary file and moved over the old one
(``os.replace``), so a process killed at any moment leaves the previous or the
next complete save, never half of one; `tapete.table.savefile` says which files
a match may write and how a save in use is locked. A checksum over the content refuses a
file edited by hand or damaged; every check names what is wrong, and nothing
is loaded from a file that fails one.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import observes
from ..core import paths
from ..core.actions import Action
from ..core.errors import SnapshotError, TapeteError
from ..core.limits import MAX_SAVE_BYTES, FileRefused, load_json, read_file
from ..core.version import __version__
from ..formats import SAVE_FORMAT, check_format
from ..play.loading import Variant, load_variant
from ..play.match import Match
from .human import HumanBot
from .savefile import SAVE_TYPE, SaveFile


@dataclass
class Save:
    """A match as a save file holds it."""

    variant: str  # a registered name, or the absolute path of a variant file
    digest: str
    options: dict[str, str]  # the --option values as typed
    seed: Any
    players: int
    bots: list[str]
    actions: list[tuple[int, str]] = field(default_factory=list)
    resolved: dict[str, Any] = field(default_factory=dict)  # every option's value, to compare on resume

    def body(self) -> dict[str, Any]:
        return {
            "type": SAVE_TYPE,
            "format": SAVE_FORMAT,
            "tapete": __version__,
            "variant": self.variant,
            "digest": self.digest,
            "options": self.options,
            "resolved_options": self.resolved,
            "seed": self.seed,
            "players": self.players,
            "bots": self.bots,
            "actions": [[s, a] for s, a in self.actions],
        }


def variant_ref(name_or_path: str) -> str:
    """How a save names a variant: a registered name as is, a file by its absolute path."""
    p = Path(name_or_path)
    return str(p.resolve()) if p.suffix in (".yaml", ".yml") or paths.is_file(p) else name_or_path


def _checksum(body: dict[str, Any]) -> str:
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def save_text(save: Save) -> str:
    """The save file's text: the header fields one per line, then one action per line."""
    body = save.body()
    body["checksum"] = _checksum(body)
    lines = json.dumps({k: v for k, v in body.items() if k != "actions"}, ensure_ascii=False, indent=1)
    actions = ",\n".join("  " + json.dumps(a, ensure_ascii=False) for a in body["actions"])
    return lines[:-2] + ',\n "actions": [\n' + actions + "\n ]\n}\n"


def write_save(path: Path, save: Save) -> None:
    """Write ``save`` to ``path`` atomically (a match at the table writes through its `SaveFile`)."""
    SaveFile(path).write(save_text(save))


def read_save(path: Path) -> Save:
    """Read and check a save file; SnapshotError naming the problem, and nothing loaded, if it fails."""
    try:
        text = read_file(path, "save", MAX_SAVE_BYTES).decode("utf-8")
    except FileRefused as exc:
        raise SnapshotError(f"{path}: {exc}") from None
    except UnicodeDecodeError:
        raise SnapshotError(f"{path}: not a tapete save (not text)") from None
    if not text.strip():
        raise SnapshotError(f"{path}: the save is empty")
    try:
        obj = load_json(text)
    except json.JSONDecodeError as exc:
        cut = exc.pos >= len(text.rstrip()) - 1
        what = "the save is cut short" if cut else "the save is damaged"
        raise SnapshotError(f"{path}: {what} (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except ValueError as exc:  # nested beyond MAX_NESTING
        raise SnapshotError(f"{path}: the save is damaged: {exc}") from None
    if not isinstance(obj, dict) or obj.get("type") != SAVE_TYPE:
        raise SnapshotError(f'{path}: not a tapete save (a save starts with "type": "{SAVE_TYPE}")')
    try:
        check_format("save", obj, SAVE_FORMAT)
    except SnapshotError as exc:
        raise SnapshotError(f"{path}: {exc}") from None
    stored = obj.pop("checksum", None)
    if stored is None:
        raise SnapshotError(f"{path}: the save has no checksum, so tapete cannot tell whether it was changed")
    if stored != _checksum(obj):
        raise SnapshotError(
            f"{path}: the save was changed after tapete wrote it (its checksum does not match its content): "
            "a save edited by hand or damaged is not loaded"
        )
    try:
        actions = [(int(s), str(a)) for s, a in obj["actions"]]
        return Save(
            variant=str(obj["variant"]),
            digest=str(obj["digest"]),
            options={str(k): str(v) for k, v in dict(obj["options"]).items()},
            seed=obj["seed"],
            players=int(obj["players"]),
            bots=[str(b) for b in obj["bots"]],
            actions=actions,
            resolved=dict(obj.get("resolved_options") or {}),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise SnapshotError(f"{path}: the save lacks or garbles a field ({type(exc).__name__}: {exc})") from None


def saved_variant(path: Path, save: Save) -> Variant:
    """The save's variant, refused when its files or its options are not what the save was played with."""
    try:
        variant = load_variant(save.variant, options=dict(save.options))
    except TapeteError as exc:
        raise SnapshotError(f"{path}: the save's variant {save.variant} does not load: {exc}") from None
    if variant.digest != save.digest:
        raise SnapshotError(
            f"{path}: the files of {variant.name} changed since the match was saved "
            f"(digest {variant.digest}, the save has {save.digest}); the saved moves may not fit the new rules"
        )
    resolved = json.loads(json.dumps(variant.options))
    if save.resolved and resolved != save.resolved:
        keys = sorted(k for k in set(resolved) | set(save.resolved) if resolved.get(k) != save.resolved.get(k))
        raise SnapshotError(f"{path}: the options of {variant.name} now resolve differently: {', '.join(keys)}")
    return variant


class Replay:
    """The saved actions, handed back in order to the seats that made them."""

    def __init__(self, path: Path, actions: list[tuple[int, str]], on_live: Callable[[], None] | None = None):
        self.path = path
        self.feed = deque(actions)
        self.done = 0
        self.on_live = on_live

    @property
    def replaying(self) -> bool:
        return bool(self.feed)

    def wrap(self, match: Match) -> None:
        """Put every seat's agent behind the replay."""
        match.agents = [ReplayingSeat(agent, seat, self, match) for seat, agent in enumerate(match.agents)]


class ReplayingSeat:
    """A seat during resume: plays the saved actions (checking a bot still makes them), then its agent."""

    def __init__(self, inner: Any, seat: int, replay: Replay, match: Match):
        self.inner, self.seat, self.replay, self.match = inner, seat, replay, match
        self.observes = observes(inner)
        self.person = isinstance(inner, HumanBot)  # a person's saved moves are taken as they are
        self._from_save: tuple[int, str] | None = None

    @property
    def rng(self) -> Any:
        return getattr(self.inner, "rng", None)

    def choose(self, view: Any, legal: list[Action]) -> Action:
        replay = self.replay
        if not replay.feed:
            self._from_save = None
            if replay.on_live is not None:
                replay.on_live()
                replay.on_live = None
            action: Action = self.inner.choose(view, legal)
            return action
        seat, text = replay.feed.popleft()
        replay.done += 1
        n = replay.done
        where = f"{replay.path}: saved move {n} (seat {seat}: {text!r})"
        if seat != self.seat:
            raise SnapshotError(f"{where} does not replay: seat {self.seat} is to move there")
        deck = self.match.game.deck
        try:
            action = Action.parse(text, deck)
        except ValueError as exc:
            raise SnapshotError(f"{where} is not a move: {exc}") from None
        if not self.person:
            mine: Action = self.inner.choose(view, legal)
            if mine != action:
                raise SnapshotError(
                    f"{where} does not replay: the {self.match.bot_names[seat]!r} bot now chooses "
                    f"{mine.text(deck)!r}; tapete or the bot changed since the match was saved"
                )
        self._from_save = (n, text)
        return action

    def refused(self, action: Action, reason: str) -> bool:
        if self._from_save is not None:
            raise SnapshotError(f"{self.replay.path}: saved move {self._from_save[0]} is refused by the game: {reason}")
        retry = getattr(self.inner, "refused", None)
        return bool(retry(action, reason)) if retry is not None else False
