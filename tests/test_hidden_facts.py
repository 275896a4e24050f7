"""What a view's facts reach never depends on a card the seat has not seen, in every registered variant.

The facts (`view.facts`) are the game's public tables and tools, but a tool may remember what
it is asked: Chinchón's meld solver caches every hand it judges. Its sealed copy once shared
the game's own caches (a deep copy keeps a closure's cells), which the game fills judging
every seat's hidden hand, and all seats' views shared one copy, which each seat's bot fills
with its own hand: in ``chinchon/two-decks`` the caches reachable from one seat's facts
changed with the other seats' hidden cards. `tapete.testing.check_hidden_facts` plays two
deals that differ only in two cards the seat never saw, every seat's default bot asking
the facts what it would, and compares everything reachable from the seat's facts, caches
included.
"""

from __future__ import annotations

import pytest

from tapete.testing import check_hidden_facts, reachable_picture, variant_params


@pytest.mark.parametrize("name", variant_params())
def test_two_deals_that_differ_in_cards_a_seat_never_saw_give_it_the_same_facts(name):
    assert check_hidden_facts(name) > 0


def test_the_picture_sees_into_closures_and_ignores_the_order_of_a_mapping():
    def counter(memo):
        def ask(x):
            return memo.setdefault(x, len(memo))

        return ask

    memo: dict[int, int] = {}
    ask = counter(memo)
    before = reachable_picture({"ask": ask})
    ask(7)  # the closure's cache now holds 7: reachable, so the picture changes
    assert reachable_picture({"ask": ask}) != before
    assert reachable_picture({1: "a", 2: "b"}) == reachable_picture({2: "b", 1: "a"})
