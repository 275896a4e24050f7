"""tapete.core._speedups: each loop in C gives exactly what its Python twin gives.

The C module is optional (an install without a compiler skips it), so a deal must be the
same card for card whichever of the two shuffled it: a seed typed on one machine deals the
same hands on every other. CI builds the module, and these tests fail there without it."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapete.core import rng as rng_module
from tapete.core.rng import Random

if os.environ.get("CI"):
    import tapete.core._speedups as speedups  # CI installs with a compiler: the module must be there
else:
    speedups = pytest.importorskip("tapete.core._speedups")


@settings(max_examples=300, deadline=None)
@given(
    seed=st.one_of(st.integers(min_value=-(2**70), max_value=2**70), st.text(max_size=12)),
    stream=st.one_of(st.integers(min_value=0, max_value=99), st.text(max_size=6)),
    size=st.integers(min_value=0, max_value=120),
    draws=st.integers(min_value=0, max_value=3),
)
def test_the_c_shuffle_deals_what_the_python_shuffle_deals(seed: object, stream: object, size: int, draws: int) -> None:
    in_c, in_python = Random(seed, stream), Random(seed, stream)
    for _ in range(draws):  # from a generator part-way along its stream, as a match's later deals are
        in_c.below(52), in_python.below(52)
    cards_c, cards_python = list(range(size)), list(range(size))
    in_c.shuffle(cards_c)
    in_python.shuffle_python(cards_python)
    assert cards_c == cards_python
    assert in_c.getstate() == in_python.getstate()  # the next deal is the same too
    assert in_c.below(1000) == in_python.below(1000)


def test_the_shuffle_uses_the_c_loop_for_a_list() -> None:
    assert rng_module._pcg_shuffle is speedups.pcg_shuffle


def test_a_sequence_that_is_not_a_list_is_shuffled_the_same_in_python() -> None:
    class Cards(list):  # a subclass may override item assignment: the Python loop honours it
        pass

    a, b = Random(7, "deal"), Random(7, "deal")
    sub, plain = Cards(range(52)), list(range(52))
    a.shuffle(sub)
    b.shuffle(plain)
    assert list(sub) == plain and a.getstate() == b.getstate()


@pytest.mark.parametrize("bad", [None, -1, 2**64, 1.5])
def test_the_c_loop_refuses_a_state_out_of_range_and_leaves_the_cards(bad: object) -> None:
    cards = list(range(10))
    with pytest.raises((TypeError, OverflowError)):
        speedups.pcg_shuffle(cards, bad, 1)
    assert cards == list(range(10))


SEEDS = st.one_of(st.integers(min_value=-(2**70), max_value=2**70), st.text(max_size=300))


@settings(max_examples=300, deadline=None)
@given(seed=SEEDS, stream=st.one_of(st.integers(min_value=0, max_value=99), st.text(max_size=6)), n=st.integers(1, 60))
def test_the_first_dealer_drawn_in_c_is_the_one_a_fresh_generator_draws(seed: object, stream: object, n: int) -> None:
    """`Random.lot` (a new deal's lot for the first dealer) in one C call: ``Random(seed, stream).below(n)``."""
    assert rng_module._pcg_lot is speedups.pcg_lot
    assert Random.lot(seed, stream, n) == Random(seed, stream).below(n)


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(st.one_of(SEEDS, st.sampled_from(["deal", "first-dealer"])), min_size=1, max_size=4))
def test_a_derived_generator_made_in_c_is_the_python_ones(parts: list[object]) -> None:
    """`Random.derived` (every deal's generator): the parts hashed, that number hashed as a seed, in C."""
    assert rng_module._pcg_derived is speedups.pcg_derived
    made = Random.derived(*parts)
    reference = Random(rng_module.derive_seed(*parts))  # the definition: Random(derive_seed(*parts))
    assert made.getstate() == reference.getstate()
    assert [made.below(52) for _ in range(5)] == [reference.below(52) for _ in range(5)]


def test_the_lot_and_the_derived_generator_are_the_same_without_the_c_module(monkeypatch: pytest.MonkeyPatch) -> None:
    in_c = [Random.lot(s, "first-dealer", 4) for s in range(40)], Random.derived("x", "deal", 3).getstate()
    monkeypatch.setattr(rng_module, "_pcg_lot", None)
    monkeypatch.setattr(rng_module, "_pcg_derived", None)
    assert ([Random.lot(s, "first-dealer", 4) for s in range(40)], Random.derived("x", "deal", 3).getstate()) == in_c


def test_the_lot_refuses_a_bound_below_one_as_below_does() -> None:
    for bad in (0, -3):
        with pytest.raises(ValueError, match="positive bound"):
            Random.lot(1, "first-dealer", bad)
        with pytest.raises(ValueError, match="positive bound"):
            Random(1, "first-dealer").below(bad)
        with pytest.raises(ValueError, match="positive bound"):
            speedups.pcg_lot("1", rng_module._increment("first-dealer"), bad)


@settings(max_examples=300, deadline=None)
@given(
    players=st.integers(min_value=1, max_value=9),
    extra=st.integers(min_value=0, max_value=12),
    per_hand=st.one_of(st.none(), st.integers(min_value=0, max_value=8)),
    first=st.integers(min_value=0, max_value=8),
    step=st.sampled_from([1, -1]),
)
def test_the_hands_dealt_in_c_are_the_hands_the_python_deals(
    players: int, extra: int, per_hand: int | None, first: int, step: int
) -> None:
    """`Game.deal_round_robin`: the same hands, in the same zones, dealt from the top, from seat ``first``
    round in either direction (a hand size or everything), and the same cards left to draw."""
    from tapete import DealState, load_variant
    from tapete import game as game_module

    game = load_variant("fantan/pagat").new_game()
    game.step = step
    size = players * (per_hand or 0) + extra
    dealt: list[tuple[dict[str, list[int]], list[int]]] = []
    for quick in (speedups.deal_hands, None):
        state, cards = DealState(players, 0), list(range(100, 100 + size))
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(game_module, "_deal_hands", quick)
            try:
                game.deal_round_robin(state, cards, per_hand, first % players)
            except IndexError:
                assert per_hand is not None and per_hand * players > size  # refused alike: more than there are
                cards = []
        dealt.append((state.zones, cards))
    assert dealt[0] == dealt[1]
    assert list(dealt[0][0]) == list(dealt[1][0])  # the zones in the same order


def test_the_hands_are_dealt_in_c_where_the_speedups_are_built() -> None:
    from tapete import game as game_module

    assert game_module._deal_hands is speedups.deal_hands


@pytest.fixture(params=[True, False], ids=["sha extensions", "portable loop"])
def sha_way(request: pytest.FixtureRequest):
    """SHA-256 in C both ways: with the processor's SHA extensions (where it has them) and the portable loop."""
    was = speedups.sha_extensions(None)
    speedups.sha_extensions(request.param)
    yield request.param
    speedups.sha_extensions(was)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=300))
def test_a_seed_hashed_in_c_is_hashlibs_sha256_either_way(sha_way: bool, text: str) -> None:
    """The seed of a text is the first 8 bytes of its SHA-256: one block, two, or more (texts up to 300 characters,
    most of them more than one byte each), the same whichever way the C hashes it."""
    assert speedups.seed_of(text) == rng_module._seed_of_python(text)


def test_the_sha_extensions_are_used_where_the_processor_has_them() -> None:
    import platform

    used = speedups.sha_extensions(None)
    if platform.machine() not in ("x86_64", "AMD64"):
        assert not used  # the portable loop on other processors
    assert speedups.sha_extensions(False) is False
    assert speedups.sha_extensions(True) is used  # asked for, they are used exactly where they were
