"""The Python API's answer to a bad argument is a tapete error with the reason, and nothing changes.

``Deal.play(None)``, a move naming a card outside the deck, ``env.step(-1)``,
``env.step(10**30)`` or ``env.step(None)`` while the agent is to move used to raise a raw
AttributeError, IndexError or a bare AssertionError from deep inside. And a Chinchón
snapshot giving an eighth card to a seat not to move was resumed and played to the end.
"""

from __future__ import annotations

import json

import pytest

from tapete import Action, IllegalAction, Match, SnapshotError, load_variant
from tapete.testing import variant_names, variant_params

BAD_MOVES = [
    None,
    5,
    2.5,
    ("play", (3,), ""),
    Action("play", (999,)),
    Action("play", (-1,)),
    Action("discard", (10**30,)),
    Action("play", ("x",)),  # type: ignore[arg-type]
    Action("play", (1.5,)),  # type: ignore[arg-type]
    Action("play", (True,)),
    Action(None, ()),  # type: ignore[arg-type]
    Action("play", None),  # type: ignore[arg-type]
    Action("play", (3,), None),  # type: ignore[arg-type]
    "",
    "play 99♠",
]


@pytest.mark.parametrize("name", variant_params())
def test_a_move_that_is_no_move_is_an_illegal_action_and_changes_nothing(name):
    deal = load_variant(name).new_deal(seed=1)
    before = json.dumps(deal.snapshot())
    for bad in BAD_MOVES:
        with pytest.raises(IllegalAction):
            deal.play(bad)  # type: ignore[arg-type]
        assert json.dumps(deal.snapshot()) == before
    with pytest.raises(ValueError, match="must be a string"):
        deal.action(None)  # type: ignore[arg-type]
    deal.play(deal.legal_actions()[0])  # and the deal plays on


pz = pytest.importorskip("tapete.pettingzoo")


@pytest.mark.parametrize("name", ["fantan/pagat", "chinchon/fournier", "chinese-ten/two-player", "scopa/classic"])
def test_a_step_that_is_no_slot_is_a_value_error_with_the_reason_and_changes_nothing(name):
    env = pz.env(name)
    env.reset(seed=1)
    size = env.layout.size
    before = (env.agent_selection, json.dumps(env.deal.snapshot()))
    for bad, says in [
        (-1, f"action -1 is not a slot: the action space has slots 0 to {size - 1}"),
        (10**30, "is not a slot: the action space has slots"),
        (size, f"action {size:,} is not a slot" if size >= 1000 else f"action {size} is not a slot"),
        (None, "is to move: step(None) is only for an agent that is done"),
        ("3", "an action is a slot number"),
        (2.0, "an action is a slot number"),
        (True, "an action is a slot number"),
    ]:
        with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(")", r"\)")):
            env.step(bad)
        assert (env.agent_selection, json.dumps(env.deal.snapshot())) == before
    illegal = next(s for s in range(size) if s not in env.legal_moves())
    with pytest.raises(ValueError, match="is not legal now"):
        env.step(illegal)
    import numpy as np

    env.step(np.int64(next(iter(env.legal_moves()))))  # a numpy integer is a slot too


def _mid_deal_snapshot(name: str, players: int, moves: int) -> tuple[object, dict]:
    variant = load_variant(name)
    taken: dict = {}
    count = [0]

    def emit(event: dict) -> None:
        if event["type"] == "action":
            count[0] += 1
            if count[0] == moves:
                taken.update(json.loads(json.dumps(match.snapshot())))
                raise StopIteration

    match = Match(variant, players, 5, bots=["heuristic"])
    with pytest.raises(StopIteration):
        match.play(emit)
    return variant, taken


@pytest.mark.parametrize("moves", [3, 4])  # after a draw (the mover holds 8) and after a discard
def test_a_chinchon_snapshot_with_an_extra_card_for_a_seat_not_to_move_is_refused(moves):
    variant, snap = _mid_deal_snapshot("chinchon/fournier", 2, moves)
    assert Match.resume(variant, snap).play().deals >= 1  # the real one resumes
    zones, mover = snap["deal"]["zones"], snap["deal"]["to_move"]
    other = 1 - mover
    zones[f"hand.{other}"].append(zones["stock"].pop())  # CH-4.2: only the mover, after drawing, holds 8
    with pytest.raises(SnapshotError, match=rf"zone 'hand.{other}' holds 8 cards, but seat {other} is not to move"):
        Match.resume(variant, snap)
    zones[f"hand.{other}"].pop()
    zones[f"hand.{mover}"].append(zones["stock"].pop())
    with pytest.raises(SnapshotError, match=rf"zone 'hand.{mover}' holds \d+ cards, but seat {mover}, to move"):
        Match.resume(variant, snap)


@pytest.mark.parametrize("name", [n for n in variant_names() if n.startswith(("chinchon/", "gin/"))])
def test_every_position_of_real_rummy_deals_passes_the_snapshot_checks(name):
    from tapete import Random

    variant = load_variant(name)
    rng = Random(1, "positions")
    for seed in (1, 2):
        deal = variant.new_deal(seed=seed)
        for _ in range(200):  # draws, discards, a close and the deal's end; a stall ends it sooner
            variant.deal_from_snapshot(deal.snapshot())  # no false refusal at any move
            if deal.over:
                break
            legal = deal.legal_actions()
            closes = [a for a in legal if a.kind in ("close", "knock")]
            deal.play(closes[0] if closes else legal[rng.below(len(legal))])
