"""``tapete tournament``: a round robin of bots in one variant, their ratings and head-to-head.

The playing and the rating are `tapete.simulation.tournament`; this module turns flags into
its arguments and its result into two tables (or ``--json`` for tools).
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from . import params


def tournament(
    variant: str = params.variant_argument(),
    bots: str = params.bots_option(
        ...,
        "the bots, comma separated (at least two; parameters after ':')",
        person=False,
        where="a tournament",
    ),
    games: int = params.games_option(100, "matches per pair of bots"),
    players: int | None = params.players_option(),
    option: list[str] = params.option_option(),
    seed: str = params.seed_option("1", "every match's seed is derived from this"),
    workers: int | None = params.workers_option(),
    scheduler: str | None = params.scheduler_option(),
    json_file: Path | None = params.output_option(
        "--json", what="JSON results", help="write the ratings and the head-to-head here"
    ),
    force: bool = typer.Option(False, "--force", help="with --json: replace a file that is not a tapete tournament"),
) -> None:
    """Play every pair of bots against each other (seats rotated, seeded) and rate them with intervals."""
    from rich.console import Console
    from rich.table import Table

    from ..core import outputs as kinds
    from ..core.inputs import option_pairs, split_bots
    from ..core.version import __version__
    from ..play.loading import variant_files
    from ..simulation.tournament import round_robin

    outputs = kinds.Outputs(force=force, read=[variant, *variant_files(variant)])
    outputs.add(json_file, kinds.TOURNAMENT_JSON, "--json")
    result = round_robin(
        variant,
        split_bots(bots),
        games,
        players=players,
        options=dict(option_pairs(option, "--option")),
        seed=seed,
        workers=workers,
        scheduler=scheduler,
    )
    out = Console(highlight=False, soft_wrap=True)
    data = result.to_json()
    if json_file is not None:
        marked = {"type": "tapete-tournament", "tapete": __version__, **data}  # the mark of its kind
        outputs.write(json_file, json.dumps(marked, indent=1) + "\n")
    ratings = Table(
        title=f"{result.variant}, {result.players} players, {games} matches a pair, seed {seed}",
        title_justify="left",
        header_style="bold",
    )
    for col in ("rank", "bot", "rating", "95% interval", "matches", "score"):
        ratings.add_column(col, justify="left" if col == "bot" else "right")
    for rank, r in enumerate(result.ratings, 1):
        interval = "the zero" if r.bot == "random" else f"{r.low:.0f} to {r.high:.0f}"
        ratings.add_row(str(rank), r.bot, f"{r.elo:.0f}", interval, str(r.games), f"{r.score:.0%}")
    out.print(ratings)
    out.print("rating: Bradley-Terry on the Elo scale (400 points = 10:1 odds); random is 0 when it plays")
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
    errors = sum(p.errors for p in result.pairs)
    if errors:
        out.print(f"{errors} match(es) stopped on an error of the game and count for nobody")
