"""A person at the terminal, as a bot: shows the seat's table and reads a move, forgivingly.

The person sees only their seat's view (the same picture of the deal a bot
gets): the table in the game's shape, their hand sorted, the scores, and what
the other seats did since their last move. A move is typed by its number in
the menu or as words, in any case: ``7h``, ``7♥``, ``play 7H``, ``d`` or
``draw stock``, ``take`` or ``draw discard``, ``close 3♠``, ``pass``. A line
that is not a move (empty, gibberish, a number off the menu, a card not in the
deck) is answered here; a move the game refuses goes to the game, which says
why in its own words (the engine calls `refused`), and the state never changes.
Commands: ``help``, ``hint``, ``rules``, ``score``, ``log``, ``save [FILE]``,
``quit``.

What the person can do beyond moving (save, rules, hint) comes from a `Host`;
the command line supplies one that saves the match (``tapete.session``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from ..core.actions import Action
from ..core.cards import Deck
from ..core.rng import Random
from ..game import Game
from ..layout import Layout, Picture, recap, since_last_move
from ..view import View
from .render import action_text, make_console, menu_text, picture_lines, tokens_text

COMMANDS = ("help", "hint", "rules", "score", "log", "save", "quit")
QUIT_WORDS = ("quit", "exit", "q")
DRAW_ALIASES = {
    "d": "draw stock",
    "draw": "draw stock",
    "stock": "draw stock",
    "s": "draw stock",
    "take": "draw discard",
    "t": "draw discard",
    "discard": "draw discard",
}


class Quit(Exception):
    """The person stopped the match (``quit``, or the input ended); ``how`` says which."""

    def __init__(self, how: str):
        super().__init__(how)
        self.how = how


class Host:
    """What a human seat may ask of whoever runs the match; these defaults need no command line."""

    def __init__(self, game: Game, console: Console | None = None, layout: Layout | None = None):
        self.game = game
        self.console = console or make_console()
        if layout is None:
            layout = game.record.layout if game.record is not None else None
        self.layout = layout or Layout()
        self.hot_seat = False  # several people share the screen: pause between them
        self.last_person: int | None = None
        self.draws_seen = False  # the game has draw moves, so 'd' and 'take' mean draws
        self.watching = False  # every move is printed as it happens: no recap of them

    def rules(self) -> list[str]:
        return ["'tapete show VARIANT' prints the rules of a variant"]

    def save(self, path: str | None) -> str:
        return "saving needs a match started with 'tapete play'"

    def hint_bot(self, seat: int) -> Any:
        """The bot ``hint`` asks: the game's default bot, the one a seat gets when none is named
        (read from the game's record, so Scopa's hint is Scopa's bot, not Chinese Ten's).
        None when that is a person, or for a game built without a variant."""
        record = self.game.record
        if record is None or record.default_bot == "human":
            return None
        return record.default_factory()(self.game, seat, Random(0, "hint"))

    def hint(self, view: View, legal: Sequence[Action]) -> tuple[Action, str] | None:
        """The game's best bot's choice for this view, and why when the bot can say."""
        bot = self.hint_bot(view.seat)
        if bot is None:
            return None
        action: Action = bot.choose(view if getattr(bot, "observes", True) else None, list(legal))
        explain = getattr(bot, "explain", None)
        name = self.game.record.default_bot if self.game.record is not None else ""
        why = str(explain(view, list(legal), action)) if explain is not None else f"what the {name!r} bot would do"
        return action, why

    def clear(self) -> None:
        if self.console.is_terminal:
            self.console.clear()
        else:
            self.console.print("\n" * 3)


class HumanBot:
    observes = True

    def __init__(
        self,
        game: Game,
        seat: int,
        rng: Random,
        ask: Callable[[str], str] = input,
        say: Callable[[str], None] | None = None,
        host: Host | None = None,
    ):
        self.game, self.seat, self.ask, self.say = game, seat, ask, say
        self._host = host
        self._shown: tuple[int, int] | None = None  # (deal, history length) last shown
        self._refused = False

    @property
    def host(self) -> Host:
        if self._host is None:
            self._host = Host(self.game)
        return self._host

    @host.setter
    def host(self, host: Host) -> None:
        self._host = host

    # -- output -------------------------------------------------------------------------
    def show(self, line: Text | str) -> None:
        if self.say is not None:
            self.say(line.plain if isinstance(line, Text) else line)
        else:
            self.host.console.print(line)

    def picture(self, view: View, legal: Sequence[Action]) -> Picture:
        layout = self.host.layout
        start = since_last_move(view)
        if self._shown is not None and self._shown[0] == view.deal_number:
            start = self._shown[1]  # everything since this seat last looked, its own draws included
        return Picture(
            title=layout.title(view),
            scores=layout.scores(view),
            recap=[] if self.host.watching else [list(line) for line in recap(layout, view, start)],
            table=layout.table(view),
            hand=layout.hand(view, legal),
        )

    # -- the turn -----------------------------------------------------------------------
    def menu(self, view: View, legal: Sequence[Action]) -> list[Action]:
        """The legal moves in the order a person reads them (`Layout.menu`)."""
        return self.host.layout.menu(view, legal)

    def choose(self, view: View, legal: list[Action]) -> Action:
        host, deck = self.host, view.deck
        legal = self.menu(view, legal)
        if any(a.kind == "draw" for a in legal):
            host.draws_seen = True
        if not self._refused:
            if host.hot_seat and host.last_person is not None and host.last_person != self.seat:
                host.clear()
                self.prompt(f"pass the screen to seat {self.seat}, then press Enter ")
                host.clear()
            host.last_person = self.seat
            for line in picture_lines(deck, self.picture(view, legal)):
                self.show(line)
            self.show(menu_text(deck, legal))
            self._shown = (view.deal_number, len(view.history))
        self._refused = False
        while True:
            answer = self.prompt(f"seat {self.seat}> ")
            got = self.read(answer, view, legal)
            if isinstance(got, Action):
                if got in legal and not self.confirmed(view, got):
                    continue
                return got
            if got:
                self.show(got)

    def prompt(self, text: str) -> str:
        try:
            return self.ask(text)
        except EOFError:
            raise Quit("the input ended") from None

    def refused(self, action: Action, reason: str) -> bool:
        """The game refused the move: say why in its words and ask again (the state has not changed)."""
        self.show(Text.assemble("  refused: ", (reason, "bold")))
        self._refused = True
        return True

    def confirmed(self, view: View, action: Action) -> bool:
        lines = self.host.layout.confirm(view, action)
        if not lines:
            return True
        for line in lines:
            self.show("  " + line)
        answer = self.prompt(f"{action.text(view.deck)}? [y/n] ").strip().lower()
        if answer in ("y", "yes"):
            return True
        self.show("  not done; choose again")
        return False

    # -- reading a line -------------------------------------------------------------------
    def read(self, answer: str, view: View, legal: Sequence[Action]) -> Action | Text | str:
        """A move, or what to print (a command's output or why the line is not a move)."""
        text = answer.strip()
        words = text.split()
        first = words[0].lower() if words else ""
        if first in QUIT_WORDS and len(words) == 1:
            raise Quit("quit")
        if first in COMMANDS or first == "?":
            return self.command(first, words[1:], view, legal)
        return interpret(text, view.deck, legal, self.host.draws_seen, self.host.layout.card_move)

    def command(self, name: str, args: list[str], view: View, legal: Sequence[Action]) -> Text | str:
        host, deck = self.host, view.deck
        if name in ("help", "?"):
            for line in help_lines(host.layout, view, legal):
                self.show(line)
            return ""
        if name == "hint":
            got = host.hint(view, legal)
            if got is None:
                return "  no hint: this game has no bot to ask"
            action, why = got
            number = f" [{legal.index(action) + 1}]" if action in legal else ""
            return Text.assemble("  hint: ", action_text(deck, action), f"{number} - {why}")
        if name == "rules":
            for line in host.rules():
                self.show(line)
            return ""
        if name == "score":
            for line in host.layout.scores(view):
                self.show("  " + line)
            return ""
        if name == "log":
            self.show(f"  deal {view.deal_number} so far, as seat {view.seat} saw it:")
            for event in view.history:
                if event.kind == "action":
                    self.show(Text("    ") + tokens_text(deck, host.layout.event(view, event)))
            return ""
        if name == "save":
            return "  " + host.save(args[0] if args else None)
        return ""


def help_lines(layout: Layout, view: View, legal: Sequence[Action]) -> list[Text | str]:
    lines: list[Text | str] = [menu_text(view.deck, legal)]
    lines.append("  type a move's number, or the move: a card alone ('7h', '7♥') plays it;")
    lines.append("  'play 7H', 'draw stock' or 'd', 'draw discard' or 'take', 'close 3♠', 'pass' (any case)")
    lines.append("  commands: help, hint (the best bot's move), rules, score, log (this deal), save [FILE], quit")
    rules = layout.help(view)
    if rules:
        lines.append("  rules that apply:")
        lines += ["    " + r for r in rules]
    return lines


def interpret(
    text: str, deck: Deck, legal: Sequence[Action], draws: bool = False, card_move: str = "play"
) -> Action | Text | str:
    """Read a typed move against the legal ones; a string says why the line is not a move."""
    if not text:
        return f"  type a move, its number (1-{len(legal)}), or 'help'"
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(legal):
            return legal[n - 1]
        return f"  there is no move {n}: choose 1-{len(legal)}, or type the move"
    kinds = {a.kind for a in legal}
    lowered = " ".join(text.lower().split())
    if (draws or "draw" in kinds) and lowered in DRAW_ALIASES and (lowered not in kinds or lowered == "draw"):
        lowered = DRAW_ALIASES[lowered]
    words = lowered.split()
    cards: list[int] = []
    if _card(words[0], deck) is not None:  # cards alone: the move that plays them
        for w in words:
            c = _card(w, deck)
            if c is None:
                return f"  {_no_card(w, deck)}"
            cards.append(c)
        return _by_cards(tuple(cards), deck, legal, card_move)
    if _looks_like_card(words[0]):
        return f"  {_no_card(words[0], deck)}"
    kind, detail = words[0], []
    if kind == "play" and "play" not in kinds:
        kind = card_move  # 'play' is how a card is put down in any game (a discard in a rummy)
    for w in words[1:]:
        c = _card(w, deck)
        if c is not None:
            cards.append(c)
        elif w in _details(legal) or w in ("stock", "discard"):
            detail.append(w)
        else:
            return f"  {_no_card(w, deck)}"
    known = kinds | {"pass", "play"} | ({"draw", "discard", "close"} if draws else set())
    if kind not in known:
        return f"  '{text}' is not a move here: type a move from the list, its number, or 'help'"
    action = Action(kind, tuple(cards), " ".join(detail))
    if not cards and not detail:
        same = [a for a in legal if a.kind == kind]
        if len(same) == 1:
            return same[0]
        if len(same) > 1:
            return _which(deck, legal, same)
    return action


def _by_cards(cards: tuple[int, ...], deck: Deck, legal: Sequence[Action], card_move: str) -> Action | Text | str:
    exact = [a for a in legal if a.cards == cards]
    starting = exact or [a for a in legal if a.cards[: len(cards)] == cards]
    if len(starting) == 1:
        return starting[0]
    plain = [a for a in starting if a.kind in ("play", "discard")]
    if len(plain) == 1:
        return plain[0]
    if starting:
        return _which(deck, legal, starting)
    counts = Counter(a.kind for a in legal if a.cards)
    kind = counts.most_common(1)[0][0] if counts else card_move
    return Action(kind, cards)  # not legal: the game will say why


def _which(deck: Deck, legal: Sequence[Action], options: Sequence[Action]) -> Text:
    out = Text("  which one? ")
    for i, a in enumerate(options):
        if i:
            out.append(", ")
        out.append(f"[{legal.index(a) + 1}] ")
        out.append_text(action_text(deck, a))
    return out


def _card(word: str, deck: Deck) -> int | None:
    try:
        return deck.parse(word)
    except ValueError:
        return None


def _looks_like_card(word: str) -> bool:
    """A rank and a suit (``8h``, ``11♥``, ``1s``): a card meant, though not one of this deck."""
    return 2 <= len(word) <= 3 and word[-1].lower() in "cdhs♣♦♥♠" and word[0].isalnum() and word[:-1] != "ca"


def _no_card(word: str, deck: Deck) -> str:
    try:
        deck.parse(word)
    except ValueError as exc:
        return str(exc)
    return f"{word!r} is not a card here"  # pragma: no cover - only called for words that fail


def _details(legal: Sequence[Action]) -> set[str]:
    return {a.detail for a in legal if a.detail}
