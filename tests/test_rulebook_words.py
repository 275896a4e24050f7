"""The rulebook and the diff read as sentences, over every registered variant and every pair of a game.

A player reads ``tapete rules`` and ``tapete diff``; a dangling connective ("otherwise:" with
no case before it), an arrow into nothing ("→ =") or a rule script's own keyword ("leader =",
"discard_taken = false") is a sentence they cannot read. The sweep runs both commands in this
process over every variant the registry has, so a new game is covered the day it is added;
the named cases below are the defects a reader found, each kept as a test.
"""

from __future__ import annotations

import itertools
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from tapete import load_variant
from tapete.cli import app
from tapete.core.errors import ErrorList
from tapete.design.diff import compare
from tapete.design.rulebook import render_text, rulebook
from tapete.design.wording import Case
from tapete.testing import variant, variant_names

NAMES = variant_names()
GAMES = sorted({n.split("/")[0] for n in NAMES})


def printed(v) -> str:
    """The rulebook as ``tapete rules`` prints it, its wrapped lines joined (a sentence is found whole)."""
    return " ".join(" ".join(render_text(rulebook(v))).split())


def keywords(name: str) -> set[str]:
    """The statement keys of a variant's game: what a rule script says and a player never reads."""
    v = variant(name)
    return set(v.registry.vocabulary(v.spec.game).statements)


def unreadable(text: str, keys: set[str]) -> list[str]:
    """What in one printed line a player cannot read: the reasons, none when it reads."""
    found = []
    if "→ =" in text or re.search(r"→\s*$", text):
        found.append("an arrow into nothing")
    for part in re.split(r" → |; |: ", text):
        part = re.sub(r"^(added|removed): ", "", part.strip())
        first = part.split(" ", 2)
        if len(first) > 1 and first[0] in keys and (first[1] in ("=", "when") or first[0] != first[0].lower()):
            found.append(f"a rule script's keyword: {part[:40]!r}")
    if re.search(r"\{[a-z_]+[^}]*\}", text):
        found.append("a placeholder left unfilled")
    return found


def dangling(cases: list[Case]) -> list[str]:
    """Case lists whose first line is "otherwise" (nothing before it), at any depth."""
    out = []
    if cases and cases[0].when is None and not cases[0].term:
        out.append(cases[0].line())
    for c in cases:
        out += dangling(c.cases)
    return out


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


@pytest.mark.parametrize("game", GAMES)
def test_every_rulebook_of_a_game_reads_as_sentences(game, runner):
    """``tapete rules`` on every variant of the game: no dangling "otherwise", arrow or script keyword."""
    for name in variant_names(game):
        keys = keywords(name)
        book = rulebook(variant(name))
        problems = [(item.text, d) for s in book.sections for item in s.items for d in dangling(item.cases)]
        assert not problems, f"{name}: a lone 'otherwise' under {problems[0][0]!r}"
        for line in [*(i.text for s in book.sections for i in s.items), *book.differences]:
            assert not unreadable(line, keys), f"{name}: {unreadable(line, keys)} in {line!r}"
    shown = runner.invoke(app, ["rules", name])  # the command prints the same book (its last variant here)
    assert shown.exit_code == 0, shown.output
    assert " ".join(shown.output.split()) == " ".join(" ".join(render_text(book)).split())


@pytest.mark.parametrize("game", GAMES)
def test_every_diff_of_a_game_reads_as_whole_sentences_each_once(game, runner):
    """``tapete diff A B`` on every ordered pair of the game's variants: sentences, none listed twice, and an
    option whose change a rule's sentence says is named there rather than on a line of its own."""
    names = variant_names(game)
    for a, b in itertools.permutations(names, 2):
        found = compare(variant(a), variant(b))
        lines = found.lines()
        assert len(lines) == len(set(lines)), f"{a} → {b}: a line listed twice"
        keys = keywords(a) | keywords(b)
        for line in lines:
            assert not unreadable(line, keys), f"{a} → {b}: {unreadable(line, keys)} in {line!r}"
        named = {o for c in found.changes for o in c.detail.get("options", [])}
        assert not [c for c in found.changes if c.kind == "option" and c.key in named], f"{a} → {b}: twice"
    a, b = names[0], names[-1]
    printed = runner.invoke(app, ["diff", a, b])
    assert printed.exit_code == 0 and "→ =" not in printed.output


def test_the_leader_change_reads_whole_in_the_diff_and_the_rulebook():
    """CT: Taiwan's dealer plays first; it was printed 'leader = the player after the dealer → = the'."""
    lines = compare(variant("chinese-ten/four-player"), variant("chinese-ten/taiwan")).lines()
    assert "The player after the dealer moves first → The dealer moves first" in lines
    book = rulebook(variant("chinese-ten/taiwan"))
    assert book.differences[0] == "The player after the dealer moves first → The dealer moves first"


def test_an_option_read_by_one_sentence_is_said_once():
    """hand, table and stock change one dealing sentence of Main Merah: one line, the options named in it."""
    lines = compare(variant("chinese-ten/two-player"), variant("chinese-ten/main-merah")).lines()
    deal = [line for line in lines if line.startswith("The dealer deals 12 cards")]
    assert len(deal) == 1 and deal[0].endswith("(options hand, stock, table)")
    assert not any(line.startswith(("option hand", "option table", "option stock")) for line in lines)
    assert "The break-even is 105 points: a deal's result is your points minus it → " in "\n".join(
        compare(variant("chinese-ten/two-player"), variant("chinese-ten/four-player")).lines()
    )


def test_script_syntax_no_longer_shows_in_a_diff():
    """'discard_taken = false → discard_taken = true' and 'opening none → opening redeal K', in words."""
    gin = compare(variant("gin/standard"), variant("gin/discard-taken")).lines()
    assert gin == [
        "A card you have just taken from the discard pile may not be discarded in the same turn → "
        "A card taken from the discard pile may be discarded at once"
    ]
    scopa = compare(variant("scopa/classic"), variant("scopa/kings")).lines()
    assert (
        "The opening table has no special rule → "
        "If the opening table holds three or four cards of one of the ranks K, the cards are dealt again"
    ) in scopa


@pytest.mark.parametrize("name", ["fantan/chips", "gin/oklahoma"])
def test_a_score_that_depends_on_conditions_starts_with_a_condition(name):
    """A lone 'otherwise:' was the whole score of fantan/chips and gin/oklahoma: now each case has its 'if'."""
    (item,) = [i for i in rulebook(variant(name)).section("Scoring").items if i.text.startswith("After each deal")]
    assert item.cases[0].when is not None and item.cases[-1].when is None
    assert "× 0" not in printed(variant(name))


def test_fantan_chips_says_its_score_case_by_case():
    """FT-V3: the winner takes the pool and a chip per card left, the others pay theirs; both less the chips paid."""
    (item,) = [i for i in rulebook(variant("fantan/chips")).section("Scoring").items if i.cases]
    assert [c.when for c in item.cases] == ["you have played your last card", None]
    assert item.cases[0].value.endswith("− the number of chips you have put into the pool this deal")


def test_gin_has_no_stock_reshuffle_and_chinchon_has_one():
    """GR-5.3: a Gin deal is void at two stock cards, so the stock never runs out; CH-4.4 reshuffles it."""
    assert "shuffled into a new stock" not in printed(variant("gin/standard"))
    assert "shuffled into a new stock" in printed(variant("chinchon/fournier"))


def test_chinese_ten_mentions_bonuses_only_where_there_are_bonus_rules():
    """CT-4.2: the base game's deal result is the pile's points less the break-even; Taiwan adds the red fives."""
    assert "bonus" not in printed(variant("chinese-ten/two-player")).lower()
    assert "your bonuses" in printed(variant("chinese-ten/taiwan"))


def test_a_single_rank_takes_the_table_in_the_singular():
    """SC-V4 in scopa/assi: 'An A takes the whole table', not 'An A take'."""
    text = printed(variant("scopa/assi"))
    assert "An A takes the whole table" in text and "An A take " not in text


def test_chinchon_says_its_tie_break_and_what_a_deal_won_is():
    """CH-6.5: when everyone left would go out, the lowest total stays in (all who share it play on); a deal won
    is only counted, since the totals decide. Gin and Fan Tan keep no such rule."""
    text = printed(variant("chinchon/fournier"))
    assert "only the player with the lowest total stays in, and wins; if several share the lowest total" in text
    assert "You win the deal when you closed (a deal won is only counted: the match is decided by the totals)" in text
    assert "those with the lowest total stay in" not in text
    fantan = printed(variant("fantan/pagat"))
    assert "a deal won is only counted" not in fantan  # Sevens is won on deal wins


def test_the_options_line_says_the_choice_in_force():
    """The OPTIONS line said every choice ('out on going above the limit or on reaching it'): now the one in force."""
    to70 = printed(variant("chinchon/to-70"))
    assert "out_on = reaching (default exceeding): a player is out on reaching the limit (other choice" in to70
    fournier = printed(variant("chinchon/fournier"))
    assert "out_on = exceeding: a player is out on going above the limit (other choice: reaching)" in fournier
    assert "court_values = position: court cards count their place in the order" in fournier
    low = printed(variant("fantan/low-ace"))
    assert "ace = low (default high): the ace ranks below the two (other choice: high)" in low
    wild = printed(load_variant("chinchon/wild-cards", options={"ace_of_coins_wild": False}))
    assert "ace_of_coins_wild = false (default true): not in force; when true: the ace of coins" in wild


def write(tmp_path, choices: str):
    (tmp_path / "v.yaml").write_text(
        "extends: fantan/pagat\nname: v\ndeclare:\n  style:\n    type: choice\n"
        f"    choices: {choices}\n    default: calm\n    doc: how the table plays\n",
        encoding="utf-8",
    )
    return tmp_path / "v.yaml"


def test_a_variant_file_may_say_what_each_choice_means(tmp_path):
    v = load_variant(write(tmp_path, "{calm: nobody hurries, fast: a turn lasts a breath}"), options={"style": "fast"})
    text = printed(v)
    assert "style = fast (default calm): a turn lasts a breath (other choice: calm)" in text


def test_a_choice_meaning_that_is_not_words_is_refused_where_written(tmp_path):
    path = write(tmp_path, "{calm: nobody hurries, fast: [1, 2]}")
    with pytest.raises(ErrorList) as info:
        load_variant(path)
    assert re.search(r"v\.yaml:\d+:\d+: declare\.style\.choices\.fast: says what this choice means", str(info.value))
    cli = subprocess.run(
        [sys.executable, "-m", "tapete", "rules", str(path)], capture_output=True, text=True, timeout=120
    )
    assert cli.returncode == 1 and "Traceback" not in cli.stderr and "declare.style.choices.fast" in cli.stderr
