"""The report's pages: a self-contained HTML file (plots embedded as PNG) and its Markdown twin.

The HTML opens offline: its styles are inline and every plot is a ``data:`` image, so the
file can be mailed or archived alone. The Markdown twin has the same words and tables and
points at the same plots written as PNG files into a folder beside it. matplotlib (the
``plot`` extra) draws the plots; nothing else in tapete needs it.
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import Any

from ..core.errors import TapeteError
from ..core.outputs import REPORT_HTML, REPORT_MD, REPORT_PLOTS, Outputs, first_line, generator
from .report import DEFINITIONS, NAMES, fmt

PLOTS = ("order", "seats", "deals", "moves", "tension", "decisions", "ladder")
CAPTIONS = {
    "order": "Win rate by place in the first deal's playing order (95 % Wilson intervals; dotted: fair share)",
    "seats": "Win rate by seat (95 % Wilson intervals; dotted: fair share)",
    "deals": "Match length: deals per match",
    "moves": "Deal length: moves per deal",
    "tension": "Lead changes per match, decisiveness and drama (means with 95 % intervals)",
    "decisions": "Decisions: legal moves per decision (branching factor) and the share of forced moves",
    "ladder": "Skill ladder: win rate of one seat played by each bot against the default bot (95 % intervals)",
}


def check_plotting() -> None:
    """The libraries the report needs, checked before any match is played."""
    try:
        import matplotlib  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    except ImportError:
        raise TapeteError("tapete report draws its plots with matplotlib: pip install 'tapete[plot]'") from None
    try:
        import scipy  # type: ignore[import-untyped,unused-ignore]  # noqa: F401
        import statsmodels  # type: ignore[import-untyped,unused-ignore]  # noqa: F401
    except ImportError:
        raise TapeteError(
            "tapete report tests and corrects its verdicts with SciPy and statsmodels: pip install 'tapete[stats]'"
        ) from None


def draw(data: dict[str, Any]) -> dict[str, bytes]:
    """Every plot of the report as PNG bytes, by name."""
    import matplotlib  # type: ignore[import-not-found,unused-ignore]

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # type: ignore[import-not-found,unused-ignore]

    arms = data["arms"]
    out: dict[str, bytes] = {}

    def save(name: str, fig: Any) -> None:
        buf = io.BytesIO()
        fig.tight_layout()
        fig.savefig(buf, format="png", dpi=90, metadata={"Software": generator("report")})
        plt.close(fig)
        out[name] = buf.getvalue()

    width = 0.8 / max(1, len(arms))
    for name, key, xlabel in (("order", "positions", "place in the playing order"), ("seats", "seats", "seat")):
        fig, ax = plt.subplots(figsize=(7, 3.6))
        for k, arm in enumerate(arms):
            rows = arm["stats"][key]
            xs = [i + (k - (len(arms) - 1) / 2) * width for i in range(len(rows))]
            rates = [100 * (r["mean"] or 0) for r in rows]
            errs = [
                [100 * ((r["mean"] or 0) - r["low"]) for r in rows],
                [100 * (r["high"] - (r["mean"] or 0)) for r in rows],
            ]
            ax.bar(xs, rates, width, yerr=errs, capsize=3, label=arm["label"])
            ax.axhline(100 * arm["fair_share"], color="grey", linestyle=":", linewidth=1)
        n = max(len(a["stats"][key]) for a in arms)
        ax.set_xticks(range(n))
        ax.set_xticklabels([str(i + 1) if key == "positions" else str(i) for i in range(n)])
        ax.set_xlabel(xlabel)
        ax.set_ylabel("% of matches won")
        ax.legend(fontsize="small")
        save(name, fig)
    for name, key, xlabel in (("deals", "deals_hist", "deals in the match"), ("moves", "deal_length_hist", "moves")):
        fig, ax = plt.subplots(figsize=(7, 3.4))
        for arm in arms:
            hist = arm["stats"][key]
            total = sum(hist.values()) or 1
            xs = [int(x) for x in hist]
            ys = [100 * c / total for c in hist.values()]
            if name == "moves" and len(xs) > 40:  # long deals: bins of equal width
                ax.hist(xs, bins=30, weights=ys, histtype="step", linewidth=1.5, label=arm["label"])
            else:
                ax.step(xs, ys, where="mid", label=arm["label"])
        ax.set_xlabel(xlabel)
        ax.set_ylabel(f"% of {'matches' if name == 'deals' else 'deals'}")
        ax.legend(fontsize="small")
        save(name, fig)
    fig, axes = plt.subplots(1, 3, figsize=(10, 3.2))
    for ax, key, scale, title in (
        (axes[0], "lead_changes", 1, "lead changes per match"),
        (axes[1], "decisiveness", 100, "decisiveness (% of deals)"),
        (axes[2], "drama_share", 100, "drama (% of deal ends behind)"),
    ):
        _bars(ax, arms, key, scale, title, legend=ax is axes[0])
    save("tension", fig)
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.2))
    _bars(axes[0], arms, "branching", 1, "legal moves per decision", legend=True)
    _bars(axes[1], arms, "forced", 100, "forced moves (%)")
    save("decisions", fig)
    fig, ax = plt.subplots(figsize=(7, 3.4))
    for k, arm in enumerate(arms):
        rungs = arm["ladder"]
        xs = [i + (k - (len(arms) - 1) / 2) * width for i in range(len(rungs))]
        rates = [100 * (r["rate"]["mean"] or 0) for r in rungs]
        errs = [
            [100 * ((r["rate"]["mean"] or 0) - r["rate"]["low"]) for r in rungs],
            [100 * (r["rate"]["high"] - (r["rate"]["mean"] or 0)) for r in rungs],
        ]
        ax.bar(xs, rates, width, yerr=errs, capsize=3, label=arm["label"])
        ax.axhline(100 * arm["fair_share"], color="grey", linestyle=":", linewidth=1)
    rung_names = [r["bot"] for r in arms[0]["ladder"]] if arms[0]["ladder"] else ["(no ladder played)"]
    ax.set_xticks(range(len(rung_names)))
    ax.set_xticklabels(rung_names, fontsize="small")
    ax.set_ylabel("% of matches won by the seat")
    ax.legend(fontsize="small")
    save("ladder", fig)
    return out


def _bars(ax: Any, arms: list[dict[str, Any]], key: str, scale: float, title: str, legend: bool = False) -> None:
    labels, means, lows, highs = [], [], [], []
    for arm in arms:
        m = arm["stats"][key]
        labels.append(arm["label"])
        means.append(scale * (m["mean"] or 0))
        lows.append(scale * ((m["mean"] or 0) - (m["low"] if m["low"] is not None else m["mean"] or 0)))
        highs.append(scale * ((m["high"] if m["high"] is not None else m["mean"] or 0) - (m["mean"] or 0)))
    for i, label in enumerate(labels):
        ax.bar([i], [means[i]], yerr=[[lows[i]], [highs[i]]], capsize=3, color=f"C{i}", label=label)
    ax.set_xticks(range(len(arms)))
    ax.set_xticklabels([str(i + 1) for i in range(len(arms))])
    ax.set_title(title, fontsize="medium")
    ax.set_xlabel("arm")
    if legend:
        ax.legend(fontsize="x-small", loc="lower right")


# -- tables -----------------------------------------------------------------------------------
def _interval(m: dict[str, Any], kind: str) -> str:
    if m.get("mean") is None:
        return "-"
    return f"{fmt(m['mean'], kind)} ({fmt(m['low'], kind)} to {fmt(m['high'], kind)})"


ROWS = [
    ("matches", "matches played", None),
    ("first_player", "first player wins", "pct"),
    ("draws", "draws", "pct"),
    ("deals_per_match", "deals per match", "num"),
    ("actions_per_deal", "moves per deal", "num"),
    ("busts_per_match", "busts per match", "num"),
    ("reentries_per_match", "re-entries per match", "num"),
    ("void_deals_per_match", "void deals per match", "num"),
    ("stalled_matches", "stalled matches", "pct"),
    ("lead_changes", "lead changes per match", "num"),
    ("lead_changes_per_deal", "lead changes per deal", "num"),
    ("decisiveness", "decisiveness (share of deals)", "pct"),
    ("drama_share", "drama: deal ends the winner trailed", "pct"),
    ("drama_gap", "how far behind, when behind", "num"),
    ("branching", "legal moves per decision", "num"),
    ("forced", "forced moves", "pct"),
]


def table_rows(data: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The main table: one row per figure, one column per arm."""
    head = ["", *(a["label"] for a in data["arms"])]
    rows = []
    for key, name, kind in ROWS:
        cells = [name]
        for arm in data["arms"]:
            s = arm["stats"]
            if kind is None:
                cells.append(str(s["matches"]))
            else:
                unit = f" {arm['unit']}" if key == "drama_gap" and s[key]["mean"] is not None else ""
                cells.append(_interval(s[key], kind) + unit)
        rows.append(cells)
    return head, rows


def ladder_rows(data: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    head = ["seat 0 played by", *(a["label"] for a in data["arms"])]
    bots = list(dict.fromkeys(r["bot"] for a in data["arms"] for r in a["ladder"]))
    rows = []
    for bot in bots:
        cells = [bot]
        for arm in data["arms"]:
            rung = next((r for r in arm["ladder"] if r["bot"] == bot), None)
            cells.append(_interval(rung["rate"], "pct") if rung else "-")
        rows.append(cells)
    return head, rows


def seat_rows(data: dict[str, Any], key: str) -> tuple[list[str], list[list[str]]]:
    n = max(len(a["stats"][key]) for a in data["arms"])
    head = ["place" if key == "positions" else "seat", *(a["label"] for a in data["arms"])]
    rows = []
    for i in range(n):
        label = str(i + 1) if key == "positions" else str(i)
        rows.append(
            [label, *(_interval(a["stats"][key][i], "pct") if i < len(a["stats"][key]) else "-" for a in data["arms"])]
        )
    return head, rows


# -- pages ------------------------------------------------------------------------------------
CSS = """
body { font-family: -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; max-width: 62em;
       margin: 1.5em auto; padding: 0 1em; color: #222; line-height: 1.4; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; margin-top: 1.8em; font-size: 1.25em; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; vertical-align: top; }
th:first-child, td:first-child { text-align: left; }
.summary li { margin: 0.35em 0; } .real { color: #0a5; } .chance { color: #777; }
figure { margin: 1em 0; } figure img { max-width: 100%; } figcaption { font-size: 0.9em; color: #555; }
dt { font-weight: bold; margin-top: 0.5em; } .meta { color: #555; font-size: 0.9em; }
"""


def _html_table(head: list[str], rows: list[list[str]]) -> str:
    e = html.escape
    out = ["<table><thead><tr>", *(f"<th>{e(h)}</th>" for h in head), "</tr></thead><tbody>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _md_table(head: list[str], rows: list[list[str]]) -> list[str]:
    def cell(c: str) -> str:
        return c.replace("|", "\\|")

    lines = ["| " + " | ".join(cell(h) for h in head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return lines


def _meta(data: dict[str, Any]) -> str:
    arms = data["arms"]
    bots = "; ".join(f"{a['label']}: {a['players']} players, bots {','.join(a['bots'])}" for a in arms)
    ladder = (
        f"; skill ladder {data['ladder_games']} matches per rung, ismcts budgets {', '.join(map(str, data['budgets']))}"
        if data["ladder_games"]
        else "; no skill ladder"
    )
    head = f"{data['games']} seeded matches per arm (seed {data['seed']}){ladder}"
    return f"{head}. {bots}. tapete {data['tapete']}, {data['seconds']:.0f} s."


def render_html(data: dict[str, Any], plots: dict[str, bytes]) -> str:
    e = html.escape
    title = "tapete report: " + " vs ".join(a["label"] for a in data["arms"])
    body = [f"<h1>{e(title)}</h1>", f'<p class="meta">{e(_meta(data))}</p>', "<h2>Summary</h2>", '<ul class="summary">']
    body += [f"<li>{e(line)}</li>" for line in data["summary"]]
    body.append("</ul>")
    if data["comparisons"]:
        body.append("<h2>Differences</h2>")
        for cmp in data["comparisons"]:
            body.append(f"<p>{e(cmp['b'])} against {e(cmp['a'])}:</p><ul>")
            for row in cmp["rows"]:
                cls = "real" if row["real"] else "chance"
                body.append(f'<li class="{cls}">{e(row["text"])}</li>')
            body.append("</ul>")
    body += ["<h2>All figures</h2>", _html_table(*table_rows(data))]
    sections = report_sections(data)
    for title_, names, tables in sections:
        body.append(f"<h2>{e(title_)}</h2>")
        if title_ == "Skill":
            body += [
                f"<p>{e(a['label'])}: {e(a.get('skill', 'no skill ladder was played'))}.</p>" for a in data["arms"]
            ]
        for table in tables:
            body.append(_html_table(*table))
        for name in names:
            src = base64.b64encode(plots[name]).decode("ascii")
            body.append(
                f'<figure><img id="plot-{name}" class="plot" alt="{e(CAPTIONS[name])}" '
                f'src="data:image/png;base64,{src}"><figcaption>{e(CAPTIONS[name])}</figcaption></figure>'
            )
    body.append("<h2>How each figure is defined</h2><dl>")
    for name, text in DEFINITIONS.items():
        body.append(f"<dt>{e(name)}</dt><dd>{e(text)}</dd>")
    body.append("</dl>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="generator" content="{e(generator("report"))}">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{e(title)}</title>'
        f"<style>{CSS}</style></head>\n<body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


def report_sections(data: dict[str, Any]) -> list[tuple[str, list[str], list[Any]]]:
    """The report's sections in order, the same in the page and its Markdown twin: a title,
    its plots and its tables."""
    return [
        ("Fairness", ["order", "seats"], [seat_rows(data, "positions"), seat_rows(data, "seats")]),
        ("Length", ["deals", "moves"], []),
        ("Tension: lead changes, decisiveness, drama", ["tension"], []),
        ("Decisions", ["decisions"], []),
        ("Skill", ["ladder"], [ladder_rows(data)] if any(a["ladder"] for a in data["arms"]) else []),
    ]


def render_markdown(data: dict[str, Any], plot_dir: str) -> str:
    title = "tapete report: " + " vs ".join(a["label"] for a in data["arms"])
    lines = [first_line("report").rstrip("\n"), f"# {title}", "", _meta(data), "", "## Summary", ""]
    lines += [f"- {line}" for line in data["summary"]]
    lines.append("")
    if data["comparisons"]:
        lines += ["## Differences", ""]
        for cmp in data["comparisons"]:
            lines += [f"{cmp['b']} against {cmp['a']}:", ""]
            lines += [f"- {'**' if r['real'] else ''}{r['text']}{'**' if r['real'] else ''}" for r in cmp["rows"]]
            lines.append("")
    lines += ["## All figures", "", *_md_table(*table_rows(data)), ""]
    sections = report_sections(data)
    for title_, names, tables in sections:
        lines += [f"## {title_}", ""]
        if title_ == "Skill":
            lines += [f"- {a['label']}: {a.get('skill', 'no skill ladder was played')}." for a in data["arms"]]
            lines.append("")
        for table in tables:
            lines += [*_md_table(*table), ""]
        for name in names:
            lines += [f"![{CAPTIONS[name]}]({plot_dir}/plot-{name}.png)", ""]
    lines += ["## How each figure is defined", ""]
    lines += [f"- **{name}**: {text}" for name, text in DEFINITIONS.items()]
    return "\n".join(lines).rstrip() + "\n"


def plan_pages(outputs: Outputs, html_path: Path, md_path: Path | None = None) -> tuple[Path, Path, Path]:
    """Claim the page, its Markdown twin (named, or ``--out`` with ``.md``) and the twin's plots
    folder (``<name>_files/``) before any match is played: each is judged as any output is."""
    outputs.add(html_path, REPORT_HTML, "--out")  # first: a folder named as --out has no twin to derive
    md_named = md_path is not None
    md_path = md_path if md_path is not None else html_path.with_suffix(".md")
    folder = md_path.parent / f"{md_path.stem}_files"
    outputs.add(md_path, REPORT_MD, "--md" if md_named else "the Markdown twin of --out (name it with --md)")
    outputs.add(folder, REPORT_PLOTS, "the plots folder of the Markdown twin", [f"plot-{n}.png" for n in PLOTS])
    return html_path, md_path, folder


def write_pages(data: dict[str, Any], outputs: Outputs, pages: tuple[Path, Path, Path]) -> tuple[Path, Path]:
    """The HTML page, and its Markdown twin with the plots as PNG files in its folder (`plan_pages`)."""
    check_plotting()
    html_path, md_path, folder = pages
    plots = draw(data)
    outputs.write(html_path, render_html(data, plots))
    for name, png in plots.items():
        outputs.write_in(folder, f"plot-{name}.png", png)
    outputs.write(md_path, render_markdown(data, folder.name))
    return html_path, md_path


__all__ = [
    "CAPTIONS",
    "NAMES",
    "PLOTS",
    "check_plotting",
    "draw",
    "plan_pages",
    "render_html",
    "render_markdown",
    "write_pages",
]
