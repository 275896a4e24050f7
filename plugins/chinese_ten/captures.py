"""Which card takes which, read once from the script's capture rules (CT-2.1).

A capture is always one card against one table card, so the whole rule fits in
one precomputed set of partners per card; the hot path only asks ``t in takes[c]``.
"""

from __future__ import annotations

from pathlib import Path

from tapete import ErrorList, ScriptError
from tapete.cards import face_value
from tapete.errors import Location, line_of


def located(rules, key: str, first: str, message: str) -> ErrorList:
    """A load-time error at the statement it concerns, for problems no single word shows."""
    item = rules.statement(key, first)
    if item is None:
        return ErrorList([ScriptError(Location("<rules>"), message)])
    pos = item.pos
    try:
        source = line_of(Path(pos.path).read_text(encoding="utf-8"), pos.line)
    except OSError:
        source = None
    return ErrorList([ScriptError(Location(pos.path, pos.line, pos.column, source), message)])


def capture_partners(rules) -> list[frozenset[int]]:
    """Per card id: the card ids it may take from the table, one at a time."""
    deck = rules.deck
    rank_of = deck.rank_of
    by_sum = set(rules.parsed_words("capture", "sum", ()))
    by_rank = set(rules.parsed_words("capture", "rank", ()))
    both = sorted(by_sum & by_rank, key=deck.ranks.index)
    if both:
        raise located(
            rules,
            "capture",
            "rank",
            f"rank(s) {' '.join(both)} capture both by sum and by rank; list each rank in one capture rule only",
        )
    total = rules.constant("capture", None, first="sum") if by_sum else None
    if by_sum and (isinstance(total, bool) or not isinstance(total, int)):
        raise located(rules, "capture", "sum", f"the capture total must be a whole number, not {total!r}")
    pips = rules.table("pips") or [face_value(r) for r in rank_of]
    takes: list[frozenset[int]] = []
    for c in deck.ids:
        r = rank_of[c]
        if r in by_sum:  # CT-2.1 A-9: the two cards make the total (5 takes 5)
            takes.append(
                frozenset(t for t in deck.ids if t != c and rank_of[t] in by_sum and pips[c] + pips[t] == total)
            )
        elif r in by_rank:  # CT-2.1 10, J, Q, K: one card of the same rank
            takes.append(frozenset(t for t in deck.ids if t != c and rank_of[t] == r))
        else:
            takes.append(frozenset())
    return takes
