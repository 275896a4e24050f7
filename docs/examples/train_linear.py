"""Train a linear softmax policy on a tapete PettingZoo environment, against random players.

The learner sits at ``player_0``; the other seats play uniformly random legal moves. The
policy scores every legal slot with a weight vector per slot over the observation
(logits = W[slot] . obs + b[slot]) and is trained by REINFORCE with a running-mean
baseline on the deal's reward. Every ``--block`` episodes it prints the learner's mean
reward next to a random player's in the same seat (the first block is the untrained
policy), and writes the curve as a PNG when matplotlib is installed.

    python docs/examples/train_linear.py --variant fantan/pagat --players 3 --minutes 3
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tapete.pettingzoo import env as make_env


def play(e, policy, rng, learn: bool):
    """One episode; returns the learner's reward and its (obs, legal, choice) steps."""
    e.reset()
    steps = []
    reward = 0.0
    for agent in e.agent_iter():
        obs, r, done, truncated, _ = e.last()
        if done or truncated:
            if agent == "player_0":
                reward = r
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        if agent == "player_0" and policy is not None:
            x = obs["observation"]
            logits = policy["W"][legal] @ x + policy["b"][legal]
            p = np.exp(logits - logits.max())
            p /= p.sum()
            k = rng.choice(len(legal), p=p)
            if learn:
                steps.append((x, legal, k, p))
        else:
            k = rng.integers(len(legal))
        e.step(int(legal[k]))
    return reward, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="fantan/pagat")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--block", type=int, default=500)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--png", default="")
    parser.add_argument("--tabular", action="store_true", help="a preference per action slot only (no observation)")
    args = parser.parse_args()
    e = make_env(args.variant, players=args.players)
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    size, dim = e.layout.size, e.layout.obs_size
    policy = {"W": np.zeros((size, dim)), "b": np.zeros(size)}
    baseline = 0.0
    curve = []
    start = time.perf_counter()
    episodes = 0
    print(f"{'episodes':>9} {'minutes':>7} {'learner':>8} {'random':>8}")
    while time.perf_counter() - start < args.minutes * 60:
        rewards = []
        for _ in range(args.block):
            reward, steps = play(e, policy, rng, learn=True)
            rewards.append(reward)
            advantage = reward - baseline
            baseline += 0.01 * (reward - baseline)
            for x, legal, k, p in steps:
                grad = -p
                grad[k] += 1.0  # d log p(k) / d logits
                if not args.tabular:
                    policy["W"][legal] += args.lr * advantage * np.outer(grad, x)
                policy["b"][legal] += args.lr * advantage * grad
        episodes += args.block
        random_rewards = [play(e, None, rng, learn=False)[0] for _ in range(args.block // 2)]
        row = (episodes, (time.perf_counter() - start) / 60, float(np.mean(rewards)), float(np.mean(random_rewards)))
        curve.append(row)
        print(f"{row[0]:9d} {row[1]:7.2f} {row[2]:8.3f} {row[3]:8.3f}", flush=True)
    if args.png:
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("matplotlib is not installed: no PNG")
            return
        xs = [r[0] for r in curve]
        plt.plot(xs, [r[2] for r in curve], label="linear policy (training)")
        plt.plot(xs, [r[3] for r in curve], label="random, same seat")
        plt.xlabel("episodes (deals)")
        plt.ylabel("mean reward per deal")
        plt.title(f"{args.variant}, {args.players} players, seat player_0")
        plt.legend()
        plt.savefig(args.png, dpi=80)
        print(f"wrote {args.png}")


if __name__ == "__main__":
    main()
