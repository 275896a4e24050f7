"""Files that are too big, too deep, not UTF-8 or cut short: refused by name, at their line.

Each case goes through the real ``tapete`` command (``check`` for variants and
scripts, ``replay`` for logs) and pins the first line of the message.
"""

from __future__ import annotations

import json

import pytest
from hostile import tapete

CHILD = "extends: fantan/pagat\nname: v\nscripts: [x.rules]\n"


def check_script(tmp_path, script: bytes | str) -> str:
    data = script.encode("utf-8") if isinstance(script, str) else script
    (tmp_path / "x.rules").write_bytes(data)
    (tmp_path / "v.yaml").write_text(CHILD, encoding="utf-8")
    run = tapete("check", "v.yaml", cwd=tmp_path)
    assert run.code == 1
    return run.err.splitlines()[0]


def check_yaml(tmp_path, text: bytes | str) -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    (tmp_path / "v.yaml").write_bytes(data)
    run = tapete("check", "v.yaml", cwd=tmp_path)
    assert run.code == 1
    return run.err.splitlines()[0]


SCRIPTS = [
    ("latin-1", "row start 7\nscore = 1 # café\n".encode("latin-1"), "x.rules:2:16: the rule script is not UTF-8"),
    ("nested ifs", "if wins_to > 1 {\n" * 3000 + "}\n" * 3000, "x.rules:33:16: brackets nest deeper than 32 levels"),
    ("huge line", "score = " + "1+" * 300_000 + "1\n", "x.rules: the rule script is 600,010 bytes; tapete reads"),
    ("long chain", "score = " + "1+" * 150 + "1\n", "x.rules:1:208: more than 100 operators on one line"),
]


@pytest.mark.parametrize("script,message", [c[1:] for c in SCRIPTS], ids=[c[0] for c in SCRIPTS])
def test_a_script_beyond_the_limits_is_refused_by_name(tmp_path, script, message):
    assert check_script(tmp_path, script).startswith(message)


YAMLS = [
    ("latin-1", "extends: fantan/pagat\nname: v\nsummary: café\n".encode("latin-1"), "v.yaml:3:13: the variant file"),
    ("alias cycle", "x: &a [*a]\n", "v.yaml:1:4: an alias refers to the list or mapping it is inside"),
    ("deep", "x: " + "[" * 5000 + "]" * 5000 + "\n", "v.yaml:1:35: lists and mappings nest deeper than 32 levels"),
    (
        "laughs",
        "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n",
        "v.yaml:1:35: more than 10,000 values once aliases are expanded",
    ),
    (
        "duplicate key",
        "extends: fantan/pagat\nname: v\nname: w\n",
        "v.yaml:3:1: duplicate key 'name' (first on line 2)",
    ),
    ("binary", b"\x00\x01\x02", "v.yaml:1:1: not valid YAML: character '\\x00' is not allowed in YAML"),
    ("list key", "? [a, b]\n: 1\n", "v.yaml:1:3: a key must be a plain word, not a list or mapping"),
    ("bad date", "extends: fantan/pagat\nname: 2001-13-45\n", "v.yaml:2:7: cannot read the value '2001-13-45'"),
]


@pytest.mark.parametrize("text,message", [c[1:] for c in YAMLS], ids=[c[0] for c in YAMLS])
def test_a_variant_file_beyond_the_limits_is_refused_by_name(tmp_path, text, message):
    assert check_yaml(tmp_path, text).startswith(message)


def test_replay_of_a_binary_file_names_the_byte(tmp_path):
    (tmp_path / "g.jsonl").write_bytes(b'{"type": "match"}\n\x8b\x00\xff')
    run = tapete("replay", "g.jsonl", cwd=tmp_path)
    assert run.code == 1
    assert run.err.strip() == "g.jsonl:2: the log is not UTF-8 text (byte 0x8b); save it as UTF-8"


def _play(tmp_path, *args: str) -> list[str]:
    run = tapete("play", *args, "-q", "--log", "g.jsonl", cwd=tmp_path)
    assert run.code == 0, run.err
    return (tmp_path / "g.jsonl").read_text(encoding="utf-8").splitlines()


def test_replay_of_a_truncated_log_names_the_last_line(tmp_path):
    lines = _play(tmp_path, "fantan/pagat")
    (tmp_path / "g.jsonl").write_text("\n".join(lines[:30]) + "\n", encoding="utf-8")
    run = tapete("replay", "g.jsonl", cwd=tmp_path)
    assert run.code == 1
    assert run.err.strip() == "g.jsonl:31: the log ends after line 30 but the match goes on (was the log cut short?)"


def test_replay_names_the_card_that_was_edited(tmp_path):
    lines = _play(tmp_path, "fantan/pagat")
    deal = json.loads(lines[1])
    card = deal["state"]["zones"]["hand.0"][3]
    other = "2♣" if card != "2♣" else "3♣"
    deal["state"]["zones"]["hand.0"][3] = other
    lines[1] = json.dumps(deal, ensure_ascii=False)
    (tmp_path / "g.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = tapete("replay", "g.jsonl", cwd=tmp_path)
    assert run.code == 1
    assert run.err.strip() == (
        f'g.jsonl:2: deal event differs at state.zones.hand.0[3]: log has "{other}", replay gives "{card}"'
    )


def test_a_variant_played_from_its_file_replays_and_a_changed_file_is_named(tmp_path):
    # The file reuses a registered name on purpose: replay must still use the file.
    (tmp_path / "x.rules").write_text("row start 8\n", encoding="utf-8")
    (tmp_path / "v.yaml").write_text("extends: fantan/pagat\nname: pagat\nscripts: [x.rules]\n", encoding="utf-8")
    _play(tmp_path, "v.yaml")
    run = tapete("replay", "g.jsonl", cwd=tmp_path)
    assert run.code == 0, run.err
    assert run.out.startswith("g.jsonl: reproduced ")
    (tmp_path / "x.rules").write_text("row start 9\n", encoding="utf-8")
    run = tapete("replay", "g.jsonl", cwd=tmp_path)
    assert run.code == 1
    assert run.err.strip() == (
        f"g.jsonl:1: fantan/pagat ({tmp_path.resolve() / 'v.yaml'}): changed since the log was written: x.rules"
    )


def _snapshot(name: str, players: int):
    from tapete import load_variant

    variant = load_variant(name)
    return variant, variant.new_deal(players=players, seed=3).snapshot()


def test_a_snapshot_missing_a_card_is_refused():
    from tapete import SnapshotError

    variant, snap = _snapshot("chinese-ten/two-player", 2)
    lost = snap["zones"]["stock"].pop()
    with pytest.raises(SnapshotError) as info:
        variant.deal_from_snapshot(snap)
    assert str(info.value) == f"broken deal snapshot: 1 card(s) of the deck are in no zone: {lost}"


def test_a_snapshot_with_a_hand_for_a_seat_that_does_not_exist_is_refused():
    from tapete import SnapshotError

    variant, snap = _snapshot("chinchon/fournier", 2)
    snap["zones"]["hand.9"] = [snap["zones"]["stock"].pop()]
    with pytest.raises(SnapshotError, match="zone 'hand.9' names no seat of a 2-player deal"):
        variant.deal_from_snapshot(snap)
    del snap["zones"]["hand.9"]
    snap["zones"]["pile"] = [snap["zones"]["stock"].pop()]
    with pytest.raises(SnapshotError, match="zone 'pile' is not a zone of chinchon"):
        variant.deal_from_snapshot(snap)


def test_a_snapshot_with_a_25_card_hand_is_refused():
    from tapete import SnapshotError

    variant, snap = _snapshot("chinchon/fournier", 2)
    for _ in range(18):
        snap["zones"]["hand.0"].append(snap["zones"]["stock"].pop())
    with pytest.raises(SnapshotError, match="zone 'hand.0' holds 25 cards; a hand holds at most 8 here"):
        variant.deal_from_snapshot(snap)


def test_a_saved_match_with_a_broken_deal_is_refused_whole():
    from tapete import Match, SnapshotError, load_variant

    variant = load_variant("fantan/pagat")
    saved = []
    match = Match(variant, 4, seed=2)
    match.play(lambda e: saved.append(match.snapshot()) if e["type"] == "action" and not saved else None)
    snap = saved[0]
    snap["deal"]["zones"]["hand.1"].pop()
    with pytest.raises(SnapshotError, match="1 card\\(s\\) of the deck are in no zone"):
        Match.resume(variant, snap)
