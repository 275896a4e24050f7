"""A seat's link is its only key, and a message that fails a check changes nothing.

Each bad message below is sent over a real socket to a live two-person Chinchón table;
the answer must say what was wrong, and afterwards the deal, the position, the stored
steps and what the other seat was sent must all be as before. Then the right move
still plays, once, however often it is sent.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from .conftest import Client, ThreadServer, create, get, post, token

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def snapshot(srv: ThreadServer, table_id: str) -> tuple[Any, ...]:
    table = srv.hub.rooms[table_id].table
    return table.seq, json.dumps(table.state.to_json(table.deck)), len(srv.hub.store.steps(table_id))


async def refused(client: Client, message: Any) -> dict[str, Any]:
    await client.send(message)
    return await client.next_of("error", "refused")


def test_a_wrong_or_missing_token_opens_nothing(server: ThreadServer) -> None:
    create(server.url, "chinchon/fournier", ["person", "random"])

    async def attempt(hello: Any) -> dict[str, Any]:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        async with connect(server.ws_url, open_timeout=10) as ws:
            await ws.send(hello if isinstance(hello, str) else json.dumps(hello))
            reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 10)
            return dict(reply)

    for hello in (
        {"type": "hello", "token": "not-a-token"},
        {"type": "hello"},
        {"type": "move", "seq": 0, "move": "draw stock"},
        "not json",
        {"type": "hello", "token": "x" * 5000},
    ):
        reply = asyncio.run(attempt(hello))
        assert reply["type"] == "error" and reply["code"] == "bad-token", reply
        assert "link" in reply["message"]


def test_bad_messages_are_refused_and_change_nothing(server: ThreadServer) -> None:
    made = create(server, "chinchon/fournier", ["person", "person"], seed="refusals")
    table_id = made["table"]

    async def run() -> None:
        a = await Client.open(server.ws_url, token(made["seats"][0]["link"]))
        b = await Client.open(server.ws_url, token(made["seats"][1]["link"]))
        watcher = await Client.open(server.ws_url, token(made["spectator"]))
        state = await a.next_of("state")
        await b.next_of("state")
        seq = state["seq"]
        mover, other = (a, b) if state["to_move"] == a.seat else (b, a)
        msg = state if mover is a else await b.next_of("state")
        while msg["seq"] < seq or not msg["moves"]:
            msg = await mover.next_of("state")
        move = msg["moves"][0]["text"]
        before = snapshot(server, table_id)
        other_seen = len(other.received)

        cases: list[tuple[Client, Any, str]] = [
            (mover, {"type": "move", "seq": seq, "move": move, "seat": other.seat}, "wrong-seat"),
            (other, {"type": "move", "seq": seq, "move": move}, "not-your-turn"),
            (mover, "{not json", "malformed"),
            (mover, "[1, 2]", "malformed"),
            (mover, {"type": "move", "move": move}, "malformed"),
            (mover, {"type": "move", "seq": str(seq), "move": move}, "malformed"),
            (mover, {"type": "move", "seq": True, "move": move}, "malformed"),
            (mover, {"type": "move", "seq": seq, "move": ""}, "malformed"),
            (mover, {"type": "move", "seq": seq, "move": 7}, "malformed"),
            (mover, {"type": "dance", "seq": seq}, "malformed"),
            (mover, json.dumps({"type": "move", "seq": seq, "move": "x" * 5000}), "too-large"),
            (mover, {"type": "move", "seq": seq + 5, "move": move}, "stale"),
            (mover, {"type": "move", "seq": seq, "move": "discard 7♥ 7♥ 7♥"}, "refused"),
            (mover, {"type": "next", "seq": seq}, "not-now"),
            (watcher, {"type": "move", "seq": seq, "move": move}, "spectator"),
            (other, {"type": "hint"}, "no-hint"),
        ]
        for client, message, code in cases:
            reply = await refused(client, message)
            assert reply["code"] == code, (message, reply)
            assert reply["message"], reply
            assert snapshot(server, table_id) == before, message
        await mover.ws.send(b"\x00binary")
        assert (await mover.next_of("error"))["code"] == "malformed"

        # A move the game refuses is explained in the game's words: a card of the hand
        # discarded before drawing.
        card = msg["hand"][0]["c"]
        reply = await refused(mover, {"type": "move", "seq": seq, "move": f"discard {card}"})
        assert reply["type"] == "refused" and reply["message"]
        assert snapshot(server, table_id) == before

        # The other seat was sent nothing while all that was refused.
        await other.send({"type": "ping"})
        assert (await other.next_of("pong", "state"))["type"] == "pong"
        assert [m["type"] for m in other.received[other_seen:]] == ["error", "error", "pong"]

        # The right move plays once; sent again, it is recognised and not played twice.
        await mover.send({"type": "move", "seq": seq, "move": move})
        assert (await mover.next_of("ack"))["seq"] == seq
        after = await mover.state_after(seq)
        assert after["seq"] == seq + 1
        for _ in range(2):
            reply = await refused(mover, {"type": "move", "seq": seq, "move": move})
            assert reply["code"] == "already-played"
        assert len(server.hub.store.steps(table_id)) == before[2] + 1
        # An old position answered with another move is stale.
        other_move = msg["moves"][-1]["text"]
        if other_move != move:
            assert (await refused(mover, {"type": "move", "seq": seq, "move": other_move}))["code"] == "stale"
        for c in (a, b, watcher):
            await c.close()

    asyncio.run(run())


def test_the_lobby_form_is_checked_field_by_field(server: ThreadServer) -> None:
    status, reply = post(
        server.url + "/api/tables",
        {
            "variant": "fantan/pagat",
            "options": {"wins_to": "lots", "ace": "middle"},
            "players": 4,
            "seats": [{"kind": "person"}, {"kind": "bot", "bot": "ismcts:iterations=x,nonsense=1"}],
        },
    )
    assert status == 400
    assert "whole number" in reply["errors"]["options.wins_to"]
    assert "ace" in reply["errors"]["options.ace"] or "not one of" in reply["errors"]["options.ace"]
    status, reply = post(
        server.url + "/api/tables",
        {"variant": "fantan/pagat", "players": 2, "seats": [{"kind": "person"}]},
    )
    assert status == 400 and "3-8 players" in reply["errors"]["players"]
    status, reply = post(
        server.url + "/api/tables",
        {"variant": "fantan/pagat", "players": 3, "seats": [{"kind": "bot", "bot": "ismcts:bogus=1"}]},
    )
    assert status == 400 and "no parameter 'bogus'" in reply["errors"]["seats.0"]
    status, reply = post(server.url + "/api/tables", b"variant=fantan/pagat", "application/x-www-form-urlencoded")
    assert status == 415
    status, body = get(server.url + "/api/variants")
    catalogue = json.loads(body)
    assert status == 200 and {v["name"] for v in catalogue} >= {"fantan/pagat", "chinchon/fournier", "scopa/scopone"}
    pagat = next(v for v in catalogue if v["name"] == "fantan/pagat")
    assert {o["name"] for o in pagat["options"]} == {"ace", "wins_to"} and "ismcts" in pagat["bots"]
    status, reply = post(
        server.url + "/api/tables",
        {
            "variant": "fantan/pagat",
            "options": {"wins_to": "1"},
            "players": 3,
            "seats": [
                {"kind": "person"},
                {"kind": "bot", "bot": "ismcts:iterations=5"},
                {"kind": "bot", "bot": "sensible"},
            ],
        },
    )
    assert status == 200, reply
    assert [s["seat"] for s in reply["seats"]] == [0] and reply["spectator"].startswith("/play#")


def test_a_page_kept_up_by_changes_shows_what_a_new_page_is_sent_whole(server: ThreadServer) -> None:
    """After the first state a page is sent only what changed; merged, it is the whole table, every time."""
    made = create(server, "fantan/pagat", ["person", "sensible", "sensible", "sensible"], seed="changes")
    link, watch = token(made["seats"][0]["link"]), token(made["spectator"])

    async def run() -> None:
        person = await Client.open(server.ws_url, link)
        spectator = await Client.open(server.ws_url, watch)
        for _ in range(12):
            msg = await person.next_of("state")
            while not msg["moves"] and msg["phase"] == "play":
                msg = await person.next_of("state")
            if msg["phase"] != "play":
                break
            # The table waits for the person: a page opened now is sent the whole table at this position.
            for page, tok in ((person, link), (spectator, watch)):
                held = await page.state_at(msg["seq"])
                fresh = await Client.open(server.ws_url, tok)
                whole = await fresh.next_of("state")
                assert fresh.raw[-1]["type"] == "state" and whole["seq"] == msg["seq"]
                assert without_clock(held) == without_clock(whole)
                await fresh.close()
            await person.send({"type": "move", "seq": msg["seq"], "move": msg["moves"][-1]["text"]})
            await person.next_of("ack")
        for page in (person, spectator):
            changes = [m for m in page.raw if m["type"] == "change"]
            assert changes and all("help" not in m and "variant" not in m for m in changes)
            assert any("patch" in m for m in changes)  # a row of the table, not the whole table
            await page.close()

    asyncio.run(run())


def without_clock(msg: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in msg.items() if k != "clock"}


def test_at_a_deals_end_the_totals_line_agrees_with_the_score_sheet(server: ThreadServer) -> None:
    made = create(server, "fantan/pagat", ["person", "random", "random"], seed="totals")

    async def run() -> dict[str, Any]:
        page = await Client.open(server.ws_url, token(made["seats"][0]["link"]))
        while True:
            state = await page.next_of("state")
            if state["phase"] != "play":
                await page.close()
                return state
            if state["moves"]:
                await page.send({"type": "move", "seq": state["seq"], "move": state["moves"][0]["text"]})

    state = asyncio.run(run())
    totals = state["sheet"][-1]["totals"]
    assert any(totals)  # somebody scored: a stale line would still show the totals before the deal
    names = ["you" if s == 0 else f"seat {s}" for s in range(3)]
    assert state["scores"][0] == "totals: " + ", ".join(f"{n} {t}" for n, t in zip(names, totals, strict=True))
    assert state["reveal"]["points"] == state["sheet"][-1]["scores"]  # the deal-over page says what each gained


def test_a_page_names_each_card_one_way_in_its_buttons_rows_and_confirmations(server: ThreadServer) -> None:
    # Chinchón's layout names the cards in words at the terminal (3 de oros); the page's faces say 3♦.
    made = create(server, "chinchon/fournier", ["person", "person"], seed="names", options={"close_limit": "100"})

    async def run() -> list[str]:
        pages = [await Client.open(server.ws_url, token(s["link"])) for s in made["seats"]]
        try:
            for _ in range(20):
                states = [await p.next_of("state") for p in pages]
                for page, st in zip(pages, states, strict=True):
                    closes = [m for m in st["moves"] if m.get("confirm")]
                    if closes:
                        return [*closes[0]["confirm"], *(r["note"] for r in st["hand_rows"])]
                    if st["moves"]:
                        await page.send({"type": "move", "seq": st["seq"], "move": st["moves"][0]["text"]})
            raise AssertionError("no close was offered")
        finally:
            for p in pages:
                await p.close()

    lines = asyncio.run(run())
    text = " ".join(lines)
    assert not any(f" de {suit}" in text for suit in ("oros", "copas", "espadas", "bastos")), lines
    assert any(s in text for s in "♦♥♠♣"), lines  # the cards are named, as the faces name them


def test_the_table_chat_is_plain_bounded_rate_limited_stored_and_read_only_for_spectators(
    server: ThreadServer,
) -> None:
    made = create(server, "chinchon/fournier", ["person", "person"])

    async def run() -> None:
        a, b = [await Client.open(server.ws_url, token(s["link"])) for s in made["seats"]]
        watcher = await Client.open(server.ws_url, token(made["spectator"]))
        await a.send({"type": "chat", "text": "  hello <b>there</b>\n\x00 friends  "})
        for page in (a, b, watcher):  # as plain text, on one line, control characters gone
            got = await page.next_of("chat")
            assert got["lines"] == [{"n": 0, "seat": 0, "text": "hello <b>there</b> friends"}]
        await watcher.send({"type": "chat", "text": "I only watch"})
        assert (await watcher.next_of("error"))["code"] == "spectator"
        await b.send({"type": "chat", "text": "x" * 201})
        assert (await b.next_of("error"))["code"] == "too-large"
        for _ in range(4):  # a burst of three, then refused
            await b.send({"type": "chat", "text": "again"})
        codes = [(await b.next_of("chat", "error")).get("code", "chat") for _ in range(4)]
        assert codes.count("chat") == 3 and codes[-1] == "too-fast", codes
        for page in (a, b, watcher):
            await page.close()
        # Stored with the table: a page opened later is sent the lines so far.
        late = await Client.open(server.ws_url, token(made["seats"][0]["link"]))
        lines = (await late.next_of("chat"))["lines"]
        assert [line["text"] for line in lines] == ["hello <b>there</b> friends", "again", "again", "again"]
        await late.close()

    asyncio.run(run())
    assert [r["text"] for r in server.hub.store.chat(made["table"], 50)][:1] == ["hello <b>there</b> friends"]
