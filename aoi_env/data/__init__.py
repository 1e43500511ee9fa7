"""Component data: loaded once from the YAML files next to this module, validated, and indexed.

``load()`` returns the one ``GameData`` object.  Every component has an integer id (its position
in the tuples below); those ids are used by the state arrays and the action table.  Effects stay
plain dicts in the closed vocabulary documented at the top of ``components.yaml``; the loader
rejects unknown keys, events and counters so that a typo fails at import, not in a game.
"""

from __future__ import annotations

import functools
from collections.abc import Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from aoi_env.data.enums import (
    NUM_BONUS_TILES,
    NUM_BOOK_ACTIONS,
    NUM_CITY_TILES,
    NUM_COMPETENCIES,
    NUM_DISCIPLINES,
    NUM_FINAL_TILES,
    NUM_INNOVATIONS,
    NUM_PALACE_TILES,
    NUM_ROUND_TILES,
    NUM_SPELLS,
    TERRAIN_LETTERS,
    Building,
    Discipline,
    Faction,
    Terrain,
)

DATA_DIR = Path(__file__).resolve().parent

NUM_ROWS = 9
NUM_COLS = 13
NUM_POSITIONS = NUM_ROWS * NUM_COLS  # one id per grid position, shared by both board sides
ROUNDS = 6  # R56; components.yaml says the same (checked at load), the state holds 6 round tiles
INNOVATIONS_PER_PLAYER = 3  # R73; components.yaml says the same (checked at load), the state holds 3 slots

GAIN_KEYS = frozenset(
    {
        "vp", "coins", "tools", "scholars", "power", "power_tokens", "books", "steps_each", "steps_any",
        "steps_one", "tb", "bridge", "competency", "city_tile", "neutral", "pavilions", "sail", "dig",
        "vp_per", "steps_per", "vp_table", "school_to_guild", "free_guild_upgrade", "palace15_parts",
        "guild_anywhere", "second_action", "lizard_tb", "spades",
    }
)  # fmt: skip
COUNTERS = frozenset(
    {
        "workshop", "guild", "school", "university", "palace", "tower", "monument", "buildings", "shapes",
        "groups", "bridges", "cities", "lowest_discipline", "top_two_disciplines",
    }
)  # fmt: skip
EVENTS = (
    "build_workshop", "build_workshop_river", "build_workshop_border", "build_guild", "build_school",
    "build_university", "build_palace", "spade", "step", "city", "found_city", "track", "innovation",
    "send_scholar", "spell", "tunnel", "flight",
)  # fmt: skip
FLAG_GAINS = frozenset(
    {"school_to_guild", "free_guild_upgrade", "palace15_parts", "guild_anywhere", "second_action", "lizard_tb"}
)
"""Gains that are an effect, not an amount: written as 1 (a number would be read as on all the same)."""
FACTION_FLAGS = ("setup_competency", "tunnel", "setup_university", "setup_tower")
PALACE_FLAGS = ("flight", "river_city", "river_city_own_turn", "founds_city", "defer_city")
"""Abilities that are on or off: 0 or 1, or one of them per ruleset ({v1.2: 1, v1.0: 0})."""
FACTION_VALUES = ("science_bonus_offset", "spell_discount", "setup_steps_any", "bridge_action", "on_competency_book")
PALACE_VALUES = ("city_power",)
"""Per-faction / per-palace numbers the engine reads besides the flags (``tables.faction_flags`` /
``palace_flags`` hold both, resolved for the ruleset and player count)."""
FACTION_FIELDS = frozenset({"start_steps", "start", "events", "income", "special", *FACTION_FLAGS, *FACTION_VALUES})
PALACE_FIELDS = frozenset(
    {"income", "special", "once", "pass", "events", "always_offered", "swap_reward", *PALACE_FLAGS, *PALACE_VALUES}
)
"""Every key a faction / palace tile row of components.yaml may have (anything else is refused)."""
INCOME_KEYS = frozenset({"vp", "coins", "tools", "scholars", "power", "books", "steps_any"})
RULESETS = ("v1.2", "v1.0")
BUILDING_KEYS = {b.name.lower(): b for b in Building if b != Building.NONE}
DISCIPLINE_KEYS = {d.name.lower(): d for d in Discipline}


class DataError(ValueError):
    """The component data violates the schema (raised at load time)."""


def per_ruleset(value: Any) -> bool:
    """Whether ``value`` is written per ruleset ({v1.2: x, v1.0: y})."""
    return isinstance(value, dict) and bool(value) and set(value) <= set(RULESETS)


def resolve(value: Any, ruleset: str, players: int) -> Any:
    """Pick a ruleset- and player-count-dependent value ({v1.2: x, v1.0: y} and/or {2: a, 3: b, ...})."""
    if per_ruleset(value):
        value = value[ruleset]
    if isinstance(value, dict) and value and all(isinstance(k, int) for k in value):
        value = value[players]
    return value


def resolve_gain(gain: dict[str, Any], ruleset: str, players: int) -> dict[str, Any]:
    """Return a gain dict with every ruleset/player-count choice resolved."""
    return {k: resolve(v, ruleset, players) for k, v in gain.items()}


@dataclass(frozen=True)
class Jump:
    """A jump over the map to a first hex (the Moles' tunnel R95, palace 9's flight R129)."""

    farthest: int  # reaches the land hexes at graph distance 2 .. farthest from an own building
    resource: str  # what one jump costs: "tools" or "scholars" (a scholar goes back to the supply)
    amount: int


@dataclass(frozen=True)
class MapData:
    """One side of the main board (R5, OP-12)."""

    name: str
    status: str
    terrain: np.ndarray  # int8[NUM_POSITIONS]: Terrain value per grid position
    bridge_spots: tuple[tuple[int, int], ...]  # printed bridge locations as position pairs (a < b)
    border: np.ndarray  # bool[NUM_POSITIONS]: land hex with a dashed edge (C11, F1)

    @property
    def land(self) -> np.ndarray:
        return self.terrain < Terrain.RIVER

    @property
    def river(self) -> np.ndarray:
        return self.terrain == Terrain.RIVER


@dataclass(frozen=True)
class PlanningBoard:
    """A planning board with its terrain feature merged into the common values (R87)."""

    terrain: Terrain
    start: dict[str, int]
    bowls: tuple[int, int, int]
    base_income: dict[str, int]
    slot_income: dict[Building, tuple[dict[str, int], ...]]
    sailing_start: int
    sailing_max: int
    sailing_cost: dict[str, int]
    sailing_rewards: dict[int, dict[str, int]]
    terraforming_tools: tuple[int, ...]
    terraforming_cost: dict[str, int]
    terraforming_rewards: dict[int, dict[str, int]]
    innovation_slot_books: tuple[int, ...]
    start_steps: dict[Discipline, int]
    setup_spades: int


@dataclass(frozen=True)
class GameData:
    """Everything printed on the components, indexed by integer ids."""

    raw: dict[str, Any]
    maps: dict[str, MapData]
    boards: tuple[PlanningBoard, ...]  # indexed by Terrain
    factions: tuple[dict[str, Any], ...]  # indexed by Faction
    innovation_keys: tuple[str, ...]
    innovations: tuple[dict[str, Any], ...]
    palace_tiles: tuple[dict[str, Any], ...]  # id = printed number - 1
    bonus_ids: tuple[str, ...]  # "B1".."B10"
    bonus_tiles: tuple[dict[str, Any], ...]
    round_tile_ids: tuple[str, ...]  # "T1".."T12"
    round_tiles: tuple[dict[str, Any], ...]
    final_tile_ids: tuple[str, ...]  # "F1".."F4"
    final_tiles: tuple[dict[str, Any], ...]
    spell_ids: tuple[str, ...]  # printed board order: S1 S2 S4 S5 S3 S6
    spells: tuple[dict[str, Any], ...]
    book_action_ids: tuple[str, ...]  # "BA1".."BA6"
    book_actions: tuple[dict[str, Any], ...]
    city_ids: tuple[str, ...]  # "K1".."K7"
    city_tiles: tuple[dict[str, Any], ...]
    competency_ids: tuple[str, ...]  # "C1".."C12"
    competencies: tuple[dict[str, Any], ...]
    building_power: tuple[int, ...] = field(default=())  # indexed by Building
    building_pieces: tuple[int, ...] = field(default=())
    building_cost: tuple[dict[str, int], ...] = field(default=())
    building_from: tuple[int, ...] = field(default=())  # the building an upgrade replaces (R66-R70), -1: none
    conversion_amounts: dict[str, tuple[int, int]] = field(default_factory=dict)  # (paid, got), R79
    jumps: dict[str, Jump] = field(default_factory=dict)  # "tunnel" (R95), "flight" (R129)

    def map_for(self, name: str) -> MapData:
        if name not in self.maps:
            raise ValueError(f"unknown map side {name!r}; valid: {', '.join(self.maps)}")
        return self.maps[name]


# ---------------------------------------------------------------------------------------------
# validation helpers


def _check_gain(where: str, gain: Any) -> None:
    if not isinstance(gain, dict):
        raise DataError(f"{where}: expected a mapping of gains, got {gain!r}")
    unknown = set(gain) - GAIN_KEYS
    if unknown:
        raise DataError(f"{where}: unknown gain key(s) {sorted(unknown)}; valid: {sorted(GAIN_KEYS)}")
    for key in ("vp_per", "steps_per"):
        if key in gain:
            bad = set(gain[key]) - COUNTERS
            if bad:
                raise DataError(f"{where}.{key}: unknown counter(s) {sorted(bad)}")
    if "vp_table" in gain:
        table = gain["vp_table"]
        if table.get("counter") not in COUNTERS or not table.get("thresholds"):
            raise DataError(f"{where}.vp_table: needs a known counter and thresholds")
    if "neutral" in gain and gain["neutral"] not in BUILDING_KEYS:
        raise DataError(f"{where}.neutral: unknown building {gain['neutral']!r}")
    for key in FLAG_GAINS & set(gain):
        if type(gain[key]) is not int or gain[key] != 1:
            raise DataError(f"{where}.{key}: an effect, not an amount: write 1 (or leave it out), got {gain[key]!r}")


def _check_flag(where: str, value: Any) -> None:
    """An on / off ability: 0 or 1, or a mapping of rulesets to 0 or 1 (``resolve``)."""
    values = list(value.values()) if per_ruleset(value) else [value]
    if not all(type(v) is int and v in (0, 1) for v in values):
        raise DataError(f"{where}: an ability that is on or off: write 1 or 0 (per ruleset), got {value!r}")


def _named_rows(where: str, rows: Any, names: list[str]) -> dict[str, Any]:
    """A table keyed by name (factions, planning boards) with exactly ``names``: a missing or
    misspelt name is a DataError naming it, not a KeyError later."""
    if not isinstance(rows, dict):
        raise DataError(f"components.yaml: {where} must map each name to its row, got {type(rows).__name__}")
    missing, unknown = [n for n in names if n not in rows], sorted(set(rows) - set(names), key=str)
    if missing or unknown:
        raise DataError(
            f"components.yaml: {where}: expected exactly {', '.join(names)}; missing {missing}, unknown {unknown}"
        )
    return rows


def _check_row(where: str, row: dict[str, Any], allowed: Set[str]) -> None:
    unknown = set(row) - allowed
    if unknown:
        raise DataError(f"{where}: unknown field(s) {sorted(unknown)}; valid: {sorted(allowed)}")
    for key in ("income", "once", "special", "pass", "effect", "reward"):
        if key in row:
            _check_gain(f"{where}.{key}", row[key])
    if "income" in row:
        bad = set(row["income"]) - INCOME_KEYS
        if bad:
            raise DataError(f"{where}.income: {sorted(bad)} cannot be income")
    for event, gain in row.get("events", {}).items():
        if event not in EVENTS:
            raise DataError(f"{where}.events: unknown event {event!r}; valid: {', '.join(EVENTS)}")
        _check_gain(f"{where}.events.{event}", gain)


# What each conversion pays and gets (R79).  The action ids fix the resources ("scholar tool"
# trades scholars for tools); the data gives the amounts, checked against these kinds.
_CONVERSION_KINDS = {
    "burn": ((), ()),
    "power_scholar": (("power",), ("scholars",)),
    "power_book": (("power",), ("book",)),
    "power_tool": (("power",), ("tools",)),
    "power_coin": (("power",), ("coins",)),
    "scholar_tool": (("scholars",), ("tools",)),
    "tool_coin": (("tools",), ("coins",)),
    "book_coin": (("book",), ("coins",)),
}


def _conversion_amounts(table: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """(paid, got) of every conversion but the burn (R33 fixes it: 2 tokens for 1)."""
    if set(table) != set(_CONVERSION_KINDS):
        raise DataError(f"conversions: expected {sorted(_CONVERSION_KINDS)}, got {sorted(table)}")
    out = {}
    for key, (pays, gets) in _CONVERSION_KINDS.items():
        row = table[key]
        pay, get = row.get("pay"), row.get("get")
        if not isinstance(pay, dict) or not isinstance(get, dict) or (tuple(pay), tuple(get)) != (pays, gets):
            raise DataError(f"conversions.{key}: the action pays {list(pays)} for {list(gets)}, got {row}")
        amounts = [*pay.values(), *get.values()]
        if not all(type(n) is int and n >= 1 for n in amounts):
            raise DataError(f"conversions.{key}: amounts must be positive integers, got {row}")
        if pays:
            out[key] = (row["pay"][pays[0]], row["get"][gets[0]])
    return out


_JUMP_RESOURCES = {"tunnel": "tools", "flight": "scholars"}  # R95, R129: what the engine charges


def _jumps(table: dict[str, Any]) -> dict[str, Jump]:
    """The tunnel's and the flight's distances and price (R95, R129); the resource is fixed."""
    if not isinstance(table, dict) or set(table) != set(_JUMP_RESOURCES):
        raise DataError(f"jumps: expected tunnel and flight, got {table!r}")
    out = {}
    for name, row in table.items():
        if not isinstance(row, dict):
            raise DataError(f"jumps.{name}: expected {{farthest: n, cost: {{...}}}}, got {row!r}")
        _check_row(f"jumps.{name}", row, {"farthest", "cost"})
        farthest, cost = row.get("farthest"), row.get("cost")
        # a jump passes over at least one hex; the final area (R83) links what is within ``farthest``
        if type(farthest) is not int or farthest < 2:
            raise DataError(f"jumps.{name}.farthest: expected an int >= 2, got {farthest!r}")
        resource = _JUMP_RESOURCES[name]
        amount = cost.get(resource) if isinstance(cost, dict) and set(cost) == {resource} else None
        if type(amount) is not int or amount < 1:
            raise DataError(f"jumps.{name}.cost: expected {{{resource}: n}} with n >= 1, got {cost!r}")
        out[name] = Jump(farthest, resource, amount)
    return out


def _steps(where: str, steps: dict[str, int]) -> dict[Discipline, int]:
    out = {}
    for key, n in steps.items():
        if key not in DISCIPLINE_KEYS:
            raise DataError(f"{where}: unknown discipline {key!r}")
        out[DISCIPLINE_KEYS[key]] = int(n)
    return out


def _parse_map(name: str, spec: dict[str, Any]) -> MapData:
    rows = spec["grid"]
    if len(rows) != NUM_ROWS:
        raise DataError(f"map {name}: expected {NUM_ROWS} rows, got {len(rows)}")
    terrain = np.full(NUM_POSITIONS, Terrain.OFF, dtype=np.int8)
    for r, row in enumerate(rows):
        if len(row) > NUM_COLS:
            raise DataError(f"map {name}: row {r} is longer than {NUM_COLS}")
        for c, ch in enumerate(row):
            pos = r * NUM_COLS + c
            if ch in TERRAIN_LETTERS:
                terrain[pos] = TERRAIN_LETTERS.index(ch)
            elif ch == ".":
                terrain[pos] = Terrain.RIVER
            elif ch in "#?":
                terrain[pos] = Terrain.OFF
            else:
                raise DataError(f"map {name}: unknown grid letter {ch!r} at ({r}, {c})")
    spots = []
    for (r1, c1), (r2, c2) in spec["bridge_spots"]:
        a, b = r1 * NUM_COLS + c1, r2 * NUM_COLS + c2
        if terrain[a] >= Terrain.RIVER or terrain[b] >= Terrain.RIVER:
            raise DataError(f"map {name}: bridge spot ({r1},{c1})-({r2},{c2}) is not between land hexes")
        spots.append((min(a, b), max(a, b)))
    border = np.zeros(NUM_POSITIONS, dtype=bool)
    for r, c in spec["border_hexes"]:
        pos = r * NUM_COLS + c
        if terrain[pos] >= Terrain.RIVER:
            raise DataError(f"map {name}: border hex ({r},{c}) is not land")
        border[pos] = True
    terrain.setflags(write=False)
    border.setflags(write=False)
    return MapData(name, spec["status"], terrain, tuple(spots), border)


_REPLACED = ("bowls", "rewards")  # a board's own track rewards replace the common ones (Lake, R71)


def _merge(common: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    out = dict(common)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and key not in _REPLACED:
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _parse_board(terrain: Terrain, common: dict[str, Any], override: dict[str, Any]) -> PlanningBoard:
    spec = _merge(common, override)
    slot_income = {BUILDING_KEYS[k]: tuple(dict(x) for x in v) for k, v in spec["slot_income"].items()}
    for b in (Building.WORKSHOP, Building.GUILD, Building.SCHOOL, Building.UNIVERSITY, Building.PALACE):
        if b not in slot_income:
            raise DataError(f"planning board {terrain.name}: no slot income for {b.name}")
    sailing, terraforming = spec["sailing"], spec["terraforming"]
    if len(spec["innovation_slot_books"]) != INNOVATIONS_PER_PLAYER:
        raise DataError(f"planning board {terrain.name}: expected {INNOVATIONS_PER_PLAYER} innovation slot costs (R73)")
    return PlanningBoard(
        terrain=terrain,
        start=dict(spec["start"]),
        bowls=tuple(spec["bowls"]),  # type: ignore[arg-type]
        base_income=dict(spec["base_income"]),
        slot_income=slot_income,
        sailing_start=int(sailing["start"]),
        sailing_max=int(sailing["max"]),
        sailing_cost=dict(sailing["cost"]),
        sailing_rewards={int(k): dict(v) for k, v in sailing["rewards"].items()},
        terraforming_tools=tuple(terraforming["tools_per_spade"]),
        terraforming_cost=dict(terraforming["cost"]),
        terraforming_rewards={int(k): dict(v) for k, v in terraforming["rewards"].items()},
        innovation_slot_books=tuple(spec["innovation_slot_books"]),
        start_steps=_steps(f"board {terrain.name}", spec.get("start_steps", {})),
        setup_spades=int(spec.get("setup_spades", 0)),
    )


def _table(raw: dict[str, Any], key: str, allowed: set[str], count: int) -> tuple[tuple[str, ...], tuple[dict, ...]]:
    rows = raw[key]
    if len(rows) != count:
        raise DataError(f"{key}: expected {count} entries, got {len(rows)}")
    ids = tuple(str(k) for k in rows)
    for k, row in rows.items():
        _check_row(f"{key}.{k}", row, allowed)
    return ids, tuple(rows[k] for k in rows)


def parse(raw: dict[str, Any], maps_raw: dict[str, Any]) -> GameData:
    """Validate the raw YAML documents and build the indexed ``GameData``."""
    if raw.get("schema_version") != 1:
        raise DataError("components.yaml: unsupported schema_version")
    if raw["terrains"] != [t.name.lower() for t in Terrain][:7]:
        raise DataError("components.yaml: terrains must list the cycle in enum order")
    if raw["disciplines"] != list(DISCIPLINE_KEYS):
        raise DataError("components.yaml: disciplines must be listed in enum order")
    if raw["rounds"] != ROUNDS:
        raise DataError(f"components.yaml: rounds is {raw['rounds']!r}; the state is laid out for {ROUNDS}")
    most = raw["innovation_display"]["max_per_player"]
    if most != INNOVATIONS_PER_PLAYER:
        raise DataError(
            f"components.yaml: innovation_display.max_per_player is {most!r}; the state is laid out for "
            f"{INNOVATIONS_PER_PLAYER} innovation slots"
        )

    maps = {name: _parse_map(name, spec) for name, spec in maps_raw["maps"].items()}
    common = raw["planning_board_common"]
    board_rows = _named_rows("planning_boards", raw["planning_boards"], raw["terrains"])
    boards = tuple(_parse_board(Terrain(i), common, board_rows[name]) for i, name in enumerate(raw["terrains"]))

    faction_rows = _named_rows("factions", raw["factions"], [f.name.lower() for f in Faction])
    factions = []
    for f in Faction:
        row = faction_rows[f.name.lower()]
        _check_row(f"factions.{f.name.lower()}", row, FACTION_FIELDS)
        for key in FACTION_FLAGS:
            _check_flag(f"factions.{f.name.lower()}.{key}", row.get(key, 0))
        row = dict(row)
        row["start_steps"] = _steps(f"factions.{f.name.lower()}", row.get("start_steps", {}))
        bridge = row.get("bridge_action", {"tools": 1})
        if (
            not isinstance(bridge, dict)
            or set(bridge) != {"tools"}
            or type(bridge["tools"]) is not int
            or bridge["tools"] < 0
        ):
            raise DataError(f"factions.{f.name.lower()}.bridge_action: expected {{tools: n}}, got {bridge!r}")
        factions.append(row)

    innovation_keys, innovations = _table(
        raw, "innovations", {"rule", "once", "special", "pass", "income"}, NUM_INNOVATIONS
    )
    palace_rows = raw["palace_tiles"]
    if sorted(palace_rows) != list(range(1, NUM_PALACE_TILES + 1)):
        raise DataError(f"palace_tiles: expected numbers 1..{NUM_PALACE_TILES}")
    for n, row in palace_rows.items():
        _check_row(f"palace_tiles.{n}", row, PALACE_FIELDS)
        for key in PALACE_FLAGS:
            _check_flag(f"palace_tiles.{n}.{key}", row.get(key, 0))
        if row.get("always_offered", True) is not True:
            raise DataError(f"palace_tiles.{n}.always_offered: write true or leave it out")
        if ("swap_reward" in row) != ("school_to_guild" in row.get("special", {})):
            raise DataError(
                f"palace_tiles.{n}.swap_reward: expected exactly on the tile whose special is school_to_guild"
            )
        reward = row.get("swap_reward", {"vp": 1})
        if (
            not reward
            or set(reward) - {"vp", "coins", "tools"}
            or not all(type(v) is int and v >= 0 for v in reward.values())
        ):
            raise DataError(f"palace_tiles.{n}.swap_reward: expected VP, coins and tools, got {reward!r}")
    swaps = [n for n, row in palace_rows.items() if "swap_reward" in row]
    if len(swaps) != 1:  # the engine pays the one swap tile's reward (R123, decisions._SWAP_TILE)
        raise DataError(f"palace_tiles: expected one tile with the school_to_guild swap, got {swaps}")
    if set(raw["palace_tiles_offered"]) != {"extra"}:
        raise DataError("palace_tiles_offered: expected only 'extra' (the always offered tile is marked on the tile)")
    palace_tiles = tuple(palace_rows[n] for n in range(1, NUM_PALACE_TILES + 1))

    bonus_ids, bonus_tiles = _table(
        raw, "round_bonus_tiles", {"key", "income", "events", "pass", "special", "reach_bonus"}, NUM_BONUS_TILES
    )
    round_ids, round_tiles = _table(
        raw, "round_scoring_tiles", {"key", "events", "science", "not_in_rounds"}, NUM_ROUND_TILES
    )
    for tid, row in zip(round_ids, round_tiles, strict=False):
        sci = row["science"]
        if sci["discipline"] not in DISCIPLINE_KEYS or sci["per"] < 1:
            raise DataError(f"round_scoring_tiles.{tid}: bad science bonus")
        if set(sci["reward"]) - {"scholars", "coins", "power", "books", "spades", "tools"}:
            raise DataError(f"round_scoring_tiles.{tid}: bad science reward")
        banned = row.get("not_in_rounds", [])
        if not isinstance(banned, list) or not set(banned) <= set(range(1, ROUNDS + 1)):
            raise DataError(f"round_scoring_tiles.{tid}.not_in_rounds: expected a list of rounds 1..{ROUNDS}")
    final_ids, final_tiles = _table(raw, "final_round_tiles", {"key", "building", "events"}, NUM_FINAL_TILES)
    spell_ids, spells = _table(raw, "spells", {"key", "power", "effect"}, NUM_SPELLS)
    book_ids, book_actions = _table(raw, "book_actions", {"key", "books", "effect"}, NUM_BOOK_ACTIONS)
    city_ids, city_tiles = _table(raw, "city_tiles", {"vp", "reward"}, NUM_CITY_TILES)
    comp_ids, competencies = _table(
        raw, "competencies", {"income", "once", "special", "pass", "events"}, NUM_COMPETENCIES
    )

    n = len(Building)
    power = [0] * n
    pieces = [0] * n
    cost: list[dict[str, int]] = [{} for _ in range(n)]
    upgrade_from = [-1] * n
    for key, spec in raw["buildings"].items():
        _check_row(f"buildings.{key}", spec, {"pieces", "power", "cost", "from", "coins_if_neighbour"})
        b = BUILDING_KEYS[key]
        power[b], pieces[b], cost[b] = int(spec["power"]), int(spec["pieces"]), dict(spec.get("cost", {}))
        if "from" in spec:
            if spec["from"] not in BUILDING_KEYS:
                raise DataError(f"buildings.{key}.from: unknown building {spec['from']!r}")
            upgrade_from[b] = BUILDING_KEYS[spec["from"]]
    upgrades = {Building(b).name.lower() for b in range(n) if upgrade_from[b] >= 0}
    if upgrades != {"guild", "school", "university", "palace"}:  # one upgrade action each (R66-R70)
        raise DataError(
            f"buildings: 'from' on {sorted(upgrades)}; the upgrade actions are guild, school, university, palace"
        )

    return GameData(
        raw=raw,
        maps=maps,
        boards=boards,
        factions=tuple(factions),
        innovation_keys=innovation_keys,
        innovations=innovations,
        palace_tiles=palace_tiles,
        bonus_ids=bonus_ids,
        bonus_tiles=bonus_tiles,
        round_tile_ids=round_ids,
        round_tiles=round_tiles,
        final_tile_ids=final_ids,
        final_tiles=final_tiles,
        spell_ids=spell_ids,
        spells=spells,
        book_action_ids=book_ids,
        book_actions=book_actions,
        city_ids=city_ids,
        city_tiles=city_tiles,
        competency_ids=comp_ids,
        competencies=competencies,
        building_power=tuple(power),
        building_pieces=tuple(pieces),
        building_cost=tuple(cost),
        building_from=tuple(upgrade_from),
        conversion_amounts=_conversion_amounts(raw["conversions"]),
        jumps=_jumps(raw["jumps"]),
    )


@functools.cache
def load() -> GameData:
    """Load and validate the component data (once per process)."""
    with open(DATA_DIR / "components.yaml", encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    with open(DATA_DIR / "maps.yaml", encoding="utf-8") as fh:
        maps_raw = yaml.safe_load(fh)
    return parse(raw, maps_raw)


__all__ = [
    "INNOVATIONS_PER_PLAYER",
    "NUM_COLS",
    "NUM_DISCIPLINES",
    "NUM_POSITIONS",
    "NUM_ROWS",
    "DataError",
    "GameData",
    "MapData",
    "PlanningBoard",
    "load",
    "resolve",
    "resolve_gain",
]
