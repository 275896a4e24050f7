"""Chinchón mechanics: draw, discard, close face down, show and lay off.

The script decides the deck, run order, card values, meld limits, who may
close, whose melds are sealed, the scoring and the match end; this module only
knows the shape of a rummy turn. Zones: ``hand.N``, ``stock`` (top = last),
``discard`` (top = last), ``facedown`` (the closing discard) and, once a deal is
over, ``meld.K`` for every shown meld. Counters: ``drawn`` (cards drawn in the
current turn), ``turns.N``, ``misdealt.N`` and, after a close, ``closer``,
``unmatched.N``, ``loose.N``, ``wilds.N``, ``full_close``, ``chinchon``.

Gin Rummy is the same family, told apart only by script words (GR-…): the
closing move is called ``knock`` (``close_move``), the first upcard is offered
(``upcard_offer``: counter ``offer`` 1 = first player to take or pass, 2 =
dealer, 3 = both passed, the first player draws from the stock; ``data.upcard``
names the card), a card just taken from the discard pile stays (``discard_taken
= false``: counter ``taken``, the card is the hand's last), the knocker does not
lay off (``closer_lays_off = false``), a short stock voids the deal (``void
when ...``) and big gin closes without a discard (``big_gin``: counter
``big_gin``).
"""

from __future__ import annotations

from typing import Any

from tapete import (
    MAX_PLAYERS,
    WARNING,
    Action,
    Compiled,
    Ctx,
    DealState,
    DesignProblem,
    Game,
    Ledger,
    MoveHelp,
    MoveKind,
    Random,
    Rules,
    RuleText,
    View,
)
from tapete.layout import count_words

from .melds import Meld
from .showing import Table, show_and_lay_off
from .tables import MeldTables, Shown
from .words import WORDS

STALLED = "no hand has changed across two full stock rebuilds, and CH-4.4 reshuffles without end"
DRAW_STOCK = Action("draw", (), "stock")
DRAW_DISCARD = Action("draw", (), "discard")
PASS = Action("pass")
OFFER_FIRST, OFFER_DEALER, OFFER_DECLINED = 1, 2, 3  # GR-4.1 counter ``offer``

# What a person at the table is told cites the rules document of the member being played:
# Chinchón's (CH-...) or Gin Rummy's (GR-...); another member of the family gets Chinchón's.
MEMBERS: dict[str, dict[str, str]] = {
    "chinchon": {
        "title": "Chinchón",
        "loose": "unmatched",
        "turn": "CH-4.2",
        "close": "CH-4.3",
        "rebuild": "CH-4.4",
        "points": "CH-5.5",
        "misdeal": "CH-V5",
        "out": "CH-6.3",
        "out reaching": "CH-V3",
    },
    "gin": {
        "title": "Gin Rummy",
        "loose": "deadwood",
        "upcard": "GR-4.1",
        "turn": "GR-4.2",
        "kept": "GR-4.2",
        "close": "GR-4.3",
        "points": "GR-1.3",
        "misdeal": "GR-4.2",
        "void": "GR-5.3",
        "game": "GR-6.4",
        "big gin": "GR-V6",
    },
}


class Chinchon(Game):
    name = "chinchon"
    default_bot = "heuristic"
    summary = "Chinchón: Spanish rummy - draw, discard, close with melds and few loose points"
    words = WORDS
    zone_kinds = ("hand", "stock", "discard", "facedown", "meld")
    hand_size_word = "hand_size"  # CH-2.2: a hand holds at most hand_size + 1 cards (after drawing)

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self.tables = MeldTables(rules)
        self.solver = self.tables.solver
        self.hand_size = rules.parsed_words("hand_size", default=7)
        self.close_rule: Compiled = rules.condition("close")  # type: ignore[assignment]  # a required statement
        self.sealed_rule = rules.condition("sealed")
        self.mistakes = rules.parsed_words("mistakes", default=False)
        self.upward_only = rules.parsed_words("layoff_upward_only", default=False)
        self.one_per_value = rules.parsed_words("layoff_one_per_value", default=False)
        self.close_kind: str = rules.parsed_words("close_move", default="close")
        self.upcard_offer = rules.parsed_words("upcard_offer", default=False)
        self.discard_taken = rules.parsed_words("discard_taken", default=True)
        self.big_gin = rules.parsed_words("big_gin", default=False)
        self.closer_lays_off = rules.parsed_words("closer_lays_off", default=True)
        self.void_rule = rules.condition("void")
        # 'close when unmatched <= N' (Chinchón's close_limit, Gin Rummy's knock_card) and 'void when
        # stock_cards <= N' (GR-5.3) are answered by the number alone: no rule is evaluated per card
        self.close_limit = self.close_rule.bound("unmatched")
        self.void_stock = self.void_rule.bound("stock_cards") if self.void_rule is not None else None
        self._hand_keys = [f"hand.{s}" for s in range(MAX_PLAYERS)]
        self._turn_keys = [f"turns.{s}" for s in range(MAX_PLAYERS)]
        self._discards = [Action("discard", (c,)) for c in self.deck.ids]
        self._closings = [Action(self.close_kind, (c,)) for c in self.deck.ids]
        self._ctx: Ctx[Chinchon] = Ctx(game=self)
        self.says = MEMBERS.get(rules.game, MEMBERS["chinchon"])

    def facts(self) -> dict[str, Any]:
        """What a Chinchón bot may know without seeing a deal: card values and the meld solver."""
        return {
            "tables": self.tables,
            "solver": self.solver,
            "value": self.tables.value,
            "hand_size": self.hand_size,
            "close_kind": self.close_kind,  # close, or knock (GR-4.3)
        }

    # -- dealing (CH-2) ---------------------------------------------------------------
    def deal(self, state: DealState, rng: Random, ctx: Ctx) -> None:
        cards = self.shuffled_deck(rng)
        for s in range(state.players):
            state.counters[f"turns.{s}"] = 0
        # CH-2.2: seven each, one at a time, starting with the first player
        self.deal_round_robin(state, cards, self.hand_size, self.next_seat(state, state.dealer))
        state.zones["discard"] = [cards.pop()]  # CH-2.2 the next card face up
        state.zones["stock"] = cards
        state.zones["facedown"] = []
        state.counters["drawn"] = 0
        if self.upcard_offer:  # GR-4.1 the upcard is offered first
            state.counters["offer"] = OFFER_FIRST
            state.data["upcard"] = self.deck.names[state.zones["discard"][-1]]
        ledger = ctx.ledger
        if ledger is not None and ledger.seats != list(range(state.players)):
            state.data["seats"] = list(ledger.seats)  # match seats, for describe_deal

    # -- judging a close (CH-4.3) -------------------------------------------------------
    def close_shown(self, state: DealState, seat: int, discard: int) -> Shown | None:
        """The arrangement the player would show closing with ``discard`` face down, if allowed."""
        hand = state.zones[self._hand_keys[seat]]
        if state.counters.get("drawn", 0) != 1 or len(hand) != self.hand_size + 1 or discard not in hand:
            return None
        if discard == self._kept(state, hand):
            return None
        rest = list(hand)
        rest.remove(discard)
        shown = Shown(self.tables, rest)
        return shown if self._judge(state, seat, shown) else None

    def closes(self, state: DealState, seat: int) -> dict[int, Shown]:
        """CH-4.3: every card ``seat`` may close with (face down) -> the arrangement shown.

        All the closes of a turn are judged at once: the solver sums the hand's
        codes once and takes one card off per candidate (``penalties_without``);
        the arrangement itself is worked out only if the close rule asks for it."""
        hand = state.zones[self._hand_keys[seat]]
        if state.counters.get("drawn", 0) != 1 or len(hand) != self.hand_size + 1:
            return {}
        tables, rule, ctx = self.tables, self.close_rule, self._ctx
        extra, cards = ctx.extra, tuple(hand)
        kept = self._kept(state, hand)  # GR-4.2 the card just taken stays, face down too
        allowed: dict[int, Shown] = {}
        limit = self.close_limit
        if limit is not None:  # 'close when unmatched <= LIMIT': the penalties answer the rule alone
            for card, penalty in zip(cards, self.solver.penalties_within(cards, limit), strict=True):
                if penalty is not None and card != kept:
                    allowed[card] = Shown(tables, penalty=penalty, hand=cards, without=card)
            return allowed
        with ctx.bound(state, seat):  # the game keeps no reference to the deal afterwards
            for card, penalty in zip(cards, self.solver.penalties_without(cards), strict=True):
                if card == kept:
                    continue
                shown = Shown(tables, penalty=penalty, hand=cards, without=card)
                extra["shown"] = shown
                if rule(ctx):
                    allowed[card] = shown
        return allowed

    def big_gin_shown(self, state: DealState, seat: int) -> Shown | None:
        """GR-V6: the whole drawn hand in melds, shown without a discard, if the script allows it."""
        hand = state.zones[self._hand_keys[seat]]
        if not self.big_gin or state.counters.get("drawn", 0) != 1 or len(hand) != self.hand_size + 1:
            return None
        shown = Shown(self.tables, hand, big=True)
        if shown.penalty or not shown.full:
            return None
        return shown if self._judge(state, seat, shown) else None

    def _kept(self, state: DealState, hand: list[int]) -> int | None:
        """GR-4.2: the card just taken from the discard pile, which may not go back this turn."""
        if self.discard_taken or not state.counters.get("taken", 0) or not hand:
            return None
        return hand[-1]

    def _judge(self, state: DealState, seat: int, shown: Shown, rule: Compiled | None = None) -> bool:
        ctx = self._ctx  # judged once per card of a turn: bound by hand, without a with block
        ctx.state, ctx.seat = state, seat
        ctx.extra["shown"] = shown
        try:
            return bool((rule or self.close_rule)(ctx))
        finally:
            del ctx.extra["shown"]
            ctx.release()  # the game keeps no reference to the deal (views rely on it)

    # -- moves (CH-4) -------------------------------------------------------------------
    def legal_actions(self, state: DealState) -> list[Action]:
        seat = state.to_move
        if state.counters.get("drawn", 0) == 0:  # CH-4.2 first draw
            offer = state.counters.get("offer", 0)
            if offer == OFFER_FIRST or offer == OFFER_DEALER:  # GR-4.1 take the upcard or pass
                return [DRAW_DISCARD, PASS]
            if offer == OFFER_DECLINED:  # GR-4.1 both passed: the first player draws from the stock
                return [DRAW_STOCK]
            actions = []
            if state.zones["stock"]:
                actions.append(DRAW_STOCK)
            if state.zones["discard"]:
                actions.append(DRAW_DISCARD)
            return actions
        hand = state.zones[self._hand_keys[seat]]
        # CH-3.4 nothing is laid down during ordinary turns: discard, or close
        kept = self._kept(state, hand)  # GR-4.2
        discards, closings = self._discards, self._closings
        actions = [discards[c] for c in hand if c != kept]
        actions += [closings[c] for c in self.closes(state, seat)]  # CH-4.3 closing discards face down
        if self.big_gin and self.big_gin_shown(state, seat) is not None:  # GR-V6
            actions.append(Action(self.close_kind))
        return actions

    def move_kinds(self) -> list[MoveKind]:
        """CH-4.2 draw from the stock or the discard pile, then discard a card or close with one (CH-4.3);
        GR-4.1 pass on the upcard offered; GR-V6 big gin closes with no card."""
        cards = self.deck.ids
        kinds = [MoveKind("draw", "stock"), MoveKind("draw", "discard")]
        if self.upcard_offer:
            kinds.append(MoveKind("pass"))
        kinds += [MoveKind("discard", cards=cards), MoveKind(self.close_kind, cards=cards)]
        if self.big_gin:
            kinds.append(MoveKind(self.close_kind))
        return kinds

    def refusal(self, state: DealState, action: Action) -> str | None:
        deck, says = self.deck, self.says
        seat = state.to_move
        hand = state.zones[self._hand_keys[seat]]
        drawn = state.counters.get("drawn", 0)
        kind = action.kind
        offer = state.counters.get("offer", 0)
        close = self.close_kind
        if kind == "pass" and not action.cards and not action.detail:
            if offer == OFFER_FIRST or offer == OFFER_DEALER:
                return None
            if not self.upcard_offer:
                return (
                    f"there is no passing in {says['title']}: a turn begins with 'draw stock' or "
                    f"'draw discard' ({says['turn']})"
                )
            return f"you may pass only when the first upcard is offered to you ({says['upcard']})"
        if offer and drawn == 0 and kind == "draw":
            if (offer == OFFER_DECLINED) != (action.detail == "stock") or action.cards:
                if offer == OFFER_DECLINED:
                    return f"both passed the upcard: draw from the stock ({says['upcard']})"
                return f"take the upcard ('draw discard') or 'pass' ({says['upcard']})"
            return None
        if kind == "draw":
            if action.cards or action.detail not in ("stock", "discard"):
                return "a draw reads 'draw stock' or 'draw discard'"
            if drawn > 1 or (drawn == 1 and not self.mistakes):  # CH-V5 a mistaken extra draw
                return f"you have drawn already: discard a card, or {close} ({says['turn']})"
            if not state.zones[action.detail]:
                return f"the {action.detail} pile is empty"
            return None
        if kind == close and not action.cards and not action.detail and self.big_gin:
            if self.big_gin_shown(state, seat) is not None:
                return None
            return f"'{close}' without a card needs every card of your drawn hand in melds ({says['big gin']})"
        if kind not in ("discard", close) or len(action.cards) != 1 or action.detail:
            moves = ["'draw stock'", "'draw discard'", "'discard CARD'", f"'{close} CARD'"]
            if self.upcard_offer:
                moves.append("'pass' (to an upcard offered)")
            return f"a {says['title']} move is {', '.join(moves[:-1])} or {moves[-1]}"
        card = action.cards[0]
        if card not in hand:
            return f"{deck.format(card)} is not in your hand"
        if drawn and card == self._kept(state, hand):
            return f"{deck.format(card)} was just taken from the discard pile: it stays this turn ({says['kept']})"
        if kind == "discard":
            if drawn == 0 and not self.mistakes:
                return f"draw first: 'draw stock' or 'draw discard' ({says['turn']})"
            return None
        if drawn == 0:
            return f"draw first, then {close} by discarding face down ({says['close']})"
        if self.close_shown(state, seat, card) is not None:
            return None
        if drawn != 1 or len(hand) != self.hand_size + 1:
            return f"you may not {close} this deal: your hand has the wrong number of cards ({says['misdeal']})"
        if state.counters.get(f"misdealt.{seat}", 0):
            return f"the {close} rule does not allow it this deal after a misdeal ({says['misdeal']})"
        rest = [c for c in hand if c != card]
        shown = Shown(self.tables, rest)
        return (
            f"the {close} rule does not allow {gerund(close)} with {deck.format(card)} face down: the other cards "
            f"leave {count_words(shown.penalty, 'point')} {says['loose']} in {count_words(shown.loose, 'card')} "
            f"({says['close']})"
        )

    # -- words for a person at the table ------------------------------------------------------
    def moves_help(self) -> list[MoveHelp]:
        says, close = self.says, self.close_kind
        turn = (says["turn"],)
        first = (says["upcard"],) if self.upcard_offer else ()
        moves = [
            MoveHelp("draw stock", "draw", "take the top card of the stock", turn, ("d", "draw", "stock", "s")),
            MoveHelp(
                "draw discard",
                "draw",
                "take the top card of the discard pile" + (" (the first upcard too)" if first else ""),
                first + turn,
                ("take", "t", "discard"),
            ),
        ]
        if self.upcard_offer:
            moves.append(MoveHelp("pass", "pass", "leave the first upcard to the other player", first))
        moves.append(
            MoveHelp("discard CARD", "discard", "after drawing, discard face up (the card alone does it)", turn)
        )
        limit = f" with at most {self.close_limit} {says['loose']} points" if self.close_limit is not None else ""
        moves.append(
            MoveHelp(
                f"{close} CARD",
                close,
                f"after drawing, discard face down and show your melds{limit}; the deal ends",
                (says["close"],),
            )
        )
        if self.big_gin:
            moves.append(
                MoveHelp(close, close, "with all the drawn hand in melds, go out without a discard", (says["big gin"],))
            )
        return moves

    def rules_help(self) -> list[str]:
        says = self.says
        lines = []
        if self.void_rule is not None and "void" in says:
            lines.append(
                f"{says['void']} when the stock is down to two cards and nobody {self.close_kind}s, the hand is void"
            )
        else:
            lines.append(f"{says['rebuild']} when the stock runs out, the discard pile but its top becomes the stock")
        lines.append(f"{says['points']} each {says['loose']} card counts its points against you")
        return lines

    def standing(self, view: View) -> list[str]:
        """The bust limit (CH-6.3, CH-V3) or the total that ends a game (GR-6.4)."""
        says = self.says
        out = self.bound("out")
        if out is not None and out.quantity == "total" and "out" in says:
            if out.op == ">":
                return [f"out above {out.value} points ({says['out']})"]
            if out.op == ">=":
                return [f"out on reaching {out.value} points ({says['out reaching']})"]
        end = self.bound("match_ends")
        if end is not None and end.quantity == "max(total)" and end.op == ">=" and "game" in says:
            return [f"the game ends when a total reaches {end.value} points ({says['game']})"]
        return []

    def apply(self, state: DealState, action: Action) -> list[dict[str, Any]]:
        seat = state.to_move
        zones = state.zones
        hand = zones[self._hand_keys[seat]]
        counters = state.counters
        drawn = counters.get("drawn", 0)
        kind = action.kind
        if kind == "pass":  # GR-4.1 the upcard goes on to the dealer, then back to the first player
            offer = counters["offer"]
            counters["offer"] = offer + 1
            state.to_move = self.next_seat(state, seat)
            return [{"say": "passes the upcard"}]
        if kind == "draw":
            if counters.get("offer", 0):  # GR-4.1 the offer is over once someone draws
                counters["offer"] = 0
            if not self.discard_taken:  # GR-4.2 the card taken stays this turn
                counters["taken"] = int(action.detail == "discard")
            hand.append(zones[action.detail].pop())
            if drawn == 0:
                key = self._turn_keys[seat]
                counters[key] = counters.get(key, 0) + 1
            else:  # CH-V5 drew twice
                counters[f"misdealt.{seat}"] = 1
            counters["drawn"] = drawn + 1
            if drawn:
                return [{"say": "draws a second card by mistake and may not close this deal"}]
            return []
        if kind == self.close_kind:
            return self._close(state, seat, action.cards[0] if action.cards else None)
        card = action.cards[0]
        events: list[dict[str, Any]] = []
        if drawn == 0:  # CH-V5 discarded without drawing
            counters[f"turns.{seat}"] = counters.get(f"turns.{seat}", 0) + 1
            counters[f"misdealt.{seat}"] = 1
            events.append({"say": "discards without drawing by mistake and may not close this deal"})
        hand.remove(card)
        zones["discard"].append(card)  # CH-4.2 discard face up
        counters["drawn"] = 0
        if not self.discard_taken:
            counters["taken"] = 0
        if self.void_rule is not None:  # GR-5.3 e.g. two stock cards left
            limit = self.void_stock
            if (len(zones["stock"]) <= limit if limit is not None else self._judge_void(state)) and self._void(state):
                return events
        if not zones["stock"]:
            events += self._rebuild_stock(state)
        state.to_move = self.next_seat(state, seat)  # CH-4.1 the turn moves on
        return events

    def _judge_void(self, state: DealState) -> bool:
        assert self.void_rule is not None  # called only when the variant has 'void'
        with self._ctx.bound(state) as ctx:  # a deal-wide rule: no seat
            return bool(self.void_rule(ctx))

    def _void(self, state: DealState) -> bool:
        """End the deal without scores (the match deals again, same dealer)."""
        state.over = True
        state.data["void"] = f"{len(state.zones['stock'])} stock card(s) left and nobody {self.close_kind}ed"
        return True

    def _rebuild_stock(self, state: DealState) -> list[dict[str, Any]]:
        """CH-4.4: the discard pile but its top card, shuffled, becomes the new stock."""
        pile = state.zones["discard"]
        if len(pile) < 2:
            return []
        cards = pile[:-1]
        del pile[:-1]
        rng = Random.fromstate(state.rng)
        rng.shuffle(cards)
        state.rng = rng.getstate()
        state.zones["stock"] = cards
        state.counters["rebuilds"] = state.counters.get("rebuilds", 0) + 1
        events: list[dict[str, Any]] = [{"rebuilt": len(cards)}]
        if self._stalled(state):
            state.data["stalled"] = STALLED
            state.over = True
            events.append({"say": "the deal has stalled: " + STALLED})
        return events

    def _stalled(self, state: DealState) -> bool:
        """True when no hand has changed across two full stock rebuilds (CH-4.4 has no end).

        Every hand is compared (as a set) with the hands at the previous rebuild; the
        engine then ends the deal as the variant's ``stall`` statement says."""
        names = self.deck.names
        hands = [sorted(names[c] for c in state.zones[f"hand.{s}"]) for s in range(state.players)]
        same = state.data.get("_hands_at_rebuild") == hands
        still = state.counters.get("_still_rebuilds", 0) + 1 if same else 0
        state.data["_hands_at_rebuild"] = hands
        state.counters["_still_rebuilds"] = still
        return still >= 2

    def _close(self, state: DealState, seat: int, card: int | None) -> list[dict[str, Any]]:
        shown = self.close_shown(state, seat, card) if card is not None else self.big_gin_shown(state, seat)
        assert shown is not None
        hand = state.zones[self._hand_keys[seat]]
        if card is not None:
            hand.remove(card)
            state.zones.setdefault("facedown", []).append(card)  # CH-4.3 face down
        else:
            state.counters["big_gin"] = 1  # GR-V6 no discard at all
        sealed = self.sealed_rule is not None and self._judge(state, seat, shown, self.sealed_rule)
        arrangement = shown.arrangement
        counters = state.counters
        counters["closer"] = seat
        counters["full_close"] = int(shown.full)
        counters["chinchon"] = int(shown.chinchon)
        counters["drawn"] = 0
        if not self.discard_taken:
            counters["taken"] = 0
        order = [self.next_seat(state, seat, k) for k in range(state.players)]
        hands = {s: list(state.zones[f"hand.{s}"]) for s in order}
        hands[seat] = list(arrangement.unmatched)
        table = show_and_lay_off(
            self.tables,
            hands,
            order,
            arrangement.melds,
            sealed,
            self.upward_only,
            self.one_per_value,
            self.closer_lays_off,
        )
        self._write_showing(state, table, hands)
        state.over = True
        names = self.deck.names
        melds = " | ".join(self._meld_text(m) for m in arrangement.melds)
        loose = " ".join(names[c] for c in arrangement.unmatched)
        verb = "closes" if self.close_kind == "close" else f"{self.close_kind}s"
        text = f"{verb} showing {melds or 'no melds'}"
        text += f", unmatched {loose} ({shown.penalty})" if loose else ", all matched"
        return [{"say": text + (" - sealed" if sealed else "")}]

    def _meld_text(self, meld: Meld) -> str:
        names, tables = self.deck.names, self.tables
        meaning = {c: tables.stands_for(p, s) for c, p, s in meld.wilds}
        return " ".join(names[c] + (f"={meaning[c]}" if c in meaning else "") for c in meld.cards)

    def _write_showing(self, state: DealState, table: Table, hands: dict[int, list[int]]) -> None:
        tables, wild = self.tables, self.tables.wild
        melds_data = []
        wilds_by = [0] * state.players
        for k, (tm, owner) in enumerate(zip(table.melds, table.owner, strict=False)):
            meld = tm.meld
            state.zones[f"meld.{k}"] = list(meld.cards)
            by = [table.added_by.get(c, owner) for c in meld.cards]
            entry: dict[str, Any] = {"owner": owner, "kind": meld.kind, "by": by}
            if tm.closed:
                entry["sealed"] = True
            if meld.wilds:
                entry["wilds"] = [[meld.cards.index(c), tables.stands_for(p, s)] for c, p, s in meld.wilds]
            melds_data.append(entry)
            wilds_by[owner] += sum(1 for c, b in zip(meld.cards, by, strict=False) if b == owner and wild[c])
        state.data["melds"] = melds_data
        for s in range(state.players):
            left = sorted(hands[s])
            state.zones[f"hand.{s}"] = left
            state.counters[f"unmatched.{s}"] = tables.points(left)  # CH-5.5
            state.counters[f"loose.{s}"] = len(left)
            state.counters[f"wilds.{s}"] = wilds_by[s]

    # -- how a deal and a match end ---------------------------------------------------------
    def deal_void(self, state: DealState) -> str | None:
        """GR-5.3: the stock ran short (``void when ...``) and nobody closed; ``_void`` wrote why."""
        reason = state.data.get("void")
        return None if reason is None else str(reason)

    def deal_stalled(self, state: DealState) -> str | None:
        """CH-4.4 reshuffles without end: no hand changed across two rebuilds (``_stalled``)."""
        reason = state.data.get("stalled")
        return None if reason is None else str(reason)

    def going_out(self, going: list[int], ledger: Ledger) -> list[int]:
        """CH-6.3 leaves who the script's ``out`` names; CH-6.5 keeps the lowest in when that is everyone.

        If every remaining player would go out in the same deal, the lowest total wins; if
        several share it, only they play on until the totals differ (so nobody goes out now
        when all the totals are equal)."""
        if len(going) == len(ledger.active):
            low = min(ledger.totals[s] for s in going)
            return [s for s in going if ledger.totals[s] != low]
        return going

    # -- reading a finished deal ----------------------------------------------------------
    def check_state(self, state: DealState, partial: bool = False) -> list[str]:
        """The generic checks, then who may hold the extra card: only the seat to move, once it has drawn.

        CH-4.2: a hand holds ``hand_size`` cards, the player to move one more after drawing
        (``drawn``), until the discard. A seat that made a person's mistake (CH-V5,
        ``misdealt.N``) may hold one card more or less, and a deal that is over has been
        shown and laid off (CH-5), so neither is judged by size. A partial snapshot (a
        worked example) is not judged by size either."""
        problems = super().check_state(state, partial)
        if partial or state.over:
            return problems
        drawn = state.counters.get("drawn", 0)
        if not isinstance(drawn, int) or not 0 <= drawn <= (2 if self.mistakes else 1):
            problems.append(f"counter 'drawn' is {drawn!r}: a player draws one card a turn (CH-4.2)")
            return problems
        for seat in range(state.players):
            cards = state.zones.get(f"hand.{seat}")
            if cards is None or state.counters.get(f"misdealt.{seat}"):
                continue
            mover = seat == state.to_move
            want = self.hand_size + (drawn if mover else 0)
            if len(cards) != want:
                who = f"seat {seat}, to move, has drawn {drawn}" if mover else f"seat {seat} is not to move"
                problems.append(f"zone 'hand.{seat}' holds {len(cards)} cards, but {who}: it holds {want} (CH-4.2)")
        return problems

    # -- the players' rulebook (tapete rules) ---------------------------------------------
    zone_words = {"facedown": "the face-down closing discard"}

    def option_meanings(self) -> dict[str, dict[str, str]]:
        """What each choice of Fournier's choice options means (CH-6.3 and CH-V3; CH-1.4 and CH-V1)."""
        return {
            "out_on": {
                "exceeding": "a player is out on going above the limit (CH-6.3)",
                "reaching": "a player is out on reaching the limit (CH-V3)",
            },
            "court_values": {
                "position": "court cards count their place in the order, J=8 Q=9 K=10 with 40 cards (CH-1.4)",
                "ten": "court cards count 10 each (CH-V1)",
                "ten-to-twelve": "court cards count 10, 11 and 12 (CH-V1)",
            },
        }

    def rulebook_phrases(self) -> dict[str, str]:
        """Gin Rummy's closing move is a knock (GR-4.3): its words say "you knocked"."""
        kind = self.close_kind
        if kind == "close":
            return {}
        did = f"{kind}ed"
        return {
            "closed": f"you {did}|you did not {kind}",
            "full_close": f"you {did} with every card in melds (gin)|you did not go gin",
            "big_gin": f"you {did} without discarding, every card in melds|you did not go big gin",
            "closer_unmatched": f"the value of the {kind}er's unmatched cards",
        }

    def rulebook(self) -> list[tuple[str, list[RuleText]]]:
        """The deal, the turn, the melds and the showing in players' words (CH-2 to CH-5; GR-3 to GR-5)."""
        rules, gin = self.rules, self.rules.game == "gin"

        def ids(ch: str, gr: str) -> tuple[str, ...]:
            return tuple(x for x in (gr if gin else ch).split() if x)

        kind = self.close_kind
        closer = "closer" if kind == "close" else f"{kind}er"
        deal = [
            RuleText(
                "The dealer deals {hand_size} cards to each player, face down and one at a time, starting with "
                "the player after the dealer; the next card is turned face up to start the discard pile, and the "
                "rest is the stock, face down",
                ids=ids("CH-2.2", "GR-3.2"),
            )
        ]
        turn: list[RuleText] = []
        if self.upcard_offer:
            turn.append(
                RuleText(
                    "On the first turn the upcard is offered: the first player may take it ('draw discard') or "
                    "pass; then the dealer may take it or pass; if both pass, the first player draws from the stock",
                    move="pass",
                    covers=("upcard_offer",),
                    ids=ids("", "GR-4.1"),
                )
            )
        turn += [
            RuleText(
                "Begin your turn by drawing the top card of the stock", move="draw stock", ids=ids("CH-4.2", "GR-4.2")
            ),
            RuleText(
                "or by drawing the top card of the discard pile", move="draw discard", ids=ids("CH-4.2", "GR-4.2")
            ),
            RuleText(
                f"Then discard one card face up ({self.hand_size} cards stay in your hand) and the turn passes on",
                move="discard CARD",
                ids=ids("CH-4.2", "GR-4.2"),
            ),
        ]
        if not self.discard_taken:
            turn.append(
                RuleText(
                    "A card you have just taken from the discard pile may not be discarded in the same turn",
                    covers=("discard_taken",),
                    ids=ids("", "GR-4.2"),
                )
            )
        elif rules.has("discard_taken"):
            turn.append(
                RuleText("A card taken from the discard pile may be discarded at once", covers=("discard_taken",))
            )
        turn.append(
            RuleText(
                f"Instead of discarding face up you may {kind}: discard CARD face down and show your other cards in "
                "melds; you may do so when {close}. Nobody draws again and the deal ends",
                move=f"{kind} CARD",
                covers=("close_move",),
                ids=ids("CH-4.3", "GR-4.3 GR-4.4"),
            )
        )
        if self.big_gin:
            turn.append(
                RuleText(
                    f"With every card of your hand after drawing in melds you may {kind} without discarding at all",
                    move=kind,
                    covers=("big_gin",),
                )
            )
        if self.mistakes:
            turn.append(
                RuleText(
                    "A player who draws a second card or discards without drawing by mistake plays on, but may not "
                    f"{kind} in that deal",
                    covers=("mistakes",),
                )
            )
        if self.void_rule is not None:
            turn.append(
                RuleText(
                    "After a discard, when {void}, the deal is void: nobody scores and the same dealer deals again"
                )
            )
        if self.void_rule is None or self.void_stock is None:  # a deal void at N stock cards never runs out
            turn.append(
                RuleText(
                    "When the stock runs out, the discard pile except its top card is shuffled into a new stock; "
                    "the top card stays face up",
                    ids=ids("CH-4.4", ""),
                )
            )
        lo, hi = rules.parsed_words("group_size", default=(3, 4))
        copies = rules.parsed_words("group_copies", default=1)
        size = f"{lo}" if lo == hi else f"{lo} to {hi}"
        same = (
            "no two of the same suit"
            if copies == 1
            else f"at most {copies} identical cards (the same rank and suit from different decks)"
        )
        order = " ".join(rules.order)
        melds = [
            RuleText(
                f"A group is {size} cards of one rank, {same}",
                covers=("group_size", "group_copies"),
                ids=ids("CH-3.1", "GR-2.1"),
            ),
            RuleText(
                f"A run is {self.tables.meld_rules.min_run} or more cards of one suit next to each other in the order "
                f"{order}; a rank missing from the deck leaves no gap, and a run never goes round from "
                f"{rules.order[-1]} to {rules.order[0]}",
                covers=("run_length", "run_wrap"),
                ids=ids("CH-3.2 CH-1.3", "GR-2.2 GR-1.2"),
            ),
        ]
        wild = rules.table("wild")
        if wild is not None and any(wild):
            cards = sorted({self.deck.format(c).split("/")[0] for c in self.deck.ids if wild[c]})
            per = self.tables.meld_rules.max_wild_per_meld
            melds.append(
                RuleText(
                    f"Wild cards ({' '.join(cards)}) stand for any card in a meld, at most {per} in one meld; a "
                    "wild's meaning is fixed when the melds are shown",
                    covers=("wild", "wilds_per_meld"),
                    ids=ids("CH-V7", ""),
                )
            )
        melds.append(
            RuleText(
                f"No card is in two melds, and melds stay in your hand until someone {kind}s",
                ids=ids("CH-3.3 CH-3.4", "GR-2.3"),
            )
        )
        if self.closer_lays_off:
            showing = [
                RuleText(
                    f"The {closer} shows their melds; then the others, in turn order, show theirs and lay off "
                    "unmatched cards on the melds already shown (the same rank on a group, the next card of the "
                    f"suit at either end of a run), round after round, the {closer} included, until nobody can add a "
                    "card. Nobody breaks or moves a meld",
                    ids=ids("CH-5.1 CH-5.2 CH-5.3 CH-5.6", ""),
                )
            ]
        else:
            showing = [
                RuleText(
                    f"The {closer} shows melds and unmatched cards; the opponent shows melds and lays off unmatched "
                    f"cards on the {closer}'s melds. The {closer} never lays off",
                    covers=("closer_lays_off",),
                    ids=ids("CH-5.6", "GR-5.1"),
                )
            ]
        if rules.has("sealed"):
            showing.append(RuleText(f"Nobody may lay off on the {closer}'s melds when {{sealed@the {closer}}}"))
        if self.upward_only:
            showing.append(RuleText("Runs are extended only upwards when laying off", covers=("layoff_upward_only",)))
        if self.one_per_value:
            showing.append(
                RuleText("A player lays off at most one card of each rank", covers=("layoff_one_per_value",))
            )
        showing.append(
            RuleText(
                "Then only each player's cards left unmatched are counted (see Card values)",
                ids=ids("CH-5.5", "GR-5.2"),
            )
        )
        end = [RuleText(f"A deal ends when a player {kind}s", ids=ids("CH-4.3", "GR-4.3"))]
        if rules.has("out"):  # `going_out`: CH-6.5
            end.append(
                RuleText(
                    "If every player still in would go out after the same deal, only the player with the lowest "
                    "total stays in, and wins; if several share the lowest total, they all stay in and play on "
                    "until one total is lower than the others",
                    ids=ids("CH-6.5", ""),
                )
            )
        return [
            ("The deal", deal),
            ("A turn", turn),
            ("Melds", melds),
            (f"After a {kind}", showing),
            ("The end", end),
        ]

    def design_problems(self, players: int) -> list[DesignProblem]:
        """A deal the deck cannot hold (CH-2.2), and melds the deck cannot complete (CH-3)."""
        problems = []
        deck, n = self.deck, len(self.deck)
        need = self.hand_size * players + 2  # the hands, the face-up card (CH-2.2) and one card to draw
        if need > n:
            problems.append(
                DesignProblem(
                    "hand_size",
                    f"a deal for {players} players needs {self.hand_size} x {players} hand cards, the face-up"
                    f" card and a stock card to draw: {need}, more than the {n} cards of the deck",
                )
            )
        rules = self.tables.meld_rules
        ranks = len(self.rules.order)
        wilds = sum(self.tables.wild)
        if rules.min_run > ranks + min(wilds, rules.max_wild_per_meld):
            problems.append(
                DesignProblem(
                    "run_length",
                    f"a run needs {rules.min_run} cards of one suit in sequence, but the order has {ranks} ranks:"
                    " no run can ever be made",
                    WARNING,
                )
            )
        copies = deck.copies * len(deck.suits)
        if rules.min_group > copies + min(wilds, rules.max_wild_per_meld):
            problems.append(
                DesignProblem(
                    "group_size",
                    f"a group needs {rules.min_group} cards of one rank, but the deck has {copies} of each:"
                    " no group can ever be made",
                    WARNING,
                )
            )
        return problems

    def describe_deal(self, state: DealState) -> list[str]:
        names = self.deck.names
        seats = state.data.get("seats") or list(range(state.players))
        closer = state.counters.get("closer", -1)
        verb = "closed" if self.close_kind == "close" else f"{self.close_kind}ed"
        if closer < 0:
            return [f"nobody {verb}"]
        melds = state.data.get("melds", [])
        lines = []
        down = names[state.zones["facedown"][0]] if state.zones.get("facedown") else "-"
        how = " with every card matched" if state.counters.get("full_close") else ""
        if state.counters.get("big_gin"):
            lines.append(f"seat {seats[closer]} {verb} with every card of the drawn hand matched, no discard")
        else:
            lines.append(f"seat {seats[closer]} {verb}{how}, discarding {down} face down")
        order = [self.next_seat(state, closer, k) for k in range(state.players)]
        for s in order:
            own = []
            laid = []
            for k, m in enumerate(melds):
                cards = state.zones.get(f"meld.{k}", [])
                if m["owner"] == s:
                    meaning = dict(m.get("wilds", []))
                    text = " ".join(names[c] + (f"={meaning[i]}" if i in meaning else "") for i, c in enumerate(cards))
                    own.append(f"[{text}]" + (" sealed" if m.get("sealed") else ""))
                laid += [names[c] for c, b in zip(cards, m["by"], strict=False) if b == s and m["owner"] != s]
            left = state.zones[f"hand.{s}"]
            line = f"seat {seats[s]}: melds {' '.join(own) if own else '-'}"
            if laid:
                line += f"; laid off {' '.join(laid)}"
            line += (
                f"; unmatched {' '.join(names[c] for c in left)} = {state.counters.get(f'unmatched.{s}', 0)}"
                if left
                else "; unmatched -"
            )
            lines.append(line)
        return lines


def gerund(verb: str) -> str:
    """``closing``, ``knocking``: the closing move as it is done."""
    return (verb[:-1] if verb.endswith("e") else verb) + "ing"
