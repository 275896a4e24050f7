"""The pass (HE-2.3) as a phase of simultaneous hidden choices, and the shared win (HE-5.2)."""

from __future__ import annotations

import subprocess
import sys

from tapete import Match, Random
from tapete.core.ledger import Ledger
from tapete.play.deal import Deal, start_deal

from .helpers import variants

CLASSIC = "hearts/classic"


def deal_number(n: int, seed: int = 3) -> Deal:
    """Deal ``n`` of a match (the pass cycle reads the deal number), dealer seat 0."""
    v = variants[CLASSIC]
    game = v.new_game()
    ledger = Ledger(4)
    ledger.deal_number = n
    return Deal(v, game, start_deal(game, 4, 0, Random(seed, "deal"), ledger))


def pass_everyone(deal: Deal) -> dict[int, list[int]]:
    """Every seat passes its first three cards; what each seat passed."""
    passed: dict[int, list[int]] = {}
    while deal.legal_actions()[0].kind == "pass":
        seat = deal.to_move
        card = deal.state.zones[f"hand.{seat}"][0]
        passed.setdefault(seat, []).append(card)
        deal.play(deal.legal_actions()[0])
    return passed


def test_he_2_3_the_cycle_is_left_right_across_hold():
    # deal 1 passes left (to the next seat clockwise), 2 right, 3 across, 4 nobody passes, 5 left again
    for number, steps in ((1, 1), (2, 3), (3, 2), (5, 1)):
        deal = deal_number(number)
        passed = pass_everyone(deal)
        assert sorted(passed) == [0, 1, 2, 3]
        for seat, cards in passed.items():
            receiver = (seat + steps) % 4
            assert set(cards) <= set(deal.state.zones[f"hand.{receiver}"]), (number, seat)
    held = deal_number(4)
    assert held.legal_actions()[0].kind == "play"  # HE-2.3: the fourth hand is played as dealt


def test_he_2_3_nobody_sees_a_choice_or_a_received_card_before_everyone_has_chosen():
    deal = deal_number(1)
    first = deal.to_move
    for _ in range(3):
        deal.play(deal.legal_actions()[0])
    chosen = deal.state.zones[f"chosen.{first}"]
    assert len(chosen) == 3
    second = deal.to_move
    view = deal.view(second)
    assert view.cards(f"chosen.{first}") == () and view.count(f"chosen.{first}") == 3
    assert not set(chosen) & set(view.hand)  # nothing received yet
    assert deal.view(first).cards(f"chosen.{first}") == tuple(chosen)  # the chooser sees its own
    assert len(view.hand) == 13


def test_he_2_3_the_passer_remembers_where_its_cards_went_and_the_two_of_clubs_leads_after():
    deal = deal_number(1)
    passed = pass_everyone(deal)
    for seat, cards in passed.items():
        known = deal.view(seat).known
        assert all(known[c] == f"hand.{(seat + 1) % 4}" for c in cards)  # through the one observer
    two = deal.game.deck.parse("2♣")
    holder = next(s for s in range(4) if two in deal.state.zones[f"hand.{s}"])
    assert deal.to_move == holder  # HE-3.1 after the pass: the 2♣'s holder now
    assert [a.text(deal.game.deck) for a in deal.legal_actions()] == ["play 2♣"]


def test_he_5_2_players_tied_for_lowest_share_the_win_in_the_result_and_the_log():
    match = Match(variants[CLASSIC], 4, seed=1, bots=["random"])
    match.ledger.totals = [40, 40, 60, 100]
    events = []
    winner = match._after_deal()
    assert winner == -1
    result = match.finish(winner, [], events.append)
    assert result.winners == [0, 1] and result.shared
    assert events[-1]["winners"] == [0, 1]


def test_he_5_2_the_command_line_names_every_seat_that_shares_the_win():
    # A limit of 1 ends the match after the first hand; seed 1 leaves seats 2 and 3 on 2 points each.
    out = subprocess.run(
        [sys.executable, "-m", "tapete", "play", CLASSIC, "--seed", "1", "--quiet", "--option", "limit=1"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Winner: seats 2 and 3 share the win" in out, out


def test_he_5_2_simulate_counts_a_shared_win_for_each_seat_that_shares_it():
    from tapete import simulate

    sim = simulate(CLASSIC, 4, bots=["heuristic"], options={"limit": 1}, seed=1, workers=1)
    (summary,) = sim.summary()["points"]
    shared = [r for r in sim.records if len(r.winners) > 1]
    assert shared and summary["shared_wins"] == len(shared) and summary["draws"] == 0
    assert sum(s["wins"] for s in summary["seats"]) == sum(len(r.winners) for r in sim.records)
    for r in shared:  # every sharer has the lowest total
        assert all(r.totals[s] == min(r.totals) for s in r.winners)


def test_he_5_2_in_a_tournament_every_match_is_a_win_for_one_bot_or_a_draw_between_them():
    # a win shared by seats of both bots is a draw between them; one shared by one bot's seats is its win
    from tapete.simulation.tournament import round_robin

    result = round_robin(CLASSIC, ["heuristic", "random"], games=6, options={"limit": 1}, seed=2, workers=1)
    (pair,) = result.pairs
    assert pair.wins_a + pair.wins_b + pair.draws == 6 and pair.errors == 0
    assert pair.wins_a > pair.wins_b  # the default bot avoids points better than random
