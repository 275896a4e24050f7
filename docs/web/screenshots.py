"""The pictures of docs/web.md, taken in headless Chromium from a real server on a loopback port.

    python docs/web/screenshots.py            # writes docs/web/*.png

Each table is opened through the lobby's API with a fixed seed (given through the Python
API, as the tests do: the web form takes none), a person's seat is played by clicking as a
person would, and the page is photographed; so the pictures show what the code draws now.
"""

from __future__ import annotations

import json
import shutil
import socket
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import Page, sync_playwright

from tapete.web.app import make_app, uvicorn_options
from tapete.web.guards import Limits

HERE = Path(__file__).resolve().parent
# picture, variant, seats, options, screen, the person's moves before it is taken, or the phase to play to
SHOTS: list[tuple[str, str, list[str], dict[str, str], str, int, str]] = [
    ("fantan.png", "fantan/pagat", ["person", "sensible", "sensible", "sensible"], {}, "phone", 6, ""),
    ("chinchon.png", "chinchon/fournier", ["person", "heuristic"], {}, "laptop", 6, ""),
    ("chinese-ten.png", "chinese-ten/two-player", ["person", "greedy"], {}, "laptop", 3, ""),
    ("scopone-phone.png", "scopa/scopone", ["person", "random", "random", "random"], {}, "phone", 2, ""),
    ("hearts.png", "hearts/classic", ["person", "random", "random", "random"], {}, "laptop", 5, ""),
    ("briscola-phone.png", "briscola/classic", ["person", "random"], {}, "phone", 2, ""),
    ("fair.png", "fantan/pagat", ["person", "random", "random"], {"wins_to": "1"}, "laptop", 0, "match-over"),
]
SEEDS = [f"pictures-{n}" for n in range(1, 9)]


def start(db: Path) -> tuple[str, uvicorn.Server]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    seeds = list(SEEDS)
    app = make_app(db, seeds=lambda: seeds.pop(0), limits=Limits())
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, **uvicorn_options(Limits())))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server


def table(base: str, variant: str, seats: list[str], **form: Any) -> dict[str, Any]:
    body = {
        "variant": variant,
        "players": len(seats),
        "seats": [{"kind": "person"} if s == "person" else {"kind": "bot", "bot": s} for s in seats],
        "pace": 0,
        **form,
    }
    req = urllib.request.Request(
        base + "/api/tables", json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        return dict(json.loads(resp.read()))


def play(page: Page, moves: int, until: str = "") -> None:
    """Make ``moves`` moves as a person would (a marked card, else the first button), or play until ``until``."""
    made = 0
    while made < moves or (until and page.evaluate("document.body.dataset.phase") != until):
        if page.evaluate("document.body.dataset.phase") == "match-over":
            return
        seq = page.evaluate("document.body.dataset.seq")
        again = page.locator("#next:not(.hidden)")
        marked = page.locator("#hand-cards button.card.marked:not([disabled])")
        buttons = page.locator("#moves button:not([disabled])")
        plain = page.locator("#moves button.primary:not([disabled])")  # a move naming no card: draw, pass
        if again.count():
            again.first.click()
        elif plain.count():
            plain.first.click()
        elif marked.count():
            marked.first.click()
        elif buttons.count():
            buttons.first.click()
        else:
            page.wait_for_timeout(50)
            continue
        chooser = page.locator("#chooser:not(.hidden) button")
        if chooser.count():  # the card starts more than one move: the first
            chooser.first.click()
        confirm = page.locator("#confirm:not(.hidden) button")
        if confirm.count():
            confirm.first.click()
        page.wait_for_function("s => document.body.dataset.seq !== s", arg=seq, timeout=15_000)
        made += 1


def shoot(page: Page, name: str) -> None:
    page.wait_for_timeout(300)
    page.screenshot(path=str(HERE / name), full_page=True)
    print(f"docs/web/{name}")


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        base, server = start(Path(tmp) / "tables.db")
        browser = pw.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        laptop = {"viewport": {"width": 1000, "height": 900}}
        phone = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2}
        try:
            page = browser.new_context(**laptop).new_page()
            page.goto(base + "/")
            page.wait_for_selector("body[data-ready='1']")
            shoot(page, "lobby.png")

            for name, variant, seats, options, screen, moves, until in SHOTS:
                made = table(base, variant, seats, options=options)
                page = browser.new_context(**(phone if screen == "phone" else laptop)).new_page()
                page.goto(base + made["seats"][0]["link"])
                play(page, moves, until)
                if until:
                    page.wait_for_selector("#fair-verdict")
                shoot(page, name)
        finally:
            browser.close()
            server.should_exit = True
    return 0


if __name__ == "__main__":
    sys.exit(main())
