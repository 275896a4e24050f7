"""The cost of showing a seat its part of a deal, on the paths that run for every seat and move.

    python bench/observer_speed.py [--runs R]

Random Chinchón (``chinchon/fournier``, 2 players), the same seeded positions every run, CPU
time of this process (``time.process_time``) per operation, the best of ``--runs`` runs:

* ``record``: `Recorder` apply-and-record of one move, with every seat's history (what the
  match loop pays per move for bots that look) and with ``history=False`` (the learning
  environment);
* ``make_view``: one seat's view of a live deal (copies of everything);
* ``rollout view``: the search's view of an imagined deal (`_RolloutViews`);
* ``observe_seat``: the PettingZoo observation vector of one seat from the state and its memory;
* ``env step``: a whole PettingZoo step of random play (``env.step`` and ``env.last()``, the
  loop of ``env_speed.py``, 3 CPU seconds);
* ``ismcts decision``: one ``ismcts:iterations=60`` decision in Chinchón and one
  ``ismcts:iterations=300`` decision in Fan Tan, from the same positions.

Written to run unchanged on the code before the observer was shared (it calls
``recorder.before``/``after`` where ``Recorder.apply`` does not exist), so a change is
measured by running this file with each checkout's interpreter in alternation.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from env_speed import tapete_steps  # this folder's PettingZoo loop (run from bench/ or by path)

from tapete import Random, load_variant, registry
from tapete.core.rng import derive_seed
from tapete.pettingzoo import env as tapete_env
from tapete.search.ismcts import _RolloutViews
from tapete.view import Recorder, game_facts, make_view

CHINCHON = load_variant("chinchon/fournier")


def moves(seed: int, limit: int = 3000) -> list[Any]:
    deal = CHINCHON.new_deal(2, seed=seed, record=False)
    rng, out = Random(seed), []
    while not deal.over and len(out) < limit:
        legal = deal.legal_actions()
        out.append(legal[rng.below(len(legal))])
        deal.play(out[-1])
    return out


TRACES = [moves(s) for s in range(4)]


def states() -> list[Any]:
    out = []
    for s, trace in enumerate(TRACES[:2]):
        deal = CHINCHON.new_deal(2, seed=s, record=False)
        for a in trace:
            deal.play(a)
            out.append(deal.state.clone())
    return out


STATES = states()


def record(history: bool) -> Callable[[], float]:
    def run() -> float:
        n, spent = 0, 0.0
        for s, trace in enumerate(TRACES):
            deal = CHINCHON.new_deal(2, seed=s, record=False)
            game, state = deal.game, deal.state
            rec = Recorder(game, state, None, None, CHINCHON.options, history=history)
            start = time.process_time()
            for a in trace:
                if hasattr(rec, "apply"):
                    rec.apply(state, a)
                else:  # the code before Recorder.apply
                    mover, before = state.to_move, rec.before(state)
                    rec.after(state, before, mover, a, game.apply(state, a))
            spent += time.process_time() - start
            n += len(trace)
        return spent / n

    return run


def views(rollout: bool) -> Callable[[], float]:
    game = CHINCHON.new_game()
    facts, options = game_facts(game), CHINCHON.options

    def run() -> float:
        cheap = _RolloutViews(game, options)
        start = time.process_time()
        for state in STATES:
            for seat in (0, 1):
                if rollout:
                    cheap.view(state, seat)
                else:
                    make_view(game, state, seat, facts, options, None)
        return (time.process_time() - start) / (2 * len(STATES))

    return run


def observe_seat() -> float:
    e = tapete_env("chinchon/fournier", players=2)
    e.reset(seed=0)
    layout = e.layout
    pins = [{c: z for z, cs in st.zones.items() for c in cs if z in ("hand.0", "discard")} for st in STATES]
    start = time.process_time()
    for state, pinned in zip(STATES, pins, strict=True):
        for seat in (0, 1):
            layout.observe_seat(state, seat, pinned, None)
    return (time.process_time() - start) / (2 * len(STATES))


def env_step() -> float:
    rate, _episodes = tapete_steps("chinchon/fournier", 2, 3.0)
    return 1 / rate


def ismcts(name: str, players: int, iterations: int, decisions: int) -> Callable[[], float]:
    v = load_variant(name)
    game = v.new_game()

    def run() -> float:
        spent, n, seed = 0.0, 0, 0
        while n < decisions:
            deal = v.new_deal(players, seed=seed)
            entry = registry().bot(v.spec.game, game.default_bot)
            bots = [entry.factory(game, s, Random(derive_seed(seed, "bot", s))) for s in range(players)]
            search = registry().bot(v.spec.game, "ismcts").factory(game, 0, Random(seed), iterations=iterations)
            while not deal.over and n < decisions:
                seat, legal = deal.to_move, deal.legal_actions()
                view = deal.view(seat)
                if seat == 0 and len(legal) > 1:
                    start = time.process_time()
                    action = search.choose(view, legal)
                    spent += time.process_time() - start
                    n += 1
                else:
                    action = bots[seat].choose(view, legal)
                deal.play(action)
            seed += 1
        return spent / n

    return run


MEASURES: dict[str, tuple[Callable[[], float], float, str]] = {
    "record, with histories": (record(True), 1e6, "µs/move"),
    "record, history=False": (record(False), 1e6, "µs/move"),
    "make_view": (views(False), 1e6, "µs/view"),
    "rollout view": (views(True), 1e6, "µs/view"),
    "observe_seat": (observe_seat, 1e6, "µs/observation"),
    "env step": (env_step, 1e6, "µs/step"),
    "ismcts decision, chinchon": (ismcts("chinchon/fournier", 2, 60, 30), 1e3, "ms/decision"),
    "ismcts decision, fantan": (ismcts("fantan/pagat", 4, 300, 60), 1e3, "ms/decision"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    for name, (run, scale, unit) in MEASURES.items():
        run()  # warm the caches
        best = min(run() for _ in range(args.runs))
        print(f"{name:28} {best * scale:10.2f} {unit}")


if __name__ == "__main__":
    main()
