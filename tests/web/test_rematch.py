"""Play again: at a match's end one click seats the same people and bots at a new table, with a new
commitment; each page is sent its own seat's new link over its own connection, and only then."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from .conftest import Client, ThreadServer, create, token

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def play_until_over(pages: list[Client]) -> None:
    """Both people play their first legal move (and "next deal") until the match is over."""
    done = [False] * len(pages)
    acted = [-1] * len(pages)

    async def seat(i: int) -> None:
        page = pages[i]
        pending = page.state  # the latest state, which waiting for another message may have passed by
        while True:
            st, pending = (pending, None) if pending is not None else (await page.next_of("state"), None)
            if st["phase"] == "match-over":
                done[i] = True
                return
            if st["seq"] <= acted[i]:
                continue
            if st["phase"] == "deal-over" and not st["seats"][page.seat]["ready"]:
                acted[i] = st["seq"]
                await page.send({"type": "next", "seq": st["seq"]})
            elif st["moves"]:
                acted[i] = st["seq"]
                await page.send({"type": "move", "seq": st["seq"], "move": st["moves"][0]["text"]})

    await asyncio.gather(*(seat(i) for i in range(len(pages))))
    assert all(done)


def test_play_again_seats_the_same_people_and_bots_at_a_new_table(server: ThreadServer) -> None:
    made = create(server, "fantan/pagat", ["person", "person", "random"], seed="again", options={"wins_to": "1"})

    async def run() -> None:
        pages = [await Client.open(server.ws_url, token(s["link"])) for s in made["seats"]]
        watcher = await Client.open(server.ws_url, token(made["spectator"]))
        await pages[0].send({"type": "rematch", "seq": 0})  # not before the end
        assert (await pages[0].next_of("error"))["code"] == "not-now"
        await play_until_over(pages)
        await watcher.send({"type": "rematch", "seq": 0})
        assert (await watcher.next_of("error"))["code"] == "spectator"
        await pages[1].send({"type": "rematch", "seq": 0})
        offers = [await p.next_of("rematch") for p in (*pages, watcher)]
        assert len({o["table"] for o in offers}) == 1 and offers[0]["table"] != made["table"]
        assert len({o["link"] for o in offers}) == 3  # each page its own seat's link
        new = server.hub.rooms[offers[0]["table"]].table
        old = server.hub.rooms[made["table"]].table
        assert [p.bot for p in new.config.seats] == [p.bot for p in old.config.seats]
        assert new.config.seed != old.config.seed and new.config.salt != old.config.salt
        for offer, want in zip(offers, (0, 1, -1), strict=True):
            page = await Client.open(server.ws_url, token(offer["link"]))
            assert page.seat == want
            state = await page.next_of("state")
            assert state["fair"]["commitment"] != old_commitment(server, made["table"])
            await page.close()
        await pages[0].send({"type": "rematch", "seq": 0})  # asked again: the same table, not another
        assert (await pages[0].next_of("rematch"))["table"] == offers[0]["table"]
        for p in (*pages, watcher):
            await p.close()

    asyncio.run(run())


def old_commitment(server: ThreadServer, table_id: str) -> Any:
    from tapete.web.fairness import commitment

    cfg = server.hub.rooms[table_id].table.config
    return commitment(cfg.seed, cfg.salt)
