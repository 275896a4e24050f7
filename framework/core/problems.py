"""What a game family reports about a variant's design: `DesignProblem` and its severities.

A family's `Game.design_problems` returns these, and `tapete check` places each at the
statement it is about (`tapete.design.designer_checks`). They live on the ground floor so
that the plugin contract (`tapete.game`) and a plugin can name them without importing the
designer's tools; ``from tapete import DesignProblem, WARNING`` is the public way.
"""

from __future__ import annotations

from typing import NamedTuple

ERROR, WARNING = "error", "warning"


class DesignProblem(NamedTuple):
    """What a family's `Game.design_problems` reports: a message about one statement.

    ``key`` and ``first`` name the statement (``first`` is the first word of a
    repeatable one), so the message is shown where it is written. ``severity`` is
    ``"error"`` (the variant cannot be played as written; ``tapete check`` fails) or
    ``"warning"`` (it plays, but probably not as meant).
    """

    key: str
    message: str
    severity: str = ERROR
    first: str = ""


__all__ = ["ERROR", "WARNING", "DesignProblem"]
