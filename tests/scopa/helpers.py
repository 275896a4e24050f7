"""Scopa test helpers: variants loaded once, deals from readable snapshots.

Zones are written as lists of card names; in ``stock`` the LAST card is the top.
Suits: ♦ coins (denari), ♥ cups, ♠ swords, ♣ clubs; J fante 8, Q cavallo 9, K re 10.
Rule ids: the Scopa rules document (SC-…).
"""

from __future__ import annotations

from tapete import Ctx, load_variant
from tapete.core.ledger import Ledger

VARIANTS = ("classic", "to-21", "kings", "assi", "scopone", "scientifico")


class _Variants(dict):
    """scopa variants by short name, each loaded on first use."""

    def __missing__(self, name):
        self[name] = load_variant(f"scopa/{name}")
        return self[name]


variants = _Variants()


def position(variant, players=2, dealer=1, to_move=0, counters=None, **zones):
    """A deal from zones written as card names (``hand0=["7♦"]``, ``table=[...]``); others empty."""
    full = {"table": [], "stock": []}
    for s in range(players):
        full[f"hand.{s}"] = []
        full[f"captures.{s}"] = []
    for key, cards in zones.items():
        for kind in ("hand", "captures"):
            if key.startswith(kind) and key[len(kind) :].isdigit():
                key = f"{kind}.{key[len(kind) :]}"
        full[key] = list(cards)
    return variant.deal_from_snapshot(
        {"players": players, "dealer": dealer, "to_move": to_move, "zones": full, "counters": counters or {}}
    )


def names(deal, zone):
    """A zone's cards as names, in order."""
    return [deal.game.deck.names[c] for c in deal.state.zones[zone]]


def legal(deal):
    """The legal actions as sorted text."""
    return sorted(a.text(deal.game.deck) for a in deal.legal_actions())


def says(events):
    return [e["say"] for e in events if "say" in e]


def deal_scores(deal):
    """Each seat's score for the finished deal, as the script's score rule gives it."""
    rules = deal.variant.rules
    ctx = Ctx(game=deal.game, state=deal.state, ledger=Ledger(deal.state.players))
    out = []
    for seat in range(deal.state.players):
        ctx.seat = seat
        out.append(rules.expr("score")(ctx))
    return out


def prizes(deal):
    """Each seat's prizes by name, for the deal as it stands."""
    ctx = Ctx(game=deal.game, state=deal.state)
    out = []
    for seat in range(deal.state.players):
        ctx.seat = seat
        out.append(sorted(name for name, _ in deal.game.prizes_won(ctx)))
    return out
