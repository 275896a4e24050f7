"""Decks and card notation.

A card in play is a small integer: zones are lists of ints, which keeps the hot
path cheap and makes "every card accounted for" a multiset check. The `Deck`
knows how each id reads and writes (``7♥``, ``7H``, ``10♣``, ``10C``) and carries
per-card arrays (rank, suit, copy) that rule tables are compiled against.

Two decks in one game (Chinchón with 5-8 players) give identical cards distinct
ids; the second copy is written ``7♥/2`` so that a snapshot round-trips exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

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


@dataclass(slots=True)
class Deck:
    """The physical cards of a game: ranks x suits x copies, plus jokers.

    Read-only: every view hands a bot the game's own deck, so its per-card arrays are
    tuples and its names a read-only mapping, and a deck is shared, never copied."""

    ranks: tuple[str, ...]
    suits: tuple[str, ...] = tuple(SUIT_SYMBOLS)
    copies: int = 1
    jokers: int = 0
    name: str = "custom"
    rank_of: tuple[str, ...] = field(init=False, repr=False, compare=False)
    suit_of: tuple[str, ...] = field(init=False, repr=False, compare=False)
    copy_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _by_name: Mapping[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rank_of: list[str] = []
        suit_of: list[str] = []
        copy_of: list[int] = []
        names: list[str] = []
        cards = [(rank, suit, c) for c in range(self.copies) for suit in self.suits for rank in self.ranks]
        cards += [(JOKER, "", j) for j in range(self.jokers)]
        for rank, suit, copy in cards:
            rank_of.append(rank)
            suit_of.append(suit)
            copy_of.append(copy)
            names.append(f"{rank}{suit}{f'/{copy + 1}' if copy else ''}")
        for key, value in (("rank_of", rank_of), ("suit_of", suit_of), ("copy_of", copy_of), ("names", names)):
            object.__setattr__(self, key, tuple(value))
        object.__setattr__(self, "_by_name", MappingProxyType({n: i for i, n in enumerate(names)}))

    def __setattr__(self, name: str, value: Any) -> None:
        if hasattr(self, "_by_name"):  # built: from here on the deck is what every view of the game shares
            raise AttributeError(f"a deck is read-only (cannot set {name!r})")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a deck is read-only (cannot delete {name!r})")

    def __reduce__(self) -> tuple[type[Deck], tuple[Any, ...]]:
        return Deck, (self.ranks, self.suits, self.copies, self.jokers, self.name)

    def __copy__(self) -> Deck:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Deck:
        return self

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
