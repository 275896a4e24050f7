"""Every variant as a PettingZoo AEC environment, for reinforcement learning.

``tapete.pettingzoo.env("chinchon/fournier", players=3, options={...})`` returns an
environment of PettingZoo's agent-iterator API (``AECEnv``). Agents are ``player_0`` ...
by seat. Needs the ``rl`` extra (pettingzoo, numpy, gymnasium). The observation and the
action space are fixed per variant and player count, built from the variant alone (no
per-game code); docs/rl.md describes them field by field. In short:

* **episodes**: ``episode="deal"`` (the default) plays one deal per episode;
  ``episode="match"`` plays a whole match, deal after deal under the variant's match rules
  (targets, elimination, series), through the same `Match` steps the match loop takes.
* **actions**: one slot per move there can be, numbered from what the family declares
  (`Game.move_kinds`): each kind of move with no card gets 1 slot (``pass``, ``draw
  stock``), one that names a card one slot per card it may name (``play 7♦``), one that
  names a card and a set of further cards one slot per card and set (``capture 8♣ 2♥``,
  Scopa's ``capture K♦ 3♠ 7♣``: collision-free, exact). So the action space is complete by
  construction, whatever random play happens to reach. A family that declares nothing gets
  today's exploration of a few seeded random deals instead: a *signature* (kind, word, no
  card / one card / two or more) per move met, with 1, ``N`` or ``N x N`` slots (``N`` =
  deck size); a legal move met later without a slot is left out of the mask and counted
  (``dropped``), and two legal moves in one slot keep the first (``collisions``); the
  step's ``info`` reports both when they happen.
* **observation**: card planes over the deck, one per zone name found while exploring
  (1 where the seat sees the card or remembers it to be), zone sizes, public counters,
  then the match totals; per-seat zones and counters are rotated so the observer is
  always seat 0. It holds exactly what the seat's `View` holds in those fields:
  `Layout.observe_view` builds it from a view, and the environment's fast path
  (`Layout.observe_seat`, from the visibility rules and the seat's memory, the same
  ones views are made of) gives the same array, which the tests check move by move.
* **history** (``history=k``): the seat's last k events of the deal as it saw them (its
  `View`'s history, made by the `Recorder` from what the `Observer` shows it), one fixed
  block per event after the rest of the observation: what kind of event, who moved
  (rotated), the kind of move, the cards it named, moved and revealed to the seat, and how
  many cards left and entered each zone (docs/rl.md, The history planes).
* **rewards**: per deal, when the deal ends, from the variant's rules as the ``ismcts``
  bot counts them (``reward="auto"``: ``won`` when the variant has that rule, else
  ``score``; or ``won``, ``score``, ``-score``); per match, when the match ends: 1 to the
  match winner and 0 to everyone else (``auto``/``won``), or the final totals
  (``score``, ``-score``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]

from .core.actions import Action
from .core.cards import Deck
from .core.errors import TapeteError
from .core.inputs import InputError, as_whole, choice, count, declare
from .core.ledger import Ledger
from .core.limits import number_text
from .core.rng import Random, derive_seed
from .core.state import DealState
from .game import Game, MoveKind
from .play.deal import Deal
from .play.loading import Variant, load_variant
from .play.match import MAX_ACTIONS_PER_DEAL, Match, MatchResult
from .play.rewards import REWARDS, DealRewards
from .view import Event, Observer, Recorder, View, observer, public

_planes = Observer.planes  # bound once: it runs for every observation

MAX_HISTORY = 1000  # events of the history planes at most
EXPLORE_DEALS = 12
EXPLORE_ACTIONS = 4000
EPISODES = ("deal", "match")
_SEAT_ZONE = re.compile(r"^(.*)\.(\d+)$")
_EVENT_KINDS = {"deal": 0, "action": 1, "reveal": 2}  # the first field of an event of the history planes
_SLOT_CACHE = 200_000  # moves remembered with their slot (a fishing game's captures are many)


class _Plan(NamedTuple):
    """How one seat reads the state for its observation, at one player count, live or at the end."""

    zones: list[tuple[str, str, int]]  # (zone name in the state, how the seat sees it (`Observer.mode`), plane offset)
    plane: dict[str, int]  # zone name in the state -> plane offset
    counters: list[str]  # counter names in the state, in observation order
    names: frozenset[str]  # the zones of the plan


class _Declared:
    """The action space of a family that declares its moves (`Game.move_kinds`): every move has its slot."""

    def __init__(self, kinds: list[MoveKind], deck: Deck):
        self.deck = deck
        self.exact: dict[tuple[str, str, tuple[int, ...]], int] = {}
        self.whole: dict[tuple[str, str, int], int] = {}
        self.meaning: list[tuple[str, str, tuple[int, ...], bool]] = []  # kind, detail, cards, whole
        for k in kinds:
            if k.cards is None:
                self._add(k.kind, k.detail, (), False)
                continue
            for c in sorted(k.cards):
                if k.takes is None:
                    self._add(k.kind, k.detail, (c,), False)
                    continue
                for taken in sorted(tuple(sorted(t)) for t in k.takes.get(c, ())):
                    self._add(k.kind, k.detail, (c, *taken), False)
            for c in sorted(k.whole):
                self._add(k.kind, k.detail, (c,), True)
        self.size = len(self.meaning)

    def _add(self, kind: str, detail: str, cards: tuple[int, ...], whole: bool) -> None:
        key = (kind, detail, cards[0]) if whole else (kind, detail, cards)
        table: dict[Any, int] = self.whole if whole else self.exact
        if key in table:
            text = Action(kind, cards, detail).text(self.deck)
            raise TapeteError(f"the family declares the move {text!r}{' (whole)' if whole else ''} twice (move_kinds)")
        table[key] = len(self.meaning)
        self.meaning.append((kind, detail, cards, whole))

    def index(self, action: Action) -> int | None:
        cards = action.cards
        key = cards if len(cards) < 3 else (cards[0], *sorted(cards[1:]))  # the further cards are a set
        slot = self.exact.get((action.kind, action.detail, key))
        if slot is None and len(cards) > 1:
            slot = self.whole.get((action.kind, action.detail, cards[0]))
        return slot

    def blocks(self) -> list[tuple[str, int]]:
        blocks: dict[str, int] = {}
        for kind, detail, _cards, _whole in self.meaning:
            label = " ".join(w for w in (kind, detail) if w)
            blocks[label] = blocks.get(label, 0) + 1
        return list(blocks.items())

    def describe(self, slot: int) -> str:
        kind, detail, cards, whole = self.meaning[slot]
        text = Action(kind, cards, detail).text(self.deck)
        return f"{text} ..." if whole else text


class _Explored:
    """The action space of a family that declares no moves: signatures met while exploring random deals."""

    def __init__(self, signatures: set[tuple[str, str, int]], deck: Deck):
        self.deck, n = deck, len(deck)
        self.signatures = sorted(signatures)
        self.offsets: dict[tuple[str, str, int], int] = {}
        at = 0
        for sig in self.signatures:
            self.offsets[sig] = at
            at += (1, n, n * n)[sig[2]]
        self.size = at

    def index(self, action: Action) -> int | None:
        sig = _signature(action)
        base = self.offsets.get(sig)
        if base is None:
            return None
        if sig[2] == 0:
            return base
        if sig[2] == 1:
            return base + action.cards[0]
        return base + action.cards[0] * len(self.deck) + action.cards[1]

    def blocks(self) -> list[tuple[str, int]]:
        n = len(self.deck)
        return [(" ".join(w for w in (k, d) if w), (1, n, n * n)[a]) for k, d, a in self.signatures]

    def describe(self, slot: int) -> str:
        n, names = len(self.deck), self.deck.names
        for sig in reversed(self.signatures):
            base = self.offsets[sig]
            if slot >= base:
                kind = " ".join(w for w in (sig[0], sig[1]) if w)
                rel = slot - base
                if sig[2] == 0:
                    return kind
                if sig[2] == 1:
                    return f"{kind} {names[rel]}"
                return f"{kind} {names[rel // n]} {names[rel % n]} ..."
        raise IndexError(slot)


class Layout:
    """The fixed action space and observation layout of one variant at one player count."""

    def __init__(self, variant: Variant, players: int, explore_seed: object = "layout", history: int = 0):
        self.variant, self.players = variant, players
        self.game = game = variant.new_game()
        self.deck_size = n = len(game.deck)
        kinds = game.move_kinds()
        self.explored = kinds is None  # the family declares no moves: the slots come from exploring
        signatures: set[tuple[str, str, int]] = set()
        zones: set[str] = set()
        counters: set[str] = set()
        rng = Random(explore_seed, "explore")
        actions = 0
        for k in range(EXPLORE_DEALS):
            deal = variant.new_deal(players, seed=derive_seed(explore_seed, k), record=False)
            state = deal.state  # read, never changed here: the deal's moves keep it up to date
            while True:
                zones.update(state.zones)
                counters.update(public(state.counters))
                if deal.over or actions >= EXPLORE_ACTIONS * (k + 1) // EXPLORE_DEALS:
                    break
                legal = deal.legal_actions()
                if self.explored:
                    signatures.update(_signature(a) for a in legal)
                deal.play(legal[rng.below(len(legal))])
                actions += 1
        self.actions: _Declared | _Explored = (
            _Explored(signatures, game.deck) if kinds is None else _Declared(kinds, game.deck)
        )
        self.size = self.actions.size
        self.zones = sorted(zones, key=_zone_key)
        self.counters = sorted(counters, key=_zone_key)
        self.per_seat = {z for z in [*self.zones, *self.counters] if _seat_of(z, players) is not None}
        self.counts_at = len(self.zones) * n  # where the zone sizes start; card planes come before
        self.history_at = self.counts_at + len(self.zones) + len(self.counters) + 2 * players
        # The history planes (``history=k``): per event, what kind of event, who moved, what kind of
        # move, the cards it named, moved, revealed, and how many cards left and entered each zone.
        self.history = history
        self.action_kinds = list(dict.fromkeys((kind, detail) for kind, detail, _n in self._kinds()))
        z = len(self.zones)
        self._event_parts = {
            "event": 3,
            "mover": players,
            "kind": len(self.action_kinds) + 1,
            "named": n,
            "moved": n,
            "revealed": n,
            "from": z,
            "to": z,
        }
        self.event_size = sum(self._event_parts.values())
        self.obs_size = self.history_at + history * self.event_size
        self._plans: dict[tuple[int, int, bool], _Plan] = {}
        self._slots: dict[Action, int | None] = {}

    def _kinds(self) -> list[tuple[str, str, int]]:
        """(kind, word, slots) of each block of the action space, in slot order."""
        actions = self.actions
        if isinstance(actions, _Explored):
            return [(k, d, 0) for k, d, _a in actions.signatures]
        return [(kind, detail, 0) for kind, detail, _cards, _whole in actions.meaning]

    def event_fields(self) -> list[tuple[str, int]]:
        """The fields of one event of the history planes, in order, with their lengths (docs/rl.md)."""
        return list(self._event_parts.items())

    # -- actions -----------------------------------------------------------------------------
    def index(self, action: Action) -> int | None:
        """The slot of ``action``; None when it has none (only where the family declares no moves)."""
        found = self._slots.get(action, -1)
        if found != -1:
            return found
        slot = self.actions.index(action)
        if len(self._slots) >= _SLOT_CACHE:
            self._slots.clear()
        self._slots[action] = slot
        return slot

    def blocks(self) -> list[tuple[str, int]]:
        """How many slots each kind of move has, in slot order: ``[("pass", 1), ("play", 52)]``."""
        return self.actions.blocks()

    def describe(self, slot: int) -> str:
        """What a slot means, e.g. ``capture 8♣ 2♥`` (for people reading a policy)."""
        if not 0 <= slot < self.size:
            raise IndexError(slot)
        return self.actions.describe(slot)

    # -- observations --------------------------------------------------------------------------
    def observe_view(self, view: View) -> np.ndarray:
        """The observation of a seat, from its `View` (the reference `observe_seat` agrees with)."""
        n, players, seat = self.deck_size, view.players, view.seat
        out = np.zeros(self.obs_size, dtype=np.float32)
        where: dict[str, list[int]] = {}
        for zone, seen in view.zones.items():
            where.setdefault(zone, []).extend(seen)
        for card, zone in view.known.items():
            where.setdefault(zone, []).append(card)
        plan = self._plan(seat, players, False)
        counts = view.counts
        for i, (real, _mode, _base) in enumerate(plan.zones):
            cards = where.get(real)
            if cards:
                out[[i * n + c for c in cards]] = 1.0
            out[self.counts_at + i] = counts.get(real, 0) / n
        at = self.counts_at + len(self.zones)
        values = view.counters
        for j, real in enumerate(plan.counters):
            out[at + j] = float(values.get(real, 0))
        at += len(self.counters)
        for k in range(min(players, self.players)):
            s = (seat + k) % players
            out[at + k] = float(view.totals[s])
            out[at + self.players + k] = float(view.deals_won[s])
        if self.history:
            self._history_planes(out, view.history, seat, players, view.over)
        return out

    def _history_planes(self, out: np.ndarray, events: Sequence[Event], seat: int, players: int, over: bool) -> None:
        """Write the last `history` of ``events`` (the seat's own, as the `Recorder` made them from what
        the `Observer` showed it) into ``out``, the latest first; fewer events leave zeros."""
        n, size, parts = self.deck_size, self.event_size, self._event_parts
        index = {real: base // n for real, _mode, base in self._plan(seat, players, over).zones if real}
        kinds = {k: i for i, k in enumerate(self.action_kinds)}
        other = len(self.action_kinds)
        first = len(events) - 1
        for j in range(min(self.history, len(events))):
            e = events[first - j]
            at = self.history_at + j * size
            out[at + _EVENT_KINDS.get(e.kind, 1)] = 1.0
            at += parts["event"]
            if e.seat is not None:
                out[at + (e.seat - seat) % players] = 1.0
            at += parts["mover"]
            if e.action is not None:
                out[at + kinds.get((e.action.kind, e.action.detail), other)] = 1.0
                at += parts["kind"]
                out[[at + c for c in e.action.cards]] = 1.0
            else:
                at += parts["kind"]
            at += n
            out[[at + m.card for m in e.moves if m.card is not None]] = 1.0
            at += n
            out[[at + c for c in e.revealed]] = 1.0
            at += n
            for m in e.moves:
                source, target = index.get(m.source), index.get(m.target)
                if source is not None:
                    out[at + source] += 1.0 / n
                if target is not None:
                    out[at + parts["from"] + target] += 1.0 / n

    def observe_seat(
        self,
        state: DealState,
        seat: int,
        pins: Mapping[int, str],
        ledger: Ledger | None,
        events: Sequence[Event] = (),
    ) -> np.ndarray:
        """The observation of ``seat``: what the visibility rules show it now, plus its memory ``pins``.

        The same array as `observe_view` of the seat's view, without building the view:
        the zones are read by the game's `Observer` (`Observer.planes`, with the seat's modes
        kept in the plan), and a card outside what it sees now enters only through ``pins``
        (where the seat last knew it to be, `Recorder.pins`). The history planes come from
        ``events``, the seat's own history (`Recorder.events`), as a view's do."""
        n = self.deck_size
        plan = self._plan(seat, state.players, state.over)
        zones = state.zones
        hot, tail, visible = _planes(zones, plan.zones, n)
        if not plan.names.issuperset(zones):  # a zone the layout has no plane for can still hide a memory
            see = observer(self.game)
            for name in zones.keys() - plan.names:
                visible.update(see.cards(state, name, seat))
        plane = plan.plane
        for c, z in pins.items():
            if c not in visible:
                at = plane.get(z)
                if at is not None:
                    hot.append(at + c)
        counters = state.counters
        tail.extend([float(counters.get(real, 0)) for real in plan.counters])
        p, big = state.players, self.players
        if ledger is None:
            tail.extend([0.0] * (2 * big))
        else:
            order = [(seat + k) % p for k in range(min(p, big))]
            pad = [0.0] * (big - len(order))
            tail.extend([float(ledger.totals[s]) for s in order] + pad)
            tail.extend([float(ledger.deals_won[s]) for s in order] + pad)
        out = np.zeros(self.obs_size, dtype=np.float32)
        out.put(hot, 1.0)  # one bulk write for the planes, one for the rest
        out[self.counts_at : self.history_at] = tail
        if self.history:
            self._history_planes(out, events, seat, state.players, state.over)
        return out

    def _plan(self, seat: int, players: int, over: bool) -> _Plan:
        """The zone and counter names of the observation as seen from ``seat`` of a deal of ``players`` (cached)."""
        key = (seat, players, over)
        found = self._plans.get(key)
        if found is None:
            n, see = self.deck_size, observer(self.game)
            zones = []
            for i, z in enumerate(self.zones):
                real = self._real(z, seat, players)
                zones.append((real, see.mode(real, seat, over), i * n))
            plane = {real: base for real, _mode, base in zones if real}
            counters = [self._real(c, seat, players) for c in self.counters]
            found = self._plans[key] = _Plan(zones, plane, counters, frozenset(plane))
        return found

    def _real(self, name: str, seat: int, players: int) -> str:
        """The zone or counter ``name`` (written as seen by seat 0) as seen by ``seat`` ("" if no such seat)."""
        if name not in self.per_seat:
            return name
        found = _SEAT_ZONE.match(name)
        assert found is not None
        k = int(found.group(2))
        return f"{found.group(1)}.{(k + seat) % players}" if k < players else ""


def _signature(action: Action) -> tuple[str, str, int]:
    return (action.kind, action.detail, min(len(action.cards), 2))


def _seat_of(name: str, players: int) -> int | None:
    found = _SEAT_ZONE.match(name)
    if found is None or int(found.group(2)) >= players:
        return None
    return int(found.group(2))


def _zone_key(name: str) -> tuple[str, int]:
    found = _SEAT_ZONE.match(name)
    return (found.group(1), int(found.group(2))) if found else (name, -1)


def _ignore(event: dict[str, Any]) -> None:
    """The match's events, which an environment does not log."""


_LAYOUTS: dict[tuple[str, int, str, int], Layout] = {}


# which reader each argument of the environment goes through (tapete.core.inputs; the inventory reads it)
ENV_INPUTS = {
    "variant": "variant",
    "players": "count",
    "options": "options",
    "reward": "choice",
    "render_mode": "choice",
    "episode": "choice",
    "history": "count",
}


class TapeteEnv(AECEnv):  # type: ignore[misc]
    """One deal, or one match, per episode of a tapete variant (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "tapete_v0", "is_parallelizable": False}

    @declare(**ENV_INPUTS)
    def __init__(
        self,
        variant: str | Variant,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        reward: str = "auto",
        render_mode: str | None = None,
        episode: str = "deal",
        history: int = 0,
    ):
        super().__init__()
        history = count(history, "history", low=0, high=MAX_HISTORY)  # events of the deal
        choice(episode, "episode", EPISODES)
        choice(reward, "reward", REWARDS)
        choice(render_mode, "render_mode", (None, "ansi"))
        v = variant if isinstance(variant, Variant) else load_variant(str(variant), options=dict(options or {}))
        self.variant = v
        v.check_players(v.default_players() if players is None else players)
        self.players = int(v.default_players() if players is None else players)
        key = (v.name + repr(sorted(v.options.items())), self.players, v.digest, history)
        layout = _LAYOUTS.get(key)
        if layout is None:
            layout = _LAYOUTS[key] = Layout(v, self.players, history=history)
        self.layout = layout
        self.game: Game = v.new_game()
        self.episode = episode
        self.reward = reward
        # Per deal, the ismcts bot's reading of the rules is the reward; per match, the result is.
        self._judge = DealRewards(self.game, reward) if episode == "deal" else None
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(self.players)]
        self._seat_of_agent = {a: s for s, a in enumerate(self.possible_agents)}
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (layout.obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (layout.size,), np.int8),
            }
        )
        self._act_space = spaces.Discrete(layout.size)
        self._seed: int = 0
        self._episode = 0
        self.collisions = 0  # legal moves left out because an earlier one had their slot
        self.dropped = 0  # legal moves left out because they had no slot (a family that declares no moves)
        self.deal: Deal | None = None
        self.match: Match | None = None
        self.result: MatchResult | None = None
        self._recorder: Recorder | None = None
        self._local: Ledger | None = None
        self._seats: list[int] = []
        self._deal_seat: dict[int, int] = {}
        self._history: list[dict[str, Any]] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        self._agent(agent)
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        self._agent(agent)
        return self._act_space

    def _agent(self, agent: object) -> str:
        """``agent`` when it is one of this environment's agents; a tapete error naming them otherwise."""
        if not isinstance(agent, str) or agent not in self._seat_of_agent:
            raise InputError(
                f"{agent!r:.60} is not an agent of this environment; its agents: {', '.join(self.possible_agents)}"
            )
        return agent

    def _started(self, call: str) -> None:
        """A call that needs an episode, refused (not an AttributeError) before the first `reset`."""
        if self.deal is None:
            raise TapeteError(f"{call} needs an episode: call reset() first")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()``, refused by a tapete error before `reset` and once every agent is done."""
        self._started("last()")
        if not self.agents:
            raise TapeteError("the episode is over and every agent is done: call reset() for the next one")
        result: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
        return result

    # -- episodes ---------------------------------------------------------------------------
    @declare(seed="count")
    def seed(self, seed: int | None = None) -> None:
        """The older PettingZoo call: the next `reset` starts the episode sequence of ``seed``,
        and ``action_space(agent).sample()`` draws from ``seed`` too (one space is shared by all agents)."""
        self._seed, self._episode = (0 if seed is None else _episode_seed(seed)), 0
        self._act_space.seed(self._seed)

    @declare(seed="count", options="object")
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed, self._episode = _episode_seed(seed), 0
        episode_seed = derive_seed(self._seed, "episode", self._episode)
        self._episode += 1
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.result = None
        if self.episode == "deal":
            self.match = None
            deal = self.variant.new_deal(self.players, seed=episode_seed, record=False)
            self._start(deal.state, list(range(self.players)), None)
        else:
            self.match = Match(self.variant, self.players, episode_seed, bots=["random"])
            self._history = []
            self._start(*self.match.next_deal(_ignore))

    def _start(self, state: DealState, seats: list[int], local: Ledger | None) -> None:
        """Begin playing ``state``, whose seat i is match seat ``seats[i]``."""
        v = self.variant
        self.deal = Deal(v, self.game, state, record=False)
        self._recorder = self.deal.recorder = Recorder(
            self.game, state, None, local, v.options, history=self.layout.history > 0
        )
        self._local = local
        self._seats = seats
        self._deal_seat = {s: i for i, s in enumerate(seats)}
        self.agent_selection = self.possible_agents[seats[state.to_move]]
        self._actions = 0
        self._refresh_legal()

    def _refresh_legal(self) -> None:
        """The slots of the legal moves now; moves left out of the mask are counted and told in ``info``."""
        assert self.deal is not None
        state = self.deal.state
        self._legal: dict[int, Action] = {}
        if state.over:
            return
        index, legal = self.layout.index, self._legal
        dropped = shared = 0
        for action in self.game.legal_actions(state):
            slot = index(action)
            if slot is None:
                dropped += 1
            elif slot in legal:
                shared += 1
            else:
                legal[slot] = action
        info = self.infos[self.agent_selection]
        for key, n in (("dropped", dropped), ("collisions", shared)):
            if n:
                info[key] = n  # legal moves the agent cannot choose now
            else:
                info.pop(key, None)
        self.dropped += dropped
        self.collisions += shared

    @declare(agent="choice")
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._agent(agent)
        self._started("observe()")
        assert self.deal is not None and self._recorder is not None
        state = self.deal.state
        mask = np.zeros(self.layout.size, dtype=np.int8)
        seat = self._deal_seat.get(self._seat_of_agent[agent])
        if seat is None:  # out of the match: it sees nothing of the deals it no longer plays
            return {"observation": np.zeros(self.layout.obs_size, dtype=np.float32), "action_mask": mask}
        if agent == self.agent_selection and self._legal:
            mask[list(self._legal)] = 1
        recorder = self._recorder
        pins = recorder.pins(seat)
        events = recorder.events(seat) if self.layout.history else ()
        return {"observation": self.layout.observe_seat(state, seat, pins, self._local, events), "action_mask": mask}

    @declare(action="count")
    def step(self, action: int | None) -> None:
        self._started("step()")
        if not self.agents:
            raise TapeteError("the episode is over and every agent is done: call reset() for the next one")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.deal is not None and self._recorder is not None
        slot = self._slot(action)
        move = self._legal.get(slot)
        if move is None:
            raise ValueError(f"action {slot} ({self.layout.describe(slot)}) is not legal now")
        self._cumulative_rewards[agent] = 0.0
        state, recorder = self.deal.state, self._recorder
        recorder.apply(state, move)  # a move of the legal list needs no refusal check
        for a in self.agents:
            self.rewards[a] = 0.0
        self._actions += 1
        if not state.over and self._actions > MAX_ACTIONS_PER_DEAL:
            # the match loop's runaway guard: a deal the game never ends is cut short, not played for ever
            self._legal = {}
            self._truncate(f"the deal did not end within {MAX_ACTIONS_PER_DEAL} actions")
        elif not state.over:
            self.agent_selection = self.possible_agents[self._seats[state.to_move]]
            self._refresh_legal()
        elif self.match is None:
            self._legal = {}
            assert self._judge is not None
            values = self._judge.every_seat(state, Ledger(self.players))
            self._end([float(v) for v in values])
        else:
            self._legal = {}
            self._deal_over(state)
        self._accumulate_rewards()

    def _slot(self, action: object) -> int:
        """``action`` as a slot of the action space; ValueError saying why it is none (nothing changes)."""
        size = self.layout.size
        if action is None:
            raise ValueError(f"{self.agent_selection} is to move: step(None) is only for an agent that is done")
        slot = as_whole(action)  # numpy's integers are slots too; 1.7, 2.0 and True are not
        if slot is None:
            raise ValueError(f"an action is a slot number, an int from 0 to {size - 1}, not {action!r:.60}")
        if not 0 <= slot < size:
            raise ValueError(f"action {number_text(slot)} is not a slot: the action space has slots 0 to {size - 1}")
        return slot

    def _deal_over(self, state: DealState) -> None:
        """A deal of a match episode ended: score it; start the next deal, or end the episode."""
        match = self.match
        assert match is not None and self._local is not None
        try:
            winner = match.deal_ended(state, self._seats, self._local, self._history, _ignore)
            if winner is None:
                self._start(*match.next_deal(_ignore))
                return
        except TapeteError as exc:  # the rules give the match no end (a stalled deal with 'stall = error')
            self._truncate(str(exc))
            return
        self.result = result = match.finish(winner, self._history, _ignore)
        if self.reward in ("auto", "won"):
            self._end([1.0 if s == result.winner else 0.0 for s in range(self.players)])
        else:
            sign = -1.0 if self.reward == "-score" else 1.0
            self._end([sign * float(t) for t in result.totals])

    def _truncate(self, why: str) -> None:
        """The episode stops outside the rules: every agent is truncated, with no reward, and told why."""
        for a in self.agents:
            self.truncations[a] = True
            self.infos[a] = {"truncated": why}

    def _end(self, values: list[float]) -> None:
        """The episode is over: every agent gets its reward (by match seat) and terminates."""
        for s, a in enumerate(self.possible_agents):
            if a in self.rewards:
                self.rewards[a] = values[s]
                self.terminations[a] = True

    def legal_moves(self) -> dict[int, Action]:
        """Slot -> move for the agent to move now."""
        return dict(self._legal)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.deal is None:
            return None
        return repr(self.deal.view(self.deal.to_move))

    def close(self) -> None:
        pass


def _episode_seed(seed: object) -> int:
    """A seed of ``reset``/``seed``: a whole number (numpy's too), as Gymnasium takes it; 1.5 and nan are refused."""
    return count(seed, "seed", low=-(2**63), high=2**64 - 1)


@declare(**ENV_INPUTS)
def env(
    variant: str | Variant,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    reward: str = "auto",
    render_mode: str | None = None,
    episode: str = "deal",
    history: int = 0,
) -> TapeteEnv:
    """A PettingZoo AEC environment of ``variant``: one deal per episode, or one match (``episode="match"``);
    ``history=k`` adds the seat's last k events of the deal to the observation (docs/rl.md)."""
    return TapeteEnv(variant, players, options, reward, render_mode, episode, history)
