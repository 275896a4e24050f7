"""Chinchón at the terminal: the hand by suit in run order with its melds, the piles, the close.

The hand is shown twice over: sorted by suit in run order with the cards that
make melds marked, and as the solver's best arrangement (the melds and the
loose points), which is what a close would show (CH-4.3). Before a close is
made the person sees exactly what it would show and leave, and confirms. A
Spanish deck is shown with its own suits (CH-1.2: ``7 de oros``), in their
usual order; Gin Rummy's French deck keeps its symbols.
"""

from __future__ import annotations

from collections.abc import Sequence

from tapete import SPANISH_SUITS, Action, Layout, Row, View
from tapete.layout import Token, cards_words, count_words

from .game import gerund
from .tables import Shown


class ChinchonLayout(Layout):
    card_move = "discard"

    def __init__(self, loose: str = "unmatched"):
        self.loose = loose  # what the member calls the cards no meld takes: Chinchón's unmatched, Gin's deadwood

    def suit_names(self, view: View) -> dict[str, str] | None:
        """CH-1.2: oros, copas, espadas, bastos for a Spanish deck."""
        return SPANISH_SUITS if view.deck.spanish else None

    def sort_key(self, view: View, card: int) -> tuple[int, int]:
        suit_rank, _ = super().sort_key(view, card)
        return (suit_rank, view.facts.tables.infos[card].run_pos)

    def table(self, view: View) -> list[Row]:
        rows = [
            self.zone_row(view, "discard", "discard pile"),
            Row("stock", note=cards_words(view.count("stock"))),
        ]
        if view.count("facedown"):
            rows.append(Row("closed", note="a card lies face down: the deal is being closed"))
        rows.append(self.others(view))
        return rows

    def melds(self, view: View, cards: Sequence[int]) -> tuple[list[Token], list[int], int]:
        """The best arrangement of ``cards``: meld tokens, the unmatched cards and their points."""
        shown = Shown(view.facts.tables, list(cards))
        arrangement = shown.arrangement
        tokens: list[Token] = []
        for meld in arrangement.melds:
            cards_in_meld: list[int] = sorted(meld.cards, key=lambda c: self.sort_key(view, c))
            tokens += ["[", *cards_in_meld, "]"]
        loose = sorted(arrangement.unmatched, key=lambda c: self.sort_key(view, c))
        return tokens, loose, shown.penalty

    def hand(self, view: View, legal: Sequence[Action]) -> list[Row]:
        hand = self.sorted_hand(view)
        tokens, loose, points = self.melds(view, hand)
        in_melds = frozenset(c for c in hand if c not in loose)
        rows = [Row("your hand", tuple(hand), note="(* in a meld)" if in_melds else "", marked=in_melds)]
        rows.append(Row("melds", tuple(tokens), note="none" if not tokens else ""))
        rows.append(Row(self.loose, tuple(loose), note=f"= {count_words(points, 'point')}" if loose else "none"))
        close = view.facts.close_kind  # close, or knock (GR-4.3)
        closes = [a.cards[0] for a in legal if a.kind == close and a.cards]
        if closes:
            closes.sort(key=lambda c: self.sort_key(view, c))
            rows.append(Row(f"may {close} with", tuple(closes)))
        return rows

    def confirm(self, view: View, action: Action) -> list[str] | None:
        """CH-4.3, GR-4.3: before closing (knocking), show the melds and the points the close would leave."""
        if action.kind != view.facts.close_kind or not action.cards:
            return None
        names = self.card_names(view)
        card = action.cards[0]
        rest = list(view.hand)
        rest.remove(card)
        tokens, loose, points = self.melds(view, rest)
        joiner = ", " if any(" " in n for n in names) else " "
        shown = " ".join(meld_text(names, tokens, joiner))
        lines = [f"{gerund(action.kind)}, {names[card]} goes face down and you show: {shown or 'no melds'}"]
        if loose:
            lines.append(f"unmatched: {joiner.join(names[c] for c in loose)} = {count_words(points, 'point')}")
        else:
            lines.append("every card matched: a full close")
        return lines


def meld_text(names: Sequence[str], tokens: Sequence[Token], joiner: str) -> list[str]:
    """Melds written ``[A♥ 2♥ 3♥]`` (or ``[A de copas, 2 de copas, 3 de copas]``), one string each."""
    melds: list[str] = []
    cards: list[str] = []
    for t in tokens:
        if t == "[":
            cards = []
        elif t == "]":
            melds.append("[" + joiner.join(cards) + "]")
        elif isinstance(t, int):
            cards.append(names[t])
    return melds
