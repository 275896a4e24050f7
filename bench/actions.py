"""Random-play speed of every registered variant: actions/s and deals/s on one core.

    python bench/actions.py [--deals N] [--runs R] [--variant NAME ...] [--plugins K]

Each run plays N seeded deals with random bots through the same loop a match uses
(legal_actions -> choose -> refusal check -> apply). The report is JSON: median,
min and max over R runs. ``--plugins K`` registers K idle extra plugins (house
rules listening to deal events) to show that per-action cost does not depend on
how many plugins are installed.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time

from tapete import Random, build_registry, hookimpl, load_variant
from tapete.core.ledger import Ledger
from tapete.play.deal import start_deal


class _Idle:
    @hookimpl
    def tapete_deal_started(self, match, state):
        pass


def play_deals(variant, players: int, deals: int, seed: int) -> tuple[int, float]:
    game = variant.new_game()
    bot = Random(seed, "bench")
    actions = 0
    start = time.perf_counter()
    for d in range(deals):
        ledger = Ledger(players)
        ledger.deal_number = 1
        state = start_deal(game, players, d % players, Random(seed, d), ledger)
        legal_actions, refusal, apply = game.legal_actions, game.refusal, game.apply
        while not state.over:
            legal = legal_actions(state)
            action = legal[bot.below(len(legal))]
            if refusal(state, action) is not None:
                raise RuntimeError("random bot chose an illegal move")
            apply(state, action)
            actions += 1
    return actions, time.perf_counter() - start


def measure(name: str, deals: int, runs: int, reg) -> dict:
    v = load_variant(name, reg)
    players = v.default_players()
    aps, dps = [], []
    for r in range(runs):
        actions, seconds = play_deals(v, players, deals, seed=r)
        aps.append(actions / seconds)
        dps.append(deals / seconds)
    return {
        "variant": name,
        "players": players,
        "deals_per_run": deals,
        "actions_per_second": _stats(aps),
        "deals_per_second": _stats(dps),
    }


def _stats(xs: list[float]) -> dict:
    return {"median": round(statistics.median(xs), 1), "min": round(min(xs), 1), "max": round(max(xs), 1)}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--variant", action="append")
    p.add_argument("--plugins", type=int, default=0, help="extra idle plugins to register")
    args = p.parse_args(argv)
    reg = build_registry([_Idle() for _ in range(args.plugins)])
    names = args.variant or sorted(reg.variants())
    results = [measure(n, args.deals, args.runs, reg) for n in names]
    json.dump(
        {"python": platform.python_version(), "runs": args.runs, "extra_plugins": args.plugins, "results": results},
        sys.stdout,
        indent=2,
    )
    print()


if __name__ == "__main__":
    main()
