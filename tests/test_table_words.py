"""The table tells the whole story in the game's own words, over every registered variant.

What a person is told at the table comes from the game being played: ``help`` lists that
game's moves and no other's, a refusal or a rule cites only the rules document of the
variant's own game (Chinchón CH-, Gin Rummy GR-, ...), ``score`` says the bust limit and
what has been captured, the menu breaks between words at any width, a Spanish deck is shown
with its suits and read back, and the hand is held in the suit order of the table's rows.
The same through a real terminal is in ``test_sit_down_words.py``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tapete import Action, Deal
from tapete.core.rng import Random
from tapete.table.human import HumanBot, interpret
from tapete.table.render import Faces, menu_lines, picture_lines
from tapete.testing import variant, variant_names, variant_params

ROOT = Path(__file__).resolve().parent.parent
RULES = {"chinchon": "CH", "gin": "GR", "fantan": "FT", "chinese-ten": "CT", "scopa": "SC"}  # rules documents
RULE_ID = re.compile(r"\b([A-Z]{2})-V?\d")
BUILT_IN = [n for n in variant_names() if n.split("/", 1)[0] in RULES]  # a name starts with its game
# each game's base every run, the other built-in variants in the slow tier
BUILT_IN_TIERED = [p for p in variant_params() if (p if isinstance(p, str) else p.values[0]) in BUILT_IN]
MOVE_WORDS = ("play", "pass", "draw", "discard", "close", "knock", "capture", "take")


def foreign_ids(name: str, text: str) -> list[str]:
    """Rule ids in ``text`` that are not of the variant's own rules document."""
    own = RULES[variant(name).spec.game]
    return [m.group(0) for m in RULE_ID.finditer(text) if m.group(1) != own]


def states(name: str, seeds: range = range(3), steps: int = 400, every: int = 9) -> Iterator[Deal]:
    """Deals of ``name`` along random play: the first state, then every ``every``-th.

    The deal itself, with every seat's memory of it: look at it before asking for the next."""
    v = variant(name)
    lo, hi = v.player_range()
    for seed in seeds:
        deal = v.new_deal(lo if seed % 2 == 0 else hi, seed)
        rng = Random(seed, "table-words")
        for step in range(steps):
            if deal.state.over:
                break
            if step % every == 0:
                yield deal
            legal = deal.legal_actions()
            deal.play(rng.choice(legal))


def person(deal: Deal, said: list[str] | None = None) -> HumanBot:
    return HumanBot(deal.game, deal.to_move, Random(1), ask=lambda _: "", say=(said if said is not None else []).append)


def offered_kinds(name: str, wanted: set[str], deals: int = 40) -> set[str]:
    """The kinds of move random play meets in legal moves, until ``wanted`` are all met (or ``deals`` end)."""
    v = variant(name)
    lo, hi = v.player_range()
    seen: set[str] = set()
    for seed in range(deals):
        deal = v.new_deal(lo if seed % 2 == 0 else hi, seed)
        rng = Random(seed, "kinds")
        while not deal.state.over:
            legal = deal.legal_actions()
            seen |= {a.kind for a in legal}
            deal.play(rng.choice(legal))
        if seen >= wanted:
            break
    return seen


# -- help: the game's own moves ---------------------------------------------------------------
@pytest.mark.parametrize("name", BUILT_IN_TIERED)
def test_help_lists_exactly_the_moves_the_variant_offers(name):
    """Gin lists 'pass' and 'knock', Chinchón 'close' and no 'pass', Fan Tan no draw, close or take."""
    v = variant(name)
    deal = v.new_deal(v.player_range()[0], 1)
    moves = deal.game.moves_help()
    kinds = {m.kind for m in moves}
    offered = offered_kinds(name, kinds)
    assert kinds == offered, f"help lists {sorted(kinds)}, random play offers {sorted(offered)}"
    said: list[str] = []
    bot = person(deal, said)
    view = deal.view(deal.to_move)
    bot.command("help", [], view, bot.menu(view, deal.legal_actions()))
    text = "\n".join(said)
    listed = {line.split()[0] for line in said if line.startswith("    ") and line.split()[0] in MOVE_WORDS}
    assert listed == kinds, text
    assert not foreign_ids(name, text), text
    assert "rules that apply" in text and RULE_ID.search(text), text


@pytest.mark.parametrize("name", BUILT_IN_TIERED)
def test_every_refusal_cites_only_the_variants_own_rules(name):
    """CH-4.2 for a pass in Chinchón (never GR-4.1), GR-4.2 for a discard before drawing in Gin, ..."""
    refusals = 0
    for deal in states(name):
        view, legal = deal.view(deal.to_move), deal.legal_actions()
        bot = person(deal)
        menu = bot.menu(view, legal)
        faces = bot.faces(view)
        deck = deal.game.deck
        hand = list(view.hand)
        others = [c for c in deck.ids if c not in hand]
        table = [c for z, cs in view.zones.items() if not z.startswith("hand") for c in cs]
        lines = ["pass", "d", "take", "draw", "draw stock", "draw discard", "discard", "close", "knock", "play"]
        for card in hand[:2] + others[:1]:
            for shown in (deck.names[card], faces.names[card]):
                lines += [shown, f"play {shown}", f"discard {shown}", f"close {shown}", f"knock {shown}"]
                lines += [f"capture {shown} {deck.names[t]}" for t in table[:2]] + [
                    f"take {shown} {deck.names[others[0]]}"
                ]
        for line in lines:
            got = bot.read(line, view, menu)
            text = str(got)
            if isinstance(got, Action) and got not in legal:
                reason = deal.game.refusal(deal.state, got)
                text = reason or ""
                refusals += reason is not None
            assert not foreign_ids(name, text), f"{line!r}: {text}"
    assert refusals > 0


@pytest.mark.parametrize("name", BUILT_IN_TIERED)
def test_score_and_help_speak_the_variants_own_rules(name):
    for deal in states(name, range(1), every=40):
        said: list[str] = []
        bot = person(deal, said)
        view = deal.view(deal.to_move)
        bot.command("score", [], view, deal.legal_actions())
        text = "\n".join(said)
        assert "totals:" in text and not foreign_ids(name, text), text


def test_chinchon_score_shows_the_bust_limit_and_fishing_the_captures():
    """CH-6.3 out above 100 (CH-V3 on reaching 70); CT-4.1 points captured so far; SC-4.1 cards, coins, scope."""
    said: dict[str, str] = {}
    for name in ("chinchon/fournier", "chinchon/to-70", "gin/standard", "chinese-ten/two-player", "scopa/classic"):
        deal = next(states(name, range(1)))
        lines: list[str] = []
        person(deal, lines).command("score", [], deal.view(deal.to_move), deal.legal_actions())
        said[name] = "\n".join(lines)
    assert "out above 100 points (CH-6.3)" in said["chinchon/fournier"]
    to_70 = variant("chinchon/to-70").options
    limit = "out on reaching" if to_70.get("out_on") == "reaching" else "out above"
    assert f"{limit} {to_70['bust']} points" in said["chinchon/to-70"]
    assert "the game ends when a total reaches 100 points (GR-6.4)" in said["gin/standard"]
    assert re.search(
        r"captured so far: .*you \d+ cards?(?: \(\d+ seen\))?, \d+ points?.* \(CT-4\.1\)",
        said["chinese-ten/two-player"],
    )
    assert re.search(r"captured so far: .*you .*coins?.*scop[ae].*\(SC-4\.1\)", said["scopa/classic"])
    assert "deal 1 of 6 (CT-4.3)" in said["chinese-ten/two-player"]


def test_captured_points_count_what_the_seat_has_seen():
    """CT-4.1: the points of your own pile, all of whose cards you saw go in."""
    deal = next(d for d in states("chinese-ten/two-player", range(1), every=1) if len(d.state.zones["captures.0"]) >= 4)
    view = deal.view(0)
    line = deal.game.standing(view)[0]
    pile = deal.state.zones["captures.0"]
    points = sum(deal.game.point_of[c] for c in pile)
    assert f"you {len(pile)} cards, {points} point" in line


# -- the menu and the picture at any width ------------------------------------------------------
@pytest.mark.parametrize("name", BUILT_IN_TIERED)
def test_the_menu_breaks_between_moves_never_inside_a_word(name):
    for deal in states(name, range(2), every=25):
        view = deal.view(deal.to_move)
        bot = person(deal)
        menu = bot.menu(view, deal.legal_actions())
        faces = bot.faces(view)
        whole = menu_lines(faces, menu, None)
        assert len(whole) == 1
        for width in (60, 80, 100):
            lines = [line.plain for line in menu_lines(faces, menu, width)]
            assert all(len(line) <= width for line in lines), lines
            assert " ".join(" ".join(lines).split()) == " ".join(whole[0].plain.split())  # no word cut or lost
            items = re.findall(r"\[\d+\] .+?(?=  \[|$)", whole[0].plain)
            for item in items:  # each move on one line, where one line can hold it
                if len(item) <= width - 10:
                    assert any(item in line for line in lines), (item, lines)
            for line in [x.plain for x in picture_lines(faces, bot.picture(view, menu), width)]:
                assert len(line) <= width, line


def test_at_80_columns_a_discard_stays_whole():
    """The example of the report: at 80 columns the menu broke 'di / scard 3♥'."""
    deal = next(d for d in states("chinchon/fournier", range(1), every=1) if len(d.legal_actions()) >= 8)
    bot = person(deal)
    view = deal.view(deal.to_move)
    menu = bot.menu(view, deal.legal_actions())
    lines = [line.plain for line in menu_lines(bot.faces(view), menu, 80)]
    assert len(lines) > 1
    for line in lines:
        assert len(line) <= 80 and re.fullmatch(r"( +moves:)?( +\[\d+\] discard [^\[]+)+", line), line


# -- Spanish suits ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", [n for n in BUILT_IN if variant(n).spec.game == "chinchon"])
def test_a_spanish_deck_is_shown_with_its_suits_and_read_back(name):
    """CH-1.2: oros, copas, espadas, bastos; '7h' and '7♥' still read as they always did."""
    deal = variant(name).new_deal(variant(name).player_range()[0], 1)
    bot = person(deal)
    view = deal.view(deal.to_move)
    faces = bot.faces(view)
    deck = deal.game.deck
    assert deck.spanish
    suits = {n.split(" de ")[1].split("/")[0] for n in faces.names if " de " in n}  # jokers are jokers (CH-V7)
    assert suits == {"oros", "copas", "espadas", "bastos"}
    legal = deal.legal_actions()
    for card in deck.ids:
        written = deck.names[card]
        said = {
            str(interpret(t, deck, legal, bot.host.words, "discard"))
            for t in (
                written,
                faces.names[card],
                faces.names[card].replace(" de ", "").upper(),
                "discard " + faces.names[card],
            )
        }
        assert len(said) == 1, (written, said)  # the same move, however the card is typed
    if deck.copies == 1:
        assert interpret("7h", deck, legal) == interpret("7 de copas", deck, legal)
    text = "\n".join(line.plain for line in picture_lines(faces, bot.picture(view, legal)))
    assert "♦" not in text and "♥" not in text and " de " in text


@pytest.mark.parametrize("name", ["gin/standard", "fantan/pagat", "scopa/classic", "chinese-ten/two-player"])
def test_other_decks_keep_their_symbols(name):
    deal = variant(name).new_deal(variant(name).player_range()[0], 1)
    bot = person(deal)
    assert bot.faces(deal.view(0)).names == tuple(deal.game.deck.names)


@pytest.mark.parametrize("name", BUILT_IN_TIERED)
def test_the_hand_is_held_in_the_suit_order_of_the_tables_rows(name):
    """Fan Tan's rows go down in the order the hand is held; every hand keeps one suit order."""
    deal = next(states(name, range(1)))
    bot = person(deal)
    view = deal.view(deal.to_move)
    layout = bot.host.layout
    order = layout.suit_order(view)
    picture = bot.picture(view, deal.legal_actions())
    hand = [c for r in picture.hand if r.label == "your hand" for c in r.cards if isinstance(c, int)]
    suits = [deal.game.deck.suit_of[c] for c in hand]
    assert suits == sorted(suits, key=order.index)
    rows = [r.label.split()[0] for r in picture.table if r.label.endswith(" row")]
    assert rows == sorted(rows, key=order.index)


@pytest.mark.parametrize(("name", "word"), [("chinchon/fournier", "unmatched"), ("gin/standard", "deadwood")])
def test_the_cards_no_meld_takes_are_called_by_the_members_word(name, word):
    """Chinchón counts its unmatched cards (CH-4.3), Gin Rummy its deadwood (GR-1.3): the hand says so."""
    deal = next(states(name, range(1)))
    picture = person(deal).picture(deal.view(deal.to_move), deal.legal_actions())
    labels = [r.label for r in picture.hand]
    assert word in labels and "loose" not in labels


# -- words -----------------------------------------------------------------------------------------
def test_the_title_names_the_dealer_and_the_seat_to_move_in_words():
    deal = variant("fantan/pagat").new_deal(4, 2)
    layout = person(deal).host.layout
    view = deal.view(deal.to_move)
    dealer = view.dealer
    expected = "you" if dealer == view.seat else f"seat {dealer}"
    assert layout.title(view) == f"deal 1: {expected} dealt; your move, seat {view.seat}"
    dealer_view = deal.view(dealer)
    assert layout.title(dealer_view).startswith("deal 1: you dealt;")


def test_one_point_one_card():
    from tapete.layout import cards_words, count_words

    assert (count_words(1, "point"), count_words(2, "point"), count_words(0, "point")) == (
        "1 point",
        "2 points",
        "0 points",
    )
    assert cards_words(1) == "1 card"


# -- the command line --------------------------------------------------------------------------
def tapete(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tapete", *args], capture_output=True, text=True, check=False, cwd=cwd)


@pytest.mark.parametrize(("name", "bot"), [("fantan/pagat", "sensible"), ("oh-hell/classic", "heuristic")])
def test_a_person_and_one_bot_get_the_usual_table_with_the_bot_in_every_other_seat(tmp_path, name, bot):
    """``--bots human,heuristic`` names a person and their opponents' bot, not a two-player game that
    Fan Tan (3-8) or Oh Hell (3-7) cannot be: four seats, told on stderr, and the person's turn comes."""
    result = subprocess.run(
        [sys.executable, "-m", "tapete", "play", name, "--bots", f"human,{bot}", "--seed", "3"],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
    )
    said = result.stdout + result.stderr
    assert f"{name} is for 3-" in result.stderr
    assert f"4 players, the last bot ({bot}) also in seats 2-3 (--players chooses another count)" in result.stderr
    assert f"players 4  seed 3  bots human,{bot},{bot},{bot}" in result.stdout
    assert "seat 0> the input ended: the match is saved in" in said  # the person's seat was asked to move
    assert "Traceback" not in said


@pytest.mark.parametrize("family", sorted({variant(n).spec.path.parent.name for n in BUILT_IN}))
def test_the_built_in_variants_pass_their_own_checks_cleanly(family):
    """The README's 'tapete check variants/fantan/*.yaml', for every family's folder: no warning at all."""
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "variants" / family).glob("*.yaml"))
    result = tapete("check", *files)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == [f"{f}: ok" for f in files], result.stdout + result.stderr
    assert result.stderr == ""


def test_an_option_a_child_variant_leaves_unused_is_the_parents_not_a_warning(tmp_path):
    """A variant replacing the rule that used its parent's option is fine; its own unused option is not."""
    (tmp_path / "c.rules").write_text("match_ends when deal_number >= 2\n", encoding="utf-8")
    child = tmp_path / "c.yaml"
    child.write_text("extends: fantan/pagat\nname: c\nscripts: [c.rules]\n", encoding="utf-8")
    quiet = tapete("check", str(child))
    assert quiet.returncode == 0 and "warning" not in quiet.stdout + quiet.stderr
    child.write_text(child.read_text() + "declare:\n  spare: {type: int, default: 1}\n", encoding="utf-8")
    loud = tapete("check", str(child))
    assert (
        "c.yaml:5:3: warning: option 'spare' is declared but no rule of fantan/c uses it" in loud.stdout + loud.stderr
    )
    assert "wins_to" not in loud.stdout + loud.stderr


def test_faces_rewrite_a_games_sentence_with_the_tables_names():
    deck = variant("chinchon/fournier").rules.deck
    from tapete.core.cards import SPANISH_SUITS, spoken_names

    faces = Faces.of(deck, spoken_names(deck, SPANISH_SUITS))
    assert faces.words("7♦ is not in your hand") == "7 de oros is not in your hand"
    assert (
        faces.words("showing 4♥ 5♥ 6♥, unmatched A♣ (1)")
        == "showing 4 de copas, 5 de copas, 6 de copas, unmatched A de bastos (1)"
    )
    assert faces.words("no card '7x'") == "no card '7x'"


@pytest.mark.parametrize("name", BUILT_IN_TIERED)
def test_a_deal_at_the_table_reads_in_the_games_own_words(name, tmp_path, monkeypatch):
    """A person plays deals against the game's best bot: every word shown is the variant's own.

    No rule id of another game, no '1 points' or '1 cards', the last moves of a deal told
    before its score, and the table waiting before the next deal."""
    from typer.testing import CliRunner

    from tapete.cli.main import app

    monkeypatch.chdir(tmp_path)  # the input runs out: the match is saved here
    v = variant(name)
    bots = f"human,{v.game_class.default_bot}"
    typed = ("help\nscore\nlog\npass\n" + "1\n" * 60) * 5
    result = CliRunner().invoke(
        app, ["play", name, "--bots", bots, "--players", str(v.default_players()), "--seed", "1"], input=typed
    )
    out = result.output
    assert result.exit_code in (0, 1) and "Traceback" not in out, out[-2000:]
    assert not foreign_ids(name, out), sorted(set(foreign_ids(name, out)))
    assert not re.search(r"(?<![\d.])1 (points|cards|chips|deals|coins|scope)\b", out), re.findall(
        r".*\b1 (?:points|cards)\b.*", out
    )
    if "-- deal 2," in out:  # the match went on: the table waited for the person first
        ended = out.index("deal 1 scores") if "deal 1 scores" in out else out.index("deal 1 is void")
        assert ended < out.index("deal 1 is over; press Enter for deal 2") < out.index("-- deal 2,")
    if "Winner: seat" in out or "Draw after" in out:
        assert re.search(r"^(you won the match|you lost the match: seat \d won|the match is a draw)", out, re.M)


def test_a_close_the_rules_do_not_allow_is_refused_in_the_members_words():
    """CH-4.3 closing / GR-4.3 knocking, the points left counted as a person says them."""
    from tapete.testing import deal_from_zones

    zones = {
        "hand.0": ["A♥", "2♥", "3♥", "5♣", "5♦", "5♠", "7♣", "K♣"],
        "hand.1": ["K♦", "Q♠", "J♠", "4♦", "6♦", "7♦", "2♣"],
        "stock": ["4♣", "6♣"],
        "discard": ["Q♦"],
        "facedown": [],
    }
    deal = deal_from_zones("chinchon/fournier", zones, counters={"drawn": 1})
    deck = deal.game.deck
    why = deal.game.refusal(deal.state, Action("close", (deck.parse("7♣"),)))
    assert why == (
        "the close rule does not allow closing with 7♣ face down: the other cards leave 10 points unmatched "
        "in 1 card (CH-4.3)"
    )
    shown = person(deal).faces(deal.view(0)).words(why)
    assert "closing with 7 de bastos face down" in shown
