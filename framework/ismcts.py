"""A searching bot for every game: information-set Monte Carlo tree search (IS-MCTS).

The bot plays from its seat's view only. Each iteration imagines one complete
deal consistent with that view (`Determiniser`: hidden cards dealt uniformly
among the places the seat cannot see, respecting what it remembers and the
game's public constraints), walks one shared tree of moves down that deal
(single-observer IS-MCTS: a node's children are moves, a child is chosen by UCB
among the moves legal in this deal, counting how often each was available), adds
one node, finishes the deal with a rollout and credits every seat of the path
with its reward. It needs nothing from the game beyond the `Game` methods every
family has, so a variant written today is searchable today.

Parameters (``--bots ismcts:iterations=400,rollout=default``):

``iterations``
    deals imagined per decision (default 200; without it, ``seconds`` alone bounds the search).
``seconds``
    time budget per decision; the search stops at whichever bound comes first. A time
    budget makes choices depend on the machine's speed; iterations alone are reproducible.
``c``
    UCB exploration constant (default 0.7) on rewards scaled to about [0, 1].
``rollout``
    ``random`` (default) or ``default``: the game's own default bot plays every seat of the
    rollout, from views built on the imagined deal.
``depth``
    moves a rollout may make before it stops and the position is scored as it stands
    (0, the default: play the deal out).
``reward``
    ``won`` (1 when the variant's ``won`` condition holds for the seat, else 0),
    ``score`` (the variant's ``score`` expression, higher is better), ``-score`` (lower is
    better), or ``auto`` (the default: ``won`` when the variant has that rule, else ``score``).

Seeded: the bot's random source comes from the match seed and its seat, so the same
seed gives the same choices.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .actions import Action
from .determinise import Determiniser
from .errors import TapeteError
from .ledger import Ledger
from .rng import Random, derive_seed
from .rules.vocabulary import Ctx
from .state import DealState

if TYPE_CHECKING:
    from .game import Game
    from .view import View

REWARDS = ("auto", "won", "score", "-score")
ROLLOUTS = ("random", "default")


class _Node:
    __slots__ = ("children", "visits", "avail", "total", "mover")

    def __init__(self, mover: int):
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.mover = mover


class ISMCTSBot:
    """Single-observer IS-MCTS from the seat's view; see the module docstring for parameters."""

    def __init__(
        self,
        game: Game,
        seat: int,
        rng: Random,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float = 0.7,
        rollout: str = "random",
        depth: int = 0,
        reward: str = "auto",
    ):
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise TapeteError(f"ismcts iterations must be a whole number of at least 1, not {iterations!r}")
        if seconds is not None and (not isinstance(seconds, (int, float)) or seconds <= 0):
            raise TapeteError(f"ismcts seconds must be a positive number, not {seconds!r}")
        if rollout not in ROLLOUTS:
            raise TapeteError(f"ismcts rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        if reward not in REWARDS:
            raise TapeteError(f"ismcts reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if not isinstance(depth, int) or depth < 0:
            raise TapeteError(f"ismcts depth must be a whole number (0: play out), not {depth!r}")
        if not isinstance(c, (int, float)) or c < 0:
            raise TapeteError(f"ismcts c must be a number of at least 0, not {c!r}")
        self.game, self.seat, self.rng = game, seat, rng
        self.iterations = iterations if iterations is not None else (None if seconds is not None else 200)
        self.seconds = seconds
        self.c = float(c)
        self.rollout = rollout
        self.depth = depth
        rules = game.rules
        self._score = rules.expr("score")
        self._won = rules.condition("won")
        if reward == "auto":
            reward = "won" if self._won is not None else "score"
        if reward == "won" and self._won is None:
            raise TapeteError(f"ismcts reward=won needs a 'won' rule, which the {game.name} variant lacks")
        self.reward = reward
        self._scale = 1.0
        self._rollout_bots: dict[int, Any] | None = None
        self.decisions = 0
        self.iterations_done = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> ISMCTSBot:
        """A copy with its own random state; the game (shared, read-only) is not copied."""
        twin = copy.copy(self)
        twin.rng = Random.fromstate(self.rng.getstate())
        twin._rollout_bots = None
        return twin

    # -- the contract ---------------------------------------------------------------
    def choose(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        self.decisions += 1
        game = self.game
        det = Determiniser(game, view)
        ledger = Ledger(view.players, list(view.totals), list(view.deals_won))
        ledger.deal_number = view.deal_number
        root = _Node(view.seat)
        rng = self.rng
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        limit = self.iterations
        self._scale = 1.0
        if self.rollout == "default":
            self._rollout_bots = {}
        done = 0
        while True:
            state = det.sample(rng)
            self._iterate(root, state, ledger, view)
            done += 1
            if limit is not None and done >= limit:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.iterations_done += done
        best, best_key = legal[0], None
        for i, action in enumerate(legal):
            child = root.children.get(action)
            key = (child.visits, child.total / child.visits if child and child.visits else 0.0, -i) if child else None
            if key is not None and (best_key is None or key > best_key):
                best, best_key = action, key
        return best

    # -- one iteration --------------------------------------------------------------------
    def _iterate(self, root: _Node, state: DealState, ledger: Ledger, view: View) -> None:
        game, rng, c = self.game, self.rng, self.c
        node = root
        path = [root]
        while not state.over:
            legal = game.legal_actions(state)
            if not legal:
                break
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                action = untried[rng.below(len(untried))] if len(untried) > 1 else untried[0]
                child = _Node(state.to_move)
                children[action] = child
                child.avail = 1
                game.apply(state, action)
                path.append(child)
                break
            best_value, action, child = -math.inf, legal[0], children[legal[0]]
            scale = self._scale
            for a in legal:
                ch = children[a]
                ch.avail += 1
                value = ch.total / (ch.visits * scale) + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if value > best_value:
                    best_value, action, child = value, a, ch
            game.apply(state, action)
            node = child
            path.append(child)
        rewards = self._play_out(state, ledger, view)
        for n in path[1:]:
            n.visits += 1
            n.total += rewards[n.mover]

    def _play_out(self, state: DealState, ledger: Ledger, view: View) -> Sequence[float]:
        game, rng = self.game, self.rng
        moves = 0
        depth = self.depth
        choose = self._default_policy(view) if self.rollout == "default" else None
        while not state.over and (not depth or moves < depth):
            legal = game.legal_actions(state)
            if not legal:
                break
            if choose is not None:
                action = choose(state, legal)
            else:
                action = legal[rng.below(len(legal))] if len(legal) > 1 else legal[0]
            game.apply(state, action)
            moves += 1
        return self.evaluate(state, ledger)

    def evaluate(self, state: DealState, ledger: Ledger) -> list[float]:
        """Each seat's reward for ``state``, finished or not (a void deal rewards nobody)."""
        n = state.players
        if state.data.get("void") is not None or state.data.get("stalled") is not None:
            return [0.0] * n
        ctx = Ctx(game=self.game, state=state, ledger=ledger)
        out: list[float] = []
        for s in range(n):
            ctx.seat = s
            try:
                if self.reward == "won":
                    assert self._won is not None
                    out.append(1.0 if self._won(ctx) else 0.0)
                else:
                    value = float(self._score(ctx)) if self._score is not None else 0.0
                    out.append(value if self.reward == "score" else -value)
            except Exception:  # a rule that cannot be read before the deal ends scores 0
                out.append(0.0)
        if self.reward != "won":
            self._scale = max(self._scale, *(abs(v) for v in out))
        return out

    def _default_policy(self, view: View) -> Callable[[DealState, list[Action]], Action]:
        """The game's default bot at every seat, looking at the imagined deal through fresh views."""
        from .bots import observes
        from .plugins import registry
        from .view import game_facts, make_view

        game = self.game
        name = game.default_bot
        bots = self._rollout_bots if self._rollout_bots is not None else {}
        facts = game_facts(game)
        options = view.options

        def bot_for(seat: int) -> Any:
            bot = bots.get(seat)
            if bot is None:
                factory: Any = None
                if name not in ("ismcts", "human"):
                    try:
                        factory = registry().bot(game.name, name).factory
                    except TapeteError:
                        factory = None
                if factory is None:
                    from .bots import RandomBot

                    factory = RandomBot
                bot = bots[seat] = factory(game, seat, Random(derive_seed("rollout", seat), self.rng.below(1 << 30)))
            return bot

        def choose(state: DealState, legal: list[Action]) -> Action:
            if len(legal) == 1:
                return legal[0]
            bot = bot_for(state.to_move)
            seen = make_view(game, state, state.to_move, facts, options, None) if observes(bot) else None
            action: Action = bot.choose(seen, legal)
            return action

        return choose
