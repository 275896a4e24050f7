"""Chinchón at the terminal: the hand by suit in run order with its melds, the piles, the close.

The hand is shown twice over: sorted by suit in run order with the cards that
make melds marked, and as the solver's best arrangement (the melds and the
loose points), which is what a close would show (CH-4.3). Before a close is
made the person sees exactly what it would show and leave, and confirms.
"""

from __future__ import annotations

from collections.abc import Sequence

from tapete import Action, Layout, Row, View
from tapete.layout import Token, cards_words

from .tables import Shown


class ChinchonLayout(Layout):
    card_move = "discard"

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
        rows.append(Row("loose", tuple(loose), note=f"= {points} points" if loose else "none"))
        closes = [a.cards[0] for a in legal if a.kind == "close"]
        if closes:
            closes.sort(key=lambda c: self.sort_key(view, c))
            rows.append(Row("may close with", tuple(closes)))
        return rows

    def confirm(self, view: View, action: Action) -> list[str] | None:
        """CH-4.3: before closing, show the melds and the points the close would leave."""
        if action.kind != "close" or not action.cards:
            return None
        names = view.deck.names
        card = action.cards[0]
        rest = list(view.hand)
        rest.remove(card)
        tokens, loose, points = self.melds(view, rest)
        shown = " ".join(t if isinstance(t, str) else names[t] for t in tokens if t is not None)
        shown = shown.replace("[ ", "[").replace(" ]", "]")
        lines = [f"closing, {names[card]} goes face down and you show: {shown or 'no melds'}"]
        if loose:
            lines.append(f"unmatched: {' '.join(names[c] for c in loose)} = {points} points (CH-5.5)")
        else:
            lines.append("every card matched: a full close")
        return lines

    def help(self, view: View) -> list[str]:
        return [
            "CH-4.2 draw the top card of the stock or of the discard pile, then discard one face up",
            "CH-4.3 or close: discard face down and show your melds, when the rules allow the points left",
            "CH-4.4 when the stock runs out, the discard pile but its top becomes the stock",
            "CH-5.5 each unmatched card counts its points against you",
        ]
