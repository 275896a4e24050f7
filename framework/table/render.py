"""Drawing a layout's picture on a terminal with rich: red suits red, marked cards bold.

Colour is used only on a terminal and never when ``NO_COLOR`` is set
(https://no-color.org): then, and when output goes to a file or a pipe, the
picture is plain text with no escape codes at all, so it can be read by a
screen reader, grepped or diffed. Marks that matter (a playable card) are shown
with a ``*`` as well as in bold, so plain text loses nothing.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import IO

from rich.console import Console
from rich.text import Text

from ..core.actions import Action
from ..core.cards import Deck
from ..layout import Picture, Row, Token

NO_SPACE_AFTER = {"(", "["}
NO_SPACE_BEFORE = {")", "]", ",", ":"}


def make_console(file: IO[str] | None = None) -> Console:
    """A console that prints user text as typed (no markup, no emoji codes) and honours NO_COLOR."""
    plain = bool(os.environ.get("NO_COLOR"))
    return Console(
        file=file or sys.stdout,
        highlight=False,
        soft_wrap=True,
        markup=False,
        emoji=False,
        color_system=None if plain else "auto",
        no_color=plain,
    )


def card_text(deck: Deck, card: int, marked: bool = False, width: int = 0) -> Text:
    name = deck.names[card] + ("*" if marked else "")
    style = "red" if deck.is_red(card) else ""
    if marked:
        style = (style + " bold").strip()
    text = Text(name, style=style)
    if width and len(name) < width:
        text.append(" " * (width - len(name)))
    return text


def tokens_text(deck: Deck, tokens: Sequence[Token], marked: frozenset[int] = frozenset(), width: int = 0) -> Text:
    """Cards, words and empty places as one line, spaced the way people write them."""
    out = Text()
    previous: Token = None
    first = True
    for token in tokens:
        if not first and not (isinstance(previous, str) and previous in NO_SPACE_AFTER):
            if not (isinstance(token, str) and token in NO_SPACE_BEFORE):
                out.append(" ")
        if token is None:
            out.append("·".ljust(width or 1), style="dim")
        elif isinstance(token, str):
            out.append(token)
        else:
            out.append_text(card_text(deck, token, token in marked, width))
        previous, first = token, False
    return out


def row_text(deck: Deck, row: Row, label_width: int = 0) -> Text:
    out = Text("  ")
    if row.label:
        out.append(f"{row.label}:".ljust(label_width + 1) + " ", style="bold")
    elif label_width:
        out.append(" " * (label_width + 2))  # under the labels above: a continued row
    out.append_text(tokens_text(deck, row.cards, row.marked, row.width))
    if row.note:
        out.append((" " if row.cards else "") + row.note)
    return out


def picture_lines(deck: Deck, picture: Picture) -> list[Text]:
    lines: list[Text] = [Text(picture.title, style="bold")]
    lines += [Text("  " + s) for s in picture.scores]
    if picture.recap:
        lines.append(Text("since your last move:", style="bold"))
        lines += [Text("  ") + line for line in _recap_texts(deck, picture.recap)]
    rows = picture.table + picture.hand
    width = max((len(r.label) for r in rows), default=0)
    lines += [row_text(deck, r, width) for r in picture.table]
    lines += [row_text(deck, r, width) for r in picture.hand]
    return lines


def _recap_texts(deck: Deck, recap: Sequence[Sequence[Token]]) -> list[Text]:
    return [tokens_text(deck, line) for line in recap]


def menu_text(deck: Deck, legal: Sequence[Action]) -> Text:
    out = Text("  moves:", style="bold")
    for i, action in enumerate(legal, 1):
        out.append(f"  [{i}] ")
        out.append_text(action_text(deck, action))
    return out


def action_text(deck: Deck, action: Action) -> Text:
    tokens: list[Token] = [action.kind, *action.cards]
    if action.detail:
        tokens.append(action.detail)
    return tokens_text(deck, tokens)
