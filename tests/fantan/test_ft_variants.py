"""Fan Tan's documented variants (FT-V1 ... FT-V5) and a family variant written without Python."""

from __future__ import annotations

import pytest
from conftest import variant

from tapete import IllegalAction, Match, load_variant

from .helpers import fantan, legal


def test_ft_v2_the_holder_of_the_opening_card_leads_with_it():
    """FT-V2: the holder of 7♦ moves first, and 7♦ is the only legal first card."""
    v = variant("fantan/opening-card")
    for seed in range(6):
        deal = v.new_deal(4, seed=seed)
        seven = v.rules.deck.parse("7♦")
        assert seven in deal.state.zones[f"hand.{deal.to_move}"]
        assert legal(deal) == {"play 7♦"}
        deal.play("play 7♦")
        assert len(legal(deal)) >= 1


def test_ft_v2_the_opening_card_is_an_option():
    """FT-V2: some tables open with 7♥ instead."""
    v = load_variant("fantan/opening-card", options={"opening_card": "7♥"})
    deal = v.new_deal(5, seed=2)
    assert legal(deal) == {"play 7♥"}


def test_ft_v3_chip_pool_antes_pass_payments_and_collection():
    """FT-V3: all ante 1 (short hands 1 more), passes pay 1, the winner takes the pool + 1 per card left."""
    events = []
    result = Match(variant("fantan/chips"), 5, seed=4).play(events.append)
    assert sum(result.totals) == 0  # chips only change hands
    first = next(e for e in events if e["type"] == "deal")
    sizes = [len(z) for k, z in first["state"]["zones"].items() if k.startswith("hand.")]
    assert first["state"]["counters"]["pool"] == 5 + sum(1 for n in sizes if n < max(sizes))


def test_ft_v3_winner_collects_pool_and_cards_left():
    """FT-V3 worked through: one pass paid, the winner goes out; scores follow the chip rule."""
    deal = fantan(
        ["8♥", "2♠ 3♠ 4♠", "5♠ 6♠"],
        rows={"♥": "7♥"},
        to_move=1,
        variant="fantan/chips",
        counters={"pool": 4, "paid.0": 1, "paid.1": 1, "paid.2": 2, "dealt.0": 18, "dealt.1": 17, "dealt.2": 17},
    )
    deal.play("pass")  # seat 1 has nothing: pays 1
    deal.play("pass")  # seat 2 too
    deal.play("play 8♥")  # seat 0 goes out
    from tapete import Ctx
    from tapete.core.ledger import Ledger

    score = deal.variant.rules.expr("score")
    ctx = Ctx(game=deal.game, state=deal.state, ledger=Ledger(3))
    got = []
    for s in range(3):
        ctx.seat = s
        got.append(score(ctx))
    assert got == [6 + 5 - 1, -3 - 2, -2 - 3]  # pool 6 + 5 cards left - own ante
    assert sum(got) == 0


def test_ft_v4_penalty_points_to_100_lowest_total_wins():
    """FT-V4: one point per card left; the match ends when someone reaches 100; lowest total wins."""
    result = Match(variant("fantan/points"), 4, seed=6).play()
    assert max(result.totals) >= 100
    assert result.totals[result.winner] == min(result.totals)
    for deal in result.history:
        assert list(deal["scores"].values()).count(0) == 1


def test_ft_v5_eight_before_six():
    """FT-V5: in each suit the 6 can only follow once the 8 is down."""
    deal = fantan(["6♥ 8♥", "2♠", "3♠"], rows={"♥": "7♥"}, variant="fantan/eight-before-six")
    assert legal(deal) == {"play 8♥"}
    with pytest.raises(IllegalAction):
        deal.play("play 6♥")
    deal.play("play 8♥")
    deal.play("pass")
    deal.play("pass")
    assert legal(deal) == {"play 6♥"}


def test_nines_changes_deck_and_start_rank_with_no_python():
    """A Fan Tan-family variant from files only: a 36-card deck whose rows open at the nines."""
    v = variant("fantan/nines")
    assert len(v.rules.deck) == 36
    deal = v.new_deal(4, seed=1)
    nines = {a.text(v.rules.deck) for a in deal.legal_actions()}
    assert nines and all(t.startswith("play 9") for t in nines) or nines == {"pass"}
    result = Match(v, 4, seed=1).play()
    assert result.deals_won[result.winner] == 3


def test_changing_the_script_changes_the_game(tmp_path):
    """A variant whose rows start at 8 (a one-line script) opens rows with eights, not sevens."""
    (tmp_path / "eights.rules").write_text("row start 8\n", encoding="utf-8")
    (tmp_path / "eights.yaml").write_text(
        "extends: fantan/pagat\nname: eights\nscripts: [eights.rules]\n", encoding="utf-8"
    )
    v = load_variant(tmp_path / "eights.yaml")
    deal = fantan(["7♣ 8♣ 8♦"], variant="fantan/pagat")
    snap = deal.snapshot()
    snap["players"] = 1
    changed = v.deal_from_snapshot(snap, partial=True)  # a worked example: only three cards
    assert legal(deal) == {"play 7♣"}
    assert legal(changed) == {"play 8♣", "play 8♦"}


def test_an_opening_card_that_is_no_card_of_the_deck_is_refused_at_its_statement(tmp_path):
    """FT-V2 on a file whose opening card was mangled (re-saved as Latin-1: 7♥ became 7?)."""
    import pytest

    from tapete import ErrorList, load_variant

    (tmp_path / "o.rules").write_text('opening = "7?"\nleader = 0\n', encoding="utf-8")
    (tmp_path / "o.yaml").write_text("extends: fantan/pagat\nname: o\nscripts: [o.rules]\n", encoding="utf-8")
    with pytest.raises(ErrorList) as caught:
        load_variant(str(tmp_path / "o.yaml"))
    assert "o.rules:1:" in str(caught.value) and "the opening card: no card '7?'" in str(caught.value)
