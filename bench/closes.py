"""The Chinchón close check, one ``close_shown`` per card against ``closes()``, on the same positions.

    python bench/closes.py [VARIANT ...]     (default: chinchon/fournier chinchon/two-decks chinchon/wild-cards)

Collects every discard-turn position of 20 seeded random deals, then times, in one
process and alternating (median of 5 passes), judging every close of the turn card by
card (the way ``legal_actions`` did before; ``refusal`` still uses ``close_shown``)
and all at once with ``closes()`` (one sum of the solver's codes, one card taken off per
candidate). Prints microseconds per turn and the speed-up.
"""

from __future__ import annotations

import statistics
import sys
import time

from tapete import Random, load_variant
from tapete.core.ledger import Ledger
from tapete.play.deal import start_deal


def main(names: list[str]) -> None:
    for name in names or ["chinchon/fournier", "chinchon/two-decks", "chinchon/wild-cards"]:
        v = load_variant(name)
        g = v.new_game()
        players = v.default_players()
        states = []
        rng = Random(5)
        for d in range(20):
            ledger = Ledger(players)
            ledger.deal_number = 1
            st = start_deal(g, players, 0, Random(1, d), ledger)
            while not st.over:
                legal = g.legal_actions(st)
                if st.counters.get("drawn", 0) == 1:
                    states.append(st.clone())
                g.apply(st, legal[rng.below(len(legal))])
        old, new = [], []
        for _ in range(5):
            t = time.perf_counter()
            for st in states:
                s = st.to_move
                [c for c in st.zones[f"hand.{s}"] if g.close_shown(st, s, c) is not None]
            old.append(time.perf_counter() - t)
            t = time.perf_counter()
            for st in states:
                list(g.closes(st, st.to_move))
            new.append(time.perf_counter() - t)
        o, n = statistics.median(old), statistics.median(new)
        print(
            f"{name}: {len(states)} turns; per turn card by card {o / len(states) * 1e6:.1f} us, "
            f"closes() {n / len(states) * 1e6:.1f} us, speed-up {o / n:.2f}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
