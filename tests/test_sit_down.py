"""A person at the real command line, through a pseudo-terminal: play, mistakes, save, kill -9, resume.

Each game is played by a person typing at ``tapete play`` the way they would at a
terminal (pexpect gives the process a real tty). The person always takes the
first move of the menu, so a run is a function of the seed and can be repeated.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from tapete import Layout, load_variant  # noqa: E402

PROMPT = r"seat 0> "
BETWEEN_DEALS = r"press Enter for deal \d+ \(or type quit\) "  # the table waits between deals
GAMES = [
    # variant, bots, seed
    ("fantan/pagat", "human,sensible,sensible", "2"),
    ("chinchon/fournier", "human,heuristic", "3"),
    ("chinese-ten/two-player", "human,greedy", "3"),
]
IDS = ["fantan", "chinchon", "chinese-ten"]


class Person:
    """A tapete process on a pseudo-terminal, and what it printed."""

    def __init__(self, args: list[str], cwd: Path, color: bool = False, columns: int = 220):
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(columns), "LINES": "60"}
        env.pop("NO_COLOR", None)
        if not color:
            env["NO_COLOR"] = "1"
        self.output = io.StringIO()
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "tapete", *args],
            cwd=str(cwd),
            env=env,
            encoding="utf-8",
            timeout=60,
            dimensions=(60, columns),
        )
        self.child.logfile_read = self.output
        self.child.delaybeforesend = None  # a person types no faster than the prompt; no need to wait

    def prompt(self) -> str:
        """Wait for the person's prompt (or the pause between deals); the text printed since the last one."""
        self.paused = self.child.expect([PROMPT, BETWEEN_DEALS]) == 1
        return str(self.child.before)

    def type(self, line: str) -> str:
        """Type a line, wait for the prompt again; what the game answered."""
        self.child.sendline(line)
        return self.prompt()

    def play_until_deal_scored(self, moves: int = 10_000) -> str:
        """Type '1' (the first move of the menu) until deal 1 is scored; the score line."""
        text = self.prompt()
        for _ in range(moves):
            found = re.search(r"deal 1 scores: [^\r\n]*", text)
            if found:
                return found.group(0)
            text = self.type("1")
        raise AssertionError("deal 1 did not end")

    def finish(self) -> int:
        self.child.expect(pexpect.EOF)
        self.child.close()
        return int(self.child.exitstatus if self.child.exitstatus is not None else -1)


def human_hand(variant: str, seed: str) -> tuple[list[str], list[str]]:
    """Seat 0's first hand and the deck's other cards as the table names them (the first deal of the match)."""
    v = load_variant(variant)
    players = 3 if variant.startswith("fantan") else 2
    deal = v.new_deal(players, int(seed))
    names = (v.record.layout or Layout()).card_names(deal.view(0))
    hand = [names[c] for c in deal.state.zones["hand.0"]]
    return hand, [n for n in names if n not in hand]


@pytest.mark.parametrize(
    ("variant", "bots", "seed"),
    [g if g[0] == "fantan/pagat" else pytest.param(*g, marks=pytest.mark.slow) for g in GAMES],  # one every run
    ids=IDS,
)
def test_save_kill_9_and_resume_play_the_same_deal_as_an_uninterrupted_run(tmp_path, variant, bots, seed):
    # The uninterrupted run: a whole human-vs-bot deal, then quit at the next deal.
    whole = Person(["play", variant, "--bots", bots, "--seed", seed, "--save", "whole.json"], tmp_path)
    whole_score = whole.play_until_deal_scored()
    whole.child.sendline("quit")
    whole.child.expect("continue it with: tapete resume whole.json")
    assert whole.finish() == 0
    assert "\x1b" not in whole.output.getvalue()  # NO_COLOR: plain text, no escape codes

    # The same moves, killed with SIGKILL mid-deal after three of them, then resumed.
    cut = Person(["play", variant, "--bots", bots, "--seed", seed, "--save", "cut.json"], tmp_path)
    cut.prompt()
    for _ in range(3):
        cut.type("1")
    cut.child.kill(signal.SIGKILL)
    cut.child.close()
    saved = json.loads((tmp_path / "cut.json").read_text(encoding="utf-8"))
    assert sum(1 for seat, _ in saved["actions"] if seat == 0) == 3

    resumed = Person(["resume", "cut.json"], tmp_path)
    resumed_score = resumed.play_until_deal_scored()
    assert "resumed cut.json" in resumed.output.getvalue()
    resumed.child.sendline("quit")
    resumed.child.expect("continue it with: tapete resume cut.json")
    assert resumed.finish() == 0

    assert resumed_score == whole_score
    a = json.loads((tmp_path / "whole.json").read_text(encoding="utf-8"))["actions"]
    b = json.loads((tmp_path / "cut.json").read_text(encoding="utf-8"))["actions"]
    assert a == b  # the same cards came, the same moves were made


@pytest.mark.parametrize(("variant", "bots", "seed"), GAMES, ids=IDS)
def test_every_kind_of_bad_input_is_answered_and_changes_nothing(tmp_path, variant, bots, seed):
    hand, others = human_hand(variant, seed)
    p = Person(["play", variant, "--bots", bots, "--seed", seed, "--save", "s.json"], tmp_path)
    first = p.prompt()
    menu = first[first.index("moves:") :]  # the menu, broken to the terminal's width, ends the picture
    moves = len(re.findall(r"\[\d+\]", menu))
    assert "your hand:" in first and "your move, seat 0" in first

    assert "type a move, its number" in p.type("")
    assert "'xyzzy' is not a move here" in p.type("xyzzy")
    assert f"there is no move {moves + 5}: choose 1-{moves}" in p.type(str(moves + 5))
    assert "no card '1x'" not in p.type("help")  # help lists the moves and the rule ids
    assert "rules that apply" in p.output.getvalue()
    assert re.search(r"(FT|CH|CT)-\d", p.output.getvalue())
    assert "hint: " in p.type("hint")
    assert "totals:" in p.type("score")
    assert "so far, as seat 0 saw it" in p.type("log")
    assert "no card '11h'" in p.type("11h")  # a card that no deck has
    assert "refused: " + f"{others[0]} is not in your hand" in p.type(f"play {others[0].lower()}")
    refusal = p.type("pass")
    if variant.startswith("fantan"):  # FT-3.4: no pass while a card fits
        assert "refused: you may not pass while you can play: playable" in refusal
    else:
        assert "refused: " in refusal  # in the game's own words
    # a card in hand that cannot be played now
    if variant.startswith("fantan"):
        illegal = next(c for c in hand if not c.startswith("7"))  # its row is not open (FT-3.2)
    elif variant.startswith("chinchon"):
        illegal = hand[0]  # discarding before drawing (CH-4.2)
    else:
        illegal = "play " + re.findall(r"(\S+) takes", first)[0]  # it must capture (CT-2.3)
    answer = p.type(illegal.upper())
    assert re.search(r"refused: .*(does not fit any row now: |draw first|must capture \(CT-2.3\))", answer)
    p.child.sendeof()
    p.child.expect("the input ended: the match is saved in s.json")
    assert p.finish() == 1
    saved = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert all(seat != 0 for seat, _ in saved["actions"])  # nothing the person typed was played
    assert "Traceback" not in p.output.getvalue() and "\x1b" not in p.output.getvalue()


def test_red_suits_are_red_on_a_terminal(tmp_path):
    p = Person(["play", "fantan/pagat", "--bots", "human,sensible,sensible", "--seed", "2"], tmp_path, color=True)
    text = p.prompt()
    assert re.search(r"\x1b\[[0-9;]*31m[0-9JQKA]+♥", text)  # red hearts
    assert not re.search(r"\x1b\[[0-9;]*31m[0-9JQKA]+♠", text)  # spades in the default colour
    p.child.sendline("quit")
    assert p.finish() == 0
