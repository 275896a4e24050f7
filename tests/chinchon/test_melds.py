"""Tests of the Chinchón meld solver and lay-off solver (rule ids: shared rules file, CH-…)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapete_plugins.chinchon.layoff import TableMeld, best_showing
from tapete_plugins.chinchon.melds import (
    GROUP,
    RUN,
    TWO_DECK_RULES,
    CardInfo,
    Meld,
    MeldRules,
    MeldSolver,
    spanish_deck,
)

# Suits as in the seed's worked example: ♥ ♣ ♦ ♠ -> 0 1 2 3.
SUITS = {"♥": 0, "♣": 1, "♦": 2, "♠": 3}
RANKS40 = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]
RANKS48 = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "J", "Q", "K"]

DECK40 = spanish_deck(40)
DECK48 = spanish_deck(48)
DECK40x2 = spanish_deck(40, decks=2)
DECK_WILD = spanish_deck(40, jokers=2, wild_ace_of_coins=True, wild_value=25)
SOLVER40 = MeldSolver(DECK40)
SOLVER48 = MeldSolver(DECK48)
SOLVER40x2 = MeldSolver(DECK40x2, TWO_DECK_RULES)
SOLVER_WILD = MeldSolver(DECK_WILD)
SOLVER_WILD2 = MeldSolver(DECK_WILD, MeldRules(max_wild_per_meld=2))
JOKERS = (40, 41)
ACE_OF_COINS = 0  # suit 0, rank A: wild in DECK_WILD


def card(name: str, size: int = 40, copy: int = 0) -> int:
    """Card id in ``spanish_deck(size)`` from e.g. '3♥', 'J♠'; ``copy`` = second deck."""
    rank, suit = name[:-1], SUITS[name[-1]]
    ranks = RANKS40 if size == 40 else RANKS48
    return copy * size + suit * len(ranks) + ranks.index(rank)


def cards(text: str, size: int = 40) -> list[int]:
    return [card(t, size) for t in text.split()]


# --------------------------------------------------------------------------
# Brute force, written from the rule statements, independent of the solver.
# --------------------------------------------------------------------------
def bf_kinds(deck, rules: MeldRules, subset) -> set[str]:
    """Kinds a card set is a meld as: CH-3.1 groups, CH-3.2 runs, CH-V2 copies, CH-V7 wilds."""
    nat = [deck[c] for c in subset if not deck[c].wild]
    nwild = len(subset) - len(nat)
    if not nat or nwild > rules.max_wild_per_meld or any(c.suit < 0 for c in nat):
        return set()
    holds = Counter((c.run_pos, c.suit) for c in deck if c.suit >= 0)
    out = set()
    size = len(subset)
    max_group = rules.max_group if rules.max_group is not None else 10**9
    if len({c.run_pos for c in nat}) == 1 and rules.min_group <= size <= max_group:
        rank = nat[0].run_pos
        room = {s: min(rules.max_identical_in_group, n) for (r, s), n in holds.items() if r == rank}
        per_suit = Counter(c.suit for c in nat)
        copies_ok = all(len({(c.identity) for c in nat if c.suit == s}) == 1 for s in per_suit)
        if copies_ok and all(per_suit[s] <= room.get(s, 0) for s in per_suit):
            if sum(room[s] - per_suit[s] for s in room) >= nwild:
                out.add(GROUP)
    if len({c.suit for c in nat}) == 1 and size >= rules.min_run:
        suit = nat[0].suit
        pos = [c.run_pos for c in nat]
        if len(set(pos)) == len(pos):
            for start in range(min(pos) - size, max(pos) + 1):
                window = set(range(start, start + size))
                if set(pos) <= window and all(holds[(p, suit)] for p in window):
                    out.add(RUN)
                    break
    return out


def bf_valid_melds(deck, rules, hand) -> list[tuple[frozenset, str]]:
    out = []
    for k in range(1, len(hand) + 1):
        for sub in combinations(hand, k):
            for kind in bf_kinds(deck, rules, sub):
                out.append((frozenset(sub), kind))
    return out


def bf_penalty(deck, rules, hand) -> int:
    """Least unmatched value over every choice of disjoint melds (CH-3.3)."""
    melds = [(m, sum(deck[c].value for c in m)) for m in {m for m, _ in bf_valid_melds(deck, rules, hand)}]
    best = 0

    def rec(i: int, used: frozenset, val: int) -> None:
        nonlocal best
        best = max(best, val)
        for j in range(i, len(melds)):
            m, v = melds[j]
            if not (m & used):
                rec(j + 1, used | m, val + v)

    rec(0, frozenset(), 0)
    return sum(deck[c].value for c in hand) - best


def bf_maximal_arrangements(deck, rules, hand) -> set:
    """Every partition into melds + unmatched where no unmatched card forms/joins a meld."""
    melds = bf_valid_melds(deck, rules, hand)
    valid_sets = {m for m, _ in melds}
    out = set()

    def rec(i: int, used: frozenset, chosen: tuple) -> None:
        rest = frozenset(hand) - used
        maximal = not any((m | {u}) in valid_sets for m, _ in chosen for u in rest) and not any(
            m <= rest for m in valid_sets
        )
        if maximal:
            out.add(frozenset(chosen))
        for j in range(i, len(melds)):
            m, k = melds[j]
            if not (m & used):
                rec(j + 1, used | m, chosen + ((m, k),))

    rec(0, frozenset(), ())
    return out


def check_meld(deck, rules, meld: Meld) -> None:
    """A meld is legal and its stated wild meanings fit where the cards stand."""
    assert meld.kind in bf_kinds(deck, rules, meld.cards), meld
    means = {w: (p, s) for w, p, s in meld.wilds}
    assert set(means) == {c for c in meld.cards if deck[c].wild}
    place = [means.get(c, (deck[c].run_pos, deck[c].suit)) for c in meld.cards]
    if meld.kind == RUN:
        assert len({s for _, s in place}) == 1
        assert [p for p, _ in place] == list(range(place[0][0], place[0][0] + len(place)))
    else:
        assert len({p for p, _ in place}) == 1
        per = Counter(s for _, s in place)
        assert max(per.values()) <= rules.max_identical_in_group


def check_arrangement(solver: MeldSolver, hand, arr) -> None:
    used = [c for m in arr.melds for c in m.cards] + list(arr.unmatched)
    assert sorted(used) == sorted(hand)  # CH-3.3: every card exactly once
    for m in arr.melds:
        check_meld(solver.cards, solver.rules, m)
    assert arr.penalty == sum(solver.cards[c].value for c in arr.unmatched)


# --------------------------------------------------------------------------
# Fixed rule cases
# --------------------------------------------------------------------------
def test_ch_3_2_run_6_7_J_legal_in_40_card_order():
    assert SOLVER40.meld_kinds(cards("6♣ 7♣ J♣")) == (RUN,)
    assert SOLVER40.penalty(cards("6♣ 7♣ J♣")) == 0


def test_ch_3_2_run_7_Q_K_illegal_and_no_wraparound():
    assert SOLVER40.meld_kinds(cards("7♣ Q♣ K♣")) == ()
    assert SOLVER40.penalty(cards("7♣ Q♣ K♣")) == 7 + 9 + 10
    assert SOLVER40.meld_kinds(cards("Q♣ K♣ A♣")) == ()  # CH-1.3: K–A does not wrap
    assert SOLVER40.penalty(cards("Q♣ K♣ A♣ 2♣")) == 9 + 10 + 1 + 2


def test_ch_v1_48_card_run_order():
    assert SOLVER48.meld_kinds(cards("7♥ 8♥ 9♥", 48)) == (RUN,)
    assert SOLVER48.meld_kinds(cards("7♥ J♥ Q♥", 48)) == ()  # 7 and sota not adjacent
    assert SOLVER48.penalty(cards("9♥ J♥ Q♥ K♥ 1♥", 48)) == 1


def test_ch_3_1_group_needs_different_suits_and_at_most_4_with_one_deck():
    assert SOLVER40.meld_kinds(cards("5♥ 5♣ 5♦")) == (GROUP,)
    assert SOLVER40.meld_kinds(cards("5♥ 5♣ 5♦ 5♠")) == (GROUP,)
    assert SOLVER40.meld_kinds(cards("5♥ 5♣")) == ()
    # A group of 5 with one deck: 4 naturals + a joker is refused (CH-3.1, CH-V7).
    five = cards("5♥ 5♣ 5♦ 5♠") + [JOKERS[0]]
    assert SOLVER_WILD.meld_kinds(five) == ()
    assert MeldSolver(DECK_WILD, MeldRules(max_group=None)).meld_kinds(five) == ()  # no 5th suit
    # Best: 5♥ 5♣ 5♦ + joker (standing for 5♠) and the real 5♠ unmatched.
    assert SOLVER_WILD.penalty(five) == 5


def test_ch_3_3_no_card_in_two_melds():
    hand = cards("4♥ 4♣ 4♦ 5♥ 6♥")
    # 4♥ cannot be in the group and the run at once: run 4-5-6♥ leaves 4♣ 4♦ (8),
    # the group leaves 5♥ 6♥ (11).
    assert SOLVER40.penalty(hand) == 8
    best = SOLVER40.best(hand)
    check_arrangement(SOLVER40, hand, best)
    assert best.penalty == 8 and sorted(best.unmatched) == sorted(cards("4♣ 4♦"))
    assert SOLVER40.penalty(cards("4♥ 4♣ 4♦ 4♠ 5♥ 6♥")) == 0  # 4♥ to the run, 3 left in the group


def test_ch_7_worked_example_fully_matched():
    hand = cards("3♥ 4♥ 5♥ 6♥ 7♣ 7♦ 7♠")
    assert SOLVER40.penalty(hand) == 0
    best = SOLVER40.best(hand)
    check_arrangement(SOLVER40, hand, best)
    assert {(m.kind, frozenset(m.cards)) for m in best.melds} == {
        (RUN, frozenset(cards("3♥ 4♥ 5♥ 6♥"))),
        (GROUP, frozenset(cards("7♣ 7♦ 7♠"))),
    }
    assert best.unmatched == ()
    # Before the draw: 3♥ 4♥ 5♥ 7♣ 7♦ 7♠ A♦ leaves only A♦.
    assert SOLVER40.penalty(cards("3♥ 4♥ 5♥ 7♣ 7♦ 7♠ A♦")) == 1


def test_ch_v2_two_deck_groups_hold_identical_copies():
    a, b = card("5♥"), card("5♥", copy=1)
    group = [a, b, card("5♣")]
    assert SOLVER40x2.meld_kinds(group) == (GROUP,)
    assert SOLVER40.meld_kinds([card("5♥"), card("5♣"), card("5♦")]) == (GROUP,)
    # Eight 5s (both decks) is the largest group; a run never holds two identical cards.
    eight = [card(f"5{s}", copy=k) for s in SUITS for k in (0, 1)]
    assert SOLVER40x2.meld_kinds(eight) == (GROUP,)
    assert SOLVER40x2.meld_kinds([card("4♥"), a, b, card("6♥")]) == ()
    assert SOLVER40x2.penalty([card("4♥"), a, b, card("6♥")]) == 5
    # max_identical_in_group=1 with two decks: copies refused.
    one = MeldSolver(DECK40x2, MeldRules(max_group=8, max_identical_in_group=1))
    assert one.meld_kinds(group) == ()
    assert not one.fast_path and SOLVER40.fast_path


def test_identity_marks_copies_and_custom_decks():
    """CardInfo.identity: same rank+suit with different identity are not copies (CH-V2)."""
    deck = [CardInfo(p, s, p + 1) for s in range(3) for p in range(5)]  # 3 suits, 5 ranks
    deck += [CardInfo(0, 0, 1), CardInfo(0, 0, 1, identity=7)]  # ids 15 (copy of 0), 16
    solver = MeldSolver(deck, TWO_DECK_RULES)
    assert solver.meld_kinds([0, 15, 5]) == (GROUP,)  # identical copies may share a group
    assert solver.meld_kinds([0, 16, 5]) == ()  # same suit, not copies
    assert solver.meld_kinds([0, 15, 16, 5, 10]) == ()
    assert solver.penalty([0, 15, 16, 5]) == 1  # 0 15 5 or 16 ... one ace left
    assert solver.meld_kinds([0, 1, 2]) == (RUN,) and solver.meld_kinds([3, 4, 0]) == ()


def test_ch_v7_wild_meanings_recorded():
    run = SOLVER_WILD.make_meld([card("4♣"), JOKERS[0], card("6♣")])
    assert run.kind == RUN and run.cards == (card("4♣"), JOKERS[0], card("6♣"))
    assert run.stands_for(JOKERS[0]) == (4, 1)  # the 5♣
    top = SOLVER_WILD.make_meld([card("Q♣"), card("K♣"), JOKERS[1]])
    assert top.stands_for(JOKERS[1]) == (7, 1)  # J♣: no room above the king
    grp = SOLVER_WILD.make_meld([card("7♣"), card("7♦"), ACE_OF_COINS])
    assert grp.kind == GROUP and grp.stands_for(ACE_OF_COINS) == (6, 0)  # 7♥
    # At most one wild per meld; an unmatched wild costs its own value (CH-V7).
    assert SOLVER_WILD.meld_kinds([card("7♣"), JOKERS[0], JOKERS[1]]) == ()
    assert SOLVER_WILD.penalty([card("7♣"), card("7♦"), JOKERS[0], JOKERS[1]]) == 25
    assert set(SOLVER_WILD2.meld_kinds([card("7♣"), JOKERS[0], JOKERS[1]])) == {GROUP, RUN}


def test_arrangements_alternatives_and_tie_break():
    hand = cards("4♥ 4♣ 4♦ 4♠ 5♥ 6♥")
    arrs = SOLVER40.arrangements(hand)
    assert [a.penalty for a in arrs] == [0, 11]
    assert arrs[0] == SOLVER40.best(hand)
    # Non-maximal arrangements (e.g. only 4♣ 4♦ 4♠ with 4♥ 5♥ 6♥ loose) are not listed.
    assert all(a.melds for a in arrs)
    assert SOLVER40.arrangements(cards("A♥ 3♣ 5♦")) == [SOLVER40.best(cards("A♥ 3♣ 5♦"))]


def test_fast_path_agrees_with_general_path():
    rng = random.Random(20240601)
    for solver, n in ((SOLVER40, 40), (SOLVER48, 48), (SOLVER_WILD, 42)):
        assert solver.fast_path
        for _ in range(3000):
            hand = rng.sample(range(n), rng.choice((7, 8)))
            assert solver.penalty(hand) == solver._penalty_general(hand), hand
        rich = [c for c in range(min(n, 48)) if solver.cards[c].run_pos <= 4]
        for _ in range(3000):
            hand = rng.sample(rich, 8)
            assert solver.penalty(hand) == solver._penalty_general(hand), hand


# --------------------------------------------------------------------------
# Property tests against the brute force (CH-3.1, CH-3.2, CH-3.3, CH-V2, CH-V7)
# --------------------------------------------------------------------------
SOLVER40_GROUPS_OF_3 = MeldSolver(DECK40, MeldRules(max_group=3))


@pytest.mark.parametrize("solver", [SOLVER40, SOLVER40_GROUPS_OF_3], ids=["groups-of-4", "groups-of-3"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_property_fast_penalty_of_dense_hands_equals_brute_force(solver, data):
    """CH-3.1-CH-3.3: 9 to 11 cards of three or four ranks (neighbouring ones or not), where runs
    and groups cross or stand apart and a rank may hold more cards than a group may take."""
    ranks = data.draw(st.lists(st.integers(0, 9), min_size=3, max_size=4, unique=True))
    pool = [i for i, c in enumerate(DECK40) if c.run_pos in ranks]
    hand = data.draw(st.lists(st.sampled_from(pool), min_size=9, max_size=min(11, len(pool)), unique=True))
    assert solver.fast_path
    assert solver.penalty(hand) == bf_penalty(DECK40, solver.rules, hand)


def _rich(deck, top=4):
    return [i for i, c in enumerate(deck) if c.run_pos <= top and not c.wild]


CASES = {
    "40": (SOLVER40, list(range(40)), 0),
    "40-rich": (SOLVER40, _rich(DECK40), 0),
    "48": (SOLVER48, list(range(48)), 0),
    "48-rich": (SOLVER48, _rich(DECK48), 0),
    "two-deck": (SOLVER40x2, list(range(80)), 0),
    "two-deck-rich": (SOLVER40x2, _rich(DECK40x2), 0),
    "wild": (SOLVER_WILD, _rich(DECK_WILD, 6), 1),
    "wild-two": (SOLVER_WILD, _rich(DECK_WILD, 6), 2),
    "wild-two-per-meld": (SOLVER_WILD2, _rich(DECK_WILD, 5), 2),
}
WILDS = [ACE_OF_COINS, *JOKERS]


@st.composite
def hands(draw, case: str):
    solver, pool, nwild = CASES[case]
    size = draw(st.sampled_from((7, 8)))
    wilds = draw(st.lists(st.sampled_from(WILDS), min_size=nwild, max_size=nwild, unique=True)) if nwild else []
    rest = draw(st.lists(st.sampled_from(pool), min_size=size - nwild, max_size=size - nwild, unique=True))
    return solver, wilds + rest


def _reaches_the_optimum(case, data):
    solver, hand = data.draw(hands(case))
    expected = bf_penalty(solver.cards, solver.rules, hand)
    assert solver.penalty(hand) == expected
    assert solver._penalty_general(hand) == expected
    best = solver.best(hand)
    check_arrangement(solver, hand, best)
    assert best.penalty == expected
    arrs = solver.arrangements(hand)
    assert arrs[0].penalty == expected and arrs[0] == best


@pytest.mark.parametrize("case", sorted(CASES))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_property_penalty_equals_brute_force(case, data):
    """CH-3.3: penalty, best() and arrangements()[0] all reach the brute-force optimum (25 hands a deck)."""
    _reaches_the_optimum(case, data)


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_property_penalty_equals_brute_force_over_150_hands_a_deck(case, data):
    """CH-3.3, at length."""
    _reaches_the_optimum(case, data)


@pytest.mark.parametrize("case", ["40-rich", "two-deck-rich", "wild-two-per-meld"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_property_arrangements_are_exactly_the_maximal_ones(case, data):
    solver, hand = data.draw(hands(case))
    arrs = solver.arrangements(hand)
    got = {frozenset((frozenset(m.cards), m.kind) for m in a.melds) for a in arrs}
    assert len(got) == len(arrs)
    assert got == bf_maximal_arrangements(solver.cards, solver.rules, hand)
    for a in arrs:
        check_arrangement(solver, hand, a)
    keys = [a.sort_key() for a in arrs]
    assert keys == sorted(keys)


# --------------------------------------------------------------------------
# Lay-offs (CH-5)
# --------------------------------------------------------------------------
def table(solver, *melds, closed=()):
    return [
        TableMeld(solver.make_meld(cards(m) if isinstance(m, str) else m), i in closed) for i, m in enumerate(melds)
    ]


def test_ch_5_2_layoff_onto_group():
    t = table(SOLVER40, "7♥ 7♣ 7♦")
    s = best_showing(SOLVER40, cards("7♠ K♣ 2♦"), t)
    assert s.layoffs == ((card("7♠"), 0),)
    assert s.penalty == 10 + 2 and s.unmatched == tuple(sorted(cards("K♣ 2♦")))
    assert set(s.table[0].cards) == set(cards("7♥ 7♣ 7♦ 7♠"))
    # A full group of four takes nothing more (CH-3.1).
    full = table(SOLVER_WILD, "7♥ 7♣ 7♦ 7♠")
    assert best_showing(SOLVER_WILD, [JOKERS[0], card("2♦")], full).penalty == 27


def test_ch_5_2_layoff_onto_both_run_ends():
    t = table(SOLVER40, "4♥ 5♥ 6♥")
    s = best_showing(SOLVER40, cards("3♥ 7♥ K♠"), t)
    assert sorted(s.layoffs) == sorted([(card("3♥"), 0), (card("7♥"), 0)])
    assert s.penalty == 10
    assert s.table[0].cards == tuple(cards("3♥ 4♥ 5♥ 6♥ 7♥"))
    # 6–7–J order holds for lay-offs too: J♥ goes on 5-6-7♥ (CH-3.2).
    s = best_showing(SOLVER40, cards("J♥ Q♥"), table(SOLVER40, "5♥ 6♥ 7♥"))
    assert s.penalty == 0 and s.layoffs == ((card("J♥"), 0), (card("Q♥"), 0))


def test_ch_5_2_layoffs_chain():
    t = table(SOLVER40, "3♥ 4♥ 5♥")
    s = best_showing(SOLVER40, cards("7♥ 6♥ A♥ 2♥ K♦"), t)
    assert s.penalty == 10
    # Applicable one by one: 6 before 7, 2 before A.
    order = [c for c, _ in s.layoffs]
    assert order.index(card("6♥")) < order.index(card("7♥"))
    assert order.index(card("2♥")) < order.index(card("A♥"))
    assert s.table[0].cards == tuple(cards("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥"))
    # Chains may go through a wild: joker as 6♥ then 7♥ (CH-V7).
    s = best_showing(SOLVER_WILD, [JOKERS[0], card("7♥")], table(SOLVER_WILD, "3♥ 4♥ 5♥"))
    assert s.penalty == 0 and s.table[0].stands_for(JOKERS[0]) == (5, 0)
    # ...but only one wild per meld.
    s = best_showing(SOLVER_WILD, list(JOKERS), table(SOLVER_WILD, "3♥ 4♥ 5♥"))
    assert s.penalty == 25 and len(s.layoffs) == 1


def test_ch_5_4_no_layoff_onto_closed_meld():
    t = table(SOLVER40, "3♥ 4♥ 5♥", "7♣ 7♦ 7♠", closed=(0, 1))
    s = best_showing(SOLVER40, cards("6♥ 7♥"), t)
    assert s.layoffs == () and s.penalty == 13
    # Other shown melds stay open.
    t = table(SOLVER40, "3♥ 4♥ 5♥", "7♣ 7♦ 7♠", closed=(0,))
    s = best_showing(SOLVER40, cards("6♥ 7♥"), t)
    assert s.layoffs == ((card("7♥"), 1),) and s.penalty == 6


def test_layoff_combines_with_own_melds():
    # 5♥ is needed for the own run 3-4-5♥ or for the table group of 5s; either way 0.
    t = table(SOLVER40, "5♣ 5♦ 5♠")
    s = best_showing(SOLVER40, cards("3♥ 4♥ 5♥ 6♥"), t)
    assert s.penalty == 0 and s.layoffs == ()  # tie: own meld, no lay-off
    # Taking a card out of an own group to lay it off can be better: alone, the four
    # 6s leave 7♥ (7); with 3-4-5♥ shown, 6♥ then 7♥ go there and 6♣ 6♦ 6♠ stay a group.
    hand = cards("6♥ 7♥ 6♣ 6♦ 6♠")
    assert SOLVER40.penalty(hand) == 7
    s = best_showing(SOLVER40, hand, table(SOLVER40, "3♥ 4♥ 5♥"))
    assert s.penalty == 0 and s.layoffs == ((card("6♥"), 0), (card("7♥"), 0))
    assert [set(m.cards) for m in s.arrangement.melds] == [set(cards("6♣ 6♦ 6♠"))]
    # Empty table: same as the plain solver.
    h = cards("3♥ 4♥ 5♥ 7♣ 7♦ 7♠ A♦")
    assert best_showing(SOLVER40, h, []).penalty == SOLVER40.penalty(h) == 1


def test_ch_v2_two_deck_upward_only_and_one_per_value():
    s2 = SOLVER40x2
    run = [card("4♥"), card("5♥"), card("6♥")]
    run_b = [card("4♥", copy=1), card("5♥", copy=1), card("6♥", copy=1)]
    t = [TableMeld(s2.make_meld(run)), TableMeld(s2.make_meld(run_b))]
    hand = [card("3♥"), card("7♥"), card("7♥", copy=1)]
    free = best_showing(s2, hand, t)
    assert free.penalty == 0 and len(free.layoffs) == 3
    up = best_showing(s2, hand, t, runs_upward_only=True)
    assert up.penalty == 3 and up.unmatched == (card("3♥"),)  # strictly upwards
    one = best_showing(s2, hand, t, runs_upward_only=True, one_per_value=True)
    assert one.penalty == 3 + 7 and len(one.layoffs) == 1  # only one 7 may be added
    # Groups with copies: two 7♠ may join a group of 7s unless one_per_value.
    g = [TableMeld(s2.make_meld([card("7♥"), card("7♣"), card("7♦")]))]
    two = [card("7♠"), card("7♠", copy=1)]
    assert best_showing(s2, two, g).penalty == 0
    assert best_showing(s2, two, g, one_per_value=True).penalty == 7


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_property_showing_is_legal_and_never_worse(data):
    """CH-5.2/5.5: lay-offs never raise the penalty; every lay-off is applicable in order."""
    solver = SOLVER40
    rich = _rich(DECK40, 6)
    deal = data.draw(st.lists(st.sampled_from(rich), min_size=15, max_size=15, unique=True))
    closer, hand = deal[:8], deal[8:]
    shown = solver.best(closer).melds
    closed = data.draw(st.booleans())
    t = [TableMeld(m, closed) for m in shown]
    s = best_showing(solver, hand, t)
    assert s.penalty <= solver.penalty(hand)
    if closed or not t:
        assert s.layoffs == () and s.penalty == solver.penalty(hand)
    check_arrangement(solver, hand, s.arrangement)
    laid = [c for c, _ in s.layoffs]
    assert sorted(laid + list(s.unmatched)) == sorted(s.arrangement.unmatched)
    assert s.penalty == sum(solver.cards[c].value for c in s.unmatched)
    # Replay: each prefix of the lay-offs leaves legal melds (chains applied in order).
    current = [tm.meld.cards for tm in t]
    for c, j in s.layoffs:
        current[j] = current[j] + (c,)
        assert solver.meld_kinds(current[j]) == (t[j].meld.kind,)
    for j, m in enumerate(s.table):
        assert set(m.cards) == set(current[j])
        check_meld(solver.cards, solver.rules, m)
