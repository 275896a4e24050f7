"""The bidding phase of the trick family: each seat bids once, in turn, how many tricks it will take.

A contract game (Oh Hell, OH-4) opens play with a round of bids. The script states which
bids are legal: ``bid_max = dealt`` (a bid is a whole number of tricks from 0 up to that;
the seat that ``leader`` names bids first, the others after it in the direction of play,
and the leader is asked again when the bids are made), and bans such as Oh Hell's hook,
``no_bid when seat == dealer and bids + bidding == dealt`` (``bidding`` is the bid being
weighed, ``bids`` the sum of the bids made so far). A bid is a move like any other,
``bid three``: its one word is the number in letters, since a move's text reads digits as
a card that is not there (``play 99``).

Bids are public once made: they are the counters ``bid.N`` (and ``bids``, their sum,
``bids_made``, how many seats have bid, ``bidding``, 1 while the round lasts), which every
seat's view shows, the log and replays carry, and the searches' imagined deals copy. The
scoring reads them with the quantity ``bid`` (a side's: the sum of its partners' bids), so
what a made or a set contract is worth is written in the variant's script, not here.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any

from tapete import (
    CONSTANT,
    DEAL_ONLY,
    MAX_PLAYERS,
    PER_SEAT,
    SEAT_IN_DEAL,
    Action,
    Ctx,
    DealState,
    MoveHelp,
    MoveKind,
    Quantity,
    RuleText,
    StatementSpec,
)

from .blind import BLIND_KEYS

if TYPE_CHECKING:
    from .game import Tricks

ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen"
).split()
TENS = {2: "twenty"}
# a bid's word: zero ... nineteen, twenty, twenty-one ... twenty-six (half a 52-card deck, two hands)
NUMBER_WORDS = (*ONES, *(f"{TENS[n // 10]}-{ONES[n % 10]}" if n % 10 else TENS[n // 10] for n in range(20, 27)))
BID_OF_WORD = {w: n for n, w in enumerate(NUMBER_WORDS)}

PHASE = "bidding"  # the counter that is 1 while the round of bids lasts
KNOWN_MOST = 4096  # legal bids kept by what the ban reads (`Bidding.legal`); more, and they start again


def bid_word(n: int) -> str:
    """A bid as its move's word: 3 is ``three``."""
    return NUMBER_WORDS[n]


BID_KEYS = tuple(f"bid.{s}" for s in range(MAX_PLAYERS))  # each seat's bid counter, named once


_SIDE_KEYS: dict[tuple[int, int, int], tuple[str, ...]] = {}  # (teams, players, seat) -> the side's bid counters


def _side_bid(c: Ctx[Tricks]) -> int:
    """SP-3.3: the side's bid, its members' bids added (read for every bid offered: the names kept by side)."""
    game, players, seat = c.game, c.state.players, c.seat
    keys = _SIDE_KEYS.get((game.teams, players, seat))
    if keys is None:
        keys = _SIDE_KEYS[(game.teams, players, seat)] = tuple(BID_KEYS[s] for s in game.team_seats(players, seat))
    counters = c.state.counters
    if len(keys) == 1:
        return counters.get(keys[0], 0)
    return sum([counters.get(k, 0) for k in keys])


def _members(c: Ctx[Tricks]) -> list[tuple[int, int, bool]]:
    """(bid, tricks, blind) of each member of the seat's side that has bid (blind: a blind bid, SP-V1)."""
    counters = c.state.counters
    out = []
    for s in c.game.team_seats(c.state.players, c.seat):
        if f"bid.{s}" in counters:
            out.append((counters[f"bid.{s}"], counters.get(f"tricks.{s}", 0), bool(counters.get(f"blind.{s}"))))
    return out


def _counted(c: Ctx[Tricks]) -> int:
    """SP-5.1: the side's tricks taken by members who did not bid nil (a blind nil included)."""
    return sum(t for b, t, _ in _members(c) if b)


WORDS = (
    StatementSpec(
        "bid_max",
        "a round of bids before play: each player bids a whole number of tricks from 0 to this (bid_max = dealt)",
        value=DEAL_ONLY,
        needs_value=True,
    ),
    StatementSpec(
        "no_bid",
        "a bid that may not be made while the condition holds, 'bidding' being the bid weighed (the hook: "
        "no_bid when seat == dealer and bids + bidding == dealt); a player always keeps one legal bid",
        condition=SEAT_IN_DEAL,
        needs_condition=True,
    ),
    Quantity(
        "dealt",
        "the number of cards each player was dealt this deal (the tricks of the deal, when all are played)",
        DEAL_ONLY,
        lambda c: c.state.counters.get("dealt", 0),
        kind="number",
        rulebook="the number of cards each player was dealt",
        form=("counter", "dealt"),
    ),
    Quantity(
        "bid",
        "the tricks the player (with a partner: the side) bid this deal",
        SEAT_IN_DEAL,
        _side_bid,
        kind="number",
        rulebook="your bid",
        form=("side_sum", BID_KEYS),
    ),
    Quantity(
        "counted",
        "the tricks of the player's side taken by members who did not bid 0 (a nil bidder's tricks apart)",
        SEAT_IN_DEAL,
        _counted,
        kind="number",
        rulebook="your side's tricks taken by the partners who did not bid nil",
    ),
    Quantity(
        "nils_made",
        "members of the player's side who bid 0 (not blind) and took no trick",
        SEAT_IN_DEAL,
        lambda c: sum(1 for b, t, blind in _members(c) if not b and not t and not blind),
        kind="number",
        rulebook="the number of nil bids your side made",
    ),
    Quantity(
        "nils_set",
        "members of the player's side who bid 0 (not blind) and took a trick",
        SEAT_IN_DEAL,
        lambda c: sum(1 for b, t, blind in _members(c) if not b and t and not blind),
        kind="number",
        rulebook="the number of nil bids your side failed",
    ),
    Quantity(
        "blind_nils_made",
        "members of the player's side who bid blind nil and took no trick",
        SEAT_IN_DEAL,
        lambda c: sum(1 for b, t, blind in _members(c) if blind and not t),
        kind="number",
        rulebook="the number of blind nil bids your side made",
    ),
    Quantity(
        "blind_nils_set",
        "members of the player's side who bid blind nil and took a trick",
        SEAT_IN_DEAL,
        lambda c: sum(1 for b, t, blind in _members(c) if blind and t),
        kind="number",
        rulebook="the number of blind nil bids your side failed",
    ),
    StatementSpec(
        "blind_nil",
        "a bid of nil made before looking at one's cards, offered to each player for whom the condition holds "
        "once the cards are dealt (blind_nil when max(total) - total >= 100); the hands lie face down until "
        "those players have chosen, in bidding order, and at most one player of a side bids blind",
        condition=PER_SEAT,
        needs_condition=True,
    ),
    StatementSpec(
        "blind_pass",
        "cards a blind bidder passes face down to the partner once the bids are made; the partner then passes "
        "as many back",
        value=CONSTANT,
        needs_value=True,
    ),
    Quantity(
        "bids",
        "the sum of the bids made so far this deal",
        DEAL_ONLY,
        lambda c: c.state.counters.get("bids", 0),
        kind="number",
        rulebook="the sum of the bids made so far",
        form=("counter", "bids"),
    ),
    Quantity(
        "bidding",
        "the bid being weighed (in no_bid)",
        SEAT_IN_DEAL,
        lambda c: c.extra.get("bidding", 0),
        kind="number",
        rulebook="the bid",
        varies=True,  # `no_bid` is judged for every bid: the rest of its condition is read once (`legal`)
    ),
)


class Bidding:
    """The round of bids of one game (see the module docstring); absent from a script without ``bid_max``."""

    def __init__(self, game: Tricks) -> None:
        rules = game.rules
        self.game = game
        self.most = rules.expr("bid_max")
        ban = rules.condition("no_bid")
        self.ban = None if ban is not None and ban.const and not ban.value else ban  # OH-V1: 'no_bid when false'
        self.ids: tuple[str, ...] = game.ids.get("bid", ())
        self.words = NUMBER_WORDS[: len(game.deck.ids) // 2 + 1]
        self._moves = tuple(Action("bid", (), w) for w in self.words)  # the move of each bid, made once
        # the legal bids and their moves by (bid_max, the values `no_bid` reads once): `Compiled.key`
        self._known: dict[tuple[int, Hashable], tuple[tuple[int, ...], tuple[Action, ...]]] = {}

    @property
    def used(self) -> bool:
        return self.most is not None

    def active(self, state: DealState) -> bool:
        return bool(state.counters.get(PHASE, 0))

    def begin(self, state: DealState) -> None:
        """The round starts once the cards are dealt (and the trump turned), with the leader (OH-4.1, SP-3.1)."""
        counters = state.counters
        counters[PHASE] = 1
        counters["bids"] = counters["bids_made"] = 0
        for s in range(state.players):  # SP-V1: a blind nil, declared before the hands were seen, is a bid made
            if counters.get(BLIND_KEYS[s]):
                counters[f"bid.{s}"] = 0
                counters["bids_made"] += 1
        if BID_KEYS[state.to_move] in counters:
            state.to_move = self._next_bidder(state, state.to_move)

    def _next_bidder(self, state: DealState, seat: int) -> int:
        """The next seat after ``seat`` that has not bid yet."""
        s = self.game.next_seat(state, seat)
        for _ in range(state.players):
            if BID_KEYS[s] not in state.counters:
                return s
            s = self.game.next_seat(state, s)
        return s

    def legal(self, state: DealState) -> list[int]:
        """The bids the seat to move may make: 0 to ``bid_max``, less what ``no_bid`` forbids (OH-4.2, OH-4.3).

        A ban that would leave no bid at all is no ban: a player always has a bid to make. The
        answer is kept by what the ban reads besides the bid weighed (a Spades side's bid and the
        hand's size), so that 14 bids are judged once for each such pair, not at every decision."""
        return list(self._judged(state)[0])

    def actions(self, state: DealState) -> list[Action]:
        return list(self._judged(state)[1])

    def _judged(self, state: DealState) -> tuple[tuple[int, ...], tuple[Action, ...]]:
        """The legal bids of the seat to move and their moves, kept by `Compiled.key` where the ban has one."""
        assert self.most is not None
        moves = self._moves
        extra: dict[str, Any] = {}
        ctx = self.game._ctx
        ctx.state, ctx.seat, ctx.extra = state, state.to_move, extra
        try:
            count = min(int(self.most(ctx)), len(self.words) - 1) + 1
            ban = self.ban
            if ban is None:
                return tuple(range(count)), moves[:count]
            reads = ban.key(ctx)
            key = None if reads is None else (count, reads)
            known = None if key is None else self._known.get(key)
            if known is not None:
                return known
            banned = ban.prepare(ctx)  # what does not read the bid weighed is read once
            kept = []
            for b in range(count):
                extra["bidding"] = b
                if not banned():
                    kept.append(b)
            bids = tuple(kept) if kept else tuple(range(count))
        finally:
            ctx.release()
        judged = bids, tuple(moves[b] for b in bids)
        if key is not None:
            if len(self._known) >= KNOWN_MOST:
                self._known.clear()
            self._known[key] = judged
        return judged

    def plain(self) -> tuple[Any, ...] | None:
        """What compiled steps need to offer the legal bids without the script, or None when they cannot.

        ``(each bid's move, the answers kept by key, the highest bid a move names, bid_max's form,
        the forms of the parts no_bid's key reads or None without a ban, the seats on a side)``: the
        forms (`tapete.rules.forms`) of bid_max (Oh Hell's and Spades' ``dealt``) and of the parts
        `Compiled.key` reads (the hook's ``seat == dealer``, ``bids`` and ``dealt``) make the very key
        `_judged` makes, and the answers it kept for that key are the legal bids. A key not kept yet,
        a value not a plain number, a rule with a part that has no form: the script judges, as ever."""
        if self.most is None or self.most.form is None:
            return None
        parts = None
        if self.ban is not None:
            parts = self.ban.key_forms()
            if parts is None:
                return None
        return (self._moves, self._known, len(self.words) - 1, self.most.form, parts, self.game.teams)

    def refusal(self, state: DealState, action: Action) -> str | None:
        ids = " ".join(self.ids)
        if action.kind != "bid" or action.cards or action.detail not in BID_OF_WORD:
            return f"the players bid before play: a move is 'bid NUMBER', the number in letters ('bid two') ({ids})"
        legal = self.legal(state)
        if BID_OF_WORD[action.detail] in legal:
            return None
        said = ", ".join(str(b) for b in legal)
        return f"you may not bid {BID_OF_WORD[action.detail]} now: you may bid {said} ({ids})"

    def apply(self, state: DealState, action: Action) -> list[dict[str, Any]]:
        """Record the bid, face up for all; after the last bid, play begins (OH-4.1, OH-5.1)."""
        seat, bid = state.to_move, BID_OF_WORD[action.detail]
        counters = state.counters
        counters[BID_KEYS[seat]] = bid
        counters["bids"] += bid
        counters["bids_made"] += 1
        if counters["bids_made"] < state.players:
            state.to_move = self._next_bidder(state, seat)
        else:
            counters[PHASE] = 0
            self.closed(state)
        return [{"say": f"bids {bid}"}]

    def closed(self, state: DealState) -> None:
        """The last bid is made and the round ended: what follows begins (`apply`, or the C session)."""
        if not self.game.blind.after_bids(state):  # SP-V1: the blind bidders' exchange comes first
            self.game._lead_now(state)

    def standing(self, counters: Mapping[str, int], players: int) -> str:
        """Each seat's bid so far, in words for the table (OH-4.2: every bid is announced)."""
        said = ", ".join(
            f"seat {s}: {counters[f'bid.{s}']}" if f"bid.{s}" in counters else f"seat {s}: -" for s in range(players)
        )
        return f"bids: {said}"

    def move_kinds(self) -> list[MoveKind]:
        """One slot per bid the deck allows (0 to half the deck), so a learning environment's space is fixed."""
        return [MoveKind("bid", detail=w) for w in self.words]

    def moves_help(self) -> list[MoveHelp]:
        return [
            MoveHelp(
                "bid NUMBER",
                "bid",
                "before play, bid the number of tricks you will take, in letters ('bid two') or by the move's "
                "number in the list; every bid is seen by all",
                self.ids,
            )
        ]

    def rulebook(self) -> list[RuleText]:
        out = [
            RuleText(
                "After the deal each player bids once, in turn, the number of tricks they will take, from 0 to "
                "{bid_max.value}; every bid is announced, and none is changed",
                move="bid NUMBER",
                ids=self.ids,
            )
        ]
        if self.ban is not None:
            out.append(
                RuleText("A bid is not allowed when {no_bid.condition}, unless no other bid is left", ids=self.ids)
            )
        elif self.game.rules.has("no_bid"):
            out.append(RuleText("Any of those bids is allowed, the dealer's too", covers=("no_bid",)))
        return out
