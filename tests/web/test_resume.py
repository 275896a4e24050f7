"""Nothing is lost: a server killed mid-match comes back with every table where it was.

The server runs as its own process and is killed with SIGKILL in the middle of a match
(right after a move was acknowledged). Started again on the same file, the person's
reopened link shows exactly the table it showed before, and the match then plays on to
the very end the same match played without a kill reaches: the same moves by the bots,
the same cards dealt, the same totals. Two pages on one seat see the same table, and
a move sent from both plays once.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from .conftest import STORES_HEAVY, Client, ProcessServer, ThreadServer, create, stored_rows, token

SEED = "resume"
FORM: dict[str, Any] = {"options": {"bust": "30"}}
SEATS = ["person", "heuristic", "random"]
PRESENCE = ("seats", "clock")


def choose(msg: dict[str, Any]) -> dict[str, Any]:
    """The move a person makes here: the same whatever happened to the server in between."""
    rng = random.Random(f"move-{msg['seq']}")
    moves = msg["moves"]
    closes = [m for m in moves if m["kind"] == "close"]
    return rng.choice(closes if closes and rng.random() < 0.5 else moves)


async def play(client: Client, stop_after: int | None = None, first: dict[str, Any] | None = None) -> dict[str, Any]:
    """Plays the person's seat; returns the last state seen (after the ack at ``stop_after``).

    It moves the moment the table waits for it, quicker than any person: where the server's
    limit of messages a second refuses one ("too-fast": not read, send it again in a moment),
    it sends it again a moment later, as it is told. Any other refusal fails the test."""
    acted = -1
    last: dict[str, Any] = {}
    sent: dict[str, Any] | None = None
    while True:
        msg, first = (first, None) if first is not None else (await client.recv(), None)
        if msg["type"] == "ack" and stop_after is not None and msg["seq"] >= stop_after:
            return last
        if msg["type"] == "error" and msg.get("code") == "too-fast" and sent is not None:
            await asyncio.sleep(0.1)  # a token comes every 1/20 s
            await client.send(sent)
            continue
        # The page moves only when the table waits for it: a refusal would leave it waiting for nothing.
        assert msg["type"] not in ("refused", "error"), f"the page's message was refused: {msg}"
        if msg["type"] != "state":
            continue
        last = msg
        assert not msg.get("broken"), msg["broken"]
        if msg["phase"] == "match-over":
            return msg
        if msg["seq"] <= acted:
            continue
        if msg["phase"] == "deal-over" and not msg["seats"][client.seat]["ready"]:
            acted = msg["seq"]
            sent = {"type": "next", "seq": msg["seq"]}
            await client.send(sent)
        elif msg["moves"]:
            acted = msg["seq"]
            sent = {"type": "move", "seq": msg["seq"], "move": choose(msg)["text"]}
            await client.send(sent)


def stored_steps(db: Path | str) -> list[tuple[Any, ...]]:
    return stored_rows(db, "SELECT seq, kind, seat, move, by FROM steps ORDER BY seq")


def without_presence(msg: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in msg.items() if k not in PRESENCE}


@pytest.mark.parametrize("database", STORES_HEAVY, indirect=True)
def test_kill_9_mid_match_loses_nothing(database: Path | str, server: ThreadServer) -> None:
    # The match as it goes without a kill.
    made = create(server, "chinchon/fournier", SEATS, seed=SEED, **FORM)

    async def whole() -> dict[str, Any]:
        client = await Client.open(server.ws_url, token(made["seats"][0]["link"]))
        try:
            return await play(client)
        finally:
            await client.close()

    final = asyncio.run(whole())
    control = [tuple(s.values()) for s in server.hub.store.steps(made["table"])]
    assert final["phase"] == "match-over" and len(control) > 40

    # The same match on a server killed with SIGKILL after the 20th acknowledged step.
    db = database
    srv = ProcessServer(db, seeds=[SEED]).start()
    try:
        killed = create(srv.url, "chinchon/fournier", SEATS, **FORM)
        link = token(killed["seats"][0]["link"])

        async def until_kill() -> dict[str, Any]:
            client = await Client.open(srv.ws_url, link)
            last = await play(client, stop_after=20)
            srv.kill()
            return last

        before = asyncio.run(until_kill())
        stored = stored_steps(db)
        assert len(stored) > 20  # every acknowledged step is in the file
        srv.start()

        async def after_restart() -> tuple[dict[str, Any], dict[str, Any]]:
            client = await Client.open(srv.ws_url, link)
            try:
                shown = await client.next_of("state")
                return shown, await play(client, first=shown)
            finally:
                await client.close()

        shown, end = asyncio.run(after_restart())
        # The reopened link shows the table where it was (the bots may have moved on since the
        # last message before the kill, and only then).
        if shown["seq"] == before["seq"]:
            assert without_presence(shown) == without_presence(before)
        else:
            assert shown["seq"] == len(stored)
        assert end["phase"] == "match-over"
        assert end["result"] == final["result"] and end["sheet"] == final["sheet"]
    finally:
        srv.stop()
    assert stored_steps(db) == control  # the same moves, the same cards, the same bots' choices


def test_two_pages_on_one_seat_stay_consistent(server: ThreadServer) -> None:
    made = create(server, "fantan/pagat", ["person", "sensible", "sensible"], seed="two tabs")
    link = token(made["seats"][0]["link"])

    async def run() -> None:
        one = await Client.open(server.ws_url, link)
        two = await Client.open(server.ws_url, link)
        seen = 0
        while True:
            a = await one.next_of("state")
            if a["moves"] or a["phase"] != "play":
                break
        b = await two.state_at(a["seq"])
        assert without_presence(a) == without_presence(b)
        if a["phase"] == "play":
            move = a["moves"][0]["text"]
            await one.send({"type": "move", "seq": a["seq"], "move": move})
            await two.send({"type": "move", "seq": a["seq"], "move": move})
            replies = [await one.next_of("ack", "error"), await two.next_of("ack", "error")]
            assert sorted(r["type"] for r in replies) == ["ack", "error"]
            assert next(r for r in replies if r["type"] == "error")["code"] == "already-played"
            steps = server.hub.store.steps(made["table"])
            assert [s["move"] for s in steps if s["seq"] == a["seq"]] == [move]
            seen = a["seq"] + 1
            x, y = await one.state_at(seen), await two.state_at(seen)
            assert without_presence(x) == without_presence(y)
        for c in (one, two):
            await c.close()

    asyncio.run(run())
