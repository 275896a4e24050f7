"""A new deal every time, and saves that never destroy anything (issue: what people hit, part 1).

Played as a person plays: the command line as a subprocess, a human seat fed through stdin.
"""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tapete.table.saves import read_save

TAPETE = [sys.executable, "-m", "tapete"]


def run(*args: str, cwd: Path, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TAPETE, *args], cwd=cwd, input=stdin, capture_output=True, text=True, timeout=timeout)


def deals(log: Path) -> list[dict]:
    return [e for e in map(json.loads, log.read_text().splitlines()) if e["type"] == "deal"]


def test_a_match_without_a_seed_is_a_new_deal_and_its_printed_seed_plays_it_again(tmp_path):
    first = run("play", "fantan/pagat", "--log", "a.jsonl", cwd=tmp_path)
    second = run("play", "fantan/pagat", "--log", "b.jsonl", cwd=tmp_path)
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    seeds = [
        re.search(r"seed (\d+)  bots .*\na new deal: play this match again with --seed \1\n", p.stdout)
        for p in (first, second)
    ]
    assert all(seeds), first.stdout[:200]
    assert seeds[0][1] != seeds[1][1]
    assert deals(tmp_path / "a.jsonl")[0]["state"] != deals(tmp_path / "b.jsonl")[0]["state"]
    again = run("play", "fantan/pagat", "--seed", seeds[0][1], "--log", "c.jsonl", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "c.jsonl").read_text().splitlines()[1:] == (tmp_path / "a.jsonl").read_text().splitlines()[1:]
    assert "play this match again" not in again.stdout  # a seed given needs no telling


def test_a_quiet_match_on_a_drawn_seed_names_the_seed_in_its_one_line(tmp_path):
    proc = run("play", "fantan/pagat", "--quiet", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stderr == ""
    assert re.fullmatch(r"(Winner: seat \d|Draw) after \d+ deal\(s\); totals \[[\d, ]+\]; seed \d+\n", proc.stdout)
    given = run("play", "fantan/pagat", "--quiet", "--seed", "1", cwd=tmp_path)
    assert "seed" not in given.stdout


def test_quitting_two_matches_the_same_way_keeps_both_saves(tmp_path):
    a = run("play", "chinchon/fournier", "--bots", "human,heuristic", "--seed", "5", cwd=tmp_path, stdin="1\nquit\n")
    b = run("play", "chinchon/fournier", "--bots", "human,heuristic", "--seed", "5", cwd=tmp_path, stdin="quit\n")
    assert a.returncode == b.returncode == 0, a.stderr + b.stderr
    names = [re.search(r"saved in (\S+)", p.stdout)[1] for p in (a, b)]
    assert names[0] != names[1]
    first, second = (read_save(tmp_path / n) for n in names)
    assert len(first.actions) > len(second.actions)  # the first match's moves are all still there
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)  # no lock or temporary file left


def test_a_file_that_is_not_this_matchs_save_is_never_replaced(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    proc = run("play", "fantan/pagat", "--seed", "1", "--save", "notes.txt", cwd=tmp_path)
    assert proc.returncode == 1
    assert "notes.txt: the file exists and is not this match's save" in proc.stderr
    assert "--force" in proc.stderr
    assert notes.read_text() == "my notes\n"
    forced = run("play", "fantan/pagat", "--seed", "1", "--save", "notes.txt", "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert read_save(notes).seed == 1


def test_another_matchs_save_is_not_replaced_and_the_message_says_how_to_resume_it(tmp_path):
    run(
        "play",
        "chinchon/fournier",
        "--bots",
        "human,heuristic",
        "--seed",
        "3",
        "--save",
        "m.json",
        cwd=tmp_path,
        stdin="quit\n",
    )
    before = (tmp_path / "m.json").read_bytes()
    proc = run(
        "play",
        "chinchon/fournier",
        "--bots",
        "human,heuristic",
        "--seed",
        "4",
        "--save",
        "m.json",
        cwd=tmp_path,
        stdin="quit\n",
    )
    assert proc.returncode == 1
    assert "m.json: the file holds another saved match; continue it with 'tapete resume m.json'" in proc.stderr
    assert (tmp_path / "m.json").read_bytes() == before


def test_save_at_the_table_refuses_an_unrelated_file_and_the_match_goes_on(tmp_path):
    (tmp_path / "notes.txt").write_text("keep\n")
    proc = run(
        "play",
        "chinchon/fournier",
        "--bots",
        "human,heuristic",
        "--seed",
        "2",
        cwd=tmp_path,
        stdin="save notes.txt\nsave mine.json\nquit\n",
    )
    assert proc.returncode == 0, proc.stderr
    assert "not saved: notes.txt: the file exists and is not this match's save" in proc.stdout
    assert (tmp_path / "notes.txt").read_text() == "keep\n"
    assert read_save(tmp_path / "mine.json").seed == 2
    assert "saved in mine.json" in proc.stdout


@pytest.mark.parametrize("target", [".", "sub"])
def test_a_folder_is_refused_as_a_save(tmp_path, target):
    (tmp_path / "sub").mkdir()
    proc = run("play", "fantan/pagat", "--seed", "1", "--save", target, cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.strip() == f"{target}: is a folder; name a file to save the match in"


def wait_for(path: Path, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < end, f"{path} never appeared"
        time.sleep(0.05)


def test_a_save_in_use_is_locked_and_a_second_writer_is_refused_naming_the_file(tmp_path):
    first = subprocess.Popen(
        [*TAPETE, "play", "chinchon/fournier", "--bots", "human,heuristic", "--seed", "7", "--save", "same.json"],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for(tmp_path / ".same.json.lock")  # claimed before the first move; the person has not moved yet
        second = run(
            "play",
            "chinchon/fournier",
            "--bots",
            "human,heuristic",
            "--seed",
            "8",
            "--save",
            "same.json",
            "--force",
            cwd=tmp_path,
            stdin="quit\n",
        )
        assert second.returncode == 1
        assert "same.json: another tapete is playing the match saved in this file" in second.stderr
        resumed = run("resume", "same.json", cwd=tmp_path, stdin="quit\n")
        assert resumed.returncode == 1 and "another tapete is playing" in resumed.stderr
        out, err = first.communicate("1\nquit\n", timeout=120)
    finally:
        first.kill()
    assert first.returncode == 0, err
    assert read_save(tmp_path / "same.json").seed == 7
    assert not (tmp_path / ".same.json.lock").exists()


def test_kill_9_while_saving_never_breaks_the_save_and_leaves_nothing_behind_for_good(tmp_path):
    """Bots play with a save written after every move; the process is killed at ten moments."""
    for round_ in range(10):
        proc = subprocess.Popen(
            [*TAPETE, "play", "chinchon/fournier", "--seed", "11", "--save", "k.json", "--force"]
            if round_ == 0
            else [*TAPETE, "resume", "k.json"],
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(tmp_path / "k.json")
        time.sleep(0.05 * (round_ % 4))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        read_save(tmp_path / "k.json")  # a whole save, every time
        leftovers = {p.name for p in tmp_path.iterdir()} - {"k.json"}
        # at most one of each, never one per kill: the writer's named temporary file (a kill between naming
        # it and moving it over the save leaves it) is the same name every time and goes with the next write
        assert leftovers <= {".k.json.tapete-tmp", ".k.json.lock"}
    done = run("resume", "k.json", cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.json"]


def test_saves_are_kept_out_of_git(tmp_path):
    """The project's .gitignore, in a repository of its own (so the test runs from any copy of the project)."""
    root = Path(__file__).resolve().parent.parent
    shutil.copy(root / ".gitignore", tmp_path / ".gitignore")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    for name in ("chinchon-fournier-seed-5.tapete-save.json", ".x.tapete-save.json.lock", ".x.tapete-save.json.tmp"):
        assert subprocess.run(["git", "check-ignore", "-q", name], cwd=tmp_path).returncode == 0, name
    assert subprocess.run(["git", "check-ignore", "-q", "notes.json"], cwd=tmp_path).returncode == 1  # not everything
