"""`Deal.play` checks a move against the moves `legal_actions` last handed out.

The check by membership saves asking the game a second time; these tests hold it to the
same verdicts as asking the game: a state changed by hand since, a list changed by its
caller, a move equal to an offered one but not well formed, a refused move in between.
Hearts positions (HE-3.2 follow suit) make the legal moves few and easy to read.
"""

from __future__ import annotations

import random

import pytest

from tapete import Action, IllegalAction, load_variant

from .helpers import SOUTH, WEST, cards, position

CLASSIC = "hearts/classic"


def _trick_led():
    # HE-3.2: South led 5♣; West holds one club, so K♣ is its only legal card
    return position(
        CLASSIC, to_move=WEST, trick=["5♣"], counters={"lead": SOUTH, "played": 1}, hand1=["K♣", "4♦", "A♠"]
    )


def test_an_offered_move_refused_after_the_state_is_changed_by_hand():
    deal = _trick_led()
    (offered,) = deal.legal_actions()
    assert offered == Action("play", tuple(cards(deal, "K♣")))
    # HE-3.2 by hand: West's club is swapped for a diamond; K♣ is no longer in the hand
    hand = deal.state.zones[f"hand.{WEST}"]
    hand[hand.index(offered.cards[0])] = cards(deal, "2♦")[0]
    before = deal.snapshot()
    with pytest.raises(IllegalAction, match="not in your hand"):
        deal.play(offered)
    assert deal.snapshot() == before  # refused: nothing changed
    assert sorted(a.cards[0] for a in deal.legal_actions()) == sorted(cards(deal, "2♦", "4♦", "A♠"))


def test_a_new_state_set_on_the_deal_is_checked_afresh():
    deal = _trick_led()
    (offered,) = deal.legal_actions()
    other = _trick_led()
    other.state.zones["trick"] = list(cards(other, "5♠"))  # spades led: A♠ is the only card West may play
    deal.state = other.state
    with pytest.raises(IllegalAction, match="must follow suit"):
        deal.play(offered)


def test_the_handed_out_list_is_the_callers_to_change():
    deal = _trick_led()
    legal = deal.legal_actions()
    diamond = Action("play", tuple(cards(deal, "4♦")))
    legal.append(diamond)  # the caller's list: the deal's own check is not widened by it
    with pytest.raises(IllegalAction, match="must follow suit"):
        deal.play(diamond)
    assert deal.legal_actions() == [Action("play", tuple(cards(deal, "K♣")))]


def test_an_equal_move_of_other_types_is_refused_as_before():
    # HE-2.3: every card of the chooser's hand is offered to pass; the first seed whose chooser
    # holds card 1 (which True equals) is taken
    variant = load_variant(CLASSIC)
    deals = (variant.new_deal(4, seed=s, record=False) for s in range(50))
    deal = next(d for d in deals if 1 in d.state.hand(d.to_move))
    seat = deal.to_move
    (first,) = [a for a in deal.legal_actions() if a.cards == (1,)]
    for bad in ((True,), (1.0,)):
        with pytest.raises(IllegalAction, match="is not a card of this deck"):
            deal.play(Action(first.kind, bad, first.detail))
    assert 1 in deal.state.hand(seat)
    deal.play(Action(first.kind, (1,), first.detail))  # equal and well formed: played
    assert deal.state.zones[f"chosen.{seat}"] == [1]


def test_a_refused_move_leaves_the_offer_standing_and_the_game_agrees_everywhere():
    # every position of seeded random deals of both trick games: a card of the hand is played
    # through the offer exactly when the game itself would accept it (HE-3.2, BR-3.2)
    for name in (CLASSIC, "briscola/classic"):
        variant = load_variant(name)
        players = 4 if name == CLASSIC else 2
        rng = random.Random(7)
        for seed in range(3):
            deal = variant.new_deal(players, seed=seed, record=False)
            while not deal.over:
                legal = deal.legal_actions()
                state = deal.state
                hand = state.zones[f"hand.{state.to_move}"]
                kind = legal[0].kind
                for card in hand:
                    move = Action(kind, (card,))
                    assert (deal.game.refusal(state, move) is None) == (move in legal)
                refused = [Action(kind, (c,)) for c in hand if Action(kind, (c,)) not in legal]
                deal.legal_actions()
                for move in refused[:1]:
                    with pytest.raises(IllegalAction):
                        deal.play(move)
                deal.play(legal[rng.randrange(len(legal))])
