"""A Chinchón deal that can never end is seen for what it is (CH-4.4 reshuffles without limit).

Four stubborn players who always draw from the stock and throw the drawn card
back keep their hands for ever; the court cards go round stock, hand, discard,
reshuffle. The game notices that no hand changed across two full stock
rebuilds; the variant's ``stall`` statement says what then happens: an error
in words (the default, and ``chinchon/fournier``'s: its documents name no such
end), or ``stall = annul``: the deal is void and the same dealer deals again.
"""

from __future__ import annotations

import textwrap

import pytest

from tapete import Action, Match, Random, TapeteError, load_variant
from tapete.view import View

STUBBORN_DEALS = {1}


class Stubborn:
    """Draws from the stock and throws back what it drew; plays at random after the listed deals."""

    def __init__(self, seat: int):
        self.seat = seat
        self.rng = Random(seat, "stubborn")

    def choose(self, view: View, legal: list[Action]) -> Action:
        if view.deal_number not in STUBBORN_DEALS:
            return legal[self.rng.below(len(legal))]
        if legal[0].kind == "draw":
            before = set(view.hand)
            self._before = before
            return Action("draw", (), "stock")
        drawn = [c for c in view.hand if c not in self._before]
        return Action("discard", (drawn[0],))


def stalled_match(variant):
    return Match(variant, 4, seed=2, bots=["random"], agents=[Stubborn(s) for s in range(4)])


def test_a_deal_where_no_hand_changes_over_two_rebuilds_stops_with_an_error_in_words():
    match = stalled_match(load_variant("chinchon/fournier"))
    with pytest.raises(TapeteError) as info:
        match.play()
    message = str(info.value)
    assert "deal 1 of chinchon/fournier (seed 2) stalled" in message
    assert "no hand has changed across two full stock rebuilds" in message
    assert "stall = annul" in message  # the words that would end such a deal
    assert match.state is not None and match.state.counters["rebuilds"] == 3


def test_with_stall_annul_the_deal_is_void_and_the_same_dealer_deals_again(tmp_path):
    (tmp_path / "annul.rules").write_text("stall = annul   # a stalled deal is void\n", encoding="utf-8")
    (tmp_path / "annul.yaml").write_text(
        textwrap.dedent(
            """\
            extends: chinchon/fournier
            name: annul
            scripts: [annul.rules]
            """
        ),
        encoding="utf-8",
    )
    events: list[dict] = []
    result = stalled_match(load_variant(tmp_path / "annul.yaml")).play(events.append)
    deals = [e for e in events if e["type"] == "deal"]
    void = [e for e in events if e["type"] == "void"]
    assert len(void) == 1 and void[0]["number"] == 1
    assert void[0]["reason"].startswith("stalled: no hand has changed")
    assert deals[1]["dealer"] == deals[0]["dealer"]  # the same dealer deals again
    assert all(e["number"] != 1 for e in events if e["type"] == "score")  # a void deal scores nothing
    assert result.winner >= 0


def test_stall_takes_only_error_or_annul(tmp_path):
    (tmp_path / "bad.rules").write_text("stall = forever\n", encoding="utf-8")
    (tmp_path / "bad.yaml").write_text("extends: chinchon/fournier\nname: bad\nscripts: [bad.rules]\n")
    with pytest.raises(TapeteError) as info:
        load_variant(tmp_path / "bad.yaml")
    assert "bad.rules:1:" in str(info.value) and "forever" in str(info.value)


def test_the_default_heuristic_bots_finish_the_four_player_seeds_that_used_to_stall():
    variant = load_variant("chinchon/fournier")
    for seed in (1, 2, 13, 16, 22, 35):
        result = Match(variant, 4, seed, bots=["heuristic"]).play()
        assert result.winner in range(4)
