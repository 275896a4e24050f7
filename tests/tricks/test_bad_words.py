"""Bad trick-family scripts are refused at their place: one message per problem, file:line:col, exit 1."""

from __future__ import annotations

import subprocess
import sys


def check(tmp_path, script: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "bad.rules").write_text(script, encoding="utf-8")
    (tmp_path / "bad.yaml").write_text("extends: hearts/classic\nname: bad\nscripts: [bad.rules]\n", encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "tapete", "check", "bad.yaml"], cwd=tmp_path, capture_output=True, text=True
    )


def test_a_function_given_no_card_table_is_refused_where_it_is_written(tmp_path):
    run = check(tmp_path, "score = if(took_all(pips), 0, 1)\n")
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "bad.rules:1:21: 'pips' is not a card table of this game; tables: penalty, points" in run.stderr
    run = check(tmp_path, "score = taken(1 + 2)\n")
    assert (
        run.returncode == 1 and "bad.rules:1:15: taken() takes the name of a card table: penalty, points" in run.stderr
    )


def test_remove_and_the_trick_words_name_real_cards_suits_and_modes(tmp_path):
    run = check(tmp_path, "remove 2X when players == 3\ntrump stars\nfollow maybe\npass_cycle left up\n")
    assert run.returncode == 1 and "Traceback" not in run.stderr
    err = run.stderr
    assert "bad.rules:1:9: unknown rank 'X'" in err
    assert "bad.rules:2:7: trump is none, turned, last or a suit of this deck" in err
    assert "bad.rules:3:8: follow is one of must, free, trump, not 'maybe'" in err
    assert "bad.rules:4:17: a pass goes left, right, across, hold, not up" in err
