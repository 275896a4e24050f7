"""A match at the terminal: people and bots at one table, saved as it goes, watched or resumed.

``tapete play`` hands a match here when a person sits at it, when it is saved
(``--save``) or watched (``--watch``); ``tapete resume`` always comes here. This
module wires the pieces together: the human seats get a `TableHost` (save,
rules, hints, the hot-seat pause), a `Saver` keeps the save file current after
every move, a `Follower` keeps the deal as the table saw it (so that a person
is shown the last moves of a deal, which nobody asks them about, and a
`Watcher` can print each move), the table waits for the people between deals
and tells them at the end whether they won, and ``quit``, the end of input or
Ctrl-C save the match and say how to continue it.
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
from ..core.errors import TapeteError
from ..core.state import DealState
from ..game import Game
from ..layout import Layout
from ..play.describe import describe
from ..play.loading import Variant
from ..play.match import Match, MatchResult
from ..view import Recorder, View
from .human import Host, HumanBot, Quit
from .render import Faces, event_lines, make_console
from .savefile import SaveFile, unique
from .saves import Replay, Save, read_save, save_text, saved_variant, variant_ref

EXIT_STOPPED = 1  # the input ended before the match did
EXIT_INTERRUPTED = 130  # Ctrl-C

Emit = Callable[[dict[str, Any]], None]
RulesText = Callable[[Variant], list[str]]  # a variant's rules as a person reads them at the table


class Saver:
    """Keeps a match's save: the actions so far, written after each one once a file is claimed.

    The file named with ``--save`` (or the save being resumed) is claimed before the first
    move; without one, ``quit`` claims a fresh default name. A file that is not this match's
    save is never replaced (``force`` says the person means it; see `tapete.table.savefile`)."""

    def __init__(self, save: Save, path: Path | None, default: Path, ours: bool = False, force: bool = False):
        self.save, self.default = save, default
        self.file = SaveFile(path).claim(ours=ours, force=force) if path is not None else None
        self.writing = True  # off while a resumed match replays its saved moves
        if self.file is not None and not ours:
            self.file.write(save_text(save))  # the file is this match's from before its first move

    @property
    def path(self) -> Path | None:
        return None if self.file is None else self.file.path

    def __call__(self, event: dict[str, Any]) -> None:
        if event.get("type") == "action":
            self.save.actions.append((int(event["seat"]), str(event["action"])))
            if self.file is not None and self.writing:
                self.file.write(save_text(self.save))

    def write(self, path: Path | None = None) -> Path:
        """Write the save now (to ``path``, the file in use or a default name); later moves go there too."""
        if path is not None and (self.file is None or path.resolve() != self.file.path.resolve()):
            claimed = SaveFile(path).claim()
            if self.file is not None:
                self.file.release()
            self.file = claimed
        elif self.file is None:
            self.file = SaveFile(unique(self.default)).claim()
        self.file.write(save_text(self.save))
        return self.file.path

    def close(self) -> None:
        if self.file is not None:
            self.file.release()


class TableHost(Host):
    """A human seat's host at the command line: the variant's rules, saving, the hot-seat pause."""

    def __init__(
        self,
        game: Game,
        console: Console,
        layout: Layout,
        variant: Variant,
        saver: Saver,
        rules_text: RulesText | None = None,
    ):
        super().__init__(game, console, layout)
        self.variant, self.saver = variant, saver
        self.rules_text: RulesText = rules_text or describe

    def rules(self) -> list[str]:
        """What ``rules`` prints: the rulebook the command line hands over (``tapete rules``), else the rules
        in plain words (``tapete show``); the table itself does not reach up for the designer's tools."""
        return self.rules_text(self.variant)

    def save(self, path: str | None) -> str:
        try:
            where = self.saver.write(Path(path) if path else None)
        except TapeteError as exc:  # a file that is not this match's save, a folder, a locked save
            return f"not saved: {exc}"
        return f"saved in {where} (kept up to date after every move); continue later with: tapete resume {where}"


class Follower:
    """The deal as the table saw it, played again from the match's events, for the people's views.

    The match hands views only to a seat it asks to move; once a deal is over nobody is
    asked, so what happened after a person's last move (the move before a close, the
    close itself) is seen here: `view` gives a person's view now (by deal seat), and
    ``-1`` the view of someone who sees only what is face up. ``seats`` are the match
    seats of this deal; ``faces`` the cards as the layout names them."""

    def __init__(self, match: Match, layout: Layout, people: set[int]):
        self.match, self.layout, self.people = match, layout, people
        self.game = match.game
        self.state: DealState | None = None
        self.recorder: Recorder | None = None
        self.seats: list[int] = []
        self.faces: Faces | None = None

    def __call__(self, event: dict[str, Any]) -> bool:
        """Follow one event; True when it was the move that ended the deal."""
        kind = event.get("type")
        game, match = self.game, self.match
        if kind in ("deal", "resume"):
            self.state = DealState.from_json(event["state"], game.deck)
            self.seats = list(event["seats"])
            watching = [-1, *(self.seats.index(s) for s in sorted(self.people) if s in self.seats)]
            # the match's own ledger and options: the very views the match hands a seat
            self.recorder = Recorder(game, self.state, watching, match.ledger.local(), match.variant.options)
            if self.faces is None:
                self.faces = Faces.of(game.deck, self.layout.card_names(self.view(-1)))
        elif kind == "action" and self.state is not None and self.recorder is not None:
            state, recorder = self.state, self.recorder
            action = Action.parse(str(event["action"]), game.deck)
            recorder.apply(state, action)
            return state.over
        return False

    def view(self, seat: int) -> View:
        assert self.state is not None and self.recorder is not None
        return self.recorder.view(self.state, seat)

    def deal_seat(self, match_seat: int) -> int | None:
        return self.seats.index(match_seat) if match_seat in self.seats else None


class Watcher:
    """Prints each move as the table saw it (a face-down card stays hidden), pausing ``delay`` seconds."""

    def __init__(self, layout: Layout, console: Console, delay: float, people: set[int]):
        self.layout, self.console, self.delay, self.people = layout, console, delay, people
        self.quiet = False

    def __call__(self, event: dict[str, Any], follower: Follower) -> None:
        if event.get("type") != "action" or follower.state is None or follower.faces is None or self.quiet:
            return
        view = follower.view(-1)
        line = self.layout.event(view, view.history[-1 if not follower.state.over else -2])
        width = self.console.width if self.console.is_terminal else None
        for part in event_lines(follower.faces, line, width):
            self.console.print(part)
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
        resumed: bool = False,
        force: bool = False,
        rules_text: RulesText | None = None,
    ):
        self.variant, self.match, self.printer, self.log = variant, match, printer, log
        self.console = console or make_console()
        game = match.game
        self.layout = variant.record.layout or Layout()
        self.saver = Saver(save, save_path, default_save_path(save), ours=resumed, force=force)
        self.host = TableHost(game, self.console, self.layout, variant, self.saver, rules_text)
        people = {s for s, a in enumerate(match.agents) if isinstance(a, HumanBot)}
        self.people: list[HumanBot] = [match.agents[s] for s in sorted(people)]
        self.host.hot_seat = len(people) > 1
        for person in self.people:
            person.host = self.host
        self.follower = Follower(match, self.layout, people)
        self.watcher = Watcher(self.layout, self.console, delay, people) if watch else None
        self.host.watching = watch
        self.replay: Replay | None = None
        self.between = False  # a deal was scored and the next one is not dealt yet

    def emit(self, event: dict[str, Any]) -> None:
        if self.log is not None:
            self.log(event)
        self.saver(event)
        replaying = self.replay is not None and self.replay.replaying
        kind = event.get("type")
        if kind == "deal" and self.between and not replaying:
            self.wait_for_people(int(event["number"]))
        ended = self.follower(event)
        if self.watcher is not None:
            self.watcher.quiet = replaying
            self.watcher(event, self.follower)
        if ended and not replaying:
            self.tell_the_end_of_the_deal()
        self.between = kind in ("score", "void")
        if kind == "end" and not replaying:
            self.tell_who_won(event)
        if not replaying and kind != "action":
            self.printer(self.in_table_words(event))  # moves reach people through their table, or the watcher

    # -- what the people at the table are told beyond their turns --------------------------
    def tell_the_end_of_the_deal(self) -> None:
        """Each person sees the moves made after their last one, to the end of the deal."""
        for person in self.people:
            seat = self.follower.deal_seat(person.seat)
            if seat is not None:
                person.deal_over(self.follower.view(seat))

    def wait_for_people(self, number: int) -> None:
        """Between deals, wait until the people have read the score (``quit`` stops and saves)."""
        if self.people:
            self.people[0].pause(f"deal {number - 1} is over; press Enter for deal {number} (or type quit) ")

    def tell_who_won(self, event: dict[str, Any]) -> None:
        """``you won`` / ``you lost`` to each person (a partner's win is theirs too)."""
        winner = int(event["winner"])
        game, players = self.match.game, self.match.players
        winners = set(game.team_seats(players, winner)) if winner >= 0 else set()
        for person in self.people:
            whose = f"seat {person.seat}: " if len(self.people) > 1 else ""
            if winner < 0:
                said = "the match is a draw"
            elif person.seat in winners:
                said = "you won the match" + (f", with seat {winner}" if person.seat != winner else "")
            else:
                said = f"you lost the match: seat {winner} won"
            self.console.print(Text(whose + said, style="bold"))

    def in_table_words(self, event: dict[str, Any]) -> dict[str, Any]:
        """The event with the game's lines naming cards as this table shows them (``7 de oros``)."""
        faces = self.follower.faces
        if faces is None or "lines" not in event:
            return event
        return {**event, "lines": [faces.words(str(line)) for line in event["lines"]]}

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
            return self._run()
        finally:
            self.saver.close()

    def _run(self) -> MatchResult | int:
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
    force: bool = False,
    rules_text: RulesText | None = None,
) -> MatchResult | int:
    """``tapete play`` with a person seated, a save file or watching; ``rules_text`` answers ``rules``."""
    save = new_save(variant_arg, variant, options, match)
    table = Table(variant, match, save, save_path, printer, watch, delay, log, force=force, rules_text=rules_text)
    return table.run()


def resume_at_table(
    path: Path,
    printer_for: Callable[[Variant], Emit],
    watch: bool,
    delay: float,
    log: Emit | None,
    rules_text: RulesText | None = None,
) -> tuple[MatchResult | int, Match]:
    """``tapete resume FILE``: check the save whole, replay its moves, then play on, saving to the same file."""
    saved = read_save(path)
    variant = saved_variant(path, saved)
    match = Match(variant, saved.players, saved.seed, bots=saved.bots)
    save = Save(saved.variant, saved.digest, saved.options, saved.seed, saved.players, saved.bots, [], saved.resolved)
    table = Table(
        variant, match, save, path, printer_for(variant), watch, delay, log, resumed=True, rules_text=rules_text
    )
    table.resume_from(path, saved.actions)
    result = table.run()
    if isinstance(result, MatchResult) and table.replay is not None and table.replay.on_live is not None:
        table.console.print(f"{path}: this match was already over")
    return result, match
