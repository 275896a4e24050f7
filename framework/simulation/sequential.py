"""Runs that play until they know: always-valid confidence sequences for ``--until-decided``.

A report, a skill ladder or a tournament played in rounds, and looked at after every round,
would call a difference real far more often than 5 % of the time if each look used a
fixed-size interval. A *confidence sequence* is an interval for every number of matches at
once: the chance that it ever leaves out the true value, at any round, is at most alpha. So
a run may stop as soon as every difference it was asked about is decided, and the verdicts
keep their stated error.

The sequence used is the asymptotic confidence sequence of Waudby-Smith, Arbour, Sinha,
Kennedy and Ramdas ("Time-uniform central limit theory and asymptotic confidence
sequences", 2021): for the mean of ``n`` independent differences with standard deviation
``s``, the half-width is

    s · √( 2 (n ρ² + 1) / (n² ρ²) · ln( √(n ρ² + 1) / α ) ),

Robbins' normal mixture with ``ρ`` chosen to make it narrowest near ``n_star`` matches. The
differences are paired by match: match *i* of every arm (every rung, every pairing of two
bots) has the same seed, so the difference of match *i* is one observation, and the matches
are independent. Several differences decided together share alpha by Bonferroni (each at
alpha / m), which keeps the chance of any false verdict at alpha whatever the stopping.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

METHOD = (
    "always-valid confidence sequences (the asymptotic normal-mixture sequences of Waudby-Smith et al., 2021) "
    "on the match-by-match differences, each at 5 % / {m} (Bonferroni over the {m} differences asked about), so "
    "looking after every round does not inflate the error"
)


def rho(n_star: int, alpha: float) -> float:
    """The mixture's ρ that makes the sequence narrowest at ``n_star`` observations."""
    a = -2 * math.log(alpha)
    return math.sqrt((a + math.log(a + 1)) / max(n_star, 1))


def half_width(sd: float, n: int, alpha: float, n_star: int) -> float:
    """The half-width of the confidence sequence after ``n`` observations of standard deviation ``sd``."""
    if n < 2:
        return math.inf
    r2 = rho(n_star, alpha) ** 2
    return sd * math.sqrt(2 * (n * r2 + 1) / (n * n * r2) * math.log(math.sqrt(n * r2 + 1) / alpha))


def decide(diffs: Sequence[float], alpha: float, n_star: int) -> dict[str, Any]:
    """Where the sequence stands on the mean of ``diffs``: its interval, whether it leaves out 0, and about how
    many observations in all would make it do so if the mean and spread stay as they are (None: never, for a
    mean of 0)."""
    n = len(diffs)
    mean = sum(diffs) / n if n else 0.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1)) if n > 1 else 0.0
    half = half_width(sd, n, alpha, n_star) if sd > 0 else (0.0 if n > 1 else math.inf)
    decided = half < abs(mean)
    needed: int | None = n
    if not decided:
        needed = None
        if mean != 0 and sd > 0:
            m = max(n, 2)
            while m < 10**9 and half_width(sd, m, alpha, n_star) >= abs(mean):
                m *= 2
            lo, hi = m // 2, m  # the width falls with m: the first m where it is below |mean|
            while lo + 1 < hi:
                mid = (lo + hi) // 2
                lo, hi = (lo, mid) if half_width(sd, mid, alpha, n_star) < abs(mean) else (mid, hi)
            needed = hi if hi < 10**9 else None
    return {"n": n, "mean": mean, "low": mean - half, "high": mean + half, "decided": decided, "needed": needed}


def more_text(state: dict[str, Any]) -> str:
    """'about 1,800 more matches' for an undecided difference, from `decide`."""
    if state["needed"] is None:
        return "no difference shows: more matches would only narrow it towards 0"
    return f"about {max(state['needed'] - state['n'], 1):,} more matches"


__all__ = ["METHOD", "decide", "half_width", "more_text", "rho"]
