"""SB3 callbacks of ``aoi train``: self-play statistics for TensorBoard and league snapshots.

``SelfPlayStats`` reads ``info["episode_stats"]`` of every finished ``SeatEnv`` game (the learner's
result, see train/seat_env.py) and at the end of each rollout records, per opponent kind ``K``:

* ``selfplay/win_rate/K``: games won (a shared first place counts 1/k) / games, this rollout;
* ``selfplay/margin/K``: mean VP margin (own VP - best other VP);
* ``selfplay/games/K``: games finished against K so far;

and over all kinds ``selfplay/episode_length`` (learner decisions per game) and
``selfplay/illegal_actions`` (ids the env had to replace, cumulative: must stay 0).  With a
``log_path`` each rollout's entry is also appended to a JSON-lines file (``OUT/selfplay.jsonl``),
so that a resumed run continues the history, the learning curve and the cumulative counts of the
run it resumes instead of starting them at 0.

``TimeLimit`` ends learning after a wall-time budget (the quick demo's 10-minute promise).

``SameGamesEval`` is sb3-contrib's ``MaskableEvalCallback`` re-seeding its env before every
evaluation: each one plays the same games, so ``OUT/best`` compares policies on equal terms; a
resumed run continues the evaluation log and the best model of the run it resumes.

``LeagueSnapshots`` saves the learner every ``every`` steps into ``pool_dir`` and adds the file to
every env's opponent pool (``env_method("add_snapshot", path)``, so it also works with
``SubprocVecEnv``); the ``self`` opponents then play those frozen policies.

This module imports stable-baselines3 (it is only imported by train/train.py).
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback
from stable_baselines3.common.callbacks import BaseCallback


class SelfPlayStats(BaseCallback):
    """Win rate / margin per opponent kind, episode length and illegal ids (see the module docstring)."""

    def __init__(self, log_path: str | Path | None = None, resume_step: int | None = None, verbose: int = 0) -> None:
        super().__init__(verbose)
        self._rollout: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.games: dict[str, int] = defaultdict(int)
        self.illegal_actions = 0
        self.history: list[dict[str, Any]] = []  # one entry per rollout (for tests and the log)
        self.log_path = Path(log_path) if log_path is not None else None
        self.resume_step = resume_step

    def _init_callback(self) -> None:
        """Start the log afresh, or, resuming, take back its entries up to the checkpoint's step
        (later ones belong to the run that was abandoned) and the counts they add up to."""
        if self.log_path is None:
            return
        if self.resume_step is not None and self.log_path.exists():
            entries = [json.loads(line) for line in self.log_path.read_text().splitlines() if line.strip()]
            self.history = [e for e in entries if e["timesteps"] <= self.resume_step]
        for entry in self.history:
            for kind, row in entry.items():
                if isinstance(row, dict):
                    self.games[kind] += int(row["games"])
        if self.history:
            self.illegal_actions = int(self.history[-1]["illegal_actions"])
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self.log_path.write_text("".join(json.dumps(entry) + "\n" for entry in self.history))

    def _on_step(self) -> bool:
        dones = self.locals.get("dones")
        infos = self.locals.get("infos") or []
        for i, info in enumerate(infos):
            stats = info.get("episode_stats")
            if stats is None or (dones is not None and not dones[i]):
                continue
            self._rollout[stats["opponent"]].append(stats)
            self.games[stats["opponent"]] += 1
            self.illegal_actions += int(stats["illegal_actions"])
        return True

    def _on_rollout_end(self) -> None:
        entry: dict[str, Any] = {"timesteps": self.num_timesteps}
        lengths = []
        for kind, rows in sorted(self._rollout.items()):
            win = float(np.mean([r["win"] for r in rows]))
            margin = float(np.mean([r["margin"] for r in rows]))
            self.logger.record(f"selfplay/win_rate/{kind}", win)
            self.logger.record(f"selfplay/margin/{kind}", margin)
            self.logger.record(f"selfplay/games/{kind}", self.games[kind])
            entry[kind] = {"games": len(rows), "win_rate": win, "margin": margin}
            lengths.extend(r["length"] for r in rows)
        if lengths:
            self.logger.record("selfplay/episode_length", float(np.mean(lengths)))
        self.logger.record("selfplay/illegal_actions", self.illegal_actions)
        entry["illegal_actions"] = self.illegal_actions
        self.history.append(entry)
        if self.log_path is not None:
            with self.log_path.open("a") as log:
                log.write(json.dumps(entry) + "\n")
        self._rollout.clear()


class TimeLimit(BaseCallback):
    """Stops learning once ``seconds`` of wall time have passed (``max_minutes`` in the config)."""

    def __init__(self, seconds: float, verbose: int = 0) -> None:
        super().__init__(verbose)
        self.seconds = float(seconds)
        self.stopped_at: int | None = None
        self._start = 0.0

    def _on_training_start(self) -> None:
        self._start = time.perf_counter()

    def _on_step(self) -> bool:
        if time.perf_counter() - self._start < self.seconds:
            return True
        self.stopped_at = self.num_timesteps
        print(f"time limit: stopping after {self.seconds / 60:.1f} min at {self.num_timesteps} steps", flush=True)
        return False


class LeagueSnapshots(BaseCallback):
    """Every ``every`` learner steps: save the model into ``pool_dir`` and add it to the pools."""

    def __init__(self, every: int, pool_dir: str | Path, verbose: int = 0) -> None:
        super().__init__(verbose)
        self.every = int(every)
        self.pool_dir = Path(pool_dir)
        self._next = 0

    def _init_callback(self) -> None:
        self.pool_dir.mkdir(parents=True, exist_ok=True)
        # the model's count: a resumed run continues the schedule (the callback's own is 0 until a step)
        self._next = (self.model.num_timesteps // self.every + 1) * self.every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next:
            path = self.pool_dir / f"snapshot_{self.num_timesteps:09d}.zip"
            self.model.save(path)
            self.training_env.env_method("add_snapshot", str(path))
            self.logger.record("selfplay/snapshots", len(list(self.pool_dir.glob("snapshot_*.zip"))))
            if self.verbose:
                print(f"league: snapshot {path.name}")
            self._next += self.every
        return True


class SameGamesEval(MaskableEvalCallback):
    """``MaskableEvalCallback`` whose evaluations all play the games of ``seed`` (see the module docstring).

    ``resume_step``: a resumed run continues the evaluation log (``evaluations.npz``) of the run it
    resumes, with its entries up to that step, and saves ``best_model`` only when it beats their
    best; the callback alone would start both afresh (the log rewritten without the earlier
    evaluations, the best model replaced by the first evaluation after the resume).
    """

    def __init__(self, eval_env: Any, seed: int, resume_step: int | None = None, **kwargs: Any) -> None:
        super().__init__(eval_env, **kwargs)
        self.seed = int(seed)
        self.resume_step = resume_step

    def _init_callback(self) -> None:
        super()._init_callback()
        if self.resume_step is not None and self.log_path is not None:
            self._continue_log(Path(f"{self.log_path}.npz"), self.resume_step)

    def _continue_log(self, path: Path, step: int) -> None:
        if not path.exists():
            return
        with np.load(path) as log:
            keep = [i for i, t in enumerate(log["timesteps"]) if t <= step]  # later: the abandoned run's
            timesteps, results, lengths = (log[k][keep].tolist() for k in ("timesteps", "results", "ep_lengths"))
        if not keep:
            return
        means = [float(np.mean(r)) for r in results]
        self.best_mean_reward, self.last_mean_reward = max(means), means[-1]
        if all(len(r) == self.n_eval_episodes for r in results):  # np.savez needs equal rows
            self.evaluations_timesteps, self.evaluations_results, self.evaluations_length = timesteps, results, lengths

    def _on_step(self) -> bool:
        if self.eval_freq > 0 and self.n_calls % self.eval_freq == 0:
            self.eval_env.seed(self.seed)  # used by the reset that starts the evaluation
        return super()._on_step()
