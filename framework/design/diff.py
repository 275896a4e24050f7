"""``tapete diff A B``: the rule-level difference between two variants, in plain words.

Both sides are compared as they play: after ``extends:``, overlays, ``if`` choices and
option values, so two files that say the same thing differently play the same, and a
child that only changes an option shows every rule that option changes. Each difference
is said with the rulebook's words (`wording`): "close when the value of your unmatched
cards is at most 5 → at most 3". ``--json`` gives the same as data for tools.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..play.describe import _resolver, source
from ..rules import tree as t
from ..rules.variant_file import option_text
from .wording import Case, Words, strip_ids

if TYPE_CHECKING:
    from ..play.loading import Variant

ARROW = "→"
LEAD_WORDS = {"your", "the", "a", "their", "at", "more", "less"}  # a change is shown with the word before
LONG_CHANGE = 12  # words: a change longer than this shows the whole new rule
SMALL_WORDS = {"of", "the", "a", "an", "and", "or", "than", "to", "in", "for"}


@dataclass
class Change:
    """One difference: what it concerns, and each side in words (None: absent on that side)."""

    kind: str  # option | players | cards | statement | table
    key: str
    a: str | None
    b: str | None
    text: str
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        change = "added" if self.a is None else "removed" if self.b is None else "changed"
        return {"kind": self.kind, "key": self.key, "change": change, "a": self.a, "b": self.b, "text": self.text}


@dataclass
class Diff:
    a: str
    b: str
    changes: list[Change] = field(default_factory=list)

    @property
    def same(self) -> bool:
        return not self.changes

    def lines(self) -> list[str]:
        return [c.text for c in self.changes]

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "tapete-diff",
            "a": self.a,
            "b": self.b,
            "same": self.same,
            "changes": [c.to_json() for c in self.changes],
        }


def base_of(variant: Variant) -> Variant | None:
    """The variant this one ``extends:``, loaded with its own options; None for a base variant."""
    from ..play.loading import load_variant

    files = [f for f in variant.spec.files if f.suffix in (".yaml", ".yml")]
    if len(files) < 2:
        return None
    parent = load_variant(files[-2], variant.registry)
    known = {path.resolve(): name for name, path in variant.registry.variants().items()}
    name = known.get(Path(files[-2]).resolve())
    parent.from_file = name is None
    return parent


def _name(v: Variant) -> str:
    return v.name


def _side(item: t.Statement | t.Table | None, words: Words) -> str | None:
    """A statement's own rule in words: its words, then 'when' its condition and '=' its value."""
    if item is None:
        return None
    if isinstance(item, t.Table):
        return f"{item.key} table"
    parts = [item.key, *(str(w) for w in item.words)]
    if item.value is not None:
        value = words.value(item.value) if words.inline(item.value) else _flat(words.cases(item.value))
        parts += ["=", value]
    if item.condition is not None:
        parts += ["when", words.clause(item.condition)]
    return " ".join(parts)


def _flat(cases: list[Case]) -> str:
    if len(cases) == 1 and cases[0].when is None and not cases[0].cases:
        return cases[0].value
    if all(c.term for c in cases):  # the terms of a sum
        parts = []
        for c in cases:
            inner = c.value if c.value else "(" + _flat(c.cases) + ")"
            parts.append(f"({inner} if {c.when})" if c.when is not None else inner)
        return " + ".join(parts)
    out = []
    for c in cases:
        inner = c.value if c.value else "(" + _flat(c.cases) + ")"
        out.append(f"{c.head}: {inner}" if c.head else inner)
    return "; ".join(out)


def changed_text(a: str, b: str) -> str:
    """'X is at most 5' and 'X is at most 3' -> 'X is at most 5 → at most 3': the new words where they differ."""
    aw, bw = a.split(" "), b.split(" ")
    pre = 0
    while pre < min(len(aw), len(bw)) and aw[pre] == bw[pre]:
        pre += 1
    if pre < 3:
        return f"{a} {ARROW} {b}"
    post = 0
    while post < min(len(aw), len(bw)) - pre and aw[-1 - post] == bw[-1 - post]:
        post += 1
    if pre == len(aw):  # words added at the end: the old rule, then what is added
        return f"{a} {ARROW} … {' '.join(bw[pre:])}"
    if len(bw) - post - pre > LONG_CHANGE:  # many words changed: the whole new rule reads better
        return f"{a} {ARROW} {b}"
    start = max(pre - 2, 0)  # two words of context before the change, not starting on a small word
    while start > 0 and (bw[start] in SMALL_WORDS or bw[start - 1] in LEAD_WORDS):
        start -= 1
    tail = bw[start : len(bw) - post] if len(bw) - post > start else bw[start:]
    shown = " ".join(tail)
    if shown.count("(") != shown.count(")"):  # never cut inside brackets: say the rest of the rule
        shown = " ".join(bw[start:])
    return f"{a} {ARROW} {shown}"


def compare(a: Variant, b: Variant) -> Diff:
    """Every difference between how ``a`` and ``b`` play, ``a`` first."""
    diff = Diff(_name(a), _name(b))
    ra, rb = a.rules, b.rules
    if a.spec.game != b.spec.game:
        diff.changes.append(
            Change("game", "game", a.spec.game, b.spec.game, f"game {a.spec.game} {ARROW} {b.spec.game}")
        )
    _players(diff, a, b)
    _cards(diff, a, b)
    _options(diff, a, b)
    wa = Words(ra, a.registry.vocabulary(a.spec.game), phrases=a.new_game().rulebook_phrases())
    wb = Words(rb, b.registry.vocabulary(b.spec.game), phrases=b.new_game().rulebook_phrases())
    from .rulebook import sentences

    said_a, said_b = sentences(a), sentences(b)
    keys = list(dict.fromkeys([*ra.statements, *rb.statements]))
    for key, first in keys:
        if key in ("game", "deck", "decks", "jokers", "order", "ace", "players", "teams"):
            continue  # said with the cards and the players
        ia, ib = ra.statements.get((key, first)), rb.statements.get((key, first))
        if isinstance(ia, t.Table) or isinstance(ib, t.Table):
            _table(diff, a, b, key, ia, ib)
            continue
        side = b if ib is not None else a
        spec = side.registry.vocabulary(side.spec.game).statements.get(key)
        default = spec.default if spec is not None and spec.default and not first else None
        ca = source(ia, _resolver(ra)) if ia is not None else default
        cb = source(ib, _resolver(rb)) if ib is not None else default
        if ca == cb:
            continue  # the same rule, or a rule written out as the game's default
        sa = _side(ia, wa) if ia is not None else (f"{default} (the default)" if default else None)
        sb = _side(ib, wb) if ib is not None else (f"{default} (the default)" if default else None)
        label = f"{key} {first}".strip()
        text = _sentence_change(said_a.get((key, first), []), said_b.get((key, first), []))
        if text is None:  # no sentence of either rulebook says it: the statement's own words
            doc = f" ({strip_ids(spec.doc)})" if spec is not None and spec.doc else ""
            text = f"added: {sb}{doc}" if sa is None else f"removed: {sa}{doc}" if sb is None else f"{sa} {ARROW} {sb}"
        read = {o for o in _options_read(ia, ra) | _options_read(ib, rb) if ra.options.get(o) != rb.options.get(o)}
        diff.changes.append(Change("statement", label, sa, sb, text, {"a": ca, "b": cb, "options": sorted(read)}))
    _merge(diff)
    return diff


def _merge(diff: Diff) -> None:
    """Each difference once: rules said by one sentence (the deal's sizes) are one line, and an option whose
    change a rule's sentence says is named there ("(option hand)") instead of on a line of its own."""
    by_text: dict[str, Change] = {}
    for c in diff.changes:
        if c.text in by_text:
            first = by_text[c.text]
            first.key += f", {c.key}"
            first.detail["options"] = sorted({*first.detail.get("options", []), *c.detail.get("options", [])})
        else:
            by_text[c.text] = c
    explained = {o for c in by_text.values() for o in c.detail.get("options", [])}
    kept = []
    for c in by_text.values():
        if c.kind == "option" and c.key in explained:
            continue
        read = c.detail.get("options", [])
        if read:
            c.text += f" (option{'s' * (len(read) > 1)} {', '.join(read)})"
        kept.append(c)
    diff.changes = kept


def _sentence_change(a: list[str], b: list[str]) -> str | None:
    """The rulebook's sentences for one statement, those that differ, as 'before → after' (whole sentences)."""
    only_a = [x for x in dict.fromkeys(a) if x not in b]
    only_b = [x for x in dict.fromkeys(b) if x not in a]
    if only_a and only_b:
        return f"{'; '.join(only_a)} {ARROW} {'; '.join(only_b)}"
    if only_b and not a:
        return f"added: {'; '.join(only_b)}"
    if only_a and not b:
        return f"removed: {'; '.join(only_a)}"
    return None


def _options_read(item: t.Statement | t.Table | None, rules: Any) -> set[str]:
    """The options a statement reads."""
    found: set[str] = set()
    if isinstance(item, t.Statement):

        def note(e: t.Expr) -> str | None:
            if isinstance(e, t.Name) and e.name in rules.options:
                found.add(e.name)
            return None

        source(item, note)
    return found


def _players(diff: Diff, a: Variant, b: Variant) -> None:
    pa, pb = a.player_range(), b.player_range()
    ta, tb = int(a.rules.constant("teams", 0)), int(b.rules.constant("teams", 0))

    def text(p: tuple[int, int], teams: int, default: int) -> str:
        count = f"{p[0]}" if p[0] == p[1] else f"{p[0]} to {p[1]}"
        return f"{count} players{f' in {teams} teams' if teams else ''} ({default} by default)"

    sa, sb = text(pa, ta, a.default_players()), text(pb, tb, b.default_players())
    if sa != sb:
        diff.changes.append(Change("players", "players", sa, sb, changed_text(sa, sb)))


def _cards(diff: Diff, a: Variant, b: Variant) -> None:
    def text(v: Variant) -> str:
        d = v.rules.deck
        what = d.name if d.name != "custom" else "ranks " + " ".join(d.ranks) + " in " + " ".join(d.suits)
        extra = (f", {d.copies} decks" if d.copies > 1 else "") + (f", {d.jokers} jokers" if d.jokers else "")
        return f"{len(d)} cards ({what}{extra}), ranks low to high {' '.join(v.rules.order)}"

    sa, sb = text(a), text(b)
    if sa != sb:
        diff.changes.append(Change("cards", "deck", sa, sb, changed_text(sa, sb)))


def _options(diff: Diff, a: Variant, b: Variant) -> None:
    from .rulebook import meaning

    da, db = a.spec.declarations, b.spec.declarations
    for name in dict.fromkeys([*da, *db]):
        va = option_text(a.rules.options[name]) if name in da else None
        vb = option_text(b.rules.options[name]) if name in db else None
        if va == vb:
            continue
        decl = db.get(name) or da[name]
        doc = strip_ids(decl.doc)
        means = meaning(b.new_game(), decl, b.rules.options.get(name)) if name in db else None
        if means is not None:  # what the new choice means
            doc = strip_ids(means)
        if va is None:
            text = f"option {name} = {vb} is new ({doc})"
        elif vb is None:
            text = f"option {name} = {va} is gone ({doc})"
        else:
            text = f"option {name}: {va} {ARROW} {vb} ({doc})"
        diff.changes.append(Change("option", name, va, vb, text))


def _table(
    diff: Diff, a: Variant, b: Variant, key: str, ia: t.Statement | t.Table | None, ib: t.Statement | t.Table | None
) -> None:
    va, vb = a.rules.tables.get(key), b.rules.tables.get(key)
    if va is None or vb is None:
        present = "added" if va is None else "removed"
        diff.changes.append(
            Change(
                "table", key, None if va is None else key, None if vb is None else key, f"{present}: the {key} table"
            )
        )
        return
    da, db = a.rules.deck, b.rules.deck
    na = {da.format(c): va[c] for c in da.ids if da.copy_of[c] == 0}
    nb = {db.format(c): vb[c] for c in db.ids if db.copy_of[c] == 0}
    moves: dict[tuple[Any, Any], list[str]] = {}
    for card in dict.fromkeys([*na, *nb]):
        x, y = na.get(card), nb.get(card)
        if x != y:
            moves.setdefault((x, y), []).append(card)
    if not moves:
        return
    parts = []
    for (x, y), cards in moves.items():
        shown = " ".join(cards[:8]) + (f" and {len(cards) - 8} more" if len(cards) > 8 else "")
        before = "not in the deck" if x is None else x
        after = "not in the deck" if y is None else y
        parts.append(f"{shown}: {before} {ARROW} {after}")
    text = f"{key} table: " + "; ".join(parts)
    diff.changes.append(
        Change("table", key, key, key, text, {"cards": {c: [x, y] for (x, y), cs in moves.items() for c in cs}})
    )


def same_text(diff: Diff) -> str:
    return f"{diff.a} and {diff.b} play the same: the same players, cards, options and rules"


__all__ = ["Change", "Diff", "base_of", "changed_text", "compare", "same_text"]
