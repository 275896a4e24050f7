"""The words a rule script may use: statements, quantities, functions, symbols.

The grammar only knows shapes; these specs say which statement keys exist, what
each one takes, and which names may appear in its expressions. The core supplies
the words every game shares; a game plugin adds its family's words through the
``tapete_register_vocabulary`` hook, so a new word never needs a grammar change.

Scopes say what an expression can see when it runs: ``card`` (inside a card
table), ``seat`` (one player), ``deal`` (the deal state), ``match`` (the ledger),
and ``play`` (anything evaluated during a match rather than at load time). A
statement says which scopes its expression runs in; a quantity or function says
which scopes it needs; using it where one is missing is a load-time error.
The named sets below are the combinations the core's statements use; a plugin
picks one or builds its own with `scopes`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    from ..core.ledger import Ledger
    from ..core.state import DealState
    from ..game import Game
    from .compiler import Env
    from .tree import Statement

    G = TypeVar("G", bound="Game", default="Game", covariant=True)  # the family a Ctx serves
    T = TypeVar("T", default=Any)  # what a statement's check makes of its words
else:  # the defaults are for type checkers (PEP 696); typing.TypeVar takes none before Python 3.13
    from typing import TypeVar

    G = TypeVar("G", covariant=True)
    T = TypeVar("T")

CARD, SEAT, DEAL, MATCH = "card", "seat", "deal", "match"
NUMBER, TRUTH = "number", "truth"  # what a quantity or function gives, when it says (``kind``)
PLAY = "play"  # present in every scope that runs during a match (not at load time)


def scopes(*names: str) -> frozenset[str]:
    """A set of scope names, for `StatementSpec.value`/``condition`` and ``needs``."""
    return frozenset(names)


CONSTANT = scopes()  # load time: options, symbols and constants only
AT_DEAL_START = scopes(PLAY, DEAL, MATCH)  # the deal state and the match ledger, no seat
PER_SEAT = scopes(PLAY, SEAT, DEAL, MATCH)  # one seat of a deal, with the ledger (``score``)
SEAT_IN_DEAL = scopes(PLAY, SEAT, DEAL)  # one seat of a deal in play (most family quantities)
DEAL_ONLY = scopes(PLAY, DEAL)  # the deal state, no seat
MATCH_WIDE = scopes(PLAY, MATCH)  # the ledger only (``match_ends``, ``winner``)
SEAT_IN_MATCH = scopes(PLAY, SEAT, MATCH)  # one seat of the ledger (``out``, ``rejoin``)
IN_TABLE = scopes(CARD)  # inside a card table arm: one card


@dataclass(frozen=True)
class StatementSpec(Generic[T]):
    """A statement key a script may use, and the shape it must have.

    ``name`` is the key (``hand_size``); ``doc`` is the sentence ``tapete show``
    prints next to it. ``words`` is the (min, max) count of words after the key
    (max ``None``: no limit). ``value`` / ``condition`` are the scopes the
    ``= expr`` / ``when expr`` part runs in, or ``None`` when the statement takes
    none; ``needs_value`` / ``needs_condition`` make that part obligatory.
    ``table`` makes it a card table (``key { pattern: expr, ... }``), read with
    ``rules.table(key)``. ``multi`` allows several statements with this key, told
    apart by their first word (or by ``identity(words)`` when given), so an
    overlay replaces only the one it repeats. ``required`` makes every variant of
    the game state it. ``check(statement, env)`` validates the words at load time
    and returns their parsed form (``rules.parsed_words(key, first)``); it raises
    ``env.error(word.pos, message)`` to report a problem at its place. It is handed
    the `Statement` as written (a card table's statement is checked by its arms,
    never by ``check``) and the `Env` of the variant being loaded; `constant` folds
    its ``= value`` when that must be known at load time.
    ``rulebook`` is optional: how the statement's rule is said in a players'
    rulebook (``tapete rules``), a sentence whose ``{value}`` and ``{condition}``
    are filled with the statement's own parts in players' words, e.g. ``"You may
    knock when {condition}."``. Without it the rulebook uses ``doc``. ``default`` is the
    statement as it reads when a script leaves it out and the game plays its default
    (``"group_copies = 1"``), so ``tapete diff`` does not count a written default as a change.
    """

    name: str
    doc: str
    words: tuple[int, int | None] = (0, 0)
    value: frozenset[str] | None = None
    condition: frozenset[str] | None = None
    table: bool = False
    needs_value: bool = False
    needs_condition: bool = False
    multi: bool = False
    required: bool = False
    check: Callable[[Statement, Env], T] | None = None
    identity: Callable[[tuple[Any, ...]], str] | None = None
    rulebook: str = ""
    default: str = ""


@dataclass(frozen=True)
class Quantity:
    """A name a script's expressions may read, such as ``cards_left``.

    ``needs`` lists the scopes it must run in (``SEAT_IN_DEAL`` for a per-player
    quantity of a deal in play); a script using it elsewhere is refused at load
    time with a message saying why. ``get(ctx)`` returns the value from the
    `Ctx` (``ctx.state``, ``ctx.seat``, ``ctx.ledger``, ``ctx.game``, ``ctx.card``,
    ``ctx.extra``). It runs on the hot path: read, never write. ``kind`` says what it
    gives (`NUMBER` or `TRUTH`), so that ``won when cards_left`` (a number where true
    or false is wanted) is refused at load time; a quantity that does not say is
    checked when the condition first runs in play.

    ``rulebook`` is optional: the quantity in a players' rulebook (``tapete
    rules``), spoken to the player: a singular noun phrase for a number (``"the
    value of your unmatched cards"``), or, for a true/false quantity, the clause
    and its negation separated by ``|`` (``"you closed|you did not close"``).
    Without it the rulebook uses ``doc``.
    """

    name: str
    doc: str
    needs: frozenset[str]
    get: Callable[[Any], Any]
    kind: str = ""  # NUMBER or TRUTH: lets a script that uses it wrongly be refused at load time
    rulebook: str = ""
    # True for a quantity whose value changes while one rule is judged for several values of it (the
    # trick family's ``bidding``, the bid weighed in ``no_bid``): `Compiled.prepare` reads the rest of
    # the rule once for all of them. Its `get` reads only the value weighed (``ctx.extra``), so that
    # the rule's answers follow from that value and the rest (`Compiled.key`)
    varies: bool = False
    # What `get` reads, as a plain read of the state that compiled steps may make without calling the
    # script (`Compiled.form`, `tapete.rules.forms`): ("counter", NAME) for ``counters.get(NAME, 0)``,
    # ("seat",), ("dealer",), ("side_sum", NAMES) for the sum of the seat's side's counters, NAMES[s]
    # being seat s's. None: only `get` says. tests/test_forms.py holds every form to its `get`.
    form: tuple[Any, ...] | None = None


@dataclass(frozen=True)
class Function:
    """A function a script may call, such as ``holder(7♦)``.

    ``arity`` is the (min, max) number of arguments; ``needs`` the scopes it must
    run in (``CONSTANT`` for a pure function: called with constant arguments it is
    folded at load time, with ``ctx=None``). ``call(ctx, *args)`` receives the
    evaluated arguments (a card literal arrives as its card id).

    ``rulebook`` is optional: the call in a players' rulebook (``tapete rules``),
    with ``{0}``, ``{1}`` for the arguments in players' words (``"the player
    holding {0}"``); a true/false function gives the clause and its negation
    separated by ``|``. Without it the rulebook writes the call as in the script.
    """

    name: str
    doc: str
    arity: tuple[int, int]
    needs: frozenset[str]
    call: Callable[..., Any]
    kind: str = ""  # NUMBER or TRUTH, as for a Quantity
    rulebook: str = ""
    tables: tuple[int, ...] = ()
    """Positions of the arguments that name a card table of the script (``taken(penalty)``): such an
    argument is not evaluated but handed over as the table's values, one per card id (a tuple)."""
    form: Callable[..., tuple[Any, ...] | None] | None = None
    """Given the forms of the call's arguments (`tapete.rules.forms`), the call's form, or None: what
    `call` reads, said plainly for compiled steps (``holder(2♣)``: the first seat holding the card).
    Asked only when every argument has a form; tests/test_forms.py holds every form to its closure."""


@dataclass
class Vocabulary:
    statements: dict[str, StatementSpec] = field(default_factory=dict)
    quantities: dict[str, Quantity] = field(default_factory=dict)
    functions: dict[str, Function] = field(default_factory=dict)
    symbols: dict[str, Any] = field(default_factory=dict)

    def add(self, item: StatementSpec | Quantity | Function) -> None:
        tables: dict[type, dict[str, Any]] = {
            StatementSpec: self.statements,
            Quantity: self.quantities,
            Function: self.functions,
        }
        table = tables[type(item)]
        table[item.name] = item

    def merged(self, other: Vocabulary) -> Vocabulary:
        return Vocabulary(
            {**self.statements, **other.statements},
            {**self.quantities, **other.quantities},
            {**self.functions, **other.functions},
            {**self.symbols, **other.symbols},
        )


class Ctx(Generic[G]):
    """What a compiled expression reads when it runs.

    One object is reused along the hot path (its fields are reassigned), so
    evaluating a rule allocates nothing.

    A field is None outside the scopes that provide it (no ``seat`` in a deal-wide
    rule, no ``card`` outside a card table). The scope check at load time makes
    sure a word reads only the fields its scopes set, so the fields are declared
    without None: a word's getter reads ``ctx.state.zones`` without a check.

    ``Ctx[Chinchon]`` is a context whose ``game`` is that family's class, which is
    how a family's getters read its own attributes typed (a bare ``Ctx`` serves
    any `Game`).
    """

    __slots__ = ("game", "state", "seat", "ledger", "card", "extra")
    game: G
    state: DealState
    seat: int
    ledger: Ledger
    card: int
    extra: dict[str, Any]

    def __init__(
        self,
        game: G | None = None,
        state: DealState | None = None,
        seat: int | None = None,
        ledger: Ledger | None = None,
        card: int | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        self.game = game  # type: ignore[assignment]
        self.state = state  # type: ignore[assignment]
        self.seat = seat  # type: ignore[assignment]
        self.ledger = ledger  # type: ignore[assignment]
        self.card = card  # type: ignore[assignment]
        self.extra = extra if extra is not None else {}

    def for_seat(self, seat: int) -> Ctx[G]:
        return Ctx(self.game, self.state, seat, self.ledger, self.card, self.extra)

    def bound(self, state: DealState, seat: int | None = None, extra: dict[str, Any] | None = None) -> Ctx[G]:
        """This context pointed at a deal (a seat, extra values) for a ``with`` block that forgets them.

        ``with self._ctx.bound(state, seat): allowed = rule(self._ctx)`` evaluates a rule for
        one seat of a deal (``seat=None``: a deal-wide rule). Leaving the block drops the
        state, the seat and the extra values, so a game that keeps one context for speed
        keeps no reference to a deal after its method returns (bots and views rely on it)."""
        self.state = state
        self.seat = seat  # type: ignore[assignment]  # None: a deal-wide rule
        if extra is not None:
            self.extra = extra
        return self

    def release(self) -> None:
        """Forget the deal, the seat and the extra values: what leaving a ``bound`` block does.

        For a rule evaluated many times a move, where ``ctx.state, ctx.seat = state, seat``
        then ``try: ... finally: ctx.release()`` saves the ``with`` statement's calls."""
        self.state = None  # type: ignore[assignment]  # the fields are None outside their scopes
        self.seat = None  # type: ignore[assignment]
        if self.extra:
            self.extra = {}

    def __enter__(self) -> Ctx[G]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
