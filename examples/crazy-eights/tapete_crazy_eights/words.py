"""The rule-script words of the shedding family: deal size, wild ranks, drawing, card points."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tapete import AT_DEAL_START, CONSTANT, DEAL_ONLY, SEAT_IN_DEAL, Ctx, Env, Quantity, Statement, StatementSpec

if TYPE_CHECKING:
    from .game import Eights


def _check_wild(item: Statement, env: Env) -> tuple[str, ...]:
    """``wild 8`` or ``wild 8 2``: ranks of this deck, each once."""
    assert env.deck is not None  # statements are checked once the deck is known
    ranks: list[str] = []
    for word in item.words:
        rank = str(word.value)
        if rank not in env.deck.ranks:
            raise env.error(word.pos, f"unknown rank {rank!r}: this deck has {' '.join(env.deck.ranks)}")
        if rank in ranks:
            raise env.error(word.pos, f"rank {rank} is listed twice")
        ranks.append(rank)
    return tuple(ranks)


def _hand(c: Ctx, seat: int | None = None) -> list[int]:
    hand: list[int] = c.state.zones[f"hand.{c.seat if seat is None else seat}"]
    return hand


def _hand_points(c: Ctx[Eights], seat: int | None = None) -> int:
    points = c.game.point_of
    return sum(points[card] for card in _hand(c, seat))


def _others_points(c: Ctx[Eights]) -> int:
    return sum(_hand_points(c, s) for s in range(c.state.players) if s != c.seat)


WORDS = (
    StatementSpec("hand_size", "cards dealt to each player", value=AT_DEAL_START, needs_value=True, required=True),
    StatementSpec(
        "wild", "ranks that may be played on any card and name the suit to follow", words=(1, None), check=_check_wild
    ),
    StatementSpec(
        "draw_until_playable",
        "true: a player who cannot play draws until a card fits; false: draws one card",
        value=CONSTANT,
        needs_value=True,
    ),
    StatementSpec("points", "what a card left in a hand is worth when the deal ends", table=True, required=True),
    Quantity("cards_left", "cards in the player's hand", SEAT_IN_DEAL, lambda c: len(_hand(c))),
    Quantity("went_out", "the player played their last card", SEAT_IN_DEAL, lambda c: not _hand(c)),
    Quantity("hand_points", "points of the cards in the player's hand", SEAT_IN_DEAL, _hand_points),
    Quantity("others_points", "points of the cards in all the other hands", SEAT_IN_DEAL, _others_points),
    Quantity("stock_left", "cards in the stock", DEAL_ONLY, lambda c: len(c.state.zones["stock"])),
)
