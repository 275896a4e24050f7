"""The base class of a game family's mechanics.

A family (Fan Tan's layout building, Chinchón's melding, Chinese Ten's fishing)
subclasses `Game`; the rule program (`self.rules`) says which cards, values,
rows, melds and captures apply. One `Game` object serves a whole match: it reads
the program once in ``__init__`` into plain attributes, so that its per-action
methods only touch the `DealState` and those attributes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from .actions import Action
from .cards import Deck
from .rng import Random
from .rules.program import Rules
from .rules.vocabulary import Ctx, Function, Quantity, StatementSpec
from .state import DealState

if TYPE_CHECKING:
    from .designer_checks import DesignProblem


class Game:
    name: ClassVar[str] = "?"
    summary: ClassVar[str] = ""
    words: ClassVar[
        tuple[StatementSpec | Quantity | Function, ...]
    ] = ()  # StatementSpec / Quantity / Function of the family
    zone_kinds: ClassVar[tuple[str, ...]] = ("hand",)
    default_bot: ClassVar[str] = "random"  # what `tapete play` seats when no --bots is given

    def __init__(self, rules: Rules):
        self.rules = rules
        self.deck: Deck = rules.deck
        direction = rules.constant("direction", "clockwise")
        self.step = 1 if direction == "clockwise" else -1
        self.visibility = {first: rules.parsed_words("see", first) for first, _ in rules.each("see")}
        self.teams: int = int(rules.constant("teams", 0))  # 0: everyone plays for themselves

    # -- a deal -------------------------------------------------------------
    def deal(self, state: DealState, rng: Random, ctx: Ctx) -> None:
        """Put every card in a zone and set up counters; the engine sets ``to_move`` after."""
        raise NotImplementedError

    def legal_actions(self, state: DealState) -> list[Action]:
        raise NotImplementedError

    def refusal(self, state: DealState, action: Action) -> str | None:
        """Why ``action`` is illegal now, or None; must not change the state."""
        if action in self.legal_actions(state):
            return None
        return f"{action.text(self.deck)!r} is not a legal move now"

    def apply(self, state: DealState, action: Action) -> list[dict[str, Any]]:
        """Carry out a legal action; return events worth logging or printing."""
        raise NotImplementedError

    # -- helpers families share ------------------------------------------------
    def same_team(self, a: int, b: int) -> bool:
        """Partners sit alternately: with ``teams = 2`` seats 0 and 2 play against 1 and 3."""
        return a % self.teams == b % self.teams if self.teams else a == b

    def team_seats(self, players: int, seat: int) -> list[int]:
        """The seats whose cards and points count together with ``seat``'s (just ``seat`` without teams)."""
        if not self.teams:
            return [seat]
        return list(range(seat % self.teams, players, self.teams))

    def next_seat(self, state: DealState, seat: int, steps: int = 1) -> int:
        return (seat + self.step * steps) % state.players

    def shuffled_deck(self, rng: Random) -> list[int]:
        """Every card of the deck, shuffled; the last one is dealt first."""
        cards = list(self.deck.ids)
        rng.shuffle(cards)
        return cards

    def deal_round_robin(self, state: DealState, cards: list[int], per_hand: int | None, first: int) -> None:
        """Fresh hands, dealt one card at a time from ``first``; ``None`` deals everything."""
        n = state.players
        hands: list[list[int]] = [[] for _ in range(n)]
        for s in range(n):
            state.zones[f"hand.{s}"] = hands[s]
        total = len(cards) if per_hand is None else per_hand * n
        seat = first
        for _ in range(total):
            hands[seat].append(cards.pop())
            seat = (seat + self.step) % n

    def facts(self) -> dict[str, Any]:
        """Public derived facts a bot may read through ``view.facts`` (card values, tables, solvers).

        Never anything that depends on a deal: a view must not reach the state."""
        return {}

    def describe_deal(self, state: DealState) -> list[str]:
        """Lines a person reads at the end of a deal."""
        return []

    def design_problems(self, players: int) -> list[DesignProblem]:
        """What ``tapete check`` should tell a designer about a deal for ``players`` under these rules.

        Called once per allowed player count, never during play. Report what the
        family's mechanics make impossible (more cards dealt than the deck holds, a
        hand size that cannot be dealt, a meld no deck can complete) as errors, and
        what plays but is probably not meant (a points table whose total no longer
        matches the break-even) as warnings. The core then also tries one deal.
        """
        return []
