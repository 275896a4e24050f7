"""One way to read an option value, wherever it comes from.

A variant's options are declared once (``declare:`` in its YAML) and given from four
places: the command line (``--option NAME=VALUE`` of ``play``, ``show``, ``simulate``), a
``--sweep`` of ``simulate``, the web lobby's form, and the Python API
(``load_variant(..., options={...})``). All of them come here, so ``wins_to=1_0`` or
``wins_to=abc`` is refused with the same words everywhere, and a value that passes here
passes everywhere. (YAML values arrive typed, and a variant file checks them with
`check_value` at the line they are written on.)

Text is read strictly: a whole number is ASCII digits with an optional sign (no ``_``,
no ``1e3``, no ``5.5``), true/false is one of a few words, and no value is longer than
`MAX_OPTION_TEXT` characters, so a 5,000-digit number never reaches ``int()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.errors import TapeteError, suggest
from ..core.inputs import option_pairs as split_pairs
from ..core.limits import NumberError, read_number
from .variant_file import OptionDecl, check_value

__all__ = ["declaration", "option_value", "parse_text", "resolve", "split_pairs"]

BOOL_WORDS = {"true": True, "yes": True, "on": True, "1": True, "false": False, "no": False, "off": False, "0": False}
MAX_OPTION_TEXT = 200  # characters in one option value given as text


def parse_text(decl: OptionDecl, text: str) -> Any:
    """An option value written as text, as its declaration types it; ValueError says why not."""
    if len(text) > MAX_OPTION_TEXT:
        raise ValueError(f"a value longer than {MAX_OPTION_TEXT} characters is refused")
    if decl.type == "int":
        try:  # the one number reader (`tapete.core.limits.read_number`), in this module's words
            return int(read_number(text, f"option {decl.name}"))
        except NumberError:
            raise ValueError(f"{text!r} is not a whole number") from None
    if decl.type == "bool":
        word = text.strip().lower()
        if word not in BOOL_WORDS:
            raise ValueError(f"{text!r} is not true or false{suggest(word, BOOL_WORDS)}")
        return BOOL_WORDS[word]
    return text


def option_value(decl: OptionDecl, value: Any) -> Any:
    """``value`` for the option ``decl``, read from text if it is text and checked against the
    declaration (type, bounds, choices); TapeteError ``option NAME: why`` when refused."""
    if isinstance(value, str) and decl.type not in ("str", "choice"):
        try:
            value = parse_text(decl, value)
        except ValueError as exc:
            raise TapeteError(f"option {decl.name}: {exc}") from None
    problem = check_value(decl, value)
    if problem:
        raise TapeteError(f"option {decl.name}: {problem}")
    return value


def declaration(declarations: Mapping[str, OptionDecl], key: str, variant: str) -> OptionDecl:
    """The declaration of option ``key``; an unknown one is refused, naming the known options."""
    decl = declarations.get(key)
    if decl is None:
        known = ", ".join(declarations) or "none"
        raise TapeteError(f"unknown option {key!r} for {variant}{suggest(key, declarations)}; options: {known}")
    return decl


def resolve(declarations: Mapping[str, OptionDecl], given: Mapping[str, Any], variant: str) -> dict[str, Any]:
    """Every given option checked and typed, in the order given."""
    if not isinstance(given, Mapping):
        raise TapeteError(f"options must map option names to values, not {type(given).__name__}")
    return {key: option_value(declaration(declarations, key, variant), value) for key, value in given.items()}
