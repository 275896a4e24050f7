"""Environment steps per second: tapete's PettingZoo environments next to RLCard's gin rummy.

Both sides take uniformly random legal actions and count one step per action; episodes
restart when they end. tapete's side builds the full observation and mask for the agent
to move at every step (``env.last()``), as a learner would; RLCard's ``env.step`` also
returns the next player's state (its observation and legal actions), so the work per step
is comparable. RLCard is optional (``pip install rlcard``); without it only tapete's
figures print.

    python bench/env_speed.py --seconds 20
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tapete.pettingzoo import env as tapete_env

VARIANTS = [("chinchon/fournier", 2), ("fantan/pagat", 4), ("chinese-ten/two-player", 2)]


def tapete_steps(name: str, players: int, seconds: float) -> tuple[float, int]:
    e = tapete_env(name, players=players)
    rng = np.random.default_rng(0)
    e.reset(seed=0)
    steps, episodes = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, _reward, done, truncated, _ = e.last()
        if done or truncated:
            if not e.agents or all(e.terminations.values()):
                e.reset()
                episodes += 1
                continue
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps / (time.perf_counter() - start), episodes


def rlcard_steps(seconds: float) -> tuple[float, int] | None:
    try:
        import rlcard
    except ImportError:
        return None
    e = rlcard.make("gin-rummy", config={"seed": 0})
    rng = np.random.default_rng(0)
    state, _player = e.reset()
    steps, episodes = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        legal = list(state["legal_actions"])
        state, _player = e.step(legal[rng.integers(len(legal))])
        steps += 1
        if e.is_over():
            state, _player = e.reset()
            episodes += 1
    return steps / (time.perf_counter() - start), episodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0, help="per environment")
    args = parser.parse_args()
    print(f"{'environment':34} {'steps/s':>9} {'episodes':>9}")
    for name, players in VARIANTS:
        rate, episodes = tapete_steps(name, players, args.seconds)
        print(f"{'tapete ' + name + f' ({players}p)':34} {rate:9.0f} {episodes:9d}", flush=True)
    found = rlcard_steps(args.seconds)
    if found is None:
        print("rlcard gin-rummy: rlcard is not installed")
    else:
        print(f"{'rlcard gin-rummy (2p)':34} {found[0]:9.0f} {found[1]:9d}")


if __name__ == "__main__":
    main()
