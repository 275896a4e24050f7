"""Provably fair deals: the commitment a table shows from its opening, and its match record.

The server draws a table's secret seed (`tapete.web.tables.new_seed`; the web API
never takes one) and a salt, and from the table's first page on every page shows the
*commitment*, the SHA-256 of both (`commitment`). Every deal is drawn from the seed
and the deal's number, so the commitment fixes every card of every deal before the
first is dealt. When the match ends the seed and salt are shown, and the match
record can be downloaded (`match_record`): a match log as ``tapete play --log``
writes it (tapete.gamelog's format: the header, each deal with every card dealt,
each move, each score), whose header also carries the commitment and the salt under
``fair``. ``tapete verify RECORD`` recomputes the commitment from the seed and salt
and replays every deal from the seed and the recorded moves: the cards dealt must be
exactly the recorded ones. docs/web.md states what this proves and what it does not.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

from ..core.actions import Action
from ..play.loading import Variant
from ..play.match import Match

SCHEME = "sha256(tapete-deal/1 seed salt)"


def commitment(seed: str, salt: str) -> str:
    """The table's commitment to its seed: hex SHA-256 of ``tapete-deal/1``, the seed and the salt, a line each.

    The page checks it the same way (table.js), so the recipe is kept this plain."""
    return hashlib.sha256(f"tapete-deal/1\n{seed}\n{salt}".encode()).hexdigest()


def fair_block(seed: str, salt: str) -> dict[str, str]:
    """What a record's header says about fairness (the seed itself is the header's own ``seed``)."""
    return {"scheme": SCHEME, "commitment": commitment(seed, salt), "salt": salt}


class _Moves:
    """Plays the table's stored moves in order, whoever is to move (the match checks each is legal)."""

    observes = False

    def __init__(self, moves: Iterator[str], variant: Variant):
        self.moves, self.deck = moves, variant.rules.deck

    def choose(self, view: None, legal: list[Action]) -> Action:
        return Action.parse(next(self.moves), self.deck)


def match_record(variant: Variant, players: int, seed: str, salt: str, bots: list[str], moves: list[str]) -> str:
    """The match log of a finished table, replayed from its seed and its moves (JSON lines, header first)."""
    events: list[dict[str, Any]] = []
    agent = _Moves(iter(moves), variant)
    Match(variant, players, seed, bots=bots, agents=[agent] * players).play(events.append)
    events[0]["fair"] = fair_block(seed, salt)
    return "".join(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n" for e in events)
