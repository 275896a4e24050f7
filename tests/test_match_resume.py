"""Saving a match in the middle of a deal and going on later gives the same match."""

from __future__ import annotations

import json

import pytest
from conftest import variant

from tapete import Match, SnapshotError


class Saver:
    """An emit callback that saves the match after the n-th event of a kind."""

    def __init__(self, kind: str, nth: int):
        self.kind, self.nth, self.count, self.saved, self.match = kind, nth, 0, None, None

    def __call__(self, event):
        if event["type"] == self.kind:
            self.count += 1
            if self.count == self.nth:
                self.saved = json.dumps(self.match.snapshot(), ensure_ascii=False)


@pytest.mark.parametrize(
    "name,players,kind,nth",
    [
        ("fantan/pagat", 4, "action", 70),
        ("fantan/chips", 5, "score", 2),
        ("chinese-ten/two-player", 2, "action", 30),
        ("chinchon/fournier", 3, "action", 500),
    ],
)
def test_a_resumed_match_ends_exactly_as_the_uninterrupted_one(name, players, kind, nth):
    v = variant(name)
    whole = Match(v, players, seed=12, bots=["random"])
    saver = Saver(kind, nth)
    saver.match = whole
    full = whole.play(saver)
    assert saver.saved is not None
    resumed = Match.resume(v, json.loads(saver.saved))
    rest = resumed.play()
    assert (rest.winner, rest.totals, rest.deals_won, rest.deals) == (
        full.winner,
        full.totals,
        full.deals_won,
        full.deals,
    )


def test_a_broken_match_snapshot_is_refused_whole():
    v = variant("fantan/pagat")
    m = Match(v, 4, seed=1)
    snap = m.snapshot()
    for change, message in [
        (lambda s: s["ledger"].pop("totals"), "broken match snapshot"),
        (lambda s: s.__setitem__("variant", "fantan/nines"), "of fantan/nines"),
        (lambda s: s.__setitem__("dealer", 7), "dealer 7 is not a seat"),
        (lambda s: s["ledger"].__setitem__("totals", [0, 0]), "4 entries"),
    ]:
        broken = json.loads(json.dumps(snap))
        change(broken)
        with pytest.raises(SnapshotError, match=message):
            Match.resume(v, broken)
