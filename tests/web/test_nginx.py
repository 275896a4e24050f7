"""docs/web/nginx.conf works as written: HTTPS in front of two servers on one database, routed by table.

The configuration of docs/web.md's deployment section is run by a real nginx (Debian's
package), with only its ports and a self-signed certificate filled in: a table opened
through it over HTTPS is played over ``wss://``; its server is killed with SIGKILL; the
page, reconnecting through nginx, reaches the other server, which takes the table over
once its lease has run out, and the match plays on with every acknowledged move.
Skipped where nginx or openssl is not installed.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import ssl
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .conftest import WAIT, Client, ProcessServer, first_in_play, free_port, stored_rows
from .test_resume import FORM, SEATS, play

CONF = Path(__file__).resolve().parents[2] / "docs" / "web" / "nginx.conf"
pytestmark = [
    pytest.mark.slow,  # nginx, two servers, a lease waited out: about 8 s
    pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed (Debian: apt-get install nginx)"),
    pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed"),
]


def configured(tmp: Path, port: int, upstreams: list[int]) -> Path:
    """docs/web/nginx.conf with this test's ports, certificate and files (nothing else changed)."""
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"]
        + ["-keyout", str(tmp / "key.pem"), "-out", str(tmp / "cert.pem")],
        check=True,
        capture_output=True,
        timeout=60,
    )
    text = CONF.read_text()
    for old, new in (
        ("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;"),
        ("/etc/ssl/certs/cards.example.org.pem", str(tmp / "cert.pem")),
        ("/etc/ssl/private/cards.example.org.key", str(tmp / "key.pem")),
        ("127.0.0.1:8001", f"127.0.0.1:{upstreams[0]}"),
        ("127.0.0.1:8002", f"127.0.0.1:{upstreams[1]}"),
    ):
        assert old in text, old
        text = text.replace(old, new)
    (tmp / "logs").mkdir()
    conf = tmp / "nginx.conf"
    conf.write_text(text)
    return conf


def test_the_documented_nginx_routes_by_table_over_https_and_fails_over(tmp_path: Path) -> None:
    port = free_port()
    origin = f"https://127.0.0.1:{port}"
    options = ("--lease", "1", "--allow-origin", origin)
    db = tmp_path / "tables.db"
    servers = [ProcessServer(db, options=options).start() for _ in range(2)]
    conf = configured(tmp_path, port, [s.port for s in servers])
    prefix = ["nginx", "-p", str(tmp_path), "-c", str(conf)]
    checked = subprocess.run([*prefix, "-t"], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr
    nginx = subprocess.Popen([*prefix, "-g", f"daemon off; pid {tmp_path}/nginx.pid;"], stderr=subprocess.PIPE)
    tls = ssl.create_default_context()
    tls.check_hostname, tls.verify_mode = False, ssl.CERT_NONE
    try:
        ws_url = f"wss://127.0.0.1:{port}/ws"

        async def before(link: str) -> list[int] | None:
            # nginx may send the page to the server that did not open the table: it asks, and the page
            # tries again (as the page does) until the other hands the table over.
            page, _ = await Client.reopen(ws_url, link, ssl=tls)
            over = (await play(page, stop_after=8)).get("phase") == "match-over"
            await page.close()
            return None if over else [m["seq"] for m in page.raw if m["type"] == "ack"]

        made, link, acked = first_in_play(lambda: _open_table(origin, tls), before, 8)
        (holder,) = stored_rows(db, f"SELECT holder FROM leases WHERE table_id = '{made['table']}'")[0]
        playing = next(s for s in servers if holder.endswith(f":{s.port}"))
        playing.kill()
        stored = stored_rows(db, f"SELECT seq FROM steps WHERE table_id = '{made['table']}' ORDER BY seq")
        assert acked and all((seq,) in stored for seq in acked)

        async def after() -> dict[str, Any]:
            page, _ = await Client.reopen(ws_url, link, ssl=tls)  # nginx tries the next server
            try:
                return await play(page)
            finally:
                await page.close()

        end = asyncio.run(after())
        assert end["phase"] == "match-over"
        final = stored_rows(db, f"SELECT seq FROM steps WHERE table_id = '{made['table']}' ORDER BY seq")
        assert final[: len(stored)] == stored and len(final) > len(stored)
    finally:
        nginx.terminate()
        nginx.wait(WAIT)
        for s in servers:
            s.stop()


def _open_table(origin: str, tls: ssl.SSLContext) -> dict[str, Any]:
    """A table opened through nginx, as the lobby's page opens it (its Origin is the proxy's)."""
    body = {"variant": "chinchon/fournier", "players": 3, "pace": 0, **FORM}
    body["seats"] = [{"kind": "person"} if s == "person" else {"kind": "bot", "bot": s} for s in SEATS]
    headers = {"Content-Type": "application/json", "Origin": origin}
    req = urllib.request.Request(origin + "/api/tables", json.dumps(body).encode(), headers, method="POST")
    deadline = time.monotonic() + WAIT
    while True:
        try:
            with urllib.request.urlopen(req, timeout=WAIT, context=tls) as resp:
                return dict(json.loads(resp.read()))
        except OSError:  # nginx still starting
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
