"""Hearts' deal, scoring over a match, and every variant HE-V1...V12, each from its own file.

Seats clockwise: 0 South, 1 West, 2 North, 3 East.
"""

from __future__ import annotations

from tapete import Match

from .helpers import SOUTH, WEST, legal_cards, position, scores, variants

HEARTS = [f"{r}♥" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]


def text(deal, zone):
    return sorted(deal.game.deck.format(c) for c in deal.state.zones[zone])


def match_log(name, seed=1, **options):
    from tapete import load_variant

    events = []
    Match(load_variant(name, options=options or None), seed=seed, bots=["heuristic"]).play(events.append)
    return events


def test_he_1_and_2_2_one_52_card_deck_13_cards_each_ace_high():
    deal = variants["hearts/classic"].new_deal(seed=2)
    assert len(deal.game.deck) == 52  # HE-1.1 no jokers
    assert all(len(deal.state.zones[f"hand.{s}"]) == 13 for s in range(4))  # HE-2.2
    assert deal.game.rules.order[-1] == "A" and deal.game.rules.order[0] == "2"  # HE-1.2


def test_he_2_1_the_deal_passes_to_the_left_and_he_4_3_totals_run_on_to_the_limit_he_5_1():
    events = match_log("hearts/classic", seed=4)
    dealers = [e["dealer"] for e in events if e["type"] == "deal"]
    assert all(b == (a + 1) % 4 for a, b in zip(dealers, dealers[1:], strict=False))  # HE-2.1 clockwise
    scored = [e for e in events if e["type"] == "score"]
    running = [0, 0, 0, 0]
    for e in scored:  # HE-4.3 each hand's points are added to the running totals
        running = [t + e["scores"][str(s)] for s, t in enumerate(running)]
        assert e["totals"] == running
    assert max(scored[-1]["totals"]) >= 100 and all(max(e["totals"]) < 100 for e in scored[:-1])  # HE-5.1


def test_he_v1_no_passing_the_first_hand_is_played_as_dealt():
    # HE-V1
    deal = variants["hearts/no-passing"].new_deal(seed=1)
    assert {a.kind for a in deal.legal_actions()} == {"play"}


def test_he_v2_the_player_left_of_the_dealer_leads_any_club():
    # HE-V2
    deal = variants["hearts/any-club"].new_deal(seed=5, dealer=3, record=False)
    while deal.legal_actions()[0].kind == "pass":
        deal.play(deal.legal_actions()[0])
    assert deal.to_move == 0  # left of dealer 3
    clubs = [c for c in text(deal, "hand.0") if c.endswith("♣")]
    assert legal_cards(deal) == sorted(clubs, key=str) or (not clubs and legal_cards(deal))


def test_he_v3_penalty_cards_may_go_on_the_first_trick():
    # HE-V3
    deal = position(
        "hearts/points-first-trick", to_move=WEST, trick=["2♣"], counters={"lead": SOUTH}, hand1=["4♦", "Q♠"]
    )
    assert legal_cards(deal) == ["4♦", "Q♠"]


def test_he_v4_the_queen_does_not_break_hearts():
    # HE-V4
    deal = position(
        "hearts/queen-does-not-break",
        to_move=WEST,
        trick=["7♦"],
        counters={"played": 3, "lead": SOUTH},
        hand1=["Q♠", "5♣"],
    )
    deal.play("play Q♠")
    assert not deal.state.counters.get("broken")


def test_he_v5_the_shooter_subtracts_26():
    # HE-V5
    deal = position("hearts/moon-subtracts", taken3=[*HEARTS, "Q♠"])
    assert scores(deal) == [0, 0, 0, -26]


def test_he_v6_another_limit_ends_the_match():
    # HE-V6
    events = match_log("hearts/to-50", seed=2)
    assert variants["hearts/to-50"].options["limit"] == 50
    scored = [e for e in events if e["type"] == "score"]
    assert max(scored[-1]["totals"]) >= 50 and all(max(e["totals"]) < 50 for e in scored[:-1])


def test_he_v7_omnibus_the_jack_of_diamonds_counts_minus_ten_for_whoever_took_it():
    # HE-V7
    deal = position("hearts/omnibus", taken0=["J♦", "2♥"], taken1=["Q♠"])
    assert scores(deal) == [-9, 13, 0, 0]
    moon = position("hearts/omnibus", taken3=[*HEARTS, "Q♠", "J♦"])
    assert scores(moon) == [26, 26, 26, -10]  # the shooter keeps the jack's -10
    other = position("hearts/omnibus", taken3=[*HEARTS, "Q♠"], taken0=["J♦"])
    assert scores(other) == [16, 26, 26, 0]


def test_he_v8_black_maria_three_hands_of_17_without_the_two_of_clubs_and_43_points():
    # HE-V8
    deal = variants["hearts/black-maria"].new_deal(seed=3)
    assert all(len(deal.state.zones[f"hand.{s}"]) == 17 for s in range(3))
    assert text(deal, "removed") == ["2♣"] and deal.view(1).cards("removed")  # face up for everyone
    assert sum(deal.game.tables["penalty"]) == 43
    moon = position("hearts/black-maria", players=3, taken2=[*HEARTS, "Q♠", "K♠", "A♠"])
    assert scores(moon) == [43, 43, 0]
    plain = position("hearts/black-maria", players=3, taken0=["K♠", "A♠", "3♥"])
    assert scores(plain) == [18, 0, 0]


def test_he_v9_a_hand_without_a_trick_scores_minus_five_unless_somebody_shot_the_moon():
    # HE-V9
    deal = position("hearts/no-trick-bonus", counters={"tricks.0": 13}, taken0=["2♥"])
    assert scores(deal) == [1, -5, -5, -5]
    moon = position("hearts/no-trick-bonus", counters={"tricks.3": 13}, taken3=[*HEARTS, "Q♠"])
    assert scores(moon) == [26, 26, 26, 0]


def test_he_v10_a_hand_of_hearts_and_the_queen_may_lead_a_heart():
    # HE-V10
    hand = {"hand0": ["5♥", "Q♠"], "counters": {"played": 3}}
    assert legal_cards(position("hearts/classic", **hand)) == ["Q♠"]  # HE-3.5 alone: the queen
    assert legal_cards(position("hearts/hearts-instead-of-queen", **hand)) == ["5♥", "Q♠"]


def test_he_v11_three_players_without_the_two_of_diamonds_and_the_two_of_clubs_leads():
    # HE-V11
    v = variants["hearts/three-player"]
    deal = v.new_deal(seed=7)
    assert text(deal, "removed") == ["2♦"] and all(len(deal.state.zones[f"hand.{s}"]) == 17 for s in range(3))
    while deal.legal_actions()[0].kind == "pass":
        deal.play(deal.legal_actions()[0])
    assert legal_cards(deal) == ["2♣"]
    assert v.rules.parsed_words("pass_cycle") == ("left", "right", "hold")


def test_he_v12_five_players_ten_cards_each_and_the_three_of_clubs_leads():
    # HE-V12
    deal = variants["hearts/five-player"].new_deal(seed=8)
    assert text(deal, "removed") == ["2♣", "2♦"] and all(len(deal.state.zones[f"hand.{s}"]) == 10 for s in range(5))
    while deal.legal_actions()[0].kind == "pass":
        deal.play(deal.legal_actions()[0])
    assert legal_cards(deal) == ["3♣"] and "3♣" in text(deal, f"hand.{deal.to_move}")


def test_every_variant_is_a_file_on_the_family():
    # no Python per variant: each is its yaml (and rule script) on the one Tricks class
    names = [n for n in variants["hearts/classic"].registry.variants() if n.split("/")[0] in ("hearts", "briscola")]
    assert len(names) == 19  # Hearts: classic, HE-V1...V12, hearts-any-time; Briscola: classic, BR-V1...V4
    assert {type(variants[n].new_game()).__name__ for n in names} == {"Tricks"}
