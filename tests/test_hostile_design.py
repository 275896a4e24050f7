"""Rules that load but cannot be played: every entry point refuses them before dealing, as ``check`` does.

A Chinchón ``hand_size`` the deck cannot deal at some allowed player count used to pass the
loader and fail in the middle of the first deal (``IndexError: pop from empty list``) of
``play``, ``simulate`` and the PettingZoo environment. The same design checks ``tapete check``
runs now run before any deal (once per variant), so each refuses with check's message.
"""

from __future__ import annotations

import pytest
from children import child_file
from hostile import cli, tapete

from tapete import ErrorList, Match, load_variant
from tapete.design.checking import check_file
from tapete.testing import variant_params

HAND_12 = "a deal for 4 players needs 12 x 4 hand cards, the face-up card and a stock card to draw: 50"


def _variant(tmp_path, script: str, parent: str = "chinchon/fournier", extra: str = "") -> str:
    return child_file(tmp_path, parent, script, "x", extra).name


CASES = [
    # (what, parent, script, the first line of the message check and play both print)
    ("hand_size 12 at four", "chinchon/fournier", "hand_size = 12\n", f"x.rules:1:1: {HAND_12}"),
    ("hand_size 20", "chinchon/fournier", "hand_size = 20\n", "x.rules:1:1: a deal for 2 players needs 20 x 2"),
    ("a bare deck", "fantan/pagat", "deck\n", "x.rules:1:1: 'deck' takes at least 1 word(s) before its value, got 0"),
    ("a bare order", "fantan/pagat", "order\n", "x.rules:1:1: 'order' takes at least 2 word(s) before its value"),
    ("a number as a condition", "fantan/pagat", "out when total\n", "x.rules:1:10: a condition must be true or false"),
    ("a number under and", "fantan/pagat", "out when total > 3 and deals_won\n", "x.rules:1:24: a condition must be"),
    ("a number in if()", "fantan/pagat", "score = if(total, 1, 2)\n", "x.rules:1:12: a condition must be true or"),
    ("a plugin number as a condition", "fantan/pagat", "won when cards_left\n", "x.rules:1:1: a condition must be"),
]


EVERYDAY = {"hand_size 12 at four", "a bare deck", "a number as a condition", "a plugin number as a condition"}


@pytest.mark.parametrize(
    ("parent", "script", "message"),
    [pytest.param(*c[1:], marks=() if c[0] in EVERYDAY else pytest.mark.slow) for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_check_play_and_simulate_refuse_with_the_same_message(tmp_path, parent, script, message):
    name = _variant(tmp_path, script, parent)
    checked = tapete("check", name, cwd=tmp_path)  # a real process; the others' words from the same code, in this one
    played = cli("play", name, "-q", cwd=tmp_path)
    simulated = cli("simulate", name, "-n", "2", "-w", "1", "-q", cwd=tmp_path)
    assert checked.code == played.code == simulated.code == 1, (checked.text, played.text, simulated.text)
    assert checked.err.splitlines()[0].startswith(message)
    assert played.err.splitlines()[0] == simulated.err.splitlines()[0] == checked.err.splitlines()[0]
    assert "internal error" not in played.text + simulated.text


def test_the_python_api_and_the_environment_refuse_before_dealing(tmp_path):
    name = _variant(tmp_path, "hand_size = 12\n", extra="players: 2\n")
    v = load_variant(tmp_path / name)
    for deal in (lambda: v.new_deal(2), lambda: Match(v, 2, 1, bots=["random"]), lambda: v.deal_from_snapshot({})):
        with pytest.raises(ErrorList, match=HAND_12):
            deal()
    pz = pytest.importorskip("tapete.pettingzoo")
    with pytest.raises(ErrorList, match=HAND_12):
        pz.env(v)


def test_a_condition_that_gives_a_number_in_play_is_refused_at_its_place(tmp_path):
    # 'closed' is a Chinchón word that does not say its kind; 'if' makes the number appear only at the end
    name = _variant(tmp_path, "won when if(closed, unmatched, closed)\n")
    played = tapete("play", name, "-q", cwd=tmp_path)
    assert played.code == 1
    assert played.err.startswith("x.rules:1:10: a condition must be true or false, but in play it gave ")


@pytest.mark.parametrize("name", variant_params())
def test_every_built_in_variant_is_sound(name):
    load_variant(name).require_sound()  # the checks refuse nothing that ships


def test_an_extends_chain_beyond_the_limit_is_refused_by_name(tmp_path):
    (tmp_path / "e0.yaml").write_text("extends: fantan/pagat\nname: e0\n", encoding="utf-8")
    for i in range(1, 1500):
        (tmp_path / f"e{i}.yaml").write_text(f"extends: e{i - 1}.yaml\nname: e{i}\n", encoding="utf-8")
    for command in ("check", "play"):
        run = tapete(command, "e1499.yaml", cwd=tmp_path)
        assert run.code == 1
        assert run.err.strip() == (
            "e1499.yaml: extends a chain of more than 32 variant files (e1499.yaml -> e1498.yaml -> ... ->"
            " e1467.yaml); tapete follows at most 32"
        )
    assert tapete("play", "e30.yaml", "-q", cwd=tmp_path).code == 0  # 32 files: e30 .. e0 and pagat


def test_check_and_play_agree_on_a_script_that_starts_with_a_byte_order_mark(tmp_path):
    name = _variant(tmp_path, "\ufeffclose when unmatched <= 3\n")
    assert check_file(tmp_path / name)[0] == []
    assert tapete("check", name, cwd=tmp_path).code == 0
    assert tapete("play", name, "-q", cwd=tmp_path).code == 0


def test_a_child_that_declares_an_option_again_keeps_its_new_default(tmp_path):
    declare = "declare:\n  close_limit: {type: int, default: 2, min: 0, max: 9, doc: stricter}\n"
    child_file(tmp_path, "chinchon/fournier", "close when unmatched <= close_limit\n", "v", declare)
    (tmp_path / "w.yaml").write_text("extends: v.yaml\nname: w\noptions:\n  close_limit: 4\n", encoding="utf-8")
    assert load_variant(tmp_path / "v.yaml").options["close_limit"] == 2  # the parent's 5 gives way
    assert load_variant(tmp_path / "w.yaml").options["close_limit"] == 4  # a value set below still wins
    assert "close_limit = 2" in tapete("show", "v.yaml", cwd=tmp_path).out
