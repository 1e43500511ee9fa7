"""The decision machine: whose decision it is, what kind, the legal ids, and applying one.

``Game`` pairs a frozen ``GameConfig`` with a ``State``.  The top entry of the pending stack is
the current decision; automatic entries (continuations) run as soon as they surface, and when the
stack is empty the game sequence (``flow``) pushes the next step.  Each decision kind registers
three functions: ``legal`` (the exact legal ids), ``apply`` and ``describe`` (notation).  With
``skip_forced`` a decision with exactly one legal id is applied at once, so every decision an
agent sees is a real choice.

Invariants (tested by fuzzing): the acting seat always has at least one legal id, every legal id
applies without error, and no id leads into a position without a legal move.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from aoi_env.core import pending
from aoi_env.core.board import Geometry, geometry
from aoi_env.core.config import GameConfig, check_seed
from aoi_env.core.moves import NUM_ACTIONS
from aoi_env.core.pending import DROPPABLE, ROW_BYTES, Kind, Row, read_row
from aoi_env.core.state import (
    G_DECISIONS,
    G_DEPTH,
    G_NUM_BRIDGES,
    G_PHASE,
    G_RNG_COUNTER,
    G_SEED,
    H_TERRAIN,
    P_VP,
    STACK_FIELDS,
    Phase,
    State,
)
from aoi_env.core.tables import Tables, tables
from aoi_env.data import GameData, load
from aoi_env.data.enums import Terrain

_NO_ACTIONS = bytes(NUM_ACTIONS)
_INT8 = np.dtype(np.int8)  # a dtype object, not the type: numpy converts the type at every call (issue 10)
_SETUP, _OVER = int(Phase.SETUP), int(Phase.OVER)  # plain ints: compared at every step

LegalFn = Callable[["Game", Row], list[int]]
ApplyFn = Callable[["Game", Row, int], None]
DescribeFn = Callable[["Game", Row, int], str]
AutoFn = Callable[["Game", Row], None]


# every first word of a notation string (docs/notation.md): a known verb that is not legal now gets
# "not legal" rather than "unknown verb"
NOTATION_VERBS = frozenset(
    {
        "set", "draft", "bonus", "start", "place", "take", "build", "upgrade", "sail", "dig", "innovate",
        "scholar", "spell", "book", "special", "molebridge", "pavilion", "pass", "convert", "done", "target",
        "tunnel", "fly", "skip", "spades", "spade", "workshop", "bridge", "neutral", "guild", "innovation",
        "pay", "step", "steps", "key", "nokey", "competency", "city", "palace", "part", "leech", "first",
        "rivercity",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Handler:
    legal: LegalFn
    apply: ApplyFn
    describe: DescribeFn


_AUTO = int(Kind.AUTO)
HANDLERS: dict[int, Handler] = {}
AUTO: dict[int, AutoFn] = {}


def decision(kind: Kind, describe: DescribeFn) -> Callable[[LegalFn], LegalFn]:
    """Register ``legal`` for a decision kind; use with ``applies(kind)`` for the apply function."""

    def wrap(legal: LegalFn) -> LegalFn:
        HANDLERS[kind] = Handler(legal, _missing_apply, describe)
        return legal

    return wrap


def applies(kind: Kind) -> Callable[[ApplyFn], ApplyFn]:
    """Register the apply function of a decision kind whose ``legal`` ``decision(kind)`` registered."""

    def wrap(fn: ApplyFn) -> ApplyFn:
        h = HANDLERS[kind]
        HANDLERS[kind] = Handler(h.legal, fn, h.describe)
        return fn

    return wrap


def automatic(kind: Kind) -> Callable[[AutoFn], AutoFn]:
    """Register a pending kind the engine resolves itself (no player decides): ``_advance`` runs it."""

    def wrap(fn: AutoFn) -> AutoFn:
        AUTO[kind] = fn
        return fn

    return wrap


SEQUENCE: dict[str, Callable[[Game], None]] = {}
"""``"step"``: what runs when the stack is empty (``flow.step``, the game sequence), registered by
``flow`` with ``sequence_step``: flow imports the handlers, which import the engine, and an
import inside ``_advance`` would cost a module look-up at every round of it (issue 10)."""


def sequence_step(fn: Callable[[Game], None]) -> Callable[[Game], None]:
    """Register the game sequence's step (``flow.step``): ``_advance`` runs it on an empty stack."""
    SEQUENCE["step"] = fn
    return fn


def _missing_apply(g: Game, row: Row, action: int) -> None:
    raise NotImplementedError(f"no apply function for {Kind(row[0]).name}")


@functools.cache
def _parsed(text: str) -> GameConfig:
    """``GameConfig.parse``, once per game string (the config is frozen; issue 10: a new game from
    a string parsed it again, about a tenth of a short game's setup)."""
    return GameConfig.parse(text)


@functools.cache
def _seat_constants(seats: int) -> tuple[np.ndarray, tuple[dict, ...], tuple, tuple, int]:
    """What every game with this many seats derives from the data: building power values (R54),
    science income per discipline (R57), the innovation display's costs (R20; as arrays, and as
    plain ints for the hot path) and the fewest books a space needs.  Made once per seat count and
    shared read-only by the games (the arrays are not writeable)."""
    from aoi_env.core import decisions, flow, setup, terraform, turn  # noqa: F401  (register handlers)

    data = load()
    power = np.asarray(data.building_power, dtype=np.int32)
    power.setflags(write=False)
    income = tuple(dict(data.raw["science"]["income"][d]) for d in data.raw["disciplines"])
    spaces = tuple(setup.innovation_spaces(seats, data.raw))
    for spec, _ in spaces:
        spec.setflags(write=False)
    ints = tuple((tuple(spec.tolist()), int(spec.sum()), int(extra)) for spec, extra in spaces)
    return power, income, spaces, ints, min(spec_sum + extra for _, spec_sum, extra in ints)


@functools.lru_cache(maxsize=256)  # up to ~14 KB an entry: the sets of bridges seen most recently
def _neighbour_lists(side: str, bridges: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """``Game.neighbours`` of a board side with these built bridges (in the order built), made
    once per process and shared by every game (issue 10: each new game built them again, ~150,000
    instructions).  Bridges are only ever added, so the lists with one more bridge are those of
    the bridges before it (cached) with the new bridge's two ends changed."""
    if not bridges:
        return tuple(tuple(q) for q in geometry(side).neighbors)  # edge adjacency (R38) ...
    nb = list(_neighbour_lists(side, bridges[:-1]))
    a, b = bridges[-1]  # ... plus the built bridges
    if b not in nb[a]:
        nb[a] = (*nb[a], b)
    if a not in nb[b]:
        nb[b] = (*nb[b], a)
    return tuple(nb)


class Game:
    """One game: config + state + the decision machine.  Randomness only from ``seed``."""

    def __init__(self, config: GameConfig | str | None = None, seed: int = 0, state: State | None = None) -> None:
        if config is None:
            config = GameConfig()
        elif isinstance(config, str):
            config = _parsed(config)
        elif not isinstance(config, GameConfig):
            raise ValueError(f"config must be a GameConfig or a game string such as 'aoi(players=3)', got {config!r}")
        seed = check_seed(seed)
        self.config = config
        self._seats = config.seats  # read very often (observation rotation, offers): a plain attribute
        self._players = config.players
        self._random_setup = config.setup_choices == "random"  # _advance asks at every decision
        self.data: GameData = load()
        self.geo: Geometry = config.geometry
        self.tab: Tables = tables(config.ruleset, config.seats)
        (
            self.building_power,
            self.science_income,
            self.innovation_space_cost,
            self.innovation_space_cost_ints,  # (specific books, their sum, any books) per display space
            self.innovation_min_books,
        ) = _seat_constants(config.seats)  # its first call imports (registers) the handlers
        from aoi_env.core import setup

        self._legal: list[int] = []  # in the handler's order: the mask needs no sort (legal_actions sorts)
        self._seat = -1  # the deciding seat, set with _legal (the stack's top between decisions)
        self._adj_cache: tuple[bytes, np.ndarray] | None = None
        self._nb_cache: tuple[bytes, tuple[tuple[int, ...], ...]] | None = None
        if state is not None:
            if not isinstance(state, State):
                raise ValueError(f"state must be an aoi_env State (State.from_bytes / from_json), got {state!r}")
            if state.seats != config.seats:
                raise ValueError(f"the state has {state.seats} seats but {config} has {config.seats} players")
            self.state = state
            self._check_loaded()
            return
        self.state = setup.new_state(self, seed)
        self._advance()

    # -- public API -------------------------------------------------------------------------

    def clone(self) -> Game:
        """An independent copy (~2 µs): the state arrays are copied, the tables and caches shared."""
        g = object.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.state = self.state.clone()
        g._legal = list(self._legal)
        return g

    @property
    def seats(self) -> int:
        """Players then Automas (``config.seats``)."""
        return self._seats

    def is_over(self) -> bool:
        """True after the final scoring (R82-R86): no seat decides any more."""
        return self.state.glob_ints[G_PHASE] == _OVER

    def current_seat(self) -> int:
        """The seat whose decision is pending, -1 when the game is over."""
        return self._seat

    def pending_kind(self) -> Kind | None:
        """The kind of decision the current seat makes, None when the game is over."""
        row = pending.top(self.state)
        return None if row is None else Kind(row[0])

    def legal_actions(self) -> list[int]:
        """The legal action ids of the current seat, in id order (a new list; empty when over)."""
        return sorted(self._legal)  # kept in the handler's order: the mask needs no sort (issue 10)

    def action_mask(self) -> np.ndarray:
        """int8[NUM_ACTIONS], 1 at the legal ids: a new writable array every call."""
        mask = bytearray(_NO_ACTIONS)  # a few byte writes beat numpy's list indexing (issue 10)
        for a in self._legal:
            mask[a] = 1
        return np.frombuffer(mask, _INT8)

    def legal_moves(self) -> list[str]:
        """``legal_actions()`` in notation (docs/notation.md), in the same order."""
        return [self._describe(a) for a in sorted(self._legal)]

    def move_str(self, action: int) -> str:
        """Notation of a legal id in the current position (docs/notation.md); ValueError otherwise."""
        if self.is_over():
            raise ValueError("the game is over: no moves")
        if type(action) is not int:
            action = self.check_action(action)  # its type rules: a float or an array is an error
        if action not in self._legal:  # describe functions assume a legal id (issue 9: clear errors)
            raise ValueError(f"action {action!r} is not legal now; legal: {', '.join(self.legal_moves())}")
        return self._describe(action)

    def _describe(self, action: int) -> str:
        row = pending.top(self.state)
        assert row is not None
        return HANDLERS[row[0]].describe(self, row, action)

    def parse_move(self, text: str) -> int:
        """The legal id whose notation is ``text`` (case and spacing are normalised)."""
        if not isinstance(text, str):
            raise ValueError(f"a move must be a notation string, got {text!r}")
        if self.is_over():
            raise ValueError(f"the game is over: cannot play {text!r}")
        want = " ".join(text.lower().split())
        for a in self._legal:
            if self._describe(a).lower() == want:
                return a
        verb = want.split(" ", 1)[0] if want else ""
        known = sorted({m.split(" ", 1)[0].lower() for m in self.legal_moves()})
        kind = self.pending_kind()
        where = f"decision {int(self.state.glob[G_DECISIONS])} ({kind.name.lower() if kind else 'over'})"
        if verb not in known and verb not in NOTATION_VERBS:
            raise ValueError(f"cannot parse {text!r} at {where}: unknown verb {verb!r} ({', '.join(known)})")
        raise ValueError(f"{text!r} is not legal at {where}; legal: {', '.join(self.legal_moves())}")

    def check_action(self, action: int) -> int:
        """The id as a plain int if it is legal now; anything else raises ValueError naming the
        problem (nothing changes: ``VectorGame`` checks a whole batch before applying it)."""
        if type(action) is not int:
            if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
                raise ValueError(f"action must be an integer id, got {action!r}")
            action = int(action)
        if not 0 <= action < NUM_ACTIONS:
            raise ValueError(f"action id {action} is out of range 0..{NUM_ACTIONS - 1}")
        if action not in self._legal:  # empty when the game is over
            if self.is_over():
                raise ValueError("the game is over: no more actions")
            row = pending.top(self.state)
            assert row is not None
            kind = Kind(row[0]).name.lower()
            raise ValueError(
                f"action {action} is not legal for seat {row[1]} (pending: {kind}); "
                f"legal: {', '.join(self.legal_moves())}"
            )
        return action

    def apply_action(self, action: int) -> None:
        """Apply a legal id; anything else raises ValueError and leaves the state unchanged."""
        if type(action) is not int or action not in self._legal:  # a plain legal int skips the checks
            action = self.check_action(action)
        self._apply(action)
        self._advance()

    def apply_move(self, text: str) -> None:
        """Apply a move given in notation (``parse_move``); ValueError if it is not legal now."""
        self.apply_action(self.parse_move(text))

    def scores(self) -> np.ndarray:
        """Victory points per seat (a copy); the final scores once ``is_over()``."""
        return self.state.players[:, P_VP].copy()

    def is_player(self, seat: int) -> bool:
        """True for a human (agent) seat; Automa seats come after the players and never decide."""
        return 0 <= seat < self._players

    def is_automa(self, seat: int) -> bool:
        """True for an Automa seat (they come after the player seats, AUTOMA.md §3.1)."""
        return self.config.players <= seat < self.seats

    def rng(self) -> np.random.Generator:
        """A generator derived from the game seed and a counter in the state (deterministic)."""
        g = self.state.glob
        counter = int(g[G_RNG_COUNTER])
        g[G_RNG_COUNTER] = counter + 1
        return np.random.default_rng([int(g[G_SEED]), counter])

    # -- cached derived tables ------------------------------------------------------------

    def adjacency(self) -> np.ndarray:
        """Edge adjacency plus the built bridges (R38), cached per set of bridges."""
        key = self.state.bridges.tobytes()
        if self._adj_cache is None or self._adj_cache[0] != key:
            self._adj_cache = (key, self.geo.adjacency(self.state.built_bridges()))
        return self._adj_cache[1]

    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """Per position, the positions ``adjacency()`` links it to (edges and built bridges), as ints."""
        key = self.state.bridges.tobytes()
        if self._nb_cache is None or self._nb_cache[0] != key:
            bridges = tuple(map(tuple, self.state.built_bridges().tolist()))
            self._nb_cache = (key, _neighbour_lists(self.geo.name, bridges))
        return self._nb_cache[1]

    def free_bridge_spots(self, seat: int, moles: bool = False) -> tuple[tuple[int, int], ...]:
        """Bridge locations the seat may build on now (R40, OP-47); cached with the hexes and bridges."""
        s = self.state
        n_bridges = s.glob_ints[G_NUM_BRIDGES]
        key = ("bridge_spots", seat, moles, n_bridges, s.bridges.tobytes())
        c = hex_cache(self)
        out = c.extra.get(key)
        if out is None:
            own = set(owned_positions(self, seat, c))
            built = set(map(tuple, s.bridge_ends()))
            spots = self.geo.bridge_geometry if moles else self.geo.bridge_spots
            out = c.extra[key] = tuple((a, b) for a, b in spots if (a in own or b in own) and (a, b) not in built)
        return out

    # -- machine ----------------------------------------------------------------------------

    def _refresh(self) -> None:
        """Recompute the legal ids of the pending decision (after loading a state)."""
        row = pending.top(self.state)
        self._legal = [] if row is None else HANDLERS[row[0]].legal(self, row)
        self._seat = -1 if row is None else row[1]

    def _check_loaded(self) -> None:
        """Load a state: it must lie on this config's board side (its river and off-board cells
        never change) and be a position of this game (``_position_problem``); bytes edited by hand
        or saved on the other board side are a ValueError.  (The ruleset leaves no trace in the
        state: loading under the right one is the caller's part.  The checks are the invariants
        and the pending decision, not the history: a hand-made position that passes them may still
        be one no game reaches, and fail later.)"""
        terrain, printed = self.state.hexes[:, H_TERRAIN], self.geo.terrain
        fixed = printed >= Terrain.RIVER
        if not np.array_equal(terrain[fixed], printed[fixed]) or (terrain[~fixed] >= Terrain.RIVER).any():
            raise ValueError(f"the state is not a position on the {self.geo.name} board side of {self.config}")
        problem = self._position_problem()
        if problem:
            raise ValueError(f"the state is not a valid position of {self.config}: {problem}")

    def _position_problem(self) -> str:
        """What makes the loaded state no position of this game ("" if nothing): a malformed
        pending stack or phase, no player seat to decide in a game not over, a broken invariant,
        a decision without a legal move.  Computes the legal ids on the way."""
        s = self.state
        depth, phase = s.glob.item(G_DEPTH), s.glob.item(G_PHASE)
        if not 0 <= depth <= len(s.stack):
            return f"its pending stack has depth {depth} (0..{len(s.stack)})"
        kinds = s.stack[:depth, 0].tolist()
        unknown = [k for k in kinds if k not in HANDLERS and k not in AUTO]
        if unknown:
            return f"its pending stack holds an unknown kind {unknown[0]}"
        if not 0 <= phase < len(Phase.NAMES):
            return f"its phase {phase} is none of {', '.join(Phase.NAMES)} (0..{len(Phase.NAMES) - 1})"
        over = phase == _OVER
        if not over and (not kinds or kinds[-1] not in HANDLERS or not self.is_player(s.stack.item(depth - 1, 1))):
            return "the game is not over but no player seat has a decision pending"
        from aoi_env.core.invariants import violations  # the checks run after every fuzzed decision

        try:  # a field out of range can trip the legal ids (a faction index) before an invariant names it
            self._refresh()
            found = violations(self)
        except (IndexError, KeyError, OverflowError, RuntimeError, ValueError) as err:
            return f"a field is out of range or inconsistent ({type(err).__name__}: {err})"
        if found:
            return "; ".join(found[:3])
        if not over and not self._legal:
            return f"the pending {Kind(kinds[-1]).name.lower()} decision has no legal move"
        return ""

    def _apply(self, action: int) -> None:
        row = pending.pop(self.state)
        self.state.glob_ints[G_DECISIONS] += 1
        HANDLERS[row[0]].apply(self, row, action)

    def _advance(self) -> None:
        """Run automatic entries and forced decisions until a real choice (or the end) is reached."""
        s = self.state
        glob = s.glob_ints  # Python-int views of the arrays (State, issue 10)
        stack = s.stack_ints
        skip_forced = self.config.skip_forced
        random_setup = self._random_setup
        while True:
            depth = glob[G_DEPTH]
            if depth == 0:
                if glob[G_PHASE] == _OVER:
                    self._legal = []
                    self._seat = -1
                    return
                SEQUENCE["step"](self)  # flow.step
                continue
            start = (depth - 1) * STACK_FIELDS
            kind = stack[start]
            if kind >= _AUTO:
                AUTO[kind](self, pending.pop(s))
                continue
            row = read_row(stack, (depth - 1) * ROW_BYTES)  # plain ints for the handlers (see pending.pop)
            legal = HANDLERS[kind].legal(self, row)
            if not legal:
                if kind in DROPPABLE:
                    pending.pop(s)
                    continue
                raise RuntimeError(f"no legal move for {Kind(kind).name} of seat {row[1]}")
            if len(legal) == 1 and skip_forced:
                self._apply(legal[0])
                continue
            if random_setup and glob[G_PHASE] == _SETUP:
                self._apply(sorted(legal)[int(self.rng().integers(len(legal)))])
                continue
            self._legal = legal
            self._seat = row[1]
            return


# At the bottom: terrain's imports lead back here (a function-level import cost ~1.5 µs a call, issue 10).
from aoi_env.core.rules.terrain import hex_cache, owned_positions  # noqa: E402
