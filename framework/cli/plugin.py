"""The command line's own plugin: ``simulate``, ``tournament``, ``new``, the designer's workbench
(``rules``, ``diff``, ``report``) and ``verify`` (a web table's record), through the commands hook.

Attached the way an installed plugin attaches its commands (``tapete_register_commands``),
so that tapete's bigger commands and a plugin's share one convention. It is called by
`tapete.cli.main` when the app is built, not through the plugin manager: ``tapete --help``
must list these without importing pluggy or the installed plugins. (That is also why it
has no ``@hookimpl``: the marker lives with pluggy.)
"""

from __future__ import annotations

import typer


def tapete_register_commands(app: typer.Typer) -> None:
    from .main import guard_all
    from .new import new_app
    from .simulate import simulate
    from .tournament import tournament
    from .verify import verify
    from .workbench import diff, report, rules

    app.command()(simulate)
    app.command()(tournament)
    app.command()(rules)
    app.command()(diff)
    app.command()(report)
    app.command()(verify)
    app.add_typer(new_app, name="new")
    guard_all(app)
