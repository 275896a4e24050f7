"""``tapete simulate``: the command, its progress display, its tables and its output files.

The playing is `tapete.simulation.simulate`; this module only turns flags into
its arguments and its records into what a person reads (rich tables on stdout,
progress on stderr) or a program reads (``--json``, ``--csv``, ``--plot``).
Whatever stops a run (Ctrl-C, a dying worker), the matches that finished are
written and summarised before the command exits.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import typer

from . import params

SWEEP_HELP = "NAME=V1,V2,...: play every combination of the values (repeatable)"


def simulate(
    variant: str = params.variant_argument(),
    games: int = params.games_option(100, "matches per sweep point"),
    players: int | None = params.players_option(),
    bots: str | None = params.bots_option(
        None,
        "bots, comma separated, one per seat; a short list is filled with its last (default: the game's best)",
        person=False,
        where="simulate",
    ),
    option: list[str] = params.option_option(),
    sweep: list[str] = params.sweep_option(SWEEP_HELP),
    seed: str = params.seed_option("1", "match i plays with a seed derived from this and i"),
    workers: int | None = params.workers_option(),
    scheduler: str | None = params.scheduler_option(),
    json_file: Path | None = params.output_option(
        "--json", what="JSON summary", help="write the summary and every match record here"
    ),
    csv_file: Path | None = params.output_option("--csv", what="CSV table", help="write one row per match here"),
    plot: Path | None = params.output_option(
        "--plot", what="plot", help="draw win rates and match lengths to a PNG (tapete[plot])"
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress display"),
    force: bool = typer.Option(False, "--force", help="replace --json/--csv/--plot files that are not tapete's own"),
) -> None:
    """Play many seeded matches (on every core) and print win rates, match length and busts."""
    from rich.console import Console

    from ..core import outputs as outs
    from ..core.errors import ErrorList, LocatedError, TapeteError
    from ..core.inputs import option_pairs, read_sweep, split_bots
    from ..play.loading import variant_files
    from ..simulation.plan import Simulation, SimulationError, check_run_size
    from ..simulation.plan import simulate as run_simulation

    out = Console(highlight=False, soft_wrap=True)
    if not out.is_terminal:
        out = Console(highlight=False, soft_wrap=True, width=160)  # a file or a pipe: no need to squeeze tables
    err = Console(stderr=True, highlight=False, soft_wrap=True)

    def fail(message: str, code: int = 1) -> None:
        err.print(message, markup=False)
        raise typer.Exit(code)

    sim: Simulation | None = None
    failure: str | None = None
    outputs = outs.Outputs(force=force)
    try:
        outputs.add_inputs([variant, *variant_files(variant)])
        outputs.add(json_file, outs.SIMULATION_JSON, "--json")
        outputs.add(csv_file, outs.SIMULATION_CSV, "--csv")
        outputs.add(plot, outs.SIMULATION_PLOT, "--plot")
        check_run_size(games, workers)
        if plot is not None:
            _check_plotting()
        options = dict(option_pairs(option or [], "--option"))
        grid = read_sweep(sweep, options)
        kinds = split_bots(bots) if bots else None
        display = _Display(err, quiet)
        try:
            sim = run_simulation(
                variant,
                games,
                players=players,
                bots=kinds,
                options=options,
                sweep=grid,
                seed=seed,
                workers=workers,
                scheduler=scheduler,
                progress=display,
            )
        finally:
            display.close()
    except SimulationError as exc:
        sim, failure = exc.partial, str(exc)
    except ErrorList as exc:
        for e in exc.errors:
            err.print(str(e), markup=False)
        raise typer.Exit(1) from None
    except (TapeteError, LocatedError) as exc:
        fail(str(exc))
    if sim is None:
        fail(failure or "nothing was played")
        return
    stopped = sim.stopped in ("interrupted", "terminated")  # Ctrl-C, or SIGTERM: every worker has been stopped
    try:
        if json_file is not None and not stopped:  # a stopped run writes no file that looks complete
            outputs.write(json_file, _json_text(sim))
        if csv_file is not None and not stopped:
            outputs.write(csv_file, _csv_text(sim))
    except TapeteError as exc:
        fail(str(exc))
    if sim.records:
        _print_tables(out, sim)
    if plot is not None and sim.records and not stopped:
        from ..simulation.plot import draw

        outputs.write(plot, draw(sim))
    if failure is not None:
        fail(failure)
    if stopped:
        code = 130 if sim.stopped == "interrupted" else 143
        fail(outs.stopped_line(f"{sim.stopped}: {len(sim.records)} of {sim.plan.total} matches finished"), code)


def _check_plotting() -> None:
    from ..core.errors import TapeteError

    try:
        import matplotlib  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    except ImportError:
        raise TapeteError("--plot needs matplotlib: pip install 'tapete[plot]'") from None


class _Display:
    """A rich progress bar on a terminal; otherwise a plain line now and then."""

    def __init__(self, console: Any, quiet: bool):
        self.console, self.quiet = console, quiet
        self.bar: Any = None
        self.task: Any = None
        self.start = time.perf_counter()
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        if self.quiet:
            return
        if self.console.is_terminal:
            if self.bar is None:
                from rich.progress import (
                    BarColumn,
                    MofNCompleteColumn,
                    Progress,
                    TextColumn,
                    TimeRemainingColumn,
                )

                self.bar = Progress(
                    TextColumn("simulating"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TextColumn("{task.fields[rate]} games/s"),
                    TimeRemainingColumn(),
                    console=self.console,
                    transient=True,
                )
                self.bar.start()
                self.task = self.bar.add_task("simulate", total=total, rate="-")
            elapsed = time.perf_counter() - self.start
            shown = f"{done / elapsed:.1f}" if elapsed > 0 and done else "-"
            self.bar.update(self.task, completed=done, rate=shown)
            return
        now = time.perf_counter()
        if done and (done == total or now - self.last >= 1.0):
            self.last = now
            elapsed = now - self.start
            rate = done / elapsed if elapsed > 0 else 0.0
            left = (total - done) / rate if rate else 0.0
            self.console.print(f"simulate: {done}/{total} matches, {rate:.1f} games/s, {left:.0f} s left", markup=False)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


# -- tables -------------------------------------------------------------------------
def _pct(row: dict[str, Any]) -> str:
    return f"{100 * row['rate']:.1f}% [{100 * row['low']:.1f}-{100 * row['high']:.1f}]"


def _values(values: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in values.items())


def _print_tables(out: Any, sim: Any) -> None:
    from rich.table import Table

    summary = sim.summary()
    points = summary["points"]
    head = f"{summary['variant']}: {summary['matches']} matches, {summary['players']} players, seed {summary['seed']}"
    if summary["options"]:
        head += f", options {_values(summary['options'])}"
    head += f" ({summary['seconds']:.1f} s)"
    out.print(f"[bold]{head}[/bold]")
    for point in points:
        if not point["matches"]:
            continue
        title = _values(point["values"]) or "all matches"
        seats = Table(title=f"{title}: per seat", title_justify="left", header_style="bold")
        busts = summary["eliminates"]
        for col in ("seat", "bot", "won (95% interval)", "mean total", "deals won") + (("busts",) if busts else ()):
            seats.add_column(col, justify="left" if col == "bot" else "right")
        for row in point["seats"]:
            cells = [
                str(row["seat"]),
                row["bot"],
                _pct(row),
                f"{row['mean_total']:.1f}",
                f"{row['mean_deals_won']:.2f}",
            ]
            seats.add_row(*cells, *([str(row["out"])] if busts else []))
        out.print(seats)
        if len(point["bots"]) > 1:
            bots = Table(title=f"{title}: per bot", title_justify="left", header_style="bold")
            for col in ("bot", "seats", "won (95% interval)", "fair share", "mean total"):
                bots.add_column(col, justify="left" if col == "bot" else "right")
            for row in point["bots"]:
                bots.add_row(
                    row["bot"],
                    ",".join(map(str, row["seats"])),
                    _pct(row),
                    f"{100 * row['fair_share']:.0f}%",
                    f"{row['mean_total']:.1f}",
                )
            out.print(bots)
        pos = Table(
            title=f"{title}: by playing order in the first deal (1 = moved first)",
            title_justify="left",
            header_style="bold",
        )
        pos.add_column("position", justify="right")
        pos.add_column("won (95% interval)", justify="right")
        for row in point["positions"]:
            pos.add_row(str(row["position"] + 1), _pct(row))
        out.print(pos)
        out.print(_match_line(point, summary["eliminates"]))
    if len(points) > 1:
        cmp = Table(title="comparison across sweep values", title_justify="left", header_style="bold")
        cmp.add_column("values")
        busts = summary["eliminates"]
        for col in ("matches", "draws", "deals/match", "actions/deal", "first player won"):
            cmp.add_column(col, justify="right")
        if busts:
            cmp.add_column("busts/match", justify="right")
        for row in points:
            cmp.add_row(
                _values(row["values"]),
                str(row["matches"]),
                str(row["draws"]),
                f"{row['deals_per_match']:.2f}",
                f"{row['actions_per_deal']:.1f}",
                _pct(row["positions"][0]) if row["matches"] else "-",
                *([f"{row['eliminations_per_match']:.2f}"] if busts else []),
            )
        out.print(cmp)
        _print_bot_comparison(out, points)


def _print_bot_comparison(out: Any, points: list[dict[str, Any]]) -> None:
    from rich.table import Table

    names = [b["bot"] for b in points[0]["bots"]]
    if len(names) < 2:
        return
    table = Table(title="bots' wins across sweep values", title_justify="left", header_style="bold")
    table.add_column("values")
    for name in names:
        table.add_column(name, justify="right")
    for row in points:
        table.add_row(_values(row["values"]), *[_pct(b) if row["matches"] else "-" for b in row["bots"]])
    out.print(table)


def _match_line(point: dict[str, Any], busts: bool) -> str:
    parts = [
        f"deals/match {point['deals_per_match']:.2f} (sd {point['deals_per_match_sd']:.2f})",
        f"actions/deal {point['actions_per_deal']:.1f}",
        f"draws {point['draws']}",
    ]
    if busts:
        parts.append(f"busts/match {point['eliminations_per_match']:.2f}")
    if point["reentries_per_match"]:
        parts.append(f"re-entries/match {point['reentries_per_match']:.2f}")
    if point["void_deals"]:
        parts.append(f"void deals {point['void_deals']}")
    line = "  ".join(parts)
    if point["errors"]:
        line += f"\n{point['errors']} match(es) ended in an error, left out of the tables"
        line += f"; the first: {point['first_error']}"
    return line


# -- files ----------------------------------------------------------------------------
def _json_text(sim: Any) -> str:
    """``--json``: the summary and every match record (its first key, the type, marks the kind)."""
    import json

    from ..core.version import __version__

    doc = {
        "type": "tapete-simulation",
        "tapete": __version__,
        "variant": sim.plan.name,
        "digest": sim.plan.digest,
        "summary": sim.summary(),
        "points": sim.plan.points,
        "records": [dict(r.to_json(), options=sim.plan.point_options(r.point)) for r in sim.records],
    }
    return json.dumps(doc, indent=1) + "\n"


def _csv_text(sim: Any) -> str:
    """``--csv``: one row per match under the header row (which marks the kind)."""
    import csv
    import io

    plan = sim.plan
    keys = sorted({*plan.options, *plan.sweep})
    n = plan.players
    header = ["point", "match", "seed", *keys, "players", "bots", "winner", "winner_bot", "winner_position"]
    header += ["deals", "actions", "void_deals", "error"]
    header += [f"total_{s}" for s in range(n)] + [f"deals_won_{s}" for s in range(n)] + [f"out_{s}" for s in range(n)]
    f = io.StringIO(newline="")
    w = csv.writer(f)
    w.writerow(header)
    for r in sim.records:
        opts = plan.point_options(r.point)
        w.writerow(
            [r.point, r.match, r.seed, *[opts.get(k, "") for k in keys], r.players, "|".join(r.bots), r.winner]
            + [r.bots[r.winner] if r.winner >= 0 else "", "" if r.position is None else r.position + 1]
            + [r.deals, r.actions, r.void_deals, r.error or "", *r.totals, *r.deals_won]
            + [int(o) for o in r.out]
        )
    return f.getvalue()
