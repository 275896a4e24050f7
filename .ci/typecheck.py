#!/usr/bin/env python3
"""mypy over framework/ and plugins/, under the names they are installed as.

The folders are installed as the packages ``tapete`` and ``tapete_plugins`` (``package-dir``
in pyproject.toml), and an editable install reaches them through an import hook mypy cannot
follow. Plain ``mypy framework`` would call the modules ``framework.*`` and then fail to find
``tapete`` where a plugin imports it. This script gives mypy every file with its installed
module name and otherwise behaves like ``mypy``: options and the file list come from
``[tool.mypy]`` in pyproject.toml, arguments are mypy's own (files given replace the list).
Exit status: 0 clean, 1 type errors, 2 a file mypy could not read.
"""

from __future__ import annotations

import os
import sys

from mypy import build
from mypy.errors import CompileError
from mypy.main import process_options

INSTALLED_AS = {"framework": "tapete", "plugins": "tapete_plugins"}


def main(argv: list[str]) -> int:
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    sources, options = process_options(argv)
    for source in sources:
        head, dot, tail = (source.module or "").partition(".")
        if head in INSTALLED_AS:
            source.module = INSTALLED_AS[head] + dot + tail
    try:
        messages = build.build(sources, options).errors
    except CompileError as exc:
        print("\n".join(exc.messages), file=sys.stderr)
        return 2
    errors = [m for m in messages if ": error:" in m]
    if messages:
        print("\n".join(messages))
    if errors:
        files = len({m.split(":", 1)[0] for m in errors})
        print(
            f"Found {len(errors)} error{'s' * (len(errors) != 1)} in {files} file{'s' * (files != 1)} "
            f"(checked {len(sources)} source files)"
        )
        return 1
    print(f"Success: no issues found in {len(sources)} source files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
