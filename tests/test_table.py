"""The table a person sits at: typed moves, saves that refuse to half-load, hot-seat, watching.

In-process and quick; ``test_sit_down.py`` drives the same through a real terminal.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tapete import Action, Layout
from tapete.cli.main import app
from tapete.core.rng import Random
from tapete.table.human import HumanBot, MoveWords, interpret
from tapete.table.saves import read_save, write_save
from tapete.testing import deal_from_zones

VARIANTS = Path(__file__).resolve().parent.parent / "variants"


def _legal(deal):
    return deal.legal_actions()


# -- typed moves ----------------------------------------------------------------------------
def test_typed_moves_are_read_in_any_case_and_notation():
    deal = deal_from_zones(
        "fantan/pagat", {"hand.0": ["7♥", "8♥", "2♣"], "hand.1": ["9♥"], "hand.2": ["3♣"], "row.♥": [], "row.♣": []}
    )
    deck, legal = deal.game.deck, _legal(deal)
    seven = Action("play", (deck.parse("7♥"),))
    for typed in ("7h", "7H", "7♥", "play 7H", "PLAY 7h", "1"):
        assert interpret(typed, deck, legal) == seven, typed
    assert interpret("pass", deck, legal) == Action("pass")  # the game refuses it (FT-3.4), not the reader
    assert interpret("2c", deck, legal) == Action("play", (deck.parse("2♣"),))  # the game says why it does not fit
    assert "there is no move 7: choose 1-1" in str(interpret("7", deck, legal))
    assert "no card '11h'" in str(interpret("11h", deck, legal))
    assert "is not a move here" in str(interpret("blah", deck, legal))
    assert "type a move" in str(interpret("", deck, legal))


def test_draws_and_closes_read_the_way_rummy_players_say_them():
    deal = deal_from_zones(
        "chinchon/fournier",
        {
            "hand.0": ["A♥", "2♥", "3♥", "5♣", "5♦", "5♠", "7♣"],
            "hand.1": ["K♣", "K♦", "Q♠", "J♠", "4♦", "6♦", "7♦"],
            "stock": ["4♣", "6♣"],
            "discard": ["Q♦"],
            "facedown": [],
        },
    )
    deck, legal = deal.game.deck, _legal(deal)
    words = MoveWords.of(deal.game.moves_help())  # the game's own short words (CH-4.2)
    for typed, meant in (("d", "draw stock"), ("draw", "draw stock"), ("take", "draw discard")):
        assert interpret(typed, deck, legal, words) == Action.parse(meant, deck), typed
    assert interpret("draw discard", deck, legal) == Action.parse("draw discard", deck)
    deal.play("draw stock")  # 6♣
    legal = _legal(deal)
    assert interpret("close 7♣", deck, legal, words) == Action.parse("close 7♣", deck)
    assert interpret("7c", deck, legal, words, card_move="discard") == Action.parse("discard 7♣", deck)
    assert interpret("play 7c", deck, legal, words, card_move="discard") == Action.parse("discard 7♣", deck)
    assert interpret("d", deck, legal, words) == Action.parse("draw stock", deck)  # the game says: drawn already


def test_closing_shows_the_melds_and_points_and_waits_for_a_yes():
    """CH-4.3: the close is shown before it is made; 'n' makes nothing."""
    deal = deal_from_zones(
        "chinchon/fournier",
        {
            "hand.0": ["A♥", "2♥", "3♥", "5♣", "5♦", "5♠", "7♣", "2♣"],
            "hand.1": ["K♣", "K♦", "Q♠", "J♠", "4♦", "6♦", "7♦"],
            "stock": ["4♣", "6♣"],
            "discard": ["Q♦"],
            "facedown": [],
        },
        counters={"drawn": 1},
    )
    said: list[str] = []
    answers = iter(["close 7♣", "n", "close 7 de bastos", "y"])  # typed as written, or as shown (CH-1.2)
    person = HumanBot(deal.game, 0, Random(1), ask=lambda _: next(answers), say=said.append)
    action = person.choose(deal.view(0), _legal(deal))
    assert action == Action.parse("close 7♣", deal.game.deck)
    text = "\n".join(said)
    assert (
        "closing, 7 de bastos goes face down and you show: [" in text and "[A de copas, 2 de copas, 3 de copas]" in text
    )
    assert "[5 de oros, 5 de espadas, 5 de bastos]" in text
    assert "unmatched: 2 de bastos = 2 points" in text and "not done; choose again" in text


def test_a_game_without_a_layout_gets_every_zone_in_words():
    deal = deal_from_zones(
        "chinchon/fournier",
        {"hand.0": ["A♥", "2♥"], "hand.1": ["K♣"], "stock": ["4♣", "6♣"], "discard": ["Q♦", "J♦"], "facedown": []},
    )
    said: list[str] = []
    person = HumanBot(deal.game, 0, Random(1), ask=lambda _: "1", say=said.append)
    person.host.layout = Layout()
    person.choose(deal.view(0), _legal(deal))
    text = "\n".join(said)
    assert re.search(r"discard pile: +J♦ on top \(2 cards\)", text) and re.search(r"stock: +2 cards", text)
    assert "your hand:" in text and "hand.0" not in text and "seat 1 1 card" in text


# -- saves ------------------------------------------------------------------------------------
def _saved(tmp_path: Path, variant: str = "fantan/pagat", moves: str = "1\n1\n") -> Path:
    save = tmp_path / "m.json"
    result = CliRunner().invoke(
        app,
        ["play", variant, "--bots", "human,sensible,sensible", "--seed", "4", "--save", str(save)],
        input=moves + "quit\n",
    )
    assert result.exit_code == 0, result.output
    assert f"continue it with: tapete resume {save}" in result.output
    return save


def _resume(save: Path, moves: str = "quit\n"):
    return CliRunner().invoke(app, ["resume", str(save)], input=moves)


def test_a_save_edited_by_hand_is_refused_naming_the_checksum(tmp_path):
    save = _saved(tmp_path)
    text = save.read_text(encoding="utf-8")
    save.write_text(text.replace('"seed": 4', '"seed": 5'), encoding="utf-8")
    result = _resume(save)
    assert result.exit_code == 1
    assert "changed after tapete wrote it" in result.output and "Traceback" not in result.output


def test_a_cut_or_damaged_save_is_refused_and_says_so(tmp_path):
    save = _saved(tmp_path)
    text = save.read_text(encoding="utf-8")
    save.write_text(text[: len(text) // 2], encoding="utf-8")
    result = _resume(save)
    assert result.exit_code == 1 and "the save is cut short" in result.output
    save.write_text("", encoding="utf-8")
    assert "the save is empty" in _resume(save).output
    save.write_text('{"type": "match"}', encoding="utf-8")
    assert "not a tapete save" in _resume(save).output
    save.write_text(text.replace('"format": 1', '"format": 99'), encoding="utf-8")
    assert "upgrade tapete" in _resume(save).output


def test_a_save_whose_moves_no_longer_replay_is_refused_whole(tmp_path):
    save = _saved(tmp_path)
    saved = read_save(save)
    seat, first = saved.actions[0]
    saved.actions[0] = (seat, "play 2♣")
    write_save(save, saved)  # a valid file, but not the match that was played
    result = _resume(save)
    assert result.exit_code == 1
    assert "saved move 1" in result.output and "Traceback" not in result.output
    saved.actions[0] = (seat, first)
    write_save(save, saved)
    assert "resumed" in _resume(save).output


def test_a_save_of_a_variant_file_refuses_the_file_once_changed(tmp_path):
    folder = tmp_path / "mine"
    shutil.copytree(VARIANTS / "fantan", folder)
    save = _saved(tmp_path, str(folder / "pagat.yaml"))
    assert json.loads(save.read_text(encoding="utf-8"))["variant"] == str((folder / "pagat.yaml").resolve())
    result = _resume(save, "1\nquit\n")
    assert result.exit_code == 0 and "resumed" in result.output
    rules = folder / "pagat.rules"
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# a new comment\n", encoding="utf-8")
    result = _resume(save)
    assert result.exit_code == 1 and "changed since the match was saved" in result.output


def test_the_save_command_writes_where_asked_and_keeps_it_current(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        app,
        ["play", "fantan/pagat", "--bots", "human,sensible,sensible", "--seed", "4"],
        input="save later.json\n1\nquit\n",
    )
    assert result.exit_code == 0 and "saved in later.json" in result.output
    assert any(seat == 0 for seat, _ in read_save(tmp_path / "later.json").actions)


# -- several people, and watching ---------------------------------------------------------
def test_two_people_at_one_screen_pass_it_between_turns(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # quit saves here
    result = CliRunner().invoke(
        app,
        ["play", "fantan/pagat", "--bots", "human,human,sensible", "--seed", "3"],
        input="1\n\n1\n\nquit\n",
    )
    out = result.output
    assert "pass the screen to seat 1, then press Enter" in out
    assert out.index("pass the screen to seat 1") < out.index("your move, seat 1")


def test_watching_bots_shows_each_move_as_the_table_saw_it():
    result = CliRunner().invoke(
        app, ["play", "chinchon/fournier", "--bots", "heuristic", "--seed", "2", "--watch", "--delay", "0"]
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "seat 0: draw stock" in out or "seat 1: draw stock" in out
    closes = [line for line in out.splitlines() if ": close" in line]
    assert closes and all(": close ? - closes showing" in line for line in closes)  # CH-4.3 face down


@pytest.mark.parametrize("variant", ["fantan/pagat", "chinese-ten/two-player"])
def test_watching_a_whole_match_ends_with_its_winner(variant):
    result = CliRunner().invoke(app, ["play", variant, "--seed", "1", "--watch"])
    assert result.exit_code == 0 and "Winner: seat" in result.output
    assert "seat 1: " in result.output
