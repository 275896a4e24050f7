"""Variant files: YAML that names a game, its rule scripts and option values.

A variant may ``extends:`` another one (by registered name or relative path); the
child's scripts are laid over the parent's and its option values replace the
parent's. Options are declared once, with a type and a range, in the variant
that introduces them (``declare:``), so a child file stays a few lines long.
Every error names the file, the key path and the line.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..core import paths
from ..core.errors import (
    ErrorList,
    LocatedError,
    Location,
    TapeteError,
    VariantError,
    display_path,
    line_of,
    suggest,
)
from ..core.limits import MAX_EXTENDS, MAX_NESTING, MAX_PLAYERS, MAX_VARIANT_BYTES, MAX_YAML_VALUES, read_source

KeyPath = tuple[str | int, ...]  # where a value sits in a YAML document: keys and list indexes

TOP_KEYS = {
    "game": "the game family (fantan, chinchon, ...)",
    "name": "the variant's short name; registered as game/name",
    "summary": "one line saying what the variant is",
    "extends": "a variant this one changes (name or relative path)",
    "scripts": "rule scripts, relative to this file, applied in order",
    "declare": "option declarations: type, default, min, max, choices, doc",
    "options": "option values",
    "players": "the number of players used when none is asked for",
}
DECL_KEYS = {"type", "default", "min", "max", "choices", "doc"}
TYPES = {"int": int, "bool": bool, "str": str, "choice": str}


@dataclass
class OptionDecl:
    name: str
    type: str
    default: Any
    doc: str = ""
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    meanings: tuple[str, ...] = ()  # what each choice means, when ``choices:`` maps them (the rulebook's words)


@dataclass
class VariantSpec:
    path: Path
    game: str
    name: str
    summary: str = ""
    scripts: list[Path] = field(default_factory=list)
    declarations: dict[str, OptionDecl] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    players: int | None = None
    players_at: Location | None = None  # where ``players:`` was set, for a count the scripts do not allow
    files: list[Path] = field(default_factory=list)
    declared_at: dict[str, Location] = field(default_factory=dict)  # where each option was declared

    @property
    def full_name(self) -> str:
        return f"{self.game}/{self.name}"


# libyaml's reader when PyYAML was built with it: the same documents, ten times faster (a variant is
# read by every command, and every variant by `tapete variants`); a document it refuses is read
# again by PyYAML's own reader, so that the message a person sees is the same either way.
FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SCALARS = yaml.constructor.SafeConstructor()  # turns one scalar node into its value (an int, a date, ...)


class _Doc:
    """A YAML document with the position of every key path.

    The document is checked for nesting depth (on the token stream, before PyYAML's
    recursive composer runs), alias cycles, values after alias expansion and
    duplicate keys; each is refused at its line."""

    def __init__(self, path: Path, text: str):
        self.path, self.text = path, text
        self.marks: dict[KeyPath, tuple[int, int]] = {}
        self.values = 0
        self.inside: set[int] = set()
        try:
            node = self._compose(FAST_LOADER)
        except yaml.YAMLError:  # said in the words of PyYAML's own reader, as always
            node = self._slow_compose()
        self.data = self._value(node, ()) if node is not None else {}

    def _compose(self, loader: Any) -> yaml.Node | None:
        self._check_depth(loader)
        return yaml.compose(self.text, Loader=loader)

    def _slow_compose(self) -> yaml.Node | None:
        """PyYAML's pure reader: the one whose messages a person is shown (libyaml's differ in words)."""
        try:
            return self._compose(yaml.SafeLoader)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
            line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
            if isinstance(exc, yaml.reader.ReaderError):
                pos = exc.position
                line, col = self.text.count("\n", 0, pos) + 1, pos - self.text.rfind("\n", 0, pos)
                char = chr(exc.character) if isinstance(exc.character, int) else exc.character
                problem = f"character {char!r} is not allowed in YAML"
            else:
                problem = getattr(exc, "problem", None) or str(exc)
            raise VariantError(self.loc(line, col), f"not valid YAML: {problem}") from None

    def _check_depth(self, loader: Any) -> None:
        depth = 0
        for tok in yaml.scan(self.text, Loader=loader):
            if isinstance(tok, _OPENING):
                depth += 1
                if depth > MAX_NESTING:
                    m = tok.start_mark
                    raise VariantError(
                        self.loc(m.line + 1, m.column + 1), f"lists and mappings nest deeper than {MAX_NESTING} levels"
                    )
            elif isinstance(tok, _CLOSING):
                depth -= 1

    def loc(self, line: int, col: int) -> Location:
        return Location(display_path(self.path), line, col, line_of(self.text, line))

    def at(self, keypath: KeyPath) -> Location:
        while keypath and keypath not in self.marks:
            keypath = keypath[:-1]
        line, col = self.marks.get(keypath, (1, 1))
        return self.loc(line, col)

    def error(self, keypath: KeyPath, message: str) -> VariantError:
        where = ".".join(str(k) for k in keypath)
        return VariantError(self.at(keypath), f"{where}: {message}" if where else message)

    def _node_error(self, node: yaml.Node, message: str) -> VariantError:
        return VariantError(self.loc(node.start_mark.line + 1, node.start_mark.column + 1), message)

    def _value(self, node: yaml.Node, keypath: KeyPath) -> Any:
        self.values += 1
        if self.values > MAX_YAML_VALUES:
            raise self._node_error(node, f"more than {MAX_YAML_VALUES:,} values once aliases are expanded")
        self.marks.setdefault(keypath, (node.start_mark.line + 1, node.start_mark.column + 1))
        if isinstance(node, yaml.MappingNode | yaml.SequenceNode):
            if id(node) in self.inside:
                raise self._node_error(node, "an alias refers to the list or mapping it is inside")
            self.inside.add(id(node))
            try:
                if isinstance(node, yaml.SequenceNode):
                    return [self._value(v, keypath + (i,)) for i, v in enumerate(node.value)]
                out: dict[Any, Any] = {}
                for knode, vnode in node.value:
                    if not isinstance(knode, yaml.ScalarNode):
                        raise self._node_error(knode, "a key must be a plain word, not a list or mapping")
                    key = knode.value
                    if key in out:
                        first = self.marks[keypath + (key,)][0]
                        raise self._node_error(knode, f"duplicate key {key!r} (first on line {first})")
                    self.marks[keypath + (key,)] = (knode.start_mark.line + 1, knode.start_mark.column + 1)
                    out[key] = self._value(vnode, keypath + (key,))
                return out
            finally:
                self.inside.discard(id(node))
        if node.tag == "tag:yaml.org,2002:str":
            return node.value
        try:
            construct = yaml.SafeLoader.yaml_constructors
            return (construct.get(node.tag) or construct[None])(_SCALARS, node)
        except (yaml.YAMLError, ValueError, TypeError, OverflowError) as exc:
            problem = getattr(exc, "problem", None) or str(exc)
            raise self._node_error(node, f"cannot read the value {node.value!r}: {problem}") from None


_NAME = re.compile(r"(?!\.{1,2}$)[\w.-]+")  # a variant's name: one word, so that GAME/NAME names it alone
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")  # http://, file://, ...: never a file next to this one

_OPENING = (
    yaml.BlockMappingStartToken,
    yaml.BlockSequenceStartToken,
    yaml.FlowMappingStartToken,
    yaml.FlowSequenceStartToken,
)
_CLOSING = (yaml.BlockEndToken, yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)


def _type_name(v: Any) -> str:
    return {
        bool: "true/false",
        int: "a whole number",
        str: "text",
        list: "a list",
        dict: "a mapping",
        float: "a decimal number",
        type(None): "nothing",
    }.get(type(v), type(v).__name__)


def read_variant(
    path: Path, resolve_name: Callable[[str, Path], Path | None], _seen: tuple[Path, ...] = ()
) -> VariantSpec:
    """Read a variant file and everything it extends; raise ErrorList on any problem."""
    try:
        path = path.resolve()
    except (RuntimeError, OSError):  # RuntimeError: a symlink loop, before Python 3.13
        raise VariantError(Location(display_path(path)), "is a symlink loop, not a variant file") from None
    if path in _seen:
        raise VariantError(
            Location(display_path(path)), "extends itself through " + " -> ".join(p.name for p in (*_seen, path))
        )
    if len(_seen) >= MAX_EXTENDS:  # each file of the chain is read (and recursed into) before its child
        raise VariantError(
            Location(display_path(_seen[0])),
            f"extends a chain of more than {MAX_EXTENDS} variant files ({_seen[0].name} -> {_seen[1].name} -> ..."
            f" -> {path.name}); tapete follows at most {MAX_EXTENDS}",
        )
    text = read_source(path, "variant file", MAX_VARIANT_BYTES, VariantError)
    doc = _Doc(path, text)
    data = doc.data
    errors: list[LocatedError] = []
    if not isinstance(data, dict):
        raise doc.error((), "a variant file must be a mapping of keys (game:, name:, scripts:, ...)")
    for key in data:
        if key not in TOP_KEYS:
            errors.append(
                doc.error((key,), f"unknown key{suggest(str(key), TOP_KEYS)}; known keys: {', '.join(TOP_KEYS)}")
            )

    parent: VariantSpec | None = None
    if "extends" in data:
        target = data["extends"]
        if not isinstance(target, str):
            errors.append(doc.error(("extends",), f"must be a variant name or path, not {_type_name(target)}"))
        elif not target.strip():
            errors.append(doc.error(("extends",), "is empty; name the variant this one changes"))
        elif _URL.match(target):
            errors.append(
                doc.error(
                    ("extends",),
                    f"{target!r} is a URL; a variant extends a registered name or a file next to it, never a download",
                )
            )
        else:
            try:
                found = resolve_name(target, path.parent)
            except TapeteError as exc:  # the lookup refuses the name with its reason (another spelling of a name)
                errors.append(doc.error(("extends",), str(exc)))
                found = path  # reported: read nothing more
            if found is None:
                errors.append(
                    doc.error(
                        ("extends",), f"no variant {target!r} (neither a registered name nor a file next to this one)"
                    )
                )
            elif found is not path:
                try:
                    parent = read_variant(found, resolve_name, (*_seen, path))
                except ErrorList as exc:
                    errors.extend(exc.errors)
                except VariantError as exc:
                    errors.append(exc)

    def text_field(key: str, required: bool) -> str | None:
        if key not in data:
            if required:
                errors.append(doc.error((), f"missing key {key!r}: {TOP_KEYS[key]}"))
            return None
        v = data[key]
        if not isinstance(v, str) or not v.strip():
            errors.append(doc.error((key,), f"must be text, not {_type_name(v)}"))
            return None
        return v

    game = text_field("game", parent is None and "extends" not in data) or (parent.game if parent else "?")
    if parent is not None and "game" in data and data["game"] != parent.game:
        errors.append(doc.error(("game",), f"is {data['game']!r} but the variant it extends is for {parent.game!r}"))
    name = text_field("name", True) or path.stem
    if "name" in data and isinstance(data["name"], str) and not _NAME.fullmatch(data["name"]):
        errors.append(
            doc.error(
                ("name",),
                f"{data['name']!r} is not a variant name: a name is one word of letters, digits, '-', '_' and '.' "
                f"(no '/', spaces or other signs), since it is written after the game's name ({game}/NAME)",
            )
        )
        name = path.stem
    summary = text_field("summary", False) or (parent.summary if parent else "")
    spec = VariantSpec(path, game, name, summary)
    if parent is not None:
        spec.scripts = list(parent.scripts)
        spec.declarations = dict(parent.declarations)
        spec.options = dict(parent.options)
        spec.players, spec.players_at = parent.players, parent.players_at
        spec.files = list(parent.files)
        spec.declared_at = dict(parent.declared_at)
    spec.files.append(path)

    scripts = data.get("scripts", [])
    if isinstance(scripts, str):
        scripts = [scripts]
        doc.marks[("scripts", 0)] = doc.marks.get(("scripts",), (1, 1))
    if not isinstance(scripts, list):
        errors.append(doc.error(("scripts",), f"must be a list of files, not {_type_name(scripts)}"))
        scripts = []
    for i, s in enumerate(scripts):
        if not isinstance(s, str):
            errors.append(doc.error(("scripts", i), f"must be a file name, not {_type_name(s)}"))
            continue
        file = path.parent / s
        if not paths.is_file(file):
            why = paths.why_not(file)
            shown = repr(s) if len(s) <= 80 else repr(s[:60]) + f"... ({len(s):,} characters)"
            if why in ("", "No such file or directory"):
                errors.append(doc.error(("scripts", i), f"script file {shown} not found next to {path.name}"))
            else:  # a name too long to look up, a folder that may not be searched: the system's words
                errors.append(doc.error(("scripts", i), f"script file {shown} cannot be read: {why}"))
            continue
        file = Path(os.path.realpath(file))
        spec.scripts.append(file)
        spec.files.append(file)
    if not spec.scripts and not errors:
        errors.append(doc.error((), "no rule script: add 'scripts: [file.rules]' or 'extends:'"))

    declare = data.get("declare", {})
    if not isinstance(declare, dict):
        errors.append(doc.error(("declare",), f"must be a mapping of option names, not {_type_name(declare)}"))
        declare = {}
    for opt, d in declare.items():
        try:
            spec.declarations[opt] = decl = _declaration(doc, opt, d)
        except VariantError as exc:
            errors.append(exc)
        else:
            spec.declared_at[str(opt)] = doc.at(("declare", opt))
            spec.options[opt] = decl.default  # a re-declaration brings its own default: the parent's value gives way
    for opt, decl in spec.declarations.items():
        spec.options.setdefault(opt, decl.default)

    options = data.get("options", {})
    if not isinstance(options, dict):
        errors.append(doc.error(("options",), f"must be a mapping of option values, not {_type_name(options)}"))
        options = {}
    for opt, value in options.items():
        declared = spec.declarations.get(opt)
        if declared is None:
            errors.append(
                doc.error(
                    ("options", opt),
                    f"unknown option{suggest(str(opt), spec.declarations)}"
                    f"; declared options: {', '.join(spec.declarations) or 'none'}",
                )
            )
            continue
        problem = check_value(declared, value)
        if problem:
            errors.append(doc.error(("options", opt), problem))
        else:
            spec.options[opt] = value

    if "players" in data:
        p = data["players"]
        if isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= MAX_PLAYERS:
            errors.append(doc.error(("players",), f"must be a whole number from 1 to {MAX_PLAYERS}, not {p!r}"))
        else:
            spec.players, spec.players_at = p, doc.at(("players",))
    if errors:
        raise ErrorList(errors)
    return spec


def _declaration(doc: _Doc, opt: str, d: Any) -> OptionDecl:
    where = ("declare", opt)
    if not isinstance(d, dict):
        raise doc.error(where, "must be a mapping with type:, default: and doc:")
    for k in d:
        if k not in DECL_KEYS:
            raise doc.error(
                where + (k,), f"unknown key{suggest(str(k), DECL_KEYS)}; use {', '.join(sorted(DECL_KEYS))}"
            )
    typ = d.get("type")
    if typ not in TYPES:
        raise doc.error(where + ("type",), f"must be one of {', '.join(TYPES)}, not {typ!r}")
    if "default" not in d:
        raise doc.error(where, "missing key 'default'")
    choices = d.get("choices", ())
    meanings: tuple[str, ...] = ()
    if typ == "choice" and isinstance(choices, dict) and choices:  # each choice with what it means
        for c, meaning in choices.items():
            if not isinstance(meaning, str) or not meaning.strip():
                raise doc.error(where + ("choices", c), "says what this choice means, in words (a string)")
        meanings = tuple(str(m) for m in choices.values())
        choices = list(choices)
    if typ == "choice" and (not isinstance(choices, list) or not choices):
        raise doc.error(where + ("choices",), "a choice option needs a list of choices (or a mapping to meanings)")
    decl = OptionDecl(
        opt,
        typ,
        d["default"],
        str(d.get("doc", "")),
        d.get("min"),
        d.get("max"),
        tuple(str(c) for c in choices),
        meanings,
    )
    for bound in ("min", "max"):
        v = getattr(decl, bound)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            raise doc.error(where + (bound,), f"must be a whole number, not {_type_name(v)}")
    problem = check_value(decl, decl.default)
    if problem:
        raise doc.error(where + ("default",), problem)
    return decl


def check_value(decl: OptionDecl, value: Any) -> str | None:
    want = TYPES[decl.type]
    if want is int and (isinstance(value, bool) or not isinstance(value, int)):
        return f"must be a whole number, not {_type_name(value)} {value!r}"
    if want is not int and not isinstance(value, want):
        return f"must be {_type_name(want())}, not {_type_name(value)} {value!r}"
    if decl.min is not None and value < decl.min:
        return f"{value} is below the smallest allowed value {decl.min}"
    if decl.max is not None and value > decl.max:
        return f"{value} is above the largest allowed value {decl.max}"
    if decl.choices and value not in decl.choices:
        return f"{value!r} is not one of {', '.join(decl.choices)}"
    return None


def option_text(value: Any) -> str:
    """An option value as a variant file or the command line would write it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


_HEADERS: dict[tuple[str, int, int, int], tuple[str | None, tuple[Any, str] | None]] = {}


def _header(file: Path) -> tuple[str | None, tuple[Any, str] | None]:
    """(a problem, or None; (its game, its name) when it names itself): the part of a variant file
    `scan_variants` reads.

    Every `registry().variants()` looks at the folders again, so that a file added, removed or
    edited is seen at once; what a file says is kept while the file is the same (its inode, size
    and change time to the nanosecond), since a suite or a server asks hundreds of times, each
    ``extends:`` asks again, and reading 80 files each time is what made ``tapete variants`` slow.
    """
    mode_time = None
    try:
        info = os.stat(file)
        if stat.S_ISREG(info.st_mode):
            mode_time = (str(file), info.st_ino, info.st_size, info.st_mtime_ns)
    except (OSError, ValueError):
        pass  # read_source says what is wrong
    if mode_time is not None and mode_time in _HEADERS:
        return _HEADERS[mode_time]
    try:
        text = read_source(file, "variant file", MAX_VARIANT_BYTES, VariantError)
    except VariantError as exc:
        return (str(exc).splitlines()[0], None)
    result: tuple[str | None, tuple[Any, str] | None]
    try:
        try:
            data = yaml.load(text, Loader=FAST_LOADER) or {}
        except yaml.YAMLError:  # said in the words of PyYAML's own reader
            data = yaml.safe_load(text) or {}
    except (yaml.YAMLError, RecursionError) as exc:
        result = (f"{display_path(file)}: not valid YAML: {getattr(exc, 'problem', None) or exc}", None)
    else:
        named = isinstance(data, dict) and isinstance(data.get("name"), str)
        result = (None, (data.get("game"), data["name"])) if named else (None, None)
    if result[0] is None and mode_time is not None:  # a problem is said again, from where the command runs now
        if len(_HEADERS) > 4096:  # files written by the thousand (a fuzz run) do not grow it for ever
            _HEADERS.clear()
        _HEADERS[mode_time] = result
    return result


def variant_header(file: Path) -> tuple[Any, str] | None:
    """(the game, the name) a variant file names itself by, or None (no name, or not readable as YAML)."""
    return _header(file)[1]


def scan_variants(
    dirs: Iterable[Path],
    problems: list[str] | None = None,
    ignore: Mapping[Path, tuple[str, Mapping[str, str]]] | None = None,
) -> dict[str, Path]:
    """Registered variant names (game/name) -> files, read cheaply without validation.

    A file that cannot be read as a variant, or a name two files both claim, is
    described in ``problems`` (the first file keeps the name). ``ignore`` maps a folder
    to (its plugin, {game: the plugin that owns it}): the folder's variants of those
    games are left out and described, as their plugin's game was."""
    found: dict[str, Path] = {}
    for d in dirs:
        plugin, foreign = (ignore or {}).get(Path(d), ("", {}))
        for file in sorted(Path(d).glob("**/*.yaml")):
            problem, header = _header(file)
            if problem is not None:
                if problems is not None:
                    problems.append(problem)
                continue
            if header is not None:
                game = header[0] or file.parent.name
                name = f"{game}/{header[1]}"
                if game in foreign:
                    if problems is not None:
                        problems.append(
                            f"{display_path(file)}: variant {name!r} of plugin {plugin!r} is ignored: its game"
                            f" {game!r} is plugin {foreign[game]!r}'s, so it would play on other rules"
                        )
                    continue
                if name in found:
                    if problems is not None:
                        problems.append(
                            f"{display_path(file)}: variant {name!r} is also defined by {display_path(found[name])}; "
                            "the first one is used"
                        )
                    continue
                found[name] = file
            elif problems is not None:
                problems.append(f"{display_path(file)}: not a variant file (it needs a 'name:')")
    return found
