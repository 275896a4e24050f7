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

from collections import Counter
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from .core.rng import Random
from .core.state import DealState
from .game import Game
from .gamelog import LogWriter, replay
from .play.deal import Deal, observe
from .play.loading import Variant, load_variant
from .play.match import MAX_ACTIONS_PER_DEAL, Match, MatchResult
from .plugins.loader import registry
from .view import View, game_facts, make_view, observer, private

__all__ = [
    "check_conservation",
    "check_hidden_information",
    "check_replay",
    "check_termination",
    "deal_from_zones",
    "hidden_positions",
    "seat_picture",
    "view_picture",
    "variant",
    "variant_names",
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
    return observe(game, state, seat), view_picture(make_view(game, state, seat, game_facts(game), {}, None))


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
