"""Fan Tan mechanics: suit rows built outwards from a start rank.

The script decides the deck, rank order, start rank, ordering constraints,
opening card, passing and chips; this module only knows what a row is.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from tapete import Action, Ctx, DealState, Game, MoveHelp, MoveKind, Random, Rules, RuleText, View
from tapete.layout import count_words

from .words import WORDS

PASS = Action("pass")


class FanTan(Game):
    name = "fantan"
    default_bot = "sensible"
    summary = "Sevens / Fan Tan: build suit rows outwards from the sevens"
    words = WORDS
    zone_kinds = ("hand", "row")

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        deck = self.deck
        self.pos = rules.order_pos  # per card: place in the rank order
        start = rules.parsed_words("row", "start", "7")
        self.start_pos = rules.order.index(start)  # FT-3.2: a row opens with this rank
        self.suit_start = self._suit_starts(rules)  # suit -> place in the order of its row's first card
        self.start_of = [self.suit_start.get(s, self.start_pos) for s in deck.suit_of]  # per card
        self.suit_of = deck.suit_of
        self.rank_of = deck.rank_of
        # FT-V5 style constraints: card id -> card id that must already be on its row
        self.needs: dict[int, int] = {}
        before = rules.parsed_words("row", "before")
        if before:
            first, then = before
            for c in deck.ids:
                if deck.rank_of[c] == then:
                    for d in deck.ids:
                        if deck.rank_of[d] == first and deck.suit_of[d] == deck.suit_of[c]:
                            self.needs[c] = d
        opening = rules.constant("opening")
        try:
            self.opening = deck.parse(opening) if isinstance(opening, str) else opening
        except ValueError as exc:  # an option or a file that names no card of the deck (FT-V opening card)
            raise rules.error("opening", "", f"the opening card: {exc}") from None
        self.may_pass = rules.condition("may_pass")
        self.ante = rules.expr("ante")
        self.pass_cost = rules.expr("pass_cost")
        self.row_names = {s: f"row.{s}" for s in deck.suits}
        self._ctx = Ctx(game=self)

    def _suit_starts(self, rules: Rules) -> dict[str, int]:
        """``row start J ♥`` gives a suit its own first rank; a suit named twice is an error."""
        starts: dict[str, int] = {}
        named: dict[str, str] = {}
        for first, _item in rules.each("row"):
            if first == "start" or not first.startswith("start"):
                continue
            rank, suits = rules.parsed_words("row", first)
            for suit in suits:
                if suit in named:
                    raise rules.error("row", first, f"{suit} already has its row start in {named[suit]!r}")
                named[suit] = rules.location("row", first).source_line or first
                starts[suit] = rules.order.index(rank)
        return starts

    def facts(self) -> dict[str, Any]:
        """Row geometry a Fan Tan bot may use: each card's place in the order and suit, each row's start."""
        return {
            "pos": self.pos,
            "suit_of": self.suit_of,
            "start_pos": self.start_pos,
            "start_of": self.start_of,
            "needs": dict(self.needs),
        }

    # -- dealing (FT-2) -------------------------------------------------------------
    def deal(self, state: DealState, rng: Random, ctx: Ctx) -> None:
        cards = self.shuffled_deck(rng)
        # FT-2.2: every card, one at a time, starting on the dealer's left
        self.deal_round_robin(state, cards, None, self.next_seat(state, state.dealer))
        for _suit, zone in self.row_names.items():
            state.zones[zone] = []
        for s in range(state.players):
            state.counters[f"dealt.{s}"] = len(state.zones[f"hand.{s}"])
        if self.ante is not None:  # FT-V3: everyone antes
            pool = 0
            for s in range(state.players):
                chips = int(self.ante(ctx.for_seat(s)))
                state.counters[f"paid.{s}"] = chips
                pool += chips
            state.counters["pool"] = pool

    # -- moves (FT-3) -------------------------------------------------------------
    def can_play(self, state: DealState, card: int) -> bool:
        if self.opening is not None and not state.counters.get("opened", 0):
            return card == self.opening  # FT-V2: the opening card first
        row = state.zones[self.row_names[self.suit_of[card]]]
        p = self.pos[card]
        if not row:
            ok = p == self.start_of[card]  # FT-3.2: a start card opens its row
        else:
            ok = p == self.pos[row[0]] - 1 or p == self.pos[row[-1]] + 1  # FT-3.3
        if ok and card in self.needs:
            need = self.needs[card]  # FT-V5: e.g. the 8 before the 6
            ok = need in state.zones[self.row_names[self.suit_of[need]]]
        return ok

    def playable(self, state: DealState, seat: int) -> list[int]:
        return [c for c in state.zones[f"hand.{seat}"] if self.can_play(state, c)]

    def _pass_allowed(self, state: DealState, playable: list[int]) -> bool:
        if self.may_pass is None:
            return not playable  # FT-3.4 / FT-3.5
        with self._ctx.bound(state, state.to_move) as ctx:  # a game keeps no reference to a deal
            return bool(self.may_pass(ctx))

    def legal_actions(self, state: DealState) -> list[Action]:
        # FT-3.1: a move is exactly one card (or a pass); FT-5 is the worked example of this.
        cards = self.playable(state, state.to_move)
        actions = [Action("play", (c,)) for c in cards]
        if self._pass_allowed(state, cards):
            actions.append(PASS)
        return actions

    def move_kinds(self) -> list[MoveKind]:
        """FT-3.1: a move is one card played, or a pass (FT-3.4, FT-3.5)."""
        return [MoveKind("pass"), MoveKind("play", cards=self.deck.ids)]

    def refusal(self, state: DealState, action: Action) -> str | None:
        deck = self.deck
        hand = state.zones[f"hand.{state.to_move}"]
        if action.kind == "pass" and not action.cards:
            playable = self.playable(state, state.to_move)
            if self._pass_allowed(state, playable):
                return None
            # FT-3.6: a wrongful pass is refused; the player must play a legal card
            playable_now = " ".join(deck.format(c) for c in playable)
            return f"you may not pass while you can play: playable {playable_now} (FT-3.4)"
        if action.kind == "play" and action.detail:
            return f"{action.detail!r} is not a card of this deck"
        if action.kind != "play" or len(action.cards) != 1:
            return "a Fan Tan move is 'play CARD' or 'pass'"
        card = action.cards[0]
        if card not in hand:
            return f"{deck.format(card)} is not in your hand"
        if not self.can_play(state, card):
            return f"{deck.format(card)} does not fit any row now{self._why_not(state, card)}"
        return None

    def _why_not(self, state: DealState, card: int) -> str:
        """What a card that does not fit is waiting for, as a person would say it."""
        names = self.deck.names
        if self.opening is not None and not state.counters.get("opened", 0):
            return f": {names[self.opening]} opens the game (FT-V2)"
        row = state.zones[self.row_names[self.suit_of[card]]]
        p = self.pos[card]
        suit = self.suit_of[card]
        if not row:
            first = [c for c in self.deck.ids if self.suit_of[c] == suit and self.pos[c] == self.start_of[card]]
            return f": the {suit} row is not open; {names[first[0]]} opens it (FT-3.2)" if first else ""
        lo, hi = self.pos[row[0]], self.pos[row[-1]]
        if lo <= p <= hi:
            return ""
        want = p + 1 if p < lo else p - 1
        gap = [c for c in self.deck.ids if self.suit_of[c] == suit and self.pos[c] == want]
        if gap and (p == lo - 1 or p == hi + 1) and card in self.needs:
            return f": {names[self.needs[card]]} must be on the table first (FT-V5)"
        return f": {names[gap[0]]} is not on the table (FT-3.3)" if gap else ""

    def apply(self, state: DealState, action: Action) -> list[dict[str, Any]]:
        seat = state.to_move
        if action.kind == "pass":
            state.counters[f"passes.{seat}"] = state.counters.get(f"passes.{seat}", 0) + 1
            if self.pass_cost is not None:  # FT-V3: a pass pays into the pool
                with self._ctx.bound(state, seat) as ctx:
                    chips = int(self.pass_cost(ctx))
                state.counters[f"paid.{seat}"] = state.counters.get(f"paid.{seat}", 0) + chips
                state.counters["pool"] = state.counters.get("pool", 0) + chips
        else:
            card = action.cards[0]
            state.zones[f"hand.{seat}"].remove(card)
            row = state.zones[self.row_names[self.suit_of[card]]]
            if row and self.pos[card] < self.pos[row[0]]:
                row.insert(0, card)
            else:
                row.append(card)
            if self.opening is not None:
                state.counters["opened"] = 1
            if not state.zones[f"hand.{seat}"]:
                # FT-1.2 / FT-4.1: the last card wins at once; FT-4.2: moves are
                # sequential, so only the mover can be the one winner.
                state.over = True
                return []
        state.to_move = self.next_seat(state, seat)  # FT-3.5: the turn moves on
        return []

    # -- words for a person at the table ------------------------------------------------
    def moves_help(self) -> list[MoveHelp]:
        start = self.rules.order[self.start_pos]
        opens = f"a {start} opens its suit's row" if not self.suit_start else "a start card opens its row"
        return [
            MoveHelp(
                "play CARD",
                "play",
                f"put one card on its row (the card alone does it): {opens}, then the next rank at either end fits",
                ("FT-3.1", "FT-3.2", "FT-3.3"),
            ),
            MoveHelp(
                "pass",
                "pass",
                "only when no card of yours fits" if self.may_pass is None else "when the rules let you",
                ("FT-3.4", "FT-3.5"),
            ),
        ]

    def rules_help(self) -> list[str]:
        lines = []
        if self.opening is not None:
            lines.append("FT-V2 the opening card ('rules' names it) is played first, by the player holding it")
        if self.needs:
            first, then = self.rules.parsed_words("row", "before")
            lines.append(f"FT-V5 in each suit the {first} goes down before the {then}")
        lines.append("FT-4.1 the first to play their last card wins the deal")
        return lines

    def standing(self, view: View) -> list[str]:
        """What ends the match: deals won (FT-4.3), a penalty total (FT-V4) or a number of deals (FT-V3)."""
        end = self.bound("match_ends")
        if end is None or end.op != ">=":
            return []
        if end.quantity == "max(deals_won)":
            return [f"the first to win {count_words(end.value, 'deal')} takes the match (FT-4.3)"]
        if end.quantity == "max(total)":
            return [f"the match ends when a total reaches {count_words(end.value, 'point')} (FT-V4)"]
        if end.quantity == "deal_number":
            return [f"deal {view.deal_number} of {end.value} (FT-V3)"]
        return []

    # -- what a pass tells everyone (for searching bots) -------------------------------
    def excluded(self, view: View) -> Mapping[int, Collection[str]]:
        """FT-3.4: a player who passed held no card that fitted a row at that moment.

        Cards never come back into a hand, so a card that was playable at a seat's
        pass and is still unseen now is not in that seat's hand. The rows at the
        pass are today's rows less the cards played since. Only when the rules do not
        let a player pass at will (``may_pass``)."""
        if self.may_pass is not None:
            return {}
        visible = {c for cards in view.zones.values() for c in cards}
        unseen = [c for c in view.deck.ids if c not in visible and c not in view.known]
        if not unseen:
            return {}
        on_rows = {c for zone in self.row_names.values() for c in view.cards(zone)}
        later: set[int] = set()
        out: dict[int, set[str]] = {}
        pos = self.pos
        for event in reversed(view.history):
            if event.kind != "action" or event.action is None:
                continue
            if event.action.kind == "pass" and event.seat is not None and event.seat != view.seat:
                then = on_rows - later
                state = DealState(players=view.players, dealer=view.dealer)
                for suit, zone in self.row_names.items():
                    state.zones[zone] = sorted((c for c in then if self.suit_of[c] == suit), key=pos.__getitem__)
                state.counters["opened"] = 1 if then else 0
                hand = f"hand.{event.seat}"
                for c in unseen:
                    if self.can_play(state, c):
                        out.setdefault(c, set()).add(hand)
            for move in event.moves:
                if move.card is not None and move.target.startswith("row."):
                    later.add(move.card)
        return out

    # -- the players' rulebook (tapete rules) -----------------------------------------
    def option_meanings(self) -> dict[str, dict[str, str]]:
        """FT-1.3 and FT-V1: where the ace ranks, said for the choice in force."""
        return {"ace": {"high": "the ace ranks above the king (FT-1.3)", "low": "the ace ranks below the two (FT-V1)"}}

    def rulebook(self) -> list[tuple[str, list[RuleText]]]:
        """The deal, the two moves and the rows in players' words, from this variant's rules (FT-2 to FT-4)."""
        rules, deck = self.rules, self.deck
        order = rules.order
        start = order[self.start_pos]
        deal = [
            RuleText(
                "The dealer deals every card face down, one at a time, starting with the player after the "
                "dealer; hands may differ by one card. The table starts empty",
                ids=("FT-2.2",),
            )
        ]
        if rules.has("ante"):
            deal.append(RuleText("When the deal starts, each player puts {ante} chip(s) into the pool"))
        turn = [
            RuleText(
                "Play exactly one card from your hand that fits a row (see The rows); it stays on the table",
                move="play CARD",
                ids=("FT-3.1", "FT-3.7"),
            )
        ]
        if rules.has("opening"):
            turn.append(RuleText("The first card played in each deal must be {opening}", ids=("FT-V2",)))
        if rules.has("may_pass"):
            turn.append(RuleText("You may pass when {may_pass}", move="pass"))
        else:
            turn.append(
                RuleText(
                    "You pass only when no card of yours fits: while one fits you must play one, even to keep a "
                    "start card back",
                    move="pass",
                    ids=("FT-3.4", "FT-3.5"),
                )
            )
        if rules.has("pass_cost"):
            turn.append(RuleText("Each pass costs {pass_cost} chip(s), paid into the pool"))
        special = {suit: order[p] for suit, p in self.suit_start.items()}
        plain = [suit for suit in deck.suits if suit not in special]
        opens = [f"the {suit} row by its {rank}" for suit, rank in special.items()]
        if plain:
            opens.insert(0, f"{'every' if not special else 'each other'} suit's row by its {start}")
        rows = [
            RuleText(
                "A row is opened by its start card: " + ", ".join(opens),
                covers=("row",),
                ids=("FT-1.3", "FT-3.2"),
            ),
            RuleText(
                f"On an open row only the next rank at either end fits, in the order {' '.join(order)}: the row "
                f"grows down to the {order[0]} and up to the {order[-1]}, never round the corner; a card of "
                "another suit fits nothing",
                ids=("FT-1.3", "FT-3.3"),
            ),
        ]
        before = rules.parsed_words("row", "before")
        if before:
            rows.append(RuleText(f"In each suit the {before[0]} must be on its row before the {before[1]} fits"))
        end = [RuleText("A deal ends at once when a player plays their last card", ids=("FT-4.1",))]
        return [("The deal", deal), ("A turn", turn), ("The rows", rows), ("The end", end)]

    def describe_deal(self, state: DealState) -> list[str]:
        left = {s: len(state.zones[f"hand.{s}"]) for s in range(state.players)}
        winner = [s for s, n in left.items() if n == 0]
        others = ", ".join(f"seat {s}: {n}" for s, n in left.items() if n)
        return [f"out first: seat {winner[0] if winner else '-'}; cards left: {others}"]
