"""The web table in a real browser: headless Chromium (Debian's package) through Playwright.

People click: two browser contexts play a whole two-player Chinchón match against each
other while a spectator page follows along; one person plays Fan Tan against three bots
to the end, closing the page in the middle and opening the link again. Every wait is
bounded; nothing depends on timing but the bounds.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import ThreadServer, create

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [
    pytest.mark.browser,
    # skipped where a contributor has no Chromium; in CI, which installs it, a missing browser fails the tests
    pytest.mark.skipif(
        CHROMIUM is None and not os.environ.get("CI"), reason="needs Debian's chromium package (.ci/run installs it)"
    ),
]
STEP = 15_000  # milliseconds a page may take to show the next position
MATCH = 240.0  # seconds a whole match may take


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


def body(page: Any, key: str) -> str:
    return str(page.get_attribute("body", f"data-{key}") or "")


def wait_moved(page: Any, seq: str) -> None:
    page.wait_for_function(
        "s => document.body.dataset.seq !== s || document.body.dataset.phase === 'match-over'", arg=seq, timeout=STEP
    )


def act(page: Any, choose: Any) -> bool:
    """One thing this page's person does now, by clicking; False when there is nothing to do."""
    phase, seq = body(page, "phase"), body(page, "seq")
    if phase == "deal-over":
        nxt = page.locator("#next")
        if nxt.is_visible() and nxt.is_enabled():
            nxt.click()
            page.wait_for_function(
                "() => document.body.dataset.phase !== 'deal-over' || "
                "document.getElementById('next').classList.contains('hidden')",
                timeout=STEP,
            )
            return True
        return False
    if phase != "play" or body(page, "turn") != "yours":
        return False
    choose(page, int(seq))
    wait_moved(page, seq)
    return True


def chinchon_person(page: Any, seq: int) -> None:
    """Closes now and then when a close is offered, draws from the stock, discards by clicking a card.

    Every time, the melds are fanned cards (no bracketed text, no terminal star legend)."""
    melds_shown(page)
    moves = page.locator("#moves button").all_inner_texts()
    closes = [m for m in moves if m.startswith("close")]
    if closes and seq % 5 == 0:
        page.locator(f"#moves button[data-move='{closes[0]}']").click()
        page.locator("#confirm button.primary").click()  # the close shows its melds and points first (CH-4.3)
    elif "draw stock" in moves:
        page.locator("#moves button[data-move='draw stock']").click()
    else:
        page.locator("#hand-cards button.card").first.click()
        chooser = page.locator("#chooser")
        if chooser.is_visible():  # the card may be discarded or closed with: discard it
            chooser.locator("button", has_text="discard").first.click()


def melds_shown(page: Any) -> None:
    """Issue 27: each meld is a fan of cards, each card partly over the one before; no "[", no "(* in a meld)"."""
    words, fans = page.evaluate(
        """() => [document.getElementById("hand").innerText,
            [...document.querySelectorAll("#hand .fan")].map(f => [...f.querySelectorAll(".card")].map(c => {
                const r = c.getBoundingClientRect(); return [r.left, r.right]; }))]"""
    )
    assert "[" not in words and "(*" not in words, words
    for fan in fans:
        assert len(fan) >= 2 and all(a[1] > b[0] for a, b in zip(fan, fan[1:], strict=False)), fans


def fantan_person(page: Any, seq: int) -> None:
    """Plays a card that fits (the table marks them), by clicking it; else passes.

    One look finds what to click, a marked card or else the pass: counting the marked cards first
    and clicking the pass after was two looks, and a page drawn again between them left the person
    waiting for a pass button the position did not have."""
    page.locator("#hand-cards button.card.marked, #moves button").first.click(timeout=STEP)


def test_two_people_play_chinchon_to_the_end_while_a_spectator_watches(server: ThreadServer, browser: Any) -> None:
    made = create(
        server,
        "chinchon/fournier",
        ["person", "person"],
        seed="browser",
        options={"close_limit": "100", "bust": "60"},
    )
    pages = []
    for link in [s["link"] for s in made["seats"]] + [made["spectator"]]:
        page = browser.new_context(viewport={"width": 900, "height": 900}).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(server.url + link)
        pages.append((page, errors))
    people, (watcher, watcher_errors) = pages[:2], pages[2]
    deadline = time.monotonic() + MATCH
    clicks = 0
    while body(people[0][0], "phase") != "match-over":
        assert time.monotonic() < deadline, "the match did not end in time"
        moved = False
        for page, _ in people:
            moved = act(page, chinchon_person) or moved
        clicks += moved
        if not moved:
            people[0][0].wait_for_timeout(50)
    for page, errors in people:
        page.wait_for_selector("body[data-phase='match-over']", timeout=STEP)
        assert page.locator("#result").is_visible() and "the match is over" in page.inner_text("#title")
        assert not errors
    watcher.wait_for_selector("body[data-phase='match-over']", timeout=STEP)
    assert watcher.locator("#hand").is_hidden()  # a spectator holds no hand
    assert "the match is over" in watcher.inner_text("#title") and not watcher_errors
    assert clicks > 5
    for page, _ in (*people, (watcher, [])):  # every page checked the revealed seed against its commitment
        page.wait_for_selector("#fair-verdict", timeout=STEP)
        assert page.inner_text("#fair-verdict").startswith("✓"), page.inner_text("#fair")
        assert page.locator("#record").get_attribute("href") == f"/api/tables/{made['table']}/record"
    sheet = people[0][0]
    sheet.click("#show-sheet")
    assert sheet.locator("table.sheet tr").count() >= 2  # a header and at least one deal
    # The totals line agrees with the score sheet's last totals (it was one deal behind).
    totals = sheet.eval_on_selector("table.sheet tr:last-child", "tr => [...tr.cells].map(c => c.textContent)")
    line = sheet.inner_text("#scores").splitlines()[0]
    in_line = re.findall(r"(?:you|seat \d+) (-?\d+)", line)
    in_sheet = [re.search(r"\((-?\d+)\)$", cell).group(1) for cell in totals[1:]]  # type: ignore[union-attr]
    assert line.startswith("totals: ") and in_line == in_sheet, (line, totals)

    assert sheet.inner_text("#points").startswith("this deal: you ")  # the points each gained in the last deal

    # Play again: one click seats both people at a new table, with a new commitment.
    first, second = people[0][0], people[1][0]
    old = first.inner_text("#fair code")
    first.click("#again")
    first.wait_for_function("() => document.body.dataset.phase === 'play'", timeout=STEP)
    second.wait_for_selector("#again:text('Join the new table')", timeout=STEP)
    second.click("#again")
    second.wait_for_function("() => document.body.dataset.phase === 'play'", timeout=STEP)
    new = next(r.table for t, r in server.hub.rooms.items() if t != made["table"])
    assert [st.connections > 0 for st in new.status] == [True, True]
    assert first.inner_text("#fair code") != old


def on_a_phone(page: Any, width: int) -> None:
    """Every card played to Fan Tan's suit rows lies inside the screen, and every button is a 44-px target."""
    page.wait_for_selector("#table .row.grid .card", timeout=STEP)
    boxes = page.eval_on_selector_all(
        "#table .row.grid .card",
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })",
    )
    assert boxes and all(0 <= left and right <= width for left, right in boxes), boxes
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing to scroll sideways
    sizes = page.eval_on_selector_all(
        "button",
        "els => els.filter(e => e.offsetParent).map(e => [e.textContent, e.getBoundingClientRect().width,"
        " e.getBoundingClientRect().height])",
    )
    small = [(text, w, h) for text, w, h in sizes if w < 44 or h < 44]
    assert sizes and not small, small
    # The card just played (the recap's last move) is the one highlighted on the table.
    last, lit, on_table = page.evaluate(  # read at one moment: a bot's move may redraw the page between reads
        """() => [
            [...document.querySelectorAll("#recap li:last-child .card")].map(e => e.dataset.card),
            [...document.querySelectorAll("#table .card.last")].map(e => e.dataset.card),
            [...document.querySelectorAll("#table .card")].map(e => e.dataset.card),
        ]"""
    )
    assert lit == [c for c in last if c in on_table], (last, lit)


def test_one_person_plays_fan_tan_against_three_bots_and_comes_back(server: ThreadServer, browser: Any) -> None:
    made = create(
        server,
        "fantan/pagat",
        ["person", "sensible", "sensible", "ismcts:iterations=10"],
        seed="fan tan",
        options={"wins_to": "2"},
    )
    link = server.url + made["seats"][0]["link"]
    context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone-sized screen
    page = context.new_page()
    page.goto(link)
    deadline = time.monotonic() + MATCH
    moves = 0
    reopened = False
    while body(page, "phase") != "match-over":
        assert time.monotonic() < deadline, "the match did not end in time"
        if act(page, fantan_person):
            moves += 1
        else:
            page.wait_for_timeout(50)
        if moves in (2, 8):
            on_a_phone(page, 390)
        if moves == 4 and not reopened:  # close the page mid-deal and open the link again
            seq = body(page, "seq")
            page.close()
            page = context.new_page()
            page.goto(link)
            page.wait_for_function("s => Number(document.body.dataset.seq) >= Number(s)", arg=seq, timeout=STEP)
            assert page.locator("#hand-cards button.card").count() > 0
            reopened = True
    assert reopened and moves > 4
    assert "the match is over" in page.inner_text("#title")
    steps = server.hub.store.steps(made["table"])
    assert any(s["kind"] == "next" for s in steps)  # a second deal was started by clicking "next deal"
    assert [s["by"] for s in steps if s["seat"] == 0] == ["person"] * sum(1 for s in steps if s["seat"] == 0)


def places(page: Any) -> dict[str, Any]:
    """Where the page drew each seat, the middle and each card of the trick, read at one moment."""
    return dict(
        page.evaluate(
            """() => {
            const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
            const seats = {}, facts = {}, played = {};
            for (const e of document.querySelectorAll("#felt .seat")) {
                seats[e.dataset.seat] = box(e);
                facts[e.dataset.seat] = e.querySelector(".facts") ? e.querySelector(".facts").textContent : "";
            }
            for (const e of document.querySelectorAll("#trick .played"))
                played[e.dataset.seat] = [box(e), [...e.querySelectorAll(".card")].map((c) => c.dataset.card)];
            return {seats, facts, played, mid: box(document.querySelector("#felt .mid")),
                    labels: [...document.querySelectorAll("#table .row .label")].map((e) => e.textContent),
                    note: (document.querySelector("#middle-note") || {}).innerText || "",
                    state: state};
        }"""
        )
    )


def ahead(seat: str, mine: tuple[float, float], other: tuple[float, float]) -> bool:
    """Whether a card at ``mine`` lies nearer ``seat``'s side of the trick than one at ``other`` (four seats)."""
    (x, y), (ox, oy) = mine, other
    return {"0": y > oy, "1": x < ox, "2": y < oy, "3": x > ox}[seat]


def test_hearts_is_drawn_round_the_table_with_the_pass_and_the_trick(server: ThreadServer, browser: Any) -> None:
    """Issue 27: seats around the table (you at the bottom, the next to play at your left), each with its
    hand size and tricks, the pass screen (HE-2.3), and each card of the trick in front of who played it."""
    made = create(server, "hearts/classic", ["person", "random", "random", "random"], seed="round the table")
    page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + made["seats"][0]["link"])
    page.wait_for_selector("body[data-turn='yours']", timeout=STEP)
    assert "choose 3 cards to pass to the left" in page.inner_text("#hand-rows")  # the pass screen (HE-2.3)
    # the cards are chosen by clicking them: no row of "pass 2♠" buttons saying the hand a second time
    assert page.locator("#hand-cards button.card").count() == 13
    assert not [b for b in page.locator("#moves button").all_inner_texts() if b.startswith("pass ")]
    at = places(page)
    left, top, right, bottom = at["mid"]
    assert at["seats"]["0"][1] >= bottom  # you below the middle
    assert at["seats"]["1"][2] <= left  # the next to play (HE: to the left) at your left
    assert at["seats"]["2"][3] <= top  # across the table above
    assert at["seats"]["3"][0] >= right
    assert all(f == "13 cards · 0 tricks" for f in at["facts"].values()), at["facts"]
    # The hand sizes and tricks are said at the seats, so the rows saying them again are left out.
    assert not {"trick", "tricks taken", "other hands"} & set(at["labels"]), at["labels"]
    for _ in range(3):  # choose the three cards to pass, one click each
        seq = body(page, "seq")
        page.locator("#hand-cards button.card.marked").first.click()
        wait_moved(page, seq)
    seen_trick = 0
    deadline = time.monotonic() + MATCH
    while seen_trick < 3:
        assert time.monotonic() < deadline, "no trick was seen in time"
        at = places(page)
        state = at["state"]
        for seat, (box, cards) in at["played"].items():
            place = next(p for p in state["seats"] if str(p["seat"]) == seat)
            assert cards == [c["c"] for c in place["played"]]  # the card this seat put in the trick
            x = (box[0] + box[2]) / 2
            y = (box[1] + box[3]) / 2
            others = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for s, (b, _) in at["played"].items() if s != seat]
            # In front of its seat: the bottom card lowest, the left one leftmost, and so on round.
            assert all(ahead(seat, (x, y), o) for o in others), at["played"]
        if at["state"]["middle"]:  # between two tricks: the last one, all four cards, until the next is led
            assert len(at["played"]) == 4 and at["note"] == at["state"]["middle"]  # read at the same moment
        if len(at["played"]) >= 2:
            seen_trick += 1
        if body(page, "turn") == "yours":
            seq = body(page, "seq")
            page.locator("#hand-cards button.card.marked").first.click()
            wait_moved(page, seq)
        else:
            page.wait_for_timeout(30)
    lasts = page.eval_on_selector_all("#felt .seat .lastmove", "els => els.map(e => e.textContent)")
    assert lasts and all(t.startswith("last: ") for t in lasts)  # what each seat did last, at its place
    assert not errors
