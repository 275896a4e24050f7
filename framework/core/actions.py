"""Actions: what a player does, in a form that prints, parses and logs.

An action is a kind plus the cards it names plus an optional word: ``play 5♥``,
``pass``, ``draw stock``, ``capture 8♣ 2♥``. Its text form is what the log
stores and what a person types, so a replayed log reads like a game record.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import Deck


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
    def parse(cls, text: str, deck: Deck) -> Action:
        words = text.split()
        if not words:
            raise ValueError("empty action")
        kind, cards, detail = words[0], [], []
        for w in words[1:]:
            try:
                cards.append(deck.parse(w))
            except ValueError:
                detail.append(w)
        return cls(kind, tuple(cards), " ".join(detail))
