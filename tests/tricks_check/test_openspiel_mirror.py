"""tapete's Hearts deal by deal against OpenSpiel's ``hearts``: the same legal moves at every decision, the same points.

Runs when the ``bench`` extra (open-spiel) is installed; CI installs it. Each deal of a
tapete match (random moves, and some deals steered towards a moon) is set up in OpenSpiel
with the same dealt cards and the pass direction of tapete's cycle (HE-2.3: left, right,
across, hold; forced at OpenSpiel's root, whose chance outcomes offer every direction even
without passing), then every move is mirrored. At every decision both must offer the same
player the same cards (the pass included), and at the end each player's points must agree
(OpenSpiel returns 26 - points; a moon, HE-4.2, is 26 for the shooter and 0 for the others).

Each of OpenSpiel's eight boolean parameters is played against its tapete twin, a variant of
the Hearts folder (docs/hearts-openspiel.md has the table; ``must_break_hearts=false``, which
no HE variant has, is ``hearts/hearts-any-time``).
OpenSpiel has no dealer: its ``can_lead_any_club`` lets the holder of 2♣ lead any club, where
HE-V2 has the player left of the dealer lead; the two agree on deals where that player holds
2♣ when play begins, and those are the deals mirrored for it (2♣ is dealt to that player and
never passed). Random play shoots the moon about once in a hundred deals, so every third deal
gives one seat the 13 highest cards and plays it high (HE-4.2 is met in 10-30 % of them).

The settings are also played together, two to four at a time (seeded choices; the twins'
rule lines in a chain of files extending hearts/classic): 3 combinations of 5 deals every
run, 10 of 60 under slow.

``TAPETE_OPENSPIEL_DEALS`` sets the deals per setting of the slow run (default 120: 1,080
deals in all); the everyday run mirrors 5 per setting.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tapete_variants
from children import child_file
from openspiel_twin import PASS, Twin, card_codes

from tapete import Random, load_variant
from tapete.core.actions import Action
from tapete.play.match import Match

# OpenSpiel setting -> (its parameters, the tapete variant that plays it)
TWINS: dict[str, tuple[dict[str, bool], str]] = {
    "default": ({}, "hearts/classic"),  # HE-2.3, HE-3.1 to HE-3.5, HE-4.1, HE-4.2
    "pass_cards=false": ({"pass_cards": False}, "hearts/no-passing"),  # HE-V1
    "can_lead_any_club": ({"can_lead_any_club": True}, "hearts/any-club"),  # HE-V2
    "no_pts_on_first_trick=false": ({"no_pts_on_first_trick": False}, "hearts/points-first-trick"),  # HE-V3
    "qs_breaks_hearts=false": ({"qs_breaks_hearts": False}, "hearts/queen-does-not-break"),  # HE-V4
    "jd_bonus": ({"jd_bonus": True}, "hearts/omnibus"),  # HE-V7
    "avoid_all_tricks_bonus": ({"avoid_all_tricks_bonus": True}, "hearts/no-trick-bonus"),  # HE-V9
    "can_lead_hearts_instead_of_qs": (
        {"can_lead_hearts_instead_of_qs": True},
        "hearts/hearts-instead-of-queen",
    ),  # HE-V10
    "must_break_hearts=false": ({"must_break_hearts": False}, "hearts/hearts-any-time"),  # no HE-V id
}
SLOW_DEALS = int(os.environ.get("TAPETE_OPENSPIEL_DEALS", "120"))
QUICK_DEALS = 5
CYCLE = {1: 1, 2: 3, 3: 2, 0: 0}  # deal number % 4 -> OpenSpiel's direction (HE-2.3: left, right, across, hold)


Policy = Callable[[int, list[Action], Any], Action]


def _random_policy(rng: Random) -> Policy:
    def choose(seat: int, legal: list[Action], state: Any) -> Action:
        return legal[rng.below(len(legal))]

    return choose


def _moon_policy(game: Any, state: Any, rng: Random) -> Policy:
    """A deal steered to a moon (HE-4.2): one seat is dealt the 13 highest cards, passes its lowest
    and plays its highest; the others dump their penalty cards when they can and else play low."""
    pos = game.rules.order_pos
    shooter = rng.below(4)
    mine = state.zones[f"hand.{shooter}"]
    two_clubs = game.deck.parse("2♣")  # stays where it is: it chose the first leader already
    keep = 1 if two_clubs in mine else 0
    best = sorted((c for s in range(4) for c in state.zones[f"hand.{s}"]), key=lambda c: pos[c])[keep - 13 :]
    for card in best:
        if card not in mine:
            other = state.zones[f"hand.{next(s for s in range(4) if card in state.zones[f'hand.{s}'])}"]
            give = next(c for c in mine if c not in best and c != two_clubs)
            mine[mine.index(give)], other[other.index(card)] = card, give
    penalty = {game.deck.parse("Q♠")} | {c for c in game.deck.ids if game.deck.suit_of[c] == "♥"}

    def choose(seat: int, legal: list[Action], state: Any) -> Action:
        ranked = sorted(legal, key=lambda a: pos[a.cards[0]])
        if seat == shooter:
            return ranked[0] if legal[0].kind == "pass" else ranked[-1]
        dump = [a for a in ranked if a.cards[0] in penalty]
        return dump[-1] if dump and legal[0].kind == "play" else ranked[0]

    return choose


def mirror_deal(game: Any, settings: dict[str, bool], state: Any, choose: Policy, rig_club: bool) -> Twin:
    """Play one tapete deal with ``choose``, OpenSpiel alongside; assert the same choices at every decision.

    Returns the OpenSpiel twin at the end of the deal (``state`` is at its end too)."""
    code = card_codes(game.deck)
    two_clubs = game.deck.parse("2♣")
    if rig_club:  # HE-V2 against can_lead_any_club: the player left of the dealer holds 2♣
        leader = game.next_seat(state, state.dealer)
        holder = next(s for s in range(4) if two_clubs in state.zones[f"hand.{s}"])
        if holder != leader:
            mine, theirs = state.zones[f"hand.{leader}"], state.zones[f"hand.{holder}"]
            swap = mine[0]
            mine[0], theirs[theirs.index(two_clubs)] = two_clubs, swap
    dealt = [[code[c] for c in state.zones[f"hand.{s}"]] for s in range(4)]
    direction = state.counters.get("pass_to", 0)
    passes: dict[int, list[tuple[int, set[int]]]] = {s: [] for s in range(4)}  # seat -> (card, legal cards)
    twin: Twin | None = None
    while not state.over:
        seat = state.to_move
        legal = game.legal_actions(state)
        cards = {code[a.cards[0]] for a in legal}
        if legal[0].kind == "pass":
            options = [a for a in legal if not (rig_club and a.cards[0] == two_clubs)]
            action = choose(seat, options, state)
            passes[seat].append((code[action.cards[0]], cards))
        else:
            if twin is None:  # the pass is over: OpenSpiel deals, then passes player by player
                twin = Twin(settings, dealt, direction)
                for p in range(4):
                    assert len(passes[p]) == (PASS if direction else 0)
                    for card, offered in passes[p]:
                        assert twin.to_move == p
                        assert twin.legal() == offered, f"pass of seat {p}: tapete {offered}, OpenSpiel {twin.legal()}"
                        twin.move(card)
            assert twin.to_move == seat, f"tapete has seat {seat} to play, OpenSpiel player {twin.to_move}"
            assert twin.legal() == cards, (
                f"seat {seat}, trick {state.counters['played'] + 1}: tapete offers {sorted(cards)}, "
                f"OpenSpiel {sorted(twin.legal())}"
            )
            action = choose(seat, legal, state)
            twin.move(code[action.cards[0]])
        assert game.refusal(state, action) is None
        game.apply(state, action)
    assert twin is not None and twin.over
    return twin


def mirror(name: str, deals: int) -> dict[str, int]:
    """Mirror ``deals`` deals of the setting's twin; the counts of deals, moons and pass directions seen."""
    settings, twin = TWINS[name]
    return mirror_variant(settings, load_variant(twin), deals, name)


def mirror_variant(settings: dict[str, bool], v: Any, deals: int, name: str) -> dict[str, int]:
    """Mirror ``deals`` deals of variant ``v`` against OpenSpiel's hearts with ``settings``."""
    deck = v.new_game().deck
    moon = {deck.parse("Q♠")} | {c for c in deck.ids if deck.suit_of[c] == "♥"}  # HE-4.2
    seen = {"deals": 0, "moons": 0, "directions": 0}
    directions: set[int] = set()
    seed = 0
    while seen["deals"] < deals:
        seed += 1
        match = Match(v, 4, seed=f"mirror/{name}/{seed}", bots=["random"])
        rng = Random(name, seed)
        game = match.game
        winner = None
        while winner is None and seen["deals"] < deals:
            state, seats, local = match.next_deal(lambda event: None)
            assert seats == [0, 1, 2, 3]
            expected = 0 if settings.get("pass_cards") is False else CYCLE[match.ledger.deal_number % 4]
            assert state.counters.get("pass_to", 0) == expected, "HE-2.3: the pass cycle is left, right, across, hold"
            directions.add(expected)
            choose = _moon_policy(game, state, rng) if seen["deals"] % 3 == 2 else _random_policy(rng)
            twin = mirror_deal(game, settings, state, choose, bool(settings.get("can_lead_any_club")))
            history: list[dict[str, Any]] = []
            winner = match.deal_ended(state, seats, local, history, lambda event: None)
            scores = [e for e in history if e["type"] == "score"]
            points = [scores[0]["scores"][str(s)] for s in range(4)]
            assert points == twin.points(), f"deal {seen['deals']}: tapete scores {points}, OpenSpiel {twin.points()}"
            seen["deals"] += 1
            seen["moons"] += any(moon <= set(state.zones[f"taken.{s}"]) for s in range(4))
    seen["directions"] = len(directions)
    return seen


@pytest.mark.parametrize("name", list(TWINS))
def test_openspiel_agrees_on_a_few_deals(name):
    """HE-2.3, HE-3.1 to HE-3.5, HE-4.1, HE-4.2 (and each parameter's HE-V) agree with OpenSpiel, 5 deals a setting."""
    seen = mirror(name, QUICK_DEALS)
    assert seen["deals"] == QUICK_DEALS


@pytest.mark.slow
@pytest.mark.parametrize("name", list(TWINS))
def test_openspiel_agrees_on_a_thousand_deals(name):
    """The full mirror: 120 deals a setting, 1,080 in all, every pass direction, moons among them (HE-4.2)."""
    seen = mirror(name, SLOW_DEALS)
    assert seen["deals"] == SLOW_DEALS
    if name != "pass_cards=false":
        assert seen["directions"] == 4
    assert seen["moons"] > 0, "no moon was shot: the moon's points went unchecked"


def combination(settings: dict[str, bool], folder: Path) -> Any:
    """A variant playing several settings at once: a chain of files from hearts/classic, each
    extending the one before with one twin's rule lines (a later line replaces an earlier one)."""
    parent = "hearts/classic"
    for k, (alone, twin) in enumerate(TWINS.values()):
        if alone and all(settings.get(key) == value for key, value in alone.items()):
            game, stem = twin.split("/")
            twin = (Path(tapete_variants.__file__).parent / game / f"{stem}.rules").read_text(encoding="utf-8")
            parent = child_file(folder, parent, twin + "\n", f"step{k}", "summary: one more OpenSpiel setting\n").name
    return load_variant(str(folder / parent))


def combinations(count: int) -> list[dict[str, bool]]:
    """``count`` seeded choices of two to four settings together. jd_bonus and avoid_all_tricks_bonus
    both write the score, and their files do not combine; hearts led at any time comes last."""
    rng = Random("combinations")
    single = [name for name, (alone, _) in TWINS.items() if alone]
    out: list[dict[str, bool]] = []
    while len(out) < count:
        names = [n for n in single if rng.below(3) == 0]
        if not 2 <= len(names) <= 4 or {"jd_bonus", "avoid_all_tricks_bonus"} <= set(names):
            continue
        out.append({k: v for n in names for k, v in TWINS[n][0].items()})
    return out


@pytest.mark.parametrize("settings", combinations(3), ids=lambda s: "+".join(sorted(s)))
def test_openspiel_agrees_on_settings_combined(settings, tmp_path):
    """Two to four parameters at once, their tapete lines in one file: 5 deals each agree."""
    assert mirror_variant(settings, combination(settings, tmp_path), QUICK_DEALS, "combined")["deals"] == QUICK_DEALS


@pytest.mark.slow
@pytest.mark.parametrize("settings", combinations(10), ids=lambda s: "+".join(sorted(s)))
def test_openspiel_agrees_on_settings_combined_at_length(settings, tmp_path):
    """Ten combinations of parameters, 60 deals each (600 more deals)."""
    seen = mirror_variant(settings, combination(settings, tmp_path), 60, "combined")
    assert seen["deals"] == 60 and seen["moons"] > 0
