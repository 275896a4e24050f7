"""Beginning a deal costs little, and deals exactly what it always dealt.

`Variant.new_deal` is paid for every deal a caller steps through (a race against OpenSpiel's
Hearts begins thousands a second through it), so what does not depend on the deal is done
once: the seating the rules allow is read once per variant, a generator's increment once per
stream, the trick family's zone names once per game; the generators are seeded with PCG32's
two seeding steps written out (`Random.__init__`, `Random.derived`), and the three texts a
deal hashes are hashed in C where it is built (`tapete.core._speedups.seed_of`). None of that
may change a card: these tests hold each new path to the old one, written out here as it was,
and pin the deals of a few variants of every family, recorded before the change.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapete
from tapete import testing
from tapete.core import rng as rng_module
from tapete.core.errors import TapeteError
from tapete.core.ledger import Ledger
from tapete.core.rng import Random, derive_seed
from tapete.core.state import DealState
from tapete.play.match import Match

MASK = (1 << 64) - 1


def seeded_as_before(seed: object, stream: object) -> Random:
    """`Random(seed, stream)` as it was seeded before: from state 0, a step, the seed added, a step."""
    r = Random.__new__(Random)
    r.inc = ((derive_seed("stream", stream) << 1) | 1) & MASK
    r.state = 0
    r._next()
    r.state = (r.state + derive_seed("seed", seed)) & MASK
    r._next()
    return r


def sha256_seed(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


SEEDS = st.one_of(
    st.integers(min_value=-(2**80), max_value=2**80),
    st.text(max_size=20),
    st.booleans(),
    st.floats(allow_nan=False),
    st.none(),
    st.tuples(st.integers(), st.text(max_size=3)),
)


@settings(max_examples=300, deadline=None)
@given(seed=SEEDS, stream=SEEDS)
def test_a_generator_is_seeded_as_before(seed: object, stream: object) -> None:
    new, old = Random(seed, stream), seeded_as_before(seed, stream)
    assert new.getstate() == old.getstate()
    assert [new.below(1000) for _ in range(3)] == [old.below(1000) for _ in range(3)]


def test_streams_that_print_otherwise_are_other_streams() -> None:
    """The increments are remembered by stream, and ``True`` prints otherwise than ``1``: another stream."""
    for a, b in [(1, True), (0, False), (1, "1"), (1, 1.0)]:
        for stream in (a, b, a):
            assert Random(5, stream).getstate() == seeded_as_before(5, stream).getstate()
    assert Random(5, 1).inc == Random(5, "1").inc  # they print alike: one stream, as before
    assert Random(5, 1).inc != Random(5, True).inc


def test_the_remembered_increments_stay_few() -> None:
    for k in range(3000):  # a caller numbering its streams
        assert Random(0, f"s{k}").inc == seeded_as_before(0, f"s{k}").inc
    assert len(rng_module._INCS) <= 1024


@settings(max_examples=200, deadline=None)
@given(parts=st.lists(SEEDS, min_size=1, max_size=4))
def test_a_derived_generator_is_the_generator_of_the_derived_seed(parts: list[object]) -> None:
    assert Random.derived(*parts).getstate() == Random(derive_seed(*parts)).getstate()


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=200))
def test_the_seed_of_a_text_is_its_sha256(text: str) -> None:
    expected = sha256_seed(text)
    assert rng_module._seed_of(text) == expected
    assert rng_module._seed_of_python(text) == expected


@pytest.mark.parametrize("size", [0, 1, 54, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000])
def test_the_seed_of_a_text_of_every_length_around_a_block(size: int) -> None:
    """SHA-256 pads to 64-byte blocks: a text whose padding spills into a second block included."""
    for text in ("a" * size, ("é" * size)[:size], ("🂡" * size)[:size]):
        assert rng_module._seed_of(text) == sha256_seed(text)


def test_the_c_hash_is_used_and_refuses_what_str_encode_refuses() -> None:
    if os.environ.get("CI"):
        import tapete.core._speedups as speedups
    else:
        speedups = pytest.importorskip("tapete.core._speedups")
    assert rng_module._seed_of is speedups.seed_of
    with pytest.raises(UnicodeEncodeError):
        speedups.seed_of("\ud800")  # a lone surrogate: no UTF-8, as "\ud800".encode() says
    with pytest.raises(TypeError):
        speedups.seed_of(b"bytes")  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [1, 2, 4, 16])
def test_a_fresh_ledger_is_the_constructors(players: int) -> None:
    made = Ledger(players)
    made.deal_number = 3
    fresh = Ledger.fresh(players, 3)
    assert fresh == made
    assert list(vars(fresh).items()) == list(vars(made).items())  # the same fields, in the same order
    assert fresh.active is not fresh.seats  # two lists, as the constructor makes them


def deal_round_robin_as_before(
    zones: dict[str, list[int]], players: int, step: int, cards: list[int], per_hand: int | None, first: int
) -> None:
    """`Game.deal_round_robin` as it was written before."""
    n = players
    total = len(cards) if per_hand is None else per_hand * n
    if total > len(cards):
        raise IndexError(f"{total} cards to deal from {len(cards)}")
    dealt = cards[::-1][:total] if total > 0 else []
    if dealt:
        del cards[-total:]
    hands: list[list[int]] = [[] for _ in range(n)]
    for j in range(n):
        hands[(first + j * step) % n] = dealt[j::n]
    for s in range(n):
        zones[f"hand.{s}"] = hands[s]


@settings(max_examples=400, deadline=None)
@given(
    size=st.integers(min_value=0, max_value=60),
    players=st.integers(min_value=1, max_value=8),
    per_hand=st.one_of(st.none(), st.integers(min_value=-2, max_value=16)),
    first=st.integers(min_value=0, max_value=7),
    step=st.sampled_from([1, -1]),
    shuffle_seed=st.integers(min_value=0, max_value=1000),
)
def test_hands_are_dealt_as_before(
    size: int, players: int, per_hand: int | None, first: int, step: int, shuffle_seed: int
) -> None:
    """Each example deals with a game of its own; the variant is loaded once, from the suite's cache (loading
    it again for each of the 400 examples took two thirds of the test's time, and is no part of what it checks)."""
    game = testing.variant("hearts/classic").new_game()
    first %= players
    cards = list(range(size))
    Random(shuffle_seed).shuffle(cards)
    mine, theirs = cards[:], cards[:]
    state = DealState(players, 0)
    expected: dict[str, list[int]] = {}
    saved = game.step
    game.step = step
    try:
        try:
            deal_round_robin_as_before(expected, players, step, theirs, per_hand, first)
        except IndexError as exc:
            with pytest.raises(IndexError, match=str(exc)):
                game.deal_round_robin(state, mine, per_hand, first)
            return
        game.deal_round_robin(state, mine, per_hand, first)
    finally:
        game.step = saved
    assert list(state.zones.items()) == list(expected.items())  # the same hands, named in the same order
    assert mine == theirs  # the same stock left
    assert len({id(hand) for hand in state.zones.values()}) == players  # a list of its own each


# The deals of a few variants of every family, for seeds 0, 1, -3, 2**70, "1-5", "01", "ünï" at the
# default player count: recorded before `new_deal` was made cheaper (the SHA-256 of their snapshots).
PINNED = {
    "hearts/classic": "c43900db292cfab04810c89e",
    "hearts/three-player": "2c2b63d81804937067cf80d2",
    "spades/blind-nil": "dc245966b50f6db0973c2962",
    "briscola/classic": "9e16b9a6eb8ec9c68da7c311",
    "oh-hell/classic": "c86c197d3f98337fc832e4cd",
    "chinchon/misdeal": "f0ae70fb483f5e1c317885d1",
    "scopa/scopone": "4f5931c8e0c6dfa6163373fd",
    "gin/standard": "e766fe7ef7d438843a9c8ee4",
    "fantan/pagat": "ed6a531e978676d18e51d10c",
    "chinese-ten/four-player": "77d094167884b576a6506929",
}
PINNED_SEEDS: list[Any] = [0, 1, -3, 2**70, "1-5", "01", "ünï"]


@pytest.mark.parametrize("name", sorted(PINNED))
def test_new_deal_deals_what_it_dealt(name: str) -> None:
    variant = tapete.load_variant(name)
    digest = hashlib.sha256()
    for seed in PINNED_SEEDS:
        snapshot = variant.new_deal(seed=seed, record=False).snapshot()
        digest.update(json.dumps(snapshot, ensure_ascii=False).encode())  # key order included
    assert digest.hexdigest()[:24] == PINNED[name]


@pytest.mark.parametrize("name", ["hearts/classic", "oh-hell/classic", "briscola/classic"])
@pytest.mark.parametrize("seed", [3, "tuesday"])
def test_a_new_deal_is_the_first_deal_of_a_match_of_the_same_seed(name: str, seed: object) -> None:
    """The match seeds its deals with ``Random(derive_seed(seed, "deal", n))``, `new_deal` with `Random.derived`."""
    variant = tapete.load_variant(name)
    deals: list[dict[str, Any]] = []

    def keep(event: dict[str, Any]) -> None:
        if event["type"] == "deal" and not deals:
            deals.append(json.loads(json.dumps(event["state"])))  # as it was then (its data is the deal's own)

    Match(variant, seed=seed, bots=["random"]).play(emit=keep)
    assert variant.new_deal(seed=seed).snapshot() == deals[0]


@pytest.mark.parametrize(
    ("players", "refused"),
    [
        (True, "is for 4-4 players, not True"),
        (4.0, "is for 4-4 players, not 4.0"),
        ("4", "is for 4-4 players, not '4'"),
        (5, "is for 4-4 players, not 5"),
        (None, None),
        (np.int64(4), None),
    ],
)
def test_a_player_count_is_still_read_as_before(players: object, refused: str | None) -> None:
    variant = tapete.load_variant("hearts/classic")
    for _ in range(2):  # before and after the seating is remembered
        if refused is None:
            assert variant.new_deal(players, seed=1).state.players == 4  # type: ignore[arg-type]
        else:
            with pytest.raises(TapeteError, match=refused):
                variant.new_deal(players, seed=1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("given", "refused"),
    [
        ({"seed": 1.5}, "seed must be a whole number or a word"),
        ({"seed": [1]}, "seed must be a whole number or a word"),
        ({"record": 1}, "record must be True or False"),
        ({"record": None}, "record must be True or False"),
        ({"dealer": 4}, "dealer"),
    ],
)
def test_bad_input_is_still_refused(given: dict[str, Any], refused: str) -> None:
    with pytest.raises(TapeteError, match=refused):
        tapete.load_variant("hearts/classic").new_deal(4, **given)


def took_all_as_before(c: Any, values: Any) -> bool:
    zones = c.state.zones
    mine = {card for s in c.game.team_seats(c.state.players, c.seat) for card in zones[f"taken.{s}"]}
    out = set(zones.get("removed", ()))
    counted = [card for card, v in enumerate(values) if v > 0 and card not in out]
    return bool(counted) and all(card in mine for card in counted)


@pytest.mark.parametrize("name", ["hearts/classic", "hearts/omnibus", "hearts/three-player", "hearts/moon-subtracts"])
def test_who_took_every_counted_card_is_judged_as_before(name: str) -> None:
    """`took_all` works a table's counted cards out once per game (Hearts' score asks five times a seat)."""
    from tapete.rules.vocabulary import Ctx
    from tapete_plugins.tricks.words import _took_all

    variant = tapete.load_variant(name)
    pick = Random(name, "moves")
    moons = 0
    for k in range(40):
        deal = variant.new_deal(seed=k, record=False)
        while not deal.over:
            legal = deal.legal_actions()
            deal.play(legal[pick.below(len(legal))])
        state = deal.state
        if k % 3 == 0:  # a moon: every card to seat 0 (the test's own state, not a deal's)
            state.zones["taken.0"] = [c for s in range(state.players) for c in state.zones[f"taken.{s}"]]
            for s in range(1, state.players):
                state.zones[f"taken.{s}"] = []
        for table in variant.rules.tables.values():
            for values in (tuple(table), list(table), tuple(-v for v in table)):
                for seat in range(state.players):
                    ctx = Ctx(deal.game, state, seat)
                    expected = took_all_as_before(ctx, values)
                    assert _took_all(ctx, values) == expected
                    assert _took_all(ctx, values) == expected  # asked again: the remembered cards
                    moons += expected
    assert moons  # the moons were judged too
