"""``tapete serve``: the web table, on Starlette and uvicorn, over WebSockets.

The server is one more front-end: it plays matches through `tapete.web.tables`,
keeps them in `tapete.web.store`, and sends each connection what its seat's
view shows (`tapete.web.messages`). A connection proves its seat with the link
token in its first message (the token lives in the link's ``#fragment``, so it
never reaches a server log or a Referer header) and is bound to that seat for
good: it can move only for that seat, only in turn, only answering the position
it was shown (the sequence number), and a message that fails any check is
answered with a refusal and changes nothing.

Everything that changes a table runs on the event loop, one step at a time per table
(``Room.lock``): the step is checked, handed to the store and, once it is in the
file (`tapete.web.store`: one transaction for the steps of every table in one turn
of the loop, never a wait for the disk on the loop), applied, acknowledged and shown. A bot
that decides in a blink (its last decision took under `QUICK_BOT` of CPU time)
decides on the loop, where a worker thread would cost more than the decision; any
other bot thinks in a worker thread on a copy (its view), and its choice is dropped
if the table moved on meanwhile (a person came back to their seat).

What a page is sent about the table is one state message per seat and position,
built once from the seat's view and encoded once for every page of that seat
(`SeatState`); a page that was shown the seat's previous state is sent only what
changed (a ``change`` message: the keys of the state whose values differ, always
with ``seq``), any other page the whole state.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import math
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.errors import TapeteError
from ..core.inputs import PERSON_BOTS, bot_spec
from ..core.rng import Random
from ..layout import Layout
from ..play.describe import describe
from ..play.loading import Variant, load_variant
from ..plugins.loader import Registry
from ..plugins.loader import registry as default_registry
from ..rules.options import option_value
from ..rules.variant_file import option_text
from . import messages
from .store import Store
from .tables import (
    BY_CLOCK,
    BY_STAND_IN,
    DEAL_OVER,
    PLAY,
    SPECTATOR,
    Created,
    LiveTable,
    Refusal,
    SeatPlan,
    Step,
    TableConfig,
    new_seed,
    new_token,
)

RulesText = Callable[[Variant], list[str]]  # a variant's rules page, as the command line hands it over
MAX_MESSAGE = 4096  # characters in one message from a client; a longer one is refused unread
MAX_FRAME = 65536  # bytes in one WebSocket frame; the protocol closes a connection that sends more
MAX_MOVE_TEXT = 200
HELLO_TIMEOUT = 10.0  # seconds a new connection has to name its token
MAX_LIVE_TABLES = 2000  # tables held in memory at once; creating more is refused until some finish
MAX_PACE = 10.0
MAX_WAIT = 24 * 3600.0
TICK = 0.02  # seconds: a table's timed move (a bot's pace, the clock, the away time) waits for the next beat
QUICK_BOT = 0.001  # a bot whose last decision took less CPU time (seconds) decides on the event loop
QUEUE_LIMIT = 64  # messages waiting for one slow connection before it is dropped

Json = dict[str, Any]
log = logging.getLogger("tapete.web")


@dataclass(eq=False)
class Connection:
    """One open page: bound to one seat of one table, with its own queue of outgoing messages."""

    ws: WebSocket
    table_id: str
    seat: int
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    shown: Json | None = None  # the last state message this page was sent (a change builds on it)

    def send(self, msg: Json) -> None:
        self.send_text(messages.encode(msg))

    def send_text(self, text: str) -> None:
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.queue.put_nowait(None)  # the page cannot keep up: close it (it reconnects and gets the latest)
            return
        self.queue.put_nowait(text)


@dataclass(eq=False)
class SeatState:
    """A seat's state message at one position, with its text encoded once for all the seat's pages.

    ``prev`` is the seat's state before this one: a page that was shown it is sent
    only the change."""

    key: Any  # the position and everyone's presence, which the message shows
    msg: Json
    prev: Json | None
    full: str | None = None
    change: str | None = None

    def text_for(self, shown: Json | None) -> str:
        if shown is not None and shown is self.prev:
            if self.change is None:
                self.change = messages.encode(messages.change_message(shown, self.msg))
            return self.change
        if self.full is None:
            self.full = messages.encode(self.msg)
        return self.full


@dataclass
class Room:
    """A live table with its connections and the timing the driver needs."""

    table: LiveTable
    layout: Layout
    conns: set[Connection] = field(default_factory=set)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    since: float = field(default_factory=time.monotonic)  # when the present position was reached
    gone: dict[int, float] = field(default_factory=dict)  # seat -> when its last page closed
    driver: asyncio.Task[None] | None = None
    states: dict[int, SeatState] = field(default_factory=dict)  # seat -> its state message now
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # held from a step's check until it is shown
    storing: bool = False  # a checked step is being written: its position is not shown until it is applied
    quick: dict[int, float] = field(default_factory=dict)  # id(agent) -> CPU seconds its last decision took


class Hub:
    """Every live table of the server, its connections, and the store behind them."""

    def __init__(self, store: Store, registry: Registry | None = None, rules_text: RulesText | None = None):
        self.store = store
        self.registry = registry or default_registry()
        self.rules_text: RulesText = rules_text or describe  # the rulebook the command line hands over
        self.rooms: dict[str, Room] = {}
        self._variants: dict[tuple[str, tuple[tuple[str, str], ...]], Variant] = {}
        self._catalogue: list[Json] | None = None
        self._known: frozenset[str] | None = None
        self.steps_played = 0

    # -- variants ---------------------------------------------------------------------------
    def variant(self, name: str, options: dict[str, str] | None = None) -> Variant:
        """A loaded variant, shared by every table with the same options (its game's caches stay warm)."""
        key = (name, tuple(sorted((options or {}).items())))
        v = self._variants.get(key)
        if v is None:
            v = load_variant(name, self.registry, options=dict(options or {}))
            self._variants[key] = v
        return v

    def known(self) -> frozenset[str]:
        """The registered variants' names, read from their folders once (a table's form is checked against them)."""
        if self._known is None:
            self._known = frozenset(self.registry.variants())
        return self._known

    def catalogue(self) -> list[Json]:
        """Every registered variant with what the lobby's form needs (loaded once)."""
        if self._catalogue is None:
            out = []
            for name in sorted(self.known()):
                try:
                    v = self.variant(name)
                except TapeteError:
                    continue  # a broken variant file is reported by 'tapete variants', not offered here
                spec = v.spec
                lo, hi = v.player_range()
                game = v.new_game()
                out.append(
                    {
                        "name": name,
                        "game": spec.game,
                        "summary": spec.summary or game.summary,
                        "players": [lo, hi],
                        "default_players": v.default_players(),
                        "teams": game.teams,
                        "options": [
                            {
                                "name": d.name,
                                "type": d.type,
                                "default": v.options.get(d.name, d.default),
                                "min": d.min,
                                "max": d.max,
                                "choices": list(d.choices),
                                "doc": d.doc,
                            }
                            for d in spec.declarations.values()
                        ],
                        "bots": [b for b in v.record.bot_names() if b != "human"],
                        "default_bot": _stand_in_name(v.record.default_bot),
                    }
                )
            self._catalogue = out
        return self._catalogue

    def rules(self, name: str) -> list[str]:
        return self.rules_text(self.variant(name))

    # -- tables -----------------------------------------------------------------------------
    async def create(self, request: Json) -> Created:
        """A new table from the lobby's form; `FormErrors` names every field that is wrong."""
        config, variant = self.check_form(request)
        live = sum(1 for r in self.rooms.values() if r.table.phase in (PLAY, DEAL_OVER))
        if live >= MAX_LIVE_TABLES:
            raise FormErrors({"": f"the server already holds {live} tables in play; try again later"})
        table_id = secrets.token_hex(8)
        tokens = {s: new_token() for s, plan in enumerate(config.seats) if plan.person}
        tokens[SPECTATOR] = new_token()
        table = LiveTable(table_id, config, variant)
        await self.store.create(table_id, config, variant.digest, tokens)
        self._open(table)
        created = Created(table_id, {s: t for s, t in tokens.items() if s != SPECTATOR}, tokens[SPECTATOR])
        return created

    def check_form(self, req: Json) -> tuple[TableConfig, Variant]:
        errors: dict[str, str] = {}
        name = req.get("variant")
        if not isinstance(name, str) or name not in self.known():
            raise FormErrors({"variant": "choose one of the registered variants"})
        base = self.variant(name)
        options: dict[str, str] = {}
        raw = req.get("options") or {}
        if not isinstance(raw, dict):
            raise FormErrors({"options": "options must map names to values"})
        for key, value in raw.items():
            if key not in base.spec.declarations:
                errors[f"options.{key}"] = f"{name} has no option {key!r}"
                continue
            text = _text(value)
            if text == messages_default(base, key):
                continue  # the declared value: nothing to parse
            try:
                option_value(base.spec.declarations[key], text)  # the one reader of '--option' values
            except TapeteError as exc:
                errors[f"options.{key}"] = _strip_prefix(str(exc), f"option {key}: ")
                continue
            options[key] = text
        if errors:
            raise FormErrors(errors)
        try:
            variant = self.variant(name, options)
        except TapeteError as exc:
            raise FormErrors({"options": str(exc)}) from None
        players = req.get("players", variant.default_players())
        if isinstance(players, str) and players.strip().isdigit():
            players = int(players)
        try:
            if not isinstance(players, int) or isinstance(players, bool):
                raise TapeteError(f"the number of players must be a whole number, not {players!r}")
            variant.check_players(players)
        except TapeteError as exc:
            raise FormErrors({"players": str(exc)}) from None
        seats_raw = req.get("seats") or []
        if not isinstance(seats_raw, list):
            raise FormErrors({"seats": "seats must be a list"})
        seats: list[SeatPlan] = []
        game = variant.new_game()
        for s in range(players):
            item = seats_raw[s] if s < len(seats_raw) and isinstance(seats_raw[s], dict) else {"kind": "person"}
            if item.get("kind", "person") == "person":
                seats.append(SeatPlan())
                continue
            spec = _text(item.get("bot", "")).strip()
            try:  # the one bot-spec reader (tapete.core.inputs), as the command line reads --bots
                person = not spec or bot_spec(spec).name in PERSON_BOTS
            except TapeteError as exc:
                errors[f"seats.{s}"] = str(exc)
                continue
            if person:
                errors[f"seats.{s}"] = "choose a bot, or make the seat a person's"
                continue
            try:
                variant.record.bot(spec)(game, s, Random(0))  # parameters are checked by building the bot once
            except TapeteError as exc:
                errors[f"seats.{s}"] = str(exc)
                continue
            except (TypeError, ValueError) as exc:
                errors[f"seats.{s}"] = f"bot {spec!r}: {exc}"
                continue
            seats.append(SeatPlan(spec))
        timings: dict[str, float] = {}
        for key, default, top in (("away_after", 60.0, MAX_WAIT), ("clock", 0.0, MAX_WAIT), ("pace", 0.5, MAX_PACE)):
            value = req.get(key, default)
            try:
                number = float(value)
            except (TypeError, ValueError):
                errors[key] = f"a number of seconds, not {value!r}"
                continue
            if not math.isfinite(number) or not 0 <= number <= top:
                errors[key] = f"between 0 and {top:g} seconds"
                continue
            timings[key] = number
        seed = req.get("seed")
        if seed is not None and (not isinstance(seed, (str, int)) or isinstance(seed, bool) or len(str(seed)) > 64):
            errors["seed"] = "a seed is a word or a number"
        if errors:
            raise FormErrors(errors)
        config = TableConfig(
            variant=name,
            options=options,
            players=players,
            seed=str(seed) if seed is not None else new_seed(),
            seats=seats,
            **timings,
        )
        return config, variant

    def _open(self, table: LiveTable) -> Room:
        room = Room(table, table.variant.record.layout or Layout())
        self.rooms[table.id] = room
        if table.phase in (PLAY, DEAL_OVER):
            room.driver = asyncio.get_running_loop().create_task(self._drive(room))
        return room

    def room(self, table_id: str) -> Room | None:
        """The live table, loaded from the store (its steps replayed) the first time it is asked for."""
        room = self.rooms.get(table_id)
        if room is None:
            table = self.restore(table_id)
            if table is None:
                return None
            room = self._open(table)
        return room

    def restore(self, table_id: str) -> LiveTable | None:
        """Rebuild a table from its stored steps: the same deals, the same position, the bots' dice."""
        stored = self.store.load(table_id)
        if stored is None:
            return None
        config = stored.config
        variant = self.variant(config.variant, config.options)
        table = LiveTable(table_id, config, variant)
        if variant.digest != stored.digest:
            table.fail(
                f"the files of {variant.name} changed since this table was made "
                f"(digest {variant.digest}, the table's {stored.digest}); its moves are not replayed on other rules"
            )
            return table
        try:
            for step in stored.steps:
                table.apply(step)
        except TapeteError as exc:
            table.fail(f"step {table.seq} does not replay: {exc}")
            return table
        table.restore_dice()
        return table

    async def start(self) -> None:
        """Open every table that was in play when the server stopped; their bots play on."""
        for table_id in self.store.table_ids(unfinished_only=True):
            self.room(table_id)

    async def stop(self) -> None:
        for room in self.rooms.values():
            if room.driver is not None:
                room.driver.cancel()
        for room in self.rooms.values():
            if room.driver is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await room.driver

    # -- changing a table -----------------------------------------------------------------------
    async def commit(self, room: Room, step: Step, by: Connection | None = None) -> None:
        """Store the step, then apply it, then acknowledge it to ``by`` and tell every connection.

        Called with ``room.lock`` held, after the step was checked: the table takes no
        other step meanwhile. Nothing is acknowledged or shown before it is in the store."""
        table = room.table
        room.storing = True  # the position shown now is about to change: nobody is shown it meanwhile
        try:
            await self.store.append(table.id, step)
        except BaseException:
            room.storing = False
            self.broadcast(room)
            raise
        room.storing = False
        table.apply(step)
        if by is not None:
            by.send({"type": "ack", "seq": step.seq})
        self.steps_played += 1
        if table.phase not in (PLAY, DEAL_OVER):
            self.store.mark_finished(table.id)
        room.since = time.monotonic()
        self.broadcast(room)
        room.wake.set()

    def broadcast(self, room: Room) -> None:
        """Every page of the table is shown its seat's state (after the step being stored, if one is)."""
        if room.storing:
            return  # the step's own broadcast follows, with whatever else changed meanwhile
        for conn in list(room.conns):
            self.show(room, conn)

    def show(self, room: Room, conn: Connection) -> None:
        """The page is sent its seat's state now: what changed since it was shown, or the whole, or nothing."""
        seat_state = self.state_for(room, conn.seat)
        if conn.shown is seat_state.msg:
            return
        conn.send_text(seat_state.text_for(conn.shown))
        conn.shown = seat_state.msg

    def state_for(self, room: Room, seat: int) -> SeatState:
        """The state message of a seat at the present position (built once for every page of the seat)."""
        table = room.table
        hit = room.states.get(seat)
        key = (table.seq, tuple((s.connections > 0, s.away, s.ready) for s in table.status))
        if hit is not None and hit.key == key:
            return hit
        msg = messages.state_message(table, room.layout, seat, self.clock_of(room))
        made = SeatState(key, msg, hit.msg if hit is not None else None)
        room.states[seat] = made
        return made

    def clock_of(self, room: Room) -> Json | None:
        table = room.table
        clock = table.config.clock
        if clock <= 0 or table.phase not in (PLAY, DEAL_OVER):
            return None
        return {"seconds": clock, "left": max(0.0, clock - (time.monotonic() - room.since))}

    async def _drive(self, room: Room) -> None:
        """The table's own player: bots, stand-ins, the clock and the next deal, each at its time."""
        table = room.table
        loop = asyncio.get_running_loop()
        while table.phase in (PLAY, DEAL_OVER):
            when, act = self._next_action(room)
            if act is not None and when > time.monotonic():
                when = math.ceil(when / TICK) * TICK  # on the shared beat: many tables' moves, one wake-up
            delay = when - time.monotonic()
            if act is None or delay > 0:
                # Until something changes at the table or the time comes; then look again.
                room.wake.clear()
                timer = loop.call_at(when, room.wake.set) if act is not None else None
                try:
                    await room.wake.wait()
                finally:
                    if timer is not None:
                        timer.cancel()
                continue
            try:
                await act()
            except Refusal:
                continue  # the table moved on while a bot thought: look again
            except TapeteError as exc:
                table.fail(str(exc))
                self.store.mark_finished(table.id)
                self.broadcast(room)
            except Exception as exc:  # a bot that crashes stops its table, not the server
                table.fail(f"{type(exc).__name__}: {exc}")
                self.store.mark_finished(table.id)
                self.broadcast(room)

    def _next_action(self, room: Room) -> tuple[float, Callable[[], Awaitable[None]] | None]:
        table, cfg, now = room.table, room.table.config, time.monotonic()
        pace = cfg.pace
        if table.phase == DEAL_OVER:
            waiting = table.waiting_for()
            if not waiting:
                return room.since + pace, lambda: self._next_deal(room)
            if cfg.clock > 0:
                return room.since + cfg.clock, lambda: self._next_deal(room)
            return self._away_deadline(room, waiting)
        mover = table.to_move
        if mover is None:
            return now, None
        status = table.status[mover]
        if not status.person:
            return room.since + pace, lambda: self._bot_move(room, False, "")
        if status.away:
            return room.since + pace, lambda: self._bot_move(room, True, BY_STAND_IN)
        when, act = self._away_deadline(room, [mover])
        if cfg.clock > 0 and (act is None or room.since + cfg.clock < when):
            return room.since + cfg.clock, lambda: self._bot_move(room, True, BY_CLOCK)
        return when, act

    def _away_deadline(self, room: Room, seats: list[int]) -> tuple[float, Callable[[], Awaitable[None]] | None]:
        """When the first of ``seats`` with no page open counts as away (``away_after`` after it left)."""
        table, wait = room.table, room.table.config.away_after
        if wait <= 0:
            return 0.0, None
        best: tuple[float, int] | None = None
        for s in seats:
            if table.status[s].connections:
                continue
            at = max(room.since, room.gone.get(s, room.since)) + wait
            if best is None or at < best[0]:
                best = (at, s)
        if best is None:
            return 0.0, None
        seat = best[1]
        return best[0], lambda: self._go_away(room, seat)

    async def _go_away(self, room: Room, seat: int) -> None:
        st = room.table.status[seat]
        if st.connections == 0 and not st.away:
            st.away = True
            self.broadcast(room)

    async def _next_deal(self, room: Room) -> None:
        table = room.table
        async with room.lock:
            if table.phase == DEAL_OVER:
                await self.commit(room, table.next_step())

    async def _bot_move(self, room: Room, stand_in: bool, by: str) -> None:
        table = room.table
        got = table.agent_to_move(stand_in)
        if got is None:
            return
        agent, default_by = got
        seq = table.seq
        view, legal, state = table.decision_input(agent)
        if room.quick.get(id(agent), 1.0) < QUICK_BOT:
            # A bot that decides in a blink is asked here: a worker thread would cost more than it saves.
            action, cost = _timed(table.decide, agent, view, legal, state)
        else:
            action, cost = await asyncio.to_thread(_timed, table.decide, agent, view, legal, state)
        room.quick[id(agent)] = cost
        async with room.lock:
            mover = table.to_move
            if by == BY_STAND_IN and (mover is None or not table.status[mover].away):
                return  # the person came back while the stand-in thought: the move is theirs again
            step = table.bot_step(seq, agent, by or default_by, action)
            await self.commit(room, step)

    # -- connections ------------------------------------------------------------------------------
    async def serve_socket(self, ws: WebSocket) -> None:
        await ws.accept()
        conn = await self._hello(ws)
        if conn is None:
            return
        room = self.rooms[conn.table_id]
        writer = asyncio.get_running_loop().create_task(_writer(conn))
        try:
            self._join(room, conn)
            while True:
                try:
                    message = await ws.receive()
                except (WebSocketDisconnect, RuntimeError):
                    break
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:  # a binary frame
                    conn.send(messages.refusal_message("malformed", "messages are JSON text", room.table.seq))
                    continue
                await self.handle(room, conn, text)
        finally:
            self._leave(room, conn)
            conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer

    async def _hello(self, ws: WebSocket) -> Connection | None:
        """The first message names the link token; a wrong or missing one closes the connection."""
        try:
            text = await asyncio.wait_for(ws.receive_text(), HELLO_TIMEOUT)
        except (asyncio.TimeoutError, WebSocketDisconnect, RuntimeError, KeyError):
            await _close(ws, "bad-token", "no link token was sent")
            return None
        token = None
        if len(text) <= MAX_MESSAGE:
            with contextlib.suppress(ValueError):
                obj = json.loads(text)
                if isinstance(obj, dict) and obj.get("type") == "hello" and isinstance(obj.get("token"), str):
                    token = obj["token"]
        found = self.store.seat_of(token) if token and len(token) <= 100 else None
        room = self.room(found[0]) if found else None
        if found is None or room is None:
            await _close(ws, "bad-token", "this link opens no seat: ask the table's host for your link")
            return None
        return Connection(ws, found[0], found[1])

    def _join(self, room: Room, conn: Connection) -> None:
        room.conns.add(conn)
        if conn.seat != SPECTATOR:
            st = room.table.status[conn.seat]
            st.connections += 1
            st.away = False  # the person takes the seat back from the stand-in
            room.wake.set()
        conn.send(
            {
                "type": "welcome",
                "seat": conn.seat,
                "table": room.table.id,
                "variant": room.table.variant.name,
                "players": room.table.players,
            }
        )
        if conn.seat == SPECTATOR:
            if not room.storing:
                self.show(room, conn)
        else:
            self.broadcast(room)  # the others see the person arrive

    def _leave(self, room: Room, conn: Connection) -> None:
        room.conns.discard(conn)
        if conn.seat != SPECTATOR:
            st = room.table.status[conn.seat]
            st.connections = max(0, st.connections - 1)
            if not st.connections:
                room.gone[conn.seat] = time.monotonic()
            self.broadcast(room)
            room.wake.set()

    async def handle(self, room: Room, conn: Connection, text: str) -> None:
        """One message from a page: a move, "next deal", a hint, a ping; anything else is refused."""
        table = room.table
        try:
            obj = _parse(text)
            kind = obj.get("type")
            if kind == "ping":
                conn.send({"type": "pong", "seq": table.seq})
                return
            if "seat" in obj and obj["seat"] != conn.seat:
                raise Refusal(
                    "wrong-seat",
                    f"this page holds the link of {_seat_words(conn.seat)}: it cannot act for seat {obj['seat']!r}",
                    table.seq,
                )
            if kind == "hint":
                await self._hint(room, conn)
                return
            if kind == "log":
                conn.send(messages.log_message(table, room.layout, conn.seat))
                return
            if kind not in ("move", "next"):
                raise Refusal("malformed", f"unknown message type {kind!r}", table.seq)
            if conn.seat == SPECTATOR:
                raise Refusal("spectator", "a spectator's link watches the table: it cannot move", table.seq)
            seq = obj.get("seq")
            if not isinstance(seq, int) or isinstance(seq, bool):
                raise Refusal("malformed", "a move must say which position it answers (seq)", table.seq)
            if kind == "next":
                table.check_next(conn.seat, seq)
                table.status[conn.seat].ready = True
                self.broadcast(room)
                room.wake.set()
                conn.send({"type": "ack", "seq": seq})
                return
            move = obj.get("move")
            if not isinstance(move, str) or not move.strip() or len(move) > MAX_MOVE_TEXT:
                raise Refusal("malformed", "a move is text such as 'play 7♥'", table.seq)
            async with room.lock:  # a step of the bots being stored meanwhile is waited for, then seen
                action = table.check_move(conn.seat, seq, move)
                await self.commit(room, table.person_step(conn.seat, action), conn)
        except Refusal as r:
            conn.send(messages.refusal_message(r.code, r.message, r.seq if r.seq is not None else table.seq))
        except Exception as exc:  # a fault of the server or a game: this message fails, the table goes on
            log.exception("table %s: a message from seat %s failed", table.id, conn.seat)
            conn.send(
                messages.refusal_message("server", f"the server could not handle that: {type(exc).__name__}", table.seq)
            )

    async def _hint(self, room: Room, conn: Connection) -> None:
        """What the game's best bot would do in this seat, from the seat's view."""
        table = room.table
        seat = conn.seat
        legal = table.legal_for(seat) if seat != SPECTATOR else []
        if not legal:
            raise Refusal("no-hint", "there is no move to hint at: it is not your turn", table.seq)
        name = _stand_in_name(table.variant.record.default_bot)
        factory = table.variant.record.bot(name)  # the game's own default bot, as the table seats it
        view = table.view(seat)
        seq = table.seq
        bot = factory(table.game, view.seat, Random(0, "hint"))

        def think() -> tuple[Any, str]:
            action = bot.choose(view if getattr(bot, "observes", True) else None, list(legal))
            explain = getattr(bot, "explain", None)
            why = str(explain(view, list(legal), action)) if explain is not None else f"what the {name} bot would do"
            return action, why

        action, why = await asyncio.to_thread(think)
        if table.seq == seq:
            conn.send(messages.hint_message(table, seat, action, why))


class FormErrors(TapeteError):
    """The lobby form's problems, field by field (``options.wins_to``, ``seats.2``, ...)."""

    def __init__(self, errors: dict[str, str]):
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors


def messages_default(variant: Variant, key: str) -> str:
    return option_text(variant.options.get(key))


def _timed(decide: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """A decision and the CPU time it took in its thread (not the wall time: a busy machine does not count)."""
    started = time.thread_time()
    action = decide(*args)
    return action, time.thread_time() - started


def _stand_in_name(name: str) -> str:
    return "random" if name == "human" else name


def _strip_prefix(text: str, prefix: str) -> str:
    return text[len(prefix) :] if text.startswith(prefix) else text


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _seat_words(seat: int) -> str:
    return "the spectators" if seat == SPECTATOR else f"seat {seat}"


def _parse(text: str) -> Json:
    if len(text) > MAX_MESSAGE:
        raise Refusal("too-large", f"a message longer than {MAX_MESSAGE} characters is refused unread")
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        raise Refusal("malformed", 'a message is a JSON object such as {"type": "move", ...}') from None
    if not isinstance(obj, dict):
        raise Refusal("malformed", 'a message is a JSON object such as {"type": "move", ...}')
    return obj


async def _writer(conn: Connection) -> None:
    """Sends a connection's queued messages in order; a slow or closed page ends here."""
    while True:
        text = await conn.queue.get()
        if text is None:
            with contextlib.suppress(Exception):
                await conn.ws.close()
            return
        try:
            await conn.ws.send_text(text)
        except Exception:
            return


async def _close(ws: WebSocket, code: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps({"type": "error", "code": code, "message": message}))
        await ws.close(code=4401)


# -- the HTTP side -------------------------------------------------------------------------------
def _static() -> Path:
    return Path(str(resources.files("tapete.web") / "static"))


SECURITY_HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; frame-ancestors 'none'",
}


GC_THRESHOLDS = (700, 10, 1000)  # the cyclic collector's in the server's own process (Python's: 700, 10, 10)


def tune_gc() -> None:
    """The cyclic garbage collector, set for a process that holds many long-lived tables.

    A full collection walks every object of every table: at 200 tables it stopped all of
    them for 100-340 ms, several times a minute (measured with ``gc.callbacks`` under
    bench/web_load.py), and was most of a move's worst round trips. The garbage here is
    short-lived (messages, views), freed by reference counting or the young generations;
    so what was loaded at start (code, variants, the restored tables) is frozen out of
    the collector's walks, and a full collection waits for 1,000 collections of the
    middle generation instead of 10."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def make_app(
    db: Path | str,
    registry: Registry | None = None,
    durable: bool = False,
    rules_text: RulesText | None = None,
    own_process: bool = False,
) -> Starlette:
    """The Starlette application of ``tapete serve`` over the database file ``db``;
    ``rules_text`` writes a variant's rules page.

    ``own_process``: the server is the whole process (``tapete serve``), so it may set the
    process's garbage collector (`tune_gc`); a server embedded elsewhere (the tests') leaves it."""
    store = Store(db, durable=durable)
    hub = Hub(store, registry, rules_text)

    def page(name: str) -> Callable[[Request], Awaitable[Response]]:
        async def handler(request: Request) -> Response:
            return FileResponse(_static() / name, headers=SECURITY_HEADERS)

        return handler

    async def variants(request: Request) -> Response:
        return JSONResponse(await asyncio.to_thread(hub.catalogue))

    async def rules(request: Request) -> Response:
        name = f"{request.path_params['game']}/{request.path_params['name']}"
        if name not in hub.known():
            return JSONResponse({"error": f"no variant {name}"}, status_code=404)
        return JSONResponse({"variant": name, "lines": hub.rules(name)})

    async def create(request: Request) -> Response:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return JSONResponse({"errors": {"": "send the form as application/json"}}, status_code=415)
        body = await request.body()
        if len(body) > 16384:
            return JSONResponse({"errors": {"": "the form is too large"}}, status_code=413)
        try:
            req = json.loads(body)
        except ValueError:
            return JSONResponse({"errors": {"": "the form is not JSON"}}, status_code=400)
        if not isinstance(req, dict):
            return JSONResponse({"errors": {"": "the form is not a JSON object"}}, status_code=400)
        try:
            created = await hub.create(req)
        except FormErrors as exc:
            return JSONResponse({"errors": exc.errors}, status_code=400)
        return JSONResponse(
            {
                "table": created.table_id,
                "seats": [{"seat": s, "link": f"/play#{t}"} for s, t in sorted(created.seat_tokens.items())],
                "spectator": f"/play#{created.spectator_token}",
            },
            headers={"Cache-Control": "no-store"},
        )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        if own_process:
            tune_gc()
        try:
            yield
        finally:
            await hub.stop()
            store.close()

    routes = [
        Route("/", page("lobby.html")),
        Route("/play", page("table.html")),
        Route("/api/variants", variants),
        Route("/api/rules/{game}/{name}", rules),
        Route("/api/tables", create, methods=["POST"]),
        WebSocketRoute("/ws", hub.serve_socket),
        Mount("/static", StaticFiles(directory=str(_static())), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    return app


LOOPBACK = ("127.0.0.1", "localhost", "::1")


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: Path | str = "tapete-tables.db",
    quiet: bool = False,
    rules_text: RulesText | None = None,
) -> None:
    """Run the server until interrupted (``tapete serve``); ``rules_text`` writes a variant's rules page."""
    import uvicorn

    app = make_app(db, rules_text=rules_text, own_process=True)
    shown = f"[{host}]" if ":" in host else host
    if not quiet:
        print(f"tapete serve: the lobby is at http://{shown}:{port}/ (tables in {db}; Ctrl-C stops)", flush=True)
        if host not in LOOPBACK and not host.startswith("127."):
            print(
                f"warning: listening on {host}, beyond this machine: anyone who can reach it can open tables; "
                "the seat links are the only keys, and the connection is not encrypted (see docs/web.md)",
                flush=True,
            )
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False, ws_max_size=MAX_FRAME)
