"""Plain forms (`tapete.rules.forms`): what a quantity or a rule's part reads, said so compiled steps can read it.

A quantity that declares a form promises that the form reads what its getter reads; the trick
family's C session then makes Oh Hell's and Spades' bidding keys without the script. Here every
registered quantity that declares a form is held to its getter over random deals of every variant
of its game, for every seat; then the forms the compiler gives expressions (worked examples),
and the key a ban's forms make against the key the script's closures make, at every bid."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from children import child

from tapete import Ctx, Variant, load_variant
from tapete.rules import forms
from tapete.testing import seated_counts, variant_names, variant_params
from tapete_plugins.tricks.bidding import BID_KEYS


def every_seat_at_every_step(variant: Variant, seed: str) -> Iterator[tuple[Ctx[Any], int]]:
    """A context for each seat at each of the first 60 steps of a random deal of ``variant``, and the step."""
    players = variant.default_players()
    deal = variant.new_deal(players, seed=seed, record=False)
    chooser = random.Random(seed)
    steps = 0
    while not deal.over and steps < 60:
        state = deal.state
        for seat in range(players):
            yield Ctx(deal.game, state, seat), steps
        moves = deal.legal_actions()
        deal.play(moves[chooser.randrange(len(moves))])
        steps += 1


@pytest.mark.parametrize("name", variant_params())
def test_every_quantity_with_a_form_reads_what_its_getter_reads(name: str) -> None:
    """For each seat at every step of a random deal: forms.value(q.form) == q.get, for every formed quantity."""
    variant = load_variant(name)
    quantities = [q for q in variant.registry.vocabulary(variant.spec.game).quantities.values() if q.form]
    assert {"seat", "dealer"} <= {q.name for q in quantities}  # the core's, in every game
    for ctx, steps in every_seat_at_every_step(variant, f"forms-{name}"):
        for q in quantities:
            assert forms.value(q.form, ctx) == q.get(ctx), (name, q.name, ctx.seat, steps)


@pytest.mark.parametrize("name", variant_params())
def test_every_rule_with_a_form_reads_what_its_closures_read(name: str) -> None:
    """For each seat at every step of a random deal: forms.value(rule.form) == rule(ctx), for every
    compiled rule of the variant that has a form (a call's too: ``leader = holder(2♣)``, ``next(dealer)``)."""
    variant = load_variant(name)
    formed = [c for c in variant.rules.compiled.values() if c.form is not None and not c.const]
    # every variant shipped has one (its leader, at least, or a ban on a counter); a new variant without
    # any fails here, so that this test is seen to check nothing for it
    assert formed, f"{name}: no rule with a plain form"
    for ctx, steps in every_seat_at_every_step(variant, f"rule-forms-{name}"):
        for rule in formed:
            assert forms.value(rule.form, ctx) == rule(ctx), (name, rule.form, ctx.seat, steps)


DEALT, BIDS, SEAT, DEALER = ("counter", "dealt"), ("counter", "bids"), ("seat",), ("dealer",)


@pytest.mark.parametrize(
    ("rule", "parts"),
    [
        # OH-4.3, the hook: the part read once on the left, and the two counters beside the bid weighed
        ("seat == dealer and bids + bidding == dealt", (("==", SEAT, DEALER), BIDS, DEALT)),
        ("bid + bidding > dealt", (("side_sum", BID_KEYS), DEALT)),  # SP-V6's cap: the side's bid
        ("bidding > dealt - 3 * 2", (("-", DEALT, ("const", 6)),)),  # folded where the file is read
        ("bidding > 3", ()),  # nothing read but the bid: one answer for every state
        ("bidding > dealt / 2", None),  # a division: judged by the script
        ("not (seat == dealer) and bids + bidding == dealt", None),  # a part with no form
        ("bidding > tricks", None),  # a quantity that declares none
    ],
)
def test_the_parts_a_ban_reads_once_have_forms_when_each_is_a_plain_read(
    tmp_path: Path, rule: str, parts: tuple[forms.Form, ...] | None
) -> None:
    """`Compiled.key_forms`: the forms of the parts `Compiled.key` reads, or None when one has none."""
    ban = child(tmp_path, "spades/classic", f"no_bid when {rule}").rules.condition("no_bid")
    assert ban is not None
    assert ban.key_forms() == parts


NEXT_DEALER = ("next", DEALER, ("const", 1))


@pytest.mark.parametrize(
    ("rule", "form"),
    [
        ("holder(2♣)", ("holder", 0, NEXT_DEALER)),  # HE-3.1; nobody holding it (a removed card): the dealer's left
        ("next(dealer, 2)", ("next", DEALER, ("const", 2))),
        ("next(holder(3♣))", ("next", ("holder", 1, NEXT_DEALER), ("const", 1))),  # a call of a call
        ("max(dealer, 1)", None),  # a function that declares no form: judged by the script
    ],
)
def test_a_call_has_a_form_when_its_function_makes_one_of_its_arguments_forms(
    tmp_path: Path, rule: str, form: forms.Form | None
) -> None:
    """`Function.form`: the leader rule of a Hearts child, as a plain read of the hands and the dealer."""
    leader = child(tmp_path, "hearts/classic", f"leader = {rule}").rules.expr("leader")
    assert leader is not None
    assert leader.form == form


@pytest.mark.parametrize("name", [n for n in variant_names() if n.split("/")[0] in ("oh-hell", "spades")])
def test_a_bans_forms_make_the_key_its_closures_make_at_every_bid(name: str) -> None:
    """At every bid of random deals, for every player count: the key made from the forms is `Compiled.key`'s.

    A variant without a ban (SP-3, OH-V1's ``no_bid when false``) has its bids offered from bid_max's
    form alone (`Bidding.plain` carries no parts); one whose ban has a part without a form leaves the
    bids to the script (no plain tuple at all)."""
    variant = load_variant(name)
    bidding = variant.new_game().bidding
    plain, ban = bidding.plain(), bidding.ban
    assert plain is not None and plain[3] == ("counter", "dealt")  # bid_max = dealt in every variant here
    if ban is None:
        assert plain[4] is None  # 0 to bid_max, no key to make
        return
    shapes = ban.key_forms()
    assert plain[4] == shapes and shapes is not None
    chooser = random.Random(5)
    bids = 0
    for players in seated_counts(variant):
        for seed in range(3):
            deal = variant.new_deal(players, seed=seed, record=False)
            while not deal.over:
                state = deal.state
                if state.counters.get("bidding"):
                    ctx = Ctx(deal.game, state, state.to_move)
                    assert tuple(forms.value(f, ctx) for f in shapes) == ban.key(ctx)
                    bids += 1
                moves = deal.legal_actions()
                deal.play(moves[chooser.randrange(len(moves))])
    assert bids > 0
