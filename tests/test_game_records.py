"""One record per registered game: the match, ``hint`` and the search's rollouts seat the same bot.

A game's bots are those of the registered game (``scopa``), not of its family's class
(``chinese-ten``, whose ``name`` Scopa's class shares). Before records, ``hint`` and the
``ismcts`` rollouts looked the bot up by the family's name in the process-wide registry,
so in Scopa they asked Chinese Ten's greedy bot while the table seated Scopa's counting bot.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import variant

from tapete import Game, GameRecord, Layout, Match, Random, TapeteError, build_registry, hookimpl, load_variant
from tapete.bots import adapt
from tapete.plugins.lazy import LazyFactory
from tapete.search.ismcts import ISMCTSBot
from tapete.table.human import Host
from tapete.testing import variant_params


def bot_class(factory):
    return factory.load() if isinstance(factory, LazyFactory) else factory


@pytest.mark.parametrize("name", variant_params())
def test_hint_and_the_search_rollouts_use_the_bot_the_match_seats_by_default(name):
    v = variant(name)
    match = Match(v, seed=1, bots=[v.record.default_bot])
    seated = {type(agent) for agent in match.agents}
    hint = Host(match.game).hint_bot(0)
    rollout = ISMCTSBot(match.game, 0, Random(1)).rollout_bot
    assert rollout is not None
    assert {type(adapt(hint))} == seated == {type(adapt(rollout(match.game, 0, Random(2))))}
    assert bot_class(rollout) is bot_class(v.record.bot(v.record.default_bot))


def test_scopa_hints_and_searches_with_its_own_counting_bot_not_chinese_tens_greedy_one():
    from tapete_plugins.chinese_ten.bots import GreedyBot
    from tapete_plugins.chinese_ten.scopa_bot import CountingBot

    v = load_variant("scopa/classic")
    game = v.new_game()
    assert game.name == "chinese-ten" and v.spec.game == "scopa"  # one family class, two games
    assert v.record.default_factory() is CountingBot
    assert type(Match(v, seed=0, bots=[v.record.default_bot]).agents[0]) is CountingBot
    assert type(Host(game).hint_bot(0)) is CountingBot
    assert ISMCTSBot(game, 0, Random(1)).rollout_bot is CountingBot
    # the first moment of a deal where the two bots differ: the hint is the counting bot's move
    deal, rng = v.new_deal(seed=0), Random(0)
    while not deal.over:
        view, legal = deal.view(deal.to_move), deal.legal_actions()
        counting = CountingBot(game, deal.to_move, Random(0, "hint")).choose(view, legal)
        if counting != GreedyBot(game, deal.to_move, Random(0, "hint")).choose(view, legal):
            break
        deal.play(legal[rng.below(len(legal))])
    assert not deal.over
    hint = Host(game).hint(view, legal)
    assert hint is not None and hint[0] == counting


def test_scopas_bot_keeps_its_old_name_as_an_alias():
    v = load_variant("scopa/classic")
    assert v.record.bot("greedy") is v.record.bot("counting")
    assert "greedy" not in v.record.bot_names()  # listed once, by its name
    assert type(Match(v, seed=1, bots=["greedy"]).agents[0]).__name__ == "CountingBot"
    assert load_variant("chinese-ten/taiwan").record.default_bot == "greedy"


@pytest.mark.parametrize("name", variant_params())
def test_the_family_class_default_bot_seats_the_records_default_bot(name):
    """The golden set seats ``game.default_bot`` (the class attribute), as it was recorded."""
    v = variant(name)
    assert v.record.bot(v.new_game().default_bot) is v.record.default_factory()


def test_a_record_carries_its_games_pieces_and_the_bots_every_game_gets():
    gin = load_variant("gin/standard").record
    assert gin.name == "gin" and gin.family.__name__ == "Chinchon"
    assert gin.variants == (Path(load_variant("gin/standard").spec.path).parent,)
    assert {"heuristic", "random", "ismcts", "human"} <= set(gin.bot_names())
    assert type(gin.layout).__name__ == "ChinchonLayout"
    with pytest.raises(TapeteError, match="no bot 'greedy' for gin; known: heuristic, human, ismcts, policy, random"):
        gin.bot("greedy")
    with pytest.raises(TapeteError, match="subclass of tapete.Game"):
        GameRecord("odd", object)  # type: ignore[arg-type]


# -- a plugin written before records: the old one-piece-per-hook registrations ----------------
class OldLayout(Layout):
    pass


class OldStyle:
    """Registers a game as plugins did before records: class, folder, bot and layout apart."""

    def __init__(self, folder: Path):
        self.folder = folder

    @hookimpl
    def tapete_register_games(self, register):
        from tapete_plugins.fantan.game import FanTan

        class OldFan(FanTan):
            name = "oldfan"
            default_bot = "lowest"

        register(OldFan)
        register(OldFan, name="oldfan-member")

    @hookimpl
    def tapete_register_variants(self, register):
        register(self.folder)

    @hookimpl
    def tapete_register_bots(self, register):
        register("lowest", LowestBot, game="oldfan")
        register("lowest", LowestBot, game="oldfan-member")

    @hookimpl
    def tapete_register_layouts(self, register):
        register("oldfan", OldLayout())  # by the family's name: the member gets it too, as before


class LowestBot:
    def __init__(self, game: Game, seat: int, rng: Random):
        self.rng = rng

    def choose(self, view, legal):
        return min(legal, key=lambda a: a.cards)


def pagat_as(tmp_path: Path, game: str) -> Path:
    folder = tmp_path / game
    folder.mkdir()
    for file in load_variant("fantan/pagat").spec.files:
        text = file.read_text(encoding="utf-8").replace("game: fantan", f"game: {game}")
        (folder / file.name).write_text(text.replace("game fantan", f"game {game}"), encoding="utf-8")
    return folder


def test_a_plugin_using_the_old_hooks_still_registers_and_plays(tmp_path):
    reg = build_registry([OldStyle(pagat_as(tmp_path, "oldfan"))])
    assert reg.problems == []
    v = load_variant("oldfan/pagat", reg)
    assert v.record.default_bot == "lowest" and v.record.default_factory() is LowestBot
    assert type(v.record.layout) is OldLayout
    member = reg.records["oldfan-member"]
    assert member.family is v.record.family and type(member.layout) is OldLayout
    result = Match(v, 4, seed=1, bots=[v.record.default_bot]).play()
    assert result.deals >= 1 and len(result.totals) == 4
    assert type(Host(v.new_game()).hint_bot(1)) is LowestBot
    assert ISMCTSBot(v.new_game(), 0, Random(1)).rollout_bot is LowestBot


# -- duplicates ------------------------------------------------------------------------
class Impostor:
    @hookimpl
    def tapete_register_games(self, register):
        from tapete_plugins.fantan.game import FanTan

        register(GameRecord("fantan", FanTan, bots={"sensible": LowestBot, "extra": LowestBot}, layout=OldLayout()))


def test_a_game_registered_twice_is_reported_and_takes_none_of_its_pieces_along():
    reg = build_registry([Impostor()])
    [problem] = reg.problems
    assert "registers game 'fantan', already registered by 'fantan'; ignored" in str(problem)
    fantan = reg.records["fantan"]
    assert fantan.bot("sensible").__name__ == "SensibleBot"
    assert "extra" not in fantan.bot_names()
    assert type(fantan.layout).__name__ == "FanTanLayout"


class SecondBot:
    @hookimpl
    def tapete_register_bots(self, register):
        register("sensible", LowestBot, game="fantan")  # taken by the record of fantan
        register("lowest", LowestBot, game="fantan")  # new: added to fantan's record


def test_a_bot_added_to_a_game_by_name_joins_its_record_and_a_taken_name_is_reported():
    reg = build_registry([SecondBot()])
    assert [p.message for p in reg.problems] == [
        "registers bot 'fantan/sensible', already registered by 'fantan'; ignored"
    ]
    fantan = reg.records["fantan"]
    assert fantan.bot("lowest") is LowestBot and fantan.bot("sensible").__name__ == "SensibleBot"
    assert Match(load_variant("fantan/pagat", reg), 4, seed=1, bots=["lowest"]).play().deals >= 1
