"""A phase of simultaneous hidden choices: every seat lays cards face down, then they are revealed.

Some games open a deal with a choice every player makes at once and in secret: Hearts'
pass (three cards each, handed on only when everyone has chosen), a draft, a blind bid
of cards. tapete's deal moves one seat at a time, so the phase is played as turns, and
kept secret by where the cards wait: each seat puts its cards, one a move, into its own
zone ``chosen.N``, which the observer shows to that seat alone whatever the script says
(`tapete.view.zone_mode`). So a seat choosing later learns nothing of the earlier choices
but their size, nobody holds a card they were given before choosing their own, and, when
the family hands the chosen cards on (`HiddenChoices.hand_on`), each chooser's memory
(``view.known``) records where its cards went, as for any card it saw leave.

A family keeps one `HiddenChoices` per game and asks it for the moves while the phase
lasts; the phase is plain data in the state (``data["choosing"]``), so snapshots, replays
and the searches' imagined deals carry it like anything else.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from ..core.actions import Action
from ..core.state import DealState, seat_zones

if TYPE_CHECKING:
    from ..game import Game

CHOSEN = "chosen"  # zone kind of the cards a seat has chosen and not yet handed on
CHOOSING = "choosing"  # the state's data key: how many cards each seat chooses, while the phase lasts


class HiddenChoices:
    """Each seat chooses ``count`` cards of its hand, one per move, face down (see the module docstring).

    ``kind`` names the move (``pass``: ``pass 7♠``). The seats choose in turn from the
    first one `begin` is given, in the direction of play; the phase is over when every
    seat has chosen, and the family then says where the cards go with `hand_on`."""

    key = CHOOSING  # the data key that is set while the phase lasts (what `active` reads)

    def __init__(self, game: Game, kind: str = "pass") -> None:
        self.game = game
        self.kind = kind
        self._moves: tuple[Action, ...] = ()  # the move choosing each card, made once (`actions`)

    @staticmethod
    def zone(seat: int) -> str:
        return f"{CHOSEN}.{seat}"

    def begin(self, state: DealState, first: int, count: int, seats: Collection[int] | None = None) -> None:
        """Start the phase: empty ``chosen`` zones, ``first`` to choose, ``count`` cards each.

        ``seats``, when given, are the only seats that choose (a partner's exchange: one seat
        passes to another); the others have no ``chosen`` zone and are never asked."""
        zones = state.zones
        if seats is None:  # every seat: the names made once per table size (a pass begins most Hearts deals)
            for name in seat_zones(CHOSEN, state.players):
                zones[name] = []
        else:
            for s in seats:
                zones[self.zone(s)] = []
        state.data[CHOOSING] = count
        state.to_move = first

    def active(self, state: DealState) -> bool:
        return bool(state.data.get(CHOOSING))

    def count(self, state: DealState) -> int:
        """How many cards each seat chooses in this phase (0 once it is over)."""
        return int(state.data.get(CHOOSING) or 0)

    def left(self, state: DealState, seat: int) -> int:
        """How many more cards ``seat`` has to choose (0 for a seat that takes no part in the phase)."""
        chosen = state.zones.get(self.zone(seat))
        return 0 if chosen is None else self.count(state) - len(chosen)

    def moves(self) -> tuple[Action, ...]:
        """The move choosing each card, by card number: made once, the very objects `actions` hands out."""
        moves = self._moves
        if not moves:  # the deck is the game's once it is built; each card's move is made the first time
            moves = self._moves = tuple(Action(self.kind, (c,)) for c in self.game.deck.ids)
        return moves

    def actions(self, state: DealState) -> list[Action]:
        """One move per card of the chooser's hand."""
        moves = self._moves or self.moves()
        return [moves[c] for c in state.zones[f"hand.{state.to_move}"]]

    def refusal(self, state: DealState, action: Action) -> str | None:
        if action.kind != self.kind or len(action.cards) != 1:
            return f"choose one card at a time: '{self.kind} CARD'"
        if action.cards[0] not in state.zones[f"hand.{state.to_move}"]:
            return f"{self.game.deck.format(action.cards[0])} is not in your hand"
        return None

    def choose(self, state: DealState, card: int) -> bool:
        """Put ``card`` face down among the mover's chosen cards; True once every seat has chosen.

        While the phase lasts, the turn goes to the next seat still choosing once the mover
        has chosen all its cards."""
        seat, zones = state.to_move, state.zones
        zones[f"hand.{seat}"].remove(card)
        mine = zones[f"{CHOSEN}.{seat}"]
        mine.append(card)
        count = self.count(state)
        if count > len(mine):  # `left`, read once for the whole move
            return False
        names = seat_zones(CHOSEN, state.players)
        for name in names:  # the last choice of all, most often: then it ends the phase, whoever is next
            chosen = zones.get(name)
            if chosen is not None and count > len(chosen):
                break
        else:
            return True
        game = self.game
        nxt = seat
        for _ in range(state.players):
            nxt = game.next_seat(state, nxt)  # a seat of the table
            chosen = zones.get(names[nxt])
            if chosen is not None and count > len(chosen):
                state.to_move = nxt
                return False
        return True

    def hand_on(self, state: DealState, targets: Mapping[int, str]) -> None:
        """End the phase: seat ``s``'s chosen cards go to zone ``targets[s]`` (a seat left out keeps its own).

        Every transfer happens in this one step, so nobody sees a card given to them before
        the last seat has chosen; the ``chosen`` zones are removed."""
        zones = state.zones
        for s, name in enumerate(seat_zones(CHOSEN, state.players)):
            cards = zones.pop(name, [])
            zones[targets[s] if s in targets else f"hand.{s}"].extend(cards)
        state.data.pop(CHOOSING, None)
