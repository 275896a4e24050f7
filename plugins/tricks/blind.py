"""Blind bids: a bid made before looking at one's cards, and the exchange with the partner after the bids.

Spades' blind nil (SP-V1) is written with two words. ``blind_nil when COND`` is read for
each player once the cards are dealt, with the match's totals (``blind_nil when max(total)
- total >= behind``); when it holds for anyone, every hand is dealt face down into the
seat's ``facedown.N`` zone, which no seat sees (only its size), and the players it holds
for are asked in bidding order, ``blind nil`` or ``look``, before anyone has seen a card.
At most one player of a side declares: once one has, the partner is not asked. When the
last of them has chosen, every hand is picked up in one step, and the round of bids
(`Bidding`) goes on with the others; a blind bid counts as a bid of 0 (``bid.N`` is 0 and
``blind.N`` is 1, both public). ``blind_pass = 2``: after the bids, each blind bidder
passes two cards face down to the partner, who then passes any two back; the two steps are
phases of hidden choices (`HiddenChoices` on the seats that pass), so the cards wait in
the passer's own ``chosen.N`` zone and the opponents see only how many went each way.

The scoring reads ``blind_nils_made`` and ``blind_nils_set`` (the side's blind bidders who
took no trick, and who took one); ``nils_made`` and ``nils_set`` count the other nils. What
a blind nil is worth is the script's: ``+ 200 * blind_nils_made - 200 * blind_nils_set``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tapete import MAX_PLAYERS, Action, Ctx, DealState, MoveHelp, MoveKind, RuleText

if TYPE_CHECKING:
    from .game import Tricks

FACEDOWN = "facedown"  # zone kind of a hand dealt and not yet looked at
ROUND = "blind_round"  # the counter that is 1 while the players who may bid blind choose
MAY = "blind_may"  # blind_may.N: 1 when the ``blind_nil`` condition held for seat N at the deal
BLIND = "blind"  # blind.N: 1 when seat N bid blind nil
BLIND_KEYS = tuple(f"{BLIND}.{s}" for s in range(MAX_PLAYERS))  # each seat's, named once
FIRST = "blind_first"  # the first bidder, while the declarations last: they go round from it
PASSING = "blind_pass"  # 1 while the blind bidders pass, 2 while their partners pass back
DECLARE = Action("blind", (), "nil")
LOOK = Action("look")


class Blind:
    """The blind bids and the partners' exchange of one game (see the module docstring)."""

    def __init__(self, game: Tricks) -> None:
        rules = game.rules
        self.game = game
        when = rules.condition("blind_nil")
        self.when = None if when is not None and when.const and not when.value else when
        self.count = int(rules.constant("blind_pass", 0) or 0)
        self.ids: tuple[str, ...] = game.ids.get("blind", ())

    @property
    def used(self) -> bool:
        return self.when is not None

    # -- the declarations, before the hands are looked at ------------------------------------
    def begin(self, state: DealState, ctx: Ctx[Any]) -> bool:
        """After the deal: ask the condition of each seat; if it holds for any, the hands lie face down.

        True when the round of declarations begins (its first seat is set by `started`)."""
        if self.when is None or ctx.ledger is None:
            return False
        may = []
        probe = Ctx(game=self.game, state=state, ledger=ctx.ledger)
        for s in range(state.players):
            probe.seat = s
            if self.when(probe):
                may.append(s)
        if not may:
            return False
        counters, zones = state.counters, state.zones
        for s in range(state.players):
            zones[f"{FACEDOWN}.{s}"] = zones[f"hand.{s}"]
            zones[f"hand.{s}"] = []
        for s in may:
            counters[f"{MAY}.{s}"] = 1
        counters[ROUND] = 1
        return True

    def started(self, state: DealState) -> None:
        """The first bidder is known (``leader``): the first seat asked is the first from it in bidding order."""
        if not self.active(state):
            return
        state.counters[FIRST] = state.to_move
        seat = self._next(state, state.to_move, first=True)
        assert seat is not None
        state.to_move = seat

    def active(self, state: DealState) -> bool:
        return bool(state.counters.get(ROUND, 0))

    def _asked(self, state: DealState, seat: int) -> bool:
        """Whether ``seat`` is still to choose: the condition held, and no partner bid blind."""
        counters = state.counters
        if not counters.get(f"{MAY}.{seat}") or f"{BLIND}.{seat}" in counters:
            return False
        return not any(counters.get(f"{BLIND}.{s}") for s in self.game.team_seats(state.players, seat))

    def _next(self, state: DealState, seat: int, first: bool = False) -> int | None:
        """The next seat in bidding order still to choose (``seat`` itself too when ``first``), or None."""
        s = seat if first else self.game.next_seat(state, seat)
        for _ in range(state.players):
            if s == state.counters[FIRST] and not first:
                return None  # round the table once
            if self._asked(state, s):
                return s
            s = self.game.next_seat(state, s)
            first = False
        return None

    def actions(self, state: DealState) -> list[Action]:
        return [DECLARE, LOOK]

    def refusal(self, state: DealState, action: Action) -> str | None:
        if action in (DECLARE, LOOK):
            return None
        ids = " ".join(self.ids)
        return f"before looking at your cards you may bid blind nil: 'blind nil', or 'look' to see them ({ids})"

    def apply(self, state: DealState, action: Action) -> list[dict[str, Any]]:
        """A seat declares or looks; after the last one, every hand is picked up and the bids go on."""
        seat, counters = state.to_move, state.counters
        said = "bids blind nil" if action == DECLARE else "will look at the cards"
        counters[f"{BLIND}.{seat}"] = 1 if action == DECLARE else 0
        nxt = self._next(state, seat)
        if nxt is not None:
            state.to_move = nxt
            return [{"say": said}]
        for s in range(state.players):  # SP-V1: every hand is picked up at once, the declarations made
            state.zones[f"hand.{s}"].extend(state.zones.pop(f"{FACEDOWN}.{s}"))
        counters[ROUND] = 0
        state.to_move = counters.pop(FIRST)
        self.game.bidding.begin(state)
        return [{"say": said}]

    def bidders(self, state: DealState) -> list[int]:
        """The seats that bid blind this deal, in seat order."""
        counters = state.counters
        return [s for s in range(state.players) if counters.get(BLIND_KEYS[s])]

    def partner(self, state: DealState, seat: int) -> int:
        """The partner a blind bidder exchanges with: the next seat of its side in the direction of play."""
        side = self.game.team_seats(state.players, seat)
        s = seat
        for _ in range(state.players):
            s = self.game.next_seat(state, s)
            if s in side:
                return s
        return seat

    # -- the exchange, after the bids -----------------------------------------------------------
    def after_bids(self, state: DealState) -> bool:
        """The bids are made: True when the blind bidders begin to pass (else play begins)."""
        if not self.count:  # no exchange in this variant: play begins
            return False
        bidders = self.bidders(state)
        if not bidders:
            return False
        state.counters[PASSING] = 1
        self.game.choices.begin(state, self._first(state, bidders), self.count, bidders)
        return True

    def _first(self, state: DealState, seats: list[int]) -> int:
        """The first of ``seats`` in bidding order (from the dealer's left)."""
        s = self.game.next_seat(state, state.dealer)
        for _ in range(state.players):
            if s in seats:
                return s
            s = self.game.next_seat(state, s)
        return seats[0]

    def passing(self, state: DealState) -> bool:
        return bool(state.counters.get(PASSING, 0))

    def passed(self, state: DealState, card: int) -> list[dict[str, Any]]:
        """One card chosen; once every passer has chosen, the cards go to the partners (and back)."""
        choices = self.game.choices
        if not choices.choose(state, card):
            return []
        counters = state.counters
        bidders = self.bidders(state)
        if counters[PASSING] == 1:
            choices.hand_on(state, {b: f"hand.{self.partner(state, b)}" for b in bidders})
            partners = [self.partner(state, b) for b in bidders]
            counters[PASSING] = 2
            choices.begin(state, self._first(state, partners), self.count, partners)
            return [{"say": f"passes {self.count} cards face down to the partner"}]
        choices.hand_on(state, {self.partner(state, b): f"hand.{b}" for b in bidders})
        counters[PASSING] = 0
        self.game._lead_now(state)
        return [{"say": f"passes {self.count} cards back"}]

    # -- words for a person at the table -------------------------------------------------------
    def move_kinds(self) -> list[MoveKind]:
        return [MoveKind("blind", detail="nil"), MoveKind("look")]

    def moves_help(self) -> list[MoveHelp]:
        ids = self.ids
        out = [
            MoveHelp(
                "blind nil",
                "blind",
                "before looking at your cards, bid nil blind: it scores as a nil, doubled",
                ids,
            ),
            MoveHelp("look", "look", "look at your cards and bid as usual", ids),
        ]
        return out

    def rulebook(self) -> list[RuleText]:
        out = [
            RuleText(
                "Before anyone looks at their cards, each player for whom {blind_nil.condition} may, in bidding "
                "order, bid blind nil; at most one player of a side does",
                move="blind nil",
                ids=self.ids,
            )
        ]
        if self.count:
            out.append(
                RuleText(
                    "After the bids a blind nil bidder passes {blind_pass.value} cards face down to the partner, "
                    "who then passes as many back; nobody else sees them",
                    move="pass CARD",
                    ids=self.ids,
                )
            )
        return out
