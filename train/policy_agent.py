"""A trained MaskablePPO policy as an agent: ``make_agent("model:PATH")`` (issue 7).

``PolicyAgent`` follows ``agents.base.Agent``: ``choose(game)`` encodes the deciding seat's
egocentric observation (``aoi_env.observation``) and ``act(observation, mask)`` picks a legal id
from the policy's logits: the most likely legal id (``deterministic=True``, what MaskablePPO's
``predict(..., deterministic=True)`` returns) or a sample from the masked softmax drawn with the
agent's own seeded numpy Generator (so a seeded game is reproducible without touching torch's
global RNG).  Illegal ids never come out: their logits are set to -inf before the choice.

Importing this module registers the spec ``model:PATH`` with ``agents.register_agent``; torch and
sb3-contrib are imported only when a model is loaded (``load_policy``); the path keeps its case.

Loading never disturbs the process's random generators: SB3's ``load`` re-seeds python, numpy
and torch with the saved model's seed, which in the middle of training (a league snapshot
joining the pool) would restart the learner's sampling and minibatch order from the same state
at every snapshot.  ``load_policy`` restores the three generators afterwards.
"""

from __future__ import annotations

import os
import random
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from agents import register_agent
from agents.base import agent_seed, mask_of
from aoi_env.core.engine import Game
from aoi_env.observation import ObservationEncoder

CACHE_SIZE = 8  # policies kept by ``load_policy`` (tournaments and evaluation reload the same files)
_CACHE: OrderedDict[tuple[str, float], Any] = OrderedDict()


@contextmanager
def keeping_global_rngs() -> Iterator[None]:
    """Restore python's, numpy's and torch's global random generators on exit (see the module docstring)."""
    import torch

    states = random.getstate(), np.random.get_state(), torch.get_rng_state()
    try:
        yield
    finally:
        random.setstate(states[0])
        np.random.set_state(states[1])
        torch.set_rng_state(states[2])


def load_policy(path: str | os.PathLike[str], cache: bool = True) -> Any:
    """The policy network of a saved MaskablePPO model, for acting: CPU, eval mode, no optimizer.

    ``cache``: keep it in a small per-process cache (the newest ``CACHE_SIZE`` file versions);
    an owner that manages its policies' lifetime (the league's ``OpponentPool``) passes False.
    """
    from train.config import model_file

    path = model_file(os.fspath(path), "model")
    key = (os.path.abspath(path), os.path.getmtime(path))
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    policy = _load(path)
    if cache:
        _CACHE[key] = policy
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    return policy


def _load(path: str) -> Any:
    from sb3_contrib import MaskablePPO

    from aoi_env.observation import OBS_SCHEMA_VERSION, OBS_SIZE

    with keeping_global_rngs():
        policy = MaskablePPO.load(path, device="cpu").policy
    shape = tuple(policy.observation_space.shape)
    if shape != (OBS_SIZE,):
        raise ValueError(
            f"model {path!r} was trained on observations of shape {shape}, but this aoi-env encodes "
            f"{OBS_SIZE} floats (observation schema {OBS_SCHEMA_VERSION}); retrain it with aoi train"
        )
    policy.set_training_mode(False)
    policy.optimizer = None  # Adam's moments: twice the parameters, never used for acting
    return policy


class PolicyAgent:
    """Plays a MaskablePPO policy (see the module docstring)."""

    name = "model"

    def __init__(self, policy: Any, seed: int | None = 0, deterministic: bool = True, label: str = "model") -> None:
        self.policy = policy
        self.seed = agent_seed(seed)
        self.deterministic = deterministic
        self.label = label
        self.rng = np.random.default_rng(self.seed)
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


def register() -> None:
    """Register ``model:PATH`` with ``agents`` (done on import; again after a registry reset)."""
    register_agent("model", _make_model, "model:<path.zip>", "a trained MaskablePPO policy, most likely legal id")


register()
