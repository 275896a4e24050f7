"""A variant's child written for one test: the parent with a few script lines added (tests/ is on the path).

One writer for every test's child variant, so that a change to how a child names its parent or its
scripts is made once.
"""

from __future__ import annotations

from pathlib import Path

from tapete import Variant, load_variant
from tapete.plugins.loader import Registry


def child_file(tmp_path: Path, parent: str, lines: str, name: str = "extra", extra: str = "") -> Path:
    """Write ``<name>.rules`` (``lines``, byte for byte) and ``<name>.yaml``, which extends ``parent``
    with it and adds the YAML ``extra``; return the YAML file's path."""
    (tmp_path / f"{name}.rules").write_bytes(lines.encode("utf-8"))
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: {parent}\nname: {name}\nscripts: [{name}.rules]\n{extra}", encoding="utf-8")
    return path


def child(tmp_path: Path, parent: str, lines: str, registry: Registry | None = None) -> Variant:
    """``parent`` with the script ``lines`` added, written under ``tmp_path`` and loaded (from ``registry``:
    the installed plugins by default)."""
    return load_variant(child_file(tmp_path, parent, lines + "\n"), registry)
