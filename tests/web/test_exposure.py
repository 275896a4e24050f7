"""A page of another site cannot use the server, and every response carries the security headers.

A browser sends ``Origin`` with every WebSocket and every POST: a page of another site (or a
name of its own made to resolve to 127.0.0.1, DNS rebinding) is refused, the server's own
pages and the origins the host allowed with ``--allow-origin`` are answered. The headers are
checked on pages, static files, API answers and error pages alike.
"""

from __future__ import annotations

import asyncio
import http.client
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tapete.web.guards import Limits

from .conftest import FAST, WAIT, Client, ThreadServer, create, token

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PROXY = "https://cards.example.org"


@pytest.fixture
def proxied(tmp_path: Path) -> Any:
    limits = Limits(**{**FAST.__dict__, "allow_origins": (PROXY,), "max_body": 2048})
    srv = ThreadServer(tmp_path / "tables.db", limits).start()
    try:
        yield srv
    finally:
        srv.stop()


def request(srv: ThreadServer, method: str, path: str, headers: dict[str, str], body: Any = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=WAIT)
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.putrequest(method, path, skip_host="Host" in headers)
        for k, v in {"Content-Type": "application/json", **headers}.items():
            conn.putheader(k, v)
        conn.putheader("Content-Length", str(len(data or b"")))
        conn.endheaders(data)
        resp = conn.getresponse()
        resp.read()
        return resp.status, dict(resp.getheaders())
    finally:
        conn.close()


FORM = {"variant": "fantan/pagat", "players": 3}


def test_only_the_servers_own_pages_and_allowed_origins_may_open_tables(proxied: ThreadServer) -> None:
    own = f"http://127.0.0.1:{proxied.port}"
    assert request(proxied, "POST", "/api/tables", {"Origin": "https://evil.example"}, FORM)[0] == 403
    assert request(proxied, "POST", "/api/tables", {"Origin": own}, FORM)[0] == 200
    assert request(proxied, "POST", "/api/tables", {"Origin": PROXY}, FORM)[0] == 200
    assert request(proxied, "POST", "/api/tables", {}, FORM)[0] == 200  # no Origin: not a browser's page
    # DNS rebinding: another site's name made to point here; Host and Origin agree, but it is not this machine.
    rebound = {"Host": f"evil.example:{proxied.port}", "Origin": f"http://evil.example:{proxied.port}"}
    assert request(proxied, "POST", "/api/tables", rebound, FORM)[0] == 403


def test_a_websocket_from_another_origin_is_refused_and_the_table_plays_on(proxied: ThreadServer) -> None:
    made = create(proxied, "chinchon/fournier", ["person", "person"])

    async def run() -> None:
        with pytest.raises(InvalidStatus) as refused:
            await connect(proxied.ws_url, origin="https://evil.example", open_timeout=WAIT)  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
        async with connect(proxied.ws_url, origin=PROXY, open_timeout=WAIT) as ws:  # type: ignore[arg-type]
            await ws.send(json.dumps({"type": "hello", "token": token(made["seats"][0]["link"])}))
            assert json.loads(await asyncio.wait_for(ws.recv(), WAIT))["type"] == "welcome"
        page = await Client.open(proxied.ws_url, token(made["seats"][1]["link"]))
        await page.next_of("state")
        await page.close()

    asyncio.run(run())


def test_every_response_carries_the_security_headers(proxied: ThreadServer) -> None:
    cases = [
        ("GET", "/", {}, None, 200),
        ("GET", "/play", {}, None, 200),
        ("GET", "/static/table.js", {}, None, 200),
        ("GET", "/static/nothing.js", {}, None, 404),
        ("GET", "/api/tables", {}, None, 200),
        ("GET", "/api/rules/no/such", {}, None, 404),
        ("GET", "/api/tables/0123/record", {}, None, 404),
        ("GET", "/no/such/page", {}, None, 404),
        ("POST", "/", {}, {}, 405),
        ("POST", "/api/tables", {}, {"x": "y" * 5000}, 413),
        ("POST", "/api/tables", {"Origin": "https://evil.example"}, FORM, 403),
        ("POST", "/api/tables", {}, [], 400),
    ]
    for method, path, headers, body, status in cases:
        got, sent = request(proxied, method, path, headers, body)
        assert got == status, (method, path, got)
        lower = {k.lower(): v for k, v in sent.items()}
        assert lower.get("x-content-type-options") == "nosniff", (path, sent)
        assert "frame-ancestors 'none'" in lower.get("content-security-policy", ""), (path, sent)
        assert lower.get("referrer-policy") == "no-referrer" and lower.get("x-frame-options") == "DENY"
