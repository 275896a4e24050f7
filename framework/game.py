"""The base class of a game family's mechanics.

A family (Fan Tan's layout building, Chinchón's melding, Chinese Ten's fishing)
subclasses `Game`; the rule program (`self.rules`) says which cards, values,
rows, melds and captures apply. One `Game` object serves a whole match: it reads
the program once in ``__init__`` into plain attributes, so that its per-action
methods only touch the `DealState` and those attributes.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from .core.actions import Action
from .core.cards import Deck
from .core.rng import Random
from .core.state import DealState
from .rules.program import Rules
from .rules.vocabulary import Ctx, Function, Quantity, StatementSpec

if TYPE_CHECKING:
    from .core.problems import DesignProblem
    from .plugins.record import GameRecord
    from .view import View


class Game:
    name: ClassVar[str] = "?"
    summary: ClassVar[str] = ""
    words: ClassVar[
        tuple[StatementSpec | Quantity | Function, ...]
    ] = ()  # StatementSpec / Quantity / Function of the family
    zone_kinds: ClassVar[tuple[str, ...]] = ("hand",)
    default_bot: ClassVar[str] = "random"  # the family's best bot: a GameRecord's default unless it names its own
    seat_zones: ClassVar[tuple[str, ...]] = ("hand",)  # zone kinds with one zone per seat: hand.0, hand.1, ...
    record: GameRecord | None = None
    """The registered game this object plays (``scopa`` on Chinese Ten's class), set by the
    `Variant` that built it: what a bot handed only the game (the search, a person's ``hint``)
    reads to find the game's own bots and layout. None for a game built by hand."""

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

    def check_state(self, state: DealState, partial: bool = False) -> list[str]:
        """What is wrong with a state read from a snapshot (empty: nothing); families may add checks.

        The generic checks: zone names are the game's (``zone_kinds``), a seat's zone
        names a seat that exists and every seat has a hand, no hand holds more cards
        than the rules allow (``hand_size`` + 1 when the script sets it, else a fair
        share of the deck), and, unless ``partial``, every card is in some zone."""
        problems = []
        kinds = set(self.zone_kinds)
        for name in state.zones:
            kind, _, owner = name.partition(".")
            if kind not in kinds:
                problems.append(f"zone {name!r} is not a zone of {self.name} (zones: {', '.join(self.zone_kinds)})")
            elif kind in self.seat_zones and not (owner.isdigit() and int(owner) < state.players):
                problems.append(f"zone {name!r} names no seat of a {state.players}-player deal")
        for seat in range(state.players):
            if "hand" in self.seat_zones and "hand" in kinds and f"hand.{seat}" not in state.zones:
                problems.append(f"seat {seat} has no zone 'hand.{seat}'")
        most = self.largest_hand(state)
        for name, cards in state.zones.items():
            if name.startswith("hand.") and len(cards) > most:
                problems.append(f"zone {name!r} holds {len(cards)} cards; a hand holds at most {most} here")
        if not partial:
            placed = {c for cards in state.zones.values() for c in cards}
            missing = [self.deck.format(c) for c in self.deck.ids if c not in placed]
            if missing:
                shown = " ".join(missing[:10]) + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
                problems.append(f"{len(missing)} card(s) of the deck are in no zone: {shown}")
        return problems

    def largest_hand(self, state: DealState) -> int:
        """The most cards a hand may hold: the script's ``hand_size`` + 1, else a fair share of the deck + 1."""
        from .rules.vocabulary import Ctx

        size = self.rules.expr("hand_size") if self.rules.has("hand_size") else None
        if size is not None:
            try:
                return int(size(Ctx(game=self, state=state))) + 1
            except Exception:  # a hand size that needs more than the state: fall back to the share
                pass
        return -(-len(self.deck) // max(state.players, 1)) + 1

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

    def excluded(self, view: View) -> Mapping[int, Collection[str]]:
        """Zones a card the seat cannot see is publicly known not to be in (optional hook).

        Searching bots (``ismcts``) imagine the hidden cards from a seat's view; the core
        already keeps zone sizes, what the seat sees and what it remembers. A game adds
        here what its rules let everyone deduce, e.g. Fan Tan: a player who passed held
        no card that was playable then (FT-3.4). Only cards whose place the view does
        not show matter; the default knows nothing more."""
        return {}
