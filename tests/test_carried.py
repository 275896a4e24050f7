"""Values carried from deal to deal besides the totals (``carry NAME = EXPR``), on a game without tricks.

The example is Fan Tan with a house rule: whoever goes out in two deals running wins the match
at once. The script carries each player's run of deals won; ``match_ends`` and ``winner`` read it.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tapete import ErrorList, Match, load_variant
from tapete.core.ledger import Ledger

RUNS = """carry run = if(went_out, run + 1, 0)
match_ends when max(run) >= 2 or max(deals_won) >= wins_to
winner = if(max(run) >= 2, highest(run), highest(deals_won))
"""


def write_variant(tmp_path, rules: str, name: str = "v"):
    (tmp_path / f"{name}.rules").write_text(rules, encoding="utf-8")
    (tmp_path / f"{name}.yaml").write_text(
        f"extends: fantan/pagat\nname: {name}\nscripts: [{name}.rules]\n", encoding="utf-8"
    )
    return tmp_path / f"{name}.yaml"


def test_a_carried_run_of_wins_ends_the_match_when_a_player_wins_twice_running(tmp_path):
    variant = load_variant(write_variant(tmp_path, RUNS))
    for seed in range(4):
        result = Match(variant, 3, seed, bots=["sensible"] * 3).play()
        scores = [e for e in result.history if e.get("type") == "score"]
        runs = [e["carried"]["run"] for e in scores]
        winners = [e["won"][0] for e in scores]
        for i, run in enumerate(runs):  # the run is the deals won in a row, 0 for everyone else
            streak = 1 + (i > 0 and winners[i - 1] == winners[i] and runs[i - 1][winners[i]])
            assert run[winners[i]] == min(streak, 2) and sum(run) == run[winners[i]]
        last = runs[-1]
        if max(last) >= 2:
            assert result.winner == last.index(2) and winners[-1] == winners[-2]
        else:  # the usual end: three deals won, never two running
            assert max(result.deals_won) == 3


def test_the_carried_values_are_saved_and_read_back_with_the_ledger():
    ledger = Ledger(4)
    ledger.carried["bags"] = [3, 1, 3, 1]
    again = Ledger.from_json(4, ledger.to_json())
    assert again.carried == {"bags": [3, 1, 3, 1]}
    assert "carried" not in Ledger(4).to_json()  # a match that carries nothing saves as before
    assert again.local().carried == {"bags": [3, 1, 3, 1]}


def test_a_carried_name_that_hides_a_word_of_the_game_is_refused_at_its_place(tmp_path):
    path = write_variant(tmp_path, "carry total = 1\ncarry wins_to = 2\n")
    run = subprocess.run(
        [sys.executable, "-m", "tapete", "check", str(path)], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "v.rules:1:7: carry total: 'total' is already a word of this game" in run.stderr
    assert "v.rules:2:7: carry wins_to: 'wins_to' is already a word of this game" in run.stderr
    with pytest.raises(ErrorList) as caught:
        load_variant(path)
    assert len(caught.value.errors) == 2
