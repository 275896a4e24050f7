"""Trick-game test helpers: variants loaded once, deals from readable snapshots.

Zones are written as lists of card names; in ``stock`` the LAST card is the top. Hearts
seats for the worked examples (HE-6), clockwise: 0 South, 1 West, 2 North, 3 East.
Briscola: seat 0 the non-dealer, seat 1 the dealer (BR-5).
"""

from __future__ import annotations

from tapete import Ctx, Deal, load_variant
from tapete.core.ledger import Ledger

SOUTH, WEST, NORTH, EAST = 0, 1, 2, 3


class _Variants(dict):
    """Variants by registered name, each loaded on first use."""

    def __missing__(self, name):
        self[name] = load_variant(name)
        return self[name]


variants = _Variants()


def position(name, players=4, dealer=None, to_move=0, counters=None, **zones) -> Deal:
    """A deal in play from zones written as card names (``hand0=["2♣"]``, ``trick=[...]``); others empty."""
    variant = variants[name]
    full: dict[str, list[str]] = {"trick": []}
    for s in range(players):
        full[f"hand.{s}"] = []
        full[f"taken.{s}"] = []
    for key, cards in zones.items():
        for kind in ("hand", "taken"):
            if key.startswith(kind) and key[len(kind) :].isdigit():
                key = f"{kind}.{key[len(kind) :]}"
        full[key] = list(cards)
    base = {f"tricks.{s}": 0 for s in range(players)} | {"played": 0, "lead": to_move}
    return variant.deal_from_snapshot(
        {
            "players": players,
            "dealer": (to_move - 1) % players if dealer is None else dealer,
            "to_move": to_move,
            "zones": full,
            "counters": base | (counters or {}),
        }
    )


def cards(deal: Deal, *names: str) -> list[int]:
    return [deal.game.deck.parse(n) for n in names]


def legal_cards(deal: Deal) -> list[str]:
    """The cards the player to move may play, as text, in hand order."""
    deck = deal.game.deck
    return sorted((deck.format(a.cards[0]) for a in deal.legal_actions() if a.kind == "play"), key=str)


def scores(deal: Deal) -> list[int]:
    """Each seat's ``score`` for the deal as it stands (the script's scoring rule)."""
    rules = deal.game.rules
    score = rules.expr("score")
    ctx = Ctx(game=deal.game, state=deal.state, ledger=Ledger(deal.state.players))
    out = []
    for s in range(deal.state.players):
        ctx.seat = s
        out.append(int(score(ctx)))
    return out
