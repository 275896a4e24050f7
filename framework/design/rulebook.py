"""``tapete rules``: a players' rulebook generated from a variant's resolved rules.

The rulebook is written from what the variant plays, never from a separate text: the
statements in force (after ``extends:``, overlays and ``if`` choices, with the options'
values), the core's and the family's words (their ``rulebook`` phrases), and what the
family says about its own mechanics through `Game.rulebook` (how cards are dealt, the
moves of a turn, melds, rows, captures). A rule printed here is therefore the rule
``tapete play`` enforces. Rule ids come from the comments next to the statements in the
scripts and from the family's `RuleText.ids`; ``--ids`` shows them.

The sections follow the rule pages people print: players and cards, the deal, what each
player sees, a turn, the family's own sections, card values, scoring, the end of a deal
and of the match, the options, and how the variant differs from the one it extends. Any
statement no section states is listed under "Other rules", so nothing in force is left
out.
"""

from __future__ import annotations

import html
import re
import textwrap
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.outputs import generator
from ..rules import tree as t
from ..rules.variant_file import OptionDecl, option_text
from .wording import Case, Words, describe_values, strip_ids, third_person

if TYPE_CHECKING:
    from ..game import Game, RuleText
    from ..play.loading import Variant

CORE_TITLES = ("Players and cards", "The deal", "What each player sees", "A turn")
LATE_TITLES = ("Card values", "Scoring", "The end", "Other rules")
MERGED = {"The deal", "A turn", "Scoring", "The end"}  # titles a family adds to
RULE_ID = re.compile(r"\b[A-Z]{2}-V?\d+(?:\.\d+)?\b")
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)((?: [^{}.@]+)?)(?:\.(value|condition))?(?:@([^{}]+))?\}")
ZONE_WORDS = {
    "hand": "hands",
    "stock": "the stock",
    "discard": "the discard pile",
    "facedown": "the face-down card",
    "meld": "shown melds",
    "row": "the rows on the table",
    "table": "the table",
    "turned": "a turned stock card",
    "captures": "capture piles",
}
MODE_WORDS = {
    "all": "face up: everyone sees every card",
    "own": "each player sees their own; of the others', only how many cards",
    "top": "only the top card shows, and how many cards there are",
    "count": "face down: only how many cards",
    "none": "hidden, even how many cards",
}
DECK_WORDS = {
    "french52": "a French deck of 52 cards",
    "spanish40": "a Spanish deck of 40 cards (no 8s, 9s or 10s)",
    "spanish48": "a Spanish deck of 48 cards (no 10s)",
}
SKIPPED = {"game"}
UNUSED = "no rule of this variant uses it: changing it changes nothing"  # a statement that says nothing to a player


@dataclass
class Item:
    """One rule as printed: its sentence, the rule ids it rests on, and cases of a value."""

    text: str
    ids: list[str] = field(default_factory=list)
    move: str = ""
    cases: list[Case] = field(default_factory=list)
    covers: list[tuple[str, str]] = field(default_factory=list)  # the statements it says (the diff's words)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text, "ids": self.ids}
        if self.move:
            out["move"] = self.move
        if self.cases:
            out["cases"] = [_case_json(c) for c in self.cases]
        return out


@dataclass
class Section:
    title: str
    items: list[Item] = field(default_factory=list)


@dataclass
class Rulebook:
    """A variant's rules as sections of items, ready to print as text, Markdown or HTML."""

    name: str
    title: str
    subtitle: str
    sections: list[Section]
    options: list[tuple[str, str, str, str]]  # name, value, default, doc
    base: str | None = None  # the variant this one extends
    differences: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # placeholders a family wrote that name nothing in force

    def section(self, title: str) -> Section | None:
        return next((s for s in self.sections if s.title == title), None)

    @property
    def moves(self) -> list[str]:
        """The moves of a turn as a player types them (``draw stock``, ``close CARD``)."""
        return [i.move for s in self.sections for i in s.items if i.move]

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.name,
            "title": self.title,
            "subtitle": self.subtitle,
            "sections": [{"title": s.title, "items": [i.to_json() for i in s.items]} for s in self.sections],
            "options": [{"name": n, "value": v, "default": d, "doc": doc} for n, v, d, doc in self.options],
            "base": self.base,
            "differences": self.differences,
        }


def _case_json(c: Case) -> dict[str, Any]:
    return {"when": c.when, "value": c.value, "term": c.term, "cases": [_case_json(x) for x in c.cases]}


# -- rule ids from the scripts --------------------------------------------------------
def statement_ids(variant: Variant, item: t.Statement | t.Table) -> list[str]:
    """Rule ids in the comment on a statement's line and in the comment lines just above it.

    A script cites its rules in comments (``close when unmatched <= close_limit  # CH-4.3``);
    comments above an ``if`` block count for the statements inside it."""
    text = variant.rules.sources.get(item.pos.path, "")
    lines = text.splitlines()
    n = item.pos.line - 1
    if not 0 <= n < len(lines):
        return []
    found = RULE_ID.findall(lines[n].split("#", 1)[1]) if "#" in lines[n] else []
    k = n - 1
    while k >= 0:
        line = lines[k].strip()
        if line.startswith("#"):
            found = RULE_ID.findall(line) + found
        elif re.fullmatch(r"(\}\s*else\s*\{|if .*\{|\})", line):
            pass  # block syntax between the comment and the statement
        else:
            break
        k -= 1
    return _unique(found)


def _unique(ids: list[str]) -> list[str]:
    return list(dict.fromkeys(ids))


# -- building ---------------------------------------------------------------------------
class _Builder:
    def __init__(self, variant: Variant, names: bool):
        self.variant = variant
        self.rules = variant.rules
        self.spec = variant.spec
        self.game: Game = variant.new_game()
        self.vocab = variant.registry.vocabulary(self.spec.game)
        self.words = Words(self.rules, self.vocab, names=names, phrases=self.game.rulebook_phrases())
        self.covered: set[tuple[str, str]] = {("game", "")}
        self.problems: list[str] = []
        self.sections: dict[str, Section] = {}
        self.pending: list[tuple[str, str]] = []  # statements covered since the last item: that item's covers

    # statements
    def has(self, key: str, first: str = "") -> bool:
        return self.rules.has(key, first)

    def item(self, key: str, first: str = "") -> t.Statement | t.Table | None:
        return self.rules.statement(key, first)

    def cover(self, key: str, first: str | None = None) -> list[str]:
        """Mark a statement (every one of a repeatable key when ``first`` is None) as stated; its ids."""
        ids: list[str] = []
        pairs = [(f, s) for f, s in self.rules.each(key)] if first is None else []
        if first is not None and self.has(key, first):
            pairs = [(first, self.rules.statement(key, first))]  # type: ignore[list-item]
        for f, s in pairs:
            self.covered.add((key, f))
            self.pending.append((key, f))
            ids += statement_ids(self.variant, s)
        return ids

    def add(self, title: str, text: str, ids: list[str] | None = None, **kw: Any) -> Item:
        item = Item(_sentence(text), _unique(ids or []), covers=list(dict.fromkeys(self.pending)), **kw)
        self.pending = []
        self.sections.setdefault(title, Section(title)).items.append(item)
        return item

    def fill(self, text: str) -> tuple[str, list[str]]:
        """A family's sentence with its ``{statement}`` parts said from this variant's rules."""
        ids: list[str] = []

        def part(m: re.Match[str]) -> str:
            key, first, which = m.group(1), (m.group(2) or "").strip(), m.group(3)
            item = self.item(key, first)
            if not isinstance(item, t.Statement):
                self.problems.append(f"{{{m.group(0)[1:-1]}}} names no statement in force")
                return "?"
            ids.extend(self.cover(key, first))
            said = self.part(item, which)
            return third_person(said, m.group(4)) if m.group(4) else said

        return PLACEHOLDER.sub(part, text), ids

    def part(self, item: t.Statement, which: str | None = None) -> str:
        if which == "value" or (which is None and item.condition is None and item.value is not None):
            assert item.value is not None
            return self.words.value(item.value)
        if item.condition is not None:
            return self.words.clause(item.condition)
        return " ".join(str(w) for w in item.words)

    def value(self, key: str) -> str:
        item = self.item(key)
        assert isinstance(item, t.Statement) and item.value is not None
        return self.words.value(item.value)

    def clause(self, key: str, first: str = "") -> str:
        item = self.item(key, first)
        assert isinstance(item, t.Statement) and item.condition is not None
        return self.words.clause(item.condition)

    def family(self, extra: list[tuple[str, list[RuleText]]]) -> list[str]:
        """The family's sections: merged into the core's, or new ones in their order."""
        order: list[str] = []
        for title, texts in extra:
            for rt in texts:
                text, ids = self.fill(rt.text)
                for key in rt.covers:
                    key, _, first = key.partition(" ")
                    ids += self.cover(key, first if first else None)
                self.add(title, text, [*rt.ids, *ids], move=rt.move)
            if title not in MERGED and title not in order and title not in CORE_TITLES + LATE_TITLES:
                order.append(title)
        return order


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", ":", "!", "?")) else text + "."


def rulebook(variant: Variant, ids: bool = False, seat: int | None = None, players: int | None = None) -> Rulebook:
    """The players' rulebook of a loaded variant; ``seat`` adds what that seat sees (at ``players``)."""
    book = _book(variant, ids, seat, players, options=True)
    from .diff import base_of, compare

    base = base_of(variant)
    if base is not None:
        book.base = base.name
        book.differences = compare(base, variant).lines() or ["it plays the same"]
    return book


def sentences(variant: Variant) -> dict[tuple[str, str], list[str]]:
    """Each statement in force and the rulebook's sentences that say it, cases written out on the line.

    `tapete diff` says a changed rule with these, so a difference reads as the rulebook does."""
    out: dict[tuple[str, str], list[str]] = {}
    for section in _book(variant, False, None, None, options=False).sections:
        for item in section.items:
            text = (f"{item.move}: " if item.move else "") + item.text
            if item.cases:
                text = text.rstrip(":.") + ": " + "; ".join(_flat_cases(item.cases))
            for key in item.covers:
                out.setdefault(key, []).append(text.rstrip("."))
    return out


def meaning(game: Game, decl: OptionDecl, value: Any) -> str | None:
    """What the choice ``value`` of a choice option means: from the variant file's ``choices:`` mapping, else
    from the family's `Game.option_meanings`; None when neither says."""
    if decl.meanings and str(value) in decl.choices:
        return decl.meanings[decl.choices.index(str(value))]
    return game.option_meanings().get(decl.name, {}).get(str(value))


def _in_force(game: Game, decl: OptionDecl, value: Any, ids: bool) -> str:
    """What an option's value in force means: the meaning of that choice, or the doc of a yes/no option
    said as on or off, rather than a doc that lists every choice."""

    def said(text: str) -> str:
        return text if ids else strip_ids(text)

    means = meaning(game, decl, value) if decl.type == "choice" else None
    if means is not None:
        others = [c for c in decl.choices if c != str(value)]
        return said(means) + f" (other choice{'s' * (len(others) > 1)}: {', '.join(others)})"
    if decl.type == "bool" and value is False:
        return f"not in force; when true: {said(decl.doc)}"
    return said(decl.doc)


def _flat_cases(cases: list[Case]) -> list[str]:
    out = []
    for c in cases:
        line = c.line()
        out.append(line + (" (" + "; ".join(_flat_cases(c.cases)) + ")" if c.cases else ""))
    return out


def _book(variant: Variant, ids: bool, seat: int | None, players: int | None, options: bool) -> Rulebook:
    """The rulebook without its differences; ``options=False`` leaves out the OPTIONS lines (which play
    each option's values to find those no rule reads: the slow part, and no sentence of the rules)."""
    b = _Builder(variant, ids)
    rules, spec, game = b.rules, b.spec, b.game
    _players_and_cards(b)
    _dealing(b)
    family_order = b.family(game.rulebook())
    if not any(i.move for i in b.sections.get("A turn", Section("")).items):
        helped = game.moves_help()  # the moves the table's help lists, when the family says no more
        for m in helped:
            b.add("A turn", m.does, list(m.rules), move=m.typed)
        if not helped:
            _moves_seen(b)
    _leader(b)
    _seeing(b)
    if seat is not None:
        _seat(b, seat, players)
    _tables(b)
    _scoring(b)
    _end(b)
    _others(b)
    head, _, tail = spec.summary.partition(" - ")
    titles = [*CORE_TITLES[:3], *(["What you see"] if seat is not None else []), CORE_TITLES[3], *family_order]
    titles += list(LATE_TITLES)
    sections = [b.sections[title] for title in titles if title in b.sections and b.sections[title].items]
    from .designer_checks import unused_options

    idle = set(unused_options(variant)) if options else set()
    said = [
        (
            name,
            option_text(rules.options.get(name)),
            option_text(decl.default),
            _in_force(game, decl, rules.options.get(name), ids) + (f" ({UNUSED})" if name in idle else ""),
        )
        for name, decl in spec.declarations.items()
        if options
    ]
    return Rulebook(spec.full_name, head or spec.full_name, tail, sections, said, problems=b.problems)


# -- the core's sections --------------------------------------------------------------
def _players_and_cards(b: _Builder) -> None:
    rules, spec = b.rules, b.spec
    lo, hi = b.variant.player_range()
    count = f"{lo} players" if lo == hi else f"{lo} to {hi} players"
    if lo != hi and spec.players:
        count += f" ({spec.players} unless you agree otherwise)"
    teams = int(rules.constant("teams", 0))
    if teams:
        count += f", in {teams} partnerships: partners sit apart, taking every {_nth(teams)} seat round the table"
        if teams == 2:
            count += " (with four, partners sit opposite each other)"
    else:
        count += ", each playing for themselves"
    title = CORE_TITLES[0]
    b.add(title, count, b.cover("players", "") + b.cover("teams", ""))
    deck = rules.deck
    what = (
        DECK_WORDS.get(deck.name)
        or f"a deck of {len(deck) - deck.jokers} cards: {' '.join(deck.ranks)} in {' '.join(deck.suits)}"
    )
    parts = [f"{len(deck)} cards: {what}"]
    if deck.copies > 1:
        parts.append(f"{deck.copies} such decks shuffled together")
    if deck.jokers:
        parts.append(f"{deck.jokers} joker{'s' * (deck.jokers > 1)} added")
    b.add(title, ", ".join(parts), b.cover("deck", "") + b.cover("decks", "") + b.cover("jokers", ""))
    order = " ".join(rules.order)
    ace = rules.constant("ace", None) if rules.has("ace") else None
    line = f"Ranks from low to high: {order}"
    if ace is not None and "A" in rules.order:
        line += f" (the ace is {ace})"
    b.add(title, line, b.cover("order", "") + b.cover("ace", ""))
    direction = rules.constant("direction", "clockwise")
    b.add(title, f"Play and the deal go {b.words.value(t.Name(direction, _NOWHERE))}", b.cover("direction", ""))


_NOWHERE = t.Pos("", 0, 0)


def _nth(n: int) -> str:
    return {2: "second", 3: "third", 4: "fourth"}.get(n, f"{n}th")


def _dealing(b: _Builder) -> None:
    rules = b.rules
    how = rules.constant("first_dealer", "lot")
    text = "The first dealer is chosen by lot" if how == "lot" else f"Seat {how} deals the first deal"
    b.add("The deal", text, b.cover("first_dealer", ""))


def _leader(b: _Builder) -> None:
    if b.has("leader"):
        b.add("The deal", f"{b.value('leader')} moves first", b.cover("leader", ""))
    else:
        b.add("The deal", "The player after the dealer moves first")
    if b.has("next_dealer"):
        b.add("The deal", f"After each deal the deal passes to {b.value('next_dealer')}", b.cover("next_dealer", ""))


def _moves_seen(b: _Builder, deals: int = 3, most: int = 5000) -> None:
    """For a family that says nothing of its moves (`Game.rulebook`, `Game.moves_help`): the kinds seen in play.

    A few seeded deals of random moves show what a player may type; when each is allowed
    is the family's to say."""
    from ..core.rng import Random

    seen: dict[str, str] = {}
    v = b.variant
    for seed in range(deals):
        deal = v.new_deal(seed=seed, record=False)
        rng = Random(seed, "rulebook")
        for _ in range(most):
            if deal.over:
                break
            legal = deal.legal_actions()
            for action in legal:
                seen.setdefault(action.kind, action.text(b.game.deck))
            deal.play(legal[rng.below(len(legal))])
    for kind, example in seen.items():
        b.add(
            "A turn",
            f"A move of this game, for example '{example}' (the game's plugin does not say when it is allowed)",
            move=kind,
        )


def _seeing(b: _Builder) -> None:
    game = b.game
    zones = dict(ZONE_WORDS, **game.zone_words)
    for first, _ in b.rules.each("see"):
        mode = game.visibility.get(first, "count")
        b.add(
            "What each player sees", f"{zones.get(first, first)}: {MODE_WORDS.get(mode, mode)}", b.cover("see", first)
        )


def _seat(b: _Builder, seat: int, players: int | None) -> None:
    """What one seat sees and does not, from a real deal of this variant (the views' own rule)."""
    from ..core.errors import TapeteError
    from ..play.deal import observe

    v = b.variant
    players = v.default_players() if players is None else players  # 0 is a count, and refused as one
    v.check_players(players)
    if not 0 <= seat < players:
        raise TapeteError(f"seat {seat} is not a seat of a {players}-player game (seats 0 to {players - 1})")
    deal = v.new_deal(players=players, seed=0, record=False)
    seen = observe(b.game, deal.state, seat)["zones"]
    zones = dict(ZONE_WORDS, **b.game.zone_words)
    sees, counts, hidden = [], [], []
    for name in deal.state.zones:
        kind, _, owner = name.partition(".")
        label = _zone_label(zones.get(kind, kind), kind, owner, seat)
        shown = seen.get(name)
        if isinstance(shown, list):
            sees.append(label)
        elif isinstance(shown, dict) and "top" in shown:
            sees.append(f"the top card of {label} (and how many cards it holds)")
        elif isinstance(shown, dict):
            counts.append(label)
        else:
            hidden.append(label)
    present = {name.partition(".")[0] for name in deal.state.zones}
    for kind, mode in b.game.visibility.items():
        if kind in present:
            continue  # zones made later in a deal (shown melds), said from the 'see' rule
        label = zones.get(kind, kind) + " (once there are any)"
        if mode in ("all", "own"):
            sees.append(label)
        elif mode in ("top", "count"):
            counts.append(label)
        else:
            hidden.append(label)
    title = "What you see"
    step = "left" if b.game.step == 1 else "right"
    b.add(title, f"You are seat {seat} of {players}; the seats are numbered 0 to {players - 1} to the {step}")
    if b.game.teams:
        mates = [s for s in b.game.team_seats(players, seat) if s != seat]
        if mates:
            b.add(title, f"Your partner{'s' * (len(mates) > 1)}: seat {', '.join(map(str, mates))}")
    if sees:
        b.add(title, "You see: " + "; ".join(_dedupe(sees)))
    if counts:
        b.add(title, "You see only how many cards are in: " + "; ".join(_dedupe(counts)))
    if hidden:
        b.add(title, "You do not see: " + "; ".join(_dedupe(hidden)))


def _zone_label(word: str, kind: str, owner: str, seat: int) -> str:
    if not owner:
        return word
    if not owner.isdigit():
        return f"{word} ({owner})"
    singular = word.removesuffix("s") if word.endswith("s") and not word.startswith("the ") else word
    return f"your {singular}" if int(owner) == seat else f"seat {owner}'s {singular}"


def _dedupe(xs: list[str]) -> list[str]:
    return list(dict.fromkeys(xs))


def _tables(b: _Builder) -> None:
    rules, deck = b.rules, b.rules.deck
    first_copy = [c for c in deck.ids if deck.copy_of[c] == 0]
    groups: list[tuple[str, list[int]]] = []
    for suit in deck.suits:
        groups.append((f"every {suit}", [c for c in first_copy if deck.suit_of[c] == suit]))
    for colour, suits in (("red", "♦♥"), ("black", "♣♠")):
        groups.append((f"every {colour} card", [c for c in first_copy if deck.suit_of[c] in suits and deck.suit_of[c]]))
    for rank in rules.order:
        groups.append((f"{rank}", [c for c in first_copy if deck.rank_of[c] == rank]))
    for colour, suits in (("red", "♦♥"), ("black", "♣♠")):
        for rank in rules.order:
            groups.append(
                (f"{colour} {rank}", [c for c in first_copy if deck.rank_of[c] == rank and deck.suit_of[c] in suits])
            )
    for key, values in rules.tables.items():
        spec = b.vocab.statements.get(key)
        doc = strip_ids(spec.doc) if spec is not None else key
        item = rules.statement(key)
        ids = b.cover(key, "") if item is not None else []
        shown = [values[c] for c in first_copy]
        if {int(v) for v in shown} <= {0, 1}:  # a yes/no table: the cards it marks
            marked = [deck.format(c) for c in first_copy if shown[first_copy.index(c)]]
            b.add("Card values", f"{key.replace('_', ' ').capitalize()} cards: {', '.join(marked) or 'none'}", ids)
            continue
        lines = describe_values(
            shown, lambda i: deck.format(first_copy[i]), [(g, [first_copy.index(c) for c in cs]) for g, cs in groups]
        )
        b.add("Card values", f"{key.replace('_', ' ').capitalize()}, {doc}: " + "; ".join(lines), ids)


def _scoring(b: _Builder) -> None:
    w = b.words
    item = b.item("score")
    if isinstance(item, t.Statement) and item.value is not None:
        ids = b.cover("score", "")
        if w.inline(item.value):
            b.add("Scoring", f"After each deal you score {w.value(item.value)} (added to your total)", ids)
        else:
            b.add("Scoring", "After each deal you score (added to your total):", ids, cases=w.cases(item.value))
    for name, carried in b.rules.each("carry"):  # values kept from deal to deal beside the total
        if isinstance(carried, t.Statement) and carried.value is not None:
            ids = b.cover("carry", name)
            said = name.replace("_", " ")
            if w.inline(carried.value):
                text = f"You keep your {said} from deal to deal, 0 at the start; after each deal it becomes "
                b.add("Scoring", text + w.value(carried.value), ids)
            else:
                text = f"You keep your {said} from deal to deal, 0 at the start; after each deal it becomes:"
                b.add("Scoring", text, ids, cases=w.cases(carried.value))
    won = b.item("won")
    if isinstance(won, t.Statement) and won.condition is not None:
        ids = b.cover("won", "")
        counted = "" if _reads(b, "deals_won") else " (a deal won is only counted: the match is decided by the totals)"
        if w.inline(won.condition):
            b.add("Scoring", f"You win the deal when {w.clause(won.condition)}{counted}", ids)
        else:
            b.add("Scoring", f"You win the deal{counted}:", ids, cases=w.cases(won.condition, clause=True))


def _end(b: _Builder) -> None:
    rules, w = b.rules, b.words
    title = "The end"
    if rules.parsed_words("stall", default="error") == "annul":
        b.add(
            title,
            "A deal that can never end is void: nobody scores and the same dealer deals again",
            b.cover("stall", ""),
        )
    else:
        b.cover("stall", "")
        b.pending = []  # an error, not a rule a player reads: no sentence says it
    if b.has("wins_match"):
        b.add(title, f"You win the whole match at once when {b.clause('wins_match')}", b.cover("wins_match", ""))
    if b.has("out"):
        b.add(title, f"After a deal you are out of the match when {b.clause('out')}", b.cover("out", ""))
        if b.has("rejoin"):
            text = f"Going out, you come back in when {b.clause('rejoin')}"
            ids = b.cover("rejoin", "")
            if b.has("rejoin_total"):
                text += f"; you restart from {b.value('rejoin_total')} still in (taken before anyone comes back)"
                ids += b.cover("rejoin_total", "")
            else:
                text += "; you restart from the highest total still in"
            b.add(title, text, ids)
        kept = type(b.game).going_out is not _game_going_out()  # the family keeps some in: its own rule says how
        b.add(
            title,
            "The last player not out wins the match"
            + ("" if kept else "; if everyone still in goes out after the same deal, the match is a draw"),
            b.cover("out", ""),
        )
    ends = b.item("match_ends")
    if isinstance(ends, t.Statement) and ends.condition is not None:
        ids = b.cover("match_ends", "")
        cond = ends.condition
        if isinstance(cond, t.Name) and cond.name == "true":
            b.add(title, "The match is a single deal", ids)
        else:
            b.add(title, f"The match ends after a deal when {w.clause(cond)}", ids)
    winner = b.item("winner")
    if isinstance(winner, t.Statement) and winner.value is not None:
        ids = b.cover("winner", "")
        e = winner.value
        share = b.item("share_win")
        if isinstance(share, t.Statement) and share.condition is not None:
            ids += b.cover("share_win", "")
            text = f"Then {w.value(e)} wins the match; on a tie you share the win when {w.clause(share.condition)}"
        elif isinstance(e, t.Call) and e.name in ("highest", "lowest") and len(e.args) == 1:
            text = f"Then {w.value(e)} wins the match; a tie for the {e.name} is a draw"
        else:
            text = f"Then {w.value(e)} wins the match"
        b.add(title, text, ids)
    bonus = b.item("match_bonus")
    if isinstance(bonus, t.Statement) and bonus.value is not None:
        ids = b.cover("match_bonus", "")
        if w.inline(bonus.value):
            b.add(title, f"When the match is over you score {w.value(bonus.value)} more (added to your total)", ids)
        else:
            b.add(title, "When the match is over you add to your total:", ids, cases=w.cases(bonus.value))


def _reads(b: _Builder, word: str) -> bool:
    """Whether any statement in force reads ``word`` (the match rules reading deal wins, say)."""
    from ..play.describe import source

    return any(
        isinstance(item, t.Statement) and re.search(rf"\b{word}\b", source(item))
        for item in b.rules.statements.values()
    )


def _game_going_out() -> Any:
    from ..game import Game

    return Game.going_out


def _others(b: _Builder) -> None:
    """Statements no section stated: said from their words' ``rulebook`` sentence, or their ``doc``."""
    for (key, first), item in b.rules.statements.items():
        if (key, first) in b.covered or key in SKIPPED or isinstance(item, t.Table):
            continue
        spec = b.vocab.statements.get(key)
        ids = b.cover(key, first)
        if spec is not None and spec.rulebook:
            text = spec.rulebook.format(
                value=b.words.value(item.value) if item.value is not None else "",
                condition=b.words.clause(item.condition) if item.condition is not None else "",
                words=" ".join(str(wd) for wd in item.words),
            )
        else:
            doc = strip_ids(spec.doc) if spec is not None else key
            text = f"{doc[0].upper() + doc[1:]}: {b.part(item)}" if doc else b.part(item)
        b.add("Other rules", text, ids)


# -- printing -----------------------------------------------------------------------------
def _ids_text(item: Item) -> str:
    return f" [{', '.join(item.ids)}]" if item.ids else ""


def _case_lines(cases: list[Case], depth: int, fmt: str) -> list[str]:
    out = []
    for c in cases:
        text = c.line()
        if fmt == "md":
            out.append(f"{'  ' * depth}- {text}")
        else:
            out.append(f"{'    ' * depth}- {text}")
        out += _case_lines(c.cases, depth + 1, fmt)
    return out


def render_text(book: Rulebook, ids: bool = False, width: int = 88) -> list[str]:
    """The rulebook as plain lines for a terminal (what ``tapete rules`` and the table's ``rules`` print)."""
    lines = [book.title, f"{book.subtitle} ({book.name})" if book.subtitle else book.name, ""]
    for section in book.sections:
        lines.append(section.title.upper())
        for item in section.items:
            text = (f"{item.move}: " if item.move else "") + item.text + (_ids_text(item) if ids else "")
            lines += textwrap.wrap(text, width, initial_indent="  * ", subsequent_indent="    ")
            for line in _case_lines(item.cases, 1, "text"):
                indent = " " * (len(line) - len(line.lstrip()) + 2)
                lines += textwrap.wrap(line, width, subsequent_indent=indent)
        lines.append("")
    lines.append("OPTIONS")
    if not book.options:
        lines.append("  (none)")
    for name, value, default, doc in book.options:
        note = "" if value == default else f" (default {default})"
        lines += textwrap.wrap(f"{name} = {value}{note}: {doc}", width, initial_indent="  * ", subsequent_indent="    ")
    lines.append("")
    lines += _differences(book, "text", width)
    return lines


def _differences(book: Rulebook, fmt: str, width: int = 88) -> list[str]:
    if book.base is None:
        return []
    if fmt == "md":
        return [f"## Differences from `{book.base}`", "", *(f"- {d}" for d in book.differences), ""]
    lines = [f"DIFFERENCES FROM {book.base.upper()}"]
    for d in book.differences:
        lines += textwrap.wrap(d, width, initial_indent="  * ", subsequent_indent="    ")
    return [*lines, ""]


def render_markdown(book: Rulebook, ids: bool = False) -> str:
    lines = [f"# {book.title}", "", f"*{book.subtitle}* (`{book.name}`)" if book.subtitle else f"`{book.name}`", ""]
    for section in book.sections:
        lines += [f"## {section.title}", ""]
        for item in section.items:
            move = f"**`{item.move}`**: " if item.move else ""
            lines.append(f"- {move}{item.text}{_ids_text(item) if ids else ''}")
            lines += _case_lines(item.cases, 1, "md")
        lines.append("")
    lines += ["## Options", ""]
    if not book.options:
        lines.append("- (none)")
    for name, value, default, doc in book.options:
        note = "" if value == default else f" (default {default})"
        lines.append(f"- `{name}` = **{value}**{note}: {doc}")
    lines.append("")
    lines += _differences(book, "md")
    return "\n".join(lines).rstrip() + "\n"


CSS = """
body { font-family: Georgia, 'Times New Roman', serif; max-width: 46em; margin: 2em auto; padding: 0 1em;
       line-height: 1.45; color: #222; }
h1 { margin-bottom: 0.1em; } .subtitle { font-style: italic; margin-top: 0; color: #555; }
h2 { border-bottom: 1px solid #bbb; margin-top: 1.6em; font-size: 1.2em; }
code { font-family: Menlo, Consolas, monospace; background: #f3f1ea; padding: 0 0.2em; }
.ids { color: #777; font-size: 0.85em; } li { margin: 0.25em 0; }
@media print { body { margin: 0; max-width: none; } h2 { page-break-after: avoid; } }
"""


def _html_cases(cases: list[Case]) -> str:
    if not cases:
        return ""
    out = ["<ul>"]
    for c in cases:
        out.append(f"<li>{html.escape(c.line())}{_html_cases(c.cases)}</li>")
    out.append("</ul>")
    return "".join(out)


def render_html(book: Rulebook, ids: bool = False, fragment: bool = False) -> str:
    """A printable page (or, with ``fragment``, the body only, for a page of one's own)."""
    e = html.escape
    body = [f"<h1>{e(book.title)}</h1>", f'<p class="subtitle">{e(book.subtitle)} (<code>{e(book.name)}</code>)</p>']
    for section in book.sections:
        body.append(f"<section><h2>{e(section.title)}</h2><ul>")
        for item in section.items:
            move = f"<strong><code>{e(item.move)}</code></strong>: " if item.move else ""
            tag = f' <span class="ids">[{e(", ".join(item.ids))}]</span>' if ids and item.ids else ""
            body.append(f"<li>{move}{e(item.text)}{tag}{_html_cases(item.cases)}</li>")
        body.append("</ul></section>")
    body.append("<section><h2>Options</h2><ul>")
    if not book.options:
        body.append("<li>(none)</li>")
    for name, value, default, doc in book.options:
        note = "" if value == default else f" (default {e(default)})"
        body.append(f"<li><code>{e(name)}</code> = <strong>{e(value)}</strong>{note}: {e(doc)}</li>")
    body.append("</ul></section>")
    if book.base is not None:
        body.append(f"<section><h2>Differences from <code>{e(book.base)}</code></h2><ul>")
        body += [f"<li>{e(d)}</li>" for d in book.differences]
        body.append("</ul></section>")
    inner = "\n".join(body)
    if fragment:
        return inner
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="generator" content="{e(generator("rulebook"))}">'  # how tapete knows its own page again
        f"<title>{e(book.title)}</title><style>{CSS}</style></head>\n<body>\n{inner}\n</body></html>\n"
    )


def rulebook_lines(variant: Variant) -> list[str]:
    """The rulebook as terminal lines: what the table's ``rules`` command prints."""
    return render_text(rulebook(variant))


__all__ = [
    "Item",
    "Rulebook",
    "Section",
    "render_html",
    "render_markdown",
    "render_text",
    "rulebook",
    "sentences",
    "statement_ids",
]
