"""The server holds the truth: no message to a seat names a card that seat cannot see.

For every registered variant a whole match is played through a real server, one client
per seat and one spectator, over real sockets. The clients play like impatient people:
half the time they ask for a hint and play it, else mostly the move that ends a deal
soonest; now and then they try a move the game refuses, send a stale move, or close the
page and open the link again. (Following the hint keeps every match short whatever the
timing: random play alone can draw deal after deal, as in Oklahoma Gin, where a low
upcard leaves no knock within reach.) Afterwards the stored steps are replayed
independently (`replaying.Replayed`) and every message each page received is checked
against the view of its seat at the position the message names: every card named
anywhere in it, in any field, must be one the seat has seen; the spectators' messages
only cards every seat has seen; and each state's hand is the seat's hand. A page that
holds the seat's previous state is sent only what changed: each change is checked as it
came, and so is the table the page holds after merging it.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from tapete import Action
from tapete.testing import variant_params

from .conftest import STORES_HEAVY, Client, ThreadServer, create, token
from .replaying import SPECTATOR, Replayed, card_pattern, reads_the_same, strings

# Options that keep a match short (a few deals) where a variant declares them.
SHORT = {
    "chinchon": {"close_limit": "100", "bust": "20"},
    "gin": {"game_to": "15"},
    "fantan": {"wins_to": "2", "limit": "10"},
    "chinese-ten": {"deals": "2"},
    "scopa": {"target": "3"},
    "eights": {"target": "20"},
    "hearts": {"limit": "1"},
    "briscola": {"wins": "1"},
    "spades": {"target": "200", "floor": "-200"},
}
EAGER = ("close", "knock", "gin", "capture", "take")
MAX_STEPS = 3000  # a match longer than this through the server fails the test instead of running on


def short_options(name: str) -> dict[str, str]:
    from tapete.testing import variant

    v = variant(name)
    wanted = SHORT.get(v.spec.game, {})
    return {k: val for k, val in wanted.items() if k in v.spec.declarations}


Log = list[tuple[int, dict[str, Any]]]
Probes = dict[tuple[int, int], str]  # (seat, position) -> the move sent to be refused


async def person(ws_url: str, tok: str, rng: random.Random, log: Log, probes: Probes) -> None:
    """Plays one seat to the match's end, with the odd refused move, hint, stale message and reconnect."""
    client = await Client.open(ws_url, tok)
    acted = -1
    ahead: list[dict[str, Any]] = []  # a state heard while waiting for a hint
    try:
        while True:
            msg = ahead.pop() if ahead else await client.recv()
            if msg["type"] != "state":
                continue
            assert not msg.get("broken"), msg.get("broken")
            assert msg["seq"] <= MAX_STEPS, "the match is too long for the test"
            if msg["phase"] == "match-over":
                return
            seq = msg["seq"]
            if seq <= acted:
                continue
            me = msg["seats"][client.seat]
            if msg["phase"] == "deal-over" and not me["ready"]:
                acted = seq
                await client.send({"type": "next", "seq": seq})
                continue
            moves = msg["moves"]
            if not moves:
                continue
            acted = seq
            roll = rng.random()
            if roll < 0.06:  # a card of the hand as a move the game must refuse (when there is one)
                starts = {m["cards"][0] for m in moves if m["cards"]}
                others = [c["c"] for c in msg["hand"] if c["c"] not in starts]
                if others:
                    probe = f"{msg['card_move']} {rng.choice(others)}"
                    probes[(client.seat, seq)] = probe
                    await client.send({"type": "move", "seq": seq, "move": probe})
            elif roll < 0.09 and seq > 0:
                await client.send({"type": "move", "seq": seq - 1, "move": moves[0]["text"]})
            pick = None
            if rng.random() < 0.5:
                pick, newer = await hinted(client, seq)
                if newer is not None:  # the table moved on (another seat's choice in a shared phase): act on that
                    ahead.append(newer)
                    continue
            if pick is None:
                eager = [m for m in moves if m["kind"] in EAGER]
                pick = rng.choice(eager if eager and rng.random() < 0.8 else moves)["text"]
            await client.send({"type": "move", "seq": seq, "move": pick})
            if rng.random() < 0.04:  # close the page and open the link again
                log.extend((client.seat, m) for m in sent(client))
                await client.close()
                client = await Client.open(ws_url, tok)
                acted = -1
    finally:
        log.extend((client.seat, m) for m in sent(client))
        await client.close()


async def hinted(client: Client, seq: int) -> tuple[str | None, dict[str, Any] | None]:
    """Asks for a hint at position ``seq`` and waits for it: (the hinted move, None); (None, None) when the
    server gives none (another seat's hint being worked out); (None, a newer state) when the table moved first."""
    await client.send({"type": "hint"})
    while True:
        msg = await client.recv()
        if msg["type"] == "hint" and msg["seq"] == seq:
            return str(msg["move"]), None
        if msg["type"] == "error" and msg.get("code") == "no-hint":
            return None, None
        if msg["type"] == "state" and msg["seq"] != seq:
            return None, msg


def sent(client: Client) -> list[dict[str, Any]]:
    """Every table the page held (changes merged) and every change as it came."""
    return client.received + [m for m in client.raw if m["type"] == "change"]


async def spectator(ws_url: str, tok: str, log: list[tuple[int, dict[str, Any]]]) -> None:
    client = await Client.open(ws_url, tok)
    try:
        while True:
            msg = await client.recv()
            if msg["type"] == "state" and msg["phase"] == "match-over":
                return
    finally:
        log.extend((SPECTATOR, m) for m in sent(client))
        await client.close()


async def play_match(srv: ThreadServer, name: str, seed: int) -> tuple[dict[str, Any], Log, Probes]:
    from tapete.testing import variant

    players = variant(name).player_range()[0]
    made = create(srv, name, ["person"] * players, seed=str(seed), options=short_options(name))
    log: Log = []
    probes: Probes = {}
    rng = random.Random(seed)
    tasks = [person(srv.ws_url, token(s["link"]), random.Random(rng.random()), log, probes) for s in made["seats"]]
    tasks.append(spectator(srv.ws_url, token(made["spectator"]), log))
    await asyncio.wait_for(asyncio.gather(*tasks), 300)
    return made, log, probes


def check_log(srv: ThreadServer, made: dict[str, Any], log: Log, probes: Probes) -> dict[str, int]:
    hub = srv.hub
    table = hub.rooms[made["table"]].table
    cfg = table.config
    keep = {seq for _, seq in probes}
    replay = Replayed(cfg.variant, cfg.options, cfg.players, cfg.seed, hub.store.steps(table.id), keep)
    find = card_pattern(replay.names)
    counts = {"messages": 0, "refused": 0, "states": 0, "reveals": 0, "changes": 0}
    for seat, msg in log:
        counts["messages"] += 1
        names = {m for text in strings(msg) for m in find.findall(text)}
        if "seq" not in msg or msg["seq"] is None:
            assert not names, f"seat {seat}: a message naming no position names cards: {msg}"
            continue
        seq = msg["seq"]
        allowed = replay.allowed[(seq, seat)]
        leaked = names - allowed
        if leaked and msg["type"] == "refused":
            # The game's words may name a card as the rules do ("J♠ is not on the table"): allowed
            # when they read the same however the cards hidden from the seat lie.
            state, seats = replay.states[seq]
            action = Action.parse(probes[(seat, seq)], replay.game.deck)
            if reads_the_same(replay.game, state, seats.index(seat), action, msg["message"]):
                leaked = set()
        assert not leaked, f"seat {seat} at position {seq} was sent {sorted(leaked)} it cannot see: {msg}"
        if msg["type"] == "state":
            counts["states"] += 1
            counts["reveals"] += msg["reveal"] is not None
            if seat != SPECTATOR:
                assert sorted(c["c"] for c in msg["hand"]) == replay.hands[(seq, seat)]
        counts["refused"] += msg["type"] == "refused"
        counts["changes"] += msg["type"] == "change"
    return counts


@pytest.mark.parametrize("database", STORES_HEAVY, indirect=True)
@pytest.mark.parametrize("name", variant_params())
def test_no_message_names_a_card_its_seat_cannot_see(name: str, any_server: ThreadServer) -> None:
    server = any_server
    made, log, probes = asyncio.run(play_match(server, name, seed=sum(map(ord, name))))
    counts = check_log(server, made, log, probes)
    assert counts["reveals"] > 0  # the deal's end, every card shown, was checked too
    assert counts["changes"] > 0  # and so were the changes sent to pages that held the table
    assert server.hub.rooms[made["table"]].table.phase == "match-over"
