"""Numbers a person types: one bounded, finite reader for every option, bot parameter and prompt input.

A number too long for ``int()`` (5,000 digits), ``nan``, ``inf`` or a malformed one such as
``--5`` used to end in ``internal error`` (or, for ``ismcts:seconds=nan``, in a search that
never stops). Each now gets one line naming what was typed, through the real command.
"""

from __future__ import annotations

import math
import re
import sys

import pytest
from hostile import tapete
from hypothesis import given
from hypothesis import strategies as st

from tapete import Match, TapeteError, load_variant
from tapete.core.limits import MAX_DIGITS, NumberError, check_number, read_number
from tapete.plugins.botspec import parse_spec
from tapete.search.ismcts import ISMCTSBot
from tapete.table.human import interpret

HUGE = "9" * 5000


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_play_and_simulate_read_a_seed_alike(command):
    """One seed reader (`tapete.core.rng.read_seed`) for both: ``simulate --seed=--5`` was int('--5')."""
    extra = ["-n", "1", "-w", "1"] if command == "simulate" else []
    huge = tapete(command, "fantan/pagat", "-q", f"--seed={HUGE}", *extra)
    assert huge.code == 1 and huge.err.startswith("--seed takes a whole number or a word of 1 to ")
    for word in ("--5", "tuesday"):  # a word is a seed like any other
        run = tapete(command, "fantan/pagat", "-q", f"--seed={word}", *extra)
        assert run.code == 0, run.text


@pytest.mark.parametrize("delay", ["inf", "nan", "-1", "61"])
def test_a_delay_that_is_not_a_finite_number_of_seconds_is_refused(delay):
    run = tapete("play", "fantan/pagat", "-q", "--watch", "--delay", delay)
    assert run.code == 1, run.text
    assert run.err.strip() in (
        f"the delay: {delay!r} is not a finite number",
        f"the delay must be a number from 0 to 60, not {delay}",
    )


@pytest.mark.parametrize(
    ("bot", "message"),
    [
        ("ismcts:seconds=nan", "bot parameter 'seconds' of 'ismcts': 'nan' is not a finite number"),
        ("ismcts:c=nan,iterations=5", "bot parameter 'c' of 'ismcts': 'nan' is not a finite number"),
        ("ismcts:margin=nan,iterations=5", "bot parameter 'margin' of 'ismcts': 'nan' is not a finite number"),
        ("ismcts:c=inf", "bot parameter 'c' of 'ismcts': 'inf' is not a finite number"),
        ("ismcts:c=1e400", "bot parameter 'c' of 'ismcts': '1e400' is too large a number"),
        (f"ismcts:iterations={HUGE}", "bot parameter 'iterations' of 'ismcts': a number of 5,000 digits is refused"),
        ("ismcts:iterations=99999999999", "ismcts iterations must be a whole number from 1 to 10,000,000"),
        ("ismcts:seconds=0", "ismcts seconds must be a number from 0.001 to 3,600, not 0"),
    ],
)
def test_bot_parameters_that_are_not_finite_or_bounded_are_refused_by_name(bot, message):
    run = tapete("play", "chinchon/fournier", "-q", "--bots", bot)
    assert run.code == 1, run.text
    assert run.err.strip().startswith(message)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("c", math.nan),
        ("margin", math.nan),
        ("seconds", math.nan),
        ("c", math.inf),
        ("depth", True),
        ("iterations", 2.5),
    ],
)
def test_ismcts_checks_its_parameters_given_from_python_like_typed_ones(name, value):
    game = load_variant("fantan/pagat").new_game()
    with pytest.raises(TapeteError, match=f"ismcts {name} must be a"):
        ISMCTSBot(game, 0, None, **{name: value})  # type: ignore[arg-type]


@given(st.text(max_size=60) | st.sampled_from(["nan", "-inf", "1e400", "1_0", "٣", "0x10", HUGE, "1e-3", "+7"]))
def test_the_number_reader_gives_a_finite_bounded_number_or_says_why_not(text):
    for whole in (True, False):
        try:
            value = read_number(text, "x", whole=whole, low=-1000, high=1000)
        except NumberError as exc:
            assert str(exc).startswith("x")
            continue
        assert not isinstance(value, bool) and math.isfinite(value) and -1000 <= value <= 1000
        assert isinstance(value, int) or not whole


@given(st.text(alphabet="0123456789abcdefijn.,:=+-e_ ", max_size=40))
def test_bot_specs_parse_or_are_refused_with_a_tapete_error(spec):
    try:
        name, params = parse_spec("ismcts:" + spec)
    except TapeteError:
        return
    for value in params.values():
        assert isinstance(value, str) or math.isfinite(value)


@given(st.integers(min_value=1, max_value=6000))
def test_a_number_of_any_length_at_the_prompt_is_a_move_or_an_answer(digits):
    deck = load_variant("fantan/pagat").rules.deck
    from tapete import Action

    legal = [Action("pass"), Action("play", (3,))]
    got = interpret("9" * digits, deck, legal)
    if digits == 1:
        assert "there is no move 9: choose 1-2" in str(got)
    else:
        assert str(got).startswith("  there is no move 99")
        assert len(str(got)) < 200


def test_check_number_names_a_huge_value_by_its_size():
    with pytest.raises(NumberError, match="not a number of about 5,00[0-9] digits"):
        check_number(10**5000, "x", high=5)
    assert len(str(10**MAX_DIGITS)) == MAX_DIGITS + 1


def test_a_5000_digit_number_at_the_tables_prompt_is_answered(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "tapete", "play", "fantan/pagat", "--bots", "human,sensible,sensible", "--seed", "2"],
        cwd=str(tmp_path),
        env={"NO_COLOR": "1", "COLUMNS": "200", "PATH": "/usr/bin:/bin"},
        encoding="utf-8",
        timeout=60,
    )
    child.expect("seat 0> ")
    # a terminal line holds at most 4,095 characters: still far more digits than int() reads by default
    child.sendline(HUGE[:4000])
    child.expect(r"there is no move 999999999\.\.\. \(4,000 digits\): choose 1-\d+")
    child.expect("seat 0> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "internal error" not in child.before


def test_simulate_refuses_a_run_too_big_to_finish():
    with pytest.raises(TapeteError, match=re.escape("--games must be a whole number from 1 to 1,000,000")):
        from tapete.simulation.plan import simulate

        simulate("fantan/pagat", 10**14, workers=1)


def test_a_match_with_a_number_seed_of_any_size_from_python_plays():
    # the Python API takes any seed object: a big int is hashed, never printed in full
    assert Match(load_variant("fantan/pagat"), 3, 10**200, bots=["random"]).play().deals >= 1
