"""``tapete check``: validate variant files and rule scripts.

A script is checked in the context that gives its words meaning: the variant
files next to it that use it (their options, their other scripts). A script no
variant file uses is checked on its own against its game's words, when it names
its game; otherwise only its syntax can be checked, and the result says so.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..core import paths
from ..core.errors import ErrorList, LocatedError, TapeteError

if TYPE_CHECKING:
    from ..play.loading import Variant
    from ..plugins.loader import Registry


def check_file(path: Path, registry: Registry | None = None) -> tuple[list[Exception], str]:
    """The errors found in one file, and what was checked (for the ``ok`` line)."""
    from ..play.loading import load_variant
    from ..plugins.loader import registry as default_registry

    path = Path(path)
    if paths.is_dir(path):
        return [TapeteError(f"{path}: is a folder; name the variant files or scripts in it (e.g. {path}/*.yaml)")], ""
    if not paths.exists(path):
        why = paths.why_not(path)  # a FIFO or a device is refused when it is read
        said = "no such file" if why in ("", "No such file or directory") else why
        return [TapeteError(f"{path}: {said}")], ""
    try:
        if path.suffix in (".yaml", ".yml"):
            from .designer_checks import design_findings

            variant = load_variant(path, registry)
            errors, warnings = design_findings(variant)
            problems: list[Exception] = [*errors] or first_deal_problems(variant)  # a deal needs sound rules
            if problems:
                return [*problems, *warnings], ""
            return [], "ok" + "".join(f"\n{w}" for w in warnings)
        return [], _check_script(path, registry or default_registry())
    except ErrorList as exc:
        return list(exc.errors), ""
    except (LocatedError, TapeteError) as exc:
        return [exc], ""


def first_deal_problems(variant: Variant) -> list[Exception]:
    """What ``tapete play`` would refuse before its first move, so that ``check`` says it too:
    the game's default bot is installed, and a first deal deals and offers a move."""
    try:
        variant.record.default_factory()
        deal = variant.new_deal(seed=0)
        if not deal.over and not deal.legal_actions():
            return [TapeteError(f"{variant.name}: the first deal offers no legal move to seat {deal.to_move}")]
    except TapeteError as exc:
        return [exc]
    return []


def _check_script(path: Path, reg: Registry) -> str:
    from ..core.errors import ScriptError, display_path
    from ..core.limits import MAX_SCRIPT_BYTES, read_source
    from ..play.loading import compile_variant, resolver
    from ..rules.program import build_rules, game_of
    from ..rules.syntax import parse_script
    from ..rules.variant_file import read_variant

    script = parse_script(read_source(path, "rule script", MAX_SCRIPT_BYTES, ScriptError), display_path(path))
    for file in sorted(path.resolve().parent.glob("*.y*ml")):
        try:
            spec = read_variant(file, resolver(reg))
        except (ErrorList, LocatedError):
            continue
        if path.resolve() in spec.scripts:
            compile_variant(spec, reg)
            return f"ok (checked with {file.name})"
    sources = {script.path: script.text}
    game, items = game_of([script], {}, reg.vocabulary(""), sources)
    if game is None:
        return "ok (syntax only: no variant file next to it uses it, and it names no game)"
    name = str(game.words[0].value)
    if name not in reg.records:
        raise TapeteError(f"{script.path}: game {name!r} is not installed")
    vocab = reg.vocabulary(name)
    game, items = game_of([script], {}, vocab, sources)
    build_rules(items, name, {}, vocab, sources, script.path)
    return f"ok (checked alone as a {name} script, without options)"
