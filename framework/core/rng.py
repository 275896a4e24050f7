"""A seeded random source that gives the same numbers on every machine.

Python's own ``random`` is stable in practice but its shuffle and range helpers
have changed between versions; a tiny PCG32 written out here keeps a seeded match
identical across platforms and Python releases, and its whole state is one pair of
integers, so it snapshots into a deal state.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, MutableSequence, Sequence
from typing import Any, TypeVar

_MASK64 = (1 << 64) - 1
_MULT = 6364136223846793005

T = TypeVar("T")


@functools.lru_cache(maxsize=1024)
def _seed_of_python(text: str) -> int:
    """`_seed_of` in plain Python, hashed once per text: every deal asks again for the same streams."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


# _seed_of(text): the first 8 bytes of the text's SHA-256 (of its UTF-8), big-endian. In C where built
# (`tapete.core._speedups.seed_of`: a fifth of hashlib's time for a short text, so it needs no cache,
# and a deal begun by `Variant.new_deal` hashes three texts no deal hashed before).
_pcg_shuffle: Callable[[list[Any], int, int], int] | None
_pcg_lot: Callable[[str, int, int], int] | None
_pcg_derived: Callable[[str, int], int] | None
_seed_of: Callable[[str], int]
try:
    from tapete.core._speedups import pcg_derived as _pcg_derived
    from tapete.core._speedups import pcg_lot as _pcg_lot
    from tapete.core._speedups import pcg_shuffle as _pcg_shuffle
    from tapete.core._speedups import seed_of as _seed_of
except ImportError:  # built without a C compiler: the plain Python twins give the same deals
    _pcg_shuffle = _pcg_lot = _pcg_derived = None
    _seed_of = _seed_of_python


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from any printable parts (match seed, "deal", 3, ...)."""
    return _seed_of("\x1f".join(map(str, parts)))


_INCS: dict[int | str, int] = {}  # stream (a plain int or str) -> its increment: a handful of streams are used


def _increment(stream: object) -> int:
    """The generator's increment for a stream: odd, from ``derive_seed("stream", stream)``.

    Remembered for a plain int or str (exactly those types: ``True`` prints otherwise than
    ``1`` and so is another stream), since every deal, bot and search asks again for the
    same few streams."""
    if type(stream) is str or type(stream) is int:
        inc = _INCS.get(stream)
        if inc is None:
            if len(_INCS) >= 1024:  # a caller numbering its streams: keep the memory bounded
                _INCS.clear()
            inc = _INCS[stream] = ((_seed_of(f"stream\x1f{stream}") << 1) | 1) & _MASK64
        return inc
    return ((derive_seed("stream", stream) << 1) | 1) & _MASK64


_INC0 = _increment(0)  # the default stream's


class Random:
    __slots__ = ("state", "inc")

    def __init__(self, seed: object = 0, stream: object = 0):
        # PCG32's seeding, written out: from state 0 one step (state = inc), the seed added,
        # one step more; each step is state * _MULT + inc, modulo 2**64
        inc = self.inc = _increment(stream)
        self.state = ((inc + _seed_of("seed\x1f" + str(seed))) * _MULT + inc) & _MASK64

    @classmethod
    def derived(cls, *parts: object) -> Random:
        """``Random(derive_seed(*parts))``: the generator of a derived seed (a match's deal), in one step."""
        r = cls.__new__(cls)
        inc = r.inc = _INC0
        text = "\x1f".join(map(str, parts))
        if _pcg_derived is not None:  # the two hashes and the seeding in one call (a deal of every new_deal)
            r.state = _pcg_derived(text, inc)
        else:
            r.state = ((inc + _seed_of(f"seed\x1f{_seed_of(text)}")) * _MULT + inc) & _MASK64
        return r

    @staticmethod
    def lot(seed: object, stream: object, n: int) -> int:
        """``Random(seed, stream).below(n)``, in one step: a draw made once from a fresh generator
        (the first dealer, by lot, as every `Variant.new_deal` draws it)."""
        if _pcg_lot is not None and type(n) is int and 0 < n < 0x100000000:  # a bound the C draw takes
            return _pcg_lot(str(seed), _increment(stream), n)
        return Random(seed, stream).below(n)

    def _next(self) -> int:
        old = self.state
        self.state = (old * _MULT + self.inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        threshold = (0x100000000 - n) % n
        while True:
            r = self._next()
            if r >= threshold:
                return r % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        # below(i + 1) for each i, written out: the same numbers, without two calls a card
        # (the searches shuffle every deal they imagine). A list is shuffled by the same
        # loop in C when the speedups are built (tapete.core._speedups, a twentieth of the time).
        if _pcg_shuffle is not None and type(items) is list:
            self.state = _pcg_shuffle(items, self.state, self.inc)
            return
        self.shuffle_python(items)

    def shuffle_python(self, items: MutableSequence[Any]) -> None:
        """`shuffle` in plain Python: what any sequence is shuffled by, and the C loop's reference."""
        state, inc = self.state, self.inc
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            threshold = (0x100000000 - n) % n
            while True:
                old = state
                state = (old * _MULT + inc) & _MASK64
                xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
                rot = old >> 59
                r = ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF
                if r >= threshold:
                    break
            j = r % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def getstate(self) -> list[int]:
        return [self.state, self.inc]

    @classmethod
    def fromstate(cls, state: list[int]) -> Random:
        r = cls.__new__(cls)
        r.state, r.inc = int(state[0]), int(state[1])
        return r


MAX_SEED_TEXT = 100  # characters in a seed typed by a person


def fresh_seed() -> int:
    """A new match's seed when none is given: drawn from the system's entropy, 9 digits, easy to retype."""
    import secrets

    return 100_000_000 + secrets.randbelow(900_000_000)


def read_seed(text: str) -> int | str:
    """A seed as typed (``--seed``): a whole number of up to 30 digits is a number, any other
    short word is a word (``--seed tuesday`` is a fine seed); anything longer is refused."""
    from .errors import TapeteError

    word = text.strip()
    if not word or len(word) > MAX_SEED_TEXT or not word.isprintable():
        raise TapeteError(f"--seed takes a whole number or a word of 1 to {MAX_SEED_TEXT} printable characters")
    digits = word[1:] if word[:1] == "-" else word
    if digits.isascii() and digits.isdigit() and len(digits) <= 30:
        return int(word)
    return word
