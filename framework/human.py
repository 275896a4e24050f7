"""A person at the terminal, as a bot: shows what the seat knows and asks for a move.

Moves are typed as text (``play 7♦``, ``7D`` works too) or by their number in the
list. The person sees only their seat's view: what the others did since their
last move (as this seat saw it), their hand and the visible table. A refused
move is explained by the game and asked again; nothing changes meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import Action
from .cards import Deck
from .game import Game
from .rng import Random
from .view import View


class HumanBot:
    observes = True

    def __init__(
        self,
        game: Game,
        seat: int,
        rng: Random,
        ask: Callable[[str], str] = input,
        say: Callable[[str], None] = print,
    ):
        self.seat, self.ask, self.say = seat, ask, say
        self._told = 0  # history events already shown, this deal
        self._deal: int | None = None

    def choose(self, view: View, legal: list[Action]) -> Action:
        deck = view.deck
        if view.deal_number != self._deal or len(view.history) < self._told:
            self._deal, self._told = view.deal_number, 0
        for event in view.history[self._told :]:
            if event.kind == "action" and event.seat != view.seat:
                self.say(f"   seat {event.seat}: {event.text}" + "".join(f" - {s}" for s in event.said))
        self._told = len(view.history)
        self.say(f"-- your move, seat {view.seat}")
        for zone, cards in view.zones.items():
            count = view.count(zone)
            if cards and len(cards) == count:
                shown = " ".join(deck.names[c] for c in cards)
            elif cards:
                shown = f"top {deck.names[cards[-1]]}, {count} cards"
            else:
                shown = f"{count} cards"
            self.say(f"   {zone}: {shown}")
        texts = [a.text(deck) for a in legal]
        self.say("   moves: " + "  ".join(f"[{i}] {t}" for i, t in enumerate(texts, 1)))
        while True:
            try:
                answer = self.ask("> ").strip()
            except EOFError:
                raise SystemExit("no more input: the match is abandoned") from None
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            words = answer.split()
            if len(words) == 1 and _is_card(words[0], deck):
                kinds = [a.kind for a in legal if a.cards]
                words = [kinds[0] if kinds else "play", *words]
            try:
                return Action.parse(" ".join(words), deck)
            except ValueError:
                self.say("   type a move from the list, or its number")

    def refused(self, action: Action, reason: str) -> bool:
        """The game refused the typed move: say why and ask again (the state has not changed)."""
        self.say(f"   refused: {reason}")
        return True


def _is_card(word: str, deck: Deck) -> bool:
    try:
        deck.parse(word)
        return True
    except ValueError:
        return False
