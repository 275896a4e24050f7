"""Whether a determinised deal could have happened: replaying the public history in it.

A searching bot plays out deals it imagined from one seat's view (`Determiniser`). An
imagined deal is only worth searching if the game could really have come to it: some
deal of the cards, played with the moves everybody saw, is legal at every step and
arrives at it, and the seat would have seen exactly what it did see on the way. A
determiniser that ignores what the play proves (a player who did not follow suit holds
none of that suit) imagines deals that fail this, and a search spends its rollouts on
them.

`impossibility` answers the question for any game whose cards start in the deal and
move only by the rules, with no game code of its own. The imagined deal differs from the
real one by which hidden card sits where, so the relabelling of hidden cards that turns
the real present into the imagined one, applied to the real start and to every move,
gives the imagined deal's history; the function replays it and says what goes wrong.
Cards the seat remembers where they are (``view.known``) keep their names, so a card
the seat passed to a neighbour is still the card it passed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core.actions import Action
from ..core.state import DealState
from ..play.deal import observe

if TYPE_CHECKING:
    from ..game import Game
    from ..view import View


def relabelling(real: DealState, world: DealState, view: View) -> dict[int, int] | str:
    """The card names that turn ``real`` into ``world`` zone by zone, or why there are none.

    Within each zone the cards ``view`` does not show are paired in order (the order of a
    stock matters), but a card the seat remembers in that zone is paired with itself."""
    if Counter(c for cards in real.zones.values() for c in cards) != Counter(
        c for cards in world.zones.values() for c in cards
    ):
        return "the imagined deal does not hold the same cards as the real one"
    names: dict[int, int] = {}
    for zone, cards in real.zones.items():
        shown = set(view.zones.get(zone, ()))
        mine = [c for c in cards if c not in shown]
        theirs = [c for c in world.zones.get(zone, []) if c not in shown]
        if len(mine) != len(theirs):
            return f"{zone} holds {len(theirs)} unseen cards in the imagined deal, {len(mine)} in the real one"
        kept = {c for c in mine if view.known.get(c) == zone} & set(theirs)
        for c in kept:
            names[c] = c
        for a, b in zip((c for c in mine if c not in kept), (c for c in theirs if c not in kept), strict=True):
            names[a] = b
    if set(names) != set(names.values()):
        return "the imagined deal puts a card the seat can see among the unseen ones"
    return names


def impossibility(game: Game, start: DealState, moves: Sequence[Action], view: View, world: DealState) -> str | None:
    """Why ``world`` cannot be where ``start`` and ``moves`` led, as ``view``'s seat knows it; None if it can.

    ``start`` is the deal as dealt, ``moves`` every move since (the real ones), ``view``
    what the seat knows now and ``world`` a deal imagined from it. The moves, renamed into
    the imagined deal, must each be legal there, the seat must be shown the same at every
    step, and the replay must arrive at ``world`` (each zone holding the same cards)."""
    real = start.clone()
    for action in moves:
        game.apply(real, action)
    names = relabelling(real, world, view)
    if isinstance(names, str):
        return names
    seat = view.seat
    mirror = start.clone()
    mirror.zones = {zone: [names.get(c, c) for c in cards] for zone, cards in start.zones.items()}
    here = start.clone()
    for step, action in enumerate(moves):
        if observe(game, mirror, seat) != observe(game, here, seat):
            return f"before move {step + 1} the seat would have seen something else"
        renamed = Action(action.kind, tuple(names.get(c, c) for c in action.cards), action.detail)
        why = game.refusal(mirror, renamed)
        if why is not None:
            return f"move {step + 1} ({renamed.text(game.deck)}) is illegal there: {why}"
        game.apply(mirror, renamed)
        game.apply(here, action)
    if observe(game, mirror, seat) != observe(game, here, seat):
        return "after the last move the seat would see something else"
    for zone, cards in world.zones.items():
        if sorted(mirror.zones.get(zone, [])) != sorted(cards):
            return f"the replay leaves other cards in {zone}"
    return None
