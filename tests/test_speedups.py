"""tapete.core._speedups: each loop in C gives exactly what its Python twin gives.

The C module is optional (an install without a compiler skips it), so a deal must be the
same card for card whichever of the two shuffled it: a seed typed on one machine deals the
same hands on every other. CI builds the module, and these tests fail there without it."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
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
