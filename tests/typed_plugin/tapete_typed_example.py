"""A small plugin written the way a plugin author would, fully annotated.

``tests/test_wheel.py`` runs ``mypy --strict`` on this file against the installed wheel
(so it sees exactly the types a plugin's own type checker sees) and loads it to play.
It provides a bot for every game, a rule-script word, a house rule, a command and a game
family whose words use the kit (a checked statement folded with ``constant``, a getter typed
``Ctx[TopCard]``, a context bound to a deal) and whose deals may end void.
"""

from __future__ import annotations

from typing import Any

import typer

from tapete import (
    CONSTANT,
    DEAL_ONLY,
    SEAT_IN_DEAL,
    Action,
    Ctx,
    DealState,
    Env,
    Game,
    Ledger,
    Match,
    MatchResult,
    Quantity,
    Random,
    Rules,
    Statement,
    StatementSpec,
    View,
    constant,
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


def _highest_played(ctx: Ctx[TopCard]) -> int:
    return max((ctx.game.pos[card] for card in ctx.state.zones.get("table", ())), default=-1)


def _check_ties(statement: Statement, env: Env) -> int:
    assert statement.value is not None  # needs_value
    ties = constant(statement.value, env)
    if not isinstance(ties, int) or isinstance(ties, bool) or ties < 0:
        raise env.error(statement.value.pos, f"ties must be a whole number, not {ties!r}")
    return ties


class TopCard(Game):
    """Each player plays one card; the highest scores a point (a family never registered as a variant here)."""

    name = "top-card"
    summary = "everyone plays a card; the highest wins"
    words = (
        Quantity("cards_held", "cards in the player's hand", SEAT_IN_DEAL, _cards_held),
        Quantity("highest_played", "the place in the order of the highest card played", DEAL_ONLY, _highest_played),
        StatementSpec("ties", "deals in a row that may end void", value=CONSTANT, needs_value=True, check=_check_ties),
    )
    hand_size_word = None  # one card each, whatever the script says

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self.pos: list[int] = list(rules.order_pos)
        self.ties: int = rules.parsed_words("ties", default=0)
        self._ctx: Ctx[TopCard] = Ctx(game=self)

    def highest(self, state: DealState) -> int:
        with self._ctx.bound(state) as ctx:
            return _highest_played(ctx)

    def deal_void(self, state: DealState) -> str | None:
        return "a tie for the top" if state.data.get("tie") else None

    def going_out(self, going: list[int], ledger: Ledger) -> list[int]:
        return going if len(going) < len(ledger.active) else []

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
