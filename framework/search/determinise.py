"""Determinisation: complete deals drawn from what one seat knows, for searching bots.

A searching bot cannot look at the hidden cards, so it imagines them: it deals
the cards it has not located into the places it cannot see, in every way that
agrees with its view, and searches the deals it imagined. `Determiniser` does
that for any game, with no code of the game's own:

* every card the seat sees stays where it is (its hand, face-up zones, the top
  of a pile);
* every card the seat remembers (``view.known``: a card an opponent took from
  the discard pile, cards recycled into the stock) goes back to that zone;
* the other cards fill the remaining room of each zone (``view.count(zone)``
  minus what is seen and remembered there);
* a game may add public constraints through the optional hook
  ``Game.excluded(view) -> Mapping[card, Collection[zone]]``: zones a card cannot
  be in given what everybody saw (a Fan Tan player who passed held no card that
  was playable then, FT-3.4). Cards are then grouped by the zones they may be in
  and the room is split between groups by exact counting, so the result stays
  uniform.

A sample is uniform over the assignments of cards to zones consistent with all of
that, and the hidden part of each zone is in uniformly random order. Counters and
``data`` come from the view's public ones: a game whose rules keep private
counters (names starting with ``_``) cannot be determinised exactly and a
search on it plays from the public ones only.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from math import comb
from typing import TYPE_CHECKING, Any

from ..core.errors import TapeteError
from ..core.rng import Random
from ..core.state import DealState

if TYPE_CHECKING:
    from ..game import Game
    from ..view import View


class Determiniser:
    """Draws complete `DealState`s consistent with one view; build once per decision."""

    def __init__(self, game: Game, view: View):
        self.view = view
        deck_ids = list(view.deck.ids)
        visible: set[int] = set()
        for cards in view.zones.values():
            visible.update(cards)
        pinned: dict[str, list[int]] = {}
        for card, zone in sorted(view.known.items()):
            if zone in view.counts and card not in visible:
                pinned.setdefault(zone, []).append(card)
        room: dict[str, int] = {}
        loose: list[int] = []
        for zone, count in view.counts.items():
            free = count - len(view.zones.get(zone, ()))
            mine = pinned.get(zone, [])
            if len(mine) > free:  # a stale memory: more remembered than there is room for
                loose += mine[free:]
                pinned[zone] = mine = mine[:free]
            room[zone] = free - len(mine)
        placed = visible | {c for cards in pinned.values() for c in cards}
        pool = [c for c in deck_ids if c not in placed]
        need = sum(room.values())
        if len(pool) < need:
            raise TapeteError(f"the view leaves {need} hidden places but only {len(pool)} unplaced cards")
        self.pinned = pinned
        self.zones = [z for z in view.counts if room[z] > 0]
        self.room = [room[z] for z in self.zones]
        self.pool = pool
        self.spare = len(pool) - need  # cards of the deck in no zone at all (none in the built-in games)
        excluded = _excluded(game, view)
        index = {z: i for i, z in enumerate(self.zones)}
        everywhere = tuple(range(len(self.zones)))
        groups: dict[tuple[int, ...], list[int]] = {}
        for c in pool:
            banned = excluded.get(c)
            allowed = everywhere if not banned else tuple(i for z, i in index.items() if z not in banned)
            groups.setdefault(allowed, []).append(c)
        self.groups = sorted(groups.items())
        self.simple = not self.spare and (
            not self.groups or (len(self.groups) == 1 and self.groups[0][0] == everywhere)
        )
        if not self.simple:
            if self.spare:
                # Cards in no zone act as one more zone that every card may be in.
                self.groups = [((*allowed, len(self.zones)), cards) for allowed, cards in self.groups]
            caps = (*self.room, self.spare) if self.spare else tuple(self.room)
            if _ways(tuple(len(c) for _, c in self.groups), tuple(a for a, _ in self.groups), caps) == 0:
                raise TapeteError("no deal agrees with what this seat knows")
            self._caps = caps
        self._data = json.dumps(dict(view.data)) if view.data else ""  # each sample gets its own copy
        self._tables: dict[tuple[int, tuple[int, ...]], tuple[list[int], list[tuple[int, ...]]]] = {}

    def assignment(self, rng: Random) -> dict[str, list[int]]:
        """The hidden cards of each zone with room, in random order (the uniform sample)."""
        if self.simple:
            cards = self.pool[:]
            rng.shuffle(cards)
            out: dict[str, list[int]] = {}
            at = 0
            for z, n in zip(self.zones, self.room, strict=True):
                out[z] = cards[at : at + n]
                at += n
            return out
        caps = list(self._caps)
        buckets: list[list[int]] = [[] for _ in caps]
        for g, (allowed, cards) in enumerate(self.groups):
            at_caps = tuple(caps)
            table = self._tables.get((g, at_caps))
            if table is None:
                table = self._tables[(g, at_caps)] = self._table(g, at_caps)
            bounds, splits = table
            chosen = splits[bisect_right(bounds, _below_big(rng, bounds[-1]))]
            shuffled = cards[:]
            rng.shuffle(shuffled)
            at = 0
            for i, k in zip(allowed, chosen, strict=True):
                buckets[i] += shuffled[at : at + k]
                caps[i] -= k
                at += k
        out = {}
        for z, cards in zip(self.zones, buckets, strict=False):
            rng.shuffle(cards)
            out[z] = cards
        return out

    def _table(self, g: int, caps: tuple[int, ...]) -> tuple[list[int], list[tuple[int, ...]]]:
        """How group ``g``'s cards may split over the room ``caps`` left: the running totals of
        the splits' weights (assignments of the group times those of the groups after it) and
        the splits, in one order. Built once per (group, room) a decision meets."""
        allowed, cards = self.groups[g]
        rest = (tuple(len(c) for _, c in self.groups[g + 1 :]), tuple(a for a, _ in self.groups[g + 1 :]))
        bounds: list[int] = []
        splits: list[tuple[int, ...]] = []
        total = 0
        for split in _splits(len(cards), [caps[i] for i in allowed]):
            left = list(caps)
            for i, k in zip(allowed, split, strict=True):
                left[i] -= k
            weight = _multinomial(split) * _ways(rest[0], rest[1], tuple(left))
            if weight:
                total += weight
                bounds.append(total)
                splits.append(split)
        return bounds, splits

    def sample(self, rng: Random) -> DealState:
        """A complete deal the seat cannot tell from the real one."""
        view = self.view
        hidden = self.assignment(rng)
        zones: dict[str, list[int]] = {}
        for zone in view.counts:
            seen = list(view.zones.get(zone, ()))
            if len(seen) == view.counts[zone]:
                zones[zone] = seen
                continue
            below = list(self.pinned.get(zone, ())) + hidden.get(zone, [])
            if self.pinned.get(zone):
                rng.shuffle(below)
            zones[zone] = below + seen  # what the seat sees of a part-hidden zone is its top
        data: dict[str, Any] = json.loads(self._data) if self._data else {}
        return DealState(
            players=view.players,
            dealer=view.dealer,
            to_move=view.to_move,
            zones=zones,
            counters=dict(view.counters),
            data=data,
            over=view.over,
            rng=Random(rng.below(1 << 32), "determinised").getstate(),
        )


def _excluded(game: Game, view: View) -> Mapping[int, frozenset[str]]:
    hook = getattr(game, "excluded", None)
    if hook is None:
        return {}
    found = hook(view) or {}
    return {int(c): frozenset(zones) for c, zones in found.items() if zones}


def _splits(n: int, caps: Sequence[int]) -> Iterable[tuple[int, ...]]:
    """Every way to put ``n`` alike cards into places of these capacities."""
    if not caps:
        if n == 0:
            yield ()
        return
    if len(caps) == 1:
        if n <= caps[0]:
            yield (n,)
        return
    rest_cap = sum(caps[1:])
    for k in range(max(0, n - rest_cap), min(n, caps[0]) + 1):
        for tail in _splits(n - k, caps[1:]):
            yield (k, *tail)


def _multinomial(split: Sequence[int]) -> int:
    out, total = 1, 0
    for k in split:
        total += k
        out *= comb(total, k)
    return out


@lru_cache(maxsize=65536)
def _ways(sizes: tuple[int, ...], alloweds: tuple[tuple[int, ...], ...], caps: tuple[int, ...]) -> int:
    """How many card->zone assignments put these groups exactly into these capacities."""
    if not sizes:
        return 1 if not any(caps) else 0
    n, allowed = sizes[0], alloweds[0]
    if n > sum(caps[i] for i in allowed):
        return 0
    total = 0
    for split in _splits(n, [caps[i] for i in allowed]):
        left = list(caps)
        for i, k in zip(allowed, split, strict=True):
            left[i] -= k
        total += _multinomial(split) * _ways(sizes[1:], alloweds[1:], tuple(left))
    return total


def _below_big(rng: Random, n: int) -> int:
    """Uniform integer in [0, n) for any n (counts of assignments grow large)."""
    if n < (1 << 32):
        return rng.below(n)
    bits = n.bit_length()
    while True:
        x = 0
        for _ in range((bits + 31) // 32):
            x = (x << 32) | rng.below(1 << 32)
        x >>= (bits + 31) // 32 * 32 - bits
        if x < n:
            return x


def count_assignments(groups: Sequence[tuple[Sequence[int], int]], caps: Sequence[int]) -> int:
    """How many assignments there are of groups (allowed zone indices, size) into capacities (for tests)."""
    return _ways(tuple(n for _, n in groups), tuple(tuple(a) for a, _ in groups), tuple(caps))
