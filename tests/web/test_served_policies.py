"""A learned agent at the web table: a policy the server's operator serves by name (``--policy NAME=FILE``).

A page may not have the server open a file of its choosing (test_file_bots.py), so the person
who runs the server names the policies it trusts, and the lobby offers each, as the bot
``policy:name=NAME``, at the tables of the variant it learned. These tests seat one at a real
server over real sockets and check that it plays the moves the policy itself chooses from that
seat's view, that no page is ever shown the file's path, and that a server started again
without the name says so for its tables rather than seating another file.

They load PyTorch (the ``rl-train`` extra): the rl_train tier runs them (``pytest -m rl_train``), the
last one in headless Chromium as the browser tier does.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from tapete.core.rng import Random
from tapete.web.tables import BY_LATE, BY_STAND_IN, LiveTable

from .conftest import (
    FAST,
    WAIT,
    Client,
    ProcessServer,
    ThreadServer,
    create,
    get,
    post,
    stored_rows,
    token,
    unavailable,
)
from .test_resume import play

pytestmark = pytest.mark.rl_train

VARIANT = "briscola/classic"


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An (untrained) MaskablePPO policy for two-player Briscola, saved as `tapete.rl` saves a learner."""
    pytest.importorskip("torch", reason="needs the rl-train extra")
    sb3_contrib = pytest.importorskip("sb3_contrib", reason="needs the rl-train extra")
    from stable_baselines3.common.vec_env import DummyVecEnv

    from tapete import rl
    from tapete.policy import save_policy

    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", DummyVecEnv([lambda: rl.env(VARIANT, "random")]), policy_kwargs={"net_arch": [32]}, seed=0
    )
    return save_policy(model, rl.env(VARIANT, "random"), tmp_path_factory.mktemp("served") / "learner.zip")


def served(tmp_path: Path, policy_file: Path) -> ThreadServer:
    import dataclasses

    limits = dataclasses.replace(FAST, policies=(("learner", str(policy_file)),))
    return ThreadServer(tmp_path / "tables.db", limits).start()


async def play_seat(ws_url: str, link: str) -> dict[str, Any]:
    """The person's seat plays its moves to the match's end (`test_resume.play`); the last state."""
    client = await Client.open(ws_url, token(link))
    try:
        return await play(client)
    finally:
        await client.close()


def test_the_lobby_offers_a_served_policy_at_its_own_game_and_it_plays_the_policys_moves(tmp_path, policy_file):
    from tapete.policy import PolicyBot

    srv = served(tmp_path, policy_file)
    try:
        status, body = get(srv.url + "/api/variants")
        assert status == 200
        offered = {v["name"]: v["bots"] for v in json.loads(body)}
        assert "policy:name=learner" in offered[VARIANT]
        assert not [name for name, bots in offered.items() if "policy:name=learner" in bots and name != VARIANT]
        assert str(policy_file) not in body.decode()

        made = create(srv, VARIANT, ["person", "policy:name=learner"], seed="served-1")
        last = asyncio.run(asyncio.wait_for(play_seat(srv.ws_url, made["seats"][0]["link"]), WAIT))
        assert last["phase"] == "match-over"
        stored = srv.hub.store.load(made["table"])  # the bot may move on meanwhile: these steps are judged
        theirs = [s for s in stored.steps if s.kind == "move" and s.seat == 1]
        assert len(theirs) >= 10, "the policy's seat did not play"
        assert not [s for s in theirs if s.by in (BY_LATE, BY_STAND_IN)], "a stand-in played for the policy"

        # Replayed apart from the server, the policy chooses every one of those moves from its seat's view.
        table = LiveTable("replay", stored.config, srv.hub.variant(VARIANT), resolve=srv.hub.policies.resolve)
        bot = PolicyBot(table.game, 1, Random(0), path=str(policy_file))
        agreed = 0
        for step in stored.steps:
            if step.kind == "move" and step.seat == 1:
                assert bot.choose(table.view(1), list(table.legal())).text(table.deck) == step.move, step
                agreed += 1
            table.apply(step)
        assert agreed == len(theirs)

        status, record = get(srv.url + f"/api/tables/{made['table']}/record")
        assert status == 200 and "policy:name=learner" in record.decode()
        assert str(policy_file) not in record.decode() and "learner.zip" not in record.decode()
        assert [r for r in stored_rows(srv.db, "SELECT config FROM tables") if "learner.zip" in str(r)] == []
    finally:
        srv.stop()


def test_a_page_cannot_seat_a_policy_the_server_does_not_serve_or_at_a_game_it_did_not_learn(tmp_path, policy_file):
    srv = served(tmp_path, policy_file)
    try:
        cases: list[tuple[str, int, dict[str, str], str, str]] = [
            (VARIANT, 2, {}, "policy:name=other", "no policy other is served here (policy:name=NAME; served: learner)"),
            (VARIANT, 2, {}, f"policy:path={policy_file}", "reads a file on the server: a page cannot seat it"),
            ("fantan/pagat", 3, {}, "policy:name=learner", "learned briscola/classic, not fantan/pagat"),
            (
                "briscola/four-player",
                4,
                {},
                "policy:name=learner",
                "learned briscola/classic, not briscola/four-player",
            ),
            (VARIANT, 2, {"wins": "3"}, "policy:name=learner", "with its options as they were"),
        ]
        for variant, players, options, spec, words in cases:
            seats: list[dict[str, Any]] = [{"kind": "person"}, {"kind": "bot", "bot": spec}]
            form = {"variant": variant, "players": players, "seats": seats, "options": options}
            status, reply = post(srv.url + "/api/tables", form)
            assert status == 400, (spec, reply)
            assert words in json.dumps(reply, ensure_ascii=False), reply
            assert "learner.zip" not in json.dumps(reply) or spec.startswith("policy:path"), reply
        assert srv.hub.rooms == {}
    finally:
        srv.stop()


def test_a_server_started_again_without_a_policy_lists_its_tables_as_not_loadable_naming_it(tmp_path, policy_file):
    db = tmp_path / "tables.db"
    first = ProcessServer(db, options=("--policy", f"learner={policy_file}")).start()
    try:
        made = create(first.url, VARIANT, ["person", "policy:name=learner"])
    finally:
        first.stop()
    again = ProcessServer(db).start()  # the same database, no --policy
    try:
        status, body = get(again.url + "/api/tables")
        assert status == 200
        listed = json.loads(body)
        text = json.dumps(listed)
        assert made["table"] in text and "no policy learner is served here" in text, text
        assert "learner.zip" not in text
    finally:
        again.stop()


def test_a_person_seats_the_policy_from_the_lobby_and_plays_briscola_against_it_in_a_browser(tmp_path, policy_file):
    """The lobby's form, in headless Chromium, offers the served policy for seat 1; the person opens the
    table, plays every trick by clicking a card, and the policy's seat says who plays it."""
    import shutil
    import time

    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        unavailable("no chromium (Debian's package) on this machine")
    from .test_browser import MATCH, STEP, act, body

    def briscola_person(page: Any, seq: int) -> None:
        page.locator("#hand-cards button.card").first.click()

    srv = served(tmp_path, policy_file)
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            try:
                page = browser.new_page()
                page.goto(srv.url + "/")
                page.wait_for_selector("body[data-ready='1']", timeout=STEP)
                page.select_option("#variant", VARIANT)
                page.select_option("select[data-seat='1']", "policy:name=learner")
                page.fill("#pace", "0")
                page.click("#create")
                link = page.locator("#links li[data-link='seat 0'] a").get_attribute("href", timeout=STEP)
                assert link
                page.goto(link)
                page.wait_for_selector("#felt .seat[data-seat='1'] .who", timeout=STEP)
                assert "policy:name=learner" in page.inner_text("#felt .seat[data-seat='1'] .who")
                deadline = time.monotonic() + MATCH
                while body(page, "phase") != "match-over":
                    assert time.monotonic() < deadline, "the match did not end in time"
                    if not act(page, briscola_person):
                        page.wait_for_timeout(50)
                assert str(policy_file) not in page.content()
            finally:
                browser.close()
        (table,) = srv.hub.rooms
        moves = [s for s in srv.hub.store.steps(table) if s["kind"] == "move"]
        assert {s["seat"] for s in moves} == {0, 1} and len(moves) % 40 == 0  # every deal played to its last card
    finally:
        srv.stop()
