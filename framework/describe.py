"""``tapete show``: a variant's options and rules in plain words.

Each rule is printed as it reads in the script (after overlays and ``if``
choices), next to the vocabulary's own sentence for that statement, so a player
can see what applies without opening the files.
"""

from __future__ import annotations

from .rules import tree as t
from .variants import option_text


def describe(variant) -> list[str]:
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
        lines.append(_row(source(item), spec_.doc if spec_ else ""))
    for key, values in rules.tables.items():
        lines += ["", f"Table {key}"]
        by_value: dict = {}
        for c, v in enumerate(values):
            if deck.copy_of[c] == 0:
                by_value.setdefault(v, []).append(deck.format(c))
        for v, cards in by_value.items():
            lines.append(f"  {v}: {' '.join(cards)}")
    return lines


def _row(left: str, right: str) -> str:
    return f"  {left:<40} {right}" if right else f"  {left}"


def source(item) -> str:
    parts = [item.key, *(str(w) for w in item.words)]
    if item.value is not None:
        parts += ["=", expr_text(item.value)]
    if item.condition is not None:
        parts += ["when", expr_text(item.condition)]
    return " ".join(parts)


def expr_text(e, outer: bool = True) -> str:
    if isinstance(e, t.Literal):
        if e.kind == "range":
            return f"{e.value[0]}..{e.value[1]}"
        return f'"{e.value}"' if e.kind == "string" else str(e.value)
    if isinstance(e, t.Name):
        return e.name
    if isinstance(e, t.Call):
        return f"{e.name}({', '.join(expr_text(a) for a in e.args)})"
    if isinstance(e, t.Unary):
        return f"not {expr_text(e.operand, False)}" if e.op == "not" else f"-{expr_text(e.operand, False)}"
    if isinstance(e, t.Binary):
        text = f"{expr_text(e.left, False)} {e.op} {expr_text(e.right, False)}"
        return text if outer else f"({text})"
    return "?"
