"""CT-V1..CT-V5: the documented variants, each a variant file; no invented "black ten"."""

from __future__ import annotations

from tapete import Ctx, Match
from tapete.core.ledger import Ledger

from .helpers import position, says, variants


def _sizes(variant, players):
    deal = variant.new_deal(players, seed=1)
    z = deal.state.zones
    return len(z["hand.0"]), len(z["table"]) + sum(len(z[f"captures.{s}"]) for s in range(players)), len(z["stock"])


def _value(variant, name):
    deck = variant.rules.deck
    return variant.new_game().point_of[deck.parse(name)]


def test_ct_v1_three_players():
    v = variants["three-player"]
    assert v.player_range() == (3, 3) and v.default_players() == 3
    assert _sizes(v, 3) == (8, 4, 24)  # CT-V1
    assert _value(v, "A♠") == 30 and _value(v, "A♣") == 0
    assert sum(v.new_game().point_of) == 240 and v.options["break_even"] == 80


def test_ct_v2_four_players():
    v = variants["four-player"]
    assert v.player_range() == (4, 4)
    assert _sizes(v, 4) == (6, 4, 24)  # CT-V2
    assert _value(v, "A♠") == 30 and _value(v, "A♣") == 40
    assert sum(v.new_game().point_of) == 280 and v.options["break_even"] == 70


def test_ct_v3_taiwan_dealer_plays_first_and_scores():
    v = variants["taiwan"]
    for seed in range(4):
        deal = v.new_deal(4, seed=seed)
        assert deal.to_move == deal.state.dealer  # CT-V3 the dealer plays first
    assert _value(v, "A♣") == 0 and _value(v, "A♠") == 30
    assert sum(v.new_game().point_of) == 240 and v.options["break_even"] == 60
    events = []
    Match(v, 4, seed=2).play(events.append)
    dealers = [e["dealer"] for e in events if e["type"] == "deal"]
    assert dealers == [(dealers[0] + i) % 4 for i in range(len(dealers))]  # the deal passes left


def test_ct_v3_taiwan_red_fives_bonus_is_an_event():
    v = variants["taiwan"]
    deal = position(v, players=4, hand0=["5♥", "K♠"], table=["5♦", "5♣"], stock=["Q♣", "J♣"])
    events = deal.play("capture 5♥ 5♦")
    assert says(events)[1] == "bonus red_fives: 10 from each other player"
    counters = deal.state.counters
    assert [counters.get(f"bonus.{s}", 0) for s in range(4)] == [30, -10, -10, -10]
    # not an event: a red 5 taking a black 5, or the red fives taken in two plays
    deal = position(v, players=4, hand0=["5♥", "K♠"], table=["5♣", "Q♦"], stock=["Q♣", "J♣"])
    deal.play("capture 5♥ 5♣")
    assert not any(k.startswith("bonus") for k in deal.state.counters)
    ctx = Ctx(game=deal.game, state=deal.state, ledger=Ledger(4))
    ctx.seat = 0
    assert v.rules.expr("score")(ctx) == deal.game.points(deal.state, 0) - 60


def test_ct_v3_the_bonus_also_counts_for_a_turned_card():
    v = variants["taiwan"]
    deal = position(v, players=4, hand0=["K♠", "Q♠"], table=["5♦"], stock=["Q♣", "5♥"])
    events = deal.play("play K♠")
    assert "bonus red_fives: 10 from each other player" in says(events)


def test_ct_v4_one_deal():
    assert variants["one-deal"].options["deals"] == 1  # CT-V4
    assert Match(variants["one-deal"], 2, seed=1).play().deals == 1


def test_ct_v5_main_merah_sizes():
    assert _sizes(variants["main-merah"], 2) == (10, 12, 20)  # CT-V5
    assert _sizes(variants["main-merah-three"], 3) == (7, 10, 21)
    for name in ("main-merah", "main-merah-three"):
        assert variants[name].rules.parsed_words("opening") == ("redeal", ("K", "Q", "J", "10", "5"))


def test_ct_v5_main_merah_worst_scorer_leads():
    v = variants["main-merah"]
    events = []
    Match(v, 2, seed=6).play(events.append)
    last_scores = None
    deals = dealer_led = 0
    for e in events:
        if e["type"] == "deal":
            deals += 1
            first = None
            current_dealer = e["dealer"]
        elif e["type"] == "action" and first is None:
            first = e["seat"]
            dealer_led += first == current_dealer
            if last_scores is None:
                assert first == 1 - current_dealer  # first deal: the non-dealer
            elif last_scores[0] != last_scores[1]:
                assert first == min((0, 1), key=lambda s: last_scores[s])  # the worst scorer
            else:
                assert first == 1 - current_dealer  # a drawn deal: the non-dealer
        elif e["type"] == "score":
            last_scores = [e["scores"]["0"], e["scores"]["1"]]
    assert deals == 6 and dealer_led > 0  # the rule is not just "the non-dealer leads"


def test_no_black_ten_is_invented():
    # The CardRulesPlus "black ten" has no public description: no variant gives black tens
    # (or any black card but the aces CT-V1/V2/V3 name) a value.
    for name, v in variants.items():
        deck, points = v.rules.deck, v.new_game().point_of
        for card in deck.ids:
            if deck.suit_of[card] in "♣♠" and deck.rank_of[card] != "A":
                assert points[card] == 0, (name, deck.names[card])
