"""Issue 25, classes 7 and 9: what a plugin hands back, and numbers in files, are checked.

A ``tapete_deal_scored`` hook that writes ``nan``, ``10**5000`` or ``True`` or drops a
seat, and a ``tapete_deal_started`` hook that takes a card from a hand, stop the match
with one message naming the plugin (``tapete.play.hook_checks``) instead of ending with
exit 0 and totals of ``nan``, or hanging. A bot registered under a name a ``--bots`` list
cannot hold, a variants folder that is not a folder and a word of the wrong shape leave
that plugin out, named, and everything else works. A 5,000-digit literal in a rule
script is refused at its line, and a score beyond `MAX_SCORE` where it is computed.
"""

from __future__ import annotations

import functools
import math
import os

import pytest
from hostile import cli, tapete
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from tapete import Match, TapeteError, build_registry, hookimpl, load_variant
from tapete.core.limits import MAX_SCORE
from tapete.play.hook_checks import PluginFault, cards_of, score_problem, state_problem

V = "fantan/pagat"


class Scorer:
    """A house rule that rewrites the deal's scores (FT scoring left as the rules give it otherwise)."""

    def __init__(self, change):
        self.change = change

    @hookimpl
    def tapete_deal_scored(self, match, state, scores):
        self.change(scores)


class Thief:
    """A house rule that takes the first card of seat 0's hand when the deal starts."""

    @hookimpl
    def tapete_deal_started(self, match, state):
        state.zones["hand.0"].pop()


class Sleeper:
    @hookimpl
    def tapete_deal_started(self, match, state):
        raise RuntimeError("no config file")


def play_with(plugin):
    reg = build_registry([plugin], entry_points=True)
    v = load_variant(V, reg)
    return Match(v, 4, 1, bots=["random"]).play(lambda e: None)


def first(scores):
    return next(iter(scores))


@pytest.mark.parametrize(
    "change,says",
    [
        (lambda s: s.update({first(s): math.nan}), "seat 0's score is nan (float), not a whole number"),
        (lambda s: s.update({first(s): 10**5000}), "beyond tapete's bound of 1,000,000,000,000,000"),
        (lambda s: s.update({first(s): True}), "seat 0's score is True (bool), not a whole number"),
        (lambda s: s.pop(first(s)), "(missing [0])"),
        (lambda s: s.update({9: 1}), "the scores are for seats [0, 1, 2, 3, 9], not [0, 1, 2, 3]"),
    ],
    ids=["nan", "huge", "bool", "dropped", "extra"],
)
def test_a_scoring_hook_that_breaks_the_scores_is_named_and_the_match_stops(change, says):
    with pytest.raises(PluginFault) as refused:
        play_with(Scorer(change))
    message = str(refused.value)
    assert message.startswith("plugin ") and "broke the deal in tapete_deal_scored" in message
    assert says in message


def test_a_scoring_hook_that_keeps_to_the_rules_plays_on():
    def double(scores):
        for s in scores:
            scores[s] *= 2

    result = play_with(Scorer(double))
    assert all(isinstance(t, int) and t % 2 == 0 for t in result.totals)


def test_a_hook_that_takes_a_card_away_is_named_instead_of_hanging_the_match():
    """Card conservation after every hook that may touch the state (the deck's cards, each in one place)."""
    with pytest.raises(PluginFault, match="broke the deal in tapete_deal_started: the deal holds 1 card"):
        play_with(Thief())


class Crowner:
    """A plugin that rewrites the match's result."""

    def __init__(self, change):
        self.change = change

    @hookimpl
    def tapete_match_ended(self, match, result):
        self.change(result)


@pytest.mark.parametrize(
    "change,says",
    [
        (lambda r: r.totals.__setitem__(0, math.nan), "seat 0's score is nan (float), not a whole number"),
        (lambda r: setattr(r, "winner", 7), "the winner is 7, not a seat of 4 (or -1 for a draw)"),
        (lambda r: r.totals.pop(), "(missing [3])"),
    ],
    ids=["nan", "no-seat", "dropped"],
)
def test_a_result_hook_that_breaks_the_result_is_named(change, says):
    with pytest.raises(PluginFault, match="broke the result in tapete_match_ended") as refused:
        play_with(Crowner(change))
    assert says in str(refused.value)


def test_a_hook_that_fails_is_named_and_the_error_is_a_tapete_error():
    with pytest.raises(PluginFault, match="failed in tapete_deal_started: RuntimeError: no config file"):
        play_with(Sleeper())


def test_without_hooks_the_same_match_plays_as_before():
    a = Match(load_variant(V), 4, 1, bots=["random"]).play(lambda e: None)
    b = play_with(object())
    assert (a.winner, a.totals) == (b.winner, b.totals)


@seed(7)
@settings(max_examples=60, deadline=None, database=None)
@given(
    st.dictionaries(
        st.one_of(st.integers(-2, 6), st.booleans(), st.text(max_size=2)),
        st.one_of(st.integers(), st.floats(), st.booleans(), st.none(), st.text(max_size=3)),
        max_size=6,
    )
)
def test_the_score_check_accepts_exactly_one_bounded_whole_number_per_seat(scores):
    problem = score_problem(scores, [0, 1, 2, 3])
    keys_ok = sorted(scores, key=repr) == [0, 1, 2, 3] and not any(isinstance(k, bool) for k in scores)
    values_ok = all(isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_SCORE for v in scores.values())
    assert (problem is None) == (keys_ok and values_ok)


@functools.cache
def dealt_state_json() -> dict:
    return load_variant(V).new_deal(4, seed=3, record=False).snapshot()


@seed(7)
@settings(max_examples=25, deadline=None, database=None)
@given(st.data())
def test_card_conservation_holds_after_a_hook_exactly_when_it_only_moved_cards(data):
    """A hook may move cards between zones (a house rule's exchange); losing, doubling or inventing one is refused."""
    deal = load_variant(V).deal_from_snapshot(dealt_state_json())
    state = deal.state
    before = cards_of(state)
    kind = data.draw(st.sampled_from(["move", "remove", "double", "invent", "to_move"]))
    src = data.draw(st.sampled_from(sorted(z for z in state.zones if state.zones[z])))
    dst = data.draw(st.sampled_from(sorted(state.zones)))
    card = state.zones[src][data.draw(st.integers(0, len(state.zones[src]) - 1))]
    if kind in ("move", "remove"):
        state.zones[src].remove(card)
    if kind in ("move", "double"):
        state.zones[dst].append(card)
    if kind == "invent":
        state.zones[dst].append(data.draw(st.sampled_from([999, -1])))
    if kind == "to_move":
        state.to_move = data.draw(st.sampled_from([-1, 4, True, "0"]))
    assert (state_problem(state, before) is None) == (kind == "move")


# -- what a plugin registers ------------------------------------------------------------------
class BadBot:
    def __init__(self, name):
        self.name = name

    @hookimpl
    def tapete_register_bots(self, register):
        register(self.name, lambda game, seat, rng: None)


class DeviceFolder:
    @hookimpl
    def tapete_register_variants(self, register):
        register(os.devnull)


class WrongWord:
    @hookimpl
    def tapete_register_vocabulary(self, register):
        register(None, ("not", "a", "word"))


@pytest.mark.parametrize(
    "plugin,says",
    [
        (BadBot("42"), "'42' is not a bot name"),
        (BadBot("a,b"), "'a,b' is not a bot name"),
        (DeviceFolder(), "is not a folder"),
        (WrongWord(), "a word is a tapete.StatementSpec, Quantity or Function, not tuple"),
    ],
    ids=["number", "comma", "device", "word"],
)
def test_a_plugin_registering_what_cannot_work_is_left_out_named_and_the_rest_works(plugin, says):
    reg = build_registry([plugin])
    assert any(says in str(p) for p in reg.problems), [str(p) for p in reg.problems]
    assert "fantan" in reg.games
    assert Match(load_variant(V, reg), 4, 1, bots=["random"]).play(lambda e: None).deals > 0


# -- class 9: numbers in files ----------------------------------------------------------------------
def test_a_5000_digit_literal_in_a_rule_script_is_refused_at_its_line(tmp_path):
    (tmp_path / "big.rules").write_text("score = " + "9" * 5000 + "\n", encoding="utf-8")
    (tmp_path / "v.yaml").write_text("extends: fantan/pagat\nname: big\nscripts: [big.rules]\n", encoding="utf-8")
    run = tapete("check", "v.yaml", cwd=tmp_path)
    assert run.code == 1
    assert run.err.startswith(
        "big.rules:1:9: a number of 5,000 digits is refused; tapete reads numbers of at most 100 digits"
    )


def test_a_product_beyond_the_score_bound_is_refused_where_the_file_is_read(tmp_path):
    product = " * ".join(["999999999"] * 90)
    (tmp_path / "p.rules").write_text(f"score = {product}\n", encoding="utf-8")
    (tmp_path / "p.yaml").write_text("extends: fantan/pagat\nname: prod\nscripts: [p.rules]\n", encoding="utf-8")
    run = cli("check", "p.yaml", cwd=tmp_path)
    assert run.code == 1
    assert run.err.startswith("p.rules:1:9: '*' gives 999,999,998,000,000,001, beyond tapete's bound of ")


def test_a_score_beyond_the_bound_is_refused_where_it_is_computed(tmp_path):
    (tmp_path / "p.rules").write_text("score = 1000000000 * 1000000 * (cards_left + 1)\n", encoding="utf-8")
    (tmp_path / "p.yaml").write_text("extends: fantan/pagat\nname: prod\nscripts: [p.rules]\n", encoding="utf-8")
    v = load_variant(tmp_path / "p.yaml")
    with pytest.raises(TapeteError, match=r"the score rule gives seat \d .* in deal 1, beyond tapete's bound"):
        Match(v, 4, 1, bots=["random"]).play(lambda e: None)
