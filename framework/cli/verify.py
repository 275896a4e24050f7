"""``tapete verify RECORD``: was a web table's deal fair? Its commitment and every card dealt, checked.

A record downloaded from a finished web table (tapete.web.fairness) is a match log
whose header carries the table's commitment and salt. The check has two parts, and
either failing ends in one message and exit code 1: the revealed seed and salt must
give the commitment (and, with ``--commitment``, the one the pages showed from the
table's opening), and the whole match must replay from that seed and the recorded
moves, every deal's cards exactly as recorded (`tapete.gamelog.replay`, which names
the first line that differs).
"""

from __future__ import annotations

from pathlib import Path

import typer

from ..core.errors import SnapshotError, display_path


def verify(
    record: Path = typer.Argument(..., help="a match record downloaded from a finished web table"),
    commitment: str | None = typer.Option(
        None, "--commitment", help="the commitment the table's pages showed from its opening (hex)"
    ),
) -> None:
    """Check a web table's match record: the seed gives its commitment, and every deal replays from the seed."""
    from ..gamelog import read_log, replay
    from ..web.fairness import SCHEME
    from ..web.fairness import commitment as commit

    shown = display_path(record)
    events = read_log(record)
    head = events[0]
    where = f"{shown}:{head['_line']}"
    fair = head.get("fair")
    if not isinstance(fair, dict) or not all(isinstance(fair.get(k), str) for k in ("scheme", "commitment", "salt")):
        raise SnapshotError(f"{where}: not a web table's match record: its header has no commitment ('fair')")
    if fair["scheme"] != SCHEME:
        raise SnapshotError(f"{where}: the commitment's scheme {fair['scheme']!r} is not {SCHEME!r}")
    seed = head.get("seed")
    if not isinstance(seed, str):
        raise SnapshotError(f"{where}: the match header's seed is not the text a web table draws: {seed!r}")
    got = commit(seed, fair["salt"])
    if got != fair["commitment"]:
        raise SnapshotError(
            f"{where}: NOT FAIR: the seed and salt give the commitment {got}, "
            f"but the table committed to {fair['commitment']}: this is not the seed the deals were fixed by"
        )
    if commitment is not None and commitment.strip().lower() != got:
        raise SnapshotError(
            f"{where}: NOT FAIR: the record commits to {got}, "
            f"not to {commitment.strip()} (the commitment you were shown): the record was made for other deals"
        )
    report = replay(record)
    moves = sum(1 for e in events if e.get("type") == "action")
    typer.echo(
        f"{shown}: fair: the seed and salt give the commitment {got}, and all {report.deals} deals replay "
        f"from that seed and the {moves} recorded moves to exactly the cards recorded"
    )
