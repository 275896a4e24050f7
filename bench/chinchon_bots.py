"""How often the heuristic Chinchón bot beats the random bot.

    python bench/chinchon_bots.py [--matches N] [--variant chinchon/fournier] [--seed S]

Plays N seeded 2-player matches of the variant, the heuristic bot against the
random bot, swapping seats every match so that neither seat deals first more
often; match k uses the seed ``S-k``. Prints JSON: matches, wins of each bot,
the heuristic bot's win rate with a 95% Wilson interval, deals per match and
seconds. Needs the package installed (``pip install -e .`` in the checkout).
"""

from __future__ import annotations

import argparse
import json
import math
import time

from tapete import Match, load_variant


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(centre - half, 4), round(centre + half, 4))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--variant", default="chinchon/fournier")
    ap.add_argument("--seed", default="bench")
    args = ap.parse_args()
    variant = load_variant(args.variant)
    wins = {"heuristic": 0, "random": 0}
    deals = 0
    t0 = time.perf_counter()
    for k in range(args.matches):
        bots = ["heuristic", "random"] if k % 2 == 0 else ["random", "heuristic"]
        result = Match(variant, 2, f"{args.seed}-{k}", bots=bots).play()
        deals += result.deals
        if result.winner >= 0:
            wins[bots[result.winner]] += 1
    n = args.matches
    print(
        json.dumps(
            {
                "variant": variant.name,
                "matches": n,
                "wins": wins,
                "heuristic_win_rate": round(wins["heuristic"] / n, 4) if n else None,
                "wilson95": wilson(wins["heuristic"], n),
                "deals_per_match": round(deals / n, 2) if n else None,
                "seconds": round(time.perf_counter() - t0, 1),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
