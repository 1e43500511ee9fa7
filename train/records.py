"""Game records: one finished game as JSON, replayable move by move (``aoi replay``).

A record holds everything needed to reproduce and check a game:

* ``env_id`` and ``versions`` (package, action-id schema ``ACTION_SCHEMA_VERSION``, state schema
  ``STATE_SCHEMA_VERSION``, record format),
* ``game`` (the game string, ``str(GameConfig)``) and ``seed`` (``Game(game, seed)``),
* ``factions`` and ``boards`` (faction and planning board = home terrain per seat, after setup),
* ``agents`` (the spec per human seat, e.g. ``["heuristic", "random"]``) and their seeds,
* ``moves``: one notation string per decision the agents made, in order (decisions with a single
  legal move that the engine applied itself because of ``skip_forced`` are not in it, nor the
  setup choices drawn by ``setup_choices=random``: both are reproduced by the game string and
  seed), and ``actions``: the action ids of the same decisions, ``move_seats``: who made them,
* ``scores`` (``g.scores()`` at the end), ``breakdown`` (the final-scoring VP per seat: area,
  science, resources, the Automa's faction bonus, plus ``before_final`` = the VP before final
  scoring; ``area_size`` is the largest area, not VP), ``final_state_sha256``
  (hash of ``g.state.to_bytes()``).

The breakdown is recomputed with ``aoi_env.core.rules.scoring.breakdown`` on the finished game:
final scoring only adds VP (it spends no resource and moves no piece), so the numbers are the
ones that final scoring added.

``replay`` plays the notation strings through ``Game.apply_move`` and raises ``ReplayError``
naming the move number and the move when anything differs.  Nothing here needs torch.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from aoi_env import __version__
from aoi_env.core.config import FACTION_NAMES, TERRAIN_NAMES, GameConfig, check_seed, is_integer
from aoi_env.core.engine import Game
from aoi_env.core.moves import ACTION_SCHEMA_VERSION
from aoi_env.core.state import P_BOARD, P_FACTION, STATE_SCHEMA_VERSION

RECORD_FORMAT = 1
ENV_ID = "aoi/age_of_innovation-v0"  # the PettingZoo registry id (aoi_env.env.REGISTRY_ID)
NOT_VP = ("area_size",)  # breakdown entries that are not VP (everything else is added by final scoring)
REQUIRED = ("game", "seed", "agents", "moves", "scores")  # the other fields have defaults
PER_MOVE = ("actions", "move_seats")  # one entry per move; [] or null = not recorded (not checked on replay)


def current_versions() -> dict[str, Any]:
    """The versions a record is written with (compared on replay)."""
    return {
        "package": __version__,
        "action_schema": ACTION_SCHEMA_VERSION,
        "state_schema": STATE_SCHEMA_VERSION,
        "record_format": RECORD_FORMAT,
    }


@dataclass
class GameRecord:
    """One finished game (see the module docstring for the fields)."""

    env_id: str = ENV_ID
    versions: dict[str, Any] = field(default_factory=current_versions)
    game: str = ""
    seed: int = 0
    agents: list[str] = field(default_factory=list)
    agent_seeds: list[int | None] = field(default_factory=list)
    factions: list[str] = field(default_factory=list)  # per seat at the end (after setup)
    boards: list[str] = field(default_factory=list)  # planning board (home terrain) per seat
    scores: list[int] = field(default_factory=list)
    breakdown: dict[str, list[int]] = field(default_factory=dict)
    final_state_sha256: str = ""
    moves: list[str] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    move_seats: list[int] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    # -- derived ---------------------------------------------------------------------------

    @property
    def config(self) -> GameConfig:
        return GameConfig.parse(self.game)

    @property
    def decisions(self) -> int:
        return len(self.moves)

    def ranks(self) -> list[int]:
        """1-based rank per seat from the final VP; equal VP share the better rank."""
        return ranks_from_scores(self.scores)

    # -- JSON ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, doc: dict[str, Any], where: str = "game record") -> GameRecord:
        """A record from its JSON object (ValueError naming ``where`` and the problem if it is not one)."""
        if not isinstance(doc, dict):
            raise ValueError(f"{where}: must be a JSON object, got {type(doc).__name__}")
        names = {f.name for f in dataclasses.fields(cls)}
        missing = sorted(set(REQUIRED) - set(doc))
        if missing:
            raise ValueError(f"{where}: not a game record, missing {', '.join(missing)}")
        unknown = sorted(set(doc) - names, key=str)
        if unknown:
            raise ValueError(f"{where}: unknown field {unknown[0]!r}; valid: {', '.join(sorted(names))}")
        record = cls(**{**doc, **{k: [] for k in PER_MOVE if k in doc and doc[k] is None}})
        record.validate(where)
        return record

    def validate(self, where: str = "game record") -> None:
        """ValueError naming the first field of the wrong type (``FIELD_TYPES``), or ``actions`` /
        ``move_seats`` that are neither empty nor one entry per move."""
        for name, kind in FIELD_TYPES.items():
            value = getattr(self, name)
            if not kind.startswith("list["):
                if not _ITEM_OK[kind](value):
                    raise _field_error(where, name, kind, _show(value))
            elif not isinstance(value, list):
                raise _field_error(where, name, kind, _show(value))
            else:
                ok = _ITEM_OK[kind[5:-1]]
                if not all(map(ok, value)):
                    i = next(i for i, x in enumerate(value) if not ok(x))
                    raise _field_error(where, name, kind, f"{_show(value[i])} at index {i}")
        if self.seed < 0:  # Game() refuses it: say so when the record is read, not at the replay
            raise _field_error(where, "seed", "a non-negative integer", _show(self.seed))
        for name in PER_MOVE:
            n = len(getattr(self, name))
            if n and n != len(self.moves):
                raise _field_error(where, name, f"one entry per move ({len(self.moves)}) or empty", f"{n} entries")
        self._validate_versions(where)

    def _validate_versions(self, where: str) -> None:
        """``versions`` names the package (a string) and the three schema numbers (integers);
        replay decides on them which checks apply, so a missing or garbled one is an error.  A
        record format other than this one cannot be read; other schemas replay with a warning."""
        for key, kind in VERSION_TYPES.items():
            if key not in self.versions:
                raise ValueError(f"{where}: field 'versions' lacks {key!r} (it names {', '.join(VERSION_TYPES)})")
            if not _ITEM_OK[kind](self.versions[key]):
                raise _field_error(where, f"versions.{key}", kind, _show(self.versions[key]))
        if self.versions["record_format"] != RECORD_FORMAT:
            raise ValueError(
                f"{where}: record format {self.versions['record_format']} cannot be read by this version "
                f"(record format {RECORD_FORMAT})"
            )


_ITEM_OK: dict[str, Callable[[Any], bool]] = {
    "str": lambda v: isinstance(v, str),
    "int": is_integer,  # numpy integers too, for records built in code
    "int|null": lambda v: v is None or is_integer(v),
    "object": lambda v: isinstance(v, dict),
}
_KIND_TEXT = {
    "str": "a string",
    "int": "an integer",
    "object": "a JSON object",
    "list[str]": "a list of strings",
    "list[int]": "a list of integers",
    "list[int|null]": "a list of integers or nulls",
}
VERSION_TYPES = {"package": "str", "action_schema": "int", "state_schema": "int", "record_format": "int"}
FIELD_TYPES: dict[str, str] = {
    "env_id": "str",
    "versions": "object",
    "game": "str",
    "seed": "int",
    "agents": "list[str]",
    "agent_seeds": "list[int|null]",
    "factions": "list[str]",
    "boards": "list[str]",
    "scores": "list[int]",
    "breakdown": "object",
    "final_state_sha256": "str",
    "moves": "list[str]",
    "actions": "list[int]",
    "move_seats": "list[int]",
    "meta": "object",
}
"""The JSON type of each ``GameRecord`` field (checked by ``GameRecord.validate``)."""


def _field_error(where: str, name: str, kind: str, got: str) -> ValueError:
    return ValueError(f"{where}: field {name!r} must be {_KIND_TEXT.get(kind, kind)}, got {got}")


def _show(value: Any) -> str:
    """A value in an error message: ``null`` or its type and (shortened) repr."""
    if value is None:
        return "null"
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 40 else text[:37] + '...'}"


def ranks_from_scores(scores: Sequence[int]) -> list[int]:
    """Competition ranks (1 = best) from VP: ``[70, 80, 70] -> [2, 1, 2]``."""
    return [1 + sum(1 for other in scores if other > s) for s in scores]


def state_digest(game: Game) -> str:
    return hashlib.sha256(game.state.to_bytes()).hexdigest()


def save(record: GameRecord, path: str | os.PathLike[str]) -> Path:
    """Write the record as JSON, one top-level field per line; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(record), encoding="utf-8")
    return path


def dumps(record: GameRecord) -> str:
    """The JSON text of a record: one line per top-level field (diff-friendly, still compact)."""
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in record.to_dict().items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def load(path: str | os.PathLike[str]) -> GameRecord:
    """Read a record written by ``save`` (ValueError naming the file if it is not one)."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (ValueError, RecursionError) as err:  # bad JSON or UTF-8, a 5,000-digit number, nesting too deep
        raise ValueError(f"{path}: not a UTF-8 JSON game record ({err})") from None
    except OSError as err:
        raise ValueError(f"cannot read {path}: {err.strerror or err}") from None
    return GameRecord.from_dict(doc, str(path))


# ------------------------------------------------------------------------------------------------
# playing


def agent_seed(game_seed: int, seat: int) -> int:
    """The default seed of the agent at ``seat`` in a game with ``game_seed`` (independent streams)."""
    return int(np.random.SeedSequence([int(game_seed), 7919, int(seat)]).generate_state(1)[0])


def final_breakdown(game: Game) -> dict[str, list[int]]:
    """Final-scoring VP per seat of a finished game, and the VP each seat had before it."""
    from aoi_env.core.rules import scoring

    parts = {k: [int(x) for x in v] for k, v in scoring.breakdown(game).items()}
    scores = [int(x) for x in game.scores()]
    added = [sum(v[seat] for k, v in parts.items() if k not in NOT_VP) for seat in range(len(scores))]
    parts["before_final"] = [scores[seat] - added[seat] for seat in range(len(added))]
    return parts


def _build_agents(agents: Sequence[Any], seeds: Sequence[int | None]) -> tuple[list[Any], list[str]]:
    from agents import make_agent

    built, specs = [], []
    for spec, seed in zip(agents, seeds, strict=True):
        if isinstance(spec, str):
            built.append(make_agent(spec, seed=seed))
            specs.append(spec)
        else:  # an agent object: recorded by name
            built.append(spec)
            specs.append(str(getattr(spec, "name", type(spec).__name__)))
    return built, specs


def play_record(
    game: str | GameConfig,
    agents: Sequence[Any],
    seed: int = 0,
    agent_seeds: Sequence[int | None] | None = None,
    max_decisions: int = 100_000,
    on_decision: Callable[[Game, int, str], None] | None = None,
) -> GameRecord:
    """Play one game between ``agents`` (spec strings or agent objects, one per player seat).

    ``agent_seeds`` default to ``agent_seed(seed, seat)``.  ``on_decision(game, action, move)``
    is called before each agent decision is applied.  Returns the finished game's record.
    """
    return play(game, agents, seed, agent_seeds, max_decisions, on_decision)[0]


def play(
    game: str | GameConfig,
    agents: Sequence[Any],
    seed: int = 0,
    agent_seeds: Sequence[int | None] | None = None,
    max_decisions: int = 100_000,
    on_decision: Callable[[Game, int, str], None] | None = None,
) -> tuple[GameRecord, Game]:
    """``play_record`` that also returns the finished ``Game``."""
    config = game if isinstance(game, GameConfig) else GameConfig.parse(game)
    seed = check_seed(seed)  # 1.9 was played as seed 1 and recorded as 1.9
    if isinstance(agents, str) or not isinstance(agents, Sequence):  # "random" was 6 agents, one per letter
        raise ValueError(f"agents must be a list of agents or agent specs, one per player, got {agents!r}")
    if len(agents) != config.players:
        raise ValueError(f"need one agent per player: got {len(agents)} for {config.players} players ({config})")
    if agent_seeds is not None and len(agent_seeds) != config.players:
        raise ValueError(f"need one agent seed per player: got {len(agent_seeds)} for {config.players} players")
    seeds = list(agent_seeds) if agent_seeds is not None else [agent_seed(seed, s) for s in range(config.players)]
    players, specs = _build_agents(agents, seeds)
    g = Game(config, seed=int(seed))
    rec = GameRecord(game=str(config), seed=int(seed), agents=specs, agent_seeds=seeds)
    for _ in range(max_decisions):
        if g.is_over():
            break
        seat = g.current_seat()
        action = g.check_action(players[seat].choose(g))  # an agent's 255.9 is an error, not 255
        move = g.move_str(action)
        if on_decision is not None:
            on_decision(g, action, move)
        g.apply_action(action)
        rec.moves.append(move)
        rec.actions.append(action)
        rec.move_seats.append(seat)
    if not g.is_over():  # checked after the loop: a game of exactly max_decisions decisions is over
        raise ValueError(f"game {config} seed {seed} not over after {max_decisions} decisions (raise max_decisions)")
    finish_record(rec, g)
    return rec, g


def record_from_actions(
    game: str | GameConfig,
    seed: int,
    agents: Sequence[str],
    trajectory: Sequence[tuple[int, int]],
    agent_seeds: Sequence[int | None] | None = None,
    meta: dict[str, Any] | None = None,
) -> GameRecord:
    """The record of a game played elsewhere (``SeatEnv.trajectory``: ``(seat, id)`` per decision),
    rebuilt by replaying the ids on ``Game(game, seed)``: the notation of each move is the one of
    its position, and a trajectory that is not this game's (a wrong seat, an illegal id, a game
    that does not end with it) is a ``ValueError`` naming the decision."""
    config = game if isinstance(game, GameConfig) else GameConfig.parse(game)
    if len(agents) != config.players:
        raise ValueError(f"need one agent per player: got {len(agents)} for {config.players} players ({config})")
    g = Game(config, seed=check_seed(seed))
    seeds = list(agent_seeds) if agent_seeds is not None else [None] * config.players
    rec = GameRecord(game=str(config), seed=int(seed), agents=list(agents), agent_seeds=seeds, meta=dict(meta or {}))
    for i, (seat, action) in enumerate(trajectory):
        if g.current_seat() != seat:
            raise ValueError(f"decision {i}: seat {seat} is not the deciding seat {g.current_seat()} of {config}")
        try:
            action = g.check_action(action)
        except ValueError as err:
            raise ValueError(f"decision {i} (seat {seat}): {err}") from None
        rec.moves.append(g.move_str(action))
        g.apply_action(action)
        rec.actions.append(action)
        rec.move_seats.append(seat)
    if not g.is_over():
        raise ValueError(f"the game {config} seed {seed} is not over after the {len(trajectory)} decisions given")
    finish_record(rec, g)
    return rec


def finish_record(rec: GameRecord, game: Game) -> None:
    """Fill the end-of-game fields of ``rec`` from the finished ``game``."""
    players = game.state.players
    rec.factions = [_faction_name(game, seat) for seat in range(len(players))]
    rec.boards = [TERRAIN_NAMES[int(b)] if 0 <= int(b) < len(TERRAIN_NAMES) else "-" for b in players[:, P_BOARD]]
    rec.scores = [int(x) for x in game.scores()]
    rec.breakdown = final_breakdown(game)
    rec.final_state_sha256 = state_digest(game)


def _faction_name(game: Game, seat: int) -> str:
    """The faction of a player seat, ``automa:<faction>`` for an Automa seat, ``-`` if none."""
    is_automa = getattr(game, "is_automa", None)
    if is_automa is not None and is_automa(seat):
        from aoi_env.core import automa

        return f"automa:{automa.faction_of(game, seat)}"
    f = int(game.state.players[seat, P_FACTION])
    return FACTION_NAMES[f] if 0 <= f < len(FACTION_NAMES) else "-"


# ------------------------------------------------------------------------------------------------
# replaying


class ReplayError(ValueError):
    """A record does not replay to the recorded game (the message names the move)."""


Frame = Callable[[Game, int, str | None], None]
"""``frame(game, move_number, move)``: called with move_number 0 / move None for the start."""


def replay(record: GameRecord, on_frame: Frame | None = None, check_actions: bool | None = None) -> Game:
    """Replay ``record`` through ``Game.apply_move``; returns the finished game.

    Checks, each failing with ``ReplayError``: every move parses and is legal, its action id is
    the recorded one (only when the action schema is the current one; ``check_actions`` forces
    it on or off), the game ends exactly after the last move, the final scores and (same state
    schema) the final state hash are the recorded ones.  A field of the wrong type is a
    ``ValueError`` (``GameRecord.validate``) before the first move.
    """
    record.validate()
    versions = record.versions or {}
    if check_actions is None:
        check_actions = versions.get("action_schema") == ACTION_SCHEMA_VERSION
    try:
        g = Game(record.game, seed=int(record.seed))
    except ValueError as err:
        raise ReplayError(f"cannot start the recorded game {record.game!r}: {err}") from None
    for name in ("agents", "agent_seeds"):  # one per player seat, or not recorded
        n = len(getattr(record, name))
        if n and n != g.config.players:
            raise ReplayError(f"the record's {name} has {n} entries for {g.config.players} players ({record.game})")
    total = len(record.moves)
    if on_frame is not None:
        on_frame(g, 0, None)
    for i, move in enumerate(record.moves, start=1):
        where = f"move {i} of {total} ({move!r})"
        if g.is_over():
            raise ReplayError(f"replay diverged at {where}: the game is already over")
        seat = g.current_seat()
        if record.move_seats and i <= len(record.move_seats) and record.move_seats[i - 1] != seat:
            raise ReplayError(
                f"replay diverged at {where}: seat {seat} is to move, the record says seat {record.move_seats[i - 1]}"
            )
        try:
            action = g.parse_move(move)
        except ValueError as err:
            raise ReplayError(f"replay diverged at {where}, seat {seat}: {err}") from None
        if check_actions and i <= len(record.actions) and record.actions[i - 1] != action:
            raise ReplayError(
                f"replay diverged at {where}, seat {seat}: the move is action {action}, "
                f"the record says action {record.actions[i - 1]} ({_describe(g, record.actions[i - 1])})"
            )
        g.apply_action(action)
        if on_frame is not None:
            on_frame(g, i, move)
    if not g.is_over():
        raise ReplayError(
            f"the record ends after {total} moves but the game is not over "
            f"(seat {g.current_seat()} to decide: {g.pending_kind().name.lower()})"  # type: ignore[union-attr]
        )
    scores = [int(x) for x in g.scores()]
    if scores != [int(x) for x in record.scores]:
        raise ReplayError(f"final scores differ after {total} moves: recorded {record.scores}, replayed {scores}")
    same_schema = versions.get("state_schema") == STATE_SCHEMA_VERSION
    if record.final_state_sha256 and same_schema and state_digest(g) != record.final_state_sha256:
        raise ReplayError(f"final state differs after {total} moves (same scores {scores}, different state bytes)")
    replayed = GameRecord(game=record.game, seed=record.seed)
    finish_record(replayed, g)
    for name in ("factions", "boards", "breakdown"):  # read from the game at its end: a record says what it had
        if getattr(record, name) and getattr(record, name) != getattr(replayed, name):
            raise ReplayError(
                f"the recorded {name} {getattr(record, name)} differ from the replayed game's {getattr(replayed, name)}"
            )
    return g


def _describe(g: Game, action: int) -> str:
    try:
        return g.move_str(action) if action in g.legal_actions() else "not legal here"
    except (ValueError, KeyError, IndexError):
        return "not legal here"


def version_warnings(record: GameRecord) -> list[str]:
    """Human-readable notes where the record was written with other versions than these."""
    now = current_versions()
    out = []
    for key, value in (record.versions or {}).items():
        if key in now and now[key] != value:
            out.append(f"record {key} {value} differs from the current {now[key]}")
    if record.env_id != ENV_ID:
        out.append(f"record env id {record.env_id!r} is not {ENV_ID!r}")
    return out
