"""Chinese Ten test helpers: variants loaded once, deals from readable snapshots.

Zones are written as lists of card names; in ``stock`` the LAST card is the top.
Rule ids: the Chinese Ten rules document (CT-…).
"""

from __future__ import annotations

from tapete import Random, RandomBot, load_variant

VARIANTS = ("two-player", "three-player", "four-player", "taiwan", "one-deal", "main-merah", "main-merah-three")


class _Variants(dict):
    """chinese-ten variants by short name, each loaded on first use."""

    def __missing__(self, name):
        self[name] = load_variant(f"chinese-ten/{name}")
        return self[name]


variants = _Variants()


def position(variant, players=2, dealer=1, to_move=0, data=None, counters=None, **zones):
    """A deal from zones written as card names (``hand0=["8♣"]``, ``table=[...]``); others empty."""
    full = {"table": [], "stock": [], "turned": []}
    for s in range(players):
        full[f"hand.{s}"] = []
        full[f"captures.{s}"] = []
    for key, cards in zones.items():
        for kind in ("hand", "captures"):
            if key.startswith(kind) and key[len(kind) :].isdigit():
                key = f"{kind}.{key[len(kind) :]}"
        full[key] = list(cards)
    return variant.deal_from_snapshot(
        {
            "players": players,
            "dealer": dealer,
            "to_move": to_move,
            "zones": full,
            "data": data or {},
            "counters": counters or {},
        }
    )


def names(deal, zone):
    """A zone's cards as names, in order."""
    return [deal.game.deck.names[c] for c in deal.state.zones[zone]]


def legal(deal):
    """The legal actions as sorted text."""
    return sorted(a.text(deal.game.deck) for a in deal.legal_actions())


def says(events):
    return [e["say"] for e in events if "say" in e]


def play_out(deal, seed=0, bots=None):
    """Play a deal to its end; ``bots`` maps seats to bot objects (random by default)."""
    bots = dict(bots or {})
    for seat in range(deal.state.players):
        bots.setdefault(seat, RandomBot(deal.game, seat, Random(seed, f"bot-{seat}")))
    moves = 0
    while not deal.over:
        legal_now = deal.legal_actions()
        deal.play(bots[deal.to_move].choose(deal.view(), legal_now))
        moves += 1
        assert moves < 1000
    return deal


def random_moves(deal, seed, moves: int):
    """Up to ``moves`` seeded random legal moves; stops early when the deal ends."""
    rng = Random(seed, "moves")
    for _ in range(moves):
        if deal.over:
            break
        legal_now = deal.legal_actions()
        deal.play(legal_now[rng.below(len(legal_now))])
    return deal


def seat_rules(deal):
    """Each seat's (score, won) as the script's score and won rules give them for this deal."""
    from tapete import Ctx
    from tapete.core.ledger import Ledger

    rules = deal.variant.rules
    ctx = Ctx(game=deal.game, state=deal.state, ledger=Ledger(deal.state.players))
    won = rules.condition("won")
    out = []
    for seat in range(deal.state.players):
        ctx.seat = seat
        out.append((rules.expr("score")(ctx), bool(won(ctx)) if won is not None else False))
    return out
