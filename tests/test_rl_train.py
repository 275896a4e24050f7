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

pytestmark = pytest.mark.rl_train

torch = pytest.importorskip("torch", reason="needs the rl-train extra")
sb3_contrib = pytest.importorskip("sb3_contrib", reason="needs the rl-train extra")
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

from tapete import rl  # noqa: E402

TINY = """# Fan Tan on three short rows: 4 to 10 of three suits, rows from the sevens (FT-1.3, FT-3.2)
deck ranks 4 5 6 7 8 9 10 suits ♣ ♥ ♠
players = 3
"""


@pytest.fixture
def tiny(tmp_path):
    (tmp_path / "tiny.rules").write_text(TINY, encoding="utf-8")
    path = tmp_path / "tiny.yaml"
    path.write_text("extends: fantan/pagat\nname: tiny\nscripts: [tiny.rules]\nplayers: 3\n", encoding="utf-8")
    return str(path)


def test_a_few_thousand_steps_of_maskable_ppo_beat_a_random_player_in_the_same_seat(tiny):
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

    def trained(e, obs):
        return int(model.predict(obs, action_masks=e.action_masks(), deterministic=True)[0])

    e = rl.env(tiny, "random")
    learner = rl.play(e, trained, 2_000, seed=7)  # an illegal slot would end a deal at -1: the mask is kept
    chance = rl.play(e, rl.random_policy(3), 2_000, seed=7)
    assert min(learner) >= 0.0
    m = rl.margin(learner, chance)
    assert m.confirmed, f"the trained policy does not beat random: {m}"


def test_a_signal_stops_the_training_script_with_its_processes_and_writes_nothing(tmp_path):
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
