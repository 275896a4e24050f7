"""``tapete simulate --plot``: the run's win rates and match lengths as one PNG.

Three panels: win rate by seat and by first-deal playing order (one bar per
sweep value, with the 95 % intervals as error bars) and the distribution of
deals per match. matplotlib is the optional extra ``plot``; nothing else in
tapete imports it.
"""

from __future__ import annotations

import io
from typing import Any

from ..core.outputs import generator
from .plan import Simulation


def draw(sim: Simulation) -> bytes:
    """The PNG, marked as tapete's (its Software text chunk, `tapete.core.outputs`)."""
    import matplotlib  # type: ignore[import-not-found,unused-ignore]

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # type: ignore[import-not-found,unused-ignore]

    summary = sim.summary()
    points = [p for p in summary["points"] if p["matches"]]
    players = summary["players"]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    width = 0.8 / max(1, len(points))
    for k, point in enumerate(points):
        label = " ".join(f"{a}={b}" for a, b in point["values"].items()) or f"{point['matches']} matches"
        for ax, rows in ((axes[0], point["seats"]), (axes[1], point["positions"])):
            xs = [i + (k - (len(points) - 1) / 2) * width for i in range(players)]
            rates = [100 * r["rate"] for r in rows]
            errs = [
                [100 * (r["rate"] - r["low"]) for r in rows],
                [100 * (r["high"] - r["rate"]) for r in rows],
            ]
            ax.bar(xs, rates, width, yerr=errs, capsize=3, label=label)
        deals = [r.deals for r in sim.records if r.point == summary["points"].index(point)]
        axes[2].hist(deals, bins=_bins(deals), alpha=0.55, label=label)
    fair = 100 / players
    _axis(axes[0], "win rate by seat (95% interval)", "seat", [str(s) for s in range(players)], fair)
    _axis(axes[1], "win rate by playing order, first deal", "position", [str(p + 1) for p in range(players)], fair)
    axes[2].set_title("deals per match")
    axes[2].set_xlabel("deals")
    axes[2].set_ylabel("matches")
    axes[2].legend(fontsize="small")
    fig.suptitle(f"{summary['variant']}: {summary['matches']} matches, {players} players")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, metadata={"Software": generator("simulate")})
    plt.close(fig)
    return buf.getvalue()


def _axis(ax: Any, title: str, xlabel: str, ticks: list[str], fair: float) -> None:
    ax.axhline(fair, color="grey", linestyle=":", linewidth=1)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("% of matches won")
    ax.set_xticks(range(len(ticks)))
    ax.set_xticklabels(ticks)
    ax.legend(fontsize="small")


def _bins(values: list[int]) -> list[float]:
    lo, hi = (min(values), max(values)) if values else (0, 1)
    return [x - 0.5 for x in range(lo, hi + 2)]
