"""Lay-off solver for Chinchón (CH-5): own melds + additions to shown melds.

``best_showing(solver, hand, table, *, runs_upward_only=False, one_per_value=False)``
chooses, for one player, the arrangement of ``hand`` into own melds AND the
lay-offs of the remaining cards onto the ``table`` melds that leave the least
penalty (CH-5.5).  Returns a ``Showing``.

Rules implemented
-----------------
* CH-5.2 a card is added to a group (same rank; the group stays within
  ``max_group``; suits distinct with one deck, at most ``max_identical_in_group``
  identical copies with two decks) or to either end of a run (same suit, the
  next run position that exists for that suit).  Lay-offs chain: a card laid
  off extends the meld, so the next card may follow (run 3-4-5, hand 6 and 7).
* CH-5.3 shown cards never move; a wild already shown keeps its meaning
  (CH-V7, "fixed when melds are shown").  A laid-off wild stands for any card
  that could be laid off there (either run end, any free suit of a group);
  the solver picks the meaning.  A meld never exceeds ``max_wild_per_meld``.
* CH-5.4 a ``TableMeld`` with ``closed=True`` takes no card.
* CH-V2 ``runs_upward_only``: runs are extended only at the top.
  ``one_per_value``: in one showing the player adds at most one card of each
  rank (run position; for a wild, the rank it stands for) over all lay-offs.
  (Our reading of "at most one card of each value may be added"; per player
  and showing, not per meld.)
* The player's own new melds take no lay-offs here: a card that fits one of
  them simply belongs to that meld (``Arrangement`` melds may be of any
  legal size).  Whether later players may add to them is the caller's
  business: pass them as ``TableMeld`` entries to the next call (CH-5.1/5.6).

Tie-break (deterministic)
-------------------------
Among showings with the least penalty: fewest cards left unmatched, then
fewest lay-offs (own melds preferred over lay-offs for the same cards), then the smallest sorted
tuple of unmatched card ids, then the own melds' key (sorted
``(sorted card ids, kind)``), then the smallest sorted tuple of
``(card, table index, run_pos, suit)`` lay-offs.  ``Showing.layoffs`` lists
``(card, table index)`` in an order that can be applied one by one (chains
bottom-up), ties by card id.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from .melds import GROUP, RUN, Arrangement, HandMeld, Meld, MeldsKey, MeldSolver, _melds_key

__all__ = ["TableMeld", "Showing", "best_showing", "can_add"]


@dataclass(frozen=True)
class TableMeld:
    meld: Meld
    closed: bool = False  # CH-5.4: nobody may add to it


@dataclass(frozen=True)
class Showing:
    arrangement: Arrangement  # own melds; unmatched = every card not in an own meld
    layoffs: tuple[tuple[int, int], ...]  # (card, table meld index), in applicable order
    penalty: int  # value of ``unmatched`` (CH-5.5)
    unmatched: tuple[int, ...] = ()  # cards left after lay-offs, ascending ids
    table: tuple[Meld, ...] = ()  # the table melds after the lay-offs (wild meanings set)


#: A shown run's state: (RUN, suit, lowest place, highest place, wilds, cards).
RunState: TypeAlias = tuple[Literal["run"], int, int, int, int, int]
#: A shown group's state: (GROUP, rank, ((suit, cards of that suit, identity or None), ...), cards, wilds).
GroupState: TypeAlias = tuple[Literal["group"], int, tuple[tuple[int, int, int | None], ...], int, int]
State: TypeAlias = RunState | GroupState
#: One way to add a card: (run_pos, suit it stands as, the meld's new state).
Option: TypeAlias = tuple[int, int, State]
#: A lay-off: (card, table meld index, run_pos, suit).
Act: TypeAlias = tuple[int, int, int, int]
#: The tie-break of showings (module doc): penalty, cards left, lay-offs, left ids, own melds, lay-offs.
ShowingKey: TypeAlias = tuple[int, int, int, tuple[int, ...], MeldsKey, tuple[Act, ...]]


def _state(solver: MeldSolver, meld: Meld) -> State:
    info = solver.cards
    wilds = {w: (p, s) for w, p, s in meld.wilds}
    if any(info[c].wild for c in meld.cards) and len(wilds) < sum(info[c].wild for c in meld.cards):
        canon = solver.make_meld(meld.cards, meld.kind)
        wilds = {w: (p, s) for w, p, s in canon.wilds}
    nwild = len(wilds)
    if meld.kind == RUN:
        pos: list[int] = []
        suit = -1
        for c in meld.cards:
            p, suit = wilds[c] if c in wilds else (info[c].run_pos, info[c].suit)
            pos.append(p)
        return (RUN, suit, min(pos), max(pos), nwild, len(meld.cards))
    rank = -1
    count: dict[int, int] = {}
    ident: dict[int, int | None] = {}
    for c in meld.cards:
        if c in wilds:
            rank, s = wilds[c]
            ident.setdefault(s, None)
        else:
            rank, s = info[c].run_pos, info[c].suit
            ident[s] = info[c].identity
        count[s] = count.get(s, 0) + 1
    suits = tuple(sorted((s, n, ident[s]) for s, n in count.items()))
    return (GROUP, rank, suits, len(meld.cards), nwild)


def _options(solver: MeldSolver, card: int, st: State, upward: bool) -> list[Option]:
    """(run_pos, suit, new state) for each way ``card`` can be added to state ``st`` (CH-5.2)."""
    ci = solver.cards[card]
    rules = solver.rules
    out: list[Option] = []
    if st[0] == RUN:
        _, suit, lo, hi, nwild, size = st
        posset = solver._suit_pos.get(suit, frozenset())
        if ci.wild:
            if nwild >= rules.max_wild_per_meld:
                return out
            if hi + 1 in posset:
                out.append((hi + 1, suit, (RUN, suit, lo, hi + 1, nwild + 1, size + 1)))
            if not upward and lo - 1 in posset:
                out.append((lo - 1, suit, (RUN, suit, lo - 1, hi, nwild + 1, size + 1)))
        elif ci.suit == suit:
            if ci.run_pos == hi + 1 and hi + 1 in posset:
                out.append((hi + 1, suit, (RUN, suit, lo, hi + 1, nwild, size + 1)))
            elif not upward and ci.run_pos == lo - 1 and lo - 1 in posset:
                out.append((lo - 1, suit, (RUN, suit, lo - 1, hi, nwild, size + 1)))
        return out
    _, rank, suits, size, nwild = st
    if size + 1 > solver._maxg:
        return out
    per = {s: (n, i) for s, n, i in suits}

    def add(s: int, ident: int | None) -> GroupState:
        d = dict(per)
        n, i = d.get(s, (0, None))
        d[s] = (n + 1, i if ident is None else ident)
        return (GROUP, rank, tuple(sorted((k, n, i) for k, (n, i) in d.items())), size + 1, nwild + ci.wild)

    cap = solver._cap
    if ci.wild:
        if nwild >= rules.max_wild_per_meld:
            return out
        for s in solver._rank_suits.get(rank, ()):
            if per.get(s, (0, None))[0] < cap.get((rank, s), 0):
                out.append((rank, s, add(s, None)))
    elif ci.suit >= 0 and ci.run_pos == rank:
        n, ident = per.get(ci.suit, (0, None))
        if n < cap.get((rank, ci.suit), 0) and (ident is None or ident == ci.identity):
            out.append((rank, ci.suit, add(ci.suit, ci.identity)))
    return out


def _table_states(solver: MeldSolver, table: Sequence[TableMeld]) -> tuple[State, ...]:
    known = solver._layoff_states  # a shown meld's state depends on the meld alone
    if len(known) >= 1 << 14:
        known.clear()
    for tm in table:
        if tm.meld not in known:
            known[tm.meld] = _state(solver, tm.meld)
    return tuple(known[tm.meld] for tm in table)


def can_add(
    solver: MeldSolver, hand: Sequence[int], table: Sequence[TableMeld], *, runs_upward_only: bool = False
) -> bool:
    """Whether some card of ``hand`` fits some open meld of ``table`` (CH-5.2, CH-5.4), limits per showing aside."""
    states = _table_states(solver, table)
    return any(
        _options(solver, c, states[j], runs_upward_only) for c in hand for j, tm in enumerate(table) if not tm.closed
    )


def best_showing(
    solver: MeldSolver,
    hand: Sequence[int],
    table: Sequence[TableMeld],
    *,
    runs_upward_only: bool = False,
    one_per_value: bool = False,
) -> Showing:
    """Own arrangement + lay-offs of ``hand`` onto ``table`` with the least penalty (CH-5)."""
    value = solver._value
    if len(set(hand)) != len(hand):
        raise ValueError(f"a card id appears twice in {tuple(hand)}")
    # Cards no own meld can hold stay in every leftover set: the search of own melds runs without them.
    live = solver._meldable(hand)
    loose = frozenset(hand) - frozenset(live)
    prep = solver._prepare(live)
    ids = prep[0]
    n = len(ids)

    # 1. every partial partition into own melds, best own arrangement per leftover set (the least
    # own melds' key; keys are worked out only where two partitions leave the same cards).
    per_rest: dict[int, list[HandMeld]] = {}
    per_rest_key: dict[int, MeldsKey] = {}

    def melds_key(chosen: list[HandMeld]) -> MeldsKey:
        return tuple(sorted((tuple(ids[i] for i in range(n) if m >> i & 1), k) for m, k in chosen))

    def visit(chosen: list[HandMeld], rest: int) -> None:
        kept = per_rest.get(rest)
        if kept is None:
            per_rest[rest] = list(chosen)
            return
        least = per_rest_key.get(rest)
        if least is None:
            least = per_rest_key[rest] = melds_key(kept)
        key = melds_key(chosen)
        if key < least:
            per_rest_key[rest] = key
            per_rest[rest] = list(chosen)

    solver._partitions(prep, visit)

    # 2. exact lay-off search on the open table melds.
    states0 = _table_states(solver, table)
    open_idx = [j for j, tm in enumerate(table) if not tm.closed]
    memo: dict[tuple[frozenset[int], tuple[State, ...], frozenset[int]], tuple[tuple[Act, ...], int]] = {}

    def search(rem: frozenset[int], states: tuple[State, ...], used: frozenset[int]) -> tuple[tuple[Act, ...], int]:
        """Best set of lay-offs (sorted tuple of (card, j, pos, suit)) and its value."""
        key = (rem, states, used)
        got = memo.get(key)
        if got is not None:
            return got
        best_acts: tuple[Act, ...] = ()
        best_key: tuple[int, int, tuple[Act, ...]] = (0, 0, ())
        for c in sorted(rem):
            for j in open_idx:
                for pos, suit, nst in _options(solver, c, states[j], runs_upward_only):
                    if one_per_value and pos in used:
                        continue
                    sub_acts, sub_val = search(
                        rem - {c}, states[:j] + (nst,) + states[j + 1 :], used | {pos} if one_per_value else used
                    )
                    acts = tuple(sorted(sub_acts + ((c, j, pos, suit),)))
                    k = (-(sub_val + value[c]), -len(acts), acts)
                    if k < best_key:
                        best_key, best_acts = k, acts
        got = (best_acts, -best_key[0])
        memo[key] = got
        return got

    best: tuple[ShowingKey, list[Meld], frozenset[int], tuple[Act, ...], tuple[int, ...]] | None = None
    for rest, chosen in per_rest.items():
        rest_ids = frozenset(ids[i] for i in range(n) if rest >> i & 1) | loose
        acts, laid = search(rest_ids, states0, frozenset())
        left = tuple(sorted(rest_ids - {a[0] for a in acts}))
        own = [solver._meld(tuple(ids[i] for i in range(n) if m >> i & 1), k) for m, k in chosen]
        own.sort(key=lambda m: (tuple(sorted(m.cards)), m.kind))
        key = (sum(value[c] for c in left), len(left), len(acts), left, _melds_key(own), acts)
        if best is None or key < best[0]:
            best = (key, own, rest_ids, acts, left)
    assert best is not None
    key, own, rest_ids, acts, left = best
    arrangement = Arrangement(tuple(own), tuple(sorted(rest_ids)), sum(value[c] for c in rest_ids))

    # 3. an applicable order and the resulting table.
    states = list(states0)
    pending = list(acts)
    order: list[Act] = []
    while pending:
        for a in pending:
            c, j, pos, suit = a
            opts = [o for o in _options(solver, c, states[j], runs_upward_only) if o[:2] == (pos, suit)]
            if opts:
                states[j] = opts[0][2]
                order.append(a)
                pending.remove(a)
                break
        else:  # pragma: no cover - the search only returns applicable sets
            raise AssertionError("lay-off set not applicable")
    new_table = []
    for j, tm in enumerate(table):
        added = [a for a in order if a[1] == j]
        new_table.append(_extend(solver, tm.meld, added) if added else tm.meld)
    return Showing(
        arrangement,
        tuple((c, j) for c, j, _, _ in order),
        key[0],
        left,
        tuple(new_table),
    )


def _extend(solver: MeldSolver, meld: Meld, added: Sequence[Act]) -> Meld:
    info = solver.cards
    wilds = {w: (p, s) for w, p, s in meld.wilds}
    if len(wilds) < sum(info[c].wild for c in meld.cards):
        wilds = {w: (p, s) for w, p, s in solver.make_meld(meld.cards, meld.kind).wilds}
    place = {c: wilds.get(c, (info[c].run_pos, info[c].suit)) for c in meld.cards}
    for c, _, pos, suit in added:
        place[c] = (pos, suit)
        if info[c].wild:
            wilds[c] = (pos, suit)
    if meld.kind == RUN:
        cards = tuple(sorted(place, key=lambda c: place[c][0]))
    else:
        cards = tuple(sorted(place, key=lambda c: (place[c][1], c)))
    return Meld(meld.kind, cards, tuple((w, p, s) for w, (p, s) in sorted(wilds.items())))
