"""What a connection is sent: a seat's table, built from that seat's `View` and nothing else.

Every message about the cards is made here, from the view the engine builds for the
seat (the very object a bot at that seat is handed), the legal moves when the seat is
to move, and the table's public facts (who sits where, who is connected, the scores).
The game's layout (`tapete.layout`) draws the view as it does at the terminal; this
module only turns the layout's rows into JSON. So the web shows exactly what the
seat may know: a card the view does not hold cannot be named, and the spectators'
view is the public one (seat -1: what every seat sees).

The one thing taken from beyond the view is the deal's closing account (the game's
``describe_deal`` lines kept in the match's score event), and only once the deal is
over, when the view shows every card anyway.

A page that already holds the seat's previous state is sent a ``change`` instead
(`change_message`): the keys whose values differ, taken from the new state, so it
too holds only what the seat's view shows. Every state has the same keys (``reveal``,
``result`` and ``broken`` are null when there is none), so merging a change into the
previous state (its keys replaced, then the items of its ``patch`` lists) gives
exactly the new state.
"""

from __future__ import annotations

import functools
import importlib
import json
import re
from collections.abc import Iterable
from typing import Any

from ..core.actions import Action
from ..core.cards import Deck
from ..layout import Layout, Row, Token, recap, seat_name, since_last_move
from ..view import View
from .fairness import commitment
from .tables import CLOSED, DEAL_OVER, MATCH_OVER, OVER, SPECTATOR, LiveTable

Json = dict[str, Any]


def faces(deck: Deck) -> list[Json]:
    """Every card of ``deck`` as the page draws it (made once per deck; the messages share these, never change them)."""
    hit = _faces.get(id(deck))
    if hit is None or hit[0] is not deck:
        hit = (deck, [{"c": deck.names[c], "r": 1 if deck.is_red(c) else 0} for c in deck.ids])
        _faces[id(deck)] = hit
    return hit[1]


_faces: dict[int, tuple[Deck, list[Json]]] = {}  # the deck is kept, so its id is never another deck's


def card(view: View, c: int) -> Json:
    """A card as the page draws it: its name and whether its suit is red."""
    return faces(view.deck)[c]


def tokens(view: View, items: Iterable[Token]) -> list[Any]:
    """A layout's tokens: cards as `card`, words as strings, an empty place as null."""
    face = faces(view.deck)
    return [face[t] if isinstance(t, int) else t for t in items]


def as_faces(layout: Layout, view: View, text: str) -> str:
    """``text`` naming every card as the page's faces do: the deck's own names (``3♦``).

    A layout may name cards in words at the terminal (Chinchón's ``3 de oros``); a page
    names each card one way, the faces' way, in its buttons, rows and confirmations alike."""
    pairs = _spoken(layout, view)
    for spoken, name in pairs:
        if spoken in text:
            text = text.replace(spoken, name)
    return text


def _spoken(layout: Layout, view: View) -> list[tuple[str, str]]:
    """(the layout's words for a card, the deck's name) where they differ, the longest words first.

    Asked for every row and note of every message: first by the objects themselves (a
    deal's views share one mapping of options), then by the options' values."""
    quick = (id(layout), id(view.deck), id(view.options))
    seen = _spoken_quick.get(quick)
    if seen is not None and seen[0] is layout and seen[1] is view.deck and seen[2] is view.options:
        return seen[3]
    key = (id(layout), id(view.deck), repr(sorted(view.options.items())) if view.options else "")
    hit = _spoken_cache.get(key)
    if hit is None or hit[0] is not layout or hit[1] is not view.deck:
        words = layout.card_names(view)
        differ = [(w, n) for w, n in zip(words, view.deck.names, strict=True) if w != n]
        pairs = sorted(differ, key=lambda p: -len(p[0]))
        hit = (layout, view.deck, pairs)
        _spoken_cache[key] = hit
    if len(_spoken_quick) >= MAX_ROWS:
        _spoken_quick.clear()  # one entry per deal's options: a bound, not an eviction policy
    _spoken_quick[quick] = (layout, view.deck, view.options, hit[2])
    return hit[2]


_spoken_cache: dict[Any, tuple[Layout, Deck, list[tuple[str, str]]]] = {}  # the objects kept: their ids stay theirs
_spoken_quick: dict[tuple[int, int, int], tuple[Layout, Deck, Any, list[tuple[str, str]]]] = {}


def row(view: View, r: Row, layout: Layout | None = None) -> Json:
    """A layout's row as the page draws it: made once per row's content and deck, then shared.

    The rows of a table mostly stay as they were from one position to the next and
    from one seat to another (a suit's row, the pool), so the same object serves every
    message that holds it; nothing changes a message once built, as with `faces`."""
    spoken = _spoken(layout, view) if layout is not None and r.note else None
    key = (r, id(view.deck), id(spoken))
    hit = _rows.get(key)
    if hit is not None and hit[0] is view.deck and hit[1] is spoken:
        return hit[2]
    names = view.deck.names
    made = {
        "label": r.label,
        "cards": tokens(view, r.cards),
        "note": as_faces(layout, view, r.note) if layout is not None and r.note else r.note,
        "marked": [names[c] for c in sorted(r.marked)],
        "grid": r.width > 0,
    }
    if len(_rows) >= MAX_ROWS:
        _rows.clear()  # a bound, not an eviction policy: the rows in play are made again at once
    _rows[key] = (view.deck, spoken, made)
    return made


MAX_ROWS = 20_000  # rows kept for sharing (a few hundred bytes each)
_rows: dict[Any, tuple[Deck, Any, Json]] = {}  # the deck and words kept, so their ids stay theirs


def move(view: View, layout: Layout, a: Action) -> Json:
    """A legal move as a button: its text (what the client sends back), its cards, what to confirm."""
    deck = view.deck
    out: Json = {"text": a.text(deck), "kind": a.kind, "cards": [deck.names[c] for c in a.cards], "detail": a.detail}
    confirm = layout.confirm(view, a)
    if confirm:
        out["confirm"] = [as_faces(layout, view, line) for line in confirm]
    return out


def public_seats(table: LiveTable, viewer: int) -> list[Json]:
    """Who sits where: a person (here or not, away with the stand-in playing) or a bot, by match seat."""
    out = []
    for s, st in enumerate(table.status):
        who = "person" if st.person else st.bot
        out.append(
            {
                "seat": s,
                "who": who,
                "here": st.connections > 0,
                "away": st.away,
                "stand_in": table.stand_in_name if st.away else "",
                "ready": st.ready,
                "you": s == viewer,
                "out": bool(table.ledger.out[s]),
            }
        )
    return out


def around(table: LiveTable, layout: Layout, view: View, seats: list[Json], viewer: int) -> list[Json]:
    """``seats`` with what the page draws at each place around the table, all read from ``view``.

    ``at``: the place, counted from the viewer's own (0, the bottom; a spectator sits at
    seat 0's) in the direction of play, so the next seat to play sits at the viewer's left
    (at its right in a game played the other way); ``facts``: the layout's words (hand
    size, tricks); ``played``: its cards in the middle; ``last``: its last move of the deal."""
    me = max(viewer, 0)
    last: dict[int, list[Any]] = {}
    for event in reversed(view.history):  # from the end, until every seat's last move is found
        if event.kind == "action" and event.seat is not None and event.seat not in last:
            last[event.seat] = _last_move(layout, view, event)
            if len(last) == view.players:
                break
    for place in seats:
        s = place["seat"]
        place["at"] = (s - me) * view.step % table.players
        place["facts"], place["played"], place["last"] = [], [], []
        deal_seat = table.deal_seat(s)
        if deal_seat is not None and deal_seat < view.players:  # a seat out of the match has nothing in front of it
            place["facts"] = layout.seat_facts(view, deal_seat)
            place["played"] = tokens(view, layout.seat_played(view, deal_seat))
            place["last"] = last.get(deal_seat, [])
    return seats


def _last_move(layout: Layout, view: View, event: Any) -> list[Any]:
    """A seat's last move as ``around`` shows it: the layout's line for ``event``, without the seat's name.

    Made once per event of a seat's history (and layout, viewer and deck): the events stay
    in the history as they were recorded, and three of a table's four last moves are the
    same from one position to the next, so every later state shares the line."""
    kept = _kept_line(layout, view, event)
    if kept[1] is None:
        line = tokens(view, kept[0])
        kept[1] = line[1:] if line and line[0] == f"{seat_name(view, event.seat)}:" else line
    made: list[Any] = kept[1]
    return made


def event_line(layout: Layout, view: View, event: Any) -> list[Any]:
    """``layout.event(view, event)``, made once per event and viewer (and layout and deck).

    The line depends on the event and the viewer's seat only (`Layout.event`); a person's
    recap and every seat's last move read the same events again after each move."""
    line: list[Any] = _kept_line(layout, view, event)[0]
    return line


def _kept_line(layout: Layout, view: View, event: Any) -> list[Any]:
    """``[the event's line, its last-move tokens or None]`` for this viewer, kept for the next state.

    Keyed by the event and the viewer's seat: seats that saw a move alike share its Event, and
    each reads it in its own words."""
    key = (id(event), view.seat)
    hit = _event_lines.get(key)
    if hit is not None and hit[0] is event and hit[1] is layout and hit[2] is view.deck:
        return hit[3]
    kept = [layout.event(view, event), None]
    if len(_event_lines) >= MAX_ROWS:
        _event_lines.clear()  # a bound, not an eviction policy, as for the rows
    _event_lines[key] = (event, layout, view.deck, kept)
    return kept


# the event kept with its lines: its id stays its own
_event_lines: dict[tuple[int, int], tuple[Any, Layout, Deck, list[Any]]] = {}


def score_sheet(table: LiveTable) -> list[Json]:
    """Each deal's scores and the running totals (numbers only: they stay true in later deals).

    Built once per new score event, since every message of every seat carries it."""
    cached = table.sheet_cache
    if cached is not None and cached[0] == len(table.records):
        return cached[1]
    sheet: list[Json] = []
    for rec in table.records:
        kind = rec.get("type")
        if kind == "score":
            scores = rec.get("scores", {})
            sheet.append(
                {
                    "deal": rec["number"],
                    "scores": [scores.get(str(s)) for s in range(table.players)],
                    "totals": list(rec["totals"]),
                    "won": list(rec.get("won", [])),
                }
            )
        elif kind == "void":
            sheet.append({"deal": rec["number"], "void": True})
        elif kind == "bonus":
            scores = rec.get("scores", {})
            sheet.append(
                {
                    "deal": "bonus",
                    "scores": [scores.get(str(s)) for s in range(table.players)],
                    "totals": list(rec["totals"]),
                }
            )
    table.sheet_cache = (len(table.records), sheet)
    return sheet


def title(table: LiveTable, view: View, viewer: int) -> str:
    number = table.ledger.deal_number
    if table.phase == MATCH_OVER and table.result is not None:
        w = table.result.winner
        who = "a draw" if w < 0 else ("you win" if w == viewer else f"seat {w} wins")
        return f"the match is over after {table.result.deals} deals: {who}"
    if table.phase == DEAL_OVER:
        return f"deal {number} is over"
    if table.phase == CLOSED:
        return f"the table was closed: {table.broken}"
    if table.phase not in ("play",):
        return f"the table stopped: {table.broken}"
    mover = table.to_move
    whose = "your move" if mover == viewer else f"seat {mover} to move"
    return f"deal {number}, seat {table.seats[view.dealer]} dealt; {whose}"


def state_message(table: LiveTable, layout: Layout, viewer: int, clock: Json | None = None) -> Json:
    """The whole table as ``viewer`` (a match seat, or `SPECTATOR`) may see it now."""
    view = table.view(viewer)
    seated = viewer != SPECTATOR and table.deal_seat(viewer) is not None
    legal = layout.menu(view, table.legal_for(viewer)) if seated else []
    msg: Json = {
        "type": "state",
        "seq": table.seq,
        "phase": table.phase,
        "seat": viewer,
        "variant": table.variant.name,
        "deal": table.ledger.deal_number,
        "to_move": table.to_move,
        "title": title(table, view, viewer),
        "seats": around(table, layout, view, public_seats(table, viewer), viewer),
        "at_seats": layout.seat_rows,
        "middle": layout.middle(view),
        "scores": list(layout.scores(view)),
        "recap": [
            tokens(view, line)
            for line in recap(layout, view, since_last_move(view), functools.partial(event_line, layout))
        ]
        if seated
        else [],
        "table": [row(view, r, layout) for r in layout.table(view)],
        "hand": [faces(view.deck)[c] for c in layout.sorted_hand(view)] if seated else [],
        "hand_rows": [row(view, r, layout) for r in layout.hand(view, legal)] if seated else [],
        "moves": [move(view, layout, a) for a in legal],
        "card_move": layout.card_move_kind(legal),
        "sheet": score_sheet(table),
        "help": [*table.game.rules_help(), *layout.help(view)],  # the game's rules, in its member's ids
        "waiting": table.waiting_for(),
        "clock": clock,
        "reveal": reveal(table, layout, view) if view.over else None,
        "result": None,
        "broken": table.broken or None,
        "fair": fairness(table),
    }
    if table.phase == MATCH_OVER and table.result is not None:
        msg["result"] = {"winner": table.result.winner, "totals": list(table.result.totals)}
    return msg


def fairness(table: LiveTable) -> Json:
    """The table's commitment to its seed, on every page from the start; the seed and salt once it is over.

    The record (the match log ``tapete verify`` checks) is offered once the match is won."""
    cfg = table.config
    over = table.phase in OVER
    return {
        "commitment": _commitment(cfg.seed, cfg.salt),
        "seed": cfg.seed if over else None,
        "salt": cfg.salt if over else None,
        "record": f"/api/tables/{table.id}/record" if table.phase == MATCH_OVER else None,
    }


@functools.lru_cache(maxsize=4096)
def _commitment(seed: str, salt: str) -> str:
    """`commitment`, hashed once per table rather than once per message."""
    return commitment(seed, salt)


def change_message(before: Json, after: Json) -> Json:
    """What differs between two state messages of one seat: ``after``'s values of the keys that changed.

    Always with the position (``seq``); a key ``after`` lacks is sent as null. A list
    that kept its length but had some items replaced (a row of the table, a seat) goes
    in ``patch``: ``{key: {index: new item}}``, the other items staying as they were."""
    out: Json = {"type": "change", "seq": after["seq"]}
    patch: Json = {}
    for key, value in after.items():
        if key in out:
            continue
        old = before.get(key, _MISSING)
        if old is value:
            continue
        if isinstance(value, list) and isinstance(old, list) and len(old) == len(value) > 1:
            # ``is`` first: most items are the very objects of the last state (shared rows, the
            # same dicts), and ``!=`` of a dict with itself still walks it.
            items = {str(i): v for i, (o, v) in enumerate(zip(old, value, strict=True)) if o is not v and o != v}
            if not items:
                continue
            if len(items) < len(value):
                patch[key] = items
                continue
        elif old == value:
            continue
        out[key] = value
    for key in before:
        if key not in after:
            out[key] = None
    if patch:
        out["patch"] = patch
    return out


_MISSING = object()


def encode(msg: Json) -> str:
    """A message as the text of one WebSocket frame (compact; card suits as they are, not escaped).

    The text is the standard library's ``json.dumps(msg, ensure_ascii=False, separators=(",",
    ":"))``, byte for byte. With orjson installed (the ``web`` extra) it is made by orjson, some
    8x quicker on a table's messages (about 58 against 7 µs for a change of Fan Tan), which
    writes the same text for everything a message holds but floats (``1e-05`` is its
    ``0.00001``) and what it cannot write at all (keys that are not strings, integers beyond 64
    bits): a text with a float in it, and a message orjson refuses, is made by the standard
    library instead. (Both write a float that is not finite differently too, NaN against null;
    no message holds one: the clock's seconds are checked finite, scores are whole numbers.)"""
    if _orjson is not None:
        try:
            data: bytes = _orjson.dumps(msg, option=_AS_STDLIB)
        except TypeError:  # orjson.JSONEncodeError: a key, number or type it leaves to the standard library
            pass
        else:
            text = data.decode()
            if _FLOAT_MARK not in data.translate(_MARKS) or _FLOAT.search(text) is None:
                return text
    return _dumps(msg)


def _dumps(msg: Json) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


# A number with a fraction or an exponent where a value starts (after ``:``, ``,`` or ``[``): a
# float, written by orjson in its own way. Inside a string it only sends that text the slow way.
_FLOAT = re.compile(r"[:,\[]-?[0-9]+[.eE]")
# The regular expression walks a text at about 10 ns a character, most of a change's encoding. A
# float as orjson writes it always has a digit just before a ``.``, ``e`` or ``E`` (``0.1``,
# ``1e16``): the text with every digit made ``0``, those three made ``.`` and the rest a space
# (`bytes.translate`, a table lookup a byte) holds ``0.`` wherever it may hold a float. Only a
# text that does (a rule id such as ``HE-3.2`` in the help does too) is searched.
_MARKS = bytes(48 if 48 <= b <= 57 else 46 if b in b".eE" else 32 for b in range(256))  # byte -> its mark
_FLOAT_MARK = b"0."

_orjson: Any
try:
    _orjson = importlib.import_module("orjson")

    # Subclasses (of str, int, dict, list), dataclasses and dates are refused rather than written in
    # orjson's way: the standard library writes them (or refuses them) as it always did.
    _AS_STDLIB = _orjson.OPT_PASSTHROUGH_SUBCLASS | _orjson.OPT_PASSTHROUGH_DATACLASS | _orjson.OPT_PASSTHROUGH_DATETIME
except ImportError:  # the pure fallback: the same text, made by the standard library
    _orjson = None
    _AS_STDLIB = 0


def reveal(table: LiveTable, layout: Layout, view: View) -> Json:
    """The deal's end, every card shown: each hand, and the game's account of the deal."""
    assert view.over
    hands = []
    for s in range(view.players):
        zone = f"hand.{s}"
        if zone in view.zones:
            cards = sorted(view.cards(zone), key=lambda c: layout.sort_key(view, c))
            hands.append({"label": seat_name(view, s), "cards": [card(view, c) for c in cards]})
    lines: list[str] = []
    points: list[int | None] = []  # what each match seat gained in this deal (none: void, or out of it)
    for rec in reversed(table.records):
        if rec.get("type") in ("score", "void"):
            lines = [str(x) for x in rec.get("lines", [])]
            if rec.get("type") == "void":
                lines = [f"the deal is void: {rec.get('reason', '')}", *lines]
            else:
                scores = rec.get("scores", {})
                points = [scores.get(str(s)) for s in range(table.players)]
            break
    return {"hands": hands, "lines": lines, "points": points}


def log_message(table: LiveTable, layout: Layout, viewer: int) -> Json:
    """The deal so far as the seat saw it (sent when the page asks: it grows with the deal)."""
    view = table.view(viewer)
    lines = [tokens(view, layout.event(view, e)) for e in view.history if e.kind == "action"]
    return {"type": "log", "seq": table.seq, "deal": table.ledger.deal_number, "lines": lines}


def hint_message(table: LiveTable, viewer: int, action: Action, why: str) -> Json:
    view = table.view(viewer)
    return {"type": "hint", "seq": table.seq, "move": action.text(view.deck), "why": why}


def refusal_message(code: str, message: str, seq: int | None) -> Json:
    """A message refused, and why; it never repeats the move (which might name a card the seat cannot see)."""
    kind = "refused" if code == "refused" else "error"
    return {"type": kind, "code": code, "message": message, "seq": seq}
