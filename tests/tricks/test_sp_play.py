"""Partnership Spades played literally: the worked example SP-7, nil, bags carried across deals.

Seats for the worked example, clockwise: 0 North, 1 East, 2 South, 3 West; North-South are seats
0 and 2 (SP-1.1: partners opposite). South deals, so West bids and leads first (SP-7.1).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tapete import Ctx, IllegalAction, Match
from tapete.core.ledger import Ledger

from .helpers import legal_cards, position, variants

CLASSIC = "spades/classic"
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3


def side_scores(counters, bags=(0, 0, 0, 0), totals=(0, 0, 0, 0), name=CLASSIC):
    """What the script's ``score`` and ``carry bags`` give each seat for a finished hand of ``name``."""
    deal = position(name, dealer=SOUTH, to_move=WEST, counters=counters)
    rules = deal.game.rules
    ledger = Ledger(4, list(totals))
    ledger.carried["bags"] = list(bags)
    ctx = Ctx(game=deal.game, state=deal.state, ledger=ledger)
    out = []
    for s in range(4):
        ctx.seat = s
        out.append((int(rules.expr("score")(ctx)), int(rules.expr("carry", "bags")(ctx))))
    return out


SP_7_3 = {"bid.3": 3, "bid.0": 4, "bid.1": 0, "bid.2": 2} | {"tricks.0": 5, "tricks.2": 3, "tricks.3": 4, "tricks.1": 1}


def test_sp_7_3_a_made_contract_scores_ten_a_trick_and_a_bag_an_overtrick_and_a_failed_nil_costs_100():
    # SP-7.3, worked out by the script's score and carry
    scores = side_scores(SP_7_3)
    assert scores[NORTH] == scores[SOUTH] == (62, 2)  # SP-5.2: 8 counted against 6: 60 + 2, 2 bags
    # SP-5.1 East's nil trick counts for nothing; SP-5.2 West's 4 make 3: 31 and 1 bag; SP-5.4 the nil fails
    assert scores[EAST] == scores[WEST] == (31 - 100, 1)


def test_sp_7_4_ten_bags_cost_100_and_the_count_drops_by_ten():
    scores = side_scores(SP_7_3, bags=(8, 0, 8, 0), totals=(358, 0, 358, 0))
    assert scores[NORTH] == (62 - 100, 0)  # SP-5.5: 358 + 62 = 420 and 10 bags, then 320 and 0 bags


def test_sp_5_3_a_set_contract_loses_ten_a_trick_bid_and_gains_no_bags():
    scores = side_scores({"bid.0": 5, "bid.2": 4, "bid.1": 2, "bid.3": 2, "tricks.0": 3, "tricks.2": 5})
    assert scores[NORTH] == (-90, 0)  # SP-5.3: 8 taken against 9
    assert scores[EAST] == (-40, 0)  # no trick against 4


def test_sp_5_4_a_nil_made_scores_100_beside_the_partners_contract():
    scores = side_scores({"bid.1": 0, "bid.3": 4, "bid.0": 5, "bid.2": 4, "tricks.3": 4, "tricks.0": 9})
    assert scores[EAST] == (40 + 100, 0)


def test_sp_7_2_no_spade_is_led_until_spades_are_broken_and_a_side_bids_its_sum():
    deal = position(
        CLASSIC,
        dealer=SOUTH,
        to_move=WEST,
        counters={"bidding": 1, "bids": 0, "bids_made": 0, "dealt": 2, "trump": 4},
        hand3=["10♥", "A♠"],
        hand0=["3♠", "2♦"],
        hand1=["K♥", "5♦"],
        hand2=["5♥", "4♠"],
    )
    for move in ("bid one", "bid one", "bid zero", "bid zero"):  # SP-3.1 West first, South (dealer) last
        deal.play(move)
    # SP-4.1 the player on the dealer's left leads; SP-4.4 not broken: no spade led
    assert deal.to_move == WEST and legal_cards(deal) == ["10♥"]
    with pytest.raises(IllegalAction, match=r"SP-4.4"):
        deal.play("play A♠")
    for move in ("play 10♥", "play 3♠", "play K♥", "play 5♥"):  # SP-7.2 North trumps (SP-1.2, SP-4.3)
        deal.play(move)
    assert deal.to_move == NORTH and legal_cards(deal) == ["2♦"]
    assert deal.state.counters["broken"] == 1  # a spade played breaks spades


def test_sp_6_1_the_match_ends_at_500_with_the_bags_kept_in_the_ledger_and_the_log():
    result = Match(variants[CLASSIC], 4, 5, bots=["heuristic"] * 4).play()
    scores = [e for e in result.history if e.get("type") == "score"]
    totals = result.totals
    assert max(totals) >= 500 and totals[0] == totals[2] and totals[1] == totals[3]  # SP-3.3 a side scores
    assert all(0 <= b < 10 for e in scores for b in e["carried"]["bags"])  # SP-5.5 never ten left over
    assert scores[0]["totals"] == [int(scores[0]["scores"][str(s)]) for s in range(4)]  # SP-5.6 from 0
    assert all(max(e["totals"]) < 500 for e in scores[:-1])  # SP-6.1 checked at the end of each hand
    assert totals[result.winner] == max(totals)  # the side with the higher total (its first seat named)


def test_the_bags_are_saved_with_the_match_and_shown_when_it_resumes(tmp_path):
    # a person plays the first hand by the moves' numbers, then quits; the resumed match shows the bags
    typed = "1\n" * 14 + "quit\n"
    play = [sys.executable, "-m", "tapete", "play", CLASSIC, "--bots", "human,heuristic", "--seed", "3"]
    run = subprocess.run(play, input=typed, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert "; bags [" in run.stdout, run.stdout[-2000:]
    save = next(tmp_path.glob("*.tapete-save.json"))
    resumed = subprocess.run(
        [sys.executable, "-m", "tapete", "resume", save.name],
        input="\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    bags = [line for line in resumed.stdout.splitlines() if line.strip().startswith("bags:")]
    assert bags and "you" in bags[0], resumed.stdout[-2000:]


def test_sp_2_the_whole_deck_is_dealt_and_sp_3_the_bids_come_after_it():
    deal = variants[CLASSIC].new_deal(4, seed=8)
    state = deal.state
    assert all(len(state.zones[f"hand.{s}"]) == 13 for s in range(4)) and not state.zones.get("turned")  # SP-2.2
    assert deal.to_move == (state.dealer + 1) % 4  # SP-2.1 clockwise; SP-3.1 the dealer's left bids first
    # SP-3.2 0 (nil) to 13; SP-3.4 no bid before the cards: the bids open once every hand is dealt
    assert [a.detail for a in deal.legal_actions()][:2] == ["zero", "one"] and len(deal.legal_actions()) == 14


def test_sp_6_2_equal_totals_past_the_target_play_on():
    game = variants[CLASSIC].new_game()
    ledger = Ledger(4, [520, 520, 520, 520])  # SP-6.2: both sides past 500 with equal totals
    assert not game.rules.condition("match_ends")(Ctx(game=game, ledger=ledger))


def test_sp_5_5_the_search_scores_the_hands_it_imagines_with_the_bags_each_side_carries_in():
    """A side holding 9 bags that takes one more pays 100 (SP-5.5): ``ismcts`` must know the bags
    when it scores the deals it plays out, or an overtrick looks free to it. Its ledger comes
    from what the seat sees (the public counters of the carried values) and scores every
    finished hand as the match's own ledger does."""
    from tapete import Random
    from tapete.play.deal import Deal, start_deal
    from tapete.search.ismcts import ledger_seen
    from tapete.testing import variant

    v = variant(CLASSIC)
    game = v.new_game()
    search = v.record.bot("ismcts:reward=score")(v.new_game(), 0, Random(0))
    bagged = 0
    for seed in range(12):
        real = Ledger(4, [40, 30, 40, 30])
        real.carried["bags"] = [9, 8, 9, 8]
        deal = Deal(v, game, start_deal(game, 4, SOUTH, Random(seed), real))
        seen = ledger_seen(deal.view(NORTH))
        assert seen.carried == {"bags": [9, 8, 9, 8]}
        rng = Random(seed, "moves")
        while not deal.over:
            legal = deal.legal_actions()
            deal.play(legal[rng.below(len(legal))])
        for seat in range(4):
            assert search.reward_of(deal.state, seen, seat) == search.reward_of(deal.state, real, seat)
        bare = Ledger(4, [40, 30, 40, 30])  # what the search used to score with: no bags
        bagged += search.reward_of(deal.state, bare, NORTH) != search.reward_of(deal.state, real, NORTH)
    assert bagged > 0  # some of these hands did cost a side its bag penalty
