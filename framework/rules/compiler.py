"""Checking and compiling expressions and card tables into Python closures.

Everything here runs once, when a variant loads. Names are resolved to options
(folded to constants), symbols, or quantity getters; an expression whose parts
are all constant is evaluated on the spot. What comes out is a closure taking a
`Ctx`, so the hot path never sees the parser or the vocabulary again.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.cards import RED_SUITS, SUIT_NAMES, Deck, face_value
from ..core.errors import Location, ScriptError, line_of, suggest
from ..core.limits import MAX_SCORE, number_text
from . import forms
from . import tree as t
from .forms import Form
from .vocabulary import CARD, MATCH, NUMBER, SEAT, TRUTH, Ctx, Vocabulary

if TYPE_CHECKING:
    from .vocabulary import Quantity

_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    **forms.OPERATIONS,  # + - * and the comparisons: the operations a plain form may hold
    "/": operator.floordiv,  # a zero divisor is refused at load time or reported at its place in play
    "%": operator.mod,
}
AGGREGATES = ("max", "min", "sum", "count", "any", "all", "highest", "lowest")
COMPARISONS = ("most", "fewest")  # a per-player value against the opponents' values


@dataclass
class Env:
    """What the checker knows while compiling one variant."""

    vocab: Vocabulary
    options: dict[str, Any]
    sources: dict[str, str]
    deck: Deck | None = None
    order: tuple[str, ...] = ()
    table_values: Callable[[str, t.Pos], list[Any]] | None = None  # a card table's values, for total()

    def error(self, pos: t.Pos, message: str) -> ScriptError:
        text = self.sources.get(pos.path, "")
        return ScriptError(Location(pos.path, pos.line, pos.column, line_of(text, pos.line)), message)


_UNSEEN = object()  # `Compiled.key` has not yet looked for the parts read once


class Compiled:
    """A checked expression: a constant, or a closure over a `Ctx`.

    Call it with a `Ctx`; ``const`` says it was folded at load time (then ``value`` holds
    it). `bound` answers, without showing the expression, whether a condition is a plain
    limit on one quantity, so a family can take a short cut that needs only the number.
    """

    __slots__ = ("const", "value", "fn", "form", "_limit", "_truth", "_prep", "_parts", "_forms")

    def __init__(
        self,
        fn: Callable[[Ctx], Any] | None = None,
        value: Any = None,
        const: bool = False,
        limit: tuple[str, int] | None = None,
        truth: tuple[str, bool] | None = None,
    ):
        self.const, self.value = const, value
        self.fn = fn if fn is not None else (lambda ctx, _v=value: _v)
        self._limit = limit
        self._truth = truth
        # set on an expression that reads a quantity which varies within one judgement (`prepare`)
        self._prep: Prep | None = None
        self._parts: Any = _UNSEEN  # the functions of the parts `prepare` reads once, found by `key`
        self._forms: tuple[Form, ...] | None = None  # their forms, when every part has one (`key_forms`)
        # what the expression reads, as a plain read of the state (`tapete.rules.forms`), or None
        self.form: Form | None = forms.constant(value) if const else None

    def __call__(self, ctx: Ctx) -> Any:
        return self.fn(ctx)

    def bound(self, quantity: str) -> int | None:
        """N when this condition reads exactly ``QUANTITY <= N``, else None.

        N is a whole number known when the variant loads (a number, an option, a symbol,
        or an expression of them). Chinchón's ``close when unmatched <= close_limit`` is
        answered by the number alone, so judging a turn's closes evaluates no rule per
        card; any other shape of the same rule (``unmatched < 6``, an ``and``) says None,
        and the family evaluates it as written."""
        limit = self._limit
        return limit[1] if limit is not None and limit[0] == quantity else None

    def prepare(self, ctx: Ctx, leaves: list[Compiled | None] | None = None) -> Callable[[], Any]:
        """This expression on ``ctx``, as a function of nothing, for judging it again and again while
        only a quantity that varies (`Quantity.varies`) changes between the calls: the parts that
        do not read such a quantity are read once, when first needed, and kept.

        The trick family weighs ``no_bid when bid + bidding > dealt`` for each of 14 bids: the
        side's bid and the deal's size are read once, ``bidding`` every time. The answers are
        those of calling the expression, error for error, provided nothing but the varying
        quantities changes between the calls (the state, the seat and the other extras stay).

        ``leaves``, when given, gets each part read once, and None for a part judged whole at
        every call (`key`)."""
        prep = self._prep
        if prep is not None:
            return prep(ctx, leaves)
        if self.const:
            value = self.value
            return lambda: value
        if leaves is not None:
            leaves.append(self)
        return _kept(self.fn, ctx)

    def key(self, ctx: Ctx) -> Hashable | None:
        """The values on ``ctx`` of the parts `prepare` reads once: a key for the rule's answers.

        Two judgements with equal keys give equal answers for equal values of the varying
        quantities, since a varying quantity reads only the value weighed (`Quantity.varies`)
        and the rest of the rule is the parts the key holds, put together by operators. So a
        family may keep the answers by the key: the trick family keeps the legal bids of each
        ``(bid, dealt)`` a Spades side meets and judges 14 bids once, not at every decision.

        None, and nothing may be kept, when a part reads the varying quantity inside a call or
        a division (judged whole, with the state, at every call), or when a part raises or gives
        a value that cannot be a key: then the rule is judged as `prepare` judges it, and an
        error comes where the rule meets it (a guarded division is not read at all)."""
        parts = self._parts
        if parts is _UNSEEN:
            parts = self._find_parts()
        if parts is None:
            return None
        try:
            key = tuple([part(ctx) for part in parts])
            hash(key)
        except Exception:  # a part the rule may never reach (a guarded division): left to `prepare`
            return None
        return key

    def key_forms(self) -> tuple[Form, ...] | None:
        """The forms (`tapete.rules.forms`) of the parts `key` reads, in its order; None when the rule
        has no key or a part has no form.

        With them a family's compiled step makes the key itself, the very tuple `key` gives on the
        same state, and finds the answers the family kept for it without calling the script: the
        trick family's session answers Oh Hell's hook (``seat == dealer``, ``bids``, ``dealt``) so."""
        if self._parts is _UNSEEN:
            self._find_parts()
        return self._forms

    def _find_parts(self) -> tuple[Callable[[Ctx], Any], ...] | None:
        """The functions of the parts `prepare` reads once (None: one is judged whole), and their forms, kept."""
        leaves: list[Compiled | None] = []
        self.prepare(None, leaves)  # type: ignore[arg-type]  # makes the judge's closures; reads nothing
        found = [leaf for leaf in leaves if leaf is not None]
        if len(found) < len(leaves):
            self._parts, self._forms = None, None
            return None
        parts = self._parts = tuple(leaf.fn for leaf in found)
        shapes = tuple(leaf.form for leaf in found)
        self._forms = shapes if all(shape is not None for shape in shapes) else None  # type: ignore[assignment]
        return parts

    def truth(self) -> tuple[str, bool] | None:
        """``(QUANTITY, True)`` when this condition reads exactly ``QUANTITY``, ``(QUANTITY, False)``
        when it reads ``not QUANTITY`` (or ``not not not QUANTITY``); any other shape says None.

        Like `bound`, for a family's short cut: Hearts' ``no_lead ♥ when not broken`` is the
        falsehood of one quantity the family keeps as a counter, so its steps in C read the
        counter instead of calling the script back for every lead."""
        return self._truth


def constant(expr: t.Expr, env: Env) -> Any:
    """The value of ``expr`` folded now, at load time; a located `ScriptError` if it is not a constant.

    A statement's ``check`` reads its ``= value`` with it: ``size = constant(statement.value,
    env)``. Numbers, options, symbols and pure functions of them fold; a quantity (known only
    during play) is refused at its place with the reason."""
    compiled = compile_expr(expr, env, frozenset())
    if not compiled.const:
        raise env.error(expr.pos, "this must be known when the variant loads (numbers, options, symbols), not in play")
    return compiled.value


def _kept(fn: Callable[[Ctx], Any], ctx: Ctx) -> Callable[[], Any]:
    """``fn(ctx)`` read on the first call and kept for the next (a part that does not vary, `prepare`)."""
    kept: list[Any] = []

    def value() -> Any:
        if not kept:
            kept.append(fn(ctx))  # an error is raised again next time: nothing is kept
        return kept[0]

    return value


Prep = Callable[[Ctx, "list[Compiled | None] | None"], Callable[[], Any]]


def _each_time(fn: Callable[[Ctx], Any]) -> Prep:
    """A varying expression `prepare` does not take apart: the whole read at every call (no key)."""

    def prep(ctx: Ctx, leaves: list[Compiled | None] | None) -> Callable[[], Any]:
        if leaves is not None:
            leaves.append(None)
        return lambda: fn(ctx)

    return prep


def _weighed(fn: Callable[[Ctx], Any]) -> Prep:
    """A varying quantity alone: read at every call, from the value weighed only (`Quantity.varies`)."""
    return lambda ctx, leaves: lambda: fn(ctx)


def _varies(node: t.Expr, env: Env) -> bool:
    """Whether ``node`` reads a quantity that varies within one judgement (`Quantity.varies`)."""
    stack = [node]
    while stack:
        e = stack.pop()
        if isinstance(e, t.Name):
            q = env.vocab.quantities.get(e.name)
            if q is not None and q.varies and e.name not in env.options and e.name not in env.vocab.symbols:
                return True
        elif isinstance(e, t.Unary):
            stack.append(e.operand)
        elif isinstance(e, t.Binary):
            stack += [e.left, e.right]
        elif isinstance(e, t.Call):
            stack += list(e.args)
    return False


def compile_expr(node: t.Expr, env: Env, scope: frozenset[str]) -> Compiled:
    compiled = _compile_node(node, env, scope)
    if compiled._prep is None and not compiled.const and _varies(node, env):
        # a varying quantity alone is read at each call; anything else that reads one, read whole
        compiled._prep = _weighed(compiled.fn) if isinstance(node, t.Name) else _each_time(compiled.fn)
    return compiled


def _compile_node(node: t.Expr, env: Env, scope: frozenset[str]) -> Compiled:
    if isinstance(node, t.Literal):
        return Compiled(value=_literal(node, env), const=True)
    if isinstance(node, t.Name):
        return _name(node, env, scope)
    if isinstance(node, t.Unary):
        inner = compile_expr(node.operand, env, scope)
        op = operator.neg if node.op == "-" else operator.not_
        if inner.const:
            return Compiled(value=op(inner.value), const=True)
        f = inner.fn
        read = inner._truth
        truth = (read[0], not read[1]) if read is not None and op is operator.not_ else None
        out = Compiled(lambda ctx: op(f(ctx)), truth=truth)
        if inner._prep is not None:
            out._prep = lambda ctx, leaves: _unary(op, inner.prepare(ctx, leaves))
        return out
    if isinstance(node, t.Binary):
        return _binary(node, env, scope)
    if isinstance(node, t.Call):
        return _call(node, env, scope)
    raise TypeError(node)


def _literal(node: t.Literal, env: Env) -> Any:
    if node.kind == "card":
        if env.deck is None:
            raise env.error(node.pos, f"card {node.value} used before the deck is known")
        try:
            return env.deck.parse(str(node.value))
        except ValueError as exc:
            raise env.error(node.pos, str(exc)) from None
    if node.kind == "range":
        lo, hi = node.value
        try:
            return (int(lo), int(hi))
        except ValueError:
            raise env.error(node.pos, f"a range of numbers is needed here, not {lo}..{hi}") from None
    return node.value


def _name(node: t.Name, env: Env, scope: frozenset[str]) -> Compiled:
    name = node.name
    if name in env.options:
        return Compiled(value=env.options[name], const=True)
    if name in env.vocab.symbols:
        return Compiled(value=env.vocab.symbols[name], const=True)
    q = env.vocab.quantities.get(name)
    if q is None:
        known = {*env.options, *env.vocab.symbols, *env.vocab.quantities}
        raise env.error(
            node.pos,
            f"unknown name {name!r}: not an option, a symbol or a quantity of this game"
            + (
                suggest(name, known, most=3)
                or "; to make it an option, declare it under 'declare:' in the variant file"
            ),
        )
    missing = q.needs - scope
    if missing:
        raise env.error(node.pos, _scope_message(name, missing, scope))
    out = Compiled(q.get, truth=(name, True))
    out.form = q.form
    return out


def _scope_message(name: str, missing: frozenset[str], scope: frozenset[str]) -> str:
    if not scope:
        return f"{name!r} is known only during play; here only options and symbols may be used"
    if SEAT in missing and MATCH in scope:
        return f"{name!r} belongs to one player; here it needs an aggregate such as max({name}) or count({name} > 0)"
    return f"{name!r} cannot be used here (it needs: {', '.join(sorted(missing))})"


def _binary(node: t.Binary, env: Env, scope: frozenset[str]) -> Compiled:
    left = compile_expr(node.left, env, scope)
    right = compile_expr(node.right, env, scope)
    if node.op in ("and", "or"):
        if left.const and right.const:
            v = (left.value and right.value) if node.op == "and" else (left.value or right.value)
            return Compiled(value=v, const=True)
        lf, rf = left.fn, right.fn
        if node.op == "and":
            out = Compiled(lambda ctx: lf(ctx) and rf(ctx))
        else:
            out = Compiled(lambda ctx: lf(ctx) or rf(ctx))
        if left._prep is not None or right._prep is not None:
            out._prep = lambda ctx, leaves: _logic(node.op, left.prepare(ctx, leaves), right.prepare(ctx, leaves))
        return out
    op = _BINARY[node.op]
    if node.op in ("/", "%") and right.const and right.value == 0:
        raise env.error(node.pos, f"division by zero: {node.op} 0")
    if left.const and right.const:
        try:
            value = op(left.value, right.value)
        except TypeError:
            raise env.error(node.pos, f"cannot apply {node.op!r} to {left.value!r} and {right.value!r}") from None
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_SCORE:
            # the bound a score is held to in play (tapete.core.limits.MAX_SCORE), met where the file is read
            raise env.error(
                node.pos, f"{node.op!r} gives {number_text(value)}, beyond tapete's bound of {number_text(MAX_SCORE)}"
            )
        return Compiled(value=value, const=True)
    lf, rf = left.fn, right.fn
    if node.op in ("/", "%"):
        return _division(op, lf, rf, env, node)
    if right.const:
        rv = right.value
        limit = None
        if node.op == "<=" and isinstance(node.left, t.Name) and isinstance(rv, int) and not isinstance(rv, bool):
            limit = (node.left.name, rv)  # QUANTITY <= N: the left side is not constant, so a quantity
        out = Compiled(lambda ctx: op(lf(ctx), rv), limit=limit)
    else:
        out = Compiled(lambda ctx: op(lf(ctx), rf(ctx)))
    out.form = forms.operation(node.op, left.form, right.form)
    if left._prep is not None or right._prep is not None:
        out._prep = lambda ctx, leaves: _operation(op, left.prepare(ctx, leaves), right.prepare(ctx, leaves))
    return out


# `Compiled.prepare`'s parts: each takes its operands already prepared (functions of nothing)
def _unary(op: Callable[[Any], Any], inner: Callable[[], Any]) -> Callable[[], Any]:
    return lambda: op(inner())


def _logic(word: str, left: Callable[[], Any], right: Callable[[], Any]) -> Callable[[], Any]:
    if word == "and":
        return lambda: left() and right()
    return lambda: left() or right()


def _operation(op: Callable[[Any, Any], Any], left: Callable[[], Any], right: Callable[[], Any]) -> Callable[[], Any]:
    return lambda: op(left(), right())


def _division(
    op: Callable[[Any, Any], Any], lf: Callable[[Ctx], Any], rf: Callable[[Ctx], Any], env: Env, node: t.Binary
) -> Compiled:
    """A division whose divisor is known only in play: a zero divisor is a located error, never 0."""

    def run(ctx: Ctx) -> Any:
        divisor = rf(ctx)
        if divisor == 0:
            raise env.error(node.pos, f"division by zero in play: the divisor of {node.op!r} was 0")
        return op(lf(ctx), divisor)

    return Compiled(run)


def _call(node: t.Call, env: Env, scope: frozenset[str]) -> Compiled:
    name, args = node.name, node.args
    if name in AGGREGATES and len(args) == 1 and (SEAT not in scope or MATCH in scope):
        return _aggregate(node, env, scope)
    if name in COMPARISONS:
        return _comparison(node, env, scope)
    if name == "if":
        if len(args) != 3:
            raise env.error(node.pos, "if(condition, then, otherwise) takes 3 arguments")
        c, a, b = (compile_expr(x, env, scope) for x in args)
        if c.const:
            return a if c.value else b
        cf, af, bf = c.fn, a.fn, b.fn
        return Compiled(lambda ctx: af(ctx) if cf(ctx) else bf(ctx))
    if name == "total" and "total" not in env.vocab.functions:
        return _table_total(node, env)
    fn = env.vocab.functions.get(name)
    if fn is None:
        known = {*env.vocab.functions, "if", "total", *AGGREGATES, *COMPARISONS}
        raise env.error(node.pos, f"unknown function {name!r}{suggest(name, known, most=3)}")
    lo, hi = fn.arity
    if not lo <= len(args) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        raise env.error(node.pos, f"{name}() takes {want} argument(s), not {len(args)}")
    missing = fn.needs - scope
    if missing:
        raise env.error(node.pos, _scope_message(name + "()", missing, scope))
    compiled = [
        _table_argument(fn.name, a, env) if i in fn.tables else compile_expr(a, env, scope) for i, a in enumerate(args)
    ]
    call = fn.call
    if not fn.needs and all(c.const for c in compiled):
        return Compiled(value=call(None, *(c.value for c in compiled)), const=True)
    fns = [c.fn for c in compiled]
    if len(fns) == 1 and compiled[0].const:  # holder(2♣): the argument known, handed over as it is
        v0 = compiled[0].value
        out = Compiled(lambda ctx: call(ctx, v0))
    elif len(fns) == 1:
        f0 = fns[0]
        out = Compiled(lambda ctx: call(ctx, f0(ctx)))
    elif len(fns) == 2 and compiled[1].const:  # next(dealer, 2)
        f0, v1 = fns[0], compiled[1].value
        out = Compiled(lambda ctx: call(ctx, f0(ctx), v1))
    elif len(fns) == 2:  # min(cards, 51 / players) and the like: no generator a call
        f0, f1 = fns
        out = Compiled(lambda ctx: call(ctx, f0(ctx), f1(ctx)))
    else:
        out = Compiled(lambda ctx: call(ctx, *[f(ctx) for f in fns]))
    shapes = [c.form for c in compiled]
    if fn.form is not None and all(shape is not None for shape in shapes):
        out.form = fn.form(*shapes)  # the call as a plain read, where its function says what it reads
    return out


def _table_argument(function: str, arg: t.Expr, env: Env) -> Compiled:
    """A card table named as a function's argument (``taken(penalty)``): its values, one per card id.

    The table is the script's own (a family declares its tables with ``StatementSpec(table=True)``),
    so a game reads its points from the rules rather than knowing them in Python."""
    tables = sorted(n for n, s in env.vocab.statements.items() if s.table)
    if not isinstance(arg, t.Name):
        raise env.error(arg.pos, f"{function}() takes the name of a card table: {', '.join(tables) or 'none here'}")
    spec = env.vocab.statements.get(arg.name)
    if spec is None or not spec.table:
        raise env.error(arg.pos, f"{arg.name!r} is not a card table of this game; tables: {', '.join(tables)}")
    if env.table_values is None:
        raise env.error(arg.pos, f"{function}() is not known yet here: card tables are read after 'if' blocks")
    return Compiled(value=tuple(env.table_values(arg.name, arg.pos)), const=True)


def card_set(words: tuple[t.Word, ...], env: Env) -> frozenset[int]:
    """The cards any of ``words`` names: ``♥ Q♠`` is every heart and the queen of spades.

    Each word is a card pattern as in a card table (a suit, a rank, a range, a card,
    ``red``); a statement listing cards (``remove 2♣ when players == 3``, a family's
    ``no_lead ♥ when ...``) reads its words with this in its ``check``. A word naming an option
    stands for the option's value, a card (``remove removed when players == 3`` with the
    option ``removed: 2♦``: which card a table takes out is the players' choice)."""
    deck = env.deck
    assert deck is not None  # statements are checked once the deck is known
    found: set[int] = set()
    for w in words:
        if w.kind == "name" and str(w.value) in env.options:
            value = env.options[str(w.value)]
            try:
                found.add(deck.parse(str(value)))
            except ValueError as exc:
                raise env.error(w.pos, f"option {w.value} = {value!r} is not a card of this deck: {exc}") from None
            continue
        test = _word_test(w, env, deck)
        found.update(c for c in deck.ids if test(c))
    return frozenset(found)


def _table_total(node: t.Call, env: Env) -> Compiled:
    """``total(points)``: the sum of a card table over the whole deck, a constant known at load time."""
    if len(node.args) != 1 or not isinstance(node.args[0], t.Name):
        raise env.error(node.pos, "total() takes the name of a card table: total(points)")
    key = node.args[0].name
    spec = env.vocab.statements.get(key)
    if spec is None or not spec.table:
        tables = sorted(n for n, s in env.vocab.statements.items() if s.table)
        raise env.error(node.args[0].pos, f"{key!r} is not a card table of this game; tables: {', '.join(tables)}")
    if env.table_values is None:
        raise env.error(node.pos, "total() is not known yet here: card tables are read after 'if' blocks")
    values = env.table_values(key, node.args[0].pos)
    try:
        return Compiled(value=sum(int(v) for v in values), const=True)
    except (TypeError, ValueError):
        raise env.error(node.pos, f"table {key!r} has values that are not numbers") from None


def _aggregate(node: t.Call, env: Env, scope: frozenset[str]) -> Compiled:
    """max(total) in a match-wide rule: the inner expression runs once per seat still in."""
    inner = compile_expr(node.args[0], env, scope | {SEAT})
    f = inner.fn
    reducers: dict[str, Callable[[list[Any]], Any]] = {
        "max": max,
        "min": min,
        "sum": sum,
        "count": lambda xs: sum(1 for x in xs if x),
        "any": any,
        "all": all,
    }
    reduce = reducers.get(node.name)
    pick = node.name

    def run(ctx: Ctx) -> Any:
        # a seat-less rule runs with the ledger (match-wide) or the deal (deal-wide): scopes say which
        seats = list(ctx.ledger.active if ctx.ledger is not None else range(ctx.state.players))
        values = [f(ctx.for_seat(s)) for s in seats]
        if reduce is not None:
            if not values and pick in ("max", "min"):
                return 0
            return reduce(values)
        # highest(x) / lowest(x): the one seat with the extreme value, -1 on a tie; partners
        # sharing the extreme value are one side, not a tie (the first of them is named)
        if not values:
            return -1
        best = max(values) if pick == "highest" else min(values)
        found = [s for s, v in zip(seats, values, strict=False) if v == best]
        if len(found) == 1:
            return found[0]
        game = ctx.game
        if game is not None and game.teams and all(game.same_team(s, found[0]) for s in found):
            return found[0]
        return -1

    return Compiled(run)


def _comparison(node: t.Call, env: Env, scope: frozenset[str]) -> Compiled:
    """most(captured) in a per-player rule: this player's value beats every opponent's.

    Opponents are the other players, or with ``teams`` the players of the other teams;
    an equal value is no win (SC-4.1: on a tie nobody scores)."""
    if SEAT not in scope:
        raise env.error(node.pos, f"{node.name}() compares one player with the others: use it in a per-player rule")
    if len(node.args) != 1:
        raise env.error(node.pos, f"{node.name}() takes 1 argument, not {len(node.args)}")
    f = compile_expr(node.args[0], env, scope).fn
    better = operator.gt if node.name == "most" else operator.lt

    def run(ctx: Ctx) -> bool:
        me = ctx.seat
        seats = range(ctx.state.players) if ctx.state is not None else ctx.ledger.active
        game = ctx.game
        teams = game is not None and game.teams
        mine = f(ctx)
        for s in seats:
            if s == me or (teams and game.same_team(s, me)):
                continue
            if not better(mine, f(ctx.for_seat(s))):
                return False
        return True

    return Compiled(run)


# What an expression gives -------------------------------------------------------
_COMPARE = ("==", "!=", "<", "<=", ">", ">=")
_CALL_KINDS = {"any": TRUTH, "all": TRUTH, "most": TRUTH, "fewest": TRUTH, "total": NUMBER}
_CALL_KINDS.update(dict.fromkeys(("max", "min", "sum", "count", "highest", "lowest"), NUMBER))


def kind_of(node: t.Expr, env: Env) -> str:
    """What ``node`` gives, as far as the words say: NUMBER, TRUTH, another type's name, or "" (unknown).

    Options and symbols give their value's kind, arithmetic a number, comparisons
    and ``not`` true or false, and a quantity or function its declared ``kind``."""
    if isinstance(node, t.Literal):
        return NUMBER if node.kind == "int" else node.kind
    if isinstance(node, t.Name):
        if node.name in env.options or node.name in env.vocab.symbols:
            value = env.options[node.name] if node.name in env.options else env.vocab.symbols[node.name]
            return TRUTH if isinstance(value, bool) else NUMBER if isinstance(value, int) else type(value).__name__
        q = env.vocab.quantities.get(node.name)
        return q.kind if q is not None else ""
    if isinstance(node, t.Unary):
        return TRUTH if node.op == "not" else NUMBER
    if isinstance(node, t.Binary):
        if node.op in ("and", "or"):
            left, right = kind_of(node.left, env), kind_of(node.right, env)
            return left if left == right else ""
        return TRUTH if node.op in _COMPARE else NUMBER
    if isinstance(node, t.Call):
        if node.name == "if" and len(node.args) == 3:
            then, otherwise = kind_of(node.args[1], env), kind_of(node.args[2], env)
            return then if then == otherwise else ""
        if node.name in _CALL_KINDS:  # the aggregates, comparisons and total() the compiler itself knows
            return _CALL_KINDS[node.name]
        fn = env.vocab.functions.get(node.name)
        return fn.kind if fn is not None else ""
    return ""


def truth_problem(node: t.Expr, env: Env, condition: bool = True) -> tuple[t.Pos, str] | None:
    """Where a number (or text) stands where true or false is wanted, and why, or None.

    Such places are a ``when`` condition (``node`` itself, when ``condition``), the
    operands of ``and``, ``or`` and ``not``, and the first argument of ``if``, at any
    depth: ``out when total`` is as wrong as ``won when 5``, and so is
    ``score = if(total, 1, 2)``."""
    wanted: list[t.Expr] = [node] if condition else []
    stack: list[t.Expr] = [node]
    while stack:
        e = stack.pop()
        if isinstance(e, t.Binary):
            stack += [e.left, e.right]
            if e.op in ("and", "or"):
                wanted += [e.left, e.right]
        elif isinstance(e, t.Unary):
            stack.append(e.operand)
            if e.op == "not":
                wanted.append(e.operand)
        elif isinstance(e, t.Call):
            stack += list(e.args)
            if e.name == "if" and e.args:
                wanted.append(e.args[0])
    for e in wanted:
        kind = kind_of(e, env)
        if kind and kind != TRUTH:
            what = "a number" if kind == NUMBER else f"a {kind}" if kind in ("card", "suit", "range") else "text"
            hint = f" (compare it: '{e.name} > 0')" if isinstance(e, t.Name) and kind == NUMBER else ""
            return e.pos, f"a condition must be true or false, not {what}{hint}"
    return None


def truth_checked(cond: Compiled, env: Env, pos: t.Pos) -> Compiled:
    """``cond`` checked in play: a value that is not true or false is a located error, as a zero divisor is.

    Used for a ``when`` condition whose kind the words do not say (a plugin's quantity
    without ``kind``); what a condition gives is known only when it runs."""
    f = cond.fn

    def run(ctx: Ctx) -> Any:
        value = f(ctx)
        if value is True or value is False:
            return value
        raise env.error(pos, f"a condition must be true or false, but in play it gave {value!r}")

    checked = Compiled(run)
    if cond._prep is not None:
        checked._prep = _each_time(run)
    return checked


# Card patterns and tables ----------------------------------------------------
def pattern_matcher(words: tuple[t.Word, ...], env: Env) -> Callable[[int], bool]:
    """All words of one alternative must hold: ``red 2..8``, ``A♠``, ``hearts Q``."""
    deck = env.deck
    assert deck is not None
    tests: list[Callable[[int], bool]] = []
    for w in words:
        tests.append(_word_test(w, env, deck))
    return lambda card: all(test(card) for test in tests)


def _rank_word(value: str, w: t.Word, env: Env, deck: Deck) -> str:
    rank = str(value)
    if rank not in deck.ranks:
        raise env.error(w.pos, f"unknown rank {rank!r}: this deck has {' '.join(deck.ranks)}")
    return rank


def _word_test(w: t.Word, env: Env, deck: Deck) -> Callable[[int], bool]:
    rank_of, suit_of = deck.rank_of, deck.suit_of
    if w.kind == "name":
        v = str(w.value)
        if v in ("_", "any", "other", "others"):
            return lambda c: True
        if v == "red":
            return lambda c: suit_of[c] in RED_SUITS
        if v == "black":
            return lambda c: suit_of[c] not in RED_SUITS and suit_of[c] != ""
        if v in ("joker", "jokers"):
            return lambda c: suit_of[c] == ""
        if v in SUIT_NAMES:
            s = SUIT_NAMES[v]
            return lambda c: suit_of[c] == s
        rank = _rank_word(v, w, env, deck)
        return lambda c: rank_of[c] == rank
    if w.kind == "int":
        rank = _rank_word(str(w.value), w, env, deck)
        return lambda c: rank_of[c] == rank
    if w.kind == "suit":
        s = str(w.value)
        return lambda c: suit_of[c] == s
    if w.kind == "card":
        try:
            target = deck.parse(str(w.value))
        except ValueError as exc:
            raise env.error(w.pos, str(exc)) from None
        r, s = rank_of[target], suit_of[target]
        return lambda c: rank_of[c] == r and suit_of[c] == s
    if w.kind == "range":
        lo, hi = (_rank_word(x, w, env, deck) for x in w.value)
        order = list(env.order or deck.ranks)
        a, b = order.index(lo), order.index(hi)
        if a > b:
            raise env.error(w.pos, f"empty rank range {lo}..{hi}: {lo} comes after {hi} in the order {' '.join(order)}")
        inside = frozenset(order[a : b + 1])
        return lambda c: rank_of[c] in inside
    raise env.error(w.pos, f"{w} is not a card pattern")


def compile_table(table: t.Table, env: Env) -> list[Any]:
    """A card table becomes one value per card id, computed now."""
    deck = env.deck
    assert deck is not None
    arms = []
    for arm in table.arms:
        matchers = [pattern_matcher(alt, env) for alt in arm.alternatives]
        expr = compile_expr(arm.expr, env, frozenset({CARD}))
        arms.append((matchers, expr, arm))
    values: list[Any] = []
    ctx = Ctx()
    for card in deck.ids:
        for matchers, expr, _ in arms:
            if any(m(card) for m in matchers):
                ctx.card = card
                values.append(expr(ctx))
                break
        else:
            raise env.error(
                table.pos, f"table {table.key!r} gives no value for {deck.format(card)}; end it with '_: 0' or similar"
            )
    return values


def card_quantities(deck: Deck, order: tuple[str, ...]) -> list[Quantity]:
    """What ``rank``, ``index`` and ``position`` mean inside a card table."""
    from .vocabulary import Quantity

    ranks = deck.ranks
    pos = {r: i for i, r in enumerate(order)}
    return [
        Quantity(
            "rank",
            "face value of the card's rank (A=1, J=11, Q=12, K=13)",
            frozenset({CARD}),
            lambda ctx: face_value(deck.rank_of[ctx.card]),
        ),
        Quantity(
            "index",
            "1-based place of the rank in the deck's list of ranks",
            frozenset({CARD}),
            lambda ctx: ranks.index(deck.rank_of[ctx.card]) + 1 if deck.rank_of[ctx.card] in ranks else 0,
        ),
        Quantity(
            "position",
            "1-based place of the rank in the game's rank order",
            frozenset({CARD}),
            lambda ctx: pos.get(deck.rank_of[ctx.card], -1) + 1,
        ),
    ]
