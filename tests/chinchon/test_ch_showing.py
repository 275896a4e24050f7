"""Showing melds and laying off after a close (CH-5) and the worked example (CH-7)."""

from __future__ import annotations

from chinchon_helpers import make_deal, names, rule, shown_melds


def closed(hands, draw, discard, to_move=0, stock_under="J♣", pile="", name="fournier"):
    """Seat ``to_move`` draws ``draw`` from the stock and closes discarding ``discard``."""
    deal = make_deal(hands, stock=f"{stock_under} {draw}", discard=pile, to_move=to_move, name=name)
    deal.play("draw stock")
    deal.play(f"close {discard}")
    assert deal.over
    return deal


def by_of(deal, card):
    """Who put each card of the meld holding ``card`` on the table."""
    for k, m in enumerate(deal.state.data["melds"]):
        if card in names(deal, f"meld.{k}"):
            return m["by"]
    raise AssertionError(f"{card} is in no meld")


def test_ch_7_worked_example_full_close_24_becomes_14_and_nobody_adds():
    """CH-7: worked example full close 24 becomes 14 and nobody adds."""
    deal = closed(["3♥ 4♥ 5♥ 7♣ 7♦ 7♠ A♦", "2♥ 7♥ K♣ K♦ Q♠ J♠ 5♣"], draw="6♥", discard="A♦", pile="Q♦")
    assert deal.snapshot()["zones"] == {
        "hand.0": [],
        "hand.1": ["5♣", "K♣", "K♦", "2♥", "7♥", "J♠", "Q♠"],  # 2♥ and 7♥ would fit, but no
        "stock": ["J♣"],
        "discard": ["Q♦"],
        "facedown": ["A♦"],
        "meld.0": ["7♣", "7♦", "7♠"],
        "meld.1": ["3♥", "4♥", "5♥", "6♥"],
    }
    assert deal.state.data["melds"][0]["sealed"] and deal.state.data["melds"][1]["sealed"]
    counters = deal.state.counters
    assert counters["full_close"] == 1 and counters["chinchon"] == 0
    assert rule(deal, "score", 0) == -10
    assert 24 + rule(deal, "score", 0) == 14
    assert rule(deal, "score", 1) == 2 + 7 + 10 + 10 + 9 + 8 + 5
    # the match does not end because of it: no outright win, and 14 is far from out
    assert deal.variant.rules.condition("wins_match") is None
    assert not rule(deal, "out", 0, kind="condition", totals=[14, 51])


def test_ch_5_1_the_closer_shows_first_then_the_others_in_turn_order():
    """CH-5.1: the closer shows first then the others in turn order."""
    deal = closed(
        ["A♣ 2♣ 3♣ K♥ K♦ Q♥ Q♠", "4♥ 5♥ 6♥ J♣ J♦ J♠ A♠", "2♦ 3♦ 4♦ K♠ Q♣ J♥ 7♣"],
        draw="A♦",
        discard="A♠",
        to_move=1,
        stock_under="6♠",
    )
    # seat 1 closes, then seat 0 shows, then seat 2 (counter-clockwise)
    assert [owner for owner, _ in shown_melds(deal)] == [1, 1, 0, 2]
    assert (1, ["J♣", "J♦", "J♥", "J♠"]) in shown_melds(deal)  # seat 2 adds J♥
    assert (2, ["A♦", "2♦", "3♦", "4♦"]) in shown_melds(deal)  # the closer adds A♦


def test_ch_5_2_lay_off_on_groups_and_both_ends_of_runs_in_a_chain():
    """CH-5.2: lay off on groups and both ends of runs in a chain."""
    deal = closed(["3♥ 4♥ 5♥ Q♣ Q♦ Q♠ A♣", "2♥ 6♥ 7♥ Q♥ 5♠ K♦ J♦"], draw="A♠", discard="A♠", stock_under="6♠")
    melds = shown_melds(deal)
    assert (0, ["2♥", "3♥", "4♥", "5♥", "6♥", "7♥"]) in melds  # below, above, and 7♥ after 6♥
    assert (0, ["Q♣", "Q♦", "Q♥", "Q♠"]) in melds
    assert names(deal, "hand.1") == ["J♦", "K♦", "5♠"]
    assert by_of(deal, "3♥") == [1, 0, 0, 0, 1, 1]  # who put each card there


def test_ch_5_3_matched_cards_never_move():
    """CH-5.3: matched cards never move."""
    # seat 1 holds 4♣ 4♦: the closer's 4♥ would make them a group, but shown cards stay put
    deal = closed(["3♥ 4♥ 5♥ Q♣ Q♦ Q♠ A♣", "4♣ 4♦ 7♠ K♦ K♥ J♦ J♠"], draw="A♠", discard="A♠", stock_under="6♠")
    assert sorted(shown_melds(deal)) == [(0, ["3♥", "4♥", "5♥"]), (0, ["Q♣", "Q♦", "Q♠"])]
    assert names(deal, "hand.1") == ["4♣", "4♦", "J♦", "K♦", "K♥", "7♠", "J♠"]
    assert rule(deal, "score", 1) == 4 + 4 + 8 + 10 + 10 + 7 + 8


def test_ch_5_4_a_full_closers_melds_are_sealed_but_other_melds_stay_open():
    """CH-5.4: a full closer's melds are sealed but other melds stay open."""
    # seat 0 closes with all seven matched; seat 2 then shows 2♠ 3♠ 4♠; seat 1 holds
    # 7♥ and 2♥, which would fit the closer's melds, and 5♠, which fits seat 2's run
    deal = closed(
        ["3♥ 4♥ 5♥ 7♣ 7♦ 7♠ A♦", "5♠ 7♥ 2♥ K♦ Q♥ J♣ 2♦", "2♠ 3♠ 4♠ K♣ Q♣ J♦ 6♦"],
        draw="6♥",
        discard="A♦",
        stock_under="3♣",
    )
    assert deal.state.counters["full_close"] == 1
    assert shown_melds(deal) == [(0, ["7♣", "7♦", "7♠"]), (0, ["3♥", "4♥", "5♥", "6♥"]), (2, ["2♠", "3♠", "4♠", "5♠"])]
    assert [m.get("sealed", False) for m in deal.state.data["melds"]] == [True, True, False]
    assert names(deal, "hand.1") == ["J♣", "2♦", "K♦", "2♥", "7♥", "Q♥"]


def test_ch_5_5_only_the_cards_left_unmatched_are_counted():
    """CH-5.5: only the cards left unmatched are counted."""
    deal = closed(["3♥ 4♥ 5♥ Q♣ Q♦ Q♠ A♣", "2♥ 6♥ 7♥ Q♥ 5♠ K♦ J♦"], draw="A♠", discard="A♠", stock_under="6♠")
    assert deal.state.counters["unmatched.1"] == 5 + 10 + 8
    assert rule(deal, "score", 1) == 23
    assert rule(deal, "score", 0) == 1


def test_ch_5_6_the_closer_lays_off_on_melds_shown_after_theirs():
    """CH-5.6: the closer lays off on melds shown after theirs."""
    deal = closed(["3♥ 4♥ 5♥ Q♣ Q♦ Q♠ 4♠", "5♠ 6♠ 7♠ K♦ K♥ J♦ J♥"], draw="A♣", discard="A♣", stock_under="6♣")
    assert names(deal, "hand.0") == []
    assert (1, ["4♠", "5♠", "6♠", "7♠"]) in shown_melds(deal)
    assert by_of(deal, "5♠") == [0, 1, 1, 1]
    assert rule(deal, "score", 0) == 0  # no cards left, but not a full close (CH-6.2)


def test_ch_5_6_laying_off_goes_round_until_nobody_can_add():
    """CH-5.6: laying off goes round until nobody can add."""
    # 0 closes keeping 5♣; seat 2 shows A♣ 2♣ 3♣; seat 1 adds 4♣; then 0 adds 5♣
    deal = closed(
        ["3♥ 4♥ 5♥ Q♣ Q♦ Q♠ 5♣", "4♣ 6♦ 7♦ K♠ J♠ Q♥ 2♠", "A♣ 2♣ 3♣ K♦ K♥ J♦ J♥"],
        draw="K♣",
        discard="K♣",
        stock_under="6♣",
    )
    assert (2, ["A♣", "2♣", "3♣", "4♣", "5♣"]) in shown_melds(deal)
    assert by_of(deal, "A♣") == [2, 2, 2, 1, 0]
    assert names(deal, "hand.0") == []


def test_ch_5_6_a_card_fitting_two_melds_goes_where_it_leaves_fewest_points():
    """CH-5.6: a card fitting two melds goes where it leaves fewest points."""
    # 5♠ fits the closer's fives and seat 2's run 6♠ 7♠ J♠; on the run it lets 4♠ follow
    deal = closed(
        ["5♣ 5♦ 5♥ A♥ 2♥ 3♥ K♠", "5♠ 4♠ 2♦ J♣ Q♣ 6♣ 7♦", "6♠ 7♠ J♠ K♦ K♥ Q♦ Q♥"],
        draw="A♦",
        discard="K♠",
        stock_under="3♣",
    )
    assert (2, ["4♠", "5♠", "6♠", "7♠", "J♠"]) in shown_melds(deal)
    assert names(deal, "hand.1") == ["6♣", "J♣", "Q♣", "2♦", "7♦"]


def test_ch_5_6_on_a_tie_a_card_goes_to_the_meld_shown_first():
    """CH-5.6: on a tie a card goes to the meld shown first."""
    deal = closed(
        ["5♣ 5♦ 5♥ A♥ 2♥ 3♥ K♠", "5♠ 2♦ J♣ Q♣ 6♣ 7♦ A♠", "6♠ 7♠ J♠ K♦ K♥ Q♦ Q♥"],
        draw="A♦",
        discard="K♠",
        stock_under="3♣",
    )
    assert (0, ["5♣", "5♦", "5♥", "5♠"]) in shown_melds(deal)
    assert (2, ["6♠", "7♠", "J♠"]) in shown_melds(deal)
