"""A match at the terminal: people and bots at one table, saved as it goes, watched or resumed.

``tapete play`` hands a match here when a person sits at it, when it is saved
(``--save``) or watched (``--watch``); ``tapete resume`` always comes here. This
module wires the pieces together: the human seats get a `TableHost` (save,
rules, hints, the hot-seat pause), a `Saver` keeps the save file current after
every move, a `Watcher` prints each move as the table saw it, and ``quit``,
the end of input or Ctrl-C save the match and say how to continue it.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from ..core.actions import Action
from ..core.state import DealState
from ..design.describe import describe
from ..game import Game
from ..layout import Layout, layout_for
from ..play.loading import Variant
from ..play.match import Match, MatchResult
from ..view import Recorder
from .human import Host, HumanBot, Quit
from .render import make_console, tokens_text
from .saves import Replay, Save, read_save, saved_variant, variant_ref, write_save

EXIT_STOPPED = 1  # the input ended before the match did
EXIT_INTERRUPTED = 130  # Ctrl-C

Emit = Callable[[dict[str, Any]], None]


class Saver:
    """Keeps a match's save: the actions so far, written after each one once a file is named."""

    def __init__(self, save: Save, path: Path | None, default: Path):
        self.save, self.path, self.default = save, path, default
        self.writing = True  # off while a resumed match replays its saved moves

    def __call__(self, event: dict[str, Any]) -> None:
        if event.get("type") == "action":
            self.save.actions.append((int(event["seat"]), str(event["action"])))
            if self.path is not None and self.writing:
                write_save(self.path, self.save)

    def write(self, path: Path | None = None) -> Path:
        """Write the save now (to ``path``, the file in use or a default name); later moves go there too."""
        self.path = path or self.path or self.default
        write_save(self.path, self.save)
        return self.path


class TableHost(Host):
    """A human seat's host at the command line: the variant's rules, saving, the hot-seat pause."""

    def __init__(self, game: Game, console: Console, layout: Layout, variant: Variant, saver: Saver):
        super().__init__(game, console, layout)
        self.variant, self.saver = variant, saver

    def rules(self) -> list[str]:
        return describe(self.variant)

    def save(self, path: str | None) -> str:
        where = self.saver.write(Path(path) if path else None)
        return f"saved in {where} (kept up to date after every move); continue later with: tapete resume {where}"


class Watcher:
    """Prints each move as the table saw it (a face-down card stays hidden), pausing ``delay`` seconds."""

    def __init__(self, game: Game, layout: Layout, console: Console, delay: float, people: set[int]):
        self.game, self.layout, self.console, self.delay, self.people = game, layout, console, delay, people
        self.state: DealState | None = None
        self.recorder: Recorder | None = None
        self.seats: list[int] = []
        self.quiet = False

    def __call__(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        game = self.game
        if kind in ("deal", "resume"):
            self.state = DealState.from_json(event["state"], game.deck)
            self.seats = list(event["seats"])
            self.recorder = Recorder(game, self.state, [-1])
        elif kind == "action" and self.state is not None and self.recorder is not None:
            state, recorder = self.state, self.recorder
            action = Action.parse(str(event["action"]), game.deck)
            recorder.apply(state, action)
            if self.quiet:
                return
            view = recorder.view(state, -1)
            line = self.layout.event(view, view.history[-1 if not state.over else -2])
            self.console.print(Text("  ") + tokens_text(game.deck, line))
            if event["seat"] not in self.people and self.delay > 0:
                time.sleep(self.delay)


class Table:
    """Runs one match for the command line; `run` returns the result or an exit code."""

    def __init__(
        self,
        variant: Variant,
        match: Match,
        save: Save,
        save_path: Path | None,
        printer: Emit,
        watch: bool = False,
        delay: float = 0.0,
        log: Emit | None = None,
        console: Console | None = None,
    ):
        self.variant, self.match, self.printer, self.log = variant, match, printer, log
        self.console = console or make_console()
        game = match.game
        self.layout = layout_for(variant.registry.layouts, game.name)
        self.saver = Saver(save, save_path, default_save_path(save))
        self.host = TableHost(game, self.console, self.layout, variant, self.saver)
        people = {s for s, a in enumerate(match.agents) if isinstance(a, HumanBot)}
        self.host.hot_seat = len(people) > 1
        for s in people:
            match.agents[s].host = self.host
        self.watcher = Watcher(game, self.layout, self.console, delay, people) if watch else None
        self.host.watching = watch
        self.replay: Replay | None = None

    def emit(self, event: dict[str, Any]) -> None:
        if self.log is not None:
            self.log(event)
        self.saver(event)
        replaying = self.replay is not None and self.replay.replaying
        if self.watcher is not None:
            self.watcher.quiet = replaying
            self.watcher(event)
        if not replaying and event.get("type") != "action":
            self.printer(event)  # moves reach people through their table, or the watcher

    def resume_from(self, path: Path, actions: list[tuple[int, str]]) -> None:
        """Replay ``actions`` (checked) before anyone is asked anything new."""
        self.replay = Replay(path, actions, on_live=self._live)
        self.replay.wrap(self.match)
        self.saver.writing = False

    def _live(self) -> None:
        assert self.replay is not None
        self.saver.writing = True
        self.console.print(f"resumed {self.replay.path}: {self.replay.done} saved move(s) replayed")

    def run(self) -> MatchResult | int:
        try:
            return self.match.play(self.emit)
        except Quit as stop:
            where = self.saver.write()
            self.console.print(f"{stop.how}: the match is saved in {where}")
            self.console.print(f"continue it with: tapete resume {where}")
            return 0 if stop.how == "quit" else EXIT_STOPPED
        except KeyboardInterrupt:
            if self.replay is not None and self.replay.replaying:
                raise
            where = self.saver.write()
            self.console.print(f"\ninterrupted: the match is saved in {where}")
            self.console.print(f"continue it with: tapete resume {where}")
            return EXIT_INTERRUPTED


def default_save_path(save: Save) -> Path:
    """Where ``quit`` saves when no ``--save`` was given: a name from the variant and the seed."""
    stem = Path(save.variant).stem if save.variant.endswith((".yaml", ".yml")) else save.variant
    slug = re.sub(r"[^A-Za-z0-9]+", "-", f"{stem}-seed-{save.seed}").strip("-")
    return Path(f"{slug}.tapete-save.json")


def new_save(variant_arg: str, variant: Variant, options: dict[str, str], match: Match) -> Save:
    return Save(
        variant=variant_ref(variant_arg),
        digest=variant.digest,
        options=dict(options),
        seed=match.seed,
        players=match.players,
        bots=list(match.bot_names),
        resolved=json.loads(json.dumps(variant.options)),
    )


def play_at_table(
    variant_arg: str,
    variant: Variant,
    options: dict[str, str],
    match: Match,
    printer: Emit,
    save_path: Path | None,
    watch: bool,
    delay: float,
    log: Emit | None,
) -> MatchResult | int:
    """``tapete play`` with a person seated, a save file or watching."""
    save = new_save(variant_arg, variant, options, match)
    table = Table(variant, match, save, save_path, printer, watch, delay, log)
    return table.run()


def resume_at_table(
    path: Path, printer_for: Callable[[Variant], Emit], watch: bool, delay: float, log: Emit | None
) -> tuple[MatchResult | int, Match]:
    """``tapete resume FILE``: check the save whole, replay its moves, then play on, saving to the same file."""
    saved = read_save(path)
    variant = saved_variant(path, saved)
    match = Match(variant, saved.players, saved.seed, bots=saved.bots)
    save = Save(saved.variant, saved.digest, saved.options, saved.seed, saved.players, saved.bots, [], saved.resolved)
    table = Table(variant, match, save, path, printer_for(variant), watch, delay, log)
    table.resume_from(path, saved.actions)
    result = table.run()
    if isinstance(result, MatchResult) and table.replay is not None and table.replay.on_live is not None:
        table.console.print(f"{path}: this match was already over")
    return result, match
