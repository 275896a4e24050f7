"""A variant's options and rules in plain words (``tapete show``, the terminal's ``rules``, the web table).

Each rule is printed as it reads in the script (after overlays and ``if``
choices), next to the vocabulary's own sentence for that statement, so a player
can see what applies without opening the files. It lives on the play floor
because every front-end a person plays at shows it; `tapete.design.describe`
keeps the designer's tools' import path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..rules import tree as t
from ..rules.variant_file import option_text

if TYPE_CHECKING:
    from ..rules.program import Rules
    from .loading import Variant


def describe(variant: Variant) -> list[str]:
    spec, rules = variant.spec, variant.rules
    vocab = variant.registry.vocabulary(spec.game)
    lo, hi = variant.player_range()
    players = f"{lo}" if lo == hi else f"{lo}-{hi}"
    lines = [
        f"{spec.full_name} - {spec.summary}",
        f"game {spec.game}, {players} players; files: " + ", ".join(p.name for p in spec.files),
        "",
        "Options",
    ]
    for name, decl in spec.declarations.items():
        lines.append(_row(f"{name} = {option_text(rules.options.get(name))}", decl.doc))
    if not spec.declarations:
        lines.append("  (none)")
    deck = rules.deck
    extra = []
    if deck.copies > 1:
        extra.append(f"{deck.copies} decks")
    if deck.jokers:
        extra.append(f"{deck.jokers} jokers")
    lines += [
        "",
        "Cards",
        f"  {len(deck)} cards ({deck.name}{', ' + ', '.join(extra) if extra else ''}); "
        f"ranks low to high: {' '.join(rules.order)}",
        "",
        "Rules",
    ]
    for (key, _first), item in rules.statements.items():
        if key in ("game", "deck", "order"):
            continue
        if isinstance(item, t.Table):
            continue
        spec_ = vocab.statements.get(key)
        doc = spec_.doc if spec_ else ""
        resolved = source(item, _resolver(rules))
        if resolved != source(item):  # options and totals shown with their values
            doc = f"{doc} [written: {source(item)}]" if doc else f"[written: {source(item)}]"
        lines.append(_row(resolved, doc))
    for key, values in rules.tables.items():
        lines += ["", f"Table {key}"]
        by_value: dict[Any, list[str]] = {}
        for c, v in enumerate(values):
            if deck.copy_of[c] == 0:
                by_value.setdefault(v, []).append(deck.format(c))
        for v, cards in by_value.items():
            lines.append(f"  {v}: {' '.join(cards)}")
    return lines


def _row(left: str, right: str) -> str:
    return f"  {left:<40} {right}" if right else f"  {left}"


def _resolver(rules: Rules) -> Callable[[t.Expr], str | None]:
    """Text for an option name (its value) or a ``total(TABLE)`` call (the sum), else None."""

    def resolve(e: t.Expr) -> str | None:
        if isinstance(e, t.Name) and e.name in rules.options:
            return _value_text(rules.options[e.name])
        if isinstance(e, t.Call) and e.name == "total" and len(e.args) == 1 and isinstance(e.args[0], t.Name):
            values = rules.tables.get(e.args[0].name)
            return str(sum(int(v) for v in values)) if values is not None else None
        return None

    return resolve


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def source(item: t.Statement, resolve: Callable[[t.Expr], str | None] | None = None) -> str:
    parts = [item.key, *(str(w) for w in item.words)]
    if item.value is not None:
        parts += ["=", expr_text(item.value, resolve=resolve)]
    if item.condition is not None:
        parts += ["when", expr_text(item.condition, resolve=resolve)]
    return " ".join(parts)


def expr_text(e: t.Expr, outer: bool = True, resolve: Callable[[t.Expr], str | None] | None = None) -> str:
    if resolve is not None:
        known = resolve(e)
        if known is not None:
            return known
    if isinstance(e, t.Literal):
        if e.kind == "range":
            return f"{e.value[0]}..{e.value[1]}"
        return f'"{e.value}"' if e.kind == "string" else str(e.value)
    if isinstance(e, t.Name):
        return e.name
    if isinstance(e, t.Call):
        return f"{e.name}({', '.join(expr_text(a, resolve=resolve) for a in e.args)})"
    if isinstance(e, t.Unary):
        inner = expr_text(e.operand, False, resolve)
        return f"not {inner}" if e.op == "not" else f"-{inner}"
    if isinstance(e, t.Binary):
        text = f"{expr_text(e.left, False, resolve)} {e.op} {expr_text(e.right, False, resolve)}"
        return text if outer else f"({text})"
    return "?"
