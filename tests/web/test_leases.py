"""Each table is held by one server process at a time, through a lease in the database.

Two stores on one database stand for two server processes: the one holding a table's
lease keeps it while it renews; the other cannot take it until the lease runs out (its
process died) or is given up (its process stopped cleanly), and then finds it among the
expired tables and takes it; the first then learns it no longer holds it.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from tapete.web.store import open_store
from tapete.web.tables import SeatPlan, TableConfig

from .conftest import STORES

CONFIG = TableConfig("fantan/pagat", {}, 3, "seed", [SeatPlan(), SeatPlan("random"), SeatPlan("random")])
LEASE = 0.3  # seconds


@pytest.mark.parametrize("database", STORES, indirect=True)
def test_a_table_is_held_by_one_process_until_its_lease_runs_out_or_is_given_up(database: Path | str) -> None:
    async def run() -> None:
        a, b = open_store(database), open_store(database)
        try:
            await a.create("t1", CONFIG, "d", {0: "x"})
            await a.create("t2", CONFIG, "d", {0: "y"})
            assert a.hold("t1", "a", LEASE) and a.hold("t2", "a", 60.0)
            assert not b.hold("t1", "b", LEASE)  # held by a
            b.want("t1", "b")  # (a taken-over lease starts with nobody asking for it)
            assert a.hold("t1", "a", LEASE)  # a keeps its own
            assert b.expired() == []
            time.sleep(LEASE + 0.1)  # a stops renewing (its process died)
            assert b.expired() == ["t1"]  # t2's lease still runs
            assert b.hold("t1", "b", LEASE) and not a.hold("t1", "a", LEASE)
            assert b.wanted("b") == []
            assert await a.renew("a", 60.0) == {"t2"}  # a learns t1 is no longer its own
            assert not b.hold("t2", "b", LEASE)
            a.release("a")  # a stops cleanly: its tables are free at once
            a.close()  # (closing writes what is queued)
            assert b.hold("t2", "b", LEASE)
        finally:
            a.close()  # closing twice is harmless
            b.close()

    asyncio.run(run())


@pytest.mark.parametrize("database", STORES, indirect=True)
def test_a_process_a_page_reached_asks_for_the_table_and_its_holder_hands_it_over(database: Path | str) -> None:
    async def run() -> None:
        a, b = open_store(database), open_store(database)
        try:
            await a.create("t1", CONFIG, "d", {0: "x"})
            assert a.hold("t1", "a", 60.0) and a.wanted("a") == []
            assert not b.hold("t1", "b", 60.0)
            b.want("t1", "b")  # a proxy sent the table's page to b
            assert a.wanted("a") == ["t1"]
            a.give_up("t1", "a")  # no page of it open at a
            assert b.hold("t1", "b", 60.0) and b.wanted("b") == []  # taken, and nobody asks for it now
            assert not a.hold("t1", "a", 60.0)
        finally:
            a.close()
            b.close()

    asyncio.run(run())
