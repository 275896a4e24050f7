"""Trick-taking mechanics: the pass, the trick, following suit, trumps, the draw from the stock.

What every trick game shares is here, once: a trick is led and followed in the direction
of play, one card a seat; its winner (the highest trump, else the highest card of the suit
led) takes it and leads the next. The script chooses the rest: the trump (none, a suit,
the card turned up under the stock), how strictly suit is followed, the pass before play
and where it goes deal after deal, what may not be led or played yet (hearts before they
are broken, penalty cards on the first trick), the first lead, the trump exchange, and
every card's worth. Hearts (HE-…) and Briscola (BR-…) are two scripts of this class.

The state: ``hand.N``, ``trick`` (the cards of the trick in play, in the order played,
face up), ``taken.N`` (tricks won, face down), ``stock`` and ``turned`` (Briscola's face-up
trump card, the stock's last card), ``chosen.N`` while the pass lasts (`HiddenChoices`),
``removed`` (cards a ``remove`` statement set aside). Public counters: ``lead`` (who led
the trick in play, so who played each of its cards follows from the order), ``played``
(tricks finished), ``tricks.N``, ``broken``, ``trump`` (1 + the trump suit's index, 0: no
trump), ``pass_to`` (seats the pass goes along, 0: no pass).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from tapete import (
    Action,
    Compiled,
    Ctx,
    DealState,
    Game,
    HiddenChoices,
    MoveHelp,
    MoveKind,
    QuickSteps,
    Random,
    Rules,
    RuleText,
    View,
)

from .bidding import BID_KEYS, Bidding
from .bidding import PHASE as BIDDING
from .blind import PASSING, Blind
from .blind import ROUND as BLIND_ROUND
from .words import COUNTER_TRUTHS, NEXT_DEALER, WORDS

_fast: Any
try:  # the commonest steps in C, where they were built (_fast.c); this file's Python is their reference
    from . import _fast
except ImportError:
    _fast = None

# The rule ids each game's documents give the family's mechanics (cited by help, refusals, the rulebook).
IDS = {
    "hearts": {
        "deal": ("HE-2.2",),
        "pass": ("HE-2.3",),
        "lead": ("HE-3.1",),
        "follow": ("HE-3.2",),
        "ban_first": ("HE-3.3",),
        "win": ("HE-3.4",),
        "broken": ("HE-3.5",),
        "draw": (),
        "exchange": (),
    },
    "briscola": {
        "deal": ("BR-2.2",),
        "pass": (),
        "lead": ("BR-3.1",),
        "follow": ("BR-3.2",),
        "ban_first": (),
        "win": ("BR-3.3",),
        "broken": (),
        "draw": ("BR-3.4", "BR-3.5"),
        "exchange": ("BR-V4",),
    },
    "oh-hell": {
        "deal": ("OH-2.2", "OH-3.2"),
        "pass": (),
        "lead": ("OH-5.1",),
        "follow": ("OH-5.2",),
        "ban_first": (),
        "win": ("OH-5.3",),
        "broken": (),
        "draw": (),
        "exchange": (),
        "trump": ("OH-3.3", "OH-3.4"),
        "bid": ("OH-4.1", "OH-4.2", "OH-4.3"),
    },
    "spades": {
        "deal": ("SP-2.2",),
        "pass": (),
        "lead": ("SP-4.1",),
        "follow": ("SP-4.2",),
        "ban_first": (),
        "win": ("SP-4.3",),
        "broken": ("SP-4.4",),
        "draw": (),
        "exchange": (),
        "bid": ("SP-3.1", "SP-3.2", "SP-3.3"),
        "blind": ("SP-V1",),
    },
}
WAY_WORDS = {"left": "to the left", "right": "to the right", "across": "across", "hold": "nowhere"}
PASS_WAYS = ("nowhere", "to the left", "to the right", "across")  # `Tricks.pass_way`'s words, in the C steps' order
PASS_SAID = tuple(f"the cards are passed {way}" for way in PASS_WAYS)  # what is said as the cards are handed on


class Tricks(Game):
    name = "tricks"
    default_bot = "heuristic"  # each game registers its own bot under this name (Hearts', Briscola's)
    summary = "Trick-taking: Hearts and Briscola - follow suit, trumps, the pass, card points in the script"
    words = WORDS
    zone_kinds = ("hand", "trick", "taken", "stock", "turned", "chosen", "facedown")
    seat_zones = ("hand", "taken", "chosen", "facedown")
    hand_size_word = "hand_size"
    zone_words = {
        "trick": "the trick in play",
        "taken": "tricks taken",
        "turned": "the turned trump card",
        "chosen": "cards chosen to pass",
        "facedown": "a hand not looked at yet",
    }

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        deck = self.deck
        self.ids = IDS.get(rules.game, IDS["hearts"])
        self.suit_of = deck.suit_of
        self.pos = rules.order_pos
        self.hand_size = rules.expr("hand_size")
        self.trump_rule: str = rules.parsed_words("trump", default="none")
        self.draws: bool = rules.parsed_words("draw", default="after_trick") != "none"
        self.no_trump = rules.condition("no_trump")
        self.follow: str = rules.parsed_words("follow", default="must")
        self.pass_count = int(rules.constant("pass_count", 0) or 0)
        self.cycle: tuple[str, ...] = rules.parsed_words("pass_cycle", default=("hold",))
        if not self.pass_count:
            self.cycle = ("hold",)
        self.first_card: frozenset[int] = rules.parsed_words("first_card", default=frozenset())
        self.breaks: frozenset[int] = rules.parsed_words("breaks", default=frozenset())
        # (cards, condition) of each ban; leads are judged by both kinds, follows by no_play only
        # a ban whose condition is false at load time is no ban (HE-V3 lifts the first-trick ban so)
        self.no_play = self._bans("no_play")
        self.no_lead = self._bans("no_lead")
        self.lead_bans = self.no_play + self.no_lead
        # made once, read every move: the cards of each suit, and the one move playing each card
        self.of_suit = {s: frozenset(c for c in deck.ids if self.suit_of[c] == s) for s in deck.suits}
        self.plays = tuple(Action("play", (c,)) for c in deck.ids)
        # what breaking is called: spades when only spades break them (SP-4.4), else hearts (HE-3.5)
        spades = {c for c in deck.ids if self.suit_of[c] == "♠"}
        self.broken_suit = "spades" if self.breaks and self.breaks <= spades else "hearts"
        self.exchange_rank: str | None = rules.parsed_words("exchange")
        self.exchange_when = rules.condition("exchange")
        self.leader_rule = rules.expr("leader")
        self.choices = HiddenChoices(self, "pass")
        self.bidding = Bidding(self)
        self.blind = Blind(self)
        self.tables = {name: tuple(values) for name, values in rules.tables.items()}
        self._ctx = Ctx(game=self)
        # each seat's zone and counter names, made once: a deal names them all (MAX_PLAYERS is 16)
        self._hand_zones = tuple(f"hand.{s}" for s in range(16))
        self._taken_zones = tuple(f"taken.{s}" for s in range(16))
        self._tricks_counters = tuple(f"tricks.{s}" for s in range(16))
        self._counters_at_start: dict[int, dict[str, int]] = {}
        # id of a card table the script hands a word -> (the table, the cards it counts above zero): `took_all`
        self._counted_cards: dict[int, tuple[tuple[Any, ...], tuple[int, ...]]] = {}
        self._fast = self._fast_rules()
        self._quick = None if self._fast is None else QuickSteps(self._fast.legal, self._fast.play, self._fast.session)

    def _fast_rules(self) -> Any:
        """The play rules for the C steps (`_fast`), or None where they cannot be used.

        The C code answers `legal_actions` in play and plays a card as `apply` does, the trick
        taken with it; this Python stays the rules' reference (tests/tricks/test_fast.py plays
        every variant both ways). It needs a deck of at most 64 cards, each of a suit, and no
        trump exchange (a second kind of move in play); the bans go as card masks, and a ban's
        condition, when it decides, is read by the script through `_judge`."""
        deck = self.deck
        if _fast is None or self.exchange_rank is not None or len(deck.ids) > 64:
            return None
        if type(self).next_seat is not Game.next_seat:  # the C steps move the turn on as Game.next_seat does
            return None
        if any(not 0 <= self.pos[c] < 256 for c in deck.ids):
            return None
        if list(deck.ids) != list(range(len(deck.ids))) or any(self.suit_of[c] not in deck.suits for c in deck.ids):
            return None

        def mask(cards: Collection[int]) -> int:
            return sum(1 << c for c in set(cards))

        def reads(when: Compiled) -> tuple[str, bool] | None:
            """(counter, truth) when the condition is a counter's truth (``not broken``): read in C."""
            truth = when.truth()
            if truth is None or truth[0] not in COUNTER_TRUTHS:
                return None
            counter, true_when = COUNTER_TRUTHS[truth[0]]
            return counter, true_when == truth[1]

        def bans(pairs: list[tuple[frozenset[int], Compiled]]) -> list[tuple[int, bool, tuple[str, bool] | None]]:
            return [(mask(cards), bool(when.const and when.value), reads(when)) for cards, when in pairs]

        if len(self.lead_bans) > 16:
            return None
        follow = {"free": 0, "must": 1, "trump": 2}.get(self.follow, 1)
        return _fast.Rules(
            bytes(deck.suits.index(self.suit_of[c]) for c in deck.ids),
            tuple(mask(self.of_suit[s]) for s in deck.suits),
            follow,
            mask(self.first_card),
            mask(self.breaks),
            bans(self.lead_bans),
            bans(self.no_play),
            self.plays,
            self._hand_zones,
            self.step,
            bytes(self.pos[c] for c in deck.ids),
            tuple(deck.format(c) for c in deck.ids),
            self._taken_zones,
            self._tricks_counters,
            self.draws,
            (HiddenChoices.key,),  # the phases before play: the pass, blind bids, the round of bids
            (BLIND_ROUND, BIDDING),
            self._judge,
            # the pass (HE-2.3) and the blind nil exchange: a card chosen while the phase goes on; the pass's
            # last card (the cards handed on, then `_passed`) unless the blind nil exchange is on (`apply`);
            # where the leader rule has a plain form (`holder(2♣)`, HE-3.1), `_passed` is done in C with it
            (
                HiddenChoices.key,
                self.choices.kind,
                self.choices.moves(),
                tuple(HiddenChoices.zone(s) for s in range(16)),
                self._passed if self.choices.kind == "pass" else None,
                (PASSING,),
                "pass_to",
                NEXT_DEALER if self.leader_rule is None else self.leader_rule.form,
                PASS_SAID,
            ),
            # the round of bids (OH-4, SP-3), for the session that follows a deal: the legal bids are the
            # script's (`Bidding.actions`), a bid made is recorded as `Bidding.apply` records it, and after
            # the last one the game begins what follows (`Bidding.closed`); where bid_max and the parts of
            # no_bid have plain forms, the legal bids kept for a key are found without the script
            (
                self.bidding.actions,
                "bid",
                tuple(self.bidding.words),
                BID_KEYS,
                BIDDING,
                "bids",
                "bids_made",
                self.bidding.closed,
                self.bidding.plain(),
            )
            if self.bidding.used
            else None,
        )

    def _bans(self, key: str) -> list[tuple[frozenset[int], Compiled]]:
        out: list[tuple[frozenset[int], Compiled]] = []
        for first, _ in self.rules.each(key):
            when = self.rules.condition(key, first)
            if when is not None and not (when.const and not when.value):
                out.append((self.rules.parsed_words(key, first), when))
        return out

    def facts(self) -> dict[str, Any]:
        """What a trick bot may know of the rules: the card tables, the rank order, the trump rule, the bans."""
        return {
            "tables": dict(self.tables),
            "pos": self.pos,
            "suit_of": self.suit_of,
            "follow": self.follow,
            "trump_rule": self.trump_rule,
            "breaks": frozenset(self.breaks),
            "pass_count": self.pass_count,
        }

    # -- the deal (HE-2, BR-2) ----------------------------------------------------------
    def deal(self, state: DealState, rng: Random, ctx: Ctx) -> None:
        cards = self.shuffled_deck(rng)  # without the cards a ``remove`` statement set aside
        n = state.players
        size = int(self.hand_size(ctx)) if self.hand_size is not None else len(cards) // n
        first = self.next_seat(state, state.dealer)  # dealt to first, and the first to choose in the pass
        self.deal_round_robin(state, cards, size, first)
        zones, counters = state.zones, state.counters
        bidding = self.bidding.used
        if bidding:
            counters["dealt"] = size  # what ``bid_max`` and the bots read: the tricks of the deal
        trump_rule = self.trump_rule
        if trump_rule == "none":
            pass
        elif trump_rule == "turned" and (not cards or self._untrumped(state)):  # OH-3.4, OH-V5: no trumps
            counters["trump"] = 0
        elif trump_rule == "turned":  # BR-2.2, OH-3.3: the next card is turned; it is the stock's last card
            turned = cards.pop()
            zones["turned"] = [turned]
            counters["trump"] = 1 + self.deck.suits.index(self.suit_of[turned])
        elif trump_rule == "last":  # the dealer's last card decides the trump suit; the card stays in hand
            last = zones[f"hand.{state.dealer}"][-1]
            counters["trump"] = 1 + self.deck.suits.index(self.suit_of[last])
        else:
            counters["trump"] = 1 + self.deck.suits.index(trump_rule)
        if cards or trump_rule == "turned":
            zones["stock"] = cards  # what is left is drawn after each trick, the top (last) first
        zones["trick"] = []
        taken = self._taken_zones if n <= 16 else tuple(f"taken.{s}" for s in range(n))
        for s in range(n):
            zones[taken[s]] = []
        counters.update(self._trick_counters(n))  # tricks.0 ... tricks.N-1 and played, all 0, in that order
        number = ctx.ledger.deal_number if ctx.ledger is not None else 1
        way = self.cycle[(max(number, 1) - 1) % len(self.cycle)]
        steps = counters["pass_to"] = self._steps(way, n)
        if steps:
            self.choices.begin(state, first, self.pass_count)
        elif bidding and not self.blind.begin(state, ctx):  # SP-V1: blind bids before the hands are seen
            self.bidding.begin(state)

    def _trick_counters(self, players: int) -> dict[str, int]:
        """The counters a deal starts with, ``tricks.N`` for each seat then ``played``, all 0: made once per count."""
        made = self._counters_at_start.get(players)
        if made is None:
            made = self._counters_at_start[players] = {**{f"tricks.{s}": 0 for s in range(players)}, "played": 0}
        return made

    def deal_started(self, state: DealState) -> None:
        if self.blind.when is not None:
            self.blind.started(state)  # SP-V1: the declarations go round from the first bidder

    def _untrumped(self, state: DealState) -> bool:
        """The ``no_trump`` rule for the deal just dealt (OH-V5: the hands of M cards have no trumps)."""
        if self.no_trump is None:
            return False
        with self._ctx.bound(state) as ctx:
            return bool(self.no_trump(ctx))

    @staticmethod
    def _steps(way: str, players: int) -> int:
        """Seats along the direction of play the pass goes (HE-2.3): left 1, right -1, across half the table."""
        if way == "left":
            return 1
        if way == "right":
            return players - 1
        if way == "across" and players % 2 == 0:
            return players // 2
        return 0

    def _passed(self, state: DealState) -> list[dict[str, Any]]:
        """The pass's cards handed on (`apply`, or the C steps doing the same): play begins (HE-2.3, HE-3.1)."""
        self._lead_now(state)
        return [{"say": PASS_SAID[PASS_WAYS.index(self.pass_way(state))]}]

    def _lead_now(self, state: DealState) -> None:
        """Play begins: the ``leader`` rule on the hands as they are after the pass (HE-3.1)."""
        if self.leader_rule is not None:
            ctx = self._ctx  # bound to the deal for the rule, then released (`Ctx.release`: no with-block's calls)
            ctx.state, ctx.seat = state, None  # type: ignore[assignment]  # a deal-wide rule
            try:
                state.to_move = int(self.leader_rule(ctx)) % state.players
            finally:
                ctx.release()
        else:
            state.to_move = self.next_seat(state, state.dealer)
        state.counters["lead"] = state.to_move

    # -- the moves ----------------------------------------------------------------------
    def trump_suit(self, state: DealState) -> str | None:
        t = state.counters.get("trump", 0)
        return self.deck.suits[t - 1] if t else None

    def playable(self, state: DealState, seat: int, hand: Collection[int] | None = None) -> list[int]:
        """The cards ``seat`` may play now: following (HE-3.2), the first lead (HE-3.1), the bans (HE-3.3, 3.5).

        ``hand`` stands for the seat's hand when given: the void inference asks what a
        smaller hand could have played (`excluded`). A new list every call; the hand is
        copied only when no rule narrows it. A ban's condition is evaluated only when the
        ban would keep some cards and take others, the one case where it decides anything."""
        cards: Collection[int] = state.zones[f"hand.{seat}"] if hand is None else hand
        narrowed: list[int] | None = None  # the cards left once a rule took some away
        trick = state.zones["trick"]
        if not trick:
            bans = self.lead_bans
            if self.first_card and not state.counters.get("played", 0):
                narrowed = list(filter(self.first_card.__contains__, cards)) or None
        else:
            bans = self.no_play
            if self.follow != "free":
                narrowed = list(filter(self.of_suit[self.suit_of[trick[0]]].__contains__, cards)) or None
                if narrowed is None and self.follow == "trump":
                    trump = self.trump_suit(state)
                    if trump is not None:
                        narrowed = list(filter(self.of_suit[trump].__contains__, cards)) or None
        if narrowed is not None:
            cards = narrowed
        if bans and len(cards) > 1:
            ctx: Ctx | None = None
            try:
                for banned, when in bans:
                    if banned.isdisjoint(cards):
                        continue
                    kept = [c for c in cards if c not in banned]
                    if not kept:
                        continue
                    if ctx is None:
                        ctx = self._ctx
                        # a smaller hand asked about: the conditions read it
                        ctx.state = state if hand is None else self._with_hand(state, seat, hand)
                        ctx.seat = seat
                    if when(ctx):
                        cards = narrowed = kept
            finally:
                if ctx is not None:
                    ctx.release()
        return narrowed if narrowed is not None else list(cards)

    def _judge(self, state: DealState, seat: int, lead: bool, index: int) -> bool:
        """Whether a ban's condition holds now, asked by the C steps when it decides (as `playable` reads it)."""
        when = (self.lead_bans if lead else self.no_play)[index][1]
        ctx = self._ctx
        ctx.state, ctx.seat = state, seat
        try:
            return bool(when(ctx))
        finally:
            ctx.release()

    @staticmethod
    def _with_hand(state: DealState, seat: int, hand: Collection[int]) -> DealState:
        probe = DealState(players=state.players, dealer=state.dealer, to_move=seat)
        probe.zones = dict(state.zones)
        probe.zones[f"hand.{seat}"] = list(hand)
        probe.counters = state.counters
        return probe

    def _exchange(self, state: DealState, seat: int) -> int | None:
        """The card of trumps ``seat`` may exchange for the turned card now (BR-V4), or None."""
        rank, when = self.exchange_rank, self.exchange_when
        turned = state.zones.get("turned")
        if rank is None or when is None or not turned:
            return None
        trump = self.trump_suit(state)
        for c in state.zones[f"hand.{seat}"]:
            if self.deck.rank_of[c] == rank and self.suit_of[c] == trump:
                with self._ctx.bound(state, seat) as ctx:
                    return c if when(ctx) else None
        return None

    def quick_steps(self) -> QuickSteps | None:
        """The C steps' own methods (`_fast.Rules.legal`, `.play`), which `legal_actions` and `apply`
        below ask first: a `tapete.Deal` calls them with no Python frame of the game's."""
        return self._quick  # made once, with the C steps (every `tapete.Deal` asks as it begins)

    def legal_actions(self, state: DealState) -> list[Action]:
        if self._fast is not None:  # in play (no pass, no bids on), the C steps answer as below
            quick: list[Action] | None = self._fast.legal(state)
            if quick is not None:
                return quick
        if self.choices.active(state):
            return self.choices.actions(state)
        if self.blind.active(state):
            return self.blind.actions(state)
        if self.bidding.active(state):
            return self.bidding.actions(state)
        seat = state.to_move
        plays = self.plays
        actions = [plays[c] for c in self.playable(state, seat)]
        if self.exchange_rank is not None:
            swap = self._exchange(state, seat)
            if swap is not None:
                actions.append(Action("exchange", (swap,)))
        return actions

    def move_kinds(self) -> list[MoveKind]:
        """A card played (HE-3.2, BR-3.2), a card passed (HE-2.3), the 7 of trumps exchanged (BR-V4)."""
        kinds = [MoveKind("play", cards=self.deck.ids)]
        if self.bidding.used:
            kinds += self.bidding.move_kinds()
        if self.blind.used:
            kinds += self.blind.move_kinds()
        if (self.pass_count and any(w != "hold" for w in self.cycle)) or (self.blind.used and self.blind.count):
            kinds.append(MoveKind("pass", cards=self.deck.ids))
        if self.exchange_rank is not None:
            kinds.append(
                MoveKind("exchange", cards=[c for c in self.deck.ids if self.deck.rank_of[c] == self.exchange_rank])
            )
        return kinds

    def refusal(self, state: DealState, action: Action) -> str | None:
        deck = self.deck
        if self.choices.active(state):
            why = self.choices.refusal(state, action)
            if why is not None and self.blind.passing(state):
                return f"{why}: you choose {self.blind.count} cards to pass ({' '.join(self.blind.ids)})"
            if why is not None:
                return f"{why}: you choose {self.pass_count} cards to pass ({' '.join(self.ids['pass'])})"
            return None
        if self.blind.active(state):
            return self.blind.refusal(state, action)
        if self.bidding.active(state):
            return self.bidding.refusal(state, action)
        seat = state.to_move
        hand = state.zones[f"hand.{seat}"]
        if action.kind == "exchange":
            swap = self._exchange(state, seat)
            if swap is not None and action.cards == (swap,):
                return None
            return f"you may not exchange now ({' '.join(self.ids['exchange']) or 'no exchange in this game'})"
        if action.kind != "play" or len(action.cards) != 1:
            return "a move is 'play CARD'" + (" or 'exchange CARD'" if self.exchange_rank else "")
        card = action.cards[0]
        if card not in hand:
            return f"{deck.format(card)} is not in your hand"
        allowed = self.playable(state, seat)
        if card in allowed:
            return None
        return self._why_not(state, seat, card, allowed)

    def _why_not(self, state: DealState, seat: int, card: int, allowed: list[int]) -> str:
        """Why a card in the hand may not be played now, in a player's words."""
        ids = self.ids
        trick = state.zones["trick"]
        shown = " ".join(self.deck.format(c) for c in allowed)
        if trick and self.follow != "free":
            led = self.suit_of[trick[0]]
            if any(self.suit_of[c] == led for c in state.zones[f"hand.{seat}"]) and self.suit_of[card] != led:
                return f"you must follow suit: {led} was led and you hold {led} ({' '.join(ids['follow'])})"
        if not trick and self.first_card and not state.counters.get("played", 0) and card not in self.first_card:
            return f"the first trick is led with {shown} ({' '.join(ids['lead'])})"
        if not trick and card in self.breaks and not state.counters.get("broken", 0):
            return f"{self.broken_suit} are not broken yet: lead {shown} ({' '.join(ids['broken'])})"
        if not state.counters.get("played", 0):
            return f"not on the first trick: play {shown} ({' '.join(ids['ban_first'])})"
        return f"you may play {shown} now"

    def apply(self, state: DealState, action: Action) -> list[dict[str, Any]]:
        if self._fast is not None:
            done: list[dict[str, Any]] | None = self._fast.play(state, action)
            if done is not None:  # played in C as below (HE-3.2, HE-3.4, BR-3.4)
                return done
        if action.kind == "pass" and self.blind.passing(state):
            return self.blind.passed(state, action.cards[0])
        if action.kind in ("blind", "look"):
            return self.blind.apply(state, action)
        if action.kind == "pass":
            if self.choices.choose(state, action.cards[0]):
                steps, n = state.counters["pass_to"], state.players
                hands = self._hand_zones if n <= 16 else tuple(f"hand.{s}" for s in range(n))
                targets = {s: hands[self.next_seat(state, s, steps)] for s in range(n)}
                self.choices.hand_on(state, targets)
                return self._passed(state)
            return []
        if action.kind == "bid":
            return self.bidding.apply(state, action)
        seat = state.to_move
        zones, counters = state.zones, state.counters
        if action.kind == "exchange":  # BR-V4: the 7 of trumps for the turned card
            card = action.cards[0]
            hand = zones[f"hand.{seat}"]
            hand.remove(card)
            hand.append(zones["turned"][0])
            zones["turned"][0] = card
            return [{"say": f"exchanges {self.deck.format(card)} for the turned card"}]
        card = action.cards[0]
        zones[f"hand.{seat}"].remove(card)
        trick = zones["trick"]
        if not trick:
            counters["lead"] = seat
        trick.append(card)
        if card in self.breaks:
            counters["broken"] = 1
        if len(trick) < state.players:
            state.to_move = self.next_seat(state, seat)
            return []
        lead = counters["lead"]
        winner = self.next_seat(state, lead, self.winning_index(state, trick))
        names = [self.deck.format(c) for c in trick]
        said = f"plays {names[-1]}: seat {winner} takes the trick ({' '.join(names)})"
        zones[f"taken.{winner}"].extend(trick)
        trick.clear()
        counters[f"tricks.{winner}"] += 1
        counters["played"] += 1
        self._draw(state, winner)
        state.to_move = counters["lead"] = winner
        if not zones[f"hand.{winner}"]:
            state.over = True
        # the trick's cards lie face up until it is taken: every seat sees them go (and the last one played)
        return [{"say": said, "show": names}]

    def winning_index(self, state: DealState, trick: list[int]) -> int:
        """Which card of the trick wins: the highest trump, else the highest of the suit led (HE-3.4, BR-3.3)."""
        suit_of, pos = self.suit_of, self.pos
        trump = self.trump_suit(state)
        best = 0
        for i in range(1, len(trick)):
            c, b = trick[i], trick[best]
            if suit_of[c] == suit_of[b]:
                if pos[c] > pos[b]:
                    best = i
            elif suit_of[c] == trump:
                best = i
        return best

    def _draw(self, state: DealState, winner: int) -> None:
        """BR-3.4: while the stock lasts, the winner draws first, then the others in order; the turned card last."""
        stock = state.zones.get("stock")
        if stock is None or not self.draws:  # OH-3.3: under ``draw none`` the stock takes no part in play
            return
        turned = state.zones.get("turned", [])
        if not stock and not turned:
            return
        seat = winner
        for _ in range(state.players):
            source = stock if stock else turned
            if not source:
                break
            state.zones[f"hand.{seat}"].append(source.pop())
            seat = self.next_seat(state, seat)

    def pass_way(self, state: DealState) -> str:
        """Where this deal's pass goes, in words (HE-2.3); the C steps choose among `PASS_WAYS` alike."""
        steps = state.counters.get("pass_to", 0)
        n = state.players
        if not steps:
            return PASS_WAYS[0]
        if steps == 1:
            return PASS_WAYS[1] if self.step == 1 else PASS_WAYS[2]
        if steps == n - 1:
            return PASS_WAYS[2] if self.step == 1 else PASS_WAYS[1]
        return PASS_WAYS[3]

    # -- what the play proves (for the searches) -------------------------------------------
    def excluded(self, view: View) -> Mapping[int, Collection[str]]:
        """Cards a seat is proved not to hold by its own legal plays (HE-3.2, HE-3.3, HE-3.5; BR-3.4).

        Each card ``c`` a seat played was legal: for an unseen card ``x``, if ``c`` would not
        have been legal from a hand holding both ``c`` and ``x`` (``x`` of the suit led when
        ``c`` is not, ``x`` not a heart when ``c`` was a heart led before hearts were broken,
        ``x`` harmless when ``c`` was Q♠ on the first trick), the seat did not hold ``x``; it
        still does not, since hands only lose cards, until it draws from the stock (Briscola),
        which makes every unseen card possible again. The bans' conditions are asked of that
        two-card hand: the family's words make a ban only stricter as a hand grows
        (``holds_only`` turns false, nothing turns true), so the answer holds for the real hand."""
        unseen = view.unseen()
        if not unseen:
            return {}
        players = view.players
        state = DealState(players=players, dealer=view.dealer)
        state.zones = {f"hand.{s}": [] for s in range(players)}
        state.zones["trick"] = []
        if "removed" in view.zones:
            state.zones["removed"] = list(view.zones["removed"])
        counters = state.counters
        counters["trump"] = view.counters.get("trump", 0)
        counters["played"] = counters["broken"] = 0
        proved: dict[int, dict[int, bool]] = {}  # seat -> unseen card -> proved absent
        trick = state.zones["trick"]
        for event in view.history:
            if event.kind != "action" or event.seat is None or event.action is None:
                continue
            seat = event.seat
            for move in event.moves:
                if move.source in ("stock", "turned") and move.target == f"hand.{seat}" and move.card is None:
                    proved.pop(seat, None)  # a card drawn unseen: any card may be back
            act = event.action
            if act.kind != "play" or not act.cards:
                continue
            card = act.cards[0]
            if seat != view.seat:
                absent = proved.setdefault(seat, {})
                for x in unseen:
                    if x not in absent and card not in self.playable(state, seat, (card, x)):
                        absent[x] = True
            if not trick:
                counters["lead"] = seat
            trick.append(card)
            if card in self.breaks:
                counters["broken"] = 1
            if len(trick) == players:
                trick.clear()
                counters["played"] += 1
        out: dict[int, set[str]] = {}
        for seat, absent in proved.items():
            for x in absent:
                out.setdefault(x, set()).add(f"hand.{seat}")
        return out

    # -- words for a person at the table ------------------------------------------------
    def moves_help(self) -> list[MoveHelp]:
        ids = self.ids
        follow = {
            "must": "follow the suit led when you can",
            "free": "any card: you need not follow suit",
            "trump": "follow the suit led when you can, else trump when you can",
        }[self.follow]
        out = [
            MoveHelp(
                "play CARD",
                "play",
                f"play a card to the trick (the card alone does it): {follow}",
                ids["follow"] + ids["win"],
            )
        ]
        if self.pass_count and any(w != "hold" for w in self.cycle):
            out.append(
                MoveHelp(
                    "pass CARD",
                    "pass",
                    f"before play, choose {self.pass_count} cards to pass, one at a time; you see what you get "
                    "only when everyone has chosen",
                    ids["pass"],
                )
            )
        if self.bidding.used:
            out += self.bidding.moves_help()
        if self.blind.used:
            out += self.blind.moves_help()
            if self.blind.count:
                out.append(
                    MoveHelp(
                        "pass CARD",
                        "pass",
                        f"after the bids, a blind nil bidder passes {self.blind.count} cards face down to the "
                        "partner, one at a time, and the partner passes as many back",
                        self.blind.ids,
                    )
                )
        if self.exchange_rank is not None:
            out.append(
                MoveHelp(
                    "exchange CARD",
                    "exchange",
                    f"exchange the {self.exchange_rank} of trumps for the turned card, before you play",
                    ids["exchange"],
                )
            )
        return out

    def rules_help(self) -> list[str]:
        ids = self.ids
        lines = [f"{' '.join(ids['win'])} the highest trump wins the trick, else the highest card of the suit led"]
        if self.breaks:
            lines.append(f"{' '.join(ids['broken'])} some cards may not be led until {self.broken_suit} are broken")
        if self.trump_rule == "turned" and self.draws:
            lines.append(f"{' '.join(ids['draw'])} after each trick the winner draws first, the turned card comes last")
        return [line.strip() for line in lines]

    def standing(self, view: View) -> list[str]:
        """Tricks taken so far, and whether hearts are broken, from the seat's view."""
        taken = ", ".join(f"seat {s}: {view.counters.get(f'tricks.{s}', 0)}" for s in range(view.players))
        lines = [f"tricks taken: {taken}"]
        if self.bidding.used:
            lines.append(self.bidding.standing(view.counters, view.players))
        if self.breaks:
            said = "broken" if view.counters.get("broken") else "not broken yet"
            lines.append(f"{self.broken_suit} are {said}")
        return lines

    def describe_deal(self, state: DealState) -> list[str]:
        tricks = ", ".join(f"seat {s}: {state.counters.get(f'tricks.{s}', 0)}" for s in range(state.players))
        lines = [f"tricks: {tricks}"]
        if self.bidding.used:
            lines.append(self.bidding.standing(state.counters, state.players))
        for name, values in self.tables.items():
            got = ", ".join(
                f"seat {s}: {sum(values[c] for c in state.zones.get(f'taken.{s}', ()))}" for s in range(state.players)
            )
            lines.append(f"{name}: {got}")
        return lines

    # -- the players' rulebook ---------------------------------------------------------
    def rulebook(self) -> list[tuple[str, list[RuleText]]]:
        ids, rules = self.ids, self.rules
        deal = []
        if rules.has("hand_size"):
            deal.append(RuleText("Each player is dealt {hand_size} cards, one at a time", ids=ids["deal"]))
        else:
            deal.append(RuleText("The dealer deals every card, one at a time, so all hands are alike", ids=ids["deal"]))
        for first, _ in rules.each("remove"):
            deal.append(
                RuleText(
                    f"Before the deal {self._cards_words(rules.parsed_words('remove', first), 'and')} "
                    f"{'is' if len(rules.parsed_words('remove', first)) == 1 else 'are'} taken out of the deck and "
                    f"laid face up when {{remove {first}.condition}}",
                    covers=("remove",),
                )
            )
        if self.trump_rule == "turned" and not self.draws:
            deal.append(
                RuleText(
                    "The dealer turns the next card face up: its suit is trumps for the deal; it and the rest of the "
                    "stock take no part in play. When no card is left to turn, the deal has no trumps",
                    covers=("trump", "draw"),
                    ids=ids.get("trump", ids["deal"]),
                )
            )
        if rules.has("no_trump"):
            deal.append(RuleText("The deal has no trumps, and no card is turned, when {no_trump.condition}"))
        if self.trump_rule == "turned" and self.draws:
            deal.append(
                RuleText(
                    "The next card is turned face up under the stock: its suit is trumps for the whole deal, and it "
                    "is the last card of the stock",
                    covers=("trump",),
                    ids=ids["deal"],
                )
            )
        turn: list[RuleText] = self.blind.rulebook() if self.blind.used else []
        turn += self.bidding.rulebook() if self.bidding.used else []
        if self.pass_count:
            ways = ", then ".join(WAY_WORDS[w] for w in self.cycle)
            turn.append(
                RuleText(
                    f"Before play each player chooses {self.pass_count} cards and passes them face down: {ways}, "
                    "deal after deal; you see the cards you receive only once everyone has chosen",
                    covers=("pass_count", "pass_cycle"),
                    move="pass CARD",
                    ids=ids["pass"],
                )
            )
        follow = {
            "must": "You must follow the suit led when you can; otherwise play any card",
            "free": "You may play any card: there is no obligation to follow suit or to trump",
            "trump": "You must follow the suit led when you can, else play a trump when you can",
        }[self.follow]
        turn.append(RuleText(follow, covers=("follow",), move="play CARD", ids=ids["follow"]))
        if self.first_card:
            turn.append(
                RuleText(
                    "The first trick must be led with " + self._cards_words(self.first_card) + " when you hold one",
                    covers=("first_card",),
                    ids=ids["lead"],
                )
            )
        for first, _ in rules.each("no_play"):
            cards = self._cards_words(rules.parsed_words("no_play", first))
            when = rules.condition("no_play", first)
            if when is not None and when.const and not when.value:
                turn.append(
                    RuleText(f"You may play {cards} at any time, the first trick included", covers=("no_play",))
                )
                continue
            turn.append(
                RuleText(
                    f"You may not play {cards} when {{no_play {first}.condition}}, unless no other card you may play "
                    "is left",
                    ids=ids["ban_first"],
                )
            )
        for first, _ in rules.each("no_lead"):
            cards = self._cards_words(rules.parsed_words("no_lead", first))
            when = rules.condition("no_lead", first)
            if when is not None and when.const and not when.value:
                turn.append(RuleText(f"You may lead {cards} at any time", covers=("no_lead",)))
                continue
            turn.append(
                RuleText(
                    f"You may not lead {cards} when {{no_lead {first}.condition}}, unless you hold nothing else",
                    ids=ids["broken"],
                )
            )
        if self.breaks:
            turn.append(
                RuleText(
                    "Playing " + self._cards_words(self.breaks) + f" breaks {self.broken_suit}",
                    covers=("breaks",),
                    ids=ids["broken"],
                )
            )
        if self.exchange_rank is not None:
            turn.append(
                RuleText(
                    "On your turn, before playing, you may exchange the {exchange.value} of trumps for the turned card "
                    "when {exchange.condition}",
                    move="exchange CARD",
                    ids=ids["exchange"],
                )
            )
        high = " ".join(reversed(rules.order))
        if self.trump_rule == "none":
            wins = f"There are no trumps: the highest card of the suit led wins the trick, in the order {high}"
        else:
            trumps = {"turned": "", "last": "The suit of the last card dealt, the dealer's, is trumps. "}.get(
                self.trump_rule, f"{self.trump_rule} are trumps. "
            )
            wins = (
                f"{trumps}The highest trump wins the trick; if it holds none, the highest card of the suit led, in "
                f"the order {high}: a card of another suit never wins"
            )
        trick = [
            RuleText(
                f"{wins}. The winner takes the trick face down and leads to the next",
                covers=("trump",),
                ids=ids["win"],
            )
        ]
        if rules.has("hand_size") and self.draws:
            trick.append(
                RuleText(
                    "After each trick, while the stock lasts, the winner draws first, then the others in turn; "
                    "the turned card is drawn last",
                    ids=ids["draw"],
                )
            )
        return [("The deal", deal), ("A turn", turn), ("The tricks", trick)]

    def _cards_words(self, cards: frozenset[int], joiner: str = "or") -> str:
        deck = self.deck
        if len(cards) == len(deck):
            return "any card"
        suits = [s for s in deck.suits if all(c in cards for c in deck.ids if self.suit_of[c] == s)]
        rest = [deck.format(c) for c in deck.ids if c in cards and self.suit_of[c] not in suits]
        names = {"♥": "hearts", "♠": "spades", "♦": "diamonds", "♣": "clubs"}
        parts = [f"any of the {names.get(s, s)}" for s in suits] + rest
        return f" {joiner} ".join(parts)
