"""The words every game's rule script shares: deck, seats, deals, scoring, match end.

Statement ids here are generic; what a family adds (rows, melds, captures) comes
from its plugin through the same registration hook.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import ScriptError
from . import forms
from .carried import CARRY
from .vocabulary import (
    AT_DEAL_START,
    CONSTANT,
    DEAL,
    MATCH_WIDE,
    NUMBER,
    PER_SEAT,
    PLAY,
    SEAT,
    SEAT_IN_MATCH,
    TRUTH,
    Function,
    Quantity,
    StatementSpec,
    Vocabulary,
    scopes,
)

if TYPE_CHECKING:
    from . import tree as t
    from .compiler import Env
    from .vocabulary import Ctx

ZONE_MODES = ("all", "own", "top", "count", "none")


def _check_see(item: t.Statement, env: Env) -> str:
    zone, mode = (str(w.value) for w in item.words)
    if mode not in ZONE_MODES:
        raise env.error(item.words[1].pos, f"unknown visibility {mode!r}: use one of {', '.join(ZONE_MODES)}")
    return mode


STALL_POLICIES = ("error", "annul")


def _check_stall(item: t.Statement, env: Env) -> str:
    from .compiler import constant

    expr = item.value
    assert expr is not None  # needs_value: checked before this runs
    value = constant(expr, env)
    if value not in STALL_POLICIES:
        raise env.error(expr.pos, f"stall must be one of {', '.join(STALL_POLICIES)}, not {value!r}")
    return str(value)


def _check_remove(item: t.Statement, env: Env) -> frozenset[int]:
    """``remove 2♣ 2♦ when players == 5``: the cards set aside before the deal, face up, at that player count."""
    from .compiler import card_set

    cards = card_set(item.words, env)
    if not cards:
        raise env.error(item.pos, "remove names no card of this deck")
    return cards


def _remove_identity(words: tuple[t.Word, ...]) -> str:
    """``remove 2♦ when ...`` and ``remove 2♣ when ...`` are two statements: the cards are the name."""
    return " ".join(sorted(str(w) for w in words))


def _check_game(item: t.Statement, env: Env) -> str:
    return str(item.words[0].value)


STATEMENTS: list[StatementSpec] = [
    StatementSpec("game", "the game family this script is for", words=(1, 1), required=True, check=_check_game),
    StatementSpec("deck", "the cards: a named deck or 'ranks ... suits ...'", words=(1, None), required=True),
    StatementSpec(
        "decks",
        "how many copies of the deck are shuffled together",
        value=CONSTANT,
        needs_value=True,
        default="decks = 1",
    ),
    StatementSpec("jokers", "how many jokers are added", value=CONSTANT, needs_value=True, default="jokers = 0"),
    StatementSpec("order", "rank order from low to high (runs, rows, ranges)", words=(2, None)),
    StatementSpec(
        "remove",
        "cards set aside face up before each deal when the condition holds (a deck for the player count: "
        "'remove 2♣ when players == 3'); they are in play nowhere, seen by everyone",
        words=(1, None),
        condition=AT_DEAL_START,
        needs_condition=True,
        multi=True,
        check=_check_remove,
        identity=_remove_identity,
        rulebook="Before the deal {words} are taken out of the deck and laid face up when {condition}",
    ),
    StatementSpec(
        "ace", "high or low: moves the ace to the top or the bottom of the order", value=CONSTANT, needs_value=True
    ),
    StatementSpec(
        "players", "how many may play: a number or a range like 3..8", value=CONSTANT, needs_value=True, required=True
    ),
    StatementSpec(
        "teams",
        "partnerships: the players sit alternately in this many teams (seat s plays for team s mod teams)",
        value=CONSTANT,
        needs_value=True,
        default="teams = 0",
    ),
    StatementSpec(
        "direction",
        "clockwise or counterclockwise, for play and the deal",
        value=CONSTANT,
        needs_value=True,
        default="direction = clockwise",
    ),
    StatementSpec(
        "first_dealer",
        "lot, or a seat number, for the first deal",
        value=CONSTANT,
        needs_value=True,
        default="first_dealer = lot",
    ),
    StatementSpec(
        "leader",
        "who moves first in a deal (a seat expression)",
        value=AT_DEAL_START,
        needs_value=True,
        default="leader = next(dealer)",
    ),
    StatementSpec(
        "next_dealer",
        "who deals the next deal (a seat expression)",
        value=AT_DEAL_START,
        needs_value=True,
        default="next_dealer = next(dealer)",
    ),
    StatementSpec(
        "see", "what a seat sees of a zone: all, own, top, count or none", words=(2, 2), multi=True, check=_check_see
    ),
    StatementSpec(
        "score", "what each player adds to their total after a deal", value=PER_SEAT, needs_value=True, required=True
    ),
    StatementSpec("won", "when a player counts as winning a deal", condition=PER_SEAT, needs_condition=True),
    StatementSpec(
        "out", "when a player drops out of the match after a deal", condition=SEAT_IN_MATCH, needs_condition=True
    ),
    StatementSpec(
        "stall",
        "what a stalled deal does (one the game sees can never end): error (the default) or annul "
        "(the deal is void and the same dealer deals again)",
        value=CONSTANT,
        needs_value=True,
        check=_check_stall,
        default="stall = error",
    ),
    StatementSpec(
        "wins_match",
        "when a player's deal wins the whole match at once (checked first)",
        condition=PER_SEAT,
        needs_condition=True,
    ),
    StatementSpec(
        "rejoin",
        "when a player who just went out comes back in (re-entry)",
        condition=SEAT_IN_MATCH,
        needs_condition=True,
    ),
    StatementSpec(
        "rejoin_total",
        "the total a rejoining player restarts from (over players still in)",
        value=MATCH_WIDE,
        needs_value=True,
    ),
    CARRY,
    StatementSpec(
        "match_ends", "when the match is over (checked after every deal)", condition=MATCH_WIDE, needs_condition=True
    ),
    StatementSpec("winner", "the seat that wins the finished match (-1: a draw)", value=MATCH_WIDE, needs_value=True),
    StatementSpec(
        "share_win",
        "when the winner rule finds a tie, the players for whom this holds share the win "
        "('share_win when total == min(total)'); without it a tie is a draw",
        condition=SEAT_IN_MATCH,
        needs_condition=True,
    ),
    StatementSpec(
        "match_bonus",
        "what each player adds to their total once the match is over (game or line bonuses)",
        value=SEAT_IN_MATCH,
        needs_value=True,
    ),
]


def _next(ctx: Ctx, seat: int, steps: int = 1) -> int:
    game = ctx.game
    players: int = ctx.state.players if ctx.state is not None else ctx.ledger.players
    step: int = game.step if game is not None else 1
    return (seat + step * steps) % players


QUANTITIES: list[Quantity] = [
    Quantity(
        "players",
        "number of players in the match",
        scopes(PLAY),
        lambda c: c.state.players if c.state is not None else c.ledger.players,
        kind=NUMBER,
        rulebook="the number of players",
    ),
    Quantity(
        "dealer",
        "the dealer's seat in this deal",
        scopes(PLAY, DEAL),
        lambda c: c.state.dealer,
        kind=NUMBER,
        rulebook="the dealer",
        form=("dealer",),
    ),
    Quantity(
        "seat",
        "the seat being asked about",
        scopes(PLAY, SEAT),
        lambda c: c.seat,
        kind=NUMBER,
        rulebook="your seat number",
        form=("seat",),
    ),
    Quantity(
        "total",
        "the player's running total in the match",
        SEAT_IN_MATCH,
        lambda c: c.ledger.totals[c.seat],
        kind=NUMBER,
        rulebook="your total",
    ),
    Quantity(
        "deals_won",
        "deals this player has won",
        SEAT_IN_MATCH,
        lambda c: c.ledger.deals_won[c.seat],
        kind=NUMBER,
        rulebook="the number of deals you have won",
    ),
    Quantity(
        "last_score",
        "what the player scored in the last finished deal",
        SEAT_IN_MATCH,
        lambda c: c.ledger.last_scores[c.seat] if c.ledger.last_scores else 0,
        kind=NUMBER,
        rulebook="your score in the last deal",
    ),
    Quantity(
        "deal_number",
        "1 for the first deal of the match, 2 for the next, ...",
        MATCH_WIDE,
        lambda c: max(c.ledger.deal_number, 1),  # a deal dealt outside a match (new_deal, a trial deal) is a first
        kind=NUMBER,
        rulebook="the number of deals played",
    ),
    Quantity(
        "reentries",
        "how often the player has rejoined the match",
        SEAT_IN_MATCH,
        lambda c: c.ledger.reentries[c.seat],
        kind=NUMBER,
        rulebook="the number of times you have come back in",
    ),
    Quantity(
        "active_players",
        "players not out of the match",
        MATCH_WIDE,
        lambda c: len(c.ledger.active),
        kind=NUMBER,
        rulebook="the number of players still in",
    ),
    Quantity(
        "won_match",
        "the player won the match (known only in match_bonus, once the match is over)",
        SEAT_IN_MATCH,
        lambda c: c.extra.get("winner") == c.seat,
        kind=TRUTH,
        rulebook="you won the match|you did not win the match",
    ),
]

FUNCTIONS: list[Function] = [
    Function(
        "next",
        "the seat after a seat in the direction of play: next(dealer), next(dealer, 2)",
        (1, 2),
        scopes(PLAY),
        _next,
        kind=NUMBER,
        form=forms.next_form,
    ),
    Function("abs", "absolute value", (1, 1), scopes(), lambda c, x: abs(x), kind=NUMBER),
    Function("max", "the larger of several values", (2, 8), scopes(), lambda c, *xs: max(xs), kind=NUMBER),
    Function("min", "the smaller of several values", (2, 8), scopes(), lambda c, *xs: min(xs), kind=NUMBER),
]

SYMBOLS = {
    "clockwise": "clockwise",
    "counterclockwise": "counterclockwise",
    "high": "high",
    "low": "low",
    "lot": "lot",
    "error": "error",
    "annul": "annul",
    "true": True,
    "false": False,
}


def core_vocabulary() -> Vocabulary:
    v = Vocabulary(symbols=dict(SYMBOLS))
    words: tuple[StatementSpec | Quantity | Function, ...] = (*STATEMENTS, *QUANTITIES, *FUNCTIONS)
    for item in words:
        v.add(item)
    return v


__all__ = [
    "core_vocabulary",
    "PLAY",
    "AT_DEAL_START",
    "PER_SEAT",
    "MATCH_WIDE",
    "SEAT_IN_MATCH",
    "CONSTANT",
    "ScriptError",
]
