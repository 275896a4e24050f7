"""CT-3: the opening-table specials for K, Q, J, 10 and 5 only; CT-V5's redeal instead."""

from __future__ import annotations

import pytest

from tapete import Ctx, Deal, DealState

from .helpers import legal, names, play_out, position, says, variants

two = variants["two-player"]

SPECIAL = ["K", "Q", "J", "10", "5"]
OTHER = ["A", "2", "3", "4", "6", "7", "8", "9"]
SUITS = "♣♦♥♠"


class Stacked:
    """Stands in for the shuffle: each deal gets the next prepared order of the pack."""

    def __init__(self, *orders):
        self.orders = list(orders)

    def shuffle(self, cards):
        cards[:] = self.orders.pop(0)


def stacked_order(deck, table, hands=2, hand=12):
    """A pack order that deals ``table`` face up (hands come off the top first, CT-1.3)."""
    ids = [deck.parse(n) for n in table]
    rest = [c for c in deck.ids if c not in ids]
    dealt = hands * hand
    return rest[: len(rest) - dealt] + ids[::-1] + rest[len(rest) - dealt :]


def deal_with_table(variant, *tables, dealer=1):
    game = variant.new_game()
    hand = game.sizes[0].value
    players = variant.default_players()
    state = DealState(players=players, dealer=dealer)
    orders = [stacked_order(game.deck, t, players, hand) for t in tables]
    game.deal(state, Stacked(*orders), Ctx(game=game, state=state))
    state.to_move = game.next_seat(state, dealer)
    return Deal(variant, game, state)


@pytest.mark.parametrize("rank", SPECIAL)
def test_ct3_1_opening_triple_is_remembered_for_its_fourth_card(rank):
    triple = [rank + s for s in "♣♦♥"]
    deal = deal_with_table(two, triple + ["2♣"])
    assert names(deal, "table") == triple + ["2♣"]
    assert deal.state.data["triples"] == [rank]  # CT-3.1


@pytest.mark.parametrize("rank", SPECIAL)
def test_ct3_1_the_fourth_card_from_hand_takes_all_three(rank):
    triple = [rank + s for s in "♣♦♥"]
    deal = position(two, hand0=[rank + "♠", "2♦"], table=triple + ["9♣"], stock=["A♣", "4♣"], data={"triples": [rank]})
    fourth = f"capture {rank}♠ " + " ".join(triple)
    assert fourth in legal(deal)
    assert not any(a.startswith(f"capture {rank}♠") and a != fourth for a in legal(deal))
    events = deal.play(fourth)
    assert says(events)[0].startswith(f"plays {rank}♠, takes {' '.join(triple)}")
    assert names(deal, "captures.0")[:4] == [rank + "♠"] + triple
    assert "triples" not in deal.state.data  # used once (CT-3.3)


@pytest.mark.parametrize("rank", SPECIAL)
def test_ct3_1_the_fourth_card_from_the_stock_takes_all_three(rank):
    triple = [rank + s for s in "♣♦♥"]
    deal = position(two, hand0=["9♣", "2♦"], table=triple + ["A♣"], stock=["8♣", rank + "♠"], data={"triples": [rank]})
    events = deal.play("capture 9♣ A♣")
    assert says(events) == [f"plays 9♣, takes A♣; turns {rank}♠, takes {' '.join(triple)}"]
    assert names(deal, "table") == []
    assert names(deal, "captures.0") == ["9♣", "A♣", rank + "♠"] + triple


@pytest.mark.parametrize("rank", SPECIAL)
def test_ct3_2_opening_quad_goes_to_the_dealer(rank):
    quad = [rank + s for s in SUITS]
    deal = deal_with_table(two, quad, dealer=1)
    assert names(deal, "table") == []  # CT-3.2 play starts from empty
    assert sorted(names(deal, "captures.1")) == sorted(quad)  # the dealer takes all four
    assert names(deal, "captures.0") == []
    assert deal.state.data["quads"] == [rank]
    assert deal.to_move == 0 and len(names(deal, "hand.0")) == 12
    assert any("took them" in line for line in deal.game.describe_deal(deal.state))
    play_out(deal)
    assert deal.state.zones["table"] == []  # and it still ends cleanly


@pytest.mark.parametrize("rank", OTHER)
def test_ct3_3_no_special_for_other_ranks(rank):
    triple = [rank + s for s in "♣♦♥"]
    filler = "K♠"
    deal = deal_with_table(two, triple + [filler])
    assert "triples" not in deal.state.data  # e.g. three 7s: nothing special
    quad = deal_with_table(two, [rank + s for s in SUITS])
    assert len(quad.state.zones["table"]) == 4 and "quads" not in quad.state.data
    assert quad.state.zones["captures.1"] == []


def test_ct3_3_three_sevens_are_taken_one_at_a_time():
    deal = position(two, hand0=["3♠"], table=["7♣", "7♦", "7♥", "K♠"], stock=["Q♣"])
    assert legal(deal) == sorted(["capture 3♠ 7♣", "capture 3♠ 7♦", "capture 3♠ 7♥"])


def test_ct3_3_a_triple_not_from_the_opening_is_no_special():
    # three kings on the table without the opening record: the fourth takes one, by choice
    deal = position(two, hand0=["K♠"], table=["K♣", "K♦", "K♥"], stock=["2♣"])
    assert legal(deal) == sorted(["capture K♠ K♣", "capture K♠ K♦", "capture K♠ K♥"])


def test_ct3_4_no_last_capture_takes_the_rest():
    # the last turn of a deal (a made-up table): what is left on the table goes to nobody
    deal = position(two, hand0=[], hand1=["K♠"], table=["K♥", "4♦"], stock=["9♣"], to_move=1)
    deal.play("capture K♠ K♥")
    assert deal.over
    assert names(deal, "captures.1") == ["K♠", "K♥"]
    assert names(deal, "table") == ["4♦", "9♣"]


def test_ct_v5_main_merah_redeals_instead_of_specials():
    mm = variants["main-merah"]
    crowded = ["K♣", "K♦", "K♥", "2♣", "3♣", "4♣", "6♣", "7♣", "8♣", "9♣", "A♣", "J♦"]
    fine = ["K♣", "K♦", "Q♥", "2♣", "3♣", "4♣", "6♣", "7♣", "8♣", "9♣", "A♣", "J♦"]
    deal = deal_with_table(mm, crowded, crowded[:3] + ["5♣", "5♦", "5♥", "5♠"] + crowded[3:8], fine)
    assert deal.state.counters["redeals"] == 2  # three Ks, then four 5s: redealt
    assert names(deal, "table") == fine
    assert "triples" not in deal.state.data and "quads" not in deal.state.data
    assert len(names(deal, "hand.0")) == 10 and len(names(deal, "stock")) == 20
    assert any("redealt 2" in line for line in deal.game.describe_deal(deal.state))
