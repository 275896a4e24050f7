"""What one seat knows: the per-seat view every bot, search and person plays from.

A bot never receives the `DealState`. The engine hands it a `View` built from
copies: the cards the scripts' ``see`` statements let this seat see, the size of
every zone, the public counters, the match ledger, the game's public facts, and
the seat's own history of the deal. Nothing in a view refers back to the state,
so a hidden card cannot be reached through it, by accident or otherwise.

The history is derived generically from what changes between two moments, as
this seat sees them, so a new game gets correct per-seat histories without
writing any code:

* a card moving between zones is named to the seat when the seat can see it
  before or after the move (a draw from a face-up pile names the card; a draw
  from the face-down stock is a card moving from ``stock`` to ``hand.2``);
* cards named in an action are shown only when the seat could see them (a
  face-down close reads ``close ?`` to the others);
* what the seat has seen and where it last knew each card to be (``known``) is
  kept along the deal: a card an opponent took from the discard pile is known
  to be in that hand until it leaves it; cards recycled from a pile the seat had
  seen whole into the stock are known to be in the stock;
* when the deal is over, everything is shown.

``say`` events of a game are narration for the whole table and pass unchanged:
a game must put only public facts in them. A game that turns a card face up in
passing (a stock card turned and captured at once) says so with a ``show``
event naming the cards, and every seat then sees them move. Counters and ``data`` keys starting
with ``_`` are private to the engine and the game, and views leave them out.

Building views costs something, so the engine builds them only for bots that
look: a bot class with ``observes = False`` (the random bot) receives ``None``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from itertools import islice
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, overload

from .core.actions import Action
from .core.cards import Deck

if TYPE_CHECKING:
    from .core.ledger import Ledger
    from .core.state import DealState
    from .game import Game

HIDDEN = "?"
_SET = object.__setattr__  # a view is read-only: its fields are set past its __setattr__, once


class Move(NamedTuple):
    """A card going from one zone to another; ``card`` is None when the seat could not tell which."""

    card: int | None
    source: str
    target: str


class Event(NamedTuple):
    """One step of the deal as one seat saw it.

    ``kind`` is ``deal`` (the cards were dealt), ``action`` (a seat moved) or
    ``reveal`` (the deal ended and every card is shown). ``action`` is the move
    with the cards the seat could not see left out and ``text`` the same move
    written with ``?`` for each of them. ``revealed`` lists the cards this event
    showed the seat for the first time in their present place.
    """

    kind: str
    seat: int | None
    action: Action | None
    text: str
    moves: tuple[Move, ...]
    revealed: tuple[int, ...]
    said: tuple[str, ...]


class History(Sequence[Event]):
    """A read-only window on a seat's events, fixed at the length it had when the view was made."""

    __slots__ = ("_events", "_n")

    def __init__(self, events: list[Event], n: int):
        self._events, self._n = events, n

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Event: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Event]: ...

    def __getitem__(self, i: int | slice) -> Event | Sequence[Event]:
        if isinstance(i, slice):
            return tuple(self._events[: self._n][i])
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("history index out of range")
        return self._events[i]

    def __iter__(self) -> Iterator[Event]:
        # in C: a page's state lists a seat's whole history after every move (`list(view.history)`)
        return islice(self._events, self._n)

    def __reversed__(self) -> Iterator[Event]:
        # in C too: a page's state looks back from the end for each seat's last move, a few events
        return reversed(self._events[: self._n]) if self._n < len(self._events) else reversed(self._events)

    def __repr__(self) -> str:
        return f"History({list(self)!r})"


class Facts:
    """A game's public derived facts (tables, solvers, card values), read by attribute; deeply read-only.

    A game's ``facts()`` may hand its own lists and objects (Chinese Ten's ``point_of``,
    Chinchón's meld solver). Every view of one seat of a game shares one `Facts`
    (`game_facts`), so they are sealed when it is built, once per game and seat: lists become tuples, mappings
    read-only mappings, sets frozensets, all the way down, and any other object (a
    solver, a table of card infos) becomes a deep copy that is the facts' own. A bot
    that writes to what it reads gets a TypeError (or changes only its copy), and the
    game's scoring never sees it; reading costs what it cost before.
    """

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, Any]):
        object.__setattr__(self, "_values", read_only(dict(values)))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "_values":  # copy/pickle probes, or _values not set yet
            raise AttributeError(name)
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"the game offers no public fact {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a view's facts are read-only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("a view's facts are read-only")

    def __contains__(self, name: str) -> bool:
        return name in self._values

    def __dir__(self) -> list[str]:
        return sorted(self._values)


_PLAIN = (type(None), bool, int, float, complex, str, bytes, range)


def read_only(value: Any) -> Any:
    """``value`` sealed for sharing: containers become their read-only kinds, other objects private copies.

    Plain values, functions and classes are kept (nothing in them is data a bot should
    write); a tuple (a NamedTuple too) keeps its type with sealed items. An object
    reached twice is copied once (Chinchón's ``solver`` is its ``tables.solver``)."""
    import copy
    import types

    sealed: dict[int, tuple[Any, Any]] = {}  # id -> (sealed, original: kept alive so its id is not reused)
    copies: dict[int, Any] = {}  # deepcopy's memo, shared by every object copied

    def seal(v: Any) -> Any:
        if isinstance(v, (*_PLAIN, types.FunctionType, types.BuiltinFunctionType, type)):
            return v
        found = sealed.get(id(v))
        if found is not None:
            return found[0]
        out: Any
        if isinstance(v, list | tuple):
            items = [seal(x) for x in v]
            make = getattr(type(v), "_make", None)  # a NamedTuple keeps its type
            out = make(items) if make is not None else tuple(items)
        elif isinstance(v, Mapping):
            out = MappingProxyType({k: seal(x) for k, x in v.items()})
        elif isinstance(v, set | frozenset):
            out = frozenset(seal(x) for x in v)
        else:
            out = copy.deepcopy(v, copies)  # a solver, a table object: the facts' own copy, never the game's
        sealed[id(v)] = (out, v)
        return out

    return seal(value)


class View:
    """Everything one seat knows at one moment, and nothing else (see the module docstring)."""

    __slots__ = (
        "seat",
        "players",
        "dealer",
        "to_move",
        "over",
        "deck",
        "step",
        "facts",
        "options",
        "zones",
        "counts",
        "counters",
        "data",
        "totals",
        "deals_won",
        "out",
        "deal_number",
        "history",
        "seen",
        "known",
    )

    seat: int
    players: int
    dealer: int
    to_move: int
    over: bool
    deck: Deck
    step: int
    facts: Facts
    options: Mapping[str, Any]
    zones: Mapping[str, tuple[int, ...]]
    counts: Mapping[str, int]
    counters: Mapping[str, int]
    data: Mapping[str, Any]
    totals: tuple[int, ...]
    deals_won: tuple[int, ...]
    out: tuple[bool, ...]
    deal_number: int
    history: Sequence[Event]
    seen: frozenset[int]
    known: Mapping[int, str]

    def __init__(self, **fields: Any):
        set_field = _SET
        for name, value in fields.items():
            set_field(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a view is read-only")

    # -- reading zones -----------------------------------------------------------------
    @property
    def hand(self) -> tuple[int, ...]:
        return self.zones.get(f"hand.{self.seat}", ())

    def cards(self, zone: str) -> tuple[int, ...]:
        """The cards of ``zone`` this seat sees: all of a face-up zone, the top of a pile, or none."""
        return self.zones.get(zone, ())

    def count(self, zone: str) -> int:
        return self.counts.get(zone, 0)

    def top(self, zone: str) -> int | None:
        """The top card of ``zone`` if this seat sees it."""
        cards = self.zones.get(zone, ())
        return cards[-1] if cards else None

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` turns after ``seat`` in the direction of play."""
        return (seat + self.step * steps) % self.players

    def unseen(self) -> list[int]:
        """Cards whose place this seat does not know: neither visible now nor remembered."""
        visible = {c for cards in self.zones.values() for c in cards}
        known = self.known
        return [c for c in self.deck.ids if c not in visible and c not in known]

    def text(self, card: int) -> str:
        return self.deck.names[card]

    def __repr__(self) -> str:
        names = self.deck.names
        zones = ", ".join(
            f"{z}: {' '.join(names[c] for c in cs) or '-'}{'' if len(cs) == self.counts[z] else f' ({self.counts[z]})'}"
            for z, cs in self.zones.items()
        )
        return f"View(seat {self.seat}, to_move {self.to_move}, {zones})"


# -- who sees what: the observer --------------------------------------------------------
# Everything that shows a seat part of a deal goes through this section: views (`make_view`,
# and so every bot), the per-seat histories (`Recorder`), `Deal.observe`, the search's
# imagined deals and the learning environment's observations. The ``see`` modes are applied
# here and nowhere else, and the private (``_``) counters and data are dropped here.
def zone_mode(game: Game, zone: str, seat: int) -> str:
    """How ``seat`` sees ``zone`` by the scripts' ``see`` statements: ``all``, ``top``, ``count`` or ``none``.

    ``own`` is resolved here (``all`` for the seat's own ``hand.N``, ``count`` for the
    others); a zone no statement names is ``count``."""
    kind, _, owner = zone.partition(".")
    if kind == "removed":  # cards a ``remove`` statement set aside lie face up for everyone (Game.dealt_deck)
        return "all"
    if kind == "chosen":  # a hidden choice (tapete.play.choices): its chooser's alone, whatever a script says
        return "all" if owner == str(seat) else "count"
    mode: str = game.visibility.get(kind, "count")
    if mode == "own":
        return "all" if owner == str(seat) else "count"
    return mode


def shown(cards: Sequence[int], mode: str) -> Sequence[int]:
    """The cards of a zone a seat sees when it sees the zone as ``mode``: all, the top one, or none.

    ``cards`` itself is returned for ``all`` (no copy; callers that keep it copy it)."""
    if mode == "all":
        return cards
    if mode == "top":
        return cards[-1:]
    return ()


def private(name: str) -> bool:
    """Counters and ``data`` keys starting with ``_`` belong to the engine and the game: no seat sees them."""
    return name.startswith("_")


def public(values: Mapping[str, Any]) -> dict[str, Any]:
    """The public part of a deal's counters or ``data`` (a new dict; the values are not copied)."""
    return {k: v for k, v in values.items() if not k.startswith("_")}


def public_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """The public ``data`` as a deep copy, so that nothing handed to a seat leads back to the state."""
    found = public(data)
    return json.loads(json.dumps(found)) if found else {}


class Observer:
    """What each seat of one game sees of a deal's zones, with the ``see`` modes cached per seat.

    One per game object (`observer`); the modes depend only on the game's rules, the zone's
    name and the seat, so each is worked out once. The methods below are the hot loops of
    the views, the histories and the learning environment, each applying the modes as
    `shown` does, inline, since they run for every seat after every move."""

    __slots__ = ("game", "_modes")

    def __init__(self, game: Game):
        self.game = game
        self._modes: dict[int, dict[str, str]] = {}

    def modes(self, seat: int) -> dict[str, str]:
        """The cache of `zone_mode` for ``seat``: zone -> mode, filled by `mode` as zones are met."""
        found = self._modes.get(seat)
        if found is None:
            found = self._modes[seat] = {}
        return found

    def mode(self, zone: str, seat: int, over: bool = False) -> str:
        """How ``seat`` sees ``zone`` now: as the rules say (`zone_mode`), or ``all`` once the deal is ``over``."""
        if over:
            return "all"
        modes = self.modes(seat)
        found = modes.get(zone)
        if found is None:
            found = modes[zone] = zone_mode(self.game, zone, seat)
        return found

    def cards(self, state: DealState, zone: str, seat: int) -> tuple[int, ...]:
        """The cards of one zone that ``seat`` sees now (all of them once the deal is over)."""
        return tuple(shown(state.zones[zone], self.mode(zone, seat, state.over)))

    def picture(self, state: DealState, seat: int) -> tuple[dict[str, tuple[int, ...]], dict[str, int], set[int]]:
        """What ``seat`` sees of every zone: the cards shown per zone, every zone's size, and the cards shown."""
        zones: dict[str, tuple[int, ...]] = {}
        counts: dict[str, int] = {}
        visible: set[int] = set()
        modes = self._modes.get(seat) or self.modes(seat)
        over = state.over
        for name, cards in state.zones.items():
            counts[name] = len(cards)
            mode = "all" if over else modes.get(name) or self.mode(name, seat)
            if mode == "all":
                seen: tuple[int, ...] = tuple(cards)
                visible.update(cards)
            elif mode == "top" and cards:
                seen = (cards[-1],)
                visible.add(cards[-1])
            else:
                seen = ()
            zones[name] = seen
        return zones, counts, visible

    def hidden(self, state: DealState, seat: int) -> list[tuple[str, int]]:
        """(zone, index) of every card whose face ``seat`` is not shown by the ``see`` rules.

        The places where a card the seat cannot see may lie: what a twin of the deal may
        shuffle (the hidden-information checks, the web table's refusal words) without the
        seat being able to tell."""
        out: list[tuple[str, int]] = []
        for name, cards in state.zones.items():
            mode = self.mode(name, seat)
            if mode in ("count", "none"):
                out.extend((name, i) for i in range(len(cards)))
            elif mode == "top":
                out.extend((name, i) for i in range(len(cards) - 1))
        return out

    def where(self, zones: Mapping[str, list[int]], over: bool, seat: int) -> dict[int, str]:
        """card -> zone for every card ``seat`` sees in ``zones`` (every card when ``over``)."""
        out: dict[int, str] = {}
        modes = self._modes.get(seat) or self.modes(seat)
        for name, cards in zones.items():
            if cards:
                mode = "all" if over else modes.get(name) or self.mode(name, seat)
                if mode == "all":
                    for c in cards:
                        out[c] = name
                elif mode == "top":
                    out[cards[-1]] = name
        return out

    @staticmethod
    def planes(
        zones: Mapping[str, list[int]], plan: Sequence[tuple[str, str, int]], scale: float
    ) -> tuple[list[int], list[float], set[int]]:
        """A seat's card planes, for an observation vector: ``plan`` lists (zone, its `mode` for
        the seat, plane offset). Returns offset + card for every card seen, each planned zone's
        size divided by ``scale``, and the cards seen."""
        hot: list[int] = []
        sizes: list[float] = []
        visible: set[int] = set()
        for name, mode, base in plan:
            cards = zones.get(name)
            if not cards:
                sizes.append(0.0)
                continue
            sizes.append(len(cards) / scale)
            if mode == "all":
                hot.extend([base + c for c in cards])
                visible.update(cards)
            elif mode == "top":
                hot.append(base + cards[-1])
                visible.add(cards[-1])
        return hot, sizes, visible


def observer(game: Game) -> Observer:
    """The game's `Observer`, made once per game object."""
    found = getattr(game, "_observer", None)
    if found is None:
        found = Observer(game)
        game._observer = found  # type: ignore[attr-defined]  # a cache on the game object
    return found


def visible_cards(game: Game, state: DealState, zone: str, seat: int) -> tuple[int, ...]:
    """The cards of one zone that ``seat`` sees now (all of them once the deal is over)."""
    return observer(game).cards(state, zone, seat)


class _SeatMemory:
    """What one seat has seen during a deal, and where it last knew each card to be."""

    __slots__ = ("events", "seen", "pins")

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.seen: set[int] = set()
        self.pins: dict[int, str] = {}


class Recorder:
    """Keeps each observing seat's history and memory along one deal, and builds its views.

    The match loop (and a `Deal`, the terminal's watcher, the learning environment)
    moves a recorded deal with `apply`, which applies the action through the game and
    records it; nothing here runs for seats that do not observe.
    ``history=False`` keeps only what a seat sees and remembers (``seen`` and
    ``known``), not its events: views then have an empty history. The learning
    environments (tapete.pettingzoo) record that way, since their observation
    reads no events.
    """

    def __init__(
        self,
        game: Game,
        state: DealState,
        seats: Sequence[int] | None = None,
        ledger: Ledger | None = None,
        options: Mapping[str, Any] | None = None,
        history: bool = True,
    ):
        self.game = game
        self.ledger = ledger
        self.history = history
        self.options = MappingProxyType(dict(options or {}))
        self.observer = observer(game)
        self.seats = list(range(state.players)) if seats is None else list(seats)
        self.memory = {s: _SeatMemory() for s in self.seats}
        for s, mem in self.memory.items():
            vis = self.observer.where(state.zones, state.over, s)
            mem.seen.update(vis)
            mem.pins.update(vis)
            if history:
                mem.events.append(Event("deal", None, None, "deal", (), tuple(sorted(vis)), ()))

    def __deepcopy__(self, memo: dict[int, Any]) -> Recorder:
        """An independent record (the ledger, every seat's history and memory), sharing what never
        changes: the game, its observer and the read-only options."""
        import copy

        for shared in (self.game, self.observer, self.options):
            memo[id(shared)] = shared
        twin = Recorder.__new__(Recorder)
        memo[id(self)] = twin
        twin.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return twin

    def apply(self, state: DealState, action: Action) -> list[dict[str, Any]]:
        """Apply ``action`` to ``state`` through the game and record it; the game's events.

        The one way a recorded deal moves: the zones are copied before the move, so `after`
        can tell what the move changed."""
        mover = state.to_move
        before = {name: cards[:] for name, cards in state.zones.items()}
        events = self.game.apply(state, action)
        self.after(state, before, mover, action, events)
        return events

    def pins(self, seat: int) -> Mapping[int, str]:
        """Where ``seat`` last knew each card it has seen to be (live: it changes as the deal is recorded).

        A view's ``known`` is this without the cards the seat sees now; the learning
        environment reads it directly to build an observation without a view."""
        return self.memory[seat].pins

    def events(self, seat: int) -> Sequence[Event]:
        """``seat``'s history of the deal so far (live), as its views hold it: empty with ``history=False``."""
        mem = self.memory[seat]
        return History(mem.events, len(mem.events))

    def before(self, state: DealState) -> dict[str, list[int]]:
        """A copy of the zones, taken before an action is applied."""
        return {name: cards[:] for name, cards in state.zones.items()}

    def after(
        self,
        state: DealState,
        before: dict[str, list[int]],
        mover: int,
        action: Action,
        events: Sequence[Mapping[str, Any]],
    ) -> None:
        """Record one action, applied to ``state``, in every observing seat's history."""
        where = self.observer.where
        zones = state.zones
        changed = [z for z, cards in zones.items() if before.get(z) != cards]
        if before.keys() != zones.keys():  # a zone the action removed
            changed += [z for z in before if z not in zones]
        where_before: dict[int, str] = {}
        where_after: dict[int, str] = {}
        for z in changed:
            for c in before.get(z, ()):
                where_before[c] = z
            for c in zones.get(z, ()):
                where_after[c] = z
        moved = sorted(c for c, z in where_before.items() if where_after.get(c, z) != z)
        shown_to_all = _shown(self.game.deck, events)
        # Only zones that changed can change what a seat sees or remembers.
        before_changed = {z: before[z] for z in changed if z in before}
        after_changed = {z: zones[z] for z in changed if z in zones}
        history = self.history
        # seats that saw the move alike (every seat but the mover, for a card played face up) share
        # one Event: it is made from what the seat saw, and nothing changes an Event once made
        told: list[tuple[dict[int, str], dict[int, str], set[int], Event]] = []
        for seat, mem in self.memory.items():
            vis_before = where(before_changed, False, seat)
            for c in shown_to_all:
                vis_before.setdefault(c, where_before.get(c, ""))
            vis_after = where(after_changed, False, seat)
            pins = mem.pins
            deduced = (
                self._deduce(before, zones, moved, where_before, where_after, vis_before, vis_after, pins)
                if moved
                else set()
            )
            for c in moved:  # a card seen moving is remembered where it went
                if (c in vis_before or c in deduced) and c not in vis_after:
                    pins[c] = where_after[c]
            pins.update(vis_after)
            mem.seen.update(vis_after)
            if history:
                event = next((e for b, a, d, e in told if b == vis_before and a == vis_after and d == deduced), None)
                if event is None:
                    event = self._event(
                        mover, action, events, moved, where_before, where_after, vis_before, vis_after, deduced
                    )
                    told.append((vis_before, vis_after, deduced, event))
                mem.events.append(event)
            if state.over:  # the deal's end shows every card
                vis_end = where(zones, True, seat)
                vis_now = where(zones, False, seat)
                newly = tuple(sorted(c for c in vis_end if c not in vis_now))
                pins.update(vis_end)
                mem.seen.update(vis_end)
                if history:
                    mem.events.append(Event("reveal", None, None, "the deal is over", (), newly, ()))

    def _event(
        self,
        mover: int,
        action: Action,
        events: Sequence[Mapping[str, Any]],
        moved: list[int],
        where_before: Mapping[int, str],
        where_after: Mapping[int, str],
        vis_before: Mapping[int, str],
        vis_after: Mapping[int, str],
        deduced: set[int],
    ) -> Event:
        """The action as a seat saw it (``vis_before``, ``vis_after``: the cards it saw, ``deduced``:
        the moves it could work out), for its history."""
        names = self.game.deck.names
        shown = [
            Move(c if c in vis_before or c in vis_after or c in deduced else None, where_before[c], where_after[c])
            for c in moved
        ]
        said = tuple(str(e["say"]) for e in events if "say" in e)
        revealed = tuple(sorted(c for c, z in vis_after.items() if vis_before.get(c) != z))
        can_see = [c in vis_before or c in vis_after or c in deduced for c in action.cards]
        if all(can_see) and type(action) is Action and type(action.cards) is tuple:
            public = action  # every card seen: the move itself (an Action never changes)
        else:
            public = Action(
                action.kind, tuple(c for c, ok in zip(action.cards, can_see, strict=True) if ok), action.detail
            )
        words = [action.kind, *(names[c] if ok else HIDDEN for c, ok in zip(action.cards, can_see, strict=True))]
        if action.detail:
            words.append(action.detail)
        return Event("action", mover, public, " ".join(words), tuple(shown), revealed, said)

    @staticmethod
    def _deduce(
        before: Mapping[str, list[int]],
        after: Mapping[str, list[int]],
        moved: list[int],
        where_before: Mapping[int, str],
        where_after: Mapping[int, str],
        vis_before: Mapping[int, str],
        vis_after: Mapping[int, str],
        pins: dict[int, str],
    ) -> set[int]:
        """Hidden moves a seat can work out, and the memories they make unsure.

        When every card that left a zone unseen was known to be there, and every
        card the zone still holds is visible, the seat knows exactly which cards
        went (a discard pile it watched being built, turned into the stock). When a
        zone loses an unseen card and that cannot be told, every card the seat
        remembered in that zone may be the one that left: those memories go.
        """
        unseen_departures: dict[str, list[int]] = {}
        for c in moved:
            if c not in vis_before and c not in vis_after:
                unseen_departures.setdefault(where_before[c], []).append(c)
        deduced: set[int] = set()
        for zone, gone in unseen_departures.items():
            hidden_before = [c for c in before.get(zone, ()) if c not in vis_before]
            remembered = [c for c in hidden_before if pins.get(c) == zone]
            remaining_hidden = [c for c in after.get(zone, ()) if c not in vis_after]
            targets = {where_after[c] for c in gone}
            if len(remembered) == len(hidden_before) and not remaining_hidden and len(targets) == 1:
                deduced.update(gone)
            else:
                for c in remembered:
                    del pins[c]
        return deduced

    # -- views -------------------------------------------------------------------------
    def view(self, state: DealState, seat: int) -> View:
        """The view of ``seat`` now; ``seat`` must be one of the observing seats."""
        mem = self.memory[seat]
        return make_view(
            self.game,
            state,
            seat,
            game_facts(self.game, seat),
            self.options,
            self.ledger,
            History(mem.events, len(mem.events)),
            frozenset(mem.seen),
            mem.pins,
        )


def make_view(
    game: Game,
    state: DealState,
    seat: int,
    facts: Facts,
    options: Mapping[str, Any],
    ledger: Ledger | None,
    history: Sequence[Event] = (),
    seen: frozenset[int] | None = None,
    pins: Mapping[int, str] | None = None,
    copy_data: bool = True,
) -> View:
    """A view of ``state`` for ``seat`` from copies only (the engine's one way of making views).

    ``copy_data=False`` hands the public ``data`` over without a deep copy, for a state
    that is thrown away before the view could be misused (the search's imagined deals)."""
    zones, counts, visible = observer(game).picture(state, seat)
    known = {c: z for c, z in pins.items() if c not in visible} if pins else {}
    n = state.players
    if ledger is not None:
        totals, won, out, number = (
            tuple(ledger.totals),
            tuple(ledger.deals_won),
            tuple(ledger.out),
            ledger.deal_number,
        )
    else:
        totals, won, out, number = (0,) * n, (0,) * n, (False,) * n, 1
    return View(
        seat=seat,
        players=n,
        dealer=state.dealer,
        to_move=state.to_move,
        over=state.over,
        deck=game.deck,
        step=game.step,
        facts=facts,
        options=options,
        zones=MappingProxyType(zones),
        counts=MappingProxyType(counts),
        counters=MappingProxyType(public(state.counters)),
        data=MappingProxyType(public_data(state.data) if copy_data else public(state.data)),
        totals=totals,
        deals_won=won,
        out=out,
        deal_number=number,
        history=history,
        seen=frozenset(visible) if seen is None else seen | visible,
        known=MappingProxyType(known),
    )


def _shown(deck: Deck, events: Sequence[Mapping[str, Any]]) -> list[int]:
    """Cards a game turned face up for everyone during an action (``{"show": [names]}`` events)."""
    out: list[int] = []
    for e in events:
        for name in e.get("show", ()):
            out.append(deck.parse(str(name)))
    return out


def game_facts(game: Game, seat: int | None = None) -> Facts:
    """The game's public facts as ``seat`` reads them, built once per game object and seat.

    Each seat's views get `Facts` of their own: a fact may remember what is asked of it
    (Chinchón's meld solver caches the hands it has judged), and what one seat's bot asks
    about its own hidden hand must not be reachable from another seat's view. ``None``
    gives the facts no real seat's view holds, for the views of imagined deals (the search)."""
    found: dict[int | None, Facts] | None = getattr(game, "_public_facts", None)
    if found is None:
        found = game._public_facts = {}  # type: ignore[attr-defined]  # a cache on the game object
    facts = found.get(seat)
    if facts is None:
        facts = found[seat] = Facts(game.facts())
    return facts
