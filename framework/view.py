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

from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, overload

from .core.actions import Action
from .core.cards import Deck

if TYPE_CHECKING:
    from .core.ledger import Ledger
    from .core.state import DealState
    from .game import Game

HIDDEN = "?"


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
        for i in range(self._n):
            yield self._events[i]

    def __repr__(self) -> str:
        return f"History({list(self)!r})"


class Facts:
    """A game's public derived facts (tables, solvers, card values), read by attribute."""

    def __init__(self, values: Mapping[str, Any]):
        object.__setattr__(self, "_values", dict(values))

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"the game offers no public fact {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a view's facts are read-only")

    def __contains__(self, name: str) -> bool:
        return name in self._values

    def __dir__(self) -> list[str]:
        return sorted(self._values)


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
        for name, value in fields.items():
            object.__setattr__(self, name, value)

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


# -- who sees what -----------------------------------------------------------------------
def zone_mode(game: Game, zone: str, seat: int) -> str:
    kind, _, owner = zone.partition(".")
    mode: str = game.visibility.get(kind, "count")
    if mode == "own":
        return "all" if owner == str(seat) else "count"
    return mode


def visible_cards(game: Game, state: DealState, zone: str, seat: int) -> tuple[int, ...]:
    """The cards of one zone that ``seat`` sees now (all of them once the deal is over)."""
    cards = state.zones[zone]
    if state.over:
        return tuple(cards)
    mode = zone_mode(game, zone, seat)
    if mode == "all":
        return tuple(cards)
    if mode == "top":
        return (cards[-1],) if cards else ()
    return ()


def _visible_map(
    game: Game, zones: Mapping[str, list[int]], over: bool, seat: int, modes: dict[str, str] | None = None
) -> dict[int, str]:
    """card -> zone for every card ``seat`` sees in ``zones`` (``modes``: a cache of `zone_mode` for this seat)."""
    out: dict[int, str] = {}
    for name, cards in zones.items():
        if not cards:
            continue
        if over:
            mode = "all"
        elif modes is None:
            mode = zone_mode(game, name, seat)
        else:
            mode = modes.get(name) or modes.setdefault(name, zone_mode(game, name, seat))
        if mode == "all":
            for c in cards:
                out[c] = name
        elif mode == "top":
            out[cards[-1]] = name
    return out


class _SeatMemory:
    """What one seat has seen during a deal, and where it last knew each card to be."""

    __slots__ = ("events", "seen", "pins", "modes")

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.seen: set[int] = set()
        self.pins: dict[int, str] = {}
        self.modes: dict[str, str] = {}  # zone -> how this seat sees it (`zone_mode`), filled as met


class Recorder:
    """Keeps each observing seat's history and memory along one deal, and builds its views.

    The match loop (or a `Deal`) calls `after` once per action with a copy of the
    zones taken before it; nothing here runs for seats that do not observe.
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
        self.facts = game_facts(game)
        self.seats = list(range(state.players)) if seats is None else list(seats)
        self.memory = {s: _SeatMemory() for s in self.seats}
        for s, mem in self.memory.items():
            vis = _visible_map(game, state.zones, state.over, s, mem.modes)
            mem.seen.update(vis)
            mem.pins.update(vis)
            if history:
                mem.events.append(Event("deal", None, None, "deal", (), tuple(sorted(vis)), ()))

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
        game = self.game
        zones = state.zones
        changed = [z for z in set(before) | set(zones) if before.get(z) != zones.get(z)]
        where_before: dict[int, str] = {}
        where_after: dict[int, str] = {}
        for z in changed:
            for c in before.get(z, ()):
                where_before[c] = z
            for c in zones.get(z, ()):
                where_after[c] = z
        moved = sorted(c for c, z in where_before.items() if where_after.get(c, z) != z)
        shown_to_all = _shown(game.deck, events)
        # Only zones that changed can change what a seat sees or remembers.
        before_changed = {z: before[z] for z in changed if z in before}
        after_changed = {z: zones[z] for z in changed if z in zones}
        history = self.history
        for seat, mem in self.memory.items():
            modes = mem.modes
            vis_before = _visible_map(game, before_changed, False, seat, modes)
            for c in shown_to_all:
                vis_before.setdefault(c, where_before.get(c, ""))
            vis_after = _visible_map(game, after_changed, False, seat, modes)
            pins = mem.pins
            deduced = (
                self._deduce(before, zones, moved, where_before, where_after, vis_before, vis_after, pins)
                if moved
                else set()
            )
            for c in moved:  # a card seen moving is remembered where it went
                if (c in vis_before or c in deduced) and c not in vis_after:
                    pins[c] = where_after[c]
            for c, z in vis_after.items():
                pins[c] = z
            mem.seen.update(vis_after)
            if history:
                self._event(
                    mem, mover, action, events, moved, where_before, where_after, vis_before, vis_after, deduced
                )
            if state.over:  # the deal's end shows every card
                vis_end = _visible_map(game, zones, True, seat)
                vis_now = _visible_map(game, zones, False, seat, modes)
                newly = tuple(sorted(c for c in vis_end if c not in vis_now))
                pins.update(vis_end)
                mem.seen.update(vis_end)
                if history:
                    mem.events.append(Event("reveal", None, None, "the deal is over", (), newly, ()))

    def _event(
        self,
        mem: _SeatMemory,
        mover: int,
        action: Action,
        events: Sequence[Mapping[str, Any]],
        moved: list[int],
        where_before: Mapping[int, str],
        where_after: Mapping[int, str],
        vis_before: Mapping[int, str],
        vis_after: Mapping[int, str],
        deduced: set[int],
    ) -> None:
        """The action as this seat saw it, added to its history."""
        names = self.game.deck.names
        shown = [
            Move(c if c in vis_before or c in vis_after or c in deduced else None, where_before[c], where_after[c])
            for c in moved
        ]
        said = tuple(str(e["say"]) for e in events if "say" in e)
        revealed = tuple(sorted(c for c, z in vis_after.items() if vis_before.get(c) != z))
        can_see = [c in vis_before or c in vis_after or c in deduced for c in action.cards]
        public = Action(action.kind, tuple(c for c, ok in zip(action.cards, can_see, strict=True) if ok), action.detail)
        words = [action.kind, *(names[c] if ok else HIDDEN for c, ok in zip(action.cards, can_see, strict=True))]
        if action.detail:
            words.append(action.detail)
        mem.events.append(Event("action", mover, public, " ".join(words), tuple(shown), revealed, said))

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
            self.facts,
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
) -> View:
    """A view of ``state`` for ``seat`` from copies only (the engine's one way of making views)."""
    zones: dict[str, tuple[int, ...]] = {}
    counts: dict[str, int] = {}
    visible: set[int] = set()
    for name, cards in state.zones.items():
        shown = visible_cards(game, state, name, seat)
        zones[name] = shown
        counts[name] = len(cards)
        visible.update(shown)
    known = {c: z for c, z in (pins or {}).items() if c not in visible}
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
        counters=MappingProxyType({k: v for k, v in state.counters.items() if not k.startswith("_")}),
        data=MappingProxyType(_public_data(state.data)),
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


def _public_data(data: Mapping[str, Any]) -> dict[str, Any]:
    import json

    public = {k: v for k, v in data.items() if not k.startswith("_")}
    return json.loads(json.dumps(public)) if public else {}


def game_facts(game: Game) -> Facts:
    """The game's public facts, built once per game object."""
    facts = getattr(game, "_public_facts", None)
    if facts is None:
        facts = Facts(game.facts())
        game._public_facts = facts  # type: ignore[attr-defined]  # a cache on the game object
    return facts
