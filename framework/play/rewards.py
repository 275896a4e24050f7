"""What a deal is worth to each seat, finished or not: the one reading of ``reward``.

A search scores its imagined deals and a learning environment scores its episodes the same
way, so both ask this module: ``won`` (1 for a seat the variant's ``won`` rule names, else
0), ``score`` (the deal's ``score`` for the seat), ``-score`` (its negation, for games whose
score is a penalty), ``auto`` (``won`` where the variant has the rule, else ``-score`` where the
match goes to the lowest total, ``winner = lowest(total)`` as in Hearts, else ``score``). A void
or stalled deal is worth nothing to anyone.
"""

from __future__ import annotations

from ..core.errors import TapeteError
from ..core.ledger import Ledger
from ..core.state import DealState
from ..game import Game
from ..rules.vocabulary import Ctx

REWARDS = ("auto", "won", "score", "-score")


def _lowest_wins(game: Game) -> bool:
    """The variant's match goes to the lowest total (``winner = lowest(...)``): its score is a penalty."""
    from ..rules import tree as t

    winner = game.rules.statement("winner")
    value = getattr(winner, "value", None)
    return isinstance(value, t.Call) and value.name == "lowest"


class DealRewards:
    """Each seat's reward for a deal state under one reading (see the module docstring)."""

    def __init__(self, game: Game, reward: str = "auto", who: str = "reward") -> None:
        if reward not in REWARDS:
            raise TapeteError(f"{who} must be one of {', '.join(REWARDS)}, not {reward!r}")
        rules = game.rules
        self.game = game
        self._score = rules.expr("score")
        self._won = rules.condition("won")
        if reward == "auto":
            reward = "won" if self._won is not None else "-score" if _lowest_wins(game) else "score"
        if reward == "won" and self._won is None:
            raise TapeteError(f"{who}=won needs a 'won' rule, which the {game.name} variant lacks")
        self.reward = reward

    def of(self, state: DealState, ledger: Ledger, seat: int) -> float:
        """``seat``'s reward for ``state``."""
        if self._void(state):
            return 0.0
        ctx = Ctx(game=self.game, state=state, ledger=ledger)
        ctx.seat = seat
        return self._read(ctx)

    def every_seat(self, state: DealState, ledger: Ledger) -> list[float]:
        """Every seat's reward for ``state``, seat by seat."""
        n = state.players
        if self._void(state):
            return [0.0] * n
        ctx = Ctx(game=self.game, state=state, ledger=ledger)
        out: list[float] = []
        for s in range(n):
            ctx.seat = s
            out.append(self._read(ctx))
        return out

    def _void(self, state: DealState) -> bool:
        """A void or stalled deal (`Game.deal_void`, `Game.deal_stalled`) is worth nothing."""
        game = self.game
        return game.deal_void(state) is not None or game.deal_stalled(state) is not None

    def _read(self, ctx: Ctx) -> float:
        try:
            if self.reward == "won":
                assert self._won is not None
                return 1.0 if self._won(ctx) else 0.0
            value = float(self._score(ctx)) if self._score is not None else 0.0
            return value if self.reward == "score" else -value
        except Exception:  # a rule that cannot be read before the deal ends scores 0
            return 0.0
