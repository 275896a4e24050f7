"""Time per decision of every built-in bot, and the Chinchón bot against its 0.1 self.

    python bench/decisions.py [--deals N] [--runs R]

For each game's default variant, every bot registered for the game (but the
human one) plays N seeded deals at every seat; each ``choose`` call is timed
and the median over R runs of the mean microseconds per decision is printed.

The Chinchón heuristic bot is also timed side by side with the 0.1 version
(``chinchon_bot_v01.py``, which read the whole state): at every position the
new bot reaches, both decide, alternating which goes first, in one process.
Prints JSON. The search bot (``ismcts``) is timed by its own benchmark.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from tapete import Random, load_variant, registry
from tapete.core.rng import derive_seed

sys.path.insert(0, str(Path(__file__).parent))
from chinchon_bot_v01 import HeuristicBot as OldHeuristic

GAMES = {"fantan": "fantan/pagat", "chinchon": "chinchon/fournier", "chinese-ten": "chinese-ten/two-player"}
SKIP = {"human", "ismcts"}


def time_bot(variant_name: str, bot_name: str, deals: int) -> tuple[float, int]:
    v = load_variant(variant_name)
    entry = registry().bot(v.spec.game, bot_name)
    spent, decisions = 0.0, 0
    for seed in range(deals):
        deal = v.new_deal(seed=seed)
        bots = [entry.factory(v.new_game(), s, Random(derive_seed(seed, "bot", s))) for s in range(deal.state.players)]
        observing = getattr(bots[0], "observes", True)
        while not deal.over:
            legal = deal.legal_actions()
            view = deal.view() if observing else None
            t = time.perf_counter()
            action = bots[deal.to_move].choose(view, legal)
            spent += time.perf_counter() - t
            decisions += 1
            deal.play(action)
    return spent / max(decisions, 1) * 1e6, decisions


def chinchon_side_by_side(deals: int) -> dict[str, float]:
    v = load_variant("chinchon/fournier")
    entry = registry().bot("chinchon", "heuristic")
    new_t = old_t = 0.0
    n = same = 0
    for seed in range(deals):
        deal = v.new_deal(seed=seed)
        new = [entry.factory(v.new_game(), s, Random(derive_seed(seed, "bot", s))) for s in range(2)]
        old = [OldHeuristic(deal.game, s, Random(0)) for s in range(2)]
        while not deal.over:
            legal = deal.legal_actions()
            view = deal.view()
            if n % 2:
                t0 = time.perf_counter()
                a = new[deal.to_move].choose(view, legal)
                t1 = time.perf_counter()
                b = old[deal.to_move].choose(deal.game, deal.state, legal)
                t2 = time.perf_counter()
                new_t += t1 - t0
                old_t += t2 - t1
            else:
                t0 = time.perf_counter()
                b = old[deal.to_move].choose(deal.game, deal.state, legal)
                t1 = time.perf_counter()
                a = new[deal.to_move].choose(view, legal)
                t2 = time.perf_counter()
                old_t += t1 - t0
                new_t += t2 - t1
            n += 1
            same += a == b
            deal.play(a)
    return {
        "decisions": n,
        "new_us": round(new_t / n * 1e6, 1),
        "old_us": round(old_t / n * 1e6, 1),
        "speedup": round(old_t / new_t, 2),
        "same_choice": round(same / n, 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    out: dict[str, object] = {}
    reg = registry()
    for game, name in GAMES.items():
        for bot in reg.bot_names(game):
            if bot in SKIP:
                continue
            runs = [time_bot(name, bot, args.deals) for _ in range(args.runs)]
            out[f"{name} {bot}"] = {
                "us_per_decision": round(statistics.median(r[0] for r in runs), 1),
                "decisions": runs[0][1],
            }
    sides = [chinchon_side_by_side(args.deals) for _ in range(args.runs)]
    out["chinchon heuristic: 0.2 vs 0.1"] = {
        "new_us": statistics.median(s["new_us"] for s in sides),
        "old_us": statistics.median(s["old_us"] for s in sides),
        "speedup": statistics.median(s["speedup"] for s in sides),
        "same_choice": sides[0]["same_choice"],
        "decisions": sides[0]["decisions"],
    }
    print(json.dumps(out, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
