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
import dataclasses
import json
import logging
import math
import secrets
import socket
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.errors import TapeteError
from ..core.inputs import FILE_BOTS, PERSON_BOTS, bot_spec
from ..core.limits import load_json
from ..core.rng import Random, derive_seed
from ..layout import Layout
from ..play.describe import describe
from ..play.loading import Variant, load_variant
from ..plugins.loader import Registry
from ..plugins.loader import registry as default_registry
from ..rules.options import option_value
from ..rules.variant_file import option_text
from . import messages, timing
from .asgi import Guard, guarded_http, guarded_ws, is_loopback
from .botpool import BotLate, BotPool
from .collector import COLLECTOR
from .fairness import commitment, match_record
from .guards import Bucket, Limits, cap_budget, client_key
from .routing import new_table_id, owner
from .store import StoreFailed, TableStore, is_database_url, open_store, shown_url
from .tables import (
    BY_CLOCK,
    BY_LATE,
    BY_STAND_IN,
    DEAL_OVER,
    MATCH_OVER,
    PLAY,
    SPECTATOR,
    Created,
    LiveTable,
    Refusal,
    SeatPlan,
    Step,
    TableConfig,
    new_salt,
    new_seed,
    new_token,
    seat_kinds,
)
from .timing import Timers
from .trusted import Policies

RulesText = Callable[[Variant], list[str]]  # a variant's rules page, as the command line hands it over
MAX_MESSAGE = 4096  # characters in one message from a client; a longer one is refused unread
MAX_FRAME = 65536  # bytes in one WebSocket frame; the protocol closes a connection that sends more
MAX_MOVE_TEXT = 200
MAX_CHAT = 200  # characters in one line of a table's chat
CHAT_SHOWN = 50  # chat lines a page is sent when it opens
CHAT_RATE = (0.5, 3.0)  # chat lines a second one seat may write, in bursts of
HELLO_TIMEOUT = 10.0  # seconds a new connection has to name its token
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
    rate: Bucket | None = None  # the page's messages a second (--message-rate)

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
    idle_since: float = field(default_factory=time.monotonic)  # when its last page closed (or it opened)
    late: dict[int, Any] = field(default_factory=dict)  # seat -> the quick stand-in for a bot not back in time
    hinting: bool = False  # a hint is being worked out for one of its pages
    record: str | None = None  # the match record, made once the match is over
    rematch: Created | None = None  # the new table of "play again", once someone asked for it
    chat: list[Json] | None = None  # its chat's last lines (loaded from the store when first needed)
    chat_next: int = 0  # the number of its next chat line
    chat_rate: dict[int, Bucket] = field(default_factory=dict)  # seat -> its chat lines a second


class Hub:
    """Every live table of the server, its connections, and the store behind them."""

    def __init__(
        self,
        store: TableStore,
        registry: Registry | None = None,
        rules_text: RulesText | None = None,
        limits: Limits | None = None,
        seeds: Callable[[], str] | None = None,
        holder: str = "",
        worker: tuple[int, int] = (0, 1),
        shared: bool = False,
    ):
        """``seeds`` draws each new table's secret seed (default `new_seed`): the Python API's way to
        replay a table in a test; the web API never takes a seed (tapete.web.fairness).

        ``holder`` names this server process in the tables' leases (`tapete.web.store.Store.hold`):
        ``tapete serve`` uses its host and port, so the same server started again at the same
        address takes its own tables back at once, while another one waits for their leases to run out.
        ``worker`` is (this process, of how many) under ``tapete serve --workers`` (`tapete.web.routing`);
        ``shared``: other processes play tables of the same database, so the tables in play, in all
        and per address, are counted in the database rather than among this process's own."""
        self.store = store
        self.registry = registry or default_registry()
        self.rules_text: RulesText = rules_text or describe  # the rulebook the command line hands over
        self.limits = limits or Limits()
        self.seeds = seeds or new_seed
        self.pool = BotPool(self.limits.bot_workers)
        self.policies = Policies(self.limits.policies)  # the trained policies pages may seat, by name
        self.rooms: dict[str, Room] = {}
        self.clients: dict[str, str] = {}  # table -> the hash of the address that opened it
        self.broken: dict[str, Json] = {}  # table -> why it cannot be loaded (shown in the lobby)
        self.broken_in_play = 0  # of the unfinished tables the store counts, those that cannot be loaded
        self.buckets: dict[str, Bucket] = {}  # client -> its table openings (--create-rate)
        self._sweeper: asyncio.Task[None] | None = None
        self.holder = holder or secrets.token_hex(8)
        self.worker = worker
        self.shared = shared
        self.elsewhere: set[str] = set()  # tables a page asked for whose lease another server process holds
        self._leaser: asyncio.Task[None] | None = None
        self._variants: dict[tuple[str, tuple[tuple[str, str], ...]], Variant] = {}
        self._catalogue: list[Json] | None = None
        self._catalogue_lock = threading.Lock()
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
        """Every registered variant with what the lobby's form needs (loaded once, by one thread at a time:
        ``tapete serve`` starts building it as the server starts, so the lobby's first visit finds it ready)."""
        with self._catalogue_lock:
            return self._build_catalogue()

    def _build_catalogue(self) -> list[Json]:
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
                        "bots": [b for b in v.record.bot_names() if b not in PERSON_BOTS + FILE_BOTS]
                        + self.policies.offered(v.name),
                        "default_bot": _stand_in_name(v.record.default_bot),
                    }
                )
            self._catalogue = out
        return self._catalogue

    def rules(self, name: str) -> list[str]:
        return self.rules_text(self.variant(name))

    # -- tables -----------------------------------------------------------------------------
    async def create(self, request: Json, client: str = "") -> Created:
        """A new table from the lobby's form; `FormErrors` names every field that is wrong.

        ``client`` is the opener's `client_key`: its openings per minute and its tables in
        play are limited (`Limits`), and so are the tables in play in all."""
        lim = self.limits
        bucket = self.buckets.get(client)
        if bucket is None:
            bucket = self.buckets[client] = Bucket(lim.creates_per_minute / 60.0, max(1.0, lim.creates_per_minute))
        if not bucket.take():
            raise TooMany(
                f"tables are opened at most {lim.creates_per_minute:g} a minute from one address: "
                f"try again in {math.ceil(bucket.wait())} seconds"
            )
        config, variant = self.check_form(request)
        return await self._make(config, variant, client)

    async def _make(self, config: TableConfig, variant: Variant, client: str) -> Created:
        """A new table of ``config``, within the limits on tables in play (in all, and ``client``'s)."""
        lim = self.limits
        live = [t for t, r in self.rooms.items() if r.table.phase in (PLAY, DEAL_OVER)]
        in_play, mine = len(live), sum(1 for t in live if self.clients.get(t) == client)
        if self.shared:  # every process's tables count: the database holds them all
            in_play, mine = self.store.in_play(client)
        if in_play >= lim.tables:
            raise TooMany(f"the server already holds {in_play} tables in play; try again later")
        if mine >= lim.tables_per_client:
            raise TooMany(
                f"{mine} tables opened from this address are in play (at most {lim.tables_per_client}): "
                "finish one, or wait until one is closed"
            )
        table_id = new_table_id(*self.worker)
        tokens = {s: f"{table_id}.{new_token()}" for s, plan in enumerate(config.seats) if plan.person}
        tokens[SPECTATOR] = f"{table_id}.{new_token()}"  # a link names its table: a proxy routes by it (routing)
        table = LiveTable(table_id, config, variant, resolve=self.policies.resolve)
        await self.store.create(table_id, config, variant.digest, tokens, client)
        self.store.hold(table_id, self.holder, self.limits.lease_seconds)  # a new id: nobody else holds it
        self.clients[table_id] = client
        self._open(table)
        created = Created(table_id, {s: t for s, t in tokens.items() if s != SPECTATOR}, tokens[SPECTATOR])
        return created

    async def rematch(self, room: Room) -> Created:
        """The same people and bots at a new table, with a new seed and commitment (made once per finished match).

        Each page of the old table is sent its own seat's new link, over its own connection;
        a page that opens the old link later is sent it too (until the server restarts)."""
        async with room.lock:  # two people asking at once make one table
            if room.rematch is None:
                config = dataclasses.replace(room.table.config, seed=self.seeds(), salt=new_salt())
                client = self.clients.get(room.table.id, "")
                room.rematch = await self._make(config, room.table.variant, client)
        for conn in list(room.conns):
            self.offer_rematch(room, conn)
        return room.rematch

    def offer_rematch(self, room: Room, conn: Connection) -> None:
        made = room.rematch
        if made is None:
            return
        tok = made.spectator_token if conn.seat == SPECTATOR else made.seat_tokens.get(conn.seat)
        if tok is not None:
            conn.send({"type": "rematch", "table": made.table_id, "link": f"/play#{tok}"})

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
            try:  # a policy the operator serves by name (tapete.web.trusted), or None
                served = self.policies.named(spec)
            except TapeteError as exc:
                errors[f"seats.{s}"] = str(exc)
                continue
            if served is None and bot_spec(spec).name in FILE_BOTS:  # a page may not have the server open a file
                errors[f"seats.{s}"] = f"bot {spec!r:.60} reads a file on the server: a page cannot seat it" + (
                    f" (this server's policies are seated by name: {', '.join(self.policies.offered(name))})"
                    if self.policies.offered(name)
                    else ""
                )
                continue
            if served is not None and served.refusal(variant, players):
                errors[f"seats.{s}"] = served.refusal(variant, players)
                continue
            try:  # parameters are checked by building the bot once
                variant.record.bot(self.policies.resolve(spec))(game, s, Random(0))
            except TapeteError as exc:
                errors[f"seats.{s}"] = str(served.hide(exc) if served is not None else exc)
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
        if "seed" in req:
            errors["seed"] = (
                "the server draws every table's seed, so that nobody at the table chose the cards "
                "(docs/web.md); to replay a match use tapete play --seed"
            )
        if errors:
            raise FormErrors(errors)
        config = TableConfig(
            variant=name,
            options=options,
            players=players,
            seed=self.seeds(),
            seats=seats,
            salt=new_salt(),
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
            if not self.store.hold(table_id, self.holder, self.limits.lease_seconds):
                self.elsewhere.add(table_id)  # another server process plays it (until its lease runs out)
                self.store.want(table_id, self.holder)  # it hands the table over if no page of it is open there
                return None
            self.elsewhere.discard(table_id)
            table = self.restore(table_id)
            if table is None:
                return None
            room = self._open(table)
        return room

    def _readable(self, table_id: str) -> tuple[Any, Variant] | None:
        """The stored table and its variant, or None: not stored, or listed in `broken` with why."""
        if table_id in self.broken:
            return None
        variant_name = "?"
        try:
            stored = self.store.load(table_id)
            if stored is None:
                return None
            variant_name = stored.config.variant
            return stored, self.variant(stored.config.variant, stored.config.options)
        except Exception as exc:  # a table of rules that no longer load, or a row written wrong
            self._note_broken(table_id, variant_name, exc)
            return None

    def _note_broken(self, table_id: str, variant_name: str, exc: Exception) -> None:
        why = str(exc) if isinstance(exc, TapeteError) else f"{type(exc).__name__}: {exc}"
        log.warning("table %s cannot be loaded: %s", table_id, why)
        self.broken[table_id] = {"table": table_id, "variant": variant_name, "reason": why}

    def restore(self, table_id: str) -> LiveTable | None:
        """Rebuild a table from its stored steps: the same deals, the same position, the bots' dice.

        A table that cannot be rebuilt at all (its variant no longer loads, its row is
        unreadable) is listed in `broken` with the reason, and None is returned: the lobby
        shows it, its links say why, and every other table serves."""
        found = self._readable(table_id)
        if found is None:
            return None
        stored, variant = found
        try:
            table = LiveTable(table_id, stored.config, variant, resolve=self.policies.resolve)
        except Exception as exc:  # a row written wrong
            self._note_broken(table_id, stored.config.variant, exc)
            return None
        self.clients[table_id] = stored.client
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
        if stored.closed:
            table.close(stored.closed)
        return table

    async def start(self) -> None:
        """Open every table that was in play when the server stopped; their bots play on.

        One of ``--workers`` opens only its own (`tapete.web.routing.owner`): the others open theirs."""
        index, workers = self.worker
        unfinished = self.store.table_ids(unfinished_only=True)
        for table_id in unfinished:
            if owner(table_id, workers) == index:
                self.room(table_id)
            else:  # another process opens it; whether it can is known here too, for this process's lobby
                self._readable(table_id)
        self.broken_in_play = len(set(unfinished) & set(self.broken))  # counted in the store, not playable
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        self._leaser = asyncio.get_running_loop().create_task(self._lease())

    async def _lease(self) -> None:
        """Three times a lease: renew this process's leases, let go of a table another process took over
        (this one stalled past its lease) or asked for while no page of it is open here (a proxy sends
        its pages there), and take over the tables of a process that died (their leases ran out), so
        their bots play on and their pages find them here."""
        every = self.limits.lease_seconds / 3
        while True:
            await asyncio.sleep(every)
            try:
                held = await self.store.renew(self.holder, self.limits.lease_seconds)
                for table_id in [t for t in self.rooms if t not in held]:
                    await self._lost(table_id)
                for table_id in self.store.wanted(self.holder):  # its pages reach another process (a proxy's choice)
                    room = self.rooms.get(table_id)
                    if room is None or not room.conns:
                        await self._lost(table_id)
                        self.store.give_up(table_id, self.holder)
                for table_id in self.store.expired():
                    if table_id not in self.rooms:
                        self.room(table_id)
            except Exception as exc:  # the database is away for a moment: the next round tries again
                log.warning("leases not renewed: %s", exc)

    async def _lost(self, table_id: str) -> None:
        """Another server process holds the table now: stop playing it here and send its pages there."""
        room = self.rooms.pop(table_id, None)
        if room is None:
            return
        if room.driver is not None:
            room.driver.cancel()
        for conn in list(room.conns):
            await _close(conn.ws, "elsewhere", "this table moved to another server process: reconnecting")

    async def _sweep(self) -> None:
        """Now and then: close the tables nobody has had open for ``expire_hours`` (their records are kept)."""
        expire = self.limits.expire_hours * 3600.0
        every = min(60.0, max(0.05, expire / 4))
        while True:
            await asyncio.sleep(every)
            now = time.monotonic()
            for room in list(self.rooms.values()):
                if not room.conns and room.table.phase in (PLAY, DEAL_OVER) and now - room.idle_since >= expire:
                    await self._expire(room)
            for key in [k for k, b in self.buckets.items() if b.tokens >= b.burst]:
                del self.buckets[key]  # a full bucket is a new one: nothing to remember

    async def _expire(self, room: Room) -> None:
        table = room.table
        hours = self.limits.expire_hours
        async with room.lock:
            if room.conns or table.phase not in (PLAY, DEAL_OVER):
                return
            why = f"nobody had it open for {hours:g} hours"
            table.close(why)
            self.store.close_table(table.id, why)
        if room.driver is not None:
            room.driver.cancel()
        self.rooms.pop(table.id, None)  # a link opened later loads it again, closed, from the store

    def lobby(self) -> Json:
        """What the lobby shows of the tables: how many are in play, and those that cannot be loaded, with why."""
        live = sum(1 for r in self.rooms.values() if r.table.phase in (PLAY, DEAL_OVER))
        if self.shared:
            live = self.store.in_play("")[0] - self.broken_in_play
        return {"in_play": live, "limit": self.limits.tables, "broken": list(self.broken.values())}

    async def record(self, table_id: str) -> str | None:
        """The match record of a finished table (tapete.web.fairness), or None while it is not over."""
        room = self.room(table_id)
        if room is None or room.table.phase != MATCH_OVER:
            return None
        if room.record is None:
            t = room.table
            cfg = t.config
            moves = [s.move for s in t.steps if s.kind == "move"]
            room.record = await asyncio.to_thread(
                match_record, t.variant, cfg.players, cfg.seed, cfg.salt, seat_kinds(cfg), moves
            )
        return room.record

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._leaser is not None:
            self._leaser.cancel()
        self.store.release(self.holder)  # a server stopped cleanly: another may take its tables at once
        for room in self.rooms.values():
            if room.driver is not None:
                room.driver.cancel()
        for room in self.rooms.values():
            if room.driver is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await room.driver
        self.pool.close()

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
            except StoreFailed as exc:  # the disk is full or locked: nothing was played; try again shortly
                log.warning("table %s: a bot's move was not stored: %s", table.id, exc)
                await asyncio.sleep(1.0)
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
        cap_budget(agent, self.limits.bot_seconds)
        view, legal, state = table.decision_input(agent)
        late = False
        if room.quick.get(id(agent), 1.0) < QUICK_BOT:
            # A bot that decides in a blink is asked here: a worker thread would cost more than it saves.
            action, cost = _timed(table.decide, agent, view, legal, state)
        else:
            try:
                action, cost = await self.pool.run(
                    id(agent), self.limits.bot_deadline, _timed, table.decide, agent, view, legal, state
                )
            except BotLate:  # not back by its deadline: the quick stand-in plays this move
                late = True
                action, cost = self._late_move(room, legal, view), 1.0
        room.quick[id(agent)] = cost
        async with room.lock:
            mover = table.to_move
            if by == BY_STAND_IN and (mover is None or not table.status[mover].away):
                return  # the person came back while the stand-in thought: the move is theirs again
            if late:
                if seq != table.seq or mover is None:
                    return
                step = Step(seq, "move", mover, action.text(table.deck), BY_LATE)  # no dice: the bot's are its own
            else:
                step = table.bot_step(seq, agent, by or default_by, action)
            await self.commit(room, step)

    def _late_move(self, room: Room, legal: list[Any], view: Any) -> Any:
        """The move of the seat's quick stand-in (the random bot, decided here: it takes no time)."""
        table = room.table
        mover = table.to_move
        assert mover is not None
        agent = room.late.get(mover)
        if agent is None:
            factory = table.variant.record.bot("random")
            agent = factory(table.game, mover, Random(derive_seed(table.config.seed, "late", mover)))
            room.late[mover] = agent
        return table.decide(agent, view if getattr(agent, "observes", True) else None, list(legal), None)

    # -- connections ------------------------------------------------------------------------------
    async def serve_socket(self, ws: WebSocket) -> None:
        await ws.accept()
        conn = await self._hello(ws)
        if conn is None:
            return
        rate = self.limits.message_rate
        conn.rate = Bucket(rate, 2 * rate)
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
                if conn.rate is not None and not conn.rate.take():
                    # Refused unread; a page that goes on regardless fills its queue of refusals and is closed.
                    conn.send(
                        messages.refusal_message(
                            "too-fast",
                            f"this page sent more than {self.limits.message_rate:g} messages a second: "
                            "this one was not read; send it again in a moment",
                            room.table.seq,
                        )
                    )
                    continue
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
                obj = load_json(text)
                if isinstance(obj, dict) and obj.get("type") == "hello" and isinstance(obj.get("token"), str):
                    token = obj["token"]
        found = self.store.seat_of(token) if token and len(token) <= 100 else None
        room = self.room(found[0]) if found else None
        if found is not None and found[0] in self.broken:
            await _close(ws, "broken", f"this table cannot be opened: {self.broken[found[0]]['reason']}")
            return None
        if found is not None and room is None and found[0] in self.elsewhere:
            # Its server process is alive or died less than a lease ago: the page tries again shortly.
            await _close(ws, "elsewhere", "this table is played by another server process just now: reconnecting")
            return None
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
        chat = self.chat_lines(room)
        if chat:  # the chat so far, before the table
            conn.send({"type": "chat", "lines": list(chat)})
        if conn.seat == SPECTATOR:
            if not room.storing:
                self.show(room, conn)
        else:
            self.broadcast(room)  # the others see the person arrive
        self.offer_rematch(room, conn)

    def _leave(self, room: Room, conn: Connection) -> None:
        room.conns.discard(conn)
        if not room.conns:
            room.idle_since = time.monotonic()
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
            if kind == "chat":
                await self._chat(room, conn, obj.get("text"))
                return
            if kind == "rematch":
                if table.phase != MATCH_OVER:
                    raise Refusal("not-now", "play again is offered once the match is over", table.seq)
                if conn.seat == SPECTATOR:
                    raise Refusal("spectator", "a spectator's link watches: the players start a new match", table.seq)
                try:
                    await self.rematch(room)
                except TooMany as exc:
                    raise Refusal("too-many", exc.errors[""], table.seq) from None
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
        except StoreFailed as exc:  # nothing was stored, so nothing was played or acknowledged
            log.warning("table %s: a move of seat %s was not stored: %s", table.id, conn.seat, exc)
            conn.send(messages.refusal_message("not-stored", f"your move was not played: {exc}; try again", table.seq))
        except Exception as exc:  # a fault of the server or a game: this message fails, the table goes on
            log.exception("table %s: a message from seat %s failed", table.id, conn.seat)
            conn.send(
                messages.refusal_message("server", f"the server could not handle that: {type(exc).__name__}", table.seq)
            )

    def chat_lines(self, room: Room) -> list[Json]:
        if room.chat is None:
            room.chat = self.store.chat(room.table.id, CHAT_SHOWN)
            room.chat_next = room.chat[-1]["n"] + 1 if room.chat else 0
        return room.chat

    async def _chat(self, room: Room, conn: Connection, text: Any) -> None:
        """A line of the table's chat: plain text, one line, stored with the table, then shown to every page."""
        table = room.table
        if conn.seat == SPECTATOR:
            raise Refusal("spectator", "a spectator's link reads the chat: only the players write in it", table.seq)
        if not isinstance(text, str) or not text.strip():
            raise Refusal("malformed", "a chat line is some text", table.seq)
        line = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
        if len(line) > MAX_CHAT:
            raise Refusal("too-large", f"a chat line holds at most {MAX_CHAT} characters", table.seq)
        bucket = room.chat_rate.setdefault(conn.seat, Bucket(*CHAT_RATE))
        if not bucket.take():
            raise Refusal("too-fast", "one chat line every two seconds, please", table.seq)
        lines = self.chat_lines(room)
        n = room.chat_next
        room.chat_next += 1  # taken before the write: two lines written at once get two numbers
        await self.store.add_chat(table.id, n, conn.seat, line)
        entry = {"n": n, "seat": conn.seat, "text": line}
        lines.append(entry)
        del lines[:-CHAT_SHOWN]
        for c in list(room.conns):
            c.send({"type": "chat", "lines": [entry]})

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
        cap_budget(bot, self.limits.bot_seconds)

        def think() -> tuple[Any, str]:
            action = bot.choose(view if getattr(bot, "observes", True) else None, list(legal))
            explain = getattr(bot, "explain", None)
            why = str(explain(view, list(legal), action)) if explain is not None else f"what the {name} bot would do"
            return action, why

        if room.hinting:
            raise Refusal("no-hint", "a hint for this table is being worked out: ask again in a moment", table.seq)
        room.hinting = True
        try:
            action, why = await self.pool.run(id(room), self.limits.bot_deadline, think)
        except BotLate:
            raise Refusal("no-hint", "the hint took too long: the server is busy, ask again later", table.seq) from None
        finally:
            room.hinting = False
        if table.seq == seq:
            conn.send(messages.hint_message(table, seat, action, why))


class FormErrors(TapeteError):
    """The lobby form's problems, field by field (``options.wins_to``, ``seats.2``, ...)."""

    status = 400

    def __init__(self, errors: dict[str, str]):
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors


class TooMany(FormErrors):
    """A table refused by a limit (`Limits`), not by its form: HTTP's 429."""

    status = 429

    def __init__(self, message: str):
        super().__init__({"": message})


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
        obj = load_json(text)  # nested beyond the limit: refused before Python's parser recurses
    except ValueError:
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


class GuardedApp(Starlette):
    """Starlette with `tapete.web.asgi.Guard` outside everything, its own error pages included."""

    guard: Guard

    def build_middleware_stack(self) -> Any:
        inner = super().build_middleware_stack()
        self.guard = Guard(inner, self.state.limits, self.state.loopback)
        return self.guard


def make_app(
    db: Path | str,
    registry: Registry | None = None,
    durable: bool = False,
    rules_text: RulesText | None = None,
    own_process: bool = False,
    limits: Limits | None = None,
    seeds: Callable[[], str] | None = None,
    loopback: bool = True,
    timers: bool = False,
    holder: str = "",
    worker: tuple[int, int] = (0, 1),
    shared: bool = False,
) -> Starlette:
    """The Starlette application of ``tapete serve`` over the database file ``db``;
    ``rules_text`` writes a variant's rules page, ``limits`` are the server's (`Limits`),
    ``seeds`` draws each table's secret seed (for tests and replays; the web API takes
    none), ``loopback`` says the server listens on this machine only (`Guard`).

    The database is checked (`tapete.web.dbfile`) before anything is written to it.
    ``own_process``: the server is the whole process (``tapete serve``), so it may set the
    process's garbage collector (`tapete.web.collector`); a server embedded elsewhere (the tests') leaves it.
    ``timers``: time the parts of every move (`tapete.web.timing`), read at ``/api/debug/timers``;
    off, nothing is timed and the route does not exist. ``holder`` names the process in the
    tables' leases (`Hub`), ``worker`` its place among ``tapete serve --workers``; ``shared``
    (always, on PostgreSQL): other processes play tables of the same database, so the limits
    on tables in play count them all (`Hub`)."""
    limits = limits or Limits()
    timed: Timers | None = None
    if timers:
        timed = Timers()
        timed.install()
    store = open_store(db, durable=durable)
    hub = Hub(store, registry, rules_text, limits, seeds, holder, worker, shared or is_database_url(db))

    def page(name: str) -> Callable[[Request], Awaitable[Response]]:
        async def handler(request: Request) -> Response:
            return FileResponse(_static() / name)

        return handler

    async def variants(request: Request) -> Response:
        return JSONResponse(await asyncio.to_thread(hub.catalogue))

    async def rules(request: Request) -> Response:
        name = f"{request.path_params['game']}/{request.path_params['name']}"
        if name not in hub.known():
            return JSONResponse({"error": f"no variant {name}"}, status_code=404)
        return JSONResponse({"variant": name, "lines": hub.rules(name)})

    async def tables(request: Request) -> Response:
        return JSONResponse(hub.lobby(), headers={"Cache-Control": "no-store"})

    async def record(request: Request) -> Response:
        table_id = request.path_params["table"]
        text = await hub.record(table_id) if len(table_id) <= 32 else None
        if text is None:
            why = "no finished match of that number: a table's record is made when its match ends"
            return JSONResponse({"error": why}, status_code=404)
        return PlainTextResponse(
            text,
            media_type="application/jsonl",
            headers={"Content-Disposition": f'attachment; filename="tapete-{table_id}.jsonl"'},
        )

    async def create(request: Request) -> Response:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return JSONResponse({"errors": {"": "send the form as application/json"}}, status_code=415)
        body = await request.body()  # at most --max-body bytes: `Guard` stops a longer one as it streams in
        try:
            req = load_json(body.decode("utf-8"))
        except UnicodeDecodeError:
            return JSONResponse({"errors": {"": "the form is not UTF-8 text"}}, status_code=400)
        except ValueError as exc:
            why = str(exc) if "nests" in str(exc) else "the form is not JSON"
            return JSONResponse({"errors": {"": why}}, status_code=400)
        if not isinstance(req, dict):
            return JSONResponse({"errors": {"": "the form is not a JSON object"}}, status_code=400)
        address = request.client.host if request.client is not None else ""
        try:
            created = await hub.create(req, client_key(address))
        except FormErrors as exc:
            return JSONResponse({"errors": exc.errors}, status_code=exc.status)
        cfg = hub.rooms[created.table_id].table.config
        return JSONResponse(
            {
                "table": created.table_id,
                "commitment": commitment(cfg.seed, cfg.salt),
                "seats": [{"seat": s, "link": f"/play#{t}"} for s, t in sorted(created.seat_tokens.items())],
                "spectator": f"/play#{created.spectator_token}",
            },
            headers={"Cache-Control": "no-store"},
        )

    async def debug_timers(request: Request) -> Response:
        assert timed is not None
        out = timed.snapshot(hub.steps_played)
        if own_process:
            out["collector"] = COLLECTOR.report()
        if request.query_params.get("reset") == "1":
            timed.reset()
        return JSONResponse(out, headers={"Cache-Control": "no-store"})

    async def warm() -> None:
        """The lobby's catalogue (seconds of CPU: every variant loaded) built as the server starts, not at
        the first visit; what it loaded is then frozen out of the collector's walks too (`Collector`)."""
        await asyncio.to_thread(hub.catalogue)
        await asyncio.to_thread(hub.policies.load)  # PyTorch imported here, not in the first table's form
        COLLECTOR.install()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        if timed is not None:
            timed.start()
        if own_process:
            COLLECTOR.install()
            app.state.warm = asyncio.get_running_loop().create_task(warm())
            app.state.collector = asyncio.get_running_loop().create_task(COLLECTOR.keep())
        try:
            yield
        finally:
            if timed is not None:
                timed.stop()
            if own_process:
                app.state.collector.cancel()
            await hub.stop()
            store.close()

    routes = [
        Route("/", page("lobby.html")),
        Route("/play", page("table.html")),
        Route("/api/variants", variants),
        Route("/api/rules/{game}/{name}", rules),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables", tables, methods=["GET"]),
        Route("/api/tables/{table}/record", record),
        WebSocketRoute("/ws", hub.serve_socket),
        Mount("/static", StaticFiles(directory=str(_static())), name="static"),
    ]
    if timed is not None:
        routes.insert(0, Route("/api/debug/timers", debug_timers))
    app = GuardedApp(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    app.state.limits = limits
    app.state.loopback = loopback
    return app


def uvicorn_options(limits: Limits) -> dict[str, Any]:
    """How uvicorn runs the application under ``limits`` (``tapete serve`` and the tests' servers alike)."""
    return {
        "http": guarded_http(limits.header_timeout),
        "ws": guarded_ws(),
        "timeout_keep_alive": max(1, round(limits.idle_timeout)),
        "ws_max_size": MAX_FRAME,
        # No permessage-deflate: a page's change is some 700 bytes (about 1 KB/s of a busy table),
        # while the zlib state kept for each connection cost a third of a table's memory and 5-14 %
        # of the server's CPU a move (bench/README.md, "Frames sent as they are"); and a client's
        # frames are never inflated, so a small frame cannot become a large one.
        "ws_per_message_deflate": False,
        "log_level": "warning",
        "access_log": False,
    }


LOOPBACK = ("127.0.0.1", "localhost", "::1")


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: Path | str = "tapete-tables.db",
    quiet: bool = False,
    rules_text: RulesText | None = None,
    limits: Limits | None = None,
    workers: int = 1,
) -> None:
    """Run the server until interrupted (``tapete serve``); ``rules_text`` writes a variant's rules page.

    Every option is checked, and the database too, before the server starts listening.
    ``workers`` above 1: that many server processes behind a front that routes by table
    (`tapete.web.front`), the database judged here first, once."""
    import uvicorn

    limits = (limits or Limits()).checked()
    loopback = is_loopback(host)
    served = Policies(limits.policies, load=True).served  # each judged, its network loaded, before any process starts
    if workers > 1:
        from . import front

        open_store(db).close()  # judged (and made or upgraded) before any process starts
        front.run(
            host,
            port,
            workers,
            db,
            limits,
            loopback,
            rules_text,
            ready=lambda: _announce(host, port, db, quiet, loopback, workers, served),
        )
        return
    app = process_app(db, rules_text, limits, loopback, f"{socket.gethostname()}:{port}")
    _announce(host, port, db, quiet, loopback, 1, served)
    uvicorn.run(app, host=host, port=port, **uvicorn_options(limits))


def process_app(
    db: Path | str,
    rules_text: RulesText | None,
    limits: Limits,
    loopback: bool,
    holder: str,
    worker: tuple[int, int] = (0, 1),
) -> Starlette:
    """The application of one ``tapete serve`` process (alone, or one of ``--workers``: then ``shared``)."""
    return make_app(
        db,
        rules_text=rules_text,
        own_process=True,
        limits=limits,
        loopback=loopback,
        timers=timing.wanted(),
        holder=holder,
        worker=worker,
        shared=worker[1] > 1,
    )


def _announce(
    host: str, port: int, db: Path | str, quiet: bool, loopback: bool, workers: int, served: dict[str, Any]
) -> None:
    shown = f"[{host}]" if ":" in host else host
    processes = f"; {workers} server processes" if workers > 1 else ""
    if not quiet:
        where = shown_url(str(db)) if is_database_url(db) else db
        print(
            f"tapete serve: the lobby is at http://{shown}:{port}/ (tables in {where}{processes}; Ctrl-C stops)",
            flush=True,
        )
        for s in served.values():
            print(f"tapete serve: pages may seat policy:name={s.name} at {s.variant}, {s.players} players", flush=True)
        if not loopback:
            print(
                f"warning: listening on {host}, beyond this machine: anyone who can reach it can open tables; "
                "the seat links are the only keys, and the connection is not encrypted (see docs/web.md)",
                flush=True,
            )
