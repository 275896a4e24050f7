"""A variant's child written for one test: the parent with a few script lines added (tests/ is on the path)."""

from __future__ import annotations

from pathlib import Path

from tapete import Variant, load_variant
from tapete.plugins.loader import Registry


def child(tmp_path: Path, parent: str, lines: str, registry: Registry | None = None) -> Variant:
    """``parent`` with the script ``lines`` added, written under ``tmp_path`` and loaded (from ``registry``:
    the installed plugins by default)."""
    (tmp_path / "extra.rules").write_text(lines + "\n", encoding="utf-8")
    path = tmp_path / "extra.yaml"
    path.write_text(f"extends: {parent}\nname: extra\nscripts: [extra.rules]\n", encoding="utf-8")
    return load_variant(path, registry)
