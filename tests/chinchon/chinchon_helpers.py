"""Helpers for the Chinchón tests: variants loaded once, deals from readable snapshots.

Zones are written as card names separated by spaces; in ``stock`` and
``discard`` the LAST card is the top.
"""

from __future__ import annotations

from functools import cache

from tapete import Ctx, build_registry, hookimpl, load_variant
from tapete.core.ledger import Ledger


@cache
def variant(name: str = "fournier"):
    return load_variant(name if "/" in name or name.endswith(".yaml") else f"chinchon/{name}")


def make_deal(
    hands,
    stock: str = "",
    discard: str = "",
    name: str = "fournier",
    to_move: int = 0,
    dealer: int | None = None,
    counters: dict | None = None,
):
    """A deal in the middle of play; ``hands`` lists each seat's cards as text."""
    players = len(hands)
    zones = {f"hand.{s}": h.split() for s, h in enumerate(hands)}
    zones.update(stock=stock.split(), discard=discard.split(), facedown=[])
    snap = {
        "players": players,
        "to_move": to_move,
        "dealer": (to_move + 1) % players if dealer is None else dealer,
        "zones": zones,
        "counters": {"drawn": 0, **(counters or {})},
    }
    return variant(name).deal_from_snapshot(snap)


def names(deal, zone: str) -> list[str]:
    return [deal.game.deck.names[c] for c in deal.state.zones[zone]]


def shown_melds(deal) -> list[tuple[int, list[str]]]:
    """(owner, cards) of every meld on the table after a close, in the order shown."""
    out = []
    for k, m in enumerate(deal.state.data["melds"]):
        out.append((m["owner"], names(deal, f"meld.{k}")))
    return out


def rule(deal, key: str, seat: int, kind: str = "value", totals=None):
    """Evaluate a script rule (``score``, ``wins_match``, ...) for one seat of a finished deal."""
    rules = deal.variant.rules
    compiled = rules.expr(key) if kind == "value" else rules.condition(key)
    ledger = Ledger(deal.state.players, totals=list(totals) if totals else [])
    return compiled(Ctx(game=deal.game, state=deal.state, seat=seat, ledger=ledger))


class ForcedScores:
    """A house-rule plugin that replaces each deal's scores by scripted ones."""

    def __init__(self, *deals: dict[int, int]):
        self.deals = list(deals)

    @hookimpl
    def tapete_deal_scored(self, match, state, scores):
        if self.deals:
            forced = self.deals.pop(0)
            for seat in scores:
                scores[seat] = forced.get(seat, 0)


def forced_variant(name: str, *deals: dict[int, int]):
    """The variant loaded with a registry whose deals score as scripted (match-level tests)."""
    reg = build_registry(extra_plugins=[ForcedScores(*deals)])
    full = name if "/" in name else f"chinchon/{name}"
    return load_variant(full, reg)


class RiggedFirstDeal:
    """A plugin that stacks the first deal: ``places`` maps (zone, index) to a card name.

    Zones may name ``hand.leader``; cards are swapped into place, so every card
    stays in the deal exactly once.
    """

    def __init__(self, deck, places: dict[tuple[str, int], str]):
        self.deck, self.places, self.done = deck, places, False

    @hookimpl
    def tapete_deal_started(self, match, state):
        if self.done:
            return
        self.done = True
        for (zone, index), text in self.places.items():
            zone = zone.replace("leader", str(state.to_move))
            card = self.deck.parse(text)
            here = next((z, i) for z, cards in state.zones.items() for i, c in enumerate(cards) if c == card)
            target = state.zones[zone]
            index %= len(target)
            state.zones[here[0]][here[1]], target[index] = target[index], card


def rigged_variant(name: str, places: dict[tuple[str, int], str]):
    full = name if "/" in name else f"chinchon/{name}"
    reg = build_registry(extra_plugins=[RiggedFirstDeal(variant(name).rules.deck, places)])
    return load_variant(full, reg)
