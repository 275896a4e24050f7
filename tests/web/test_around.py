"""What a page draws at each seat around the table, read from the seat's own view (issue 27).

The state message gives every seat its place counted from the viewer's own in the direction
of play, a few words (hand size, tricks or captures), its cards of the trick in play and its
last move of the deal; the rows that only repeated these are named so the page leaves them out.
"""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

pytest.importorskip("starlette")

from tapete.layout import Layout
from tapete.play.loading import load_variant
from tapete.web import messages
from tapete.web.tables import SPECTATOR, LiveTable, SeatPlan, TableConfig


def played_table(name: str, players: int, moves: int, seed: str = "around") -> tuple[LiveTable, Layout]:
    """A table of people at ``name`` after ``moves`` random legal moves (a fixed seed)."""
    variant = load_variant(name)
    config = TableConfig(name, {}, players, seed, [SeatPlan() for _ in range(players)])
    table = LiveTable("t", config, variant)
    rng = Random(7)
    for _ in range(moves):
        table.apply(table.person_step(table.to_move, rng.choice(table.legal())))  # type: ignore[arg-type]
    return table, variant.record.layout or Layout()


def state(table: LiveTable, layout: Layout, viewer: int) -> dict[str, Any]:
    return messages.state_message(table, layout, viewer)


@pytest.mark.parametrize("moves", [14, 19, 30])
def test_hearts_seats_show_their_hands_tricks_and_their_card_of_the_trick(moves: int) -> None:
    """HE-3.2: each card of the trick is drawn at the seat that played it, in the order the trick row lists them."""
    table, layout = played_table("hearts/classic", 4, moves)
    for viewer in range(4):
        msg = state(table, layout, viewer)
        view = table.view(viewer)
        assert [p["at"] for p in msg["seats"]] == [(s - viewer) % 4 for s in range(4)]  # the next to play at the left
        for p in msg["seats"]:
            s = p["seat"]
            assert p["facts"] == [
                f"{view.count(f'hand.{s}')} card" + ("" if view.count(f"hand.{s}") == 1 else "s"),
                f"{view.counters[f'tricks.{s}']} trick" + ("" if view.counters[f"tricks.{s}"] == 1 else "s"),
            ]
        trick = next(r for r in msg["table"] if r["label"] == "trick")
        named = trick["cards"][1::2]  # "seat 1:", card, "seat 2:", card ...
        by_seat = {p["seat"]: p["played"] for p in msg["seats"] if p["played"]}
        lead = view.counters["lead"]
        assert [c for i in range(len(named)) for c in by_seat[view.next_seat(lead, i)]] == named
        assert {"trick", "tricks taken", "other hands"} <= set(msg["at_seats"])
        assert msg["middle"] == ""  # a trick in play: no word on it


def test_between_two_tricks_the_last_one_stays_in_front_of_who_played_it_with_who_took_it() -> None:
    """HE-3.4: the trick just taken stays in the middle, each card at its seat, until the next is led."""
    table, layout = played_table("hearts/classic", 4, 16)  # the three cards each passes, then one whole trick
    for viewer in (0, 2, SPECTATOR):
        msg = state(table, layout, viewer)
        view = table.view(viewer)
        assert not view.cards("trick")
        last = next(r for r in msg["table"] if r["label"] == "last trick")["cards"]
        shown = {p["seat"]: p["played"] for p in msg["seats"]}
        takers = [s for s in range(4) if view.counters[f"tricks.{s}"]]
        assert msg["middle"] == f"{'you' if takers == [viewer] else f'seat {takers[0]}'} took the trick"
        pairs = dict(zip(last[0:-1:2], last[1:-1:2], strict=True))  # "seat 2:" -> its card, then "(taken by ...)"
        for seat, cards in shown.items():
            assert cards == [pairs["you:" if seat == viewer else f"seat {seat}:"]]
        assert "last trick" in msg["at_seats"]


def test_the_last_move_of_each_seat_is_its_own_and_a_spectator_sits_at_seat_0s_place() -> None:
    table, layout = played_table("chinchon/fournier", 2, 5)
    msg = state(table, layout, SPECTATOR)
    assert [p["at"] for p in msg["seats"]] == [0, 1]
    view = table.view(SPECTATOR)
    for p in msg["seats"]:
        mine = [e for e in view.history if e.kind == "action" and e.seat == p["seat"]]
        assert p["last"] and p["last"][0] == mine[-1].action.kind  # type: ignore[union-attr]
        seat = p["seat"]
        assert p["facts"] == [f"{view.count(f'hand.{seat}')} cards"]


def test_a_game_played_the_other_way_puts_the_next_seat_at_the_viewers_left() -> None:
    """Briscola goes counter-clockwise (BR-1.1): seat 3 plays after seat 0, so it sits at seat 0's left (place 1)."""
    table, layout = played_table("briscola/four-player", 4, 0)
    assert table.view(0).step == -1
    msg = state(table, layout, 0)
    assert [p["at"] for p in msg["seats"]] == [0, 3, 2, 1]


def test_chinese_ten_says_each_seats_captures_at_its_place() -> None:
    table, layout = played_table("chinese-ten/two-player", 2, 6)
    msg = state(table, layout, 1)
    view = table.view(1)
    for p in msg["seats"]:
        n = view.count(f"captures.{p['seat']}")
        assert p["facts"][-1] == f"captured {n} card" + ("" if n == 1 else "s")
    assert "captured" in msg["at_seats"]
