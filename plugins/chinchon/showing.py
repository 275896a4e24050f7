"""What happens after a close: showing melds and laying off, in turn, until nobody can add.

CH-5.1 the closer shows first, then the others in turn order, each showing
their own melds and laying off unmatched cards on the melds already down
(CH-5.2); cards once matched never move (CH-5.3). CH-5.4 the melds of a closer
who matched everything take nothing, when the script's ``sealed`` rule says so.

CH-5.6 (the profile is silent; our decision): laying off goes round and round
in turn order, the closer included, until a whole round adds nothing. So the
closer's own unmatched cards may go on melds shown after theirs, and anyone may
add to a meld shown after their own showing. Each player, at each turn of the
showing, picks the own melds and lay-offs that leave them the fewest points
(``layoff.best_showing``); a card that fits two melds goes where it leaves the
fewest points, and on a tie to the meld shown first.

GR-5.1 (Gin Rummy, ``closer_lays_off = false``): the closer (the knocker) never
lays off; only the others lay off, on the knocker's melds and on each other's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .layoff import TableMeld, best_showing, can_add
from .melds import Meld

if TYPE_CHECKING:
    from .tables import MeldTables


@dataclass
class Table:
    """The melds on the table during one showing, with who owns and who added each card."""

    melds: list[TableMeld] = field(default_factory=list)
    owner: list[int] = field(default_factory=list)
    added_by: dict[int, int] = field(default_factory=dict)  # card -> seat that laid it off

    def put(self, seat: int, meld: Meld, sealed: bool = False) -> None:
        self.melds.append(TableMeld(meld, sealed))
        self.owner.append(seat)


def show_and_lay_off(
    tables: MeldTables,
    hands: dict[int, list[int]],
    order: list[int],
    closer_melds: Iterable[Meld],
    sealed: bool,
    upward_only: bool,
    one_per_value: bool,
    closer_lays_off: bool = True,
) -> Table:
    """Run the whole showing; ``hands`` (seat -> cards) is left holding the unmatched cards."""
    solver = tables.solver
    table = Table()
    closer = order[0]
    for meld in closer_melds:  # CH-5.1 the closer shows first
        table.put(closer, meld, sealed)
    used: dict[int, set[int]] = {s: set() for s in order}  # CH-V2 ranks already laid off

    def turn(seat: int) -> bool:
        hand = hands[seat]
        if not hand:
            return False
        blocked = [c for c in hand if one_per_value and _rank_of(tables, c) in used[seat] and not tables.wild[c]]
        free = [c for c in hand if c not in blocked]
        if not free:
            return False
        if not solver._meldable(free) and not can_add(solver, free, table.melds, runs_upward_only=upward_only):
            return False  # no own meld and no card that fits a shown one: the showing would change nothing
        s = best_showing(solver, free, table.melds, runs_upward_only=upward_only, one_per_value=one_per_value)
        if not s.layoffs and not s.arrangement.melds:
            return False
        for c, j in s.layoffs:  # CH-5.2 additions to shown melds
            table.added_by[c] = seat
            used[seat].add(_laid_rank(tables, c, s.table[j]))
        for j, meld in enumerate(s.table):
            table.melds[j] = TableMeld(meld, table.melds[j].closed)
        for meld in s.arrangement.melds:  # the player's own melds go down too
            table.put(seat, meld)
        hands[seat] = sorted(blocked + list(s.unmatched))
        return True

    for seat in order[1:]:  # CH-5.1 the others, in turn order
        turn(seat)
    again = order if closer_lays_off else order[1:]  # GR-5.1 a knocker never lays off
    while True:  # CH-5.2 / CH-5.6 until nobody can add
        if not any(turn(seat) for seat in again):
            break
    return table


def _rank_of(tables: MeldTables, card: int) -> int:
    return tables.infos[card].run_pos


def _laid_rank(tables: MeldTables, card: int, meld: Meld) -> int:
    stood = meld.stands_for(card)
    return stood[0] if stood is not None else _rank_of(tables, card)
