"""``tapete diff A B``: what a designer changed, rule by rule, after ``extends:`` and the options.

The checks are what a designer relies on: a variant against itself plays the same, so does a
copy of its files written differently; a child that changes an option shows the rules that
option reaches; every difference is said once each way round; the JSON carries the same.
"""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
import sys

import pytest

from tapete.design.diff import changed_text, compare
from tapete.testing import variant, variant_names, variant_params

NAMES = variant_names()


@pytest.mark.parametrize("name", variant_params())
def test_a_variant_against_itself_plays_the_same(name):
    assert compare(variant(name), variant(name)).same


def test_a_copy_written_differently_plays_the_same(tmp_path):
    """Comments, blank lines and the order of statements do not make a difference; rules do."""
    src = variant("chinchon/fournier").spec.path.parent
    shutil.copy(src / "fournier.yaml", tmp_path / "copy.yaml")
    lines = (src / "fournier.rules").read_text(encoding="utf-8").splitlines()
    body = [line.split("#")[0].rstrip() for line in lines]
    moved = [line for line in body if line.startswith("see ")]
    text = "\n".join(["# a copy, reordered", *moved, "", *[x for x in body if x not in moved]]) + "\n"
    (tmp_path / "fournier.rules").write_text(text, encoding="utf-8")
    from tapete import load_variant

    copy = load_variant(tmp_path / "copy.yaml")
    assert compare(variant("chinchon/fournier"), copy).same
    (tmp_path / "fournier.rules").write_text(text.replace("run_length = 3", "run_length = 4"), encoding="utf-8")
    changed = compare(variant("chinchon/fournier"), load_variant(tmp_path / "copy.yaml"))
    (line,) = changed.lines()  # the rulebook's whole sentence, before and after
    assert line.startswith("A run is 3 or more cards of one suit next to each other")
    assert "→ A run is 4 or more cards of one suit next to each other" in line


def test_an_option_child_shows_the_rules_the_option_reaches():
    found = compare(variant("chinchon/fournier"), variant("chinchon/to-70"))
    assert found.lines() == [
        "option out_on: exceeding → reaching (a player is out on reaching the limit)",
        "After a deal you are out of the match when your total is more than 100 → "
        "After a deal you are out of the match when your total is at least 70 (option bust)",
    ]  # bust is said once, in the rule it changes


def test_a_close_rule_in_plain_words():
    found = compare(variant("chinchon/fournier"), variant("chinchon/one-loose-card"))
    (line,) = found.lines()
    before, after = line.split(" → ")
    assert "you may do so when the value of your unmatched cards is at most 5." in before
    assert "at most 4 and the number of your unmatched cards is at most 1" in after


def test_defaults_written_out_are_no_difference_and_left_out_ones_are_said():
    found = compare(variant("scopa/classic"), variant("scopa/scopone"))
    assert "2 to 3 players (2 by default) → 4 players in 2 teams (4 by default)" in found.lines()
    assert not any(line.startswith("teams") for line in found.lines())  # said once, with the players
    pagat, nines = variant("fantan/pagat"), variant("fantan/nines")
    lines = compare(pagat, nines).lines()
    assert "A row is opened by its start card: every suit's row by its 7 → every suit's row by its 9" not in lines
    assert (
        "A row is opened by its start card: every suit's row by its 7 → "
        "A row is opened by its start card: every suit's row by its 9"
    ) in lines
    assert any(line.startswith("52 cards (french52)") and "→ 36 cards" in line for line in lines)


PAIRS = [
    (a, b)
    for game in sorted({n.split("/")[0] for n in NAMES})
    for a, b in itertools.combinations(variant_names(game), 2)
][::3]  # a third of the pairs of each game: enough to see every kind of change both ways


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_every_difference_is_said_both_ways_round(a, b):
    ab, ba = compare(variant(a), variant(b)), compare(variant(b), variant(a))
    assert [(c.kind, c.key) for c in ab.changes] == [(c.kind, c.key) for c in ba.changes] or sorted(
        (c.kind, c.key) for c in ab.changes
    ) == sorted((c.kind, c.key) for c in ba.changes)
    forth = {(c.kind, c.key): (c.a, c.b) for c in ab.changes}
    back = {(c.kind, c.key): (c.b, c.a) for c in ba.changes}
    assert forth == back
    assert ab.same == ba.same == (a == b)


def test_changed_text_keeps_the_rule_and_shows_the_new_words():
    assert changed_text("close when x is at most 5", "close when x is at most 3") == (
        "close when x is at most 5 → at most 3"
    )
    assert changed_text("a b", "c d") == "a b → c d"  # nothing in common: both whole


def tapete(*args):
    return subprocess.run([sys.executable, "-m", "tapete", *args], capture_output=True, text=True, timeout=120)


def test_the_command_in_words_and_as_json():
    same = tapete("diff", "fantan/pagat", "fantan/pagat")
    assert same.returncode == 0 and "fantan/pagat and fantan/pagat play the same" in same.stdout
    words = tapete("diff", "chinchon/fournier", "chinchon/to-70")
    assert words.returncode == 0
    assert "chinchon/fournier → chinchon/to-70: 2 difference(s)" in words.stdout
    assert "your total is more than 100 → After a deal you are out of the match when" in words.stdout
    data = json.loads(tapete("diff", "fantan/pagat", "variants/fantan/nines.yaml", "--json").stdout)
    assert data["type"] == "tapete-diff" and data["same"] is False and data["b"] == "fantan/nines"
    kinds = {c["kind"] for c in data["changes"]}
    assert {"players", "cards", "statement"} <= kinds
    assert all(c["change"] in ("added", "removed", "changed") for c in data["changes"])
    missing = tapete("diff", "fantan/pagat", "fantan/nosuch")
    assert missing.returncode == 1 and "no variant 'fantan/nosuch'" in missing.stderr
