"""The rule-script words of the trick-taking family: trumps, following, the pass, bans, card points.

The plugin knows what a trick is (who led, who played what, who wins it), how the
pass and the draw from the stock go, and nothing about what any card is worth: a
variant's script names its card tables (``penalty { ♥: 1, Q♠: 13, _: 0 }``) and
scores with functions that take a table by name (``taken(penalty)``), so Hearts'
moon, Omnibus' J♦ and Briscola's card points are all written in the script.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeAlias

from tapete import (
    AT_DEAL_START,
    CONSTANT,
    DEAL_ONLY,
    SEAT_IN_DEAL,
    SUIT_NAMES,
    Ctx,
    Env,
    Function,
    Quantity,
    Statement,
    StatementSpec,
    Word,
    card_set,
    holder_form,
    next_form,
)

from .bidding import WORDS as BID_WORDS

if TYPE_CHECKING:
    from .game import Tricks

TrickCtx: TypeAlias = "Ctx[Tricks]"

FOLLOW_MODES = ("must", "free", "trump")  # follow suit; play anything; follow, else trump if you can
PASS_WAYS = ("left", "right", "across", "hold")
# no trumps; the suit of the card turned up under the stock (Briscola); the suit of the last card dealt,
# the dealer's (Whist)
TRUMP_RULES = ("none", "turned", "last")
DRAWS = ("after_trick", "none")  # the winner then the others draw from the stock (Briscola); it lies dead (Oh Hell)


def _check_follow(item: Statement, env: Env) -> str:
    """``follow must`` (HE-3.2), ``follow free`` (BR-3.2) or ``follow trump`` (follow, else trump when able)."""
    mode = str(item.words[0].value)
    if mode not in FOLLOW_MODES:
        raise env.error(item.words[0].pos, f"follow is one of {', '.join(FOLLOW_MODES)}, not {mode!r}")
    return mode


def _check_trump(item: Statement, env: Env) -> str:
    """``trump none`` (HE-1.2), ``trump turned`` (BR-2.2: the suit of the card turned up), ``trump last`` (the
    suit of the last card dealt, the dealer's) or a suit (``trump ♠``)."""
    word = item.words[0]
    value = SUIT_NAMES.get(str(word.value), str(word.value))
    deck = env.deck
    assert deck is not None  # statements are checked once the deck is known
    if value in TRUMP_RULES or value in deck.suits:
        return value
    raise env.error(
        word.pos, f"trump is none, turned, last or a suit of this deck ({' '.join(deck.suits)}), not {word}"
    )


def _check_draw(item: Statement, env: Env) -> str:
    """``draw none``: the stock left after the deal takes no part in play (OH-3.3); ``draw after_trick`` (BR-3.4)."""
    mode = str(item.words[0].value)
    if mode not in DRAWS:
        raise env.error(item.words[0].pos, f"draw is one of {', '.join(DRAWS)}, not {mode!r}")
    return mode


def _check_cycle(item: Statement, env: Env) -> tuple[str, ...]:
    """``pass_cycle left right across hold``: where the pass goes in the first, second, ... deal (HE-2.3)."""
    ways = tuple(str(w.value) for w in item.words)
    for w in item.words:
        if str(w.value) not in PASS_WAYS:
            raise env.error(w.pos, f"a pass goes {', '.join(PASS_WAYS)}, not {w}")
    return ways


def _check_cards(item: Statement, env: Env) -> frozenset[int]:
    """Words naming cards, any of which counts: ``♥ Q♠`` is every heart and the queen of spades."""
    cards = card_set(item.words, env)
    if not cards:
        raise env.error(item.pos, f"{item.key} names no card of this deck")
    return cards


def _check_rank(item: Statement, env: Env) -> str:
    """``exchange = cambio``: the rank of the trump suit that may be exchanged for the turned card (BR-V4)."""
    from tapete import constant

    assert item.value is not None  # needs_value: checked before this runs
    rank = str(constant(item.value, env))
    deck = env.deck
    assert deck is not None
    if rank not in deck.ranks:
        raise env.error(item.value.pos, f"exchange names a rank of this deck ({' '.join(deck.ranks)}), not {rank!r}")
    return rank


def _words_identity(words: tuple[Word, ...]) -> str:
    """``no_play ♥ Q♠`` and ``no_play ♥`` are different statements: the cards are the name."""
    return " ".join(sorted(str(w) for w in words))


def _team(c: TrickCtx) -> list[int]:
    return c.game.team_seats(c.state.players, c.seat)


def _taken(c: TrickCtx, values: Sequence[int]) -> int:
    zones = c.state.zones
    return sum(values[card] for s in _team(c) for card in zones[f"taken.{s}"])


def _took_all(c: TrickCtx, values: Sequence[int]) -> bool:
    """The player (or the side) took every card in play that the table counts above zero (the moon)."""
    zones = c.state.zones
    mine = {card for s in _team(c) for card in zones[f"taken.{s}"]}
    counted: Sequence[int] = _counted(c, values)
    removed = zones.get("removed", ())
    if removed:
        out = set(removed)
        counted = [card for card in counted if card not in out]
    return bool(counted) and all(card in mine for card in counted)


def _counted(c: TrickCtx, values: Sequence[int]) -> tuple[int, ...]:
    """The cards a table counts above zero, in card order.

    Hearts' score asks ``took_all(penalty)`` five times a seat (its own, then ``any`` of
    everyone's), and going through the 52 values was most of scoring a deal; a script's
    table reaches a word as the same tuple every time (made once, when the rules were
    compiled), so its cards are worked out once per game and table."""
    if type(values) is tuple:
        known: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] | None = getattr(c.game, "_counted_cards", None)
        if known is not None:
            hit = known.get(id(values))
            if hit is not None and hit[0] is values:  # held there, so the id is the same tuple's
                return hit[1]
            counted = tuple(card for card, v in enumerate(values) if v > 0)
            known[id(values)] = (values, counted)
            return counted
    return tuple(card for card, v in enumerate(values) if v > 0)


def _holds_only(c: TrickCtx, values: Sequence[int]) -> bool:
    """Every card in the player's hand is one the table counts (a value other than zero)."""
    return all(values[card] != 0 for card in c.state.zones[f"hand.{c.seat}"])


NEXT_DEALER = next_form(("dealer",))  # the form of next(dealer): the dealer's left, who leads when no rule says


def _holder(c: TrickCtx, card: int | str) -> int:
    """The seat whose hand holds ``card`` now; the dealer's next seat when nobody does (a removed card)."""
    if isinstance(card, str):
        card = c.game.deck.parse(card)
    state = c.state
    zones = state.zones
    players = state.players
    hands = getattr(c.game, "_hand_zones", ())  # the hands' names, made once (`leader = holder(2♣)`: every deal)
    if players <= len(hands):
        for s in range(players):
            if card in zones[hands[s]]:
                return s
    else:
        for s in range(players):
            if card in zones[f"hand.{s}"]:
                return s
    return c.game.next_seat(state, state.dealer)


def _tricks(c: TrickCtx) -> int:
    return sum(c.state.counters.get(f"tricks.{s}", 0) for s in _team(c))


# The quantities that are the truth of one counter the family keeps, as (counter, the quantity is
# true when the counter's truth is this): a ban whose condition reads one of them (``no_lead ♥ when
# not broken``) is judged by the steps in C from the counter itself, without calling the script back
# (`Tricks._fast_rules`). The quantities below are made from this table, so the two cannot differ.
COUNTER_TRUTHS: dict[str, tuple[str, bool]] = {
    "broken": ("broken", True),
    "spades_broken": ("broken", True),
    "first_trick": ("played", False),
}


def _counter_truth(name: str) -> Callable[[TrickCtx], bool]:
    counter, when = COUNTER_TRUTHS[name]
    return lambda c: bool(c.state.counters.get(counter, 0)) is when


def _ban(key: str, doc: str) -> StatementSpec:
    """A ban on cards while a condition holds (``no_lead ♥ when not broken``); several, told apart by their cards."""
    return StatementSpec(
        key,
        doc,
        words=(1, None),
        condition=SEAT_IN_DEAL,
        needs_condition=True,
        multi=True,
        check=_check_cards,
        identity=_words_identity,
    )


WORDS = (
    StatementSpec(
        "hand_size",
        "cards dealt to each player (without it: every card, as evenly as the deck allows)",
        value=AT_DEAL_START,
        needs_value=True,
    ),
    StatementSpec(
        "trump",
        "the trump suit: none, turned (the suit of the card turned up under the stock), last (the suit of the "
        "last card dealt, the dealer's) or a suit",
        words=(1, 1),
        check=_check_trump,
        default="trump none",
    ),
    StatementSpec(
        "follow",
        "following suit: must (follow when you can), free (play any card) or trump (follow, else trump when you can)",
        words=(1, 1),
        check=_check_follow,
        default="follow must",
    ),
    StatementSpec(
        "draw",
        "what becomes of the cards left after the deal: after_trick (the winner, then the others, draw one each "
        "after every trick) or none (they lie dead, the turned card face up)",
        words=(1, 1),
        check=_check_draw,
        default="draw after_trick",
    ),
    StatementSpec(
        "no_trump",
        "a deal played without trumps while the condition holds, read once the cards are dealt; no card is "
        "turned (no_trump when dealt == 10)",
        condition=DEAL_ONLY,
        needs_condition=True,
    ),
    *BID_WORDS,
    StatementSpec("pass_count", "cards each player passes before play", value=CONSTANT, needs_value=True),
    StatementSpec(
        "pass_cycle",
        "where the pass goes, deal after deal: left, right, across or hold (nobody passes)",
        words=(1, None),
        check=_check_cycle,
    ),
    StatementSpec(
        "first_card",
        "what the first lead of a deal must be, when the leader holds such a card",
        words=(1, None),
        check=_check_cards,
    ),
    StatementSpec(
        "breaks",
        "cards whose play breaks hearts (the quantity 'broken' turns true)",
        words=(1, None),
        check=_check_cards,
    ),
    _ban("no_lead", "cards that may not be led while the condition holds, unless the leader has no other card"),
    _ban("no_play", "cards that may not be played while the condition holds, unless no other legal card is left"),
    StatementSpec(
        "exchange",
        "the rank of trumps its holder may exchange for the turned card, on their turn, while the condition holds",
        value=CONSTANT,
        condition=SEAT_IN_DEAL,
        needs_value=True,
        needs_condition=True,
        check=_check_rank,
    ),
    StatementSpec("penalty", "penalty points of each card taken in tricks", table=True),
    StatementSpec("points", "card points of each card taken in tricks", table=True),
    Quantity(
        "tricks",
        "tricks the player (with a partner: the side) has taken this deal",
        SEAT_IN_DEAL,
        _tricks,
        kind="number",
        rulebook="the number of tricks you have taken",
    ),
    Quantity(
        "broken",
        "a card that breaks hearts has been played this deal",
        DEAL_ONLY,
        _counter_truth("broken"),
        kind="truth",
        rulebook="hearts are broken|hearts are not broken yet",
    ),
    Quantity(
        "spades_broken",
        "a card that breaks spades has been played this deal (Spades' name for broken, SP-4.4)",
        DEAL_ONLY,
        _counter_truth("spades_broken"),
        kind="truth",
        rulebook="spades are broken|spades are not broken yet",
    ),
    Quantity(
        "first_trick",
        "no trick of the deal is finished yet",
        DEAL_ONLY,
        _counter_truth("first_trick"),
        kind="truth",
        rulebook="it is the first trick|it is not the first trick",
    ),
    Quantity(
        "stock_left",
        "cards still to be drawn, the turned card included",
        DEAL_ONLY,
        lambda c: len(c.state.zones.get("stock", ())) + len(c.state.zones.get("turned", ())),
        kind="number",
        rulebook="the number of cards still to be drawn, the turned card included",
    ),
    Function(
        "taken",
        "the sum of a card table over the cards the player (with a partner: the side) took in tricks: taken(points)",
        (1, 1),
        SEAT_IN_DEAL,
        _taken,
        kind="number",
        rulebook="the {0} of the cards you took",
        tables=(0,),
    ),
    Function(
        "took_all",
        "the player (or the side) took every card in play that a card table counts above zero: took_all(penalty)",
        (1, 1),
        SEAT_IN_DEAL,
        _took_all,
        kind="truth",
        rulebook="you took every card that counts {0}|you did not take every card that counts {0}",
        tables=(0,),
    ),
    Function(
        "holds_only",
        "every card in the player's hand has a value other than zero in a card table: holds_only(penalty)",
        (1, 1),
        SEAT_IN_DEAL,
        _holds_only,
        kind="truth",
        rulebook="you hold only cards that count {0}|you hold a card that counts no {0}",
        tables=(0,),
    ),
    Function(
        "holder",
        "the seat holding a card now: holder(2♣)",
        (1, 1),
        DEAL_ONLY,
        _holder,
        kind="number",
        rulebook="the player holding {0}",
        form=lambda card: holder_form(card, NEXT_DEALER),  # nobody: the dealer's next seat
    ),
)
