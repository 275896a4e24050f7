"""``tapete rules``, ``tapete diff`` and ``tapete report``: the designer's workbench on the command line.

Thin commands: each turns its flags into a call of `tapete.design` (rulebook, diff, report)
and prints or writes what comes back. Everything heavy is imported inside the command, so
``tapete --help`` loads none of it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from ..core.inputs import MAX_GAMES
from ..core.limits import MAX_PLAYERS
from . import params

FORMATS = ("text", "md", "html")


def rules(
    variant: str = params.variant_argument(),
    option: list[str] = params.option_option("NAME=VALUE"),
    fmt: str = params.choice_option("text", "--format", "-f", choices=FORMATS, help="text, md or html"),
    ids: bool = typer.Option(False, "--ids", help="show the rule ids and the options behind the values"),
    seat: int | None = params.count_option(
        None, "--seat", low=0, high=MAX_PLAYERS - 1, help="add what this seat sees and does not"
    ),
    players: int | None = params.players_option("with --seat: the number of players"),
    out: Path | None = params.output_option(
        "--out", what="rulebook", help="write the rulebook to this file instead of printing it"
    ),
    force: bool = typer.Option(False, "--force", help="with --out: replace a file that is not a tapete rulebook"),
) -> None:
    """Print a players' rulebook for a variant, written from its rules (text, Markdown or HTML)."""
    from ..core import outputs as kinds
    from ..core.errors import TapeteError
    from ..design.rulebook import render_html, render_markdown, render_text, rulebook
    from ..play.loading import load_variant, variant_files
    from .main import _options, console

    if players is not None and seat is None:
        raise TapeteError("--players goes with --seat")
    outputs = kinds.Outputs(force=force, read=[variant, *variant_files(variant)])
    outputs.add(out, kinds.RULEBOOK, "--out")
    loaded = load_variant(variant, options=_options(option))
    outputs.add_inputs(loaded.spec.files)
    book = rulebook(loaded, ids=ids, seat=seat, players=players)
    if fmt == "md":
        text = render_markdown(book, ids)
    elif fmt == "html":
        text = render_html(book, ids)
    else:
        text = "\n".join(render_text(book, ids)) + "\n"
    if out is not None:
        mark = "" if fmt == "html" else kinds.first_line("rulebook", "<!--" if fmt == "md" else "#")
        outputs.write(out, mark + text)
        console().print(f"{out}: the rulebook of {book.name}")
    else:
        sys.stdout.write(text)


def diff(
    a: str = params.variant_argument("a registered name or YAML path"),
    b: str = params.variant_argument("another registered name or YAML path"),
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
    variants: list[str] = params.variant_argument("one or more registered names or YAML paths (the arms)"),
    games: int = params.games_option(200, "seeded matches per arm"),
    players: int | None = params.players_option(),
    bots: str | None = params.bots_option(
        None, "bots, comma separated (default: the game's best)", person=False, where="report"
    ),
    option: list[str] = params.option_option("NAME=VALUE for every arm (repeatable)"),
    sweep: list[str] = params.sweep_option("NAME=V1,V2,...: one variant, an arm per value"),
    seed: str = params.seed_option("1", "match i of every arm plays with a seed from this and i"),
    workers: int | None = params.workers_option(),
    scheduler: str | None = params.scheduler_option(),
    ladder_games: int = params.count_option(
        20, "--ladder-games", high=MAX_GAMES, help="matches per rung of the skill ladder"
    ),
    budgets: str = params.counts_option(
        "5,20", "--budgets", n=2, high=MAX_GAMES, help="the two ismcts budgets of the ladder (rollouts)"
    ),
    no_ladder: bool = typer.Option(False, "--no-ladder", help="leave out the skill ladder"),
    out: Path = params.output_option(
        "--out",
        what="HTML report",
        default=Path("report.html"),
        help="the HTML report; its Markdown twin goes beside it",
    ),
    md: Path | None = params.output_option(
        "--md", what="Markdown report", help="the Markdown twin (default: --out with .md)"
    ),
    json_file: Path | None = params.output_option(
        "--json", what="JSON figures", help="write every figure as JSON here"
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress display"),
    force: bool = typer.Option(False, "--force", help="replace --out/--md/--json files that are not tapete reports"),
) -> None:
    """Write a balance report (HTML and Markdown) comparing variants over seeded matches, on every core."""
    from rich.console import Console

    from ..core import outputs as kinds
    from ..core.inputs import option_pairs, read_counts, read_sweep, split_bots
    from ..design.report import arms_from, run_report, write_json
    from ..design.report_html import check_plotting, plan_pages, write_pages
    from ..play.loading import variant_files
    from .main import console
    from .simulate import _Display

    rungs = read_counts(budgets, "--budgets", n=2, low=1, high=MAX_GAMES)
    run_seed = seed
    check_plotting()
    outputs = kinds.Outputs(force=force, read=[*variants, *(f for v in variants for f in variant_files(v))])
    pages = plan_pages(outputs, out, md)
    outputs.add(json_file, kinds.REPORT_JSON, "--json")
    options = dict(option_pairs(option or [], "--option"))
    arms = arms_from(variants, options, read_sweep(sweep, options))
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
            bots=split_bots(bots) if bots else None,
            seed=run_seed,
            workers=workers,
            scheduler=scheduler,
            ladder_games=ladder_games,
            budgets=rungs,
            ladder=not no_ladder,
            progress=progress,
        )
    finally:
        for d in displays:
            d.close()
    html_path, md_path = write_pages(found.data, outputs, pages)
    if json_file is not None:
        write_json(json_file, found, outputs)
    for line in found.data["summary"]:
        console().print(f"* {line}")
    console().print(f"report: {html_path} and {md_path}" + (f", figures in {json_file}" if json_file else ""))
