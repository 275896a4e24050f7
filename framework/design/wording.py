"""Rule expressions in players' words, for the rulebook and the variant diff.

A rule script says ``close when unmatched <= close_limit``; a rulebook says "the value
of your unmatched cards is at most 5". The words of a game carry the phrases
(`Quantity.rulebook`, `Function.rulebook`; their ``doc`` when they have none), options
are replaced by their values, and the expression's shape gives the sentence: a
comparison becomes "is at most", ``if(c, a, b)`` becomes cases, an aggregate over the
players ("max(total)") speaks of "a player". The phrases address the player ("your
total"); aggregates turn them to the third person.

Everything here is a pure function of the parsed statement and the variant's
vocabulary, so the same rule always reads the same (the diff relies on it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..rules import tree as t
from ..rules.vocabulary import TRUTH

if TYPE_CHECKING:
    from ..rules.program import Rules
    from ..rules.vocabulary import Vocabulary

COMPARE = {
    "==": "is",
    "!=": "is not",
    "<": "is less than",
    "<=": "is at most",
    ">": "is more than",
    ">=": "is at least",
}
NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
ARITHMETIC = {"+": "+", "-": "−", "*": "×", "/": "÷", "%": "mod"}
SYMBOL_WORDS = {
    "clockwise": "clockwise (to the left)",
    "counterclockwise": "counterclockwise (to the right)",
    "lot": "chosen by lot",
    "high": "high",
    "low": "low",
}
AGGREGATE_WORDS = {
    "max": "the highest {q}",
    "min": "the lowest {q}",
    "sum": "the sum of every player's {q}",
}


@dataclass
class Case:
    """One line of a value that depends on conditions: ``when`` (None: otherwise) and the value.

    ``term`` marks one term of a sum said as a list ("the sum of:"), printed without "if"."""

    when: str | None
    value: str
    cases: list[Case] = field(default_factory=list)  # a value that itself depends on conditions
    term: bool = False

    @property
    def head(self) -> str:
        if self.when is not None:
            return f"if {self.when}"
        return "" if self.term else "otherwise"

    def line(self) -> str:
        head = self.head
        if not head:
            return self.value or "one of:"
        return f"{head}: {self.value}" if self.value else f"{head}:"


def third_person(phrase: str, subject: str = "a player") -> str:
    """'your total' -> "a player's total"; 'you have played your last card' -> 'a player has played their ...'."""
    out = re.sub(r"\byou have\b", f"{subject} has", phrase)
    out = re.sub(r"\byou are\b", f"{subject} is", out)
    out = re.sub(r"\byou were\b", f"{subject} was", out)
    out = re.sub(r"\byou do not\b", f"{subject} does not", out)
    out = re.sub(r"\byou did\b", f"{subject} did", out)
    possessive = f"{subject}'s"
    first = True

    def your(m: re.Match[str]) -> str:
        nonlocal first
        if first:
            first = False
            return possessive
        return "their"

    out = re.sub(r"\byour\b", your, out)
    out = re.sub(r"\byou\b", subject, out, count=1)
    out = re.sub(r"\byou\b", "they", out)
    return out


def strip_ids(text: str) -> str:
    """A doc sentence without its rule-id references: 'points (CH-1.4)' -> 'points'."""
    text = re.sub(r"\s*\((?:[^()]*\b[A-Z]{2}-V?\d[^()]*)\)", "", text)
    text = re.sub(r";?\s*\b[A-Z]{2}-V?\d+(?:\.\d+)?\b:?\s*(?:false|true)?", "", text)
    return re.sub(r"\s{2,}", " ", text).strip(" ;,")


class Words:
    """Turns the expressions of one variant's rules into players' words.

    ``names=True`` writes the option behind each value ("5 [close_limit]"), for a
    designer reading the rulebook with ``--ids``.
    """

    def __init__(
        self, rules: Rules, vocab: Vocabulary, names: bool = False, phrases: dict[str, str] | None = None
    ) -> None:
        self.rules, self.vocab, self.names = rules, vocab, names
        self.phrases = phrases or {}

    # -- the parts ------------------------------------------------------------------
    def _phrase(self, name: str) -> str | None:
        if name in self.phrases:
            return self.phrases[name]
        q = self.vocab.quantities.get(name)
        if q is None:
            return None
        return q.rulebook or strip_ids(q.doc)

    def _template(self, name: str) -> str:
        """A function's rulebook template ("" when it has none)."""
        if name in self.phrases:
            return self.phrases[name]
        f = self.vocab.functions.get(name)
        return f.rulebook if f is not None else ""

    def is_clause(self, e: t.Expr) -> bool:
        """Whether the expression reads as a clause (true/false) rather than as a number."""
        if isinstance(e, t.Binary):
            return e.op in COMPARE or e.op in ("and", "or")
        if isinstance(e, t.Unary):
            return e.op == "not"
        if isinstance(e, t.Name):
            phrase = self._phrase(e.name)
            word = self.vocab.quantities.get(e.name)
            if word is not None and word.kind:  # the word says what it gives
                return word.kind == TRUTH
            if phrase is not None:
                return "|" in phrase
            return isinstance(self.rules.options.get(e.name), bool) or e.name in ("true", "false")
        if isinstance(e, t.Call):
            if e.name in ("most", "fewest", "any", "all"):
                return True
            return "|" in self._template(e.name)
        return False

    def option(self, name: str) -> str:
        value = self.rules.options[name]
        text = ("yes" if value else "no") if isinstance(value, bool) else str(value)
        return f"{text} [{name}]" if self.names else text

    def value(self, e: t.Expr, outer: bool = True) -> str:
        """A number, a seat or a card in words, on one line."""
        if isinstance(e, t.Literal):
            if e.kind == "range":
                return f"{e.value[0]} to {e.value[1]}"
            return str(e.value)
        if isinstance(e, t.Name):
            if e.name in self.rules.options:
                return self.option(e.name)
            phrase = self._phrase(e.name)
            if phrase is not None:
                if "|" in phrase:
                    text = f"1 if {phrase.split('|')[0]}, otherwise 0"
                    return text if outer else f"({text})"
                return phrase
            if e.name in SYMBOL_WORDS:
                return SYMBOL_WORDS[e.name]
            return e.name.replace("_", " ")
        if isinstance(e, t.Unary):
            if e.op == "-":
                inner = self.value(e.operand, False)
                return f"−{inner}" if re.fullmatch(r"\d+( \[\w+\])?", inner) else f"minus {inner}"
            return self.clause(e)
        if isinstance(e, t.Binary):
            if e.op in COMPARE or e.op in ("and", "or"):
                return self.clause(e)
            left, right = self.value(e.left, False), self.value(e.right, False)
            if e.op == "-" and isinstance(e.left, t.Literal) and e.left.value == 0:
                text = f"minus {right}"
            else:
                text = f"{left} {ARITHMETIC.get(e.op, e.op)} {right}"
            return text if outer else f"({text})"
        if isinstance(e, t.Call):
            return self._call(e, outer)
        return "?"

    def _call(self, e: t.Call, outer: bool) -> str:
        name, args = e.name, e.args
        if name == "if" and len(args) == 3:
            text = f"{self.value(args[1], False)} if {self.clause(args[0])}, otherwise {self.value(args[2], False)}"
            return text if outer else f"({text})"
        if name == "total" and len(args) == 1 and isinstance(args[0], t.Name):
            values = self.rules.tables.get(args[0].name)
            table = args[0].name.replace("_", " ")
            if values is None:
                return f"the {table} of the whole deck"
            return f"{sum(int(v) for v in values)} (the {table} of the whole deck)"
        if name in ("max", "min") and len(args) >= 2:
            parts = [self.value(a, False) for a in args]
            word = "larger" if name == "max" and len(args) == 2 else "smaller" if len(args) == 2 else None
            if word:
                return f"the {word} of {parts[0]} and {parts[1]}"
            return f"the {'highest' if name == 'max' else 'lowest'} of {', '.join(parts)}"
        if name in AGGREGATE_WORDS and len(args) == 1:
            q = self.value(args[0], False)
            if q.startswith("your "):
                return AGGREGATE_WORDS[name].format(q=q[5:] + " of any player")
            return AGGREGATE_WORDS[name].format(q=third_person(re.sub(r"^the ", "", q), "any player"))
        if name == "count" and len(args) == 1:
            return f"the number of players for whom {third_person(self.clause(args[0]), 'they')}"
        if name in ("highest", "lowest") and len(args) == 1:
            q = _noun(self.value(args[0], False))
            return f"the player with the {name} {q}"
        if name == "next":
            who = self.value(args[0], False)
            if len(args) == 1:
                return f"the player after {who}"
            return f"the player {self.value(args[1], False)} seats after {who}"
        if name == "abs" and len(args) == 1:
            return f"{self.value(args[0], False)} without its sign"
        template = self._template(name)
        if template:
            return template.split("|")[0].format(*(self.value(a, False) for a in args))
        return f"{name}({', '.join(self.value(a, False) for a in args)})"

    def clause(self, e: t.Expr) -> str:
        """A condition in words: 'the value of your unmatched cards is at most 5'."""
        if isinstance(e, t.Binary):
            if e.op == "and":
                return f"{self.clause(e.left)} and {self.clause(e.right)}"
            if e.op == "or":
                return f"{self.clause(e.left)}, or {self.clause(e.right)}"
            if e.op in COMPARE:
                return self._comparison(e.op, e.left, e.right)
        if isinstance(e, t.Unary) and e.op == "not":
            return self.negated(e.operand)
        if isinstance(e, t.Name):
            phrase = self._phrase(e.name)
            if phrase is not None and "|" in phrase:
                return phrase.split("|")[0]
            word = self.vocab.quantities.get(e.name)
            if word is not None and not word.rulebook and e.name not in self.phrases:
                return strip_ids(word.doc)  # a true/false word without a phrase: its doc reads as a clause
            if e.name in self.rules.options and isinstance(self.rules.options[e.name], bool):
                return f"{'always' if self.rules.options[e.name] else 'never'}" + (f" [{e.name}]" if self.names else "")
            if e.name == "true":
                return "always"
            if e.name == "false":
                return "never"
        if isinstance(e, t.Call):
            if e.name in ("most", "fewest") and len(e.args) == 1:
                q = self.value(e.args[0], False)
                more = "higher" if e.name == "most" else "lower"
                return f"{q} is {more} than each opponent's"
            if e.name in ("any", "all") and len(e.args) == 1:
                inner = third_person(self.clause(e.args[0]), "the player")
                return f"{'for some player' if e.name == 'any' else 'for every player'}, {inner}"
            template = self._template(e.name)
            if "|" in template:
                return template.split("|")[0].format(*(self.value(a, False) for a in e.args))
            if e.name == "if" and len(e.args) == 3:
                return f"{self.clause(e.args[1])} if {self.clause(e.args[0])}, otherwise {self.clause(e.args[2])}"
        return f"{self.value(e)} is not 0"

    def negated(self, e: t.Expr) -> str:
        """The opposite of a condition, said directly where the words allow it."""
        if isinstance(e, t.Binary) and e.op in NEGATED:
            return self._comparison(NEGATED[e.op], e.left, e.right)
        if isinstance(e, t.Binary) and e.op == "and":
            return f"{self.negated(e.left)}, or {self.negated(e.right)}"
        if isinstance(e, t.Binary) and e.op == "or":
            return f"{self.negated(e.left)} and {self.negated(e.right)}"
        if isinstance(e, t.Unary) and e.op == "not":
            return self.clause(e.operand)
        if isinstance(e, t.Name):
            phrase = self._phrase(e.name)
            if phrase is not None and "|" in phrase:
                return phrase.split("|")[1]
        if isinstance(e, t.Call):
            template = self._template(e.name)
            if "|" in template:
                return template.split("|")[1].format(*(self.value(a, False) for a in e.args))
        return f"not ({self.clause(e)})"

    def _comparison(self, op: str, left: t.Expr, right: t.Expr) -> str:
        # 'max(deals_won) >= 3': a player has won at least 3 deals, said of "a player"
        if isinstance(left, t.Call) and left.name in ("max", "min") and len(left.args) == 1:
            if (left.name == "max" and op in (">=", ">")) or (left.name == "min" and op in ("<=", "<")):
                q = third_person(self.value(left.args[0], False))
                return f"{q} {COMPARE[op]} {self.value(right, False)}"
        # 'highest(total) >= 0': the rule's way of saying that nobody ties for the top
        if isinstance(left, t.Call) and left.name in ("highest", "lowest") and len(left.args) == 1:
            if (_is_zero(right) and op in (">=", "<")) or (_is_minus_one(right) and op in ("!=", "==")):
                q = _noun(self.value(left.args[0], False))
                alone = op in (">=", "!=")
                return f"one player alone has the {left.name} {q}" if alone else f"players tie for the {left.name} {q}"
        if (
            self.is_clause(left)
            and op in ("==", "!=")
            and isinstance(right, t.Name)
            and right.name in ("true", "false")
        ):
            positive = (op == "==") == (right.name == "true")
            return self.clause(left) if positive else self.negated(left)
        return f"{self.value(left, False)} {COMPARE[op]} {self.value(right, False)}"

    # -- values that depend on conditions --------------------------------------------
    def cases(self, e: t.Expr, clause: bool = False) -> list[Case]:
        """A value as cases: ``if(c, a, b)`` chains become one case per branch (nested ones nest).

        A sum whose terms hold conditions is said term by term; ``clause`` says the
        leaves as conditions (a ``won when if(...)`` rule)."""
        if isinstance(e, t.Binary) and e.op == "+" and not clause:
            terms = _terms(e)
            if len(terms) > 1 and any(_depth(x) for x in terms):
                out = []
                for x in terms:
                    if _is_if(x) and _is_zero(x.args[2]) and not _depth(x.args[1]):  # type: ignore[union-attr]
                        out.append(Case(self.clause(x.args[0]), self.value(x.args[1]), term=True))  # type: ignore[union-attr]
                    elif _depth(x):
                        out.append(Case(None, "", self.cases(x), term=True))
                    else:
                        out.append(Case(None, self.value(x), term=True))
                return out
        if not clause:
            e = _split(e)
        if not (isinstance(e, t.Call) and e.name == "if" and len(e.args) == 3):  # one value, no condition
            return [Case(None, self.clause(e) if clause else self.value(e), term=True)]
        out = []
        node: t.Expr = e
        while isinstance(node, t.Call) and node.name == "if" and len(node.args) == 3:
            cond, then, other = node.args
            out.append(self._case(self.clause(cond), then, clause))
            node = other
        out.append(self._case(None, node, clause))
        return out

    def _case(self, when: str | None, e: t.Expr, clause: bool) -> Case:
        if _depth(e) and (isinstance(e, t.Call) and e.name == "if" or not clause):
            if isinstance(e, t.Call) and e.name == "if" or (isinstance(e, t.Binary) and e.op == "+"):
                return Case(when, "", self.cases(e, clause))
        return Case(when, self.clause(e) if clause else self.value(e))

    def inline(self, e: t.Expr) -> bool:
        """Whether a value is short enough to say in the sentence rather than as cases."""
        return _depth(e) == 0 or (
            isinstance(e, t.Call) and e.name == "if" and _depth(e) == 1 and len(self.value(e)) < 90
        )


def _depth(e: t.Expr) -> int:
    """How deeply ``if`` calls nest inside an expression."""
    if isinstance(e, t.Call):
        inner = max((_depth(a) for a in e.args), default=0)
        return inner + (1 if e.name == "if" else 0)
    if isinstance(e, t.Binary):
        return max(_depth(e.left), _depth(e.right))
    if isinstance(e, t.Unary):
        return _depth(e.operand)
    return 0


def _split(e: t.Expr, side: str = "") -> t.Expr:
    """``if(c, a, b) − d`` as ``if(c, a − d, b − d)``: arithmetic around a condition said in each case.

    The side with the deeper conditions is split (and only that side, all the way down); the
    other is carried into its branches as it reads, so a value that depends on conditions reads
    as cases ("if ...: ...; otherwise: ...") rather than as one long line."""
    if not (isinstance(e, t.Binary) and e.op in ARITHMETIC):
        return e
    left, right = _depth(e.left), _depth(e.right)
    if left == right == 0:
        return e
    side = side or ("left" if left >= right else "right")
    inner = e.left if side == "left" else e.right
    if not _is_if(inner):
        return e
    assert isinstance(inner, t.Call)
    cond, then, other = inner.args

    def put(x: t.Expr) -> t.Expr:
        a, b = (x, e.right) if side == "left" else (e.left, x)
        if e.op == "*" and (_is_zero(a) or _is_zero(b)):
            return t.Literal("int", 0, e.pos)  # "× 0" in a case: that case scores nothing
        if e.op in ("+", "-") and _is_zero(b):
            return a
        return _split(t.Binary(e.op, a, b, e.pos), side)

    return t.Call("if", (cond, put(then), put(other)), inner.pos)


def _is_if(e: t.Expr) -> bool:
    return isinstance(e, t.Call) and e.name == "if" and len(e.args) == 3


def _is_zero(e: t.Expr) -> bool:
    return isinstance(e, t.Literal) and e.kind == "int" and e.value == 0


def _is_minus_one(e: t.Expr) -> bool:
    return isinstance(e, t.Unary) and e.op == "-" and isinstance(e.operand, t.Literal) and e.operand.value == 1


def _terms(e: t.Expr) -> list[t.Expr]:
    """The terms of a sum, left to right: a + b + c -> [a, b, c]."""
    if isinstance(e, t.Binary) and e.op == "+":
        return [*_terms(e.left), *_terms(e.right)]
    return [e]


def _noun(phrase: str) -> str:
    """'your total' -> 'total', 'the number of deals you have won' -> 'number of deals they have won'."""
    phrase = re.sub(r"^the ", "", phrase)
    phrase = re.sub(r"^your ", "", phrase)
    phrase = re.sub(r"\byour\b", "their", phrase)
    phrase = re.sub(r"\byou have (\w+)$", r"\1", phrase)  # 'number of deals you have won' -> '... deals won'
    return re.sub(r"\byou\b", "they", phrase)


def describe_values(values: list[Any], text: Callable[[int], str], groups: list[tuple[str, list[int]]]) -> list[str]:
    """A card table as lines 'VALUE: cards', the most common value last as 'every other card'.

    ``groups`` are (label, card ids) that may stand for several cards at once (a rank in
    every suit, a whole suit); a value's cards are written with the largest groups first.
    """
    by_value: dict[Any, list[int]] = {}
    for card, v in enumerate(values):
        by_value.setdefault(v, []).append(card)
    common = max(by_value, key=lambda v: len(by_value[v]))
    rest = len(by_value[common]) > len(values) / 3 and len(by_value) > 1
    lines = []
    for v, cards in sorted(by_value.items(), key=lambda kv: (_sortable(kv[0]), str(kv[0]))):
        if rest and v == common:
            continue
        left = set(cards)
        words = []
        for label, members in groups:
            if members and set(members) <= left:
                words.append(label)
                left -= set(members)
        words += [text(c) for c in cards if c in left]
        lines.append(f"{', '.join(words)}: {v}")
    if rest:
        lines.append(f"every other card: {common}")
    return lines


def _sortable(v: Any) -> float:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else 0.0


__all__ = ["Case", "Words", "describe_values", "strip_ids", "third_person"]
