"""``tapete rules``, ``tapete diff`` and ``tapete report``: the designer's workbench on the command line.

Thin commands: each turns its flags into a call of `tapete.design` (rulebook, diff, report)
and prints or writes what comes back. Everything heavy is imported inside the command, so
``tapete --help`` loads none of it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer


def rules(
    variant: str = typer.Argument(..., help="registered name or YAML path"),
    option: list[str] = typer.Option(None, "--option", "-o", help="NAME=VALUE"),
    fmt: str = typer.Option("text", "--format", "-f", help="text, md or html"),
    ids: bool = typer.Option(False, "--ids", help="show the rule ids and the options behind the values"),
    seat: int | None = typer.Option(None, "--seat", help="add what this seat sees and does not"),
    players: int | None = typer.Option(None, "--players", "-p", help="with --seat: the number of players"),
    out: Path | None = typer.Option(None, "--out", help="write the rulebook to this file instead of printing it"),
) -> None:
    """Print a players' rulebook for a variant, written from its rules (text, Markdown or HTML)."""
    from ..core.errors import TapeteError
    from ..design.rulebook import render_html, render_markdown, render_text, rulebook
    from ..play.loading import load_variant
    from .main import _options, console

    if fmt not in ("text", "md", "html"):
        raise TapeteError(f"--format is text, md or html, not {fmt!r}")
    if players is not None and seat is None:
        raise TapeteError("--players goes with --seat")
    book = rulebook(load_variant(variant, options=_options(option)), ids=ids, seat=seat, players=players)
    if fmt == "md":
        text = render_markdown(book, ids)
    elif fmt == "html":
        text = render_html(book, ids)
    else:
        text = "\n".join(render_text(book, ids)) + "\n"
    if out is not None:
        out.write_text(text, encoding="utf-8")
        console().print(f"{out}: the rulebook of {book.name}")
    else:
        sys.stdout.write(text)


def diff(
    a: str = typer.Argument(..., help="a registered name or YAML path"),
    b: str = typer.Argument(..., help="another registered name or YAML path"),
    json_out: bool = typer.Option(False, "--json", help="print the differences as JSON for tools"),
) -> None:
    """Show how two variants' rules differ, in plain words (after extends: and their options)."""
    import json

    from ..design.diff import compare, same_text
    from ..play.loading import load_variant
    from .main import console

    found = compare(load_variant(a), load_variant(b))
    if json_out:
        sys.stdout.write(json.dumps(found.to_json(), indent=1, ensure_ascii=False) + "\n")
        return
    if found.same:
        console().print(same_text(found))
        return
    console().print(f"{found.a} → {found.b}: {len(found.changes)} difference(s)")
    for line in found.lines():
        console().print(f"  * {line}")
