"""tapete's Oh Hell and Spades deal by deal against OpenSpiel's ``oh_hell`` and ``spades``.

Runs when the ``bench`` extra (open-spiel) is installed. Each tapete deal (random bids and
plays on a fixed seed) is set up in OpenSpiel with the same hands, dealer and turned trump,
then every move is mirrored: at every decision both must offer the same player the same
bids (the hook included, OH-4.3; the partnership cap, SP-V6) or cards (following suit,
OH-5.2, SP-4.2; spades never broken, SP-V7), and at the end the hand's returns must equal
tapete's scores (OH-V6 or OH-V7 points; SP-5 with SP-V5, SP-V8). OpenSpiel's parameters map
to the tapete twins ``oh-hell/openspiel`` (OH-V2 + OH-V6; ``--option cards=N per_trick=P``),
``oh-hell/openspiel-penalty`` (``off_bid_penalty=true``, OH-V7) and ``spades/openspiel``
(SP-V8). The everyday run mirrors a few deals of each; the slow run 1,000 of each game
(``TAPETE_OPENSPIEL_DEALS``).
"""

from __future__ import annotations

import os

import pytest
from openspiel_contracts import BID, Twin, dealt_in_turn, oh_hell_codes, spades_codes

from tapete import Ctx, Random, load_variant
from tapete.core.ledger import Ledger
from tapete_plugins.tricks.bidding import BID_OF_WORD

SLOW_DEALS = int(os.environ.get("TAPETE_OPENSPIEL_DEALS", "1000"))
QUICK_DEALS = 6


def _scores(deal):
    score = deal.game.rules.expr("score")
    ledger = Ledger(deal.state.players)
    ctx = Ctx(game=deal.game, state=deal.state, ledger=ledger)
    out = []
    for s in range(deal.state.players):
        ctx.seat = s
        out.append(int(score(ctx)))
    return out


def mirror(deal, twin, code, rng):
    """Play ``deal`` at random with the twin alongside; the same legal moves at every decision."""
    steps = 0
    while not deal.over:
        legal = deal.legal_actions()
        mine = {BID + BID_OF_WORD[a.detail] if a.kind == "bid" else code[a.cards[0]] for a in legal}
        assert twin.to_move == deal.to_move, f"step {steps}: OpenSpiel's player {twin.to_move}"
        assert twin.legal() == mine, f"step {steps}, seat {deal.to_move}: {sorted(twin.legal())} != {sorted(mine)}"
        action = legal[rng.below(len(legal))]
        deal.play(action)
        twin.move(BID + BID_OF_WORD[action.detail] if action.kind == "bid" else code[action.cards[0]])
        steps += 1
    assert twin.over
    return twin.returns()


def oh_hell_deal(name, players, cards, per_trick, seed):
    variant = load_variant(name, options={"cards": cards, "per_trick": per_trick})
    deal = variant.new_deal(players, seed=seed)
    state = deal.state
    code = oh_hell_codes(deal.game.deck)
    hands = [[code[c] for c in state.zones[f"hand.{s}"]] for s in range(players)]
    trump = code[state.zones["turned"][0]]
    off = name.endswith("penalty")
    params = {"players": players, "num_tricks_fixed": cards, "points_per_trick": per_trick, "off_bid_penalty": off}
    twin = Twin("oh_hell", params, [cards, state.dealer, *dealt_in_turn(hands), trump])
    returns = mirror(deal, twin, code, Random(seed, "mirror"))
    assert returns == _scores(deal), f"seed {seed}: OpenSpiel {returns}, tapete {_scores(deal)}"


def spades_deal(seed):
    deal = load_variant("spades/openspiel").new_deal(4, seed=seed)
    state = deal.state
    assert state.dealer == 3 and deal.to_move == 0  # SP-V8: West deals, North bids first
    code = spades_codes(deal.game.deck)
    hands = [[code[c] for c in state.zones[f"hand.{s}"]] for s in range(4)]
    twin = Twin("spades", {}, dealt_in_turn(hands))
    returns = mirror(deal, twin, code, Random(seed, "mirror"))
    assert returns == _scores(deal), f"seed {seed}: OpenSpiel {returns}, tapete {_scores(deal)}"


def oh_hell_cases(count):
    """(variant, players, cards, per_trick, seed): every player count, hand sizes up to 51 / n, both scorings."""
    rng = Random(29, "oh-hell cases")
    out = []
    for i in range(count):
        players = 3 + i % 5
        name = "oh-hell/openspiel-penalty" if i % 3 == 2 else "oh-hell/openspiel"
        out.append((name, players, 1 + rng.below(51 // players), 1 + rng.below(3), i))
    return out


@pytest.mark.parametrize("case", oh_hell_cases(QUICK_DEALS), ids=lambda c: f"{c[0]}-{c[1]}p-{c[2]}")
def test_oh_hell_agrees_with_openspiel_on_every_decision_and_the_points(case):
    oh_hell_deal(*case)


@pytest.mark.parametrize("seed", range(QUICK_DEALS))
def test_spades_agrees_with_openspiel_on_every_decision_and_the_scores(seed):
    spades_deal(seed)


@pytest.mark.slow
def test_oh_hell_agrees_with_openspiel_over_a_thousand_deals():
    for case in oh_hell_cases(SLOW_DEALS):
        oh_hell_deal(*case)


@pytest.mark.slow
def test_spades_agrees_with_openspiel_over_a_thousand_deals():
    for seed in range(SLOW_DEALS):
        spades_deal(seed)
