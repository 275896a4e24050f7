"""Plain forms: a part of a rule as a read of the state that compiled steps can make without the script.

A rule of the script runs as Python closures (`tapete.rules.compiler`). A family with steps in C
(the trick family's session) may still want to answer a rule's commonest questions itself, as
`Compiled.truth` lets it read a counter for ``no_lead ♥ when not broken``. A *form* says what an
expression reads, as nested tuples made of:

* ``("const", N)``: a whole number or a truth, known when the variant loads;
* ``("counter", NAME)``: the deal's counter NAME, 0 when it is not set;
* ``("seat",)``: the seat the rule is asked about; ``("dealer",)``: the deal's dealer;
* ``("side_sum", NAMES)``: the sum of the counters NAMES[s] of each seat s on the asked seat's side
  (the seat alone without teams; a counter not set counts 0);
* ``(OP, A, B)`` for OP one of ``+ - * == != < <= > >=``, on two forms;
* ``("next", SEAT, STEPS)``: the seat STEPS seats on from SEAT in the direction of play (the core's
  ``next``): ``(SEAT + game.step * STEPS) % players``;
* ``("holder", CARD, OTHERWISE)``: the first seat whose hand (the zone ``hand.N``) holds the card
  CARD (a card id), or else what the form OTHERWISE reads (a family's ``holder(2♣)``).

A quantity declares its form (`Quantity.form`) when its getter reads exactly that, and a function
(`Function.form`) the form of a call given its arguments' forms; a literal (a card too, as its
id), an option and a symbol have one when they are a whole number or a truth; an operation has one
when both sides have one, and a call when its function makes one of its arguments' forms. Anything
else (a division, ``and``/``or``/``not``, a table, a call of a function that declares nothing)
has none, and is left to the script. `value` here is the reference a compiled reader must
agree with: tests/test_forms.py holds every quantity's form to its getter over every variant.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .vocabulary import Ctx

Form = tuple[Any, ...]

OPERATIONS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def constant(value: Any) -> Form | None:
    """The form of a value known at load time: a whole number or a truth, else None."""
    return ("const", value) if type(value) in (int, bool) else None


def operation(op: str, left: Form | None, right: Form | None) -> Form | None:
    """The form of ``left OP right``: None unless both sides have one and OP is an operation above."""
    if left is None or right is None or op not in OPERATIONS:
        return None
    return (op, left, right)


def next_form(seat: Form | None, steps: Form | None = ("const", 1)) -> Form | None:
    """The form of the core's ``next(SEAT[, STEPS])`` given its arguments' forms (None unless both have one)."""
    return None if seat is None or steps is None else ("next", seat, steps)


def holder_form(card: Form | None, otherwise: Form | None) -> Form | None:
    """The form of a family's ``holder(CARD)`` when CARD is known at load time (a card id), else None.

    ``otherwise`` is what the family's function answers when no hand holds the card (a removed card)."""
    if card is None or otherwise is None or card[0] != "const" or type(card[1]) is not int:
        return None
    return ("holder", card[1], otherwise)


def value(form: Form, ctx: Ctx[Any]) -> Any:
    """What ``form`` reads on ``ctx`` (its state, seat and game), as the script's closures read it."""
    kind = form[0]
    if kind == "const":
        return form[1]
    if kind == "counter":
        return ctx.state.counters.get(form[1], 0)
    if kind == "seat":
        return ctx.seat
    if kind == "dealer":
        return ctx.state.dealer
    if kind == "side_sum":
        names = form[1]
        counters = ctx.state.counters
        return sum(counters.get(names[s], 0) for s in ctx.game.team_seats(ctx.state.players, ctx.seat))
    if kind == "next":
        players = ctx.state.players if ctx.state is not None else ctx.ledger.players
        step = ctx.game.step if ctx.game is not None else 1
        return (value(form[1], ctx) + step * value(form[2], ctx)) % players
    if kind == "holder":
        zones = ctx.state.zones
        for s in range(ctx.state.players):
            if form[1] in zones[f"hand.{s}"]:
                return s
        return value(form[2], ctx)
    return OPERATIONS[kind](value(form[1], ctx), value(form[2], ctx))
