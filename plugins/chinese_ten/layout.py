"""Chinese Ten at the terminal: the table, the turned stock card, the capture piles, what each card takes.

Under the hand, every card that can capture now is listed with the table cards
it may take (CT-2.1, CT-2.2), read from the legal moves, so the person sees the
choices the game offers and nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence

from tapete import Action, Event, Layout, Row, View
from tapete.layout import Token, cards_words, seat_name


class ChineseTenLayout(Layout):
    seat_rows = ("captured", "other hands")  # said at each seat's place on the web

    def seat_facts(self, view: View, seat: int) -> list[str]:
        return [*super().seat_facts(view, seat), f"captured {cards_words(view.count(f'captures.{seat}'))}"]

    def table(self, view: View) -> list[Row]:
        table = sorted(view.cards("table"), key=lambda c: self.sort_key(view, c))
        rows = [Row("table", tuple(table), note="" if table else "empty")]
        if view.cards("turned"):
            rows.append(Row("turned", tuple(view.cards("turned")), note="(from the stock: choose what it takes)"))
        rows.append(Row("stock", note=cards_words(view.count("stock"))))
        piles = ", ".join(
            f"{'you' if s == view.seat else f'seat {s}'} {cards_words(view.count(f'captures.{s}'))}"
            for s in range(view.players)
        )
        rows.append(Row("captured", note=piles))
        rows.append(self.others(view))
        return rows

    def scores(self, view: View) -> list[str]:
        """The totals, and in partnerships (Scopone, SC-V3) each team's total, which is what wins."""
        lines = super().scores(view)
        teams = view.facts.teams if "teams" in view.facts else 0
        if teams:
            parts = []
            for t in range(teams):
                seats = list(range(t, view.players, teams))
                who = " and ".join(seat_name(view, s) for s in seats)
                parts.append(f"{who} {view.totals[seats[0]] if seats[0] < len(view.totals) else 0}")
            lines.append("teams: " + ", ".join(parts))
        return lines

    def hand(self, view: View, legal: Sequence[Action]) -> list[Row]:
        hand = self.sorted_hand(view)
        rows = [Row("your hand", tuple(hand))]
        options: dict[int, list[tuple[int, ...]]] = {}
        for a in legal:
            if a.kind in ("capture", "take"):
                options.setdefault(a.cards[0], []).append(a.cards[1:])
        for card, takes in options.items():
            tokens: list[Token] = [card, "takes"]
            for i, t in enumerate(takes):
                if i:
                    tokens.append("or")
                tokens += list(t)
            rows.append(Row("", tuple(tokens)))
        if not options and hand:
            rows.append(Row("", note="no card of yours takes anything: play one to the table"))
        return rows

    def event(self, view: View, event: Event) -> list[Token]:
        """The game's own account of a turn (the card played, what it took, the stock card turned)."""
        if event.said:
            return [f"{seat_name(view, event.seat)}:", "; ".join(event.said)]
        return super().event(view, event)
