"""``aoi train``: MaskablePPO self-play training in ``SeatEnv`` (a thin SB3 adapter, STYLE §5.16).

Whose reward: the learner's (``SeatEnv``): 0 until the game ends, then the final reward of the
learner's seat (``reward``: ``rank`` by default), also when the game ends on an opponent's move.

``run_training(cfg)``:

1. seeds python, numpy and torch (``set_random_seed(cfg.seed)``); env ``i`` is seeded ``seed + i``;
2. builds ``n_envs`` ``SeatEnv`` copies in a ``DummyVecEnv`` (or ``SubprocVecEnv``) with a
   ``VecMonitor``; opponents come from one ``OpponentPool`` (``cfg.opponents``);
3. creates ``MaskablePPO("MlpPolicy", ...)`` (or loads ``--resume PATH`` with the config's
   ``ppo`` settings, takes back the league as it was at its step, and continues up to
   ``total_timesteps``), saves the untrained policy as the baseline and first league snapshot;
4. learns with callbacks: ``SelfPlayStats`` (TensorBoard: win rate / margin per opponent kind,
   episode length, illegal ids), ``LeagueSnapshots``, ``CheckpointCallback``,
   ``SameGamesEval`` (vs ``eval.opponent``, the same games each time) and the progress bar;
5. saves ``OUT/<name>.zip`` with a JSON sidecar (env id, versions, game string, seed, config);
6. evaluates the trained and the untrained policy against ``final_eval.opponents`` and prints
   the table (also ``OUT/results.md`` / ``results.json``).

Saved models are named ``<env id>-<game>-seed<seed>``, e.g.
``age_of_innovation_v0-aoi_players=2-seed0.zip`` (``model_name``).
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

from aoi_env import __version__
from aoi_env.env import ENV_NAME, REGISTRY_ID
from train.config import TrainConfig, stream_seed


def model_name(cfg: TrainConfig) -> str:
    """``<env id>-<game string, file-safe>-seed<seed>``: ``age_of_innovation_v0-aoi_players=2-seed0``."""
    slug = re.sub(r"[^A-Za-z0-9=.+-]+", "_", cfg.game).strip("_")
    return f"{ENV_NAME}-{slug}-seed{cfg.seed}"


def metadata(cfg: TrainConfig, timesteps: int) -> dict[str, Any]:
    from aoi_env.core.moves import ACTION_SCHEMA_VERSION
    from aoi_env.core.state import STATE_SCHEMA_VERSION
    from aoi_env.observation import OBS_SCHEMA_VERSION

    return {
        "env_id": REGISTRY_ID,
        "env_name": ENV_NAME,
        "aoi_env_version": __version__,
        "action_schema": ACTION_SCHEMA_VERSION,
        "observation_schema": OBS_SCHEMA_VERSION,
        "state_schema": STATE_SCHEMA_VERSION,
        "game": cfg.game,
        "seed": cfg.seed,
        "timesteps": int(timesteps),
        "config": cfg.to_dict(),
    }


def save_model(model: Any, path: Path, cfg: TrainConfig) -> Path:
    """``path`` (.zip) plus ``path.json`` with ``metadata``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    model.save(path)
    path.with_suffix(".json").write_text(json.dumps(metadata(cfg, model.num_timesteps), indent=2) + "\n")
    return path


def make_env_fn(cfg: TrainConfig, pool: Any) -> Any:
    """A picklable factory of one ``SeatEnv`` (the pool is shared in-process, copied per subprocess).

    It also sets torch's thread count in the process that builds the env: a ``SubprocVecEnv``
    worker would otherwise run its league opponents with torch's default threads.
    """
    from train.seat_env import SeatEnv

    def make() -> SeatEnv:
        if cfg.torch_threads:
            import torch

            torch.set_num_threads(cfg.torch_threads)
        return SeatEnv(
            cfg.game,
            pool,
            reward=cfg.reward,
            setup_choices=cfg.setup_choices,
            learner_seat=cfg.learner_seat,
            shaping=cfg.shaping,
        )

    return make


def make_vec_env(cfg: TrainConfig, pool: Any) -> Any:
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    fns = [make_env_fn(cfg, pool) for _ in range(cfg.n_envs)]
    venv = SubprocVecEnv(fns) if cfg.vec_env == "subproc" else DummyVecEnv(fns)
    return VecMonitor(venv)


def make_pool(cfg: TrainConfig) -> Any:
    from train.opponents import OpponentPool

    return OpponentPool(cfg.opponents, cfg.league.max_snapshots, cfg.league.latest_prob)


def ppo_settings(cfg: TrainConfig) -> dict[str, Any]:
    """The ``ppo`` section as MaskablePPO keyword arguments, except ``net_arch`` (the network's shape)."""
    p = cfg.ppo
    return {
        "learning_rate": p.learning_rate,
        "n_steps": p.n_steps,
        "batch_size": p.batch_size,
        "n_epochs": p.n_epochs,
        "gamma": p.gamma,
        "gae_lambda": p.gae_lambda,
        "clip_range": p.clip_range,
        "ent_coef": p.ent_coef,
        "vf_coef": p.vf_coef,
        "max_grad_norm": p.max_grad_norm,
    }


def build_model(cfg: TrainConfig, venv: Any, out: Path, resume: str | None) -> Any:
    """A new MaskablePPO, or the ``resume`` checkpoint continuing with the config's ``ppo`` settings
    (a changed learning rate, batch size ... applies from the first update; a changed ``net_arch``
    cannot, and is a ValueError)."""
    from sb3_contrib import MaskablePPO

    if resume:
        if not Path(resume).exists():
            raise ValueError(f"--resume: no such checkpoint {resume!r}")
        model = MaskablePPO.load(resume, env=venv, device="cpu", tensorboard_log=str(out / "tb"), **ppo_settings(cfg))
        saved = list(model.policy_kwargs.get("net_arch", []))
        if saved != list(cfg.ppo.net_arch):
            raise ValueError(
                f"--resume: the checkpoint's ppo.net_arch is {saved}, the config asks for {list(cfg.ppo.net_arch)}; "
                "a network's shape cannot change on resume"
            )
        return model
    return MaskablePPO(
        "MlpPolicy",
        venv,
        **ppo_settings(cfg),
        policy_kwargs={"net_arch": list(cfg.ppo.net_arch)},
        tensorboard_log=str(out / "tb"),
        seed=cfg.seed,
        device="cpu",
        verbose=0,
    )


def league_snapshots(pool_dir: Path) -> list[tuple[int, Path]]:
    """The league snapshots ``snapshot_000025000.zip`` (``LeagueSnapshots``) in ``pool_dir``, by step."""
    found = (re.fullmatch(r"snapshot_(\d+)\.zip", p.name) for p in pool_dir.glob("snapshot_*.zip"))
    return sorted((int(m.group(1)), pool_dir / m.group(0)) for m in found if m)


def build_callbacks(cfg: TrainConfig, out: Path, name: str, resume_step: int | None = None) -> tuple[list[Any], Any]:
    """The callbacks of ``model.learn``; ``resume_step``: the step of the checkpoint a resumed run
    continues from (the self-play log, the periodic evaluation's log and its best model continue
    from there)."""
    from stable_baselines3.common.callbacks import CheckpointCallback

    from train.callbacks import LeagueSnapshots, SelfPlayStats, TimeLimit

    stats = SelfPlayStats(out / "selfplay.jsonl", resume_step=resume_step)
    callbacks: list[Any] = [stats]
    if cfg.max_minutes:
        callbacks.append(TimeLimit(cfg.max_minutes * 60))
    if cfg.league.snapshot_every:
        callbacks.append(LeagueSnapshots(cfg.league.snapshot_every, out / "pool"))
    if cfg.checkpoint_every:
        every = max(cfg.checkpoint_every // cfg.n_envs, 1)  # the callback counts vec steps
        callbacks.append(CheckpointCallback(every, str(out / "checkpoints"), name_prefix=name))
    if cfg.eval.every:
        from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

        from train.callbacks import SameGamesEval
        from train.opponents import OpponentPool
        from train.seat_env import SeatEnv

        def make_eval() -> Any:
            return SeatEnv(cfg.game, OpponentPool(cfg.eval.opponent), reward=cfg.reward,
                           setup_choices=cfg.setup_choices, learner_seat=cfg.learner_seat)  # fmt: skip

        callbacks.append(
            SameGamesEval(
                VecMonitor(DummyVecEnv([make_eval])),  # the same wrapper type as the training env
                seed=stream_seed(cfg.seed, "periodic evaluation"),
                resume_step=resume_step,
                n_eval_episodes=cfg.eval.games,
                eval_freq=max(cfg.eval.every // cfg.n_envs, 1),
                best_model_save_path=str(out / "best"),
                log_path=str(out / "eval"),
                deterministic=True,
                verbose=0,
            )
        )
    return callbacks, stats


def final_evaluation(cfg: TrainConfig, trained: Path, baseline: Path | None) -> list[Any]:
    from train.evaluate import evaluate
    from train.policy_agent import PolicyAgent

    fe = cfg.final_eval
    policies = [("trained", trained)] + ([("untrained", baseline)] if baseline is not None and fe.baseline else [])
    results = []
    for spec in fe.opponents:
        for label, path in policies:
            agent = PolicyAgent.from_path(path, seed=cfg.seed, deterministic=fe.deterministic)
            r = evaluate(agent, spec, games=fe.games, seed=cfg.seed + 1, game=cfg.game, label=label,
                         setup_choices=cfg.setup_choices)  # fmt: skip
            print(f"  {label} vs {spec}: win rate {100 * r.win_rate:.1f}%, margin {r.margin:+.1f}", flush=True)
            results.append(r)
    return results


def write_learning_plot(cfg: TrainConfig, out: Path, name: str, history: list[dict[str, Any]]) -> Path | None:
    """``OUT/learning.png`` (train/plots.py) when the run has rollouts and matplotlib is installed."""
    if not history:
        return None
    from train.plots import can_plot, plot_learning

    if not can_plot("learning curve"):
        return None

    path = plot_learning(
        history,
        out / "learning.png",
        title=f"{name}: the learner against each opponent kind",
        evaluations=out / "eval" / "evaluations.npz" if cfg.eval.every else None,
        eval_label=f"evaluation against {cfg.eval.opponent} ({cfg.eval.games} games, reward {cfg.reward})",
    )
    print(f"learning curve: {path}", flush=True)
    return path


def resume_league(venv: Any, snapshots: list[tuple[int, Path]], step: int, baseline: Path | None = None) -> int:
    """The league as it was at the checkpoint's ``step``: the untrained ``baseline`` (the first
    snapshot of every run), then its snapshots, oldest first; the pool keeps the newest
    ``max_snapshots`` as it did.  Snapshots written after ``step`` belong to the run that was
    abandoned; they are deleted, since the resumed run writes its own under the same names."""
    kept = 0
    if baseline is not None and baseline.exists():
        venv.env_method("add_snapshot", str(baseline))
        kept += 1
    for snap_step, snap in snapshots:
        if snap_step <= step:
            venv.env_method("add_snapshot", str(snap))
            kept += 1
        else:
            snap.unlink()
            print(f"aoi train: --resume at step {step}: removed the later league snapshot {snap.name}", flush=True)
    return kept


def run_training(cfg: TrainConfig, resume: str | None = None) -> dict[str, Any]:
    """Train, save and evaluate (see the module docstring); returns a summary dict."""
    import torch

    from aoi_env.cli import check_output_folder
    from train.config import model_file

    t0 = time.perf_counter()
    if resume:  # before anything is written into OUT
        resume = model_file(resume, "--resume")
    check_output_folder(cfg.out, "out")
    out = Path(cfg.out)
    (out / "config.json").write_text(json.dumps(cfg.to_dict(), indent=2) + "\n")
    name = model_name(cfg)
    threads = torch.get_num_threads()
    if cfg.torch_threads:
        torch.set_num_threads(cfg.torch_threads)
    try:
        return _run(cfg, resume, out, name, t0)
    finally:
        torch.set_num_threads(threads)


def _run(cfg: TrainConfig, resume: str | None, out: Path, name: str, t0: float) -> dict[str, Any]:
    from stable_baselines3.common.utils import set_random_seed

    set_random_seed(cfg.seed)

    pool = make_pool(cfg)
    baseline = out / "models" / f"{name}-untrained.zip"
    snapshots = league_snapshots(out / "pool")
    if not resume:
        for _, snap in snapshots:
            snap.unlink()  # a fresh run in an old directory starts a fresh league ...
        (out / "eval" / "evaluations.npz").unlink(missing_ok=True)  # ... and a fresh evaluation log
    (out / "results.md").unlink(missing_ok=True)  # an old run's table must not pass for this one's
    venv = make_vec_env(cfg, pool)
    model = build_model(cfg, venv, out, resume)
    if resume:  # a loaded model does not re-seed the envs: derive the seeds from the step count
        model.set_random_seed(stream_seed(cfg.seed, "resume", model.num_timesteps))
        kept = resume_league(venv, snapshots, model.num_timesteps, baseline)
    else:
        save_model(model, baseline, cfg)
        kept = 0
    if not kept:
        venv.env_method("add_snapshot", str(baseline) if baseline.exists() else str(resume))
    rollout = cfg.ppo.n_steps * cfg.n_envs  # SB3 collects whole rollouts: the last one runs to its end
    at_least = f" (whole rollouts of {rollout}: at least {rollout})" if cfg.total_timesteps < rollout else ""
    print(
        f"aoi train: {name}: {cfg.total_timesteps} steps{at_least}, {cfg.n_envs} envs ({cfg.vec_env}), "
        f"opponents {pool.mix()}, league snapshots {kept or 1}, out {out}",  # the workers' pools, not this one's
        flush=True,
    )
    callbacks, stats = build_callbacks(cfg, out, name, model.num_timesteps if resume else None)
    start = model.num_timesteps
    remaining = max(cfg.total_timesteps - start, 0)
    if not remaining:
        print(f"aoi train: the checkpoint is at {start} steps >= total_timesteps {cfg.total_timesteps}: "
              "nothing to train", flush=True)  # fmt: skip
    t_learn = time.perf_counter()
    try:
        if remaining:
            model.learn(
                total_timesteps=remaining,
                callback=callbacks,
                progress_bar=cfg.progress_bar,
                reset_num_timesteps=not resume,
                tb_log_name=name,
            )
    except KeyboardInterrupt:
        interrupted = save_model(model, out / f"{name}-interrupted.zip", cfg)
        print(f"\naoi train: interrupted at {model.num_timesteps} steps; the model so far: {interrupted} "
              f"(continue with --resume {interrupted}); no evaluation", file=sys.stderr, flush=True)  # fmt: skip
        with contextlib.suppress(Exception):  # subprocess workers got the Ctrl-C too and may be gone
            venv.close()
        raise
    learn_s = time.perf_counter() - t_learn
    final = save_model(model, out / f"{name}.zip", cfg)
    venv.close()
    rate = (model.num_timesteps - start) / max(learn_s, 1e-9)
    print(
        f"trained {model.num_timesteps} steps in {learn_s:.0f} s ({rate:.0f} steps/s); "
        f"illegal actions: {stats.illegal_actions}; model: {final}",
        flush=True,
    )

    results = []
    if cfg.final_eval.games and cfg.final_eval.opponents:
        print(f"evaluating ({cfg.final_eval.games} games per row) ...", flush=True)
        results = final_evaluation(cfg, final, baseline if baseline.exists() else None)
    from train.evaluate import format_results

    table = format_results(results) if results else ""
    total_s = time.perf_counter() - t0
    summary = {
        "model": str(final),
        "timesteps": int(model.num_timesteps),
        "learn_seconds": round(learn_s, 1),
        "total_seconds": round(total_s, 1),
        "illegal_actions": stats.illegal_actions,
        "results": [r.to_dict() for r in results],
        "selfplay_history": stats.history,
    }
    learning = write_learning_plot(cfg, out, name, stats.history)
    summary["learning_plot"] = str(learning) if learning else None
    from train.tournament import json_safe  # NaN (no games) -> null: strict JSON

    (out / "results.json").write_text(json.dumps(json_safe(summary), indent=2, allow_nan=False) + "\n")
    if table:
        picture = f"\n\n![learning curve]({learning.name})" if learning else ""
        (out / "results.md").write_text(table + picture + "\n")
        print()
        print(table)
    where = f"{out}/results.md" if table else f"{out}/results.json (no evaluation table: final_eval plays no games)"
    print(f"\ntotal wall time {total_s:.0f} s; results in {where}", file=sys.stdout, flush=True)
    return summary
