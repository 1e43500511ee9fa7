"""All game state as a few fixed-shape numpy arrays (DESIGN §4).

``State`` holds only arrays, so ``clone()`` is a handful of array copies, equality is array
equality, and a state serialises to bytes or JSON and back.  (It also keeps two memoryviews of
the same memory, ``glob_ints`` and ``stack_ints``, for the engine's fastest reads; they are made
from the arrays and carry nothing of their own.)  Field positions are named
constants built from the layouts below (``P_COINS``, ``G_ROUND``, ``G_ROUND_TILES`` ...), so the
engine reads ``state.players[seat, P_COINS]`` instead of magic numbers.

Arrays (shapes depend only on the number of seats):

=========  ==========================  ==================================================
name       shape, dtype                contents
=========  ==========================  ==================================================
hexes      (117, HEX_FIELDS) int8      terrain, building, owner, neutral, pavilion, city
players    (seats, PLAYER_FIELDS) i32  resources, bowls, tracks, science, tiles, flags
glob       (GLOBAL_FIELDS,) int32      round/phase/turn order, displays, tile locations
bridges    (15, 3) int16               built bridges: position a, position b, owner
stack      (64, STACK_FIELDS) int32    pending decisions / continuations (see pending.py)
=========  ==========================  ==================================================
"""

from __future__ import annotations

import base64
import json
from typing import Any

import numpy as np

from aoi_env.data import INNOVATIONS_PER_PLAYER, NUM_POSITIONS, ROUNDS
from aoi_env.data.enums import (
    NUM_BONUS_TILES,
    NUM_CITY_TILES,
    NUM_COMPETENCIES,
    NUM_INNOVATIONS,
    NUM_PALACE_TILES,
    NUM_SPELLS,
    NUM_TERRAINS,
)

_INT32 = np.dtype(np.int32)
STATE_SCHEMA_VERSION = 2  # 2: the Automa record's unseen cards (aoi_env.core.automa.A_UNSEEN)

MAX_SEATS = 5
MAX_BRIDGES = 15  # 3 per player (R2)
MAX_STACK = 64
STACK_FIELDS = 8  # kind, seat, p0..p5
AUTOMA_FIELDS = 52  # size of one Automa record (checked against aoi_env.core.automa's layout)


class _Fields:
    """Hands out consecutive offsets: a size-1 field is an int index, a larger one a slice."""

    def __init__(self) -> None:
        self.size = 0
        self.names: dict[str, int | slice] = {}

    def add(self, name: str, size: int = 1) -> Any:
        """The next ``size`` offsets under ``name``: an int index for one, a slice for more."""
        value: int | slice = self.size if size == 1 else slice(self.size, self.size + size)
        self.names[name] = value
        self.size += size
        return value


HEX_LAYOUT = _h = _Fields()
H_TERRAIN = _h.add("terrain")  # Terrain (changes with terraforming, R36)
H_BUILDING = _h.add("building")  # Building, 0 = empty
H_OWNER = _h.add("owner")  # seat or -1
H_NEUTRAL = _h.add("neutral")  # 1 = neutral building (R46)
H_PAVILION = _h.add("pavilion")  # 1 = a pavilion is attached (C6)
H_CITY = _h.add("city")  # 1 = the building belongs to a city (R43, R44)
H_RIVER_CITY = _h.add("river_city")  # 1 = river hex ignored for a city by palace 14 (R134)
H_MARK = _h.add("mark")  # 1 = an Automa's marked building (a power token on the hex, AUTOMA.md §5.1)
HEX_FIELDS = _h.size

PLAYER_LAYOUT = _p = _Fields()
P_FACTION = _p.add("faction")  # Faction or -1 before the distribution
P_BOARD = _p.add("board")  # Terrain of the planning board (= native terrain, colour) or -1
P_VP = _p.add("vp")
P_COINS = _p.add("coins")
P_TOOLS = _p.add("tools")
P_SCHOLARS = _p.add("scholars")  # holdings (usable, R3)
P_SCHOLAR_SUPPLY = _p.add("scholar_supply")  # personal supply (R3)
P_BOOKS = _p.add("books", 4)  # per discipline colour
P_BOWLS = _p.add("bowls", 3)  # power bowls I, II, III (R29)
P_SCIENCE = _p.add("science", 4)  # level per discipline (R47)
P_SAILING = _p.add("sailing")  # track value (R71)
P_TERRAFORMING = _p.add("terraforming")  # upgrades done: 0 = 3 tools per spade (R72)
P_BUILT = _p.add("built", 8)  # buildings from the planning board on the map, per Building (R54)
P_NEUTRAL_BUILT = _p.add("neutral_built", 8)  # neutral buildings owned on the map, per Building (R46)
P_CITIES = _p.add("cities")  # city tiles owned = keys earned (R45, OP-31)
P_BRIDGES = _p.add("bridges")  # bridges built (R40)
P_PAVILIONS = _p.add("pavilions")  # pavilions in hand (C6)
P_COMPETENCIES = _p.add("competencies")  # bitmask over C1..C12
P_INNOVATIONS = _p.add("innovations", INNOVATIONS_PER_PLAYER)  # innovation ids in slots 1-3, -1 = empty (R73)
P_PALACE_TILE = _p.add("palace_tile")  # palace tile id once the Palace is built, else -1 (R68)
P_DRAFT_PALACE = _p.add("draft_palace")  # palace tile drafted but not yet built (R16, OP-54), else -1
P_BONUS = _p.add("bonus")  # round bonus tile held, -1 none (R78)
P_PASSED = _p.add("passed")
P_SPECIALS_USED = _p.add("specials_used")  # bitmask of special actions used this round (R76)
P_NEUTRAL_PALACE = _p.add("neutral_palace")  # 1 = owns the neutral Palace (OP-39)
P_SETUP_SPADES = _p.add("setup_spades")  # spades to use after initial placement (R23, OP-37)
P_BURNED = _p.add("burned")  # power tokens sacrificed so far (R33), for the token invariant
P_DEFER_CITY = _p.add("defer_city")  # palace 15's parts: 1 + cities founded meanwhile, their tiles wait (OP-19)
P_ADDED_TOKENS = _p.add("added_tokens")  # power tokens added from the supply (R32), for the token invariant
PLAYER_FIELDS = _p.size

GLOBAL_LAYOUT = _g = _Fields()
G_ROUND = _g.add("round")  # 0 = setup, 1..6, 7 = game over
G_PHASE = _g.add("phase")  # Phase
G_START_PLAYER = _g.add("start_player")
G_ORDER = _g.add("order", 5)  # this round's turn order (seats), -1 padded
G_NEXT_ORDER = _g.add("next_order", 5)  # order of passing = next round's order (R78.4)
G_NEXT_COUNT = _g.add("next_count")
G_TURN = _g.add("turn")  # index into order of the seat to act
G_ROUND_TILES = _g.add("round_tiles", ROUNDS)  # round scoring tile per round 1-6 (R6)
G_FINAL_TILE = _g.add("final_tile")  # final round tile (R7)
G_BOOK_ACTIONS = _g.add("book_actions", 3)  # book actions in play (R8)
G_SPELLS_USED = _g.add("spells_used", NUM_SPELLS)  # X tokens on spells, printed order (R75)
G_BOOKS_USED = _g.add("books_used", 3)  # X tokens on the 3 book-action spaces
G_BONUS_STATE = _g.add("bonus_state", NUM_BONUS_TILES)  # -2 out of the game, -1 on the display, else seat holding it
G_BONUS_COINS = _g.add("bonus_coins", NUM_BONUS_TILES)  # coins lying on display tiles (R80.3)
G_INNOV_SPACES = _g.add("innov_spaces", 12)  # innovation id per display space, -1 = no such space (R20)
G_INNOV_OWNER = _g.add("innov_owner", NUM_INNOVATIONS)  # -2 out of the game, -1 available, else seat
G_COMP_SPACES = _g.add(
    "comp_spaces", NUM_COMPETENCIES
)  # competency type per display space (space = column * 3 + row, R11)
G_COMP_LEFT = _g.add("comp_left", NUM_COMPETENCIES)  # copies left per competency type
G_PALACE_STATE = _g.add("palace_state", NUM_PALACE_TILES)  # -2 out of the game, -1 available, else seat (R14)
G_CITY_LEFT = _g.add("city_left", NUM_CITY_TILES)  # city tiles left per type (R13)
G_NEUTRAL_LEFT = _g.add("neutral_left", 8)  # neutral pieces left per Building (R1)
G_PAVILIONS_LEFT = _g.add("pavilions_left")
G_SCHOLAR_SPACES = _g.add("scholar_spaces", 16)  # discipline * 4 + space: -1 empty, seat, or NEUTRAL_SEAT (R47)
G_AREA_TOKEN = _g.add("area_token")  # 2-player neutral area size (R24), 0 otherwise
G_NEUTRAL_SCIENCE = _g.add("neutral_science", 4)  # 2-player neutral status markers (R24)
G_BUNDLE_FACTION = _g.add("bundle_faction", NUM_TERRAINS)  # standard distribution: faction in each set (R15), -1 taken
G_BUNDLE_BONUS = _g.add("bundle_bonus", NUM_TERRAINS)  # round bonus tile in each set
G_DRAFT_FACTIONS = _g.add("draft_factions", 6)  # draft variant pools (R16); -1 = taken or unused
G_DRAFT_PALACES = _g.add("draft_palaces", 6)
G_DRAFT_BOARDS = _g.add("draft_boards", 6)
G_SEED = _g.add("seed")  # for randomness after setup (random setup choices, Automa decks)
G_RNG_COUNTER = _g.add("rng_counter")
G_DECISIONS = _g.add("decisions")  # decisions applied so far
G_DEPTH = _g.add("depth")  # pending stack depth
G_NUM_BRIDGES = _g.add("num_bridges")
G_SETUP_STEP = _g.add("setup_step")  # progress through the setup sequence
G_BONUS_ROW = _g.add("bonus_row", 6)  # display tiles in row order, -1 padded (AUTOMA.md §3.7, §10 #20)
G_AUTOMA = _g.add("automa", 2 * AUTOMA_FIELDS)  # per-Automa records (aoi_env.core.automa)
GLOBAL_FIELDS = _g.size

NEUTRAL_SEAT = 9  # owner id of the 2-player neutral faction's scholars (R24)


class Phase:
    """Values of ``glob[G_PHASE]``."""

    SETUP = 0
    INCOME = 1  # Phase I (R57)
    ACTIONS = 2  # Phase II (R58)
    SCIENCE = 3  # Phase III (R80)
    OVER = 4  # final scoring done (R82)

    NAMES = ("setup", "income", "actions", "science", "over")


def turn_seat(state: State) -> int:
    """The seat whose turn it is in Phase II, -1 in other phases.  Decisions also come in other
    players' turns (power offers, a city completed by another player's bridge), and some rules
    hold only in one's own turn (conversions before a bonus TB, OP-59; palace 14, R134)."""
    glob = state.glob
    return glob.item(G_ORDER.start + glob.item(G_TURN)) if glob.item(G_PHASE) == Phase.ACTIONS else -1


def bonus_row(glob: np.ndarray) -> list[int]:
    """The bonus display in row order, left to right: the order an Automa takes a tile by
    position from (AUTOMA.md §3.7, §4.5); the field's empty cells (-1) follow the tiles."""
    return [t for t in glob[G_BONUS_ROW].tolist() if t >= 0]


def set_bonus_row(glob: np.ndarray, row: list[int]) -> None:
    """Write the bonus row from the left and empty the cells after it."""
    glob[G_BONUS_ROW] = -1
    glob[G_BONUS_ROW.start : G_BONUS_ROW.start + len(row)] = row


PlayerRow = np.ndarray | memoryview
"""A player row to read and write single fields of: ``state.players[seat]`` (numpy) or
``state.player_ints(seat)`` (Python ints, the hot paths' choice; issue 10)."""


def _array_layouts(seats: int) -> tuple[tuple[str, np.dtype, tuple[int, ...]], ...]:
    """(name, dtype, shape) of the five arrays of a state of ``seats`` seats, in serialisation order."""
    return (
        ("hexes", np.dtype(np.int8), (NUM_POSITIONS, HEX_FIELDS)),
        ("players", _INT32, (seats, PLAYER_FIELDS)),
        ("glob", _INT32, (GLOBAL_FIELDS,)),
        ("bridges", np.dtype(np.int16), (MAX_BRIDGES, 3)),
        ("stack", _INT32, (MAX_STACK, STACK_FIELDS)),
    )


def _layout_problem(arrays: tuple[Any, ...]) -> str:
    """What is wrong with the five arrays of a ``State`` ("" if nothing).  Each must be a
    C-contiguous numpy array of its dtype and shape, ``players`` with one row per seat
    (1..MAX_SEATS): the engine reads glob, stack and players through int views, and the
    compiled observation kernel is called through its one compiled overload
    (``aoi_env.observation_jit``), which trusts every state's arrays to have these types."""
    players = arrays[1]
    seats = players.shape[0] if isinstance(players, np.ndarray) and players.ndim == 2 else 0
    if isinstance(players, np.ndarray) and players.ndim == 2 and not 1 <= seats <= MAX_SEATS:
        return f"state.players must have 1..{MAX_SEATS} rows (one per seat), got {seats}"
    for (name, dtype, shape), a in zip(_array_layouts(seats), arrays, strict=True):
        if not isinstance(a, np.ndarray):
            return f"state.{name} must be a numpy array, got {type(a).__name__}"
        if a.dtype != dtype or a.shape != shape or not a.flags.c_contiguous:
            want = f"(seats, {PLAYER_FIELDS})" if name == "players" and not seats else str(shape)
            layout = "" if a.flags.c_contiguous else "non-contiguous "
            return f"state.{name} must be a C-contiguous {dtype} array of shape {want}, got {layout}{a.dtype} {a.shape}"
    return ""


class State:
    """One position: arrays only.  Build with ``State.empty(seats)`` and fill via setup."""

    __slots__ = ("hexes", "players", "glob", "bridges", "stack", "glob_ints", "stack_ints", "players_ints", "_rows")

    def __init__(
        self, hexes: np.ndarray, players: np.ndarray, glob: np.ndarray, bridges: np.ndarray, stack: np.ndarray
    ) -> None:
        problem = _layout_problem((hexes, players, glob, bridges, stack))
        if problem:
            raise ValueError(problem)
        self._attach(hexes, players, glob, bridges, stack)

    def _attach(
        self, hexes: np.ndarray, players: np.ndarray, glob: np.ndarray, bridges: np.ndarray, stack: np.ndarray
    ) -> None:
        """Hold the five arrays (checked by ``__init__``, or a clone's copies of checked ones)."""
        self.hexes = hexes
        self.players = players
        self.glob = glob
        self.bridges = bridges
        self.stack = stack
        # The same memory as glob, stack and players (row after row), read and written as Python
        # ints: the pending stack's reads and writes and the single-field reads of conversions and
        # gains (several per decision) cost a fraction of numpy indexing this way (issue 10).
        # Views, not copies: the arrays stay the state.  (Made here, ~0.8 µs of a clone, not on
        # first use: a __getattr__ hook would slow every attribute read of a State.)
        self.glob_ints = glob.data
        self.stack_ints = memoryview(stack).cast("B").cast("i")
        self.players_ints = memoryview(players).cast("B").cast("i")  # seat s: [s * PLAYER_FIELDS, ...)
        self._rows: tuple[memoryview, ...] | None = None  # player_ints' row views, made on first use

    def player_ints(self, seat: int) -> memoryview:
        """The seat's player row as a 1-D int view of the same memory: indexing it reads and
        writes Python ints, several times cheaper than a numpy row's scalars (issue 10), for the
        hot paths that only index single fields (conversions, gains)."""
        rows = self._rows
        if rows is None:  # one slice per seat per state, not per call (~1,100 instructions each; issue 10)
            ints = self.players_ints
            rows = self._rows = tuple(ints[i : i + PLAYER_FIELDS] for i in range(0, len(ints), PLAYER_FIELDS))
        return rows[seat]

    def __reduce__(self) -> tuple[type[State], tuple[np.ndarray, ...]]:
        """Pickle the five arrays (the int views are rebuilt from them)."""
        return (State, self.arrays())

    @classmethod
    def empty(cls, seats: int) -> State:
        """All zeros for ``seats`` seats (players then Automas); ``setup.new_state`` fills it."""
        if not 1 <= seats <= MAX_SEATS:
            raise ValueError(f"seats must be 1..{MAX_SEATS}, got {seats}")
        return cls(*[np.zeros(shape, dtype) for _, dtype, shape in _array_layouts(seats)])

    @property
    def seats(self) -> int:
        """Players then Automas: the rows of ``players``."""
        return self.players.shape[0]

    def clone(self) -> State:
        """A copy of the five arrays (nothing shared)."""
        copy = object.__new__(State)  # copies of checked arrays: no second check (issue 10)
        copy._attach(self.hexes.copy(), self.players.copy(), self.glob.copy(), self.bridges.copy(), self.stack.copy())
        return copy

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The five arrays in serialisation order: hexes, players, glob, bridges, stack."""
        return (self.hexes, self.players, self.glob, self.bridges, self.stack)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(np.array_equal(a, b) for a, b in zip(self.arrays(), other.arrays(), strict=False))

    def __hash__(self) -> int:  # states are mutable; hash the bytes when a key is needed
        raise TypeError("State is mutable; use hash(state.to_bytes())")

    def built_bridges(self) -> np.ndarray:
        """int array (n, 2) of the bridges on the map (a new array: callers may keep it)."""
        return self.bridges[: self.glob_ints[G_NUM_BRIDGES], :2].astype(np.intp)

    def bridge_ends(self) -> list[list[int]]:
        """``built_bridges()`` as a list of [a, b] Python ints, for loops (no array copy; issue 10)."""
        return self.bridges[: self.glob_ints[G_NUM_BRIDGES], :2].tolist()

    # -- serialisation ----------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """Compact binary form; ``State.from_bytes`` restores an equal state."""
        header = np.array([STATE_SCHEMA_VERSION, self.seats], dtype=np.int32).tobytes()
        return header + b"".join(a.tobytes() for a in self.arrays())

    @classmethod
    def from_bytes(cls, data: bytes) -> State:
        """The state ``to_bytes`` wrote; ValueError naming the problem for other bytes (the
        layout only: ``Game(config, state=...)`` checks the position against the invariants)."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise ValueError(f"state bytes must be bytes (State.to_bytes()), got {type(data).__name__}")
        if len(data) < 8:
            raise ValueError(f"state bytes too short: {len(data)} bytes, the header alone is 8")
        version, seats = (int(v) for v in np.frombuffer(data[:8], dtype=np.int32))
        if version != STATE_SCHEMA_VERSION:
            raise ValueError(f"state schema {version} is not {STATE_SCHEMA_VERSION}")
        out = cls.empty(seats)
        size = 8 + sum(a.nbytes for a in out.arrays())
        if len(data) < size:
            raise ValueError(f"state bytes truncated: need {size} bytes for {seats} seats, have {len(data)}")
        offset = 8
        for arr in out.arrays():
            n = arr.nbytes
            arr[...] = np.frombuffer(data[offset : offset + n], dtype=arr.dtype).reshape(arr.shape)
            offset += n
        if offset != len(data):
            raise ValueError(f"state bytes have {len(data) - offset} trailing bytes")
        return out

    def to_json(self) -> str:
        """``to_bytes`` as base64 in a JSON object with the state schema number."""
        return json.dumps({"schema": STATE_SCHEMA_VERSION, "bytes": base64.b64encode(self.to_bytes()).decode()})

    @classmethod
    def from_json(cls, text: str) -> State:
        """The state ``to_json`` wrote; ValueError naming the problem otherwise."""
        if not isinstance(text, (str, bytes, bytearray)):
            raise ValueError(f"state JSON must be a string (State.to_json()), got {type(text).__name__}")
        try:
            doc = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise ValueError(f"state JSON is not valid JSON (State.to_json()): {err}") from None
        if not isinstance(doc, dict) or not isinstance(doc.get("bytes"), str):
            raise ValueError('state JSON must be an object {"schema": ..., "bytes": "<base64>"}')
        schema = doc.get("schema")
        if type(schema) is not int or schema != STATE_SCHEMA_VERSION:  # true == 1 in Python, not here
            raise ValueError(f"state schema {schema!r} is not {STATE_SCHEMA_VERSION}")
        return cls.from_bytes(base64.b64decode(doc["bytes"], validate=True))
