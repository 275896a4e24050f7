"""Every Python package of the checkout is shipped in the wheel, with the grammar and variants."""

from __future__ import annotations

from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    mapped = {Path(d).as_posix() for d in config["package-dir"].values()}
    listed = set(config["packages"])
    assert listed == set(config["package-dir"])
    folders = {
        p.parent.relative_to(ROOT).as_posix()
        for top in ("framework", "plugins")
        for p in (ROOT / top).rglob("__init__.py")
    }
    assert folders <= mapped, f"add to pyproject.toml: {sorted(folders - mapped)}"
