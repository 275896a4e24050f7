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


def report(
    variants: list[str] = typer.Argument(..., help="one or more registered names or YAML paths (the arms)"),
    games: int = typer.Option(200, "--games", "-n", help="seeded matches per arm"),
    players: int | None = typer.Option(None, "--players", "-p"),
    bots: str | None = typer.Option(None, "--bots", "-b", help="bots, comma separated (default: the game's best)"),
    option: list[str] = typer.Option(None, "--option", "-o", help="NAME=VALUE for every arm (repeatable)"),
    sweep: list[str] = typer.Option(None, "--sweep", help="NAME=V1,V2,...: one variant, an arm per value"),
    seed: str = typer.Option("1", "--seed", "-s", help="match i of every arm plays with a seed from this and i"),
    workers: int | None = typer.Option(None, "--workers", "-w", help="processes (default: one per core)"),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="a Dask scheduler, tcp://HOST:PORT, or 'local' (needs tapete[dask])"
    ),
    ladder_games: int = typer.Option(20, "--ladder-games", help="matches per rung of the skill ladder"),
    budgets: str = typer.Option("5,20", "--budgets", help="the two ismcts budgets of the ladder (rollouts)"),
    no_ladder: bool = typer.Option(False, "--no-ladder", help="leave out the skill ladder"),
    out: Path = typer.Option(Path("report.html"), "--out", help="the HTML report; its Markdown twin goes beside it"),
    md: Path | None = typer.Option(None, "--md", help="the Markdown twin (default: --out with .md)"),
    json_file: Path | None = typer.Option(None, "--json", help="write every figure as JSON here"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress display"),
    until_decided: bool = typer.Option(
        False, "--until-decided", help="play rounds of --games until every difference is decided or --budget is spent"
    ),
    budget: int = typer.Option(5000, "--budget", help="with --until-decided: the most matches an arm (and a rung)"),
    decide: str | None = typer.Option(
        None, "--decide", help="with --until-decided: the measures to decide, comma separated (default: all)"
    ),
) -> None:
    """Write a balance report (HTML and Markdown) comparing variants over seeded matches, on every core."""
    from rich.console import Console

    from ..core.limits import read_number
    from ..core.rng import read_seed
    from ..design.report import arms_from, run_report, write_json
    from ..design.report_html import check_plotting, write_pages
    from ..rules.options import split_pairs
    from ..simulation.plan import MAX_GAMES, check_run_size
    from .main import console
    from .simulate import _Display

    check_run_size(games, workers)
    check_run_size(ladder_games, None)
    if until_decided:
        check_run_size(budget, None)
    asked = _measures(decide)
    rungs = [int(read_number(b, "--budgets", low=1, high=MAX_GAMES)) for b in budgets.split(",") if b.strip()]
    run_seed = read_seed(seed)
    check_plotting()
    grid = {key: [v.strip() for v in values.split(",")] for key, values in split_pairs(sweep or [], "--sweep")}
    arms = arms_from(variants, dict(split_pairs(option or [], "--option")), grid)
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    displays: list[_Display] = []

    def progress(label: str) -> _Display:
        for d in displays:
            d.close()
        if not quiet and not err.is_terminal:
            err.print(f"report: {label}", markup=False)
        display = _Display(err, quiet)
        displays.append(display)
        return display

    try:
        found = run_report(
            arms,
            games,
            players=players,
            bots=[b.strip() for b in bots.split(",")] if bots else None,
            seed=run_seed,
            workers=workers,
            scheduler=scheduler,
            ladder_games=ladder_games,
            budgets=rungs,
            ladder=not no_ladder,
            progress=progress,
            until_decided=until_decided,
            budget=budget,
            decide=asked,
        )
    finally:
        for d in displays:
            d.close()
    html_path, md_path = write_pages(found.data, out, md)
    if json_file is not None:
        write_json(json_file, found)
    for line in found.data["summary"]:
        console().print(f"* {line}")
    console().print(f"report: {html_path} and {md_path}" + (f", figures in {json_file}" if json_file else ""))


def _measures(decide: str | None) -> list[str] | None:
    """The measure keys of ``--decide`` (first_player, deals_per_match, ...), each one the report compares."""
    from ..core.errors import TapeteError
    from ..design.report import METRICS

    if decide is None:
        return None
    known = [k for k, *_ in METRICS]
    asked = [m.strip() for m in decide.split(",") if m.strip()]
    wrong = [m for m in asked if m not in known]
    if wrong or not asked:
        raise TapeteError(f"--decide takes measures among {', '.join(known)}; not {', '.join(wrong) or 'nothing'}")
    return asked
