"""The ``tapete`` command line.

Every command is declared with ``@command()`` rather than ``@app.command()``: the
wrapper is the one place that turns a `TapeteError` (and a file that cannot be read
or written) into a clean message on stderr and exit code 1, so that no input a
person can type ends in a Python traceback. An exception tapete did not expect is a
bug: it is reported in one line naming where it happened, exit code 70, and
``TAPETE_TRACEBACK=1`` shows the whole traceback.

Output never goes through rich's markup or emoji codes: user text such as
``:100:`` or ``[bold]`` in a file name, script line or option prints as typed.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from . import params
from .commands import CommandGroup

if TYPE_CHECKING:
    from rich.console import Console

    from ..play.loading import Variant
    from ..play.match import Match, MatchResult

app = typer.Typer(
    cls=CommandGroup,  # the plugins' commands join when asked for (tapete.cli.commands)
    help="Play, simulate and check card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@functools.cache
def console(stderr: bool = False) -> Console:
    """The console on stdout (or stderr) that every command prints through.

    Made on first use, so that ``tapete --help`` and ``--version`` never import rich's
    console. NO_COLOR (https://no-color.org) means no escape codes at all.
    """
    from rich.console import Console

    plain = bool(os.environ.get("NO_COLOR"))
    return Console(
        stderr=stderr,
        highlight=False,
        soft_wrap=True,
        markup=False,
        emoji=False,
        color_system=None if plain else "auto",
    )


if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        """``tapete.cli.out`` and ``.err``, the consoles' old names, still work."""
        if name == "out":
            return console()
        if name == "err":
            return console(stderr=True)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


EXIT_INPUT = 1  # the input is wrong; the message says how
EXIT_BUG = 70  # tapete or a plugin failed on its own (EX_SOFTWARE)
MAX_MESSAGES = 200  # a run with more problems prints this many and a count of the rest

F = TypeVar("F", bound=Callable[..., Any])


def print_errors(errors: Sequence[Exception | str], limit: int = MAX_MESSAGES) -> None:
    """Print problems to stderr, at most ``limit`` of them, then how many were left out."""
    for e in errors[:limit]:
        console(stderr=True).print(str(e))
    if len(errors) > limit and limit:
        console(stderr=True).print(f"... and {len(errors) - limit} more problem(s) not shown")


def report(exc: BaseException) -> int:
    """Print one clean message for ``exc``; return the exit code it deserves."""
    import traceback

    from ..core.errors import ErrorList, TapeteError

    if isinstance(exc, ErrorList):
        print_errors(list(exc.errors))
        return EXIT_INPUT
    if isinstance(exc, TapeteError):
        console(stderr=True).print(str(exc))
        return EXIT_INPUT
    if isinstance(exc, OSError):
        name = exc.filename if exc.filename is not None else ""
        console(stderr=True).print(f"{name}: {exc.strerror or exc}" if name else f"{exc.strerror or exc}")
        return EXIT_INPUT
    if isinstance(exc, KeyboardInterrupt):  # Ctrl-C, or SIGTERM (tapete.core.signals)
        from ..core.outputs import stopped_line
        from ..core.signals import how

        word, code = how(exc)
        console(stderr=True).print(stopped_line(word))
        return code
    if os.environ.get("TAPETE_TRACEBACK"):
        traceback.print_exception(exc, file=sys.stderr)
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    console(stderr=True).print(
        f"internal error{where}: {type(exc).__name__}: {exc}\n"
        "This is a bug in tapete or in a plugin, not in your input; TAPETE_TRACEBACK=1 shows the traceback."
    )
    return EXIT_BUG


def warn_broken_plugins() -> None:
    """One line on stderr per plugin left out or name clash; ``tapete plugins`` says more."""
    from ..plugins.loader import registry

    for problem in registry().problems:
        console(stderr=True).print(f"warning: {problem} ('tapete plugins' lists the plugins)")


def guarded(fn: F) -> F:
    """Run a command so that every failure ends in one message and an exit code."""
    if getattr(fn, "_guarded", False):
        return fn

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        from ..core.outputs import forget
        from ..core.signals import stopping

        forget()
        try:
            with stopping():  # SIGTERM stops a command as Ctrl-C does, and is reported the same way
                if fn.__name__ not in ("plugins", "version"):
                    warn_broken_plugins()
                return fn(*args, **kwargs)
        except BaseException as exc:  # the one place that reports everything
            if isinstance(exc, SystemExit) or type(exc).__module__.split(".")[0] in ("typer", "click"):
                raise  # exits, aborts and usage errors: typer reports them itself
            code = report(exc)
            raise typer.Exit(code) from None

    run._guarded = True  # type: ignore[attr-defined]
    return run  # type: ignore[return-value]


def guard_all(group: typer.Typer) -> None:
    """Give every command of ``group`` (and of its sub-groups) the shared error handling:
    how tapete's own plugin and the installed plugins' commands get it without ``@command()``."""
    for info in group.registered_commands:
        if info.callback is not None:
            info.callback = guarded(info.callback)
    for sub in group.registered_groups:
        if sub.typer_instance is not None:
            guard_all(sub.typer_instance)


def command(*args: Any, **kwargs: Any) -> Callable[[F], F]:
    """``@app.command()`` with the shared error handling: use it for every command."""

    def deco(fn: F) -> F:
        app.command(*args, **kwargs)(guarded(fn))
        return fn

    return deco


def _options(pairs: list[str]) -> dict[str, str]:
    from ..rules.options import split_pairs

    return dict(split_pairs(pairs, "--option"))


def _version() -> str:
    from ..core.version import __version__

    return __version__


def _print_version(value: bool) -> None:
    if value:
        typer.echo(_version())  # plain text: no need for rich's console
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(
        False, "--version", help="Print the tapete version and exit.", callback=_print_version, is_eager=True
    ),
) -> None:
    """Play, simulate and check card games."""


@command()
def version() -> None:
    """Print the tapete version."""
    typer.echo(_version())


@command()
def variants() -> None:
    """List every registered variant with a one-line description; broken ones say why."""
    from rich.table import Table

    from ..core.errors import TapeteError
    from ..play.loading import load_variant
    from ..plugins.loader import registry

    reg = registry()
    found = reg.variants()
    table = Table(show_header=True, header_style="bold")
    table.add_column("variant")
    table.add_column("description")
    for name, path in sorted(found.items()):
        try:
            table.add_row(name, load_variant(path, reg).spec.summary)
        except TapeteError as exc:
            table.add_row(name, "BROKEN: " + str(exc).splitlines()[0])
    console().print(table)
    print_errors(reg.variant_problems())


@command()
def plugins() -> None:
    """List the plugins with their versions and hooks, and the ones left out with the reason."""
    from rich.table import Table

    from ..plugins.loader import registry

    reg = registry()
    table = Table(show_header=True, header_style="bold")
    for col in ("plugin", "package", "version"):
        table.add_column(col, overflow="fold")
    table.add_column("hooks", no_wrap=True)  # one per line, whole: a hook name is what a person looks up
    for row in reg.plugin_info():
        hooks = "BROKEN: not loaded (see below)" if row["broken"] else "\n".join(row["hooks"])
        table.add_row(row["name"], row["package"], row["version"], hooks)
    console().print(table)
    console().print(f"games: {', '.join(sorted(reg.games))}")
    loaded = {name for name, plugin in reg.pm.list_name_plugin() if plugin is not None}
    for p in reg.problems:
        console().print(f"{'clash' if p.plugin in loaded else 'broken'}: {p}")


@command()
def show(
    variant: str = params.variant_argument(),
    option: list[str] = params.option_option("NAME=VALUE"),
) -> None:
    """Show a variant's resolved options and rules in plain words."""
    from ..play.describe import describe
    from ..play.loading import load_variant

    v = load_variant(variant, options=_options(option))
    for line in describe(v):
        console().print(line)


@command()
def check(
    files: list[Path] = params.files_argument("variant YAML files or rule scripts"),
) -> None:
    """Validate variant files and rule scripts; exit 1 listing every error."""
    from ..design.checking import check_file

    problems: list[Exception] = []
    for f in files:
        errors, what = check_file(f)
        print_errors(errors, max(MAX_MESSAGES - len(problems), 0))
        problems += errors
        if not errors:
            console().print(f"{f}: {what}")
    if len(problems) > MAX_MESSAGES:
        console(stderr=True).print(f"{len(problems)} problems in all; the first {MAX_MESSAGES} are shown")
    if problems:
        raise typer.Exit(EXIT_INPUT)


@command()
def play(
    variant: str = params.variant_argument(),
    players: int | None = params.players_option(),
    seed: str | None = params.seed_option(None, "replay a match: the seed it printed (default: a new one)"),
    bots: str | None = params.bots_option(
        None,
        "bot kinds, comma separated, one per seat or one for all (default: the game's best bot); "
        "parameters follow a colon: ismcts:iterations=400,seconds=1",
    ),
    log: Path | None = params.output_option("--log", what="log", help="write a JSON-lines log here"),
    option: list[str] = params.option_option("NAME=VALUE"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="print only the result"),
    save: Path | None = params.output_option(
        "--save", what="save", purpose="save the match in", help="keep the match saved in this file after every move"
    ),
    force: bool = typer.Option(
        False, "--force", help="replace a --save file that is not this match's save, a --log that is not a log"
    ),
    watch: bool = typer.Option(False, "--watch", help="print every move as the table sees it"),
    delay: float = params.delay_option(),
) -> None:
    """Play a whole match and print each deal's result and the winner; seat yourself with --bots human,..."""
    from ..core import outputs as kinds_of
    from ..core.rng import fresh_seed
    from ..gamelog import LogWriter
    from ..play.loading import load_variant, variant_files
    from ..play.match import Match
    from ..plugins.botspec import split_bots

    outputs = kinds_of.Outputs(force=force, read=[variant, *variant_files(variant)])
    outputs.add(log, kinds_of.LOG, "--log")
    outputs.add(save, kinds_of.SAVE, "--save")
    v = load_variant(variant, options=_options(option))
    outputs.add_inputs(v.spec.files)
    seed_value = seed if seed is not None else fresh_seed()
    kinds = split_bots(bots or v.record.default_bot)
    players = _check_seats(v, players, kinds)
    match = Match(v, players, seed_value, bots=kinds)
    writer = LogWriter(log, outputs) if log else None
    printer = _Printer(v, quiet, drawn_seed=seed is None)  # a new deal every time, its seed told

    def emit(event: dict[str, Any]) -> None:
        if writer:
            writer(event)
        printer(event)

    try:
        if "human" in kinds or save or watch:
            from ..table.session import play_at_table

            result = play_at_table(
                variant,
                v,
                _options(option),
                match,
                printer,
                save,
                watch,
                delay,
                writer,
                force=force,
                rules_text=_rulebook_lines,
            )
        else:
            result = match.play(emit)
    except BaseException:  # stopped or failed: no half log (the file at --log stays as it was)
        if writer:
            writer.discard()
        raise
    if writer:
        writer.close()
    _result(result, match, seed_told=quiet and seed is None)


def _check_seats(v: Variant, players: int | None, kinds: list[str]) -> int | None:
    """The player count a ``--bots`` list sets: refused with what would do when it is too long, filled
    with the last bot when it is too short.

    ``--bots human,heuristic`` on Oh Hell (3-7 players) cannot be two players, and a person who
    names themselves and one opponent wants a game, not a lesson in flags: the table is the
    variant's usual size (four), the last bot taking the other seats, and a line on stderr says
    so (``--players`` chooses another size). A list longer than the largest table is refused."""
    from ..core.errors import TapeteError

    if players is not None or len(kinds) < 2:
        return players
    lo, hi = v.player_range()
    if lo <= len(kinds) <= hi:
        return players
    if len(kinds) > hi:
        listed = f"{len(kinds)} bots were listed, so {len(kinds)} players, but {v.name} is for {lo}-{hi} players"
        raise TapeteError(f"{listed}: list at most {hi} bots, one per seat")
    n = v.default_players() if lo <= v.default_players() <= hi else lo
    if lo != hi:  # a variant for one player count only (Hearts for four) needs no word about it
        seats = f"seat {n - 1}" if n - len(kinds) == 1 else f"seats {len(kinds)}-{n - 1}"
        typer.echo(
            f"{v.name} is for {lo}-{hi} players: {n} players, the last bot ({kinds[-1]}) also in {seats}"
            f" (--players chooses another count)",
            err=True,
        )
    return n


@command()
def resume(
    file: Path = params.input_argument("save", "a save written by 'tapete play --save' or by 'quit'"),
    watch: bool = typer.Option(False, "--watch", help="print every move as the table sees it"),
    delay: float = params.delay_option(),
) -> None:
    """Continue a saved match where it stopped, with the same cards to come."""
    from ..table.session import resume_at_table

    _result(*resume_at_table(file, lambda v: _Printer(v, False), watch, delay, None, rules_text=_rulebook_lines))


def _rulebook_lines(variant: Variant) -> list[str]:
    """What a table's ``rules`` prints, at the terminal and on the web: the players' rulebook
    (``tapete rules``), handed down by the command line so the tables need not reach the designer's floor."""
    from ..design.rulebook import rulebook_lines

    return rulebook_lines(variant)


def _result(result: MatchResult | int, match: Match, seed_told: bool = False) -> None:
    """The last line: the winner and the totals (and, for a quiet match on a drawn seed, the seed)."""
    from rich.text import Text

    if isinstance(result, int):
        raise typer.Exit(result)
    if result.winner >= 0:
        partners = [s for s in match.game.team_seats(match.players, result.winner) if s != result.winner]
        with_ = f" (with seat {', '.join(map(str, partners))})" if partners else ""
        headline = Text(f"Winner: seat {result.winner}{with_}", style="bold")
    elif result.shared:  # HE-5.2: players tied for the best total share the win
        seats = ", ".join(map(str, result.winners[:-1])) + f" and {result.winners[-1]}"
        headline = Text(f"Winner: seats {seats} share the win", style="bold")
    else:
        headline = Text("Draw", style="bold")
    seed = f"; seed {match.seed}" if seed_told else ""
    console().print(Text.assemble(headline, f" after {result.deals} deal(s); totals {result.totals}{seed}"))


class _Printer:
    def __init__(self, variant: Variant, quiet: bool, drawn_seed: bool = False) -> None:
        self.variant, self.quiet, self.drawn_seed = variant, quiet, drawn_seed

    def __call__(self, event: dict[str, Any]) -> None:
        if self.quiet:
            return
        kind = event["type"]
        if kind == "match":
            from rich.text import Text

            console().print(
                Text.assemble(
                    (str(event["variant"]), "bold"),
                    f"  players {event['players']}  seed {event['seed']}  bots {','.join(event['bots'])}",
                )
            )
            if self.drawn_seed:
                console().print(f"a new deal: play this match again with --seed {event['seed']}")
        elif kind == "deal":
            console().print(f"-- deal {event['number']}, dealer seat {event['dealer']}")
        elif kind == "action" and event.get("events"):
            for e in event["events"]:
                if "say" in e:
                    console().print(f"   seat {event['seat']}: {e['say']}")
        elif kind == "void":
            for line in event.get("lines", []):
                console().print(f"   {line}")
            console().print(
                f"   deal {event['number']} is void ({event['reason']}): no scores, the same dealer deals again"
            )
        elif kind == "bonus":
            scores = ", ".join(f"seat {k}: {v:+d}" for k, v in event["scores"].items())
            console().print(f"   match bonuses: {scores}; totals {event['totals']}")
        elif kind == "score":
            for line in event.get("lines", []):
                console().print(f"   {line}")
            scores = ", ".join(f"seat {k}: {v:+d}" for k, v in event["scores"].items())
            console().print(
                f"   deal {event['number']} scores: {scores}; totals {event['totals']}"
                + "".join(f"; {name} {values}" for name, values in event.get("carried", {}).items())
                + (f"; out {[i for i, o in enumerate(event['out']) if o]}" if any(event["out"]) else "")
            )


@command()
def replay(log: Path = params.input_argument("log", "a log written by 'tapete play --log'")) -> None:
    """Re-run a log and check every event; exit 0 when it reproduces."""
    from ..gamelog import replay as run_replay

    report = run_replay(log)
    console().print(
        f"{log}: reproduced {report.events} events over {report.deals} deal(s); winner seat {report.winner}"
    )


@command()
def serve(
    host: str = params.word_option(
        "127.0.0.1", "--host", what="--host", help="the address to listen on (beyond this machine: a warning)"
    ),
    port: int = params.count_option(8000, "--port", low=1, high=65535, help="the port to listen on (1-65535)"),
    db: Path = params.database_option(
        Path("tapete-tables.db"),
        "--db",
        help="the SQLite file that keeps every table, or a postgresql:// URL (several servers sharing one database)",
    ),
    max_tables: int = params.limit_option("tables", 2000, "--max-tables", help="tables in play at once, in all"),
    max_tables_per_client: int = params.limit_option(
        "tables_per_client", 20, "--max-tables-per-client", help="tables in play opened from one address"
    ),
    expire_after: float = params.limit_option(
        "expire_hours",
        24.0,
        "--expire-after",
        help="hours a table may have no page open before it is closed (its record kept)",
    ),
    create_rate: float = params.limit_option(
        "creates_per_minute", 10.0, "--create-rate", help="tables one address may open per minute"
    ),
    bot_seconds: float = params.limit_option(
        "bot_seconds", 5.0, "--bot-seconds", help="the most time any bot may think per move"
    ),
    bot_deadline: float = params.limit_option(
        "bot_deadline",
        15.0,
        "--bot-deadline",
        help="seconds a bot's move may take (queue included) before the stand-in plays it",
    ),
    bot_workers: int = params.limit_option(
        "bot_workers", 2, "--bot-workers", help="threads the bots of every table think in"
    ),
    max_body: int = params.limit_option("max_body", 16384, "--max-body", help="bytes a request's body may hold"),
    header_timeout: float = params.limit_option(
        "header_timeout", 10.0, "--header-timeout", help="seconds to send a request's headers"
    ),
    idle_timeout: float = params.limit_option(
        "idle_timeout", 30.0, "--idle-timeout", help="seconds a connection may stay silent"
    ),
    message_rate: float = params.limit_option(
        "message_rate", 20.0, "--message-rate", help="messages a second one page may send"
    ),
    workers: int | None = params.workers_option(),
    lease: float = params.limit_option(
        "lease_seconds",
        10.0,
        "--lease",
        help="seconds after this server dies before another one on the same database takes its tables over",
    ),
    allow_origin: list[str] = params.word_option(
        None,
        "--allow-origin",
        what="--allow-origin",
        help="another origin whose pages may use the server (a reverse proxy's), repeatable",
    ),
    policy: list[str] = params.policy_option(
        "NAME=FILE: a trained policy (tapete.policy) pages may seat as the bot policy:name=NAME, repeatable"
    ),
) -> None:
    """Host tables in the browser: a lobby, one private link per seat; the server holds the cards."""
    from ..core.errors import TapeteError
    from ..core.inputs import served_policies

    try:
        from ..web.app import serve as run_server
        from ..web.guards import Limits
    except ImportError as exc:
        raise TapeteError(
            f"tapete serve needs the web extra ({exc.name or exc} is missing): pip install 'tapete[web]'"
        ) from None
    try:
        limits = Limits(
            tables=max_tables,
            tables_per_client=max_tables_per_client,
            expire_hours=expire_after,
            creates_per_minute=create_rate,
            bot_seconds=bot_seconds,
            bot_deadline=bot_deadline,
            bot_workers=bot_workers,
            max_body=max_body,
            header_timeout=header_timeout,
            idle_timeout=idle_timeout,
            message_rate=message_rate,
            lease_seconds=lease,
            allow_origins=tuple(allow_origin or ()),
            policies=tuple((name, str(path)) for name, path in served_policies(policy)),
        ).checked()
    except ValueError as exc:
        raise TapeteError(str(exc)) from None
    from ..web.front import default_workers

    run_server(host, port, db, rules_text=_rulebook_lines, limits=limits, workers=workers or default_workers())


# tapete's own plugin attaches `simulate`, `tournament` and `new` through the commands hook, called here
# directly: the plugin manager would cost `tapete --help` the plugins' import (tapete.cli.commands).
from .plugin import tapete_register_commands  # noqa: E402

tapete_register_commands(app)


def main() -> None:  # pragma: no cover
    app()
