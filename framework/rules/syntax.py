"""Parsing rule scripts with the Lark grammar in ``grammars/rules.lark``.

The grammar knows only the shapes of statements; which words exist is the
checker's business (see ``compiler``), because games add words through plugins.
Lark errors are turned into ``file:line:col: message`` with a caret.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.tree import Meta

from ..core.errors import Location, ScriptError, line_of
from ..core.limits import MAX_DIGITS, MAX_SCRIPT_BYTES, check_script_shape
from . import tree as t
from .grammar_cache import cached_parser

_READABLE = {
    "_NL": "end of line",
    "NAME": "a name",
    "INT": "a number",
    "CARD": "a card",
    "SUIT": "a suit",
    "STRING": "a string",
    "EQUAL": "'='",
    "COLON": "':'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "COMMA": "','",
    "COMPARE": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '%'",
    "WHEN": "'when'",
    "IF": "'if'",
    "ELSE": "'else'",
    "AND": "'and'",
    "OR": "'or'",
    "NOT": "'not'",
    "MINUS": "'-'",
    "VBAR": "'|'",
    "__ANON_0": "'..'",
    "$END": "end of file",
}


def grammar_text() -> str:
    return resources.files("tapete.grammars").joinpath("rules.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    # built once per process, and kept between processes (each `tapete play`, each spawned
    # worker) in the user's cache directory: loading it is several times faster than building it
    return cached_parser(grammar_text(), parser="lalr", propagate_positions=True, maybe_placeholders=True)


def parse_script(text: str, path: str = "<script>") -> t.Script:
    """Parse a script; raise ScriptError at the first syntax error.

    A script read again (the base script under each of its variants, every variant in ``tapete
    variants``, a suite or a server loading the same file hundreds of times) is parsed once per
    process: its nodes are frozen, so each caller gets its own `Script` over the same items."""
    return t.Script(path, text, list(_parsed(text, path)))


@lru_cache(maxsize=256)
def _parsed(text: str, path: str) -> tuple[t.Item, ...]:
    source = text if text.endswith("\n") else text + "\n"
    if len(source) > MAX_SCRIPT_BYTES:
        raise ScriptError(
            Location(path), f"the rule script is {len(source):,} characters; tapete reads scripts of at most 64 KB"
        )
    check_script_shape(source, path, ScriptError)
    try:
        lark_tree = _parser().parse(source)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, source, path) from None
    try:
        items = _ToNodes(path).transform(lark_tree)
    except VisitError as exc:  # a literal refused while the tree is built (a number too long to read)
        if isinstance(exc.orig_exc, ScriptError):
            refused = exc.orig_exc
            loc = refused.location
            raise ScriptError(
                Location(loc.path, loc.line, loc.column, line_of(source, loc.line)), refused.message
            ) from None
        raise
    return tuple(items)


def _syntax_error(exc: UnexpectedInput, text: str, path: str) -> ScriptError:
    line, column = getattr(exc, "line", 0) or 0, getattr(exc, "column", 0) or 0
    if isinstance(exc, UnexpectedCharacters):
        at = exc.pos_in_stream
        char = text[at] if at is not None and at < len(text) else "?"
        message = f"unexpected character {char!r}"
    elif isinstance(exc, UnexpectedToken):
        token = exc.token
        if token.type == "$END":
            found = "end of file"
            lines = text.splitlines()
            line, column = len(lines), len(lines[-1]) + 1 if lines else 1
        elif token.type == "_NL":
            found = "end of line"
        else:
            found = repr(str(token))
        expected = sorted({_READABLE.get(e, e) for e in exc.expected if not e.startswith("__")})
        message = f"unexpected {found}"
        if expected:
            message += ", expected " + ", ".join(expected[:8])
    elif isinstance(exc, UnexpectedEOF):
        message = "unexpected end of file"
    else:
        message = str(exc)
    return ScriptError(Location(path, line, column, line_of(text, line)), message)


@v_args(meta=True)
class _ToNodes(Transformer[Token, Any]):
    """Lark tree -> typed nodes, in the style of Lark's own calculator example."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def _pos(self, meta_or_token: Meta | Token) -> t.Pos:
        return t.Pos(self.path, getattr(meta_or_token, "line", 0) or 0, getattr(meta_or_token, "column", 0) or 0)

    # top level
    def start(self, meta: Meta, items: list[Any]) -> list[t.Item]:
        return [i for i in items if i is not None]

    def block(self, meta: Meta, items: list[Any]) -> tuple[t.Item, ...]:
        return tuple(i for i in items if i is not None)

    def statement(self, meta: Meta, children: list[Any]) -> t.Statement:
        key, *rest = children
        words: list[t.Word] = []
        value: t.Expr | None = None
        condition: t.Expr | None = None
        for c in rest:
            if isinstance(c, tuple) and c and c[0] == "value":
                value = c[1]
            elif isinstance(c, tuple) and c and c[0] == "condition":
                condition = c[1]
            elif c is not None:
                words.append(c)
        return t.Statement(str(key), tuple(words), value, condition, self._pos(key))

    def value(self, meta: Meta, children: list[Any]) -> tuple[str, t.Expr]:
        return ("value", self._as_expr(children[0]))

    def condition(self, meta: Meta, children: list[Any]) -> tuple[str, t.Expr]:
        return ("condition", self._as_expr(children[0]))

    def table(self, meta: Meta, children: list[Any]) -> t.Table:
        key, *rest = children
        words = tuple(c for c in rest if isinstance(c, t.Word))
        arms = tuple(c for c in rest if isinstance(c, t.Arm))
        return t.Table(str(key), words, arms, self._pos(key))

    def arm(self, meta: Meta, children: list[Any]) -> t.Arm:
        pattern, expr = children
        return t.Arm(pattern, self._as_expr(expr), self._pos(meta))

    def pattern(self, meta: Meta, children: list[Any]) -> tuple[tuple[t.Word, ...], ...]:
        return tuple(children)

    def alternative(self, meta: Meta, children: list[Any]) -> tuple[t.Word, ...]:
        return tuple(self._as_word(c) for c in children)

    def if_block(self, meta: Meta, children: list[Any]) -> t.IfBlock:
        cond, then, *rest = children
        otherwise = rest[0] if rest and rest[0] is not None else ()
        return t.IfBlock(self._as_expr(cond), then, otherwise, self._pos(meta))

    # words and atoms: produced as Word, converted to expressions where used so
    def name(self, meta: Meta, children: list[Any]) -> t.Word:
        tok = children[0]
        return t.Word("name", str(tok), self._pos(tok))

    def int(self, meta: Meta, children: list[Any]) -> t.Word:
        tok = children[0]
        digits = len(str(tok).lstrip("+-"))
        if digits > MAX_DIGITS:  # read by the same bound as every number typed (tapete.core.limits)
            pos = self._pos(tok)
            raise ScriptError(
                Location(self.path, pos.line, pos.column),
                f"a number of {digits:,} digits is refused; tapete reads numbers of at most {MAX_DIGITS} digits",
            )
        return t.Word("int", int(tok), self._pos(tok))

    def card(self, meta: Meta, children: list[Any]) -> t.Word:
        tok = children[0]
        return t.Word("card", str(tok), self._pos(tok))

    def suit(self, meta: Meta, children: list[Any]) -> t.Word:
        tok = children[0]
        return t.Word("suit", str(tok), self._pos(tok))

    def string(self, meta: Meta, children: list[Any]) -> t.Word:
        tok = children[0]
        return t.Word("string", str(tok)[1:-1], self._pos(tok))

    def range(self, meta: Meta, children: list[Any]) -> t.Word:
        lo, hi = children
        return t.Word("range", (str(lo), str(hi)), self._pos(lo))

    # expressions
    def _as_expr(self, node: Any) -> t.Expr:
        if isinstance(node, t.Word):
            if node.kind == "name":
                return t.Name(node.value, node.pos)
            return t.Literal(node.kind, node.value, node.pos)
        expr: t.Expr = node  # already an expression node
        return expr

    def _as_word(self, node: Any) -> t.Word:
        if isinstance(node, t.Word):
            return node
        raise TypeError(node)

    def call(self, meta: Meta, children: list[Any]) -> t.Call:
        name, *rest = children
        args = tuple(self._as_expr(a) for a in rest if a is not None)
        return t.Call(str(name), args, self._pos(name))

    def neg(self, meta: Meta, children: list[Any]) -> t.Unary:
        return t.Unary("-", self._as_expr(children[0]), self._pos(meta))

    def not_test(self, meta: Meta, children: list[Any]) -> t.Unary:
        return t.Unary("not", self._as_expr(children[0]), self._pos(meta))

    def _chain(self, meta: Meta, children: list[Any], op: str | None = None) -> t.Expr:
        items: list[Any] = [self._as_expr(c) if not isinstance(c, Token) else c for c in children]
        result: t.Expr = items[0]
        i = 1
        while i < len(items):
            if op is None:
                oper, right = str(items[i]), items[i + 1]
                i += 2
            else:
                oper, right = op, items[i]
                i += 1
            result = t.Binary(oper, result, right, getattr(result, "pos", self._pos(meta)))
        return result

    def or_test(self, meta: Meta, children: list[Any]) -> t.Expr:
        return self._chain(meta, children, "or")

    def and_test(self, meta: Meta, children: list[Any]) -> t.Expr:
        return self._chain(meta, children, "and")

    def comparison(self, meta: Meta, children: list[Any]) -> t.Expr:
        return self._chain(meta, children)

    def sum(self, meta: Meta, children: list[Any]) -> t.Expr:
        return self._chain(meta, children)

    def product(self, meta: Meta, children: list[Any]) -> t.Expr:
        return self._chain(meta, children)
