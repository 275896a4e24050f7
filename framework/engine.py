"""Loading variants and playing deals through the public Python API.

`load_variant` turns a registered name or a YAML path into a `Variant`: the
files are read, the scripts parsed and checked, and the game's mechanics built,
all once. A `Deal` wraps a game and a state for callers who play move by move:
it refuses illegal moves without touching the state and hides what a seat
cannot see.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .actions import Action
from .errors import (
    ErrorList,
    IllegalAction,
    LocatedError,
    Location,
    ScriptError,
    SnapshotError,
    TapeteError,
    VariantError,
    display_path,
    line_of,
)
from .game import Game
from .ledger import Ledger
from .limits import MAX_SCRIPT_BYTES, read_source
from .plugins import Registry
from .plugins import registry as default_registry
from .rng import Random, derive_seed
from .rules.program import Rules, build_rules, game_of
from .rules.syntax import parse_script
from .rules.vocabulary import Ctx
from .state import DealState
from .variants import VariantSpec, check_value, parse_cli_value, read_variant
from .view import Recorder, View, game_facts, make_view


@dataclass
class Variant:
    spec: VariantSpec
    rules: Rules
    game_class: type[Game]
    registry: Registry
    digest: str
    file_digests: list[tuple[str, str]] = field(default_factory=list)  # (file name, digest), in load order
    from_file: bool = False  # loaded by the path of its YAML file, not by its registered name

    def provenance(self) -> dict[str, Any]:
        """What a log or snapshot records so that replay finds these very files again."""
        found: dict[str, Any] = {"files": [list(pair) for pair in self.file_digests]}
        if self.from_file:
            found["path"] = str(self.spec.path)
        return found

    _game: Game | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def name(self) -> str:
        return self.spec.full_name

    @property
    def options(self) -> dict[str, Any]:
        return self.rules.options

    def player_range(self) -> tuple[int, int]:
        p = self.rules.constant("players")
        return (p, p) if isinstance(p, int) else tuple(p)

    def default_players(self) -> int:
        if self.spec.players:
            return self.spec.players
        return self.player_range()[0]

    def new_game(self) -> Game:
        """The variant's one `Game`, built on first use and shared by every match and deal.

        A game keeps no per-deal state (only what it read from the rules), so
        sharing it keeps its caches (Chinchón's meld solver) warm across deals."""
        if self._game is None:
            self._game = self.game_class(self.rules)
        return self._game

    def check_players(self, players: int) -> None:
        lo, hi = self.player_range()
        if isinstance(players, bool) or not isinstance(players, int) or not lo <= players <= hi:
            raise TapeteError(f"{self.name} is for {lo}-{hi} players, not {players}")
        teams = self.rules.constant("teams", 0)
        if teams and players % teams:
            raise TapeteError(f"{self.name} seats {teams} teams alternately: {players} players do not divide evenly")

    def new_deal(
        self, players: int | None = None, seed: object = 0, dealer: int | None = None, record: bool = True
    ) -> Deal:
        """A fresh deal; without a dealer, the first dealer is drawn by lot from the seed.

        ``record=False``: the deal keeps no per-seat history (see `Deal`)."""
        players = self.default_players() if players is None else players
        self.check_players(players)
        game = self.new_game()
        if dealer is None:
            dealer = first_dealer(self.rules, players, seed)
        ledger = Ledger(players)
        ledger.deal_number = 1
        state = start_deal(game, players, dealer, Random(derive_seed(seed, "deal", 1)), ledger)
        return Deal(self, game, state, record)

    def deal_from_snapshot(self, snapshot: dict[str, Any] | str, partial: bool | None = None) -> Deal:
        """A deal from ``Deal.snapshot()``, checked as a whole (see `state_from_snapshot`).

        ``partial=True`` accepts a position that lists only some cards (a worked example
        of a rule); the cards not listed are out of play. By default a snapshot with the
        deal's dice (``rng``, which ``Deal.snapshot()`` always writes) must place every
        card, and one without them may be partial."""
        if isinstance(snapshot, str):
            try:
                snapshot = json.loads(snapshot)
            except json.JSONDecodeError as exc:
                raise SnapshotError(
                    f"the snapshot is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
                ) from None
            except RecursionError:
                raise SnapshotError("the snapshot's JSON nests too deeply") from None
        if partial is None:  # what Deal.snapshot() writes carries the dice; a worked example need not
            partial = not (isinstance(snapshot, dict) and "rng" in snapshot)
        game = self.new_game()
        return Deal(self, game, state_from_snapshot(game, snapshot, partial))


def state_from_snapshot(game: Game, obj: Any, partial: bool = False) -> DealState:
    """A deal state read completely or not at all: SnapshotError lists every problem."""
    state = DealState.from_json(obj, game.deck)
    problems = game.check_state(state, partial)
    if problems:
        raise SnapshotError("broken deal snapshot: " + "; ".join(problems))
    return state


def first_dealer(rules: Rules, players: int, seed: object) -> int:
    how = rules.constant("first_dealer", "lot")
    if how == "lot":
        return Random(seed, "first-dealer").below(players)
    return int(how) % players


def start_deal(game: Game, players: int, dealer: int, rng: Random, ledger: Ledger) -> DealState:
    state = DealState(players=players, dealer=dealer)
    ctx = Ctx(game=game, state=state, ledger=ledger)
    game.deal(state, rng, ctx)
    leader = game.rules.expr("leader")
    state.to_move = (leader(ctx) % players) if leader is not None else game.next_seat(state, dealer)
    state.rng = rng.getstate()
    return state


class Deal:
    """One deal in play, for callers who move step by step (tests, tools, people).

    A deal keeps every seat's history as it is played (``record=False`` skips
    that), so ``view(seat)`` is exactly what a bot at that seat would be handed.
    """

    def __init__(self, variant: Variant, game: Game, state: DealState, record: bool = True):
        self.variant, self.game, self.state = variant, game, state
        self.recorder: Recorder | None = Recorder(game, state, None, None, variant.options) if record else None

    @property
    def to_move(self) -> int:
        return self.state.to_move

    @property
    def over(self) -> bool:
        return self.state.over

    def legal_actions(self) -> list[Action]:
        return [] if self.state.over else self.game.legal_actions(self.state)

    def action(self, text: str) -> Action:
        return Action.parse(text, self.game.deck)

    def play(self, action: Action | str) -> list[dict[str, Any]]:
        """Make a move; an illegal one raises IllegalAction saying why and changes nothing."""
        if isinstance(action, str):
            try:
                action = self.action(action)
            except ValueError as exc:
                raise IllegalAction(str(exc)) from None
        if self.state.over:
            raise IllegalAction("the deal is over")
        why = self.game.refusal(self.state, action)
        if why is not None:
            raise IllegalAction(why)
        if self.recorder is None:
            return self.game.apply(self.state, action)
        mover = self.state.to_move
        before = self.recorder.before(self.state)
        events = self.game.apply(self.state, action)
        self.recorder.after(self.state, before, mover, action, events)
        return events

    def clone(self) -> Deal:
        """A copy to try moves on; it starts without history."""
        return Deal(self.variant, self.game, self.state.clone(), record=False)

    def view(self, seat: int | None = None) -> View:
        """What ``seat`` (default: the seat to move) knows now: the view its bot would get."""
        seat = self.state.to_move if seat is None else seat
        if self.recorder is not None:
            return self.recorder.view(self.state, seat)
        return make_view(self.game, self.state, seat, game_facts(self.game), self.variant.options, None)

    def snapshot(self) -> dict[str, Any]:
        return self.state.to_json(self.game.deck)

    def observe(self, seat: int) -> dict[str, Any]:
        return observe(self.game, self.state, seat)


def observe(game: Game, state: DealState, seat: int) -> dict[str, Any]:
    """What ``seat`` may know, from the script's ``see`` statements (unlisted zones: count only)."""
    names = game.deck.names
    zones: dict[str, Any] = {}
    for name, cards in state.zones.items():
        kind, _, owner = name.partition(".")
        mode = game.visibility.get(kind, "count")
        if mode == "own":
            mode = "all" if owner == str(seat) else "count"
        if mode == "all":
            zones[name] = [names[c] for c in cards]
        elif mode == "top":
            zones[name] = {"top": names[cards[-1]] if cards else None, "count": len(cards)}
        elif mode == "count":
            zones[name] = {"count": len(cards)}
    return {
        "seat": seat,
        "players": state.players,
        "dealer": state.dealer,
        "to_move": state.to_move,
        "over": state.over,
        "zones": zones,
        "counters": dict(state.counters),
        "data": state.data,
    }


# -- loading -------------------------------------------------------------------
def resolver(reg: Registry) -> Callable[[str, Path], Path | None]:
    known: dict[str, Path] | None = None

    def resolve(target: str, base: Path) -> Path | None:
        nonlocal known
        local = base / target
        if local.suffix in (".yaml", ".yml") and local.is_file():
            return local
        if known is None:
            known = reg.variants()
        if target in known:
            return known[target]
        for sibling in sorted(base.glob("*.y*ml")):  # a variant next to this one, by its name
            if sibling.stem == target or _variant_name(sibling) == target:
                return sibling
        game = base.name
        return known.get(f"{game}/{target}")

    return resolve


def _variant_name(path: Path) -> str | None:
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return None
    return data.get("name") if isinstance(data, dict) else None


def find_variant_file(name_or_path: str, reg: Registry) -> Path:
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml"):
        if not p.is_file():
            raise VariantError(Location(str(p)), "no such variant file")
        return p
    known = reg.variants()
    if name_or_path in known:
        return known[name_or_path]
    matches = [n for n in known if n.split("/", 1)[0] == name_or_path]
    if len(matches) == 1:
        return known[matches[0]]
    import difflib

    close = difflib.get_close_matches(name_or_path, list(known), n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise TapeteError(f"no variant {name_or_path!r}{hint}; 'tapete variants' lists them")


def load_variant(
    name_or_path: str | Path, reg: Registry | None = None, options: dict[str, Any] | None = None
) -> Variant:
    """Load, check and compile a variant; raise ErrorList with every problem found."""
    reg = reg or default_registry()
    path = find_variant_file(str(name_or_path), reg)
    try:
        spec = read_variant(path, resolver(reg))
    except LocatedError as exc:
        raise ErrorList([exc]) from None
    if options is not None and not isinstance(options, dict):
        raise TapeteError(f"options must map option names to values, not {type(options).__name__}")
    if options:
        for key, value in options.items():
            decl = spec.declarations.get(key)
            if decl is None:
                raise TapeteError(
                    f"unknown option {key!r} for {spec.full_name}; options: {', '.join(spec.declarations)}"
                )
            if isinstance(value, str) and decl.type != "str" and decl.type != "choice":
                try:
                    value = parse_cli_value(decl, value)
                except ValueError as exc:
                    raise TapeteError(f"option {key}: {exc}") from None
            problem = check_value(decl, value)
            if problem:
                raise TapeteError(f"option {key}: {problem}")
            spec.options[key] = value
    variant = compile_variant(spec, reg)
    variant.from_file = Path(str(name_or_path)).suffix in (".yaml", ".yml")
    return variant


def compile_variant(spec: VariantSpec, reg: Registry) -> Variant:
    game_class = reg.games.get(spec.game)
    if game_class is None:
        raise VariantError(
            Location(str(spec.path)),
            f"game {spec.game!r} is not installed; installed games: {', '.join(sorted(reg.games))}",
        )
    sources: dict[str, str] = {}
    scripts = []
    errors: list[LocatedError] = []
    for file in spec.scripts:
        display = _display_path(file)
        try:
            text = read_source(file, "rule script", MAX_SCRIPT_BYTES, ScriptError)
            sources[display] = text
            scripts.append(parse_script(text, display))
        except ScriptError as exc:
            errors.append(exc)
    if errors:
        raise ErrorList(errors)
    vocab = reg.vocabulary(spec.game)
    declared, items = game_of(scripts, spec.options, vocab, sources)
    if declared is not None and str(declared.words[0].value) != spec.game:
        pos = declared.pos
        raise ErrorList(
            [
                ScriptError(
                    Location(pos.path, pos.line, pos.column, sources[pos.path].splitlines()[pos.line - 1]),
                    f"script says 'game {declared.words[0].value}' but the variant is for {spec.game!r}",
                )
            ]
        )
    rules = build_rules(items, spec.game, spec.options, vocab, sources, _display_path(spec.scripts[0]))
    if not rules.has("match_ends") and not rules.has("out"):
        raise ErrorList(
            [
                ScriptError(
                    Location(_display_path(spec.scripts[-1]), 1, 1),
                    "the match never ends: add 'match_ends when ...' or 'out when ...'",
                )
            ]
        )
    _check_players(spec, rules, sources)
    digest = hashlib.sha256()
    each = []
    for file in spec.files:
        content = file.read_bytes()
        digest.update(file.name.encode())
        digest.update(content)
        each.append((file.name, hashlib.sha256(content).hexdigest()[:16]))
    variant = Variant(spec, rules, game_class, reg, digest.hexdigest()[:16], each)
    variant.new_game()  # a family checks what it needs from the program here
    return variant


_display_path = display_path
MAX_PLAYERS = 16


def _check_players(spec: VariantSpec, rules: Rules, sources: dict[str, str]) -> None:
    """The script's ``players`` is a count or a range within 1..16, and the file's default is in it."""
    item = rules.statement("players")
    value = rules.constant("players") if rules.expr("players") is not None else None
    lo_hi: Any = (value, value) if isinstance(value, int) and not isinstance(value, bool) else value
    ok = (
        isinstance(lo_hi, tuple)
        and len(lo_hi) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in lo_hi)
        and 1 <= lo_hi[0] <= lo_hi[1] <= MAX_PLAYERS
    )
    if not ok and item is not None:
        pos = item.pos
        raise ErrorList(
            [
                ScriptError(
                    Location(pos.path, pos.line, pos.column, line_of(sources.get(pos.path, ""), pos.line)),
                    f"players must be a number or a range such as 3..8 within 1..{MAX_PLAYERS}, not "
                    + (f"{value[0]}..{value[1]}" if isinstance(value, tuple) and len(value) == 2 else repr(value)),
                )
            ]
        )
    if ok and spec.players is not None and not lo_hi[0] <= spec.players <= lo_hi[1]:
        lo, hi = lo_hi
        allowed = f"{lo}" if lo == hi else f"{lo}-{hi}"
        raise ErrorList(
            [
                VariantError(
                    spec.players_at or Location(display_path(spec.path)),
                    f"players: {spec.players} players, but the rules of {spec.full_name} allow {allowed}",
                )
            ]
        )
