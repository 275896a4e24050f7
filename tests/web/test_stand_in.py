"""A seat whose person leaves is not a dead table; a slow person meets the clock.

After the table's ``away_after`` seconds without the person's page, the seat's default
bot plays for them and every page shows it; the person takes the seat back by opening
the link again, and from then on the table waits for them. With a per-move clock, the
stand-in plays the one move a person let the clock run out on. (The waits are bounded;
no test asserts how long anything took.)
"""

from __future__ import annotations

import asyncio
from typing import Any

from .conftest import Client, ThreadServer, create, token


async def until(client: Client, test: Any, limit: int = 500) -> dict[str, Any]:
    for _ in range(limit):
        msg = await client.next_of("state")
        if test(msg):
            return msg
    raise AssertionError("the table never showed it")


def test_the_stand_in_plays_for_a_person_who_left_until_they_come_back(server: ThreadServer) -> None:
    made = create(server, "fantan/pagat", ["person", "sensible", "sensible"], seed="away", away_after=0.2)
    link = token(made["seats"][0]["link"])

    async def run() -> None:
        watcher = await Client.open(server.ws_url, token(made["spectator"]))
        person = await Client.open(server.ws_url, link)
        await person.close()  # the person leaves
        away = await until(watcher, lambda m: m["seats"][0]["away"])
        assert away["seats"][0]["stand_in"] == "sensible"
        await until(watcher, lambda m: any(s["by"] == "stand-in" for s in server.hub.store.steps(made["table"])))
        back = await Client.open(server.ws_url, link)  # the person opens the link again
        mine = await until(back, lambda m: bool(m["moves"]) or m["phase"] != "play")
        assert not mine["seats"][0]["away"] and mine["seats"][0]["here"]
        if mine["phase"] == "play":
            stand_ins = sum(s["by"] == "stand-in" for s in server.hub.store.steps(made["table"]))
            await back.send({"type": "ping"})
            await back.next_of("pong")  # the table waits for the person now: nobody plays for them
            assert sum(s["by"] == "stand-in" for s in server.hub.store.steps(made["table"])) == stand_ins
            await back.send({"type": "move", "seq": mine["seq"], "move": mine["moves"][0]["text"]})
            await back.next_of("ack")
            assert server.hub.store.steps(made["table"])[mine["seq"]]["by"] == "person"
        for c in (watcher, back):
            await c.close()

    asyncio.run(run())


def test_the_clock_plays_a_move_the_person_let_run_out(server: ThreadServer) -> None:
    made = create(server, "fantan/pagat", ["person", "sensible", "sensible"], seed="clock", clock=0.2)

    async def run() -> None:
        person = await Client.open(server.ws_url, token(made["seats"][0]["link"]))
        first = await until(person, lambda m: bool(m["moves"]))
        assert first["clock"]["seconds"] == 0.2
        await until(person, lambda m: m["seq"] > first["seq"])  # the person does nothing
        step = server.hub.store.steps(made["table"])[first["seq"]]
        assert step["seat"] == 0 and step["by"] == "clock"
        await person.close()

    asyncio.run(run())
