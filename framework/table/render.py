"""Drawing a layout's picture on a terminal with rich: red suits red, marked cards bold, lines that fit.

Colour is used only on a terminal and never when ``NO_COLOR`` is set
(https://no-color.org): then, and when output goes to a file or a pipe, the
picture is plain text with no escape codes at all, so it can be read by a
screen reader, grepped or diffed. Marks that matter (a playable card) are shown
with a ``*`` as well as in bold, so plain text loses nothing.

Cards are drawn with the names the layout gives them (`Faces`: a Spanish deck's
``7 de oros``), and every line is broken to the terminal's width between words,
never inside one: a menu between its moves, a row of cards between its cards, so
a card's name and a move stay whole however narrow the terminal is.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO

from rich.console import Console
from rich.text import Text

from ..core.actions import Action
from ..core.cards import Deck
from ..layout import Picture, Row, Token

NO_SPACE_AFTER = {"(", "["}
NO_SPACE_BEFORE = {")", "]", ",", ":"}
MENU_GAP = "  "  # between two moves of the menu


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


@dataclass(frozen=True)
class Faces:
    """How the cards of a deck look at this table: their names, which are red, how a list is joined.

    ``names`` are the layout's (`tapete.layout.Layout.card_names`); when they hold spaces
    (``7 de oros``) cards side by side are separated by commas, so that a row still reads
    card by card. `words` rewrites a game's sentence (a refusal, a deal's summary) with
    these names."""

    deck: Deck
    names: tuple[str, ...]
    joiner: str = " "
    _spoken: re.Pattern[str] | None = field(default=None, repr=False, compare=False)
    _index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, deck: Deck, names: Sequence[str] | None = None) -> Faces:
        shown = tuple(names) if names is not None else tuple(deck.names)
        if shown == tuple(deck.names):
            return cls(deck, shown)
        joiner = ", " if any(" " in n for n in shown) else " "
        written = sorted(deck.names, key=len, reverse=True)  # 10♦ before 0♦, 7♥/2 before 7♥
        one = "(?:" + "|".join(re.escape(n) for n in written) + ")"
        pattern = re.compile(rf"(?<![\w/]){one}(?: {one})*(?![\w/])")  # a run of cards, written side by side
        return cls(deck, shown, joiner, pattern, {n: i for i, n in enumerate(deck.names)})

    def red(self, card: int) -> bool:
        return self.deck.is_red(card)

    def words(self, text: str) -> str:
        """``text`` with every card written as the deck writes it (``7♦``) shown by its name here."""
        if self._spoken is None:
            return text
        index, names = self._index, self.names
        return self._spoken.sub(lambda m: self.joiner.join(names[index[n]] for n in m.group(0).split(" ")), text)

    def action(self, action: Action) -> str:
        """An action as plain text with these names (``close 3 de espadas``)."""
        return action_text(self, action).plain


def faces_of(cards: Deck | Faces) -> Faces:
    """The faces to draw with: a `Deck` alone shows its cards as it writes them (``7♥``)."""
    return cards if isinstance(cards, Faces) else Faces.of(cards)


def card_text(cards: Deck | Faces, card: int, marked: bool = False, width: int = 0) -> Text:
    faces = faces_of(cards)
    name = faces.names[card] + ("*" if marked else "")
    style = "red" if faces.red(card) else ""
    if marked:
        style = (style + " bold").strip()
    text = Text(name, style=style)
    if width and len(name) < width:
        text.append(" " * (width - len(name)))
    return text


def token_words(
    cards: Deck | Faces, tokens: Sequence[Token], marked: frozenset[int] = frozenset(), width: int = 0
) -> list[Text]:
    """Cards, words and empty places as words: a line breaks between two of them, never inside one.

    Spacing is the way people write: no space after ``(`` or ``[`` nor before ``)``,
    ``]``, ``,`` and ``:`` (those stick to their neighbour, in the same word)."""
    faces = faces_of(cards)
    words: list[Text] = []
    previous: Token = None
    for i, token in enumerate(tokens):
        if token is None:
            piece = Text("·".ljust(width or 1), style="dim")
        elif isinstance(token, str):
            piece = Text(token)
        else:
            piece = card_text(faces, token, token in marked, width)
        glued = i > 0 and (
            (isinstance(previous, str) and previous in NO_SPACE_AFTER)
            or (isinstance(token, str) and token in NO_SPACE_BEFORE)
        )
        if glued and words:
            words[-1].append_text(piece)
        else:
            if words and isinstance(token, int) and isinstance(previous, int) and faces.joiner != " ":
                words[-1].append(faces.joiner.rstrip())  # "7 de oros, 3 de copas": a comma between cards
            words.append(piece)
        previous = token
    return words


def tokens_text(
    cards: Deck | Faces, tokens: Sequence[Token], marked: frozenset[int] = frozenset(), width: int = 0
) -> Text:
    """Cards, words and empty places as one line, spaced the way people write them."""
    return Text(" ").join(token_words(cards, tokens, marked, width))


class _Lines:
    """Lines being filled word by word up to a width; a new line starts ``hang`` spaces in."""

    def __init__(self, start: Text, width: int | None, hang: int):
        self.lines, self.width, self.hang = [start.copy()], width, hang
        self.empty = not start.plain or start.plain.endswith(" ")  # no separator needed before the next piece
        self.broken = False  # the last line is a new one with nothing on it yet: a newline would not help

    def fits(self, piece: Text, sep: str) -> bool:
        used = len(self.lines[-1].plain) + (0 if self.empty else len(sep))
        return self.width is None or used + len(piece.plain) <= self.width

    def put(self, piece: Text, sep: str) -> None:
        if not self.empty:
            self.lines[-1].append(sep)
        self.lines[-1].append_text(piece)
        self.empty = self.broken = False

    def newline(self) -> None:
        if not self.broken:
            self.lines.append(Text(" " * self.hang))
            self.empty = self.broken = True

    def done(self) -> list[Text]:
        for line in self.lines:
            line.rstrip()  # a grid's last padded place leaves no trailing spaces
        return self.lines


def flow(
    start: Text, items: Sequence[Sequence[Text]], width: int | None, gap: str = " ", hang: int | None = None
) -> list[Text]:
    """``start`` followed by ``items``, broken into lines no wider than ``width`` (None: one line).

    An item is a list of words kept together on one line where it fits (a menu's
    ``[3] discard 7♥``); one too long for any line is broken between its words. Lines
    after the first begin ``hang`` spaces in (default: under the first item). Nothing is
    ever broken inside a word: a word longer than the line stands alone on its line."""
    indent = len(start.plain) if hang is None else hang
    if width is not None and indent > width // 2:
        indent = 4  # a long label would leave too little room under it
    out = _Lines(start, width, indent)
    for item in items:
        whole = Text(" ").join(item)
        if not out.fits(whole, gap):
            out.newline()
        if out.fits(whole, gap):
            out.put(whole, gap)
            continue
        sep = gap
        for word in item:  # too long for any line: between its words
            if not out.fits(word, sep):
                out.newline()
            out.put(word, sep)
            sep = " "
    return out.done()


def fit(line: Text | str, width: int | None, hang: int | None = None) -> list[Text]:
    """A line broken between words to ``width``; the lines after the first indented under its words."""
    text = line if isinstance(line, Text) else Text(line)
    if width is None or len(text.plain) <= width:
        return [text]
    lead = len(text.plain) - len(text.plain.lstrip(" "))
    words = [w for w in text[lead:].split(" ") if w.plain]
    return flow(text[:lead], [[w] for w in words], width, " ", lead + 2 if hang is None else hang)


def row_lines(cards: Deck | Faces, row: Row, label_width: int = 0, width: int | None = None) -> list[Text]:
    """One row of the picture: its label, then its cards and note, broken between cards to ``width``."""
    faces = faces_of(cards)
    start = Text("  ")
    if row.label:
        start.append(f"{row.label}:".ljust(label_width + 1) + " ", style="bold")
    elif label_width:
        start.append(" " * (label_width + 2))  # under the labels above: a continued row
    words = token_words(faces, row.cards, row.marked, row.width)
    words += [Text(w) for w in row.note.split(" ") if w]
    if not words:
        start.rstrip()
        return [start]
    return flow(start, [[w] for w in words], width)


def row_text(cards: Deck | Faces, row: Row, label_width: int = 0) -> Text:
    """A row on one line, however long (`row_lines` breaks it to a width)."""
    return row_lines(cards, row, label_width)[0]


def picture_lines(cards: Deck | Faces, picture: Picture, width: int | None = None) -> list[Text]:
    faces = faces_of(cards)
    lines: list[Text] = fit(Text(faces.words(picture.title), style="bold"), width)
    for s in picture.scores:
        lines += fit(Text("  " + faces.words(s)), width)
    if picture.recap:
        lines.append(Text("since your last move:", style="bold"))
        for recap in picture.recap:
            lines += event_lines(faces, recap, width)
    rows = picture.table + picture.hand
    label = max((len(r.label) for r in rows), default=0)
    grid = [r for r in rows if r.width]
    if grid and width is not None and any(_grid_width(r, label) > width for r in grid):
        grid_label = max(len(r.label) for r in grid)  # a grid keeps its columns: its labels alone set their width
    else:
        grid_label = label
    for r in rows:
        shown = Row(r.label, _spoken(faces, r.cards), faces.words(r.note), r.marked, r.width)
        lines += row_lines(faces, shown, grid_label if r.width else label, width)
    return lines


def _grid_width(row: Row, label: int) -> int:
    """How wide a row of places ``row.width`` wide each is, under labels ``label`` wide."""
    return 2 + label + 2 + len(row.cards) * (row.width + 1) - 1


def event_lines(cards: Deck | Faces, tokens: Sequence[Token], width: int | None = None, indent: int = 2) -> list[Text]:
    """One line of what happened (``seat 1: draw discard (7♥)``), broken between words to ``width``."""
    faces = faces_of(cards)
    spread: list[Token] = []
    for t in tokens:  # a phrase (a game's narration) may break between its words; a card never does
        spread += [w for w in faces.words(t).split(" ") if w] if isinstance(t, str) else [t]
    return flow(Text(" " * indent), [[w] for w in token_words(faces, spread)], width, " ", indent + 2)


def _spoken(faces: Faces, tokens: Sequence[Token]) -> tuple[Token, ...]:
    """Words among the tokens with their cards named as this table names them."""
    return tuple(faces.words(t) if isinstance(t, str) else t for t in tokens)


def menu_lines(cards: Deck | Faces, legal: Sequence[Action], width: int | None = None) -> list[Text]:
    """The numbered moves, broken between moves (or, for a long one, between its words) to ``width``."""
    faces = faces_of(cards)
    items = [[Text(f"[{i}]"), *token_words(faces, _action_tokens(action))] for i, action in enumerate(legal, 1)]
    start = Text("  moves:", style="bold")
    return flow(start, items, width, MENU_GAP, len(start.plain) + len(MENU_GAP))


def menu_text(cards: Deck | Faces, legal: Sequence[Action]) -> Text:
    """The numbered moves on one line (`menu_lines` breaks them to a width)."""
    return menu_lines(cards, legal)[0]


def _action_tokens(action: Action) -> list[Token]:
    tokens: list[Token] = [action.kind, *action.cards]
    if action.detail:
        tokens.append(action.detail)
    return tokens


def action_text(cards: Deck | Faces, action: Action) -> Text:
    return tokens_text(cards, _action_tokens(action))
