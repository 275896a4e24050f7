"""The heuristic bot: draws, discards and closes as a careful player would."""

from __future__ import annotations

from chinchon_helpers import make_deal, variant

from tapete import Match, Random
from tapete_plugins.chinchon.bots import HeuristicBot

OPPONENT = "2♣ 3♦ 4♠ 6♣ J♦ Q♣ K♥"


def choice(deal):
    bot = HeuristicBot(deal.game, deal.to_move, Random(1))
    return bot.choose(deal.view(), deal.legal_actions()).text(deal.game.deck)


def test_takes_the_discard_when_it_lowers_the_penalty():
    deal = make_deal(["3♥ 4♥ 7♣ 7♦ K♠ Q♠ J♣", OPPONENT], stock="A♣ A♠", discard="5♥")
    assert choice(deal) == "draw discard"


def test_draws_from_the_stock_when_the_discard_does_not_help():
    deal = make_deal(["3♥ 4♥ 7♣ 7♦ K♠ Q♠ J♣", OPPONENT], stock="A♣ A♠", discard="K♦")
    assert choice(deal) == "draw stock"


def test_discards_the_costly_loose_card_and_keeps_melds_and_pairs():
    deal = make_deal(["3♥ 4♥ 5♥ 7♣ 7♦ K♠ Q♠", OPPONENT], stock="A♦ J♣", discard="5♦")
    deal.play("draw stock")
    assert choice(deal) == "discard K♠"


def test_closes_when_allowed_and_prefers_a_full_close():
    deal = make_deal(["3♥ 4♥ 5♥ 7♣ 7♦ 7♠ A♦", OPPONENT], stock="A♠ 6♥", discard="5♦")
    deal.play("draw stock")
    assert "close 6♥" in [a.text(deal.game.deck) for a in deal.legal_actions()]
    assert choice(deal) == "close A♦"


def test_beats_the_random_bot():
    v = variant()
    wins = 0
    for k in range(16):
        bots = ["heuristic", "random"] if k % 2 == 0 else ["random", "heuristic"]
        result = Match(v, 2, seed=f"bots-{k}", bots=bots).play()
        wins += bots[result.winner] == "heuristic"
    assert wins >= 15
