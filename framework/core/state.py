"""The state of one deal: zones of cards plus a few counters.

Everything a rule needs lives here and nowhere else, so that a snapshot is the
whole truth: save, resume, replay, clone and readable rule tests all come from
``to_json``/``from_json``. Cards live only in zones (lists of card ids, the last
element being the top); ``counters`` hold integers; ``data`` holds other plain
JSON values a family needs (never card ids).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .cards import Deck
from .errors import SnapshotError

_SEAT_ZONES: dict[tuple[str, int], tuple[str, ...]] = {}


def seat_zones(kind: str, players: int) -> tuple[str, ...]:
    """``("KIND.0", ..., "KIND.N-1")``: each seat's zone of one kind, named once per table size
    (a deal names every hand, every chosen pile, as it begins and as the pass ends)."""
    names = _SEAT_ZONES.get((kind, players))
    if names is None:
        names = _SEAT_ZONES[(kind, players)] = tuple(f"{kind}.{s}" for s in range(players))
    return names


@dataclass
class DealState:
    players: int
    dealer: int
    to_move: int = 0
    zones: dict[str, list[int]] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    over: bool = False
    rng: list[int] = field(default_factory=lambda: [0, 1])

    def hand(self, seat: int) -> list[int]:
        return self.zones[f"hand.{seat}"]

    def clone(self) -> DealState:
        return DealState(
            self.players,
            self.dealer,
            self.to_move,
            {k: v[:] for k, v in self.zones.items()},
            dict(self.counters),
            json.loads(json.dumps(self.data)) if self.data else {},
            self.over,
            list(self.rng),
        )

    def card_count(self) -> int:
        return sum(len(z) for z in self.zones.values())

    def to_json(self, deck: Deck) -> dict[str, Any]:
        names = deck.names
        return {
            "players": self.players,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "over": self.over,
            "zones": {k: [names[c] for c in v] for k, v in self.zones.items()},
            "counters": dict(self.counters),
            "data": self.data,
            "rng": list(self.rng),
        }

    @classmethod
    def from_json(cls, obj: Any, deck: Deck) -> DealState:
        """Read a snapshot completely or not at all; say what is wrong."""
        if not isinstance(obj, dict):
            raise SnapshotError("a deal snapshot must be a JSON object")
        try:
            players = _int(obj, "players")
            state = cls(
                players=players,
                dealer=_int(obj, "dealer"),
                to_move=_int(obj, "to_move", 0),
                over=bool(obj.get("over", False)),
                counters={str(k): int(v) for k, v in dict(obj.get("counters", {})).items()},
                data=dict(obj.get("data", {})),
                rng=[int(x) for x in obj.get("rng", [0, 1])],
            )
            zones = obj.get("zones", {})
            if not isinstance(zones, dict):
                raise SnapshotError("'zones' must map zone names to card lists")
            seen: dict[int, str] = {}
            for name, cards in zones.items():
                if not isinstance(cards, list):
                    raise SnapshotError(f"zone {name!r} must be a list of cards")
                ids = []
                for text in cards:
                    try:
                        card = deck.parse(str(text))
                    except ValueError as exc:
                        raise SnapshotError(f"zone {name!r}: {exc}") from None
                    if card in seen:
                        raise SnapshotError(f"card {deck.format(card)} is in zone {seen[card]!r} and zone {name!r}")
                    seen[card] = name
                    ids.append(card)
                state.zones[str(name)] = ids
        except (TypeError, ValueError) as exc:
            raise SnapshotError(f"broken deal snapshot: {exc}") from None
        for seat_field in ("dealer", "to_move"):
            if not 0 <= getattr(state, seat_field) < players:
                raise SnapshotError(f"{seat_field!r} must be a seat from 0 to {players - 1}")
        return state


def _int(obj: dict[str, Any], key: str, default: int | None = None) -> int:
    if key not in obj:
        if default is None:
            raise SnapshotError(f"deal snapshot lacks {key!r}")
        return default
    value = obj[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise SnapshotError(f"{key!r} must be an integer, not {value!r}")
    return value
