"""Checks in a designer's words: rules that load but cannot work, or do less than they say.

A variant can be well-formed and still be wrong for the people who will play it: a
deal that needs more cards than the deck holds at some allowed player count, a hand
size that cannot be dealt, an option declared but never used, a meld length no deck
can complete, a points table whose new total no longer matches the break-even. The
loader cannot know these (they depend on the family's mechanics and on every player
count), so ``tapete check`` asks after loading: the core checks what every game
shares, and each game family adds what only it knows through
`Game.design_problems`. Every finding is placed at the statement or declaration it
is about. The findings that make a variant unplayable are `tapete.play.soundness`'s,
which every way of playing runs too; the warnings are only here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import LocatedError, Location, ScriptError, VariantError, display_path
from ..core.limits import MAX_SCRIPT_BYTES, MAX_VARIANT_BYTES, read_source
from ..core.problems import ERROR, WARNING
from ..play.soundness import DesignFinding, deal_findings
from ..rules import tree as t

if TYPE_CHECKING:
    from ..play.loading import Variant


def design_findings(variant: Variant) -> tuple[list[DesignFinding], list[DesignFinding]]:
    """(errors, warnings) for a loaded variant, each at the statement or declaration concerned."""
    found = [*deal_findings(variant), *_option_findings(variant)]
    errors = [f for f in found if f.severity == ERROR]
    warnings = [f for f in found if f.severity != ERROR]
    return errors, warnings


# -- options -------------------------------------------------------------------------------
def unused_options(variant: Variant) -> list[str]:
    """The declared options no rule in force reads (an ``if`` block counts with both branches).

    Changing such an option changes nothing in play: ``tapete check`` warns about it and
    ``tapete rules`` says so next to the option."""
    from ..rules.syntax import parse_script

    spec, rules = variant.spec, variant.rules
    effective = {item.pos for item in rules.statements.values()}
    used: set[str] = set()
    for path in spec.scripts:
        # read as loading read it (a byte-order mark dropped, the same limits), so check and play agree
        script = parse_script(read_source(path, "rule script", MAX_SCRIPT_BYTES, ScriptError), display_path(path))
        used |= _names_in(script.items, effective, inside_if=False)
    return [name for name in spec.declarations if name not in used]


def _option_findings(variant: Variant) -> Iterator[DesignFinding]:
    spec = variant.spec
    own = _declared_here(spec.path)
    for name in unused_options(variant):
        if name not in own:
            continue  # an option the variant extends declared is checked with that variant
        decl = spec.declarations[name]
        yield DesignFinding(
            _declared_at(spec.files, name),
            f"option {name!r} is declared but no rule of {spec.full_name} uses it, so changing it changes nothing"
            + (f" ({decl.doc})" if decl.doc else ""),
            WARNING,
        )


def _names_in(items: Iterable[Any], effective: set[t.Pos], inside_if: bool) -> set[str]:
    """Names read by the statements in force, and by every ``if`` block (both branches count)."""
    names: set[str] = set()
    for item in items:
        if isinstance(item, t.IfBlock):
            names |= _expr_names(item.condition)
            names |= _names_in(item.then, effective, True)
            names |= _names_in(item.otherwise, effective, True)
        elif inside_if or item.pos in effective:
            if isinstance(item, t.Table):
                for arm in item.arms:
                    names |= _expr_names(arm.expr)
            else:
                for e in (item.value, item.condition):
                    if e is not None:
                        names |= _expr_names(e)
                # a word may name an option too: `remove removed when ...` takes the card it names
                names |= {str(w.value) for w in item.words if w.kind == "name"}
    return names


def _expr_names(e: t.Expr) -> set[str]:
    if isinstance(e, t.Name):
        return {e.name}
    if isinstance(e, t.Call):
        return set().union(*(_expr_names(a) for a in e.args)) if e.args else set()
    if isinstance(e, t.Unary):
        return _expr_names(e.operand)
    if isinstance(e, t.Binary):
        return _expr_names(e.left) | _expr_names(e.right)
    return set()


def _declared_here(path: Path) -> set[str]:
    """The options the variant file itself declares (not those of the variant it extends).

    A variant that extends another and replaces the rule using one of its options (Fan
    Tan for chips ends the match after a number of deals, not at ``wins_to`` deal wins)
    leaves that option inert, but its declaration is the other file's: the check of
    that file is where an unused declaration is found, at a line its author can change."""
    from ..rules.variant_file import _Doc

    if path.suffix not in (".yaml", ".yml"):
        return set()
    try:
        doc = _Doc(path, path.read_text(encoding="utf-8"))
    except (OSError, LocatedError):
        return set()
    return {str(key[1]) for key in doc.marks if len(key) == 2 and key[0] == "declare"}


def _declared_at(files: list[Path], option: str) -> Location:
    """The ``declare:`` entry of ``option`` in the variant files (the last file declaring it)."""
    from ..rules.variant_file import _Doc

    where = Location(display_path(files[0]))
    for path in files:
        if path.suffix not in (".yaml", ".yml"):
            continue
        try:
            doc = _Doc(path, read_source(path, "variant file", MAX_VARIANT_BYTES, VariantError))
        except LocatedError:
            continue
        if ("declare", option) in doc.marks:
            where = doc.at(("declare", option))
    return where
