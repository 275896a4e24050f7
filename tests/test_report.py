"""``tapete report``: the balance report a designer reads, on the same matches ``tapete simulate`` plays.

What is checked is what a designer relies on: the report's matches are simulate's matches
(measuring them changes nothing), every figure has the definition the report prints, the
intervals and verdicts say "real" only when the interval leaves out 0, and the page opens
offline in a browser with every plot drawn and nothing on the console.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from needs import unavailable

from tapete.design import report_stats as rs
from tapete.design.report import Arm, arms_from, compare_arms, run_report, skill_verdict
from tapete.design.report_html import PLOTS
from tapete.simulation.plan import MatchRecord, simulate
from tapete.testing import variant_params

BASE_FIELDS = [f.name for f in fields(MatchRecord)]


@pytest.mark.parametrize("name", variant_params())
def test_the_report_plays_the_same_matches_as_simulate(name):
    """Measuring a match (counting each decision's moves, the standings) changes nothing in it."""
    plain = simulate(name, 2, bots=["random"], seed=7, workers=1)
    measured = simulate(name, 2, bots=["random"], seed=7, workers=1, player=rs.play_match)
    for a, b in zip(plain.records, measured.records, strict=True):
        assert isinstance(b, rs.ReportRecord)
        assert {k: getattr(a, k) for k in BASE_FIELDS} == {k: getattr(b, k) for k in BASE_FIELDS}
        if b.error is None:
            assert sum(b.deal_actions) == b.actions  # every move belongs to a finished deal
            assert len(b.deal_actions) == b.deals  # void deals too
            assert b.decisions >= b.actions and 0 <= b.forced <= b.decisions <= b.choices
            assert len(b.standings) == b.deals - b.void_deals
    stats = rs.arm_stats(measured.records, measured.plan.players)  # every figure can be worked out
    assert stats["matches"] == 2 and 0 <= stats["forced"]["mean"] <= 1 and stats["branching"]["mean"] >= 1
    rows = compare_arms({"stats": rs.arm_stats(plain.records, plain.plan.players)}, {"stats": stats})
    assert all(r["text"] for r in rows)


def test_the_measured_standings_follow_the_winner_rule():
    sim = simulate("fantan/pagat", 3, bots=["sensible"], seed=3, workers=1, player=rs.play_match)
    for r in sim.records:
        assert r.standings[-1] == [float(x) for x in r.deals_won]  # highest(deals_won): deals won
        assert rs.leaders(r.standings[-1]) == frozenset({r.winner})
    sim = simulate("chinchon/fournier", 2, bots=["heuristic"], seed=3, workers=1, player=rs.play_match)
    for r in sim.records:  # out above 100, no winner rule: minus the total of the players still in
        last = r.standings[-1]
        assert last[r.winner] == -r.totals[r.winner] and all(v is None for s, v in enumerate(last) if s != r.winner)


def test_lead_changes_decisiveness_and_drama_on_a_written_match():
    # seat 1 leads after deal 1, seat 0 catches up (shared lead), then leads alone and wins
    standings = [[0.0, 1.0, 0.0], [1.0, 1.0, 0.0], [2.0, 1.0, 0.0], [3.0, 1.0, 1.0]]
    assert rs.lead_changes(standings) == 2  # {1} -> {0, 1} -> {0} -> {0}
    assert rs.decisiveness(standings, 0) == 3 / 4  # alone in front for good from deal 3 of 4
    share, gap = rs.drama(standings, 0)
    assert share == 1 / 3 and gap == 1.0  # behind at one of the three deal ends before the last, by 1
    assert rs.decisiveness(standings, -1) is None and rs.drama(standings[:1], 0) is None
    assert rs.leaders([None, 5.0, 5.0]) == frozenset({1, 2})  # seat 0 is out


rows = st.lists(st.lists(st.integers(-5, 5), min_size=3, max_size=3), min_size=1, max_size=12)


@given(rows, st.integers(0, 2))
def test_the_tension_measures_stay_in_their_ranges(raw, winner):
    standings = [[float(x) for x in row] for row in raw]
    assert 0 <= rs.lead_changes(standings) <= len(standings) - 1
    d = rs.decisiveness(standings, winner)
    assert d is not None and 0 < d <= 1
    found = rs.drama(standings, winner)
    if len(standings) > 1:
        assert found is not None and 0 <= found[0] <= 1 and found[1] >= 0


@given(st.integers(0, 200), st.integers(1, 200), st.integers(0, 200), st.integers(1, 200))
def test_the_difference_of_two_rates_and_its_interval(x1, n1, x2, n2):
    a, b = rs.proportion(min(x1, n1), n1), rs.proportion(min(x2, n2), n2)
    d, low, high = rs.diff_proportions(a, b)
    assert low <= d <= high and -1 <= low and high <= 1
    back = rs.diff_proportions(b, a)
    assert back[0] == pytest.approx(-d) and back[1] == pytest.approx(-high) and back[2] == pytest.approx(-low)


def _arm(label, wins, n, deals):
    stats = {
        key: rs.mean_interval([0.0] * n)
        for key in (
            "busts_per_match",
            "void_deals_per_match",
            "lead_changes",
            "lead_changes_per_deal",
            "decisiveness",
            "drama_share",
            "branching",
            "forced",
            "actions_per_deal",
        )
    }
    stats.update(
        first_player=rs.proportion(wins, n),
        draws=rs.proportion(0, n),
        stalled_matches=rs.proportion(0, n),
        deals_per_match=rs.mean_interval([float(x) for x in deals]),
    )
    return {"label": label, "stats": stats}


def test_each_difference_comes_with_its_interval_and_a_verdict_in_words():
    a, b = _arm("a", 310, 1000, [3, 4] * 500), _arm("b", 260, 1000, [3, 4] * 500)
    rows = {r["metric"]: r for r in compare_arms(a, b)}
    first = rows["first_player"]
    assert first["real"] and first["low"] < first["difference"] < first["high"] < 0
    assert first["text"].startswith("fewer first-player wins: 31.0 % → 26.0 %, the difference is real at 95 %")
    assert rows["deals_per_match"]["text"].startswith("the same deals per match")
    assert "busts_per_match" not in rows  # none on either side: nothing to say
    close = {r["metric"]: r for r in compare_arms(a, _arm("c", 300, 1000, [3, 4] * 500))}["first_player"]
    assert not close["real"] and "could be chance at 95 %" in close["text"]


def test_the_skill_verdict_says_when_skill_matters_little():
    def rung(bot, wins, n=400, default=False):
        return {"bot": bot, "rate": rs.proportion(wins, n), "default": default}

    flat = [rung("random", 95), rung("sensible", 100, default=True), rung("ismcts:iterations=40", 104)]
    assert skill_verdict(flat, 0.25).startswith("skill matters little here")
    steep = [rung("random", 20), rung("sensible", 100, default=True), rung("ismcts:iterations=40", 160)]
    assert skill_verdict(steep, 0.25).startswith("skill matters: ismcts:iterations=40 wins 40.0 %")


def test_a_sweep_is_one_arm_per_value():
    arms = arms_from(["fantan/pagat"], {"ace": "low"}, {"wins_to": ["1", "2"]})
    assert [a.label for a in arms] == ["fantan/pagat ace=low wins_to=1", "fantan/pagat ace=low wins_to=2"]
    with pytest.raises(Exception, match="exactly one variant"):
        arms_from(["fantan/pagat", "fantan/nines"], {}, {"wins_to": ["1"]})
    found = run_report([Arm("fantan/pagat", {"wins_to": 1}), Arm("fantan/pagat", {"wins_to": 3})], 20, ladder=False)
    data = found.data
    assert [a["label"] for a in data["arms"]] == ["fantan/pagat wins_to=1", "fantan/pagat wins_to=3"]
    rows = {r["metric"]: r for r in data["comparisons"][0]["rows"]}
    assert rows["deals_per_match"]["real"] and rows["deals_per_match"]["difference"] > 0  # more deals to 3 wins
    assert data["arms"][0]["stats"]["deals_per_match"]["mean"] == 1.0  # one deal win takes the match


# (matches an arm, matches a rung of the ladder) of the report the command's tests read
REPORT_SIZES = {"everyday": (4, 2), "full": (12, 4)}


@pytest.fixture(scope="module", params=["everyday", pytest.param("full", marks=pytest.mark.slow)])
def written(request, tmp_path_factory):
    """One small report through the command line, as a designer runs it (two arms, a tiny ladder, two workers).

    The everyday one is as small as fills every part of the page, 4 matches an arm and 2 a rung (most of its
    time is the command's start, its statistics library and the plots); the slow tier's has 12 and 4."""
    games, rung = REPORT_SIZES[request.param]
    folder = tmp_path_factory.mktemp("report")
    args = ["report", "fantan/pagat", "fantan/nines", "-n", str(games), "--ladder-games", str(rung), "--budgets", "2,4"]
    args += ["--workers", "2", "--out", str(folder / "r.html"), "--json", str(folder / "r.json"), "--quiet"]
    proc = subprocess.run([sys.executable, "-m", "tapete", *args], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return folder, proc.stdout, games


def test_the_command_writes_the_page_its_markdown_twin_and_the_json(written):
    folder, out, games = written
    data = json.loads((folder / "r.json").read_text(encoding="utf-8"))
    assert data["type"] == "tapete-report" and [a["variant"] for a in data["arms"]] == ["fantan/pagat", "fantan/nines"]
    for arm in data["arms"]:
        assert arm["stats"]["matches"] == games
        assert [r["bot"] for r in arm["ladder"]] == ["random", "sensible", "ismcts:iterations=2", "ismcts:iterations=4"]
        assert "skill" in arm
    assert data["comparisons"][0]["rows"] and all("at 95 %" in r["text"] for r in data["comparisons"][0]["rows"])
    assert out.splitlines()[0].startswith("* fantan/pagat: the first player wins")
    page = (folder / "r.html").read_text(encoding="utf-8")
    assert page.count('src="data:image/png;base64,') == 7 and "http" not in page.split("<body>")[1]
    for name in ("lead changes", "decisiveness", "drama", "branching factor", "forced moves", "intervals"):
        assert f"<dt>{name}</dt>" in page
    md = (folder / "r.md").read_text(encoding="utf-8")
    for image in ("order", "seats", "deals", "moves", "tension", "decisions", "ladder"):
        assert f"](r_files/plot-{image}.png)" in md and (folder / "r_files" / f"plot-{image}.png").stat().st_size
    assert "## Differences" in md and "| first player wins |" in md


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.browser
@pytest.mark.parametrize("written", ["everyday"], indirect=True)  # the page is the same at either size
def test_the_page_opens_offline_in_a_browser_with_every_plot(written):
    sync_api = pytest.importorskip("playwright.sync_api", reason="the browser test needs playwright (the web extra)")
    browser_path = _chromium()
    if browser_path is None:
        unavailable("no chromium on this machine (.ci/run installs Debian's when it is missing)")
    folder, _, _ = written
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        page = browser.new_page()
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("request", lambda r: problems.append(r.url) if not r.url.startswith(("file:", "data:")) else None)
        page.goto((folder / "r.html").as_uri())
        sizes = page.evaluate("[...document.querySelectorAll('img.plot')].map(i => [i.id, i.complete, i.naturalWidth])")
        title = page.title()
        browser.close()
    assert title == "tapete report: fantan/pagat vs fantan/nines"
    assert [s[0] for s in sizes] == [f"plot-{n}" for n in PLOTS]
    assert all(done and width > 100 for _, done, width in sizes)
    assert problems == []


@pytest.mark.slow  # a local Dask cluster: the slow tier
def test_dask_plays_the_same_report():
    pytest.importorskip("distributed")
    arms = [Arm("fantan/pagat")]
    here = run_report(arms, 6, ladder=False, workers=1).data["arms"][0]["stats"]
    there = run_report(arms, 6, ladder=False, workers=2, scheduler="local").data["arms"][0]["stats"]
    assert here == there


def test_a_report_needs_its_plots_library_and_says_so(tmp_path):
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"
        "from tapete.cli import app\n"
        f"app(['report', 'fantan/pagat', '-n', '2', '--no-ladder', '--out', {str(tmp_path / 'x.html')!r}])"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "pip install 'tapete[plot]'" in proc.stderr
    assert not (tmp_path / "x.html").exists()


def test_the_docs_screenshot_is_there():
    assert (Path(__file__).resolve().parent.parent / "docs" / "report.png").stat().st_size > 10_000


def test_the_docs_define_every_figure_the_report_defines():
    from tapete.design.report import DEFINITIONS

    page = (Path(__file__).resolve().parent.parent / "docs" / "report.md").read_text(encoding="utf-8")
    for name in DEFINITIONS:
        if name != "intervals":
            assert f"| {name.split(',')[0]}" in page or f"| {name}" in page, name
    assert "Newcombe" in page and "Wilson" in page and "Welch" in page


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["-n", "0"], "--games must be a whole number from 1 to 1,000,000, not 0"),
        (["--budgets", "2,x"], "--budgets"),
        (["--budgets", "0"], "--budgets"),
        (["--seed", "9" * 5000], "--seed takes a whole number or a word"),
        (["--ladder-games", "0"], "from 1 to 1,000,000"),
    ],
)
def test_bad_numbers_get_one_clear_line_and_no_report(tmp_path, args, words):
    out = tmp_path / "r.html"
    proc = subprocess.run(
        [sys.executable, "-m", "tapete", "report", "fantan/pagat", *args, "--out", str(out), "--quiet"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode != 0 and words in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not out.exists()
