"""Train MaskablePPO in Fan Tan and Chinchón; evaluate it against random and the default bot; draw the curve.

The training example of docs/rl.md, run for real (needs the ``rl-train`` extra). For each
game, a learner in `tapete.rl`'s environment (its seat rotating deal by deal, the other
seats played by the ``random`` bot or, with ``--against default``, by the game's default
bot, rewarded 1 for a deal won and 0 otherwise: the variant's own ``won`` rule) is trained
by sb3-contrib's ``MaskablePPO`` for a fixed number
of steps. Then three players take the learner's seat of the same evaluation deals (seeds
apart from training's; the same deal, seat and opponents' dice for each): the trained
policy, a uniformly random player and the game's default bot. The figures are their win
rates and the paired margins with 95 % intervals: learner over random (what training
must confirm), and default bot over learner (how far it still is).

Each game trains in its own process on one core with one PyTorch thread (``--jobs 2``
uses both cores of the machine, one game each); the CPU time of training is
``time.process_time`` of that process over the ``learn`` calls alone (the curve's
evaluations are not counted). Every ``--steps / --points`` steps the curve takes a point:
the learner's win rate on ``--curve`` evaluation deals (the first point before any training),
next to random's on the same deals.

    python bench/rl_train.py --png docs/rl-curve.png --json bench/rl_train.json
    python bench/rl_train.py --against default --save runs   # runs/fantan.zip: policy:path=runs/fantan.zip

``--imitate DEALS`` starts the learner where the default bot stands: before PPO it imitates
that bot's moves in the learner's seat over DEALS deals (its policy fitted to the bot's
choices, its value to the rewards that followed), and PPO goes on from there (with a smaller
``--learning-rate``, so that the first updates do not throw the imitation away); its CPU time
counts as training. This is what lets a learner pass the default bot rather than approach it:

    python bench/rl_train.py --only briscola --against default --imitate 3000 --learning-rate 1e-4 --net 256,256

``--save FOLDER`` keeps each trained policy as FOLDER/GAME.zip (`tapete.policy.save_policy`), a
bot for any table: ``tapete play fantan/pagat --bots policy:path=runs/fantan.zip,sensible``.

Prints a table per game and the JSON of everything measured.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tapete import rl
from tapete.core.signals import how, stop_workers, stopping

GAMES: dict[str, dict[str, Any]] = {
    # variant, players, training steps (learner decisions)
    "fantan": {"variant": "fantan/pagat", "players": 3, "steps": 900_000},
    "chinchon": {"variant": "chinchon/fournier", "players": 2, "steps": 300_000},
    "briscola": {"variant": "briscola/classic", "players": 2, "steps": 1_000_000},
}
PPO = {  # MaskablePPO's settings, the same for both games
    "n_steps": 1024,  # per environment, four environments: 4,096 steps a rollout
    "batch_size": 512,
    "n_epochs": 10,
    "learning_rate": 1e-3,
    "gamma": 1.0,  # the reward is the deal's result, at its end: no discount
    "ent_coef": 0.0,
}
NET = [128, 128]
ENVS = 4
TRAIN_SEED, CURVE_SEED, EVAL_SEED, IMITATE_SEED = 1000, 500, 99, 5000  # seed sequences of different deals


def train_and_evaluate(
    game: str,
    steps: int,
    points: int,
    curve: int,
    episodes: int,
    against: str = "random",
    save: str | None = None,
    reward: str = "auto",
    imitate: int = 0,
    learning_rate: float | None = None,
    net: list[int] | None = None,
) -> dict[str, Any]:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    spec = GAMES[game]
    name, players = spec["variant"], spec["players"]
    from tapete import load_variant

    opponents = load_variant(name).record.default_bot if against == "default" else against

    def build() -> rl.LearnerEnv:
        return rl.env(name, opponents, players=players, reward=reward)

    # seed=TRAIN_SEED: Stable-Baselines3 resets environment i with seed TRAIN_SEED + i first
    envs = DummyVecEnv([build] * ENVS)
    settings: dict[str, Any] = {**PPO, "learning_rate": learning_rate or PPO["learning_rate"]}
    model = MaskablePPO("MlpPolicy", envs, policy_kwargs={"net_arch": net or NET}, seed=TRAIN_SEED, **settings)

    def learner(e: rl.LearnerEnv, obs: Any) -> int:
        return int(model.predict(obs, action_masks=e.action_masks(), deterministic=True)[0])

    judge = rl.env(name, opponents, players=players, reward=reward)
    chance_curve = rl.play(judge, rl.random_policy(1), curve, seed=CURVE_SEED)
    out: dict[str, Any] = {
        "game": game,
        "variant": name,
        "players": players,
        "opponents": opponents,
        "reward": reward,
        "steps": steps,
        "imitate": imitate,
        "learning_rate": settings["learning_rate"],
        "net": net or NET,
        "curve": [],
    }
    cpu, wall = 0.0, time.perf_counter()
    out["curve"].append({"steps": 0, "cpu_s": 0.0, "won": mean(rl.play(judge, learner, curve, seed=CURVE_SEED))})
    if imitate:
        start = time.process_time()
        out["imitation"] = imitation(model, build(), judge.aec.variant.record.default_bot, imitate)
        cpu += time.process_time() - start
        won = rl.play(judge, learner, curve, seed=CURVE_SEED)
        out["curve"].append({"steps": 0, "cpu_s": round(cpu, 1), "won": mean(won), "imitated": True})
        print(f"{game}: imitated {imitate:,} deals, {cpu:.0f} CPU-s, won {mean(won):.3f}", flush=True)
    for k in range(1, points + 1):
        start = time.process_time()
        model.learn(steps // points, reset_num_timesteps=False)
        cpu += time.process_time() - start
        won = rl.play(judge, learner, curve, seed=CURVE_SEED)
        out["curve"].append({"steps": k * (steps // points), "cpu_s": round(cpu, 1), "won": mean(won)})
        print(f"{game}: {k * (steps // points):,} steps, {cpu:.0f} CPU-s, won {mean(won):.3f}", flush=True)
    out["train_cpu_s"], out["train_wall_s"] = round(cpu, 1), round(time.perf_counter() - wall, 1)
    out["curve_random"], out["curve_episodes"] = mean(chance_curve), curve
    default = judge.aec.variant.record.default_bot
    start = time.process_time()
    results = {
        "learner": rl.play(judge, learner, episodes, seed=EVAL_SEED),
        "random": rl.play(judge, rl.random_policy(2), episodes, seed=EVAL_SEED),
        default: rl.play(judge, rl.bot_policy(default), episodes, seed=EVAL_SEED),
    }
    out["eval_cpu_s"] = round(time.process_time() - start, 1)
    out["episodes"], out["default_bot"] = episodes, default
    out["won"] = {who: mean(r) for who, r in results.items()}
    over = rl.margin(results["learner"], results["random"])
    behind = rl.margin(results[default], results["learner"])
    ahead = rl.margin(results["learner"], results[default])
    out["learner_over_default"] = figures(ahead)
    out["learner_over_random"] = figures(over)
    out["default_over_learner"] = {k: v for k, v in figures(behind).items() if k != "confirmed"}
    if save is not None:
        from pathlib import Path

        from tapete.policy import save_policy

        out["policy"] = str(save_policy(model, judge, Path(save) / f"{game}.zip"))
    return out


def figures(m: rl.Margin) -> dict[str, Any]:
    """A paired margin as the JSON record keeps it."""
    return {"mean": m.mean, "low": m.low, "high": m.high, "confirmed": m.confirmed}


def imitation(model: Any, e: rl.LearnerEnv, teacher: str, deals: int, epochs: int = 6) -> dict[str, Any]:
    """Start the learner where the game's default bot stands: imitate ``teacher`` over ``deals`` deals.

    The bot plays the learner's seat (seed sequence IMITATE_SEED, apart from the others) and
    every decision is kept with the seat's observation, its mask and the deal's reward; the
    policy is fitted to the bot's choices (cross-entropy over the legal slots) and the value
    to the reward that followed (its mean squared error), so that PPO's first advantages are
    not those of an untrained critic. PPO then starts from a player as good as the bot, or
    nearly, and needs only to find where it is beaten: from random it never got near."""
    import numpy as np
    import torch

    chooser = rl.bot_policy(teacher, seed=IMITATE_SEED)
    kept: list[tuple[int, Any, Any, int]] = []  # (episode, observation, mask, the bot's slot)

    def recording(e: rl.LearnerEnv, obs: Any) -> int:
        slot = chooser(e, obs)
        kept.append((e.episode_number, obs, e.action_masks().astype(bool), slot))
        return slot

    totals = rl.play(e, recording, deals, seed=IMITATE_SEED)  # the deal's reward, deal by deal
    index = {episode: k for k, episode in enumerate(dict.fromkeys(ep for ep, *_ in kept))}
    obs_ = [obs for _, obs, _, _ in kept]
    masks = [mask for _, _, mask, _ in kept]
    acts = [slot for *_, slot in kept]
    rets = [totals[index[ep]] for ep, *_ in kept]
    o = torch.as_tensor(np.array(obs_), dtype=torch.float32)
    m, a = torch.as_tensor(np.array(masks)), torch.as_tensor(np.array(acts))
    r = torch.as_tensor(np.array(rets), dtype=torch.float32)
    policy = model.policy
    optimiser = torch.optim.Adam(policy.parameters(), lr=1e-3)
    order = torch.Generator().manual_seed(IMITATE_SEED)
    for _ in range(epochs):
        perm = torch.randperm(len(a), generator=order)
        for i in range(0, len(a), 512):
            idx = perm[i : i + 512]
            values, logp, _ = policy.evaluate_actions(o[idx], a[idx], action_masks=m[idx])
            loss = -logp.mean() + 0.5 * ((values.flatten() - r[idx]) ** 2).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
    with torch.no_grad():
        chosen = policy.get_distribution(o, action_masks=m.numpy()).distribution.probs.argmax(-1)
    return {
        "deals": deals,
        "decisions": len(a),
        "epochs": epochs,
        "agreement": round(float((chosen == a).float().mean()), 4),
    }


def mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4)


def plot(results: list[dict[str, Any]], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(5.5 * len(results), 4), squeeze=False)
    for ax, r in zip(axes[0], results, strict=True):
        xs = [p["cpu_s"] / 60 for p in r["curve"]]
        ax.plot(xs, [p["won"] for p in r["curve"]], marker="o", label="MaskablePPO learner")
        ax.axhline(r["curve_random"], color="grey", linestyle="--", label="random, same seats")
        ax.axhline(r["won"][r["default_bot"]], color="green", linestyle=":", label=f"{r['default_bot']} (default bot)")
        ax.set_title(f"{r['variant']}, {r['players']} players, against {r['opponents']}")
        ax.set_xlabel("training, CPU-minutes (one core)")
        ax.set_ylabel(f"share of deals won ({r['curve_episodes']} evaluation deals a point)")
        ax.set_ylim(0, 1.04)
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def table(r: dict[str, Any]) -> str:
    over, behind, d = r["learner_over_random"], r["default_over_learner"], r["default_bot"]
    lines = [
        f"{r['variant']} ({r['players']} players), {r['steps']:,} steps in {r['train_cpu_s'] / 60:.1f} CPU-minutes",
        f"  {'won' if r.get('reward', 'auto') in ('auto', 'won') else 'reward per deal'}, {r['episodes']} "
        f"evaluation deals: learner {r['won']['learner']:.3f}, "
        f"random {r['won']['random']:.3f}, {d} {r['won'][d]:.3f}",
        f"  learner over random: {over['mean']:+.3f} (95% {over['low']:+.3f} to {over['high']:+.3f})"
        f"{' confirmed' if over['confirmed'] else ' NOT confirmed'}",
        f"  {d} over learner: {behind['mean']:+.3f} (95% {behind['low']:+.3f} to {behind['high']:+.3f})",
    ]
    if "learner_over_default" in r:
        ahead = r["learner_over_default"]
        lines.append(
            f"  learner over {d}: {ahead['mean']:+.3f} (95% {ahead['low']:+.3f} to {ahead['high']:+.3f})"
            f"{' confirmed' if ahead['confirmed'] else ' NOT confirmed'}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", action="append", choices=sorted(GAMES), help="train this game only (repeatable)")
    parser.add_argument("--steps", type=int, default=None, help="training steps for every game (default: per game)")
    parser.add_argument("--points", type=int, default=10, help="points of the learning curve")
    parser.add_argument("--curve", type=int, default=300, help="evaluation deals per point of the curve")
    parser.add_argument("--episodes", type=int, default=2000, help="evaluation deals for the final figures")
    parser.add_argument("--jobs", type=int, default=2, help="processes (one game each)")
    parser.add_argument("--against", default="random", help="the other seats' bot: random, default or a bot spec")
    parser.add_argument("--reward", default="auto", help="the deal's reward: auto, won, score or -score (docs/rl.md)")
    parser.add_argument(
        "--imitate", type=int, default=0, help="deals of the default bot to imitate before PPO (0: none)"
    )
    parser.add_argument("--learning-rate", type=float, default=None, help="PPO's learning rate (default 1e-3)")
    parser.add_argument("--net", default=None, help="the network's hidden layers, e.g. 256,256 (default 128,128)")
    parser.add_argument("--save", default=None, help="keep each trained policy in this folder (GAME.zip)")
    parser.add_argument("--png", default=None, help="write the learning curves here")
    parser.add_argument("--json", default=None, help="write the results here")
    args = parser.parse_args()
    games = args.only or list(GAMES)
    jobs = [
        (g, args.steps or GAMES[g]["steps"], args.points, args.curve, args.episodes)
        + (args.against, args.save, args.reward, args.imitate, args.learning_rate)
        + ([int(n) for n in args.net.split(",")] if args.net else None,)
        for g in games
    ]
    if args.save is not None:
        Path(args.save).mkdir(exist_ok=True)
    with stopping():  # Ctrl-C or SIGTERM: the training processes stop with this one, nothing is written
        pool = ProcessPoolExecutor(max_workers=max(1, min(args.jobs, len(jobs))))
        try:
            results = list(pool.map(train_and_evaluate, *zip(*jobs, strict=True)))
        except KeyboardInterrupt as exc:
            stop_workers(pool)
            word, code = how(exc)
            print(f"{word}; nothing written", file=sys.stderr)
            raise SystemExit(code) from None
        pool.shutdown()
    for r in results:
        print(table(r))
    text = json.dumps(results, indent=1)
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    if args.png:
        plot(results, args.png)


if __name__ == "__main__":
    main()
