"""Every variant as a PettingZoo AEC environment, for reinforcement learning.

``tapete.pettingzoo.env("chinchon/fournier", players=3, options={...})`` returns an
environment of PettingZoo's agent-iterator API (``AECEnv``). One episode is one deal;
agents are ``player_0`` ... by deal seat. Needs the ``rl`` extra (pettingzoo, numpy,
gymnasium). The observation and the action space are fixed per variant and player
count, built from the variant alone (no per-game code); docs/rl.md describes them field
by field. In short:

* **actions**: a move is a *signature* (its kind, its word, and whether it names no
  card, one card, or two or more) plus the cards it names. The signatures a variant uses
  are found by exploring a few seeded random deals when the environment is built; each
  gets a block of slots: 1 for no card, ``N`` for one card, ``N x N`` (first card x second
  card) for more (``N`` = deck size). ``capture 8♣ 2♥`` is slot
  ``offset(capture/2+) + 8♣ * N + 2♥``. When two legal moves fall in one slot (a move
  naming three or more cards that differ only after the second) the slot plays the first
  in the game's order; ``collisions`` counts such moments.
* **observation**: card planes over the deck, one per zone name found while exploring
  (1 where the seat sees the card or remembers it to be), zone sizes, public counters,
  then the match totals; per-seat zones and counters are rotated so the observer is
  always seat 0.
* **rewards**: when the deal ends, each agent gets its reward from the variant's rules,
  as the ``ismcts`` bot counts it (``reward="auto"``: ``won`` when the variant has that
  rule, else ``score``; or ``won``, ``score``, ``-score``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]

from .actions import Action
from .engine import Deal, Variant, load_variant
from .ledger import Ledger
from .rng import Random, derive_seed

EXPLORE_DEALS = 12
EXPLORE_ACTIONS = 4000
_SEAT_ZONE = re.compile(r"^(.*)\.(\d+)$")


class Layout:
    """The fixed action space and observation layout of one variant at one player count."""

    def __init__(self, variant: Variant, players: int, explore_seed: object = "layout"):
        self.variant, self.players = variant, players
        game = variant.new_game()
        self.deck_size = n = len(game.deck)
        signatures: set[tuple[str, str, int]] = set()
        zones: set[str] = set()
        counters: set[str] = set()
        rng = Random(explore_seed, "explore")
        actions = 0
        for k in range(EXPLORE_DEALS):
            deal = variant.new_deal(players, seed=derive_seed(explore_seed, k))
            deal.recorder = None
            while True:
                zones.update(deal.state.zones)
                counters.update(c for c in deal.state.counters if not c.startswith("_"))
                if deal.over or actions >= EXPLORE_ACTIONS * (k + 1) // EXPLORE_DEALS:
                    break
                legal = deal.legal_actions()
                for a in legal:
                    signatures.add(_signature(a))
                deal.play(legal[rng.below(len(legal))])
                actions += 1
        self.signatures = sorted(signatures)
        self.offsets: dict[tuple[str, str, int], int] = {}
        at = 0
        for sig in self.signatures:
            self.offsets[sig] = at
            at += (1, n, n * n)[sig[2]]
        self.size = at
        self.zones = sorted(zones, key=_zone_key)
        self.counters = sorted(counters, key=_zone_key)
        self.per_seat = {z for z in [*self.zones, *self.counters] if _seat_of(z, players) is not None}
        self.obs_size = len(self.zones) * n + len(self.zones) + len(self.counters) + 2 * players
        self._by_seat: dict[int, tuple[list[str], list[str]]] = {}

    def index(self, action: Action) -> int | None:
        """The slot of ``action``, or None when its signature was never met while exploring."""
        sig = _signature(action)
        base = self.offsets.get(sig)
        if base is None:
            return None
        if sig[2] == 0:
            return base
        if sig[2] == 1:
            return base + action.cards[0]
        return base + action.cards[0] * self.deck_size + action.cards[1]

    def describe(self, slot: int) -> str:
        """What a slot means, e.g. ``capture/2+ 8♣ 2♥`` (for people reading a policy)."""
        n, names = self.deck_size, self.variant.rules.deck.names
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

    def observe(self, deal: Deal, seat: int) -> np.ndarray:
        view = deal.view(seat)
        n, players = self.deck_size, self.players
        out = np.zeros(self.obs_size, dtype=np.float32)
        where: dict[str, list[int]] = {}
        for zone, shown in view.zones.items():
            where.setdefault(zone, []).extend(shown)
        for card, zone in view.known.items():
            where.setdefault(zone, []).append(card)
        zones, counters = self._names(seat)
        counts_at = len(zones) * n
        counts = view.counts
        for i, real in enumerate(zones):
            cards = where.get(real)
            if cards:
                out[[i * n + c for c in cards]] = 1.0
            out[counts_at + i] = counts.get(real, 0) / n
        at = counts_at + len(zones)
        values = view.counters
        for j, real in enumerate(counters):
            out[at + j] = float(values.get(real, 0))
        at += len(self.counters)
        for k in range(players):
            s = (seat + k) % players
            out[at + k] = float(view.totals[s]) if s < len(view.totals) else 0.0
            out[at + players + k] = float(view.deals_won[s]) if s < len(view.deals_won) else 0.0
        return out

    def _names(self, seat: int) -> tuple[list[str], list[str]]:
        """The zone and counter names of the observation, as seen from ``seat`` (cached)."""
        found = self._by_seat.get(seat)
        if found is None:
            found = self._by_seat[seat] = (
                [self._real(z, seat) for z in self.zones],
                [self._real(c, seat) for c in self.counters],
            )
        return found

    def _real(self, name: str, seat: int) -> str:
        """The zone or counter ``name`` (written as seen by seat 0) as seen by ``seat``."""
        if name not in self.per_seat:
            return name
        found = _SEAT_ZONE.match(name)
        assert found is not None
        return f"{found.group(1)}.{(int(found.group(2)) + seat) % self.players}"


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


_LAYOUTS: dict[tuple[str, int, str], Layout] = {}


class TapeteEnv(AECEnv):  # type: ignore[misc]
    """One deal per episode of a tapete variant (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "tapete_v0", "is_parallelizable": False}

    def __init__(
        self,
        variant: str | Variant,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        reward: str = "auto",
        render_mode: str | None = None,
    ):
        super().__init__()
        from .ismcts import ISMCTSBot

        v = variant if isinstance(variant, Variant) else load_variant(str(variant), options=dict(options or {}))
        self.variant = v
        self.players = v.default_players() if players is None else players
        v.check_players(self.players)
        key = (v.name + repr(sorted(v.options.items())), self.players, v.digest)
        layout = _LAYOUTS.get(key)
        if layout is None:
            layout = _LAYOUTS[key] = Layout(v, self.players)
        self.layout = layout
        self.game = v.new_game()
        self._judge = ISMCTSBot(self.game, 0, Random(0), iterations=1, reward=reward)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(self.players)]
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (layout.obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (layout.size,), np.int8),
            }
        )
        self._act_space = spaces.Discrete(layout.size)
        self._seed: int = 0
        self._episode = 0
        self.collisions = 0
        self.deal: Deal | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    # -- episodes ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed, self._episode = int(seed), 0
        self.deal = self.variant.new_deal(self.players, seed=derive_seed(self._seed, "episode", self._episode))
        self._episode += 1
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._legal: dict[int, Action] = {}
        self.agent_selection = self.agents[self.deal.to_move]
        self._refresh_legal()

    def _refresh_legal(self) -> None:
        assert self.deal is not None
        self._legal = {}
        if self.deal.over:
            return
        for action in self.deal.legal_actions():
            slot = self.layout.index(action)
            if slot is None:
                continue
            if slot in self._legal:
                self.collisions += 1
                continue
            self._legal[slot] = action

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.deal is not None
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.layout.size, dtype=np.int8)
        if agent == self.agent_selection and not self.deal.over:
            mask[list(self._legal)] = 1
        return {"observation": self.layout.observe(self.deal, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.deal is not None and action is not None
        move = self._legal.get(int(action))
        if move is None:
            raise ValueError(f"action {action} ({self.layout.describe(int(action))}) is not legal now")
        self._cumulative_rewards[agent] = 0.0
        self.deal.play(move)
        if self.deal.over:
            ledger = Ledger(self.players)
            values = self._judge.evaluate(self.deal.state, ledger)
            for s, a in enumerate(self.agents):
                self.rewards[a] = float(values[s])
                self.terminations[a] = True
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self.agent_selection = self.agents[self.deal.to_move]
            self._refresh_legal()
        self._accumulate_rewards()

    def legal_moves(self) -> dict[int, Action]:
        """Slot -> move for the agent to move now."""
        return dict(self._legal)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.deal is None:
            return None
        return repr(self.deal.view(self.deal.to_move))

    def close(self) -> None:
        pass


def env(
    variant: str | Variant,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    reward: str = "auto",
    render_mode: str | None = None,
) -> TapeteEnv:
    """A PettingZoo AEC environment of ``variant`` (one deal per episode)."""
    return TapeteEnv(variant, players, options, reward, render_mode)
