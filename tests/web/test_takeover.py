"""Two servers on one database: each table is played by one of them; kill -9 that one, the other takes over.

Each table's lease (`tapete.web.store.Store.hold`) names the server process that plays
it. While that process lives, the other refuses the table's links with "elsewhere" (the
page tries again); once it is killed with SIGKILL and its lease has run out, the other
takes the table over from the database: the reopened page is shown the table with every
acknowledged step in it, and the match plays on to its end there.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from .conftest import STORES, WAIT, Client, ProcessServer, create, first_in_play, stored_rows
from .test_resume import FORM, SEATS, play

LEASE = "1"  # seconds: the test waits for it to run out


@pytest.mark.slow  # two servers started, one killed, a lease waited out: about 6 s each
@pytest.mark.parametrize("database", STORES, indirect=True)
def test_a_killed_servers_tables_are_taken_over_with_nothing_acknowledged_lost(database: Path | str) -> None:
    first = ProcessServer(database, options=("--lease", LEASE)).start()
    second = ProcessServer(database, options=("--lease", LEASE)).start()
    try:

        async def before_kill(link: str) -> list[int] | None:
            page = await Client.open(first.ws_url, link)
            if (await play(page, stop_after=12)).get("phase") == "match-over":
                await page.close()
                return None  # over before the kill: not the table this test is about
            # The table is the first server's: the second refuses its link while the first lives.
            async with connect(second.ws_url, open_timeout=WAIT) as ws:
                await ws.send(json.dumps({"type": "hello", "token": link}))
                answer = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            assert answer["type"] == "error" and answer["code"] == "elsewhere", answer
            first.kill()
            return [m["seq"] for m in page.raw if m["type"] == "ack"]

        table = lambda: create(first.url, "chinchon/fournier", SEATS, **FORM)
        made, link, acked = first_in_play(table, before_kill, 12)
    except BaseException:
        second.stop()
        raise
    finally:
        first.kill()
    try:
        stored = stored_rows(database, f"SELECT seq FROM steps WHERE table_id = '{made['table']}' ORDER BY seq")
        assert acked and all((seq,) in stored for seq in acked)  # every acknowledged step is in the database

        async def after_kill() -> tuple[dict[str, Any], list[str], dict[str, Any]]:
            page, refusals = await Client.reopen(second.ws_url, link)  # as the page does, through the proxy
            shown = await page.next_of("state")
            try:
                return shown, refusals, await play(page, first=shown)
            finally:
                await page.close()

        shown, refusals, end = asyncio.run(after_kill())
    finally:
        second.stop()
    assert "elsewhere" in refusals or shown["seq"] > len(stored)  # refused until the lease ran out (unless adopted)
    assert shown["seq"] >= len(stored)  # the table as stored, or further on (its bots played on)
    assert end["phase"] == "match-over"
    final = stored_rows(database, f"SELECT seq FROM steps WHERE table_id = '{made['table']}' ORDER BY seq")
    assert final[: len(stored)] == stored and len(final) > len(stored)
