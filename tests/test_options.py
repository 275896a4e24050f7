"""One way to read an option value: the command line, a sweep and the Python API agree.

``tapete play -o wins_to=1_0`` was refused while ``tapete simulate -o wins_to=1_0`` played
to 10: the three parsers disagreed. Every entry point now reads option text through
``tapete.rules.options``, so each text below gets the same answer, or the same refusal in
the same words, from ``load_variant``, ``tapete show -o``, ``tapete simulate -o`` and
``tapete simulate --sweep``.
"""

from __future__ import annotations

import subprocess
import sys

import hostile
import pytest

from tapete import TapeteError, load_variant

TEXTS = ["7", " 7", "+3", "1_0", "abc", "5.5", "", "1e3", "٣", "0", "9" * 5000, "--5"]


def api(text: str) -> str:
    try:
        return f"ok {load_variant('fantan/pagat', options={'wins_to': text}).options['wins_to']}"
    except TapeteError as exc:
        return f"refused {exc}"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tapete", *args], capture_output=True, text=True, timeout=120)


def in_process(*args: str) -> subprocess.CompletedProcess[str]:
    """The same command through typer's runner in this process (`hostile.cli`): ``show`` above keeps the real one."""
    run = hostile.cli(*args)
    return subprocess.CompletedProcess(list(args), run.code, run.out, run.err)


def answer(proc: subprocess.CompletedProcess[str], value_line: str) -> str:
    if proc.returncode != 0:
        return f"refused {proc.stderr.strip()}"
    return value_line


EVERYDAY = {"7", "abc", "1e3", "9" * 5000}  # a number, a word, an exponent, a length: each run; the rest slow


@pytest.mark.parametrize(
    "text",
    [t if t in EVERYDAY else pytest.param(t, marks=pytest.mark.slow) for t in TEXTS],
    ids=lambda t: repr(t)[:12],
)
def test_every_entry_point_reads_an_option_the_same_way(text):
    expected = api(text)
    assert "internal error" not in expected
    shown = cli("show", "fantan/pagat", "-o", f"wins_to={text}")
    line = next((ln for ln in shown.stdout.splitlines() if "wins_to" in ln), "")
    got_show = answer(shown, "ok " + line.split("=")[-1].split()[0] if "=" in line else line)
    simulated = in_process("simulate", "fantan/pagat", "--games", "1", "--quiet", "-o", f"wins_to={text}")
    swept = in_process("simulate", "fantan/pagat", "--games", "1", "--quiet", "--sweep", f"wins_to={text},3")
    assert got_show == expected  # the same value, or one message word for word, wherever it was typed
    if expected.startswith("refused"):
        assert answer(simulated, "") == expected
        assert answer(swept, "") == expected
    else:
        assert simulated.returncode == 0, simulated.stderr
        assert swept.returncode == 0, swept.stderr


def test_one_thousand_and_digits_with_underscores_are_refused_everywhere():
    assert api("1_0") == "refused option wins_to: '1_0' is not a whole number"


@pytest.mark.parametrize("command", [["show", "fantan/pagat"], ["simulate", "fantan/pagat", "--games", "1"]])
def test_an_option_given_twice_is_refused_naming_both_values(command):
    proc = cli(*command, "-o", "wins_to=5", "-o", "wins_to=7")
    assert proc.returncode == 1
    assert proc.stderr.strip() == "--option wins_to is given twice ('5' and '7'): give each option once"


def test_a_misspelt_option_gets_a_suggestion_from_the_api_and_the_command_line():
    with pytest.raises(TapeteError, match=r"unknown option 'win_to' for fantan/pagat \(did you mean 'wins_to'\?\)"):
        load_variant("fantan/pagat", options={"win_to": 3})
    proc = cli("simulate", "fantan/pagat", "--games", "1", "-o", "win_to=3")
    assert "did you mean 'wins_to'?" in proc.stderr


@pytest.mark.parametrize(
    ("game", "base", "word"), [("oh-hell", "oh-hell/classic", "tricks"), ("fantan", "fantan/pagat", "cards_left")]
)
def test_an_option_named_like_a_word_of_the_rules_is_refused_where_it_is_declared(tmp_path, game, base, word):
    """Declared ``tricks``, an option made Oh Hell's ``tricks == bid`` compare the bid with the option's
    value, and every match scored wrong without a word said: the loader refuses the name at its line."""
    (tmp_path / "v.yaml").write_text(
        f"extends: {base}\nname: v\ndeclare:\n  {word}:\n    type: int\n    default: 3\n", encoding="utf-8"
    )
    with pytest.raises(TapeteError) as info:
        load_variant(tmp_path / "v.yaml")
    first = str(info.value).splitlines()[0]
    assert first.startswith(f"{tmp_path / 'v.yaml'}:4:3: declare.{word}: {word!r} is a word of {game}'s rules (")
    assert first.endswith("an option of that name would hide it in the scripts: choose another name")
    shown = cli("check", str(tmp_path / "v.yaml"))
    assert shown.returncode == 1 and f"declare.{word}: {word!r} is a word of {game}'s rules" in shown.stderr
