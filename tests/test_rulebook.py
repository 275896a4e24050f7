"""``tapete rules``: every registered variant's players' rulebook says its moves, its options and its rules.

The rulebook is generated from the rules a variant plays, so these tests ask what a player
would notice: a move the game offers that the rulebook never mentions, an option whose
value is not printed (or whose change leaves the text as it was), a rule in force that no
section states, a rule id of another game's document.
"""

from __future__ import annotations

import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from tapete import ErrorList, Random, TapeteError, load_variant
from tapete.design.rulebook import render_html, render_markdown, render_text, rulebook
from tapete.testing import variant, variant_names, variant_params

ROOT = Path(__file__).resolve().parent.parent
NAMES = variant_names()
PREFIX = {"fantan": "FT", "chinchon": "CH", "gin": "GR", "chinese-ten": "CT", "scopa": "SC"}


@cache
def kinds_played(name: str, deals: int = 4) -> frozenset[str]:
    """Every kind of move the game offered in a few random deals of the variant (at its default count)."""
    v = variant(name)
    found: set[str] = set()
    for seed in range(deals):
        deal = v.new_deal(seed=seed, record=False)
        rng = Random(seed, "kinds")
        while not deal.over:
            legal = deal.legal_actions()
            found.update(a.kind for a in legal)
            deal.play(legal[rng.below(len(legal))])
    return frozenset(found)


def _cases(cases) -> str:
    return " ".join(c.line() + " " + _cases(c.cases) for c in cases)


def body(book) -> str:
    """The rulebook's rules, without the options list and the differences (which repeat the values)."""
    return "\n".join(i.text + _cases(i.cases) for s in book.sections for i in s.items)


@pytest.mark.parametrize("name", variant_params())
def test_the_rulebook_names_every_move_kind_and_every_option_value(name):
    v = variant(name)
    book = rulebook(v)
    kinds = {m.split()[0] for m in book.moves}
    missing = kinds_played(name) - kinds
    assert not missing, f"moves the game offers that the rulebook does not list: {sorted(missing)}"
    text = "\n".join(render_text(book))
    for opt in v.spec.declarations:
        shown = "true" if v.options[opt] is True else "false" if v.options[opt] is False else str(v.options[opt])
        assert f"{opt} = {shown}" in text, f"option {opt} is not printed with its value"
    assert book.problems == []  # every {statement} a family sentence quotes is in force
    for section in ("Players and cards", "The deal", "A turn", "Scoring", "The end"):
        assert book.section(section) is not None, f"no {section!r} section"
    if v.game_class.__module__.startswith("tapete_plugins."):  # tapete's own games state every rule
        assert book.section("Other rules") is None, "a rule in force that no section states"


@pytest.mark.parametrize("name", [n for n in NAMES if n.split("/")[0] in PREFIX])  # a plugin's ids are its own
def test_every_rule_id_is_one_of_its_own_games(name):
    book = rulebook(variant(name), ids=True)
    ids = {i for s in book.sections for item in s.items for i in item.ids}
    prefix = PREFIX[name.split("/")[0]]
    assert ids, "no rule ids at all"
    assert {i.split("-")[0] for i in ids} == {prefix}, sorted(ids)


def _other_value(decl, now):
    if decl.type == "bool":
        return not now
    if decl.type == "choice":
        return next(c for c in decl.choices if c != now)
    if decl.type == "int":
        up = now + 1
        return up if decl.max is None or up <= decl.max else now - 1
    return None


@pytest.mark.parametrize("name", variant_params())
def test_changing_an_option_changes_the_rules_it_reaches(name):
    """An option's value reaches the rulebook's rules, not just its options list."""
    from tapete.design.designer_checks import unused_options

    v = variant(name)
    book = rulebook(v)
    before = body(book)
    idle = unused_options(v)
    for opt in idle:  # said so, rather than a value printed that does nothing
        doc = next(d for n, _, _, d in book.options if n == opt)
        assert doc.endswith("(no rule of this variant uses it: changing it changes nothing)")
    for opt, decl in v.spec.declarations.items():
        other = _other_value(decl, v.options[opt])
        if other is None or opt in idle:
            continue
        try:
            changed = load_variant(name, options={**v.options, opt: other})
        except (ErrorList, TapeteError):
            continue  # a value the variant cannot be played with (a deal that no longer fits the deck)
        assert body(rulebook(changed)) != before, f"{opt} = {other} changes nothing in the rules printed"


def test_a_variant_that_extends_another_says_how_it_differs():
    book = rulebook(variant("chinchon/to-70"))
    assert book.base == "chinchon/fournier"
    text = "\n".join(render_text(book))
    assert "DIFFERENCES FROM CHINCHON/FOURNIER" in text
    assert "bust = 70 (default 100)" in text
    assert "out_on: exceeding → reaching (a player is out on reaching the limit)" in text
    assert rulebook(variant("chinchon/fournier")).base is None


def test_ids_and_option_names_only_when_asked():
    plain = "\n".join(render_text(rulebook(variant("chinchon/fournier"))))
    marked = "\n".join(render_text(rulebook(variant("chinchon/fournier"), ids=True), ids=True))
    assert "CH-4.3" not in plain and "[close_limit]" not in plain
    assert re.search(r"close CARD: .*at most 5 \[close_limit\]", marked.replace("\n    ", " "))
    assert "[CH-4.3]" in marked


def test_a_seat_is_told_what_it_sees_and_what_it_does_not():
    book = rulebook(variant("scopa/scopone"), seat=1)
    seen = book.section("What you see")
    assert seen is not None
    text = " ".join(i.text for i in seen.items)
    assert "You are seat 1 of 4" in text and "Your partner: seat 3" in text
    assert "You see: your hand; the table" in text
    assert "seat 0's hand" in text and "the stock" in text
    with pytest.raises(TapeteError, match="not a seat"):
        rulebook(variant("scopa/scopone"), seat=4)


def test_markdown_and_html_carry_the_same_rules():
    book = rulebook(variant("gin/standard"), ids=True)
    md, page = render_markdown(book, ids=True), render_html(book, ids=True)
    assert md.startswith("# Gin Rummy\n")
    assert "- **`knock CARD`**: " in md and "[GR-4.3" in md
    assert page.startswith("<!DOCTYPE html>") and "<h2>A turn</h2>" in page and "<code>knock CARD</code>" in page
    for item in book.sections[0].items:
        assert item.text in md


def tapete(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tapete", *args], capture_output=True, text=True, cwd=cwd, timeout=120, check=False
    )


def test_the_command_prints_writes_and_refuses(tmp_path):
    shown = tapete("rules", "fantan/pagat", "--ids")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("Sevens as Pagat plays it\n")
    assert "play CARD: Play exactly one card" in shown.stdout and "[FT-3.1, FT-3.7]" in shown.stdout
    out = tmp_path / "rules.html"
    wrote = tapete("rules", "chinchon/two-decks", "--format", "html", "--seat", "2", "--out", str(out))
    assert wrote.returncode == 0, wrote.stderr
    page = out.read_text(encoding="utf-8")
    assert "<h2>What you see</h2>" in page and "You are seat 2 of 6" in page
    md = tapete("rules", "chinchon/fournier", "-o", "close_limit=3", "--format", "md")
    assert "at most 3" in md.stdout and "`close_limit` = **3** (default 5)" in md.stdout
    bad = tapete("rules", "fantan/pagat", "--format", "pdf")
    assert bad.returncode == 1 and "--format must be one of text, md, html, not 'pdf'" in bad.stderr
    seat = tapete("rules", "fantan/pagat", "--seat", "9")
    assert seat.returncode == 1 and "seat 9 is not a seat of a 4-player game" in seat.stderr


ROOT_DOCS = ROOT / "docs" / "rulebooks"


@pytest.mark.parametrize("page", sorted(ROOT_DOCS.glob("*.md")), ids=lambda p: p.name)
def test_the_rulebooks_in_the_docs_are_what_tapete_rules_prints(page):
    text = page.read_text(encoding="utf-8")
    name = re.search(r"\(`([\w-]+/[\w-]+)`\)", text)
    assert name is not None
    book = rulebook(variant(name.group(1)), ids=True)
    assert text == render_markdown(book, ids=True), f"regenerate: tapete rules {name.group(1)} -f md --ids"


def test_the_docs_show_one_rulebook_per_family():
    shown = {re.search(r"\(`([\w-]+)/", p.read_text(encoding="utf-8")).group(1) for p in ROOT_DOCS.glob("*.md")}
    assert {"fantan", "chinchon", "chinese-ten", "hearts", "briscola"} <= shown


def test_the_table_rules_command_prints_the_rulebook(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    import os

    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "tapete", "play", "fantan/pagat", "--bots", "human,sensible,sensible", "--seed", "2"],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(60, 200),
    )
    child.expect("seat 0> ")
    child.sendline("rules")
    child.expect("seat 0> ")
    said = child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "Sevens as Pagat plays it" in said and "A TURN" in said and "play CARD: " in said


def test_a_family_without_a_rulebook_hook_is_told_by_its_table_help(monkeypatch):
    """A game that says its moves only for the table's help (`Game.moves_help`) gets them in the rulebook too."""
    game_class = variant("fantan/pagat").game_class
    monkeypatch.setattr(game_class, "rulebook", lambda self: [])
    book = rulebook(variant("fantan/pagat"))
    helped = variant("fantan/pagat").new_game().moves_help()
    assert helped and book.moves == [m.typed for m in helped]
    monkeypatch.setattr(game_class, "moves_help", lambda self: [])
    seen = rulebook(variant("fantan/pagat"))  # nothing said at all: the kinds of move seen in play
    assert {m.split()[0] for m in seen.moves} == {"play", "pass"}


def test_the_web_table_shows_the_rulebook_the_command_line_hands_it(tmp_path):
    pytest.importorskip("starlette", reason="the web table needs the web extra")
    from tapete.design.rulebook import rulebook_lines
    from tapete.web.app import Hub
    from tapete.web.store import Store

    lines = Hub(Store(tmp_path / "t.db"), rules_text=rulebook_lines).rules("chinchon/fournier")
    assert lines[0] == "Chinchón as Fournier prints it" and "A TURN" in lines
    assert any(line.startswith("  * close CARD: ") for line in lines)
    plain = Hub(Store(tmp_path / "u.db")).rules("chinchon/fournier")  # served from Python without it
    assert "A TURN" not in plain
