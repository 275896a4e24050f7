"""A small plugin written the way a plugin author would, fully annotated.

``tests/test_wheel.py`` runs ``mypy --strict`` on this file against the installed wheel
(so it sees exactly the types a plugin's own type checker sees) and loads it to play.
It provides a bot for every game, a rule-script word, a house rule, a game family and a command.
"""

from __future__ import annotations

from typing import Any

import typer

from tapete import (
    SEAT_IN_DEAL,
    Action,
    Ctx,
    DealState,
    Game,
    Match,
    MatchResult,
    Quantity,
    Random,
    Rules,
    View,
    hookimpl,
)
from tapete.hookspecs import RegisterBot, RegisterGame, RegisterWord

scored: list[dict[int, int]] = []  # what the house rule saw, deal by deal


class LowestBot:
    """Plays the legal move with the lowest card (or the first move without cards)."""

    def __init__(self, game: Game, seat: int, rng: Random) -> None:
        self.seat, self.rng = seat, rng

    def choose(self, view: View, legal: list[Action]) -> Action:
        assert view.seat == self.seat and len(view.hand) == view.count(f"hand.{self.seat}")
        return min(legal, key=lambda a: (min(a.cards) if a.cards else -1, a.text(view.deck)))


def _cards_held(ctx: Ctx) -> int:
    return len(ctx.state.zones.get(f"hand.{ctx.seat}", ()))


class TopCard(Game):
    """Each player plays one card; the highest scores a point (a family never registered as a variant here)."""

    name = "top-card"
    summary = "everyone plays a card; the highest wins"
    words = (Quantity("cards_held", "cards in the player's hand", SEAT_IN_DEAL, _cards_held),)

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self.pos: list[int] = list(rules.order_pos)

    def facts(self) -> dict[str, Any]:
        return {"pos": tuple(self.pos)}

    def deal(self, state: DealState, rng: Random, ctx: Ctx) -> None:
        self.deal_round_robin(state, self.shuffled_deck(rng), 1, state.dealer)
        state.zones["table"] = []

    def legal_actions(self, state: DealState) -> list[Action]:
        return [Action("play", (card,)) for card in state.zones[f"hand.{state.to_move}"]]

    def apply(self, state: DealState, action: Action) -> list[dict[str, Any]]:
        card = action.cards[0]
        state.zones[f"hand.{state.to_move}"].remove(card)
        state.zones["table"].append(card)
        state.over = len(state.zones["table"]) == state.players
        state.to_move = self.next_seat(state, state.to_move)
        return [{"say": f"plays {self.deck.format(card)}"}]


@hookimpl
def tapete_register_games(register: RegisterGame) -> None:
    register(TopCard)


@hookimpl
def tapete_register_bots(register: RegisterBot) -> None:
    register("lowest", LowestBot)


@hookimpl
def tapete_register_vocabulary(register: RegisterWord) -> None:
    register(None, Quantity("cards_in_hand", "cards in the player's hand", SEAT_IN_DEAL, _cards_held))


@hookimpl
def tapete_deal_scored(match: Match, state: DealState, scores: dict[int, int]) -> None:
    scored.append(dict(scores))


@hookimpl
def tapete_match_ended(match: Match, result: MatchResult) -> None:
    assert result.deals == len(scored)


@hookimpl
def tapete_register_commands(app: typer.Typer) -> None:
    @app.command()
    def top_card() -> None:
        """Say what Top Card is."""
        typer.echo(TopCard.summary)
