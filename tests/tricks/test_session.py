"""A deal's own steps (`QuickSteps.session`): a `tapete.Deal` of a trick game plays as the rules' Python does.

Where the C steps are built, a `Deal` in play opens a session on its state: the hands, the trick
and the counters the play changes are read once, kept beside the state, and every change is
written into the state as it is made. Nothing a player or a program sees may differ from the
Python rules: here every trick variant is played at every player count through `Deal` (with
and without the seats' history kept) against the same deal played by the Python rules alone,
and the moves offered, the words said and the whole state are compared after every move. Then
the ways a state changes behind the session: by hand through ``deal.state``, through a
reference kept from before, and in a copy of the deal."""

from __future__ import annotations

import copy
import os
import random
from pathlib import Path

import pytest
from children import child

from tapete import Action, IllegalAction, Random, Variant, load_variant
from tapete.core.ledger import Ledger
from tapete.core.state import DealState
from tapete.play.deal import Deal, DealSteps, start_deal
from tapete.testing import seated_counts, variant_params
from tapete_plugins.tricks import game as trick_game
from tapete_plugins.tricks.bidding import BID_OF_WORD, Bidding

TRICK_GAMES = ("hearts", "briscola", "oh-hell", "spades")
PARAMS = [p for g in TRICK_GAMES for p in variant_params(g)]

if os.environ.get("CI") and trick_game._fast is None:  # CI builds with a compiler: the C steps must be there
    raise AssertionError("tapete_plugins.tricks._fast was not built")
pytestmark = pytest.mark.skipif(trick_game._fast is None, reason="the C steps were not built (no C compiler)")


def python_only(name: str) -> Variant:
    """The variant with its game's C steps taken away: every step by the rules' Python."""
    variant = load_variant(name)
    game = variant.new_game()
    game._fast = game._quick = None
    variant._game = game
    return variant


def lockstep(name: str, players: int, seed: int, record: bool) -> int:
    """One deal through `Deal` and through the Python alone, compared move by move; the moves the session played."""
    fast, plain = load_variant(name), python_only(name)
    deal = fast.new_deal(players, seed=seed, record=record)
    reference = plain.new_deal(players, seed=seed, record=record)
    assert reference._quick_session is None
    assert (deal._quick_session is None) == (fast.new_game()._fast is None)  # no C steps (BR-V4's exchange): none
    chooser = random.Random(seed)
    followed = 0
    while not deal.over:
        moves = deal.legal_actions()
        assert moves == reference.legal_actions(), (name, players, seed, deal.snapshot())
        move = moves[chooser.randrange(len(moves))]
        live = deal._session is not None
        assert deal.play(move) == reference.play(move)
        followed += live and deal._session is not None
        assert deal.snapshot() == reference.snapshot(), (name, players, seed, move)
        assert deal.to_move == reference.to_move
    assert reference.over and deal.legal_actions() == []
    if record:  # every seat's history as its bot is handed it
        for seat in range(players):
            assert list(deal.view(seat).history) == list(reference.view(seat).history)
    return followed


@pytest.mark.parametrize("name", PARAMS)
def test_a_deal_followed_by_its_session_plays_as_the_python_rules(name: str) -> None:
    variant = load_variant(name)
    followed = 0
    for players in seated_counts(variant):
        followed += sum(lockstep(name, players, seed, record=seed == 1) for seed in range(2))
    if variant.new_game()._fast is not None:
        assert followed > 0  # the session played cards in every variant with C steps, not just the Python


def in_play(seed: int = 4) -> Deal:
    """A Hearts deal past the pass and into the second trick, its session following it."""
    deal = load_variant("hearts/classic").new_deal(4, seed=seed, record=False)
    while deal.state.counters.get("played", 0) < 1 or deal.state.zones["trick"]:
        deal.play(deal.legal_actions()[0])
    deal.legal_actions()
    assert deal._session is not None
    return deal


@pytest.mark.parametrize("steps", [DealSteps, Deal], ids=["python twin", "deal"])
def test_the_moves_handed_out_are_the_callers_own_and_an_illegal_one_put_in_them_is_refused(steps: type) -> None:
    """HE-3.2: the seat that can follow suit must; the list `legal_actions` hands out is the caller's to
    change, and a card that does not follow, put into it as the very move object the game plays it with,
    is refused with the reason and changes nothing (the session vouches only for what it offered)."""
    deal = load_variant("hearts/classic").new_deal(4, seed=6, record=False)
    game = deal.game
    chooser = random.Random(2)
    while True:  # on to a follow where the seat holds the suit led and another suit
        moves = steps.legal_actions(deal)
        state = deal._state
        hand, trick = state.zones[f"hand.{state.to_move}"], state.zones["trick"]
        led = game.suit_of[trick[0]] if trick else None
        off = [c for c in hand if game.suit_of[c] != led]
        if moves[0].kind == "play" and led is not None and off and len(off) < len(hand):
            break
        steps.play(deal, moves[chooser.randrange(len(moves))])
    if steps is Deal:
        assert deal._offered is deal._session  # the session keeps no copy: it knows which it offered
    before = deal.snapshot()
    illegal = game.plays[off[0]]  # the very object the game plays that card with
    moves.append(illegal)
    moves[0] = illegal
    with pytest.raises(IllegalAction, match="follow"):
        steps.play(deal, illegal)
    assert deal.snapshot() == before
    again = steps.legal_actions(deal)
    assert illegal not in again and all(game.suit_of[m.cards[0]] == led for m in again)
    steps.play(deal, again[0])
    assert deal.snapshot() != before


def python_moves(deal: Deal) -> list[Action]:
    """The moves the rules' Python offers on a copy of the deal's state."""
    game = load_variant("hearts/classic").new_game()
    game._fast = None
    return list(game.legal_actions(deal.state.clone()))


def test_a_card_moved_by_hand_is_in_the_next_moves_offered() -> None:
    """HE-3.2 on a hand changed through ``deal.state``: the session is dropped, the moves read anew."""
    deal = in_play()
    state = deal.state  # reaching for the state drops the session
    assert deal._session is None and not state.zones["trick"]  # the seat to move leads the second trick
    seat, other = state.to_move, (state.to_move + 1) % 4
    suit_of = deal.game.suit_of
    given = next(c for c in state.zones[f"hand.{other}"] if suit_of[c] != "♥")  # a lead allowed before hearts break
    state.zones[f"hand.{other}"].remove(given)
    state.zones[f"hand.{seat}"].append(given)
    offered = deal.legal_actions()
    assert offered == python_moves(deal)
    lead = next(m for m in offered if m.cards == (given,))
    deal.play(lead)
    assert deal.state.zones["trick"] == [given] and given not in deal.state.zones[f"hand.{seat}"]


def test_a_hand_changed_through_a_reference_kept_from_before_silences_the_session() -> None:
    """The contract is to take ``deal.state`` again before changing it; a hand of another length is
    seen all the same, and the moves come from the state as it is."""
    deal = in_play(7)
    kept: DealState = deal.state
    offered = deal.legal_actions()  # a session again, following the same state
    assert deal._session is not None
    after = (kept.to_move + 1) % 4  # the seat to move next gets a card of the seat across
    kept.zones[f"hand.{after}"].append(kept.zones[f"hand.{(after + 2) % 4}"].pop(0))
    deal.play(offered[0])
    assert deal.to_move == after
    offered = deal.legal_actions()
    assert deal._session is None
    assert offered == python_moves(deal)


def test_a_copy_of_a_deal_opens_its_own_session() -> None:
    deal = in_play(9)
    twin = copy.copy(deal)
    assert twin._session is None  # the session holds the original's lists
    twin.state = deal.state.clone()
    first = twin.legal_actions()[0]
    twin.play(first)
    assert twin._session is not None and twin.snapshot() != deal.snapshot()
    assert deal.legal_actions()[0] == first  # the original, untouched, still offers it


def test_the_session_follows_the_pass_and_the_play_after_it() -> None:
    """HE-2.3: the cards chosen in the pass, then handed on to the left; HE-3.1: the 2♣ leads after it."""
    deal = load_variant("hearts/classic").new_deal(4, seed=2, record=False)
    game = deal.game
    assert game._fast.session(deal.state) is not None  # the pass is on: followed too
    before = {s: list(deal.state.zones[f"hand.{s}"]) for s in range(4)}
    chosen: dict[int, list[int]] = {s: [] for s in range(4)}
    for _ in range(12):
        seat = deal.to_move
        move = deal.legal_actions()[0]
        assert move.kind == "pass" and deal._session is not None
        chosen[seat].append(move.cards[0])
        deal.play(move)
    session = deal._session
    assert session is not None and deal.legal_actions()[0].kind == "play"
    assert deal._session is session  # the same session, reading the hands anew once the cards were handed on
    state = deal.state
    for s in range(4):  # each hand: what it kept, and the three cards of the seat on its right
        assert sorted(state.zones[f"hand.{s}"]) == sorted(
            [c for c in before[s] if c not in chosen[s]] + chosen[(s - 1) % 4]
        )
    two_of_clubs = game.deck.parse("2♣")
    assert two_of_clubs in state.zones[f"hand.{state.to_move}"]


def counting_passed(name: str, extra: str = "", tmp_path: Path | None = None) -> tuple[Variant, list[int]]:
    """The variant (or a child of it with the script line ``extra``) with its game's `Tricks._passed` counted:
    the C steps, made again, hold the counting one."""
    if extra:
        assert tmp_path is not None
        variant = child(tmp_path, name, extra)
    else:
        variant = load_variant(name)
    game = variant.new_game()
    calls: list[int] = []
    passed = game._passed
    game._passed = lambda state: calls.append(state.to_move) or passed(state)  # type: ignore[method-assign]
    game._fast = game._fast_rules()
    game._quick = trick_game.QuickSteps(game._fast.legal, game._fast.play, game._fast.session)
    variant._game = game
    return variant, calls


def a_deal_of_the_match(variant: Variant, players: int, number: int, seed: int) -> Deal:
    """The match's deal ``number`` (its pass direction, HE-2.3), begun by the engine as a match begins it."""
    game = variant._game or variant.new_game()
    ledger = Ledger.fresh(players, number)
    state = start_deal(game, players, seed % players, Random(seed, number), ledger)
    return Deal(variant, game, state, record=False)


@pytest.mark.parametrize("name", ["hearts/classic", "hearts/three-player", "hearts/five-player", "hearts/black-maria"])
def test_the_pass_ends_in_c_for_every_deal_of_the_cycle_as_in_python(name: str) -> None:
    """HE-2.3: the cards go left, right, across or nowhere by the deal's number; HE-3.1, HE-V8, HE-V12: the
    holder of the 2♣ (3♣ at five; the dealer's left when it is removed) leads. The session ends the pass
    without the game's Python (`_passed` is not called), saying and doing what the Python does."""
    fast, calls = counting_passed(name)
    plain = python_only(name)
    players = fast.default_players()
    ways = set()
    for number in (1, 2, 3, 4):
        for seed in range(3):
            deal = a_deal_of_the_match(fast, players, number, seed)
            reference = a_deal_of_the_match(plain, players, number, seed)
            chooser = random.Random(seed)
            while deal.state.counters.get("played", 0) < 1:  # the pass, then the first trick
                moves = deal.legal_actions()
                assert moves == reference.legal_actions()
                move = moves[chooser.randrange(len(moves))]
                said = deal.play(move)
                assert said == reference.play(move)
                ways.update(e["say"] for e in said if "passed" in str(e.get("say")))
                assert deal.snapshot() == reference.snapshot() and deal.to_move == reference.to_move
    assert calls == []  # every pass ended in C
    expected = {"to the left", "to the right", "across"} if players == 4 else {"to the left", "to the right"}
    assert ways == {f"the cards are passed {way}" for way in expected}


def test_a_leader_rule_without_a_form_leaves_the_pass_end_to_the_python(tmp_path: Path) -> None:
    """A leader the C steps cannot read (``max`` declares no form): the game's `_passed` begins the play."""
    variant, calls = counting_passed("hearts/classic", "leader = max(dealer, 1)", tmp_path)
    deal = variant.new_deal(4, seed=3, record=False)
    for _ in range(12):
        deal.play(deal.legal_actions()[0])
    assert len(calls) == 1 and deal.to_move == max(deal.state.dealer, 1)


def test_the_session_follows_the_bids_and_leaves_the_hook_to_the_script() -> None:
    """OH-4.1: each seat bids once, in turn from the dealer's left; OH-4.2: every bid is announced;
    OH-4.3: the dealer, bidding last, may not make the bids total the tricks of the deal."""
    deal = load_variant("oh-hell/classic").new_deal(4, seed=11, record=False)
    state = deal.state
    dealer, dealt = state.dealer, state.counters["dealt"]
    first = deal.legal_actions()
    session = deal._session
    assert session is not None and first[0].kind == "bid" and deal.to_move == (dealer + 1) % 4
    said = []
    for _ in range(3):  # the three seats before the dealer bid 0, 1 and 0
        seat = deal.to_move
        bid = {0: "zero", 1: "one"}[len(said) % 2]
        said += deal.play(next(m for m in deal.legal_actions() if m.detail == bid))
        assert deal._session is session  # followed, bid by bid
        assert deal.to_move == (seat + 1) % 4
    assert said == [{"say": "bids 0"}, {"say": "bids 1"}, {"say": "bids 0"}]
    assert deal.to_move == dealer
    offered = [m.detail for m in deal.legal_actions()]
    hook = ("zero one two three four five six seven eight nine ten".split())[dealt - 1]
    assert hook not in offered and len(offered) == dealt  # 0..dealt less the one bid that makes the total
    counters = deal.state.counters
    assert [counters[f"bid.{(dealer + k) % 4}"] for k in (1, 2, 3)] == [0, 1, 0] and counters["bids"] == 1
    last = deal.legal_actions()[0]
    session = deal._session
    assert deal.play(last) == [{"say": f"bids {BID_OF_WORD[last.detail]}"}]
    assert deal._session is session  # the last bid too: the round ends and the play begins, followed
    assert deal.to_move == (dealer + 1) % 4  # OH-5.1: the player on the dealer's left leads
    assert deal.legal_actions()[0].kind == "play" and deal._session is session


def test_bids_once_judged_for_their_key_are_offered_without_asking_the_script(monkeypatch: pytest.MonkeyPatch) -> None:
    """OH-4.2, OH-4.3: the legal bids depend on the hook's parts (is the seat the dealer, the bids' sum, the
    hand's size); once the script has judged them for those values, the session finds them kept by the key
    its plain forms make (`Bidding.plain`), and a second deal with the same values asks the script nothing."""
    variant = load_variant("oh-hell/classic")
    asked: list[int] = []
    judged = Bidding._judged
    monkeypatch.setattr(Bidding, "_judged", lambda self, state: asked.append(state.to_move) or judged(self, state))

    def round_of_bids(seed: int) -> list[list[str]]:
        deal = variant.new_deal(4, seed=seed, record=False)
        offered = []
        for _ in range(4):
            moves = deal.legal_actions()
            offered.append([m.detail for m in moves])
            deal.play(moves[0])
        assert deal.legal_actions()[0].kind == "play"
        return offered

    first = round_of_bids(1)
    assert asked  # the first time, the script judges (and the game keeps the answers)
    assert first[3] == first[0][:-1]  # the others bid 0: the dealer may bid anything but the hand's size
    asked.clear()
    assert round_of_bids(2) == first and asked == []  # the same hand size, the same bids: nothing asked


def test_the_session_follows_the_draw_after_each_trick() -> None:
    """BR-3.4: the trick's winner draws the stock's top card first, then the other player the next one."""
    deal = load_variant("briscola/classic").new_deal(2, seed=3, record=False)
    before = deal.state  # a reference kept to read from: the deal's moves keep it up to date
    stock = list(before.zones["stock"])
    deal.legal_actions()
    session = deal._session
    assert session is not None  # followed from the first card, the stock full
    events: list[dict[str, object]] = []
    for _ in range(2):
        events += deal.play(deal.legal_actions()[0])
    assert deal._session is session
    winner = deal.to_move  # the winner leads the next trick
    assert "takes the trick" in str(events[-1]["say"])
    assert before.zones["stock"] == stock[:-2]
    assert before.zones[f"hand.{winner}"][-1] == stock[-1]  # the winner's draw: the top card
    assert before.zones[f"hand.{1 - winner}"][-1] == stock[-2]
    assert [len(before.zones[f"hand.{s}"]) for s in (0, 1)] == [3, 3]
