"""Decks and card notation.

A card in play is a small integer: zones are lists of ints, which keeps the hot
path cheap and makes "every card accounted for" a multiset check. The `Deck`
knows how each id reads and writes (``7♥``, ``7H``, ``10♣``, ``10C``) and carries
per-card arrays (rank, suit, copy) that rule tables are compiled against.

Two decks in one game (Chinchón with 5-8 players) give identical cards distinct
ids; the second copy is written ``7♥/2`` so that a snapshot round-trips exactly.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

SUIT_SYMBOLS = "♣♦♥♠"
SUIT_LETTERS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {
    "clubs": "♣",
    "diamonds": "♦",
    "hearts": "♥",
    "spades": "♠",
    # Spanish suits, written with the French symbols the rule documents use.
    "bastos": "♣",
    "oros": "♦",
    "copas": "♥",
    "espadas": "♠",
    # Italian suits (Scopa): denari coins, coppe cups, spade swords, bastoni clubs.
    "bastoni": "♣",
    "denari": "♦",
    "coppe": "♥",
    "spade": "♠",
}
RED_SUITS = frozenset("♦♥")
SPANISH_DECKS = frozenset({"spanish40", "spanish48"})
SPANISH_SUITS = {"♦": "oros", "♥": "copas", "♠": "espadas", "♣": "bastos"}
"""The suits of a Spanish deck by the symbol its cards are written with, in the usual order.

Logs, saves and rule scripts write a Spanish card with the French symbol (``7♦``); a
person at the table may be shown its Spanish name instead (`spoken_names`: ``7 de oros``)."""
JOKER = "Jk"

# Numeric face value of a rank, what ``rank`` means inside a rule table.
FACE_VALUES = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}

FRENCH_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
NAMED_DECKS = {
    "french52": FRENCH_RANKS,
    "spanish40": ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"),
    "spanish48": ("A", "2", "3", "4", "5", "6", "7", "8", "9", "J", "Q", "K"),
}


def spoken_names(deck: Deck, suits: dict[str, str], of: str = "de") -> list[str]:
    """Each card's name with its suit in words (``7 de oros``; a second copy ``7 de oros/2``).

    Display only: `Deck.parse` and every file keep the written form (``7♦``)."""
    names = []
    for card, written in enumerate(deck.names):
        suit = deck.suit_of[card]
        if suit not in suits:
            names.append(written)
            continue
        copy = deck.copy_of[card]
        names.append(f"{deck.rank_of[card]} {of} {suits[suit]}" + (f"/{copy + 1}" if copy else ""))
    return names


def face_value(rank: str) -> int:
    if rank.isdigit():
        return int(rank)
    return FACE_VALUES.get(rank, 0)


@dataclass
class Deck:
    """The physical cards of a game: ranks x suits x copies, plus jokers."""

    ranks: tuple[str, ...]
    suits: tuple[str, ...] = tuple(SUIT_SYMBOLS)
    copies: int = 1
    jokers: int = 0
    name: str = "custom"
    rank_of: list[str] = field(init=False, repr=False)
    suit_of: list[str] = field(init=False, repr=False)
    copy_of: list[int] = field(init=False, repr=False)
    names: list[str] = field(init=False, repr=False)
    _by_name: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.rank_of, self.suit_of, self.copy_of, self.names = [], [], [], []
        for copy in range(self.copies):
            for suit in self.suits:
                for rank in self.ranks:
                    self._add(rank, suit, copy)
        for j in range(self.jokers):
            self._add(JOKER, "", j)
        self._by_name = {n: i for i, n in enumerate(self.names)}

    def _add(self, rank: str, suit: str, copy: int) -> None:
        self.rank_of.append(rank)
        self.suit_of.append(suit)
        self.copy_of.append(copy)
        suffix = f"/{copy + 1}" if copy else ""
        self.names.append(f"{rank}{suit}{suffix}")

    @classmethod
    def named(cls, name: str, copies: int = 1, jokers: int = 0) -> Deck:
        return cls(NAMED_DECKS[name], copies=copies, jokers=jokers, name=name)

    def __len__(self) -> int:
        return len(self.names)

    @property
    def ids(self) -> range:
        return range(len(self.names))

    @property
    def spanish(self) -> bool:
        """A Spanish deck (``spanish40``, ``spanish48``): its suits may be shown as oros, copas, ..."""
        return self.name in SPANISH_DECKS

    def is_red(self, card: int) -> bool:
        return self.suit_of[card] in RED_SUITS

    def format(self, card: int) -> str:
        return self.names[card]

    def format_all(self, cards: Iterable[int]) -> list[str]:
        names = self.names
        return [names[c] for c in cards]

    def parse(self, text: str) -> int:
        """Read ``7♥``, ``7H``, ``10C``, ``7♥/2``; raise ValueError naming the card."""
        raw = text.strip()
        key = raw
        copy = ""
        if "/" in key:
            key, copy = key.split("/", 1)
            copy = "/" + copy
            if copy == "/1":
                copy = ""
        if key.upper() in ("JK", "JOKER"):
            key = JOKER
        elif key:
            rank, suit = key[:-1], key[-1]
            suit = SUIT_LETTERS.get(suit.upper(), suit)
            rank = rank.upper()
            if rank == "T":
                rank = "10"
            key = rank + suit
        try:
            return self._by_name[key + copy]
        except KeyError:
            raise ValueError(
                f"no card {raw!r} in this deck ({len(self)} cards: ranks {' '.join(self.ranks)})"
            ) from None

    def parse_all(self, texts: Iterable[str]) -> list[int]:
        return [self.parse(t) for t in texts]
