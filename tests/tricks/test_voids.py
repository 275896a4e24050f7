"""What the public play proves about hidden hands (`Tricks.excluded`), used by the searches' determiniser.

Seats clockwise: 0 South, 1 West, 2 North, 3 East.
"""

from __future__ import annotations

from tapete import Random
from tapete.search.determinise import Determiniser

from .helpers import NORTH, SOUTH, WEST, position

CLASSIC = "hearts/classic"


def names(deal, cards):
    """The cards of the deal among ``cards``, as text (a snapshot leaves the rest of the deck out)."""
    dealt = {c for zone in deal.state.zones.values() for c in zone}
    return sorted(deal.game.deck.format(c) for c in cards if c in dealt)


def test_he_3_2_a_seat_that_did_not_follow_holds_none_of_the_suit_led():
    # South leads 7♦; West shows out with 2♠: every diamond South cannot see is not in West's hand,
    # in what the search imagines too (the determiniser deals them elsewhere, every time).
    deal = position(
        CLASSIC,
        to_move=SOUTH,
        counters={"played": 1},
        hand0=["7♦", "3♣"],
        hand1=["2♠", "5♣"],
        hand2=["K♦", "8♣"],
        hand3=["4♦", "9♦"],
    )
    deal.play("play 7♦")
    deal.play("play 2♠")
    view = deal.view(SOUTH)
    excluded = deal.game.excluded(view)
    diamonds = [c for c in view.unseen() if deal.game.deck.suit_of[c] == "♦"]
    assert names(deal, diamonds) == ["4♦", "9♦", "K♦"]  # of the deal's cards, those South cannot see
    assert all(excluded[c] == {f"hand.{WEST}"} for c in diamonds)
    assert not any(f"hand.{NORTH}" in z for z in excluded.values())  # North has not played yet
    sampler = Determiniser(deal.game, view)
    rng = Random(5, "samples")
    for _ in range(50):
        world = sampler.sample(rng)
        assert not set(diamonds) & set(world.zones[f"hand.{WEST}"])


def test_he_3_5_a_heart_led_before_hearts_are_broken_proves_a_hand_of_hearts():
    deal = position(
        CLASSIC,
        to_move=WEST,
        counters={"played": 2},
        hand0=["3♣", "4♥"],
        hand1=["5♥", "9♥"],
        hand2=["8♣", "J♥"],
        hand3=["2♦", "6♠"],
    )
    deal.play("play 5♥")
    view = deal.view(SOUTH)
    excluded = deal.game.excluded(view)
    for c in view.unseen():
        assert (f"hand.{WEST}" in excluded.get(c, ())) == (deal.game.deck.suit_of[c] != "♥")


def test_he_3_3_the_queen_discarded_on_the_first_trick_proves_nothing_but_penalty_cards():
    deal = position(
        CLASSIC,
        to_move=SOUTH,
        hand0=["2♣", "4♦"],
        hand1=["Q♠", "7♥"],
        hand2=["8♣", "J♦"],
        hand3=["9♣", "6♠"],
    )
    deal.play("play 2♣")
    deal.play("play Q♠")
    excluded = deal.game.excluded(deal.view(SOUTH))
    assert names(deal, [c for c, z in excluded.items() if f"hand.{WEST}" in z]) == ["6♠", "8♣", "9♣", "J♦"]


def test_br_3_2_nothing_is_proved_where_anything_may_be_played():
    deal = position(
        "briscola/classic",
        players=2,
        dealer=1,
        to_move=0,
        counters={"trump": 1},
        hand0=["3♠", "4♦"],
        hand1=["A♥", "K♦"],
        stock=["7♦", "J♣"],
        turned=["4♣"],
    )
    deal.play("play 3♠")
    deal.play("play A♥")
    assert deal.game.excluded(deal.view(0)) == {}
