"""Values a match carries from deal to deal besides the totals: ``carry NAME = EXPR``.

Some scores need a memory the total does not keep: Spades' bags (overtricks, every ten
of which cost 100 and leave the count ten lower), a streak of deals won, a penalty
count that grows until it is paid. A script names such a value and says, per seat,
what it becomes after each deal: ``carry bags = (bags + tricks - bid) % 10``. The name
is then a quantity of that script (0 at the start of the match) which ``score``,
``match_ends``, ``winner`` and the other rules read, and the ledger keeps it beside
the totals: saved with the match, resumed with it, printed with each deal's scores.
Every ``carry`` is worked out from the deal as it ended and the values before it, at
the same moment as ``score``, so a rule reading the name reads the value the deal
started with.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .vocabulary import NUMBER, PER_SEAT, SEAT_IN_MATCH, Quantity, StatementSpec, Vocabulary

if TYPE_CHECKING:
    from . import tree as t
    from .compiler import Env
    from .vocabulary import Ctx


def _check_carry(item: t.Statement, env: Env) -> str:
    """The name the value goes by, which must not hide an option or a symbol (a quantity: `with_carried`)."""
    word = item.words[0]
    name = str(word.value)
    if word.kind != "name":
        raise env.error(word.pos, f"carry names its value with a word such as 'bags', not {word}")
    if name in env.options or name in env.vocab.symbols:
        raise env.error(word.pos, f"carry {name}: {name!r} is already a word of this game; choose another name")
    return name


CARRY = StatementSpec(
    "carry",
    "a value each player carries from deal to deal besides the total, 0 at the start: 'carry bags = EXPR' "
    "gives its value after each deal (read as 'bags' in any rule), saved and shown with the totals",
    words=(1, 1),
    value=PER_SEAT,
    needs_value=True,
    multi=True,
    check=_check_carry,
)


def carried_quantity(name: str) -> Quantity:
    """The quantity a ``carry NAME`` statement makes: the seat's value as the deal began."""

    def get(c: Ctx) -> int:
        values = c.ledger.carried.get(name)
        return values[c.seat] if values else 0

    return Quantity(
        name,
        f"the value carried from deal to deal as {name!r} (carry {name})",
        SEAT_IN_MATCH,
        get,
        kind=NUMBER,
        rulebook=f"your {name.replace('_', ' ')}",
    )


def with_carried(vocab: Vocabulary, names: list[str]) -> Vocabulary:
    """The variant's words with a quantity for each value its script carries (none: the words unchanged).

    A name that is already a quantity of the game is the caller's error to report; it is left out here."""
    fresh = {n: carried_quantity(n) for n in names if n not in vocab.quantities}
    return vocab.merged(Vocabulary(quantities=fresh)) if fresh else vocab
