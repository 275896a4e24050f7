"""Helpers for the Gin Rummy tests: deals from readable snapshots, rules evaluated by hand.

Zones are written as card names separated by spaces; in ``stock`` and
``discard`` the LAST card is the top.
"""

from __future__ import annotations

from functools import cache

from tapete import Ctx, build_registry, hookimpl, load_variant
from tapete.core.ledger import Ledger


@cache
def variant(name: str = "standard"):
    return load_variant(name if "/" in name or name.endswith(".yaml") else f"gin/{name}")


def make_deal(
    hands, stock: str = "", discard: str = "", name: str = "standard", to_move: int = 0, counters=None, data=None
):
    """A deal in the middle of play (seat 1 deals unless ``counters`` says otherwise)."""
    zones = {f"hand.{s}": h.split() for s, h in enumerate(hands)}
    zones.update(stock=stock.split(), discard=discard.split(), facedown=[])
    snap = {
        "players": 2,
        "to_move": to_move,
        "dealer": 1,
        "zones": zones,
        "counters": {"drawn": 0, **(counters or {})},
        "data": data or {},
    }
    return variant(name).deal_from_snapshot(snap)


def names(deal, zone: str) -> list[str]:
    return [deal.game.deck.names[c] for c in deal.state.zones[zone]]


def texts(deal) -> list[str]:
    return sorted(a.text(deal.game.deck) for a in deal.legal_actions())


def rule(deal, key: str, seat: int, kind: str = "value"):
    """Evaluate a script rule (``score``, ``won``) for one seat of a finished deal."""
    rules = deal.variant.rules
    compiled = rules.expr(key) if kind == "value" else rules.condition(key)
    return compiled(Ctx(game=deal.game, state=deal.state, seat=seat, ledger=Ledger(2)))


class ForcedScores:
    """A house-rule plugin that replaces each deal's scores by scripted ones (match-level tests)."""

    def __init__(self, *deals: dict[int, int]):
        self.deals = list(deals)

    @hookimpl
    def tapete_deal_scored(self, match, state, scores):
        if self.deals:
            forced = self.deals.pop(0)
            for seat in scores:
                scores[seat] = forced.get(seat, 0)


def forced_variant(name: str, *deals: dict[int, int]):
    reg = build_registry(extra_plugins=[ForcedScores(*deals)])
    return load_variant(f"gin/{name}", reg)
