"""Typed nodes of a parsed rule script.

The Lark tree is turned into these once, so that the checker and compiler work on
plain dataclasses that carry their own file position for error messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union


@dataclass(frozen=True)
class Pos:
    path: str
    line: int
    column: int


@dataclass(frozen=True)
class Word:
    kind: str  # name | int | card | suit | string | range
    value: Any  # str, int, or (lo, hi) for a range
    pos: Pos

    def __str__(self) -> str:
        if self.kind == "range":
            lo, hi = self.value
            return f"{lo}..{hi}"
        if self.kind == "string":
            return f'"{self.value}"'
        return str(self.value)


# Expressions -------------------------------------------------------------
@dataclass(frozen=True)
class Literal:
    kind: str  # int | card | suit | string | range
    value: Any  # as Word.value
    pos: Pos


@dataclass(frozen=True)
class Name:
    name: str
    pos: Pos


@dataclass(frozen=True)
class Call:
    name: str
    args: tuple[Expr, ...]
    pos: Pos


@dataclass(frozen=True)
class Unary:
    op: str  # "-" | "not"
    operand: Expr
    pos: Pos


@dataclass(frozen=True)
class Binary:
    op: str  # + - * / % == != < <= > >= and or
    left: Expr
    right: Expr
    pos: Pos


Expr = Union[Literal, Name, Call, Unary, Binary]  # noqa: UP007  (a runtime alias)


# Statements ----------------------------------------------------------------
@dataclass(frozen=True)
class Statement:
    key: str
    words: tuple[Word, ...]
    value: Expr | None
    condition: Expr | None
    pos: Pos


@dataclass(frozen=True)
class Arm:
    alternatives: tuple[tuple[Word, ...], ...]
    expr: Expr
    pos: Pos


@dataclass(frozen=True)
class Table:
    key: str
    words: tuple[Word, ...]
    arms: tuple[Arm, ...]
    pos: Pos


@dataclass(frozen=True)
class IfBlock:
    condition: Expr
    then: tuple[Item, ...]
    otherwise: tuple[Item, ...]
    pos: Pos


Item = Union[Statement, Table, IfBlock]  # noqa: UP007  (a runtime alias)


@dataclass
class Script:
    path: str
    text: str
    items: list[Item] = field(default_factory=list)
