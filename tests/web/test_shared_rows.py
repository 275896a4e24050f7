"""A seat's state shares rows with other seats and positions, and says exactly what it said when each was made.

`tapete.web.messages.row` makes each row's JSON once per row and deck; a page must be
sent the same text whether its rows were made for it or found already made."""

from __future__ import annotations

from tapete.core.rng import Random
from tapete.layout import Layout
from tapete.play.loading import load_variant
from tapete.plugins.loader import registry
from tapete.web import messages
from tapete.web.tables import DEAL_OVER, PLAY, SPECTATOR, LiveTable, SeatPlan, TableConfig


def _table(variant: str, players: int) -> tuple[LiveTable, Layout]:
    v = load_variant(variant, registry(), options={})
    seats = [SeatPlan()] + [SeatPlan("random")] * (players - 1)
    cfg = TableConfig(variant=variant, options={}, players=players, seed="shared-rows", seats=seats, salt="s")
    return LiveTable("t", cfg, v), v.record.layout or Layout()


def test_every_state_reads_the_same_with_its_rows_shared_or_made_afresh() -> None:
    for variant, players in (("fantan/pagat", 4), ("chinchon/fournier", 2)):
        table, layout = _table(variant, players)
        rng = Random(7)
        shared_seen = 0
        for _ in range(60):
            for seat in (0, SPECTATOR):
                found = messages.state_message(table, layout, seat)
                messages._rows.clear()
                fresh = messages.state_message(table, layout, seat)
                assert messages.encode(found) == messages.encode(fresh), (variant, table.seq, seat)
            person = messages.state_message(table, layout, 0)
            public = messages.state_message(table, layout, SPECTATOR)
            shared_seen += sum(a is b for a, b in zip(person["table"], public["table"], strict=False))
            if table.phase == PLAY:
                table.apply(table.person_step(table.to_move, rng.choice(table.legal())))
            elif table.phase == DEAL_OVER:
                table.apply(table.next_step())
            else:
                break
        assert shared_seen > 0, variant  # the public rows of a seat's table are the spectators' own objects
