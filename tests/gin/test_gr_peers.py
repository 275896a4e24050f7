"""tapete's Gin Rummy deadwood against OpenSpiel's and RLCard's, settled by brute force.

Runs when the ``bench`` extra (open-spiel, rlcard) is installed; CI installs it.
On thousands of random and meld-dense 10- and 11-card hands (GR-2.3: the least
deadwood of any arrangement; with 11 cards, after the best discard, as when a
player knocks, GR-4.3) tapete's exact solver must agree with an independent
brute force everywhere. RLCard (which tries every set of up to three disjoint
melds) agrees everywhere too. OpenSpiel's ``GinRummyUtils.min_deadwood`` is
wrong on a few dense 11-card hands: it reports more deadwood than the hand has
(e.g. 2♦ 2♣ 2♥ 3♠ 4♠ 5♠ 3♥ 4♥ 5♥ 5♦ 3♣: it says 4, by brute force 3: the set
of twos, two runs 3-5, discard 5♦, 3♣ left), and so on 8-card best-discard
questions of a 7-card game (6♣ 5♦ 7♦ 6♦ 7♠ 7♣ 5♥ 5♣: it says 6, the truth is 5:
two runs 5-7, discard 7♠, 5♥ left). RLCard's helpers take only 10-card hands.
The test checks that every disagreement is OpenSpiel's and counts them;
``bench/README.md`` has the figures.
"""

from __future__ import annotations

import os
from functools import cache

import pytest
from gin_helpers import variant

from tapete import Random

pyspiel = pytest.importorskip("pyspiel")
melding = pytest.importorskip("rlcard.games.gin_rummy.utils.melding")
rlutils = pytest.importorskip("rlcard.games.gin_rummy.utils.utils")

RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()  # GR-1.2 ace low
SUITS = "♠♣♦♥"  # OpenSpiel's suit order (s c d h)
RLCARD_SUIT = {"♠": 0, "♥": 1, "♦": 2, "♣": 3}  # RLCard's (S H D C)
# per kind of hand and size: 9,000 hands in all; TAPETE_GIN_PEER_HANDS=10000 for the bench/README figures
HANDS = int(os.environ.get("TAPETE_GIN_PEER_HANDS", "1500"))


@cache
def tables():
    game = variant().new_game()
    deck = game.deck
    rank_suit = {c: (RANKS.index(deck.rank_of[c]), deck.suit_of[c]) for c in deck.ids}
    return game, deck, rank_suit


def brute_deadwood(cards: list[tuple[int, str]]) -> int:
    """GR-2: try every set of disjoint melds (sets of 3-4 of a rank, runs of 3+ in suit)."""
    value = [min(r + 1, 10) for r, _ in cards]
    idx = {c: i for i, c in enumerate(cards)}
    melds: list[int] = []
    for r in range(13):
        same = [i for i, (rr, _) in enumerate(cards) if rr == r]
        for size in (3, 4):
            for mask in range(1 << len(same)):
                if bin(mask).count("1") == size:
                    melds.append(sum(1 << same[k] for k in range(len(same)) if mask >> k & 1))
    for s in SUITS:
        for lo in range(13):
            for hi in range(lo + 2, 13):
                if all((r, s) in idx for r in range(lo, hi + 1)):
                    melds.append(sum(1 << idx[(r, s)] for r in range(lo, hi + 1)))
    total = sum(value)

    def best(start: int, used: int) -> int:
        top = 0
        for k in range(start, len(melds)):
            m = melds[k]
            if not m & used:
                got = sum(value[i] for i in range(len(cards)) if m >> i & 1) + best(k + 1, used | m)
                top = max(top, got)
        return top

    return total - best(0, 0)


def brute(hand: list[int]) -> int:
    _, _, rank_suit = tables()
    cards = [rank_suit[c] for c in hand]
    if len(hand) == 10:
        return brute_deadwood(cards)
    return min(brute_deadwood(cards[:i] + cards[i + 1 :]) for i in range(len(cards)))


def ours(hand: list[int]) -> int:
    """Deadwood of 10 cards; of 11 (or 8, a 7-card game's drawn hand) after the best discard."""
    solver = tables()[0].solver
    return solver.penalty(hand) if len(hand) == 10 else min(solver.penalties_without(tuple(hand)))


@cache
def openspiel_utils(hand_size: int):
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, hand_size)


def openspiel(hand: list[int]) -> int:
    """OpenSpiel's min_deadwood; a hand one card over the game's hand size is judged after the best discard."""
    utils = openspiel_utils(10 if len(hand) >= 10 else len(hand) - 1)
    _, _, rank_suit = tables()
    return utils.min_deadwood([SUITS.index(s) * 13 + r for r, s in (rank_suit[c] for c in hand)])


def rlcard(hand: list[int]) -> int:
    _, _, rank_suit = tables()

    def ten(cards):
        clusters = melding.get_meld_clusters(cards)
        alone = sum(rlutils.get_deadwood_value(c) for c in cards)
        return min([rlutils.get_deadwood_count(cards, cl) for cl in clusters] + [alone])

    cards = [rlutils.get_card(r + 13 * RLCARD_SUIT[s]) for r, s in (rank_suit[c] for c in hand)]
    if len(cards) == 10:
        return ten(cards)
    return min(ten(cards[:i] + cards[i + 1 :]) for i in range(len(cards)))


def hands(kind: str, size: int) -> list[list[int]]:
    _, deck, rank_suit = tables()
    rng = Random("gin-peers", f"{kind}-{size}")
    ids = list(deck.ids)
    out = []
    for _ in range(HANDS):
        if kind == "dense":  # a few neighbouring ranks in four suits: sets and runs cross everywhere
            width = 4 if size < 10 else 5
            lo = rng.below(14 - width)
            pool = [c for c in ids if lo <= rank_suit[c][0] < lo + width]
        else:
            pool = list(ids)
        rng.shuffle(pool)
        out.append(pool[:size])
    return out


@pytest.mark.parametrize("kind,size", [(k, n) for n in (10, 11, 8) for k in ("random", "dense")])
def test_deadwood_agrees_with_the_peers_and_every_disagreement_is_theirs(kind, size):
    open_wrong = checked = 0
    for k, hand in enumerate(hands(kind, size)):
        mine, theirs = ours(hand), openspiel(hand)
        rl = rlcard(hand) if size >= 10 else mine  # RLCard's helpers take 10-card hands only
        if mine != theirs or mine != rl or k % 10 == 0:  # brute force on every disagreement and a sample
            truth = brute(hand)
            checked += 1
            assert mine == truth, (hand, mine, truth)
            open_wrong += theirs != truth
        assert rl == mine, hand  # RLCard is right on every hand
    assert checked >= HANDS // 10
    others = "tapete and RLCard" if size >= 10 else "tapete"
    print(f"{kind} {size}-card hands: {HANDS}, OpenSpiel wrong on {open_wrong}, {others} on none")
    if size == 10 or kind == "random":
        assert open_wrong == 0
    else:  # OpenSpiel overstates a few dense hands after a discard; always by brute force
        assert 0 < open_wrong < HANDS // 20


def test_the_documented_openspiel_mistake():
    _, deck, _ = tables()
    hand = [deck.parse(c) for c in "2♦ 2♣ 2♥ 3♠ 4♠ 5♠ 3♥ 4♥ 5♥ 5♦ 3♣".split()]
    assert ours(hand) == brute(hand) == rlcard(hand) == 3
    assert openspiel(hand) == 4
    eight = [deck.parse(c) for c in "6♣ 5♦ 7♦ 6♦ 7♠ 7♣ 5♥ 5♣".split()]
    assert ours(eight) == brute(eight) == 5
    assert openspiel(eight) == 6
