"""Fuzzing what people and plugins hand tapete: the answer is success or a TapeteError, never another exception.

Inputs are mutated from the real built-in files: rule scripts, variant YAML, a
real log, real snapshots, and ``--option`` values. Mutations delete spans, insert
grammar tokens, flip bytes, nest deeply, grow huge and change the encoding. Runs
are derandomized (the same examples on every run, so CI is stable; the profile is
set in conftest.py). Each fuzz test runs twice: a quarter of the examples in the
everyday tier, and its ``..._at_full_size`` twin, with the same body and every
example, in the slow tier (``-m slow``);
``pytest tests/test_fuzz.py --hypothesis-profile=fuzz`` is the long randomised run.
A mutated variant file is also judged by ``check`` and by ``play``: both accept it
or both refuse it.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapete import ErrorList, Match, TapeteError, load_variant, registry
from tapete.core.errors import LocatedError
from tapete.design.checking import check_file
from tapete.gamelog import LogWriter, replay


def examples(n: int) -> int:
    """``n`` examples in the suite's fixed run; the profile's number in the randomised one (profile ``fuzz``)."""
    return n if settings.default.derandomize else settings.default.max_examples


FUZZ = settings(
    deadline=None,
    max_examples=examples(80),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
EVERYDAY = settings(FUZZ, max_examples=examples(20))  # a quarter of the examples; FUZZ's in the slow tier
TOKENS = [
    "{", "}", "(", ")", "if ", " when ", " = ", "..", "♥", "7♦", '"', "#", "\n", ":", ",", "|", " not ", " and ",
    "-", "*", " / 0", " % 0", "score", "deck", "players", "1..99", "0", "-1", "\t", "\r", "\x00", "é", "_", "(" * 40,
    "{\n" * 40, "1+" * 120, "[", "]", "&a", "*a", "- ", "? ", "!!python/object ", "<<: ", "---\n", "'", "\ufeff",
    "9" * 5000, " when total", "deck\n",
]  # fmt: skip


@cache
def workdir() -> Path:
    """The built-in variant folders copied once, so mutated files sit next to their scripts."""
    root = Path(tempfile.mkdtemp(prefix="tapete-fuzz-"))
    for path in registry().variants().values():
        shutil.copytree(path.parent, root / path.parent.name, dirs_exist_ok=True)
    return root


@cache
def sources(suffix: str) -> list[Path]:
    return sorted(workdir().glob(f"*/*{suffix}"))


def mutate(data: st.DataObject, text: str) -> bytes:
    """One to three mutations of a file's bytes."""
    raw = text.encode("utf-8")
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        kind = data.draw(st.sampled_from(["delete", "insert", "flip", "nest", "huge", "latin1", "truncate"]))
        at = data.draw(st.integers(0, len(raw)), label="at")
        if kind == "delete":
            raw = raw[:at] + raw[at + data.draw(st.integers(1, 40)) :]
        elif kind == "insert":
            token = data.draw(st.sampled_from(TOKENS)).encode("utf-8")
            raw = raw[:at] + token + raw[at:]
        elif kind == "flip" and raw:
            i = min(at, len(raw) - 1)
            raw = raw[:i] + bytes([raw[i] ^ (1 << data.draw(st.integers(0, 7)))]) + raw[i + 1 :]
        elif kind == "nest":
            depth = data.draw(st.sampled_from([40, 400, 5000]))
            opener, closer = data.draw(st.sampled_from([("(", ")"), ("{", "}"), ("[", "]"), ("if x {\n", "}\n")]))
            raw = raw[:at] + (opener * depth + closer * depth).encode() + raw[at:]
        elif kind == "huge":
            raw = raw * data.draw(st.sampled_from([30, 200]))
        elif kind == "latin1":
            raw = raw.decode("utf-8", errors="replace").encode("latin-1", errors="replace")
        elif kind == "truncate":
            raw = raw[:at]
    return raw


def assert_clean(exc: TapeteError) -> None:
    """A TapeteError; one from a file carries its location."""
    errors = exc.errors if isinstance(exc, ErrorList) else [exc]
    for e in errors:
        assert str(e)
        if isinstance(e, LocatedError):
            assert e.location.path


def refused_by_play(path: Path) -> TapeteError | None:
    """What ``tapete play FILE`` refuses before its first move: loading, the match's bots, the first deal."""
    try:
        variant = load_variant(path)
        Match(variant, None, 0, bots=[variant.game_class.default_bot])
        deal = variant.new_deal(seed=0)
        if not deal.over and not deal.legal_actions():
            return TapeteError("the first deal offers no move")
    except TapeteError as exc:
        return exc
    return None


def check_and_play_agree(path: Path) -> None:
    """``check`` accepts the file exactly when ``play`` does (issue: a BOM that play read and check refused)."""
    problems, _ = check_file(path)
    refused = refused_by_play(path)
    assert (not problems) == (refused is None), (problems, refused)


def load_or_refuse(path: Path, options=None):
    try:
        return load_variant(path, options=options)
    except TapeteError as exc:
        assert_clean(exc)
        return None


def play_a_little(variant) -> None:
    """A variant that loads deals and plays a few moves, or refuses with a TapeteError."""
    try:
        deal = variant.new_deal(seed=1)
        for _ in range(12):
            legal = deal.legal_actions()
            if deal.over or not legal:
                break
            deal.play(legal[0])
    except TapeteError as exc:
        assert_clean(exc)


def mutated_rule_script(data: st.DataObject) -> None:
    """A built-in rule script mutated, in a copy of a variant file that uses it."""
    script = data.draw(st.sampled_from(sources(".rules")), label="script")
    variants = [p for p in script.parent.glob("*.yaml") if script.name in p.read_text(encoding="utf-8")]
    target = script.parent / f"fuzz-{script.name}"
    target.write_bytes(mutate(data, script.read_text(encoding="utf-8")))
    yaml_file = script.parent / "fuzz-script.yaml"
    base = variants[0].read_text(encoding="utf-8") if variants else ""
    yaml_file.write_text(base.replace(script.name, target.name).replace("name: ", "name: fuzz-", 1), encoding="utf-8")
    check_and_play_agree(yaml_file)
    variant = load_or_refuse(yaml_file)
    if variant is not None:
        play_a_little(variant)


@EVERYDAY
@given(st.data())
def test_mutated_rule_scripts_load_or_are_refused_at_a_place(data):
    mutated_rule_script(data)


@pytest.mark.slow
@FUZZ
@given(st.data())
def test_mutated_rule_scripts_load_or_are_refused_at_a_place_at_full_size(data):
    mutated_rule_script(data)


def mutated_variant_file(data: st.DataObject) -> None:
    """A built-in variant file mutated, next to its scripts."""
    source = data.draw(st.sampled_from(sources(".yaml")), label="variant")
    target = source.parent / "fuzz-variant.yaml"
    target.write_bytes(mutate(data, source.read_text(encoding="utf-8")))
    check_and_play_agree(target)
    variant = load_or_refuse(target)
    if variant is not None:
        play_a_little(variant)


@EVERYDAY
@given(st.data())
def test_mutated_variant_files_load_or_are_refused_at_a_place(data):
    mutated_variant_file(data)


@pytest.mark.slow
@FUZZ
@given(st.data())
def test_mutated_variant_files_load_or_are_refused_at_a_place_at_full_size(data):
    mutated_variant_file(data)


OPTION_TEXT = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["", "abc", "5.5", "1e3", "-0", "+3", "ture", "no", "٣", "9" * 5000, "0x10", " 7", "\x00"]),
    st.integers(-(10**30), 10**30).map(str),
)


OPTION_VARIANTS = st.sampled_from(["fantan/chips", "chinchon/wild-cards", "chinese-ten/two-player"])


def option_value(name: str, data: st.DataObject) -> None:
    """One option of ``name`` (or a name it does not declare) given a value typed anyhow."""
    variant = load_variant(name)
    key = data.draw(st.sampled_from([*variant.spec.declarations, "nosuch", ""]), label="option")
    value = data.draw(OPTION_TEXT, label="value")
    try:
        loaded = load_variant(name, options={key: value})
    except TapeteError as exc:
        assert_clean(exc)
        return
    play_a_little(loaded)


@EVERYDAY
@given(OPTION_VARIANTS, st.data())
def test_option_values_are_accepted_or_refused_by_name(name, data):
    option_value(name, data)


@pytest.mark.slow
@FUZZ
@given(OPTION_VARIANTS, st.data())
def test_option_values_are_accepted_or_refused_by_name_at_full_size(name, data):
    option_value(name, data)


@cache
def real_log() -> list[str]:
    path = workdir() / "real.jsonl"
    writer = LogWriter(path)
    try:
        Match(load_variant("fantan/pagat"), 3, seed=5, bots=["random"]).play(writer)
    finally:
        writer.close()
    return path.read_text(encoding="utf-8").splitlines()


def mutated_log(data: st.DataObject) -> None:
    """A real match's log with a line dropped, two swapped, a value changed or its bytes mutated."""
    lines = list(real_log())
    kind = data.draw(st.sampled_from(["bytes", "drop", "swap", "value"]))
    if kind == "drop":
        del lines[data.draw(st.integers(0, len(lines) - 1))]
    elif kind == "swap":
        i = data.draw(st.integers(0, len(lines) - 2))
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif kind == "value":
        i = data.draw(st.integers(0, len(lines) - 1))
        event = json.loads(lines[i])
        key = data.draw(st.sampled_from(sorted(event)))
        event[key] = data.draw(st.sampled_from([None, 0, -1, 10**12, "x", [], {}, [[[]]], True, "7♥"]))
        lines[i] = json.dumps(event, ensure_ascii=False)
    text = "\n".join(lines) + "\n"
    path = workdir() / "fuzz.jsonl"
    path.write_bytes(mutate(data, text) if kind == "bytes" else text.encode("utf-8"))
    try:
        replay(path)
    except TapeteError as exc:
        assert_clean(exc)


@settings(FUZZ, max_examples=examples(8))
@given(st.data())
def test_mutated_logs_replay_or_are_refused_at_a_line(data):
    mutated_log(data)


@pytest.mark.slow
@settings(FUZZ, max_examples=examples(30))
@given(st.data())
def test_mutated_logs_replay_or_are_refused_at_a_line_at_full_size(data):
    mutated_log(data)


JSON_JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.sampled_from(["7♥", "Jk", "x", "hand.0", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["a", "hand.9", "0"]), inner),
    max_leaves=10,
)


SNAPSHOT_VARIANTS = st.sampled_from(["fantan/pagat", "chinchon/fournier", "chinese-ten/two-player", "gin/standard"])


def mutated_snapshot(name: str, data: st.DataObject) -> None:
    """A first deal's snapshot with junk put at its top, in a zone, a card moved, or nested 5,000 deep."""
    variant = load_variant(name)
    snap = json.loads(json.dumps(variant.new_deal(seed=data.draw(st.integers(0, 3))).snapshot()))
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.sampled_from(["top", "zone", "move", "deep"]))
        if where == "top":
            snap[data.draw(st.sampled_from([*snap, "extra"]))] = data.draw(JSON_JUNK)
        elif where == "zone" and isinstance(snap.get("zones"), dict) and snap["zones"]:
            zone = data.draw(st.sampled_from(sorted(snap["zones"])))
            snap["zones"][zone] = data.draw(JSON_JUNK)
        elif where == "move" and isinstance(snap.get("zones"), dict) and snap["zones"]:
            zones = sorted(z for z, cards in snap["zones"].items() if isinstance(cards, list) and cards)
            if zones:
                card = snap["zones"][data.draw(st.sampled_from(zones))].pop()
                target = data.draw(st.sampled_from([*zones, "hand.9", "nowhere", None]))
                if target is not None:
                    snap["zones"].setdefault(target, []).append(card)
        elif where == "deep":
            snap["data"] = "DEEP"
    text = json.dumps(snap, ensure_ascii=False).replace('"DEEP"', "[" * 5000 + "]" * 5000)
    try:
        deal = variant.deal_from_snapshot(text)
    except TapeteError as exc:
        assert_clean(exc)
        return
    assert deal.snapshot()["players"] == snap["players"]


@EVERYDAY
@given(SNAPSHOT_VARIANTS, st.data())
def test_mutated_snapshots_load_whole_or_are_refused(name, data):
    mutated_snapshot(name, data)


@pytest.mark.slow
@FUZZ
@given(SNAPSHOT_VARIANTS, st.data())
def test_mutated_snapshots_load_whole_or_are_refused_at_full_size(name, data):
    mutated_snapshot(name, data)
