"""A person at the terminal, as a bot: shows the seat's table and reads a move, forgivingly.

The person sees only their seat's view (the same picture of the deal a bot
gets): the table in the game's shape, their hand sorted, the scores, and what
the other seats did since their last move, to the very last move of a deal
(`deal_over`). A move is typed by its number in the menu or as words, in any
case: ``7h``, ``7♥``, ``play 7H`` (and a card by the name the table shows it
with, ``7 de oros``), and the game's own short words (Chinchón's ``d`` for
``draw stock``, ``take`` for ``draw discard``: `tapete.Game.moves_help`). A line
that is not a move (empty, gibberish, a number off the menu, a card not in the
deck) is answered here; a move the game refuses goes to the game, which says
why in its own words (the engine calls `refused`), and the state never changes.
Commands: ``help`` (the game's moves and rules), ``hint``, ``rules``, ``score``,
``log``, ``save [FILE]``, ``quit``.

What the person can do beyond moving (save, rules, hint) comes from a `Host`;
the command line supplies one that saves the match (``tapete.session``).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.text import Text

from ..core.actions import Action
from ..core.cards import SUIT_LETTERS, SUIT_NAMES, Deck
from ..core.limits import NumberError, read_number
from ..core.rng import Random
from ..game import Game, MoveHelp
from ..layout import Layout, Picture, recap, since_last_move
from ..view import View
from .render import Faces, action_text, event_lines, fit, flow, make_console, menu_lines, picture_lines

COMMANDS = ("help", "hint", "rules", "score", "log", "save", "quit")
QUIT_WORDS = ("quit", "exit", "q")
COMMANDS_HELP = "  commands: help, hint (the best bot's move), rules, score, log (this deal), save [FILE], quit"
# A card by its suit in words, as a table may show it: "7 de oros", "7oros", "k of hearts".
_SPOKEN_CARD = re.compile(
    r"\b(10|[0-9]|[ajqkt])(?:\s+(?:de|of|di)\s+|\s*)(" + "|".join(sorted(SUIT_NAMES, key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class MoveWords:
    """What the reader knows of a game's moves beyond the legal ones: its short words and all its kinds.

    Read from `tapete.Game.moves_help`: ``aliases`` maps a short word to the move it stands
    for (``"d"`` -> ``"draw stock"``), ``kinds`` every kind of move the game has, so that
    a move of the game that is not legal now goes to the game, which says why."""

    aliases: Mapping[str, str] = field(default_factory=dict)
    kinds: frozenset[str] = frozenset()

    @classmethod
    def of(cls, moves: Sequence[MoveHelp]) -> MoveWords:
        aliases = {alias: m.typed for m in moves for alias in m.aliases}
        return cls(aliases, frozenset(m.kind for m in moves))


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
        self.watching = False  # every move is printed as it happens: no recap of them
        self.moves = game.moves_help()
        self.words = MoveWords.of(self.moves)

    @property
    def width(self) -> int | None:
        """The terminal's width, which lines are broken to; None when output goes to a file or pipe."""
        return self.console.width if self.console.is_terminal else None

    def rules(self) -> list[str]:
        return ["'tapete rules VARIANT' prints the rulebook of a variant"]

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


MAX_LINE = 4_096  # characters of one answer read from a file or a pipe (a person types a few)


def read_line(prompt: str) -> str:
    """One answer: `input` at a terminal; from a file or a pipe, a line of at most `MAX_LINE` characters.

    Input that is not a terminal may never end a line (``< /dev/zero``, ``yes | tr -d '\\n'``):
    a line longer than the bound, or holding NUL, is taken as the end of the input (EOFError),
    so the match stops as it does at the end of a file instead of reading for ever."""
    stream = sys.stdin
    if stream is None:  # started with stdin closed (<&-): what input() says then
        raise RuntimeError("lost sys.stdin")
    if stream.isatty():
        return input(prompt)
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = stream.readline(MAX_LINE + 1)
    if not line or "\x00" in line or (len(line) > MAX_LINE and not line.endswith("\n")):
        raise EOFError
    return line.rstrip("\r\n")


class HumanBot:
    observes = True

    def __init__(
        self,
        game: Game,
        seat: int,
        rng: Random,
        ask: Callable[[str], str] = read_line,
        say: Callable[[str], None] | None = None,
        host: Host | None = None,
    ):
        self.game, self.seat, self.ask, self.say = game, seat, ask, say
        self._host = host
        self._shown: tuple[int, int] | None = None  # (deal, history length) last shown
        self._refused = False
        self._faces: tuple[Deck, Faces] | None = None

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
        """Print one line (broken between words to the terminal's width) or hand it to ``say``."""
        if self.say is not None:
            self.say(line.plain if isinstance(line, Text) else line)
            return
        for part in fit(line, self.host.width):
            self.host.console.print(part)

    def faces(self, view: View) -> Faces:
        """The cards' names at this table (the layout's: a Spanish deck's suits in words)."""
        if self._faces is None or self._faces[0] is not view.deck:
            self._faces = (view.deck, Faces.of(view.deck, self.host.layout.card_names(view)))
        return self._faces[1]

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
        host, faces = self.host, self.faces(view)
        legal = self.menu(view, legal)
        if not self._refused:
            if host.hot_seat and host.last_person is not None and host.last_person != self.seat:
                host.clear()
                self.prompt(f"pass the screen to seat {self.seat}, then press Enter ")
                host.clear()
            host.last_person = self.seat
            for line in picture_lines(faces, self.picture(view, legal), host.width):
                self.show(line)
            for line in menu_lines(faces, legal, host.width):
                self.show(line)
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
        """A line from the person; no more input (the end of it, or stdin closed: ``<&-``) stops the match."""
        try:
            return self.ask(text)
        except EOFError:
            raise Quit("the input ended") from None
        except (OSError, RuntimeError, ValueError):
            # input() with stdin closed says "lost sys.stdin" (RuntimeError) or, with a closed
            # file, "I/O operation on closed file" (ValueError) or EBADF (OSError)
            if self.ask not in (input, read_line):
                raise
            raise Quit("the input is closed") from None

    def refused(self, action: Action, reason: str) -> bool:
        """The game refused the move: say why in its words and ask again (the state has not changed)."""
        faces = self._faces[1] if self._faces is not None else None
        self.show(Text.assemble("  refused: ", (faces.words(reason) if faces else reason, "bold")))
        self._refused = True
        return True

    def deal_over(self, view: View) -> None:
        """The deal has ended: show what happened since this seat last looked, to the last move.

        Nobody asks a person to move once the deal is over, so without this the moves
        after theirs (an opponent taking the card they threw, then closing) would never
        be shown."""
        start = self._shown[1] if self._shown is not None and self._shown[0] == view.deal_number else 0
        self._shown = None
        if self.host.watching:
            return
        lines = recap(self.host.layout, view, start)
        if not lines:
            return
        faces = self.faces(view)
        whose = f"seat {self.seat}, " if self.host.hot_seat else ""
        self.show(Text(f"{whose}the last moves of deal {view.deal_number}:", style="bold"))
        for tokens in lines:
            for line in event_lines(faces, tokens, self.host.width):
                self.show(line)

    def pause(self, text: str) -> None:
        """Wait until the person is ready (Enter); ``quit`` stops the match, which is saved."""
        answer = self.prompt(text).strip().lower()
        if answer in QUIT_WORDS:
            raise Quit("quit")

    def confirmed(self, view: View, action: Action) -> bool:
        lines = self.host.layout.confirm(view, action)
        if not lines:
            return True
        for line in lines:
            self.show("  " + line)
        answer = self.prompt(f"{self.faces(view).action(action)}? [y/n] ").strip().lower()
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
        return interpret(text, view.deck, legal, self.host.words, self.host.layout.card_move, self.faces(view))

    def command(self, name: str, args: list[str], view: View, legal: Sequence[Action]) -> Text | str:
        host, faces = self.host, self.faces(view)
        if name in ("help", "?"):
            for line in help_lines(host, view, legal, faces):
                self.show(line)
            return ""
        if name == "hint":
            got = host.hint(view, legal)
            if got is None:
                return "  no hint: this game has no bot to ask"
            action, why = got
            number = f" [{legal.index(action) + 1}]" if action in legal else ""
            return Text.assemble("  hint: ", action_text(faces, action), f"{number} - {faces.words(why)}")
        if name == "rules":
            for line in host.rules():
                self.show(line)
            return ""
        if name == "score":
            for line in [*host.layout.scores(view), *host.game.standing(view)]:
                self.show("  " + faces.words(line))
            return ""
        if name == "log":
            self.show(f"  deal {view.deal_number} so far, as seat {view.seat} saw it:")
            for event in view.history:
                if event.kind == "action":
                    for line in event_lines(faces, host.layout.event(view, event), host.width, 4):
                        self.show(line)
            return ""
        if name == "save":
            return "  " + host.save(args[0] if args else None)
        return ""


def help_lines(host: Host, view: View, legal: Sequence[Action], faces: Faces | None = None) -> list[Text | str]:
    """The menu, then the game's moves as they are typed, the commands, and the rules that apply.

    Every word of it is the game's (`tapete.Game.moves_help`, `tapete.Game.rules_help`,
    `Layout.help`): a game lists only moves it has, in the ids of its own rules."""
    faces = faces or Faces.of(view.deck, host.layout.card_names(view))
    width = host.width
    lines: list[Text | str] = list(menu_lines(faces, legal, width))
    lines.append("  type a move's number, or the move itself, in any case:")
    moves = host.moves
    column = max((len(_typed(m)) for m in moves), default=0)
    for m in moves:
        ids = f" ({', '.join(m.rules)})" if m.rules else ""
        start = Text(f"    {_typed(m).ljust(column)}  ")  # what it does, in a column of its own
        lines += flow(start, [[Text(w)] for w in f"{m.does}{ids}".split()], width, " ", len(start.plain))
    if any(m.kind == host.layout.card_move for m in moves) or not moves:
        card = next((a.cards[0] for a in legal if a.cards), 0)
        ways = dict.fromkeys([faces.names[card], view.deck.names[card], _letters(view.deck, card)])
        said = ", ".join(f"'{w}'" for w in ways)
        lines += fit(f"    a card alone ({said}) makes the move that names it", width, 6)
    lines += fit(
        "  commands: help, hint (the best bot's move), rules, score, log (this deal), save [FILE], quit", width
    )
    rules = [*host.game.rules_help(), *host.layout.help(view)]
    if rules:
        lines.append("  rules that apply:")
        for r in rules:
            lines += fit("    " + faces.words(r), width, 6)
    return lines


def _letters(deck: Deck, card: int) -> str:
    """A card with its suit as a letter (``7h``), the quickest way to type it."""
    letter = {symbol: letter.lower() for letter, symbol in SUIT_LETTERS.items()}.get(deck.suit_of[card], "")
    return deck.rank_of[card] + letter + deck.names[card][len(deck.rank_of[card]) + len(deck.suit_of[card]) :]


def _typed(move: MoveHelp) -> str:
    return move.typed + (f" (or {move.aliases[0]})" if move.aliases else "")


def interpret(
    text: str,
    deck: Deck,
    legal: Sequence[Action],
    words: MoveWords | None = None,
    card_move: str = "play",
    faces: Faces | None = None,
) -> Action | Text | str:
    """Read a typed move against the legal ones; a string says why the line is not a move.

    ``words`` are the game's short words and kinds of move (`MoveWords`); a card may be
    typed by its suit in words as well (``7 de oros``, ``7oros``). ``faces`` names the
    cards of a "which one?" question as the table shows them."""
    words = words or MoveWords()
    shown: Deck | Faces = faces or deck
    text = _SPOKEN_CARD.sub(lambda m: m.group(1) + SUIT_NAMES[m.group(2).lower()], text)
    if not text:
        return f"  type a move, its number (1-{len(legal)}), or 'help'"
    if text.isdigit():  # a move's number, read by the one bounded number reader (5,000 digits never reach int())
        try:
            n = int(read_number(text, "a move's number", low=1, high=len(legal)))
        except NumberError:
            said = text if len(text) <= 12 else f"{text[:9]}... ({len(text):,} digits)"
            return f"  there is no move {said}: choose 1-{len(legal)}, or type the move"
        return legal[n - 1]
    kinds = {a.kind for a in legal}
    lowered = " ".join(text.lower().split())
    alias = words.aliases.get(lowered)
    if alias is not None and (lowered not in kinds or lowered == alias.split()[0]):
        lowered = alias  # 'd' is 'draw stock'; 'discard' alone is a draw only while no discard is legal
    typed = lowered.split()
    cards: list[int] = []
    if _card(typed[0], deck) is not None:  # cards alone: the move that plays them
        for w in typed:
            c = _card(w, deck)
            if c is None:
                return f"  {_no_card(w, deck)}"
            cards.append(c)
        return _by_cards(tuple(cards), shown, legal, card_move)
    if _looks_like_card(typed[0]) and typed[0] not in kinds | words.kinds:  # 'bid' is a move, not bi♦
        return f"  {_no_card(typed[0], deck)}"
    kind, detail = typed[0], []
    if kind == "play" and "play" not in kinds:
        kind = card_move  # 'play' is how a card is put down in any game (a discard in a rummy)
    details = _details(legal) | {w for m in words.aliases.values() for w in m.split()[1:]}
    for w in typed[1:]:
        c = _card(w, deck)
        if c is not None:
            cards.append(c)
        elif w in details:
            detail.append(w)
        else:
            return f"  {_no_card(w, deck)}"
    known = kinds | words.kinds | {"pass", "play"}
    if kind not in known:
        return f"  '{text}' is not a move here: type a move from the list, its number, or 'help'"
    action = Action(kind, tuple(cards), " ".join(detail))
    if not cards and not detail:
        same = [a for a in legal if a.kind == kind]
        if len(same) == 1:
            return same[0]
        if len(same) > 1:
            return _which(shown, legal, same)
    return action


def _by_cards(
    cards: tuple[int, ...], shown: Deck | Faces, legal: Sequence[Action], card_move: str
) -> Action | Text | str:
    exact = [a for a in legal if a.cards == cards]
    starting = exact or [a for a in legal if a.cards[: len(cards)] == cards]
    if len(starting) == 1:
        return starting[0]
    plain = [a for a in starting if a.kind in ("play", card_move)]  # a card alone, not a close with it
    if len(plain) == 1:
        return plain[0]
    if starting:
        return _which(shown, legal, starting)
    counts = Counter(a.kind for a in legal if a.cards)
    kind = counts.most_common(1)[0][0] if counts else card_move
    return Action(kind, cards)  # not legal: the game will say why


def _which(deck: Deck | Faces, legal: Sequence[Action], options: Sequence[Action]) -> Text:
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
