"""``tapete new``: start a variant or a plugin package from files that already work.

A designer's first file should pass ``tapete check`` before they change a line, and a
plugin author's first package should install, register and pass its own tests before
they write any rules: then every later error is one they just made. The templates
here are written out as plain text so that what a user gets is what they read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import typer

from ..core import paths
from . import params

new_app = typer.Typer(help="Start a new variant or plugin package from working files.", no_args_is_help=True)

NAME = re.compile(r"^[a-z][a-z0-9_-]*$")


def _check_name(name: str, what: str) -> None:
    from ..core.errors import TapeteError

    if not NAME.match(name):
        raise TapeteError(f"{what} name {name!r}: use lower-case letters, digits, '-' and '_', starting with a letter")


def _write(files: dict[Path, str]) -> list[Path]:
    """Write every file, or none if any already exists."""
    from ..core.errors import TapeteError
    from ..core.outputs import write_new

    taken = [p for p in files if paths.lexists(p)]
    if taken:
        raise TapeteError(f"{taken[0]} already exists; choose another name or --dir")
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_new(path, text)  # whole files only, and none put in place meanwhile replaced
    return list(files)


# -- a variant ---------------------------------------------------------------------------
def new_variant(name: str, parent: str, directory: Path) -> list[Path]:
    """``NAME.yaml`` extending ``parent`` plus an empty overlay script ``NAME.rules``, in ``directory``."""
    import json

    from ..play.loading import find_variant_file, load_variant
    from ..plugins.loader import registry

    _check_name(name, "variant")
    variant = load_variant(parent)  # refuse a parent that does not load
    reg = registry()
    source = find_variant_file(parent, reg)
    registered = {path.resolve(): key for key, path in reg.variants().items()}
    if source.resolve() in registered:
        extends = registered[source.resolve()]
    else:
        extends = Path(os.path.relpath(source.resolve(), directory.resolve())).as_posix()
    spec = variant.spec
    option_lines = ""
    for key, decl in spec.declarations.items():
        value = json.dumps(variant.options.get(key), ensure_ascii=False)
        entry = f"{key}: {value}"
        option_lines += f"  {entry:<26} # {decl.doc}\n" if decl.doc else f"  {entry}\n"
    yaml_text = (
        f"# A variant of {spec.full_name}. Change rules in {name}.rules and option values below;\n"
        f"# check it with 'tapete check {name}.yaml', read it with 'tapete show {name}.yaml'.\n"
        f"extends: {extends}\n"
        f"name: {name}\n"
        f"summary: {name}, a variant of {spec.full_name}\n"
        f"scripts: [{name}.rules]\n"
        + (
            f"options:                     # the values {spec.full_name} plays with\n{option_lines}"
            if option_lines
            else ""
        )
    )
    rules_text = (
        f"# Rules of {name}, laid over {spec.full_name}'s: a statement here replaces the parent's\n"
        f"# statement with the same key (for repeatable ones such as 'see', the same key and first\n"
        f"# word). 'tapete show {spec.full_name}' lists every statement in force.\n"
    )
    files = {directory / f"{name}.yaml": yaml_text, directory / f"{name}.rules": rules_text}
    return _write(files)


# -- a plugin package ----------------------------------------------------------------------
def new_plugin(name: str, directory: Path) -> list[Path]:
    """A package ``directory/NAME`` with a minimal game, one variant, a bot and passing tests."""
    _check_name(name, "plugin")
    game = name.replace("-", "_")
    module = f"tapete_{game}"
    _check_free(name, game, module)
    root = directory / name
    title = name.replace("-", " ").replace("_", " ").title()
    subs = {"NAME": name, "GAME": game, "MODULE": module, "TITLE": title, "CLASS": title.replace(" ", "")}
    files = {root / _fill(rel, subs): _fill(text, subs) for rel, text in PLUGIN_FILES.items()}
    return _write(files)


def _check_free(name: str, game: str, module: str) -> None:
    """Refuse a plugin whose game, entry point, module or package would collide with one installed:
    installed beside it, one of the two would silently be left out (or shadow the other's import)."""
    import importlib.util
    from importlib.metadata import PackageNotFoundError, distribution, entry_points

    from ..core.errors import TapeteError
    from ..plugins.loader import ENTRY_POINT_GROUP, registry

    taken = f"plugin name {name!r}:"
    if game in registry().records:
        raise TapeteError(
            f"{taken} a game named {game!r} is installed already ('tapete plugins' lists it); choose another"
        )
    owners = [ep.value for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == game]
    if owners:
        raise TapeteError(f"{taken} the plugin {game!r} is installed already ({owners[0]}); choose another")
    try:
        distribution(f"tapete-{name}")
    except PackageNotFoundError:
        pass
    else:
        raise TapeteError(f"{taken} the package 'tapete-{name}' is installed already; choose another")
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = True
    if found:
        raise TapeteError(f"{taken} the Python module {module!r} exists already and would be shadowed; choose another")


def _fill(text: str, subs: dict[str, str]) -> str:
    for key, value in subs.items():
        text = text.replace(f"<<{key}>>", value)
    return text


PLUGIN_FILES: dict[str, str] = {
    "pyproject.toml": """\
[build-system]
requires = ["setuptools>=68", "wheel"]
build-backend = "setuptools.build_meta"

[project]
name = "tapete-<<NAME>>"
version = "0.1.0"
description = "<<TITLE>>: a card game for tapete"
requires-python = ">=3.10"
dependencies = ["tapete"]

[project.optional-dependencies]
test = ["pytest>=7.4"]

# tapete finds the plugin through this entry-point group.
[project.entry-points.tapete]
<<GAME>> = "<<MODULE>>.plugin"

[tool.setuptools]
packages = ["<<MODULE>>"]

[tool.setuptools.package-data]
<<MODULE>> = ["variants/*.yaml", "variants/*.rules"]

[tool.pytest.ini_options]
testpaths = ["tests"]
""",
    "README.md": """\
# tapete-<<NAME>>

A tapete plugin adding the game family `<<GAME>>`.

    python3 -m pip install -e .
    python3 -m tapete variants            # lists <<GAME>>/basic
    python3 -m tapete play <<GAME>>/basic --seed 1
    python3 -m pytest                     # the plugin's tests

The game so far: each player is dealt `hand_size` cards and in turn plays one onto the
table; a card scores its `points` for the player who plays it when it is higher than the
card below it. The deal ends when the hands are empty; the first to `target` wins.
Change `<<MODULE>>/game.py`, `words.py` and the variant files to make it your game.
""",
    "<<MODULE>>/__init__.py": '''\
"""<<TITLE>>: a tapete game family."""
''',
    "<<MODULE>>/plugin.py": '''\
"""The module named by the ``tapete`` entry point: it registers the game, with its variants and its bot."""

from __future__ import annotations

from pathlib import Path

from tapete import GameRecord, hookimpl
from tapete.hookspecs import RegisterGame

from .bots import HighBot
from .game import <<CLASS>>


@hookimpl
def tapete_register_games(register: RegisterGame) -> None:
    register(
        GameRecord(
            "<<GAME>>",
            <<CLASS>>,
            variants=Path(__file__).parent / "variants",
            bots={"high": HighBot},
            default_bot="high",  # what 'tapete play' seats, 'hint' asks and the search's rollouts play
        )
    )
''',
    "<<MODULE>>/words.py": '''\
"""The rule-script words this family adds to the core's."""

from __future__ import annotations

from tapete import AT_DEAL_START, SEAT_IN_DEAL, Ctx, Quantity, StatementSpec


def _scored(c: Ctx) -> int:
    return int(c.state.counters.get(f"scored.{c.seat}", 0))


WORDS = (
    StatementSpec("hand_size", "cards dealt to each player", value=AT_DEAL_START, needs_value=True, required=True),
    StatementSpec("points", "what a card scores when it beats the card below it", table=True, required=True),
    Quantity("scored", "points the player scored this deal", SEAT_IN_DEAL, _scored),
)
''',
    "<<MODULE>>/game.py": '''\
"""<<TITLE>> mechanics: play a card onto the table; beating the card below scores it."""

from __future__ import annotations

from typing import Any

from tapete import Action, Ctx, DealState, Game, Random, Rules

from .words import WORDS


class <<CLASS>>(Game):
    name = "<<GAME>>"
    summary = "<<TITLE>>: play a card; a card higher than the one below scores its points"
    words = WORDS
    zone_kinds = ("hand", "table", "stock")
    hand_size_word = "hand_size"  # a hand holds at most hand_size + 1 cards (what snapshots are checked against)

    def __init__(self, rules: Rules):
        super().__init__(rules)
        self.hand_size = rules.expr("hand_size")
        points = rules.table("points")
        self.point_of = [int(p) for p in points] if points is not None else [0] * len(self.deck)

    def facts(self) -> dict[str, Any]:
        """What a bot may know of the rules (never anything about a deal)."""
        return {"point_of": tuple(self.point_of), "pos": tuple(self.rules.order_pos)}

    def deal(self, state: DealState, rng: Random, ctx: Ctx) -> None:
        ctx.state = state
        cards = self.shuffled_deck(rng)
        self.deal_round_robin(state, cards, int(self.hand_size(ctx)), self.next_seat(state, state.dealer))
        state.zones["table"] = []
        state.zones["stock"] = cards  # the cards nobody was dealt stay face down

    def legal_actions(self, state: DealState) -> list[Action]:
        return [Action("play", (card,)) for card in state.zones[f"hand.{state.to_move}"]]

    def apply(self, state: DealState, action: Action) -> list[dict[str, Any]]:
        seat, card = state.to_move, action.cards[0]
        table = state.zones["table"]
        beats = bool(table) and self.rules.order_pos[card] > self.rules.order_pos[table[-1]]
        state.zones[f"hand.{seat}"].remove(card)
        table.append(card)
        if beats:
            key = f"scored.{seat}"
            state.counters[key] = state.counters.get(key, 0) + self.point_of[card]
        if not any(state.zones[f"hand.{s}"] for s in range(state.players)):
            state.over = True
        else:
            state.to_move = self.next_seat(state, seat)
        return [{"say": f"plays {self.deck.format(card)}" + (" and scores" if beats else "")}]

    def describe_deal(self, state: DealState) -> list[str]:
        return [", ".join(f"seat {s}: {state.counters.get(f'scored.{s}', 0)}" for s in range(state.players))]
''',
    "<<MODULE>>/bots.py": '''\
"""A bot plays from its seat's view only: ``choose(view, legal)``."""

from __future__ import annotations

from tapete import Action, Game, Random, View


class HighBot:
    """Plays the lowest card that beats the table's top card, else its lowest card."""

    def __init__(self, game: Game, seat: int, rng: Random):
        self.rng = rng

    def choose(self, view: View, legal: list[Action]) -> Action:
        pos = view.facts.pos
        top = view.top("table")
        beating = [a for a in legal if top is None or pos[a.cards[0]] > pos[top]]
        return min(beating or legal, key=lambda a: (pos[a.cards[0]], a.cards[0]))
''',
    "<<MODULE>>/variants/basic.yaml": """\
game: <<GAME>>
name: basic
summary: <<TITLE>> - play a card; beating the card below scores it
scripts: [basic.rules]
players: 3
declare:
  target:
    type: int
    default: 30
    min: 1
    max: 1000
    doc: the first total to reach this wins the match
""",
    "<<MODULE>>/variants/basic.rules": """\
# <<TITLE>>: the basic rules.
game <<GAME>>

deck french52
players = 2..6
first_dealer = lot
leader = next(dealer)
next_dealer = next(dealer)

hand_size = 5

see hand own
see table all
see stock count

points { A: 11, J..K: 10, _: rank }

score = scored
won when scored > 0
match_ends when max(total) >= target
winner = highest(total)
""",
    "conftest.py": '''\
"""tapete's fixtures and property checks for this plugin's tests."""

pytest_plugins = ["tapete.testing"]
''',
    "tests/test_<<GAME>>.py": '''\
"""The plugin's own tests: one rule on a written-out deal, and tapete's promises on every variant."""

from __future__ import annotations

import pytest

from tapete.testing import (
    check_conservation,
    check_hidden_information,
    check_replay,
    check_termination,
    deal_from_zones,
    variant_names,
)

VARIANTS = variant_names("<<GAME>>")


def test_a_card_higher_than_the_one_below_scores():
    deal = deal_from_zones("<<GAME>>/basic", {"hand.0": ["K♠"], "hand.1": ["2♥"], "table": ["9♦"]})
    deal.play("play K♠")
    assert deal.state.counters["scored.0"] == 10


@pytest.mark.parametrize("name", VARIANTS)
def test_tapete_promises(name, tmp_path):
    assert VARIANTS
    check_hidden_information(name)
    check_conservation(name)
    check_termination(name)
    check_replay(name, tmp_path)
''',
}


# -- the command line --------------------------------------------------------------------
@new_app.command("variant")
def variant_command(
    name: str = params.word_argument("the variant's name", "the new variant's short name"),
    parent: str = params.variant_option("--from", help="the variant it extends: a registered name or a YAML path"),
    directory: Path = params.folder_option(
        Path("."), "--dir", what="folder", help="where to write NAME.yaml and NAME.rules"
    ),
) -> None:
    """Write NAME.yaml extending a variant, and an empty overlay script; both pass 'tapete check'."""
    _run(lambda: new_variant(name, parent, directory), f"next: tapete check {directory / (name + '.yaml')}")


@new_app.command("plugin")
def plugin_command(
    name: str = params.word_argument("the game family's name", "the game family's name"),
    directory: Path = params.folder_option(
        Path("."), "--dir", what="folder", help="where to create the package folder NAME/"
    ),
) -> None:
    """Write a plugin package: pyproject, entry point, a minimal game, one variant, a bot and tests."""
    _run(
        lambda: new_plugin(name, directory),
        f"next: python3 -m pip install -e {directory / name} && python3 -m pytest {directory / name}",
    )


def _run(make: Callable[[], list[Path]], hint: str) -> None:
    """Write the files and say what was written and what to do next (a failure is reported by
    the command line's one error handler, which `tapete.cli.plugin` gives these commands)."""
    from .main import console

    out = console()
    for path in make():
        out.print(f"wrote {path}")
    out.print(hint)
