"""The base class of a game family's mechanics.

A family (Fan Tan's layout building, Chinchón's melding, Chinese Ten's fishing)
subclasses `Game`; the rule program (`self.rules`) says which cards, values,
rows, melds and captures apply. One `Game` object serves a whole match: it reads
the program once in ``__init__`` into plain attributes, so that its per-action
methods only touch the `DealState` and those attributes.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from .core.actions import Action
from .core.cards import Deck
from .core.deprecation import warn
from .core.rng import Random
from .core.state import DealState, seat_zones
from .rules.program import Rules
from .rules.vocabulary import Ctx, Function, Quantity, StatementSpec

if TYPE_CHECKING:
    from .core.ledger import Ledger
    from .core.problems import DesignProblem
    from .plugins.record import GameRecord
    from .view import View


REMOVED = "removed"  # the zone of the cards a ``remove`` statement sets aside: face up, seen by every seat

# `Game.deal_round_robin`'s hands in C where the speedups are built (the same hands: the Python below
# is the reference, tests/test_speedups.py holds one to the other)
_deal_hands: Callable[[dict[str, Any], tuple[str, ...], list[Any], int, int, int], None] | None
try:
    from .core._speedups import deal_hands as _deal_hands
except ImportError:  # built without a C compiler
    _deal_hands = None


class QuickSteps(NamedTuple):
    """A game's `Game.quick_steps`: ``legal(state)`` and ``apply(state, action)``, each None when
    it leaves the state to `Game.legal_actions` or `Game.apply`.

    ``session(state)``, where a game has it, opens an object that reads the state once and then
    follows it: its ``legal()`` and ``play(action)`` answer as ``legal`` and ``apply`` would, while
    writing every change into the state as they do, so that reading the state is always right.
    A `tapete.Deal` keeps it only while nothing but its own moves changes the state (see
    `Deal.state`); the session answers None when it cannot (a move of another kind, a phase it
    does not follow, a hand or trick changed behind it), and is then dropped for good. A session
    may also have ``offered(action)``: True when the action is the very move its last ``legal()``
    handed out, nothing having moved since; the deal then hands that list out as the caller's own,
    keeps no copy, and plays such a move without checking it again (any other is checked)."""

    legal: Callable[[DealState], list[Action] | None]
    apply: Callable[[DealState, Action], list[dict[str, Any]] | None]
    session: Callable[[DealState], Any] | None = None


class Bound(NamedTuple):
    """A statement's comparison of a quantity with a number: ``total > 100`` (`Game.bound`)."""

    quantity: str  # a name (``total``) or a call of one (``max(deals_won)``)
    op: str  # < <= > >=
    value: int


@dataclass(frozen=True)
class MoveHelp:
    """One way a person makes a move at the table, as the game says it (`Game.moves_help`).

    ``typed`` is the move as it is typed, with capitals for what the person fills in
    (``"draw stock"``, ``"knock CARD"``, ``"capture CARD TABLE-CARDS"``); ``kind`` is the
    kind of the `Action` it makes, one `Game.legal_actions` can offer in this variant;
    ``does`` says what it does in the game's words and ``rules`` the rule ids it follows.
    ``aliases`` are short words the table reads as ``typed`` (``"d"`` for ``"draw stock"``).
    """

    typed: str
    kind: str
    does: str
    rules: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class RuleText:
    """One rule of a players' rulebook (``tapete rules``), as a game family says it.

    ``text`` is a sentence in players' words. It may name the parts of a statement
    in force between braces, which the rulebook fills in players' words from the
    variant's own rule: ``{close}`` (the statement's condition, or its value when it
    has no condition), ``{score.value}``, ``{close.condition}``, ``{prize coins.value}``
    for a repeatable statement by its first word, ``{sealed@the closer}`` said of "the
    closer" rather than "you". ``covers`` names statement keys the sentence states
    without quoting them (``"row"``), so the rulebook cites their rule ids and does not
    state them again; the statements quoted between braces are covered too. ``ids`` are
    rule ids of the game's rules document (``"CH-4.4"``), shown by ``tapete rules
    --ids``. ``move`` is the move as a player types it (``"draw stock"``, ``"close
    CARD"``) when the sentence says when that move is allowed: the rulebook lists those
    as the moves of a turn.
    """

    text: str
    covers: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    move: str = ""


@dataclass(frozen=True)
class MoveKind:
    """One kind of move `Game.legal_actions` can offer in this variant, with its parameters (`Game.move_kinds`).

    ``kind`` and ``detail`` are the `Action`'s (``draw stock`` is kind ``draw``, detail
    ``stock``). ``cards`` says which cards the move names first: None for a move that names
    none (``pass``, ``draw stock``), else every card it may name (``deck.ids`` for any card
    of the deck; Crazy Eights names only its wild cards with a suit). A move that names
    more cards after the first (a capture, and what it takes) lists, in ``takes``, every set
    of further cards each first card may name: the order of the further cards does not
    matter (``capture 8♣ 2♥ 6♠`` and ``capture 8♣ 6♠ 2♥`` are one move). ``whole`` lists the
    first cards whose further cards are not a choice but whatever the state gives (Scopa's
    ace taking the whole table, SC-V4): at most one such move per first card at a time, so
    one slot each. A learning environment numbers its actions from these declarations
    (tapete.pettingzoo: one slot per move kind with no card, per card, per card and set).
    """

    kind: str
    detail: str = ""
    cards: Collection[int] | None = None
    takes: Mapping[int, Collection[frozenset[int]]] | None = None
    whole: Collection[int] = ()


class Game:
    name: ClassVar[str] = "?"
    summary: ClassVar[str] = ""
    words: ClassVar[
        tuple[StatementSpec | Quantity | Function, ...]
    ] = ()  # StatementSpec / Quantity / Function of the family
    zone_kinds: ClassVar[tuple[str, ...]] = ("hand",)
    default_bot: ClassVar[str] = "random"  # the family's best bot: a GameRecord's default unless it names its own
    seat_zones: ClassVar[tuple[str, ...]] = ("hand",)  # zone kinds with one zone per seat: hand.0, hand.1, ...
    # the family's statement of how many cards each hand is dealt (``"hand_size"``), if it has one:
    # `largest_hand` allows one card more than it says
    hand_size_word: ClassVar[str | None] = None
    record: GameRecord | None = None
    """The registered game this object plays (``scopa`` on Chinese Ten's class), set by the
    `Variant` that built it: what a bot handed only the game (the search, a person's ``hint``)
    reads to find the game's own bots and layout. None for a game built by hand."""
    zone_words: ClassVar[dict[str, str]] = {}  # zone kind -> its name in a rulebook ("discard": "discard pile")

    _set_aside: frozenset[int] = frozenset()  # the removed cards while `deal` runs (set by the engine)

    def __init__(self, rules: Rules):
        self.rules = rules
        self.deck: Deck = rules.deck
        direction = rules.constant("direction", "clockwise")
        self.step = 1 if direction == "clockwise" else -1
        self.visibility = {first: rules.parsed_words("see", first) for first, _ in rules.each("see")}
        self.teams: int = int(rules.constant("teams", 0))  # 0: everyone plays for themselves

    # -- a deal -------------------------------------------------------------
    def deal(self, state: DealState, rng: Random, ctx: Ctx) -> None:
        """Put every card in a zone and set up counters; the engine sets ``to_move`` after."""
        raise NotImplementedError

    def deal_started(self, state: DealState) -> None:
        """Called once a deal is dealt and its first player set (by the ``leader`` rule, else the
        dealer's next seat): a family whose deal opens with a phase of its own, taken in an order
        that starts from that player, moves the turn here. By default nothing changes."""

    def legal_actions(self, state: DealState) -> list[Action]:
        raise NotImplementedError

    def refusal(self, state: DealState, action: Action) -> str | None:
        """Why ``action`` is illegal now, or None; must not change the state."""
        if action in self.legal_actions(state):
            return None
        return f"{action.text(self.deck)!r} is not a legal move now"

    def apply(self, state: DealState, action: Action) -> list[dict[str, Any]]:
        """Carry out a legal action; return events worth logging or printing."""
        raise NotImplementedError

    def quick_steps(self) -> QuickSteps | None:
        """`legal_actions` and `apply` for the states a game settles fastest, as callables a caller
        may hold and call with no method of the game between (built-in methods of a C type,
        say); None by default. Each answers exactly as the game's own method does, or None,
        having changed nothing, for a state it leaves to it. `tapete.Deal` asks for them once
        per deal, so a move made through it costs no Python frame of the game's."""
        return None

    # -- helpers families share ------------------------------------------------
    def same_team(self, a: int, b: int) -> bool:
        """Partners sit alternately: with ``teams = 2`` seats 0 and 2 play against 1 and 3."""
        return a % self.teams == b % self.teams if self.teams else a == b

    def team_seats(self, players: int, seat: int) -> list[int]:
        """The seats whose cards and points count together with ``seat``'s (just ``seat`` without teams)."""
        if not self.teams:
            return [seat]
        return list(range(seat % self.teams, players, self.teams))

    def next_seat(self, state: DealState, seat: int, steps: int = 1) -> int:
        return (seat + self.step * steps) % state.players

    def shuffled_deck(self, rng: Random) -> list[int]:
        """Every card of the deck in play this deal, shuffled; the last one is dealt first.

        The cards a ``remove`` statement sets aside for this deal are not among them: the
        engine puts them face up in the zone ``removed`` (`removed_cards`), so every family
        deals from the deck the player count calls for without a word of its own."""
        out = self._set_aside
        cards = [c for c in self.deck.ids if c not in out] if out else list(self.deck.ids)
        rng.shuffle(cards)
        return cards

    def removed_cards(self, state: DealState, ctx: Ctx) -> list[int]:
        """The cards the script's ``remove CARDS when CONDITION`` statements set aside for this deal.

        A deck that depends on the player count (three-handed Hearts without the 2♦) is the
        full deck less these; the condition is asked once per deal, at its start (by the
        engine, before `deal`: `shuffled_deck` leaves them out)."""
        out: set[int] = set()
        for first, _item in self.rules.each("remove"):
            when = self.rules.condition("remove", first)
            if when is not None and when(ctx):
                out.update(self.rules.parsed_words("remove", first, frozenset()))
        return sorted(out)

    def deal_round_robin(self, state: DealState, cards: list[int], per_hand: int | None, first: int) -> None:
        """Fresh hands, dealt one card at a time from ``first``; ``None`` deals everything."""
        n = state.players
        left = len(cards)
        total = left if per_hand is None else per_hand * n
        # Card k off the top (the end of ``cards``) goes to seat first + k * step: seat j-th in
        # dealing order takes every n-th card from its place, so a slice deals its hand at once
        # (seat s is j = (s - first) * step places on, step being 1 or -1, its own inverse).
        if total > left:
            raise IndexError(f"{total} cards to deal from {left}")  # as the card-by-card deal failed
        names = seat_zones("hand", n)
        zones = state.zones
        if total <= 0:
            for name in names:
                zones[name] = []
            return
        if _deal_hands is not None and type(cards) is list and type(zones) is dict:
            _deal_hands(zones, names, cards, total, first, self.step)  # the same hands, in C
            return
        dealt = cards[::-1] if total == left else cards[: left - total - 1 : -1]  # the top ``total``, top first
        del cards[left - total :]
        step = self.step
        for s in range(n):  # the hands in seat order, as the zones list them
            zones[names[s]] = dealt[(s - first) * step % n :: n]

    def facts(self) -> dict[str, Any]:
        """Public derived facts a bot may read through ``view.facts`` (card values, tables, solvers).

        Never anything that depends on a deal: a view must not reach the state."""
        return {}

    def check_state(self, state: DealState, partial: bool = False) -> list[str]:
        """What is wrong with a state read from a snapshot (empty: nothing); families may add checks.

        The generic checks: zone names are the game's (``zone_kinds``), a seat's zone
        names a seat that exists and every seat has a hand, no hand holds more cards
        than the rules allow (``hand_size`` + 1 when the script sets it, else a fair
        share of the deck), and, unless ``partial``, every card is in some zone."""
        problems = []
        kinds = set(self.zone_kinds)
        if self.rules.has_any("remove"):
            kinds.add(REMOVED)
        for name in state.zones:
            kind, _, owner = name.partition(".")
            if kind not in kinds:
                problems.append(f"zone {name!r} is not a zone of {self.name} (zones: {', '.join(self.zone_kinds)})")
            elif kind in self.seat_zones and not (owner.isdigit() and int(owner) < state.players):
                problems.append(f"zone {name!r} names no seat of a {state.players}-player deal")
        for seat in range(state.players):
            if "hand" in self.seat_zones and "hand" in kinds and f"hand.{seat}" not in state.zones:
                problems.append(f"seat {seat} has no zone 'hand.{seat}'")
        most = self.largest_hand(state)
        for name, cards in state.zones.items():
            if name.startswith("hand.") and len(cards) > most:
                problems.append(f"zone {name!r} holds {len(cards)} cards; a hand holds at most {most} here")
        if not partial:
            placed = {c for cards in state.zones.values() for c in cards}
            missing = [self.deck.format(c) for c in self.deck.ids if c not in placed]
            if missing:
                shown = " ".join(missing[:10]) + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
                problems.append(f"{len(missing)} card(s) of the deck are in no zone: {shown}")
        return problems

    def largest_hand(self, state: DealState) -> int:
        """The most cards a hand may hold: one more than the `hand_size_word` statement says, else a fair share + 1.

        The core knows no family's words: a family whose script states the hand size names
        that statement in ``hand_size_word``; a family whose hands have no limit (a shedding
        game's draws) overrides this method."""
        key = self.hand_size_word
        size = self.rules.expr(key) if key is not None and self.rules.has(key) else None
        if size is not None:
            try:
                return int(size(Ctx(game=self, state=state))) + 1
            except Exception:  # a hand size that needs more than the state: fall back to the share
                pass
        return -(-len(self.deck) // max(state.players, 1)) + 1

    # -- how a deal and a match end (the match loop asks; defaults: a plain end) ---------------
    def deal_void(self, state: DealState) -> str | None:
        """Why the finished deal is void, or None: it has a result (the default).

        A void deal scores nothing and wins nobody a deal; the log records a ``void`` event with
        this reason and the same dealer deals again (Gin Rummy's short stock, GR-5.3). The match
        asks once the deal is over, and a search or a learning environment asks of any state it
        scores, so the answer must come from the state alone (typically a ``state.data`` entry
        the game set when it ended the deal). Setting ``state.data["void"]`` without overriding
        this method still works in 0.2, with a DeprecationWarning."""
        return self._marked_the_old_way(state, "void", "deal_void")

    def deal_stalled(self, state: DealState) -> str | None:
        """Why the finished deal stalled, or None (the default): the game saw it could never end.

        The variant's ``stall`` statement decides what follows: ``stall = error`` (the default)
        stops the match with an error naming the variant, the seed and the deal; ``stall =
        annul`` makes the deal void (``"stalled: REASON"``) and the same dealer deals again.
        Chinchón's deal stalls when no hand changes across two stock rebuilds (CH-4.4). As with
        `deal_void`, the answer comes from the state; the old ``state.data["stalled"]`` entry
        still works in 0.2, with a DeprecationWarning."""
        return self._marked_the_old_way(state, "stalled", "deal_stalled")

    def _marked_the_old_way(self, state: DealState, key: str, hook: str) -> str | None:
        """The 0.1 protocol, ``state.data["void"]`` / ``["stalled"]``, read with a DeprecationWarning."""
        reason = state.data.get(key)
        if reason is None:
            return None
        name = type(self).__name__
        warn(f'{name} marking a {key} deal with state.data["{key}"]', since="0.2.0", instead=f"{name}.{hook}(state)")
        return str(reason)

    def going_out(self, going: list[int], ledger: Ledger) -> list[int]:
        """Who of ``going`` really goes out of the match after this deal (default: all of them).

        ``going`` are the seats still in whose ``out`` condition holds, in seat order; the
        ledger has the deal's scores added. The family may keep some in (Chinchón's CH-6.5:
        when everyone left would go out together, the lowest total plays on). Re-entry
        (``rejoin``) is decided afterwards, for the seats this returns. If it returns every
        seat still in, the match ends there as a draw."""
        return going

    def describe_deal(self, state: DealState) -> list[str]:
        """Lines a person reads at the end of a deal."""
        return []

    # -- the moves there are (optional hook) --------------------------------------------------
    def move_kinds(self) -> list[MoveKind] | None:
        """Every kind of move `legal_actions` can offer under these rules, with its parameters.

        Declare each kind of move (`MoveKind`) once: what it is called, which cards it may
        name and, for a move naming several, every set of further cards; a move
        `legal_actions` offers must match one declaration. This is what the learning
        environment's action space is built from (docs/rl.md), so it is complete by
        construction rather than found by playing. The default, None, declares nothing:
        the environment then finds the moves by exploring random deals, and counts the
        moves it meets later that have no slot."""
        return None

    # -- words for a person at the table (optional hooks) ---------------------------------
    def moves_help(self) -> list[MoveHelp]:
        """The moves of this variant as a person types them, for the table's ``help``.

        List every kind of move `legal_actions` can offer under these rules, and only
        those (a Gin Rummy variant with an upcard offer lists ``pass``, Chinchón does
        not); the table also reads each move's ``aliases``. Cite the rules of the
        variant's own rules document. The default says nothing: ``help`` then shows the
        menu of legal moves alone."""
        return []

    def rules_help(self) -> list[str]:
        """Rules a person needs while moving, each with its rule id (``help`` lists them).

        For what is not a move of its own: when the stock is rebuilt, what an unmatched
        card costs. Like `moves_help`, in the words and rule ids of this variant."""
        return []

    def standing(self, view: View) -> list[str]:
        """What the table's ``score`` shows beyond the totals, from one seat's view.

        How far a total may go (Chinchón's bust limit), what ends the match, and, where
        the game counts captures, what each seat has captured so far, as far as the
        seat has seen it. Read only the view: it is what the person knows."""
        return []

    def bound(self, key: str) -> Bound | None:
        """The number the statement ``key`` compares a quantity with, for `standing` to say in words.

        ``out when total > bust`` gives ``Bound("total", ">", 100)``; ``match_ends when
        max(total) >= game_to and ...`` gives ``Bound("max(total)", ">=", 100)`` (the first
        part of an ``and``); a statement of another shape gives None."""
        return _bound(self.rules, key)

    def design_problems(self, players: int) -> list[DesignProblem]:
        """What ``tapete check`` should tell a designer about a deal for ``players`` under these rules.

        Called once per allowed player count, never during play. Report what the
        family's mechanics make impossible (more cards dealt than the deck holds, a
        hand size that cannot be dealt, a meld no deck can complete) as errors, and
        what plays but is probably not meant (a points table whose total no longer
        matches the break-even) as warnings. The core then also tries one deal.
        """
        return []

    def rulebook(self) -> list[tuple[str, list[RuleText]]]:
        """What a players' rulebook (``tapete rules``) needs from the family, as (section title, rules).

        The core states what every game shares (players, cards, the dealer, who leads,
        what each seat sees, the score, the end of the match) from the variant's
        statements; the family adds what only it knows: how the cards are dealt, the
        moves of a turn and when each is allowed (`RuleText.move`), and its own
        sections (melds, rows, captures, the showing after a close). Read
        ``self.rules`` to say what this variant plays. A section titled like a core one
        (``"The deal"``, ``"A turn"``, ``"Scoring"``, ``"The end"``) adds to it; others
        follow "A turn" in the order given. Statements of the family that no rule
        covers are listed by the rulebook from their words' ``rulebook``/``doc``.
        """
        return []

    def option_meanings(self) -> dict[str, dict[str, str]]:
        """Option name -> {choice: what it means} for the choice options the family's variants declare (optional).

        The rulebook's OPTIONS line and `tapete diff` say the meaning of the choice in force
        ("a player is out on reaching the limit") rather than a doc that lists every choice.
        A variant file may say the same itself (``choices:`` as a mapping), which comes first."""
        return {}

    def rulebook_phrases(self) -> dict[str, str]:
        """Word name -> its phrase in this variant's rulebook, over `Quantity.rulebook` (optional).

        For a word whose players' words depend on the variant: Gin Rummy's ``closed`` is
        "you knocked" where Chinchón's is "you closed". Same form as ``rulebook``."""
        return {}

    def excluded(self, view: View) -> Mapping[int, Collection[str]]:
        """Zones a card the seat cannot see is publicly known not to be in (optional hook).

        Searching bots (``ismcts``) imagine the hidden cards from a seat's view; the core
        already keeps zone sizes, what the seat sees and what it remembers. A game adds
        here what its rules let everyone deduce, e.g. Fan Tan: a player who passed held
        no card that was playable then (FT-3.4). Only cards whose place the view does
        not show matter; the default knows nothing more."""
        return {}


def _bound(rules: Rules, key: str) -> Bound | None:
    """The `Bound` of a statement ``QUANTITY OP N`` (the first part of an ``and``), else None."""
    from .rules import tree as t

    statement = rules.statement(key)
    cond = getattr(statement, "condition", None)
    while isinstance(cond, t.Binary) and cond.op == "and":
        cond = cond.left
    if not (isinstance(cond, t.Binary) and cond.op in ("<", "<=", ">", ">=")):
        return None
    left, right = cond.left, cond.right
    if isinstance(left, t.Name):
        quantity = left.name
    elif isinstance(left, t.Call) and len(left.args) == 1 and isinstance(left.args[0], t.Name):
        quantity = f"{left.name}({left.args[0].name})"
    else:
        return None
    if isinstance(right, t.Literal) and right.kind == "int":
        value = right.value
    elif isinstance(right, t.Name) and right.name in rules.options:
        value = rules.options[right.name]
    else:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return Bound(quantity, cond.op, value)
