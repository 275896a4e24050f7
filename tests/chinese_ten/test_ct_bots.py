"""The greedy bot: most points taken, red cards denied; and it beats the random bot."""

from __future__ import annotations

from tapete import Match, Random
from tapete_plugins.chinese_ten.bots import GreedyBot

from .helpers import position, variants

two = variants["two-player"]


def _greedy_choice(deal):
    bot = GreedyBot(deal.game, deal.to_move, Random(0))
    return bot.choose(deal.view(), deal.legal_actions()).text(deal.game.deck)


def test_greedy_takes_the_red_card_when_it_has_the_choice():
    deal = position(two, hand0=["3♣", "K♠"], table=["7♠", "7♥"], stock=["Q♣", "J♣"], captures1=["2♣"])
    assert _greedy_choice(deal) == "capture 3♣ 7♥"


def test_greedy_picks_the_richest_target_for_a_turned_card():
    deal = position(two, hand0=["K♠"], table=["6♣", "6♦"], turned=["4♣"], stock=["Q♣"])
    assert _greedy_choice(deal) == "take 4♣ 6♦"


def test_greedy_prefers_the_bigger_capture():
    deal = position(two, hand0=["9♦", "2♣"], table=["A♥", "8♣"], stock=["Q♣", "J♣"])
    assert _greedy_choice(deal) == "capture 9♦ A♥"  # 30 points against 0


def test_greedy_does_not_give_a_red_ace_away():
    # Both cards capture nothing; the red ace left on the table is easy prey for a 9,
    # the black queen is worth nothing to anyone.
    deal = position(two, hand0=["A♥", "Q♠"], hand1=["5♣", "6♣"], table=["3♣"], stock=["2♠", "K♣"])
    assert _greedy_choice(deal) == "play Q♠"


def test_greedy_beats_random():
    v = variants["one-deal"]
    results = []
    for seed in range(30):
        for seat in (0, 1):
            bots = ["greedy", "random"] if seat == 0 else ["random", "greedy"]
            results.append(Match(v, 2, seed=seed, bots=bots).play().totals[seat])
    assert sum(results) / len(results) > 5
    assert sum(r > 0 for r in results) > len(results) // 2


def test_greedy_plays_every_variant():
    for name, v in variants.items():
        players = v.default_players()
        result = Match(v, players, seed=3, bots=["greedy"] * players).play()
        assert result.deals >= 1, name
