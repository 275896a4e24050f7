"""The documented variants (CH-V1 ... CH-V8), each a variant file with no Python of its own."""

from __future__ import annotations

import pytest
from chinchon_helpers import forced_variant, make_deal, names, rigged_variant, rule, shown_melds, variant

from tapete import IllegalAction, Match, load_variant, registry

CHINCHON = sorted(n for n in registry().variants() if n.startswith("chinchon/"))


def test_every_documented_variant_has_a_file():
    assert CHINCHON == [
        "chinchon/chinchon-wins",
        "chinchon/fournier",
        "chinchon/misdeal",
        "chinchon/no-first-turn-close",
        "chinchon/one-loose-card",
        "chinchon/reenganche",
        "chinchon/spanish48",
        "chinchon/to-70",
        "chinchon/two-decks",
        "chinchon/wild-cards",
    ]


@pytest.mark.parametrize("name", CHINCHON)
def test_every_variant_plays_a_full_match(name):
    v = variant(name)
    players = v.default_players()
    # the heuristic bot against random ones; random only where many players make it slow
    bots = (["heuristic"] + ["random"] * (players - 1)) if players <= 4 else ["random"]
    result = Match(v, players, seed=21, bots=bots).play()
    assert 0 <= result.winner < players
    assert result.deals >= 1


def kinds(deal, text):
    return deal.game.solver.meld_kinds(deal.game.deck.parse_all(text.split()))


# -- CH-V1 ------------------------------------------------------------------------------
def test_ch_v1_48_cards_valued_by_index_and_7_J_no_longer_adjacent():
    """CH-V1: 48 cards valued by index and 7 J no longer adjacent."""
    v = variant("spanish48")
    deck, value = v.rules.deck, v.rules.table("value")
    assert len(deck) == 48 and v.rules.order == tuple("A 2 3 4 5 6 7 8 9 J Q K".split())
    assert [value[deck.parse(c)] for c in "A♣ 7♣ 8♣ 9♣ J♣ Q♣ K♣".split()] == [1, 7, 8, 9, 10, 11, 12]
    deal = make_deal(["A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣", "8♦ 9♦ J♦ Q♦ K♦ A♦ 2♦"], name="spanish48")
    assert kinds(deal, "7♥ 8♥ 9♥") == ("run",)
    assert kinds(deal, "9♥ J♥ Q♥") == ("run",)
    assert kinds(deal, "7♥ J♥ Q♥") == ()


@pytest.mark.parametrize(
    "name, courts, expect",
    [
        ("fournier", "ten", [10, 10, 10]),
        ("fournier", "ten-to-twelve", [10, 11, 12]),
        ("spanish48", "ten", [10, 10, 10]),
        ("fournier", "position", [8, 9, 10]),
    ],
)
def test_ch_v1_the_court_card_values_are_an_option(name, courts, expect):
    """CH-V1: the court card values are an option."""
    v = load_variant(f"chinchon/{name}", options={"court_values": courts})
    deck, value = v.rules.deck, v.rules.table("value")
    assert [value[deck.parse(c)] for c in ("J♠", "Q♠", "K♠")] == expect
    assert value[deck.parse("7♠")] == 7


# -- CH-V2 ------------------------------------------------------------------------------
FIVE = [
    "3♥ 4♥ 5♥ 7♣ 7♦ 7♥ K♠",
    "A♠ 3♠ 5♠ J♠ K♣ 2♦ 4♦",
    "A♦ 3♦ 5♦ Q♦ 2♣ 4♣ 6♣",
    "2♠ 4♠ 6♠ Q♠ 3♣ 5♣ J♣",
    "2♥ 6♥ 7♠ 7♠/2 J♦ Q♣ K♦",
]


def test_ch_v2_two_decks_for_five_to_eight_players():
    """CH-V2: two decks for five to eight players."""
    v = variant("two-decks")
    assert len(v.rules.deck) == 80 and v.player_range() == (5, 8)
    deal = v.new_deal(8, seed=2)
    assert all(len(deal.state.zones[f"hand.{s}"]) == 7 for s in range(8))
    assert len(deal.state.zones["stock"]) == 80 - 56 - 1


def test_ch_v2_a_group_may_hold_two_identical_cards():
    """CH-V2: a group may hold two identical cards."""
    deal = make_deal(FIVE, name="two-decks")
    assert kinds(deal, "7♣ 7♣/2 7♦") == ("group",)
    assert kinds(deal, "7♣ 7♣/2 7♦ 7♦/2 7♥ 7♥/2 7♠ 7♠/2") == ("group",)
    assert kinds(deal, "7♥ 7♥/2 J♥") == ()
    assert kinds(deal, "5♥ 6♥ 6♥/2") == ()  # a run never holds twins


def test_ch_v2_lay_off_upwards_only_and_one_card_of_each_value():
    """CH-V2: lay off upwards only and one card of each value."""
    deal = make_deal(FIVE, stock="A♥ A♣", name="two-decks")
    deal.play("draw stock")
    deal.play("close K♠")
    # seat 4 shows next (counter-clockwise): 6♥ goes up the run, 2♥ may not go down,
    # and only one of the two 7♠ joins the sevens
    assert (0, ["3♥", "4♥", "5♥", "6♥"]) in shown_melds(deal)
    left = names(deal, "hand.4")
    assert "2♥" in left and ("7♠" in left) != ("7♠/2" in left)
    # without those limits (one deck, fournier) 2♥ goes down the run and 7♠ on the sevens
    single = make_deal(["3♥ 4♥ 5♥ 7♣ 7♦ 7♥ K♠", "2♥ 6♥ 7♠ J♦ Q♣ K♦ 2♣"], stock="A♥ A♣")
    single.play("draw stock")
    single.play("close K♠")
    assert names(single, "hand.1") == ["2♣", "Q♣", "J♦", "K♦"]


# -- CH-V3 ------------------------------------------------------------------------------
def test_ch_v3_to_70_out_on_reaching_the_limit():
    """CH-V3: to 70 out on reaching the limit."""
    v = forced_variant("to-70", {0: 70, 1: 69})
    assert v.options["bust"] == 70 and v.options["out_on"] == "reaching"
    result = Match(v, 2, seed=1, bots=["heuristic"]).play()
    assert result.totals == [70, 69] and result.winner == 1


def test_ch_v3_reaching_is_an_option_of_the_main_profile_too():
    """CH-V3: reaching is an option of the main profile too."""
    v = load_variant("chinchon/fournier", options={"out_on": "reaching"})
    deal = v.deal_from_snapshot({"players": 2, "dealer": 1, "zones": {"hand.0": [], "hand.1": []}})
    from tapete import Ctx
    from tapete.core.ledger import Ledger

    out = v.rules.condition("out")
    assert out(Ctx(game=deal.game, ledger=Ledger(2, totals=[100, 99]), seat=0))
    assert not out(Ctx(game=deal.game, ledger=Ledger(2, totals=[100, 99]), seat=1))


# -- CH-V4 ------------------------------------------------------------------------------
def test_ch_v4_re_entry_at_the_highest_total_still_in_with_a_limit():
    """CH-V4: re-entry at the highest total still in with a limit."""
    v = forced_variant("reenganche", {0: 101, 1: 50, 2: 80}, {0: 30}, {1: 61})
    events = []
    result = Match(v, 3, seed=1, bots=["heuristic"]).play(events.append)
    scores = [e for e in events if e["type"] == "score"]
    assert scores[0]["totals"] == [80, 50, 80] and scores[0]["out"] == [False, False, False]
    assert scores[1]["totals"] == [110, 50, 80] and scores[1]["out"] == [True, False, False]
    # seat 1 goes out too and rejoins; seat 0 had used its one re-entry and stays out
    assert scores[2]["totals"] == [110, 80, 80] and scores[2]["out"] == [True, False, False]
    assert result.winner in (1, 2)


def test_ch_v4_several_out_in_one_deal_rejoin_at_the_total_taken_before_any_rejoins():
    """CH-V4: several out in one deal rejoin at the total taken before any rejoins."""
    v = forced_variant("reenganche", {0: 101, 1: 120, 2: 60}, {0: 50, 1: 50, 2: 50})
    events = []
    Match(v, 3, seed=1, bots=["heuristic"]).play(events.append)
    first = [e for e in events if e["type"] == "score"][0]
    assert first["totals"] == [60, 60, 60] and first["out"] == [False, False, False]


# -- CH-V5 ------------------------------------------------------------------------------
HANDS = ["2♣ 2♦ 2♠ 5♥ 6♥ 7♥ K♠", "4♦ 6♦ J♦ K♦ 3♠ Q♣ K♣"]


def test_ch_v5_the_main_profile_refuses_a_misdraw():
    """CH-V5: the main profile refuses a misdraw."""
    deal = make_deal(HANDS, stock="J♠ Q♠ A♣", discard="Q♦")
    with pytest.raises(IllegalAction):
        deal.play("discard K♠")
    deal.play("draw stock")
    with pytest.raises(IllegalAction):
        deal.play("draw stock")


def test_ch_v5_a_discard_without_drawing_is_accepted_and_forbids_closing():
    """CH-V5: a discard without drawing is accepted and forbids closing."""
    deal = make_deal(HANDS, stock="J♠ Q♠ A♣ 3♣", discard="Q♦", name="misdeal")
    assert [a.kind for a in deal.legal_actions()] == ["draw", "draw"]  # bots never misdeal
    events = deal.play("discard K♠")
    assert "may not close" in events[0]["say"]
    assert len(deal.state.zones["hand.0"]) == 6 and deal.to_move == 1
    assert deal.state.counters["misdealt.0"] == 1
    deal.play("draw stock")
    deal.play("discard K♣")
    deal.play("draw stock")  # seat 0 plays on with 7 cards
    assert not [a for a in deal.legal_actions() if a.kind == "close"]
    with pytest.raises(IllegalAction):
        deal.play("close A♣")


def test_ch_v5_an_extra_draw_is_accepted_and_forbids_closing():
    """CH-V5: an extra draw is accepted and forbids closing."""
    deal = make_deal(HANDS, stock="J♠ Q♠ A♣ 5♠", discard="Q♦", name="misdeal")
    deal.play("draw stock")
    assert not [a for a in deal.legal_actions() if a.kind == "draw"]
    deal.play("draw stock")
    assert len(deal.state.zones["hand.0"]) == 9 and deal.state.counters["misdealt.0"] == 1
    deal.play("discard K♠")
    assert len(deal.state.zones["hand.0"]) == 8 and deal.to_move == 1


def test_ch_v5_the_close_rule_reads_misdealt():
    """CH-V5: the close rule reads misdealt."""
    closable = {
        "hands": ["2♣ 2♦ 2♠ 5♥ 6♥ 7♥ K♠", HANDS[1]],
        "stock": "J♠ 5♠",
        "discard": "Q♦",
        "counters": {"misdealt.0": 1},
    }
    deal = make_deal(name="misdeal", **closable)
    deal.play("draw stock")
    with pytest.raises(IllegalAction, match="misdeal"):
        deal.play("close K♠")
    plain = make_deal(**closable)  # fournier has no such rule
    plain.play("draw stock")
    plain.play("close K♠")


# -- CH-V6 ------------------------------------------------------------------------------
def test_ch_v6_a_seven_card_run_wins_the_match_at_once():
    """CH-V6: a seven card run wins the match at once."""
    deal = make_deal(["A♥ 2♥ 3♥ 4♥ 5♥ 6♥ K♠", HANDS[1]], stock="J♠ 7♥", name="chinchon-wins")
    deal.play("draw stock")
    deal.play("close K♠")
    assert shown_melds(deal)[0] == (0, ["A♥", "2♥", "3♥", "4♥", "5♥", "6♥", "7♥"])
    assert rule(deal, "wins_match", 0, kind="condition")
    assert not rule(deal, "wins_match", 1, kind="condition")
    assert rule(deal, "score", 0) == -10


def test_ch_v6_other_full_closes_do_not_win_the_match():
    """CH-V6: other full closes do not win the match."""
    deal = make_deal(["3♥ 4♥ 5♥ 7♣ 7♦ 7♠ A♦", HANDS[1]], stock="J♠ 6♥", name="chinchon-wins")
    deal.play("draw stock")
    deal.play("close A♦")
    assert not rule(deal, "wins_match", 0, kind="condition")
    assert rule(deal, "score", 0) == -10


def test_ch_v6_in_a_match_the_chinchon_ends_it():
    """CH-V6: in a match the chinchón ends it."""
    # the first player holds A♥-6♥ and A♣, the stock's top card is 7♥
    places = {("hand.leader", i): c for i, c in enumerate("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ A♣".split())}
    places.update({("stock", -1): "7♥", ("discard", -1): "K♣"})
    for name, ends in (("chinchon-wins", True), ("fournier", False)):
        events = []
        result = Match(rigged_variant(name, places), 3, seed=5, bots=["heuristic"]).play(events.append)
        first = [e for e in events if e["type"] == "score"][0]
        assert -10 in first["scores"].values()
        assert (result.deals == 1) is ends
        if ends:
            assert first["scores"][str(result.winner)] == -10


# -- CH-V7 ------------------------------------------------------------------------------
def test_ch_v7_jokers_and_the_ace_of_coins_are_wild_and_cost_25():
    """CH-V7: jokers and the ace of coins are wild and cost 25."""
    v = variant("wild-cards")
    deck, value, wild = v.rules.deck, v.rules.table("value"), v.rules.table("wild")
    assert len(deck) == 42
    assert [bool(wild[deck.parse(c)]) for c in ("Jk", "Jk/2", "A♦", "A♣")] == [True, True, True, False]
    assert [value[deck.parse(c)] for c in ("Jk", "A♦", "A♣", "K♣")] == [25, 25, 1, 10]
    fifty = load_variant("chinchon/wild-cards", options={"wild_cost": 50, "ace_of_coins_wild": False})
    assert fifty.rules.table("value")[deck.parse("Jk")] == 50
    assert not fifty.rules.table("wild")[deck.parse("A♦")]


def test_ch_v7_at_most_one_wild_per_meld():
    """CH-V7: at most one wild per meld."""
    deal = make_deal(HANDS, name="wild-cards")
    assert kinds(deal, "3♥ Jk 5♥") == ("run",)
    assert kinds(deal, "3♥ Jk Jk/2") == ()
    assert kinds(deal, "7♣ 7♦ A♦ Jk") == ()


def test_ch_v7_a_wild_keeps_its_meaning_when_others_lay_off():
    """CH-V7: a wild keeps its meaning when others lay off."""
    deal = make_deal(["3♥ Jk 5♥ Q♣ Q♦ Q♠ K♠", "4♥ 6♥ K♦ J♣ 2♠ 7♣ 2♦"], stock="J♠ A♣", name="wild-cards")
    deal.play("draw stock")
    deal.play("close K♠")
    meld = [m for m in deal.state.data["melds"] if m["kind"] == "run"][0]
    assert meld["wilds"] == [[1, "4♥"]]
    assert (0, ["3♥", "Jk", "5♥", "6♥"]) in shown_melds(deal)  # 6♥ joins, 4♥ cannot
    assert "4♥" in names(deal, "hand.1")


def test_ch_v7_an_unmatched_wild_costs_25():
    """CH-V7: an unmatched wild costs 25."""
    deal = make_deal(["3♥ 4♥ 5♥ 7♣ 7♦ 7♠ K♠", "Jk/2 2♣ 4♠ J♦ Q♣ K♥ 5♦"], stock="J♠ 6♥", name="wild-cards")
    deal.play("draw stock")
    deal.play("close K♠")
    assert "Jk/2" in names(deal, "hand.1")
    assert rule(deal, "score", 1) == 25 + 2 + 4 + 8 + 9 + 10 + 5


def test_ch_v7_a_seven_card_run_with_a_wild_never_wins_the_match(tmp_path):
    """CH-V7: a seven card run with a wild never wins the match."""
    wins = variant("chinchon-wins").spec.scripts[-1].read_text(encoding="utf-8")
    (tmp_path / "wins.rules").write_text(wins, encoding="utf-8")
    (tmp_path / "wild-chinchon.yaml").write_text(
        "extends: chinchon/wild-cards\nname: wild-chinchon\nscripts: [wins.rules]\n", encoding="utf-8"
    )
    v = load_variant(tmp_path / "wild-chinchon.yaml")
    for hand, wins_match in (("A♥ 2♥ Jk 4♥ 5♥ 6♥ K♠", False), ("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ K♠", True)):
        deal = v.deal_from_snapshot(
            {
                "players": 2,
                "dealer": 1,
                "counters": {"drawn": 0},
                "zones": {
                    "hand.0": hand.split(),
                    "hand.1": HANDS[1].split(),
                    "stock": ["7♥"],
                    "discard": [],
                    "facedown": [],
                },
            }
        )
        deal.play("draw stock")
        deal.play("close K♠")
        assert deal.state.counters["chinchon"] == 1
        assert bool(rule(deal, "wins_match", 0, kind="condition")) is wins_match
        assert rule(deal, "score", 0) == -10


# -- CH-V8 ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "hand, draw, ok",
    [
        ("2♣ 2♦ 2♠ 5♥ 6♥ 7♥ K♠", "4♠", True),  # one loose card of 4
        ("2♣ 2♦ 2♠ 5♥ 6♥ 7♥ K♠", "5♠", False),  # one loose card of 5
        ("3♥ 4♥ 5♥ 6♥ 7♥ A♠ K♠", "2♣", False),  # two loose cards, 3 points
        ("2♣ 2♦ 2♠ 5♥ 6♥ 7♥ K♠", "4♥", True),  # all matched
    ],
)
def test_ch_v8_exactly_one_loose_card_of_four_or_less(hand, draw, ok):
    """CH-V8: exactly one loose card of four or less."""
    deal = make_deal([hand, HANDS[1]], stock=f"J♠ {draw}", name="one-loose-card")
    deal.play("draw stock")
    assert (deal.game.deck.parse("K♠") in [a.cards[0] for a in deal.legal_actions() if a.kind == "close"]) is ok


def test_ch_v8_the_stricter_limit_of_three_is_the_same_variant_with_an_option():
    """CH-V8: the stricter limit of three is the same variant with an option."""
    v = load_variant("chinchon/one-loose-card", options={"close_limit": 3})
    deal = v.deal_from_snapshot(
        {
            "players": 2,
            "dealer": 1,
            "counters": {"drawn": 0},
            "zones": {"hand.0": "2♣ 2♦ 2♠ 5♥ 6♥ 7♥ K♠".split(), "hand.1": HANDS[1].split(), "stock": ["4♠"]},
        }
    )
    deal.play("draw stock")
    with pytest.raises(IllegalAction):
        deal.play("close K♠")


def test_ch_v8_no_close_on_a_players_first_turn():
    """CH-V8: no close on a player's first turn."""
    first = make_deal(HANDS, stock="J♠ 5♠", name="no-first-turn-close")
    first.play("draw stock")
    assert first.state.counters["turns.0"] == 1
    with pytest.raises(IllegalAction):
        first.play("close K♠")
    later = make_deal(HANDS, stock="J♠ 5♠", name="no-first-turn-close", counters={"turns.0": 1})
    later.play("draw stock")
    later.play("close K♠")
    assert later.over
