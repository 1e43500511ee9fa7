"""The opponent pool of self-play training: who sits at the learner's table.

An *opponent spec* names one kind of opponent:

==================  =========================================================================
``random``          ``agents.RandomAgent`` (uniform legal ids, ~free)
``heuristic``       ``agents.HeuristicAgent`` (lookahead on clones, ~2-3 ms a decision)
``automa:L``        the solo Automa at level L (1-5), ``automa:FACTION:L[:TERRAIN]`` for another
                    faction.  Not an agent: the game becomes ``players=1`` plus an Automa seat
                    (``GameConfig(automa=("simpletons:L",))``) and the learner sits on seat 0.
``self``            a frozen snapshot of the learner from the league (the newest one with
                    probability ``latest_prob``, else a uniform pick among the kept snapshots)
``model:PATH``      a fixed trained model (a MaskablePPO ``.zip``)
==================  =========================================================================

``OpponentPool(weights)`` draws one kind per game with the given weights; every non-learner
player seat of that game is then played by a fresh opponent of that kind (own seed).  Snapshots
are model files added with ``add_snapshot(path)`` (deduplicated by path, loaded on first use),
so a pool inside a ``SubprocVecEnv`` worker gets them through ``env_method("add_snapshot", path)``.

torch is imported only when a policy opponent (``self``, ``model:PATH``) is first used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from aoi_env.core.config import GameConfig, is_integer, is_real

SCRIPTED = ("random", "heuristic")
KINDS = "random, heuristic, automa:L (L = 1-5), automa:FACTION:L, self, model:PATH"


def automa_engine_spec(spec: str) -> str | None:
    """``"automa:3"`` -> ``"simpletons:3"`` (the engine seat spec); None if ``spec`` is no Automa."""
    from agents import automa_seat_spec

    return automa_seat_spec(spec)


def check_spec(spec: Any, key: str = "opponent", allow_self: bool = True) -> str:
    """Validate an opponent spec without loading anything; returns it.  Bad specs raise ValueError."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"bad value for {key!r}: {spec!r}; valid: {KINDS}")
    spec = spec.strip()
    if spec in SCRIPTED or (spec == "self" and allow_self):
        return spec
    if spec.startswith("model:"):
        if not spec[len("model:") :]:
            raise ValueError(f"bad value for {key!r}: {spec!r}; model:PATH needs a path to a .zip")
        return spec
    if spec.lower().startswith("automa:"):
        try:
            automa_engine_spec(spec)
        except ValueError as err:
            raise ValueError(f"bad value for {key!r}: {err}") from None
        return spec
    valid = KINDS if allow_self else KINDS.replace(", self", "")
    if spec == "self":  # a known kind, but only a training opponent (the learner's own league)
        raise ValueError(f"bad value for {key!r}: 'self' (the league) is a training opponent only; valid here: {valid}")
    raise ValueError(f"bad value for {key!r}: unknown opponent {spec!r}; valid: {valid}")


def check_opponent_game(key: str, spec: str, base: GameConfig, game: str, setup_choices: str) -> None:
    """An opponent that will play: a ``model:`` file is a saved model, any other kind (but the
    league's ``self``) can play ``base`` (e.g. no Automa in a draft game); a ValueError naming
    ``key`` otherwise, before any game (shared by aoi train's config and aoi eval)."""
    from train.config import model_file

    if spec.startswith("model:"):
        model_file(spec[len("model:") :], f"bad value for {key!r}")
    elif spec != "self":
        try:
            game_config_for(base, spec, setup_choices)
        except ValueError as err:
            raise ValueError(f"bad value for {key!r}: {spec!r} cannot play {game!r}: {err}") from None


def game_config_for(base: GameConfig, kind: str, setup_choices: str = "random") -> GameConfig:
    """The config of one game against ``kind``: the base game, or 1 player + the Automa seat."""
    params = base.to_params()
    params["setup_choices"] = setup_choices
    automa = automa_engine_spec(kind) if kind.lower().startswith("automa:") else None
    if automa is not None:
        params["players"] = 1
        params["automa"] = [automa]
        params["map"] = "auto"  # the Automa setup picks the side by the number of factions (AUTOMA.md §3)
        params["factions"] = params["factions"][:1]
        params["boards"] = params["boards"][:1]
    return GameConfig.from_params(params)


class OpponentPool:
    """Weighted opponent kinds plus the league's snapshots (see the module docstring)."""

    def __init__(
        self, weights: Mapping[str, float] | str = "random", max_snapshots: int = 5, latest_prob: float = 0.5
    ) -> None:
        if isinstance(weights, str):
            weights = {weights: 1.0}
        if weights is not None and not isinstance(weights, Mapping):  # a list gave a TypeError from weights[k]
            raise ValueError(f"opponents must be a spec or a mapping of spec -> weight, e.g. {{'random': 1.0}}; "
                             f"got {weights!r}")  # fmt: skip
        if not weights:
            raise ValueError("the opponent pool needs at least one kind")
        self.kinds = [check_spec(k, "opponents") for k in weights]
        for kind, weight in weights.items():  # 'x' gave float()'s message; NaN / inf made NaN probabilities
            if not is_real(weight) or not np.isfinite(weight):
                raise ValueError(f"opponent weight of {kind!r} must be a finite number >= 0, got {weight!r}")
        w = np.asarray([float(weights[k]) for k in weights], dtype=np.float64)
        if (w < 0).any() or not 0 < w.sum() < np.inf:
            raise ValueError(f"opponent weights must be >= 0 with a positive sum, got {dict(weights)}")
        if not is_integer(max_snapshots) or max_snapshots < 1:
            raise ValueError(f"max_snapshots must be an integer >= 1, got {max_snapshots!r}")
        if not is_real(latest_prob) or not 0.0 <= latest_prob <= 1.0:
            raise ValueError(f"latest_prob must be a number in [0, 1], got {latest_prob!r}")
        self.probs = w / w.sum()
        self.max_snapshots = int(max_snapshots)
        self.latest_prob = float(latest_prob)
        self.snapshots: list[str] = []
        self._policies: dict[str, Any] = {}

    def mix(self) -> str:
        """The opponent kinds with their probabilities, e.g. ``{random: 0.50, self: 0.50}``."""
        return "{" + ", ".join(f"{k}: {p:.2f}" for k, p in zip(self.kinds, self.probs, strict=True)) + "}"

    def __repr__(self) -> str:
        return f"OpponentPool({self.mix()}, snapshots={len(self.snapshots)})"

    # -- league ---------------------------------------------------------------------------

    def add_snapshot(self, path: str, policy: Any = None) -> None:
        """Add a frozen learner (a model .zip) as the newest; keeps the newest ``max_snapshots``.

        A path already in the pool (a file written again, e.g. by a resumed run) becomes the
        newest and is loaded afresh.  The pool owns its policies: a dropped snapshot frees its
        network (they are loaded outside ``load_policy``'s cache).
        """
        path = str(path)
        if path in self.snapshots:
            self.snapshots.remove(path)
            self._policies.pop(path, None)
        self.snapshots.append(path)
        if policy is not None:
            self._policies[path] = policy
        while len(self.snapshots) > self.max_snapshots:
            self._policies.pop(self.snapshots.pop(0), None)

    def _policy(self, path: str) -> Any:
        if path not in self._policies:
            from train.policy_agent import load_policy

            self._policies[path] = load_policy(path, cache=path not in self.snapshots)
        return self._policies[path]

    # -- drawing --------------------------------------------------------------------------

    def draw_kind(self, rng: np.random.Generator) -> str:
        return self.kinds[int(rng.choice(len(self.kinds), p=self.probs))]

    def make(self, kind: str, rng: np.random.Generator) -> Any:
        """A fresh opponent of ``kind`` (an agent with ``choose(game)``) seeded from ``rng``."""
        seed = int(rng.integers(2**31 - 1))
        if kind in SCRIPTED:
            from agents import make_agent

            return make_agent(kind, seed=seed)
        if kind == "self":
            if not self.snapshots:
                raise ValueError("opponent 'self' needs a snapshot: add_snapshot(path) first")
            if len(self.snapshots) == 1 or rng.random() < self.latest_prob:
                path = self.snapshots[-1]
            else:
                path = self.snapshots[int(rng.integers(len(self.snapshots)))]
            return self._policy_agent(path, seed, deterministic=False)
        if kind.startswith("model:"):
            return self._policy_agent(kind[len("model:") :], seed, deterministic=False)
        raise ValueError(f"{kind!r} is not an agent at a seat (an Automa is part of the game config)")

    def _policy_agent(self, path: str, seed: int, deterministic: bool) -> Any:
        from train.policy_agent import PolicyAgent

        return PolicyAgent(self._policy(path), seed=seed, deterministic=deterministic, label=path)

    @staticmethod
    def is_automa(kind: str) -> bool:
        return kind.lower().startswith("automa:")
