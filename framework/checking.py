"""``tapete check``: validate variant files and stand-alone rule scripts."""
from __future__ import annotations

from pathlib import Path

from .errors import ErrorList, LocatedError, TapeteError


def check_file(path: Path, registry=None) -> list[Exception]:
    from .engine import load_variant
    from .plugins import registry as default_registry
    path = Path(path)
    if not path.is_file():
        return [TapeteError(f"{path}: no such file")]
    try:
        if path.suffix in (".yaml", ".yml"):
            load_variant(path, registry)
        else:
            _check_script(path, registry or default_registry())
    except ErrorList as exc:
        return list(exc.errors)
    except (LocatedError, TapeteError) as exc:
        return [exc]
    return []


def _check_script(path: Path, reg) -> None:
    """A script alone: parse it, and check it against the variants that use it, if any."""
    from .engine import _display_path, compile_variant
    from .rules.syntax import parse_script
    from .variants import read_variant
    from .engine import resolver
    text = path.read_text(encoding="utf-8")
    parse_script(text, _display_path(path))
    users = []
    for name, file in reg.variants().items():
        if file.parent.resolve() != path.resolve().parent:
            continue                      # scripts are named relative to their variant file
        try:
            spec = read_variant(file, resolver(reg))
        except (ErrorList, LocatedError):
            continue
        if path.resolve() in spec.scripts:
            users.append(spec)
    for spec in users[:1]:
        compile_variant(spec, reg)
