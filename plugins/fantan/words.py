"""The rule-script words of the layout family: rows, openings, passes, chips."""

from __future__ import annotations

from tapete import (
    DEAL_ONLY,
    SEAT_IN_DEAL,
    SUIT_NAMES,
    Ctx,
    Env,
    Function,
    Quantity,
    ScriptError,
    Statement,
    StatementSpec,
    Word,
    holder_form,
)


def _rank(word: Word, env: Env) -> str:
    rank = str(word.value)
    deck = env.deck
    assert deck is not None  # statements are checked once the deck is known
    if rank not in deck.ranks:
        raise env.error(word.pos, f"unknown rank {rank!r}: this deck has {' '.join(deck.ranks)}")
    return rank


def _suit(word: Word, env: Env) -> str:
    suit = SUIT_NAMES.get(str(word.value), str(word.value))
    deck = env.deck
    assert deck is not None  # statements are checked once the deck is known
    if word.kind not in ("suit", "name") or suit not in deck.suits:
        raise env.error(word.pos, f"{word} is not a suit of this deck: {' '.join(deck.suits)}")
    return suit


def _check_row(item: Statement, env: Env) -> str | tuple[str, tuple[str, ...]] | tuple[str, str]:
    """``row start 7`` (FT-1.3, FT-3.2), ``row start J ♥`` (only those suits) or ``row before 8 6`` (FT-V5)."""
    kind = str(item.words[0].value)
    args = item.words[1:]
    if kind == "start" and args:
        rank = _rank(args[0], env)
        if len(args) == 1:
            return rank
        return (rank, tuple(_suit(w, env) for w in args[1:]))
    if kind == "before" and len(args) == 2:
        return (_rank(args[0], env), _rank(args[1], env))
    raise env.error(item.pos, "a row rule reads 'row start RANK [SUIT ...]' or 'row before RANK RANK'")


def _row_identity(words: tuple[Word, ...]) -> str:
    """``row start J ♥`` and ``row start 7`` are different statements: the suits are part of the name."""
    first = str(words[0])
    if first == "start" and len(words) > 2:
        suits = sorted(SUIT_NAMES.get(str(w.value), str(w.value)) for w in words[2:])
        return " ".join((first, *suits))
    return first


def _hand(c: Ctx, seat: int | None = None) -> list[int]:
    return c.state.zones[f"hand.{c.seat if seat is None else seat}"]


def _others_left(c: Ctx) -> int:
    return sum(len(c.state.zones[f"hand.{s}"]) for s in range(c.state.players) if s != c.seat)


def _holder(c: Ctx, card: int | str) -> int:
    if isinstance(card, str):
        card = c.game.deck.parse(card)
    for s in range(c.state.players):
        if card in c.state.zones[f"hand.{s}"]:
            return s
    return c.state.dealer


WORDS = (
    StatementSpec(
        "row",
        "how the suit rows start and grow: 'row start 7', 'row start J ♥' (those suits only), 'row before 8 6'",
        words=(2, None),
        multi=True,
        check=_check_row,
        identity=_row_identity,
    ),
    StatementSpec(
        "opening", "a card that must be the first card played in a deal (FT-V2)", value=frozenset(), needs_value=True
    ),
    StatementSpec(
        "may_pass",
        "when the player to move may pass (default: no playable card)",
        condition=SEAT_IN_DEAL,
        needs_condition=True,
    ),
    StatementSpec(
        "ante", "chips each player puts in the pool when the deal starts (FT-V3)", value=SEAT_IN_DEAL, needs_value=True
    ),
    StatementSpec(
        "pass_cost", "chips a player pays into the pool for each pass (FT-V3)", value=SEAT_IN_DEAL, needs_value=True
    ),
    Quantity(
        "cards_left",
        "cards in the player's hand",
        SEAT_IN_DEAL,
        lambda c: len(_hand(c)),
        rulebook="the number of cards you hold",
    ),
    Quantity(
        "others_cards_left",
        "cards in all the other hands",
        SEAT_IN_DEAL,
        _others_left,
        rulebook="the number of cards the other players still hold",
    ),
    Quantity(
        "went_out",
        "the player played their last card",
        SEAT_IN_DEAL,
        lambda c: not _hand(c),
        rulebook="you have played your last card|you still hold cards",
    ),
    Quantity(
        "passes",
        "passes the player made this deal",
        SEAT_IN_DEAL,
        lambda c: c.state.counters.get(f"passes.{c.seat}", 0),
        rulebook="the number of times you have passed this deal",
    ),
    Quantity(
        "paid",
        "chips the player put into the pool this deal",
        SEAT_IN_DEAL,
        lambda c: c.state.counters.get(f"paid.{c.seat}", 0),
        rulebook="the number of chips you have put into the pool this deal",
    ),
    Quantity(
        "pool",
        "chips in the pool",
        DEAL_ONLY,
        lambda c: c.state.counters.get("pool", 0),
        rulebook="the number of chips in the pool",
    ),
    Quantity(
        "short_hand",
        "the player was dealt fewer cards than the most anyone got",
        SEAT_IN_DEAL,
        lambda c: (
            c.state.counters.get(f"dealt.{c.seat}", 0)
            < max(c.state.counters.get(f"dealt.{s}", 0) for s in range(c.state.players))
        ),
        rulebook="you were dealt fewer cards than the most anyone got|you were dealt as many cards as anyone",
    ),
    Quantity(
        "playable",
        "how many cards the player to move could play now",
        SEAT_IN_DEAL,
        lambda c: len(c.game.playable(c.state, c.seat)),
        rulebook="the number of your cards that fit a row now",
    ),
    Function(
        "holder",
        "the seat holding a card when the deal starts: holder(7♦)",
        (1, 1),
        DEAL_ONLY,
        _holder,
        rulebook="the player holding {0}",
        form=lambda card: holder_form(card, ("dealer",)),  # nobody: the dealer
    ),
)

__all__ = ["WORDS", "ScriptError"]
