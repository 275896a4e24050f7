"""The whole story in the game's own words, at a real terminal (pexpect gives the process a tty).

Each example of what a person at the table was not told, or was told in another game's
words, played the way a person plays: the moves before a close, the pause between deals,
help and refusals of the game being played, the bust limit, the end of the match, the
menu at 80 columns, a Spanish deck's suits. ``test_table_words.py`` checks the same over
every registered variant in-process.
"""

from __future__ import annotations

import json
import re

import pytest

pexpect = pytest.importorskip("pexpect")

from test_sit_down import Person  # noqa: E402

from tapete import Layout, load_variant  # noqa: E402


def shown_names(variant: str) -> dict[str, str]:
    """Each card as written (``7♦``) -> as the table shows it (``7 de oros``)."""
    v = load_variant(variant)
    deal = v.new_deal(v.player_range()[0], 1)
    names = (v.record.layout or Layout()).card_names(deal.view(0))
    return dict(zip(v.rules.deck.names, names, strict=True))


def lines_of(text: str) -> list[str]:
    return text.replace("\r", "").split("\n")


def test_chinchon_at_80_columns_in_its_own_words(tmp_path):
    """Spanish suits in their order, a menu broken between moves, Chinchón's help, refusals and bust limit."""
    p = Person(
        ["play", "chinchon/fournier", "--bots", "human,heuristic", "--seed", "3", "--save", "s.json"],
        tmp_path,
        columns=80,
    )
    first = p.prompt()
    assert "deal 1: seat 1 dealt; your move, seat 0" in first
    hand = re.search(r"your hand: +(.*?) \(\* in a meld\)", first.replace("\r\n", " ").replace("  ", " "))
    assert hand is not None
    suits = re.findall(r"de (oros|copas|espadas|bastos)", hand.group(1))
    order = ["oros", "copas", "espadas", "bastos"]  # CH-1.2, the order of a Spanish deck
    assert suits and suits == sorted(suits, key=order.index)
    assert "♦" not in first and "♥" not in first

    helped = p.type("help")
    assert "draw stock (or d)" in helped and "close CARD" in helped and "CH-4.2" in helped
    assert not re.search(r"^ +(pass|knock|take|capture|play) ", helped, re.M)  # no other game's moves
    assert "GR-" not in helped and "FT-" not in helped
    assert "refused: there is no passing in Chinchón" in p.type("pass") and "(CH-4.2)" in p.output.getvalue()
    assert "GR-4.1" not in p.output.getvalue()
    assert "out above 100 points (CH-6.3)" in p.type("score")

    drew = p.type("d")  # the game's short word for 'draw stock'
    assert "you drew" in drew
    menu = drew[drew.index("moves:") :]
    items = re.findall(r"\[(\d+)\] discard (\S+ de \S+)", menu)
    assert len(items) == 8  # every discard whole, whatever line it is on
    for line in lines_of(p.output.getvalue()):
        assert len(line) <= 80, line
    card = items[-1][1]
    assert "refused" not in p.type(f"discard {card.upper()}")  # typed as shown, in any case
    saved = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    written = {v: k for k, v in shown_names("chinchon/fournier").items()}
    mine = [move for seat, move in saved["actions"] if seat == 0]
    assert mine[-1] == f"discard {written[card]}"  # logs and saves write the card as always
    p.child.sendline("quit")
    assert p.finish() == 0


def test_the_moves_before_a_close_are_shown_and_the_table_waits(tmp_path):
    """Every move made after the person's last one is told, to the close; then the table waits for Enter."""
    p = Person(["play", "chinchon/fournier", "--bots", "human,heuristic", "--seed", "3", "--save", "s.json"], tmp_path)
    text = p.prompt()
    while not p.paused:
        text = p.type("1")
    assert "deal 1 scores" in text and "-- deal 2" not in p.output.getvalue()
    recap = text[text.index("the last moves of deal 1:") : text.index("deal 1 scores")]
    actions = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))["actions"]
    last = max(i for i, (seat, _) in enumerate(actions) if seat == 0)
    after = actions[last + 1 :]
    assert after and after[-1][1].startswith("close")
    names = shown_names("chinchon/fournier")
    told = [line.strip() for line in lines_of(recap)[1:] if re.match(r"  seat \d: ", line)]  # the deal's lines: 3 in
    assert len(told) == len(after)
    for (seat, move), line in zip(after, told, strict=True):
        kind = move.split()[0]
        assert line.startswith(f"seat {seat}: {kind}"), (move, line)
        if kind == "discard":
            assert names[move.split()[1]] in line
    if after[0][1] == "draw discard":  # the card the person just threw, taken: now the person knows
        thrown = actions[last][1].split()[1]
        assert f"draw discard ({names[thrown]})" in told[0]
    p.child.sendline("")
    p.child.expect("-- deal 2, dealer seat 0")
    p.prompt()
    p.child.sendline("quit")
    assert p.finish() == 0


def test_fan_tan_help_has_no_draw_close_or_take_and_the_end_says_who_won(tmp_path):
    p = Person(
        ["play", "fantan/pagat", "--bots", "human,sensible,sensible", "--seed", "2", "--option", "wins_to=1"],
        tmp_path,
    )
    p.prompt()
    helped = p.type("help")
    assert "play CARD" in helped and re.search(r"^ +pass ", helped, re.M)
    for other in ("draw", "close", "take", "discard", "knock", "capture"):
        assert not re.search(rf"^ +{other}\b", helped, re.M), other
    assert "'d' is not a move here" in p.type("d")
    assert "refused: you may not pass while you can play" in p.type("pass") and "(FT-3.4)" in p.output.getvalue()
    assert "the first to win 1 deal takes the match (FT-4.3)" in p.type("score")
    while True:  # one deal takes the match: play it out
        p.child.sendline("1")
        if p.child.expect([r"seat 0> ", r"Winner: seat (\d)"]) == 1:
            break
    winner = int(p.child.match.group(1))
    said = p.output.getvalue()
    assert ("you won the match" if winner == 0 else f"you lost the match: seat {winner} won") in said
    assert p.finish() == 0


def test_scopa_and_gin_speak_their_own_rules(tmp_path):
    """Scopa's help offers captures, not close/draw/take; Gin's pass is its upcard's (GR-4.1), its close a knock."""
    scopa = Person(["play", "scopa/classic", "--bots", "human,greedy", "--seed", "2"], tmp_path)
    scopa.prompt()
    helped = scopa.type("help")
    assert "capture CARD TABLE-CARDS" in helped and "SC-3." in helped and "CT-" not in helped
    for other in ("draw", "close", "take", "discard", "knock", "pass"):
        assert not re.search(rf"^ +{other}\b", helped, re.M), other
    assert re.search(r"captured so far: you \d+ cards?, \d+ coins?, \d+ scop[ae]", scopa.type("score"))
    refused = scopa.type("pass")
    assert "refused: a Scopa move is 'play CARD' or 'capture CARD TABLE-CARDS'" in refused
    scopa.child.sendline("quit")
    assert scopa.finish() == 0

    gin = Person(["play", "gin/standard", "--bots", "human,heuristic", "--seed", "3"], tmp_path)
    gin.prompt()
    helped = gin.type("help")
    assert "knock CARD" in helped and re.search(r"^ +pass ", helped, re.M) and "GR-4.1" in helped
    assert "CH-" not in helped and not re.search(r"^ +close ", helped, re.M)
    gin.type("pass")  # GR-4.1 the upcard goes to the dealer, who passes too
    answer = gin.type("pass")
    assert "refused: you may pass only when the first upcard is offered to you (GR-4.1)" in answer
    assert "draw first: 'draw stock' or 'draw discard' (GR-4.2)" in gin.type(
        "discard " + re.findall(r"your hand: +(\S+)", gin.output.getvalue())[-1]
    )
    assert "the game ends when a total reaches 100 points (GR-6.4)" in gin.type("score")
    gin.child.sendline("quit")
    assert gin.finish() == 0
