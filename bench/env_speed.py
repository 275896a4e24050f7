"""Environment steps per second: tapete's PettingZoo environments next to RLCard's gin rummy.

Both sides take uniformly random legal actions and count one step per action; episodes
restart when they end. The work per step is what a learner pays for:

* tapete: ``env.step(action)`` and then ``env.last()``, which builds the observation
  vector and the action mask of the agent to move (``observe``), as every PettingZoo
  training loop does;
* RLCard: ``env.step(action)``, which applies the action and returns the next player's
  state, that is its observation planes (``_extract_state``: 5 x 52 card planes) and its
  legal actions.

The point of comparison is Chinchón (``chinchon/fournier``, 2 players) against RLCard's
gin rummy (2 players), both rummy games of draw, discard and knock/close. They are measured
in alternation, ``--rounds`` times each, in one process, and the ratio of each round is
printed with the median of the rounds. Rates are steps per second of this process's CPU
time (``time.process_time``), so that time the process spends waiting for a core on a
shared machine counts for neither side; a busy machine still slows both (caches, clock),
which the alternation and the ratio absorb. Two more tapete variants and Chinchón's match episodes are measured
once each. RLCard is optional (``pip install rlcard``, or the ``bench`` extra); without it
only tapete's figures print.

    python bench/env_speed.py --seconds 10 --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from tapete.pettingzoo import env as tapete_env

MAIN = ("chinchon/fournier", 2, "deal")
OTHERS = [("chinchon/fournier", 2, "match"), ("fantan/pagat", 4, "deal"), ("chinese-ten/two-player", 2, "deal")]


def tapete_steps(name: str, players: int, seconds: float, episode: str = "deal") -> tuple[float, int]:
    e = tapete_env(name, players=players, episode=episode)
    rng = np.random.default_rng(0)
    e.reset(seed=0)
    steps, episodes = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        obs, _reward, done, truncated, _ = e.last()
        if done or truncated:
            if not e.agents or all(e.terminations.values()) or all(e.truncations.values()):
                e.reset()
                episodes += 1
                continue
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps / (time.process_time() - start), episodes


def rlcard_steps(seconds: float) -> tuple[float, int] | None:
    try:
        import rlcard
    except ImportError:
        return None
    e = rlcard.make("gin-rummy", config={"seed": 0})
    rng = np.random.default_rng(0)
    state, _player = e.reset()
    steps, episodes = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        legal = list(state["legal_actions"])
        state, _player = e.step(legal[rng.integers(len(legal))])
        steps += 1
        if e.is_over():
            state, _player = e.reset()
            episodes += 1
    return steps / (time.process_time() - start), episodes


def label(name: str, players: int, episode: str) -> str:
    return f"tapete {name} ({players}p{', match episodes' if episode == 'match' else ''})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU seconds per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating Chinchón / RLCard rounds")
    args = parser.parse_args()
    width = 52
    print(f"{'environment':{width}} {'steps/s':>9} {'episodes':>9}")
    ratios: list[float] = []
    for r in range(args.rounds):
        rate, episodes = tapete_steps(*MAIN[:2], args.seconds, MAIN[2])
        print(f"{label(*MAIN) + f' round {r + 1}':{width}} {rate:9.0f} {episodes:9d}", flush=True)
        found = rlcard_steps(args.seconds)
        if found is None:
            print("rlcard gin-rummy: rlcard is not installed")
            break
        print(f"{f'rlcard gin-rummy (2p) round {r + 1}':{width}} {found[0]:9.0f} {found[1]:9d}", flush=True)
        ratios.append(rate / found[0])
        print(f"{'  ratio tapete chinchon / rlcard gin-rummy':{width}} {ratios[-1]:9.2f}", flush=True)
    if ratios:
        print(f"{'median ratio over ' + str(len(ratios)) + ' rounds':{width}} {statistics.median(ratios):9.2f}")
    for name, players, episode in OTHERS:
        rate, episodes = tapete_steps(name, players, args.seconds, episode)
        print(f"{label(name, players, episode):{width}} {rate:9.0f} {episodes:9d}", flush=True)


if __name__ == "__main__":
    main()
