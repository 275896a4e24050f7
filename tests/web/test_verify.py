"""Provably fair deals: a table commits to its seed from its first page, reveals it at the end,
and ``tapete verify`` replays the downloaded record, catching a tampered record and a wrong seed.

The match is played through a real server over sockets (a person's seat played by this
test, the others by bots), the record is downloaded as a page would, and the command is run
as a subprocess, as a player runs it.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tapete.cli.main import app
from tapete.web.fairness import commitment

from .conftest import Client, ThreadServer, create, get, post, token

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def verify(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``tapete verify`` as a player runs it."""
    return subprocess.run(
        [sys.executable, "-m", "tapete", "verify", str(path), *args], capture_output=True, text=True, timeout=120
    )


def verify_here(path: Path, *args: str) -> tuple[int, str]:
    """The same command in this process (its exit code and what it printed): quicker, for the last cases."""
    result = CliRunner().invoke(app, ["verify", str(path), *args])
    return result.exit_code, result.output


async def play_to_the_end(srv: ThreadServer, link: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first and the last state the person's page was shown, playing its first legal move each time."""
    page = await Client.open(srv.ws_url, token(link))
    first = await page.next_of("state")
    state, acted = first, -1
    while state["phase"] != "match-over":
        assert not state["broken"], state["broken"]
        if state["seq"] > acted:
            if state["phase"] == "deal-over" and not state["seats"][page.seat]["ready"]:
                acted = state["seq"]
                await page.send({"type": "next", "seq": state["seq"]})
            elif state["moves"]:
                acted = state["seq"]
                await page.send({"type": "move", "seq": state["seq"], "move": state["moves"][0]["text"]})
        state = await page.next_of("state")
    await page.close()
    return first, state


def test_the_web_form_takes_no_seed(server: ThreadServer) -> None:
    status, reply = post(
        server.url + "/api/tables", {"variant": "fantan/pagat", "players": 3, "seed": "I choose the cards"}
    )
    assert status == 400 and "the server draws every table's seed" in reply["errors"]["seed"]


def test_a_finished_table_verifies_and_a_tampered_record_or_a_wrong_seed_is_caught(
    server: ThreadServer, tmp_path: Path
) -> None:
    made = create(server, "fantan/pagat", ["person", "random", "random"], options={"wins_to": "1"})
    assert len(made["commitment"]) == 64  # shown to the opener with the links
    assert get(f"{server.url}/api/tables/{made['table']}/record")[0] == 404  # no record before the end
    first, last = asyncio.run(play_to_the_end(server, made["seats"][0]["link"]))

    # From the first page: the commitment, no seed, no salt; at the end both, which give the commitment.
    assert first["fair"] == {"commitment": made["commitment"], "seed": None, "salt": None, "record": None}
    fair = last["fair"]
    assert fair["commitment"] == made["commitment"] and fair["seed"] and fair["salt"]
    assert commitment(fair["seed"], fair["salt"]) == made["commitment"]
    status, body = get(server.url + fair["record"])
    assert status == 200
    record = tmp_path / "record.jsonl"
    record.write_bytes(body)
    events = [json.loads(line) for line in body.decode().splitlines()]
    assert events[0]["seed"] == fair["seed"] and events[0]["fair"]["commitment"] == made["commitment"]

    done = verify(record, "--commitment", made["commitment"])
    assert done.returncode == 0, done.stderr
    assert "fair" in done.stdout and made["commitment"] in done.stdout and "deals replay" in done.stdout

    # One card of the first deal swapped with another: the replay names the line.
    deal_line = next(i for i, e in enumerate(events) if e["type"] == "deal")
    tampered = json.loads(json.dumps(events))
    zones = tampered[deal_line]["state"]["zones"]
    a, b = zones["hand.0"], zones["hand.1"]
    a[0], b[0] = b[0], a[0]  # seat 0 is dealt seat 1's first card, and the other way round
    bad = tmp_path / "tampered.jsonl"
    bad.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in tampered))
    code, out = verify_here(bad)
    assert code == 1 and f"tampered.jsonl:{deal_line + 1}: deal event differs at state.zones.hand.0[0]" in out, out
    assert "Traceback" not in out

    # A wrong seed: it does not give the commitment.
    wrong = json.loads(json.dumps(events))
    wrong[0]["seed"] = "0" * 32
    bad.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in wrong))
    code, out = verify_here(bad)
    assert code == 1 and "NOT FAIR" in out and "tampered.jsonl:1:" in out, out

    # A wrong seed with a commitment made to fit it: the commitment the pages showed catches it.
    wrong[0]["fair"]["commitment"] = commitment(wrong[0]["seed"], wrong[0]["fair"]["salt"])
    bad.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in wrong))
    code, out = verify_here(bad, "--commitment", made["commitment"])
    assert code == 1 and "the commitment you were shown" in out, out
