"""The rule-script words of the fishing family: deal sizes, captures, openings, points, bonuses.

Everything a fishing variant may change is said with these words; the plugin only
knows how a card is played or turned against the table. Chinese Ten (CT-…) and
Scopa (SC-…) are both configurations of these words: Scopa adds refilled hands
instead of turned stock cards, sums of several cards, sweeps, the last capturer
taking the rest, and prizes counted at the end of a deal. A word that needs a rank
list reads it against the script's rank order, so ``A..9`` means what the script
says once ``order A 2 ... K`` (or ``ace = low``) is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias

from tapete import (
    AT_DEAL_START,
    DEAL,
    DEAL_ONLY,
    PLAY,
    SEAT,
    SEAT_IN_DEAL,
    Ctx,
    Env,
    Function,
    Quantity,
    Statement,
    StatementSpec,
    Word,
    scopes,
)

if TYPE_CHECKING:
    from .game import ChineseTen

# A getter's Ctx carries this family's Game subclass (teams, point tables, prizes).
FishingCtx: TypeAlias = "Ctx[ChineseTen]"

CAPTURE = "capture"  # the family's own scope, of an event rule: a capture has just been made
ON_CAPTURE = scopes(PLAY, SEAT, DEAL, CAPTURE)
OPENING_MODES = ("specials", "redeal", "none")
CAPTURE_KINDS = ("sum", "rank", "value", "set", "all")
LEFTOVER_MODES = ("last_capturer", "table")


def rank_list(words: Sequence[Word], env: Env) -> tuple[str, ...]:
    """Ranks named one by one (``10 J Q K``) or as ranges of the rank order (``A..9``)."""
    assert env.deck is not None  # statements are checked once the deck is known
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


def _check_capture(item: Statement, env: Env) -> tuple[str, ...]:
    """``capture sum A..9 = 10``, ``capture rank 10..K`` (CT-2.1); ``value``/``set``/``all`` (SC-3.2, 3.3, V4)."""
    kind = str(item.words[0].value)
    if kind not in CAPTURE_KINDS:
        raise env.error(
            item.words[0].pos,
            "a capture rule reads 'capture sum RANKS = TOTAL', 'capture rank RANKS', 'capture value RANKS', "
            f"'capture set RANKS' or 'capture all RANKS', not 'capture {kind}'",
        )
    if len(item.words) < 2:
        raise env.error(item.pos, f"'capture {kind}' needs the ranks it applies to")
    if kind == "sum" and item.value is None:
        raise env.error(item.pos, "'capture sum' needs '= TOTAL', the sum two cards must make")
    if kind != "sum" and item.value is not None:
        raise env.error(item.value.pos, f"'capture {kind}' takes no '= value'")
    return rank_list(item.words[1:], env)


def _check_leftover(item: Statement, env: Env) -> str:
    """``leftover last_capturer`` (SC-3.7) or ``leftover table`` (CT-3.4: they stay, unscored)."""
    mode = str(item.words[0].value)
    if mode not in LEFTOVER_MODES:
        raise env.error(item.words[0].pos, f"unknown leftover rule {mode!r}: use one of {', '.join(LEFTOVER_MODES)}")
    return mode


def _check_opening(item: Statement, env: Env) -> tuple[str, tuple[str, ...]]:
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


def _check_bonus(item: Statement, env: Env) -> str:
    return str(item.words[0].value)


def _pile(c: FishingCtx) -> Sequence[int]:
    """The seat's capture pile; with ``teams``, the partnership's piles counted together (SC-V3)."""
    zones: dict[str, list[int]] = c.state.zones
    if not c.game.teams:
        return zones.get(f"captures.{c.seat}", ())
    return [card for s in c.game.team_seats(c.state.players, c.seat) for card in zones.get(f"captures.{s}", ())]


def _sweeps(c: FishingCtx) -> int:
    counters = c.state.counters
    return sum(counters.get(f"sweeps.{s}", 0) for s in c.game.team_seats(c.state.players, c.seat))


def primiera(c: FishingCtx) -> int:
    """SC-4.2: the best primiera value in each suit, added up; 0 when a suit is missing."""
    values = c.game.primiera_of
    if values is None:
        return 0
    suit_of = c.game.deck.suit_of
    best: dict[str, int] = {}
    for card in _pile(c):
        suit, v = suit_of[card], values[card]
        if best.get(suit, -1) < v:
            best[suit] = v
    if len(best) < len(c.game.deck.suits):
        return 0
    return sum(best.values())


def _prizes(c: FishingCtx) -> int:
    return sum(value for _name, value in c.game.prizes_won(c))


def _cards_in(c: FishingCtx, suit: str) -> int:
    suit_of = c.game.deck.suit_of
    return sum(1 for card in _pile(c) if suit_of[card] == suit)


def _holds(c: FishingCtx, card: int) -> bool:
    return card in _pile(c)


def _points(c: FishingCtx) -> int:
    point_of = c.game.point_of
    return sum(point_of[card] for card in _pile(c))


def _bonus(c: FishingCtx) -> int:
    counters: dict[str, int] = c.state.counters
    return counters.get(f"bonus.{c.seat}", 0)


def _result(c: FishingCtx) -> int:
    even: int = c.game.break_even(c)
    return _points(c) + _bonus(c) - even


def _took(c: FishingCtx, card: int) -> bool:
    return card in c.extra.get("took", ())


WORDS = (
    StatementSpec(
        "hand_size", "cards dealt to each player (CT-1.3, SC-2.2)", value=AT_DEAL_START, needs_value=True, required=True
    ),
    StatementSpec(
        "table_size",
        "cards turned face up to open the table (CT-1.3, SC-2.2)",
        value=AT_DEAL_START,
        needs_value=True,
        required=True,
    ),
    StatementSpec(
        "stock_size",
        "cards left face down as the stock: one per hand card when stock cards are turned (CT-1.3, CT-3.4), "
        "whole rounds of hands with refill (SC-2.2)",
        value=AT_DEAL_START,
        needs_value=True,
        required=True,
    ),
    StatementSpec(
        "capture",
        "how a card takes: one table card with 'capture sum A..9 = 10' (the two make the total, CT-2.1) or "
        "'capture rank 10..K' (same rank) or 'capture value A..K' (same pips, SC-3.2); when that takes "
        "nothing, 'capture set A..K' takes two or more "
        "adding up to the card (SC-3.3) and 'capture all A' the whole table (SC-V4)",
        words=(1, None),
        value=frozenset(),
        multi=True,
        required=True,
        check=_check_capture,
    ),
    StatementSpec(
        "refill",
        "when every hand is empty, the dealer deals this many more cards to each player from the stock, "
        "and no stock card is turned during play (SC-2.2)",
        value=AT_DEAL_START,
        needs_value=True,
    ),
    StatementSpec("pips", "what a card counts towards a capture sum (default: face value, ace 1)", table=True),
    StatementSpec("points", "what each captured card scores (CT-4.1)", table=True),
    StatementSpec(
        "sweep",
        "a capture that leaves the table empty is a sweep (scopa) when the condition holds; "
        "sweeps counts them (SC-3.6)",
        condition=ON_CAPTURE,
        needs_condition=True,
    ),
    StatementSpec(
        "leftover",
        "who gets the table cards left when the deal ends: 'leftover last_capturer' (SC-3.7) "
        "or 'leftover table' (they stay, unscored)",
        words=(1, 1),
        check=_check_leftover,
        default="leftover table",
    ),
    StatementSpec("primiera", "each card's primiera value; see the primiera quantity (SC-4.2)", table=True),
    StatementSpec(
        "prize",
        "a prize counted at the end of a deal: the player (or partnership) for whom the condition "
        "holds scores the value ('prize settebello = 1 when holds(7♦)'); prizes adds them up (SC-4.1)",
        words=(1, 1),
        value=SEAT_IN_DEAL,
        condition=SEAT_IN_DEAL,
        needs_value=True,
        needs_condition=True,
        multi=True,
        check=_check_bonus,
    ),
    StatementSpec(
        "opening",
        "three or four of a listed rank on the opening table: 'opening specials "
        "K Q J 10 5' (CT-3.1, CT-3.2), 'opening redeal ...' or 'opening none'",
        words=(1, None),
        check=_check_opening,
        default="opening none",
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
    Quantity(
        "points",
        "card points in the player's capture pile",
        SEAT_IN_DEAL,
        _points,
        rulebook="the points of the cards in your pile",
    ),
    Quantity(
        "bonus",
        "what the player won (or paid, negative) through bonus rules this deal",
        SEAT_IN_DEAL,
        _bonus,
        rulebook="what you won (or paid) through bonuses this deal",
    ),
    Quantity(
        "result",
        "points + bonus - break_even: the player's deal result (CT-4.2)",
        SEAT_IN_DEAL,
        _result,
        rulebook="your deal result (the points of your pile + your bonuses − the break-even)",
    ),
    Quantity(
        "captured",
        "cards in the player's capture pile",
        SEAT_IN_DEAL,
        lambda c: len(_pile(c)),
        rulebook="the number of cards in your pile",
    ),
    Quantity(
        "stock_left",
        "cards still in the stock",
        DEAL_ONLY,
        lambda c: len(c.state.zones.get("stock", ())),
        rulebook="the number of cards left in the stock",
    ),
    Quantity(
        "sweeps",
        "sweeps (scope) the player, or partnership, made this deal (SC-3.6)",
        SEAT_IN_DEAL,
        _sweeps,
        rulebook="the number of your sweeps this deal",
    ),
    Quantity(
        "primiera",
        "the best primiera value of each suit in the pile, added up; 0 if a suit is missing (SC-4.2)",
        SEAT_IN_DEAL,
        primiera,
        rulebook="your primiera (the best primiera value of each suit in your pile, added up; 0 with a suit missing)",
    ),
    Quantity(
        "prizes",
        "the values of the prizes the player, or partnership, won this deal (SC-4.1)",
        SEAT_IN_DEAL,
        _prizes,
        rulebook="the value of the prizes you won this deal",
    ),
    Quantity(
        "last_play",
        "in a sweep rule: the capture was made with the deal's last card (SC-3.6)",
        frozenset({CAPTURE}),
        lambda c: c.extra.get("last_play", False),
        rulebook="the capture is the deal's last play|the capture is not the deal's last play",
    ),
    Quantity(
        "whole_table",
        "in a sweep rule: the card took the table through a 'capture all' rule (SC-V4)",
        frozenset({CAPTURE}),
        lambda c: c.extra.get("whole_table", False),
        rulebook="the card took the table by a take-all rule|the card did not take the table by a take-all rule",
    ),
    Function(
        "cards_in",
        "cards of a suit in the player's pile (or the partnership's): cards_in(♦) counts coins",
        (1, 1),
        SEAT_IN_DEAL,
        _cards_in,
        rulebook="the number of {0} cards in your pile",
    ),
    Function(
        "holds",
        "the player's pile (or the partnership's) holds this card: holds(7♦)",
        (1, 1),
        SEAT_IN_DEAL,
        _holds,
        rulebook="your pile holds {0}|your pile does not hold {0}",
    ),
    Function(
        "took",
        "in a bonus or sweep rule: the capture just made includes this card: took(5♥)",
        (1, 1),
        frozenset({CAPTURE}),
        _took,
        rulebook="the capture takes {0}|the capture does not take {0}",
    ),
)

__all__ = ["WORDS", "CAPTURE", "primiera", "rank_list"]
