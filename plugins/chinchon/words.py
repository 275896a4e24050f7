"""The rule-script words of the Chinchón (rummy) family.

Statements say which melds count, when a player may close and how the showing
after a close goes; quantities let ``close``, ``score`` and ``wins_match`` talk
about a player's cards. While a close is being judged, the arrangement-related
quantities (``unmatched``, ``loose_cards``, ``full_close``, ...) describe the
seven cards the closer would show; after the deal they describe what each
player has left once every lay-off is made.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias

from tapete import CONSTANT, DEAL_ONLY, SEAT_IN_DEAL, Ctx, Env, Expr, Quantity, Statement, StatementSpec, constant

if TYPE_CHECKING:
    from .game import Chinchon

# A getter's Ctx carries the Chinchón Game (its meld tables) and, while a close is judged,
# the arrangement shown in ``extra``.
RummyCtx: TypeAlias = "Ctx[Chinchon]"


def _value(item: Statement) -> Expr:
    assert item.value is not None  # these statements need '= value', checked before their check runs
    return item.value


def _constant(item: Statement, env: Env) -> Any:
    return constant(_value(item), env)


def _whole(lo: int, hi: int | None = None) -> Callable[[Statement, Env], int]:
    def check(item: Statement, env: Env) -> int:
        v = _constant(item, env)
        if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
            top = f" to {hi}" if hi is not None else " or more"
            raise env.error(_value(item).pos, f"{item.key} must be a whole number from {lo}{top}, not {v!r}")
        return v

    return check


def _flag(item: Statement, env: Env) -> Any:
    v = _constant(item, env)
    if not isinstance(v, bool):
        raise env.error(_value(item).pos, f"{item.key} must be true or false, not {v!r}")
    return v


def _group_size(item: Statement, env: Env) -> Any:
    """``group_size = 3..4`` (CH-3.1); a single number means exactly that many."""
    v = _constant(item, env)
    if isinstance(v, int) and not isinstance(v, bool):
        v = (v, v)
    if not (isinstance(v, tuple) and 1 <= v[0] <= v[1]):
        raise env.error(_value(item).pos, f"group_size must be a range like 3..4, not {v!r}")
    return v


def _move_word(item: Statement, env: Env) -> Any:
    """``close_move knock``: what the closing move is called (GR-4.3 knocking)."""
    word = str(item.words[0].value)
    if not word.isidentifier() or word in ("draw", "discard", "pass"):
        raise env.error(item.words[0].pos, f"{word!r} cannot name the closing move")
    return word


def _no_wrap(item: Statement, env: Env) -> Any:
    """CH-1.3: runs never go round the corner; the meld solver has no wrapping runs."""
    if _flag(item, env):
        raise env.error(
            _value(item).pos,
            "runs that wrap from the top rank to the bottom are not "
            "supported by the chinchon family; write run_wrap = false",
        )
    return False


# -- quantities -------------------------------------------------------------------
def _shown(c: RummyCtx) -> Any:
    """The arrangement being judged while a close is tried, else None."""
    return c.extra.get("shown") if c.extra else None


def _closed(c: RummyCtx) -> bool:
    return bool(c.state.counters.get("closer", -1) == c.seat)


def _unmatched(c: RummyCtx) -> Any:
    s = _shown(c)
    return s.penalty if s is not None else c.state.counters.get(f"unmatched.{c.seat}", 0)


def _loose(c: RummyCtx) -> Any:
    s = _shown(c)
    return s.loose if s is not None else c.state.counters.get(f"loose.{c.seat}", 0)


def _full_close(c: RummyCtx) -> Any:
    s = _shown(c)
    if s is not None:
        return s.full
    return _closed(c) and bool(c.state.counters.get("full_close", 0))


def _chinchon(c: RummyCtx) -> Any:
    s = _shown(c)
    if s is not None:
        return s.chinchon
    return _closed(c) and bool(c.state.counters.get("chinchon", 0))


def _big_gin(c: RummyCtx) -> Any:
    s = _shown(c)
    if s is not None:
        return s.big
    return _closed(c) and bool(c.state.counters.get("big_gin", 0))


def _closer_unmatched(c: RummyCtx) -> Any:
    closer = c.state.counters.get("closer", -1)
    return c.state.counters.get(f"unmatched.{closer}", 0) if closer >= 0 else 0


def _opponents_unmatched(c: RummyCtx) -> Any:
    counters = c.state.counters
    return sum(counters.get(f"unmatched.{s}", 0) for s in range(c.state.players) if s != c.seat)


def _upcard(c: RummyCtx) -> int | None:
    name = c.state.data.get("upcard")
    return c.game.deck.parse(name) if name else None


def _upcard_value(c: RummyCtx) -> Any:
    card = _upcard(c)
    return c.game.tables.value[card] if card is not None else 0


def _upcard_suit(c: RummyCtx) -> Any:
    card = _upcard(c)
    return c.game.deck.suit_of[card] if card is not None else ""


def _shown_wilds(c: RummyCtx) -> Any:
    s = _shown(c)
    return s.wilds if s is not None else c.state.counters.get(f"wilds.{c.seat}", 0)


WORDS = (
    # cards and melds
    StatementSpec(
        "hand_size",
        "cards dealt to each player; a player closes from one more (CH-2.2)",
        value=CONSTANT,
        needs_value=True,
        check=_whole(1, 20),
        default="hand_size = 7",
    ),
    StatementSpec("value", "penalty points of a card left unmatched (CH-1.4)", table=True, required=True),
    StatementSpec("wild", "1 for a card that stands for any card in a meld, else 0 (CH-V7)", table=True),
    StatementSpec(
        "group_size",
        "how many cards of one rank a group holds: 3..4 (CH-3.1)",
        value=CONSTANT,
        needs_value=True,
        check=_group_size,
        default="group_size = 3..4",
    ),
    StatementSpec(
        "group_copies",
        "how many identical cards one group may hold (CH-3.1, CH-V2)",
        value=CONSTANT,
        needs_value=True,
        check=_whole(1, 8),
        default="group_copies = 1",
    ),
    StatementSpec(
        "run_length",
        "the fewest cards of one suit in a run (CH-3.2)",
        value=CONSTANT,
        needs_value=True,
        check=_whole(2, 20),
        default="run_length = 3",
    ),
    StatementSpec(
        "run_wrap",
        "whether a run may go on from the top rank to the ace (CH-1.3: false)",
        value=CONSTANT,
        needs_value=True,
        check=_no_wrap,
        default="run_wrap = false",
    ),
    StatementSpec(
        "wilds_per_meld",
        "the most wild cards one meld may hold (CH-V7)",
        value=CONSTANT,
        needs_value=True,
        check=_whole(0, 8),
        default="wilds_per_meld = 1",
    ),
    # closing and showing
    StatementSpec(
        "close",
        "when a player who has drawn may close, discarding face down (CH-4.3)",
        condition=SEAT_IN_DEAL,
        needs_condition=True,
        required=True,
    ),
    StatementSpec(
        "sealed", "when nobody may lay off on the closer's melds (CH-5.4)", condition=SEAT_IN_DEAL, needs_condition=True
    ),
    StatementSpec(
        "layoff_upward_only",
        "runs are extended only at their top when laying off (CH-V2)",
        value=CONSTANT,
        needs_value=True,
        check=_flag,
        default="layoff_upward_only = false",
    ),
    StatementSpec(
        "layoff_one_per_value",
        "a player lays off at most one card of each rank (CH-V2)",
        value=CONSTANT,
        needs_value=True,
        check=_flag,
        default="layoff_one_per_value = false",
    ),
    StatementSpec(
        "close_move",
        "what the closing move is called: close (CH-4.3) or knock (GR-4.3)",
        words=(1, 1),
        check=_move_word,
        default="close_move close",
    ),
    StatementSpec(
        "upcard_offer",
        "on the first turn the first player, then the dealer, may take the upcard or pass; "
        "if both pass the first player draws from the stock (GR-4.1)",
        value=CONSTANT,
        needs_value=True,
        check=_flag,
        default="upcard_offer = false",
    ),
    StatementSpec(
        "discard_taken",
        "a card just taken from the discard pile may be discarded in the same turn (GR-4.2: false)",
        value=CONSTANT,
        needs_value=True,
        check=_flag,
        default="discard_taken = true",
    ),
    StatementSpec(
        "big_gin",
        "a player whose cards after drawing all form melds may close without discarding (GR-V6)",
        value=CONSTANT,
        needs_value=True,
        check=_flag,
        default="big_gin = false",
    ),
    StatementSpec(
        "closer_lays_off",
        "the closer lays off on the others' melds too (CH-5.6); GR-5.1: false",
        value=CONSTANT,
        needs_value=True,
        check=_flag,
        default="closer_lays_off = true",
    ),
    StatementSpec(
        "void",
        "checked after each discard: the deal ends without scores and the same dealer deals again (GR-5.3)",
        condition=DEAL_ONLY,
        needs_condition=True,
    ),
    StatementSpec(
        "mistakes",
        "a person's extra draw or discard without drawing is accepted and marks the player as misdealt (CH-V5)",
        value=CONSTANT,
        needs_value=True,
        check=_flag,
        default="mistakes = false",
    ),
    # what rules can ask about a player
    Quantity(
        "unmatched",
        "points of the player's unmatched cards (while closing: of the cards "
        "shown; after the deal: what is left after lay-offs)",
        SEAT_IN_DEAL,
        _unmatched,
        rulebook="the value of your unmatched cards",
    ),
    Quantity(
        "loose_cards",
        "how many unmatched cards that is",
        SEAT_IN_DEAL,
        _loose,
        rulebook="the number of your unmatched cards",
    ),
    Quantity("closed", "the player closed this deal", SEAT_IN_DEAL, _closed, rulebook="you closed|you did not close"),
    Quantity(
        "full_close",
        "the player closes with every card in melds (CH-6.2)",
        SEAT_IN_DEAL,
        _full_close,
        rulebook="you closed with every card in melds|you did not close with every card in melds",
    ),
    Quantity(
        "chinchon",
        "the player closes with all their cards in one run (CH-V6)",
        SEAT_IN_DEAL,
        _chinchon,
        rulebook="you closed with all your cards in one run|you did not close with all your cards in one run",
    ),
    Quantity(
        "big_gin",
        "the player closes without discarding, every card of the drawn hand in melds (GR-V6)",
        SEAT_IN_DEAL,
        _big_gin,
        rulebook="you closed without discarding, every card in melds|you did not close without discarding",
    ),
    Quantity(
        "closer_unmatched",
        "the closer's unmatched points after the deal (GR-6)",
        DEAL_ONLY,
        _closer_unmatched,
        rulebook="the value of the closer's unmatched cards",
    ),
    Quantity(
        "opponents_unmatched",
        "the other players' unmatched points together after the deal (two players: the opponent's, GR-6)",
        SEAT_IN_DEAL,
        _opponents_unmatched,
        rulebook="the value of your opponents' unmatched cards",
    ),
    Quantity(
        "upcard_value",
        "value of the deal's first upcard, recorded with upcard_offer (GR-V4)",
        DEAL_ONLY,
        _upcard_value,
        rulebook="the value of the deal's first upcard",
    ),
    Quantity(
        "upcard_suit",
        "suit of the deal's first upcard, e.g. ♠ (GR-V4)",
        DEAL_ONLY,
        _upcard_suit,
        rulebook="the suit of the deal's first upcard",
    ),
    Quantity(
        "shown_wilds",
        "wild cards in the player's own shown melds (CH-V7)",
        SEAT_IN_DEAL,
        _shown_wilds,
        rulebook="the number of wild cards in your melds",
    ),
    Quantity(
        "turn_number",
        "the player's turn in this deal, 1 for their first (CH-V8)",
        SEAT_IN_DEAL,
        lambda c: c.state.counters.get(f"turns.{c.seat}", 0),
        rulebook="the number of this turn of yours in the deal (1 for your first)",
    ),
    Quantity(
        "misdealt",
        "the player drew twice or discarded without drawing this deal (CH-V5)",
        SEAT_IN_DEAL,
        lambda c: bool(c.state.counters.get(f"misdealt.{c.seat}", 0)),
        rulebook="you drew twice or discarded without drawing this deal|you have made no such mistake this deal",
    ),
    Quantity(
        "hand_cards",
        "cards in the player's hand",
        SEAT_IN_DEAL,
        lambda c: len(c.state.zones[f"hand.{c.seat}"]),
        rulebook="the number of cards you hold",
    ),
    Quantity(
        "stock_cards",
        "cards left in the stock",
        DEAL_ONLY,
        lambda c: len(c.state.zones.get("stock", ())),
        rulebook="the number of cards left in the stock",
    ),
)

__all__ = ["WORDS"]
