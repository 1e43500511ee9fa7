"""``SeatEnv``: one seat of an *Age of Innovation* game as a single-agent gymnasium env (SB3).

The learner owns one seat (random by default, ``learner_seat`` fixes it, except against the
Automa, where the learner is always seat 0); the other seats are
played inside ``step()`` by opponents from an ``OpponentPool`` (ECOSYSTEM §3.4).  The env drives
the engine ``aoi_env.Game`` directly (the PettingZoo wrappers would cost ~25 us a step) and
encodes the same egocentric observation as the AEC env (``aoi_env.observation``).

* **Observation**: the learner's float32 vector ``Box(0, 1, (OBS_SIZE,))``; the action mask is
  *not* part of it: MaskablePPO reads ``action_masks()`` (a bool vector of ``NUM_ACTIONS``).
* **Episode**: ``reset`` draws the opponent kind from the pool, builds the game (a game against
  ``automa:L`` is ``players=1`` plus the Automa seat, learner on seat 0), seeds the opponents and
  plays until the learner's first decision.  ``step(a)`` applies the learner's id, then lets the
  opponents (and, inside the engine, the Automa) decide until the learner decides again or the
  game ends.
* **Reward (whose)**: always the *learner's* reward.  0 until the game ends, then the final
  reward of the learner's seat, ``aoi_env.env.final_rewards(scores, reward)`` (``rank`` default,
  ``win``, ``score_diff``), also when the game ends on an opponent's decision.  Optional
  shaping (``shaping > 0``) adds ``shaping * (phi(s') - phi(s))`` each step with
  ``phi = (own VP - best other VP) / 100``; it is 0 by default.  Without a ``gamma`` factor and
  with ``phi`` not zeroed at the end it is not policy-invariant: a game's shaping adds up to
  ``shaping * (final margin - first margin) / 100``, so it also rewards winning by more
  (docs/training.md).
* **Illegal ids**: MaskablePPO never picks one.  Anything else that steps with an illegal id
  (gymnasium's ``check_env`` samples unmasked) gets a uniformly random legal id instead and the
  ``illegal_actions`` counter in ``info`` goes up; training logs it and it must stay 0.
* **Trajectory**: ``trajectory`` lists the episode's decisions as ``(seat, id)`` pairs, the
  learner's and the opponents' (not the Automa's, which the engine plays itself), so that an
  evaluation can save the game as a record (``train.records.record_from_actions``).
* **End info**: on the final step ``info`` holds ``episode_stats`` = ``{opponent, seat, win,
  margin, vp, length, illegal_actions}`` (``win`` = 1/k for a k-way shared first place,
  ``margin`` = own VP - best other VP, ``length`` = learner decisions).

Seeding: ``reset(seed=s)`` re-seeds ``self.np_random``, from which come the opponent kind, the
learner seat, the game seed and each opponent's seed; the same seed and actions give the same
trajectory.  ``reset(options={"opponent": spec, "seat": s, "game_seed": g})`` fixes any of them.
"""

from __future__ import annotations

import math
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from aoi_env.core.config import GameConfig, check_seed, is_integer, is_real
from aoi_env.core.engine import Game
from aoi_env.core.moves import NUM_ACTIONS
from aoi_env.env import REWARD_KINDS, final_rewards
from aoi_env.observation import OBS_SIZE, ObservationEncoder
from train.opponents import OpponentPool, check_spec, game_config_for

MAX_DECISIONS = 50_000  # engine decisions; a game has ~100-400, this only guards against a stuck loop


class SeatEnv(gym.Env):
    """A single-agent view of one seat (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        game: str | GameConfig = "aoi(players=2)",
        opponents: OpponentPool | dict[str, float] | str = "random",
        reward: str = "rank",
        setup_choices: str = "random",
        learner_seat: int | None = None,
        shaping: float = 0.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(game, (str, GameConfig)):
            raise ValueError(f"game must be a game string such as 'aoi(players=2)' or a GameConfig, got {game!r}")
        self.base = GameConfig.parse(game) if isinstance(game, str) else game
        if self.base.automa:
            raise ValueError("give the Automa as an opponent (automa:L), not in the game string")
        if reward not in REWARD_KINDS:
            raise ValueError(f"reward must be one of {', '.join(REWARD_KINDS)}; got {reward!r}")
        if learner_seat is not None and (not is_integer(learner_seat) or not 0 <= learner_seat < self.base.players):
            raise ValueError(f"learner_seat must be 0..{self.base.players - 1} or None, got {learner_seat!r}")
        if not is_real(shaping) or not math.isfinite(shaping):
            raise ValueError(f"shaping must be a finite number, got {shaping!r}")
        if setup_choices not in ("random", "players"):
            raise ValueError(f"setup_choices must be 'random' or 'players', got {setup_choices!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.pool = opponents if isinstance(opponents, OpponentPool) else OpponentPool(opponents)
        self.reward_kind = reward
        self.setup_choices = setup_choices
        self.learner_seat = learner_seat
        self.shaping = float(shaping)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._configs: dict[str, GameConfig] = {}
        self._encoder = ObservationEncoder()
        self.game: Game | None = None
        self.seat = 0
        self.kind = ""
        self.opponents: dict[int, Any] = {}
        self.game_seed = 0
        self.trajectory: list[tuple[int, int]] = []  # (seat, id) of every decision of the episode
        self.illegal_actions = 0  # over the env's lifetime
        self._episode_illegal = 0
        self._length = 0
        self._phi = 0.0

    # -- gymnasium API --------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        options = _reset_options(options)  # checked before re-seeding: a rejected call changes nothing
        super().reset(seed=seed)
        rng = self.np_random
        self.kind = options.get("opponent") or self.pool.draw_kind(rng)
        config = self.config_for(self.kind)
        seat = options.get("seat")
        if seat is None:  # learner_seat, except in a game against the Automa: the learner is seat 0
            seat = self.learner_seat if config.players > 1 else 0
        if seat is None:
            seat = int(rng.integers(config.players))
        if not 0 <= int(seat) < config.players:
            raise ValueError(f"seat {seat} is not a player seat of {config} (0..{config.players - 1})")
        self.seat = int(seat)
        game_seed = options.get("game_seed")
        self.game_seed = int(rng.integers(2**31 - 1)) if game_seed is None else int(game_seed)
        self.game = Game(config, seed=self.game_seed)
        self.trajectory = []
        self.opponents = {s: self.pool.make(self.kind, rng) for s in range(config.players) if s != self.seat}
        for agent in self.opponents.values():
            if hasattr(agent, "bind"):
                agent.bind(self.game)
        self._episode_illegal = 0
        self._length = 0
        self._play_opponents()
        self._phi = self._potential()
        info = {"opponent": self.kind, "seat": self.seat, "game": str(config)}
        return self._observe(), info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        game = self._require_game()
        if game.is_over():
            raise RuntimeError("the game is over: call reset()")
        action = _as_id(action)
        legal = game.legal_actions()
        if action not in legal:
            self.illegal_actions += 1
            self._episode_illegal += 1
            action = legal[int(self.np_random.integers(len(legal)))]
        game.apply_action(action)
        self.trajectory.append((self.seat, action))
        self._length += 1
        self._play_opponents()
        reward = 0.0
        if self.shaping:
            phi = self._potential()
            reward += self.shaping * (phi - self._phi)
            self._phi = phi
        info: dict[str, Any] = {"illegal_actions": self._episode_illegal}
        terminated = game.is_over()
        if terminated:
            scores = game.scores()
            reward += float(final_rewards(scores, self.reward_kind)[self.seat])
            info["episode_stats"] = self.episode_stats()
        return self._observe(), reward, terminated, False, info  # games always end: never truncated

    def action_masks(self) -> np.ndarray:
        """The learner's legal ids as bool (never all False: all True once the game is over, P1)."""
        game = self._require_game()
        if game.is_over():
            return np.ones(NUM_ACTIONS, dtype=bool)
        mask = game.action_mask().astype(bool)
        assert mask.any(), "the deciding seat has no legal id"  # engine guarantee (no dead ends)
        return mask

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        from aoi_env.render.text import render_text

        return render_text(self._require_game())

    # -- league ---------------------------------------------------------------------------

    def add_snapshot(self, path: str) -> None:
        """Add a frozen learner to the pool (called through ``VecEnv.env_method``)."""
        self.pool.add_snapshot(path)

    def episode_stats(self) -> dict[str, Any]:
        """Result of the finished game from the learner's seat (see the module docstring)."""
        game = self._require_game()
        scores = [int(v) for v in game.scores()]
        own = scores[self.seat]
        others = [v for i, v in enumerate(scores) if i != self.seat]
        best = max(scores)
        share = 1.0 / scores.count(best) if own == best else 0.0
        return {
            "opponent": self.kind,
            "seat": self.seat,
            "win": share,
            "margin": own - max(others),
            "vp": own,
            "length": self._length,
            "illegal_actions": self._episode_illegal,
        }

    # -- internals ------------------------------------------------------------------------

    def config_for(self, kind: str) -> GameConfig:
        key = kind if self.pool.is_automa(kind) else ""
        if key not in self._configs:
            self._configs[key] = game_config_for(self.base, kind, self.setup_choices)
        return self._configs[key]

    def _play_opponents(self) -> None:
        """Opponents decide until the learner decides or the game ends (Automa turns are engine-internal)."""
        game = self._require_game()
        for _ in range(MAX_DECISIONS):
            seat = game.current_seat()
            if seat == self.seat or seat < 0:
                return
            action = game.check_action(self.opponents[seat].choose(game))
            game.apply_action(action)
            self.trajectory.append((seat, action))
        raise RuntimeError(f"the opponents made {MAX_DECISIONS} decisions in a row in {game.config}")

    def _potential(self) -> float:
        if not self.shaping:
            return 0.0
        scores = self._require_game().scores()
        others = np.delete(scores, self.seat)
        return float(scores[self.seat] - others.max()) / 100.0

    def _observe(self) -> np.ndarray:
        return self._encoder.encode(self._require_game(), self.seat)

    def _require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game


RESET_OPTIONS = ("opponent", "seat", "game_seed")


def _reset_options(options: Any) -> dict[str, Any]:
    """``reset``'s options checked: a dict of ``RESET_OPTIONS`` (a misspelt key was ignored, a seat
    of 1.7 or a game seed of 1.5 truncated, a seat "a" gave int()'s message, and an unknown
    opponent was called an Automa)."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(f"options must be a dict with keys among {', '.join(RESET_OPTIONS)}, or None; got {options!r}")
    unknown = sorted(set(options) - set(RESET_OPTIONS), key=str)
    if unknown:
        raise ValueError(f"unknown reset option {unknown[0]!r}; valid: {', '.join(RESET_OPTIONS)}")
    if options.get("opponent"):
        check_spec(options["opponent"], "options['opponent']")
    seat = options.get("seat")
    if seat is not None and not is_integer(seat):
        raise ValueError(f"options['seat'] must be a seat number, got {seat!r}")
    if options.get("game_seed") is not None:
        check_seed(options["game_seed"], "options['game_seed']")
    return options


def _as_id(action: Any) -> int:
    """An action id from an int, a numpy integer or a one-element integer array (SB3 passes
    either); a float, a bool or anything else is a ValueError instead of a silent ``int()``."""
    if isinstance(action, np.ndarray) and action.size == 1:
        action = action.reshape(())[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"action must be an integer id, got {action!r}")
    return int(action)
