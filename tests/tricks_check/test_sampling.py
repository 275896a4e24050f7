"""The search's imagined Hearts deals are exactly the deals the seat cannot rule out, drawn uniformly.

(i) Every deal the determiniser imagines for the seat to move, after 3, 6 and 9 tricks of
random deals, replays: the public history, renamed into it, is legal at every step (a seat
that did not follow suit held none of it, HE-3.2; a heart led before hearts were broken came
from a hand of hearts only, HE-3.5; a penalty card on the first trick from a hand with no
other choice, HE-3.3), the seat is shown the same at every step, the cards it passed stay
where it passed them (HE-2.3) and the replay arrives at the imagined deal. Briscola's hands
are refilled from the stock after each trick (BR-3.4), so its imagined stock must deal the
same way. The everyday run draws 360 Hearts samples and 180 Briscola ones; the slow one
10,008 Hearts samples (``tapete.search.worlds.impossibility``).

(ii) On a twelve-card Hearts (2, 3 and Q of each suit, three cards each, no pass), and on the
same cards an Oh Hell of three players after their bids (three cards each, a turned trump and
two in the stock), every deal of the unseen cards after the first trick is enumerated and judged by the same replay; the
determiniser's frequencies over the possible ones must pass a χ² test of uniformity
(p > 0.01), and it must never draw an impossible one.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from sampling_helpers import every_world, hidden_room, impossible_worlds, walk, world_key

from tapete import Random, load_variant, registry
from tapete.core.actions import Action
from tapete.search.determinise import Determiniser

TRICKS = (3, 6, 9)


def impossible_share(
    name: str, positions: int, samples: int, tricks: tuple[int, ...] = TRICKS
) -> tuple[int, int, list[str]]:
    """(impossible, sampled, a few reasons) over ``positions`` random deals at each number of ``tricks``."""
    v = load_variant(name)
    players = v.default_players()
    rng = Random(name, "samples")
    bad: list[str] = []
    total = 0
    for k in tricks:
        for p in range(positions):
            walked = walk(v, players, 1000 * k + p, lambda moves, k=k: _plays(moves) >= k * players)
            assert walked is not None, f"{name}: a deal ended before {k} tricks"
            bad += impossible_worlds(walked, samples, rng)
            total += samples
    return len(bad), total, bad[:3]


def _plays(moves: list[Action]) -> int:
    return sum(1 for a in moves if a.kind == "play")


@pytest.mark.parametrize(
    ("name", "positions"),
    [("hearts/classic", 12), ("briscola/classic", 6), ("oh-hell/classic", 3), ("spades/classic", 3)],
)
def test_every_imagined_deal_replays(name, positions):
    """Imagined deals after 3, 6 and 9 tricks (HE-2.3, HE-3.2, HE-3.3, HE-3.5; BR-3.4 the draws; the bids made
    before play, OH-4.1, SP-3.1, and a nil bidder's voids, SP-4.2): none impossible."""
    impossible, total, why = impossible_share(name, positions, 10)
    assert total == 30 * positions
    assert impossible == 0, f"{impossible} of {total} imagined deals cannot have happened, e.g. {why}"


@pytest.mark.slow
def test_ten_thousand_imagined_deals_replay():
    """10,008 imagined deals of hearts/classic after 3, 6 and 9 tricks: 0 impossible."""
    impossible, total, why = impossible_share("hearts/classic", 139, 24)
    assert total >= 10_000
    assert impossible == 0, f"{impossible} of {total} imagined deals cannot have happened, e.g. {why}"


# the variants whose rules of play change what the play proves (the lead, the bans, the deck, the seats)
PLAY_RULES = [
    "hearts/any-club",
    "hearts/black-maria",
    "hearts/five-player",
    "hearts/hearts-instead-of-queen",
    "hearts/points-first-trick",
    "hearts/queen-does-not-break",
    "briscola/cambio",
    "briscola/four-player",
]


@pytest.mark.parametrize("name", PLAY_RULES)
def test_each_variant_imagines_only_possible_deals(name):
    """HE-V2, HE-V3, HE-V4, HE-V8, HE-V10, HE-V12, BR-V1, BR-V4: 12 imagined deals each, none impossible."""
    impossible, total, why = impossible_share(name, 1, 4)
    assert total == 12
    assert impossible == 0, f"{impossible} of {total} imagined deals cannot have happened, e.g. {why}"


def _depths(name: str) -> tuple[int, ...]:
    """The tricks after which to imagine deals: 3, 6 and 9, or as many of them as the first deal has, with
    its last trick for the rest (Oh Hell's one-card start, OH-V3 up, and OH-V2's short fixed hands; Briscola's
    and every other game's first deal lasts 9 tricks or more)."""
    v = load_variant(name)
    if not v.new_game().bidding.used:
        return TRICKS
    dealt = len(v.new_deal(v.default_players(), seed=0).state.zones["hand.0"])
    return tuple(sorted({min(k, dealt - 1) for k in TRICKS}))


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", sorted(n for n in registry().variants() if n.startswith(("hearts/", "briscola/", "oh-hell/", "spades/")))
)
def test_every_variant_imagines_only_possible_deals(name):
    """Every trick variant, 48 imagined deals after 3, 6 and 9 tricks, or after as many tricks as its first deal
    has (the bids before play included, OH-4, SP-3): none impossible."""
    depths = _depths(name)  # asked here, not while the suite is collected: loading costs seconds
    impossible, total, why = impossible_share(name, 6, 8, depths)
    assert total == 48 * len(depths)
    assert impossible == 0, f"{impossible} of {total} imagined deals cannot have happened, e.g. {why}"


TINY = """\
# Twelve cards (2, 3 and Q of each suit), three each, no pass: small enough to enumerate.
extends: hearts/classic
name: tiny
summary: Hearts on twelve cards, for counting every deal
scripts: [tiny.rules]
"""
TINY_RULES = "deck ranks 2 3 Q suits ♣ ♦ ♥ ♠\npass_cycle hold\n"


TINY_OH_HELL = """\
# The same twelve cards for three players, three each, one turned for trumps and two left in the stock:
# the bids (OH-4) come before the play, and the stock is as unseen as the hands.
extends: oh-hell/classic
name: tiny
summary: Oh Hell on twelve cards, for counting every deal
players: 3
scripts: [tiny.rules]
"""
TINY_OH_HELL_RULES = "deck ranks 2 3 Q suits ♣ ♦ ♥ ♠\nplayers = 3\nhand_size = 3\n"


def tiny_positions(folder: Path, wanted: int, first_seed: int = 0, game: str = "hearts"):
    """Positions after the first trick of the tiny deck where the play rules out some deal of the unseen cards."""
    text, rules, players = (TINY, TINY_RULES, 4) if game == "hearts" else (TINY_OH_HELL, TINY_OH_HELL_RULES, 3)
    (folder / "tiny.yaml").write_text(text, encoding="utf-8")
    (folder / "tiny.rules").write_text(rules, encoding="utf-8")
    v = load_variant(str(folder / "tiny.yaml"))
    found = []
    seed = first_seed
    while len(found) < wanted:
        seed += 1
        walked = walk(v, players, seed, lambda moves: _plays(moves) >= players)
        if walked is None or walked.deal.over:
            continue
        possible, tried = every_world(walked)
        if 1 < len(possible) < tried:
            found.append((walked, possible, tried))
    return found


@pytest.mark.parametrize("game", ["hearts", "oh-hell"])
def test_the_tiny_deck_is_sampled_uniformly(tmp_path, game):
    """χ² over every possible deal of the unseen cards, 200 samples each: p > 0.01, no impossible deal
    (Oh Hell's after the bids, OH-4, which rule out no card: only the voids of the first trick do)."""
    for i, (walked, possible, tried) in enumerate(tiny_positions(tmp_path, 3, game=game)):
        pool, room = hidden_room(walked)
        unseen = set(pool)
        keys = {world_key(w, room, unseen) for w in possible}
        assert len(keys) == len(possible)
        view = walked.deal.view(walked.deal.to_move)
        sampler = Determiniser(walked.deal.game, view)
        rng = Random(i, "chi2")
        n = 200 * len(keys)
        counts = Counter(world_key(sampler.sample(rng), room, unseen) for _ in range(n))
        assert set(counts) <= keys, f"imagined {len(set(counts) - keys)} deals that cannot have happened"
        observed = [counts.get(k, 0) for k in sorted(keys)]
        from scipy.stats import chisquare  # here, not while the suite is collected: SciPy takes a second

        p = chisquare(observed).pvalue
        assert p > 0.01, f"{len(keys)} possible deals of {tried}: χ² p = {p:.4f}, counts {sorted(observed)}"
