"""The design checks every way of playing runs before the first deal: a variant that cannot work is refused.

A variant can load and still be impossible to play: a hand size the deck cannot deal
at some allowed player count (Chinchón ``hand_size = 12`` at four players), a ``when``
condition that gives a number. ``tapete check`` reports these; `tapete play`,
``simulate``, a `Match`, a `Deal` and the PettingZoo environment refuse the variant
with the same messages (`Variant.require_sound`) instead of crashing in the middle of
a deal. The checks run once per loaded variant (the answer is kept on it), when it is
first dealt, never on the hot path. The designer's warnings stay in
`tapete.design.designer_checks`, which builds on these.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..core.errors import ErrorList, LocatedError, Location, TapeteError
from ..core.ledger import Ledger
from ..core.problems import ERROR, WARNING, DesignProblem
from ..core.rng import Random
from ..rules.vocabulary import Ctx
from .deal import start_deal

if TYPE_CHECKING:
    from ..core.state import DealState
    from .loading import Variant


class DesignFinding(LocatedError):
    """A design check's result at its place; ``severity`` says whether it fails the check."""

    def __init__(self, location: Location, message: str, severity: str = ERROR):
        super().__init__(location, message if severity == ERROR else f"warning: {message}")
        self.severity = severity


def deal_findings(variant: Variant) -> Iterator[DesignFinding]:
    """What the family says about a deal at every allowed player count, then one trial deal each."""
    rules = variant.rules
    game = variant.new_game()
    lo, hi = variant.player_range()
    said: dict[tuple[str, str, str], list[tuple[int, DesignProblem]]] = {}
    for players in range(lo, hi + 1):
        problems = list(game.design_problems(players))
        if not any(p.severity == ERROR for p in problems):
            try:  # the family may not know every way its deal can fail: try one
                state = start_deal(game, players, 0, Random(0, "design-check"), Ledger(players))
            except (TapeteError, ErrorList, IndexError, ValueError, KeyError) as exc:
                problems.append(DesignProblem("players", f"a deal for {players} players fails: {exc}"))
            else:
                problems += _condition_problems(variant, state, players)
        for p in problems:
            said.setdefault((p.key, p.first, p.severity), []).append((players, p))
    for (key, first, severity), found in said.items():
        message = found[0][1].message  # the first player count it happens at, then the others
        if len(found) > 1:
            message += f" (the same with {', '.join(str(n) for n, _ in found[1:])} players)"
        yield DesignFinding(rules.location(key, first), message, severity)


def _condition_problems(variant: Variant, state: DealState, players: int) -> list[DesignProblem]:
    """``when`` conditions whose words do not say what they give, tried on a fresh deal: true or false?

    A plugin's quantity without a ``kind`` (``won when cards_left``) cannot be judged at
    load time; at the start of a deal it gives a value, and a number there is refused here,
    at its line, as the loader refuses ``out when total``. A condition that cannot be
    worked out yet (it needs what only the end of the deal sets) is left to the check in play."""
    ctx = Ctx(game=variant.new_game(), state=state, seat=0, ledger=Ledger(players))
    found = []
    for (key, first), cond in variant.rules.unknown_conditions.items():
        try:
            value = cond(ctx)
        except Exception:  # not known before the deal is played: the check in play judges it
            continue
        if value is not True and value is not False:
            message = f"a condition must be true or false, but at the start of a deal it gives {value!r}"
            found.append(DesignProblem(key, message, ERROR, first))
    return found


def design_errors(variant: Variant) -> list[DesignFinding]:
    """The error-level findings of `deal_findings`: what makes the variant unplayable as written."""
    return [f for f in deal_findings(variant) if f.severity == ERROR]


__all__ = ["DesignFinding", "ERROR", "WARNING", "deal_findings", "design_errors"]
