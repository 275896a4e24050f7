"""Crazy Eights mechanics: match the top discard by suit or rank, or play a wild card and name a suit.

The script decides the deck, the hand size, which ranks are wild, how drawing works,
the card points and the scoring; this module only knows what a shedding turn is.
Zones: ``hand.N`` (own), ``stock`` (face down, top = last), ``discard`` (face up,
top = last). ``data["suit"]`` is the suit to follow after a wild card, and
``data["blocked"]`` says why a deal ended without a winner (`deal_void`); counter
``drawn`` counts the cards drawn in the current turn, ``stuck`` the turns in a row
on which nobody could play or draw.
"""

from __future__ import annotations

from typing import Any

from tapete import SUIT_LETTERS, SUIT_NAMES, Action, Ctx, DealState, DesignProblem, Game, MoveKind, Random, Rules

from .words import WORDS

DRAW = Action("draw")
PASS = Action("pass")


class Eights(Game):
    name = "eights"
    summary = "Crazy Eights: shed your hand by matching suit or rank; eights are wild"
    default_bot = "shedder"
    words = WORDS
    zone_kinds = ("hand", "stock", "discard")

    def __init__(self, rules: Rules):
        super().__init__(rules)
        deck = self.deck
        hand_size = rules.expr("hand_size")
        assert hand_size is not None  # a required statement: the loader refuses a script without it
        self.hand_size = hand_size
        wild = set(rules.parsed_words("wild", default=()))
        self.is_wild = [deck.rank_of[c] in wild for c in deck.ids]
        self.until_playable = bool(rules.constant("draw_until_playable", False))
        points = rules.table("points")
        self.point_of = [int(p) for p in points] if points is not None else [0] * len(deck)
        self.suits = deck.suits

    def facts(self) -> dict[str, Any]:
        """What a bot may know of the rules: which cards are wild and what each card costs."""
        return {"is_wild": tuple(self.is_wild), "point_of": tuple(self.point_of)}

    # -- the deal -------------------------------------------------------------------
    def deal(self, state: DealState, rng: Random, ctx: Ctx) -> None:
        ctx.state = state
        size = int(self.hand_size(ctx))
        cards = self.shuffled_deck(rng)
        self.deal_round_robin(state, cards, size, self.next_seat(state, state.dealer))
        starter = cards.pop()
        while self.is_wild[starter] and any(not self.is_wild[c] for c in cards):
            cards.insert(len(cards) // 2, starter)  # a wild starter is buried mid-stock
            starter = cards.pop()
        state.zones["discard"] = [starter]
        state.zones["stock"] = cards
        state.counters["drawn"] = 0
        state.counters["stuck"] = 0
        state.data["suit"] = self.deck.suit_of[starter]

    # -- what may be played ---------------------------------------------------------
    def fits(self, state: DealState, card: int) -> bool:
        if self.is_wild[card]:
            return True
        top = state.zones["discard"][-1]
        deck = self.deck
        return deck.suit_of[card] == state.data["suit"] or deck.rank_of[card] == deck.rank_of[top]

    def can_draw(self, state: DealState) -> bool:
        return bool(state.zones["stock"]) or len(state.zones["discard"]) > 1

    def legal_actions(self, state: DealState) -> list[Action]:
        hand = state.zones[f"hand.{state.to_move}"]
        actions: list[Action] = []
        for card in hand:
            if self.fits(state, card):
                if self.is_wild[card]:
                    actions.extend(Action("play", (card,), suit) for suit in self.suits)
                else:
                    actions.append(Action("play", (card,)))
        drawn = state.counters["drawn"]
        if actions:
            if drawn and not self.until_playable:
                actions.append(PASS)  # a drawn card that fits may be kept
            return actions
        if (self.until_playable or drawn == 0) and self.can_draw(state):
            return [DRAW]
        return [PASS]

    def move_kinds(self) -> list[MoveKind]:
        """The moves there are, for a learning environment's action space: play a card that is not
        wild, play a wild card naming each suit, draw, pass."""
        deck = self.deck
        wild = [c for c in deck.ids if self.is_wild[c]]
        plain = [c for c in deck.ids if not self.is_wild[c]]
        return [
            MoveKind("play", cards=plain),
            *(MoveKind("play", suit, cards=wild) for suit in self.suits),
            MoveKind("draw"),
            MoveKind("pass"),
        ]

    def refusal(self, state: DealState, action: Action) -> str | None:
        action = self._normal(action)
        if action in self.legal_actions(state):
            return None
        deck = self.deck
        hand = state.zones[f"hand.{state.to_move}"]
        if action.kind == "play" and len(action.cards) == 1:
            card = action.cards[0]
            if card not in hand:
                return f"{deck.format(card)} is not in your hand"
            if self.is_wild[card] and action.detail not in self.suits:
                return f"{deck.format(card)} is wild: name the suit to follow, e.g. 'play {deck.format(card)} ♥'"
            if not self.is_wild[card] and action.detail:
                return f"only a wild card names a suit; play {deck.format(card)} alone"
            top = deck.format(state.zones["discard"][-1])
            return f"{deck.format(card)} matches neither the suit {state.data['suit']} nor the rank of {top}"
        legal = " or ".join(sorted({a.text(deck) for a in self.legal_actions(state)})[:6])
        return f"{action.text(deck)!r} is not possible now; you may: {legal}"

    def _normal(self, action: Action) -> Action:
        """``play 8♠ hearts`` and ``play 8S H`` mean ``play 8♠ ♥``."""
        if action.kind == "play" and action.detail:
            word = action.detail.strip()
            suit = SUIT_NAMES.get(word.lower(), SUIT_LETTERS.get(word.upper(), word))
            return Action(action.kind, action.cards, suit)
        return action

    # -- moves ------------------------------------------------------------------------
    def apply(self, state: DealState, action: Action) -> list[dict[str, Any]]:
        action = self._normal(action)
        seat = state.to_move
        deck = self.deck
        if action.kind == "draw":
            self._draw(state, seat)
            state.counters["drawn"] += 1
            state.counters["stuck"] = 0
            return [{"say": "draws a card"}]  # which card stays hidden from the others
        if action.kind == "pass":
            state.counters["stuck"] = state.counters["stuck"] + 1 if not self.can_draw(state) else 0
            self._next_turn(state, seat)
            if state.counters["stuck"] >= state.players:
                state.over = True  # nobody can play or draw: no winner
                state.data["blocked"] = "nobody can play or draw"
            return [{"say": "passes"}]
        card = action.cards[0]
        state.zones[f"hand.{seat}"].remove(card)
        state.zones["discard"].append(card)
        state.data["suit"] = action.detail if self.is_wild[card] else deck.suit_of[card]
        state.counters["stuck"] = 0
        said = f"plays {deck.format(card)}" + (f", names {action.detail}" if self.is_wild[card] else "")
        if not state.zones[f"hand.{seat}"]:
            state.over = True
            return [{"say": said + " and goes out"}]
        self._next_turn(state, seat)
        return [{"say": said}]

    def _next_turn(self, state: DealState, seat: int) -> None:
        state.counters["drawn"] = 0
        state.to_move = self.next_seat(state, seat)

    def _draw(self, state: DealState, seat: int) -> None:
        stock = state.zones["stock"]
        if not stock:  # the discards under the top card become the new stock, shuffled
            discard = state.zones["discard"]
            stock.extend(discard[:-1])
            del discard[:-1]
            rng = Random.fromstate(state.rng)  # the deal's own random source: a resumed deal draws the same
            rng.shuffle(stock)
            state.rng = rng.getstate()
        state.zones[f"hand.{seat}"].append(stock.pop())

    def deal_void(self, state: DealState) -> str | None:
        """A blocked deal (nobody can play or draw) has no winner: nobody scores, the dealer deals again."""
        blocked = state.data.get("blocked")
        return f"blocked: {blocked}" if blocked else None

    def largest_hand(self, state: DealState) -> int:
        """A shedding hand has no limit: a player who cannot follow draws, and a penalty adds more."""
        return len(self.deck)

    def design_problems(self, players: int) -> list[DesignProblem]:
        """Hands the deck cannot deal: every hand, the starter and at least one card to draw."""
        ctx = Ctx(game=self, state=DealState(players=players, dealer=0))
        size, cards = int(self.hand_size(ctx)), len(self.deck)
        if size < 1:
            return [DesignProblem("hand_size", f"with {players} players the hand size is {size}: deal at least 1")]
        if size * players + 2 > cards:
            return [
                DesignProblem(
                    "hand_size",
                    f"a deal for {players} players needs {size} x {players} hand cards, a starter and a card"
                    f" to draw: {size * players + 2}, more than the {cards} cards of the deck",
                )
            ]
        return []

    def describe_deal(self, state: DealState) -> list[str]:
        left = {s: len(state.zones[f"hand.{s}"]) for s in range(state.players)}
        out = [s for s, n in left.items() if n == 0]
        rest = ", ".join(
            f"seat {s}: {n} card(s), {sum(self.point_of[c] for c in state.zones[f'hand.{s}'])} points"
            for s, n in left.items()
            if n
        )
        return [f"out: seat {out[0] if out else '-'}; {rest}"]
