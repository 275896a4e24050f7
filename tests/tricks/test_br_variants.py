"""Briscola's deck, deal and match, and every variant BR-V1...V4, each from its own file."""

from __future__ import annotations

from tapete import Ctx, Match, load_variant
from tapete.core.ledger import Ledger

from .helpers import position, variants


def text(deal, zone):
    return sorted(deal.game.deck.format(c) for c in deal.state.zones[zone])


def won(deal):
    rules, n = deal.game.rules, deal.state.players
    ctx = Ctx(game=deal.game, state=deal.state, ledger=Ledger(n))
    return [s for s in range(n) if rules.condition("won")(ctx.for_seat(s))]


def test_br_1_the_italian_deck_its_order_and_its_120_points():
    game = variants["briscola/classic"].new_game()
    assert len(game.deck) == 40 and game.step == -1  # BR-1.1 40 cards, play goes to the right
    assert list(reversed(game.rules.order)) == ["A", "3", "K", "Q", "J", "7", "6", "5", "4", "2"]  # BR-1.2
    assert sum(game.tables["points"]) == 120  # BR-1.3


def test_br_2_three_cards_each_the_turned_card_is_trumps_and_the_non_dealer_leads():
    deal = variants["briscola/classic"].new_deal(seed=6, dealer=1)
    assert [len(deal.state.zones[f"hand.{s}"]) for s in (0, 1)] == [3, 3]  # BR-2.2
    turned = deal.state.zones["turned"]
    assert len(turned) == 1 and len(deal.state.zones["stock"]) == 33
    trump = deal.game.deck.suits[deal.state.counters["trump"] - 1]
    assert deal.game.deck.suit_of[turned[0]] == trump and deal.view(0).cards("turned") == tuple(turned)
    assert deal.to_move == 0  # BR-3.1 the non-dealer (the dealer's next seat) leads


def test_br_2_1_the_deal_passes_on_and_br_4_2_two_deals_won_take_the_match():
    # BR-2.1 the deal passes to the next player; BR-4.2 the first to win two deals takes the match
    events = []
    result = Match(variants["briscola/classic"], seed=3, bots=["heuristic"]).play(events.append)
    dealers = [e["dealer"] for e in events if e["type"] == "deal"]
    assert all(a != b for a, b in zip(dealers, dealers[1:], strict=False))
    assert max(result.deals_won) == 2 and result.deals_won[result.winner] == 2


def test_br_3_5_the_last_three_tricks_are_played_from_the_hands():
    # BR-3.5: once the stock is gone, three tricks are left in the hands, played by BR-3.2 and BR-3.3
    deal = variants["briscola/classic"].new_deal(seed=2, record=False)
    while deal.state.zones["stock"] or deal.state.zones["turned"]:
        deal.play(deal.legal_actions()[0])
    assert sorted(len(deal.state.zones[f"hand.{s}"]) for s in (0, 1)) == [3, 3]
    while not deal.over:
        deal.play(deal.legal_actions()[0])
    assert sum(len(deal.state.zones[f"taken.{s}"]) for s in (0, 1)) == 40


def test_br_v1_partners_tricks_count_together():
    # BR-V1
    # 40 + 21 for seats 0 and 2 together: 61 wins the deal for the side (BR-V1)
    deal = position(
        "briscola/four-player",
        players=4,
        taken0=["A♦", "3♦", "K♦", "A♥", "Q♥", "J♥"],
        taken2=["A♠", "3♠"],
    )
    assert won(deal) == [0, 2]
    assert variants["briscola/four-player"].new_game().teams == 2


def test_br_v2_three_players_a_two_removed_and_the_most_points_win():
    # BR-V2
    v = variants["briscola/three-player"]
    deal = v.new_deal(seed=4)
    assert text(deal, "removed") == ["2♦"] and len(deal.state.zones["stock"]) == 29
    other = load_variant("briscola/three-player", options={"removed": "2♣"}).new_deal(seed=4)
    assert text(other, "removed") == ["2♣"]  # BR-V2 the option names which 2
    tie = position("briscola/three-player", players=3, taken0=["A♦", "3♦"], taken1=["A♠", "3♠"], taken2=["K♦"])
    assert won(tie) == []  # a tie at the top is a drawn deal
    assert won(position("briscola/three-player", players=3, taken0=["A♦"], taken1=["K♠"])) == [0]


def test_br_v3_three_deals_won_take_the_match():
    # BR-V3
    result = Match(variants["briscola/to-3"], seed=3, bots=["heuristic"]).play()
    assert max(result.deals_won) == 3


def test_br_v4_the_seven_of_trumps_is_exchanged_for_the_turned_card_while_two_cards_are_left():
    # BR-V4
    cups = {"trump": 1 + variants["briscola/cambio"].rules.deck.suits.index("♥")}
    zones = {"hand0": ["7♥", "A♠", "2♣"], "hand1": ["3♠", "4♦", "5♣"], "turned": ["K♥"]}
    deal = position("briscola/cambio", players=2, dealer=1, to_move=0, counters=cups, stock=["6♦"], **zones)
    assert "exchange 7♥" in [a.text(deal.game.deck) for a in deal.legal_actions()]
    deal.play("exchange 7♥")
    assert text(deal, "turned") == ["7♥"] and "K♥" in text(deal, "hand.0")
    assert {a.kind for a in deal.legal_actions()} == {"play"}  # at most once, then play
    late = position("briscola/cambio", players=2, dealer=1, to_move=0, counters=cups, stock=[], **zones)
    assert {a.kind for a in late.legal_actions()} == {"play"}  # only the turned card left: no exchange
