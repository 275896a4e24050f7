"""A person at the terminal, as a bot: shows what the seat may see and asks for a move.

Moves are typed as text (``play 7♦``, ``7D`` works too) or by their number in the
list. A refused move is explained and asked again; nothing changes meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import Action
from .engine import observe


class HumanBot:
    def __init__(self, game, seat: int, rng, ask: Callable[[str], str] = input, say: Callable[[str], None] = print):
        self.seat, self.ask, self.say = seat, ask, say

    def choose(self, game, state, legal: list[Action]) -> Action:
        deck = game.deck
        view = observe(game, state, state.to_move)
        self.say(f"-- your move, seat {state.to_move}")
        for zone, cards in view["zones"].items():
            shown = (
                " ".join(cards)
                if isinstance(cards, list)
                else (f"top {cards['top']}, " if cards.get("top") else "") + f"{cards['count']} cards"
            )
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
                action = Action.parse(" ".join(words), deck)
            except ValueError:
                self.say("   type a move from the list, or its number")
                continue
            why = game.refusal(state, action)
            if why is None:
                return action
            self.say(f"   refused: {why}")


def _is_card(word: str, deck) -> bool:
    try:
        deck.parse(word)
        return True
    except ValueError:
        return False
