"""Which card takes which, read once from the script's capture rules (CT-2.1, SC-3).

A capture of one table card (by a sum of two, CT-2.1, or by rank, SC-3.2) fits in
one precomputed set of partners per card; the hot path only asks ``t in takes[c]``.
Only when a card takes nothing that way do the fallback rules apply: ``capture
set`` (any two or more table cards adding up to the card, SC-3.3) and ``capture
all`` (the whole table, SC-V4).
"""

from __future__ import annotations

from tapete import Rules, face_value


def card_pips(rules: Rules) -> list[int]:
    """What each card counts towards a sum: the ``pips`` table, or the face value (ace 1)."""
    return rules.table("pips") or [face_value(r) for r in rules.deck.rank_of]


def capture_partners(rules: Rules) -> list[frozenset[int]]:
    """Per card id: the card ids it may take from the table, one at a time."""
    deck = rules.deck
    rank_of = deck.rank_of
    by_sum = set(rules.parsed_words("capture", "sum", ()))
    by_rank = set(rules.parsed_words("capture", "rank", ()))
    by_value = set(rules.parsed_words("capture", "value", ()))
    both = sorted(by_sum & by_rank, key=deck.ranks.index)
    if both:
        raise rules.error(
            "capture",
            "rank",
            f"rank(s) {' '.join(both)} capture both by sum and by rank; list each rank in one capture rule only",
        )
    for other, kind in ((by_sum, "sum"), (by_rank, "rank")):
        both = sorted(by_value & other, key=deck.ranks.index)
        if both:
            raise rules.error(
                "capture",
                "value",
                f"rank(s) {' '.join(both)} are in 'capture value' and 'capture {kind}'; "
                f"list each rank in one of them only",
            )
    total = rules.constant("capture", None, first="sum") if by_sum else None
    if by_sum and (isinstance(total, bool) or not isinstance(total, int)):
        raise rules.error("capture", "sum", f"the capture total must be a whole number, not {total!r}")
    pips = card_pips(rules)
    takes: list[frozenset[int]] = []
    for c in deck.ids:
        r = rank_of[c]
        if r in by_sum:  # CT-2.1 A-9: the two cards make the total (5 takes 5)
            takes.append(
                frozenset(t for t in deck.ids if t != c and rank_of[t] in by_sum and pips[c] + pips[t] == total)
            )
        elif r in by_rank:  # CT-2.1 10, J, Q, K: one card of the same rank
            takes.append(frozenset(t for t in deck.ids if t != c and rank_of[t] == r))
        elif r in by_value:  # SC-3.2 one card of the same value
            takes.append(frozenset(t for t in deck.ids if t != c and rank_of[t] in by_value and pips[t] == pips[c]))
        else:
            takes.append(frozenset())
    return takes


def fallback_ranks(rules: Rules) -> tuple[frozenset[str], frozenset[str]]:
    """The ranks of ``capture set`` (SC-3.3) and of ``capture all`` (SC-V4), checked against the others."""
    deck = rules.deck
    by_sum = set(rules.parsed_words("capture", "sum", ()))
    by_set = set(rules.parsed_words("capture", "set", ()))
    by_all = set(rules.parsed_words("capture", "all", ()))
    for kind, ranks, other, other_kind in (
        ("set", by_set, by_sum, "sum"),
        ("all", by_all, by_sum, "sum"),
        ("all", by_all, by_set, "set"),
    ):
        both = sorted(ranks & other, key=deck.ranks.index)
        if both:
            raise rules.error(
                "capture",
                kind,
                f"rank(s) {' '.join(both)} are in 'capture {kind}' and 'capture {other_kind}'; "
                f"list each rank in one of them only",
            )
    return frozenset(by_set), frozenset(by_all)


def sum_sets(table: list[int], pips: list[int], total: int) -> list[tuple[int, ...]]:
    """Every set of two or more table cards whose pips add up to ``total`` (SC-3.3), in table order."""
    found: list[tuple[int, ...]] = []
    chosen: list[int] = []
    n = len(table)

    def walk(i: int, left: int) -> None:
        if left == 0 and len(chosen) >= 2:
            found.append(tuple(chosen))
        for j in range(i, n):
            card = table[j]
            p = pips[card]
            if p <= left:
                chosen.append(card)
                walk(j + 1, left - p)
                chosen.pop()

    walk(0, total)
    return found


def every_sum_set(cards: list[int], pips: list[int], total: int, limit: int) -> list[frozenset[int]] | None:
    """Every set of two or more of ``cards`` whose pips add up to ``total`` (what SC-3.3 may ever take);
    None when there are more than ``limit`` (pips of 0 would make them countless)."""
    found: list[frozenset[int]] = []
    chosen: list[int] = []
    n = len(cards)

    def walk(i: int, left: int) -> bool:
        if left == 0 and len(chosen) >= 2:
            found.append(frozenset(chosen))
            if len(found) > limit:
                return False
        for j in range(i, n):
            card = cards[j]
            p = pips[card]
            if p <= left:
                chosen.append(card)
                ok = walk(j + 1, left - p)
                chosen.pop()
                if not ok:
                    return False
        return True

    return found if walk(0, total) else None
