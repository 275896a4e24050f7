"""Fan Tan cards, players, dealing and the end of a deal and match: FT-1, FT-2, FT-4."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import variant

from tapete import Match, TapeteError

from .helpers import cards, fantan, legal


def test_ft_1_1_one_52_card_deck_for_3_to_8_players():
    """FT-1.1: one 52-card deck without jokers; 3-8 players, no fewer and no more."""
    v = variant("fantan/pagat")
    assert len(v.rules.deck) == 52 and "Jk" not in v.rules.deck.rank_of
    assert v.player_range() == (3, 8)
    for n in (2, 9):
        with pytest.raises(TapeteError, match="3-8 players"):
            v.new_deal(n, seed=1)


def test_ft_1_2_and_ft_4_1_playing_the_last_card_wins_the_deal_at_once():
    """FT-1.2 / FT-4.1: the first to empty their hand wins; rows stay unfinished, other hands don't matter."""
    deal = fantan(["8♥", "2♠ 3♠ 4♠", "5♠ 6♠"], rows={"♥": "7♥"})
    deal.play("play 8♥")
    assert deal.over
    assert cards(deal, 1) == ["2♠", "3♠", "4♠"]


def test_ft_1_3_ace_high_rows_grow_to_the_two_and_the_ace_without_wrapping():
    """FT-1.3: 2 3 ... K A; the ace goes above the king, never next to the two."""
    deal = fantan(["A♥ A♠", "2♣", "3♣"], rows={"♥": "7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥", "♠": "2♠ 3♠ 4♠ 5♠ 6♠ 7♠"})
    assert legal(deal) == {"play A♥"}


def test_ft_v1_low_ace_goes_below_the_two():
    """FT-V1: with the low ace, A♠ extends the spade row below the two and A♥ does not fit above K♥."""
    deal = fantan(
        ["A♥ A♠", "2♣", "3♣"], variant="fantan/low-ace", rows={"♥": "7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥", "♠": "2♠ 3♠ 4♠ 5♠ 6♠ 7♠"}
    )
    assert legal(deal) == {"play A♠"}


def test_ft_2_1_the_first_dealer_is_drawn_by_lot_and_play_goes_clockwise():
    """FT-2.1: the seed's lot picks every seat sometimes; play moves to the next seat clockwise."""
    v = variant("fantan/pagat")
    dealers = Counter(v.new_deal(4, seed=s).state.dealer for s in range(40))
    assert set(dealers) == {0, 1, 2, 3}
    deal = v.new_deal(4, seed=3)
    first = deal.to_move
    deal.play(deal.legal_actions()[0])
    assert deal.to_move == (first + 1) % 4


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_ft_2_2_all_cards_dealt_one_at_a_time_from_the_dealers_left(players):
    """FT-2.2: all 52 cards go to the hands, sizes differ by at most one, the extras start
    at the dealer's left; no stock, empty table."""
    deal = variant("fantan/pagat").new_deal(players, seed=players)
    st = deal.state
    sizes = [len(st.zones[f"hand.{s}"]) for s in range(players)]
    assert sum(sizes) == 52 and max(sizes) - min(sizes) <= 1
    extra = 52 % players
    left = [(st.dealer + k) % players for k in range(1, extra + 1)]
    assert all(sizes[s] == 52 // players + 1 for s in left)
    assert not any(st.zones[z] for z in st.zones if not z.startswith("hand."))
    assert "stock" not in st.zones


def test_ft_2_3_the_dealers_left_moves_first_not_the_holder_of_the_seven_of_diamonds():
    """FT-2.3: whoever holds 7♦, the player on the dealer's left starts."""
    v = variant("fantan/pagat")
    for seed in range(12):
        deal = v.new_deal(4, seed=seed)
        assert deal.to_move == (deal.state.dealer + 1) % 4


def test_ft_4_2_every_deal_has_exactly_one_winner():
    """FT-4.2: turns are sequential, so exactly one player goes out per deal."""
    result = Match(variant("fantan/pagat"), 5, seed=21).play()
    for deal in result.history:
        assert len(deal["won"]) == 1


def test_ft_4_3_first_to_three_deal_wins_takes_the_match():
    """FT-4.3: each deal won counts 1; the match ends when someone has 3."""
    for seed in range(4):
        result = Match(variant("fantan/pagat"), 4, seed=seed).play()
        assert result.deals_won[result.winner] == 3
        assert sorted(result.deals_won)[-2] < 3
        assert sum(result.deals_won) == result.deals


def test_ft_4_4_all_cards_gathered_and_the_deal_passes_left():
    """FT-4.4: every deal starts with all 52 cards dealt; the next dealer sits on the left."""
    events = []
    Match(variant("fantan/pagat"), 4, seed=8).play(events.append)
    deals = [e for e in events if e["type"] == "deal"]
    assert len(deals) >= 3
    for a, b in zip(deals, deals[1:], strict=False):
        assert b["dealer"] == (a["dealer"] + 1) % 4
    for d in deals:
        assert sum(len(v) for v in d["state"]["zones"].values()) == 52
