"""The word author's kit: `constant`, `Compiled.bound`, `Compiled.truth`, `Compiled.prepare`, `Ctx.bound`, `suggest`.

A family writes its rule words with what ``tapete`` exports: a ``check`` reads its
statement's words and folds its value with `constant`; a fast path asks the compiled rule
for a plain limit (`Compiled.bound`) instead of reading the rule's syntax tree; a game that
keeps one `Ctx` for speed points it at a deal for a ``with`` block and keeps nothing after.
"""

from __future__ import annotations

import dataclasses
import gc

import pytest
from children import child

from tapete import (
    CONSTANT,
    SEAT_IN_DEAL,
    Ctx,
    DealState,
    Env,
    ErrorList,
    Quantity,
    Random,
    Statement,
    StatementSpec,
    build_registry,
    constant,
    hookimpl,
    load_variant,
)
from tapete.core.errors import suggest
from tapete.testing import variant_names, variant_params


# -- Compiled.bound: a condition that is a plain limit ----------------------------------------
@pytest.mark.parametrize(
    ("rule", "unmatched", "loose"),
    [
        ("close when unmatched <= close_limit", 5, None),  # an option: CH-4.3's 5 points
        ("close when unmatched <= 2 + 1", 3, None),  # folded at load time
        ("close when loose_cards <= 1", None, 1),
        ("close when unmatched < 6", None, None),  # another shape says nothing
        ("close when unmatched <= close_limit and turn_number > 1", None, None),  # CH-V8's rule
        ("close when unmatched <= loose_cards", None, None),  # not a number known at load time
    ],
)
def test_a_condition_reading_quantity_at_most_n_gives_n(tmp_path, rule, unmatched, loose):
    variant = child(tmp_path, "chinchon/fournier", rule)
    close = variant.rules.condition("close")
    assert close is not None
    assert (close.bound("unmatched"), close.bound("loose_cards")) == (unmatched, loose)
    assert variant.new_game().close_limit == unmatched  # Chinchón's fast path takes what the rule says


@pytest.mark.parametrize(
    ("condition", "truth"),
    [
        ("broken", ("broken", True)),  # a quantity's own truth
        ("not broken", ("broken", False)),
        ("not not first_trick", ("first_trick", True)),
        ("broken and first_trick", None),  # another shape says nothing
        ("tricks <= 2", None),
        ("not (tricks <= 2)", None),
    ],
)
def test_a_condition_that_is_one_quantitys_truth_says_which_and_which_way(tmp_path, condition, truth):
    """`Compiled.truth`: the short cut Hearts' ``no_lead ♥ when not broken`` takes (the trick family
    reads the counter behind the quantity in C instead of calling the rule back), told on a new ban."""
    variant = child(tmp_path, "hearts/classic", f"no_lead ♦ when {condition}")
    game = variant.new_game()
    [when] = [when for cards, when in game.lead_bans if cards == frozenset(game.of_suit["♦"])]
    assert when.truth() == truth


@pytest.mark.parametrize("name", variant_names("chinchon") + variant_names("gin"))
def test_the_closes_of_a_turn_are_the_cards_the_close_rule_allows_one_by_one(name):
    """CH-4.3: ``closes()`` (a plain limit answered by the penalties alone, or the rule per card)
    allows exactly the closing discards the rule allows when judged card by card."""
    variant = load_variant(name)
    game, rng, turns = variant.new_game(), Random(7), 0
    for seed in range(3):
        deal = variant.new_deal(players=variant.default_players(), seed=seed, record=False)
        for _ in range(150):
            if deal.over:
                break
            state, seat = deal.state, deal.state.to_move
            if state.counters.get("drawn", 0) == 1:
                turns += 1
                one_by_one = {c for c in state.zones[f"hand.{seat}"] if game.close_shown(state, seat, c) is not None}
                assert set(game.closes(state, seat)) == one_by_one
            legal = [a for a in deal.legal_actions() if a.kind != game.close_kind] or deal.legal_actions()
            deal.play(legal[rng.below(len(legal))])
    assert turns > 50


# -- constant: folding a statement's value in a check -------------------------------------------
def _bonus_cards(statement: Statement, env: Env) -> int:
    assert statement.value is not None
    value = constant(statement.value, env)
    if not isinstance(value, int):
        raise env.error(statement.value.pos, f"bonus_cards must be a whole number, not {value!r}")
    return value


class BonusCards:
    """A word another plugin adds to Fan Tan, checked with the kit alone."""

    @hookimpl
    def tapete_register_vocabulary(self, register):
        register(
            "fantan",
            StatementSpec("bonus_cards", "a number known at load time", value=SEAT_IN_DEAL, check=_bonus_cards),
        )
        register("fantan", StatementSpec("fixed_cards", "a constant", value=CONSTANT, check=_bonus_cards))


def test_constant_folds_numbers_options_and_their_expressions(tmp_path):
    variant = child(tmp_path, "fantan/pagat", "bonus_cards = wins_to * 2 + 1", build_registry([BonusCards()]))
    assert variant.rules.parsed_words("bonus_cards") == 7  # wins_to is 3


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "bonus_cards = cards_left",
            "'cards_left' is known only during play; here only options and symbols may be used",
        ),
        ("fixed_cards = max(3)", "this must be known when the variant loads (numbers, options, symbols), not in play"),
    ],
)
def test_constant_refuses_what_is_known_only_in_play_at_its_place(tmp_path, line, message):
    with pytest.raises(ErrorList) as info:
        child(tmp_path, "fantan/pagat", line, build_registry([BonusCards()]))
    [error] = info.value.errors
    assert (error.location.line, error.location.column, error.message) == (1, 15, message)


# -- Ctx.bound: a kept context forgets the deal -------------------------------------------------
def test_a_bound_context_reads_the_deal_inside_the_block_and_forgets_it_after():
    state = DealState(players=2, dealer=0)
    ctx = Ctx()
    with ctx.bound(state, 1, {"shown": "x"}) as inside:
        assert inside is ctx and (ctx.state, ctx.seat, ctx.extra) == (state, 1, {"shown": "x"})
    assert (ctx.state, ctx.seat, ctx.extra) == (None, None, {})
    with pytest.raises(ZeroDivisionError), ctx.bound(state):
        ctx.extra["ratio"] = 1 // 0
    assert ctx.state is None  # an error in the rule leaves no reference either
    ctx.state, ctx.seat = state, 0  # by hand, for a rule judged many times a move
    ctx.release()
    assert (ctx.state, ctx.seat) == (None, None)


@pytest.mark.parametrize("name", variant_params())
def test_no_context_of_the_game_holds_the_deal_after_a_move(name):
    """docs/plugins.md: a game never keeps a reference to a state after a method returns."""
    variant = load_variant(name)
    deal = variant.new_deal(players=variant.default_players(), seed=2, record=False)
    rng = Random(2)
    for _ in range(60):
        if deal.over:
            break
        legal = deal.legal_actions()
        deal.play(legal[rng.below(len(legal))])
        if not deal.over:
            deal.game.refusal(deal.state, legal[0])  # the checks a person's move goes through
    holders = [r for r in gc.get_referrers(deal.state) if isinstance(r, Ctx)]
    assert holders == []


# -- suggest: one did-you-mean ---------------------------------------------------------------
def test_suggest_names_the_close_matches_the_way_each_message_did():
    known = ["hand_size", "hand_cards", "stock_cards"]
    assert suggest("hand_sise", known) == " (did you mean 'hand_size'?)"
    assert suggest("hand_sise", known, most=3) == " (did you mean 'hand_size', 'hand_cards'?)"
    assert suggest("fantan/pagt", ["fantan/pagat"], quote=False) == " (did you mean fantan/pagat?)"
    assert suggest("zzz", known) == ""


# -- Compiled.prepare: one rule judged for many values of a quantity that varies -------------
READS: list[int] = []


class Weighing:
    """Words another plugin adds to Fan Tan: a rule judged for several values of ``weighed``."""

    @hookimpl
    def tapete_register_vocabulary(self, register):
        register("fantan", StatementSpec("weigh", "a rule judged for each value weighed", condition=SEAT_IN_DEAL))
        weighed = Quantity("weighed", "the value weighed", SEAT_IN_DEAL, lambda c: c.extra["weighed"], kind="number")
        register("fantan", dataclasses.replace(weighed, varies=True))
        register("fantan", Quantity("read_count", "a count of its reads", SEAT_IN_DEAL, _counted_read, kind="number"))
        # a plugin's quantity that does not say its kind: a condition of it alone is checked as it runs
        untyped = Quantity("weighed_high", "weighed above 2", SEAT_IN_DEAL, lambda c: c.extra["weighed"] > 2)
        register("fantan", dataclasses.replace(untyped, varies=True))


def _counted_read(c: Ctx) -> int:
    READS.append(1)
    return len(c.state.zones[f"hand.{c.seat}"])


@pytest.mark.parametrize(
    ("condition", "errs", "kept", "keyed"),
    [
        ("weighed + read_count > 14", False, True, True),
        ("read_count - weighed == 10 or weighed < 0", False, True, True),
        ("12 / weighed > read_count - 10", True, True, False),  # weighed 0: the same located error, in its turn
        ("not (weighed * 2 > read_count) and read_count > 1", False, True, True),
        ("read_count > 99 and 1 / (weighed - weighed) > 1", False, True, False),  # the right side never read
        ("read_count >= 13", False, True, True),  # nothing varies: read once for all
        # a division or a call that reads the varying quantity is judged whole each time
        ("weighed == 0 or read_count / weighed > 4", False, False, False),
        ("if(weighed > 2, read_count > 5, read_count > 50)", False, False, False),
        # a condition whose kind its words do not say is checked true or false at every call, whole
        ("weighed_high", False, False, False),
        ("read_count > 1 and weighed_high", False, False, False),
    ],
)
def test_a_prepared_rule_answers_as_the_rule_reading_the_rest_once(tmp_path, condition, errs, kept, keyed):
    """`Compiled.prepare`: judged for weighed = -2 ... 5, the prepared rule gives the rule's answers,
    error for error, and reads what does not vary once, where it is written (the trick family's
    ``no_bid``); a call that reads the varying quantity is judged whole each time.

    `Compiled.key`: a rule made of parts read once and the varying quantity alone has a key, the
    parts' values; a hand one card shorter that changes an answer changes the key. A rule with a
    part judged whole has none, so nothing is kept for it."""
    variant = child(tmp_path, "fantan/pagat", f"weigh when {condition}", build_registry([Weighing()]))
    rule = variant.rules.condition("weigh")
    assert rule is not None
    deal = variant.new_deal(players=4, seed=3, record=False)
    extra: dict = {}
    ctx = Ctx(game=deal.game, state=deal.state, seat=0, extra=extra)

    def answer(judge):
        try:
            return judge()
        except Exception as exc:  # the same error, said the same way
            return f"{type(exc).__name__}: {exc}"

    READS.clear()
    plain = []
    for weighed in range(-2, 6):
        extra["weighed"] = weighed
        plain.append(answer(lambda: rule(ctx)))
    plain_reads = len(READS)
    READS.clear()
    prepared, judge = [], rule.prepare(ctx)
    for weighed in range(-2, 6):
        extra["weighed"] = weighed
        prepared.append(answer(judge))
    assert prepared == plain
    assert any(isinstance(a, str) for a in plain) == errs
    if kept:
        assert len(READS) <= condition.count("read_count") < plain_reads
    else:
        assert len(READS) == plain_reads

    key = rule.key(ctx)
    assert (key is not None) == keyed
    if keyed:
        assert rule.key(ctx) == key
        shorter = deal.state.clone()
        shorter.zones["hand.0"].pop()
        other = Ctx(game=deal.game, state=shorter, seat=0, extra=extra)
        answers = []
        for weighed in range(-2, 6):
            extra["weighed"] = weighed
            answers.append(answer(lambda: rule(other)))
        assert answers == plain or rule.key(other) != key  # other answers, another key
