"""``tapete show``: a variant's options and rules in plain words."""
from __future__ import annotations


def describe(variant) -> list[str]:
    spec, rules = variant.spec, variant.rules
    vocab = variant.registry.vocabulary(spec.game)
    lines = [f"{spec.full_name}: {spec.summary}", f"game: {spec.game}",
             f"scripts: {', '.join(p.name for p in spec.scripts)}", "", "options:"]
    for name, decl in spec.declarations.items():
        lines.append(f"  {name} = {rules.options.get(name)!r}  ({decl.type}) {decl.doc}")
    if not spec.declarations:
        lines.append("  (none)")
    deck = rules.deck
    lines += ["", f"deck: {len(deck)} cards ({deck.name}), ranks low to high: {' '.join(rules.order)}"]
    lines.append("rules:")
    for (key, first), item in rules.statements.items():
        if key in ("deck", "order"):
            continue
        doc = vocab.statements[key].doc if key in vocab.statements else ""
        lines.append(f"  {_source(item)}")
        if doc:
            lines.append(f"      - {doc}")
    for key, values in rules.tables.items():
        pairs = ", ".join(f"{deck.format(c)}={v}" for c, v in enumerate(values) if deck.copy_of[c] == 0)
        lines.append(f"  table {key}: {pairs}")
    return lines


def _source(item) -> str:
    from .rules import tree as t
    text = ""
    line = item.pos.line
    # the statement as written (first line), read back from its own source
    return f"{item.key} " + " ".join(str(w) for w in item.words) + _tail(item)


def _tail(item) -> str:
    from .rules import tree as t
    if isinstance(item, t.Table):
        return " { ... }"
    parts = []
    if item.value is not None:
        parts.append("= " + _expr(item.value))
    if item.condition is not None:
        parts.append("when " + _expr(item.condition))
    return (" " + " ".join(parts)) if parts else ""


def _expr(e) -> str:
    from .rules import tree as t
    if isinstance(e, t.Literal):
        if e.kind == "range":
            return f"{e.value[0]}..{e.value[1]}"
        if e.kind == "string":
            return f'"{e.value}"'
        return str(e.value)
    if isinstance(e, t.Name):
        return e.name
    if isinstance(e, t.Call):
        return f"{e.name}({', '.join(_expr(a) for a in e.args)})"
    if isinstance(e, t.Unary):
        return f"{e.op} {_expr(e.operand)}" if e.op == "not" else f"-{_expr(e.operand)}"
    if isinstance(e, t.Binary):
        return f"({_expr(e.left)} {e.op} {_expr(e.right)})"
    return "?"
