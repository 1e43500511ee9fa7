"""aoi-env: the reference reinforcement-learning environment for *Age of Innovation*.

The rules engine lives in ``aoi_env.core`` (numpy only); ``aoi_env.env`` / ``aoi_env.raw_env``
are the PettingZoo AEC environment.
"""

from __future__ import annotations

__version__ = "0.1.0"

from aoi_env.core.config import DEFAULT_PARAMS, GameConfig
from aoi_env.core.engine import Game

__all__ = ["DEFAULT_PARAMS", "Game", "GameConfig", "__version__"]
