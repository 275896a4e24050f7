"""Actions: what a player does, in a form that prints, parses and logs.

An action is a kind plus the cards it names plus an optional word: ``play 5♥``,
``pass``, ``draw stock``, ``capture 8♣ 2♥``. Its text form is what the log
stores and what a person types, so a replayed log reads like a game record.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import Deck
from .inputs import declare

MAX_ACTION_TEXT = 1_000  # characters of one move's text (a capture of twenty cards is under 100)


class Action(NamedTuple):
    kind: str
    cards: tuple[int, ...] = ()
    detail: str = ""

    def text(self, deck: Deck) -> str:
        parts = [self.kind, *(deck.names[c] for c in self.cards)]
        if self.detail:
            parts.append(self.detail)
        return " ".join(parts)

    @classmethod
    @declare(text="action", deck="object")
    def parse(cls, text: str, deck: Deck) -> Action:
        """The move ``text`` writes: a kind, the cards it names, at most one other word (``draw stock``,
        ``play 8♣ ♥``). ValueError names the word that is no card when one starts with a digit or
        when more than one word is left over (``play ♥♥♥ 99 ZZ`` is no move with no cards)."""
        if not isinstance(text, str):
            raise ValueError(f"a move's text must be a string such as 'play 7♥', not {type(text).__name__}")
        if len(text) > MAX_ACTION_TEXT:
            raise ValueError(f"a move's text of {len(text):,} characters is refused; at most {MAX_ACTION_TEXT:,}")
        words = text.split()
        if not words:
            raise ValueError("empty action")
        kind, cards, detail = words[0], [], []
        for w in words[1:]:
            try:
                cards.append(deck.parse(w))
            except ValueError:
                if w[:1].isdigit():
                    raise ValueError(f"{w!r} is not a card of this deck") from None
                detail.append(w)
        if len(detail) > 1:
            raise ValueError(
                f"{detail[0]!r} is not a card of this deck (a move names its cards and at most one other word)"
            )
        return cls(kind, tuple(cards), " ".join(detail))
