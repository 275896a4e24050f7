"""From parsed scripts and option values to `Rules`, the checked program a game reads.

Several scripts can make one variant: a base script and overlays that replace
statements by key (a `multi` statement such as ``see hand own`` is told apart by
its first word). ``if`` blocks are decided here, on options only. Every problem
found is collected and reported together, each at its file, line and column.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..core.cards import NAMED_DECKS, SUIT_NAMES, Deck
from ..core.errors import ErrorList, LocatedError, Location, ScriptError, line_of, suggest
from . import tree as t
from .carried import with_carried
from .compiler import (
    Compiled,
    Env,
    card_quantities,
    compile_expr,
    compile_table,
    kind_of,
    truth_checked,
    truth_problem,
)
from .vocabulary import StatementSpec, Vocabulary

OPTION_SCOPE: frozenset[str] = frozenset()
Chosen = dict[tuple[str, str], "t.Statement | t.Table"]  # the statements that apply, by identity


@dataclass
class Rules:
    """A checked rule program: the deck, constants, compiled expressions and tables."""

    game: str
    deck: Deck
    order: tuple[str, ...]
    order_pos: list[int]
    options: dict[str, Any]
    statements: dict[tuple[str, str], t.Statement | t.Table] = field(default_factory=dict)
    compiled: dict[tuple[str, str, str], Compiled] = field(default_factory=dict)
    tables: dict[str, list[Any]] = field(default_factory=dict)
    parsed: dict[tuple[str, str], Any] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)  # display path -> script text
    # ``when`` conditions whose words do not say they give true or false (a plugin quantity without a
    # ``kind``), unchecked: the design checks try them on a fresh deal; in play they are checked as they run
    unknown_conditions: dict[tuple[str, str], Compiled] = field(default_factory=dict)
    _keys: frozenset[str] | None = field(default=None, init=False, repr=False, compare=False)

    def location(self, key: str, first: str = "") -> Location:
        """Where a statement is written (file, line, column, the line itself), for messages."""
        item = self.statements.get((key, first))
        if item is None:
            return Location("<rules>")
        pos = item.pos
        return Location(pos.path, pos.line, pos.column, line_of(self.sources.get(pos.path, ""), pos.line))

    def error(self, key: str, first: str, message: str) -> ErrorList:
        """A load-time error at the statement it concerns: ``raise rules.error("row", "start", "...")``."""
        return ErrorList([ScriptError(self.location(key, first), message)])

    def has(self, key: str, first: str = "") -> bool:
        return (key, first) in self.statements

    def statement(self, key: str, first: str = "") -> t.Statement | t.Table | None:
        return self.statements.get((key, first))

    def expr(self, key: str, first: str = "") -> Compiled | None:
        return self.compiled.get((key, first, "value"))

    def condition(self, key: str, first: str = "") -> Compiled | None:
        return self.compiled.get((key, first, "condition"))

    def constant(self, key: str, default: Any = None, first: str = "") -> Any:
        c = self.expr(key, first)
        if c is None:
            return default
        if not c.const:
            raise ValueError(f"{key} is not a constant")
        return c.value

    def table(self, key: str) -> list[Any] | None:
        return self.tables.get(key)

    def words(self, key: str, first: str = "") -> tuple[t.Word, ...]:
        s = self.statements.get((key, first))
        return s.words if s is not None else ()

    def parsed_words(self, key: str, first: str = "", default: Any = None) -> Any:
        return self.parsed.get((key, first), default)

    def has_any(self, key: str) -> bool:
        """Whether any statement with this key is in force (a repeatable one under any first word).

        Asked once a deal (``remove``): the keys are gathered the first time, the program being
        complete once built."""
        keys = self._keys
        if keys is None:
            keys = self._keys = frozenset(k for k, _ in self.statements)
        return key in keys

    def each(self, key: str) -> list[tuple[str, t.Statement | t.Table]]:
        return [(first, s) for (k, first), s in self.statements.items() if k == key]


def flatten(items: Iterable[t.Item], env: Env, out: list[t.Statement | t.Table]) -> None:
    """Decide ``if`` blocks on option values and list the statements that apply."""
    for item in items:
        if isinstance(item, t.IfBlock):
            cond = compile_expr(item.condition, env, OPTION_SCOPE)
            flatten(item.then if cond.value else item.otherwise, env, out)
        else:
            out.append(item)


def game_of(
    scripts: list[t.Script], options: dict[str, Any], vocab: Vocabulary, sources: dict[str, str]
) -> tuple[t.Statement | None, list[t.Statement | t.Table]]:
    env = Env(vocab, options, sources)
    items: list[t.Statement | t.Table] = []
    errors: list[LocatedError] = []
    for script in scripts:
        try:
            flatten(script.items, env, items)
        except ScriptError as exc:
            errors.append(exc)
    if errors:
        raise ErrorList(errors)
    game = None
    for item in items:
        if isinstance(item, t.Statement) and item.key == "game" and item.words:
            game = item
    return game, items


def build_rules(
    items: list[t.Statement | t.Table],
    game: str,
    options: dict[str, Any],
    vocab: Vocabulary,
    sources: dict[str, str],
    first_path: str,
) -> Rules:
    env = Env(vocab, options, sources)
    errors: list[LocatedError] = []

    # Overlay: a later statement with the same identity replaces the earlier one.
    chosen: dict[tuple[str, str], t.Statement | t.Table] = {}
    for item in items:
        spec = vocab.statements.get(item.key)
        if spec is None:
            errors.append(
                env.error(
                    item.pos,
                    f"unknown statement {item.key!r} for game {game!r}{suggest(item.key, vocab.statements, most=3)}",
                )
            )
            continue
        shape = _shape_problem(item, spec)
        if shape is not None:  # before anything reads the words (the deck, the order, a family's check)
            errors.append(env.error(item.pos, shape))
            continue
        first = ""
        if spec.multi:
            if not item.words:
                errors.append(env.error(item.pos, f"{item.key!r} needs a word saying which one"))
                continue
            first = spec.identity(item.words) if spec.identity is not None else str(item.words[0])
        earlier = chosen.get((item.key, first))
        if earlier is not None and earlier.pos.path == item.pos.path:
            # Overlays replace statements of earlier scripts; inside one script a repeat is a slip.
            what = f"{item.key} {first}" if first else item.key
            errors.append(env.error(item.pos, f"{what!r} is already set on line {earlier.pos.line} of this script"))
            continue
        chosen[(item.key, first)] = item

    for name, spec in vocab.statements.items():
        if spec.required and not any(k == name for k, _ in chosen):
            errors.append(ScriptError(Location(first_path, 1, 1), f"missing statement {name!r}: {spec.doc}"))
    if ("deck", "") not in chosen:
        raise ErrorList(errors)

    carried = [(first, item) for (key, first), item in chosen.items() if key == "carry" and item.words]
    for name, item in carried:  # a carried value is a quantity of this script: it may not hide one of the game
        if name in vocab.quantities:
            errors.append(env.error(item.words[0].pos, f"carry {name}: {name!r} is already a word of this game"))
    vocab = env.vocab = with_carried(vocab, [name for name, _ in carried])

    deck, order = _deck(chosen, env, errors)
    env.deck, env.order = deck, order
    pos = {r: i for i, r in enumerate(order)}
    rules = Rules(
        game, deck, order, [pos.get(r, -1) for r in deck.rank_of], dict(options), statements=chosen, sources=sources
    )
    table_vocab = vocab.merged(Vocabulary(quantities={q.name: q for q in card_quantities(deck, order)}))
    table_env = Env(table_vocab, env.options, env.sources, env.deck, env.order)
    computing: set[str] = set()

    def table_values(key: str, pos: t.Pos) -> list[Any]:
        """A card table compiled on first use, so total(points) works wherever points is written."""
        if key in rules.tables:
            return rules.tables[key]
        item = chosen.get((key, ""))
        if not isinstance(item, t.Table):
            raise env.error(pos, f"this variant has no {key!r} table")
        if key in computing:
            raise env.error(pos, f"table {key!r} cannot use its own total")
        computing.add(key)
        try:
            rules.tables[key] = compile_table(item, table_env)
        finally:
            computing.discard(key)
        return rules.tables[key]

    env.table_values = table_env.table_values = table_values

    for (key, first), item in chosen.items():
        spec = vocab.statements[key]
        try:
            _check_statement(item, spec, env, table_env, rules, first)
        except ScriptError as exc:
            errors.append(exc)
        except ErrorList as exc:
            errors.extend(exc.errors)
    if errors:
        raise ErrorList(errors)
    return rules


def _shape_problem(item: t.Statement | t.Table, spec: StatementSpec) -> str | None:
    """Why the statement has the wrong number of words for its key, or None."""
    lo, hi = spec.words
    n = len(item.words)
    if n < lo or (hi is not None and n > hi):
        want = f"{lo}" if lo == hi else (f"at least {lo}" if hi is None else f"{lo} to {hi}")
        return f"{item.key!r} takes {want} word(s) before its value, got {n}"
    return None


def _check_statement(
    item: t.Statement | t.Table, spec: StatementSpec, env: Env, table_env: Env, rules: Rules, first: str
) -> None:
    if isinstance(item, t.Table):
        if not spec.table:
            raise env.error(item.pos, f"{item.key!r} is not a card table")
        if item.key not in rules.tables:
            rules.tables[item.key] = compile_table(item, table_env)
    else:
        if spec.table:
            raise env.error(item.pos, f"{item.key!r} is a card table: write {item.key} {{ pattern: value, ... }}")
        if item.value is not None:
            if spec.value is None:
                raise env.error(item.value.pos, f"{item.key!r} takes no '= value'")
            rules.compiled[(item.key, first, "value")] = compile_expr(item.value, env, spec.value)
            wrong = truth_problem(item.value, env, condition=False)  # conditions inside it: if(total, ...)
            if wrong is not None:
                raise env.error(*wrong)
        elif spec.needs_value:
            raise env.error(item.pos, f"{item.key!r} needs '= value'")
        if item.condition is not None:
            if spec.condition is None:
                raise env.error(item.condition.pos, f"{item.key!r} takes no 'when' condition")
            cond = compile_expr(item.condition, env, spec.condition)
            if cond.const and not isinstance(cond.value, bool):
                raise env.error(item.condition.pos, f"a 'when' condition must be true or false, not {cond.value!r}")
            wrong = truth_problem(item.condition, env)
            if wrong is not None:
                raise env.error(*wrong)
            if not cond.const and not kind_of(item.condition, env):
                rules.unknown_conditions[(item.key, first)] = cond
                cond = truth_checked(cond, env, item.condition.pos)
            rules.compiled[(item.key, first, "condition")] = cond
        elif spec.needs_condition:
            raise env.error(item.pos, f"{item.key!r} needs 'when condition'")
    if spec.check is not None and isinstance(item, t.Statement):  # a table is checked by its arms
        rules.parsed[(item.key, first)] = spec.check(item, env)


def _const(chosen: Chosen, key: str, env: Env, default: Any) -> Any:
    item = chosen.get((key, ""))
    if not isinstance(item, t.Statement) or item.value is None:  # absent (a table is never a constant)
        return default
    c = compile_expr(item.value, env, OPTION_SCOPE)
    return c.value


def _deck(chosen: Chosen, env: Env, errors: list[LocatedError]) -> tuple[Deck, tuple[str, ...]]:
    item = chosen[("deck", "")]  # build_rules made sure there is one
    try:
        copies = _const(chosen, "decks", env, 1)
        jokers = _const(chosen, "jokers", env, 0)
        for key, v in (("decks", copies), ("jokers", jokers)):
            if not isinstance(v, int) or isinstance(v, bool) or v < (1 if key == "decks" else 0) or v > 8:
                raise env.error(
                    chosen[(key, "")].pos,
                    f"{key} must be a whole number from {1 if key == 'decks' else 0} to 8, not {v!r}",
                )
        words = item.words
        first = str(words[0].value)
        if first in NAMED_DECKS and len(words) == 1:
            deck = Deck.named(first, copies=copies, jokers=jokers)
        elif first == "ranks":
            names = [str(w.value) for w in words[1:]]
            if "suits" not in names:
                raise env.error(item.pos, "a custom deck reads: deck ranks 2 3 ... suits ♣ ♦ ♥ ♠")
            cut = names.index("suits")
            ranks, suits = names[:cut], names[cut + 1 :]
            suits = [SUIT_NAMES.get(s, s) for s in suits]
            bad = [s for s in suits if s not in "♣♦♥♠"]
            if not ranks or not suits or bad:
                raise env.error(
                    item.pos,
                    f"a custom deck needs ranks and suits among ♣ ♦ ♥ ♠"
                    f"{' (not ' + ', '.join(bad) + ')' if bad else ''}",
                )
            deck = Deck(tuple(ranks), tuple(suits), copies=copies, jokers=jokers)
        else:
            raise env.error(
                words[0].pos,
                f"unknown deck {first!r}: use one of {', '.join(NAMED_DECKS)} or 'deck ranks ... suits ...'",
            )
        order = tuple(deck.ranks)
        order_item = chosen.get(("order", ""))
        if order_item is not None:
            order = tuple(str(w.value) for w in order_item.words)
            for w in order_item.words:
                if str(w.value) not in deck.ranks:
                    raise env.error(w.pos, f"unknown rank {w.value!r}: this deck has {' '.join(deck.ranks)}")
            if sorted(order) != sorted(deck.ranks):
                missing = [r for r in deck.ranks if r not in order]
                raise env.error(
                    order_item.pos,
                    f"the order must list every rank once{' (missing ' + ' '.join(missing) + ')' if missing else ''}",
                )
        ace = _const(chosen, "ace", env, None)
        if ace is not None:
            if ace not in ("high", "low"):
                raise env.error(chosen[("ace", "")].pos, f"ace must be high or low, not {ace!r}")
            if "A" in order:
                rest = tuple(r for r in order if r != "A")
                order = rest + ("A",) if ace == "high" else ("A",) + rest
        return deck, order
    except ScriptError as exc:
        errors.append(exc)
        return Deck.named("french52"), tuple(Deck.named("french52").ranks)
