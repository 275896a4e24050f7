"""The live tables: one match each, played a step at a time, the only place the cards are.

A web table is a `Match` driven from outside its ``play`` loop (the match's public
steps ``next_deal``, ``deal_ended`` and ``finish``): people's moves arrive from
their connections, bots are asked when their seat is to move, and every change is
one numbered *step* (a move, or the start of the next deal). The step list is the
table's whole story: stored before a step is acknowledged, it rebuilds the table
exactly after a restart, since every deal's cards come from the match seed and the
deal number, and the bots' dice are stored with their moves.

Nothing here knows about sockets or the database; `tapete.web.app` carries steps
between connections, this module and the store. Every seat is handed its `View`
(the same object a bot at that seat would get), and what a connection is sent is
built from that view alone (`tapete.web.messages`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..bots import LegacyBot, observes
from ..core.actions import Action
from ..core.errors import TapeteError
from ..core.ledger import Ledger
from ..core.rng import Random, derive_seed
from ..core.state import DealState
from ..game import Game
from ..play.loading import Variant
from ..play.match import MAX_ACTIONS_PER_DEAL, Match, MatchResult
from ..view import Recorder, View, observer

PERSON = "person"
SPECTATOR = -1  # the seat number of the public view: what every seat sees

# Phases of a table.
PLAY = "play"  # a deal is in play
DEAL_OVER = "deal-over"  # every card is shown; the next deal starts when the people at the table are ready
MATCH_OVER = "match-over"
BROKEN = "broken"  # a bot or the game failed; the reason is kept and shown
CLOSED = "closed"  # the server closed it: nobody came back to it for --expire-after hours (its record is kept)
OVER = (MATCH_OVER, BROKEN, CLOSED)  # phases a table never leaves: its seed and salt may be shown


@dataclass(frozen=True)
class SeatPlan:
    """Who sits at a seat: a person (``bot`` empty) or a registered bot, with its parameters."""

    bot: str = ""

    @property
    def person(self) -> bool:
        return not self.bot

    def to_json(self) -> dict[str, str]:
        return {"kind": PERSON} if self.person else {"kind": "bot", "bot": self.bot}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> SeatPlan:
        return cls("" if obj.get("kind") == PERSON else str(obj["bot"]))


@dataclass
class TableConfig:
    """How a table was created; with the steps, everything needed to rebuild it."""

    variant: str
    options: dict[str, str]  # as typed in the lobby, read by the parser of ``--option``
    players: int
    seed: str
    seats: list[SeatPlan]
    salt: str = ""  # mixed into the seed's commitment (tapete.web.fairness); shown with the seed at the end
    away_after: float = 60.0  # seconds a person may be gone while the table waits for them (0: wait for ever)
    clock: float = 0.0  # seconds a person has for each move before the stand-in plays it (0: no clock)
    pace: float = 0.5  # seconds between two bot moves, so that people can follow them

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "options": dict(self.options),
            "players": self.players,
            "seed": self.seed,
            "seats": [s.to_json() for s in self.seats],
            "salt": self.salt,
            "away_after": self.away_after,
            "clock": self.clock,
            "pace": self.pace,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> TableConfig:
        return cls(
            variant=str(obj["variant"]),
            options={str(k): str(v) for k, v in dict(obj["options"]).items()},
            players=int(obj["players"]),
            seed=str(obj["seed"]),
            seats=[SeatPlan.from_json(s) for s in obj["seats"]],
            salt=str(obj.get("salt", "")),
            away_after=float(obj.get("away_after", 60.0)),
            clock=float(obj.get("clock", 0.0)),
            pace=float(obj.get("pace", 0.5)),
        )


# Who made a step.
BY_PERSON = "person"
BY_BOT = "bot"
BY_STAND_IN = "stand-in"  # the seat's default bot, for a person who is away
BY_CLOCK = "clock"  # the stand-in again, because the person's time for the move ran out
BY_TABLE = "table"  # the next deal, when everyone was ready
BY_LATE = "late"  # the quick stand-in (random), because the seat's bot was not back by --bot-deadline


@dataclass(frozen=True)
class Step:
    """One change to a table. ``seq`` is the table's sequence number the step answered."""

    seq: int
    kind: str  # "move" or "next"
    seat: int  # the match seat that moved (-1 for "next")
    move: str  # the action as text ("play 7♥"); "" for "next"
    by: str
    rng: list[int] | None = None  # the dice of the agent that moved, after the move


class Refusal(TapeteError):
    """A message that changes nothing, with a code a client can act on and words a person reads."""

    def __init__(self, code: str, message: str, seq: int | None = None):
        super().__init__(message)
        self.code, self.message, self.seq = code, message, seq


class PersonSeat:
    """The agent of a person's seat inside the match: moves come from outside, never from here."""

    observes = True

    def choose(self, view: View | None, legal: list[Action]) -> Action:  # pragma: no cover - never asked
        raise TapeteError("a person's seat is never asked by the engine")


def new_seed() -> str:
    """An unguessable match seed: nobody can work out the deals from the table's link or number."""
    return secrets.token_hex(16)


def new_salt() -> str:
    """The salt of a table's commitment (tapete.web.fairness): 128 bits of the system's randomness."""
    return secrets.token_hex(16)


@dataclass
class SeatStatus:
    """What the table shows of a seat besides its cards: who plays it, whether they are here."""

    person: bool
    bot: str
    connections: int = 0
    away: bool = False  # the person left and the stand-in plays for them
    ready: bool = False  # pressed "next deal"


class LiveTable:
    """One match in progress; every change is a `Step` (see the module docstring)."""

    def __init__(
        self,
        table_id: str,
        config: TableConfig,
        variant: Variant,
        stand_in: str | None = None,
        resolve: Callable[[str], str] | None = None,
    ):
        """``resolve`` turns a stored bot spec into the one its bot is built from (a served policy's
        name into its file: `tapete.web.trusted`); by default each spec is built as it is."""
        self.id, self.config, self.variant = table_id, config, variant
        self.game: Game = variant.new_game()
        self.deck = self.game.deck
        record = variant.record  # the registered game's bots, not its family class's
        seed = config.seed
        agents: list[Any] = []
        for seat, plan in enumerate(config.seats):
            if plan.person:
                agents.append(PersonSeat())
            else:
                factory = record.bot(resolve(plan.bot) if resolve else plan.bot)
                agents.append(factory(self.game, seat, Random(derive_seed(seed, "bot", seat))))
        names = [p.bot or PERSON for p in config.seats]
        self.match = Match(variant, config.players, seed, bots=names, agents=agents)
        self.stand_in_name = stand_in or record.default_bot
        if self.stand_in_name == "human":  # a game whose best player is a person: the random bot stands in
            self.stand_in_name = "random"
        self._stand_ins: dict[int, Any] = {}
        self.status = [SeatStatus(p.person, p.bot) for p in config.seats]
        self.steps: list[Step] = []
        self.records: list[dict[str, Any]] = []  # the match's score, void, bonus and end events
        self.phase = PLAY
        self.broken = ""
        self.result: MatchResult | None = None
        self._history: list[dict[str, Any]] = []
        self._legal: tuple[int, list[Action]] | None = None
        self.sheet_cache: tuple[int, list[dict[str, Any]]] | None = None
        self.deal_actions = 0
        self._deal()

    # -- reading -------------------------------------------------------------------------
    @property
    def seq(self) -> int:
        """How many steps the table has taken: every message names the position it was built at."""
        return len(self.steps)

    @property
    def players(self) -> int:
        return self.config.players

    def deal_seat(self, seat: int) -> int | None:
        """The seat of the deal in play that match seat ``seat`` holds (None once it is out)."""
        try:
            return self.seats.index(seat)
        except ValueError:
            return None

    @property
    def to_move(self) -> int | None:
        """The match seat to move, when a deal is in play."""
        if self.phase != PLAY:
            return None
        return self.seats[self.state.to_move]

    def legal(self) -> list[Action]:
        """The legal moves of the seat to move (computed once per position)."""
        if self.phase != PLAY:
            return []
        if self._legal is None or self._legal[0] != self.seq:
            self._legal = (self.seq, self.game.legal_actions(self.state))
        return self._legal[1]

    def view(self, seat: int) -> View:
        """What match seat ``seat`` knows now; `SPECTATOR` (or a seat that is out) gets the public view."""
        deal_seat = self.deal_seat(seat) if seat != SPECTATOR else None
        return self.recorder.view(self.state, SPECTATOR if deal_seat is None else deal_seat)

    def legal_for(self, seat: int) -> list[Action]:
        """The moves ``seat`` may make now: the legal moves if it is to move, else none."""
        return self.legal() if seat == self.to_move else []

    def people(self) -> list[int]:
        return [s for s, st in enumerate(self.status) if st.person]

    def waiting_for(self) -> list[int]:
        """The people the table waits for: the person to move, or those not ready for the next deal."""
        if self.phase == PLAY:
            mover = self.to_move
            return [mover] if mover is not None and self.status[mover].person else []
        if self.phase == DEAL_OVER:
            return [s for s in self.people() if not self.status[s].ready and not self.status[s].away]
        return []

    # -- checking a person's message --------------------------------------------------------
    def check_move(self, seat: int, seq: int, text: str) -> Action:
        """The action a person's move message means, or a `Refusal` (nothing changes either way).

        The sequence number comes first: a move that answers an old position is stale
        (or, when it is the very move recorded there, a retry that was already played)."""
        self._check_seq(seat, seq, "move", text)
        if self.phase != PLAY:
            raise Refusal("deal-over", "the deal is over: no move can be made now", self.seq)
        mover = self.to_move
        if mover != seat:
            raise Refusal("not-your-turn", f"it is not your turn: seat {mover} is to move", self.seq)
        try:
            action = Action.parse(text, self.deck)
        except ValueError:
            raise Refusal("malformed", "a move needs words, such as 'play 7♥' or 'pass'", self.seq) from None
        view = self.view(seat)
        visible = {c for cards in view.zones.values() for c in cards}
        if any(c not in visible for c in action.cards):
            # Never ask the game about a card the seat cannot see: its answer could say where the card is.
            raise Refusal("refused", "that move names a card you cannot see", self.seq)
        legal = self.legal()
        if action not in legal:
            raise Refusal("refused", self.public_refusal(seat, action), self.seq)
        return action

    def public_refusal(self, seat: int, action: Action, twins: int = 3) -> str:
        """The game's reason for refusing ``action``, when it tells the seat nothing it cannot see.

        The game judges from the whole deal, so its words are checked: the reason must
        read the same when the cards hidden from the seat change places (a few random
        twins of the deal). "J♠ is not on the table" passes (the table is public); a
        reason that would differ, a game hinting at a hidden card, is replaced by plain
        words."""
        game, state = self.game, self.state
        why = game.refusal(state, action) or f"{action.text(self.deck)!r} is not a legal move now"
        hidden = observer(game).hidden(state, self.state.to_move)
        if len(hidden) < 2:
            return why
        rng = Random(derive_seed(self.config.seed, "refusal", self.seq))
        for _ in range(twins):
            twin = state.clone()
            cards = [twin.zones[z][i] for z, i in hidden]
            rng.shuffle(cards)
            for (z, i), c in zip(hidden, cards, strict=True):
                twin.zones[z][i] = c
            try:
                other = game.refusal(twin, action) or f"{action.text(self.deck)!r} is not a legal move now"
            except Exception:
                other = None
            if other != why:
                return f"{action.text(self.deck)} is not a legal move now"
        return why

    def check_next(self, seat: int, seq: int) -> None:
        """A person's "next deal": accepted at the deal's end, answering the present position."""
        self._check_seq(seat, seq, "next", "")
        if self.phase != DEAL_OVER:
            what = "the match is over" if self.phase == MATCH_OVER else "the deal is still in play"
            raise Refusal("not-now", f"there is no next deal to start: {what}", self.seq)

    def _check_seq(self, seat: int, seq: int, kind: str, text: str) -> None:
        if seq == self.seq:
            return
        if 0 <= seq < self.seq:
            done = self.steps[seq]
            if kind == "move" and done.kind == "move" and done.seat == seat and done.move == text:
                raise Refusal("already-played", f"this move was already played (step {seq + 1})", self.seq)
            if kind == "next" and done.kind == "next":
                raise Refusal("already-played", "the next deal has already started", self.seq)
            raise Refusal(
                "stale",
                f"this message answers position {seq}, but the table has moved on to {self.seq}: "
                "look again and choose again",
                self.seq,
            )
        raise Refusal("stale", f"position {seq} has not been reached (the table is at {self.seq})", self.seq)

    # -- bots -------------------------------------------------------------------------------
    def agent_to_move(self, stand_in: bool) -> tuple[Any, str] | None:
        """The agent that should make the next move and how it is named in the step, or None.

        A bot seat's own bot; a person's seat only when ``stand_in`` (the person is away or
        out of time): then the game's default bot, built for that seat on first use."""
        mover = self.to_move
        if mover is None:
            return None
        if not self.status[mover].person:
            return self.match.agents[mover], BY_BOT
        if not stand_in:
            return None
        return self.stand_in(mover), BY_STAND_IN

    def stand_in(self, seat: int) -> Any:
        agent = self._stand_ins.get(seat)
        if agent is None:
            factory = self.variant.record.bot(self.stand_in_name)
            agent = factory(self.game, seat, Random(derive_seed(self.config.seed, "stand-in", seat)))
            self._stand_ins[seat] = agent
        return agent

    def decision_input(self, agent: Any) -> tuple[View | None, list[Action], DealState | None]:
        """What an agent decides from: its seat's view (None for a bot that does not look), the legal moves.

        An old-contract bot (``choose(game, state, legal)``) gets a copy of the state."""
        legal = list(self.legal())
        if isinstance(agent, LegacyBot):
            return None, legal, self.state.clone()
        mover = self.to_move
        assert mover is not None
        return (self.view(mover) if observes(agent) else None), legal, None

    def decide(self, agent: Any, view: View | None, legal: list[Action], state: DealState | None) -> Action:
        """The agent's choice (may run in a worker thread: it reads only its arguments and the agent)."""
        if isinstance(agent, LegacyBot):
            assert state is not None
            return agent.decide(self.game, state, legal)
        action: Action = agent.choose(view, legal)
        return action

    def bot_step(self, seq: int, agent: Any, by: str, action: Action) -> Step:
        """The step a bot's choice makes at position ``seq``; refused if the table moved on meanwhile."""
        if seq != self.seq or self.phase != PLAY:
            raise Refusal("stale", "the table moved on while the bot was thinking", self.seq)
        mover = self.to_move
        assert mover is not None
        if action not in self.legal():
            why = self.game.refusal(self.state, action)
            if why is not None:
                raise TapeteError(f"the {by} at seat {mover} chose {action.text(self.deck)!r}: {why}")
        rng = agent.rng.getstate() if isinstance(getattr(agent, "rng", None), Random) else None
        return Step(seq, "move", mover, action.text(self.deck), by, rng)

    # -- steps ------------------------------------------------------------------------------
    def person_step(self, seat: int, action: Action, by: str = BY_PERSON) -> Step:
        return Step(self.seq, "move", seat, action.text(self.deck), by)

    def next_step(self) -> Step:
        return Step(self.seq, "next", -1, "", BY_TABLE)

    def apply(self, step: Step) -> None:
        """Carry out a checked step (already stored: see `tapete.web.app`)."""
        if step.seq != self.seq:
            raise TapeteError(f"step {step.seq} applied at position {self.seq}")
        if step.kind == "next":
            if self.phase != DEAL_OVER:
                raise TapeteError("a next deal asked for while no deal is over")
            self.steps.append(step)
            for st in self.status:
                st.ready = False
            self._deal()
            return
        if self.phase != PLAY:
            raise TapeteError(f"a move applied while the table is {self.phase}")
        action = Action.parse(step.move, self.deck)
        state, game = self.state, self.game
        if self.seats[state.to_move] != step.seat:
            raise TapeteError(f"step {step.seq}: seat {step.seat} moved out of turn")
        if action not in self.legal():
            why = game.refusal(state, action)
            if why is not None:
                raise TapeteError(f"step {step.seq} ({step.move!r} by seat {step.seat}) is refused: {why}")
        self.recorder.apply(state, action)  # the one way a recorded deal moves
        self.steps.append(step)
        self.deal_actions += 1
        if self.deal_actions > MAX_ACTIONS_PER_DEAL:
            self.fail(f"the deal did not end within {MAX_ACTIONS_PER_DEAL} actions")
            return
        if state.over:
            self._deal_over()

    def restore_dice(self) -> None:
        """After a replay: each agent's dice as they were after its last stored move."""
        last: dict[tuple[int, str], list[int]] = {}
        for step in self.steps:
            if step.rng is not None:
                key = (step.seat, BY_STAND_IN if step.by in (BY_STAND_IN, BY_CLOCK) else BY_BOT)
                last[key] = step.rng
        for (seat, by), rng in last.items():
            agent = self.stand_in(seat) if by == BY_STAND_IN else self.match.agents[seat]
            if isinstance(getattr(agent, "rng", None), Random):
                agent.rng = Random.fromstate(rng)

    def fail(self, why: str) -> None:
        self.phase, self.broken = BROKEN, why

    def close(self, why: str) -> None:
        """The server closed the table for good (it stays readable, its record downloadable)."""
        self.phase, self.broken = CLOSED, why

    # -- deals --------------------------------------------------------------------------------
    def _emit(self, event: dict[str, Any]) -> None:
        if event.get("type") in ("score", "void", "bonus", "end"):
            self.records.append(event)

    def _deal(self) -> None:
        state, seats, local = self.match.next_deal(self._emit)
        self.state: DealState = state
        self.seats: list[int] = seats
        self.local: Ledger = local
        self.recorder = Recorder(self.game, state, [*range(state.players), SPECTATOR], local, self.variant.options)
        self.phase = PLAY
        self.deal_actions = 0
        self._legal = None
        if state.over:  # a deal over as soon as it is dealt (a misdeal)
            self._deal_over()

    def _deal_over(self) -> None:
        try:
            winner = self.match.deal_ended(self.state, self.seats, self.local, self._history, self._emit)
            self._totals_after_the_deal()
            if winner is not None:
                self.result = self.match.finish(winner, self._history, self._emit)
                self.phase = MATCH_OVER
            else:
                self.phase = DEAL_OVER
        except TapeteError as exc:
            self.fail(str(exc))

    def _totals_after_the_deal(self) -> None:
        """The deal's ledger, which the seats' views read, brought to the match's totals once the deal is scored.

        The views of a deal read the totals as they stood when it was dealt; after the
        deal every page shows the totals with its scores (the totals line agrees with the
        score sheet beside it)."""
        ledger, local = self.match.ledger, self.local
        for i, s in enumerate(self.seats):
            local.totals[i], local.deals_won[i], local.out[i] = ledger.totals[s], ledger.deals_won[s], ledger.out[s]

    @property
    def ledger(self) -> Ledger:
        return self.match.ledger


def seat_kinds(config: TableConfig) -> list[str]:
    return [PERSON if p.person else p.bot for p in config.seats]


@dataclass
class Created:
    """A table just made: its number, the private link token of each person's seat, the spectators' token."""

    table_id: str
    seat_tokens: dict[int, str] = field(default_factory=dict)
    spectator_token: str = ""


def new_token() -> str:
    """An unguessable link token (128 bits of the system's randomness)."""
    return secrets.token_urlsafe(16)
