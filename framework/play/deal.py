"""One deal in play through the public Python API: dealing, moving, views, snapshots.

A `Deal` wraps a game and a state for callers who play move by move: it refuses
illegal moves without touching the state and hides what a seat cannot see. The
match loop (`tapete.play.match`) deals through `start_deal` too, so a deal begun
here and a deal of a match start alike.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, cast

from ..core.actions import Action
from ..core.errors import IllegalAction, SnapshotError
from ..core.inputs import declare
from ..core.inputs import seat as read_seat
from ..core.ledger import Ledger, carried_counters
from ..core.rng import Random
from ..core.state import DealState
from ..game import REMOVED, Game
from ..rules.program import Rules
from ..rules.vocabulary import Ctx
from ..view import Recorder, View, game_facts, make_view, observer, public, public_data, shown

if TYPE_CHECKING:
    from collections.abc import Callable

    from .loading import Variant


def state_from_snapshot(game: Game, obj: Any, partial: bool = False) -> DealState:
    """A deal state read completely or not at all: SnapshotError lists every problem."""
    state = DealState.from_json(obj, game.deck)
    problems = game.check_state(state, partial)
    if problems:
        raise SnapshotError("broken deal snapshot: " + "; ".join(problems))
    return state


def first_dealer(rules: Rules, players: int, seed: object) -> int:
    how = rules.constant("first_dealer", "lot")
    if how == "lot":
        return Random.lot(seed, "first-dealer", players)
    return int(how) % players


def start_deal(game: Game, players: int, dealer: int, rng: Random, ledger: Ledger) -> DealState:
    state = DealState(players, dealer)
    if ledger.carried:  # as the deal begins, public as the totals are
        state.counters.update(carried_counters(ledger.carried, players))
    ctx = Ctx(game, state, None, ledger)
    if game.rules.has_any("remove"):  # a deck for the player count: the removed cards lie face up, apart
        removed = game.removed_cards(state, ctx)
        game._set_aside = frozenset(removed)
        try:
            game.deal(state, rng, ctx)
        finally:
            game._set_aside = frozenset()
        state.zones[REMOVED] = removed
    else:
        game.deal(state, rng, ctx)
    leader = game.rules.expr("leader")
    state.to_move = (leader.fn(ctx) % players) if leader is not None else game.next_seat(state, dealer)
    game.deal_started(state)
    state.rng = rng.getstate()
    return state


class DealSteps:
    """What a caller stepping through a deal calls for every move: `legal_actions`, `play`, `over`, `to_move`.

    The base of `Deal`. ``tapete.core._speedups.DealSteps`` does the same in C where it is
    built, line for line; with a game's own steps in C (`Game.quick_steps`, the trick
    family's) a move through the public API then runs no Python frame at all. What the C
    base does not settle (a move not among the very objects handed out, a recorder) it asks
    of the `Deal` methods this one asks. tests/test_deal_steps.py plays both in lockstep.
    The attributes are the `Deal`'s, set by its ``__init__``."""

    _state: DealState
    _offered: Any  # the moves last handed out (a list), or the session that handed them out, or None
    _quick_legal: Any
    _quick_apply: Any
    _quick_session: Any
    _session: Any
    _behind: DealState | None
    _recorder: Recorder | None
    _moves: list[Action]
    game: Game
    _checked: Callable[[object], Action]  # the Deal's: a move not among those handed out, checked

    @property
    def to_move(self) -> int:
        return self._state.to_move

    @property
    def over(self) -> bool:
        return self._state.over

    def legal_actions(self) -> list[Action]:
        """The legal moves now (none once the deal is over), remembered for `play`'s check.

        A session that can say which moves it handed out (``session.offered(action)``) is
        remembered instead of a copy of them: the list is the caller's own."""
        offered = self._offered
        if type(offered) is not list:
            state = self._state
            if state.over:
                offered = []
            else:
                found = None
                session = self._session
                if (
                    session is None
                    and self._quick_session is not None
                    and (self._recorder is None or self._behind is not None)
                ):
                    session = self._session = self._quick_session(state)  # (not under an eager recorder: see `play`)
                if session is not None:
                    found = session.legal()
                    if type(found) is not list:
                        found = self._session = None  # it no longer answers: dropped
                    elif getattr(session, "offered", None) is not None:
                        self._offered = session  # it can say which moves it handed out: no copy kept
                        return found
                quick = self._quick_legal
                if found is None and quick is not None:
                    found = quick(state)  # a new list, or None: ask the game
                if found is None:
                    offered = list(self.game.legal_actions(state))
                else:
                    offered = found if type(found) is list else list(found)
            self._offered = offered
        return offered[:]

    def play(self, action: Action | str) -> list[dict[str, Any]]:
        """Make a move; an illegal one raises IllegalAction saying why and changes nothing.

        Anything else handed in (None, a number, an Action naming a card the deck does not
        have) is an illegal move too, refused before the game sees it."""
        offered = self._offered
        move: Action | None = None
        if offered is not None and offered is self._session:  # the session knows the moves it handed out
            if offered.offered(action):
                move = action  # type: ignore[assignment]
        elif type(offered) is list:  # the very object handed out: the commonest case, checked first and quickest
            for item in offered:
                if item is action:
                    move = action
                    break
        if move is None:
            move = self._checked(action)
        self._offered = None  # whatever happens next, the state is another
        if self._behind is not None:
            self._moves.append(move)
        elif self._recorder is not None:
            self._session = None  # the recorder plays the move in Python
            return self._recorder.apply(self._state, move)
        session = self._session
        if session is not None:
            done = session.play(move)
            if done is not None:
                return cast("list[dict[str, Any]]", done)
            self._session = None  # not its move: dropped, and the move played below
        quick = self._quick_apply
        if quick is not None:
            events = quick(self._state, move)
            if events is not None:
                return cast("list[dict[str, Any]]", events)
        return self.game.apply(self._state, move)


_Steps: Any = DealSteps
try:
    from ..core import _speedups

    _Steps = _speedups.DealSteps
except ImportError:  # built without a C compiler: the twin above, the same steps in Python
    pass


class Deal(_Steps):  # type: ignore[misc]
    """One deal in play, for callers who move step by step (tests, tools, people).

    A deal keeps every seat's history (``record=False`` skips that), so ``view(seat)`` is
    exactly what a bot at that seat would be handed. Keeping it costs almost nothing while
    the deal is played: the deal keeps the moves, and works the histories out from them when
    a view is first asked for (and then from the moves since), by playing them again on a
    copy of the deal as it began. The histories therefore follow the moves made with
    `play`; a state changed by hand is seen as it is now, but its change is in no history.

    `play` checks a move by its membership in the moves `legal_actions` last handed out, while
    nothing can have changed since: asking the game again (`Game.refusal`) would work the
    legal moves out a second time, most of a move's cost in a trick game. Every move made and
    every reach for `state` (the one way to change it by hand) forgets them, so a move checked
    against them is checked against the state it is played on; a move not among them is asked
    of the game, which says why it is refused. A reference to the state kept from before
    `legal_actions` and changed afterwards bypasses that: take ``deal.state`` again to change it.
    """

    def __init__(self, variant: Variant, game: Game, state: DealState, record: bool = True):
        self.variant, self.game, self._state = variant, game, state
        # the moves last handed out by `legal_actions` (a list only this deal holds), while the state
        # is known unchanged since
        self._offered: Any = None
        quick = game.quick_steps()  # the game's steps with no Python frame of its own, where it has them
        self._quick_legal = quick.legal if quick is not None else None
        self._quick_apply = quick.apply if quick is not None else None
        # a session following this state move by move (`QuickSteps.session`), kept while only this deal's
        # moves change it: every reach for `state`, a move played in Python and a recorder drop it
        self._quick_session = quick.session if quick is not None else None
        self._session: Any = None
        self._recorder: Recorder | None = None
        # recording lazily: the deal where the recorder stands, and the moves played since
        self._behind: DealState | None = state.clone() if record else None
        self._moves: list[Action] = []

    _STEPS = ("_state", "_offered", "_quick_legal", "_quick_apply", "_quick_session", "_behind", "_recorder", "_moves")

    def __getstate__(self) -> dict[str, Any]:
        """Everything the deal holds, its steps' fields too (kept by the C base where built): for copies.

        Not the session: it holds this deal's own lists, and a copy opens its own."""
        held = {**self.__dict__, **{name: getattr(self, name) for name in Deal._STEPS}, "_session": None}
        if type(held["_offered"]) is not list:  # what the session vouched for is the session's: the copy asks anew
            held["_offered"] = None
        return held

    def __setstate__(self, held: dict[str, Any]) -> None:
        for name, value in held.items():
            setattr(self, name, value)

    def __copy__(self) -> Deal:
        """A shallow copy: what the deal holds, its state and histories too, shared with it."""
        twin = Deal.__new__(Deal)
        twin.__setstate__(self.__getstate__())
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> Deal:
        """An independent copy, its seats' histories included, sharing only what never changes:
        the variant, its game and the game's compiled steps (copying those would copy the rules)."""
        held = self.__getstate__()
        for shared in (self.variant, self.game, held["_quick_legal"], held["_quick_apply"], held["_quick_session"]):
            memo[id(shared)] = shared
        twin = Deal.__new__(Deal)
        memo[id(self)] = twin
        twin.__setstate__(copy.deepcopy(held, memo))
        return twin

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """A deal goes to another process (pickle, `multiprocessing`, Dask) as its variant (see
        `Variant.__reduce__`) and its snapshot: it arrives at the same position with the same dice,
        so it plays on exactly as this one would. The seats' histories start there, as after
        `Variant.deal_from_snapshot`: a view asked of it knows the position, not how it came about."""
        return (deal_again, (self.variant, self.snapshot(), self._behind is not None or self._recorder is not None))

    @property
    def state(self) -> DealState:
        """The deal's state, to read or to change by hand: the moves last offered are forgotten,
        and the session following it (`QuickSteps.session`) dropped.

        A reference kept to read from stays right as moves are made (every step writes its
        changes into this very object); to change the state by hand, take it here again."""
        self._offered = self._session = None
        return self._state

    @state.setter
    def state(self, state: DealState) -> None:
        self._offered, self._session, self._state = None, None, state

    @property
    def recorder(self) -> Recorder | None:
        """The `Recorder` of every seat's history, brought up to date; None without recording."""
        if self._behind is not None:
            self._catch_up(self._behind)
        return self._recorder

    @recorder.setter
    def recorder(self, recorder: Recorder | None) -> None:
        """Record with ``recorder`` from now on, move by move (it must stand at this deal's state)."""
        self._recorder, self._behind, self._moves = recorder, None, []

    def _catch_up(self, behind: DealState) -> None:
        """Record the moves played since the last look, on the copy that stands where the recorder does."""
        recorder = self._recorder
        if recorder is None:
            recorder = self._recorder = Recorder(self.game, behind, None, None, self.variant.options)
        moves, self._moves = self._moves, []
        try:
            for action in moves:
                recorder.apply(behind, action)
        except Exception:  # the state was changed by hand and a move does not replay: follow the state as it is
            self._behind = self._state.clone()
            return
        if behind != self._state:  # changed by hand: go on from the state as it is
            self._behind = self._state.clone()

    @declare(text="action")
    def action(self, text: str) -> Action:
        """The move ``text`` writes (``play 7♥``); ValueError says why when it is none."""
        if not isinstance(text, str):
            raise ValueError(f"a move's text must be a string such as 'play 7♥', not {type(text).__name__}")
        return Action.parse(text, self.game.deck)

    def _checked(self, action: object) -> Action:
        """A move not among the very objects `legal_actions` handed out, checked: the Action it
        is (its text parsed), or IllegalAction saying why it is none or not legal now."""
        if isinstance(action, str):
            try:
                action = self.action(action)
            except ValueError as exc:
                raise IllegalAction(str(exc)) from None
        if self._offered_now(action):
            assert isinstance(action, Action)
            return action
        why = malformed(action, len(self.game.deck))
        if why is not None:
            raise IllegalAction(why)
        assert isinstance(action, Action)
        if self._state.over:
            raise IllegalAction("the deal is over")
        why = self.game.refusal(self._state, action)
        if why is not None:
            raise IllegalAction(why)
        return action

    def _offered_now(self, action: object) -> bool:
        """Whether ``action`` is a move `legal_actions` handed out for the state as it is.

        Only the very objects handed out count, or an equal well-formed Action: an equal tuple
        of other types (``True`` for card 1) is still refused by `malformed`, as before."""
        offered = self._offered
        if type(offered) is not list or type(action) is not Action:
            return False  # none kept, or a session's (which vouches only for the very objects it handed out)
        try:
            at = offered.index(action)
        except Exception:  # not offered, or its parts compare badly (an array for a card): malformed says why
            return False
        return offered[at] is action or malformed(action, len(self.game.deck)) is None

    def clone(self) -> Deal:
        """A copy to try moves on; it starts without history."""
        return Deal(self.variant, self.game, self._state.clone(), record=False)

    @declare(seat="seat")
    def view(self, seat: int | None = None) -> View:
        """What ``seat`` (default: the seat to move) knows now: the view its bot would get."""
        seat = self._state.to_move if seat is None else read_seat(seat, self._state.players)
        recorder = self.recorder
        if recorder is not None:
            return recorder.view(self._state, seat)
        return make_view(self.game, self._state, seat, game_facts(self.game, seat), self.variant.options, None)

    def snapshot(self) -> dict[str, Any]:
        return self._state.to_json(self.game.deck)

    @declare(seat="seat")
    def observe(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know (`observe`); a seat that is not one of this deal's is refused."""
        return observe(self.game, self._state, read_seat(seat, self._state.players))


def deal_again(variant: Any, snapshot: dict[str, Any], record: bool) -> Deal:
    """A pickled deal in this process (`Deal.__reduce__`): its snapshot read back whole, as any other.
    Read as a position that may leave cards out of play, as a worked example does: a whole deal's
    snapshot places every card, so nothing is left out of it."""
    deal = variant.deal_from_snapshot(snapshot, partial=True)
    return deal if record else Deal(deal.variant, deal.game, deal._state, record=False)


# `play`'s move goes through the reader of moves (`_checked`: a text is parsed, anything else refused by name)
declare(action="action")(Deal.play)


def malformed(action: object, deck_size: int) -> str | None:
    """Why ``action`` is not a move at all (not an Action, a card outside the deck), or None."""
    if not isinstance(action, Action):
        return f"a move is an Action or its text (such as 'play 7♥'), not {type(action).__name__} {action!r:.60}"
    kind, cards, detail = action
    if not isinstance(kind, str) or not isinstance(detail, str) or not isinstance(cards, tuple):
        return f"a move has a kind (text), cards (a tuple of card numbers) and a detail (text), not {action!r:.80}"
    for card in cards:
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < deck_size:
            return f"{card!r:.40} is not a card of this deck (cards are numbered 0-{deck_size - 1})"
    return None


def observe(game: Game, state: DealState, seat: int) -> dict[str, Any]:
    """What ``seat`` may know, as plain JSON, from the script's ``see`` statements (unlisted zones: count only).

    A zone the seat sees whole is the list of its cards, a ``top`` pile its top card and
    size, any other zone its size (a ``none`` zone is left out); the counters and ``data``
    are the public ones (`tapete.view.public`). The zones are read by the rules as they
    stand during play, also once the deal is over (a `View` then shows every card)."""
    names = game.deck.names
    see = observer(game)
    zones: dict[str, Any] = {}
    for name, cards in state.zones.items():
        mode = see.mode(name, seat)
        if mode == "all":
            zones[name] = [names[c] for c in shown(cards, mode)]
        elif mode == "top":
            top = shown(cards, mode)
            zones[name] = {"top": names[top[0]] if top else None, "count": len(cards)}
        elif mode == "count":
            zones[name] = {"count": len(cards)}
    return {
        "seat": seat,
        "players": state.players,
        "dealer": state.dealer,
        "to_move": state.to_move,
        "over": state.over,
        "zones": zones,
        "counters": public(state.counters),
        "data": public_data(state.data),
    }
