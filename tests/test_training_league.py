"""Training internals that a smoke run does not show: snapshot loading, the league on resume,
the periodic evaluation's games, worker threads (issue 7; ECOSYSTEM §3.4 self-play design).

Each test pins a defect found by an audit of train/: loading a snapshot re-seeded the training
process's random generators; the snapshot cache never forgot a policy; ``--resume`` ignored the
config's ``ppo`` settings and brought back snapshots from after the checkpoint; every periodic
evaluation played other games; subprocess workers ignored ``torch_threads``; a resumed run
restarted the evaluation log and the best model.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from train.config import TrainConfig

sb3_contrib = pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")


@pytest.fixture(autouse=True, scope="module")
def _restore_agent_registry():
    """Importing train.policy_agent registers ``model:PATH``; leave the registry as found."""
    import agents

    saved = dict(agents._REGISTRY)
    yield
    agents._REGISTRY.clear()
    agents._REGISTRY.update(saved)


def save_model(path: Path, seed: int = 0, net_arch: tuple[int, ...] = (8,), **ppo) -> Path:
    from train.seat_env import SeatEnv

    settings = {"n_steps": 64, "batch_size": 64, **ppo}
    model = sb3_contrib.MaskablePPO("MlpPolicy", SeatEnv("aoi(players=2)"), policy_kwargs={"net_arch": list(net_arch)},
                                    seed=seed, device="cpu", **settings)  # fmt: skip
    model.save(path)
    return path


def draws() -> tuple[float, float, float]:
    return random.random(), float(np.random.random()), float(torch.rand(1))


def test_loading_a_snapshot_leaves_the_global_random_generators_alone(tmp_path: Path) -> None:
    """SB3's ``load`` re-seeds python, numpy and torch with the saved seed; in the middle of training
    (a league snapshot joining the pool) that restarted the learner's sampling and minibatch order
    from the same state at every snapshot.  ``load_policy`` restores the three generators."""
    from train.policy_agent import load_policy

    path = save_model(tmp_path / "snap.zip", seed=7)
    random.seed(1), np.random.seed(1), torch.manual_seed(1)
    expected = draws()
    random.seed(1), np.random.seed(1), torch.manual_seed(1)
    load_policy(path, cache=False)
    assert draws() == expected


def test_the_pool_owns_its_snapshots_and_the_model_cache_is_bounded(tmp_path: Path) -> None:
    """A snapshot dropped from the league is freed (not kept in a process-wide cache); policies
    loaded for acting carry no optimizer; ``load_policy``'s own cache keeps ``CACHE_SIZE`` files."""
    from train import policy_agent
    from train.opponents import OpponentPool

    policy_agent._CACHE.clear()
    pool = OpponentPool({"self": 1.0}, max_snapshots=2)
    paths = [str(save_model(tmp_path / f"s{i}.zip", seed=i)) for i in range(4)]
    for path in paths:
        pool.add_snapshot(path)
        assert pool._policy(path).optimizer is None
    assert pool.snapshots == paths[2:] and set(pool._policies) == set(paths[2:])
    assert not policy_agent._CACHE  # snapshots are the pool's, not the module's
    for i in range(policy_agent.CACHE_SIZE + 2):
        policy_agent.load_policy(save_model(tmp_path / f"m{i}.zip"))
    assert len(policy_agent._CACHE) == policy_agent.CACHE_SIZE
    policy_agent._CACHE.clear()


def test_a_snapshot_written_again_becomes_the_newest_and_is_reloaded(tmp_path: Path) -> None:
    """A resumed run writes its snapshots under the names the abandoned run used: the file becomes
    the newest (the one ``latest_prob`` plays) and the pool loads its new weights."""
    from train.opponents import OpponentPool

    pool = OpponentPool({"self": 1.0}, max_snapshots=5)
    a, b = str(save_model(tmp_path / "snapshot_000000100.zip", seed=1)), str(tmp_path / "snapshot_000000200.zip")
    save_model(Path(b), seed=2)
    pool.add_snapshot(a)
    pool.add_snapshot(b)
    old = pool._policy(a)
    save_model(Path(a), seed=3)
    pool.add_snapshot(a)
    assert pool.snapshots == [b, a] and pool._policy(a) is not old


def test_resume_takes_the_configs_ppo_settings_and_the_league_at_the_checkpoint(tmp_path: Path) -> None:
    """``--resume`` continues with the config's ``ppo`` settings (the model and its sidecar agree);
    a different ``net_arch`` is a ValueError; league snapshots written after the checkpoint's step
    (by the abandoned run) are removed, the earlier ones rejoin the pool oldest first."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from train.opponents import OpponentPool
    from train.seat_env import SeatEnv
    from train.train import build_model, league_snapshots, resume_league

    checkpoint = save_model(tmp_path / "ck.zip", net_arch=(16,), learning_rate=3e-4, n_epochs=1, gamma=0.999)
    doc = {"n_envs": 1, "ppo": {"n_steps": 32, "batch_size": 32, "learning_rate": 1e-5, "n_epochs": 3,
                                "gamma": 0.9, "net_arch": [16]}}  # fmt: skip
    pool = OpponentPool({"random": 1.0})
    venv = DummyVecEnv([lambda: SeatEnv("aoi(players=2)", pool)])
    model = build_model(TrainConfig.from_dict(doc), venv, tmp_path, str(checkpoint))
    assert (model.learning_rate, model.n_epochs, model.gamma, model.n_steps) == (1e-5, 3, 0.9, 32)
    assert model.rollout_buffer.buffer_size == 32
    doc["ppo"]["net_arch"] = [64, 64]
    with pytest.raises(ValueError, match=r"checkpoint's ppo.net_arch is \[16\], the config asks for \[64, 64\]"):
        build_model(TrainConfig.from_dict(doc), venv, tmp_path, str(checkpoint))

    pool_dir = tmp_path / "pool"
    pool_dir.mkdir()
    for step in (150, 50, 100, 200):
        (pool_dir / f"snapshot_{step:09d}.zip").write_bytes(b"")
    (pool_dir / "snapshot_notes.zip").write_bytes(b"")  # not a LeagueSnapshots name: left alone
    snapshots = league_snapshots(pool_dir)
    assert [step for step, _ in snapshots] == [50, 100, 150, 200]
    baseline = tmp_path / "untrained.zip"
    baseline.write_bytes(b"")
    assert resume_league(venv, snapshots, step=100, baseline=baseline) == 3
    assert pool.snapshots == [str(baseline)] + [str(pool_dir / f"snapshot_{s:09d}.zip") for s in (50, 100)]
    assert sorted(p.name for p in pool_dir.iterdir()) == [
        "snapshot_000000050.zip", "snapshot_000000100.zip", "snapshot_notes.zip"
    ]  # fmt: skip


def test_league_snapshots_continue_their_schedule_after_a_resume(tmp_path: Path) -> None:
    """A resumed model at step 1024 with snapshots every 512 saves its next one at 1536, not at
    once and again at every step until a counter starting from 0 catches up."""
    from train.callbacks import LeagueSnapshots

    model = sb3_contrib.MaskablePPO.load(save_model(tmp_path / "m.zip"), device="cpu")
    model.num_timesteps = 1024
    callback = LeagueSnapshots(512, tmp_path / "pool")
    callback.init_callback(model)
    assert callback._next == 1536


def test_every_periodic_evaluation_plays_the_same_games_from_the_learner_seat(tmp_path: Path) -> None:
    """``OUT/best`` compares evaluations, so each one plays the same games (the env is re-seeded
    before it), from ``learner_seat``."""
    from train.callbacks import SameGamesEval
    from train.train import build_callbacks

    doc = {"eval": {"opponent": "random", "every": 100, "games": 3}, "learner_seat": 1, "n_envs": 1,
           "ppo": {"n_steps": 64, "batch_size": 64}}  # fmt: skip
    callbacks, _ = build_callbacks(TrainConfig.from_dict(doc), tmp_path, "x")
    (evaluation,) = [c for c in callbacks if isinstance(c, SameGamesEval)]
    venv, env = evaluation.eval_env, evaluation.eval_env.venv.envs[0]
    evaluation.n_calls = evaluation.eval_freq
    played = []
    for _ in range(2):
        evaluation.eval_env.seed(evaluation.seed)  # what SameGamesEval._on_step does before evaluating
        games = []
        for _ in range(3):
            venv.reset()
            games.append((env.game.state.to_bytes(), env.seat))
        played.append(games)
    assert played[0] == played[1] and len({g for g, _ in played[0]}) == 3
    assert {seat for _, seat in played[0]} == {1}


def test_same_games_eval_reseeds_before_each_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    """``SameGamesEval._on_step`` seeds its env on evaluation steps only, then evaluates as usual."""
    from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback

    from train.callbacks import SameGamesEval

    seeds: list[int] = []

    class Probe:
        def seed(self, seed: int) -> None:
            seeds.append(seed)

    monkeypatch.setattr(MaskableEvalCallback, "_on_step", lambda self: True)
    callback = SameGamesEval.__new__(SameGamesEval)
    callback.eval_env, callback.eval_freq, callback.seed = Probe(), 3, 11
    for n in range(1, 8):
        callback.n_calls = n
        assert callback._on_step()
    assert seeds == [11, 11]  # calls 3 and 6


def test_a_resumed_evaluation_continues_the_log_and_the_best_model_of_the_checkpoint(tmp_path: Path) -> None:
    """On ``--resume`` the periodic evaluation takes back the log entries up to the checkpoint's
    step and their best mean reward.  It used to start afresh: ``evaluations.npz`` was rewritten
    without the earlier evaluations, and the first evaluation after the resume replaced
    ``OUT/best/best_model.zip`` even when it was worse than the best before the resume."""
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    from train.callbacks import SameGamesEval
    from train.seat_env import SeatEnv
    from train.train import build_callbacks

    model = sb3_contrib.MaskablePPO("MlpPolicy", VecMonitor(DummyVecEnv([SeatEnv])), n_steps=64, batch_size=64,
                                    policy_kwargs={"net_arch": [8]}, device="cpu")  # fmt: skip
    (tmp_path / "eval").mkdir()
    np.savez(tmp_path / "eval" / "evaluations.npz", timesteps=[100, 200, 300],
             results=[[-1.0, 1.0], [1.0, 0.5], [1.0, 1.0]], ep_lengths=[[50, 60], [55, 65], [58, 62]])  # fmt: skip
    doc = {"eval": {"opponent": "random", "every": 100, "games": 2}, "n_envs": 1,
           "ppo": {"n_steps": 64, "batch_size": 64}}  # fmt: skip
    callbacks, _ = build_callbacks(TrainConfig.from_dict(doc), tmp_path, "x", resume_step=200)
    (evaluation,) = [c for c in callbacks if isinstance(c, SameGamesEval)]
    evaluation.init_callback(model)
    assert evaluation.evaluations_timesteps == [100, 200]  # 300: the abandoned run's, after the checkpoint
    assert evaluation.evaluations_results == [[-1.0, 1.0], [1.0, 0.5]]
    assert evaluation.evaluations_length == [[50, 60], [55, 65]]
    assert evaluation.best_mean_reward == 0.75 and evaluation.last_mean_reward == 0.75

    other, _ = build_callbacks(TrainConfig.from_dict({**doc, "eval": {**doc["eval"], "games": 3}}), tmp_path, "x",
                               resume_step=200)  # fmt: skip
    (changed,) = [c for c in other if isinstance(c, SameGamesEval)]
    changed.init_callback(model)
    assert changed.best_mean_reward == 0.75  # another number of games: the best carries over ...
    assert changed.evaluations_timesteps == []  # ... the log restarts (np.savez needs equal rows)

    fresh, _ = build_callbacks(TrainConfig.from_dict(doc), tmp_path, "x")
    (new,) = [c for c in fresh if isinstance(c, SameGamesEval)]
    new.init_callback(model)
    assert new.evaluations_timesteps == [] and new.best_mean_reward == -np.inf  # a fresh run starts afresh


def test_a_resumed_run_continues_the_self_play_log_and_its_counts(tmp_path: Path) -> None:
    """On ``--resume`` the self-play statistics take back the rollouts of ``OUT/selfplay.jsonl`` up
    to the checkpoint's step: the learning curve and results.json keep the run's history, and the
    cumulative TensorBoard counts (games per opponent kind, illegal ids) go on from their values
    instead of restarting at 0.  Entries after the step are the abandoned run's and are dropped,
    from the file too; a fresh run starts the file afresh."""
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    from train.callbacks import SelfPlayStats
    from train.seat_env import SeatEnv
    from train.train import build_callbacks

    model = sb3_contrib.MaskablePPO("MlpPolicy", VecMonitor(DummyVecEnv([SeatEnv])), n_steps=64, batch_size=64,
                                    policy_kwargs={"net_arch": [8]}, device="cpu")  # fmt: skip
    entries = [
        {"timesteps": 64, "random": {"games": 2, "win_rate": 0.5, "margin": 1.0}, "illegal_actions": 0},
        {"timesteps": 128, "random": {"games": 1, "win_rate": 1.0, "margin": 4.0},
         "automa:1": {"games": 3, "win_rate": 0.0, "margin": -9.0}, "illegal_actions": 2},
        {"timesteps": 192, "random": {"games": 5, "win_rate": 0.2, "margin": -1.0}, "illegal_actions": 7},
    ]  # fmt: skip
    log = tmp_path / "selfplay.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in entries))
    doc = {"n_envs": 1, "ppo": {"n_steps": 64, "batch_size": 64}}
    callbacks, stats = build_callbacks(TrainConfig.from_dict(doc), tmp_path, "x", resume_step=150)
    assert isinstance(stats, SelfPlayStats) and stats in callbacks
    stats.init_callback(model)
    assert stats.history == entries[:2]  # 192: after the checkpoint
    assert dict(stats.games) == {"random": 3, "automa:1": 3} and stats.illegal_actions == 2
    assert [json.loads(line) for line in log.read_text().splitlines()] == entries[:2]

    from stable_baselines3.common.logger import configure

    model.set_logger(configure(None, []))  # the records go nowhere
    model.num_timesteps = 256  # one more rollout, as SB3 ends it
    stats.locals = {"dones": [True], "infos": [{"episode_stats": {"opponent": "random", "win": 1.0, "margin": 3.0,
                                                                  "length": 40, "illegal_actions": 1}}]}  # fmt: skip
    stats.on_step()
    stats.on_rollout_end()
    assert stats.games["random"] == 4 and stats.illegal_actions == 3
    assert json.loads(log.read_text().splitlines()[-1]) == stats.history[-1]
    assert stats.history[-1]["timesteps"] == 256 and stats.history[-1]["illegal_actions"] == 3

    _, fresh = build_callbacks(TrainConfig.from_dict(doc), tmp_path, "x")
    fresh.init_callback(model)
    assert fresh.history == [] and fresh.illegal_actions == 0 and log.read_text() == ""  # a new run


def test_env_factory_sets_torch_threads_in_the_process_that_builds_it() -> None:
    """A ``SubprocVecEnv`` worker runs the league opponents' networks: it takes ``torch_threads``."""
    from train.opponents import OpponentPool
    from train.train import make_env_fn

    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        cfg = TrainConfig.from_dict({"torch_threads": 1, "ppo": {"batch_size": 64}})
        make_env_fn(cfg, OpponentPool({"random": 1}))()
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(threads)


def test_a_missing_resume_checkpoint_writes_nothing(tmp_path: Path) -> None:
    """``--resume`` with a wrong path is a ValueError before the run's ``config.json`` (which
    describes the trained model) is overwritten."""
    from train.train import run_training

    out = tmp_path / "run"
    cfg = TrainConfig.from_dict({"out": str(out), "ppo": {"batch_size": 64}})
    with pytest.raises(ValueError, match="--resume: model file not found"):
        run_training(cfg, resume=str(tmp_path / "typo.zip"))
    assert not out.exists()
