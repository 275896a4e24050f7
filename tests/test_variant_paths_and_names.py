"""Issue 25, classes 8 and 11: what lies beside a variant, what ``extends:`` may say, and what a name may be.

The ``extends:`` lookup passes over anything in the variant's folder that is not a
regular file (a symlink loop, a FIFO, a folder, a dangling link, an unreadable entry),
and refuses by name a URL, an empty value and a name in other capitals. A variant's name
is one word (``fantan/a/b`` would name no variant), and ``tapete new plugin`` refuses a
name that collides with an installed game or package.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hostile import tapete
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapete import ErrorList, load_variant
from tapete.core.errors import TapeteError
from tapete.play.loading import resolver
from tapete.plugins.loader import registry
from tapete.rules.variant_file import read_variant

PAGAT = Path(__file__).resolve().parent.parent / "variants" / "fantan"


def folder_with_child(folder: Path, extends: str, name: str = "child") -> Path:
    for f in ("pagat.yaml", "pagat.rules"):
        shutil.copy(PAGAT / f, folder / f)
    child = folder / "child.yaml"
    child.write_text(f"extends: {extends}\nname: {name}\n", encoding="utf-8")
    return child


ENTRIES = ("loop", "fifo", "folder", "dangling", "unreadable", "not yaml")


def put(folder: Path, entry: str, n: int) -> None:
    """One hostile entry ``e{n}.yaml`` beside the variant."""
    path = folder / f"e{n}.yaml"
    if entry == "loop":
        (folder / f"e{n}b.yaml").symlink_to(path.name)
        path.symlink_to(f"e{n}b.yaml")
    elif entry == "fifo":
        os.mkfifo(path)
    elif entry == "folder":
        path.mkdir()
    elif entry == "dangling":
        path.symlink_to("nowhere.yaml")
    elif entry == "unreadable":
        path.write_text("name: hidden\n", encoding="utf-8")
        path.chmod(0)
    else:
        path.write_bytes(b"\xff\xfe not yaml: [")


def refusal(child: Path, compile: bool = True) -> str:
    """What loading ``child`` says ("" when it loads); without ``compile`` only its files are read."""
    try:
        if compile:
            load_variant(str(child))
        else:
            read_variant(child, resolver(registry()))
    except ErrorList as exc:
        return "\n".join(str(e) for e in exc.errors)
    except TapeteError as exc:
        return str(exc)
    return ""


@settings(max_examples=20, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    entries=st.lists(st.sampled_from(ENTRIES), min_size=1, max_size=4),
    target=st.sampled_from(["pagat", "pagat.yaml", "nosuch", "PAGAT", "Pagat.yaml"]),
)
def test_the_extends_lookup_survives_whatever_lies_beside_the_variant(tmp_path_factory, entries, target):
    folder = tmp_path_factory.mktemp("beside")
    child = folder_with_child(folder, target)
    for n, entry in enumerate(entries):
        put(folder, entry, n)
    said = refusal(child, compile=False)  # the lookup is all that is tried here
    if target in ("pagat", "pagat.yaml"):
        assert said == ""  # found, whatever else is there
    elif target == "nosuch":
        assert said.startswith(f"{child}:1:1: extends: no variant 'nosuch' (neither a registered name nor a file")
    else:
        assert "names are case-sensitive; did you mean" in said and "internal error" not in said


@pytest.mark.parametrize(
    ("extends", "words"),
    [
        ('"https://example.com/v.yaml"', "extends: 'https://example.com/v.yaml' is a URL; a variant extends a"),
        ('"file:///etc/v.yaml"', "is a URL"),
        ('""', "extends: is empty; name the variant this one changes"),
        ('"   "', "extends: is empty"),
        ("PAGAT", "extends: no variant 'PAGAT': names are case-sensitive; did you mean 'pagat'?"),
        ("fantan/CHIPS", "extends: no variant 'fantan/CHIPS': names are case-sensitive; did you mean 'fantan/chips'?"),
        ("Pagat.yaml", "did you mean 'pagat.yaml'?"),
    ],
)
def test_an_extends_that_is_a_url_empty_or_in_other_capitals_is_refused_by_name(tmp_path, extends, words):
    assert words in refusal(folder_with_child(tmp_path, extends), compile=False)


def test_the_command_says_an_extends_url_is_one(tmp_path):
    folder_with_child(tmp_path, '"https://example.com/v.yaml"')
    run = tapete("show", "child.yaml", cwd=tmp_path)
    assert run.code == 1 and run.err.splitlines()[0] == (
        "child.yaml:1:1: extends: 'https://example.com/v.yaml' is a URL; "
        "a variant extends a registered name or a file next to it, never a download"
    )


def test_a_symlink_loop_beside_a_variant_leaves_a_missing_name_a_clean_message(tmp_path):
    folder_with_child(tmp_path, "nosuch")
    (tmp_path / "a.yaml").symlink_to("b.yaml")
    (tmp_path / "b.yaml").symlink_to("a.yaml")
    run = tapete("show", "child.yaml", cwd=tmp_path)
    assert run.code == 1 and run.err.splitlines()[0] == (
        "child.yaml:1:1: extends: no variant 'nosuch' (neither a registered name nor a file next to this one)"
    )


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ("loop", "e0.yaml: is a symlink loop, not a variant file"),
        ("fifo", "e0.yaml: is a FIFO (named pipe), not a variant file"),
        ("folder", "e0.yaml: is a folder, not a variant file"),
    ],
)
def test_extends_naming_a_loop_a_fifo_or_a_folder_is_refused_by_what_it_is(tmp_path, entry, words):
    child = folder_with_child(tmp_path, "e0.yaml")
    put(tmp_path, entry, 0)
    assert words in refusal(child)


def test_a_variant_typed_as_a_symlink_loop_is_named_so(tmp_path):
    (tmp_path / "a.yaml").symlink_to("b.yaml")
    (tmp_path / "b.yaml").symlink_to("a.yaml")
    run = tapete("play", "a.yaml", cwd=tmp_path)
    assert run.code == 1 and run.err.strip() == "a.yaml: is a symlink loop, not a variant file"


# -- names (class 11) --------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["a/b", "a\\\\b", "'a b'", "'..'", "'x:y'"])
def test_a_variant_name_that_is_not_one_word_is_refused(tmp_path, name):
    child = folder_with_child(tmp_path, "pagat", name=name)
    said = refusal(child)
    assert "child.yaml:2:" in said and "is not a variant name: a name is one word of letters, digits" in said


def test_a_variant_named_a_slash_b_does_not_play_as_fantan_a_b(tmp_path):
    folder_with_child(tmp_path, "pagat", name="a/b")
    run = tapete("play", "child.yaml", "-q", cwd=tmp_path)
    assert run.code == 1 and "fantan/a/b" not in run.out and "'a/b' is not a variant name" in run.err


def test_names_of_one_word_still_load(tmp_path):
    for name in ("two-decks", "to_70", "v1.2", "café"):
        assert load_variant(str(folder_with_child(tmp_path, "pagat", name=name))).name == f"fantan/{name}"


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("fantan", "plugin name 'fantan': a game named 'fantan' is installed already"),
        ("chinchon", "plugin name 'chinchon': a game named 'chinchon' is installed already"),
    ],
)
def test_tapete_new_plugin_refuses_a_name_an_installed_game_has(tmp_path, name, words):
    run = tapete("new", "plugin", name, "--dir", str(tmp_path))
    assert run.code == 1 and words in run.err and "choose another" in run.err
    assert list(tmp_path.iterdir()) == []
