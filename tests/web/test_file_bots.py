"""A bot that reads a file its spec names (``policy:path=FILE``, a trained learner) is seated by
whoever runs tapete, never by a page: a stranger's form may not have the server open a file of
its choosing (a policy file is unpickled by PyTorch when it loads)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

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


@pytest.mark.parametrize(
    "value, words",
    [
        ("learner={notes}", "is not a tapete policy"),
        ("learner", "--policy wants NAME=VALUE"),
        ("9lives={notes}", "is not a --policy policy name"),
        ("learner={missing}", "cannot read the policy file"),
    ],
)
def test_tapete_serve_judges_the_policies_it_serves_before_it_listens(tmp_path, value, words) -> None:
    """A host's ``--policy NAME=FILE`` (tests/web/test_served_policies.py seats one) is read before the
    server listens: a file that is no policy, a name that is no bot's word, a missing file."""
    notes = tmp_path / "notes.zip"
    notes.write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip: no policy inside
    value = value.format(notes=notes, missing=tmp_path / "gone.zip")
    proc = subprocess.run(
        [sys.executable, "-m", "tapete", "serve", "--port", "1", "--db", str(tmp_path / "t.db"), "--policy", value],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode != 0 and words in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and not (tmp_path / "t.db").exists()
