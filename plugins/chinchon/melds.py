"""Exact meld solver for Chinchón (rules: shared rules file, ids CH-…).

Public API
----------
``CardInfo``     one card of the deck table (card id = index into the table).
``MeldRules``    meld-size / wild limits (CH-3.1, CH-3.2, CH-V2, CH-V7).
``Meld``         one meld: ``kind`` ("group"/"run"), ``cards`` and ``wilds``.
``Arrangement``  melds + unmatched cards + penalty of one hand.
``MeldSolver``   ``penalty(hand)``, ``best(hand)``, ``arrangements(hand)``,
                 ``meld_kinds(cards)``, ``make_meld(cards, kind)``.
``spanish_deck`` helper building the 40/48-card deck tables (CH-1.2, CH-V1,
                 CH-V2, CH-V7).

Meld rules implemented
----------------------
* CH-3.1 group: ``min_group``..``max_group`` cards of one rank (same ``run_pos``).
  Natural cards of one suit in a group must be identical copies (CH-V2, two
  decks) and at most ``max_identical_in_group`` of them; with one deck
  (``max_identical_in_group=1``) all suits differ.
* CH-3.2 run: at least ``min_run`` cards of one suit on consecutive run
  positions; every position must exist for that suit in the deck table (so
  there is no wrap-around and no gap).  A run never holds two identical cards.
* CH-3.3 no card is in two melds; penalty = sum of values of unmatched cards.
* CH-V7 wild cards: a card with ``wild=True`` stands for any card; a meld holds
  at most ``max_wild_per_meld`` wilds and at least one natural card.  An
  unmatched wild costs its own ``value``.  A wild in a group stands for a card
  of the group's rank whose suit has the fewest copies in the group (lowest
  suit index on ties), and never for a card the deck does not hold
  (``min(max_identical_in_group, copies in deck)`` per suit).  A wild in a run
  first fills gaps; the rest extend the run upwards, and downwards only where
  the top of the suit is reached.  Wilds are assigned in ascending card id.
  What each wild stands for is in ``Meld.wilds``: ``(card_id, run_pos, suit)``.

Decisions
---------
* Two non-wild cards are *identical copies* when ``run_pos``, ``suit`` and
  ``identity`` are all equal (so with the default ``identity=0`` two cards of
  the same rank and suit are copies, as in two decks).
* Non-wild cards with ``suit < 0`` never meld.  Values must be >= 0 for the
  fast path (otherwise the general path is used, which maximises the matched
  value, so it stays exact).
* Two-deck default for CH-V2: ``MeldRules(max_group=8, max_identical_in_group=2)``.

Tie-break (deterministic)
-------------------------
Arrangements are ordered by the key
``(penalty, number of unmatched cards, number of melds, sorted unmatched ids,
melds)`` where ``melds`` is the sorted tuple of ``(sorted card ids, kind)`` of
the melds. So among equal penalties the arrangement leaving the fewest cards
unmatched wins, then the one with the fewest (so longest) melds - a 7-card run
is shown as one run, not as 3 + 4 (CH-V6) - then the one whose unmatched ids
are lexicographically smallest, then the one whose melds are.  ``best(hand) == arrangements(hand)[0]``.
Within an ``Arrangement`` melds are listed in that same sorted order; a run's
``cards`` go by ascending run position, a group's by (suit stood for, id).

Speed
-----
For one-deck tables without identical copies, ``min_group == min_run == 3``,
<= 4 suits, <= 16 run positions and no negative values, ``penalty`` is a
closure that sums precomputed per-card integer codes in a plain loop (a bit per
card, suit-major with 2 gap bits between suits, a 4-bit counter per rank and the
value in the top bits; ``_layout``), finds run windows with ``H & H>>1 & H>>2``
and ranks with >= 3 cards by adding 5 to every counter (its top bit is then
set), returns at once when no meld is possible, and otherwise looks up the best
matched value of the meld-involved cards in a dict. On a miss, where no card is
both in a run window and in a rank of three (and no rank holds more cards than
a group may), every meld-involved card is matched; else a small exact search
runs: each such rank keeps one of its groups or none, runs then take every
segment of >= 3 places left.  A hand that holds wilds (at most one per meld,
CH-V7) stays on this path: a meld with a wild is the wild plus a "near-meld" of
naturals it completes, whatever else the hand holds, so its penalty is the
least, over sets of at most k disjoint near-melds, of the naturals' bit-trick
penalty without them plus the k - |set| cheapest wilds (``_build_wild``; cached
on the meld-able naturals, and on their shape up to a renaming of the suits
where the suits are alike).  Other tables (two decks, ...) use a bit-trick
filter on the same layout with 2-bit copy counters that keeps the cards that
could be in some meld, then (cached on those cards) candidate melds are
enumerated and an exact DP over subsets picks the best.  On both, the closes
of a turn (``penalties_without``, ``penalties_within``) sum the hand's codes
once and take one card's code off per candidate; ``penalties_within`` leaves
out (None) every part above the close limit, and on wild hands skips the search
where the loose naturals alone pass it.  ``best``/``arrangements`` always use
the general machinery (``best`` without the cards no meld can hold).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import TYPE_CHECKING, Any, Final, NamedTuple, TypeAlias

if TYPE_CHECKING:
    from .layoff import State

GROUP: Final = "group"
RUN: Final = "run"

#: ``(sorted card ids, kind)`` of every meld, sorted: the melds' part of the tie-break.
MeldsKey: TypeAlias = tuple[tuple[tuple[int, ...], str], ...]
#: ``Arrangement.sort_key``: (penalty, unmatched count, meld count, sorted unmatched ids, melds).
SortKey: TypeAlias = tuple[int, int, int, tuple[int, ...], MeldsKey]
#: A meld inside a hand: (bit mask over the hand's sorted ids, kind).
HandMeld: TypeAlias = tuple[int, str]
#: ``_prepare``: sorted ids, their values, the hand's melds, melds by lowest bit with their
#: value, and the best matched value of a mask of ids.
Prepared: TypeAlias = tuple[
    tuple[int, ...], list[int], list[HandMeld], list[list[tuple[int, int]]], Callable[[int], int]
]
Penalty: TypeAlias = Callable[[Sequence[int]], int]
Without: TypeAlias = Callable[[Sequence[int]], list[int]]
Within: TypeAlias = Callable[[Sequence[int], int], list[int | None]]

__all__ = [
    "GROUP",
    "RUN",
    "CardInfo",
    "MeldRules",
    "Meld",
    "Arrangement",
    "MeldSolver",
    "spanish_deck",
    "TWO_DECK_RULES",
]


@dataclass(frozen=True)
class CardInfo:
    """One card of the deck table.  Card id = index into the table."""

    run_pos: int  # position in run order; adjacent positions are consecutive ints
    suit: int  # small int >= 0; -1 for a joker
    value: int  # penalty value when unmatched (CH-1.4, CH-V7)
    wild: bool = False
    identity: int = 0  # copies: same run_pos, suit and identity (CH-V2)


@dataclass(frozen=True)
class MeldRules:
    min_group: int = 3
    max_group: int | None = 4
    max_identical_in_group: int = 1
    min_run: int = 3
    max_wild_per_meld: int = 1

    def __post_init__(self) -> None:
        if self.min_group < 1 or self.min_run < 1:
            raise ValueError("minimum meld sizes must be >= 1")
        if self.max_identical_in_group < 1 or self.max_wild_per_meld < 0:
            raise ValueError("bad identical/wild limits")


#: CH-V2 decision: with two decks a group holds 3..8 cards, at most 2 copies of a card.
TWO_DECK_RULES = MeldRules(max_group=8, max_identical_in_group=2)


@dataclass(frozen=True)
class Meld:
    """A meld.  ``wilds`` holds ``(card_id, run_pos, suit)`` for each wild: what it stands for."""

    kind: str
    cards: tuple[int, ...]
    wilds: tuple[tuple[int, int, int], ...] = ()

    def stands_for(self, card: int) -> tuple[int, int] | None:
        """``(run_pos, suit)`` a wild card of this meld stands for, else None."""
        for cid, pos, suit in self.wilds:
            if cid == card:
                return pos, suit
        return None


@dataclass(frozen=True)
class Arrangement:
    melds: tuple[Meld, ...]
    unmatched: tuple[int, ...]
    penalty: int

    def sort_key(self) -> SortKey:
        return (
            self.penalty,
            len(self.unmatched),
            len(self.melds),
            tuple(sorted(self.unmatched)),
            _melds_key(self.melds),
        )


def _melds_key(melds: Sequence[Meld]) -> MeldsKey:
    return tuple(sorted((tuple(sorted(m.cards)), m.kind) for m in melds))


class _Layout(NamedTuple):
    """Per-card integer codes whose sum summarises a hand (fast path and filter), and where each part lies.

    From the lowest bit: ``place_bits`` per (suit, place) with 2 empty places after each suit,
    a 4-bit counter per rank, a 5-bit wild counter where the deck has wilds, and the value on
    top. Built once per solver; the penalty closures copy what they need into locals."""

    code: list[int]  # by card id
    p0: int  # the lowest run position (place 0)
    npos: int  # places per suit
    ns: int  # suits
    width: int  # npos + 2: one suit's places and its gap
    hmask: int  # every place bit
    cb: int  # first bit of the rank counters
    wb: int  # first bit of the wild counter
    vb: int  # first bit of the value
    rankcol: list[int]  # per place: the lowest bit of that place in every suit
    sval: list[list[int]]  # value of the natural at (suit index, place)


class MeldSolver:
    """Exact meld solver over a fixed deck table (card id = index into ``cards``).

    ``penalty(hand)`` is the hot path: an instance attribute, a closure of the
    fast path (``fast_path`` is True) or of the general path's filter where the
    table allows, else the general search.  It does not validate ``hand``
    (distinct ids of this table); ``best``/``arrangements`` raise ValueError on
    a repeated id.
    """

    #: ``penalty(hand)``: the least sum of unmatched values over all arrangements of ``hand`` (CH-3.3).
    penalty: Penalty
    #: ``penalties_without(hand)``: ``[penalty(hand without c) for c in hand]``, all at once (the
    #: closes of a turn, CH-4.3). On the fast path and the filter the hand's codes are summed
    #: once and one card's code is taken off per candidate.
    penalties_without: Without
    #: ``penalties_within(hand, limit)``: ``penalties_without(hand)`` where at most ``limit``, else
    #: None (the closes a rule allows, CH-4.3). Only the penalties a close could have are worked
    #: out exactly: on fast-path tables with wilds a hand-less-one-card whose loose naturals
    #: alone (cards no meld with one wild can hold) pass the limit is not solved at all.
    penalties_within: Within

    def __init__(self, cards: Sequence[CardInfo], rules: MeldRules = MeldRules()):
        self.cards: tuple[CardInfo, ...] = tuple(cards)
        self.rules = rules
        self._value = [c.value for c in self.cards]
        self._maxg = rules.max_group if rules.max_group is not None else 1 << 30
        self._has_wild = any(c.wild for c in self.cards)
        suit_pos: dict[int, set[int]] = {}
        copies: dict[tuple[int, int], int] = {}
        rank_suits: dict[int, set[int]] = {}
        # Geometry of the deck: every card with a suit (a wild ace of coins too,
        # so a wild may stand for it) is a card a wild may stand for.
        for c in self.cards:
            if c.suit < 0:
                continue
            suit_pos.setdefault(c.suit, set()).add(c.run_pos)
            copies[(c.run_pos, c.suit)] = copies.get((c.run_pos, c.suit), 0) + 1
            rank_suits.setdefault(c.run_pos, set()).add(c.suit)
        self._suit_pos = {s: frozenset(p) for s, p in suit_pos.items()}
        self._pos0 = min((c.run_pos for c in self.cards if c.suit >= 0), default=0)
        self._copies = copies
        # group capacity per (rank, suit): what a wild may stand for (CH-V7).
        self._cap = {k: min(v, rules.max_identical_in_group) for k, v in copies.items()}
        self._rank_suits = {r: tuple(sorted(s)) for r, s in rank_suits.items()}
        self._general_cache: dict[object, int] = {}
        self._meld_cache: dict[tuple[tuple[int, ...], str], Meld] = {}
        self._layoff_states: dict[Meld, State] = {}  # layoff.py: a shown meld's state
        filtered = self._build_filter()
        self._filter: Penalty | None = filtered[0] if filtered is not None else None
        # On fast-path tables without wilds a hand is summarised by the sum of its cards'
        # codes: ``penalty_of_code(sum(codes[c] for c in hand)) == penalty(hand)``. A caller
        # judging many hands that differ by a card or two (closes, bots) adds and subtracts
        # codes instead of building lists.
        self.codes: list[int] | None = None
        self.penalty_of_code: Callable[[int], int] | None = None
        fast = self._build_fast()
        self.fast_path = fast is not None
        paths = fast or filtered  # two decks, ...: the filter's closes take one code off per card too
        if paths is not None:
            self.penalty, self.penalties_without, self.penalties_within = paths
        else:
            self.penalty = self._penalty_general
            self.penalties_without = self._without_general
            self.penalties_within = self._within_general

    def __deepcopy__(self, memo: dict[int, Any]) -> MeldSolver:
        """A solver of the same table with caches of its own.

        Its hot paths are closures over the caches they fill, and a deep copy would keep
        the closures, and so the caches, of the original: a view's facts (a sealed copy,
        `tapete.view.Facts`) would then reach the game's own caches, filled as it judges
        every seat's hidden hand. Building the copy afresh gives it its own (the answers
        are the same: the caches only remember them)."""
        return MeldSolver(self.cards, self.rules)

    # ------------------------------------------------------------------ melds
    def _group_slots(self, rank: int, naturals: Sequence[int]) -> int | None:
        """Free wild slots of a group of these naturals (None: naturals invalid, CH-3.1)."""
        cards = self.cards
        count: dict[int, int] = {}
        ident: dict[int, int] = {}
        for c in naturals:
            ci = cards[c]
            if ci.run_pos != rank:
                return None
            s = ci.suit
            if s in ident and ident[s] != ci.identity:
                return None  # same suit but not an identical copy
            ident[s] = ci.identity
            count[s] = count.get(s, 0) + 1
            if count[s] > self._cap.get((rank, s), 0):
                return None
        return sum(self._cap[(rank, s)] - count.get(s, 0) for s in self._rank_suits.get(rank, ()))

    def _run_start(self, suit: int, positions: Sequence[int], length: int) -> int | None:
        """Lowest-index window start covering ``positions`` (upwards first), CH-3.2."""
        posset = self._suit_pos.get(suit)
        if posset is None:
            return None
        lo, hi = min(positions), max(positions)
        for start in range(lo, hi - length, -1):
            if all(p in posset for p in range(start, start + length)):
                return start
        return None

    def _split(self, cards: Sequence[int]) -> tuple[list[int], list[int]]:
        nat: list[int] = []
        wl: list[int] = []
        for c in cards:
            (wl if self.cards[c].wild else nat).append(c)
        return nat, wl

    def meld_kinds(self, cards: Sequence[int]) -> tuple[str, ...]:
        """The kinds ("group", "run") this card set is a legal meld as (CH-3.1, CH-3.2, CH-V7)."""
        cards = list(cards)
        if len(set(cards)) != len(cards):
            return ()
        nat, wl = self._split(cards)
        r = self.rules
        if not nat or len(wl) > r.max_wild_per_meld or any(self.cards[c].suit < 0 for c in nat):
            return ()
        out = []
        ranks = {self.cards[c].run_pos for c in nat}
        if len(ranks) == 1 and r.min_group <= len(cards) <= self._maxg:
            slots = self._group_slots(ranks.pop(), nat)
            if slots is not None and slots >= len(wl):
                out.append(GROUP)
        suits = {self.cards[c].suit for c in nat}
        if len(suits) == 1 and len(cards) >= r.min_run:
            pos = [self.cards[c].run_pos for c in nat]
            if len(set(pos)) == len(pos) and self._run_start(suits.pop(), pos, len(cards)) is not None:
                out.append(RUN)
        return tuple(out)

    def make_meld(self, cards: Sequence[int], kind: str | None = None) -> Meld:
        """Build the canonical ``Meld`` (wild meanings, card order) or raise ValueError."""
        kinds = self.meld_kinds(cards)
        if kind is None:
            if not kinds:
                raise ValueError(f"not a meld: {tuple(cards)}")
            kind = kinds[0]
        if kind not in kinds:
            raise ValueError(f"not a {kind}: {tuple(cards)}")
        nat, wl = self._split(cards)
        wl.sort()
        info = self.cards
        if kind == GROUP:
            rank = info[nat[0]].run_pos
            count: dict[int, int] = {}
            for c in nat:
                count[info[c].suit] = count.get(info[c].suit, 0) + 1
            meanings: list[tuple[int, int, int]] = []
            for w in wl:
                free = [s for s in self._rank_suits[rank] if count.get(s, 0) < self._cap[(rank, s)]]
                s = min(free, key=lambda s: (count.get(s, 0), s))
                count[s] = count.get(s, 0) + 1
                meanings.append((w, rank, s))
            order = sorted([(info[c].suit, c) for c in nat] + [(s, w) for w, _, s in meanings])
            return Meld(GROUP, tuple(c for _, c in order), tuple(meanings))
        suit = info[nat[0]].suit
        pos = {info[c].run_pos: c for c in nat}
        start = self._run_start(suit, list(pos), len(nat) + len(wl))
        assert start is not None
        free = [p for p in range(start, start + len(nat) + len(wl)) if p not in pos]
        wilds = tuple((w, p, suit) for w, p in zip(wl, free, strict=False))
        for w, p, _ in wilds:
            pos[p] = w
        return Meld(RUN, tuple(pos[p] for p in sorted(pos)), wilds)

    def _meld(self, cards: tuple[int, ...], kind: str) -> Meld:
        """``make_meld(cards, kind)`` of a known meld, remembered (the searches build the same melds often)."""
        cache = self._meld_cache
        meld = cache.get((cards, kind))
        if meld is None:
            if len(cache) >= 1 << 16:
                cache.clear()
            meld = cache[(cards, kind)] = self.make_meld(cards, kind)
        return meld

    def _hand_melds(self, ids: Sequence[int]) -> list[tuple[int, str]]:
        """All legal melds inside ``ids`` as (bitmask over ``ids`` indices, kind)."""
        info = self.cards
        r = self.rules
        wild_idx = [i for i, c in enumerate(ids) if info[c].wild]
        by_rank: dict[int, list[int]] = {}
        by_suit: dict[int, list[int]] = {}
        for i, c in enumerate(ids):
            ci = info[c]
            if ci.wild or ci.suit < 0:
                continue
            by_rank.setdefault(ci.run_pos, []).append(i)
            by_suit.setdefault(ci.suit, []).append(i)
        kmax = min(r.max_wild_per_meld, len(wild_idx))
        wcombos = [(sum(1 << i for i in comb), k) for k in range(kmax + 1) for comb in combinations(wild_idx, k)]
        out: list[tuple[int, str]] = []
        maxg = self._maxg
        for rank, idxs in by_rank.items():
            if len(idxs) + kmax < r.min_group:
                continue
            for size in range(max(1, r.min_group - kmax), min(len(idxs), maxg) + 1):
                for sub in combinations(idxs, size):
                    slots = self._group_slots(rank, [ids[i] for i in sub])
                    if slots is None:
                        continue
                    smask = sum(1 << i for i in sub)
                    for wmask, k in wcombos:
                        if k <= slots and r.min_group <= size + k <= maxg:
                            out.append((smask | wmask, GROUP))
        for suit, idxs in by_suit.items():
            if len(idxs) + kmax < r.min_run:
                continue
            for size in range(max(1, r.min_run - kmax), len(idxs) + 1):
                for sub in combinations(idxs, size):
                    pos = [info[ids[i]].run_pos for i in sub]
                    if len(set(pos)) != size or max(pos) - min(pos) + 1 - size > kmax:
                        continue
                    smask = sum(1 << i for i in sub)
                    fits: dict[int, bool] = {}  # run length -> a window of the deck holds it
                    for wmask, k in wcombos:
                        length = size + k
                        if length < r.min_run:
                            continue
                        ok = fits.get(length)
                        if ok is None:
                            ok = fits[length] = self._run_start(suit, pos, length) is not None
                        if ok:
                            out.append((smask | wmask, RUN))
        return out

    # ------------------------------------------------------------- general path
    def _prepare(self, hand: Sequence[int]) -> Prepared:
        ids = tuple(sorted(hand))
        if len(set(ids)) != len(ids):
            raise ValueError(f"a card id appears twice in {tuple(hand)}")
        vals = [self._value[c] for c in ids]
        melds = self._hand_melds(ids)
        mval: dict[int, int] = {}
        by_low: list[list[tuple[int, int]]] = [[] for _ in ids]
        for m, _ in melds:
            if m not in mval:
                v = sum(vals[i] for i in range(len(ids)) if m >> i & 1)
                mval[m] = v
                by_low[(m & -m).bit_length() - 1].append((m, v))
        memo = {0: 0}

        def f(mask: int) -> int:
            v = memo.get(mask)
            if v is not None:
                return v
            low = mask & -mask
            best = f(mask ^ low)
            for m, mv in by_low[low.bit_length() - 1]:
                if m & mask == m:
                    x = mv + f(mask ^ m)
                    if x > best:
                        best = x
            memo[mask] = best
            return best

        return ids, vals, melds, by_low, f

    def _meldable(self, hand: Sequence[int]) -> list[int]:
        """A superset of the cards of ``hand`` that can be in some meld (cheap filter).

        A natural can be in a group only if its rank has >= min_group - k cards
        (k = usable wilds), and in a run only if some window of ``min_run``
        positions around it holds >= min_run - k distinct positions of its suit.
        """
        info = self.cards
        r = self.rules
        wl = [c for c in hand if info[c].wild]
        k = min(r.max_wild_per_meld, len(wl))
        w = r.min_run
        base = w - self._pos0  # bit of position q: q + base >= w, so windows never shift below bit 0
        rank_n: dict[int, int] = {}
        suit_bits: dict[int, int] = {}
        nat = []
        for c in hand:
            ci = info[c]
            if not ci.wild and ci.suit >= 0:
                nat.append(c)
                rank_n[ci.run_pos] = rank_n.get(ci.run_pos, 0) + 1
                suit_bits[ci.suit] = suit_bits.get(ci.suit, 0) | 1 << (ci.run_pos + base)
        need_g, need_r, window = r.min_group - k, r.min_run - k, (1 << w) - 1
        out = []
        for c in nat:
            ci = info[c]
            if rank_n[ci.run_pos] >= need_g:
                out.append(c)
                continue
            bits = suit_bits[ci.suit]
            p = ci.run_pos + base
            for a in range(p - w + 1, p + 1):  # windows of min_run positions holding this card
                if ((bits >> a) & window).bit_count() >= need_r:
                    out.append(c)
                    break
        if out and k:
            out.extend(wl)
        return out

    def _penalty_general(self, hand: Sequence[int]) -> int:
        if self._filter is not None:
            return self._filter(hand)
        total = sum(self._value[c] for c in hand)
        live = self._meldable(hand)
        if not live:
            return total
        key = tuple(sorted(live))
        v = self._general_cache.get(key)
        if v is None:
            ids, _, _, _, f = self._prepare(key)
            v = f((1 << len(ids)) - 1)
            if len(self._general_cache) >= 1 << 18:
                self._general_cache.clear()
            self._general_cache[key] = v
        return total - v

    def _without_general(self, hand: Sequence[int]) -> list[int]:
        penalty = self.penalty
        return [penalty([x for x in hand if x != c]) for c in hand]

    def _within_general(self, hand: Sequence[int], limit: int) -> list[int | None]:
        return [p if p <= limit else None for p in self.penalties_without(hand)]

    # ------------------------------------------------------- general-path filter
    def _build_filter(self) -> tuple[Penalty, Without, Within] | None:
        """The general path's filter and cache as bit tricks, where the deck allows it.

        Like ``_meldable`` (a superset of the cards that can be in a meld), but on
        summed integer codes: a 2-bit copy counter per (suit, position) with 2 gap
        positions between suits, a 4-bit counter per rank, a wild counter and the
        value on top. The cache key is the multiset of live naturals (the masked
        counters) plus the live wilds' values, so identical copies (two decks) and
        interchangeable wilds share an entry; the exact search runs on a miss.
        """
        info = self.cards
        if self.rules.max_wild_per_meld > 1 or any(v > 3 for v in self._copies.values()):
            return None
        same: dict[tuple[int, int], tuple[int, int]] = {}
        for c in info:
            if c.wild or c.suit < 0:
                continue
            if same.setdefault((c.run_pos, c.suit), (c.value, c.identity)) != (c.value, c.identity):
                return None  # copies must be interchangeable
        lay = self._layout(2)
        if lay is None:
            return None
        code, _, npos, ns, width, hmask, cb, wb, vb, rankcol, _ = lay
        low = sum(1 << (2 * f) for f in range(width * ns))
        ones = sum(1 << (4 * p) for p in range(npos))
        spread: dict[int, int] = {}
        wild = [c.wild for c in info]
        value = self._value
        cache = self._general_cache
        cg = code.__getitem__
        prepare = self._prepare
        any_wild = self._has_wild

        def live_of(t: int) -> int:
            """The places of the hand whose codes sum to ``t`` that could be in some meld (a superset)."""
            h = t & hmask
            nz = (h | (h >> 1)) & low
            c = t >> cb
            if any_wild and (t >> wb) & 31:
                w = (nz & (nz >> 2)) | (nz & (nz >> 4)) | ((nz >> 2) & (nz >> 4))  # 2 of 3 positions
                g = ((c >> 1) | (c >> 2) | (c >> 3)) & ones  # 2 or more of a rank
            else:
                w = nz & (nz >> 2) & (nz >> 4)  # 3 positions in a row
                g = ((c & (c >> 1)) | (c >> 2) | (c >> 3)) & ones  # 3 or more of a rank
            live = (w | (w << 2) | (w << 4)) & nz
            if g:
                m = spread.get(g)
                if m is None:
                    m = spread[g] = sum(rankcol[p] for p in range(npos) if g >> (4 * p) & 1)
                live |= nz & m
            return live

        def core(t: int, hand: Sequence[int], skip: int) -> int:
            """The penalty of ``hand`` less ``skip`` (-1: none), whose codes sum to ``t``."""
            live = live_of(t)
            if not live:
                return t >> vb
            k = any_wild and (t >> wb) & 31
            key: object = t & hmask & (live | (live << 1))
            if k:
                key = (key, tuple(sorted(value[x] for x in hand if wild[x] and x != skip)))
            v = cache.get(key)
            if v is None:
                if k:
                    cards = [x for x in hand if x != skip and (wild[x] or code[x] & live)]
                else:
                    cards = [x for x in hand if x != skip and code[x] & live]
                ids, _, _, _, f = prepare(cards)
                v = f((1 << len(ids)) - 1)
                if len(cache) >= 1 << 18:
                    cache.clear()
                cache[key] = v
            return (t >> vb) - v

        def penalty(hand: Sequence[int]) -> int:
            t = 0
            for x in hand:  # cheaper than sum(map(...)) on hands of 7 to 11 cards
                t += code[x]
            return core(t, hand, -1)

        def without(hand: Sequence[int]) -> list[int]:
            """``penalty`` of the hand less each card in turn: one sum, one code taken off per card.

            A natural no meld of the whole hand can hold (not live) is in no meld of any part
            either, and taking it off leaves the other parts' live cards as they are: that part's
            penalty is the whole hand's less the card's value. Taking a card off a hand with no
            live card leaves none."""
            total = sum(map(cg, hand))
            live = live_of(total)
            if not live:
                base = total >> vb
                return [base - value[x] for x in hand]
            whole = core(total, hand, -1)
            return [core(total - code[x], hand, x) if wild[x] or code[x] & live else whole - value[x] for x in hand]

        def within(hand: Sequence[int], limit: int) -> list[int | None]:
            return [p if p <= limit else None for p in without(hand)]

        return penalty, without, within

    def _arrangement(
        self, ids: Sequence[int], vals: Sequence[int], chosen: Sequence[HandMeld], rest: int
    ) -> Arrangement:
        meld = self._meld
        melds = [meld(tuple(ids[i] for i in range(len(ids)) if m >> i & 1), k) for m, k in chosen]
        melds.sort(key=lambda m: (tuple(sorted(m.cards)), m.kind))
        un = tuple(ids[i] for i in range(len(ids)) if rest >> i & 1)
        return Arrangement(tuple(melds), un, sum(vals[i] for i in range(len(ids)) if rest >> i & 1))

    def best(self, hand: Sequence[int]) -> Arrangement:
        """One optimal arrangement; the least by ``Arrangement.sort_key`` (see module doc).

        Cards no meld of this hand can hold (``_meldable``) are unmatched in every
        arrangement, so the search runs without them; adding the same cards to
        every candidate's unmatched ones keeps the tie-break's order (equal
        penalties and counts, and the least differing id decides either way)."""
        if len(set(hand)) != len(hand):
            raise ValueError(f"a card id appears twice in {tuple(hand)}")
        live = self._meldable(hand)
        if len(live) == len(hand):
            return self._best(hand)
        found = self._best(live)
        keep = set(live)
        loose = [c for c in hand if c not in keep]
        value = self._value
        return Arrangement(
            found.melds,
            tuple(sorted(found.unmatched + tuple(loose))),
            found.penalty + sum(value[c] for c in loose),
        )

    def _partitions(self, prep: Prepared, visit: Callable[[list[HandMeld], int], None]) -> None:
        """Call ``visit(chosen, rest)`` for every split of a prepared hand into melds and leftover cards.

        ``chosen`` lists the (mask, kind) melds, ``rest`` is the mask of the cards left (both over
        the hand's sorted ids). Each split comes once: the lowest card not yet placed is either
        left over or opens one of its melds."""
        ids, _, melds, by_low, _ = prep
        kinds: dict[int, list[str]] = {}
        for m, k in melds:
            kinds.setdefault(m, []).append(k)

        def rec(mask: int, chosen: list[HandMeld], rest: int) -> None:
            if mask == 0:
                visit(chosen, rest)
                return
            low = mask & -mask
            rec(mask ^ low, chosen, rest | low)
            for m, _ in by_low[low.bit_length() - 1]:
                if m & mask == m:
                    for k in kinds[m]:
                        chosen.append((m, k))
                        rec(mask ^ m, chosen, rest)
                        chosen.pop()

        rec((1 << len(ids)) - 1, [], 0)

    def _best(self, hand: Sequence[int]) -> Arrangement:
        ids, vals, melds, by_low, f = self._prepare(hand)
        kinds: dict[int, list[str]] = {}
        for m, k in melds:
            kinds.setdefault(m, []).append(k)
        best: Arrangement | None = None

        def rec(mask: int, chosen: list[tuple[int, str]], rest: int) -> None:
            nonlocal best
            if mask == 0:
                a = self._arrangement(ids, vals, chosen, rest)
                if best is None or a.sort_key() < best.sort_key():
                    best = a
                return
            target = f(mask)
            low = mask & -mask
            if f(mask ^ low) == target:
                rec(mask ^ low, chosen, rest | low)
            for m, mv in by_low[low.bit_length() - 1]:
                if m & mask == m and mv + f(mask ^ m) == target:
                    for k in kinds[m]:
                        chosen.append((m, k))
                        rec(mask ^ m, chosen, rest)
                        chosen.pop()

        rec((1 << len(ids)) - 1, [], 0)
        assert best is not None
        return best

    def arrangements(self, hand: Sequence[int]) -> list[Arrangement]:
        """Every distinct maximal arrangement (no unmatched card could form or join a meld).

        Distinct = different set of (meld card set, kind); wild meanings are the
        canonical ones of ``make_meld``.  Sorted by ``Arrangement.sort_key``.
        """
        prep = self._prepare(hand)
        ids, vals, melds = prep[0], prep[1], prep[2]
        n = len(ids)
        valid = {m for m, _ in melds}
        out: list[Arrangement] = []

        def visit(chosen: list[HandMeld], rest: int) -> None:
            """Keep the split if it is maximal: no card left could join a meld or form one."""
            for i in range(n):
                if rest >> i & 1:
                    b = 1 << i
                    if any((m | b) in valid for m, _ in chosen):
                        return
                    if any(m & b and m & rest == m for m in valid):
                        return
            out.append(self._arrangement(ids, vals, chosen, rest))

        self._partitions(prep, visit)
        out.sort(key=Arrangement.sort_key)
        return out

    def _layout(self, place_bits: int) -> _Layout | None:
        """The per-card codes of the fast path (``place_bits`` 1) and of the filter (2), or None.

        Both need ``min_group == min_run == 3``, groups of at least 3, no negative value,
        at most 4 suits and at most 16 run positions."""
        r = self.rules
        if r.min_group != 3 or r.min_run != 3 or self._maxg < 3:
            return None
        info = self.cards
        if any(c.value < 0 for c in info):
            return None
        nat = [c for c in info if not c.wild and c.suit >= 0]
        if not nat:
            return None
        suits = sorted({c.suit for c in nat})
        p0 = min(c.run_pos for c in nat)
        npos = max(c.run_pos for c in nat) - p0 + 1
        if len(suits) > 4 or npos > 16:
            return None
        sidx = {s: i for i, s in enumerate(suits)}
        ns = len(suits)
        width = npos + 2  # 2 empty places between suits: no 3-window of places crosses a suit
        hbits = place_bits * ns * width
        cb = hbits  # rank counters, 4 bits each
        wb = cb + 4 * npos  # wild counter (5 bits) if the deck has wilds
        vb = wb + (5 if self._has_wild else 0)
        code = []
        for c in info:
            if c.wild:
                code.append((1 << wb) | (c.value << vb))
            elif c.suit < 0:
                code.append(c.value << vb)
            else:
                p = c.run_pos - p0
                code.append((1 << (place_bits * (sidx[c.suit] * width + p))) | (1 << (cb + 4 * p)) | (c.value << vb))
        # value of the natural at (suit index, place); absent cards never have a bit.
        sval = [[0] * npos for _ in range(ns)]
        for c in nat:
            sval[sidx[c.suit]][c.run_pos - p0] = c.value
        rankcol = [sum(1 << (place_bits * (s * width + p)) for s in range(ns)) for p in range(npos)]
        return _Layout(code, p0, npos, ns, width, (1 << hbits) - 1, cb, wb, vb, rankcol, sval)

    # --------------------------------------------------------------- fast path
    def _build_fast(self) -> tuple[Penalty, Without, Within] | None:
        if any(v > 1 for v in self._copies.values()):
            return None  # identical copies (two decks): general path
        lay = self._layout(1)
        if lay is None:
            return None
        code, _, npos, ns, width, hmask, cb, wb, vb, rankcol, sval = lay
        field = (1 << npos) - 1
        # A rank's counter plus 5 reaches 8 at 3 cards: one add and one and find every rank with a group.
        gbias = sum(5 << (cb + 4 * p) for p in range(npos))
        gmask = gbias // 5 * 8
        bitval = [sval[b // width][b % width] if b % width < npos else 0 for b in range(ns * width)]
        across = sum(1 << (s * width) for s in range(ns))  # times a set of places: those places in every suit

        def spread_of(g: int) -> int:
            """The place bits of every card of the ranks whose group bits are ``g``."""
            m = 0
            for p in range(npos):
                if g >> (cb + 4 * p + 3) & 1:
                    m |= rankcol[p]
            return m

        spread: dict[int, int] = {}
        for n in (1, 2, 3):  # up to 3 groups of 3 in a hand of up to 11 cards
            for ranks in combinations(range(npos), n):
                g = sum(8 << (cb + 4 * p) for p in ranks)
                spread[g] = spread_of(g)
        maxg = self._maxg
        cache: dict[int, int] = {}
        cache_limit = 1 << 20

        def bits_value(m: int) -> int:
            """The value of the cards whose place bits are ``m``."""
            v = 0
            while m:
                b = m & -m
                v += bitval[b.bit_length() - 1]
                m ^= b
            return v

        def matched(key: int) -> int:
            """Best matched value of the meld-involved cards ``key`` (exact, CH-3.3).

            Every card of ``key`` is in a window of 3 places of its suit or in a rank with 3
            or more cards. Where no card is in both and no rank holds more than a group may,
            every card is matched (runs, then groups); else the groups are searched."""
            one = two = three = four = 0  # places held by at least 1, 2, 3, 4 suits
            k = key
            for _ in range(ns):
                f = k & field
                k >>= width
                four |= three & f
                three |= two & f
                two |= one & f
                one |= f
            w = key & (key >> 1) & (key >> 2)
            if (w | (w << 1) | (w << 2)) & three * across or (four and maxg < 4):
                best = search_groups(key, three)
            else:
                best = bits_value(key)
            if len(cache) >= cache_limit:
                cache.clear()
            cache[key] = best
            return best

        def search_groups(key: int, three: int) -> int:
            """Each rank of 3 or more cards (places ``three``) forms one of its groups or none; every
            segment of 3 or more places of a suit left is a run (values are >= 0)."""
            opts_list = []
            for p in range(npos):
                if three >> p & 1:
                    here = [b for b in (key & (1 << (s * width + p)) for s in range(ns)) if b]
                    opts = [(0, 0)]  # (place bits of the group, its value)
                    for size in range(3, min(maxg, len(here)) + 1):
                        for comb in combinations(here, size):
                            opts.append((sum(comb), bits_value(sum(comb))))
                    opts_list.append(opts)
            best = 0
            for choice in product(*opts_list):
                rest = key
                v = 0
                for bits, gv in choice:
                    rest ^= bits
                    v += gv
                w = rest & (rest >> 1) & (rest >> 2)
                if w:
                    v += bits_value(w | (w << 1) | (w << 2))
                if v > best:
                    best = v
            return best

        cg = code.__getitem__
        cache_get = cache.get
        spread_get = spread.get
        general = self._penalty_general
        value = self._value
        wild = [c.wild for c in self.cards]
        wmask = ((1 << 5) - 1) << wb if self._has_wild else 0  # no wild counter without wilds

        def penalty_of_code(t: int) -> int:
            """The penalty of the hand whose codes sum to ``t`` (a hand with no wild card)."""
            h = t & hmask
            r = h & (h >> 1) & (h >> 2)
            g = (t + gbias) & gmask
            if r:
                r |= (r << 1) | (r << 2)
                if g:
                    r |= h & (spread_get(g) or spread_of(g))
            elif g:
                r = h & (spread_get(g) or spread_of(g))
            else:
                return t >> vb
            v = cache_get(r)
            if v is None:
                v = matched(r)
            return (t >> vb) - v

        # The hand's codes are summed by a plain loop: cheaper than sum(map(...)) on hands of 7 to 11 cards.
        def penalty(hand: Sequence[int]) -> int:
            t = 0
            for x in hand:
                t += code[x]
            return penalty_of_code(t)

        def without(hand: Sequence[int]) -> list[int]:
            """``penalty`` of the hand less each card in turn: one sum, one code taken off per card."""
            total = sum(map(cg, hand))
            out = []
            for x in hand:
                t = total - code[x]
                out.append(general([y for y in hand if y != x]) if t & wmask else penalty_of_code(t))
            return out

        def involved(t: int) -> int:
            """The place bits of the cards some meld could hold, of a hand with no wild whose codes sum to ``t``."""
            h = t & hmask
            w = h & (h >> 1) & (h >> 2)
            live = w | (w << 1) | (w << 2)
            g = (t + gbias) & gmask
            return live | (h & (spread_get(g) or spread_of(g))) if g else live

        def natural_parts(hand: Sequence[int], total: int) -> list[int]:
            """``penalty`` of a hand with no wild (codes summing to ``total``) less each card in turn.

            A card no meld of the whole hand can hold is in no meld of any part, and taking it
            off leaves the other cards some meld could hold as they are: that part's penalty is
            the whole hand's less the card's value (CH-3.3)."""
            live = involved(total)
            if not live:
                base = total >> vb
                return [base - value[x] for x in hand]
            whole = penalty_of_code(total)
            return [penalty_of_code(total - code[x]) if code[x] & live else whole - value[x] for x in hand]

        if not self._has_wild:

            def without_n(hand: Sequence[int]) -> list[int]:
                return natural_parts(hand, sum(map(cg, hand)))

            def within(hand: Sequence[int], limit: int) -> list[int | None]:
                return [p if p <= limit else None for p in natural_parts(hand, sum(map(cg, hand)))]

            self.codes = code
            self.penalty_of_code = penalty_of_code
            return penalty, without_n, within
        if self.rules.max_wild_per_meld > 1:

            def penalty_w(hand: Sequence[int]) -> int:
                t = 0
                for x in hand:
                    t += code[x]
                return general(hand) if t & wmask else penalty_of_code(t)

            def within_w(hand: Sequence[int], limit: int) -> list[int | None]:
                return [p if p <= limit else None for p in without(hand)]

            return penalty_w, without, within_w
        wild_penalty, loose_value = self._build_wild(lay, penalty_of_code)

        def penalty_1w(hand: Sequence[int]) -> int:
            t = 0
            for x in hand:
                t += code[x]
            return wild_penalty(t, hand, -1) if t & wmask else penalty_of_code(t)

        def without_1w(hand: Sequence[int]) -> list[int]:
            """As ``natural_parts``, with wilds: a natural no meld with one wild can hold in the whole
            hand (not ``live``) is in none of any part, and taking it off leaves the rest as it is."""
            total = sum(map(cg, hand))
            if not total & wmask:
                return natural_parts(hand, total)
            live, _ = loose_value(total, hand)
            whole = wild_penalty(total, hand, -1)
            out = []
            for x in hand:
                t = total - code[x]
                if not t & wmask:
                    out.append(penalty_of_code(t))
                elif wild[x] or code[x] & live:
                    out.append(wild_penalty(t, hand, x))
                else:
                    out.append(whole - value[x])
            return out

        def within_1w(hand: Sequence[int], limit: int) -> list[int | None]:
            total = sum(map(cg, hand))
            if not total & wmask:
                return [p if p <= limit else None for p in natural_parts(hand, total)]
            # Cards no meld with a wild can hold in the whole hand can't in any part of it either:
            # their values are a lower bound of each part's penalty, and taking one of them off
            # costs the whole hand's penalty less its value (as in ``without_1w``).
            live, lv = loose_value(total, hand)
            whole = -1
            out: list[int | None] = []
            for x in hand:
                t = total - code[x]
                if not t & wmask:
                    p = penalty_of_code(t)
                elif wild[x] or code[x] & live:
                    if lv > limit:
                        out.append(None)
                        continue
                    p = wild_penalty(t, hand, x)
                else:
                    if lv - value[x] > limit:
                        out.append(None)
                        continue
                    if whole < 0:
                        whole = wild_penalty(total, hand, -1)
                    p = whole - value[x]
                out.append(p if p <= limit else None)
            return out

        return penalty_1w, without_1w, within_1w

    def _build_wild(
        self, lay: _Layout, penalty_of_code: Callable[[int], int]
    ) -> tuple[Callable[[int, Sequence[int], int], int], Callable[[int, Sequence[int]], tuple[int, int]]]:
        """The fast path's penalty of a hand holding wilds, at most one wild per meld (CH-V7).

        A meld holding a wild is the wild plus a set A of naturals that the wild
        completes (a "near-meld": 2+ naturals of a rank with a free suit, or
        naturals of a suit whose places miss at most one place of a window one
        longer than A). What the wild stands for depends on A alone, never on the
        rest of the hand (it may stand for a card the hand holds elsewhere). So with
        k wilds the least penalty is the least, over sets S of at most k disjoint
        near-melds, of the naturals' fast penalty once S is taken out plus the
        values of the k - |S| cheapest wilds, which stay unmatched. The near-melds
        of a suit's places and of a rank's suits are cached; the answer is cached
        on the naturals that could be in some meld with one wild (2 of any 3
        places of a suit, or 2 of a rank) and the wilds held.
        """
        info = self.cards
        code, p0, npos, ns, width, hmask, cb, wb, vb, rankcol, _ = lay
        per_meld = self.rules.max_wild_per_meld  # 0 or 1 here
        maxg = self._maxg
        wild = [c.wild for c in info]
        value = self._value
        wcodes = {code[i] for i, c in enumerate(info) if c.wild}
        uniform = len(wcodes) == 1
        wcode = min(wcodes)
        wvalue = wcode >> vb
        # A rank's counter plus 6 reaches 8 at 2 cards: ``((tn + pairs) >> gb) & ones`` has a bit
        # (at 4 * place) for each rank holding 2 or more naturals.
        ones = sum(1 << (4 * p) for p in range(npos))
        pairs = (ones * 6) << cb
        gb = cb + 3
        field = (1 << npos) - 1
        suit_ids = sorted({c.suit for c in info if not c.wild and c.suit >= 0})
        # code of the natural at (suit index, place); absent cards never have a bit
        scode = [[0] * npos for _ in range(ns)]
        for i, c in enumerate(info):
            if not c.wild and c.suit >= 0:
                scode[suit_ids.index(c.suit)][c.run_pos - p0] = code[i]
        rank_room = [len(self._rank_suits.get(p + p0, ())) for p in range(npos)]
        suit_has = [self._suit_pos.get(s, frozenset()) for s in suit_ids]
        spread: dict[int, int] = {}
        run_near: dict[int, list[tuple[int, int]]] = {}
        group_near: dict[int, list[tuple[int, int]]] = {}
        cache: dict[object, int] = {}
        by_shape: dict[object, int] = {}
        # Suits alike (same places, same values at each place): renaming suits keeps every answer.
        symmetric = all(has == suit_has[0] for has in suit_has) and all(
            len({c.value for c in info if not c.wild and c.suit >= 0 and c.run_pos == p + p0}) <= 1 for p in range(npos)
        )

        def pair(codes: Sequence[int]) -> tuple[int, int]:
            t = sum(codes)
            return t & hmask, t

        def runs_of(s: int, f: int) -> list[tuple[int, int]]:
            """Near-melds among the places ``f`` of suit ``s``: runs one wild completes (CH-3.2, CH-V7)."""
            sc, has = scode[s], suit_has[s]
            ps = [p for p in range(npos) if f >> p & 1]
            out = []
            n = len(ps)
            for i in range(n - 1):
                lo = ps[i]
                for j in range(i + 1, n):
                    hi = ps[j]
                    cnt = j - i + 1
                    holes = hi - lo + 1 - cnt
                    if holes > 1:
                        break
                    seg = [sc[p] for p in ps[i : j + 1]]
                    if holes == 1:  # the wild fills the hole, a place the deck has
                        gap = next(q for q in range(lo, hi) if not f >> q & 1)
                        if gap + p0 in has:
                            out.append(pair(seg))
                        continue
                    if lo - 1 + p0 in has or hi + 1 + p0 in has:  # the wild extends the run
                        out.append(pair(seg))
                    for m in range(1, cnt - 1):  # the wild stands in the middle; that natural plays elsewhere
                        out.append(pair(seg[:m] + seg[m + 1 :]))
            return out

        def groups_of(p: int, col: int) -> list[tuple[int, int]]:
            """Near-melds among the suits ``col`` of rank ``p``: groups one wild completes (CH-3.1, CH-V7)."""
            here = [scode[s][p] for s in range(ns) if col >> s & 1]
            top = min(len(here), maxg - 1, rank_room[p] - 1)
            return [pair(comb) for size in range(2, top + 1) for comb in combinations(here, size)]

        def near_melds(live: int, g: int) -> list[tuple[int, int]]:
            out: list[tuple[int, int]] = []
            for s in range(ns):
                f = (live >> (s * width)) & field
                if f & (f - 1):
                    key = s << npos | f
                    got = run_near.get(key)
                    if got is None:
                        got = run_near[key] = runs_of(s, f)
                    out += got
            while g:
                b = g & -g
                g ^= b
                p = (b.bit_length() - 1) >> 2
                col = 0
                for s in range(ns):
                    col |= ((live >> (s * width + p)) & 1) << s
                key = p << ns | col
                got = group_near.get(key)
                if got is None:
                    got = group_near[key] = groups_of(p, col)
                out += got
            return out

        def solve(tn: int, live: int, g: int, k: int, low: list[int]) -> int:
            """Least penalty of the naturals ``tn`` plus ``k`` wilds (``low[m]``: the m cheapest wilds)."""
            best = penalty_of_code(tn) + low[k]
            if not (k and per_meld and best):
                return best
            melds = near_melds(live, g)
            if k == 1:  # the common case: one wild, at most one near-meld
                for _, cs in melds:
                    v = penalty_of_code(tn - cs)
                    if v < best:
                        best = v
                        if not v:
                            break
                return best
            nm = len(melds)

            def dfs(start: int, used: int, t: int, left: int) -> None:
                nonlocal best
                for i in range(start, nm):
                    b, cs = melds[i]
                    if b & used:
                        continue
                    v = penalty_of_code(t - cs) + low[left - 1]
                    if v < best:
                        best = v
                    if left > 1 and best:
                        dfs(i + 1, used | b, t - cs, left - 1)

            dfs(0, 0, tn, k)
            return best

        def ranks_of(g: int) -> int:
            """The place bits of every suit at the ranks marked in ``g`` (bit 4 * place), remembered."""
            m = spread[g] = sum(rankcol[p] for p in range(npos) if g >> (4 * p) & 1)
            return m

        def loose_value(t: int, hand: Sequence[int]) -> tuple[int, int]:
            """The naturals of ``hand`` (codes summing to ``t``) some meld with one wild could hold (their
            bits), and the value of the others."""
            k = (t >> wb) & 31
            tn = t - k * wcode if uniform else t - sum(code[x] for x in hand if wild[x])
            h = tn & hmask
            w = (h & (h >> 1)) | (h & (h >> 2)) | ((h >> 1) & (h >> 2))
            live = (w | (w << 1) | (w << 2)) & h
            g = ((tn + pairs) >> gb) & ones
            if g:
                live |= h & (spread.get(g) or ranks_of(g))
            lv = 0
            for x in hand:
                if not (wild[x] or code[x] & live):
                    lv += value[x]
            return live, lv

        def wild_penalty(t: int, hand: Sequence[int], skip: int) -> int:
            k = (t >> wb) & 31
            if uniform:
                tn = t - k * wcode
                ws: tuple[int, ...] = ()
            else:
                ws = tuple(sorted(value[x] for x in hand if wild[x] and x != skip))
                tn = t - (k << wb) - (sum(ws) << vb)
            h = tn & hmask
            w = (h & (h >> 1)) | (h & (h >> 2)) | ((h >> 1) & (h >> 2))  # 2 of 3 places of a suit
            live = (w | (w << 1) | (w << 2)) & h
            g = ((tn + pairs) >> gb) & ones  # 2 or more of a rank
            if g:
                live |= h & (spread.get(g) or ranks_of(g))
            if not live:
                return t >> vb
            key: object = (live << 5) | k if uniform else (live, ws)
            v = cache.get(key)
            if v is None:
                if symmetric:  # the same live cards up to a renaming of the suits: the same answer
                    fs = sorted((live >> (s * width)) & field for s in range(ns))
                    alias: object = (tuple(fs), k if uniform else ws)
                    v = by_shape.get(alias)
                if v is None:
                    low = [m * wvalue for m in range(k + 1)] if uniform else [sum(ws[:m]) for m in range(k + 1)]
                    v = (tn >> vb) + low[k] - solve(tn, live, g, k, low)
                    if symmetric:
                        if len(by_shape) >= 1 << 18:
                            by_shape.clear()
                        by_shape[alias] = v
                if len(cache) >= 1 << 18:
                    cache.clear()
                cache[key] = v
            return (t >> vb) - v

        return wild_penalty, loose_value


# ------------------------------------------------------------------ decks
SPANISH_40_RANKS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
SPANISH_48_RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "J", "Q", "K")


def spanish_deck(
    size: int = 40,
    *,
    decks: int = 1,
    jokers: int = 0,
    wild_ace_of_coins: bool = False,
    wild_value: int = 25,
) -> list[CardInfo]:
    """Deck table: card id = ``copy*size + suit*ranks + rank`` then the jokers.

    40 cards (CH-1.2, CH-1.4): positions 0..9, values 1..7, 8, 9, 10.
    48 cards (CH-V1): positions 0..11, value = index 1..12.
    ``decks=2`` repeats the table (identical copies, CH-V2); jokers (suit -1)
    and the ace of coins (suit 0, rank A) are wild with ``wild_value`` (CH-V7).
    """
    if size == 40:
        values: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    elif size == 48:
        values = tuple(range(1, 13))
    else:
        raise ValueError("size must be 40 or 48")
    out = []
    for _ in range(decks):
        for suit in range(4):
            for pos, v in enumerate(values):
                wild = wild_ace_of_coins and suit == 0 and pos == 0
                out.append(CardInfo(pos, suit, wild_value if wild else v, wild))
    for _ in range(jokers):
        out.append(CardInfo(-1, -1, wild_value, True))
    return out
