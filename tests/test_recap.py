""" "Since your last move" tells a seat every card that reached its hand, and names no card a move did not take.

Two slips the trick family showed: after a Briscola trick the taker's move also deals the
other seat its card from the stock (BR-3.4), and that card went unsaid; and the taker's line
read ``seat 1: play J♥ (5♦ 6♥)``, the parenthesis (a rummy draw's ``draw discard (7♥)``)
listing every card the move sent anywhere, the other seat's draw and the trick going to its
taker included. A Hearts pass (HE-2.3) reaches a hand on the last passer's move likewise.
Checked over each game's base variant, so a family added tomorrow is held to it.
"""

from __future__ import annotations

import pytest

from tapete import Random
from tapete.layout import Layout, recap, since_last_move
from tapete.testing import variant, variant_params


def _cards_told(lines: list[list]) -> list[int]:
    """The cards of the lines that say another seat's move brought them ("you drew 5♦", "you received ...")."""
    told = []
    for line in lines:
        if line and line[0] in ("you drew", "you received") and not str(line[-1]).startswith("("):
            told += [t for t in line[1:] if isinstance(t, int)]
    return told


@pytest.mark.parametrize("name", variant_params())
def test_the_recap_names_every_card_that_reached_the_hand_and_only_those(name):
    v = variant(name)
    layout = v.record.layout or Layout()
    seat, players = 0, v.default_players()
    checked = 0
    for seed in range(3):
        deal = v.new_deal(players, seed=seed)
        rng = Random(seed, "recap")
        after_mine: list[int] | None = None
        while not deal.over:
            legal = deal.legal_actions()
            if deal.to_move == seat:
                view = deal.view(seat)
                hand = deal.state.zones[f"hand.{seat}"]
                lines = recap(layout, view, since_last_move(view))
                if after_mine is not None:
                    arrived = sorted(set(hand) - set(after_mine))
                    assert sorted(_cards_told(lines)) == arrived, (seed, lines)
                    checked += 1
                for line in lines:  # another seat's line: a parenthesis names only cards its own hand took
                    if "(" in line and line[0] not in ("you drew", "you received"):
                        inside = line[line.index("(") + 1 : line.index(")")]
                        assert all(isinstance(c, int) for c in inside), line
                        assert not set(inside) & set(hand), (line, "names a card now in this seat's hand")
                deal.play(legal[rng.below(len(legal))])
                after_mine = list(deal.state.zones.get(f"hand.{seat}", []))
            else:
                deal.play(legal[rng.below(len(legal))])
    assert checked > 0


def test_after_a_briscola_trick_the_other_seat_hears_of_its_draw_and_the_takers_line_names_no_stray_card():
    """BR-3.4 as a worked example: seat 1 takes the trick with J♥, draws, and seat 0 draws 5♦."""
    v = variant("briscola/classic")
    layout = v.record.layout or Layout()
    deal = v.new_deal(2, seed=1)
    for _ in range(20):
        if deal.to_move == 0:
            view = deal.view(0)
            lines = recap(layout, view, since_last_move(view))
            said = [" ".join(view.deck.names[t] if isinstance(t, int) else t for t in line) for line in lines]
            taker = [s for s in said if "takes the trick" in s]
            if taker and any(s.startswith("seat 1: play") for s in taker):
                assert all("(" not in s.split(" - ")[0] for s in taker), said  # no stray cards after the play
                assert any(s.startswith("you drew ") for s in said), said
                return
        deal.play(deal.legal_actions()[0])
    pytest.fail("no trick taken by seat 1 in 20 moves")
