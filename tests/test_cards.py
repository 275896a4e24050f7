"""Card notation, decks and the seeded random source."""

from __future__ import annotations

import pytest

from tapete import Deck, Random


@pytest.mark.parametrize(
    "text,name",
    [
        ("7♥", "7♥"),
        ("7H", "7♥"),
        ("7h", "7♥"),
        ("10♣", "10♣"),
        ("10C", "10♣"),
        ("TC", "10♣"),
        ("A♠", "A♠"),
        ("qd", "Q♦"),
    ],
)
def test_card_notation_reads_symbols_and_letters(text, name):
    deck = Deck.named("french52")
    assert deck.format(deck.parse(text)) == name


def test_unknown_cards_are_refused_with_the_deck_named():
    deck = Deck.named("spanish40")
    with pytest.raises(ValueError, match="no card '8♥' in this deck \\(40 cards: ranks A 2 3 4 5 6 7 J Q K\\)"):
        deck.parse("8♥")


def test_named_decks_have_their_sizes_and_copies_are_told_apart():
    assert [len(Deck.named(n)) for n in ("french52", "spanish40", "spanish48")] == [52, 40, 48]
    two = Deck.named("spanish40", copies=2, jokers=2)
    assert len(two) == 82
    a, b = two.parse("7♥"), two.parse("7♥/2")
    assert a != b and two.format(b) == "7♥/2" and two.rank_of[a] == two.rank_of[b]
    assert two.format(two.parse("Jk/2")) == "Jk/2"


def test_colours():
    deck = Deck.named("french52")
    assert deck.is_red(deck.parse("2♦")) and deck.is_red(deck.parse("K♥"))
    assert not deck.is_red(deck.parse("A♠")) and not deck.is_red(deck.parse("10♣"))


def test_random_is_the_same_on_every_machine():
    """Seeded runs are reproducible bit for bit: the generator is pinned to known outputs."""
    r = Random(1)
    assert [r.below(1000) for _ in range(6)] == PINNED
    items = list(range(10))
    Random("abc").shuffle(items)
    assert sorted(items) == list(range(10)) and items != list(range(10))


def test_random_state_round_trips():
    r = Random(42, "x")
    r.below(10)
    twin = Random.fromstate(r.getstate())
    assert [r.below(100) for _ in range(5)] == [twin.below(100) for _ in range(5)]


# Recorded once from this implementation: if these change, every saved log and seeded
# result stops reproducing, so a change here must be deliberate.
PINNED = [934, 542, 831, 844, 725, 927]
