"""Files a person names that are not regular files, or are too big or too deep: refused at once, by name.

``replay`` or ``resume`` of a FIFO used to wait for ever, of ``/dev/zero`` to read until
memory ran out, and ``--save .`` ended in ``internal error``. Every file tapete reads goes
through one reader (`tapete.core.limits.read_file`) that judges what it opened before
reading a byte and reads at most the limit; saves and logs have a JSON nesting limit.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hostile import tapete

from tapete import load_variant
from tapete.core.limits import MAX_NESTING, FileRefused, read_file

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def _not_files(tmp_path: Path) -> list[tuple[str, str]]:
    """(path, what the message calls it) for a folder, a FIFO and a device."""
    (tmp_path / "folder.yaml").mkdir()
    found = [(str(tmp_path / "folder.yaml"), "is a folder")]
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe.yaml")
        found.append((str(tmp_path / "pipe.yaml"), "is a FIFO (named pipe)"))
    if Path("/dev/zero").exists():
        found.append(("/dev/zero", "is a device"))
    return found


@pytest.mark.parametrize(("command", "what"), [("replay", "log"), ("resume", "save"), ("play", "variant file")])
def test_a_folder_a_fifo_or_a_device_is_refused_without_reading_it(tmp_path, command, what):
    for path, says in _not_files(tmp_path):
        if command == "play" and not path.endswith(".yaml"):
            continue  # play takes a registered name or a YAML path
        run = tapete(command, path, cwd=tmp_path)  # a hang would time out here
        assert run.code == 1, run.text
        if says == "is a folder":
            assert run.err.strip().endswith(f"is a folder, not a {what}")
        else:
            assert run.err.strip().endswith(f"{says}, not a {what}: tapete reads only regular files"), run.text


@needs_fifo
def test_check_refuses_a_fifo_variant_file_or_script_without_waiting(tmp_path):
    os.mkfifo(tmp_path / "pipe.yaml")
    os.mkfifo(tmp_path / "pipe.rules")
    run = tapete("check", "pipe.yaml", "pipe.rules", cwd=tmp_path)
    assert run.code == 1
    assert run.err.splitlines() == [
        "pipe.yaml: is a FIFO (named pipe), not a variant file: tapete reads only regular files",
        "pipe.rules: is a FIFO (named pipe), not a rule script: tapete reads only regular files",
    ]


@needs_fifo
def test_saving_into_a_folder_or_a_fifo_is_refused_before_the_match_starts(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    for target, says in (
        (".", "is a folder; name a file to save the match in"),
        ("pipe", "is a FIFO (named pipe), not a place for a save: tapete writes regular files"),
    ):
        run = tapete("play", "fantan/pagat", "-q", "--save", target, cwd=tmp_path)  # a FIFO would wait for ever
        assert run.code == 1  # the output-path reader (tapete.core.inputs.output_path), before the match
        assert run.err.strip() == f"{target}: {says}"


def test_a_save_command_at_the_prompt_into_a_folder_is_answered_and_play_goes_on(tmp_path):
    (tmp_path / "dir").mkdir()
    run = tapete(
        "play",
        "fantan/pagat",
        "--seed",
        "1",
        "--bots",
        "human,sensible,sensible",
        cwd=tmp_path,
        stdin="save dir\nquit\n",
    )
    assert "not saved: dir: is a folder; name a file to save the match in" in run.out
    assert run.code == 0 and "quit: the match is saved in" in run.out


def test_a_save_or_a_log_larger_than_the_limit_is_refused_by_its_size(tmp_path):
    for name, command in (("big.json", "resume"), ("big.jsonl", "replay")):
        with open(tmp_path / name, "wb") as f:
            f.truncate(65 * 1024 * 1024)  # sparse: 65 MB that take no room
        run = tapete(command, name, cwd=tmp_path)
        what = "save" if command == "resume" else "log"
        assert run.code == 1
        assert run.err.strip() == f"{name}: the {what} is 68,157,440 bytes; tapete reads {what}s of at most 64 MB"


def test_a_save_or_a_log_nested_100000_deep_is_refused_not_a_recursion_error(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    (tmp_path / "deep.json").write_text('{"type": "tapete-save", "x": ' + deep + "}", encoding="utf-8")
    run = tapete("resume", "deep.json", cwd=tmp_path)
    assert run.code == 1
    assert run.err.strip() == f"deep.json: the save is damaged: the JSON nests deeper than {MAX_NESTING} levels"
    (tmp_path / "deep.jsonl").write_text('{"type": "match", "x": ' + deep + "}\n", encoding="utf-8")
    run = tapete("replay", "deep.jsonl", cwd=tmp_path)
    assert run.code == 1
    assert run.err.strip() == f"deep.jsonl:1: the JSON nests deeper than {MAX_NESTING} levels"


def test_a_real_log_and_a_deep_enough_snapshot_are_still_read(tmp_path):
    v = load_variant("chinchon/two-decks")
    deal = v.new_deal(8, seed=3)
    text = json.dumps(deal.snapshot())
    assert v.deal_from_snapshot(text).snapshot() == deal.snapshot()
    run = tapete("play", "chinchon/two-decks", "-p", "8", "-q", "--log", "g.jsonl", cwd=tmp_path)
    assert run.code == 0
    assert tapete("replay", "g.jsonl", cwd=tmp_path).code == 0


def test_the_reader_reads_at_most_the_limit_of_a_file_that_claims_no_size(tmp_path, monkeypatch):
    # A regular file whose size says 0, as /proc/self/status does: the size is not trusted.
    path = tmp_path / "status"
    path.write_bytes(b"Name:\tpython\n" * 20)
    real_fstat = os.fstat

    def claims_no_size(fd: int) -> os.stat_result:
        st = real_fstat(fd)
        return os.stat_result((*st[:6], 0, *st[7:]))  # st_size is field 6

    monkeypatch.setattr(os, "fstat", claims_no_size)
    assert read_file(path, "log", 1 << 20) == path.read_bytes()
    with pytest.raises(FileRefused, match="the log is more than 10 bytes"):
        read_file(path, "log", 10)


def test_a_human_seat_whose_stdin_is_closed_stops_and_saves_like_the_end_of_input(tmp_path):
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "tapete", "play", "fantan/pagat", "--seed", "1", "--bots", "human,sensible,sensible"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.close(0),  # the shell's <&-
    )
    assert proc.returncode == 1, proc.stderr
    assert "the input is closed: the match is saved in fantan-pagat-seed-1.tapete-save.json" in proc.stdout
    assert "internal error" not in proc.stdout + proc.stderr
    assert (tmp_path / "fantan-pagat-seed-1.tapete-save.json").exists()


def test_a_log_onto_a_pipe_is_refused_instead_of_waiting_for_a_reader(tmp_path):
    import os
    import subprocess
    import sys

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    proc = subprocess.run(
        [sys.executable, "-m", "tapete", "play", "fantan/pagat", "--seed", "1", "-q", "--log", str(fifo)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert proc.stderr.strip() == f"{fifo}: is a FIFO (named pipe), not a place for a log: tapete writes regular files"
