"""The ``tapete`` command line."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from . import __version__
from .errors import ErrorList, LocatedError, TapeteError

app = typer.Typer(help="Play, simulate and check card games.", no_args_is_help=True, add_completion=False)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(exc: Exception, code: int = 1) -> None:
    errors = exc.errors if isinstance(exc, ErrorList) else [exc]
    for e in errors:
        err.print(str(e), markup=False)
    raise typer.Exit(code)


def _options(pairs: list[str]) -> dict:
    result = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise TapeteError(f"--option wants NAME=VALUE, not {pair!r}")
        k, v = pair.split("=", 1)
        result[k.strip()] = v.strip()
    return result


@app.command()
def version() -> None:
    """Print the tapete version."""
    out.print(__version__)


@app.command()
def variants() -> None:
    """List every registered variant with a one-line description."""
    import yaml

    from .plugins import registry
    from .variants import scan_variants

    table = Table(show_header=True, header_style="bold")
    table.add_column("variant")
    table.add_column("description")
    for name, path in sorted(scan_variants(registry().variant_dirs).items()):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        table.add_row(name, str(data.get("summary", "")))
    out.print(table)


@app.command()
def plugins() -> None:
    """List the loaded plugins with their versions and hooks."""
    from .plugins import registry

    reg = registry()
    table = Table(show_header=True, header_style="bold")
    for col in ("plugin", "package", "version", "hooks"):
        table.add_column(col)
    for row in reg.plugin_info():
        table.add_row(row["name"], row["package"], row["version"], ", ".join(row["hooks"]))
    out.print(table)
    out.print(f"games: {', '.join(sorted(reg.games))}")


@app.command()
def show(
    variant: str = typer.Argument(..., help="registered name or YAML path"),
    option: list[str] = typer.Option(None, "--option", "-o", help="NAME=VALUE"),
) -> None:
    """Show a variant's resolved options and rules in plain words."""
    from .describe import describe
    from .engine import load_variant

    try:
        v = load_variant(variant, options=_options(option))
    except (TapeteError, LocatedError) as exc:
        _fail(exc)
    for line in describe(v):
        out.print(line, markup=False)


@app.command()
def check(files: list[Path] = typer.Argument(..., help="variant YAML files or rule scripts")) -> None:
    """Validate variant files and rule scripts; exit 1 listing every error."""
    from .checking import check_file

    problems = 0
    for f in files:
        errors, what = check_file(f)
        for e in errors:
            err.print(str(e), markup=False)
        problems += len(errors)
        if not errors:
            out.print(f"{f}: {what}", markup=False)
    if problems:
        raise typer.Exit(1)


@app.command()
def play(
    variant: str = typer.Argument(..., help="registered name or YAML path"),
    players: int | None = typer.Option(None, "--players", "-p"),
    seed: str = typer.Option("1", "--seed", "-s"),
    bots: str | None = typer.Option(
        None,
        "--bots",
        "-b",
        help="bot kinds, comma separated, one per seat or one for all (default: the game's best bot)",
    ),
    log: Path | None = typer.Option(None, "--log", help="write a JSON-lines log here"),
    option: list[str] = typer.Option(None, "--option", "-o", help="NAME=VALUE"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="print only the result"),
) -> None:
    """Play a whole match with bots and print each deal's result and the winner."""
    from .engine import load_variant
    from .gamelog import LogWriter
    from .match import Match

    writer = None
    try:
        v = load_variant(variant, options=_options(option))
        seed_value: object = int(seed) if seed.lstrip("-").isdigit() else seed
        kinds = [b.strip() for b in (bots or v.game_class.default_bot).split(",") if b.strip()]
        match = Match(v, players, seed_value, bots=kinds)
        writer = LogWriter(log) if log else None
        printer = _Printer(v, quiet)

        def emit(event):
            if writer:
                writer(event)
            printer(event)

        result = match.play(emit)
    except (TapeteError, LocatedError) as exc:
        _fail(exc)
    finally:
        if writer:
            writer.close()
    if result.winner >= 0:
        out.print(f"[bold]Winner: seat {result.winner}[/bold] after {result.deals} deal(s); totals {result.totals}")
    else:
        out.print(f"[bold]Draw[/bold] after {result.deals} deal(s); totals {result.totals}")


class _Printer:
    def __init__(self, variant, quiet: bool):
        self.variant, self.quiet = variant, quiet

    def __call__(self, event) -> None:
        if self.quiet:
            return
        kind = event["type"]
        if kind == "match":
            out.print(
                f"[bold]{event['variant']}[/bold]  players {event['players']}  seed {event['seed']}  "
                f"bots {','.join(event['bots'])}"
            )
        elif kind == "deal":
            out.print(f"-- deal {event['number']}, dealer seat {event['dealer']}")
        elif kind == "action" and event.get("events"):
            for e in event["events"]:
                if "say" in e:
                    out.print(f"   seat {event['seat']}: {e['say']}", markup=False)
        elif kind == "void":
            for line in event.get("lines", []):
                out.print(f"   {line}", markup=False)
            out.print(f"   deal {event['number']} is void ({event['reason']}): no scores, the same dealer deals again")
        elif kind == "score":
            for line in event.get("lines", []):
                out.print(f"   {line}", markup=False)
            scores = ", ".join(f"seat {k}: {v:+d}" for k, v in event["scores"].items())
            out.print(
                f"   deal {event['number']} scores: {scores}; totals {event['totals']}"
                + (f"; out {[i for i, o in enumerate(event['out']) if o]}" if any(event["out"]) else "")
            )


@app.command()
def replay(log: Path = typer.Argument(..., help="a log written by 'tapete play --log'")) -> None:
    """Re-run a log and check every event; exit 0 when it reproduces."""
    from .gamelog import replay as run_replay

    try:
        report = run_replay(log)
    except (TapeteError, LocatedError) as exc:
        err.print(f"{log}: {exc}", markup=False)
        raise typer.Exit(1) from None
    out.print(
        f"{log}: reproduced {report.events} events over {report.deals} deal(s); winner seat {report.winner}",
        markup=False,
    )


def main() -> None:  # pragma: no cover
    app()
