"""The legal bids kept by what the ban reads (`Bidding.legal`, `Compiled.key`): the same bids as judged afresh.

A Spades side's ``no_bid when bid + bidding > dealt`` (SP-V6) and Oh Hell's hook (OH-4.3) are
judged for every bid a seat could make. The answers are kept by the values the ban reads
besides the bid weighed, so a seat meeting a pair it has met before is answered from them;
these tests hold the kept answers to the ban judged afresh, in worked examples and over every
variant with a round of bids.
"""

from __future__ import annotations

import pytest

from tapete import Random
from tapete.testing import variant, variant_names
from tapete_plugins.tricks.bidding import BID_OF_WORD, Bidding

from .helpers import position

CONTRACT_GAMES = ("oh-hell", "spades")  # the trick family's games with a round of bids
BIDDING_VARIANTS = [n for g in CONTRACT_GAMES for n in variant_names(g)]


def offered(deal):
    return [BID_OF_WORD[a.detail] for a in deal.legal_actions()]


def test_sp_v6_a_partner_bid_is_capped_by_what_the_side_has_bid_whoever_asked_before():
    """SP-V6 (capped): North bid 9, so South may bid 0 to 4, however often asked; East, whose partner
    West bid 3, may bid 0 to 10."""
    counters = {"bidding": 1, "bids": 9, "bids_made": 2, "dealt": 13, "bid.0": 9, "bid.1": 3}
    hands = {f"hand{s}": [] for s in range(4)}
    first = position("spades/capped", to_move=2, counters=counters, **hands)
    assert offered(first) == [0, 1, 2, 3, 4]
    again = position("spades/capped", to_move=2, counters=counters, **hands)
    assert offered(again) == [0, 1, 2, 3, 4]  # answered from the kept bids
    east = position("spades/capped", to_move=3, counters=counters, **hands)
    assert offered(east) == list(range(11))


def test_oh_4_3_the_hook_kept_for_one_dealer_is_not_the_answer_for_another_seat():
    """OH-4.3: with 2 bid of 3 tricks, the dealer may not bid 1; the seat before the dealer may."""
    counters = {"bidding": 1, "bids": 2, "bids_made": 3, "dealt": 3, "bid.0": 1, "bid.1": 1, "bid.2": 0}
    hands = {f"hand{s}": [] for s in range(4)}
    dealer = position("oh-hell/classic", dealer=3, to_move=3, counters=counters, **hands)
    assert offered(dealer) == [0, 2, 3]
    not_dealer = position("oh-hell/classic", dealer=0, to_move=3, counters=counters, **hands)
    assert offered(not_dealer) == [0, 1, 2, 3]
    assert offered(position("oh-hell/classic", dealer=3, to_move=3, counters=counters, **hands)) == [0, 2, 3]


@pytest.mark.parametrize("name", BIDDING_VARIANTS)
def test_every_bid_offered_is_the_ban_judged_afresh(name):
    """Random deals of every variant with a round of bids, each player count it allows: at every bid,
    the bids offered (from the kept answers once met) are those a bidding that kept nothing gives."""
    v = variant(name)
    assert v.new_game().bidding.used
    lo, hi = v.player_range()
    met = asked = 0
    for players in range(lo, hi + 1):
        rng = Random.derived(17, name, players)
        for seed in range(6):
            deal = v.new_deal(players, seed=seed, record=False)
            bidding = deal.game.bidding
            while not deal.over:
                state = deal.state
                if bidding.active(state) and f"bid.{state.to_move}" not in state.counters:
                    asked += 1
                    met += bool(bidding._known)
                    assert bidding.legal(state) == Bidding(deal.game).legal(state), (players, seed)
                legal = deal.legal_actions()
                deal.play(legal[rng.below(len(legal))])
    assert asked  # bids were asked for; where a ban is written, some answered from the kept bids
    assert bool(met) == (v.new_game().bidding.ban is not None)
