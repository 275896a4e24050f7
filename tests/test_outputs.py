"""Issue 25, class 1: no output destroys a file that is not its own (`tapete.core.outputs`).

Every output option (``rules --out``, ``report --out/--md/--json``, ``tournament --json``,
``simulate --json/--csv/--plot``, ``play --log``) is judged before any work: a folder, a
FIFO, a device, a symlink loop or a dangling symlink is refused up front; an input of the
same command is never replaced, not even with ``--force``; a file that is not a tapete
output of the same kind is replaced only with ``--force``; two outputs never share a path;
and every write is whole or nothing, with no temporary file left behind.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hostile import tapete
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tapete.core import outputs
from tapete.core.outputs import OutputRefused, Outputs

ROOT = Path(__file__).resolve().parent.parent
PAGAT = ROOT / "variants" / "fantan"
NOTES = b"my notes: do not lose these\n"


def variant_here(folder: Path) -> Path:
    """A copy of Fan Tan (Pagat) in ``folder``: a variant file this test may point outputs at."""
    for name in ("pagat.yaml", "pagat.rules"):
        shutil.copy(PAGAT / name, folder / name)
    return folder / "pagat.yaml"


def litter(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if "tapete-tmp" in p.name)


# -- what is at the output path: every case, one outcome each (the property) ------------------
STATES = (
    "nothing",
    "rulebook",  # a tapete output of the same kind
    "simulation",  # a tapete output of another kind
    "notes",  # a person's file
    "input",  # the variant file the command reads
    "hard link to input",
    "folder",
    "fifo",
    "device",
    "symlink to rulebook",
    "symlink to notes",
    "dangling symlink",
    "symlink loop",
)


def arrange(folder: Path, state: str) -> Path:
    """Put ``state`` at ``folder/out.txt`` (or name the input itself); the path the command is told to write."""
    out = folder / "out.txt"
    source = folder / "pagat.yaml"
    if state == "rulebook":
        out.write_text(outputs.first_line("rulebook", "#") + "Sevens\n", encoding="utf-8")
    elif state == "simulation":
        out.write_text('{\n "type": "tapete-simulation",\n "tapete": "0.1.0"\n}\n', encoding="utf-8")
    elif state == "notes":
        out.write_bytes(NOTES)
    elif state == "input":
        return source
    elif state == "hard link to input":
        os.link(source, out)
    elif state == "folder":
        out.mkdir()
    elif state == "fifo":
        os.mkfifo(out)
    elif state == "device":
        out.symlink_to("/dev/null")
    elif state == "symlink to rulebook":
        (folder / "book.txt").write_text(outputs.first_line("rulebook", "#") + "x\n", encoding="utf-8")
        out.symlink_to("book.txt")
    elif state == "symlink to notes":
        (folder / "mine.txt").write_bytes(NOTES)
        out.symlink_to("mine.txt")
    elif state == "dangling symlink":
        out.symlink_to("nowhere.txt")
    elif state == "symlink loop":
        (folder / "loop.txt").symlink_to("out.txt")
        out.symlink_to("loop.txt")
    return out


def expected(state: str, force: bool) -> str | None:
    """The one outcome for each state: None (written), or words of the refusal."""
    return {
        "nothing": None,
        "rulebook": None,
        "symlink to rulebook": None,
        "simulation": None if force else "is a tapete simulation (JSON), not a tapete rulebook",
        "notes": None if force else "is not a tapete rulebook; name another file for --out, or add --force",
        "symlink to notes": None if force else "is not a tapete rulebook",
        "input": "is a file this command reads",
        "hard link to input": "is a file this command reads",
        # refused up front, by the path reader (tapete.core.inputs) or the writer, in words naming what it is
        "folder": "is a folder; name a file",
        "fifo": "is a FIFO (named pipe), not a",
        "device": "is a device, not a",
        "dangling symlink": "nowhere",
        "symlink loop": "loop",
    }[state]


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """What is in ``folder``: each regular file's bytes, and what any other entry is."""
    found: dict[str, bytes | str] = {}
    for p in sorted(folder.iterdir()):
        if p.is_symlink():
            found[p.name] = "-> " + os.readlink(p)
        elif p.is_file():
            found[p.name] = p.read_bytes()
        else:
            found[p.name] = "other"
    return found


def examples(n: int) -> int:
    """``n`` examples in the suite's fixed run; the profile's number in the randomised one (profile ``fuzz``)."""
    return n if settings.default.derandomize else settings.default.max_examples


def every_state(test: Callable[..., None]) -> Callable[..., None]:
    """Each state at least once (without --force, as text), whatever the search draws besides."""
    for state in STATES:
        test = example(state=state, force=False, fmt="text")(test)
    return test


@settings(max_examples=examples(13), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@every_state
@given(state=st.sampled_from(STATES), force=st.booleans(), fmt=st.sampled_from(["text", "md", "html"]))
def test_what_is_at_the_output_path_has_one_outcome_and_a_refusal_changes_nothing(tmp_path_factory, state, force, fmt):
    from typer.testing import CliRunner

    from tapete.cli.main import app

    folder = tmp_path_factory.mktemp("out")
    source = variant_here(folder)
    out = arrange(folder, state)
    before = snapshot(folder)
    args = ["rules", str(source), "--format", fmt, "--out", str(out)] + (["--force"] if force else [])
    result = CliRunner().invoke(app, args)
    refusal = expected(state, force)
    if refusal is None:
        assert result.exit_code == 0, result.output
        text = out.read_text(encoding="utf-8")
        assert "Sevens as Pagat plays it" in text
        assert outputs.RULEBOOK.recognises(text.encode()[: outputs.HEAD_BYTES])  # the next run may replace it
        if state == "symlink to rulebook":  # the file it points to is written; the link stays
            assert out.is_symlink() and "Sevens as Pagat" in (folder / "book.txt").read_text(encoding="utf-8")
    else:
        assert result.exit_code == 1, result.output
        assert refusal in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1
        assert snapshot(folder) == before  # nothing changed, the person's bytes intact
    assert source.read_bytes() == (PAGAT / "pagat.yaml").read_bytes()
    assert litter(folder) == []


# -- the examples of the issue ----------------------------------------------------------------
def invoke(folder: Path, *args: str) -> tuple[int, str]:
    """The command in this process (a cheap way to try many outputs; the subprocess tests below
    and the slow sweep show the real command does the same)."""
    from typer.testing import CliRunner

    from tapete.cli.main import app

    here = os.getcwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(app, list(args))
    finally:
        os.chdir(here)
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_rules_never_writes_over_the_variant_it_reads_even_with_force(tmp_path):
    source = variant_here(tmp_path)
    original = source.read_bytes()
    run = tapete("rules", "pagat.yaml", "--out", "pagat.yaml", "--force", cwd=tmp_path)
    assert run.code == 1 and run.err.strip() == (
        "pagat.yaml: is a file this command reads (pagat.yaml); tapete never writes --out over its own input, "
        "even with --force; name another file"
    )
    code, said = invoke(tmp_path, "rules", "pagat.yaml", "--out", "pagat.rules", "--force")  # its script
    assert code == 1 and "is a file this command reads (pagat.rules)" in said
    assert source.read_bytes() == original
    assert (tmp_path / "pagat.rules").read_bytes() == (PAGAT / "pagat.rules").read_bytes()


def test_report_out_r_html_leaves_an_r_md_nobody_named_and_names_it(tmp_path):
    (tmp_path / "r.md").write_bytes(NOTES)
    run = tapete("report", "fantan/pagat", "-n", "2", "--no-ladder", "--out", "r.html", "-q", cwd=tmp_path)
    assert run.code == 1
    assert run.err.strip() == (
        "r.md: the file exists and is not a tapete report (Markdown); name another file for the Markdown twin "
        "of --out (name it with --md), or add --force to replace it"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.md"] and (tmp_path / "r.md").read_bytes() == NOTES


@pytest.mark.slow
def test_a_report_writes_its_twin_where_named_and_replaces_its_own_pages(tmp_path):
    (tmp_path / "r.md").write_bytes(NOTES)
    args = ["report", "fantan/pagat", "-n", "2", "--no-ladder", "--out", "r.html", "--md", "t.md", "-q"]
    for _ in range(2):  # the second run replaces the first one's pages: they are tapete's
        run = tapete(*args, cwd=tmp_path)
        assert run.code == 0, run.err
    assert (tmp_path / "r.md").read_bytes() == NOTES
    assert (tmp_path / "t.md").read_text(encoding="utf-8").startswith("<!-- tapete ")
    assert outputs.REPORT_HTML.recognises((tmp_path / "r.html").read_bytes()[:4096])
    assert len(list((tmp_path / "t_files").glob("plot-*.png"))) == 7 and litter(tmp_path) == []
    (tmp_path / "t_files" / "plot-order.png").write_bytes(NOTES)  # a person's file in the plots folder
    run = tapete(*args, cwd=tmp_path)
    assert run.code == 1 and "t_files/plot-order.png: the file exists and is not a tapete report plot" in run.err
    assert (tmp_path / "t_files" / "plot-order.png").read_bytes() == NOTES


SHARED = [
    ("simulate", "fantan/pagat", "-n", "2", "-q", "--json", "a", "--csv", "a"),
    ("report", "fantan/pagat", "-n", "2", "--no-ladder", "--out", "r.md"),  # --out and its derived twin
    ("report", "fantan/pagat", "-n", "2", "--no-ladder", "--out", "r.html", "--json", "r.html"),
    ("play", "fantan/pagat", "-q", "--log", "a", "--save", "a"),
]


def test_two_outputs_of_one_command_never_share_a_path(tmp_path):
    run = tapete(*SHARED[0], cwd=tmp_path)
    assert run.code == 1 and run.err.strip() == "a: named for both --json and --csv; give each output a file of its own"
    for args in SHARED[1:]:
        code, said = invoke(tmp_path, *args)
        assert code == 1 and "named for both" in said and "give each output a file of its own" in said, args
    assert list(tmp_path.iterdir()) == []


PERSONAL = [
    ("rules", "fantan/pagat", "--out"),
    ("tournament", "fantan/pagat", "-b", "random,sensible", "-n", "1", "--workers", "1", "--json"),
    ("simulate", "fantan/pagat", "-n", "2", "-q", "--workers", "1", "--json"),
    ("simulate", "fantan/pagat", "-n", "2", "-q", "--workers", "1", "--csv"),
    ("play", "fantan/pagat", "-q", "--seed", "1", "--log"),
]


def persons_file_round(args: tuple[str, ...], folder: Path, run: Callable[..., tuple[int, str]]) -> None:
    """Refused without --force (the notes intact), replaced with it, then replaced freely as tapete's own."""
    notes = folder / "notes.txt"
    notes.write_bytes(NOTES)
    code, said = run(folder, *args, "notes.txt")
    assert code == 1 and "notes.txt: the file exists and is not a tapete" in said, (args, said)
    assert "add --force to replace it" in said and notes.read_bytes() == NOTES
    code, said = run(folder, *args, "notes.txt", "--force")
    assert code == 0 and notes.read_bytes() != NOTES, (args, said)
    code, said = run(folder, *args, "notes.txt")
    assert code == 0, (args, said)
    assert litter(folder) == []


def test_output_options_refuse_a_persons_file_and_force_replaces_it(tmp_path):
    for args in PERSONAL[::2]:  # rules --out, simulate --json, play --log here; every option in the slow sweep
        persons_file_round(args, tmp_path, invoke)


def _subprocess(folder: Path, *args: str) -> tuple[int, str]:
    run = tapete(*args, cwd=folder)
    return run.code, run.err


@pytest.mark.slow
@pytest.mark.parametrize("args", PERSONAL + [("report", "fantan/pagat", "-n", "2", "--no-ladder", "-q", "--json")])
def test_every_output_option_of_the_real_command_refuses_a_persons_file(tmp_path, args):
    persons_file_round(args, tmp_path, _subprocess)


def test_an_output_of_another_kind_is_named(tmp_path):
    save = tmp_path / "match.json"
    save.write_text('{\n "type": "tapete-save",\n "format": 1\n}\n', encoding="utf-8")
    code, said = invoke(tmp_path, "simulate", "fantan/pagat", "-n", "2", "-q", "--json", "match.json")
    assert code == 1 and said.strip() == (
        "match.json: the file exists and is a saved match, not a tapete simulation (JSON); "
        "name another file for --json, or add --force to replace it"
    )
    assert invoke(tmp_path, "simulate", "fantan/pagat", "-n", "2", "-q", "-w", "1", "--csv", "s.csv")[0] == 0
    code, said = invoke(tmp_path, "tournament", "fantan/pagat", "-b", "random,sensible", "-n", "1", "--json", "s.csv")
    assert code == 1 and "s.csv: the file exists and is a tapete simulation (CSV), not a tapete tournament" in said


def test_a_bad_output_path_is_refused_before_a_single_match_is_played(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    run = tapete("simulate", "fantan/pagat", "-n", "1000000", "-q", "--plot", "pipe", cwd=tmp_path)
    assert run.code == 1 and run.err.strip().startswith("pipe: is a FIFO (named pipe), not a"), run.err
    assert len(run.err.strip().splitlines()) == 1
    for option in ("--json", "--csv"):
        code, said = invoke(tmp_path, "simulate", "fantan/pagat", "-n", "1000000", "-q", option, "pipe")
        assert code == 1 and said.startswith("pipe: is a FIFO (named pipe), not a"), said
    code, said = invoke(tmp_path, "report", "fantan/pagat", "-n", "1000000", "-q", "--out", ".")
    assert code == 1 and said.strip().startswith(".: is a folder; name a file")


# -- whole or nothing -------------------------------------------------------------------------
def test_a_write_that_fails_leaves_the_old_file_and_no_litter(tmp_path):
    old = tmp_path / "s.json"
    old.write_text('{"type": "tapete-simulation", "records": []}\n', encoding="utf-8")
    before = old.read_bytes()
    plan = Outputs()
    plan.add(old, outputs.SIMULATION_JSON, "--json")
    with pytest.raises(RuntimeError), plan.open(old) as f:
        f.write(b'{"type": "tapete-simulation", "rec')
        raise RuntimeError("the disk is full")
    assert old.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


def test_an_output_that_changed_into_a_persons_file_meanwhile_is_not_replaced(tmp_path):
    path = tmp_path / "s.csv"
    plan = Outputs()
    plan.add(path, outputs.SIMULATION_CSV, "--csv")  # nothing there when the command started
    path.write_bytes(NOTES)  # a person saved notes there while the matches were played
    with pytest.raises(OutputRefused, match="is not a tapete simulation"):
        plan.write(path, "point,match,seed\n")
    assert path.read_bytes() == NOTES


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups")
def test_kill_9_in_the_middle_of_a_log_leaves_the_old_log_whole_and_no_litter(tmp_path):
    from tapete import Match, load_variant
    from tapete.gamelog import LogWriter

    writer = LogWriter(tmp_path / "game.jsonl")  # the log of an earlier match
    Match(load_variant("fantan/pagat"), 4, 3, bots=["random"]).play(writer)
    writer.close()
    before = (tmp_path / "game.jsonl").read_bytes()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tapete", "play", "fantan/pagat", "--seed", "4", "--watch", "--delay", "0.05"]
        + ["--log", "game.jsonl"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        for _ in range(20):  # some moves made: the log is being written
            proc.stdout.readline()
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
    assert (tmp_path / "game.jsonl").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


def test_a_new_file_is_created_whole_and_never_over_one_put_there_meanwhile(tmp_path):
    path = tmp_path / "game.py"
    outputs.write_new(path, "print('hello')\n")
    assert path.read_text(encoding="utf-8") == "print('hello')\n"
    path.write_bytes(NOTES)
    with pytest.raises(OutputRefused, match="already exists; tapete leaves it as it is"):
        outputs.write_new(path, "print('again')\n")
    assert path.read_bytes() == NOTES and sorted(p.name for p in tmp_path.iterdir()) == ["game.py"]


# -- one judgement of a path to write, the same words at the command line and at the write ----------
@pytest.mark.parametrize("shape", ["folder", "fifo", "symlink loop", "dangling symlink", "missing folder"])
def test_the_path_reader_and_the_writer_refuse_a_bad_path_in_the_same_words(tmp_path, shape):
    """`--log PATH` is refused while the command line is read and, were the disk to change before
    the write, by the writer: a person sees one sentence for one kind of path, whichever saw it."""
    from tapete.core import inputs

    path = tmp_path / "out.jsonl"
    if shape == "folder":
        path.mkdir()
    elif shape == "fifo":
        os.mkfifo(path)
    elif shape == "symlink loop":
        path.symlink_to(path)
    elif shape == "dangling symlink":
        path.symlink_to(tmp_path / "gone")
    else:
        path = tmp_path / "missing" / "out.jsonl"
    with pytest.raises(inputs.InputError) as read:
        inputs.output_path(str(path), "log")
    with pytest.raises(OutputRefused) as written:
        outputs.target_of(path, "a log")
    assert str(read.value) == str(written.value)
    said = str(read.value)
    assert said.startswith(f"{path}: ") and ("a log" in said or "link to nowhere" in said), said
