"""A searching bot for every game: information-set Monte Carlo search from the seat's view.

The bot plays from its seat's view only. It imagines complete deals consistent
with that view (`Determiniser`: hidden cards dealt uniformly among the places the
seat cannot see, respecting what it remembers and the game's public constraints)
and plays them out. It needs nothing from the game beyond the `Game` methods every
family has, so a variant written today is searchable today. Two searches:

``search=paired`` (the default) starts from the game's default (heuristic) bot and
only improves on it. Every imagined deal is played out once after each candidate
move, with the same imagined cards and the same random streams for every candidate
(common random numbers), so the luck of the deal cancels in the difference between
two moves and what is left is the moves' own effect. The bot plays the heuristic's
move unless another move's mean advantage over it, on the same deals, exceeds
``margin`` standard errors; candidates clearly worse than the heuristic's move are
dropped as the evidence comes in, and the search stops early when none is left. A
move that ends the deal with a win wins on every imagined deal, so it is found
without a special case. (A one-step policy improvement over the heuristic: with
enough deals it cannot do worse than the heuristic's own move, by the margin test.)

``search=tree`` is single-observer IS-MCTS: each iteration walks one shared tree of
moves down one imagined deal (a child is chosen by UCB among the moves legal in
that deal, counting how often each was available), adds one node, finishes the deal
with a rollout and credits every seat of the path with its reward.

Parameters (``--bots ismcts:iterations=400,rollout=default``):

``search``
    ``paired`` (default) or ``tree``, as above.
``iterations``
    rollouts per decision (default 200; without it, ``seconds`` alone bounds the search).
    A paired search plays each imagined deal out once per live candidate and finishes the
    deal it started, so it may exceed the figure by fewer rollouts than there are moves.
``seconds``
    time budget per decision; the search stops at whichever bound comes first. A time
    budget makes choices depend on the machine's speed; iterations alone are reproducible.
``c``
    UCB exploration constant of the tree search (default 0.7) on rewards scaled to about [0, 1].
``margin``
    paired search: standard errors by which a move's mean advantage over the heuristic's
    move must exceed zero for the bot to play it instead (default 2.0), over at least eight
    imagined deals. A candidate whose mean advantage falls half a standard error below zero
    is dropped (after three deals), and so is one that did exactly as well on every one of
    six or more deals; the search stops when only the heuristic's move is left.
    ``prior=none`` ignores it.
``prior``
    paired search: ``default`` (the game's default bot's move is the reference that other
    moves must beat) or ``none`` (play the move with the best mean, no reference).
``rollout``
    ``default`` (the default: the game's own default bot plays every seat of the rollout,
    from views built on the imagined deal, a fresh bot per rollout) or ``random``.
``depth``
    moves a rollout may make before it stops and the position is scored as it stands
    (0, the default: play the deal out).
``reward``
    ``won`` (1 when the variant's ``won`` condition holds for the seat, else 0),
    ``score`` (the variant's ``score`` expression, higher is better), ``-score`` (lower is
    better), or ``auto`` (the default: ``won`` when the variant has that rule, else ``-score`` when
    the lowest total wins the match, else ``score``).

Seeded: the bot's random source comes from the match seed and its seat, so the same
seed gives the same choices.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core.actions import Action
from ..core.errors import TapeteError
from ..core.inputs import choice, count, declare, finite
from ..core.ledger import Ledger, carried_of
from ..core.rng import Random, derive_seed
from ..core.state import DealState
from ..play.rewards import DealRewards
from .determinise import Determiniser

if TYPE_CHECKING:
    from ..game import Game
    from ..view import View

ROLLOUTS = ("default", "random")
SEARCHES = ("paired", "tree")
PRIORS = ("default", "none")
# What each parameter may be: numbers (whole?, smallest, largest; finite, never a bool), words (the choices).
# One table, so a parameter given from Python (ISMCTSBot(..., c=float("nan"))) is checked like a typed one.
NUMBERS: dict[str, tuple[bool, float, float]] = {
    "iterations": (True, 1, 10_000_000),
    "seconds": (False, 0.001, 3_600),
    "depth": (True, 0, 100_000),  # 0: play the deal out
    "c": (False, 0, 1_000_000),
    "margin": (False, 0, 1_000_000),  # a margin of 1,000 standard errors: never leave the heuristic
}
WORDS: dict[str, tuple[str, ...]] = {"rollout": ROLLOUTS, "search": SEARCHES, "prior": PRIORS}
MIN_PAIRS = 3  # imagined deals a paired comparison needs before it may drop or prefer a move
MIN_OVERRIDE = 8  # imagined deals before a move may replace the reference (a standard error from fewer is unreliable)
PRUNE = 0.5  # standard errors: a candidate whose advantage is below -PRUNE errors is dropped (falling
# back on the reference is always safe, so dropping early spends the budget on the promising moves)


class _Node:
    __slots__ = ("children", "visits", "avail", "total", "mover")

    def __init__(self, mover: int):
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.mover = mover


def paired_advantage(mine: Sequence[float], ref: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``mine[i] - ref[i]`` (rewards of two moves on the same deals)."""
    n = len(mine)
    diffs = [a - b for a, b in zip(mine, ref, strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def ledger_seen(view: View) -> Ledger:
    """The match as the seat knows it, for scoring the deals the search imagines: the totals, the
    deals won, the deal number, and the values each seat carried into this deal (Spades' bags,
    SP-5.5, public as the counters ``carried.NAME.SEAT``), without which a rollout scored a hand
    as if no bag had ever been taken."""
    ledger = Ledger(view.players, list(view.totals), list(view.deals_won))
    ledger.deal_number = view.deal_number
    for name, values in carried_of(view.counters).items():
        ledger.carried[name] = [values.get(s, 0) for s in range(view.players)]
    return ledger


class ISMCTSBot:
    """Searches imagined deals from the seat's view; see the module docstring for parameters."""

    @declare(
        game="object",
        seat="object",
        rng="object",
        iterations="count",
        seconds="finite",
        c="finite",
        rollout="choice",
        depth="count",
        reward="choice",
        search="choice",
        margin="finite",
        prior="choice",
    )
    def __init__(
        self,
        game: Game,
        seat: int,
        rng: Random,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float = 0.7,
        rollout: str = "default",
        depth: int = 0,
        reward: str = "auto",
        search: str = "paired",
        margin: float = 2.0,
        prior: str = "default",
    ):
        given: dict[str, Any] = {"iterations": iterations, "seconds": seconds, "depth": depth, "c": c, "margin": margin}
        for name, (whole, low, high) in NUMBERS.items():
            if given[name] is not None or name not in ("iterations", "seconds"):  # those two may be left out
                what = f"ismcts {name}"  # numpy's numbers are numbers too (inputs.count, inputs.finite)
                given[name] = (
                    count(given[name], what, low=int(low), high=int(high))
                    if whole
                    else finite(given[name], what, low=low, high=high)
                )
        iterations, seconds, depth, c, margin = (given[k] for k in ("iterations", "seconds", "depth", "c", "margin"))
        for name, value in (("rollout", rollout), ("search", search), ("prior", prior)):
            choice(value, f"ismcts {name}", WORDS[name])
        self.game, self.seat, self.rng = game, seat, rng
        self.iterations = iterations if iterations is not None else (None if seconds is not None else 200)
        self.seconds = seconds
        self.c = float(c)
        self.rollout = rollout
        self.depth = depth
        self.search = search
        self.margin = float(margin)
        self.prior = prior
        self._rewards = DealRewards(game, reward, who="ismcts reward")
        self.reward = self._rewards.reward
        self._scale = 1.0
        self._rollout_bots: dict[int, Any] | None = None
        self._policy: Callable[[DealState, list[Action]], Action] | None = None
        self._factory: Callable[..., Any] | None | bool = False  # False: not looked up yet
        self._prior_bot: Any = None
        self.decisions = 0
        self.iterations_done = 0
        self.overrides = 0  # paired search: decisions where the bot left the heuristic's move

    def __deepcopy__(self, memo: dict[int, Any]) -> ISMCTSBot:
        """A copy with its own random state; the game (shared, read-only) is not copied."""
        twin = copy.copy(self)
        twin.rng = Random.fromstate(self.rng.getstate())
        twin._rollout_bots = None
        twin._policy = None
        twin._prior_bot = copy.deepcopy(self._prior_bot, memo) if self._prior_bot is not None else None
        return twin

    # -- the contract ---------------------------------------------------------------
    def choose(self, view: View, legal: list[Action]) -> Action:
        if self.search == "paired" and self.prior == "default":
            # The heuristic watches every decision of its seat (some keep memories of the deal).
            reference = self._heuristic_choice(view, legal)
        else:
            reference = legal[0]
        if len(legal) == 1:
            return legal[0]
        self.decisions += 1
        if self.search == "paired":
            return self._choose_paired(view, legal, reference)
        return self._choose_tree(view, legal)

    def _heuristic_choice(self, view: View, legal: list[Action]) -> Action:
        from ..bots import observes

        bot = self._prior_bot
        if bot is None:
            factory = self._default_factory()
            if factory is None:
                return legal[0]
            bot = self._prior_bot = factory(self.game, self.seat, Random(self.rng.below(1 << 32), "prior"))
        action: Action = bot.choose(view if observes(bot) else None, legal)
        return action

    # -- paired search (common random numbers at the root) ---------------------------------
    def _choose_paired(self, view: View, legal: list[Action], reference: Action) -> Action:
        game, rng, seat = self.game, self.rng, self.seat
        det = Determiniser(game, view)
        ledger = ledger_seen(view)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        limit = self.iterations
        with_prior = self.prior == "default"
        live: list[Action] = [reference] + [a for a in legal if a != reference]
        rewards: dict[Action, list[float]] = {a: [] for a in live}
        done = 0
        rounds = 0
        while len(live) > 1:
            imagined = det.sample(rng)
            stream = rng.below(1 << 32)
            for action in live:
                state = imagined.clone()
                game.apply(state, action)
                rewards[action].append(self._paired_play_out(state, ledger, view, stream, seat))
            done += len(live)
            rounds += 1
            ref = reference if with_prior else max(live, key=lambda a: sum(rewards[a]))
            if rounds >= MIN_PAIRS:
                kept = [ref]
                for a in live:
                    if a == ref:
                        continue
                    mean, err = paired_advantage(rewards[a], rewards[ref])
                    same = err == 0 and mean == 0 and rounds >= 2 * MIN_PAIRS  # no deal tells them apart
                    if mean + PRUNE * err >= 0 and not same:
                        kept.append(a)
                live = [a for a in legal if a in kept]
                if with_prior:
                    live = [reference] + [a for a in live if a != reference]
            if limit is not None and done >= limit:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.iterations_done += done
        if not with_prior:
            return max(live, key=lambda a: (sum(rewards[a]), -legal.index(a)))
        best, best_mean = reference, 0.0
        if rounds >= MIN_OVERRIDE:
            for a in live:
                if a == reference:
                    continue
                mean, err = paired_advantage(rewards[a], rewards[reference])
                if mean > self.margin * err and mean > best_mean:
                    best, best_mean = a, mean
        if best != reference:
            self.overrides += 1
        return best

    def _paired_play_out(self, state: DealState, ledger: Ledger, view: View, stream: int, seat: int) -> float:
        """One rollout from ``state``; the same ``stream`` gives every candidate the same random draws."""
        self._roll(state, view, Random(stream, "rollout"))
        return self.reward_of(state, ledger, seat)

    def reward_of(self, state: DealState, ledger: Ledger, seat: int) -> float:
        """``seat``'s reward for ``state``, finished or not (a void deal rewards nobody)."""
        return self._rewards.of(state, ledger, seat)

    # -- tree search --------------------------------------------------------------------
    def _choose_tree(self, view: View, legal: list[Action]) -> Action:
        game = self.game
        det = Determiniser(game, view)
        ledger = ledger_seen(view)
        root = _Node(view.seat)
        rng = self.rng
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        limit = self.iterations
        self._scale = 1.0
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
        self._roll(state, view, self.rng)
        return self.evaluate(state, ledger)

    def _roll(self, state: DealState, view: View, rng: Random) -> None:
        """Play ``state`` on by the rollout policy until the deal ends or ``depth`` moves are made."""
        game = self.game
        moves = 0
        depth = self.depth
        choose = self._default_policy(view) if self.rollout == "default" else None
        while not state.over and (not depth or moves < depth):
            legal = game.legal_actions(state)
            if not legal:
                break
            if len(legal) == 1:
                action = legal[0]
            elif choose is not None:
                action = choose(state, legal)
            else:
                action = legal[rng.below(len(legal))]
            game.apply(state, action)
            moves += 1

    def evaluate(self, state: DealState, ledger: Ledger) -> list[float]:
        """Each seat's reward for ``state``, finished or not (a void deal rewards nobody)."""
        out = self._rewards.every_seat(state, ledger)
        if self.reward != "won":
            self._scale = max(self._scale, *(abs(v) for v in out))
        return out

    def _default_factory(self) -> Callable[..., Any] | None:
        """The game's default bot's factory, from the game's record: the bot the match seats when
        none is named (None when that is a search or a person, or the game was built without a
        variant: play at random)."""
        if self._factory is False:
            record = self.game.record
            factory: Callable[..., Any] | None = None
            if record is not None and record.default_bot not in ("ismcts", "human"):
                try:
                    factory = record.default_factory()
                except TapeteError:
                    factory = None
            self._factory = factory
        return self._factory if callable(self._factory) else None

    @property
    def rollout_bot(self) -> Callable[..., Any] | None:
        """The factory of the bot that plays every seat of a ``rollout=default`` rollout (and the
        search's heuristic choice): the game's default bot (None: moves at random)."""
        return self._default_factory()

    def _default_policy(self, view: View) -> Callable[[DealState, list[Action]], Action]:
        """The game's default bot at every seat, looking at the imagined deal through fresh views.

        The bots are made once per seat and kept from rollout to rollout (and decision to
        decision), so whatever they cache stays warm; an imagined deal carries no history.
        """
        if self._policy is not None:
            return self._policy
        from ..bots import RandomBot, observes

        game = self.game
        factory = self._default_factory() or RandomBot
        if self._rollout_bots is None:
            self._rollout_bots = {}
        bots = self._rollout_bots
        views = _RolloutViews(game, view.options)

        def bot_for(seat: int) -> Any:
            bot = bots.get(seat)
            if bot is None:
                bot = bots[seat] = factory(game, seat, Random(derive_seed("rollout", seat), self.rng.below(1 << 30)))
            return bot

        def choose(state: DealState, legal: list[Action]) -> Action:
            if len(legal) == 1:
                return legal[0]
            bot = bot_for(state.to_move)
            seen = views.view(state, state.to_move) if observes(bot) else None
            action: Action = bot.choose(seen, legal)
            return action

        self._policy = choose
        return choose


class _RolloutViews:
    """Views of an imagined deal for the bots of a rollout, built the cheap way.

    `make_view` without a ledger, history or memory (an imagined deal has none): each seat
    sees what the game's `Observer` shows it, with the ``see`` modes cached per zone and
    seat there. The public ``data`` is passed without a deep copy, since an imagined deal is
    thrown away after its rollout.
    """

    def __init__(self, game: Game, options: Mapping[str, Any]):
        from ..view import game_facts, make_view

        self.game = game
        self.facts = game_facts(game)
        self.options = options
        self.make = make_view

    def view(self, state: DealState, seat: int) -> View:
        return self.make(self.game, state, seat, self.facts, self.options, None, copy_data=False)
