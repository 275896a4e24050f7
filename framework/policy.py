"""A trained policy as a bot: ``policy:path=FILE`` seats a learner at any table.

A policy trained in `tapete.rl` (sb3-contrib's ``MaskablePPO``) is saved by `save_policy` as
Stable-Baselines3's own zip with one more member, ``tapete-policy.json``: the variant it
learned (name, options, the digest of its files), the player count and the observation's
history planes. Those are what the policy's inputs and outputs mean, so `PolicyBot` rebuilds
the same observation and action layout (`tapete.pettingzoo.Layout`) from them and refuses a
file whose variant files have changed since, or a table of another game or player count,
saying which, rather than playing on inputs it never learned.

The bot sees what its seat sees (the `View` the one observer hands every bot) and picks the
policy's most likely move among the legal ones (the action mask), so it plays wherever a bot
plays: ``tapete play``, ``simulate``, ``tournament``, the web table. Loading needs the
``rl-train`` extra (PyTorch, sb3-contrib); without it the spec is refused with the install line.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

from .core.actions import Action
from .core.errors import TapeteError
from .core.inputs import declare, input_path
from .core.limits import read_file
from .core.rng import Random
from .core.version import __version__
from .game import Game
from .view import View

MEMBER = "tapete-policy.json"  # the member of the zip that says what the policy learned
MAX_POLICY_BYTES = 512 * 1024 * 1024  # a policy file read whole; the project's own are under 1 MB
_LOADED: dict[
    tuple[str, int, int], tuple[Any, Any, dict[str, Any]]
] = {}  # (path, size, mtime) -> model, layout, header


def _training_library() -> Any:
    try:
        import sb3_contrib  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise TapeteError("a policy bot needs the rl-train extra: pip install 'tapete[rl-train]'") from None
    return sb3_contrib


def policy_header(env: Any) -> dict[str, Any]:
    """What a policy trained in ``env`` (a `tapete.rl.LearnerEnv`) needs to be played again."""
    aec = env.aec
    v = aec.variant
    return {
        "type": "tapete-policy",
        "tapete": __version__,
        "variant": v.name,
        "file": str(v.spec.path) if v.from_file else None,  # a variant loaded by its path is found there again
        "options": dict(v.options),
        "digest": v.digest,
        "players": aec.players,
        "history": aec.layout.history,
        "observation": int(aec.layout.obs_size),
        "actions": int(aec.layout.size),
        "algorithm": "MaskablePPO",
    }


def save_policy(model: Any, env: Any, path: Path | str) -> Path:
    """Write ``model`` (a trained ``MaskablePPO``) with its header to ``path``, whole or not at all.

    The file is written through tapete's one writer (`tapete.core.outputs`): atomically, and a
    file that is not a tapete policy is not replaced."""
    from .core import outputs

    trained = io.BytesIO()
    model.save(trained)
    whole = io.BytesIO()
    with zipfile.ZipFile(whole, "w", zipfile.ZIP_DEFLATED) as out, zipfile.ZipFile(trained) as sb3:
        out.writestr(MEMBER, json.dumps(policy_header(env), indent=1, sort_keys=True))  # first: it marks the kind
        for member in sb3.infolist():
            out.writestr(member, sb3.read(member))
    target = Path(path)
    outs = outputs.Outputs()
    outs.add(target, outputs.POLICY, "the policy file")
    outs.write(target, whole.getvalue())
    return target


def read_header(path: Path) -> dict[str, Any]:
    """The header of a policy file, or a TapeteError saying why the file is no tapete policy."""
    try:
        data = read_file(path, "policy file", MAX_POLICY_BYTES)
    except TapeteError as exc:
        raise TapeteError(f"{path}: {exc}") from None
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            header = json.loads(z.read(MEMBER))
    except (zipfile.BadZipFile, KeyError, ValueError, OSError):
        raise TapeteError(f"{path}: is not a tapete policy (save one with tapete.policy.save_policy)") from None
    if not isinstance(header, dict) or header.get("type") != "tapete-policy":
        raise TapeteError(f"{path}: is not a tapete policy (its {MEMBER} is of another kind)")
    return header


def _load(path: Path) -> tuple[Any, Any, dict[str, Any]]:
    info = path.stat()
    key = (str(path.resolve()), info.st_size, info.st_mtime_ns)
    found = _LOADED.get(key)
    if found is not None:
        return found
    header = read_header(path)
    sb3_contrib = _training_library()
    from .pettingzoo import env as aec_env
    from .play.loading import load_variant

    v = load_variant(str(header.get("file") or header["variant"]), options=dict(header.get("options") or {}))
    if v.digest != header.get("digest"):
        raise TapeteError(
            f"{path}: was trained on {header['variant']} as its files were then (digest {header.get('digest')}); "
            f"they have changed since (digest {v.digest}): train it again"
        )
    aec = aec_env(v, players=int(header["players"]), history=int(header.get("history", 0)))
    layout = aec.layout
    model = sb3_contrib.MaskablePPO.load(path, device="cpu")
    if int(model.observation_space.shape[0]) != layout.obs_size or int(model.action_space.n) != layout.size:
        raise TapeteError(f"{path}: its network's inputs or outputs do not match {v.name}'s layout")
    _LOADED[key] = found = (model, layout, header)
    return found


def check_policy(path: Path) -> dict[str, Any]:
    """The header of the policy at ``path``, its network loaded and checked against its variant's
    files as they are now (a server judges the policies it offers before it listens)."""
    return _load(Path(path))[2]


class PolicyBot:
    """A trained policy at one seat: the legal move it rates highest (see the module docstring)."""

    @declare(game="object", seat="object", rng="object", path="input_path")
    def __init__(self, game: Game, seat: int, rng: Random, path: str | None = None) -> None:
        if path is None:
            raise TapeteError("the policy bot needs its file: policy:path=FILE (saved by tapete.policy.save_policy)")
        self.path = input_path(path, "policy file")
        self.model, self.layout, self.header = _load(self.path)
        mine = self.layout.game
        if type(mine) is not type(game) or len(mine.deck) != len(game.deck):
            raise TapeteError(f"{self.path}: is a policy for {self.header['variant']}, not for this game")
        self.seat = seat

    def choose(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if view.players != self.header["players"]:
            raise TapeteError(
                f"{self.path}: was trained at {self.header['players']} players, and this table seats {view.players}"
            )
        import numpy as np

        layout = self.layout
        mask = np.zeros(layout.size, dtype=bool)
        by_slot: dict[int, Action] = {}
        for action in legal:
            slot = layout.index(action)
            if slot is not None and slot not in by_slot:
                by_slot[slot] = action
                mask[slot] = True
        if not by_slot:  # no legal move has a slot (a family that declares no moves): nothing learned applies
            return legal[0]
        obs = layout.observe_view(view)
        slot, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
        return by_slot.get(int(slot), next(iter(by_slot.values())))


__all__ = ["PolicyBot", "check_policy", "policy_header", "read_header", "save_policy"]
