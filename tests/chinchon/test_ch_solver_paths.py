"""The solver's fast paths against its exact search (rule ids: shared rules file, CH-…).

Hands with one, two and three wild cards (CH-V7: at most one wild per meld) and
hands with identical copies (CH-V2, two decks) take short cuts: near-melds a wild
completes, code sums with one card taken off per close, and closes judged only
up to the close limit (CH-4.3). Each short cut must give exactly what the exact
search over every meld of the hand gives (CH-3.3), on many random hands.
Derandomized, so every run checks the same hands.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapete_plugins.chinchon.melds import TWO_DECK_RULES, CardInfo, MeldRules, MeldSolver, spanish_deck

PATHS = settings(derandomize=True, deadline=None, max_examples=80, suppress_health_check=[HealthCheck.too_slow])


def exact(solver: MeldSolver, hand: list[int]) -> int:
    """The least unmatched value by the exact search over every meld of the hand (CH-3.3)."""
    ids, vals, _, _, best = solver._prepare(hand)
    return sum(vals) - best((1 << len(ids)) - 1)


def odd_deck() -> list[CardInfo]:
    """40 cards whose suits differ in value, a joker worth 50 and a wild ace of coins worth 25 (CH-V7)."""
    deck = [c if c.suit != 3 else CardInfo(c.run_pos, 3, c.value + 1) for c in spanish_deck(40, wild_ace_of_coins=True)]
    return [*deck, CardInfo(-1, -1, 50, True)]


def holey_deck() -> list[CardInfo]:
    """40 cards less 4♣ and J♦, and two jokers: a wild may not fill a place the deck lacks (CH-3.2, CH-V7)."""
    return [c for c in spanish_deck(40, jokers=2) if (c.run_pos, c.suit) not in ((3, 1), (7, 2))]


def gin_deck() -> list[CardInfo]:
    """52 cards, 13 ranks ace low, values 1-10 (as Gin Rummy's, GR-1.2): the fast path's widest table here."""
    return [CardInfo(rank, suit, min(rank + 1, 10)) for suit in range(4) for rank in range(13)]


SOLVERS = {
    "fournier": MeldSolver(spanish_deck(40)),
    "48-cards": MeldSolver(spanish_deck(48)),
    "groups-of-3": MeldSolver(spanish_deck(40), MeldRules(max_group=3)),
    "gin-52": MeldSolver(gin_deck()),
    "wild-cards": MeldSolver(spanish_deck(40, jokers=2, wild_ace_of_coins=True)),  # the variant's table
    "wild-48": MeldSolver(spanish_deck(48, jokers=2, wild_ace_of_coins=True)),
    "wild-groups-of-3": MeldSolver(spanish_deck(40, jokers=2, wild_ace_of_coins=True), MeldRules(max_group=3)),
    "wild-never-melds": MeldSolver(spanish_deck(40, jokers=2, wild_ace_of_coins=True), MeldRules(max_wild_per_meld=0)),
    "wild-odd-values": MeldSolver(odd_deck()),
    "wild-holes": MeldSolver(holey_deck()),
    "two-decks": MeldSolver(spanish_deck(40, decks=2), TWO_DECK_RULES),
    "two-decks-jokers": MeldSolver(spanish_deck(40, decks=2, jokers=2), TWO_DECK_RULES),
}


@st.composite
def hands(draw: st.DrawFn, name: str, wilds: int) -> list[int]:
    """A 7- or 8-card hand with ``wilds`` wild cards; often from ranks A-5 only, where melds abound."""
    solver = SOLVERS[name]
    deck = solver.cards
    wild = [i for i, c in enumerate(deck) if c.wild]
    top = draw(st.sampled_from((4, 9, 11)))
    pool = [i for i, c in enumerate(deck) if not c.wild and c.run_pos <= top]
    size = draw(st.sampled_from((7, 8)))
    held = draw(st.lists(st.sampled_from(wild), min_size=wilds, max_size=wilds, unique=True)) if wilds else []
    rest = draw(st.lists(st.sampled_from(pool), min_size=size - wilds, max_size=size - wilds, unique=True))
    return draw(st.permutations(held + rest))


@st.composite
def dense_hands(draw: st.DrawFn, name: str) -> list[int]:
    """7 to 13 natural cards of 3 to 5 neighbouring ranks: runs and groups cross, up to four groups."""
    deck = SOLVERS[name].cards
    width = draw(st.integers(3, 5))
    lo = draw(st.integers(0, max(c.run_pos for c in deck) - width + 1))
    pool = [i for i, c in enumerate(deck) if not c.wild and lo <= c.run_pos < lo + width]
    size = draw(st.integers(7, min(13, len(pool))))
    return draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))


def check(name: str, hand: list[int]) -> None:
    solver = SOLVERS[name]
    assert solver.penalty(hand) == exact(solver, hand)
    parts = [exact(solver, [c for c in hand if c != x]) for x in hand]  # the closes of a turn (CH-4.3)
    assert solver.penalties_without(hand) == parts
    for limit in (0, 5, 10):
        assert solver.penalties_within(hand, limit) == [p if p <= limit else None for p in parts]


@pytest.mark.parametrize("name", ["wild-cards", "wild-48", "wild-groups-of-3", "wild-never-melds", "wild-holes"])
@PATHS
@given(data=st.data())
def test_ch_v7_hands_with_wilds_match_the_exact_search(name: str, data: st.DataObject) -> None:
    """CH-V7: a wild completes at most one meld; one, two or three wilds, several tables."""
    wilds = sum(c.wild for c in SOLVERS[name].cards)
    check(name, data.draw(hands(name, data.draw(st.integers(1, min(3, wilds))))))


@pytest.mark.parametrize("name", ["fournier", "48-cards", "groups-of-3", "gin-52"])
@PATHS
@given(data=st.data())
def test_ch_3_3_dense_hands_without_wilds_match_the_exact_search(name: str, data: st.DataObject) -> None:
    """CH-3.1-CH-3.3: where no card is both in a run and in a rank of three, every meld-able card is
    matched at once; where they cross, or a rank holds more cards than a group may, the groups are
    searched. Hands of 7 to 13 cards, so up to four ranks of three; also from the summed codes."""
    hand = data.draw(dense_hands(name))
    check(name, hand)
    solver = SOLVERS[name]
    assert solver.fast_path and solver.codes is not None and solver.penalty_of_code is not None
    assert solver.penalty_of_code(sum(solver.codes[c] for c in hand)) == exact(solver, hand)


@PATHS
@given(data=st.data())
def test_ch_v7_wilds_of_different_values_and_suits_of_different_values(data: st.DataObject) -> None:
    """CH-V7: the cheapest wilds stay unmatched; no short cut may assume the suits alike."""
    check("wild-odd-values", data.draw(hands("wild-odd-values", data.draw(st.integers(0, 2)))))


@PATHS
@given(data=st.data())
def test_ch_v2_hands_with_identical_copies_match_the_exact_search(data: st.DataObject) -> None:
    """CH-V2: two decks, so a hand may hold both copies of a card (and a joker, CH-V7)."""
    name = data.draw(st.sampled_from(("two-decks", "two-decks-jokers")))
    hand = data.draw(hands(name, data.draw(st.integers(0, 1)) if name == "two-decks-jokers" else 0))
    deck = SOLVERS[name].cards
    first = deck[hand[0]]
    if data.draw(st.booleans()) and not first.wild:  # make sure of a copy: the other deck's twin of a card
        twin = next(
            i for i, c in enumerate(deck) if (c.run_pos, c.suit) == (first.run_pos, first.suit) and i != hand[0]
        )
        if twin not in hand:
            hand[1] = twin
    check(name, hand)


def test_ch_v7_one_wild_standing_for_a_card_held_elsewhere() -> None:
    """CH-V7: the wild may stand for a card the hand holds in another meld (5♥ twice, once as the wild)."""
    solver = SOLVERS["wild-cards"]
    deck = solver.cards
    five = [i for i, c in enumerate(deck) if c.run_pos == 4 and not c.wild]  # the four 5s
    four, six = (next(i for i, c in enumerate(deck) if (c.run_pos, c.suit) == (p, 2)) for p in (3, 5))
    jokers = [i for i, c in enumerate(deck) if c.wild and c.suit < 0]
    # The four 5s, 4♦ 6♦ and a joker: 4♦ 5♦ 6♦ and three 5s with the joker standing for the 5♦.
    hand = [*five, four, six, jokers[0]]
    assert solver.penalty(hand) == exact(solver, hand) == 0
    two = [*five, four, jokers[0], jokers[1]]  # 4♦ 5♦ + joker, and three 5s + joker
    assert solver.penalty(two) == exact(solver, two) == 0
