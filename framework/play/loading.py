"""Loading variants: from a registered name or a YAML path to a compiled `Variant`.

`load_variant` turns a registered name or a YAML path into a `Variant`: the
files are read, the scripts parsed and checked, and the game's mechanics built,
all once. Playing a deal move by move is `tapete.play.deal`.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Callable
from dataclasses import InitVar, dataclass, field
from pathlib import Path
from typing import Any

from ..core import paths
from ..core.errors import (
    ErrorList,
    LocatedError,
    Location,
    ScriptError,
    SnapshotError,
    TapeteError,
    VariantError,
    display_path,
    line_of,
    suggest,
)
from ..core.inputs import MAX_PATH_TEXT, InputError, as_whole, declare, flag, word
from ..core.inputs import seat as read_seat
from ..core.inputs import seed as read_seed
from ..core.ledger import Ledger
from ..core.limits import (
    MAX_PLAYERS,
    MAX_SCRIPT_BYTES,
    MAX_VARIANT_BYTES,
    FileRefused,
    load_json,
    read_file,
    read_source,
)
from ..core.rng import Random
from ..game import Game
from ..plugins.loader import Registry
from ..plugins.loader import registry as default_registry
from ..plugins.record import GameRecord
from ..rules.options import resolve as resolve_options
from ..rules.program import Rules, build_rules, game_of
from ..rules.syntax import parse_script
from ..rules.variant_file import VariantSpec, read_variant
from .deal import Deal, first_dealer, start_deal, state_from_snapshot


@dataclass
class Variant:
    spec: VariantSpec
    rules: Rules
    game_class: type[Game]
    registry: Registry
    digest: str
    file_digests: list[tuple[str, str]] = field(default_factory=list)  # (file name, digest), in load order
    from_file: bool = False  # loaded by the path of its YAML file, not by its registered name
    game_record: InitVar[GameRecord | None] = None  # the registered game; by default the registry's record of spec.game
    _record: GameRecord = field(init=False, repr=False, compare=False)

    def __post_init__(self, game_record: GameRecord | None) -> None:
        self._record = game_record or self.registry.record(self.spec.game, self.game_class)

    @property
    def record(self) -> GameRecord:
        """The registered game this variant is of, complete: its bots (with those every game
        gets), default bot and layout. Everything that plays or shows the variant reads the
        game from here, never from the process-wide registry."""
        return self._record

    def provenance(self) -> dict[str, Any]:
        """What a log or snapshot records so that replay finds these very files again."""
        found: dict[str, Any] = {"files": [list(pair) for pair in self.file_digests]}
        if self.from_file:
            found["path"] = str(self.spec.path)
        return found

    def __reduce__(self) -> tuple[Callable[..., Variant], tuple[str, dict[str, Any], str]]:
        """A variant goes to another process (pickle, `multiprocessing`, Dask) as what loads it
        there: its registered name or its file's full path, its option values and its digest.
        That process loads it once (`variant_again`) and refuses it if its files have changed
        since. A variant loaded with a registry of its own cannot travel: the other process
        cannot build that registry again."""
        if self.registry is not default_registry():
            raise TypeError(
                f"{self.name} was loaded with a registry of its own, which another process cannot build again: "
                "load the variant there, and send a deal as its snapshot()"
            )
        source = os.path.abspath(self.spec.path) if self.from_file else self.name
        options = dict(self.options)
        _AGAIN.setdefault(_again_key(source, options, self.digest), self)  # unpickled here: this very variant
        return (variant_again, (source, options, self.digest))

    def __copy__(self) -> Variant:
        """The variant itself: its rules are compiled once and every deal and match shares them."""
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Variant:
        """Refused: a deep copy is an object of one's own, and a variant's rules are shared by every
        deal and match (a deal's deep copy shares them on purpose). A bot's facts that held the
        variant would otherwise reach the rules every seat plays by."""
        raise TypeError(f"{self.name} is not deep-copied: its rules are shared; load_variant() gives one of your own")

    _game: Game | None = field(default=None, init=False, repr=False, compare=False)
    _unsound: list[LocatedError] | None = field(default=None, init=False, repr=False, compare=False)
    # (lowest, highest player count, teams): what `check_players` reads of the rules, read once
    _seating: tuple[int, int, Any] | None = field(default=None, init=False, repr=False, compare=False)

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
            game = self.game_class(self.rules)
            game.record = self.record
            self._game = game
        return self._game

    def require_sound(self) -> None:
        """Refuse (ErrorList, ``tapete check``'s messages) a variant its design checks find unplayable.

        Every way of dealing calls this first (a deal, a match, a snapshot, a simulation,
        the PettingZoo environment), so a hand size the deck cannot deal is refused by name
        instead of failing in the middle of a deal. The checks run once per variant."""
        if self._unsound is None:
            from .soundness import design_errors

            self._unsound = list(design_errors(self))
        if self._unsound:
            raise ErrorList(self._unsound)

    def check_players(self, players: int) -> None:
        """Refuse a player count this variant does not seat (a numpy integer is a count; True or 3.0 is none).

        Asked for every deal a caller begins (`new_deal`): the seating the rules allow is read
        of them once, and a plain int that fits is let through before anything else is asked."""
        seating = self._seating
        if seating is None:
            lo, hi = self.player_range()
            seating = self._seating = (lo, hi, self.rules.constant("teams", 0))
        lo, hi, teams = seating
        if type(players) is int and lo <= players <= hi and not (teams and players % teams):
            return
        whole = None if isinstance(players, bool | float) else as_whole(players)
        if whole is None or not lo <= whole <= hi:
            shown = players if whole is not None or isinstance(players, bool | int | float) else repr(players)
            raise TapeteError(f"{self.name} is for {lo}-{hi} players, not {shown}")
        teams = self.rules.constant("teams", 0)
        if teams and players % teams:
            raise TapeteError(f"{self.name} seats {teams} teams alternately: {players} players do not divide evenly")

    @declare(players="count", seed="seed", dealer="seat", record="flag")
    def new_deal(
        self, players: int | None = None, seed: object = 0, dealer: int | None = None, record: bool = True
    ) -> Deal:
        """A fresh deal; without a dealer, the first dealer is drawn by lot from the seed.

        ``seed`` is a whole number or a word (`tapete.core.inputs.seed`: ``nan``, ``1.5`` and
        ``[1]`` are refused, since seeds that print alike must deal alike); ``record=False``:
        the deal keeps no per-seat history (see `Deal`)."""
        players = self.default_players() if players is None else players
        self.check_players(players)
        players = int(players)
        read_seed(seed)  # checked, kept as given: "01" and 1 deal differently
        if dealer is not None:
            dealer = read_seat(dealer, players, "dealer")
        if record is not True and record is not False:
            record = flag(record, "record")
        if self._unsound is None or self._unsound:  # checked once per variant; refused every time
            self.require_sound()
        game = self._game or self.new_game()
        if dealer is None:
            dealer = first_dealer(self.rules, players, seed)
        # the first deal of a match that is only this deal: `Random.derived` is Random(derive_seed(...))
        state = start_deal(game, players, dealer, Random.derived(seed, "deal", 1), Ledger.fresh(players, 1))
        return Deal(self, game, state, record)

    @declare(snapshot="snapshot", partial="flag")
    def deal_from_snapshot(self, snapshot: dict[str, Any] | str, partial: bool | None = None) -> Deal:
        """A deal from ``Deal.snapshot()``, checked as a whole (see `state_from_snapshot`).

        ``partial=True`` accepts a position that lists only some cards (a worked example
        of a rule); the cards not listed are out of play. By default a snapshot with the
        deal's dice (``rng``, which ``Deal.snapshot()`` always writes) must place every
        card, and one without them may be partial."""
        if isinstance(snapshot, str):
            try:
                snapshot = load_json(snapshot)
            except json.JSONDecodeError as exc:
                raise SnapshotError(
                    f"the snapshot is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
                ) from None
            except ValueError as exc:  # nested beyond MAX_NESTING
                raise SnapshotError(f"the snapshot is not read: {exc}") from None
        if partial is None:  # what Deal.snapshot() writes carries the dice; a worked example need not
            partial = not (isinstance(snapshot, dict) and "rng" in snapshot)
        self.require_sound()
        game = self.new_game()
        return Deal(self, game, state_from_snapshot(game, snapshot, partial))


# -- loading -------------------------------------------------------------------
def resolver(reg: Registry) -> Callable[[str, Path], Path | None]:
    """How ``extends:`` finds a variant: a file next to the child, a registered name, a sibling by name.

    Only regular files are candidates, so a symlink loop, a FIFO, a folder or an unreadable
    entry beside the variant is passed over (a file named exactly is handed on, to be refused
    by name when read). Names are case-sensitive; one that matches only in other capitals is
    refused naming the spelling that exists."""
    known: dict[str, Path] | None = None

    def resolve(target: str, base: Path) -> Path | None:
        nonlocal known
        local = base / target
        if local.suffix in (".yaml", ".yml") and os.path.lexists(local):
            return local  # read_source says what is wrong with it if it is not a readable file
        if known is None:
            known = reg.variants()
        if target in known:
            return known[target]
        siblings = _siblings(base)
        for sibling in siblings:  # a variant next to this one, by its name
            if sibling.stem == target or _variant_name(sibling) == target:
                return sibling
        game = base.name
        found = known.get(f"{game}/{target}")
        if found is None:
            _other_capitals(target, [*known, *(f"{s.name}" for s in siblings), *(s.stem for s in siblings)])
        return found

    return resolve


def _siblings(base: Path) -> list[Path]:
    """The regular files ``*.yaml``/``*.yml`` in ``base``; an entry that cannot be judged is passed over."""
    try:
        entries = sorted(base.glob("*.y*ml"))
    except OSError:  # the folder cannot be listed
        return []
    found = []
    for entry in entries:
        try:
            if stat.S_ISREG(entry.stat().st_mode):
                found.append(entry)
        except (OSError, RuntimeError):  # a symlink loop, a dangling link, no permission
            continue
    return found


def _other_capitals(target: str, names: list[str]) -> None:
    same = sorted({n for n in names if n.casefold() == target.casefold() and n != target})
    if same:
        raise TapeteError(
            f"no variant {target!r}: names are case-sensitive; did you mean {' or '.join(map(repr, same))}?"
        )


def _variant_name(path: Path) -> str | None:
    """The name a variant file gives itself, by the listing's own reading of it (`scan_variants`)."""
    from ..rules.variant_file import variant_header

    header = variant_header(path)
    return header[1] if header is not None and isinstance(header[1], str) else None


def find_variant_file(name_or_path: str, reg: Registry) -> Path:
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml"):
        if not paths.lexists(p):  # a symlink loop is refused by name when it is read
            why = paths.why_not(p)
            raise VariantError(Location(str(p)), "no such variant file" if why == "No such file or directory" else why)
        return p  # a folder, FIFO or device of that name is refused when it is read (`read_source`)
    known = reg.variants()
    if name_or_path in known:
        return known[name_or_path]
    matches = [n for n in known if n.split("/", 1)[0] == name_or_path]
    if len(matches) == 1:
        return known[matches[0]]
    hint = suggest(name_or_path, known, most=3, quote=False)
    raise TapeteError(f"no variant {name_or_path!r}{hint}; 'tapete variants' lists them")


def variant_files(name_or_path: str | Path, reg: Registry | None = None) -> list[Path]:
    """The files a variant is read from (its YAML, what it extends, its scripts), found without
    compiling it, so that a command can refuse to write over one before it starts; [] when the
    variant does not load (the load that follows says why)."""
    reg = reg or default_registry()
    try:
        spec = read_variant(find_variant_file(str(name_or_path), reg), resolver(reg))
    except TapeteError:
        return []
    return list(spec.files)


@declare(name_or_path="variant", reg="object", options="options")
def load_variant(
    name_or_path: str | Path, reg: Registry | None = None, options: dict[str, Any] | None = None
) -> Variant:
    """Load, check and compile a variant; raise ErrorList with every problem found."""
    if not isinstance(name_or_path, str | os.PathLike):
        raise InputError(f"a variant is named by a registered name or a YAML path, not {name_or_path!r:.60}")
    word(os.fspath(name_or_path), "the variant", limit=MAX_PATH_TEXT)
    reg = reg or default_registry()
    path = find_variant_file(str(name_or_path), reg)
    try:
        spec = read_variant(path, resolver(reg))
    except LocatedError as exc:
        raise ErrorList([exc]) from None
    if options is not None:
        spec.options.update(resolve_options(spec.declarations, options, spec.full_name))
    variant = compile_variant(spec, reg)
    variant.from_file = Path(str(name_or_path)).suffix in (".yaml", ".yml")
    return variant


# the variants unpickled in this process, by (name or path, options, digest): each is loaded once
_AGAIN: dict[tuple[str, str, str], Variant] = {}


def _again_key(source: str, options: dict[str, Any], digest: str) -> tuple[str, str, str]:
    return (source, json.dumps(options, sort_keys=True, default=repr), digest)


def variant_again(source: str, options: dict[str, Any], digest: str) -> Variant:
    """A pickled variant in this process (`Variant.__reduce__`): loaded once (in the process that
    pickled it, the variant itself), and refused if its files are not the ones it was pickled with."""
    key = _again_key(source, options, digest)
    found = _AGAIN.get(key)
    if found is None:
        found = load_variant(source, options=options)
        if found.digest != digest:
            raise TapeteError(
                f"{found.name} ({source}): its files have changed since it was pickled (digest {found.digest}, "
                f"pickled with {digest})"
            )
        _AGAIN[key] = found
    return found


def _check_option_names(spec: VariantSpec, vocab: Any) -> None:
    """An option may not be named like a word of its game's rules: in a script the option's value
    would silently stand where the word was meant (an option ``tricks`` made Oh Hell's
    ``tricks == bid`` compare the bid with the option's 3). Refused where it is declared."""
    errors: list[LocatedError] = []
    for opt in spec.declarations:
        word = vocab.quantities.get(opt)
        if word is None and opt not in vocab.symbols:
            continue
        said = f" ({word.doc})" if word is not None else ""
        where = spec.declared_at.get(opt, Location(display_path(spec.path)))
        errors.append(
            VariantError(
                where,
                f"declare.{opt}: {opt!r} is a word of {spec.game}'s rules{said}; an option of that name would hide"
                " it in the scripts: choose another name",
            )
        )
    if errors:
        raise ErrorList(errors)


def compile_variant(spec: VariantSpec, reg: Registry) -> Variant:
    record = reg.records.get(spec.game)
    if record is None:
        raise VariantError(
            Location(str(spec.path)),
            f"game {spec.game!r} is not installed; installed games: {', '.join(sorted(reg.records))}",
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
    _check_option_names(spec, vocab)
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
        try:
            content = read_file(file, "file", max(MAX_SCRIPT_BYTES, MAX_VARIANT_BYTES))
        except FileRefused as exc:  # replaced since it was read a moment ago
            raise ErrorList([VariantError(Location(display_path(file)), str(exc))]) from None
        digest.update(file.name.encode())
        digest.update(content)
        each.append((file.name, hashlib.sha256(content).hexdigest()[:16]))
    variant = Variant(spec, rules, record.family, reg, digest.hexdigest()[:16], each, game_record=record)
    variant.new_game()  # a family checks what it needs from the program here
    return variant


_display_path = display_path


def _check_players(spec: VariantSpec, rules: Rules, sources: dict[str, str]) -> None:
    """The script's ``players`` is a count or a range within 1..MAX_PLAYERS, and the file's default is in it."""
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
