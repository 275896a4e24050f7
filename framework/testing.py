"""Test helpers and pytest fixtures for plugin authors.

Load the fixtures with ``pytest_plugins = ["tapete.testing"]`` in the ``conftest.py`` at
the top of a plugin's project (it is not loaded automatically, so that tapete is
imported only by the test runs that ask for it); the helpers are plain functions.

A game family is only trustworthy when it keeps the promises every tapete game
makes: no seat learns a card it cannot see, every card is somewhere exactly once,
every deal ends, and a logged match replays. These helpers check those promises
on any variant, so a plugin's own tests say them in one line each, and build a
deal from a readable snapshot for the rule-by-rule tests.

The helpers are plain functions (usable without pytest); the fixtures wrap them.
"""

from __future__ import annotations

import json
import types
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from .core.actions import Action
from .core.rng import Random, derive_seed
from .core.state import DealState
from .game import Game
from .gamelog import LogWriter, replay
from .play.deal import Deal, observe
from .play.loading import Variant, load_variant
from .play.match import MAX_ACTIONS_PER_DEAL, Match, MatchResult
from .plugins.loader import registry
from .view import View, game_facts, make_view, observer, private

__all__ = [
    "base_variants",
    "check_conservation",
    "check_hidden_facts",
    "check_hidden_information",
    "check_replay",
    "check_termination",
    "deal_from_zones",
    "hidden_positions",
    "reachable",
    "reachable_picture",
    "seat_picture",
    "variant",
    "variant_names",
    "variant_params",
    "view_picture",
]


@cache
def variant(name: str) -> Variant:
    """A registered variant (or a path), loaded once per test session."""
    return load_variant(name)


def _variant(v: Variant | str) -> Variant:
    return variant(v) if isinstance(v, str) else v


def variant_names(game: str | None = None) -> list[str]:
    """Registered variant names (``game/name``), of one game family or all; for ``parametrize``."""
    names = sorted(registry().variants())
    return [n for n in names if game is None or n.split("/", 1)[0] == game]


def base_variants(game: str | None = None) -> list[str]:
    """One variant of each game: its base, the first by name that ``extends:`` nothing.

    A property that plays whole matches costs seconds a variant, and a family grows by files;
    the bases keep every game, a new one included, in a run that does not grow with them.
    """
    files = registry().variants()
    chosen: dict[str, tuple[bool, str]] = {}
    for name in variant_names(game):
        try:
            derived = _extends(Path(files[name]).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            derived = True  # a broken file is the property tests' to report, not this helper's
        family = name.split("/", 1)[0]
        if family not in chosen or (chosen[family][0] and not derived):
            chosen[family] = (derived, name)
    return sorted(name for _, name in chosen.values())


@cache
def _extends(text: str) -> bool:
    """Whether a variant file's text extends another (or is no mapping at all)."""
    import yaml

    from .rules.variant_file import FAST_LOADER

    try:
        data = yaml.load(text, Loader=FAST_LOADER)
    except yaml.YAMLError:
        return True
    return not isinstance(data, dict) or "extends" in data


def variant_params(game: str | None = None) -> list[Any]:
    """``variant_names`` for ``parametrize``, in two tiers: each game's base variant
    (`base_variants`) in every run, the others under the ``slow`` marker, which a project runs as
    a tier of its own (tapete's CI: ``pytest -m slow``)."""
    everyday = set(base_variants(game))
    return [n if n in everyday else pytest.param(n, marks=pytest.mark.slow) for n in variant_names(game)]


def deal_from_zones(
    v: Variant | str,
    zones: dict[str, list[str]],
    to_move: int = 0,
    dealer: int | None = None,
    counters: dict[str, int] | None = None,
    data: dict[str, Any] | None = None,
    players: int | None = None,
) -> Deal:
    """A deal in the middle of play, written as a rule's worked example reads.

    ``zones`` maps zone names to cards as text (``{"hand.0": ["7♥", "8♥"], "row.♥": []}``);
    ``players`` defaults to the number of ``hand.N`` zones and the dealer to the seat
    before ``to_move``. Cards left out of ``zones`` are simply not in the deal, which
    is what a focused rule test wants.
    """
    v = _variant(v)
    if players is None:
        players = sum(1 for z in zones if z.startswith("hand."))
    snap = {
        "players": players,
        "dealer": (to_move - 1) % players if dealer is None else dealer,
        "to_move": to_move,
        "zones": zones,
        "counters": counters or {},
        "data": data or {},
    }
    return v.deal_from_snapshot(snap)


def seated_counts(v: Variant) -> list[int]:
    """Every player count the variant seats: its range, less the counts its teams do not divide."""
    lo, hi = v.player_range()
    teams = v.rules.constant("teams", 0)
    return [n for n in range(lo, hi + 1) if not (teams and n % teams)]


def _player_counts(v: Variant) -> list[int]:
    lo, hi = v.player_range()
    return list(range(lo, hi + 1))


def _random_walk(deal: Deal, rng: Random, limit: int) -> Iterable[Deal]:
    """Play random legal moves, yielding the deal before each one, at most ``limit`` moves."""
    moves = 0
    while not deal.over and moves < limit:
        yield deal
        legal = deal.legal_actions()
        assert legal, f"seat {deal.to_move} is to move but has no legal action"
        deal.play(legal[rng.below(len(legal))])
        moves += 1


def hidden_positions(game: Game, state: DealState, seat: int) -> list[tuple[str, int]]:
    """(zone, index) of every card whose identity ``seat`` is not shown, by the script's ``see`` rules."""
    return observer(game).hidden(state, seat)


def view_picture(view: View) -> tuple[Any, ...]:
    """Everything a `View` shows, as plain values to compare (but the deck and the game's facts, which never change)."""
    return (
        view.seat,
        view.players,
        view.dealer,
        view.to_move,
        view.over,
        view.step,
        dict(view.options),
        dict(view.zones),
        dict(view.counts),
        dict(view.counters),
        dict(view.data),
        view.totals,
        view.deals_won,
        view.out,
        view.deal_number,
        list(view.history),
        view.seen,
        dict(view.known),
    )


def seat_picture(game: Game, state: DealState, seat: int) -> Any:
    """What ``seat`` is shown of ``state``: its observation (`Deal.observe`) and everything its `View` shows."""
    return observe(game, state, seat), view_picture(make_view(game, state, seat, game_facts(game, seat), {}, None))


PLANTED = "_planted"  # the private counter and data key check_hidden_information adds, naming a hidden card


def _planted(game: Game, state: DealState, card: int, swap: dict[str, str]) -> DealState:
    """A copy of ``state`` whose private counter and data `PLANTED` name ``card``, with the card
    names of ``swap`` exchanged in its private data (the game's own records of hidden cards)."""

    def swapped(value: Any) -> Any:
        if isinstance(value, str):
            return swap.get(value, value)
        if isinstance(value, list):
            return [swapped(v) for v in value]
        if isinstance(value, dict):
            return {k: swapped(v) for k, v in value.items()}
        return value

    out = state.clone()
    out.data = {k: swapped(v) if private(k) else v for k, v in out.data.items()}
    out.data[PLANTED] = [game.deck.names[card]]
    out.counters[PLANTED] = card
    return out


def check_hidden_information(
    v: Variant | str,
    seeds: Iterable[int] = range(3),
    steps: int = 60,
    every: int = 5,
    look: Callable[[Game, DealState, int], Any] | None = None,
) -> int:
    """No seat's picture of the deal changes when two cards it cannot see swap places.

    At every ``every``-th moment of random deals, for each seat, two hidden cards (other
    hands, the stock, face-down piles, a pile below its top) swap identities in a copy
    of the state; what the seat is shown (``look``, by default `seat_picture`: the
    observation and everything in the `View` a bot would get) must be the same. The
    private part of the state follows the swap, as a record of hidden cards would: the
    two cards' names are exchanged in the private (``_``) data, and both copies carry a
    private counter and data key `PLANTED` naming one of the two cards, so a picture that
    lets private counters or data through fails at once. (Public data is left as it is:
    it may name a card a seat saw before it went out of sight.) Returns the number of
    comparisons made (> 0 is asserted).
    """
    v = _variant(v)
    look = look or seat_picture
    rng = Random(v.name, "swaps")
    checked = 0
    counts = _player_counts(v)
    for k, seed in enumerate(seeds):
        deal = v.new_deal(counts[k % len(counts)], seed=seed)
        for step, now in enumerate(_random_walk(deal, rng, steps)):
            if step % every:
                continue
            for seat in range(now.state.players):
                hidden = hidden_positions(now.game, now.state, seat)
                if len(hidden) < 2:
                    continue
                (za, ia), (zb, ib) = hidden[rng.below(len(hidden))], hidden[rng.below(len(hidden))]
                a, b = now.state.zones[za][ia], now.state.zones[zb][ib]
                names = now.game.deck.names
                before = look(now.game, _planted(now.game, now.state, a, {}), seat)
                twin = _planted(now.game, now.state, b, {names[a]: names[b], names[b]: names[a]})
                twin.zones[za][ia], twin.zones[zb][ib] = b, a
                after = look(now.game, twin, seat)
                assert after == before, f"{v.name}: seat {seat} can tell {za}[{ia}] from {zb}[{ib}]"
                checked += 1
    assert checked > 0, f"{v.name}: no hidden cards to swap; are the 'see' rules right?"
    return checked


_SCALARS = (type(None), bool, int, float, complex, str, bytes, range)
_OPAQUE = (type, types.ModuleType, types.BuiltinFunctionType, types.CodeType)


def _parts(obj: Any, skip: tuple[str, ...] = ()) -> list[tuple[Any, Any]]:
    """What ``obj`` holds, as (label, value) pairs: items, attributes, slots, and what a function's
    closure, defaults and ``functools`` wrappers hold. Not code, classes, modules or a function's
    globals (they are the program, not its data)."""
    if isinstance(obj, list | tuple):
        return list(enumerate(obj))
    if isinstance(obj, Mapping):
        return [(("key", i), k) for i, k in enumerate(obj)] + [(("value", i), v) for i, v in enumerate(obj.values())]
    if isinstance(obj, set | frozenset):
        return [(None, v) for v in obj]
    if isinstance(obj, types.FunctionType):
        held = [("closure", c) for c in _cells(obj)]
        return [*held, ("defaults", obj.__defaults__), ("kwdefaults", obj.__kwdefaults__)]
    if isinstance(obj, types.MethodType):
        return [("self", obj.__self__), ("function", obj.__func__)]
    out: list[tuple[Any, Any]] = []
    wrapped = getattr(obj, "__wrapped__", None)
    if callable(getattr(obj, "cache_info", None)):  # functools.lru_cache: its cache shows only in its counts
        out.append(("cache_info", tuple(obj.cache_info())))
    attrs = getattr(obj, "__dict__", None)
    if isinstance(attrs, dict):
        out += [(k, v) for k, v in attrs.items() if k not in skip and k != "__wrapped__"]
    for cls in type(obj).__mro__:
        slots = getattr(cls, "__slots__", ())
        for slot in (slots,) if isinstance(slots, str) else slots:
            if slot not in skip and slot not in ("__dict__", "__weakref__") and hasattr(obj, slot):
                out.append((slot, getattr(obj, slot)))
    if wrapped is not None:
        out.append(("wrapped", wrapped))
    return out


def _cells(function: types.FunctionType) -> list[Any]:
    """What the closure of ``function`` holds (a cell not filled yet holds nothing)."""
    out = []
    for cell in function.__closure__ or ():
        try:
            out.append(cell.cell_contents)
        except ValueError:
            pass
    return out


def reachable(root: Any, skip: tuple[str, ...] = ()) -> Iterator[Any]:
    """Every object reachable from ``root`` (see `_parts`: items, attributes, slots, closures), once each.

    ``skip`` names attributes and slots not to follow. Only objects that exist apart from the
    walk are yielded (a ``functools`` cache's counts are read, not yielded), so their ids
    can be compared while ``root`` lives."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if isinstance(obj, _SCALARS) or id(obj) in seen:
            continue
        seen.add(id(obj))
        yield obj
        if not isinstance(obj, _OPAQUE):
            stack.extend(v for label, v in _parts(obj, skip) if label != "cache_info")


def reachable_picture(root: Any) -> Any:
    """Everything reachable from ``root`` as one plain value, equal for two roots that hold the same.

    Mappings and sets compare by content, whatever their order; objects by their type's name
    and their attributes; a function by its name and what its closure holds; a class or module
    by its name. An object met again while it is being read (a cycle) reads as its type."""
    done: dict[int, Any] = {}
    busy: set[int] = set()
    keep: list[Any] = []  # what was read stays alive, so that its id is not reused

    def walk(obj: Any) -> Any:
        if isinstance(obj, _SCALARS):
            return obj
        if isinstance(obj, _OPAQUE):
            return ("opaque", getattr(obj, "__module__", None), getattr(obj, "__qualname__", repr(obj)))
        key = id(obj)
        if key in done:
            return done[key]
        if key in busy:
            return ("cycle", type(obj).__qualname__)
        busy.add(key)
        keep.append(obj)
        kind = type(obj).__qualname__
        if isinstance(obj, Mapping):
            found: Any = tuple(sorted(((walk(k), walk(v)) for k, v in obj.items()), key=repr))
        elif isinstance(obj, set | frozenset):
            found = tuple(sorted((walk(v) for v in obj), key=repr))
        elif isinstance(obj, list | tuple):
            found = tuple(walk(v) for v in obj)
        else:
            name = getattr(obj, "__qualname__", "")
            found = (name, tuple((label, walk(v)) for label, v in _parts(obj)))
        busy.discard(key)
        done[key] = out = (kind, found)
        return out

    return walk(root)


def check_hidden_facts(
    v: Variant | str, seeds: Iterable[int] = range(2), steps: int = 60, every: int = 10, seat: int = 0
) -> int:
    """A seat's ``view.facts`` is the same in two deals that differ only in cards it never saw.

    The facts are public and fixed, but they may remember what they are asked (a meld
    solver caches the hands it judged): nothing reachable from them may depend on a card
    the seat never saw. Per seed, a deal is played by the game's default bots for as long
    as a card of another seat's hand and a different card elsewhere are still unseen by
    ``seat`` and named by no move; in a twin of the deal as dealt, the cards still unseen
    then are dealt to one another's places. Both deals run side by side, each on a variant
    object of its own (a variant's one game, and so its facts, serves all its deals), the
    bots of every seat choosing from their own deal's views (and so asking the facts what
    they would), the first deal's moves played in both; every ``every`` moves ``seat``'s
    facts are compared, everything reachable from them included (`reachable_picture`).
    Returns the number of comparisons (> 0 is asserted)."""
    v = _variant(v)
    players = _player_counts(v)[0]
    factory = v.record.default_factory()
    checked = 0
    for seed in seeds:
        first = v.new_deal(players, seed=seed)
        dealt = first.snapshot()
        places = _Places(first.state, v.rules.deck.names, seat)
        bots = [factory(first.game, s, Random(derive_seed(seed, "bot", s))) for s in range(players)]
        moves: list[Action] = []
        unseen = set(v.rules.deck.ids) - first.view(seat).seen
        while not first.over and len(moves) < steps:
            mover = first.to_move
            move = bots[mover].choose(first.view(mover), first.legal_actions())
            first.play(move)
            if first.over:  # the end of a deal shows every card
                break
            left = unseen - set(move.cards) - first.view(seat).seen
            if not places.pair(left):  # the twins are compared while such a pair is still unseen
                break
            moves.append(move)
            unseen = left
        if not places.pair(unseen):
            continue
        deals = [
            replace(v, game_record=v.record).deal_from_snapshot(snap)
            for snap in (dealt, places.twin(dealt, unseen, seed))
        ]
        seated = [[factory(d.game, s, Random(derive_seed(seed, "bot", s))) for s in range(players)] for d in deals]
        for step, move in enumerate(moves):
            if deals[1].over:
                break
            if step % every == 0:  # compared where both deals stand, before either moves on
                a, b = (reachable_picture(d.view(seat).facts) for d in deals)
                assert a == b, f"{v.name}: seat {seat}'s facts tell the twins apart after {step} moves (seed {seed})"
                checked += 1
            if move not in deals[1].legal_actions():
                break  # the twin's rules part from the first deal's here (a pass no longer legal, a card passed)
            for d, its_bots in zip(deals, seated, strict=True):
                mover = d.to_move
                its_bots[mover].choose(d.view(mover), d.legal_actions())  # asks the facts what it would
                d.play(move)
    assert checked > 0, f"{v.name}: no two cards seat {seat} never saw"
    return checked


class _Places:
    """Where each card of a deal was dealt, for `check_hidden_facts`."""

    def __init__(self, state: DealState, names: Sequence[str], seat: int):
        self.cards = {zone: list(held) for zone, held in state.zones.items()}
        self.where = [(z, i) for z, held in self.cards.items() for i in range(len(held))]
        self.names, self.own = names, f"hand.{seat}"

    def pair(self, unseen: set[int]) -> bool:
        """Whether a card of another seat's hand and a card of another name elsewhere are ``unseen``:
        the other seat's bot, and the game judging its hand, then ask about different hands."""
        cards, names = self.cards, self.names
        hidden = [(z, i) for z, i in self.where if cards[z][i] in unseen]
        return any(
            za.startswith("hand.") and za != self.own and zb != za and names[cards[za][ia]] != names[cards[zb][ib]]
            for za, ia in hidden
            for zb, ib in hidden
        )

    def twin(self, dealt: dict[str, Any], unseen: set[int], seed: int) -> dict[str, Any]:
        """The snapshot ``dealt`` with every ``unseen`` card dealt to another of their places (a hand
        differing in one card may not change what is asked, when no meld could hold it)."""
        spots = [(z, i) for z, i in self.where if self.cards[z][i] in unseen]
        order = list(range(len(spots)))
        Random("twin", seed).shuffle(order)
        twin: dict[str, Any] = json.loads(json.dumps(dealt))
        for (z, i), k in zip(spots, order, strict=True):
            twin["zones"][z][i] = dealt["zones"][spots[k][0]][spots[k][1]]
        return twin


def check_conservation(v: Variant | str, seeds: Iterable[int] = range(5)) -> int:
    """Every card of the deck is in exactly one zone after every move of random deals.

    Player counts cycle through the variant's allowed range. Returns the moves checked.
    """
    v = _variant(v)
    full = Counter(v.rules.deck.ids)
    counts = _player_counts(v)
    moves = 0
    for k, seed in enumerate(seeds):
        deal = v.new_deal(counts[k % len(counts)], seed=seed)
        for now in _random_walk(deal, Random(seed, "moves"), MAX_ACTIONS_PER_DEAL):
            found = Counter(c for z in now.state.zones.values() for c in z)
            assert found == full, f"{v.name} seed {seed}: cards missing or doubled: {(full - found) + (found - full)}"
            moves += 1
        assert deal.over, f"{v.name} seed {seed}: the deal did not end within {MAX_ACTIONS_PER_DEAL} moves"
        assert Counter(c for z in deal.state.zones.values() for c in z) == full
    return moves


def check_termination(
    v: Variant | str, seeds: Iterable[int] = range(2), bots: list[str] | None = None
) -> list[MatchResult]:
    """Whole matches end (random bots by default), at every allowed player count, with a winner or a draw."""
    v = _variant(v)
    results = []
    counts = _player_counts(v)
    for k, seed in enumerate(seeds):
        players = counts[k % len(counts)]
        result = Match(v, players, seed, bots=bots or ["random"]).play()
        assert -1 <= result.winner < players and result.deals >= 1
        results.append(result)
    return results


def check_replay(v: Variant | str, directory: Path, seed: int = 1, bots: list[str] | None = None) -> int:
    """A logged match replays event for event (the variant must be registered). Returns the events."""
    v = _variant(v)
    path = Path(directory) / f"{v.name.replace('/', '-')}-{seed}.jsonl"
    writer = LogWriter(path)
    try:
        Match(v, None, seed, bots=bots or [str(getattr(v.game_class, "default_bot", "random"))]).play(writer)
    finally:
        writer.close()
    report = replay(path)
    assert report.events == len(path.read_text(encoding="utf-8").splitlines())
    return report.events


# -- pytest fixtures ------------------------------------------------------------------
@pytest.fixture
def tapete_variant() -> Callable[[str], Variant]:
    """``tapete_variant("crazy-eights/basic")``: a variant loaded once per session."""
    return variant


@pytest.fixture
def tapete_deal() -> Callable[..., Deal]:
    """``tapete_deal("fantan/pagat", {"hand.0": ["7♥"], ...}, to_move=0)``: see `deal_from_zones`."""
    return deal_from_zones
