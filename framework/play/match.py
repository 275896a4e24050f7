"""Playing a whole match: deals in a row, the score ledger, who is out, who wins.

The loop is the hot path of every simulation: it calls the game's own methods
directly and touches plugins only once per deal (and only if some plugin listens).
Everything that happens is reported as plain-JSON events, which is what the log
writes and what `replay` compares.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots import LegacyBot, adapt, observes
from ..core.actions import Action
from ..core.errors import IllegalAction, SnapshotError, TapeteError
from ..core.inputs import PERSON_BOTS, InputError, bot_spec, declare, read_bots
from ..core.inputs import seed as read_seed
from ..core.ledger import Ledger
from ..core.limits import MAX_SCORE, number_text
from ..core.rng import Random, derive_seed
from ..core.state import DealState
from ..core.version import __version__
from ..formats import LOG_FORMAT, SNAPSHOT_FORMAT, check_format
from ..rules.vocabulary import Ctx
from ..view import Recorder
from .deal import first_dealer, start_deal, state_from_snapshot
from .hook_checks import check_result_hook, checked_hook
from .loading import Variant

# Runaway guards. A game that can loop for ever should detect it and say so (Chinchón
# marks a stalled deal itself; see ``stall`` in docs/rules-language.md); these only stop
# a game or a plugin that does not, naming the seed and the deal.
MAX_ACTIONS_PER_DEAL = 100_000  # rummy deals between random bots last thousands
MAX_DEALS = 5_000


@dataclass
class MatchResult:
    winner: int  # -1 for a draw or a shared win
    totals: list[int]
    deals_won: list[int]
    deals: int
    history: list[dict[str, Any]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    """Every seat that won: ``[winner]``, several seats tied for the best that share the win
    (the ``share_win`` rule, HE-5.2), or empty for a draw."""

    def __post_init__(self) -> None:
        if not self.winners and self.winner >= 0:
            self.winners = [self.winner]

    @property
    def shared(self) -> bool:
        """Several seats share the win."""
        return len(self.winners) > 1


def seat_bots(variant: Variant, players: int | None, names: list[str]) -> tuple[int, list[str]]:
    """The player count and one bot name per seat.

    Without a player count, several bots set it (one seat each) and a single bot
    takes the variant's default count; a variant for one player count only (Hearts
    for four) is filled with the last bot, as with a count. With a count, a shorter list is filled with
    its last bot (``["sensible", "random"]`` for 4 players: seat 0 sensible, the rest
    random); a longer list is refused, naming both counts."""
    if not names:
        raise TapeteError("no bot named: list at least one bot")
    if players is None:
        players = len(names) if len(names) > 1 else variant.default_players()
        if len(names) > 1:
            lo, hi = variant.player_range()
            if lo == hi and len(names) < lo:  # one player count only: the last bot fills the table
                players = lo
            if not lo <= players <= hi:
                raise TapeteError(
                    f"{len(names)} bots were listed, so {players} players, but {variant.name} is for {lo}-{hi} players"
                )
    variant.check_players(players)
    if len(names) > players:
        raise TapeteError(f"{len(names)} bots were listed for {players} players: list at most one bot per seat")
    return players, names + [names[-1]] * (players - len(names))


def check_bots(variant: Variant, specs: Sequence[str], *, person: bool = True, where: str = "") -> None:
    """Every bot spec read (`tapete.core.inputs.read_bots`) and its bot built once, up front.

    A run that plays its matches elsewhere (worker processes, a Dask cluster) would otherwise
    meet ``ismcts:c=-1`` or ``iterations=true`` in every match and report them as matches
    "stopped on an error"; building each bot once here, with the factory's own checks,
    refuses them before anything is played, with the words ``tapete play`` uses.
    ``person=False`` refuses a seat that waits for a person."""
    read_bots(list(specs), person=person, where=where)
    game = variant.new_game()
    for spec in dict.fromkeys(specs):
        if bot_spec(spec).name in PERSON_BOTS:
            continue  # a person's seat is built at the table, where someone answers
        variant.record.bot(spec)(game, 0, Random(0, "check"))


class Match:
    @declare(variant="variant", players="count", seed="seed", bots="bots", agents="callable")
    def __init__(
        self,
        variant: Variant,
        players: int | None = None,
        seed: object = 0,
        bots: list[str] | None = None,
        agents: list[Any] | None = None,
    ) -> None:
        if not isinstance(variant, Variant):
            raise InputError(f"a match needs a loaded variant (tapete.load_variant(...)), not {variant!r:.60}")
        self.variant = variant
        read_seed(seed)  # once per match, not per move: 1.5, nan and [1] are no seeds (kept as given)
        names = read_bots(bots or ["random"], what="bots")
        self.players, self.bot_names = seat_bots(variant, players, names)
        variant.require_sound()  # before any bot is built or card dealt (once per variant)
        self.seed = seed
        self.game = variant.new_game()
        self.rules = variant.rules
        self.ledger = Ledger(self.players)
        names = self.bot_names
        if agents is None:
            agents = []
            for seat, name in enumerate(names):
                factory = variant.record.bot(name)  # the game's own bots, by the registered game (not the family)
                agents.append(factory(self.game, seat, Random(derive_seed(seed, "bot", seat))))
        self.agents = [adapt(a) for a in agents]
        self.dealer = first_dealer(self.rules, self.players, seed)
        self.state: DealState | None = None  # the deal in play, for snapshot()
        self._resume: DealState | None = None

    def snapshot(self) -> dict[str, Any]:
        """The whole match as plain JSON: ledger, dealer, the deal in play, the bots' dice.

        Call it from an ``emit`` callback to save a match in the middle of a deal."""
        deck = self.game.deck
        return {
            "type": "match-snapshot",
            "format": SNAPSHOT_FORMAT,
            "tapete": __version__,
            "variant": self.variant.name,
            "options": self.variant.options,
            "digest": self.variant.digest,
            "seed": self.seed,
            "players": self.players,
            "bots": self.bot_names,
            "dealer": self.dealer,
            "ledger": self.ledger.to_json(),
            "deal": self.state.to_json(deck) if self.state is not None and not self.state.over else None,
            "bot_rng": [a.rng.getstate() if isinstance(getattr(a, "rng", None), Random) else None for a in self.agents],
        }

    @classmethod
    def resume(cls, variant: Variant, snapshot: dict[str, Any], bots: list[str] | None = None) -> Match:
        """A match that goes on from ``snapshot()``; refused whole if any part is broken."""
        try:
            if snapshot.get("type") != "match-snapshot":
                raise SnapshotError("not a match snapshot")
            check_format("match snapshot", snapshot, SNAPSHOT_FORMAT)
            if snapshot["variant"] != variant.name:
                raise SnapshotError(f"the snapshot is of {snapshot['variant']}, not {variant.name}")
            players = int(snapshot["players"])
            match = cls(variant, players, snapshot["seed"], bots=bots or snapshot["bots"])
            ledger = Ledger.from_json(players, snapshot["ledger"])
            dealer = int(snapshot["dealer"])
            if not 0 <= dealer < players:
                raise SnapshotError(f"dealer {dealer} is not a seat")
            deal = state_from_snapshot(match.game, snapshot["deal"]) if snapshot.get("deal") else None
            if deal is not None and deal.players != len(ledger.active):
                raise SnapshotError("the deal in play does not match the players still in")
            rngs = snapshot.get("bot_rng") or []
        except SnapshotError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise SnapshotError(f"broken match snapshot: {exc}") from None
        match.ledger, match.dealer, match._resume = ledger, dealer, deal
        if deal is not None:
            ledger.deal_number -= 1  # play() counts the resumed deal again
        for agent, state in zip(match.agents, rngs, strict=False):
            if state is not None and isinstance(getattr(agent, "rng", None), Random):
                agent.rng = Random.fromstate(state)
        return match

    def header(self) -> dict[str, Any]:
        v = self.variant
        return {
            "type": "match",
            "format": LOG_FORMAT,
            "tapete": __version__,
            "variant": v.name,
            "options": v.options,
            "digest": v.digest,
            **v.provenance(),
            "seed": self.seed,
            "players": self.players,
            "bots": self.bot_names,
        }

    def play(self, emit: Callable[[dict[str, Any]], None] | None = None) -> MatchResult:
        emit = emit or (lambda event: None)
        emit(self.header())
        game, deck = self.game, self.game.deck
        history: list[dict[str, Any]] = []
        winner: int | None = None
        while winner is None:
            state, seats, local = self.next_deal(emit)
            agents = [self.agents[s] for s in seats]
            # How each seat decides: 0 needs nothing, 1 gets its view, 2 is an old-contract bot.
            kinds = [2 if isinstance(a, LegacyBot) else 1 if observes(a) else 0 for a in agents]
            watching = [i for i, k in enumerate(kinds) if k == 1]
            recorder = Recorder(game, state, watching, local, self.variant.options) if watching else None
            actions = 0
            while not state.over:
                seat = state.to_move
                legal = game.legal_actions(state)
                if not legal:
                    raise TapeteError(
                        f"the {game.name} game offers seat {seats[seat]} no legal move in deal "
                        f"{self.ledger.deal_number} of seed {self.seed!r}: a bug in the game plugin"
                    )
                agent, kind = agents[seat], kinds[seat]
                if kind == 0:  # a bot that needs nothing: no view, no call in between
                    action = agent.choose(None, legal)
                else:
                    action = self._decide(agent, kind, recorder, state, seat, legal)
                # a choice among the legal moves needs no second judgement; anything else is asked why
                why = None if action in legal else game.refusal(state, action)
                while why is not None:
                    retry = getattr(agent, "refused", None)
                    if retry is None or not retry(action, why):
                        raise IllegalAction(f"bot at seat {seats[seat]} tried {action.text(deck)!r}: {why}")
                    action = self._decide(agent, kind, recorder, state, seat, legal)
                    why = game.refusal(state, action)
                events = game.apply(state, action) if recorder is None else recorder.apply(state, action)
                out: dict[str, Any] = {"type": "action", "seat": seats[seat], "action": action.text(deck)}
                if events:
                    out["events"] = events
                emit(out)
                actions += 1
                if actions > MAX_ACTIONS_PER_DEAL:
                    raise TapeteError(
                        f"deal {self.ledger.deal_number} of {self.variant.name} (seed {self.seed!r}) did not end "
                        f"within {MAX_ACTIONS_PER_DEAL} actions; the game did not report it as stalled"
                    )
            winner = self.deal_ended(state, seats, local, history, emit)
        return self.finish(winner, history, emit)

    # The match's steps, for callers that play the deals themselves (tapete.pettingzoo's match
    # episodes): next_deal, then the deal's actions, then deal_ended; finish once it names a winner.
    def next_deal(self, emit: Callable[[dict[str, Any]], None]) -> tuple[DealState, list[int], Ledger]:
        """Deal (or resume) the next deal: its state, the match seat of each deal seat, the deal's ledger."""
        reg, game, ledger, deck = self.variant.registry, self.game, self.ledger, self.game.deck
        ledger.deal_number += 1
        if ledger.deal_number > MAX_DEALS:
            raise TapeteError(f"the match did not end within {MAX_DEALS} deals")
        seats = list(ledger.active)
        if self.dealer not in seats:
            self.dealer = self._next_active(self.dealer)
        local = ledger.local()
        if self._resume is not None:
            state, self._resume = self._resume, None
            emit(
                {
                    "type": "resume",
                    "number": ledger.deal_number,
                    "dealer": self.dealer,
                    "seats": seats,
                    "state": state.to_json(deck),
                }
            )
        else:
            state = start_deal(
                game,
                len(seats),
                seats.index(self.dealer),
                Random(derive_seed(self.seed, "deal", ledger.deal_number)),
                local,
            )
            if "tapete_deal_started" in reg.lifecycle:
                with checked_hook(reg, "tapete_deal_started", state):
                    reg.call("tapete_deal_started", match=self, state=state)
            emit(
                {
                    "type": "deal",
                    "number": ledger.deal_number,
                    "dealer": self.dealer,
                    "seats": seats,
                    "state": state.to_json(deck),
                }
            )
        self.state = state
        return state, seats, local

    def deal_ended(
        self,
        state: DealState,
        seats: list[int],
        local: Ledger,
        history: list[dict[str, Any]],
        emit: Callable[[dict[str, Any]], None],
    ) -> int | None:
        """Score a finished deal into the ledger (or void it); the match winner (-1: a draw) or None."""
        game, rules, ledger = self.game, self.rules, self.ledger
        void = self._void_reason(state)
        if void is not None:
            # A void deal scores nothing; the same dealer deals again (GR, and ``stall = annul``).
            record = {"type": "void", "number": ledger.deal_number, "reason": void}
            record["lines"] = game.describe_deal(state)
            history.append(record)
            emit(record)
            return None
        score_expr, won_cond = rules.expr("score"), rules.condition("won")
        assert score_expr is not None  # 'score' is a required statement
        wins_match = rules.condition("wins_match")
        ctx = Ctx(game=game, state=state, ledger=local)
        scores: dict[int, int] = {}
        won: list[int] = []
        outright: list[int] = []
        for i, s in enumerate(seats):
            ctx.seat = i
            scores[s] = self._bounded("the score rule", s, int(score_expr(ctx)))
            if won_cond is not None and won_cond(ctx):
                won.append(s)
            if wins_match is not None and wins_match(ctx):
                outright.append(s)
        carried = self._carried(ctx, seats)
        reg = self.variant.registry
        if "tapete_deal_scored" in reg.lifecycle:
            with checked_hook(reg, "tapete_deal_scored", state, scores, seats):
                reg.call("tapete_deal_scored", match=self, state=state, scores=scores)
        for s, v in scores.items():
            ledger.totals[s] += v
            if abs(ledger.totals[s]) > MAX_SCORE:
                raise TapeteError(
                    f"{self.variant.name}: seat {s}'s total reaches {number_text(ledger.totals[s])} in deal "
                    f"{ledger.deal_number}, beyond tapete's bound of {number_text(MAX_SCORE)} (docs/bad-input.md)"
                )
        for name, values in carried.items():  # after the scores, which read the values the deal began with
            ledger.carried.setdefault(name, [0] * ledger.players)
            for s, v in values.items():
                ledger.carried[name][s] = v
        for s in won:
            ledger.deals_won[s] += 1
        ledger.last_scores = [scores.get(s, 0) for s in range(self.players)]
        winner = outright[0] if len(outright) == 1 else self._after_deal()
        record = {
            "type": "score",
            "number": ledger.deal_number,
            "scores": {str(k): v for k, v in scores.items()},
            "won": won,
            "totals": list(ledger.totals),
            "out": list(ledger.out),
            "lines": game.describe_deal(state),
        }
        if ledger.carried:  # only then: the logs of a match that carries nothing are as before
            record["carried"] = {name: list(values) for name, values in ledger.carried.items()}
        if winner is None:  # the next dealer is known before anyone sees the score
            nxt = rules.expr("next_dealer")
            ctx.seat = None  # type: ignore[assignment]
            local.last_scores = [scores[s] for s in seats]  # next_dealer may ask who won this deal
            d = (
                seats[nxt(ctx) % len(seats)]
                if nxt is not None
                else seats[(seats.index(self.dealer) + game.step) % len(seats)]
            )
            self.dealer = d if d in ledger.active else self._next_active(d)
        history.append(record)
        emit(record)
        return winner

    def finish(self, winner: int, history: list[dict[str, Any]], emit: Callable[[dict[str, Any]], None]) -> MatchResult:
        """The match bonus, the result, the end event."""
        ledger = self.ledger
        winners = self._sharing(winner)
        self._match_bonus(winner, emit)
        result = MatchResult(winner, list(ledger.totals), list(ledger.deals_won), ledger.deal_number, history, winners)
        reg = self.variant.registry
        if "tapete_match_ended" in reg.lifecycle:
            check_result_hook(
                reg, result, self.players, lambda: reg.call("tapete_match_ended", match=self, result=result)
            )
        end: dict[str, Any] = {
            "type": "end",
            "winner": winner,
            "totals": result.totals,
            "deals_won": result.deals_won,
            "deals": result.deals,
        }
        if result.shared:
            end["winners"] = list(winners)  # only then: the logs of a match with one winner are as before
        emit(end)
        return result

    def _sharing(self, winner: int) -> list[int]:
        """The seats that won: the winner, or on a tie those for whom ``share_win`` holds (HE-5.2)."""
        if winner >= 0:
            return [winner]
        share = self.rules.condition("share_win")
        if share is None:
            return []
        ctx = Ctx(game=self.game, ledger=self.ledger)
        found = []
        for s in self.ledger.active:
            ctx.seat = s
            if share(ctx):
                found.append(s)
        return found

    def _decide(
        self, agent: Any, kind: int, recorder: Recorder | None, state: DealState, seat: int, legal: list[Action]
    ) -> Any:
        if kind == 0:
            return agent.choose(None, legal)
        if kind == 1:
            assert recorder is not None
            return agent.choose(recorder.view(state, seat), legal)
        return agent.decide(self.game, state, legal)

    def _carried(self, ctx: Ctx, seats: list[int]) -> dict[str, dict[int, int]]:
        """Each ``carry NAME = EXPR``'s value after this deal, per match seat, from the values it began with."""
        out: dict[str, dict[int, int]] = {}
        for name, _ in self.rules.each("carry"):
            expr = self.rules.expr("carry", name)
            assert expr is not None  # needs_value: checked at load time
            values = out[name] = {}
            for i, s in enumerate(seats):
                ctx.seat = i
                values[s] = self._bounded(f"carry {name}", s, int(expr(ctx)))
        return out

    def _bounded(self, rule: str, seat: int, value: int) -> int:
        """A rule's value for a seat, refused beyond tapete's bound on scores (docs/bad-input.md)."""
        if abs(value) > MAX_SCORE:
            raise TapeteError(
                f"{self.variant.name}: {rule} gives seat {seat} {number_text(value)} in deal "
                f"{self.ledger.deal_number}, beyond tapete's bound of {number_text(MAX_SCORE)} (docs/bad-input.md)"
            )
        return value

    def _void_reason(self, state: DealState) -> str | None:
        """Why a finished deal is void (`Game.deal_void`), or None; a stall (`Game.deal_stalled`)
        follows the variant's ``stall`` statement."""
        stalled = self.game.deal_stalled(state)
        if stalled is not None:
            policy = self.rules.parsed_words("stall", default="error")
            if policy != "annul":
                raise TapeteError(
                    f"deal {self.ledger.deal_number} of {self.variant.name} (seed {self.seed!r}) stalled: {stalled}. "
                    "The rules name no end for such a deal; a script line 'stall = annul' makes it void, "
                    "and the same dealer deals again"
                )
            return f"stalled: {stalled}"
        return self.game.deal_void(state)

    def _match_bonus(self, winner: int, emit: Callable[[dict[str, Any]], None]) -> None:
        """End-of-match bonuses (``match_bonus``, e.g. Gin Rummy's game, line and shutout bonuses)."""
        bonus = self.rules.expr("match_bonus")
        if bonus is None:
            return
        ledger = self.ledger
        ctx = Ctx(game=self.game, ledger=ledger, extra={"winner": winner})
        adds = {}
        for s in ledger.active:
            ctx.seat = s
            adds[s] = int(bonus(ctx))
        for s, v in adds.items():
            ledger.totals[s] += v
        emit({"type": "bonus", "scores": {str(k): v for k, v in adds.items()}, "totals": list(ledger.totals)})

    def _next_active(self, seat: int) -> int:
        for k in range(1, self.players + 1):
            s = (seat + self.game.step * k) % self.players
            if not self.ledger.out[s]:
                return s
        return seat

    def _after_deal(self) -> int | None:
        """Elimination (the family has the last word on who goes: `Game.going_out`), then the match end.

        The winner, or None while the match goes on; -1 (a draw) when everyone left goes out at once."""
        rules, ledger, game = self.rules, self.ledger, self.game
        everyone = Ctx(game=game, ledger=ledger)  # the match-wide rules: no seat
        out_cond = rules.condition("out")
        if out_cond is not None:
            ctx = Ctx(game=game, ledger=ledger)
            going = []
            for s in ledger.active:
                ctx.seat = s
                if out_cond(ctx):
                    going.append(s)
            if going:
                going = list(game.going_out(going, ledger))
            rejoin, rejoin_total = rules.condition("rejoin"), rules.expr("rejoin_total")
            staying = [s for s in ledger.active if s not in going]
            if rejoin is not None and staying:
                # Re-entry: the restart total is taken before anyone rejoins.
                keep_active = ledger.active
                ledger.active = staying
                restart = (
                    int(rejoin_total(everyone)) if rejoin_total is not None else max(ledger.totals[s] for s in staying)
                )
                ledger.active = keep_active
                for s in list(going):
                    ctx.seat = s
                    if rejoin(ctx):
                        ledger.totals[s] = restart
                        ledger.reentries[s] += 1
                        going.remove(s)
            for s in going:
                ledger.out[s] = True
            ledger.refresh()
            if len(ledger.active) == 1:
                return ledger.active[0]
            if not ledger.active:
                return -1
        ends = rules.condition("match_ends")
        if ends is not None and ends(everyone):
            w = rules.expr("winner")
            return int(w(everyone)) if w is not None else -1
        return None
