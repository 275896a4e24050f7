"""The report's verdicts say their error rate: corrected over every comparison, per-deal figures by match.

A designer stakes a decision on "the difference is real at 95 %". These checks are what
that rests on: the hand-written intervals agree with SciPy's and statsmodels' on random
inputs; a verdict is corrected for the number of measures compared (Holm) or of arms swept
(Benjamini-Hochberg) and the report says which, with the count; moves per deal get an
interval with the match as the unit; the summary flags a seat its own table shows out of
line; and the 300-match verdicts of the issue's two pairs are never contradicted by the same
run carried on to 1,000 matches (the figures of bench/report_replay.py, recorded).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.design import report_stats as rs
from tapete.design.report import Arm, compare_arms, correct, run_report, seat_flags
from tapete.simulation.stats import wilson

REPLAY = Path(__file__).resolve().parent.parent / "bench" / "report_replay.json"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 300), st.integers(1, 300), st.integers(0, 300), st.integers(1, 300))
def test_wilson_and_newcombe_agree_with_statsmodels(x1, n1, x2, n2):
    from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

    x1, x2 = min(x1, n1), min(x2, n2)
    assert wilson(x1, n1) == pytest.approx(proportion_confint(x1, n1, method="wilson"), abs=1e-9)
    a, b = rs.proportion(x1, n1), rs.proportion(x2, n2)
    _, low, high = rs.diff_proportions(a, b)
    lib = confint_proportions_2indep(x2, n2, x1, n1, method="newcomb", compare="diff")
    assert (low, high) == pytest.approx(lib, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 300), st.integers(1, 300), st.integers(0, 300), st.integers(1, 300))
def test_the_p_value_of_a_rate_difference_says_what_its_interval_says(x1, n1, x2, n2):
    """Below 5 % exactly when Newcombe's 95 % interval leaves out 0: a verdict and its interval never disagree."""
    a, b = rs.proportion(min(x1, n1), n1), rs.proportion(min(x2, n2), n2)
    _, low, high = rs.diff_proportions(a, b)
    p = rs.p_proportions(a, b)
    assert 0 <= p <= 1
    if low > 1e-6 or high < -1e-6:
        assert p < 0.05
    elif low < -1e-6 and high > 1e-6:
        assert p > 0.05


def test_welch_and_its_p_value_agree_with_statsmodels():
    from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

    rng = random.Random(5)
    for _ in range(40):
        xs = [rng.gauss(3, rng.uniform(0.1, 3)) for _ in range(rng.randint(2, 80))]
        ys = [rng.gauss(3.4, rng.uniform(0.1, 3)) for _ in range(rng.randint(2, 80))]
        a, b = rs.mean_interval(xs), rs.mean_interval(ys)
        d, low, high = rs.diff_means(a, b)
        cm = CompareMeans(DescrStatsW(ys), DescrStatsW(xs))
        assert (low, high) == pytest.approx(cm.zconfint_diff(usevar="unequal"), rel=1e-9)
        assert rs.p_means(a, b) == pytest.approx(cm.ztest_ind(usevar="unequal")[1], rel=1e-9)


def test_moves_per_deal_take_the_match_as_the_unit():
    """Deals of one match are alike (same players, same pace): the interval widens to say so; the mean is
    the pooled one, every deal once, as before."""
    rng = random.Random(3)
    matches = []
    for _ in range(60):
        pace = rng.gauss(40, 8)  # each match its own pace
        matches.append([pace + rng.gauss(0, 1) for _ in range(rng.randint(3, 9))])
    clustered = rs.cluster_mean(matches)
    naive = rs.mean_interval([x for m in matches for x in m])
    assert clustered["mean"] == pytest.approx(naive["mean"])
    assert clustered["high"] - clustered["low"] > 2 * (naive["high"] - naive["low"])
    assert clustered["clusters"] == 60
    alone = [[x] for m in matches for x in m]  # one deal a match: the match is the deal, nothing to widen
    single = rs.cluster_mean(alone)
    assert single["high"] - single["low"] == pytest.approx(naive["high"] - naive["low"], rel=0.01)


def _stats(first_wins: int, n: int = 300, shift: float = 0.0) -> dict:
    rng = random.Random(int(shift * 1000) + first_wins)
    means = {
        key: rs.mean_interval([rng.gauss(1 + shift, 1) for _ in range(n)])
        for key in (
            "deals_per_match",
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
    return {
        "stats": {
            **means,
            "first_player": rs.proportion(first_wins, n),
            "draws": rs.proportion(0, n),
            "stalled_matches": rs.proportion(0, n),
        }
    }


def test_a_difference_real_on_its_own_can_be_chance_once_every_measure_is_counted():
    """Holm over one comparison's measures: a lone p of 0.03 among ten measures is not a verdict."""
    rows = compare_arms(_stats(150), _stats(150, shift=0.0))
    for r in rows:  # make one row just real on its own, the others clearly nothing
        r["p"] = 0.03 if r["metric"] == "first_player" else 0.8
        r["real_alone"] = r["metric"] == "first_player"
    said = correct([rows], "holm")
    row = next(r for r in rows if r["metric"] == "first_player")
    assert not row["real"] and row["p_adjusted"] == pytest.approx(min(1.0, 0.03 * len(rows)))
    assert "could be chance at 95 % once every comparison is counted" in row["text"]
    assert said["method"] == "holm" and said["comparisons"] == len(rows) and "Holm" in said["words"]
    strong = compare_arms(_stats(100), _stats(200))
    first = next(r for r in strong if r["metric"] == "first_player")
    assert first["real"] and first["p_adjusted"] < 0.05 and "real at 95 %" in first["text"]


@pytest.mark.slow  # a sweep of arms, each played: the slow tier (Holm is checked every run)
def test_a_sweep_is_corrected_by_benjamini_hochberg_and_says_so():
    arms = [Arm("fantan/pagat", {"wins_to": w}) for w in (1, 2, 3)]
    data = run_report(arms, 8, ladder=False, workers=1).data
    fix = data["correction"]
    assert fix["method"] == "fdr_bh" and fix["comparisons"] == sum(len(c["rows"]) for c in data["comparisons"])
    assert "Benjamini-Hochberg" in data["summary"][-1] and f"{fix['comparisons']} differences" in data["summary"][-1]
    two = run_report(arms[:2], 8, ladder=False, workers=1).data
    assert two["correction"]["method"] == "holm" and "Holm" in two["summary"][-1]


def test_the_summary_flags_a_seat_its_table_shows_out_of_line():
    """The issue's case: seat 2 at 39 % (30 to 48.8 %) of 100 four-player matches, the fair share 25 %."""
    seats = [rs.proportion(w, 100) for w in (20, 21, 39, 20)]
    arm = {"label": "fantan/pagat", "fair_share": 0.25, "stats": {"seats": seats}}
    (line,) = seat_flags(arm)
    assert line.startswith("fantan/pagat: seat 2 wins more than its fair share: 39.0 % (30.0 % to 48.8 %")
    assert "real at 95 % after Holm's correction over the seats" in line
    fair = {"label": "x", "fair_share": 0.25, "stats": {"seats": [rs.proportion(w, 100) for w in (25, 24, 26, 25)]}}
    assert seat_flags(fair) == []
    edge = [rs.proportion(w, 100) for w in (16, 27, 33, 24)]  # seat 0 just outside its interval alone
    (soft,) = seat_flags({"label": "y", "fair_share": 0.25, "stats": {"seats": edge}})
    assert "seat 0 wins less" in soft and "could be chance once every seat is counted" in soft


def replay() -> dict:
    return json.loads(REPLAY.read_text(encoding="utf-8"))


def test_the_replay_figures_are_the_bench_scripts_and_say_how_they_were_made():
    data = replay()
    assert data["command"] == "python bench/report_replay.py" and data["games"] == 1000 and data["small"] == 300
    names = [(p["a"], p["b"]) for p in data["pairs"]]
    assert names == [("fantan/pagat", "fantan/nines"), ("chinchon/fournier", "chinchon/to-70")]
    for pair in data["pairs"]:
        for arm in pair["arms"]:
            assert arm["small"]["matches"] == 300 and arm["large"]["matches"] == 1000


@pytest.mark.parametrize("pair", [0, 1], ids=["fantan pagat-nines", "chinchon fournier-to-70"])
def test_no_verdict_at_300_matches_is_contradicted_at_1000(pair):
    """A difference called real at 300 matches is real at 1,000, the same way round; at 1,000 the report
    may find more (it has more matches), never fewer of the 300's. Uncorrected, the 300-match run called
    real some differences the 1,000-match run does not find: the correction is what keeps them out."""
    p = replay()["pairs"][pair]
    a, b = p["arms"]
    small = compare_arms({"stats": a["small"]}, {"stats": b["small"]})
    large = {r["metric"]: r for r in compare_arms({"stats": a["large"]}, {"stats": b["large"]})}
    called = [r for r in small if r["real"]]
    assert called, "the 300-match run finds no difference at all: nothing is checked"
    for r in called:
        later = large[r["metric"]]
        assert later["real"] and (later["difference"] > 0) == (r["difference"] > 0), r["metric"]
    uncorrected = [r["metric"] for r in small if r["real_alone"] and not large[r["metric"]]["real_alone"]]
    assert uncorrected  # decisiveness in both pairs, lead changes per deal in Fan Tan: the case
    assert not [m for m in uncorrected if next(r for r in small if r["metric"] == m)["real"]]
