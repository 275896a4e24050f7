"""The check of imagined deals itself, on Fan Tan: it passes the real determiniser and catches a blind one.

`tapete.search.worlds.impossibility` replays the public history in a deal the search
imagined. Fan Tan's determiniser knows that a player who passed held nothing playable
(FT-3.4), so every deal it imagines replays; one that ignores the passes imagines deals
where a pass was illegal, and the check must say so.
"""

from __future__ import annotations

from sampling_helpers import Blind, impossible_worlds, walk

from tapete import Random
from tapete.search.determinise import Determiniser
from tapete.search.worlds import impossibility
from tapete.testing import variant


def _fantan_positions(moves: int, deals: int = 12):
    v = variant("fantan/pagat")
    out = []
    for seed in range(deals):
        walked = walk(v, 4, seed, lambda done: len(done) >= moves)
        if walked is not None and not walked.deal.over:
            out.append(walked)
    return out


def test_fan_tan_imagines_only_deals_that_replay():
    """FT-3.4: a seat that passed held no playable card; the determiniser keeps that, so nothing fails."""
    rng = Random(1, "fantan worlds")
    positions = _fantan_positions(30)
    assert len(positions) >= 8
    failures = [why for w in positions for why in impossible_worlds(w, 6, rng)]
    assert failures == []


def test_the_check_catches_a_determiniser_blind_to_passes():
    """Without FT-3.4's deduction some imagined deal has a pass the player could not have made."""
    rng = Random(2, "fantan blind")
    positions = _fantan_positions(40)
    failures = [why for w in positions for why in impossible_worlds(w, 6, rng, Blind(w.deal.game))]
    assert failures, "a determiniser that ignores passes imagined only possible deals"
    assert any("may not pass" in why and "FT-3.4" in why for why in failures)


def test_a_world_that_moves_a_card_the_seat_holds_is_refused():
    """A world where the seat's own card sits in another hand is no world the seat could be in."""
    walked = _fantan_positions(20, deals=3)[0]
    deal = walked.deal
    seat = deal.to_move
    view = deal.view(seat)
    world = Determiniser(deal.game, view).sample(Random(3))
    other = f"hand.{(seat + 1) % 4}"
    mine = f"hand.{seat}"
    world.zones[mine][0], world.zones[other][0] = world.zones[other][0], world.zones[mine][0]
    why = impossibility(deal.game, walked.start, walked.moves, view, world)
    assert why is not None and mine in why


def test_the_last_card_of_a_trick_is_seen_by_all():
    """HE-3.2: cards are played face up, so every seat's history names every card played, the last of a trick too."""
    deal = variant("hearts/classic").new_deal(4, seed=5)
    rng = Random(5, "face up")
    while deal.state.counters.get("played", 0) < 2:
        legal = deal.legal_actions()
        deal.play(legal[rng.below(len(legal))])
    for seat in range(4):
        plays = [e for e in deal.view(seat).history if e.kind == "action" and e.action and e.action.kind == "play"]
        assert len(plays) == 8
        hidden = [e.text for e in plays if not e.action.cards]
        assert hidden == [], f"seat {seat} saw {hidden}"


def test_a_world_that_moves_a_passed_card_is_refused():
    """HE-2.3: the passer knows where its three cards went; a world with one of them elsewhere is impossible."""
    v = variant("hearts/classic")
    walked = walk(v, 4, 11, lambda moves: sum(1 for a in moves if a.kind == "play") >= 1)
    deal = walked.deal
    seat = deal.to_move  # it has not played yet
    played = {a.cards[0] for a in walked.moves if a.kind == "play"}
    passed = set(walked.start.zones[f"hand.{seat}"]) - set(deal.state.zones[f"hand.{seat}"]) - played
    receiver = (seat + deal.state.counters["pass_to"]) % 4
    assert len(passed) == 3 and passed <= set(deal.state.zones[f"hand.{receiver}"])
    card = min(passed)
    view = deal.view(seat)
    assert view.known.get(card) == f"hand.{receiver}"
    world = Determiniser(deal.game, view).sample(Random(4))
    assert impossibility(deal.game, walked.start, walked.moves, view, world) is None
    other = next(s for s in range(4) if s not in (seat, receiver) and world.zones[f"hand.{s}"])
    there, mine = world.zones[f"hand.{receiver}"], world.zones[f"hand.{other}"]
    i = there.index(card)
    there[i], mine[0] = mine[0], there[i]
    why = impossibility(deal.game, walked.start, walked.moves, view, world)
    assert why is not None
