"""``tapete check`` speaks to a designer: rules that load but cannot be dealt, unused options, break-even."""

from __future__ import annotations

import subprocess
import sys


def tapete(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tapete", *args], capture_output=True, text=True, check=False)


def variant(tmp_path, name: str, parent: str, rules: str, extra: str = "") -> str:
    (tmp_path / f"{name}.rules").write_text(rules, encoding="utf-8")
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: {parent}\nname: {name}\nscripts: [{name}.rules]\n{extra}", encoding="utf-8")
    return str(path)


def test_a_deal_the_deck_cannot_hold_is_an_error_at_the_hand_size(tmp_path):
    """CH-2.2 with 12 cards each: four players would need 50 of the 40 cards."""
    big = variant(tmp_path, "big", "chinchon/fournier", "hand_size = 12\n")
    result = tapete("check", big)
    assert result.returncode == 1
    assert (
        "big.rules:1:1: a deal for 4 players needs 12 x 4 hand cards, the face-up card and a stock card to draw:"
        " 50, more than the 40 cards of the deck" in result.stderr
    )


def test_sizes_that_do_not_use_the_deck_at_one_player_count_are_named(tmp_path):
    """CT-1.3 at every allowed count: 7 each for three players leaves cards nobody deals."""
    rules = "players = 2..3\nhand_size = if(players == 2, hand, 7)\n"
    result = tapete("check", variant(tmp_path, "sizes", "chinese-ten/two-player", rules))
    assert result.returncode == 1
    assert "sizes.rules:2:1: with 3 players: hand_size 7 x 3 players + table_size 4 + stock_size 24" in result.stderr


def test_a_new_points_total_says_the_break_even_it_implies(tmp_path):
    """CT-4.2: black aces scoring 15 make 240 points: 120 breaks even for two, not 105."""
    rules = "points { black A: 15, red A: 20, red 2..8: rank, red 9..K: 10, _: 0 }\n"
    aces = variant(tmp_path, "aces", "chinese-ten/two-player", rules)
    fixed = variant(tmp_path, "fixed", "chinese-ten/two-player", rules + "break_even = total(points) / players\n")
    result = tapete("check", aces, fixed)
    assert result.returncode == 0  # a warning: the variant plays
    assert (
        "warning: the points table totals 240, so with 2 players a deal breaks even at 120, but break_even is 105"
        in result.stdout
    )
    assert f"{fixed}: ok\n" in result.stdout


def test_options_declared_but_unused_and_used_but_undeclared(tmp_path):
    unused = variant(
        tmp_path,
        "unused",
        "fantan/pagat",
        "",
        "declare:\n  bonus: {type: int, default: 2, doc: extra points}\n",
    )
    result = tapete("check", unused)
    assert result.returncode == 0
    assert "unused.yaml:5:3: warning: option 'bonus' is declared but no rule of fantan/unused uses it" in result.stdout
    undeclared = variant(tmp_path, "undeclared", "fantan/pagat", "match_ends when max(deals_won) >= winning\n")
    result = tapete("check", undeclared)
    assert result.returncode == 1
    assert "to make it an option, declare it under 'declare:' in the variant file" in result.stderr


def test_a_run_no_deck_can_complete_is_reported(tmp_path):
    result = tapete("check", variant(tmp_path, "runs", "chinchon/fournier", "run_length = 11\n"))
    assert "warning: a run needs 11 cards of one suit in sequence, but the order has 10 ranks" in result.stdout


def test_every_built_in_variant_passes_the_designer_checks():
    from tapete import load_variant, registry
    from tapete.designer_checks import design_findings

    for name in sorted(registry().variants()):
        errors, _warnings = design_findings(load_variant(name))
        assert errors == [], name


def test_show_prints_option_values_in_the_rules(tmp_path):
    shown = tapete("show", "fantan/pagat", "--option", "wins_to=5")
    assert shown.returncode == 0
    assert "ace = high" in shown.stdout and "[written: ace = ace]" in shown.stdout
    assert "match_ends when max(deals_won) >= 5" in shown.stdout
    rules = "points { red _: 10, _: 0 }\nbreak_even = total(points) / players\n"
    shown = tapete("show", variant(tmp_path, "ten", "chinese-ten/two-player", rules))
    assert "break_even = 260 / players" in shown.stdout
