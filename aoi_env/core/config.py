"""``GameConfig``: the frozen game parameters and everything derived from them (the "Game").

Parameters are declared once in ``DEFAULT_PARAMS``; an unknown name or a bad value raises a
``ValueError`` that says what is valid.  ``str(config)`` gives the game string, e.g.
``aoi(players=3,ruleset=v1.0)`` (only non-default values), which ``GameConfig.parse`` reads back.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np

from aoi_env.core.board import Geometry, geometry
from aoi_env.data import NUM_POSITIONS, GameData, load
from aoi_env.data.enums import Faction, Terrain

DEFAULT_PARAMS: dict[str, Any] = {
    "players": 4,  # human seats, 2-5 (R5); 1-2 with an Automa
    "ruleset": "v1.2",  # "v1.0" = first-edition faction numbers (R145, OP-13..OP-15)
    "map": "auto",  # board side: "auto" (2 players: 1-3, else 3-5), "3-5" or "1-3" (R5)
    "distribution": "standard",  # "standard" sets (R15) or "draft" (R16); ignored when factions/boards are fixed
    "factions": (),  # fixed faction per seat (names), empty = from the distribution
    "boards": (),  # fixed planning board (terrain) per seat, empty = from the distribution
    "setup_choices": "players",  # "players" decide setup choices, or "random": the engine picks them
    "skip_forced": True,  # apply a decision with exactly one legal move automatically
    "area_tokens": tuple(load().raw["two_player"]["area_tokens"]),  # 2-player area token values (OP-11, unverified)
    "automa": (),  # solo Automa seats after the players: "faction:level[:terrain]" (AUTOMA.md, docs/automa.md)
}

_CHOICES = {
    "ruleset": ("v1.2", "v1.0"),
    "map": ("auto", "3-5", "1-3"),
    "distribution": ("standard", "draft"),
    "setup_choices": ("players", "random"),
}
FACTION_NAMES = tuple(f.name.lower() for f in Faction)
TERRAIN_NAMES = tuple(t.name.lower() for t in Terrain)[:7]


def is_integer(value: Any) -> bool:
    """An int or a numpy integer, not a bool: ``True`` would count as 1 and ``int(1.5)`` truncate."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def is_real(value: Any) -> bool:
    """An int or a float (numpy's too), not a bool or a string."""
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def check_seed(seed: Any, name: str = "seed") -> int:
    """``seed`` as a Python int if it is a non-negative integer (a numpy integer too); anything
    else, a float or a bool included, is a ValueError naming it rather than a silent ``int()``."""
    if not is_integer(seed) or seed < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {seed!r}")
    return int(seed)


def check_choice(name: str, value: Any, valid: tuple[str, ...]) -> str:
    """``value`` if it is one of the ``valid`` strings; a ValueError naming ``name`` otherwise (an
    array is refused first: it would pass ``in`` through numpy's ==)."""
    if not isinstance(value, str) or value not in valid:
        raise ValueError(f"{name} must be one of {', '.join(valid)}; got {value!r}")
    return value


def _as_sequence(name: str, value: Any) -> tuple[Any, ...]:
    """A list parameter: a list or tuple in seat order, a string "a,b" (or "a+b"), or None for
    none.  A set is refused: its order, and so the seating, would depend on string hashing."""
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(v for v in value.replace("+", ",").split(",") if v)
    if isinstance(value, (set, frozenset)):
        raise ValueError(f"{name} must be a list or tuple, not a set: a set's order depends on string hashing")
    if isinstance(value, np.ndarray) and value.ndim == 1:
        return tuple(value.tolist())
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{name} must be a list or a comma-separated string, got {value!r}")
    return tuple(value)


def _as_names(name: str, value: Any, valid: tuple[str, ...], players: int) -> tuple[str, ...]:
    value = tuple(str(v).strip().lower() for v in _as_sequence(name, value))
    for v in value:
        if v not in valid:
            raise ValueError(f"unknown {name[:-1]} {v!r}; valid: {', '.join(valid)}")
    if value and len(value) != players:
        raise ValueError(f"{name} must name one per player: got {len(value)} for {players} players")
    _no_repeats(name, value)
    return value


def _as_area_tokens(value: Any) -> tuple[int, ...]:
    """Integers, or digit strings from a game string; a float or a bool is refused, not rounded."""
    out = []
    for t in _as_sequence("area_tokens", value):
        if isinstance(t, str) and t.strip().isascii() and t.strip().isdigit():
            t = int(t)
        if not is_integer(t):
            raise ValueError(f"area_tokens must be non-negative integers, got {value!r}")
        out.append(int(t))
    return tuple(out)


def _no_repeats(name: str, values: list[str] | tuple[str, ...]) -> None:
    dup = sorted({v for v in values if values.count(v) > 1})
    if dup:
        raise ValueError(f"duplicate {name}: {', '.join(dup)}")


@dataclass(frozen=True)
class GameConfig:
    """Frozen parameters of one game (OpenSpiel's Game role)."""

    players: int = DEFAULT_PARAMS["players"]
    ruleset: str = DEFAULT_PARAMS["ruleset"]
    map: str = DEFAULT_PARAMS["map"]
    distribution: str = DEFAULT_PARAMS["distribution"]
    factions: tuple[str, ...] = DEFAULT_PARAMS["factions"]
    boards: tuple[str, ...] = DEFAULT_PARAMS["boards"]
    setup_choices: str = DEFAULT_PARAMS["setup_choices"]
    skip_forced: bool = DEFAULT_PARAMS["skip_forced"]
    area_tokens: tuple[int, ...] = DEFAULT_PARAMS["area_tokens"]
    automa: tuple[str, ...] = DEFAULT_PARAMS["automa"]

    def __post_init__(self) -> None:
        players = self.players
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be an integer 2..5, got {players!r}")
        automa = tuple(str(a).strip().lower() for a in _as_sequence("automa", self.automa))
        object.__setattr__(self, "automa", automa)
        automa_terrains: list[str] = []
        if automa:
            from aoi_env.core.automa import parse_spec

            parts = [parse_spec(spec) for spec in automa]
            automa_terrains = [terrain for _, _, terrain in parts if terrain]
            _no_repeats("Automa factions", [faction for faction, _, _ in parts])  # one card each (§2.5)
            _no_repeats("Automa terrains", automa_terrains)  # §3.3: all terrains distinct
            if not 1 <= players <= 2 or len(automa) > 2 or players + len(automa) > 3:
                raise ValueError(
                    f"an Automa game has 1-2 players and 1-2 Automas, at most 3 factions (AUTOMA.md §3.1); "
                    f"got {players} players and {len(automa)} Automas"
                )
            if self.distribution != "standard":
                raise ValueError("the draft variant is not used with the Automa (AUTOMA.md §3.3)")
        elif not 2 <= players <= 5:
            raise ValueError(f"players must be 2..5, got {players}")
        for key, valid in _CHOICES.items():
            check_choice(key, getattr(self, key), valid)
        object.__setattr__(self, "factions", _as_names("factions", self.factions, FACTION_NAMES, players))
        object.__setattr__(self, "boards", _as_names("boards", self.boards, TERRAIN_NAMES, players))
        clash = sorted(set(automa_terrains) & set(self.boards))
        if clash:
            raise ValueError(f"Automa terrain {clash[0]} is also a player's board (AUTOMA.md §3.3: all distinct)")
        if not isinstance(self.skip_forced, bool):
            raise ValueError(f"skip_forced must be true or false, got {self.skip_forced!r}")
        tokens = _as_area_tokens(self.area_tokens)
        if not tokens or any(not 0 <= t <= NUM_POSITIONS for t in tokens):
            raise ValueError(
                f"area_tokens must be non-negative integers, at most {NUM_POSITIONS} (an area size), "
                f"got {self.area_tokens!r}"
            )
        object.__setattr__(self, "area_tokens", tokens)
        seats = self.seats
        if seats == 2 and self.map == "3-5":
            raise ValueError("a 2-player game uses the 1-3 board side (R5, R24)")
        if seats >= 4 and self.map == "1-3":
            raise ValueError(f"the 1-3 board side is for 1-3 players, not {seats} (R5)")

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def from_params(cls, params: dict[str, Any] | None = None, **kwargs: Any) -> GameConfig:
        """Build from a dict of parameters; unknown names are rejected with the valid list."""
        if params is not None and not isinstance(params, dict):
            raise ValueError(f"game parameters must be a dict of name: value, got {type(params).__name__}")
        merged = dict(params or {})
        merged.update(kwargs)
        unknown = sorted(set(merged) - set(DEFAULT_PARAMS))
        if unknown:
            raise ValueError(f"unknown parameter {unknown[0]!r}; valid: {', '.join(DEFAULT_PARAMS)}")
        return cls(**merged)

    @classmethod
    def parse(cls, text: str) -> GameConfig:
        """Read a game string such as ``aoi(players=3,ruleset=v1.0)``."""
        return cls.from_params(cls.parse_params(text))

    @staticmethod
    def parse_params(text: str) -> dict[str, Any]:
        """The parameters a game string names, typed but not yet checked together (``parse``)."""
        if not isinstance(text, str):
            raise ValueError(f"a game string such as 'aoi(players=3)' is expected, got {text!r}")
        t = text.strip()
        if not (t.startswith("aoi(") and t.endswith(")")):
            raise ValueError(f"bad game string {text!r}: expected aoi(name=value,...)")
        body = t[4:-1]
        params: dict[str, Any] = {}
        for item in filter(None, body.split(",")):
            if "=" not in item:
                raise ValueError(f"bad game string {text!r}: {item!r} is not name=value")
            k, v = (s.strip() for s in item.split("=", 1))
            if k in params:
                raise ValueError(f"bad game string {text!r}: parameter {k!r} is given twice")
            default = DEFAULT_PARAMS.get(k)
            if isinstance(default, bool):
                if v not in ("true", "false"):
                    raise ValueError(f"{k} must be true or false, got {v!r}")
                params[k] = v == "true"
            elif isinstance(default, int):
                try:
                    params[k] = int(v)
                except ValueError:
                    raise ValueError(f"{k} must be an integer, got {v!r}") from None
            else:
                params[k] = v
        return params

    def __str__(self) -> str:
        parts = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value == DEFAULT_PARAMS[f.name] and f.name != "players":
                continue
            if isinstance(value, bool):
                text = "true" if value else "false"
            elif isinstance(value, tuple):
                text = "+".join(str(v) for v in value)
            else:
                text = str(value)
            parts.append(f"{f.name}={text}")
        return f"aoi({','.join(parts)})"

    # -- derived (the static "Game" facts) --------------------------------------------------

    @property
    def map_side(self) -> str:
        if self.map != "auto":
            return self.map
        return "1-3" if self.seats == 2 else "3-5"

    @property
    def geometry(self) -> Geometry:
        return geometry(self.map_side)

    @property
    def data(self) -> GameData:
        return load()

    @property
    def seats(self) -> int:
        """Factions at the table: the players, then the Automas (AUTOMA.md §3.1)."""
        return self.players + len(self.automa)

    @property
    def fixed_setup(self) -> bool:
        """Factions or boards given: no sets/draft; bonus tiles are picked as in R16.8."""
        return bool(self.factions or self.boards)

    def to_params(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        for k, v in out.items():
            if isinstance(v, tuple):
                out[k] = list(v)
        return out
