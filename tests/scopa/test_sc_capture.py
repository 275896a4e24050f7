"""SC-3: one card a turn; an equal card, or else a set adding up to it; capture is compulsory."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tapete import IllegalAction

from .helpers import legal, names, position, says, variants

classic = variants["classic"]

# SC-1.3, written out again here so that the oracle below does not read the plugin's tables.
VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}
CARDS = [r + s for s in "♣♦♥♠" for r in VALUE]


def test_sc6_worked_example_equal_value_comes_first():
    """SC-6: table 2♦ 3♣ 5♥ 7♠; 5♠ must take 5♥ even though 2♦ + 3♣ also make 5 (SC-3.2)."""
    deal = position(classic, hand0=["5♠", "K♣"], hand1=["4♣"], table=["2♦", "3♣", "5♥", "7♠"])
    assert [a for a in legal(deal) if a.startswith("capture 5♠")] == ["capture 5♠ 5♥"]
    with pytest.raises(IllegalAction, match=r"equal value .* must be taken instead \(SC-3.2\)"):
        deal.play("capture 5♠ 2♦ 3♣")


def test_sc6_worked_example_the_king_chooses_between_two_sums():
    """SC-6: K♣ (10): no king on the table; {3♣ 7♠} and {2♦ 3♣ 5♥} make 10; the player chooses."""
    deal = position(classic, hand0=["5♠", "K♣"], hand1=["4♣"], table=["2♦", "3♣", "5♥", "7♠"])
    assert [a for a in legal(deal) if a.startswith("capture K♣")] == ["capture K♣ 2♦ 3♣ 5♥", "capture K♣ 3♣ 7♠"]
    events = deal.play("capture K♣ 2♦ 3♣ 5♥")
    assert says(events) == ["plays K♣, takes 2♦ 3♣ 5♥"]
    assert names(deal, "table") == ["7♠"]  # 7♠ is left: no scopa
    assert names(deal, "captures.0") == ["K♣", "2♦", "3♣", "5♥"]  # SC-3.5
    assert deal.state.counters.get("sweeps.0", 0) == 0


def test_sc3_2_one_equal_card_of_several_is_the_players_choice():
    deal = position(classic, hand0=["7♣"], hand1=["4♣"], table=["7♦", "7♥", "3♠", "4♠"])
    assert legal(deal) == ["capture 7♣ 7♥", "capture 7♣ 7♦"]  # not 3♠ + 4♠, not both sevens
    deal.play("capture 7♣ 7♥")  # the player's choice
    assert names(deal, "table") == ["7♦", "3♠", "4♠"]


def test_sc1_3_picture_cards_count_8_9_10():
    deal = position(classic, hand0=["J♣", "Q♣", "K♣"], hand1=["4♣"], table=["3♦", "5♥", "4♠", "6♠"])
    assert legal(deal) == [
        "capture J♣ 3♦ 5♥",  # fante 8
        "capture K♣ 4♠ 6♠",  # re 10
        "capture Q♣ 3♦ 6♠",  # cavallo 9
        "capture Q♣ 5♥ 4♠",
    ]


def test_sc3_4_capture_is_compulsory_and_a_card_that_takes_nothing_stays():
    deal = position(classic, hand0=["6♣", "2♣"], hand1=["4♣"], table=["A♦", "5♥"])
    with pytest.raises(IllegalAction, match=r"6♣ must capture \(SC-3.4\): 'capture 6♣ A♦ 5♥'"):
        deal.play("play 6♣")
    assert legal(deal) == ["capture 6♣ A♦ 5♥", "play 2♣"]
    deal.play("play 2♣")
    assert names(deal, "table") == ["A♦", "5♥", "2♣"]  # SC-3.4 it stays on the table
    assert deal.to_move == 1


def test_a_set_may_be_named_in_any_order_but_must_add_up():
    deal = position(classic, hand0=["K♣"], hand1=["4♣"], table=["2♦", "3♣", "5♥", "7♠", "4♦"])
    with pytest.raises(IllegalAction, match=r"cannot take 2♦ 5♥ \(SC-3.3\); it may take"):
        deal.play("capture K♣ 2♦ 5♥")
    deal.play("capture K♣ 7♠ 3♣")  # the same set as 3♣ 7♠
    assert names(deal, "table") == ["2♦", "5♥", "4♦"]


def test_the_played_card_goes_to_the_table_only_when_it_takes_nothing():
    deal = position(classic, hand0=["K♣"], hand1=["4♣"], table=[])
    assert legal(deal) == ["play K♣"]
    with pytest.raises(IllegalAction, match="takes nothing"):
        deal.play("capture K♣ 4♣")


# -- an independent oracle for the sums (SC-3.2, SC-3.3) -------------------------------
def oracle(card: str, table: list[str]) -> set[frozenset[str]]:
    """Every capture SC-3 allows ``card`` on ``table``, by trying every subset of the table."""
    value = VALUE[card[:-1]]
    equal = {frozenset([t]) for t in table if VALUE[t[:-1]] == value}
    if equal:
        return equal  # SC-3.2 precedence
    return {
        frozenset(subset)
        for size in range(2, len(table) + 1)
        for subset in combinations(table, size)
        if sum(VALUE[t[:-1]] for t in subset) == value
    }


def plugin_options(variant, card: str, table: list[str]) -> set[frozenset[str]]:
    spare = next(c for c in CARDS if c != card and c not in table)  # the opponent's card
    deal = position(variant, hand0=[card], hand1=[spare], table=table)
    deck = deal.game.deck
    out: set[frozenset[str]] = set()
    for action in deal.legal_actions():
        assert action.kind in ("capture", "play")
        if action.kind == "capture":
            taken = [deck.names[c] for c in action.cards[1:]]
            assert len(set(taken)) == len(taken)
            out.add(frozenset(taken))
    return out


positions = st.lists(st.sampled_from(CARDS), min_size=2, max_size=13, unique=True).map(lambda cs: (cs[0], cs[1:]))


@settings(max_examples=300, deadline=None)
@given(positions)
def test_capture_options_match_a_brute_force_oracle(pos):
    card, table = pos
    assert plugin_options(classic, card, table) == oracle(card, table)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([c for c in CARDS if VALUE[c[:-1]] <= 4]), min_size=3, max_size=12, unique=True))
def test_oracle_on_dense_tables_of_small_cards(cards):
    """Many small cards give many sums: a K or a 7 on a table of aces to fours."""
    for card in ("K♦", "7♦"):
        assert plugin_options(classic, card, cards) == oracle(card, cards)


def test_the_oracle_agrees_with_the_worked_example():
    assert oracle("K♣", ["2♦", "3♣", "5♥", "7♠"]) == {frozenset({"3♣", "7♠"}), frozenset({"2♦", "3♣", "5♥"})}
    assert oracle("5♠", ["2♦", "3♣", "5♥", "7♠"]) == {frozenset({"5♥"})}
