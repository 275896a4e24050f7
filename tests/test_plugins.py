"""Plugins: entry-point discovery, registration hooks, lifecycle hooks, start-up checks."""

from __future__ import annotations

import pytest
from pluggy import PluginValidationError
from typer.testing import CliRunner

from tapete import Match, build_registry, hookimpl, load_variant
from tapete.cli.main import app


def test_built_in_games_come_through_the_entry_point_group():
    reg = build_registry()
    assert "fantan" in reg.games
    assert "fantan/pagat" in reg.variants()
    assert {"random", "sensible"} <= set(reg.bot_names("fantan"))
    assert build_registry(entry_points=False).games == {}


class HouseRule:
    """A house rule: the deal winner gets a bonus point; also watches the lifecycle."""

    def __init__(self):
        self.seen = []

    @hookimpl
    def tapete_deal_started(self, match, state):
        self.seen.append(("start", state.players))

    @hookimpl
    def tapete_deal_scored(self, match, state, scores):
        for seat in scores:
            if scores[seat]:
                scores[seat] += 10

    @hookimpl
    def tapete_match_ended(self, match, result):
        self.seen.append(("end", result.winner))


def test_a_house_rule_plugin_observes_and_changes_deal_scores():
    house = HouseRule()
    reg = build_registry([house])
    v = load_variant("fantan/pagat", reg)
    result = Match(v, 4, seed=3).play()
    assert sum(result.totals) == 11 * result.deals
    assert house.seen[0] == ("start", 4) and house.seen[-1] == ("end", result.winner)
    assert sum(1 for s in house.seen if s[0] == "start") == result.deals


def test_lifecycle_hooks_are_not_called_when_nobody_listens():
    reg = build_registry()
    assert reg.lifecycle == set()


class Misspelt:
    @hookimpl
    def tapete_deal_startd(self, match, state):
        pass


def test_a_misspelt_hook_fails_at_start_up():
    with pytest.raises(PluginValidationError, match="tapete_deal_startd"):
        build_registry([Misspelt()])


class ExtraWord:
    """A plugin adding a rule-script word to an existing game."""

    @hookimpl
    def tapete_register_vocabulary(self, register):
        from tapete import DEAL, SEAT, Quantity

        register(
            "fantan",
            Quantity(
                "double_left",
                "twice the cards left",
                frozenset({"play", SEAT, DEAL}),
                lambda c: 2 * len(c.state.zones[f"hand.{c.seat}"]),
            ),
        )


def test_a_plugin_can_add_a_quantity_that_scripts_then_use(tmp_path):
    (tmp_path / "d.rules").write_text(
        "score = double_left\nmatch_ends when max(total) >= 50\nwinner = lowest(total)\n", encoding="utf-8"
    )
    (tmp_path / "d.yaml").write_text("extends: fantan/pagat\nname: d\nscripts: [d.rules]\n", encoding="utf-8")
    reg = build_registry([ExtraWord()])
    result = Match(load_variant(tmp_path / "d.yaml", reg), 4, seed=1).play()
    assert all(t % 2 == 0 for t in result.totals) and max(result.totals) >= 50
    from tapete import ErrorList

    with pytest.raises(ErrorList, match="unknown name 'double_left'"):
        load_variant(tmp_path / "d.yaml", build_registry())


def test_plugins_command_lists_plugins_with_versions_and_hooks():
    result = CliRunner().invoke(app, ["plugins"])
    assert result.exit_code == 0
    assert "fantan" in result.output and "tapete_register_games" in result.output
    assert "0.1.0" in result.output


def test_tracing_prints_every_hook_call_and_registration(monkeypatch, capsys):
    monkeypatch.setenv("TAPETE_TRACE_PLUGINS", "1")
    house = HouseRule()
    result = Match(load_variant("fantan/pagat", build_registry([house])), 4, seed=3).play()
    lines = capsys.readouterr().err.splitlines()
    assert "tapete_register_games(register=register) -> fantan" in lines
    assert "  fantan registers game fantan" in lines and "  fantan registers bot fantan/sensible" in lines
    scored = [line for line in lines if line.startswith("tapete_deal_scored(match=")]
    assert len(scored) == result.deals and all(line.endswith(f"-> {id(house)}") for line in scored)
    monkeypatch.delenv("TAPETE_TRACE_PLUGINS")
    build_registry()
    assert capsys.readouterr().err == ""
