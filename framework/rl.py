"""One learning seat among the game's own bots, as a single-agent Gymnasium environment.

``tapete.rl.env("fantan/pagat", opponents="random", players=3)`` is a `gymnasium.Env`
for a learner that plays one seat of a variant while the other seats are played by bots
named as ``tapete play --bots`` names them (``random``, ``sensible``, ``heuristic``,
``ismcts:iterations=200``, ...). It is built on `tapete.pettingzoo`'s AEC environment,
through its public API only: the learner sees that environment's observation (the
``observation`` vector; the ``action_mask`` is `LearnerEnv.action_masks`, the method
sb3-contrib's ``MaskablePPO`` asks for), acts in its action space, and is rewarded as it
rewards (``reward``, ``episode``). Needs the ``rl`` extra; the training example and its
library (Stable-Baselines3 and sb3-contrib on PyTorch) are the ``rl-train`` extra
(docs/rl.md).

Why the opponents cannot cheat: a bot is handed what the engine hands a bot in a match,
a `View` of its own seat made by a `Recorder` (its history, what it has seen and
remembers), never the deal's state. The recorder follows its own copy of the deal, which
receives the same moves as the environment's deal, so a bot reads views exactly as
`Match.play` builds them (history included, which the AEC environment does not keep).

The learner's seat rotates by default: episode ``k`` after ``reset(seed=s)`` seats it at
``k mod players``, so a policy learns every seat and an evaluation over consecutive
episodes weighs the seats equally; ``seat=i`` fixes it. The ``k``-th episode after
``reset(seed=s)`` is always the same deal (the AEC environment's episode ``k`` of seed
``s``) with the same seat and the same dice for the bots, whatever the learner did before,
so two policies run on the same seeds are compared deal by deal (`evaluate`, `margin`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from .bots import BotFactory, LegacyBot, adapt, observes
from .core.actions import Action
from .core.errors import IllegalAction, TapeteError
from .core.inputs import InputError, as_whole, choice, count, declare, finite, read_bots
from .core.inputs import seat as read_seat
from .core.ledger import Ledger
from .core.rng import Random, derive_seed
from .core.state import DealState
from .pettingzoo import TapeteEnv
from .pettingzoo import env as aec_env
from .play.loading import Variant
from .play.match import check_bots
from .view import Recorder, View

MAX_SKIPPED = 1000  # episodes in a row that end before the learner's first move: a variant the seat never plays


class _Shadow:
    """The deal as the bots see it: a copy of its start, the moves since, and a recorder made when first needed.

    A view is asked for only by a bot that observes (or `LearnerEnv.view`), so a table of
    random bots costs one copy per deal and nothing per move."""

    def __init__(self, env: LearnerEnv, state: DealState, seats: list[int], ledger: Ledger | None) -> None:
        self.env = env
        self.state = state.clone()
        self.seats = seats  # the match seat of each seat of this deal
        self.ledger = ledger
        self.moves: list[Action] = []
        self.played = 0  # moves the recorder has been given
        self.recorder: Recorder | None = None

    def view(self, match_seat: int) -> View:
        aec = self.env.aec
        if self.recorder is None:
            self.recorder = Recorder(aec.game, self.state, None, self.ledger, aec.variant.options)
        recorder, state = self.recorder, self.state
        for action in self.moves[self.played :]:
            recorder.apply(state, action)
        self.played = len(self.moves)
        return recorder.view(state, self.seats.index(match_seat))


Policy = Callable[["LearnerEnv", np.ndarray], int]


class LearnerEnv(gymnasium.Env[np.ndarray, np.int64]):
    """A learner at one seat of a variant, every other seat a bot (see the module docstring)."""

    metadata = {"render_modes": ["ansi"]}

    @declare(
        variant="variant",
        opponents="bots",
        players="count",
        seat="seat",
        options="options",
        reward="choice",
        episode="choice",
        illegal_reward="finite",
        render_mode="choice",
        aec_options="options",
    )
    def __init__(
        self,
        variant: str | Variant,
        opponents: str | Sequence[str | BotFactory] = "random",
        players: int | None = None,
        seat: int | None = None,
        options: Mapping[str, Any] | None = None,
        reward: str = "auto",
        episode: str = "deal",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        aec_options: Mapping[str, Any] | None = None,
    ) -> None:
        """A learner among bots in ``variant`` (see the module docstring).

        ``opponents``: the bots of the other seats, a ``--bots`` value or a list of bot specs
        or bot factories (``factory(game, seat, rng)``, as a `GameRecord` registers them), by
        their place after the learner (a short list is filled with its last); ``seat``: the
        learner's seat (None: rotating, episode by episode); ``options``, ``reward``,
        ``episode``: as `tapete.pettingzoo.env`; ``aec_options``: more keyword arguments for
        it. The observation is every part of the AEC observation but the mask, flattened in
        order (today its ``observation`` vector alone).

        Every argument is read before anything is built (`tapete.core.inputs`): a seat of a
        person (``human``) is refused, since nobody answers in a training run; ``seat`` is a
        whole number (``True`` is not), ``illegal_reward`` finite, ``render_mode`` None or ``ansi``."""
        choice(render_mode, "render_mode", (None, "ansi"))
        illegal = finite(illegal_reward, "illegal_reward")
        if isinstance(opponents, str):
            given: list[Any] = read_bots(opponents, what="opponents", person=False, where="tapete.rl")
        elif isinstance(opponents, Sequence):
            given = list(opponents)
            read_bots([o for o in given if isinstance(o, str)], what="opponents", person=False, where="tapete.rl")
            for o in given:
                if not isinstance(o, str) and not callable(o):
                    raise InputError(f"an opponent is a bot spec or a bot factory, not {o!r:.60}")
        else:
            raise InputError(f"opponents must be bot specs or bot factories, not {opponents!r:.60}")
        self.aec: TapeteEnv = aec_env(
            variant, players, options, reward, render_mode, episode, **dict(aec_options or {})
        )
        aec = self.aec
        self.players = aec.players
        if not given:
            raise TapeteError("no opponent named: list at least one bot for the other seats")
        if len(given) > self.players - 1:
            raise TapeteError(f"{len(given)} opponents were listed for {self.players - 1} other seats")
        # the opponents by their place after the learner: the first sits next, and so on
        given += [given[-1]] * (self.players - 1 - len(given))
        record = aec.variant.record
        # every named bot built once now: ismcts:c=-1 is refused here, as 'tapete play' refuses it
        check_bots(aec.variant, [o for o in given if isinstance(o, str)], person=False, where="tapete.rl")
        # a name is looked up (an unknown bot is refused here, naming the known ones); a factory is used as it is
        self._factories = [record.bot(o) if isinstance(o, str) else o for o in given]
        self.opponents = [o if isinstance(o, str) else getattr(o, "__name__", repr(o)) for o in given]
        self.seat = None if seat is None else read_seat(seat, self.players, "the learner's seat")
        self.illegal_reward = illegal
        self.render_mode = render_mode
        space = aec.observation_space(aec.possible_agents[0])
        assert isinstance(space, spaces.Dict)
        self._keys = [k for k in space.spaces if k != "action_mask"]
        boxes = [space.spaces[k] for k in self._keys]
        low = np.concatenate([np.ravel(np.broadcast_to(b.low, b.shape)) for b in boxes if isinstance(b, spaces.Box)])
        high = np.concatenate([np.ravel(np.broadcast_to(b.high, b.shape)) for b in boxes if isinstance(b, spaces.Box)])
        if len(low) != sum(int(np.prod(b.shape or ())) for b in boxes):
            raise TapeteError(f"the observation of {aec.variant.name} has parts that are not arrays: {self._keys}")
        self.observation_space = spaces.Box(low.astype(np.float32), high.astype(np.float32), dtype=np.float32)
        act = aec.action_space(aec.possible_agents[0])
        assert isinstance(act, spaces.Discrete)
        self.slots = int(act.n)
        self.action_space = spaces.Discrete(self.slots)
        self._seed = 0
        self._episode = 0
        self._done = True
        self._agent = aec.possible_agents[0]
        self._learner = 0
        self._bots: dict[int, Any] = {}
        self._shadow: _Shadow | None = None
        self._deal: object = None
        self._mask = np.zeros(self.slots, dtype=np.int8)
        self.skipped = 0  # episodes that ended before the learner's first move (played on, not returned)
        self.reduced = 0  # bot decisions whose legal moves the action space could not all hold (see `_opponent`)

    # -- the Gymnasium API -------------------------------------------------------------------
    @declare(seed="count", options="object")
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start the next episode (of ``seed``'s sequence when given); the bots play up to the learner's move."""
        if seed is not None:
            seed = count(seed, "seed", low=0, high=2**64 - 1)  # Gymnasium's seeds: whole numbers of 0 or more
        super().reset(seed=seed)
        if seed is not None:
            self._seed, self._episode = seed, 0
        for _ in range(MAX_SKIPPED):
            self._start_episode()
            self._play_bots()
            if not self._done:
                return self._observe(), self._info()
            self.skipped += 1
        raise TapeteError(
            f"{MAX_SKIPPED} episodes in a row of {self.aec.variant.name} ended before seat {self._learner} moved"
        )

    @declare(action="count")
    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the learner's slot ``action``, then the bots up to its next move or the episode's end.

        A slot the mask does not allow ends the episode at once with ``illegal_reward``
        (``info["illegal"]`` says which slot): a policy that ignores the mask learns to keep to it."""
        if self._done:
            raise TapeteError("the episode is over: call reset() before step()")
        aec = self.aec
        legal = aec.legal_moves()
        slot = as_whole(action)  # numpy's integers are slots; 1.7, 2.0 and True are refused alike
        if slot is None:
            raise InputError(f"an action is a slot number, an int from 0 to {self.slots - 1}, not {action!r:.60}")
        move = legal.get(slot)
        if move is None:
            self._done = True
            what = aec.layout.describe(slot) if 0 <= slot < self.slots else "no slot"
            info = {**self._info(), "illegal": f"slot {slot} ({what}) is not legal now"}
            return self._observe(), self.illegal_reward, True, False, info
        reward = self._apply(slot, move)
        reward += self._play_bots()
        terminated, truncated = self._ended()
        return self._observe(), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal slots of the learner now (True = legal), as sb3-contrib's ``MaskablePPO`` asks."""
        return self._mask.astype(bool)

    def render(self) -> str | None:
        return self.aec.render() if self.render_mode == "ansi" else None

    # -- for policies that are bots ----------------------------------------------------------
    @property
    def learner_seat(self) -> int:
        """The learner's match seat in this episode."""
        return self._learner

    @property
    def episode_number(self) -> int:
        """The number of the episode in play in the sequence of the last seed (0 after ``reset(seed=s)``)."""
        return self._episode - 1

    def view(self) -> View:
        """The learner's `View` now, as a bot at its seat would be handed it (`bot_policy` plays from it)."""
        if self._shadow is None or self._done:
            raise TapeteError("no deal is in play: call reset() first")
        return self._shadow.view(self._learner)

    def legal_moves(self) -> dict[int, Action]:
        """Slot -> move for the learner now."""
        return self.aec.legal_moves()

    # -- inside ------------------------------------------------------------------------------
    def _start_episode(self) -> None:
        aec, k = self.aec, self._episode
        if k == 0:
            aec.reset(seed=self._seed)
        else:
            aec.reset()
        self._episode += 1
        self._learner = self.seat if self.seat is not None else k % self.players
        self._agent = aec.possible_agents[self._learner]
        self._bots = {}
        for i, factory in enumerate(self._factories):
            s = (self._learner + 1 + i) % self.players
            bot = adapt(factory(aec.game, s, Random(derive_seed(self._seed, "episode", k, "bot", s))))
            if isinstance(bot, LegacyBot):
                raise TapeteError(
                    f"{self.opponents[i]!r} is an old-contract bot that reads the whole deal; "
                    "the learning environment seats only bots that choose from a view"
                )
            self._bots[s] = bot
        self._done = False
        self._deal = None
        self._follow()

    def _follow(self) -> None:
        """A new deal began (the episode's first, or the next of a match): copy its start for the bots' views."""
        aec = self.aec
        deal = aec.deal
        if deal is self._deal or deal is None:
            return
        self._deal = deal
        match = aec.match
        if match is None:
            seats, ledger = list(range(self.players)), None
        else:
            seats, ledger = list(match.ledger.active), match.ledger.local()
        self._shadow = _Shadow(self, deal.state, seats, ledger)

    def _apply(self, slot: int, move: Action) -> float:
        """One step of the AEC environment; the learner's reward from it."""
        aec = self.aec
        assert self._shadow is not None
        self._shadow.moves.append(move)
        aec.step(slot)
        self._follow()
        return float(aec.rewards.get(self._agent, 0.0))

    def _ended(self) -> tuple[bool, bool]:
        aec, a = self.aec, self._agent
        terminated, truncated = bool(aec.terminations.get(a)), bool(aec.truncations.get(a))
        if terminated or truncated:
            self._done = True
        return terminated, truncated

    def _play_bots(self) -> float:
        """The bots' moves until the learner is to move or the episode ends; the learner's reward meanwhile."""
        aec, reward = self.aec, 0.0
        while True:
            terminated, truncated = self._ended()
            if terminated or truncated or aec.agent_selection == self._agent:
                break
            slot, move = self._opponent(aec.possible_agents.index(aec.agent_selection))
            reward += self._apply(slot, move)
        mask = np.zeros(self.slots, dtype=np.int8)
        if not self._done:
            mask[list(aec.legal_moves())] = 1
        self._mask = mask
        return reward

    def _opponent(self, seat: int) -> tuple[int, Action]:
        """The bot at match seat ``seat`` chooses, from its own view, among the moves the action space holds.

        A move the action space has no slot for (a signature its exploration never met, or a
        second move in one slot, docs/rl.md) cannot be played through the environment; when
        the bot's legal moves lose one that way, `reduced` counts the decision."""
        aec, bot = self.aec, self._bots[seat]
        assert aec.deal is not None and self._shadow is not None
        legal = aec.legal_moves()
        moves = list(legal.values())
        if len(moves) != len(aec.game.legal_actions(aec.deal.state)):
            self.reduced += 1
        view = self._shadow.view(seat) if observes(bot) else None
        choice = bot.choose(view, moves)
        for slot, move in legal.items():
            if move == choice:
                return slot, move
        raise IllegalAction(
            f"bot {self.opponents[(seat - self._learner - 1) % self.players]!r} at seat {seat} chose "
            f"{choice!r}, which is not one of its legal moves"
        )

    def _observe(self) -> np.ndarray:
        obs = self.aec.observe(self._agent)
        parts = [np.asarray(obs[k], dtype=np.float32).ravel() for k in self._keys]
        return parts[0].copy() if len(parts) == 1 else np.concatenate(parts)

    def _info(self) -> dict[str, Any]:
        return {"seat": self._learner}


env = LearnerEnv  # ``tapete.rl.env(...)``, as ``tapete.pettingzoo.env(...)``


# -- policies and their evaluation -------------------------------------------------------------
def random_policy(seed: int = 0) -> Policy:
    """Uniform among the legal slots: the baseline every learner is measured against."""
    rng = np.random.default_rng(seed)

    def choose(e: LearnerEnv, obs: np.ndarray) -> int:
        legal = np.flatnonzero(e.action_masks())
        return int(legal[rng.integers(len(legal))])

    return choose


def bot_policy(spec: str, seed: int = 0) -> Policy:
    """The game's bot ``spec`` at the learner's seat, choosing from the seat's view (to measure a learner by)."""
    built: dict[tuple[int, int], Any] = {}

    def choose(e: LearnerEnv, obs: np.ndarray) -> int:
        key = (e.episode_number, e.learner_seat)  # a fresh bot each episode, as the opponents get
        bot = built.get(key)
        if bot is None:
            built.clear()
            factory = e.aec.variant.record.bot(spec)
            bot = built[key] = adapt(factory(e.aec.game, e.learner_seat, Random(derive_seed(seed, *key))))
        legal = e.legal_moves()
        choice = bot.choose(e.view() if observes(bot) else None, list(legal.values()))
        return next(slot for slot, move in legal.items() if move == choice)

    return choose


def play(e: LearnerEnv, policy: Policy, episodes: int, seed: int = 0) -> list[float]:
    """The reward of each of ``episodes`` episodes of seed ``seed``'s sequence, ``policy`` at the learner's seat."""
    out: list[float] = []
    obs, _ = e.reset(seed=seed)
    for k in range(episodes):
        if k:
            obs, _ = e.reset()
        total, done = 0.0, False
        while not done:
            obs, reward, terminated, truncated, _ = e.step(policy(e, obs))
            total += reward
            done = terminated or truncated
        out.append(total)
    return out


@dataclass(frozen=True)
class Margin:
    """The mean of paired differences with its 95 % interval (normal approximation)."""

    mean: float
    low: float
    high: float
    n: int

    @property
    def confirmed(self) -> bool:
        """True when the whole interval lies above zero."""
        return self.low > 0.0

    def __str__(self) -> str:
        return f"{self.mean:+.3f} (95% interval {self.low:+.3f} to {self.high:+.3f}, {self.n} episodes)"


def margin(a: Sequence[float], b: Sequence[float]) -> Margin:
    """How much ``a`` beats ``b``, episode by episode (the same deals, seats and bots' dice: `play` on one seed).

    Pairing removes the luck of the deal that both sides share, so the interval is
    narrower than that of two independent win rates."""
    if len(a) != len(b) or len(a) < 2:
        raise ValueError("margin needs two equally long lists of at least two episodes")
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    mean = float(d.mean())
    half = 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d))
    return Margin(mean, mean - half, mean + half, len(d))
