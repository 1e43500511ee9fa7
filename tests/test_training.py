"""Training (issue 7): config validation, a MaskablePPO smoke run, resume, the policy agent, ``aoi eval``.

The smoke test trains a few hundred steps with every callback on (league snapshots, checkpoints,
MaskableEvalCallback vs the Automa, self-play statistics), evaluates, resumes from the
checkpoint and evaluates the saved model from the command line.  P7 (ECOSYSTEM §4): the policy
only ever plays legal ids, so the illegal-action count stays 0.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from aoi_env import Game
from train.config import TrainConfig, apply_override, load_config
from train.records import load

needs_train = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None or importlib.util.find_spec("sb3_contrib") is None,
    reason="needs the train extra (torch, sb3-contrib): pip install -e '.[train]'",
)
"""For the tests that learn or load a model; CI and the README's test command install the extra."""

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True, scope="module")
def _restore_agent_registry():
    """Importing train.policy_agent registers ``model:PATH``; leave the registry as found so that
    tests asserting the registered specs do not depend on the test order."""
    import agents

    saved = dict(agents._REGISTRY)
    yield
    agents._REGISTRY.clear()
    agents._REGISTRY.update(saved)


def tiny(tmp_path: Path, **extra) -> dict:
    doc = {
        "seed": 3,
        "out": str(tmp_path / "run"),
        "game": "aoi(players=2)",
        "total_timesteps": 256,
        "n_envs": 2,
        "progress_bar": False,
        "checkpoint_every": 128,
        "opponents": {"random": 1.0, "automa:1": 1.0, "self": 1.0},
        "league": {"snapshot_every": 128, "max_snapshots": 3},
        "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [16]},
        "eval": {"opponent": "automa:1", "every": 128, "games": 1},
        "final_eval": {"opponents": ["random", "automa:1"], "games": 2},
    }
    doc.update(extra)
    return doc


# -- config ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["quick.yaml", "selfplay.yaml"])
def test_shipped_configs_are_valid(name: str):
    cfg = load_config(ROOT / "configs" / name)
    assert cfg.ppo.gamma >= 0.99  # a move spans several decisions
    assert cfg.reward == "rank"  # the default terminal reward, no shaping
    assert cfg.shaping == 0.0


def test_quick_config_fits_the_ten_minute_budget():
    """configs/quick.yaml is the README's main job: training stops by its time cap and the final
    evaluation covers random and Automa level 1 with the untrained baseline."""
    cfg = load_config(ROOT / "configs" / "quick.yaml")
    assert 0 < cfg.max_minutes <= 7
    assert cfg.final_eval.baseline and set(cfg.final_eval.opponents) == {"random", "automa:1"}


def test_shipped_config_names_list_the_configs_folder():
    from train.config import SHIPPED_CONFIGS

    assert sorted(SHIPPED_CONFIGS) == sorted(p.stem for p in (ROOT / "configs").glob("*.yaml"))


@pytest.mark.parametrize("given", ["quick", "quick.yaml", "configs/quick.yaml"])
def test_shipped_configs_are_found_by_name_from_any_folder(given: str, tmp_path: Path, monkeypatch):
    """``aoi train`` (default ``configs/quick.yaml``), ``--config quick`` and the tournament /
    balance configs work outside the repository root: a path that does not exist names a shipped
    config (train/configs in a wheel, the repository's configs/ in a source tree)."""
    from train.config import load_yaml, resolve_config

    monkeypatch.chdir(tmp_path)
    found = resolve_config(given)
    assert found.is_file() and found.read_bytes() == (ROOT / "configs" / "quick.yaml").read_bytes()
    assert load_yaml(given)["out"] == "runs/quick"


def test_a_local_config_file_wins_over_a_shipped_one(tmp_path: Path, monkeypatch):
    from train.config import resolve_config

    monkeypatch.chdir(tmp_path)
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "quick.yaml").write_text("seed: 5\n")
    assert resolve_config("configs/quick.yaml") == Path("configs/quick.yaml")
    assert load_config("configs/quick.yaml").seed == 5


@pytest.mark.parametrize("given", ["nosuch", "configs/nosuch.yaml", "elsewhere/quick.yaml"])
def test_an_unknown_config_names_the_shipped_ones(given: str, tmp_path: Path, monkeypatch):
    from train.config import load_yaml

    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=r"cannot read config .*shipped configs: quick, selfplay, tournament, balance"):
        load_yaml(given)


def test_the_build_copies_the_configs_into_the_train_package(tmp_path: Path):
    """setup.py's build_py puts configs/*.yaml into train/configs of the wheel (what
    ``resolve_config`` finds first in an installed package)."""
    subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path)],
        cwd=ROOT, check=True, capture_output=True,
    )  # fmt: skip
    for source in (ROOT / "configs").glob("*.yaml"):
        assert (tmp_path / "train" / "configs" / source.name).read_bytes() == source.read_bytes()


def test_unknown_key_raises_value_error_listing_the_valid_keys(tmp_path: Path):
    with pytest.raises(ValueError, match=r"unknown key 'total_steps' in the config; valid: seed, out, game"):
        TrainConfig.from_dict({"total_steps": 5})
    with pytest.raises(ValueError, match=r"unknown key 'ppo.lr' in section 'ppo'; valid: learning_rate"):
        TrainConfig.from_dict({"ppo": {"lr": 1e-3}})
    path = tmp_path / "c.yaml"
    path.write_text("league:\n  every: 5\n")
    with pytest.raises(ValueError, match=r"unknown key 'league.every' in section 'league'"):
        load_config(path)


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"reward": "vp"}, "bad value for 'reward': 'vp'; valid: rank, win, score_diff"),
        ({"n_envs": 0}, "bad value for 'n_envs': 0; valid: an integer >= 1"),
        ({"n_envs": True}, "bad value for 'n_envs': True"),
        ({"vec_env": "async"}, "bad value for 'vec_env': 'async'; valid: dummy, subproc"),
        ({"ppo": {"gamma": 1.5}}, r"bad value for 'ppo.gamma': 1.5; valid: a number in \[0.0, 1.0\]"),
        ({"ppo": {"net_arch": []}}, "bad value for 'ppo.net_arch'"),
        ({"ppo": {"batch_size": 4096}, "n_envs": 2}, "at most n_steps \\* n_envs = 512"),
        ({"opponents": {"rando": 1}}, "unknown opponent 'rando'"),
        ({"opponents": {"random": -1}}, r"bad value for 'opponents\[random\]': -1"),
        ({"opponents": {}}, "bad value for 'opponents'"),
        ({"game": "aoi(player=2)"}, "unknown parameter 'player'"),
        ({"game": "aoi(players=1,automa=simpletons:1)"}, "an Automa is an opponent spec"),
        ({"learner_seat": 2}, "bad value for 'learner_seat': 2; valid: an integer 0..1"),
        ({"eval": {"opponent": "self"}}, "bad value for 'eval.opponent'"),
        ({"final_eval": {"opponents": "random"}}, "bad value for 'final_eval.opponents'"),
        ({"league": {"latest_prob": 2}}, "bad value for 'league.latest_prob'"),
        ({"ppo": []}, "section 'ppo' must be a mapping"),
        ({"shaping": float("nan")}, "bad value for 'shaping': nan"),  # NaN compares false with any bound
        ({"ppo": {"learning_rate": "nan"}}, "bad value for 'ppo.learning_rate': nan"),
        ({"max_minutes": float("inf")}, "bad value for 'max_minutes': inf"),
        ({"seed": 2**32}, r"bad value for 'seed': 4294967296; valid: an integer 0..2147483647"),
        ({"game": "aoi(players=2,setup_choices=players)"}, "without setup_choices= \\(use the key setup_choices\\)"),
        ({"opponents": {"model:/no/such/model.zip": 1}}, "bad value for 'opponents\\[model:/no/such/model.zip\\]'"),
        ({"final_eval": {"opponents": ["model:/no/such.zip"]}}, "bad value for 'final_eval.opponents'"),
        ({"eval": {"opponent": "model:/no/such.zip", "every": 10}}, "bad value for 'eval.opponent'"),
        (
            {"game": "aoi(players=2,distribution=draft)", "opponents": {"random": 1, "automa:1": 1}},
            "'automa:1' cannot play 'aoi\\(players=2,distribution=draft\\)': the draft variant is not used",
        ),
    ],
)
def test_bad_value_raises_value_error_naming_key_and_valid_values(doc: dict, message: str):
    with pytest.raises(ValueError, match=message):
        TrainConfig.from_dict(doc)


def test_overrides_set_nested_keys_and_read_values_as_yaml():
    doc: dict = {"ppo": {"n_steps": 64}}
    apply_override(doc, "ppo.learning_rate=1e-4")
    apply_override(doc, "opponents={random: 1, automa:1: 1}")
    apply_override(doc, "learner_seat=null")
    cfg = TrainConfig.from_dict(doc)
    assert cfg.ppo.learning_rate == 1e-4 and cfg.ppo.n_steps == 64  # "1e-4" read as a float
    assert cfg.opponents == {"random": 1, "automa:1": 1} and cfg.learner_seat is None
    with pytest.raises(ValueError, match="expected key=value"):
        apply_override(doc, "seed")


def test_training_modules_import_no_torch_until_used():
    """The seat env, config, pool, evaluation and policy-agent modules load without torch."""
    code = (
        "import sys, train.seat_env, train.config, train.opponents, train.evaluate, train.policy_agent\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'stable_baselines3', 'sb3_contrib')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


# -- smoke run -----------------------------------------------------------------------------------


@needs_train
def test_smoke_train_evaluate_resume_and_cli_eval(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """A few hundred steps with every callback on, then resume from the checkpoint and ``aoi eval``."""
    from train.train import model_name, run_training

    cfg = TrainConfig.from_dict(tiny(tmp_path))
    summary = run_training(cfg)
    out = Path(cfg.out)
    name = model_name(cfg)
    assert name == "age_of_innovation_v0-aoi_players=2-seed3"  # env id (with version), game string, seed
    assert summary["timesteps"] == 256 and summary["illegal_actions"] == 0
    meta = json.loads((out / f"{name}.json").read_text())
    assert meta["env_id"] == "aoi/age_of_innovation-v0" and meta["game"] == "aoi(players=2)" and meta["seed"] == 3
    assert (out / "models" / f"{name}-untrained.zip").exists()
    assert sorted(p.name for p in (out / "pool").glob("*.zip")) == ["snapshot_000000128.zip", "snapshot_000000256.zip"]
    assert (out / "eval" / "evaluations.npz").exists()  # MaskableEvalCallback ran
    assert list((out / "tb").iterdir())  # TensorBoard logs
    rows = summary["results"]
    assert [(r["policy"], r["vs"]) for r in rows] == [
        ("trained", "random"), ("untrained", "random"), ("trained", "automa:1"), ("untrained", "automa:1"),
    ]  # fmt: skip
    assert all(r["games"] == 2 and r["illegal_actions"] == 0 and 0 <= r["win_rate"] <= 1 for r in rows)
    assert "| trained | random | 2 |" in (out / "results.md").read_text()
    assert summary["learning_plot"] == str(out / "learning.png")  # train/plots.py
    assert (out / "learning.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "![learning curve](learning.png)" in (out / "results.md").read_text()
    kinds = {k for entry in summary["selfplay_history"] for k in entry if k not in ("timesteps", "illegal_actions")}
    assert kinds <= {"random", "automa:1", "self"} and kinds

    checkpoint = out / "checkpoints" / f"{name}_128_steps.zip"
    assert checkpoint.exists()
    resumed = run_training(TrainConfig.from_dict(tiny(tmp_path, total_timesteps=384, final_eval={"games": 1})),
                           resume=str(checkpoint))  # fmt: skip
    assert resumed["timesteps"] == 384  # 128 from the checkpoint + 256 more
    # the evaluation log goes on from the checkpoint (it used to restart: [256, 384]); the run that
    # was abandoned had evaluated at 128 and 256, the entry after the checkpoint is its own
    assert np.load(out / "eval" / "evaluations.npz")["timesteps"].tolist() == [128, 256, 384]
    before = [e["timesteps"] for e in summary["selfplay_history"] if e["timesteps"] <= 128]
    after = [e["timesteps"] for e in resumed["selfplay_history"]]
    assert before and after[: len(before)] == before and after[-1] == 384  # so does the self-play history
    assert after == sorted(set(after))  # the abandoned run's rollouts after 128 are gone
    strict = json.loads((out / "results.json").read_text(), parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    assert strict["results"][0]["games"] == 1  # one game: intervals undefined, written as null
    capsys.readouterr()

    from aoi_env.cli import main

    model = str(out / f"{name}.zip")
    assert main(["eval", "--model", model, "--vs", "random", "--games", "2", "--no-progress",
                 "--json", str(tmp_path / "eval.json"), "--records", str(tmp_path / "games")]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "model vs random: 2 games, win rate" in text and "mean VP margin" in text
    written = json.loads((tmp_path / "eval.json").read_text())  # --json: the table as data
    assert written["model"] == model and written["games"] == 2 and written["deterministic"] is True
    assert [(r["policy"], r["vs"], r["games"]) for r in written["results"]] == [("model", "random", 2)]
    assert f"win rate {100 * written['results'][0]['win_rate']:.1f}%" in text
    saved = sorted((tmp_path / "games").iterdir())  # --records: one replayable record per game
    assert [p.name for p in saved] == ["model-vs-random-0000.json", "model-vs-random-0001.json"]
    assert [load(p).agents for p in saved] == [[f"model:{model}", "random"], ["random", f"model:{model}"]]
    # every --vs is checked before the first game: a bad last one no longer costs the first ones
    assert main(["eval", "--model", str(out / f"{name}.zip"), "--vs", "random", "bogus", "--games", "2"]) == 2
    captured = capsys.readouterr()
    assert "unknown opponent 'bogus'" in captured.err and "model vs random" not in captured.out
    # an unusable --json or --records path is named before the games, not after them
    assert main(["eval", "--model", model, "--vs", "random", "--json", str(tmp_path)]) == 2
    assert "--json" in capsys.readouterr().err
    assert main(["eval", "--model", model, "--vs", "random", "--records", str(tmp_path / "eval.json")]) == 2
    captured = capsys.readouterr()
    assert "--records" in captured.err and "is a file, not a folder" in captured.err and "model vs" not in captured.out

    # a checkpoint at or past total_timesteps trains nothing and says so; a run without an
    # evaluation table removes the old results.md and names results.json instead
    again = run_training(TrainConfig.from_dict(tiny(tmp_path, total_timesteps=64, final_eval={"games": 0})),
                         resume=str(checkpoint))  # fmt: skip
    text = capsys.readouterr().out
    assert again["timesteps"] == 128 and "checkpoint is at 128 steps >= total_timesteps 64: nothing to train" in text
    assert not (out / "results.md").exists() and "results in " + str(out / "results.json") in text


@needs_train
def test_training_interrupted_by_ctrl_c_saves_the_model_so_far(tmp_path: Path, monkeypatch, capsys) -> None:
    """Ctrl-C during learning saves OUT/<name>-interrupted.zip, says how to resume and stops (the
    KeyboardInterrupt goes on: aoi exits 130); nothing was saved and nothing said before."""
    from sb3_contrib import MaskablePPO

    from train.train import model_name, run_training

    def interrupted(self, *args, **kwargs):
        self.num_timesteps = 64
        raise KeyboardInterrupt

    monkeypatch.setattr(MaskablePPO, "learn", interrupted)
    cfg = TrainConfig.from_dict(tiny(tmp_path, eval={"every": 0}))
    with pytest.raises(KeyboardInterrupt):
        run_training(cfg)
    saved = Path(cfg.out) / f"{model_name(cfg)}-interrupted.zip"
    assert saved.exists() and saved.with_suffix(".json").exists()
    said = capsys.readouterr().err
    assert f"interrupted at 64 steps; the model so far: {saved} (continue with --resume {saved})" in said


@needs_train
def test_model_files_are_checked_before_any_work(tmp_path: Path) -> None:
    """A model path that is missing, a folder or no saved model (results.json) is a ValueError
    naming it, for --resume, aoi eval --model / --vs and model: opponents, before training or
    playing (it failed after startup, or after all the training in final_eval)."""
    from train.config import model_file
    from train.evaluate import check_opponents
    from train.train import run_training

    (tmp_path / "results.json").write_text("{}")
    with pytest.raises(ValueError, match="--resume: model file not found"):
        model_file(str(tmp_path / "nosuch.zip"), "--resume")
    with pytest.raises(ValueError, match="is a folder, not a model"):
        model_file(str(tmp_path), "--resume")
    with pytest.raises(ValueError, match="is not a model saved by aoi train"):
        model_file(str(tmp_path / "results.json"), "--resume")
    with pytest.raises(ValueError, match="--resume: .* is a folder"):
        run_training(TrainConfig.from_dict(tiny(tmp_path)), resume=str(tmp_path))
    not_a_model = f"model:{tmp_path / 'results.json'}"
    with pytest.raises(ValueError, match=r"bad value for 'opponents\[model:.*is not a model"):
        TrainConfig.from_dict(tiny(tmp_path, opponents={not_a_model: 1.0}))
    with pytest.raises(ValueError, match="bad value for 'vs': .* is not a model"):
        check_opponents(["random", not_a_model], "aoi(players=2)", "random")
    (tmp_path / "afile").write_text("")
    with pytest.raises(ValueError, match="out .*afile is a file, not a folder"):
        run_training(TrainConfig.from_dict(tiny(tmp_path, out=str(tmp_path / "afile"))))


@pytest.mark.parametrize(("vs", "game", "games"), [("random", "aoi(players=3)", 3), ("automa:2", "aoi(players=2)", 2),
                                                  ("heuristic", "aoi(players=2)", 2)])  # fmt: skip
def test_eval_records_replay_to_the_evaluated_games(tmp_path: Path, vs: str, game: str, games: int) -> None:
    """``evaluate(records=DIR)`` saves every game as a record (``aoi replay``): it replays to the
    scores the evaluation counted, names the learner at its seat and the opponent at the others,
    and recording changes no result.  (The heuristic's lookahead plays in clones: not recorded.)"""
    from agents import RandomAgent
    from train.evaluate import evaluate
    from train.records import replay

    kw = {"games": games, "game": game, "seed": 4, "label": "rnd"}
    plain = evaluate(RandomAgent(seed=1), vs, **kw)
    recorded = evaluate(RandomAgent(seed=1), vs, **kw, records=tmp_path, learner="random")
    assert recorded.to_dict() == plain.to_dict()
    files = sorted(tmp_path.iterdir())
    assert [p.name for p in files] == [f"rnd-vs-{vs.replace(':', '_')}-{i:04d}.json" for i in range(games)]
    vp = []
    for i, path in enumerate(files):
        rec = load(path)
        seat = rec.meta["evaluation"]["learner_seat"]
        assert rec.meta["evaluation"] == {"vs": vs, "game": i, "learner_seat": seat, "seed": 4}
        assert rec.agents[seat] == "random" and all(a == vs for s, a in enumerate(rec.agents) if s != seat)
        assert list(replay(rec).scores()) == rec.scores
        vp.append(rec.scores[seat])
    assert np.mean(vp) == pytest.approx(plain.vp)  # the games the table counted


def test_a_record_from_actions_must_be_the_games_own() -> None:
    """``record_from_actions`` replays a trajectory on the game it names: a wrong seat, an illegal
    id or a game it does not finish is a ValueError naming the decision."""
    from aoi_env.testing import random_action
    from train.records import record_from_actions

    g = Game("aoi(players=2)", seed=5)
    rng = np.random.default_rng(0)
    trajectory = []
    while not g.is_over():
        trajectory.append((g.current_seat(), random_action(g, rng)))
        g.apply_action(trajectory[-1][1])
    rec = record_from_actions("aoi(players=2)", 5, ["a", "b"], trajectory)
    assert rec.scores == [int(x) for x in g.scores()] and rec.decisions == len(trajectory)
    seat, action = trajectory[3]
    with pytest.raises(ValueError, match=f"decision 3: seat {1 - seat} is not the deciding seat {seat}"):
        record_from_actions("aoi(players=2)", 5, ["a", "b"], [*trajectory[:3], (1 - seat, action), *trajectory[4:]])
    with pytest.raises(ValueError, match=r"decision 0 \(seat \d\): action id 999 is out of range"):
        record_from_actions("aoi(players=2)", 5, ["a", "b"], [(trajectory[0][0], 999)])
    with pytest.raises(ValueError, match="is not over after the 10 decisions given"):
        record_from_actions("aoi(players=2)", 5, ["a", "b"], trajectory[:10])
    with pytest.raises(ValueError, match="need one agent per player: got 1 for 2 players"):
        record_from_actions("aoi(players=2)", 5, ["a"], trajectory)


def test_eval_checks_every_opponent_and_the_game_string_first() -> None:
    """``aoi eval``: 'self' is named as a training-only opponent, an opponent that cannot play the
    game fails before any game, and a game string choosing setup_choices is refused (it was
    silently replaced by --setup-choices)."""
    from train.evaluate import check_opponents

    with pytest.raises(ValueError, match="'self' \\(the league\\) is a training opponent only"):
        check_opponents(["random", "self"], "aoi(players=2)", "random")
    with pytest.raises(ValueError, match="'automa:1' cannot play 'aoi\\(players=2,distribution=draft\\)'"):
        check_opponents(["random", "automa:1"], "aoi(players=2,distribution=draft)", "random")
    with pytest.raises(ValueError, match="may not set setup_choices: use --setup-choices"):
        check_opponents(["random"], "aoi(players=2,setup_choices=players)", "random")
    check_opponents(["random", "heuristic", "automa:2"], "aoi(players=3)", "players")


def test_opponent_overrides_take_model_paths_with_dots_and_equals() -> None:
    """``--set opponents.SPEC=WEIGHT``: a saved model's name holds '=' and '.' (players=2, .zip);
    the weight is after the last '=' (it became {'zip': 1} under the key 'model:...players')."""
    from train.config import apply_override

    doc: dict = {"opponents": {"random": 1}}
    apply_override(doc, "opponents.model:runs/q/age_of_innovation_v0-aoi_players=2-seed0.zip=0.5")
    assert doc["opponents"] == {"random": 1, "model:runs/q/age_of_innovation_v0-aoi_players=2-seed0.zip": 0.5}
    apply_override(doc, "opponents.random=2")
    assert doc["opponents"]["random"] == 2


def test_a_shipped_config_of_another_command_is_named(tmp_path: Path, monkeypatch) -> None:
    """``aoi train --config tournament`` says it is the tournament's config (it said "unknown key
    'agents'"), and a missing config lists only the command's own shipped ones."""
    from train.config import load_yaml

    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match="tournament is the shipped config of aoi tournament, not of aoi train "
                                         "\\(its shipped configs: quick, selfplay\\)"):  # fmt: skip
        load_config("tournament")
    with pytest.raises(ValueError, match="shipped configs: balance\\)$"):
        load_yaml("nosuch", "balance")
    assert load_yaml("balance", "balance")
    monkeypatch.chdir(ROOT)  # the documented form, a relative path from the repository root
    from train.config import shipped_config_dirs

    if (ROOT / "configs").resolve() in [d.resolve() for d in shipped_config_dirs()]:  # a source tree
        with pytest.raises(ValueError, match="configs/quick.yaml is the shipped config of aoi train, not of aoi bal"):
            load_yaml("configs/quick.yaml", "balance")
    else:  # an installed wheel (CI's compiled run): configs/ here is the user's own folder
        assert load_yaml("configs/quick.yaml", "balance")["out"] == "runs/quick"


@needs_train
def test_policy_agent_plays_the_models_masked_choice(tmp_path: Path):
    """PolicyAgent (deterministic) returns what MaskablePPO.predict returns with the same mask (P7),
    and make_agent("model:PATH") builds it."""
    from sb3_contrib import MaskablePPO

    from agents import make_agent
    from aoi_env import Game
    from aoi_env.observation import encode
    from train.policy_agent import PolicyAgent
    from train.seat_env import SeatEnv

    model = MaskablePPO("MlpPolicy", SeatEnv("aoi(players=2)"), n_steps=64, batch_size=64,
                        policy_kwargs={"net_arch": [16]}, seed=0, device="cpu")  # fmt: skip
    path = tmp_path / "m.zip"
    model.save(path)
    agent = make_agent(f"model:{path}", seed=0)
    assert isinstance(agent, PolicyAgent)
    game = Game("aoi(players=2,setup_choices=random)", seed=1)
    for _ in range(30):
        seat = game.current_seat()
        mask = game.action_mask()
        expected, _ = model.predict(encode(game, seat), action_masks=mask.astype(bool), deterministic=True)
        action = agent.choose(game)
        assert action == int(expected) and mask[action] == 1
        game.apply_action(action)
    sampler = PolicyAgent.from_path(path, seed=5, deterministic=False)
    again = PolicyAgent.from_path(path, seed=5, deterministic=False)
    obs, mask = encode(game, game.current_seat()), game.action_mask()
    picks = [sampler.act(obs, mask) for _ in range(20)]
    assert picks == [again.act(obs, mask) for _ in range(20)]  # own seeded Generator
    assert all(mask[a] == 1 for a in picks)
    with pytest.raises(ValueError, match="model file not found"):
        make_agent(f"model:{tmp_path}/missing.zip")


@needs_train
def test_stochastic_eval_rows_do_not_depend_on_the_rows_before_them(tmp_path: Path, capsys) -> None:
    """``aoi eval --stochastic --vs A B``: B's row is the row ``--vs B`` gives.  One sampling agent
    used to play every row, so its generator carried over and B's games depended on A's."""
    from sb3_contrib import MaskablePPO

    from train.evaluate import run_eval
    from train.seat_env import SeatEnv

    model = MaskablePPO("MlpPolicy", SeatEnv("aoi(players=2)"), n_steps=64, batch_size=64,
                        policy_kwargs={"net_arch": [16]}, seed=0, device="cpu")  # fmt: skip
    path = tmp_path / "m.zip"
    model.save(path)
    kw = {"games": 4, "seed": 0, "deterministic": False, "show_progress": False}
    both = run_eval(str(path), ["random", "automa:1"], **kw)
    alone = run_eval(str(path), ["automa:1"], **kw)
    assert both[1].to_dict() == alone[0].to_dict()
    capsys.readouterr()


@needs_train
def test_a_model_of_another_observation_layout_is_a_clear_error(tmp_path: Path):
    """A model trained on an older observation layout (schema 1: 5,891 floats) is refused with a
    ValueError naming both sizes, not a torch shape error in the middle of a game."""
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    from aoi_env.observation import OBS_SCHEMA_VERSION, OBS_SIZE
    from train.policy_agent import load_policy

    class OldLayout(gym.Env):
        observation_space = gym.spaces.Box(0, 1, (5891,), np.float32)
        action_space = gym.spaces.Discrete(276)

    model = MaskablePPO("MlpPolicy", OldLayout(), n_steps=64, batch_size=64, policy_kwargs={"net_arch": [8]},
                        device="cpu")  # fmt: skip
    model.save(tmp_path / "old.zip")
    with pytest.raises(
        ValueError, match=rf"shape \(5891,\).*{OBS_SIZE} floats \(observation schema {OBS_SCHEMA_VERSION}\)"
    ):
        load_policy(tmp_path / "old.zip")


def test_docs_and_quick_config_state_the_current_observation_size():
    """docs/training.md and configs/quick.yaml quote the observation size; they follow OBS_SIZE."""
    from aoi_env.observation import OBS_SIZE

    assert f"Box(0, 1, ({OBS_SIZE},))" in (ROOT / "docs" / "training.md").read_text(encoding="utf-8")
    assert f"({OBS_SIZE} inputs" in (ROOT / "configs" / "quick.yaml").read_text(encoding="utf-8")


@needs_train
def test_self_opponents_play_league_snapshots(tmp_path: Path):
    """Kind ``self`` plays a frozen snapshot (newest with latest_prob) with its own sampling seed."""
    from sb3_contrib import MaskablePPO

    from train.opponents import OpponentPool
    from train.policy_agent import PolicyAgent
    from train.seat_env import SeatEnv

    pool = OpponentPool({"self": 1.0}, max_snapshots=2, latest_prob=1.0)
    model = MaskablePPO("MlpPolicy", SeatEnv("aoi(players=2)"), n_steps=64, policy_kwargs={"net_arch": [16]})
    for i in range(3):
        model.save(tmp_path / f"s{i}.zip")
        pool.add_snapshot(str(tmp_path / f"s{i}.zip"))
    assert pool.snapshots == [str(tmp_path / "s1.zip"), str(tmp_path / "s2.zip")]  # the newest 2 are kept
    env = SeatEnv("aoi(players=2)", pool)
    env.reset(seed=0)
    (opponent,) = env.opponents.values()
    assert isinstance(opponent, PolicyAgent) and opponent.label == str(tmp_path / "s2.zip")
    rng = np.random.default_rng(0)
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    assert info["episode_stats"]["opponent"] == "self" and env.illegal_actions == 0


def test_cli_train_rejects_a_bad_setting_before_loading_torch(capsys: pytest.CaptureFixture[str]):
    """``aoi train`` validates the config first: a bad --set value or key exits 2 with the message."""
    from aoi_env.cli import main

    config = str(ROOT / "configs" / "quick.yaml")
    assert main(["train", "--config", config, "--set", "ppo.gamma=2"]) == 2
    assert "bad value for 'ppo.gamma': 2" in capsys.readouterr().err
    assert main(["train", "--config", config, "--set", "ppo.gama=0.9"]) == 2
    assert "unknown key 'ppo.gama' in section 'ppo'" in capsys.readouterr().err


def test_eval_makes_the_setup_choices_it_is_asked_to(monkeypatch: pytest.MonkeyPatch):
    """A model trained with ``setup_choices: players`` is evaluated choosing its faction, board ...
    (``aoi eval --setup-choices players``); by default they are random."""
    import train.evaluate
    from agents import RandomAgent
    from aoi_env.cli import main
    from aoi_env.core.state import G_PHASE, Phase
    from train.evaluate import evaluate

    class Recorder(RandomAgent):
        phases: set[int] = set()

        def choose(self, game):
            self.phases.add(int(game.state.glob[G_PHASE]))
            return super().choose(game)

    for choices, in_setup in (("players", True), ("random", False)):
        agent = Recorder(seed=0)
        agent.phases = set()
        evaluate(agent, "random", games=1, setup_choices=choices)
        assert (Phase.SETUP in agent.phases) is in_setup
    seen = {}
    monkeypatch.setattr(train.evaluate, "run_eval", lambda *a, **kw: seen.update(kw))
    assert main(["eval", "--model", "m.zip", "--setup-choices", "players"]) == 0
    assert seen["setup_choices"] == "players"


def test_eval_table_of_one_game_has_no_margin_interval() -> None:
    """One game gives a mean margin but no interval (no sample deviation): the table and the
    summary line show the mean alone instead of 'nan'; more games show both."""
    from train.evaluate import EvalResult, format_results, summary_line
    from train.stats import mean_ci, wilson

    def result(margins: list[float]) -> EvalResult:
        m, lo, hi = mean_ci(margins)
        wins = sum(x > 0 for x in margins)
        return EvalResult("trained", "random", len(margins), wins / len(margins), wilson(wins, len(margins)),
                          m, (lo, hi), 90.0, 100.0, 0)  # fmt: skip

    one, three = result([12.0]), result([12.0, -3.0, 6.0])
    table = format_results([one, three])
    assert "nan" not in table and "nan" not in summary_line(one)
    assert "| trained | random | 1 | 100.0% [20.7%, 100.0%] | +12.0 | 90.0 | 100 |" in table
    assert "| +5.0 [-13.8, +23.8] |" in table  # t(2) = 4.303: sd 7.55, half 18.8
    assert "mean VP margin +12.0, mean VP 90.0" in summary_line(one)
    assert "mean VP margin +5.0 (95% CI -13.8 to +23.8)" in summary_line(three)


def test_evaluation_games_are_not_training_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Evaluation on held-out games: env ``i`` of ``aoi train`` resets from
    the stream of ``seed + i``; the final evaluation (``seed + 1``) and ``aoi eval --seed 0``
    once drew their deals from that same stream, so about one deal in five was a game env 0 or
    1 had trained on.  Their streams are now named (``stream_seed``) and share no game seed."""
    from agents import RandomAgent
    from aoi_env.core.state import G_SEED
    from train import evaluate as ev
    from train.config import stream_seed
    from train.opponents import OpponentPool
    from train.seat_env import SeatEnv

    pool = {"random": 0.5, "automa:1": 0.3, "heuristic": 0.2}  # the quick config's kinds, no snapshot
    trained: dict[int, set[int]] = {}
    for i in (0, 1):
        env = SeatEnv("aoi(players=2)", OpponentPool(pool))
        seeds = trained.setdefault(i, set())
        for k in range(12):
            env.reset(seed=i if k == 0 else None)
            seeds.add(int(env.game.state.glob[G_SEED]))
    dealt: list[int] = []
    reset = ev.SeatEnv.reset

    def recording(self: SeatEnv, seed: int | None = None, options: dict | None = None):  # noqa: ANN202
        dealt.append(int((options or {})["game_seed"]))
        return reset(self, seed=seed, options=options)

    monkeypatch.setattr(ev.SeatEnv, "reset", recording)
    for seed, env_index in ((1, 1), (0, 0)):  # the final evaluation of a seed-0 run, aoi eval's default
        dealt.clear()
        ev.evaluate(RandomAgent(seed=0), "random", games=60, seed=seed)
        assert len(set(dealt)) == 30 and not set(dealt) & trained[env_index], sorted(set(dealt) & trained[env_index])
    assert stream_seed(0, "periodic evaluation") not in range(0, 64)  # never an env's seed + i
    assert stream_seed(0, "evaluate") != stream_seed(1, "evaluate") != stream_seed(0, "resume", 100)
