"""The shedder bot plays from its seat's view and beats random play."""

from __future__ import annotations

from tapete import Match


def test_the_shedder_beats_random_play(tapete_variant):
    v = tapete_variant("eights/pagat")
    wins = sum(Match(v, 2, seed, bots=["shedder", "random"]).play().winner == 0 for seed in range(30))
    assert wins >= 24  # 58 of 60 seeded matches when measured


def test_the_shedder_keeps_its_eight_and_names_its_longest_suit(tapete_deal):
    zones = {"hand.0": ["8♠", "5♣", "K♥", "Q♥", "J♥"], "hand.1": ["2♦", "3♦"], "discard": ["9♣"], "stock": ["4♦"]}
    deal = tapete_deal("eights/pagat", zones, counters={"drawn": 0, "stuck": 0}, data={"suit": "♣"})
    from tapete_crazy_eights.bots import ShedderBot

    bot = ShedderBot(deal.game, 0, None)
    assert deal.game.deck.format(bot.choose(deal.view(0), deal.legal_actions()).cards[0]) == "5♣"
    deal.play("play 5♣")
    deal.play("draw")
    deal.play("pass")
    choice = bot.choose(deal.view(0), deal.legal_actions())
    assert choice.text(deal.game.deck) == "play 8♠ ♥"  # nothing else fits: the eight names hearts, its suit
