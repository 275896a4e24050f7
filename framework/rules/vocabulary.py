"""The words a rule script may use: statements, quantities, functions, symbols.

The grammar only knows shapes; these specs say which statement keys exist, what
each one takes, and which names may appear in its expressions. The core supplies
the words every game shares; a game plugin adds its family's words through the
``tapete_register_vocabulary`` hook, so a new word never needs a grammar change.

Scopes say what an expression can see when it runs: ``card`` (inside a card
table), ``seat`` (one player), ``deal`` (the deal state), ``match`` (the ledger).
A quantity names the scopes it needs; using it elsewhere is a load-time error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

CARD, SEAT, DEAL, MATCH = "card", "seat", "deal", "match"


@dataclass(frozen=True)
class StatementSpec:
    name: str
    doc: str
    words: tuple[int, int | None] = (0, 0)  # min and max number of words
    value: frozenset[str] | None = None  # scopes of "= expr", None: not allowed
    condition: frozenset[str] | None = None  # scopes of "when expr"
    table: bool = False  # "{ pattern: expr ... }"
    needs_value: bool = False
    needs_condition: bool = False
    multi: bool = False  # several, told apart by their first word
    required: bool = False
    check: Callable[[Any, Any], Any] | None = None  # (statement, env) -> parsed words


@dataclass(frozen=True)
class Quantity:
    name: str
    doc: str
    needs: frozenset[str]
    get: Callable[[Any], Any]


@dataclass(frozen=True)
class Function:
    name: str
    doc: str
    arity: tuple[int, int]
    needs: frozenset[str]
    call: Callable[..., Any]  # (ctx, *args)


@dataclass
class Vocabulary:
    statements: dict[str, StatementSpec] = field(default_factory=dict)
    quantities: dict[str, Quantity] = field(default_factory=dict)
    functions: dict[str, Function] = field(default_factory=dict)
    symbols: dict[str, Any] = field(default_factory=dict)

    def add(self, item: StatementSpec | Quantity | Function) -> None:
        table = {StatementSpec: self.statements, Quantity: self.quantities, Function: self.functions}[type(item)]
        table[item.name] = item

    def merged(self, other: Vocabulary) -> Vocabulary:
        return Vocabulary(
            {**self.statements, **other.statements},
            {**self.quantities, **other.quantities},
            {**self.functions, **other.functions},
            {**self.symbols, **other.symbols},
        )


def scopes(*names: str) -> frozenset[str]:
    return frozenset(names)


class Ctx:
    """What a compiled expression reads when it runs.

    One object is reused along the hot path (its fields are reassigned), so
    evaluating a rule allocates nothing.
    """

    __slots__ = ("game", "state", "seat", "ledger", "card", "extra")

    def __init__(self, game=None, state=None, seat=None, ledger=None, card=None, extra=None):
        self.game = game
        self.state = state
        self.seat = seat
        self.ledger = ledger
        self.card = card
        self.extra = extra if extra is not None else {}

    def for_seat(self, seat: int) -> Ctx:
        return Ctx(self.game, self.state, seat, self.ledger, self.card, self.extra)
