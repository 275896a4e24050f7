"""The trick family's steps in C (`_fast.c`) play exactly as its Python does, in every variant.

`Tricks.legal_actions` and `Tricks.apply` take a step in C when the module was built and the
step is one it settles: the legal cards in play (a ban's deciding condition read by the
script), and a card played, the trick taken with it (the winner, the draw, the words said).
Each variant of every trick game is played here twice in lockstep, by the game with the C
steps and by the same rules without them, at every player count it allows: the legal moves
must be the same objects in the same order, the words said the same, and the whole state the
same after every move, to the end of several deals of a match."""

from __future__ import annotations

import copy
import functools
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tapete import Action, load_variant
from tapete.core.ledger import Ledger
from tapete.core.rng import Random
from tapete.core.state import DealState
from tapete.play.deal import start_deal
from tapete.testing import variant_params
from tapete_plugins.tricks import game as trick_game

TRICK_GAMES = ("hearts", "briscola", "oh-hell", "spades")
PARAMS = [p for g in TRICK_GAMES for p in variant_params(g)]

if os.environ.get("CI") and trick_game._fast is None:  # CI builds with a compiler: the C steps must be there
    raise AssertionError("tapete_plugins.tricks._fast was not built")
pytestmark = pytest.mark.skipif(trick_game._fast is None, reason="the C steps were not built (no C compiler)")


class Counting:
    """A game's C rules, counting the steps they settle, so a test that never reaches the C code fails."""

    def __init__(self, rules: object) -> None:
        self.rules, self.taken = rules, 0

    def legal(self, state: DealState) -> object:
        out = self.rules.legal(state)
        self.taken += out is not None
        return out

    def play(self, state: DealState, action: object) -> object:
        out = self.rules.play(state, action)
        self.taken += out is not None
        return out


def lockstep(name: str, players: int, seed: int, deals: int = 3) -> int:
    """Play ``deals`` deals both ways with the same random moves; the C steps taken (asserted equal throughout)."""
    fast, plain = load_variant(name), load_variant(name)
    plain._game._fast = None
    game, reference = fast._game, plain._game
    counting = game._fast = Counting(game._fast) if game._fast is not None else None
    try:
        ledger_a, ledger_b = Ledger(players=players), Ledger(players=players)
        dealer = 0
        for number in range(deals):
            ledger_a.deal_number = ledger_b.deal_number = number + 1
            a = start_deal(game, players, dealer, Random(seed, f"deal-{number}"), ledger_a)
            b = start_deal(reference, players, dealer, Random(seed, f"deal-{number}"), ledger_b)
            chooser = Random(seed, f"moves-{number}")
            assert a.to_json(game.deck) == b.to_json(reference.deck)
            while not a.over:
                moves, expected = game.legal_actions(a), reference.legal_actions(b)
                assert moves == expected, (name, players, seed, number, a.to_json(game.deck))
                # the very move objects the game made once, as its Python hands out
                assert all(m is game.plays[m.cards[0]] for m in moves if m.kind == "play")
                move = chooser.choice(moves)
                assert game.apply(a, move) == reference.apply(b, move)
                assert a.to_json(game.deck) == b.to_json(reference.deck), (name, players, seed, number, move)
            dealer = game.next_seat(a, dealer)
    finally:
        game._fast = counting.rules if counting is not None else None
    return counting.taken if counting is not None else 0


@pytest.mark.parametrize("name", PARAMS)
def test_the_c_steps_play_as_the_python_does(name: str) -> None:
    variant = load_variant(name)
    lo, hi = variant.player_range()
    taken = 0
    for players in range(lo, min(hi, 7) + 1):
        for seed in range(6):
            taken += lockstep(name, players, seed)
    if variant._game.exchange_rank is not None:  # BR-V4's exchange is a second kind of move in play: all Python
        assert variant._game._fast is None and taken == 0
    else:
        assert taken > 0, f"{name}: no step was taken in C"


def _leading(name: str, cards: tuple[str, ...]) -> tuple:
    """A deal of ``name`` after its first trick, seat 0 to lead from ``cards`` (every seat holds them)."""
    game = load_variant(name)._game
    deck = game.deck
    state = start_deal(game, 4, 0, Random(1, "deal"), Ledger(players=4))
    state.data.pop("choosing", None)
    for s in range(4):
        state.zones[f"hand.{s}"] = [deck.parse(c) for c in cards]
        state.zones.pop(f"chosen.{s}", None)
    state.zones["trick"] = []
    state.counters.update(played=1, lead=0, broken=0)
    state.to_move = 0
    return game, state


def _shown(game, moves) -> list[str]:
    return [game.deck.format(a.cards[0]) for a in moves]


def test_a_ban_on_a_counters_truth_is_read_in_c() -> None:
    """HE-3.5: leading with hearts and clubs in hand, ``not broken`` decides; it is the truth of the
    counter ``broken``, which the C code reads itself: the script is not called back."""
    game, state = _leading("hearts/classic", ("3♣", "4♥"))
    asked = []

    def judge(*args):
        asked.append(args[1:])
        return game._judge(*args)

    assert _shown(game, game._fast.legal(state)) == ["3♣"]
    assert _shown(game, trick_game._fast.legal(game._fast, state, judge)) == ["3♣"]
    state.counters["broken"] = 1
    assert _shown(game, game._fast.legal(state)) == ["3♣", "4♥"]
    assert _shown(game, trick_game._fast.legal(game._fast, state, judge)) == ["3♣", "4♥"]
    assert asked == []
    assert _shown(game, game.legal_actions(state)) == [game.deck.format(c) for c in game.playable(state, 0)]


def test_a_ban_on_any_other_condition_is_judged_by_the_script() -> None:
    """HE-V10 with HE-3.5: ``not broken and not holds_only(penalty)`` is no counter's truth: when it
    decides, the game reads it; with one card in hand no condition is read at all."""
    game, state = _leading("hearts/hearts-instead-of-queen", ("3♣", "4♥"))
    asked = []

    def judge(*args):
        asked.append(args[1:])
        return game._judge(*args)

    assert _shown(game, trick_game._fast.legal(game._fast, state, judge)) == ["3♣"]
    assert (0, True, 1) in asked  # the lead bans in order; ``no_lead ♥ when ...`` is the second
    assert _shown(game, game._fast.legal(state)) == ["3♣"]  # the game's own judge, bound when the rules were made
    state.counters["broken"] = 1
    assert _shown(game, game._fast.legal(state)) == ["3♣", "4♥"]
    assert _shown(game, game.legal_actions(state)) == [game.deck.format(c) for c in game.playable(state, 0)]
    state.zones["hand.0"] = [game.deck.parse("3♣")]
    asked.clear()
    assert _shown(game, trick_game._fast.legal(game._fast, state, judge)) == ["3♣"]
    assert asked == []


def test_only_a_play_move_is_played_in_c() -> None:
    """``rules.play`` takes the Action as `Tricks.apply` does: any other kind of move is the Python's."""
    game, state = _leading("hearts/classic", ("3♣", "4♥"))
    before = state.clone()
    three = game.deck.parse("3♣")
    for other in (Action("pass", (three,)), Action("play", ()), ("play",), "play 3♣", Action("bid", (), "3")):
        assert game._fast.play(state, other) is None and state == before
    assert game._fast.play(state, game.plays[three]) == [] and state.zones["trick"] == [three]


def test_a_hand_that_is_not_cards_is_left_to_python() -> None:
    variant = load_variant("hearts/classic")
    game = variant._game
    state = DealState(players=4, dealer=3, to_move=0, zones={"hand.0": [1, "2♣"], "trick": []}, counters={"played": 1})
    assert trick_game._fast.legal(game._fast, state, game._judge) is None
    state.zones = {"hand.0": [True, 1], "trick": [3]}  # True == 1: list.remove would take the first
    assert game._fast.play(state, game.plays[1]) is None
    assert state.zones == {"hand.0": [True, 1], "trick": [3]} and state.to_move == 0
    state.zones, state.to_move = {"hand.0": [1], "trick": [3]}, 7  # a seat the deal has not: Python's KeyError
    assert game._fast.play(state, game.plays[1]) is None
    with pytest.raises(KeyError):
        game.apply(state, game.plays[1])


def test_a_trick_taken_from_a_state_not_as_kept_changes_nothing_in_c() -> None:
    """The last card of a trick with no ``played`` count: the C code reads everything first and leaves it to Python."""
    game = load_variant("hearts/classic")._game
    zones = {f"hand.{s}": [s + 10] for s in range(4)} | {f"taken.{s}": [] for s in range(4)} | {"trick": [1, 2, 3]}
    counters = {"lead": 1, "tricks.0": 0, "tricks.1": 0, "tricks.2": 0, "tricks.3": 0}
    state = DealState(players=4, dealer=3, to_move=0, zones=zones, counters=counters)
    before = state.clone()
    assert game._fast.play(state, game.plays[10]) is None
    assert state == before
    with pytest.raises(KeyError):  # the Python step, as it always was: no count of tricks played
        game.apply(state, game.plays[10])
    state = before.clone()
    state.counters["played"] = 3
    said = game._fast.play(state, game.plays[10])  # HE-3.4: Q♣, the highest club of the trick, takes it
    reference = before.clone()
    reference.counters["played"] = 3
    game._fast, kept = None, game._fast
    try:
        assert said == game.apply(reference, game.plays[10]) and state == reference
        assert state.to_move == 0 and state.zones["taken.0"] == [1, 2, 3, 10] and state.counters["tricks.0"] == 1
    finally:
        game._fast = kept


def test_rules_that_do_not_fit_are_refused_when_made() -> None:
    """The C rules check what they are given once, so a step never reads past a table."""
    game = load_variant("hearts/classic")._game
    fit = game._fast_rules()
    assert fit is not None
    suits = bytes(game.deck.suits.index(game.suit_of[c]) for c in game.deck.ids)
    masks = tuple(sum(1 << c for c in game.of_suit[s]) for s in game.deck.suits)
    keys = tuple(f"hand.{s}" for s in range(16))
    names = tuple(game.deck.format(c) for c in game.deck.ids)
    base = [suits, masks, 1, 0, 0, [], [], game.plays, keys, 1, bytes(52), names, keys, keys, False, (), ()]
    trick_game._fast.Rules(*base)
    for at, bad in [(11, (*names[:-1], 7)), (0, bytes([9]) * 52), (9, 99), (10, bytes(51)), (7, game.plays[:3])]:
        args = list(base)
        args[at] = bad
        with pytest.raises(ValueError):
            trick_game._fast.Rules(*args)


# -- fuzzing: any state at all, the C steps answer as the Python does or leave it to the Python --------------
@st.composite
def any_state(draw: st.DrawFn) -> tuple[str, DealState]:
    """A trick deal in play, well kept or not: cards dealt without repeats, then maybe one thing spoiled."""
    name = draw(st.sampled_from(["hearts/classic", "spades/classic", "briscola/classic", "oh-hell/classic"]))
    players = draw(st.integers(min_value=2, max_value=5))
    deck = list(draw(st.permutations(range(40 if name.startswith("briscola") else 52))))
    zones: dict[str, list] = {"trick": [deck.pop() for _ in range(draw(st.integers(0, players - 1)))]}
    for s in range(players):
        zones[f"hand.{s}"] = [deck.pop() for _ in range(draw(st.integers(0, 4)))]
        zones[f"taken.{s}"] = []
    if draw(st.booleans()):
        zones["stock"] = [deck.pop() for _ in range(draw(st.integers(0, 5)))]
        zones["turned"] = [deck.pop()] if draw(st.booleans()) else []
    counters = {"lead": draw(st.integers(0, players - 1)), "played": draw(st.integers(0, 3))}
    counters |= {f"tricks.{s}": 0 for s in range(players)}
    counters["trump"] = draw(st.integers(0, 4))
    if draw(st.booleans()):
        counters["broken"] = draw(st.integers(0, 1))
    data: dict = {}
    to_move = draw(st.integers(min_value=0, max_value=players - 1))
    spoil = draw(st.integers(0, 14))
    junk = draw(st.sampled_from([True, False, -1, 99, 3.0, "2♣", None, 2**70]))
    if spoil in (1, 12, 13, 14):  # the pass is on: some cards chosen, seats done or not, zones kept or not
        data["choosing"] = draw(st.sampled_from([3, 3, 1, 2, 0, True, -1, "3", None]))
        for s in range(players):
            if draw(st.integers(0, 5)):
                zones[f"chosen.{s}"] = [deck.pop() for _ in range(draw(st.integers(0, 3)))]
            elif draw(st.booleans()):
                zones[f"chosen.{s}"] = junk
    elif spoil == 2:
        counters[draw(st.sampled_from(["bidding", "blind_round"]))] = 1
    elif spoil == 3:
        counters[draw(st.sampled_from(sorted(counters)))] = junk
    elif spoil == 4:
        del counters[draw(st.sampled_from(sorted(counters)))]
    elif spoil == 5:
        zone = draw(st.sampled_from(sorted(zones)))
        zones[zone] = [*zones[zone], junk]
    elif spoil == 6:
        del zones[draw(st.sampled_from(sorted(zones)))]
    elif spoil == 7:
        to_move = draw(st.sampled_from([-1, players, 16, 99]))
    elif spoil == 8:
        zones[draw(st.sampled_from(sorted(zones)))] = junk  # a zone that is not a list
    return name, DealState(players=players, dealer=0, to_move=to_move, zones=zones, counters=counters, data=data)


@functools.cache
def both_ways(name: str) -> tuple:
    """The game with its C steps and the same rules without them, loaded once for the fuzz."""
    game, reference = load_variant(name)._game, load_variant(name)._game
    reference._fast = None
    return game, reference


def outcome(fn, *args):
    try:
        return ("value", fn(*args))
    except Exception as exc:  # the same error, of the same type, from both
        return ("error", type(exc))


@settings(max_examples=400, deadline=None, derandomize=True)
@given(any_state(), st.integers(min_value=-1, max_value=53), st.booleans())
def test_the_c_steps_on_any_state_do_what_the_python_does(
    case: tuple[str, DealState], pick: int, passing: bool
) -> None:
    """Whatever the state holds (not cards, missing zones and counters, a seat out of range, a pass
    half made), no crash: the moves and the state after a move (a card played or passed) are the
    Python's, error for error."""
    name, state = case
    game, reference = both_ways(name)
    a, b = copy.deepcopy(state), copy.deepcopy(state)
    assert outcome(game.legal_actions, a) == outcome(reference.legal_actions, b)
    assert a == b
    hand = state.zones.get(f"hand.{state.to_move}")
    held = [c for c in hand if type(c) is int and 0 <= c < len(game.plays)] if isinstance(hand, list) else []
    card = held[pick % len(held)] if held and pick % 3 else (pick if 0 <= pick < len(game.plays) else 0)
    move = game.choices.moves()[card] if passing else game.plays[card]
    got, expected = outcome(game.apply, a, move), outcome(reference.apply, b, move)
    assert got == expected
    assert a == b


@st.composite
def a_pass_under_way(draw: st.DrawFn) -> tuple[str, DealState]:
    """HE-2.3's pass part made: each seat has chosen some of its cards (``count`` at most), one to choose."""
    name = draw(st.sampled_from(["hearts/classic", "hearts/three-player", "hearts/five-player"]))
    players = {"hearts/three-player": 3, "hearts/five-player": 5}.get(name, 4)
    count = draw(st.integers(1, 4))
    deck = list(draw(st.permutations(range(52))))
    zones: dict[str, list] = {"trick": []}
    for s in range(players):
        zones[f"hand.{s}"] = [deck.pop() for _ in range(draw(st.integers(0, 6)))]
        zones[f"taken.{s}"] = []
        zones[f"chosen.{s}"] = [deck.pop() for _ in range(draw(st.integers(0, count)))]
    to_move = draw(st.integers(0, players - 1))
    counters = {"played": 0, "pass_to": draw(st.integers(1, players - 1))}
    counters |= {f"tricks.{s}": 0 for s in range(players)}
    data = {"choosing": count}
    return name, DealState(players=players, dealer=0, to_move=to_move, zones=zones, counters=counters, data=data)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(a_pass_under_way(), st.integers(min_value=0, max_value=51))
def test_a_card_passed_in_c_is_passed_as_the_python_passes_it(case: tuple[str, DealState], pick: int) -> None:
    """HE-2.3: the moves offered while the pass lasts, and a card chosen (the turn to the next seat
    still choosing; the last choice, which hands the cards on, is the Python's), both ways alike."""
    name, state = case
    game, reference = both_ways(name)
    a, b = copy.deepcopy(state), copy.deepcopy(state)
    assert outcome(game.legal_actions, a) == outcome(reference.legal_actions, b)
    hand = state.zones[f"hand.{state.to_move}"]
    card = hand[pick % len(hand)] if hand and pick % 4 else pick
    move = game.choices.moves()[card]
    assert outcome(game.apply, a, move) == outcome(reference.apply, b, move)
    assert a == b
