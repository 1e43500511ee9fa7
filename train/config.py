"""Training configuration: a YAML file read into validated dataclasses (``aoi train --config``).

``load_config(path, overrides)`` reads the YAML mapping, applies ``--set key=value`` overrides
(dotted keys for sections: ``ppo.learning_rate=1e-4``) and builds a ``TrainConfig``.  An unknown
key or a bad value raises ``ValueError`` naming the key, the value and what is valid; every
setting is documented in ``configs/quick.yaml`` and in the table of docs/training.md.

Nothing here imports torch: configs are checked before anything heavy is loaded.
"""

from __future__ import annotations

import dataclasses
import math
import os
import types
import typing
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from aoi_env.core.config import GameConfig
from aoi_env.env import REWARD_KINDS
from train.opponents import check_spec

VEC_ENVS = ("dummy", "subproc")
SEED_MAX = 2**31 - 1  # numpy seeds must be < 2**32: room for the offsets (env i: seed + i)


def stream_seed(seed: int, stream: str, *extra: int) -> int:
    """A 31-bit seed for one named use of the run's ``seed`` (periodic evaluation, final
    evaluation, a resumed run's envs).  Offsets like ``seed + 10_000`` can land on the stream of
    a training env (env ``i`` is ``seed + i``), so that evaluation would replay training games;
    a seed derived from (``seed``, name, ``extra``) by ``SeedSequence`` cannot."""
    import zlib

    import numpy as np

    entropy = [int(seed), zlib.crc32(stream.encode()), *map(int, extra)]
    return int(np.random.SeedSequence(entropy).generate_state(1)[0]) & SEED_MAX


def _fail(key: str, value: Any, valid: str) -> ValueError:
    return ValueError(f"bad value for {key!r}: {value!r}; valid: {valid}")


def check_int(key: str, value: Any, lo: int, hi: int | None = None) -> None:
    """A ValueError naming ``key`` unless ``value`` is an integer in [lo, hi] (shared by the
    tournament and balance options)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < lo or (hi is not None and value > hi):
        raise _fail(key, value, f"an integer >= {lo}" if hi is None else f"an integer {lo}..{hi}")


def check_float(key: str, value: Any, lo: float, hi: float, lo_open: bool = False) -> None:
    """A ValueError naming ``key`` unless ``value`` is a finite number in the range (NaN compares
    false with everything, so it is rejected explicitly)."""
    ok = not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)
    if not ok or value > hi or value < lo or (lo_open and value == lo):
        raise _fail(key, value, f"a number in {'(' if lo_open else '['}{lo}, {hi}]")


def check_bool(key: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise _fail(key, value, "true or false")


def check_out(key: str, value: Any, optional: bool = False) -> None:
    """An output folder: a non-empty path string (None too when ``optional``)."""
    if not (value is None and optional) and (not isinstance(value, str) or not value):
        raise _fail(key, value, "a directory path" + (" or null" if optional else ""))


def check_specs(key: str, value: Any) -> None:
    """A list of agent specs (strings); a mapping or a number would fail only once the games run."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise _fail(key, value, "a list of agent specs such as [heuristic, random]")


def check_base_game(key: str, game: Any) -> None:
    """A tournament's or balance run's base game string: valid, and without an Automa (Automa
    seats are participants, ``automa:L``, so that every game's scores match its seats)."""
    from aoi_env.core.config import GameConfig

    if not isinstance(game, str):
        raise _fail(key, game, "a game string such as aoi(ruleset=v1.0)")
    if "automa" in GameConfig.parse_params(game):
        raise ValueError(f"{key} may not name an Automa ({game!r}): make it a participant, e.g. automa:3")
    GameConfig.parse(game)


@dataclass
class LeagueConfig:
    """Self-play league: frozen snapshots of the learner join the opponent pool as kind ``self``."""

    snapshot_every: int = 0  # learner steps between snapshots; 0 = no snapshots (only the untrained one)
    max_snapshots: int = 5  # the pool keeps the newest N snapshots (the untrained one counts too)
    latest_prob: float = 0.5  # a "self" opponent is the newest snapshot with this probability, else a uniform pick

    def validate(self) -> None:
        check_int("league.snapshot_every", self.snapshot_every, 0)
        check_int("league.max_snapshots", self.max_snapshots, 1)
        check_float("league.latest_prob", self.latest_prob, 0.0, 1.0)


@dataclass
class PPOConfig:
    """sb3-contrib MaskablePPO hyperparameters (passed through unchanged; net_arch -> policy_kwargs)."""

    learning_rate: float = 3e-4
    n_steps: int = 256  # steps per env per rollout (rollout = n_steps * n_envs)
    batch_size: int = 256
    n_epochs: int = 4
    gamma: float = 0.999  # a move spans several decisions: keep the discount close to 1
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    net_arch: list[int] = field(default_factory=lambda: [256, 128])

    def validate(self) -> None:
        check_float("ppo.learning_rate", self.learning_rate, 0.0, 1.0, lo_open=True)
        check_int("ppo.n_steps", self.n_steps, 2)
        check_int("ppo.batch_size", self.batch_size, 2)
        check_int("ppo.n_epochs", self.n_epochs, 1)
        check_float("ppo.gamma", self.gamma, 0.0, 1.0)
        check_float("ppo.gae_lambda", self.gae_lambda, 0.0, 1.0)
        check_float("ppo.clip_range", self.clip_range, 0.0, 1.0, lo_open=True)
        check_float("ppo.ent_coef", self.ent_coef, 0.0, 1.0)
        check_float("ppo.vf_coef", self.vf_coef, 0.0, 10.0)
        check_float("ppo.max_grad_norm", self.max_grad_norm, 0.0, 100.0, lo_open=True)
        if not isinstance(self.net_arch, list) or not self.net_arch:
            raise _fail("ppo.net_arch", self.net_arch, "a non-empty list of layer widths, e.g. [256, 128]")
        for width in self.net_arch:
            check_int("ppo.net_arch", width, 1)


@dataclass
class EvalConfig:
    """Periodic MaskableEvalCallback during training (reward of the env's ``reward`` kind)."""

    opponent: str = "automa:1"  # an opponent spec (see ``opponents``)
    every: int = 0  # learner steps between evaluations; 0 = off
    games: int = 10

    def validate(self) -> None:
        check_spec(self.opponent, "eval.opponent", allow_self=False)
        check_int("eval.every", self.every, 0)
        check_int("eval.games", self.games, 1)


@dataclass
class FinalEvalConfig:
    """The result table after training: trained (and untrained) policy vs each opponent."""

    opponents: list[str] = field(default_factory=lambda: ["random", "automa:1"])
    games: int = 100  # games per opponent and policy
    baseline: bool = True  # also evaluate the untrained policy (saved before the first update)
    deterministic: bool = True  # the policy plays its most likely legal id (false: samples)

    def validate(self) -> None:
        if not isinstance(self.opponents, list):
            raise _fail("final_eval.opponents", self.opponents, "a list of opponent specs")
        for spec in self.opponents:
            check_spec(spec, "final_eval.opponents", allow_self=False)
        check_int("final_eval.games", self.games, 0)
        check_bool("final_eval.baseline", self.baseline)
        check_bool("final_eval.deterministic", self.deterministic)


@dataclass
class TrainConfig:
    """Everything ``aoi train`` needs; see configs/quick.yaml for the meaning of each key."""

    seed: int = 0
    out: str = "runs/quick"
    game: str = "aoi(players=2)"
    reward: str = "rank"
    shaping: float = 0.0
    setup_choices: str = "random"
    learner_seat: int | None = None
    total_timesteps: int = 100_000
    max_minutes: float = 0.0
    n_envs: int = 8
    vec_env: str = "dummy"
    torch_threads: int = 1
    progress_bar: bool = True
    checkpoint_every: int = 0
    opponents: dict[str, float] = field(default_factory=lambda: {"random": 1.0})
    league: LeagueConfig = field(default_factory=LeagueConfig)
    ppo: PPOConfig = field(default_factory=PPOConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)
    final_eval: FinalEvalConfig = field(default_factory=FinalEvalConfig)

    def validate(self) -> None:
        check_int("seed", self.seed, 0, SEED_MAX)
        check_out("out", self.out)
        if not isinstance(self.game, str):
            raise _fail("game", self.game, "a game string such as 'aoi(players=2)'")
        try:
            config = GameConfig.parse(self.game)
        except ValueError as err:
            raise ValueError(f"bad value for 'game': {err}") from None
        if config.automa:
            raise _fail("game", self.game, "a game without automa= (an Automa is an opponent spec: automa:L)")
        if self.reward not in REWARD_KINDS:
            raise _fail("reward", self.reward, ", ".join(REWARD_KINDS))
        check_float("shaping", self.shaping, 0.0, 10.0)
        if self.setup_choices not in ("random", "players"):
            raise _fail("setup_choices", self.setup_choices, "random, players")
        if self.learner_seat is not None:
            check_int("learner_seat", self.learner_seat, 0, config.players - 1)
        check_int("total_timesteps", self.total_timesteps, 1)
        check_float("max_minutes", self.max_minutes, 0.0, 1e6)
        check_int("n_envs", self.n_envs, 1)
        check_int("torch_threads", self.torch_threads, 0)
        if self.vec_env not in VEC_ENVS:
            raise _fail("vec_env", self.vec_env, ", ".join(VEC_ENVS))
        check_bool("progress_bar", self.progress_bar)
        check_int("checkpoint_every", self.checkpoint_every, 0)
        if not isinstance(self.opponents, dict) or not self.opponents:
            raise _fail("opponents", self.opponents, "a mapping of opponent spec -> weight, e.g. {random: 1}")
        for spec, weight in self.opponents.items():
            check_spec(spec, "opponents")
            check_float(f"opponents[{spec}]", weight, 0.0, 1e9)
        if sum(self.opponents.values()) <= 0:
            raise _fail("opponents", self.opponents, "at least one positive weight")
        for section in (self.league, self.ppo, self.eval, self.final_eval):
            section.validate()
        if "setup_choices" in GameConfig.parse_params(self.game):
            raise _fail("game", self.game, "a game string without setup_choices= (use the key setup_choices)")
        self._check_opponent_games(config)
        if self.ppo.batch_size > self.ppo.n_steps * self.n_envs:
            raise _fail(
                "ppo.batch_size", self.ppo.batch_size, f"at most n_steps * n_envs = {self.ppo.n_steps * self.n_envs}"
            )

    def _check_opponent_games(self, config: GameConfig) -> None:
        """Every opponent that will play has a model file and a valid game (e.g. no Automa in a
        draft game): a bad one drawn mid-training, or in the final table, would cost the run."""
        from train.opponents import check_opponent_game

        named = [(f"opponents[{spec}]", spec) for spec in self.opponents]
        named += [("eval.opponent", self.eval.opponent)] if self.eval.every else []
        named += [("final_eval.opponents", spec) for spec in self.final_eval.opponents] if self.final_eval.games else []
        for key, spec in named:
            check_opponent_game(key, spec, config, self.game, self.setup_choices)

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> TrainConfig:
        cfg = _build(cls, doc, "")
        cfg.validate()
        return cfg

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _build(cls: type, doc: Any, where: str) -> Any:
    """A dataclass from a mapping: unknown keys are rejected, sections are built recursively."""
    label = f"section {where[:-1]!r}" if where else "the config"
    if not isinstance(doc, dict):
        raise ValueError(f"{label} must be a mapping, got {doc!r}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(doc) - set(fields), key=str)  # a YAML key may be a number
    if unknown:
        raise ValueError(f"unknown key {where + str(unknown[0])!r} in {label}; valid: {', '.join(fields)}")
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for name, value in doc.items():
        hint = hints[name]
        if dataclasses.is_dataclass(hint):
            kwargs[name] = _build(hint, value if value is not None else {}, f"{where}{name}.")
        else:
            kwargs[name] = _coerce(hint, value)
    return cls(**kwargs)


def _coerce(hint: Any, value: Any) -> Any:
    """YAML reads ``3e-4`` as a string (YAML 1.1): accept it where a float is expected."""
    if hint is float and isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    if isinstance(hint, types.UnionType) and float in typing.get_args(hint) and isinstance(value, str):
        return _coerce(float, value)
    return value


SHIPPED_CONFIGS = ("quick", "selfplay", "tournament", "balance")  # configs/<name>.yaml
CONFIG_COMMAND = {"quick": "train", "selfplay": "train", "tournament": "tournament", "balance": "balance"}


def model_file(path: str, what: str) -> str:
    """The file of a saved model (``.zip`` appended when the path lacks it), checked without torch:
    a missing file, a folder or a file that is no model saved by aoi train is a ValueError naming
    ``what``, before any work (the opponent would otherwise fail mid-training or after it)."""
    found = path if os.path.exists(path) or not os.path.exists(path + ".zip") else path + ".zip"
    if not os.path.exists(found):
        raise ValueError(f"{what}: model file not found: {path!r} (a MaskablePPO .zip written by aoi train)")
    if os.path.isdir(found):
        raise ValueError(f"{what}: {path!r} is a folder, not a model .zip written by aoi train")
    try:
        with zipfile.ZipFile(found) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, OSError):
        names = set()
    if not {"data", "policy.pth"} <= names:
        raise ValueError(f"{what}: {path!r} is not a model saved by aoi train (a MaskablePPO .zip)")
    return found


def shipped_config_dirs() -> list[Path]:
    """Where the shipped configs are: ``train/configs`` inside an installed wheel (setup.py copies
    them there), then the repository's ``configs/`` (a source tree or an editable install)."""
    here = Path(__file__).resolve().parent
    return [here / "configs", here.parent / "configs"]


def resolve_config(path: str | os.PathLike[str]) -> Path:
    """``path`` if it exists; else a shipped config named by it (``quick``, ``quick.yaml`` or
    ``configs/quick.yaml``), so that the default ``configs/quick.yaml`` and the names work from any
    folder and without the repository.  Anything else is returned unchanged (the caller's open
    reports it)."""
    given = Path(path)
    if given.exists() or given.is_absolute():
        return given
    if len(given.parts) > 2 or (len(given.parts) == 2 and given.parts[0] != "configs"):
        return given
    name = given.name if given.suffix in (".yaml", ".yml") else given.name + ".yaml"
    for folder in shipped_config_dirs():
        if (folder / name).is_file():
            return folder / name
    return given


def load_yaml(path: str | os.PathLike[str] | None, command: str | None = None) -> dict[str, Any]:
    """A YAML mapping from ``path`` (empty dict for None), a file or a shipped config's name
    (``resolve_config``); shared by training, balance and tournaments.  ``command`` (``train``,
    ``tournament``, ``balance``): a shipped config of another command is an error naming it."""
    if not path:
        return {}
    resolved = resolve_config(path)
    shipped = [name for name in SHIPPED_CONFIGS if command is None or CONFIG_COMMAND[name] == command]
    other = CONFIG_COMMAND.get(resolved.stem)
    shipped_dirs = [folder.resolve() for folder in shipped_config_dirs()]
    if command and other not in (None, command) and resolved.resolve().parent in shipped_dirs:
        raise ValueError(
            f"{path} is the shipped config of aoi {other}, not of aoi {command} (its shipped configs: "
            f"{', '.join(shipped)})"
        )
    try:
        with open(resolved, encoding="utf-8") as fh:
            doc = yaml.safe_load(fh)
    except OSError as err:
        hint = f" (a relative path is read from the current folder; shipped configs: {', '.join(shipped)})"
        raise ValueError(
            f"cannot read config {path}: {err.strerror or err}{hint if not Path(path).is_absolute() else ''}"
        ) from None
    except (yaml.YAMLError, UnicodeDecodeError) as err:
        raise ValueError(f"{path}: not a YAML file ({' '.join(str(err).split())[:200]})") from None
    if doc is None:  # an empty file
        return {}
    if not isinstance(doc, dict):  # [] or false too (they were read as an empty config)
        raise ValueError(f"{path}: expected a mapping of settings")
    return doc


def apply_override(doc: dict[str, Any], item: str) -> None:
    """``key=value`` or ``section.key=value``; the value is read as YAML (``1e-4``, ``[64, 64]``, ``null``).
    ``opponents.SPEC=WEIGHT`` takes the weight after the last ``=``: a model path may hold ``.`` and
    ``=`` (``model:runs/quick/age_of_innovation_v0-aoi_players=2-seed0.zip``)."""
    if "=" not in item:
        raise ValueError(f"bad override {item!r}: expected key=value, e.g. ppo.learning_rate=1e-4")
    key, text = (s.strip() for s in item.split("=", 1))
    if key.startswith("opponents."):
        spec, text = (s.strip() for s in item.strip()[len("opponents.") :].rsplit("=", 1))
        parts = ["opponents", spec]
    else:
        parts = key.split(".")
    try:
        value = yaml.safe_load(text) if text else None
    except yaml.YAMLError as err:
        raise ValueError(f"bad override {item!r}: the value is not YAML ({' '.join(str(err).split())[:120]})") from None
    node = doc
    for part in parts[:-1]:
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            raise ValueError(f"bad override {item!r}: {part!r} is not a section")
        node = child
    node[parts[-1]] = value


def load_config(path: str | os.PathLike[str] | None, overrides: list[str] | None = None, **top: Any) -> TrainConfig:
    """Read ``path`` (YAML), apply ``--set`` overrides and top-level values (None = keep), validate."""
    doc = load_yaml(path, "train")
    for item in overrides or []:
        apply_override(doc, item)
    doc.update({k: v for k, v in top.items() if v is not None})
    return TrainConfig.from_dict(doc)
