"""The score ledger of a match: totals, deals won, who is out.

Rule expressions read it through quantities such as ``total`` and
``deals_won``; `local` gives the same numbers indexed by the seats of one deal,
which differ from match seats once somebody has dropped out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

CARRIED = "carried"  # a deal's public counters ``carried.NAME.SEAT``: the carried values as the deal began


def carried_counters(carried: dict[str, list[int]], players: int) -> dict[str, int]:
    """The deal's public counters for the values carried into it: ``carried.NAME.SEAT``."""
    return {f"{CARRIED}.{name}.{s}": v for name, values in carried.items() for s, v in enumerate(values[:players])}


def carried_of(counters: Mapping[str, int]) -> dict[str, dict[int, int]]:
    """The carried values a deal's counters hold (`carried_counters` read back): name -> seat -> value."""
    found: dict[str, dict[int, int]] = {}
    for key, value in counters.items():
        if key.startswith(f"{CARRIED}."):
            name, _, seat = key[len(CARRIED) + 1 :].rpartition(".")
            found.setdefault(name, {})[int(seat)] = int(value)
    return found


@dataclass
class Ledger:
    players: int
    totals: list[int] = field(default_factory=list)
    deals_won: list[int] = field(default_factory=list)
    out: list[bool] = field(default_factory=list)
    last_scores: list[int] = field(default_factory=list)
    reentries: list[int] = field(default_factory=list)
    deal_number: int = 0
    active: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)  # match seat of each seat of this view
    # values a script carries from deal to deal besides the total (``carry bags = ...``): name -> one per seat
    carried: dict[str, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = self.players
        self.seats = self.seats or list(range(n))
        self.totals = self.totals or [0] * n
        self.deals_won = self.deals_won or [0] * n
        self.out = self.out or [False] * n
        self.reentries = self.reentries or [0] * n
        self.refresh()

    @classmethod
    def fresh(cls, players: int, deal_number: int = 0) -> Ledger:
        """``Ledger(players)`` with its ``deal_number`` set: a new match's ledger, every seat in.

        The same fields as the constructor gives (tests/test_new_deal_cost.py compares them),
        set at once: every deal begun through `Variant.new_deal` makes one, for the rules
        that read the ledger as the deal is dealt."""
        ledger = cls.__new__(cls)
        seats = list(range(players))
        ledger.players = players
        ledger.totals = [0] * players
        ledger.deals_won = [0] * players
        ledger.out = [False] * players
        ledger.last_scores = []
        ledger.reentries = [0] * players
        ledger.deal_number = deal_number
        ledger.active = seats[:]
        ledger.seats = seats
        ledger.carried = {}
        return ledger

    def refresh(self) -> None:
        self.active = [s for s in range(self.players) if not self.out[s]]

    def local(self) -> Ledger:
        """The ledger seen from one deal, whose seat i is match seat ``active[i]``."""
        seats = self.active
        view = Ledger(
            len(seats),
            [self.totals[s] for s in seats],
            [self.deals_won[s] for s in seats],
            [False] * len(seats),
            [self.last_scores[s] for s in seats] if self.last_scores else [],
            [self.reentries[s] for s in seats],
            self.deal_number,
        )
        view.seats = list(seats)
        view.carried = {name: [values[s] for s in seats] for name, values in self.carried.items()}
        return view

    @classmethod
    def from_json(cls, players: int, obj: dict[str, Any]) -> Ledger:
        ledger = cls(
            players,
            [int(x) for x in obj["totals"]],
            [int(x) for x in obj["deals_won"]],
            [bool(x) for x in obj["out"]],
            [int(x) for x in obj.get("last_scores", [])],
            [int(x) for x in obj["reentries"]],
            int(obj["deal_number"]),
        )
        if not all(len(getattr(ledger, k)) == players for k in ("totals", "deals_won", "out", "reentries")):
            raise ValueError(f"ledger lists must have {players} entries")
        carried = obj.get("carried", {})
        if not isinstance(carried, dict):
            raise ValueError("the ledger's carried values must be a mapping of names to lists")
        for name, values in carried.items():
            if not isinstance(values, list) or len(values) != players:
                raise ValueError(f"the ledger's carried {name!r} must have {players} entries")
            ledger.carried[str(name)] = [int(x) for x in values]
        return ledger

    def to_json(self) -> dict[str, Any]:
        return {
            "totals": list(self.totals),
            "deals_won": list(self.deals_won),
            "out": list(self.out),
            "last_scores": list(self.last_scores),
            "reentries": list(self.reentries),
            "deal_number": self.deal_number,
        } | ({"carried": {name: list(values) for name, values in self.carried.items()}} if self.carried else {})
