"""Training works: MaskablePPO in a `tapete.rl` environment beats a random player within seconds (``rl-train`` extra).

The bounded version of bench/rl_train.py (docs/rl.md): a few thousand steps on a tiny Fan
Tan (21 cards, three players, about seven decisions a deal), then the trained policy and a
random player take the same seat of the same 2,000 deals, and the paired margin's 95 %
interval must lie above zero. Everything is seeded, so the run is the same every time.
Without PyTorch and sb3-contrib the module is skipped; CI installs them in a step of
its own and runs ``pytest -m rl_train``.
"""

from __future__ import annotations

import pytest

from tapete import rl

pytestmark = pytest.mark.rl_train


@pytest.fixture(scope="module")
def sb3():
    """PyTorch and sb3-contrib, imported when a test of this module runs, not when the suite is collected
    (two seconds a process: the everyday run leaves these tests out by their marker)."""
    torch = pytest.importorskip("torch", reason="needs the rl-train extra")
    sb3_contrib = pytest.importorskip("sb3_contrib", reason="needs the rl-train extra")
    from stable_baselines3.common.vec_env import DummyVecEnv

    return torch, sb3_contrib, DummyVecEnv


TINY = """# Fan Tan on three short rows: 4 to 10 of three suits, rows from the sevens (FT-1.3, FT-3.2)
deck ranks 4 5 6 7 8 9 10 suits ♣ ♥ ♠
players = 3
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny")
    (folder / "tiny.rules").write_text(TINY, encoding="utf-8")
    path = folder / "tiny.yaml"
    path.write_text("extends: fantan/pagat\nname: tiny\nscripts: [tiny.rules]\nplayers: 3\n", encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def trained(tiny, sb3):
    """A few thousand steps of MaskablePPO on the tiny Fan Tan, trained once for this module's tests."""
    torch, sb3_contrib, DummyVecEnv = sb3
    torch.set_num_threads(1)
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy",
        DummyVecEnv([lambda: rl.env(tiny, "random")] * 4),  # environment i starts at seed i (seed=0 below)
        n_steps=256,
        batch_size=256,
        n_epochs=10,
        learning_rate=1e-3,
        gamma=1.0,
        ent_coef=0.0,
        policy_kwargs={"net_arch": [64, 64]},
        seed=0,
    )
    model.learn(8_000)
    return model


def test_a_few_thousand_steps_of_maskable_ppo_beat_a_random_player_in_the_same_seat(tiny, trained):
    def learner(e, obs):
        return int(trained.predict(obs, action_masks=e.action_masks(), deterministic=True)[0])

    e = rl.env(tiny, "random")
    won = rl.play(e, learner, 2_000, seed=7)  # an illegal slot would end a deal at -1: the mask is kept
    chance = rl.play(e, rl.random_policy(3), 2_000, seed=7)
    assert min(won) >= 0.0
    m = rl.margin(won, chance)
    assert m.confirmed, f"the trained policy does not beat random: {m}"


def test_a_saved_policy_sits_at_a_table_as_a_bot_and_plays_as_it_was_trained(tiny, trained, tmp_path):
    """Saved and loaded (``policy:path=FILE``), the learner is a bot like any other: through the
    seat's view it makes the same moves the trained model made in the learning environment."""
    from tapete.policy import read_header, save_policy

    e = rl.env(tiny, "random")
    path = save_policy(trained, e, tmp_path / "tiny-policy.zip")
    header = read_header(path)
    assert header["variant"] == "fantan/tiny" and header["players"] == 3

    def learner(env, obs):
        return int(trained.predict(obs, action_masks=env.action_masks(), deterministic=True)[0])

    in_training = rl.play(e, learner, 300, seed=11)
    as_a_bot = rl.play(e, rl.bot_policy(f"policy:path={path}"), 300, seed=11)
    assert as_a_bot == in_training


def test_the_saved_policy_plays_at_tapete_play_and_in_a_tournament(tiny, trained, tmp_path):
    import subprocess
    import sys

    from tapete.policy import save_policy

    path = save_policy(trained, rl.env(tiny, "random"), tmp_path / "p.zip")

    def tapete(*args):
        proc = subprocess.run([sys.executable, "-m", "tapete", *args], capture_output=True, text=True, cwd=tmp_path)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
        return proc.stdout

    played = tapete("play", tiny, "--bots", f"policy:path={path},random,random", "--seed", "1", "-q")
    assert "Winner" in played
    rated = tapete("tournament", tiny, "--bots", f"policy:path={path},random", "--games", "6", "--workers", "1")
    assert "policy" in rated


def test_a_policy_is_refused_by_name_for_another_game_or_changed_rules(tiny, trained, tmp_path):
    from tapete import TapeteError, load_variant
    from tapete.core.rng import Random
    from tapete.policy import PolicyBot, save_policy

    path = save_policy(trained, rl.env(tiny, "random"), tmp_path / "p.zip")
    scopa = load_variant("scopa/classic").new_game()
    with pytest.raises(TapeteError, match="is a policy for fantan/tiny, not for this game"):
        PolicyBot(scopa, 0, Random(1), path=str(path))
    rules = tmp_path / "tiny.rules"
    rules.write_text(TINY.replace("players = 3", "players = 3\n"), encoding="utf-8")
    moved = tmp_path / "tiny.yaml"
    moved.write_text(open(tiny, encoding="utf-8").read(), encoding="utf-8")
    import json
    import zipfile

    with zipfile.ZipFile(path) as z:  # the header names the tiny variant's file: point it at a changed copy
        members = {i.filename: z.read(i) for i in z.infolist()}
    header = json.loads(members["tapete-policy.json"])
    header["file"] = str(moved)
    members["tapete-policy.json"] = json.dumps(header).encode()
    changed = tmp_path / "changed.zip"
    with zipfile.ZipFile(changed, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    game = load_variant(tiny).new_game()
    with pytest.raises(TapeteError, match="have changed since"):
        PolicyBot(game, 0, Random(1), path=str(changed))


def test_a_signal_stops_the_training_script_with_its_processes_and_writes_nothing(tmp_path, sb3):
    """bench/rl_train.py trains each game in a process of its own for most of an hour: Ctrl-C or
    SIGTERM ends it and them within the 2 s of every command (tests/test_signals.py), no file written."""
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    from test_signals import STOP_SECONDS, group, no_one_left, stop

    script = Path(__file__).resolve().parent.parent / "bench" / "rl_train.py"
    for signum, code in ((signal.SIGTERM, 143), (signal.SIGINT, 130)):
        out = tmp_path / f"r{signum}.json"
        proc = subprocess.Popen(
            [sys.executable, str(script), "--only", "fantan", "--only", "chinchon", "--json", str(out)],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        deadline = time.monotonic() + 120
        while len(group(proc.pid)) < 3 and time.monotonic() < deadline:  # the script and its two trainers
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.1)
        time.sleep(3)  # at work: importing PyTorch, building the environments, or training
        took, _, err = stop(proc, signum)
        assert took < STOP_SECONDS, took
        assert proc.returncode == code and "Traceback" not in err, err
        assert err.strip().splitlines()[-1].endswith("; nothing written")
        assert no_one_left(proc)
        assert not out.exists()


def test_imitating_the_default_bot_before_ppo_starts_the_learner_where_the_bot_stands(tiny, sb3):
    """bench/rl_train.py ``--imitate``: fitted to the default bot's own moves in the learner's seat,
    with no PPO step at all, the policy picks the bot's move on most decisions and, in the same
    seat of the same deals, makes up most of the bot's lead over a random player."""
    import importlib.util
    from pathlib import Path

    torch, sb3_contrib, DummyVecEnv = sb3
    torch.set_num_threads(1)
    spec = importlib.util.spec_from_file_location("rl_train", Path(__file__).parent.parent / "bench" / "rl_train.py")
    assert spec is not None and spec.loader is not None
    rl_train = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rl_train)
    env = DummyVecEnv([lambda: rl.env(tiny, "sensible")])
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [64, 64]}, seed=0)
    fitted = rl_train.imitation(model, rl.env(tiny, "sensible"), "sensible", 1_000, epochs=30)
    assert fitted["agreement"] >= 0.85, fitted

    def learner(e, obs):
        return int(model.predict(obs, action_masks=e.action_masks(), deterministic=True)[0])

    judge = rl.env(tiny, "sensible")
    mine = rl.play(judge, learner, 1_000, seed=7)
    bot = rl.play(judge, rl.bot_policy("sensible"), 1_000, seed=7)
    chance = rl.play(judge, rl.random_policy(3), 1_000, seed=7)
    assert rl.margin(mine, chance).confirmed, rl.margin(mine, chance)
    lead, made_up = rl.margin(bot, chance).mean, rl.margin(mine, chance).mean
    assert made_up >= 0.7 * lead, (made_up, lead)


def test_a_policy_plays_on_every_core_at_simulate_and_tournament(sb3, tmp_path):
    """The parent loads PyTorch when it checks a ``policy:`` bot; workers forked from it hung (or
    died) in their first call into PyTorch, so `--workers 2` never finished with a 256-wide
    network. The workers are spawned once PyTorch is loaded (tapete.simulation.workers)."""
    import subprocess
    import sys

    from tapete.policy import save_policy

    torch, sb3_contrib, DummyVecEnv = sb3
    variant = "briscola/classic"
    untrained = sb3_contrib.MaskablePPO(
        "MlpPolicy", DummyVecEnv([lambda: rl.env(variant, "random")]), policy_kwargs={"net_arch": [256, 256]}, seed=0
    )
    path = save_policy(untrained, rl.env(variant, "random"), tmp_path / "wide.zip")
    for command in ("simulate", "tournament"):
        proc = subprocess.run(
            [sys.executable, "-m", "tapete", command, variant, "--bots", f"policy:path={path},random"]
            + ["--games", "6", "--workers", "2"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=120,
        )
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
        assert "died" not in proc.stderr + proc.stdout
