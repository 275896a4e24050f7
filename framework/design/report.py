"""``tapete report``: a balance report comparing variants (or one variant over a sweep) on seeded matches.

Each *arm* (a variant with its options) plays the same seeded matches ``tapete simulate``
would play, on every core or on a Dask cluster (`tapete.simulation.plan.simulate`, the
simulation front-end's public function, with the report's measuring player,
`report_stats.play_match`). The report then says what a designer asks of a variant: is it
fair to every seat and playing order, how long deals and matches last, how often deals
stall or void and players bust, how early the winner is known, how often the lead
changes, how far behind winners were, how many moves a player chooses from and how often
the choice is forced, and whether skill matters (a ladder of bots, from random play to a
searching bot at two budgets, each in one seat against the default bot). With two arms or
more, every figure of an arm is compared with the first arm's, with its interval and a
verdict in words.

The numbers are a plain dict (`Report.data`, the ``--json`` file); `report_html` draws and
writes the HTML page and its Markdown twin from it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import TapeteError
from ..core.outputs import REPORT_JSON, Outputs
from ..core.signals import Terminated
from . import report_stats
from .report_stats import arm_stats, diff_means, diff_proportions, proportion

DEFINITIONS = {
    "fairness": "Win rate of each seat and of each place in the first deal's playing order (1 = moved first), "
    "against the fair share 1/players: CardStock's order heuristic and Ludii's AdvantageP1, with Wilson intervals.",
    "deal length": "Moves (actions) in a deal, void deals included; match length is deals per match "
    "(Ludii's DurationMoves and DurationTurns, per deal and per match).",
    "stalls, voids and busts": "A stalled match is one the game stopped because a deal could never end; a void "
    "deal scores nothing and is dealt again; a bust is a player put out of the match (per match).",
    "lead changes": "How often the leader (the seat the variant's winner rule ranks first: most deal wins, "
    "lowest total, ...; ties share the lead) changes from one scored deal to the next, per match "
    "(Ludii's Lead Change, counted per deal end instead of per move).",
    "decisiveness": "The share of a match's scored deals played when the eventual winner took the lead alone "
    "for good: 100 % means only the last deal decided it, lower means the winner was known earlier "
    "(after Ludii's Decisiveness Moves).",
    "drama": "The share of deal ends (before the last) at which the eventual winner was behind the leader, "
    "and how far behind, in the winner rule's units, when they were (Ludii's Drama: the moves and the "
    "severity where the eventual winner was behind).",
    "branching factor": "The mean number of legal moves a player chose from per decision, per match "
    "(Ludii's Branching Factor).",
    "forced moves": "The share of decisions with exactly one legal move (one minus Ludii's Decision Moves).",
    "skill ladder": "The win rate of one seat played by each bot (random play, the game's default bot, "
    "ismcts at two budgets) with the default bot at every other seat, on the same seeds: "
    "CardStock's skill heuristic (AI against random players) as a ladder.",
    "intervals": "95 % intervals: Wilson for a proportion, mean ± 1.96 standard errors for a mean (over "
    "matches; moves per deal with the match as the unit, a cluster-robust standard error), Newcombe's hybrid "
    "score interval for a difference of proportions, Welch's normal interval for a difference of means. "
    "A difference is called real when its p-value, corrected for every comparison of the report (Holm's "
    "method over one comparison's measures, Benjamini-Hochberg over the comparisons of a sweep or of "
    "several variants), is at most 5 %.",
}
# what each arm is compared on: key in arm_stats, kind, the words for "more" and "less", how to show a value
METRICS: list[tuple[str, str, str, str, str]] = [
    ("first_player", "prop", "more first-player wins", "fewer first-player wins", "pct"),
    ("draws", "prop", "more draws", "fewer draws", "pct"),
    ("deals_per_match", "mean", "longer matches", "shorter matches", "deals"),
    ("actions_per_deal", "mean", "longer deals", "shorter deals", "moves"),
    ("busts_per_match", "mean", "more busts", "fewer busts", "num"),
    ("void_deals_per_match", "mean", "more void deals", "fewer void deals", "num"),
    ("stalled_matches", "prop", "more stalled matches", "fewer stalled matches", "pct"),
    ("lead_changes", "mean", "more lead changes", "fewer lead changes", "num"),
    ("lead_changes_per_deal", "mean", "more lead changes per deal", "fewer lead changes per deal", "num"),
    ("decisiveness", "mean", "winners known later", "winners known earlier", "pct"),
    ("drama_share", "mean", "more comebacks", "fewer comebacks", "pct"),
    ("branching", "mean", "more moves to choose from", "fewer moves to choose from", "num"),
    ("forced", "mean", "more forced moves", "fewer forced moves", "pct"),
]
NAMES = {
    "first_player": "first player wins",
    "draws": "draws",
    "deals_per_match": "deals per match",
    "actions_per_deal": "moves per deal",
    "busts_per_match": "busts per match",
    "void_deals_per_match": "void deals per match",
    "stalled_matches": "stalled matches",
    "lead_changes": "lead changes per match",
    "lead_changes_per_deal": "lead changes per deal",
    "decisiveness": "decisiveness",
    "drama_share": "drama (deal ends the winner trailed)",
    "drama_gap": "how far behind the winner was",
    "branching": "branching factor",
    "forced": "forced moves",
}
SKILL_MARGIN = 0.10  # skill depth (the best rung's win rate minus random play's) that "matters"; surely below: "little"


@dataclass
class Arm:
    """One column of the report: a variant and the option values it is played with."""

    variant: str
    options: dict[str, Any] = field(default_factory=dict)
    label: str = ""

    def __post_init__(self) -> None:
        if not self.label:
            opts = " ".join(f"{k}={v}" for k, v in self.options.items())
            self.label = f"{self.variant} {opts}".strip()


@dataclass
class Report:
    data: dict[str, Any]


def fmt(value: float | None, kind: str) -> str:
    """A figure as the report prints it."""
    if value is None:
        return "-"
    if kind == "pct":
        return f"{100 * value:.1f} %"
    if kind == "deals":
        return f"{value:.2f} deals"
    if kind == "moves":
        return f"{value:.1f} moves"
    return f"{value:.2f}"


def _span(d: tuple[float, float, float], kind: str) -> str:
    """'+1.10 points, -3.27 to +5.46': the difference and its interval, with enough digits to tell them apart."""
    scale, unit = (100, " points") if kind == "pct" else (1, "")
    x, lo, hi = (scale * v for v in d)
    places = 2 if max(abs(x), abs(hi - lo)) >= 0.1 else 3 if max(abs(x), abs(hi - lo)) >= 0.01 else 4
    return f"{x:+.{places}f}{unit}, {lo:+.{places}f} to {hi:+.{places}f}"


def compare_arms(base: dict[str, Any], other: dict[str, Any]) -> list[dict[str, Any]]:
    """Every metric of ``other`` against ``base``: the difference, its interval, its p-value and the verdict in
    words, the verdicts corrected by Holm's method over these rows (one comparison's family of measures).

    A report with several comparisons corrects them again, all together (`correct`)."""
    out = []
    for key, kind, more, less, show in METRICS:
        a, b = base["stats"][key], other["stats"][key]
        d = diff_proportions(a, b) if kind == "prop" else diff_means(a, b)
        if d is None:
            continue
        if kind == "mean" and a["mean"] == b["mean"] and not a["sd"] and not b["sd"]:
            continue  # the same constant on both sides (no busts in either): nothing to say
        if kind == "prop" and a["count"] == b["count"] == 0:
            continue  # never happened on either side (no draws, no stalls)
        p = report_stats.p_proportions(a, b) if kind == "prop" else report_stats.p_means(a, b)
        out.append(
            {
                "metric": key,
                "name": NAMES[key],
                "a": a["mean"],
                "b": b["mean"],
                "difference": d[0],
                "low": d[1],
                "high": d[2],
                "p": p,
                "real_alone": d[1] > 0 or d[2] < 0,  # its own 95 % interval leaves out 0, before any correction
                "show": show,
                "words": (more, less),
            }
        )
    correct([out], "holm")
    return out


CORRECTIONS = {
    "holm": "Holm's step-down correction, which keeps the chance of any false verdict among them at 5 %",
    "fdr_bh": "the Benjamini-Hochberg correction, which keeps the expected share of false verdicts among those "
    "called real at 5 %",
}


def correct(families: list[list[dict[str, Any]]], method: str) -> dict[str, Any]:
    """Adjust the p-values of every row of ``families`` together (statsmodels' ``multipletests``) and say
    each verdict: real when the adjusted p-value is at most 5 %. Returns what the report says of it."""
    from statsmodels.stats.multitest import multipletests  # type: ignore[import-untyped]

    rows = [r for rows in families for r in rows]
    if rows:
        reject, adjusted, _, _ = multipletests([r["p"] for r in rows], alpha=0.05, method=method)
        for r, real, q in zip(rows, reject, adjusted, strict=True):
            r["p_adjusted"] = float(q)
            r["real"] = bool(real)
            r["text"] = _verdict(r)
    return {"method": method, "comparisons": len(rows), "words": CORRECTIONS[method]}


def _verdict(r: dict[str, Any]) -> str:
    more, less = r["words"]
    show = r["show"]
    if r["difference"] == 0 and not r["real"]:
        words = f"the same {r['name']}: {fmt(r['a'], show)}"
    else:
        words = f"{more if r['difference'] > 0 else less}: {fmt(r['a'], show)} → {fmt(r['b'], show)}"
    if r["real"]:
        verdict = "the difference is real at 95 %"
    elif r["real_alone"]:
        verdict = "the difference could be chance at 95 % once every comparison is counted"
    else:
        verdict = "the difference could be chance at 95 %"
    span = _span((r["difference"], r["low"], r["high"]), show)
    return f"{words}, {verdict} ({span}; corrected {_p(r['p_adjusted'])})"


def _p(p: float) -> str:
    """'p < 0.0001', 'p = 0.012': a p-value with the digits that tell it from 5 %."""
    if p < 0.0001:
        return "p < 0.0001"
    return f"p = {p:.4f}" if p < 0.01 else f"p = {p:.3f}" if p < 0.1 else f"p = {p:.2f}"


def skill_verdict(ladder: list[dict[str, Any]], fair: float) -> str:
    """What the ladder says about skill, in one sentence."""
    rungs = {r["bot"]: r for r in ladder}
    if len(ladder) < 2:
        return "no skill ladder was played"
    bottom, top = ladder[0], max(ladder[1:], key=lambda r: r["rate"]["mean"] or 0.0)
    d = diff_proportions(bottom["rate"], top["rate"])
    if d is None:
        return "the ladder has no finished matches"
    who = f"the default bot ({top['bot']})" if top.get("default") else top["bot"]
    said = (
        f"{who} wins {fmt(top['rate']['mean'], 'pct')} against the default bot, random play "
        f"{fmt(bottom['rate']['mean'], 'pct')} (fair share {fmt(fair, 'pct')})"
    )
    if d[1] > 0 and d[0] >= SKILL_MARGIN:
        verdict = f"skill matters: {said}"
    elif d[2] < SKILL_MARGIN:
        verdict = f"skill matters little here: {said}; the better player barely wins more"
    elif d[1] > 0:
        verdict = f"skill matters a little: {said}"
    else:
        verdict = f"the ladder's matches cannot tell how much skill matters: {said}"
    search = [r for r in ladder if r["bot"].startswith("ismcts")]
    default = next((r for r in ladder if r.get("default")), None)
    if search and default is not None and rungs:
        best = max(search, key=lambda r: r["rate"]["mean"] or 0.0)
        gain = diff_proportions(default["rate"], best["rate"])
        if gain is not None and gain[2] < 0.0:
            verdict += "; the search plays worse than the default bot at these budgets"
        elif gain is not None and gain[1] <= 0.0:
            verdict += "; the search does not beat the default bot for sure at these budgets"
    return verdict


def run_report(
    arms: Sequence[Arm],
    games: int = 200,
    *,
    players: int | None = None,
    bots: Sequence[str] | None = None,
    seed: object = 1,
    workers: int | None = None,
    scheduler: Any = None,
    ladder_games: int = 20,
    budgets: Sequence[int] = (5, 20),
    ladder: bool = True,
    progress: Callable[[str], Callable[[int, int], None] | None] | None = None,
) -> Report:
    """Play every arm (and its skill ladder) and gather the report's numbers.

    ``progress(label)`` may return a progress callback for the run named ``label``."""
    from ..core.version import __version__
    from ..play.loading import load_variant
    from ..simulation.plan import SimulationError, simulate

    if not arms:
        raise TapeteError("a report needs at least one variant")
    if games < 1 or ladder_games < 1:
        raise TapeteError("--games and --ladder-games must be 1 or more")
    start = time.perf_counter()
    client, cluster = _dask(scheduler, workers)
    shown: list[dict[str, Any]] = []
    try:
        for arm in arms:
            v = load_variant(arm.variant, options=dict(arm.options))
            default = v.record.default_bot  # the game's own best bot (Scopa's counting bot, not Chinese Ten's)
            seat_bots = list(bots) if bots else [default]
            label = arm.label
            run = _run(simulate, arm, games, players, seat_bots, seed, workers, client or scheduler, progress, label)
            records = run.records
            report_stats.check_records(records)
            n = run.plan.players
            stats = arm_stats(records, n)
            unit = report_stats.standing_rule(v)[2]
            entry: dict[str, Any] = {
                "label": label,
                "variant": v.name,
                "options": dict(arm.options),
                "players": n,
                "bots": run.plan.bots,
                "seed": str(seed),
                "games": games,
                "seconds": round(run.seconds, 3),
                "stopped": run.stopped,
                "unit": unit,
                "fair_share": 1 / n,
                "stats": stats,
                "ladder": [],
            }
            if ladder:
                entry["ladder"] = _ladder(
                    simulate, arm, n, default, budgets, ladder_games, seed, workers, client or scheduler, progress
                )
                entry["skill"] = skill_verdict(entry["ladder"], 1 / n)
            shown.append(entry)
    except SimulationError as exc:
        raise TapeteError(f"the report could not be played: {exc}") from None
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    comparisons = [{"a": shown[0]["label"], "b": e["label"], "rows": compare_arms(shown[0], e)} for e in shown[1:]]
    # one comparison: Holm over its measures; several (a sweep, or more variants): Benjamini-Hochberg over all
    correction = correct([c["rows"] for c in comparisons], "holm" if len(comparisons) == 1 else "fdr_bh")
    data = {
        "type": "tapete-report",
        "tapete": __version__,
        "seed": str(seed),
        "games": games,
        "ladder_games": ladder_games if ladder else 0,
        "budgets": list(budgets),
        "arms": shown,
        "comparisons": comparisons,
        "correction": correction,
        "definitions": DEFINITIONS,
        "seconds": round(time.perf_counter() - start, 3),
    }
    data["summary"] = summary_lines(data)
    return Report(data)


def _run(
    simulate: Any,
    arm: Arm,
    games: int,
    players: int | None,
    bots: list[str],
    seed: object,
    workers: int | None,
    scheduler: Any,
    progress: Any,
    label: str,
    player: Any = None,
) -> Any:
    sim = simulate(
        arm.variant,
        games,
        players=players,
        bots=bots,
        options=arm.options,
        seed=seed,
        workers=workers,
        scheduler=scheduler,
        progress=progress(label) if progress else None,
        player=player or report_stats.play_match,
    )
    if sim.stopped == "interrupted":
        raise KeyboardInterrupt
    if sim.stopped == "terminated":  # SIGTERM: the next arm must not start (the command ends on it)
        raise Terminated
    return sim


def _ladder(
    simulate: Any,
    arm: Arm,
    players: int,
    default: str,
    budgets: Sequence[int],
    games: int,
    seed: object,
    workers: int | None,
    scheduler: Any,
    progress: Any,
) -> list[dict[str, Any]]:
    """Each rung's bot at seat 0, the default bot at every other seat, on the same seeds."""
    from ..simulation.plan import play_match

    rungs = ["random", default, *(f"ismcts:iterations={b}" for b in budgets)]
    out = []
    for bot in dict.fromkeys(rungs):
        label = f"{arm.label}: ladder {bot}"
        sim = _run(simulate, arm, games, players, [bot, default], seed, workers, scheduler, progress, label, play_match)
        ok = [r for r in sim.records if r.error is None]
        out.append(
            {
                "bot": bot,
                "default": bot == default,
                "rate": proportion(sum(1 for r in ok if 0 in r.winners), len(ok)),
                "matches": len(ok),
                "seconds": round(sim.seconds, 3),
            }
        )
    return out


def _dask(scheduler: Any, workers: int | None) -> tuple[Any, Any]:
    """One Dask client for the whole report (a ``LocalCluster`` with ``"local"``), so it starts once."""
    if not isinstance(scheduler, str) or not scheduler:
        return None, None
    try:
        import distributed  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise TapeteError("--scheduler needs Dask: pip install 'tapete[dask]' (dask[distributed])") from None
    dist: Any = distributed
    import logging

    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    try:
        if scheduler == "local":
            from ..simulation.plan import default_workers

            cluster = dist.LocalCluster(
                n_workers=workers or default_workers(), threads_per_worker=1, processes=True, dashboard_address=None
            )
            return dist.Client(cluster), cluster
        return dist.Client(scheduler, timeout=10), None
    except (OSError, TimeoutError, ValueError) as exc:
        raise TapeteError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None


def summary_lines(data: dict[str, Any]) -> list[str]:
    """The few sentences at the top of the report: fairness, length, tension and skill of each arm, then the
    differences that are real."""
    lines = []
    for arm in data["arms"]:
        s = arm["stats"]
        fp, fair = s["first_player"], arm["fair_share"]
        edge = "no first-player advantage shows"
        if fp["low"] is not None and fp["low"] > fair:
            edge = "moving first is an advantage"
        elif fp["high"] is not None and fp["high"] < fair:
            edge = "moving first is a disadvantage"
        lines.append(
            f"{arm['label']}: the first player wins {fmt(fp['mean'], 'pct')} "
            f"({fmt(fp['low'], 'pct')} to {fmt(fp['high'], 'pct')}; fair share {fmt(fair, 'pct')}): {edge}. "
            f"Matches last {fmt(s['deals_per_match']['mean'], 'deals')} of "
            f"{fmt(s['actions_per_deal']['mean'], 'moves')}; the winner leads for good after "
            f"{fmt(s['decisiveness']['mean'], 'pct')} of the deals, the lead changes "
            f"{fmt(s['lead_changes']['mean'], 'num')} times a match, and winners trailed at "
            f"{fmt(s['drama_share']['mean'], 'pct')} of deal ends."
            + (f" {arm['skill'][0].upper() + arm['skill'][1:]}." if arm.get("skill") else "")
        )
        lines += seat_flags(arm)
        if s["stalled_matches"]["count"]:
            lines.append(f"{arm['label']}: {s['stalled_matches']['count']} match(es) stalled: {s['first_error']}")
    for cmp in data["comparisons"]:
        real = [r["text"] for r in cmp["rows"] if r["real"]]
        if real:
            lines.append(f"{cmp['b']} against {cmp['a']}: " + "; ".join(real) + ".")
        else:
            lines.append(f"{cmp['b']} against {cmp['a']}: no difference is real at 95 % over these matches.")
    fix = data.get("correction")
    if fix and fix["comparisons"]:
        lines.append(
            f"The verdicts count every comparison made: {fix['comparisons']} differences, corrected together "
            f"with {fix['words']}."
        )
    return lines


def seat_flags(arm: dict[str, Any]) -> list[str]:
    """The seats whose win rate's interval leaves out the fair share, as the seat table shows them, with
    whether the deviation survives Holm's correction over the seats (a binomial test for each)."""
    from scipy.stats import binomtest  # type: ignore[import-untyped]
    from statsmodels.stats.multitest import multipletests

    seats, fair = arm["stats"]["seats"], arm["fair_share"]
    if not seats or not seats[0]["n"]:
        return []
    p = [binomtest(s["count"], s["n"], fair).pvalue for s in seats]
    real = multipletests(p, alpha=0.05, method="holm")[0]
    out = []
    for k, s in enumerate(seats):
        if s["low"] <= fair <= s["high"]:
            continue
        side = "more" if s["mean"] > fair else "less"
        sure = (
            "real at 95 % after Holm's correction over the seats"
            if real[k]
            else "could be chance once every seat is counted (Holm's correction over the seats)"
        )
        out.append(
            f"{arm['label']}: seat {k} wins {side} than its fair share: {fmt(s['mean'], 'pct')} "
            f"({fmt(s['low'], 'pct')} to {fmt(s['high'], 'pct')}; fair share {fmt(fair, 'pct')}), {sure}."
        )
    return out


def arms_from(variants: Sequence[str], options: dict[str, Any], sweep: dict[str, list[Any]]) -> list[Arm]:
    """The arms of a command line: each variant, or one variant at every combination of ``--sweep`` values."""
    import itertools

    if sweep:
        if len(variants) != 1:
            raise TapeteError("--sweep compares one variant over values: name exactly one variant")
        combos = itertools.product(*sweep.values())
        return [Arm(variants[0], {**options, **dict(zip(sweep, combo, strict=True))}) for combo in combos]
    return [Arm(v, dict(options)) for v in variants]


def write_json(path: Path, report: Report, outputs: Outputs | None = None) -> None:
    """Every figure as JSON (its first key, ``"type": "tapete-report"``, marks the kind)."""
    import json

    if outputs is None:
        outputs = Outputs()
        outputs.add(path, REPORT_JSON, "--json")
    outputs.write(path, json.dumps(report.data, indent=1, ensure_ascii=False) + "\n")


__all__ = [
    "Arm",
    "DEFINITIONS",
    "Report",
    "arms_from",
    "compare_arms",
    "correct",
    "run_report",
    "seat_flags",
    "skill_verdict",
    "write_json",
]
