"""``tapete tournament``: a round robin of bots in one variant, their ratings and head-to-head.

The playing and the rating are `tapete.simulation.tournament` (openskill's Plackett-Luce
model over whole matches); this module turns flags into its arguments and its result into
two tables (or ``--json`` for tools).
"""

from __future__ import annotations

import json
from pathlib import Path

import typer


def tournament(
    variant: str = typer.Argument(..., help="registered name or YAML path"),
    bots: str = typer.Option(
        ..., "--bots", "-b", help="the bots, comma separated (at least two; parameters after ':')"
    ),
    games: int = typer.Option(100, "--games", "-n", help="matches per pair of bots"),
    players: int | None = typer.Option(None, "--players", "-p"),
    option: list[str] = typer.Option(None, "--option", "-o", help="NAME=VALUE (repeatable)"),
    seed: str = typer.Option("1", "--seed", "-s", help="every match's seed is derived from this"),
    workers: int | None = typer.Option(None, "--workers", "-w", help="processes (default: one per core)"),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="a Dask scheduler, tcp://HOST:PORT, or 'local' (needs tapete[dask])"
    ),
    json_file: Path | None = typer.Option(None, "--json", help="write the ratings and the head-to-head here"),
    until_decided: bool = typer.Option(
        False, "--until-decided", help="play rounds of --games until the rating order is decided or --budget is spent"
    ),
    budget: int = typer.Option(2000, "--budget", help="with --until-decided: the most matches a pair"),
) -> None:
    """Play every pair of bots against each other (seats rotated, seeded) and rate them with intervals."""
    from rich.console import Console
    from rich.table import Table

    from ..core.errors import TapeteError
    from ..plugins.botspec import split_bots
    from ..rules.options import split_pairs
    from ..simulation.tournament import round_robin

    if workers is not None and workers < 1:
        raise TapeteError(f"--workers must be 1 or more, not {workers}")
    if until_decided:
        from ..simulation.plan import check_run_size

        check_run_size(budget, None)
    result = round_robin(
        variant,
        split_bots(bots),
        games,
        players=players,
        options=dict(split_pairs(option, "--option")),
        seed=seed,
        workers=workers,
        scheduler=scheduler,
        until_decided=until_decided,
        budget=budget,
    )
    out = Console(highlight=False, soft_wrap=True)
    data = result.to_json()
    if json_file is not None:
        try:
            json_file.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise TapeteError(f"{json_file}: cannot write the results there: {exc.strerror}") from None
    ratings = Table(
        title=f"{result.variant}, {result.players} players, {result.games} matches a pair, seed {seed}",
        title_justify="left",
        header_style="bold",
    )
    for col in ("rank", "bot", "rating", "95% interval", "matches", "score"):
        ratings.add_column(col, justify="left" if col == "bot" else "right")
    for rank, r in enumerate(result.ratings, 1):
        interval = "the zero" if r.bot == "random" else r.interval
        ratings.add_row(str(rank), r.bot, f"{r.elo:.0f}", interval, str(r.games), f"{r.score:.0%}")
    out.print(ratings)
    out.print(
        "rating: openskill's Plackett-Luce model over whole matches (a bot's seats are its team), on the Elo "
        "scale (400 points = about 10:1 odds); random is 0 when it plays; 95% interval: a bootstrap over matches"
    )
    h2h = Table(title="head to head: the row bot's score against the column bot", title_justify="left")
    h2h.add_column("")
    for b in result.bots:
        h2h.add_column(b, justify="right")
    for a in result.bots:
        cells = []
        for b in result.bots:
            cell = data["head_to_head"][a].get(b)
            cells.append("-" if cell is None or cell["score"] is None else f"{cell['score']:.0%} of {cell['games']}")
        h2h.add_row(a, *cells)
    out.print(h2h)
    for step in result.order:
        if step["decided"]:
            out.print(f"decided: {step['better']} above {step['worse']} at 95 % (their own matches)")
        else:
            out.print(f"undecided: {step['better']} above {step['worse']}? {step['more']}")
    if result.order:
        out.print("(confidence sequences on each step's own matches, looked at after every round: valid at any stop)")
    errors = sum(p.errors for p in result.pairs)
    if errors:
        out.print(f"{errors} match(es) stopped on an error of the game and count for nobody")
