"""Batched play (issue 10): many engine games stepped together, for data generation and evaluation.

``VectorGame(config, n, seed)`` holds ``n`` independent games of the same configuration.  Every
game always has a pending decision: a game that ends inside ``step`` is reset at once (auto-reset)
to a fresh game, and the step reports it as done with its final scores and rewards.

* ``seats()``: the seat to decide in each game, ``int64[n]``;
* ``legal_masks()``: ``int8[n, NUM_ACTIONS]``, the legal ids of each pending decision;
* ``observations()``: ``float32[n, OBS_SIZE]``, each game seen by the seat to decide (the
  egocentric encoding of ``aoi_env.observation``; one caching encoder per game);
* ``step(actions)``: apply one legal id per game; returns a ``VectorStep`` (done flags, final
  rewards and scores of the games that ended, their seeds);
* ``random_actions(rng)``: one uniformly random legal id per game.

Seeds: the k-th game started by a ``VectorGame`` (k = 0, 1, ... over its whole life, resets
included) is ``Game(config, seed=game_seed(seed, k))``, so a run is reproducible and two vectors
with different seeds play different games.  Nothing here needs torch; the final rewards are
``aoi_env.env.final_rewards`` (so ``step`` imports gymnasium and pettingzoo, both required).

``throughput(...)`` measures random play with ``workers`` processes (one ``VectorGame`` each)
and is what ``aoi bench`` reports for two cores.
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from aoi_env.core.config import GameConfig, check_choice, check_seed, is_integer
from aoi_env.core.engine import Game
from aoi_env.core.moves import NUM_ACTIONS

REWARD_KINDS = ("rank", "win", "score_diff")


def game_seed(seed: int, k: int) -> int:
    """Seed of the k-th game started by a ``VectorGame`` with ``seed`` (independent streams)."""
    return int(np.random.SeedSequence([int(seed), 104729, int(k)]).generate_state(1)[0] >> 1)


@dataclass
class VectorStep:
    """What one ``VectorGame.step`` reports.

    ``done[i]``: game i ended with this step (it has been replaced by a fresh game);
    ``rewards[i]``: final reward per player seat of an ended game (``aoi_env.env.final_rewards``),
    zeros otherwise; ``scores[i]``: its final VP per seat (Automa seats included), zeros
    otherwise; ``seeds[i]``: the seed of the game that ended, -1 otherwise.
    """

    done: np.ndarray  # bool[n]
    rewards: np.ndarray  # float32[n, players]
    scores: np.ndarray  # int32[n, seats]
    seeds: np.ndarray  # int64[n]


class VectorGame:
    """``n`` games of one configuration with auto-reset; see the module docstring."""

    def __init__(self, config: GameConfig | str, n: int, seed: int = 0, reward: str = "rank") -> None:
        if not is_integer(n) or n < 1:
            raise ValueError(f"n must be a positive number of games, got {n!r}")
        check_choice("reward", reward, REWARD_KINDS)
        self.config = config if isinstance(config, GameConfig) else GameConfig.parse(config)
        self.n = int(n)
        self.seed = check_seed(seed)
        self.reward = reward
        self.players = self.config.players
        self.started = 0  # games started so far (k of game_seed)
        self.games: list[Game] = []
        self.game_seeds = np.zeros(self.n, dtype=np.int64)
        self.finished = 0  # games finished so far
        for i in range(self.n):
            self.games.append(self._new_game(i))
        self._encoders: list | None = None

    def _new_game(self, i: int) -> Game:
        s = game_seed(self.seed, self.started)
        self.started += 1
        self.game_seeds[i] = s
        return Game(self.config, seed=s)

    # -- reading ---------------------------------------------------------------------------

    def seats(self) -> np.ndarray:
        """int64[n]: the seat whose decision is pending in each game."""
        return np.array([g.current_seat() for g in self.games], dtype=np.int64)

    def legal_masks(self) -> np.ndarray:
        """int8[n, NUM_ACTIONS]: 1 for each legal id of each game's pending decision."""
        mask = bytearray(self.n * NUM_ACTIONS)  # byte writes beat numpy's list indexing (Game.action_mask)
        for i, g in enumerate(self.games):
            row = i * NUM_ACTIONS
            for a in g._legal:
                mask[row + a] = 1
        return np.frombuffer(mask, dtype=np.int8).reshape(self.n, NUM_ACTIONS)

    def legal_actions(self) -> list[list[int]]:
        return [g.legal_actions() for g in self.games]

    def observations(self) -> np.ndarray:
        """float32[n, OBS_SIZE]: each game seen by its deciding seat (egocentric)."""
        from aoi_env.observation import OBS_SIZE, ObservationEncoder

        if self._encoders is None:
            self._encoders = [ObservationEncoder() for _ in range(self.n)]
        out = np.empty((self.n, OBS_SIZE), dtype=np.float32)
        for i, (g, enc) in enumerate(zip(self.games, self._encoders, strict=True)):
            enc.encode_into(out[i], g, g.current_seat())  # into the row: no new array, no copy
        return out

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """int64[n]: one uniformly random legal id per game (one ``rng.integers`` call for all)."""
        if not isinstance(rng, np.random.Generator):  # None / a seed gave an AttributeError
            raise ValueError(f"rng must be a numpy Generator (np.random.default_rng(seed)), got {rng!r}")
        picks = rng.integers(np.fromiter((len(g._legal) for g in self.games), np.int64, self.n)).tolist()
        return np.array([sorted(g._legal)[k] for g, k in zip(self.games, picks, strict=True)], dtype=np.int64)

    # -- stepping --------------------------------------------------------------------------

    def step(self, actions: Sequence[int] | np.ndarray) -> VectorStep:
        """Apply ``actions[i]`` to game i (each must be legal: ValueError otherwise, naming the game,
        and then no game has changed).

        Games that end are reset to fresh games; their final rewards and scores are reported.
        """
        from aoi_env.env import final_rewards

        acts = np.asarray(actions)
        if acts.shape != (self.n,):
            raise ValueError(f"need one action per game: shape ({self.n},), got {acts.shape}")
        ids = acts.tolist()
        if not isinstance(actions, np.ndarray):  # check what was given where numpy changed it
            ids = [_given(a, i, acts.dtype.kind in "iu") for a, i in zip(actions, ids, strict=True)]
        for i, (g, action) in enumerate(zip(self.games, ids, strict=True)):  # all checked first:
            try:  # a bad batch changes no game
                ids[i] = g.check_action(action)
            except ValueError as err:
                raise ValueError(f"game {i}: {err}") from None
        done = np.zeros(self.n, dtype=bool)
        rewards = np.zeros((self.n, self.players), dtype=np.float32)
        scores = np.zeros((self.n, self.config.seats), dtype=np.int32)
        seeds = np.full(self.n, -1, dtype=np.int64)
        for i, (g, action) in enumerate(zip(self.games, ids, strict=True)):
            g.apply_action(action)
            if g.is_over():
                final = g.scores()
                done[i] = True
                scores[i] = final
                rewards[i] = final_rewards(final, self.reward)[: self.players]  # ranked with the Automas, as the env
                seeds[i] = self.game_seeds[i]
                self.finished += 1
                self.games[i] = self._new_game(i)
        return VectorStep(done, rewards, scores, seeds)


def _given(action: object, converted: object, integer_batch: bool) -> object:
    """The action to check for one game of a batch that was not an array: numpy made [False, 2]
    int64 and [250, 2.5] float64, so the error would name the wrong game or value; a tensor or a
    0-d array of an integer batch is taken as numpy converted it."""
    if isinstance(action, (bool, np.bool_)):
        return action
    if isinstance(action, (int, np.integer)):
        return int(action)
    return converted if integer_batch else action


# ------------------------------------------------------------------------------------------------
# throughput (aoi bench)


def _worker(args: tuple[str, int, int, int, bool]) -> tuple[int, int, float]:
    game, n, seed, decisions, observe = args
    vec = VectorGame(game, n, seed=seed)
    rng = np.random.default_rng(seed)
    done = games = 0
    if observe:
        vec.observations()  # compiles the numba encoder (if any) before the clock starts
    gc.collect()  # as aoi_env.bench.start_clock: no collection of earlier garbage inside the window
    t0 = time.perf_counter()
    while done < decisions:
        if observe:
            vec.observations()
            vec.legal_masks()
        games += int(vec.step(vec.random_actions(rng)).done.sum())
        done += n
    return done, games, time.perf_counter() - t0


def throughput(
    game: str = "aoi(players=3)",
    n: int = 16,
    decisions: int = 20_000,
    workers: int = 1,
    observe: bool = True,
    seed: int = 0,
) -> dict[str, float]:
    """Random-play decisions/s (and finished games/s) of ``workers`` processes, one ``VectorGame`` of ``n`` each.

    With ``observe`` every step also builds the observations and legal masks.  ``workers`` > 1
    uses separate processes (fork where available); the figures are totals over the workers per
    second of the slowest worker's own playing time (process start-up left out); ``wall_s`` is
    the whole call.
    """
    for name, value in (("n", n), ("decisions", decisions), ("workers", workers)):
        if not is_integer(value) or value < 1:
            raise ValueError(f"{name} must be an integer of at least 1, got {value!r}")
    if not isinstance(observe, (bool, np.bool_)):
        raise ValueError(f"observe must be True or False, got {observe!r}")
    seed = check_seed(seed)  # 'x' gave a TypeError from seed + w, in the parent or a worker
    jobs = [(game, n, seed + w, max(1, decisions // workers), observe) for w in range(workers)]
    t0 = time.perf_counter()
    if workers == 1:
        results = [_worker(jobs[0])]
    else:
        methods = mp.get_all_start_methods()
        ctx = mp.get_context("fork" if "fork" in methods else methods[0])
        with ctx.Pool(workers) as pool:
            results = pool.map(_worker, jobs)
    wall = time.perf_counter() - t0
    total = sum(r[0] for r in results)
    games = sum(r[1] for r in results)
    busy = max(r[2] for r in results)  # the slowest worker's playing time (without process start-up)
    return {"decisions_per_s": total / busy, "games_per_s": games / busy, "wall_s": wall}
