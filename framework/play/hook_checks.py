"""What a plugin's lifecycle hook hands back is checked before the match goes on.

``tapete_deal_started`` may change the dealt state and ``tapete_deal_scored`` the deal's
scores (house rules do both). A plugin that writes ``nan``, ``10**5000`` or ``True`` into
the scores, drops a seat, or takes a card out of a hand used to end a match with exit 0
and totals of ``nan`` (or hang it): here every change is checked after the hook runs
(the scores' seats, types and bounds; every card of the deck still in exactly one place;
the seat to move a seat), and a failure names the plugin that implements the hook, so
the match stops with one message instead of a wrong result. The checks run once per deal
and only when some plugin implements the hook; the match loop's moves are untouched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..core.errors import TapeteError
from ..core.limits import MAX_SCORE, number_text

if TYPE_CHECKING:
    from ..core.state import DealState
    from ..plugins.loader import Registry


class PluginFault(TapeteError):
    """A plugin's hook handed back something tapete cannot play on; the message names the plugin."""


def implementers(reg: Registry, hook: str) -> str:
    """The plugins that implement ``hook``, as a message names them: ``'houserules' (tapete-house)``."""
    caller = getattr(reg.pm.hook, hook, None)
    names = [impl.plugin_name for impl in caller.get_hookimpls()] if caller is not None else []
    return ", ".join(f"{n!r} ({reg.package_of(n)})" for n in names) or "?"


def cards_of(state: DealState) -> list[int]:
    """Every card of the deal, wherever it lies, in order: what a hook must leave as it found it."""
    return sorted(c for cards in state.zones.values() for c in cards)


def score_problem(scores: Mapping[Any, Any], seats: Sequence[int]) -> str | None:
    """Why ``scores`` is not one whole number within `MAX_SCORE` for each seat of the deal, or None."""
    if not isinstance(scores, Mapping):
        return f"the scores are a {type(scores).__name__}, not a mapping of seats to numbers"
    keys = list(scores)
    if any(isinstance(k, bool) or not isinstance(k, int) for k in keys) or sorted(keys) != sorted(seats):
        missing = [s for s in seats if s not in keys]
        return f"the scores are for seats {keys!r:.60}, not {list(seats)}" + (
            f" (missing {missing})" if missing else ""
        )
    for seat, value in scores.items():
        if isinstance(value, bool) or not isinstance(value, int):
            return f"seat {seat}'s score is {value!r:.40} ({type(value).__name__}), not a whole number"
        if abs(value) > MAX_SCORE:
            return f"seat {seat}'s score is {number_text(value)}, beyond tapete's bound of {number_text(MAX_SCORE)}"
    return None


def state_problem(state: DealState, before: list[int]) -> str | None:
    """Why ``state`` is no longer a deal of the cards it had (``before``: `cards_of` it then), or None."""
    try:
        after = cards_of(state)
    except TypeError:
        return "a zone holds something that is not a card number"
    if after != before:
        lost = len(before) - len(after)
        how = f"{lost} card(s) fewer" if lost > 0 else f"{-lost} card(s) more" if lost < 0 else "other cards"
        return f"the deal holds {how} than were dealt: every card must stay in exactly one place"
    if isinstance(state.to_move, bool) or not isinstance(state.to_move, int) or not 0 <= state.to_move < state.players:
        return f"the seat to move is {state.to_move!r:.20}, not a seat of {state.players}"
    return None


def check_result_hook(reg: Registry, result: Any, players: int, call: Callable[[], None]) -> None:
    """Run ``tapete_match_ended`` (``call``); a result it leaves without a seat or a whole total per seat
    is a `PluginFault` naming the plugin, so the command never prints ``Winner: seat 7`` or ``nan``."""
    hook = "tapete_match_ended"
    try:
        call()
    except TapeteError:
        raise
    except Exception as exc:
        raise PluginFault(f"plugin {implementers(reg, hook)} failed in {hook}: {type(exc).__name__}: {exc}") from None
    totals = result.totals
    problem = (
        score_problem(dict(enumerate(totals)), range(players)) if isinstance(totals, list) else "the totals are no list"
    )
    winner = result.winner
    if problem is None and (isinstance(winner, bool) or not isinstance(winner, int) or not -1 <= winner < players):
        problem = f"the winner is {winner!r:.20}, not a seat of {players} (or -1 for a draw)"
    if problem is not None:
        raise PluginFault(f"plugin {implementers(reg, hook)} broke the result in {hook}: {problem}")


@contextmanager
def checked_hook(
    reg: Registry, hook: str, state: DealState, scores: dict[int, int] | None = None, seats: Sequence[int] = ()
) -> Iterator[None]:
    """Run a lifecycle hook inside this block; what it changed is checked when the block ends.

    A hook that raises, or leaves the deal or the scores broken, is a `PluginFault` naming
    the plugins that implement ``hook``."""
    before = cards_of(state)
    try:
        yield
    except TapeteError:
        raise
    except Exception as exc:  # a plugin's own failure: named, and its game stops here
        raise PluginFault(f"plugin {implementers(reg, hook)} failed in {hook}: {type(exc).__name__}: {exc}") from None
    problem = state_problem(state, before)
    if problem is None and scores is not None:
        problem = score_problem(scores, seats)
    if problem is not None:
        raise PluginFault(f"plugin {implementers(reg, hook)} broke the deal in {hook}: {problem}")
