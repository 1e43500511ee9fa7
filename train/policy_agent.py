"""A trained MaskablePPO policy as an agent: ``make_agent("model:PATH")`` (issue 7).

``PolicyAgent`` follows ``agents.base.Agent``: ``choose(game)`` encodes the deciding seat's
egocentric observation (``aoi_env.observation``) and ``act(observation, mask)`` picks a legal id
from the policy's logits: the most likely legal id (``deterministic=True``, what MaskablePPO's
``predict(..., deterministic=True)`` returns) or a sample from the masked softmax drawn with the
agent's own seeded numpy Generator (so a seeded game is reproducible without touching torch's
global RNG).  Illegal ids never come out: their logits are set to -inf before the choice.

Importing this module registers the spec ``model:PATH`` with ``agents.register_agent``; torch and
sb3-contrib are imported only when a model is loaded (``load_policy``).  Note that
``agents.make_agent`` lower-cases the whole spec, so a path with capital letters must be loaded
with ``PolicyAgent.from_path`` instead.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from agents import register_agent
from agents.base import mask_of
from aoi_env.core.engine import Game
from aoi_env.observation import ObservationEncoder

_CACHE: dict[tuple[str, float], Any] = {}


def load_policy(path: str | os.PathLike[str]) -> Any:
    """The policy network of a saved MaskablePPO model (CPU, eval mode; cached per file version)."""
    path = os.fspath(path)
    if not os.path.exists(path) and os.path.exists(path + ".zip"):
        path += ".zip"
    if not os.path.exists(path):
        raise ValueError(f"model file not found: {path!r} (a MaskablePPO .zip written by aoi train)")
    key = (os.path.abspath(path), os.path.getmtime(path))
    if key not in _CACHE:
        from sb3_contrib import MaskablePPO

        from aoi_env.observation import OBS_SCHEMA_VERSION, OBS_SIZE

        policy = MaskablePPO.load(path, device="cpu").policy
        shape = tuple(policy.observation_space.shape)
        if shape != (OBS_SIZE,):
            raise ValueError(
                f"model {path!r} was trained on observations of shape {shape}, but this aoi-env encodes "
                f"{OBS_SIZE} floats (observation schema {OBS_SCHEMA_VERSION}); retrain it with aoi train"
            )
        policy.set_training_mode(False)
        _CACHE[key] = policy
    return _CACHE[key]


class PolicyAgent:
    """Plays a MaskablePPO policy (see the module docstring)."""

    name = "model"

    def __init__(self, policy: Any, seed: int | None = 0, deterministic: bool = True, label: str = "model") -> None:
        self.policy = policy
        self.seed = seed
        self.deterministic = deterministic
        self.label = label
        self.rng = np.random.default_rng(seed)
        self.encoder = ObservationEncoder()

    @classmethod
    def from_path(cls, path: str | os.PathLike[str], seed: int | None = 0, deterministic: bool = True) -> PolicyAgent:
        return cls(load_policy(path), seed=seed, deterministic=deterministic, label=os.fspath(path))

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """The policy's action logits for one observation (float64, length NUM_ACTIONS)."""
        import torch

        obs = np.asarray(observation, dtype=np.float32).reshape(1, -1)
        with torch.no_grad():
            dist = self.policy.get_distribution(torch.as_tensor(obs, device=self.policy.device))
            return dist.distribution.logits.cpu().numpy().astype(np.float64)[0]

    def act(self, observation: Any, mask: np.ndarray | None = None) -> int:
        mask = mask_of(observation, mask)
        if isinstance(observation, dict):
            observation = observation["observation"]
        logits = self.logits(observation)
        legal = np.flatnonzero(mask)
        z = logits[legal]
        if self.deterministic:
            return int(legal[int(np.argmax(z))])
        p = np.exp(z - z.max())
        return int(legal[int(self.rng.choice(len(legal), p=p / p.sum()))])

    def choose(self, game: Game) -> int:
        return self.act(self.encoder.encode(game, game.current_seat()), game.action_mask())

    def __repr__(self) -> str:
        return f"PolicyAgent({self.label!r}, deterministic={self.deterministic})"


def _make_model(arg: str | None, seed: int | None) -> PolicyAgent:
    if not arg:
        raise ValueError("agent 'model' needs a path: model:PATH (a MaskablePPO .zip written by aoi train)")
    return PolicyAgent.from_path(arg, seed=seed)


register_agent("model", _make_model, "model:<path.zip>", "a trained MaskablePPO policy, most likely legal id")
