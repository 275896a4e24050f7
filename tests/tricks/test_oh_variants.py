"""Every Oh Hell variant (OH-V1 ... OH-V8) as a file on the family, checked against its rule."""

from __future__ import annotations

import pytest

from tapete import Ctx
from tapete.core.ledger import Ledger

from .helpers import scores, variants
from .test_oh_play import BIDDING, WEST, bids, hand_sizes, position

HANDS = {
    "hand0": ["A♠", "K♦", "2♥"],
    "hand1": ["5♠", "9♣", "3♦"],
    "hand2": ["8♠", "Q♥", "6♣"],
    "hand3": ["J♠", "10♦", "4♣"],
}


def worked_example(name):
    """OH-7 under another variant: West deals h = 3, 7♥ turned, North bids first."""
    return position(f"oh-hell/{name}", dealer=WEST, to_move=0, counters=BIDDING, turned=["7♥"], **HANDS)


def played_out(name, bid_moves=("bid one", "bid zero", "bid one", "bid zero")):
    """OH-7.3's play, after the bids given: North 2 tricks, South 1."""
    deal = worked_example(name)
    for move in bid_moves:
        deal.play(move)
    for card in ("A♠", "5♠", "8♠", "J♠", "K♦", "3♦", "Q♥", "10♦", "6♣", "4♣", "2♥", "9♣"):
        deal.play(f"play {card}")
    assert deal.over
    return deal


def test_oh_v1_without_the_hook_the_dealer_may_bid_the_total():
    deal = worked_example("no-hook")
    for move in ("bid one", "bid zero", "bid one"):
        deal.play(move)
    assert bids(deal) == [0, 1, 2, 3]  # OH-7.2 under OH-V1: 1 is allowed
    deal.play("bid one")
    assert deal.state.counters["bids"] == 3


def test_oh_v2_every_hand_has_the_same_size_and_each_player_deals_once():
    assert hand_sizes(4) == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]  # the classic, to compare
    game = variants["oh-hell/fixed"].new_game()
    assert [int(game.hand_size(Ctx(game=game, ledger=_ledger(5, k)))) for k in (1, 2, 5)] == [7, 7, 7]
    ends = game.rules.condition("match_ends")
    assert [bool(ends(Ctx(game=game, ledger=_ledger(5, k)))) for k in (4, 5)] == [False, True]  # n hands


def _ledger(players, number, totals=None):
    ledger = Ledger(players, list(totals or [0] * players))
    ledger.deal_number = number
    return ledger


def sizes(name, players):
    game = variants[f"oh-hell/{name}"].new_game()
    ends = game.rules.condition("match_ends")
    state = variants[f"oh-hell/{name}"].new_deal(players, seed=1).state
    out = []
    for k in range(1, 60):
        ctx = Ctx(game=game, state=state, ledger=_ledger(players, k))
        out.append(int(game.hand_size(ctx)))
        if ends(ctx):
            return out
    raise AssertionError("no end")


def test_oh_v3_one_way_sequences_go_up_only_or_down_only():
    assert sizes("up", 4) == list(range(1, 11)) and sizes("up", 6) == list(range(1, 9))
    assert sizes("down", 4) == list(range(10, 0, -1)) and sizes("down", 7) == list(range(7, 0, -1))


def test_oh_v4_the_longer_sequence_deals_the_whole_deck_to_four_and_that_hand_has_no_trumps():
    assert sizes("longer", 3)[0] == 17 and len(sizes("longer", 4)) == 25  # OH-V4: M = 52 / n
    deal = variants["oh-hell/longer"].new_deal(4, seed=3)
    state = deal.state
    assert state.counters["dealt"] == 13 and state.counters["trump"] == 0  # OH-3.4: no card to turn
    assert not state.zones.get("turned") and deal.game.trump_suit(state) is None


def test_oh_v5_the_hands_of_m_cards_are_played_without_trumps():
    deal = variants["oh-hell/no-trump-ends"].new_deal(4, seed=3)  # OH-V5: the first hand has M cards
    assert deal.state.counters["dealt"] == 10 and deal.game.trump_suit(deal.state) is None
    assert not deal.state.zones.get("turned") and len(deal.state.zones["stock"]) == 12  # nothing turned
    classic = variants["oh-hell/classic"].new_deal(4, seed=3)
    assert classic.game.trump_suit(classic.state) is not None


def test_oh_v6_trick_points_score_each_trick_and_10_for_an_exact_bid():
    assert scores(played_out("trick-points")) == [2, 10, 11, 10]  # OH-7.4 under OH-V6


def test_oh_v7_a_missed_bid_costs_a_point_a_trick_off():
    assert scores(played_out("penalty")) == [-1, 10, 11, 10]  # OH-7.4 under OH-V7 with p = 1


def test_oh_v8_a_tie_for_the_highest_total_plays_more_hands_of_m_cards():
    game = variants["oh-hell/tie-break"].new_game()
    ends = game.rules.condition("match_ends")
    state = variants["oh-hell/tie-break"].new_deal(4, seed=1).state
    tied, alone = [120, 120, 80, 90], [120, 119, 80, 90]
    assert not ends(Ctx(game=game, state=state, ledger=_ledger(4, 19, tied)))
    assert ends(Ctx(game=game, state=state, ledger=_ledger(4, 19, alone)))
    assert int(game.hand_size(Ctx(game=game, state=state, ledger=_ledger(4, 20, tied)))) == 10  # M cards


@pytest.mark.parametrize(
    "name", sorted(n for n in variants["oh-hell/classic"].registry.variants() if n.startswith("oh-hell/"))
)
def test_every_oh_hell_variant_is_a_file_on_the_family_and_its_rulebook_cites_oh_ids(name):
    # no Python per variant; each plays on the one Tricks class
    assert type(variants[name].new_game()).__name__ == "Tricks"
    text = " ".join(r.text for _, rules in variants[name].new_game().rulebook() for r in rules)
    assert "bids once" in text
