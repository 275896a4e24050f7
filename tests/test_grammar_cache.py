"""The rule grammar's parser is kept in the user's cache directory, and a bad cache never hurts.

A second process loads the parser instead of building it; the loaded parser reads every
built-in rule script exactly as a freshly built one does; a truncated or foreign cache
file is ignored and replaced; a cache directory that cannot be written only means the
parser is built each time.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from lark import Lark

from tapete.rules import grammar_cache
from tapete.rules.grammar_cache import cache_file, cached_parser
from tapete.rules.syntax import grammar_text

OPTIONS = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": True}
SCRIPTS = sorted((Path(__file__).resolve().parent.parent / "variants").rglob("*.rules"))


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("TAPETE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_the_parser_is_saved_once_then_loaded_and_reads_every_script_as_a_built_one(cache, monkeypatch):
    built = cached_parser(grammar_text(), **OPTIONS)
    (saved,) = cache.iterdir()
    assert saved == cache_file(grammar_text(), OPTIONS) and saved.suffix == ".lark"

    def no_building(*args, **kwargs):
        raise AssertionError("the parser was built although the cache holds it")

    monkeypatch.setattr(grammar_cache, "Lark", type("NoBuild", (Lark,), {"__init__": no_building}))
    loaded = cached_parser(grammar_text(), **OPTIONS)
    assert len(SCRIPTS) >= 10
    for script in SCRIPTS:
        text = script.read_text(encoding="utf-8")
        text = text if text.endswith("\n") else text + "\n"
        assert loaded.parse(text) == built.parse(text), script.name
    assert list(cache.iterdir()) == [saved]  # nothing rewritten, no temporary file left


@pytest.mark.parametrize("junk", [b"", b"not a pickle", b"\x80\x05K\x01."], ids=["empty", "text", "another-pickle"])
def test_a_broken_cache_file_is_ignored_and_replaced(cache, junk):
    path = cache_file(grammar_text(), OPTIONS)
    path.parent.mkdir(parents=True)
    path.write_bytes(junk)
    parser = cached_parser(grammar_text(), **OPTIONS)
    assert parser.parse("players = 2..4\n")
    with path.open("rb") as f:
        assert Lark.load(f).parse("players = 2..4\n") == parser.parse("players = 2..4\n")
    assert list(cache.iterdir()) == [path]


def test_a_cache_directory_that_cannot_be_written_only_costs_time(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("TAPETE_CACHE_DIR", str(blocker / "cache"))
    assert cached_parser(grammar_text(), **OPTIONS).parse("players = 2..4\n")


def test_a_changed_grammar_or_option_gets_its_own_file(cache):
    base = cache_file(grammar_text(), OPTIONS)
    assert cache_file(grammar_text() + "\n// changed\n", OPTIONS) != base
    assert cache_file(grammar_text(), {**OPTIONS, "propagate_positions": False}) != base
    assert base.parent == cache


def test_the_command_line_keeps_the_parser_in_the_cache_directory_it_is_given(tmp_path):
    env = {**os.environ, "TAPETE_CACHE_DIR": str(tmp_path / "cache")}
    runs = [
        subprocess.run(
            [sys.executable, "-m", "tapete", "show", "fantan/pagat"],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        ).stdout
        for _ in range(2)
    ]
    assert runs[0] == runs[1] and "fantan/pagat" in runs[0]
    assert [p.suffix for p in (tmp_path / "cache").iterdir()] == [".lark"]
