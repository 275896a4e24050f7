"""``tapete check`` speaks to a designer: rules that load but cannot be dealt, unused options, break-even."""

from __future__ import annotations

import subprocess
import sys

from children import child_file


def tapete(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tapete", *args], capture_output=True, text=True, check=False)


def variant(tmp_path, name: str, parent: str, rules: str, extra: str = "") -> str:
    return str(child_file(tmp_path, parent, rules, name, extra))


def test_check_speaks_in_a_designers_words(tmp_path):
    """One run over several variant files; each finding is placed where the designer wrote the rule."""
    big = variant(tmp_path, "big", "chinchon/fournier", "hand_size = 12\n")  # CH-2.2 with 12 cards each
    sizes = variant(  # CT-1.3 at every allowed count: 7 each for three leaves cards nobody deals
        tmp_path, "sizes", "chinese-ten/two-player", "players = 2..3\nhand_size = if(players == 2, hand, 7)\n"
    )
    points = "points { black A: 15, red A: 20, red 2..8: rank, red 9..K: 10, _: 0 }\n"  # CT-4.2: 240 points
    aces = variant(tmp_path, "aces", "chinese-ten/two-player", points)
    fixed = variant(tmp_path, "fixed", "chinese-ten/two-player", points + "break_even = total(points) / players\n")
    declared = "declare:\n  bonus: {type: int, default: 2, doc: extra points}\n"
    unused = variant(tmp_path, "unused", "fantan/pagat", "", declared)
    undeclared = variant(tmp_path, "undeclared", "fantan/pagat", "match_ends when max(deals_won) >= winning\n")
    runs = variant(tmp_path, "runs", "chinchon/fournier", "run_length = 11\n")
    result = tapete("check", big, sizes, aces, fixed, unused, undeclared, runs)
    assert result.returncode == 1  # big, sizes and undeclared are errors; the rest are warnings
    said = result.stdout + result.stderr
    assert (
        "big.rules:1:1: a deal for 4 players needs 12 x 4 hand cards, the face-up card and a stock card to draw:"
        " 50, more than the 40 cards of the deck" in result.stderr
    )
    assert "sizes.rules:2:1: with 3 players: hand_size 7 x 3 players + table_size 4 + stock_size 24" in result.stderr
    assert (
        "warning: the points table totals 240, so with 2 players a deal breaks even at 120, but break_even is 105"
        in result.stdout
    )
    assert f"{aces}: ok" in result.stdout and f"{fixed}: ok\n" in result.stdout  # warnings do not fail
    assert "unused.yaml:5:3: warning: option 'bonus' is declared but no rule of fantan/unused uses it" in said
    assert "to make it an option, declare it under 'declare:' in the variant file" in result.stderr
    assert "warning: a run needs 11 cards of one suit in sequence, but the order has 10 ranks" in result.stdout


def test_every_built_in_variant_passes_the_designer_checks():
    from tapete import load_variant, registry
    from tapete.design.designer_checks import design_findings

    for name in sorted(registry().variants()):
        errors, _warnings = design_findings(load_variant(name))
        assert errors == [], name


def test_show_prints_option_values_and_totals_in_the_rules(tmp_path):
    rules = "points { red _: 10, _: 0 }\nbreak_even = total(points) / players\n"
    shown = tapete("show", variant(tmp_path, "ten", "chinese-ten/two-player", rules), "--option", "deals=2")
    assert shown.returncode == 0, shown.stderr
    assert "break_even = 260 / players" in shown.stdout
    assert "match_ends when deal_number >= 2" in shown.stdout
    assert "[written: match_ends when deal_number >= deals]" in shown.stdout


def test_design_findings_name_every_player_count_and_a_deal_that_fails(tmp_path):
    from tapete import Action, Game, build_registry, hookimpl, load_variant
    from tapete.design.designer_checks import design_findings

    many = variant(tmp_path, "many", "chinchon/fournier", "hand_size = 15\n")  # 47 and 62 cards of 40
    errors, _ = design_findings(load_variant(many))
    assert len(errors) == 1 and "(the same with 4 players)" in str(errors[0])

    class Fragile(Game):  # its deal fails for more than two players, and it says nothing about it
        name = "fragile"

        def deal(self, state, rng, ctx):
            if state.players > 2:
                raise IndexError("pop from empty list")
            self.deal_round_robin(state, self.shuffled_deck(rng), None, 0)

        def legal_actions(self, state):
            return [Action("pass")]

    class Plugin:
        @hookimpl
        def tapete_register_games(self, register):
            register(Fragile)

    (tmp_path / "f.rules").write_text(
        "game fragile\ndeck french52\nplayers = 2..3\nscore = 0\nmatch_ends when deal_number >= 1\n", encoding="utf-8"
    )
    (tmp_path / "f.yaml").write_text("game: fragile\nname: f\nscripts: [f.rules]\n", encoding="utf-8")
    errors, _ = design_findings(load_variant(tmp_path / "f.yaml", build_registry([Plugin()])))
    assert [e.message for e in errors] == ["a deal for 3 players fails: pop from empty list"]
    assert str(errors[0]).startswith(f"{tmp_path.name}/f.rules:3:1:") or "f.rules:3:1:" in str(errors[0])


def test_describe_resolves_options_and_totals(tmp_path):
    from tapete import load_variant
    from tapete.design.describe import describe

    rules = "points { red _: 10, _: 0 }\nbreak_even = total(points) / players\nhand_size = if(true, hand, -hand)\n"
    lines = describe(load_variant(variant(tmp_path, "ten", "chinese-ten/two-player", rules)))
    assert any(line.strip().startswith("break_even = 260 / players") for line in lines)
    assert any("hand_size = if(true, 12, -12)" in line and "[written:" in line for line in lines)
