"""The rule-script words of the fishing family: deal sizes, captures, openings, points, bonuses.

Everything a fishing variant may change is said with these words; the plugin only
knows how a card is played or turned against the table. A word that needs a rank
list reads it against the script's rank order, so ``A..9`` means what the script
says once ``order A 2 ... K`` (or ``ace = low``) is given.
"""

from __future__ import annotations

from tapete import DEAL, MATCH, SEAT, Function, Quantity, StatementSpec

PLAY = "play"
CAPTURE = "capture"  # scope of an event rule: a capture has just been made
AT_DEAL = frozenset({PLAY, DEAL, MATCH})
SEAT_IN_DEAL = frozenset({PLAY, SEAT, DEAL})
DEAL_ONLY = frozenset({PLAY, DEAL})
ON_CAPTURE = frozenset({PLAY, SEAT, DEAL, CAPTURE})
OPENING_MODES = ("specials", "redeal", "none")


def rank_list(words, env) -> tuple[str, ...]:
    """Ranks named one by one (``10 J Q K``) or as ranges of the rank order (``A..9``)."""
    deck, order = env.deck, list(env.order or env.deck.ranks)
    ranks: list[str] = []
    for w in words:
        if w.kind == "range":
            lo, hi = (str(x) for x in w.value)
            for r in (lo, hi):
                if r not in deck.ranks:
                    raise env.error(w.pos, f"unknown rank {r!r}: this deck has {' '.join(deck.ranks)}")
            a, b = order.index(lo), order.index(hi)
            if a > b:
                raise env.error(
                    w.pos, f"empty rank range {lo}..{hi}: {lo} comes after {hi} in the order {' '.join(order)}"
                )
            found = order[a : b + 1]
        elif w.kind in ("name", "int"):
            r = str(w.value)
            if r not in deck.ranks:
                raise env.error(w.pos, f"unknown rank {r!r}: this deck has {' '.join(deck.ranks)}")
            found = [r]
        else:
            raise env.error(w.pos, f"{w} is not a rank or a range of ranks")
        for r in found:
            if r in ranks:
                raise env.error(w.pos, f"rank {r} is listed twice")
            ranks.append(r)
    return tuple(ranks)


def _check_capture(item, env):
    """``capture sum A..9 = 10`` or ``capture rank 10..K`` (CT-2.1)."""
    kind = str(item.words[0].value)
    if kind not in ("sum", "rank"):
        raise env.error(
            item.words[0].pos,
            f"a capture rule reads 'capture sum RANKS = TOTAL' or 'capture rank RANKS', not 'capture {kind}'",
        )
    if len(item.words) < 2:
        raise env.error(item.pos, f"'capture {kind}' needs the ranks it applies to")
    if kind == "sum" and item.value is None:
        raise env.error(item.pos, "'capture sum' needs '= TOTAL', the sum two cards must make")
    if kind == "rank" and item.value is not None:
        raise env.error(item.value.pos, "'capture rank' takes no '= value': a card takes one of its own rank")
    return rank_list(item.words[1:], env)


def _check_opening(item, env):
    """``opening specials K Q J 10 5`` (CT-3.1, CT-3.2), ``opening redeal ...`` or ``opening none``."""
    mode = str(item.words[0].value)
    if mode not in OPENING_MODES:
        raise env.error(item.words[0].pos, f"unknown opening rule {mode!r}: use one of {', '.join(OPENING_MODES)}")
    ranks = rank_list(item.words[1:], env)
    if mode == "none" and ranks:
        raise env.error(item.words[1].pos, "'opening none' takes no ranks")
    if mode != "none" and not ranks:
        raise env.error(item.pos, f"'opening {mode}' needs the ranks it applies to")
    return mode, ranks


def _check_bonus(item, env):
    return str(item.words[0].value)


def _pile(c):
    return c.state.zones.get(f"captures.{c.seat}", ())


def _points(c):
    point_of = c.game.point_of
    return sum(point_of[card] for card in _pile(c))


def _bonus(c):
    return c.state.counters.get(f"bonus.{c.seat}", 0)


def _result(c):
    return _points(c) + _bonus(c) - c.game.break_even(c)


def _took(c, card):
    return card in c.extra.get("took", ())


WORDS = (
    StatementSpec("hand_size", "cards dealt to each player (CT-1.3)", value=AT_DEAL, needs_value=True, required=True),
    StatementSpec(
        "table_size", "cards turned face up to open the table (CT-1.3)", value=AT_DEAL, needs_value=True, required=True
    ),
    StatementSpec(
        "stock_size",
        "cards left face down as the stock, one per hand card (CT-1.3, CT-3.4)",
        value=AT_DEAL,
        needs_value=True,
        required=True,
    ),
    StatementSpec(
        "capture",
        "how a card takes one table card: 'capture sum A..9 = 10' (the two make "
        "the total) or 'capture rank 10..K' (same rank)",
        words=(1, None),
        value=frozenset(),
        multi=True,
        required=True,
        check=_check_capture,
    ),
    StatementSpec("pips", "what a card counts towards a capture sum (default: face value, ace 1)", table=True),
    StatementSpec("points", "what each captured card scores (CT-4.1)", table=True, required=True),
    StatementSpec(
        "opening",
        "three or four of a listed rank on the opening table: 'opening specials "
        "K Q J 10 5' (CT-3.1, CT-3.2), 'opening redeal ...' or 'opening none'",
        words=(1, None),
        check=_check_opening,
    ),
    StatementSpec(
        "break_even",
        "points that draw a deal; result = points + bonus - this (CT-4.2)",
        value=DEAL_ONLY,
        needs_value=True,
    ),
    StatementSpec(
        "bonus",
        "an event rule: after a capture for which the condition holds, every other "
        "player pays the capturer the value ('bonus red_fives = 10 when took(5♥) "
        "and took(5♦)')",
        words=(1, 1),
        value=ON_CAPTURE,
        condition=ON_CAPTURE,
        needs_value=True,
        needs_condition=True,
        multi=True,
        check=_check_bonus,
    ),
    Quantity("points", "card points in the player's capture pile", SEAT_IN_DEAL, _points),
    Quantity("bonus", "what the player won (or paid, negative) through bonus rules this deal", SEAT_IN_DEAL, _bonus),
    Quantity("result", "points + bonus - break_even: the player's deal result (CT-4.2)", SEAT_IN_DEAL, _result),
    Quantity("captured", "cards in the player's capture pile", SEAT_IN_DEAL, lambda c: len(_pile(c))),
    Quantity("stock_left", "cards still in the stock", DEAL_ONLY, lambda c: len(c.state.zones.get("stock", ()))),
    Function(
        "took",
        "in a bonus rule: the capture just made includes this card: took(5♥)",
        (1, 1),
        frozenset({CAPTURE}),
        _took,
    ),
)

__all__ = ["WORDS", "CAPTURE", "rank_list"]
