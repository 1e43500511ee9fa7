"""Versioned entry point (PettingZoo classic style): ``from aoi_env import age_of_innovation_v0``.

The version is in the module name, in ``metadata["name"]`` and in the registry id
``aoi/age_of_innovation-v0``; it is bumped when the rules, parameters, observation or action
encoding change (see the Version History of the environment card in ``aoi_env.env``).
"""

from __future__ import annotations

from aoi_env.env import env, raw_env

__all__ = ["env", "raw_env"]
