"""aoi-env: the reference reinforcement-learning environment for *Age of Innovation*.

The rules engine lives in ``aoi_env.core`` (numpy only); ``aoi_env.env`` / ``aoi_env.raw_env``
are the PettingZoo AEC environment (card: the docstring of the ``aoi_env.env`` module,
docs/environment.md).  Importing the package registers ``aoi/age_of_innovation-v0`` in
PettingZoo's registry, so ``pettingzoo.make("aec", "aoi/age_of_innovation-v0")`` works.
"""

from __future__ import annotations

__version__ = "0.1.0"

from aoi_env.core.config import DEFAULT_PARAMS, GameConfig
from aoi_env.core.engine import Game

__all__ = ["DEFAULT_PARAMS", "Game", "GameConfig", "__version__", "env", "raw_env"]

try:  # the RL layer needs gymnasium + pettingzoo; the engine (aoi_env.core) works without them
    from aoi_env.env import REGISTRY_ID, env, raw_env
except ImportError as _err:  # pragma: no cover - only without the RL dependencies
    if (_err.name or "").split(".")[0] not in ("gymnasium", "pettingzoo"):
        raise
else:
    import pettingzoo as _pz

    if REGISTRY_ID not in _pz.aec_registry:  # register once, also if the package is reloaded
        _pz.register("aec", REGISTRY_ID, entry_point="aoi_env.age_of_innovation_v0:env")
