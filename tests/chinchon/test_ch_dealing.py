"""Cards, players and dealing in the Fournier profile (CH-1, CH-2)."""

from __future__ import annotations

import pytest
from chinchon_helpers import variant

from tapete import Match, Random, TapeteError
from tapete.core.rng import derive_seed


def test_ch_1_1_two_to_four_players():
    """CH-1.1: two to four players."""
    v = variant()
    assert v.player_range() == (2, 4)
    for players in (2, 3, 4):
        assert v.new_deal(players, seed=1).state.players == players
    for players in (1, 5):
        with pytest.raises(TapeteError, match="2-4 players"):
            v.new_deal(players, seed=1)


def test_ch_1_2_forty_card_spanish_deck():
    """CH-1.2: forty card spanish deck."""
    deck = variant().rules.deck
    assert len(deck) == 40 and deck.jokers == 0
    assert deck.ranks == ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
    # both notations of the rules document are accepted: ♦ = oros, and letters
    assert deck.parse("7♦") == deck.parse("7D")


def test_ch_1_3_run_order_ace_low_and_no_wrap():
    """CH-1.3: run order ace low and no wrap."""
    v = variant()
    assert v.rules.order == ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
    game, deck = v.new_game(), v.rules.deck
    kinds = lambda text: game.solver.meld_kinds(deck.parse_all(text.split()))
    assert kinds("A♥ 2♥ 3♥") == ("run",)
    assert kinds("Q♥ K♥ A♥") == ()  # the ace is low only
    assert kinds("K♥ A♥ 2♥") == ()  # K-A does not wrap
    assert kinds("7♥ J♥ Q♥") == ("run",)  # CH-3.2 no 8 or 9: 7 and J are neighbours


def test_ch_1_4_penalty_values():
    """CH-1.4: penalty values."""
    v = variant()
    value, deck = v.rules.table("value"), v.rules.deck
    expect = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}
    for card in deck.ids:
        assert value[card] == expect[deck.rank_of[card]], deck.format(card)


def test_ch_2_1_first_player_by_lot_and_the_dealer_on_their_left():
    """CH-2.1: first player by lot and the dealer on their left."""
    v = variant()
    dealers = set()
    for seed in range(40):
        deal = v.new_deal(4, seed=seed)
        first, dealer = deal.state.to_move, deal.state.dealer
        dealers.add(dealer)
        # seats are numbered clockwise, so the left neighbour of seat s is s + 1
        assert dealer == (first + 1) % 4
    assert dealers == {0, 1, 2, 3}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ch_2_2_seven_each_counterclockwise_then_one_face_up(players):
    """CH-2.2: seven each counterclockwise then one face up."""
    v = variant()
    deal = v.new_deal(players, seed=11)
    state = deal.state
    # replay the shuffle: the dealer gives one card at a time, counter-clockwise,
    # starting with the first player; the next card starts the discard pile.
    cards = list(v.rules.deck.ids)
    Random(derive_seed(11, "deal", 1)).shuffle(cards)
    hands = {s: [] for s in range(players)}
    seat = state.to_move
    for _ in range(7 * players):
        hands[seat].append(cards.pop())
        seat = (seat - 1) % players
    for s in range(players):
        assert state.zones[f"hand.{s}"] == hands[s]
    assert state.zones["discard"] == [cards.pop()]
    assert state.zones["stock"] == cards
    assert len(cards) == 40 - 7 * players - 1
    assert state.zones["facedown"] == []


def test_ch_2_3_the_deal_passes_to_the_right():
    """CH-2.3: the deal passes to the right."""
    events = []
    Match(variant(), 3, seed=4, bots=["heuristic"]).play(events.append)
    deals = [e for e in events if e["type"] == "deal"]
    scores = [e for e in events if e["type"] == "score"]
    assert len(deals) >= 3
    for before, after, scored in zip(deals, deals[1:], scores, strict=False):
        if not any(scored["out"]):
            assert after["dealer"] == (before["dealer"] - 1) % 3
