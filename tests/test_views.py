"""What a seat's view holds, read like a deal at the table.

Each test plays real moves and checks what one seat was told: a card taken from
the face-up discard pile is named to everyone, a stock draw is named only to
the drawer, a face-down close reads ``close ?`` until the deal's end shows it,
and a discard pile the seat watched being built is remembered when it becomes
the stock (CH-4.4).
"""

from __future__ import annotations

import gc

import pytest
from conftest import variant

from tapete import Action, DealState, Match, Move, View
from tapete.bots import LegacyBot, RandomBot, is_legacy


def chinchon(seed: int = 3):
    deal = variant("chinchon/fournier").new_deal(2, seed=seed)
    return deal, deal.to_move, 1 - deal.to_move


def last(view: View, kind: str = "action"):
    return [e for e in view.history if e.kind == kind][-1]


def test_a_card_taken_from_the_discard_pile_is_named_to_the_other_seat_and_remembered():
    deal, a, b = chinchon()
    top = deal.state.zones["discard"][-1]
    deal.play("draw discard")
    seen_by_b = last(deal.view(b))
    assert seen_by_b.seat == a and seen_by_b.text == "draw discard"
    assert seen_by_b.moves == (Move(top, "discard", f"hand.{a}"),)
    assert deal.view(b).known[top] == f"hand.{a}"  # b knows a holds it until a lets it go


def test_a_stock_draw_is_named_only_to_the_drawer():
    deal, a, b = chinchon()
    deal.play("draw stock")
    drawn = deal.state.zones[f"hand.{a}"][-1]
    assert last(deal.view(a)).moves == (Move(drawn, "stock", f"hand.{a}"),)
    assert last(deal.view(b)).moves == (Move(None, "stock", f"hand.{a}"),)
    assert drawn not in deal.view(b).seen and drawn not in deal.view(b).known


def test_a_discard_is_public_and_the_hand_left_behind_is_not():
    deal, a, b = chinchon()
    deal.play("draw stock")
    card = deal.state.zones[f"hand.{a}"][0]
    deal.play(Action("discard", (card,)))
    view = deal.view(b)
    assert last(view).text == f"discard {deal.game.deck.names[card]}"
    assert view.top("discard") == card
    assert view.cards(f"hand.{a}") == () and view.count(f"hand.{a}") == 7
    assert view.hand == tuple(deal.state.zones[f"hand.{b}"])


def test_a_face_down_close_reads_close_question_mark_until_the_deal_end_shows_it():
    deck = variant("chinchon/fournier").rules.deck
    hands = ["3♥ 4♥ 5♥ 7♣ 7♦ 7♠ A♦", "2♣ 3♦ 4♠ 6♣ J♦ Q♣ K♥"]
    used = {deck.parse(c) for h in hands for c in h.split()} | {deck.parse("5♦")}
    rest = [deck.names[c] for c in deck.ids if c not in used]
    rest.remove("6♥")
    snap = {
        "players": 2,
        "dealer": 1,
        "to_move": 0,
        "zones": {"hand.0": hands[0].split(), "hand.1": hands[1].split(), "stock": [*rest, "6♥"]},
        "counters": {"drawn": 0},
    }
    snap["zones"].update(discard=["5♦"], facedown=[])
    deal = variant("chinchon/fournier").deal_from_snapshot(snap)
    deal.play("draw stock")  # 6♥: 3-4-5-6♥ and three sevens, A♦ goes face down
    deal.play("close A♦")
    told = deal.view(1).history
    close = [e for e in told if e.kind == "action"][-1]
    assert close.text == "close ?" and close.action == Action("close")
    reveal = told[-1]
    assert reveal.kind == "reveal" and deck.parse("A♦") in reveal.revealed
    assert deal.view(1).over and deal.view(1).cards("facedown") == (deck.parse("A♦"),)


def test_cards_recycled_into_the_stock_are_known_to_be_there():
    deal, a, b = chinchon(seed=5)
    legal_rng = iter(range(10**6))
    while not deal.state.counters.get("rebuilds") and not deal.over:
        legal = deal.legal_actions()
        draws = [x for x in legal if x.kind == "draw"]
        if draws:
            deal.play(Action("draw", (), "stock") if Action("draw", (), "stock") in legal else draws[0])
        else:
            discards = [x for x in legal if x.kind == "discard"]
            deal.play(discards[next(legal_rng) % len(discards)])
    assert deal.state.counters["rebuilds"] == 1
    stock = set(deal.state.zones["stock"])
    for seat in (a, b):
        known = deal.view(seat).known
        assert {c for c, z in known.items() if z == "stock"} == stock


def test_a_view_reaches_no_deal_state():
    deal, a, b = chinchon()
    deal.play("draw stock")
    view = deal.view(b)
    seen: set[int] = set()
    todo: list[object] = [view]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        assert not isinstance(obj, DealState), "a view must not lead to the state"
        todo.extend(gc.get_referents(obj))
    with pytest.raises(AttributeError):
        view.seat = 0  # type: ignore[misc]


def test_private_counters_and_data_stay_out_of_views():
    deal, a, b = chinchon()
    deal.state.counters["_secret"] = 7
    deal.state.data["_secret"] = "x"
    view = deal.view(a)
    assert "_secret" not in view.counters and "_secret" not in view.data
    assert "drawn" in view.counters


class OldStyle:
    """A bot written for tapete 0.1."""

    def __init__(self, game, seat, rng):
        self.rng = rng

    def choose(self, game, state, legal):
        return legal[0]


def test_an_old_style_bot_still_plays_with_a_deprecation_warning_naming_the_new_form():
    v = variant("fantan/pagat")
    assert is_legacy(OldStyle(None, 0, None)) and not is_legacy(RandomBot(None, 0, None))
    with pytest.warns(DeprecationWarning, match=r"choose\(self, view, legal\)"):
        match = Match(v, 4, seed=1, agents=[OldStyle(None, s, None) for s in range(4)])
    assert isinstance(match.agents[0], LegacyBot)
    assert match.play().winner in range(4)


def test_a_views_history_read_backwards_stops_where_the_view_was_made():
    """A page looks back from the end of a seat's history for each seat's last move: read backwards,
    the history is the same events, last first, and later moves of the deal are not among them."""
    deal, a, b = chinchon()
    deal.play("draw discard")
    view = deal.view(b)
    seen = list(view.history)
    deal.play(deal.legal_actions()[0])  # the deal goes on after the view was made
    assert list(reversed(view.history)) == seen[::-1]
    assert len(list(reversed(deal.view(b).history))) == len(seen) + 1
