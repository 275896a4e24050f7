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


def test_each_c_module_is_built_inside_its_own_package():
    """setup.py's optional C modules: each source lies in the folder of the package the module joins."""
    import ast

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    modules = [
        (node.args[0].value, [s.value for s in node.args[1].elts])
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Extension"
    ]
    assert {name for name, _ in modules} == {"tapete.core._speedups", "tapete_plugins.tricks._fast"}
    for name, sources in modules:
        folder = config["package-dir"][name.rsplit(".", 1)[0]]
        for source in sources:
            assert (ROOT / source).is_file() and Path(source).parent.as_posix() == folder, (name, source)
            assert (ROOT / source).with_suffix(".pyi").is_file(), f"{source}: a stub for type checkers"
