"""A deal and its variant travel between processes and copy as Python expects.

A researcher hands deals to `multiprocessing`, Dask or a search that calls `copy.deepcopy`: each
gets a deal that plays on exactly as the original would. The variant travels as what loads it
again (its name or file, its options and its digest), never as its compiled rules.
"""

from __future__ import annotations

import copy
import multiprocessing
import pickle
import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from children import child, child_file
from conftest import variant

from tapete import TapeteError, build_registry, load_variant
from tapete.testing import deal_from_zones, variant_params
from tapete.view import read_only


def walk(deal: Any, rng: random.Random, steps: int) -> list[Any]:
    """Up to ``steps`` moves chosen by ``rng``; what each move said."""
    said = []
    for _ in range(steps):
        if deal.over:
            break
        moves = deal.legal_actions()
        said.append(deal.play(moves[rng.randrange(len(moves))]))
    return said


@pytest.mark.parametrize("name", variant_params())
def test_a_pickled_deal_plays_on_as_the_original_would(name: str) -> None:
    v = variant(name)
    deal = v.new_deal(None, seed=7)
    walk(deal, random.Random(1), 15)
    again = pickle.loads(pickle.dumps(deal))
    assert again.snapshot() == deal.snapshot()  # the same position, the same dice
    assert walk(again, random.Random(2), 400) == walk(deal, random.Random(2), 400)  # the same moves say the same
    assert again.snapshot() == deal.snapshot()


@pytest.mark.parametrize("asked", [False, True], ids=["histories-still-to-work-out", "histories-worked-out"])
@pytest.mark.parametrize("name", variant_params())
def test_a_deep_copy_keeps_every_seats_history_and_goes_its_own_way(name: str, asked: bool) -> None:
    v = variant(name)
    deal = v.new_deal(None, seed=3)
    walk(deal, random.Random(4), 12)
    seats = range(deal.state.players)
    if asked:  # a view asked: the deal keeps a recorder of its seats' histories from then on
        deal.view(0)
    before = deal.snapshot()
    twin = copy.deepcopy(deal)
    assert [list(twin.view(s).history) for s in seats] == [list(deal.view(s).history) for s in seats]
    walk(twin, random.Random(5), 30)
    assert deal.snapshot() == before  # the copy's moves are its own
    assert twin.variant is deal.variant and twin.game is deal.game  # the rules are shared, not copied


def test_a_worked_example_with_cards_out_of_play_pickles_as_it_stands() -> None:
    deal = deal_from_zones(
        "fantan/pagat", {"hand.0": ["7♥", "8♥"], "hand.1": ["6♥"], "hand.2": ["9♥"], "hand.3": ["5♥"], "row.♥": []}
    )
    again = pickle.loads(pickle.dumps(deal))
    assert again.snapshot() == deal.snapshot()
    assert [a.text(again.game.deck) for a in again.legal_actions()] == ["play 7♥"]  # FT-3.2 the seven opens its row


def test_a_variant_copies_as_itself_and_is_loaded_once_a_process() -> None:
    v = load_variant("hearts/classic")
    assert copy.copy(v) is v  # its rules are compiled once and shared
    first = pickle.loads(pickle.dumps(v))
    assert (first.name, first.digest, first.options) == (v.name, v.digest, v.options)
    assert pickle.loads(pickle.dumps(load_variant("hearts/classic"))) is first  # not compiled again for each deal
    assert pickle.loads(pickle.dumps(v.new_deal(4, seed=1))).variant is first
    shorter = pickle.loads(pickle.dumps(load_variant("hearts/classic", options={"limit": 50})))
    assert shorter is not first and shorter.options["limit"] == 50 and first.options["limit"] == 100


def play_to_end(sent: bytes) -> Any:
    """In another process: the deal sent, played to its end by a seeded choice (or why it was refused)."""
    try:
        deal = pickle.loads(sent)
    except TapeteError as exc:
        return str(exc)
    walk(deal, random.Random(9), 1000)
    return deal.snapshot()


def test_deals_sent_to_another_process_play_to_the_same_end(tmp_path: Path) -> None:
    registered = load_variant("hearts/classic").new_deal(4, seed=11)
    from_file = load_variant(child_file(tmp_path, "fantan/pagat", "match_ends when max(deals_won) >= 2\n")).new_deal(
        4, seed=5
    )
    changed = load_variant(
        child_file(tmp_path, "fantan/pagat", "match_ends when max(deals_won) >= 4\n", "changed")
    ).new_deal(4, seed=5)
    for deal in (registered, from_file, changed):
        walk(deal, random.Random(3), 9)
    sent = [pickle.dumps(d) for d in (registered, from_file, changed)]
    (tmp_path / "changed.rules").write_text(
        "match_ends when max(deals_won) >= 5\n", encoding="utf-8"
    )  # after it was pickled
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        there = list(pool.map(play_to_end, sent))
    for deal in (registered, from_file):
        walk(deal, random.Random(9), 1000)
    assert there[:2] == [registered.snapshot(), from_file.snapshot()]
    assert there[2].startswith(f"fantan/changed ({tmp_path / 'changed.yaml'}): its files have changed since it was")


def test_a_variant_loaded_with_a_registry_of_its_own_says_it_cannot_travel(tmp_path: Path) -> None:
    v = child(tmp_path, "fantan/pagat", "match_ends when max(deals_won) >= 2", registry=build_registry())
    with pytest.raises(
        TypeError, match=r"fantan/extra was loaded with a registry of its own.*send a deal as its snapshot"
    ):
        pickle.dumps(v.new_deal(4, seed=1))
    assert v.deal_from_snapshot(v.new_deal(4, seed=1).snapshot()).snapshot() == v.new_deal(4, seed=1).snapshot()


class Notes:
    """A game's facts object that kept the variant: sealed for a bot, it must not hand the bot the rules."""

    def __init__(self, variant: Any) -> None:
        self.variant = variant


def test_a_variant_is_not_deep_copied_so_no_bot_reaches_the_rules_through_its_facts() -> None:
    v = load_variant("hearts/classic")
    with pytest.raises(TypeError, match="hearts/classic is not deep-copied: its rules are shared"):
        copy.deepcopy(v)
    with pytest.raises(TypeError, match="is not deep-copied"):
        read_only(Notes(v))  # what a bot's view is given of such facts: refused, not the variant itself
