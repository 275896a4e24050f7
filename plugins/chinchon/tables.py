"""From the rule program to the meld solver: the deck table and the meld limits.

The solver (``melds.py``) knows cards only as run positions, suit numbers,
values and wild flags; this module reads those from the script's deck, order,
``value`` and ``wild`` tables once, when a variant loads. It also holds `Shown`,
the lazily computed arrangement a close is judged on, so that judging the eight
possible closes of a turn usually costs one sum of the solver's codes, eight
cheap look-ups and nothing more.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tapete import Rules

from .melds import RUN, Arrangement, CardInfo, MeldRules, MeldSolver

SUITS = "♣♦♥♠"


class MeldTables:
    """The solver of one variant plus what the game needs to read its answers."""

    def __init__(self, rules: Rules) -> None:
        deck = rules.deck
        values = rules.table("value")
        assert values is not None  # 'value' is a required table
        wild = rules.table("wild") or [0] * len(deck)
        self.value = [int(v) for v in values]
        self.wild = [bool(w) for w in wild]
        self.order = rules.order
        self.infos = [
            CardInfo(
                rules.order_pos[c], SUITS.index(deck.suit_of[c]) if deck.suit_of[c] else -1, self.value[c], self.wild[c]
            )
            for c in deck.ids
        ]
        lo, hi = rules.parsed_words("group_size", default=(3, 4))
        self.meld_rules = MeldRules(
            min_group=lo,
            max_group=hi,
            max_identical_in_group=rules.parsed_words("group_copies", default=1),
            min_run=rules.parsed_words("run_length", default=3),
            max_wild_per_meld=rules.parsed_words("wilds_per_meld", default=1),
        )
        self.solver = MeldSolver(self.infos, self.meld_rules)
        self.positive = all(v > 0 for v in self.value)

    def points(self, cards: Iterable[int]) -> int:
        value = self.value
        return sum(value[c] for c in cards)

    def stands_for(self, run_pos: int, suit: int) -> str:
        """How a wild's meaning is written: the rank and suit it replaces."""
        return f"{self.order[run_pos]}{SUITS[suit]}"


class Shown:
    """The arrangement of a closer's remaining cards, worked out only as far as asked.

    The closer shows the solver's best arrangement: the least penalty, then the
    fewest loose cards, then the fewest melds (``MeldSolver.best``), so a hand
    that is one run is shown as that single run. The close rule usually reads
    ``unmatched`` alone, which the solver's fast penalty answers; the full
    arrangement (``loose``, ``full``, ``chinchon``) is computed on first use.
    """

    __slots__ = ("tables", "_cards", "_hand", "_without", "big", "_penalty", "_arr")

    def __init__(
        self,
        tables: MeldTables,
        cards: Iterable[int] = (),
        penalty: int | None = None,
        hand: Sequence[int] | None = None,
        without: int = -1,
        big: bool = False,
    ) -> None:
        """The cards shown, or (cheaper while judging a turn's closes) ``hand`` less ``without``."""
        self.tables = tables
        self._cards = list(cards) if hand is None else None
        self._hand, self._without = hand, without
        self._penalty = penalty
        self.big = big  # GR-V6: the whole drawn hand, shown without a discard
        self._arr: Arrangement | None = None

    @property
    def cards(self) -> list[int]:
        if self._cards is None:
            self._cards = [c for c in self._hand if c != self._without]  # type: ignore[union-attr]  # set together
        return self._cards

    @property
    def penalty(self) -> int:
        if self._penalty is None:
            self._penalty = self.tables.solver.penalty(self.cards)
        return self._penalty

    @property
    def arrangement(self) -> Arrangement:
        if self._arr is None:
            # The solver prefers fewer, longer melds, so a one-run hand is shown as that run (CH-V6).
            self._arr = self.tables.solver.best(self.cards)
        return self._arr

    @property
    def loose(self) -> int:
        return len(self.arrangement.unmatched)

    @property
    def full(self) -> bool:
        if self.penalty > 0 and self.tables.positive:
            return False
        return not self.arrangement.unmatched

    @property
    def chinchon(self) -> bool:
        """CH-V6: every card in one run."""
        if not self.full:
            return False
        melds = self.arrangement.melds
        return len(melds) == 1 and melds[0].kind == RUN

    @property
    def wilds(self) -> int:
        wild = self.tables.wild
        return sum(1 for m in self.arrangement.melds for c in m.cards if wild[c])
