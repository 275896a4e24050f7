"""How fast can plain Python play Hearts at all? A floor for issue 26's speed goal, against OpenSpiel.

    pip install -e '.[bench]'        # open-spiel
    python bench/hearts_floor.py [--seconds S] [--runs R]

The goal is 2x OpenSpiel's player actions/s from Python, and tapete's public API plays at
about 0.4x (`hearts_race.py`). Before choosing how to close that gap, this asks what the
language allows: ``floor`` is the quickest random Hearts we could write in plain Python,
with none of tapete in it and nothing a framework needs: the hands are bit masks, every
rule is written by hand for this one game, each suit's cards of a mask come from a table
made once (8,192 entries a suit), there is no move object, no API call, no state a reader
could save, no check of a move and no history. It plays what OpenSpiel's ``hearts`` plays
with its default parameters (passing three cards to the left, one at a time, as 12
actions; the two of clubs leads; no points on the first trick unless a hand holds nothing
else; hearts may not be led until broken unless a hand holds nothing else; the queen of
spades breaks hearts), chooses uniformly among the legal moves with Python's ``random``,
and checks that every deal's points add up to 26. ``openspiel`` is ``pyspiel.load_game
("hearts")`` from Python, as `contracts_race.py` plays OpenSpiel's games (every chance outcome
drawn, the pass direction forced to left). The two take turns within each run, CPU time of this process.

What it says: a framework whose moves are plain Python has, at best, the floor's pace
less everything the framework does (rules read from a variant, moves as objects, a state
that is data, a checked move): if the floor is near 2x, the goal needs compiled code.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics

from contracts_race import measure, openspiel_runner  # bench/ is on the path

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)  # a card is suit * 13 + rank, the rank 0 (two) to 12 (ace)
SUIT = [sum(1 << (s * 13 + r) for r in range(13)) for s in range(4)]
BIT = [1 << c for c in range(52)]
TWO_OF_CLUBS = BIT[CLUBS * 13]
QUEEN_OF_SPADES = BIT[SPADES * 13 + 10]
POINTS = SUIT[HEARTS] | QUEEN_OF_SPADES
TABLE = [[tuple(s * 13 + r for r in range(13) if m >> r & 1) for m in range(8192)] for s in range(4)]


def cards_of(mask: int) -> tuple[int, ...]:
    """The cards of a mask, lowest first, from the four suits' tables."""
    t0, t1, t2, t3 = TABLE
    return t0[mask & 8191] + t1[mask >> 13 & 8191] + t2[mask >> 26 & 8191] + t3[mask >> 39 & 8191]


def floor_deal(rng: random.Random) -> int:
    """One deal played at random to its end by hand-written rules; the player actions."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(BIT[c] for c in deck[13 * s : 13 * s + 13]) for s in range(4)]
    passed = [0, 0, 0, 0]
    actions = 0
    for s in range(4):  # three cards each, one at a time, to the left
        for _ in range(3):
            legal = cards_of(hands[s])
            c = legal[rng.randrange(len(legal))]
            hands[s] &= ~BIT[c]
            passed[(s + 1) % 4] |= BIT[c]
            actions += 1
    hands = [h | p for h, p in zip(hands, passed, strict=True)]
    leader = next(s for s in range(4) if hands[s] & TWO_OF_CLUBS)
    broken = False
    points = [0, 0, 0, 0]
    for trick in range(13):
        taken = 0
        s = leader
        lead = best = -1
        winner = leader
        for k in range(4):
            hand = hands[s]
            if trick == 0 and k == 0:
                legal_mask = TWO_OF_CLUBS
            elif k == 0:
                legal_mask = hand if broken or not hand & ~SUIT[HEARTS] else hand & ~SUIT[HEARTS]
            else:
                legal_mask = hand & SUIT[lead] or hand
                if trick == 0 and legal_mask & ~POINTS:
                    legal_mask &= ~POINTS
            legal = cards_of(legal_mask)
            c = legal[rng.randrange(len(legal))]
            actions += 1
            hands[s] = hand & ~BIT[c]
            taken |= BIT[c]
            if k == 0:
                lead, best, winner = c // 13, c, s
            elif c // 13 == lead and c > best:
                best, winner = c, s
            if BIT[c] & POINTS:
                broken = True
            s = (s + 1) % 4
        points[winner] += (taken & SUIT[HEARTS]).bit_count() + (13 if taken & QUEEN_OF_SPADES else 0)
        leader = winner
    assert sum(points) == 26, points
    return actions


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=2.0, help="CPU seconds a contender a run")
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args()
    # OpenSpiel as contracts_race.py plays it, the pass direction forced to left (0 none, 1 left, 2 across, 3 right)
    contenders = {"floor": floor_deal, "openspiel": openspiel_runner("hearts", {}, forced=(1,))}
    rng = random.Random(2026)
    for run in contenders.values():
        run(rng)  # warm
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(args.runs):
        for name, run in contenders.items():
            rates[name].append(measure(run, args.seconds, rng)[0])  # player actions per CPU second
    ratios = [f / o for f, o in zip(rates["floor"], rates["openspiel"], strict=True)]
    out = {
        "python": platform.python_version(),
        "runs": args.runs,
        "seconds": args.seconds,
        "actions_per_s": {
            name: {"median": round(statistics.median(v)), "min": round(min(v)), "max": round(max(v))}
            for name, v in rates.items()
        },
        "floor_over_openspiel": {
            "median": round(statistics.median(ratios), 2),
            "min": round(min(ratios), 2),
            "max": round(max(ratios), 2),
        },
    }
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
