"""A bot that reads a file its spec names (``policy:path=FILE``, a trained learner) is seated by
whoever runs tapete, never by a page: a stranger's form may not have the server open a file of
its choosing (a policy file is unpickled by PyTorch when it loads)."""

from __future__ import annotations

import json

from .conftest import ThreadServer, get, post


def test_the_lobby_neither_offers_nor_accepts_a_bot_that_reads_a_server_file(server: ThreadServer) -> None:
    status, body = get(server.url + "/api/variants")
    assert status == 200
    offered = {b for v in json.loads(body) for b in v["bots"]}
    assert "random" in offered and "policy" not in offered
    for spec in ("policy:path=/etc/passwd", "policy", "policy:path=tables.db"):
        status, reply = post(
            server.url + "/api/tables",
            {"variant": "fantan/pagat", "players": 3, "seats": [{"kind": "person"}, {"kind": "bot", "bot": spec}]},
        )
        assert status == 400, reply
        assert "reads a file on the server: a page cannot seat it" in json.dumps(reply)
    assert server.hub.rooms == {}
