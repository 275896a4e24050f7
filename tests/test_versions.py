"""One version everywhere; logs and saved matches say their format, and readers check it."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from conftest import variant
from typer.testing import CliRunner

import tapete
from tapete import Match, SnapshotError
from tapete.cli.main import app
from tapete.formats import LOG_FORMAT, SNAPSHOT_FORMAT
from tapete.gamelog import LogWriter, replay

ROOT = Path(__file__).resolve().parent.parent


def test_the_version_is_the_package_metadata_and_both_cli_spellings_print_it():
    assert tapete.__version__ == version("tapete")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'version = "{tapete.__version__}"' in pyproject
    printed = [
        subprocess.run([sys.executable, "-m", "tapete", *args], capture_output=True, text=True, check=True).stdout
        for args in (["--version"], ["version"])
    ]
    assert printed == [tapete.__version__ + "\n"] * 2


def _log(path: Path) -> list[dict]:
    writer = LogWriter(path)
    try:
        Match(variant("fantan/pagat"), 4, 3, bots=["random"]).play(writer)
    finally:
        writer.close()
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _rewrite_header(path: Path, events: list[dict], change) -> None:
    change(events[0])
    path.write_text("\n".join(json.dumps(e, ensure_ascii=False) for e in events) + "\n", encoding="utf-8")


def test_a_log_carries_its_format_and_a_newer_format_is_refused_saying_what_to_do(tmp_path):
    path = tmp_path / "g.jsonl"
    events = _log(path)
    assert events[0]["format"] == LOG_FORMAT
    _rewrite_header(path, events, lambda h: h.update(format=LOG_FORMAT + 1, tapete="9.0.0"))
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert f"format {LOG_FORMAT + 1}, written by tapete 9.0.0" in result.output
    assert "upgrade tapete" in result.output


def test_a_log_of_an_older_format_is_refused_naming_the_tapete_that_wrote_it(tmp_path):
    path = tmp_path / "g.jsonl"
    _rewrite_header(path, _log(path), lambda h: h.update(format=0, tapete="0.0.9"))
    with pytest.raises(SnapshotError, match="older format 0, written by tapete 0.0.9.*use tapete 0.0.9"):
        replay(path)


def test_a_log_without_a_format_number_is_format_1_and_any_tapete_version_replays_it(tmp_path):
    path = tmp_path / "g.jsonl"
    events = _log(path)

    def as_written_by_0_1_0(header):
        del header["format"]
        header["tapete"] = "0.1.0"

    _rewrite_header(path, events, as_written_by_0_1_0)
    assert replay(path).events == len(events)


def test_a_saved_match_of_another_format_is_refused_and_nothing_is_loaded():
    v = variant("fantan/pagat")
    saved = Match(v, 4, 5).snapshot()
    assert saved["format"] == SNAPSHOT_FORMAT and saved["tapete"] == tapete.__version__
    Match.resume(v, saved)
    with pytest.raises(SnapshotError, match=f"format {SNAPSHOT_FORMAT + 1}.*upgrade tapete"):
        Match.resume(v, {**saved, "format": SNAPSHOT_FORMAT + 1})
    with pytest.raises(SnapshotError, match="not a format number"):
        Match.resume(v, {**saved, "format": "one"})
