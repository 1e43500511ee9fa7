"""Uniformly random legal play: the baseline every other agent is measured against."""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.base import agent_seed, legal_of, mask_of
from aoi_env.core.engine import Game


class RandomAgent:
    """Picks uniformly among the legal ids with its own seeded ``numpy`` Generator.

    The same seed and the same sequence of positions give the same choices, at the engine level
    (``choose``) and at the env level (``act``, which needs only the mask).
    """

    name = "random"

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = agent_seed(seed)
        self.rng = np.random.default_rng(self.seed)

    def choose(self, game: Game) -> int:
        legal = legal_of(game)
        return int(legal[int(self.rng.integers(len(legal)))])

    def act(self, observation: Any, mask: np.ndarray | None = None) -> int:
        legal = np.flatnonzero(mask_of(observation, mask))
        return int(legal[int(self.rng.integers(len(legal)))])

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed})"
