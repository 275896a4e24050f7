"""Oh Hell played literally: the worked example OH-7, the hook, the hand sizes, the bids as moves.

Seats for the worked example (OH-7.1), clockwise: 0 North, 1 East, 2 South, 3 West; West deals.
"""

from __future__ import annotations

import pytest

from tapete import Ctx, IllegalAction
from tapete.core.ledger import Ledger
from tapete_plugins.tricks.bidding import BID_OF_WORD

from .helpers import legal_cards, position, scores, variants

CLASSIC = "oh-hell/classic"
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
HEARTS = {"trump": 1 + variants[CLASSIC].rules.deck.suits.index("♥")}
BIDDING = {"bidding": 1, "bids": 0, "bids_made": 0, "dealt": 3} | HEARTS


def worked_example():
    """OH-7.1: West deals h = 3 and turns 7♥; the bidding starts on the dealer's left, with North."""
    return position(
        CLASSIC,
        dealer=WEST,
        to_move=NORTH,
        counters=BIDDING,
        hand0=["A♠", "K♦", "2♥"],
        hand1=["5♠", "9♣", "3♦"],
        hand2=["8♠", "Q♥", "6♣"],
        hand3=["J♠", "10♦", "4♣"],
        turned=["7♥"],
    )


def bids(deal):
    """The bids the seat to move may make, as numbers (a bid's move says its number in letters)."""
    return [BID_OF_WORD[a.detail] for a in deal.legal_actions()]


def test_oh_7_the_worked_example_bids_plays_and_scores_as_the_rules_say():
    deal = worked_example()
    assert bids(deal) == [0, 1, 2, 3]  # OH-4.2 a bid from 0 to h
    deal.play("bid one")  # North
    deal.play("bid zero")  # East
    deal.play("bid one")  # South: S = 2
    assert deal.to_move == WEST and bids(deal) == [0, 2, 3]  # OH-4.3 the hook: not 1, the total would be 3
    with pytest.raises(IllegalAction, match=r"you may not bid 1 now: you may bid 0, 2, 3 \(OH-4.1 OH-4.2 OH-4.3\)"):
        deal.play("bid one")
    deal.play("bid zero")
    assert deal.to_move == NORTH  # OH-5.1 the player on the dealer's left leads
    for move in ("A♠", "5♠", "8♠", "J♠"):  # OH-7.3 everyone follows; North wins (OH-1.2: the ace is high)
        deal.play(f"play {move}")
    assert deal.to_move == NORTH
    deal.play("play K♦")
    deal.play("play 3♦")
    assert legal_cards(deal) == ["6♣", "Q♥"]  # void in diamonds: any card
    deal.play("play Q♥")  # South has no diamond and trumps (OH-5.2: nobody must)
    deal.play("play 10♦")
    assert deal.to_move == SOUTH  # OH-5.3 the only trump wins
    deal.play("play 6♣")
    deal.play("play 4♣")
    deal.play("play 2♥")  # North's last card, the only trump
    deal.play("play 9♣")
    assert deal.over
    counters = deal.state.counters
    assert [counters[f"tricks.{s}"] for s in range(4)] == [2, 0, 1, 0]  # OH-7.4
    assert scores(deal) == [0, 10, 11, 10]  # OH-6.1: North bid 1 and took 2


def test_oh_4_3_when_the_others_bid_more_than_h_the_dealer_may_bid_anything():
    deal = worked_example()
    for move in ("bid two", "bid one", "bid one"):  # OH-7.2: S = 4 > 3
        deal.play(move)
    assert bids(deal) == [0, 1, 2, 3]


def test_oh_4_1_a_bid_is_public_once_made_and_a_card_is_no_bid():
    deal = worked_example()
    with pytest.raises(IllegalAction, match="the players bid before play: a move is 'bid NUMBER'"):
        deal.play("play A♠")
    with pytest.raises(IllegalAction, match="you may not bid 4 now"):  # OH-4.2 at most h
        deal.play("bid four")
    deal.play("bid two")
    for seat in (EAST, SOUTH, WEST):  # OH-4.2 every bid is announced and recorded
        assert deal.view(seat).counters["bid.0"] == 2
    assert "bids: seat 0: 2, seat 1: -, seat 2: -, seat 3: -" in deal.game.standing(deal.view(EAST))


def hand_sizes(players):
    """The cards dealt in each hand of a match for ``players`` (OH-2.2), read from the script's rule."""
    game = variants[CLASSIC].new_game()
    ledger = Ledger(players)
    ends = game.rules.condition("match_ends")
    sizes = []
    state = variants[CLASSIC].new_deal(players, seed=1).state
    while True:
        ledger.deal_number += 1
        ctx = Ctx(game=game, state=state, ledger=ledger)
        sizes.append(int(game.hand_size(ctx)))
        if ends(ctx):
            return sizes


@pytest.mark.parametrize(("players", "largest"), [(3, 10), (4, 10), (5, 10), (6, 8), (7, 7)])
def test_oh_2_2_hands_go_down_from_m_to_one_and_back_up_once(players, largest):
    # OH-1.1 three to seven players; OH-6.3 the match ends after the last hand of the sequence
    sizes = hand_sizes(players)  # OH-2.1 M = floor(51 / n) capped at 10
    down = list(range(largest, 0, -1))
    assert sizes == down + down[::-1][1:]
    assert len(sizes) == 2 * largest - 1  # OH-2.2: 19, 15 or 13 hands


def test_oh_3_3_the_turned_card_is_trumps_and_the_stock_takes_no_part_in_play():
    # OH-3.3: the top undealt card is turned; its suit is trumps; it and the stock take no part in play
    deal = variants[CLASSIC].new_deal(4, seed=5)
    state = deal.state
    turned = state.zones["turned"]
    assert len(turned) == 1 and deal.game.trump_suit(state) == deal.game.suit_of[turned[0]]
    assert len(state.zones["stock"]) == 52 - 40 - 1  # the first hand: 10 cards each
    while not deal.over:
        deal.play(deal.legal_actions()[0])
    assert len(state.zones["stock"]) == 11 and state.zones["turned"] == turned  # nothing was drawn


def test_oh_3_1_the_deal_passes_left_and_oh_6_2_the_hands_scores_add_up_to_the_totals():
    from tapete import Match

    events: list[dict] = []
    result = Match(variants[CLASSIC], 4, 11, bots=["heuristic"] * 4).play(events.append)
    scored = [e for e in events if e.get("type") == "score"]
    dealers = [e["dealer"] for e in events if e.get("type") == "deal"]
    assert len(dealers) == 19 and all(
        b == (a + 1) % 4 for a, b in zip(dealers, dealers[1:], strict=False)
    )  # OH-3.1 to the left
    sums = [sum(int(e["scores"][str(s)]) for e in scored) for s in range(4)]
    assert sums == result.totals and len(scored) == 19  # OH-6.2 running totals from 0; OH-6.3 19 hands
