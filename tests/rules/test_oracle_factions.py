"""Independent oracle for the 12 factions' abilities (R88-R100, R19, R22, R23, R145) in random games.

Every faction ability is re-computed from RULES.md / the rulebooks and the raw state arrays, never
from the engine's faction code (``components.yaml`` ``factions``, ``tables.faction_*``,
``effects.fire`` / ``listeners``, ``setup.player_setup``, ``turn._spell_costs``,
``Game.free_bridge_spots``, ``Geometry.bridge_geometry``).  Only the static board geometry
(edge neighbours, printed terrain, river / border cells, printed bridge spots), the component ids
and the action-id table are taken from the engine.

Read from the rulebook (v1.2 [UA] Appendix II, v1.0 [PL] Dodatek II) and RULES.md:

* R17 / R18 / R19 / R87 / R88: 15 C + 3 T + 20 VP; Wasteland +1 T +1 book, Swamp +1 scholar and
  bowls 3/9, Forest +1 step each and bowls 4/8, Lake sailing 1; the faction tile's steps
  (Blessed 1/1/1/1, Felines Bk+Me, Goblins Bk+En +1 T, Illusionists 2 Me, Moles 2 En, Monks La,
  Navigators 3 La, Omar Bk+En, Philosophers 2 Bk, Psychics Bk+Me +1 T; Lizards 2 steps in one or
  1+1 in two disciplines, R94); the power thresholds pay during setup (R17.7, R49).
* R21 / R22 / OP-43 / OP-44: snake Workshops (Monks skip), Omar's third building (two Workshops and
  a neutral Tower in any order) after every other faction's Workshops, then the Monks' University
  with a competency (R96); R93 / R23: the Inventors' competency after their Workshops; R53 with
  its position reward; setup spades (Desert, C5) in turn order, without buying (OP-37) or building.
* R89 Blessed: science bonus as if 3 levels higher (may exceed 12).
* R90 Felines: each city founded -> 3 steps split freely + 1 book of choice (OP-18: also Palace
  11's tile, v1.2 only, R145).
* R91 Goblins: +2 coins per spade used, whatever its source, in Phase II, III and at setup (OP-36).
* R92 / OP-13 Illusionists: each spell costs 1 power less; +1 VP (2-3 players) / +2 VP (4-5) in
  v1.2, +3 VP / +4 VP with 5 players in v1.0 ([PL]: "3 dodatkowe punkty lub 4 punkty w grze
  pięcioosobowej").
* R93 Inventors, R96 Monks: see setup.
* R94 / OP-53 Lizards: each city founded -> a TB with 1 free spade and 1 free Workshop (no coins or
  tools), resolved within the city's rewards (OP-18 as for Felines).
* R95 / OP-14 / OP-47 Moles: tunnel = 1 tool and 2 + P VP (v1.2) / 4 VP (v1.0); the bridge action
  costs 1 tool and may join any two land hexes in bridge geometry (not only printed spots) with a
  Moles building at one end, at most 3 bridges; the spell S1 (and B6) keeps to the printed spots.
* R97 / OP-15 Navigators: each Workshop built next to a river hex: 2 VP, + 1 coin in v1.2.
* R98 Omar: the starting Tower (its income is the income oracle's).
* R99 Philosophers: each competency gives +1 book of its column's discipline; the special action
  (1 book of choice) once per round, reset every round (OP-61).
* R100 / OP-42 Psychics: the special action gains 5 power, then immediately a second action (Pass
  allowed), once per round (OP-61); one action per turn otherwise (R58).

How events are observed: the test wraps ``pending.pop`` and the game sequence's step
(``engine.SEQUENCE["step"]``, i.e. ``flow.step``) read-only (restored afterwards) to take a
snapshot the moment a decision's own handler has finished ("immediate"), or
the moment everything the decision pushed is resolved ("window": the pending stack is back below
the decision's row).  Games use ``skip_forced=false`` so every decision is seen.  Games: fixed
factions covering all 12 with 2, 3, 4 and 5 players under v1.2 and v1.0 (builder-biased, biased and
uniform random play), drawn sets and drafts, 150 extra setups, and built positions (``Scenario``)
with clusters one Workshop short of a city and Palace 11 offered to the Felines / Lizards, played at
random to the end.  No engine disagreement is known: nothing here is marked xfail.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
import pytest

from aoi_env.core import engine, flow, pending  # noqa: F401  (flow registers engine.SEQUENCE["step"])
from aoi_env.core.board import hex_name, parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.moves import (
    A_BUILD,
    A_MOLES_BRIDGE,
    A_PASS,
    BUILDING_BASE,
    CONVERT_BASE,
    DONE,
    HEX_BASE,
    NUM_CONVERSIONS,
    SP_FACTION,
    SPECIAL_BASE,
    SPELL_BASE,
    TUNNEL,
    YES,
)
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_COMP_SPACES,
    G_DECISIONS,
    G_DEPTH,
    G_FINAL_TILE,
    G_ORDER,
    G_PHASE,
    G_ROUND,
    G_ROUND_TILES,
    G_START_PLAYER,
    H_BUILDING,
    H_NEUTRAL,
    H_OWNER,
    H_TERRAIN,
    P_BOARD,
    P_BONUS,
    P_BOOKS,
    P_BOWLS,
    P_BRIDGES,
    P_BUILT,
    P_COINS,
    P_COMPETENCIES,
    P_FACTION,
    P_NEUTRAL_BUILT,
    P_PALACE_TILE,
    P_PASSED,
    P_PAVILIONS,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_SETUP_SPADES,
    P_TERRAFORMING,
    P_TOOLS,
    P_VP,
    Phase,
    State,
)
from aoi_env.data import NUM_COLS, NUM_POSITIONS
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario, random_action
from tests.rules.oracle_common import (
    BOARDS,
    BRIDGES_PER_PLAYER,
    C4_GAIN,
    COMP_ROW_REWARD,
    DEFAULT_BOWLS,
    DISC,
    FACTIONS,
    SCHOLARS,
    START_COINS,
    START_TOOLS,
    START_VP,
    TOOLS_PER_SPADE,
    WHEEL,
    bridges_of,
    built_bridges,
    free_bridge_spots,
    gain_power,
    illusionist_vp,
    own_hexes,
    reach_from,
    threshold_power,
)

# --------------------------------------------------------------------------------------------
# the printed numbers, typed in from RULES.md / the rulebooks (not read from components.yaml)

FACTION_STEPS = {  # R19, faction tiles top right (banking, law, engineering, medicine)
    "blessed": (1, 1, 1, 1),
    "felines": (1, 0, 0, 1),
    "goblins": (1, 0, 1, 0),
    "illusionists": (0, 0, 0, 2),
    "inventors": (0, 0, 0, 0),
    "lizards": (0, 0, 0, 0),
    "moles": (0, 0, 2, 0),
    "monks": (0, 1, 0, 0),
    "navigators": (0, 3, 0, 0),
    "omar": (1, 0, 1, 0),
    "philosophers": (2, 0, 0, 0),
    "psychics": (1, 0, 0, 1),
}
FACTION_TOOLS = {"goblins": 1, "psychics": 1}  # R19
LIZARD_SETUP_STEPS = 2  # R94: 2 in one discipline or 1 + 1 in two
BOARD_BOWLS = {"forest": (4, 8, 0), "swamp": (3, 9, 0)}  # R17.4; others DEFAULT_BOWLS 5/7/0
C5_SPADES, C6_PAVILIONS = 2, 2  # R141
SPELL_POWER = {"S1": 3, "S2": 3, "S3": 4, "S4": 4, "S5": 4, "S6": 6}  # R139
WORKSHOP_COST = {"tools": 1, "coins": 2}  # R64
MOLES_BRIDGE_TOOLS, TUNNEL_TOOLS = 1, 1  # R95
FLIGHT_VP = 5  # R129
GOBLIN_COINS_PER_SPADE = 2  # R91
BLESSED_OFFSET = 3  # R89
FELINE_STEPS, FELINE_BOOKS = 3, 1  # R90
PSYCHIC_POWER = 5  # R100
K2_BOOKS = 2  # R140
ROUND_WORKSHOP_VP = {"T1": 2, "T3": 2}  # R142
FINAL_WORKSHOP_VP = {"F4": 2}  # R144
FINAL_BORDER_WORKSHOP_VP = {"F1": 3}  # R144
T2_SPADE_VP = 2  # R142
B1_RIVER_VP, C11_BORDER_VP, PALACE12_WORKSHOP_VP = 2, 3, 2  # R138, R141, R132
SCIENCE_BONUS = {  # R142 right halves: (discipline, per levels, reward)
    "T1": (1, 3, "scholars"),
    "T2": (2, 1, "coins"),
    "T3": (0, 3, "power4"),
    "T4": (3, 3, "books"),
    "T5": (1, 3, "books"),
    "T6": (2, 4, "spades"),
    "T7": (3, 4, "spades"),
    "T8": (2, 3, "scholars"),
    "T9": (0, 1, "coins"),
    "T10": (1, 2, "power3"),
    "T11": (3, 2, "tools"),
    "T12": (0, 2, "tools"),
}


def tunnel_vp(ruleset: str, players: int) -> int:
    """R95 / OP-14 / R145: 2 + number of players (v1.2), 4 (v1.0)."""
    return 4 if ruleset == "v1.0" else 2 + players


def navigator_gain(ruleset: str) -> tuple[int, int]:
    """R97 / OP-15 / R145: (VP, coins) per Workshop next to a river."""
    return (2, 0) if ruleset == "v1.0" else (2, 1)


# --------------------------------------------------------------------------------------------
# board geometry (own cube coordinates, checked against the engine's edge neighbours)

_CUBE_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # (dx, dz)
_BENT = tuple(
    (_CUBE_DIRS[i][0] + _CUBE_DIRS[(i + 1) % 6][0], _CUBE_DIRS[i][1] + _CUBE_DIRS[(i + 1) % 6][1]) for i in range(6)
)  # the 6 "bridge" offsets: distance 2, two common neighbours (not a straight line)


class Geo:
    """Static map facts for the oracle, derived from the printed terrain and edge neighbours."""

    _cache: dict[str, Geo] = {}

    @classmethod
    def of(cls, g: Game) -> Geo:
        if g.geo.name not in cls._cache:
            cls._cache[g.geo.name] = cls(g)
        return cls._cache[g.geo.name]

    def __init__(self, g: Game) -> None:
        printed = [int(t) for t in g.geo.terrain]
        self.land = [t < Terrain.RIVER for t in printed]
        self.river = [t == Terrain.RIVER for t in printed]
        play = [t != Terrain.OFF for t in printed]
        nb = [set(n) for n in g.geo.neighbors]
        layout = None
        for odd in (True, False):  # which offset layout gives the engine's edge neighbours
            to_cube = self._layout(odd)
            ok = all(
                {q for q in range(NUM_POSITIONS) if play[q] and self._dist(to_cube(p), to_cube(q)) == 1} == nb[p]
                for p in range(NUM_POSITIONS)
                if play[p]
            )
            if ok:
                layout = to_cube
        assert layout is not None, "no hex layout reproduces the board's edge neighbours"
        self.cube = [layout(p) for p in range(NUM_POSITIONS)]
        where = {c: p for p, c in enumerate(self.cube)}
        self.bent: set[tuple[int, int]] = set()  # OP-47: every land pair in bridge geometry
        for p in range(NUM_POSITIONS):
            if not self.land[p]:
                continue
            x, z = self.cube[p]
            for dx, dz in _BENT:
                q = where.get((x + dx, z + dz))
                if q is not None and self.land[q]:
                    self.bent.add((min(p, q), max(p, q)))
        self.printed = {(min(a, b), max(a, b)) for a, b in g.geo.bridge_spots}  # R40 / OP-12
        self.nb = nb
        self.river_adjacent = [self.land[p] and any(self.river[q] for q in nb[p]) for p in range(NUM_POSITIONS)]
        self.border = [bool(b) for b in g.geo.border]  # map data (dashed edges, OP-12)

    @staticmethod
    def _layout(odd: bool):  # noqa: ANN205 - position -> cube (x, z)
        def to_cube(p: int) -> tuple[int, int]:
            r, c = divmod(p, NUM_COLS)
            shift = (r - (r & 1)) // 2 if odd else (r + (r & 1)) // 2
            return c - shift, r

        return to_cube

    @staticmethod
    def _dist(a: tuple[int, int], b: tuple[int, int]) -> int:
        dx, dz = a[0] - b[0], a[1] - b[1]
        return max(abs(dx), abs(dz), abs(dx + dz))


def reach(geo: Geo, s: State, seat: int) -> set[int]:
    """R38 / R39 outside Phase II (no B1, OP-41): land hexes adjacent (edges, built bridges) to one
    of the seat's buildings, or joined to one by at most ``sailing`` river hexes."""
    sailing = int(s.players[seat, P_SAILING])
    return reach_from(geo.nb, geo.land, geo.river, own_hexes(s, seat), sailing, built_bridges(s))


def spade_targets(geo: Geo, s: State, seat: int) -> set[int]:
    """R81 / R61: unbuilt, non-native land hexes in reach."""
    native = int(s.players[seat, P_BOARD])
    h = s.hexes
    return {q for q in reach(geo, s, seat) if h[q, H_BUILDING] == 0 and int(h[q, H_TERRAIN]) != native}


def bridge_spots(geo: Geo, s: State, seat: int, moles: bool) -> set[tuple[int, int]]:
    """R40 / R95 / OP-47: free locations (printed, or any bridge geometry for the Moles' action)
    with one of the seat's buildings at an end; none once the seat's 3 bridges are built."""
    return free_bridge_spots(geo.bent if moles else geo.printed, s, seat)


# --------------------------------------------------------------------------------------------
# readers


def faction(s: State, seat: int) -> str:
    f = int(s.players[seat, P_FACTION])
    return FACTIONS[f] if f >= 0 else ""


def comp_place(s: State, comp: int) -> tuple[int, int]:
    """(column = discipline, row) of a competency type's stack on the display (R11, R53)."""
    space = [int(x) for x in s.glob[G_COMP_SPACES]].index(comp)
    return divmod(space, 3)


def comps_of(s: State, seat: int) -> list[int]:
    bits = int(s.players[seat, P_COMPETENCIES])
    return [c for c in range(12) if bits >> c & 1]


def terrain_steps(before: State, after: State) -> int:
    """Spades used between two states: the wheel distance each hex moved (R36)."""
    b, a = before.hexes[:, H_TERRAIN], after.hexes[:, H_TERRAIN]
    return sum(WHEEL[int(b[p])][int(a[p])] for p in np.flatnonzero(b != a))


# --------------------------------------------------------------------------------------------
# watching the engine: snapshots when a decision's effect is complete


@dataclass
class Move:
    seat: int
    kind: int
    text: str
    p0: int = 0  # first parameter of the decision's pending row (CHOOSE_CITY: from palace 11)


@dataclass
class Probe:
    what: str
    seat: int
    before: State
    base: int  # stack index of the decision's row
    immediate: bool  # close at the next checkpoint after the decision's own pop
    text: str = ""
    moves: list[Move] = field(default_factory=list)
    after: State | None = None
    ticks: int = 0
    stop_at_post: bool = False


class Monitor:
    def __init__(self) -> None:
        self.open: list[Probe] = []
        self.closed: list[Probe] = []
        self.setup_end: State | None = None

    def tick(self, state: State, depth: int) -> None:
        keep = []
        for pr in self.open:
            pr.ticks += 1
            if (pr.immediate and pr.ticks >= 2) or (not pr.immediate and depth <= pr.base):
                pr.after = state.clone()
                self.closed.append(pr)
            else:
                keep.append(pr)
        self.open = keep

    def returned(self, g: Game) -> None:
        """Back from ``apply_action``: a decision is pending (or the game is over)."""
        depth = int(g.state.glob[G_DEPTH])
        at_post = g.pending_kind() == Kind.POST
        keep = []
        for pr in self.open:
            if pr.immediate or depth <= pr.base or (pr.stop_at_post and at_post and g.current_seat() == pr.seat):
                pr.after = g.state.clone()
                self.closed.append(pr)
            else:
                keep.append(pr)
        self.open = keep


@contextmanager
def monitoring(mon: Monitor) -> Iterator[None]:
    pop, step = pending.pop, engine.SEQUENCE["step"]

    def wrapped_pop(state: State) -> list[int]:
        depth = int(state.glob[G_DEPTH])
        mon.tick(state, depth)
        kind, seat = int(state.stack[depth - 1, 0]), int(state.stack[depth - 1, 1])
        if kind == Kind.INCOME_SEAT and mon.setup_end is None:
            mon.setup_end = state.clone()  # R23: everything placed, before round 1's income
        if kind == Kind.SCIENCE_SEAT:  # R80.1: this seat's science bonus, with its decisions
            mon.open.append(Probe("science", seat, state.clone(), depth - 1, False))
        return pop(state)

    def wrapped_step(g: Game) -> None:
        mon.tick(g.state, int(g.state.glob[G_DEPTH]))
        step(g)

    pending.pop, engine.SEQUENCE["step"] = wrapped_pop, wrapped_step
    try:
        yield
    finally:
        pending.pop, engine.SEQUENCE["step"] = pop, step


# --------------------------------------------------------------------------------------------
# results


@dataclass
class Results:
    problems: dict[str, list[str]] = field(default_factory=dict)  # by topic
    tally: Counter[str] = field(default_factory=Counter)
    factions: Counter[tuple[str, int, str]] = field(default_factory=Counter)  # (faction, players, ruleset)

    def fail(self, where: str, msg: str, topic: str = "other") -> None:
        self.problems.setdefault(topic, []).append(f"{where}: {msg}")

    def of(self, *topics: str) -> list[str]:
        return [m for t in topics for m in self.problems.get(t, [])]

    @property
    def checked(self) -> int:
        return sum(v for k, v in self.tally.items() if not k.startswith("seen "))


# --------------------------------------------------------------------------------------------
# oracle checks


def topic_of(f: str) -> str:
    return f if f in ("goblins", "navigators", "moles", "lizards") else "build"


def workshop_vp(g: Game, s: State, seat: int, pos: int, geo: Geo) -> int:
    """VP for building a Workshop on ``pos`` (R146 row "Build Workshop"): round tiles T1/T3 and the
    final tiles F4 / F1 (Phase II), B1 next to a river (held face up, Phase II), C11 and F1 on a
    border hex, Palace 12, Navigators next to a river (R97)."""
    p = s.players[seat]
    vp = 0
    rnd = int(s.glob[G_ROUND])
    if int(s.glob[G_PHASE]) == Phase.ACTIONS and 1 <= rnd <= 6:
        tile = g.data.round_tile_ids[int(s.glob[G_ROUND_TILES.start + rnd - 1])]
        vp += ROUND_WORKSHOP_VP.get(tile, 0)
        if rnd == 6:
            final = g.data.final_tile_ids[int(s.glob[G_FINAL_TILE])]
            vp += FINAL_WORKSHOP_VP.get(final, 0)
            vp += FINAL_BORDER_WORKSHOP_VP.get(final, 0) if geo.border[pos] else 0
        bonus = int(p[P_BONUS])
        if bonus >= 0 and g.data.bonus_ids[bonus] == "B1" and not p[P_PASSED] and geo.river_adjacent[pos]:
            vp += B1_RIVER_VP
    if int(p[P_COMPETENCIES]) >> g.data.competency_ids.index("C11") & 1 and geo.border[pos]:
        vp += C11_BORDER_VP
    if int(p[P_PALACE_TILE]) == 12 - 1:
        vp += PALACE12_WORKSHOP_VP
    if faction(s, seat) == "navigators" and geo.river_adjacent[pos]:
        vp += navigator_gain(g.config.ruleset)[0]
    return vp


def t2_spade_vp(g: Game, s: State, steps: int) -> int:
    rnd = int(s.glob[G_ROUND])
    if int(s.glob[G_PHASE]) != Phase.ACTIONS or not 1 <= rnd <= 6:
        return 0
    tile = g.data.round_tile_ids[int(s.glob[G_ROUND_TILES.start + rnd - 1])]
    return T2_SPADE_VP * steps if tile == "T2" else 0


def _diff(label: str, want: int, got: int) -> str:
    return f"{label} engine {got} oracle {want}"


def check_build_or_spade(g: Game, pr: Probe, res: Results, where: str, geo: Geo) -> None:
    """Goblins' coins per spade (R91), Navigators' river Workshop (R97, OP-15), the Moles' tunnel
    (R95, OP-14), the Lizards' free Workshop (R94): coins, tools and VP of the acting seat right
    after a decision that terraforms and / or places a Workshop."""
    b, a, seat = pr.before, pr.after, pr.seat
    assert a is not None
    f = faction(b, seat)
    kind = pr.what
    steps = terrain_steps(b, a)
    new = [
        int(q) for q in np.flatnonzero((b.hexes[:, H_BUILDING] == 0) & (a.hexes[:, H_BUILDING] > 0))
    ]  # the building placed (at most one)
    problems = []
    if len(new) > 1:
        problems.append(f"{len(new)} buildings placed at once")
    pos = new[0] if new else -1
    workshop = pos >= 0 and int(a.hexes[pos, H_BUILDING]) == Building.WORKSHOP
    if pos >= 0 and int(a.hexes[pos, H_OWNER]) != seat:
        problems.append(f"building on {hex_name(pos)} owned by {int(a.hexes[pos, H_OWNER])}")
    paid = workshop and kind in ("target", "workshop", "tunnel", "fly")  # R64; Lizards / neutral are free
    rate = TOOLS_PER_SPADE[int(b.players[seat, P_TERRAFORMING])]
    coins = -WORKSHOP_COST["coins"] * paid + (GOBLIN_COINS_PER_SPADE * steps if f == "goblins" else 0)
    tools = -WORKSHOP_COST["tools"] * paid
    vp = 0
    if kind == "neutral":
        tools -= steps * rate  # R46.1: spades for a neutral building only with tools
        vp += t2_spade_vp(g, b, steps)
    if kind == "spades":  # TB_SPADES: bought spades are paid with tools (R63.1); checked loosely
        tools = None
        vp = None  # T2 scoring is the round-scoring oracle's
        want = int(pr.text.split()[1])
        if steps != want:
            problems.append(f"'{pr.text}' moved the terrain {steps} steps")
    if kind == "spade":
        vp = None
        if steps != 1:
            problems.append(f"'{pr.text}' moved the terrain {steps} steps")
    if kind == "tunnel":
        tools -= TUNNEL_TOOLS
        vp += tunnel_vp(g.config.ruleset, g.config.players)
        res.tally[f"moles tunnel {g.config.ruleset}"] += 1
    if kind == "fly":
        vp += FLIGHT_VP
    if kind == "neutral" and pos >= 0 and not workshop:
        vp = None  # VP for building other types: the round-scoring oracle's
    if workshop:
        if vp is not None:
            vp += workshop_vp(g, b, seat, pos, geo)
        if f == "navigators" and geo.river_adjacent[pos]:
            coins += navigator_gain(g.config.ruleset)[1]
            res.tally[f"navigators river workshop {g.config.ruleset}"] += 1
        elif f == "navigators":
            res.tally["navigators inland workshop"] += 1
        if kind == "lizard":
            res.tally["lizards free workshop"] += 1
    if f == "goblins" and steps:
        res.tally[f"goblins spades phase {int(b.glob[G_PHASE])}"] += 1
    pb, pa = b.players[seat], a.players[seat]
    got_coins = int(pa[P_COINS] - pb[P_COINS])
    if got_coins != coins:
        problems.append(_diff("coins", coins, got_coins))
    if tools is not None and int(pa[P_TOOLS] - pb[P_TOOLS]) != tools:
        problems.append(_diff("tools", tools, int(pa[P_TOOLS] - pb[P_TOOLS])))
    if vp is not None and int(pa[P_VP] - pb[P_VP]) != vp:
        problems.append(_diff("VP", vp, int(pa[P_VP] - pb[P_VP])))
    if problems:
        res.fail(where, f"{f} seat {seat} '{pr.text}' ({kind}, {steps} spades): " + "; ".join(problems), topic_of(f))
    res.tally["build/spade effect"] += 1


def check_spell(g: Game, pr: Probe, res: Results, where: str) -> None:
    """R92 / OP-13: the Illusionists spend 1 power less and score VP per spell; others pay the
    printed cost (R139) and score nothing for the spell itself."""
    b, a, seat = pr.before, pr.after, pr.seat
    assert a is not None
    f = faction(b, seat)
    ident = pr.text.split()[1]
    cost = SPELL_POWER[ident] - (1 if f == "illusionists" else 0)
    one, two, three = (int(x) for x in b.players[seat, P_BOWLS])
    want_bowls = [one + cost, two, three - cost]
    want_vp = illusionist_vp(g.config.ruleset, g.config.players) if f == "illusionists" else 0
    got_bowls = [int(x) for x in a.players[seat, P_BOWLS]]
    got_vp = int(a.players[seat, P_VP] - b.players[seat, P_VP])
    if got_bowls != want_bowls or got_vp != want_vp:
        res.fail(
            where,
            f"{f} '{pr.text}': bowls {got_bowls} VP +{got_vp}, oracle bowls {want_bowls} VP +{want_vp}",
            "illusionists" if f == "illusionists" else "spells",
        )
    res.tally[
        f"spell {'illusionists ' + g.config.ruleset + ' P' + str(g.config.players) if f == 'illusionists' else 'other'}"
    ] += 1


def check_book_action(pr: Probe, res: Results, where: str) -> None:
    """R92 / R139: "Book actions are not spells": taking one moves no power and scores no VP for
    the Illusionists (the books are paid in the decisions that follow)."""
    b, a, seat = pr.before, pr.after, pr.seat
    assert a is not None
    f = faction(b, seat)
    moved = [int(x) for x in a.players[seat, P_BOWLS] - b.players[seat, P_BOWLS]]
    vp = int(a.players[seat, P_VP] - b.players[seat, P_VP])
    if any(moved) or vp:
        res.fail(
            where,
            f"{f} '{pr.text}': bowls moved {moved}, VP +{vp}",
            "illusionists" if f == "illusionists" else "spells",
        )
    res.tally[f"book action {'illusionists' if f == 'illusionists' else 'other'}"] += 1


def check_competency(g: Game, pr: Probe, res: Results, where: str) -> None:
    """R53 position reward + R99: Philosophers +1 book of the column's discipline."""
    b, a, seat = pr.before, pr.after, pr.seat
    assert a is not None
    comp = int(pr.text.split()[1][1:]) - 1
    column, row = comp_place(b, comp)
    steps, books = COMP_ROW_REWARD[row]
    f = faction(b, seat)
    if f == "philosophers":
        books += 1
        res.tally["philosophers competency book"] += 1
    want = [0, 0, 0, 0]
    want[column] = books
    got = [int(x) for x in a.players[seat, P_BOOKS] - b.players[seat, P_BOOKS]]
    if got != want:
        res.fail(
            where,
            f"{f} '{pr.text}' (column {DISC[column]}, row {row}): books {got}, oracle {want}",
            "philosophers" if f == "philosophers" else "competency",
        )
    level = int(b.players[seat, P_SCIENCE.start + column])
    got_level = int(a.players[seat, P_SCIENCE.start + column])
    if level + steps <= 7 and got_level != level + steps:  # no key barrier (R50) or cap (R52) in the way
        res.fail(
            where,
            f"{f} '{pr.text}': {DISC[column]} {level} -> {got_level}, oracle {level + steps}",
            "philosophers" if f == "philosophers" else "competency",
        )
    res.tally["competency"] += 1


def check_city_window(g: Game, pr: Probe, res: Results, where: str) -> None:
    """R90 Felines (3 steps + 1 book), R94 / OP-53 Lizards (TB with a free spade and Workshop),
    OP-18 / R145 (Palace 11's tile founds a city in v1.2 only): counted over everything the city
    tile decision set off (nested cities included)."""
    b, a, seat = pr.before, pr.after, pr.seat
    assert a is not None
    f = faction(b, seat)
    v12 = g.config.ruleset == "v1.2"
    mine = [m for m in pr.moves if m.seat == seat]
    cities = [m for m in mine if m.kind == Kind.CHOOSE_CITY]
    founding = [m for m in cities if not m.p0 or v12]
    palace11 = [m for m in cities if m.p0]
    k2 = sum(1 for m in cities if m.text == "city K2")
    k7 = sum(1 for m in cities if m.text == "city K7")
    steps = [m for m in mine if m.kind == Kind.STEPS_ANY]
    books = [m for m in mine if m.kind == Kind.CHOOSE_BOOKS]
    lizard = [m for m in mine if m.kind == Kind.LIZARD_BUILD]
    problems = []
    want_steps = FELINE_STEPS * len(founding) if f == "felines" else 0
    want_books = (FELINE_BOOKS * len(founding) if f == "felines" else 0) + K2_BOOKS * k2
    want_lizard = len(founding) if f == "lizards" else 0
    if len(steps) != want_steps:
        problems.append(_diff("step decisions", want_steps, len(steps)))
    if len(books) != want_books:
        problems.append(_diff("book decisions", want_books, len(books)))
    if len(lizard) != want_lizard:
        problems.append(_diff("Lizards' free-Workshop decisions", want_lizard, len(lizard)))
    attempts = [k7 + sum(1 for m in steps if m.text == f"step {d}") for d in DISC]
    comp_books = 0  # a School upgrade's competency taken after the city (R45 [UA], OP-22): R53
    for m in mine:
        if m.kind == Kind.CHOOSE_COMPETENCY:
            column, row = comp_place(b, int(m.text.split()[1][1:]) - 1)
            attempts[column] += COMP_ROW_REWARD[row][0]
            comp_books += COMP_ROW_REWARD[row][1] + (1 if f == "philosophers" else 0)
    spent = any(m.text.startswith(("convert", "pay ")) for m in mine)
    if not spent and len(books) == want_books:
        got = int(a.players[seat, P_BOOKS].sum() - b.players[seat, P_BOOKS].sum())
        if got != want_books + comp_books:
            problems.append(_diff("books", want_books + comp_books, got))
    levels = [int(x) for x in b.players[seat, P_SCIENCE]]
    gained = [int(x) for x in a.players[seat, P_SCIENCE] - b.players[seat, P_SCIENCE]]
    if all(lv + n <= 7 for lv, n in zip(levels, attempts, strict=True)):
        if gained != attempts:
            problems.append(f"science gained {gained}, oracle {attempts}")
    elif any(gv > n for gv, n in zip(gained, attempts, strict=True)):
        problems.append(f"science gained {gained} > steps taken {attempts}")
    if problems:
        res.fail(where, f"{f} seat {seat} city window {[m.text for m in mine]}: " + "; ".join(problems), "cities")
    res.tally["city window"] += 1
    if f in ("felines", "lizards"):
        res.tally[f"{f} city"] += len(founding)
        res.tally[f"{f} palace 11 city {g.config.ruleset}"] += len(palace11)


def check_science(g: Game, pr: Probe, res: Results, where: str, geo: Geo) -> None:
    """R80.1 / R143 / R89: reward x floor((level + 3 for the Blessed) / threshold); Goblins' coins
    for Phase III spades (R91, OP-36); no buying, no Workshop (R81)."""
    b, a, seat = pr.before, pr.after, pr.seat
    assert a is not None
    f = faction(b, seat)
    rnd = int(b.glob[G_ROUND])
    tile = g.data.round_tile_ids[int(b.glob[G_ROUND_TILES.start + rnd - 1])]
    disc, per, reward = SCIENCE_BONUS[tile]
    level = int(b.players[seat, P_SCIENCE.start + disc])
    offset = BLESSED_OFFSET if f == "blessed" else 0
    n = (level + offset) // per
    if f == "blessed":
        res.tally["blessed science bonus"] += 1
        if n != level // per:
            res.tally["blessed science bonus raised"] += 1
        if level + offset > 12:
            res.tally["blessed virtual level above 12"] += 1
    pb, pa = b.players[seat], a.players[seat]
    mine = [m for m in pr.moves if m.seat == seat]
    spade_moves = sum(1 for m in mine if m.kind == Kind.SPADES and m.text.startswith("spade "))
    book_moves = sum(1 for m in mine if m.kind == Kind.CHOOSE_BOOKS)
    steps = terrain_steps(b, a)
    want = {"coins": 0, "tools": 0, "scholars": 0, "books": 0, "vp": 0}
    bowls = [int(x) for x in pb[P_BOWLS]]
    if reward == "scholars":
        want["scholars"] = min(n, int(pb[P_SCHOLAR_SUPPLY]))
    elif reward == "coins":
        want["coins"] = n
    elif reward == "tools":
        want["tools"] = n
    elif reward == "books":
        want["books"] = n
    elif reward.startswith("power"):
        bowls = gain_power(bowls, n * int(reward[5:]))
    if f == "goblins":
        want["coins"] += GOBLIN_COINS_PER_SPADE * steps
        if steps:
            res.tally["goblins spades phase 3"] += 1
    got = {
        "coins": int(pa[P_COINS] - pb[P_COINS]),
        "tools": int(pa[P_TOOLS] - pb[P_TOOLS]),
        "scholars": int(pa[P_SCHOLARS] - pb[P_SCHOLARS]),
        "books": int(pa[P_BOOKS].sum() - pb[P_BOOKS].sum()),
        "vp": int(pa[P_VP] - pb[P_VP]),
    }
    problems = [_diff(k, want[k], got[k]) for k in want if want[k] != got[k]]
    if [int(x) for x in pa[P_BOWLS]] != bowls:
        problems.append(f"bowls engine {[int(x) for x in pa[P_BOWLS]]} oracle {bowls}")
    if reward == "books" and book_moves != n:
        problems.append(_diff("book decisions", n, book_moves))
    if reward == "spades":
        if spade_moves > n or steps != spade_moves:
            problems.append(f"{spade_moves} spade decisions moving {steps} steps for {n} spades")
        stopped = any(m.kind == Kind.SPADES and m.text == "done" for m in mine)
        if spade_moves < n and not stopped and spade_targets(geo, a, seat):
            problems.append(f"{n - spade_moves} of {n} spades lost with targets left")
        if n:
            res.tally["science spades" + (" all used" if spade_moves == n else "")] += 1
    elif spade_moves:
        problems.append(f"{spade_moves} spade decisions without a spade reward")
    if not np.array_equal(a.hexes[:, H_BUILDING], b.hexes[:, H_BUILDING]):
        problems.append("a building was placed in Phase III (R81)")
    if problems:
        res.fail(
            where,
            f"{f} seat {seat} round {rnd} {tile} level {level}: " + "; ".join(problems),
            "blessed" if f == "blessed" else "goblins" if f == "goblins" else "science",
        )
    res.tally["science bonus"] += 1


def check_setup(g: Game, s: State, moves: list[Move], res: Results, where: str, geo: Geo) -> None:
    """R17-R23, R88-R100 (setup lines), OP-37, OP-43, OP-44 at the end of setup."""
    n = g.seats
    order = [(int(s.glob[G_START_PLAYER]) + k) % n for k in range(n)]
    if [int(x) for x in s.glob[G_ORDER][:n]] != order:
        res.fail(where, f"round 1 order {[int(x) for x in s.glob[G_ORDER][:n]]}, R17.9 {order}", "setup")
    facs = {seat: faction(s, seat) for seat in range(n)}
    # R21 / R22 / OP-43 / OP-44: the placement sequence
    places = [(m.seat, m.p0) for m in moves if m.kind == Kind.INITIAL_PLACE]
    firsts = [q for q in order if facs[q] != "monks"]
    want_seats = (
        firsts + firsts[::-1] + [q for q in order if facs[q] == "omar"] + [q for q in order if facs[q] == "monks"]
    )
    if [q for q, _ in places] != want_seats:
        res.fail(where, f"placement seats {[q for q, _ in places]}, R21/R22 {want_seats} ({facs})", "setup")
    for seat in range(n):
        kinds = sorted(int(b) for q, b in places if q == seat)
        want = {"monks": [Building.UNIVERSITY], "omar": [Building.WORKSHOP, Building.WORKSHOP, Building.TOWER]}
        if kinds != sorted(want.get(facs[seat], [Building.WORKSHOP, Building.WORKSHOP])):
            res.fail(where, f"{facs[seat]} placed {kinds}", "setup")
    res.tally["setup placement order"] += 1
    index = {id(m): i for i, m in enumerate(moves)}
    for seat in range(n):
        comp_moves = [m for m in moves if m.seat == seat and m.kind == Kind.CHOOSE_COMPETENCY]
        mine = [i for i, m in enumerate(moves) if m.seat == seat and m.kind == Kind.INITIAL_PLACE]
        if facs[seat] in ("monks", "inventors"):
            if len(comp_moves) != 1:
                res.fail(where, f"{facs[seat]}: {len(comp_moves)} setup competencies", "setup")
                continue
            i = index[id(comp_moves[0])]
            if facs[seat] == "monks" and i != mine[-1] + 1:
                res.fail(where, "R96: the Monks' competency does not follow their University at once", "setup")
            bonus = [j for j, m in enumerate(moves) if m.seat == seat and m.kind == Kind.PICK_BONUS]
            if facs[seat] == "inventors" and (i < mine[-1] or (bonus and i < bonus[-1])):
                res.fail(where, "R93: the Inventors' competency before their Workshops or round bonus tile", "setup")
            res.tally[f"{facs[seat]} setup competency"] += 1
        elif comp_moves:
            res.fail(where, f"{facs[seat]} took a competency during setup", "setup")
    # R23: setup spades in turn order
    spade_seats: list[int] = []
    for m in moves:
        if m.kind == Kind.SPADES and m.seat not in spade_seats:
            spade_seats.append(m.seat)
    if spade_seats != sorted(spade_seats, key=order.index):
        res.fail(where, f"setup spades by {spade_seats}, not in turn order {order} (R23)", "setup")
    printed = g.geo.terrain
    for seat in range(n):
        f = facs[seat]
        p = s.players[seat]
        board = BOARDS[int(p[P_BOARD])]
        native = int(p[P_BOARD])
        comps = comps_of(s, seat)
        mine = [m for m in moves if m.seat == seat]
        problems = []
        science = [FACTION_STEPS[f][d] + (1 if board == "forest" else 0) for d in range(4)]
        lizard_steps = [m for m in mine if m.kind == Kind.STEPS_ANY]
        if len(lizard_steps) != (LIZARD_SETUP_STEPS if f == "lizards" else 0):
            problems.append(f"{len(lizard_steps)} free setup steps")
        for m in lizard_steps:
            science[DISC.index(m.text.split()[1])] += 1
        if f == "lizards":
            res.tally["lizards setup steps " + ("one" if len({m.text for m in lizard_steps}) == 1 else "two")] += 1
        books = [0, 0, 0, 0]
        for m in mine:
            if m.kind == Kind.CHOOSE_BOOKS:
                books[DISC.index(m.text.split()[1])] += 1
        if sum(books) != (1 if board == "wasteland" else 0):
            problems.append(f"{sum(books)} books of choice at setup")
        tools = START_TOOLS + FACTION_TOOLS.get(f, 0) + (1 if board == "wasteland" else 0)
        coins, vp, pavilions, spades = START_COINS, START_VP, 0, (1 if board == "desert" else 0)
        for c in comps:
            column, row = comp_place(s, c)
            science[column] += COMP_ROW_REWARD[row][0]
            books[column] += COMP_ROW_REWARD[row][1]
            name = g.data.competency_ids[c]
            if name == "C4":
                tools, vp, coins = tools + C4_GAIN["tools"], vp + C4_GAIN["vp"], coins + C4_GAIN["coins"]
            if name == "C5":
                spades += C5_SPADES
            if name == "C6":
                pavilions += C6_PAVILIONS
            res.tally[f"setup competency {name}"] += 1
        h = s.hexes
        towers = [int(q) for q in np.flatnonzero((h[:, H_OWNER] == seat) & (h[:, H_BUILDING] == Building.TOWER))]
        c10 = g.data.competency_ids.index("C10") in comps
        for q in towers:  # C10's Tower at setup: its spades paid with tools (R46.1)
            tools -= TOOLS_PER_SPADE[0] * WHEEL[int(printed[q])][native]
        used = [m for m in mine if m.kind == Kind.SPADES and m.text.startswith("spade ")]
        if len(used) > spades:
            problems.append(f"{len(used)} setup spades used, {spades} gained")
        if spades:
            res.tally["setup spades"] += 1
        if f == "goblins":
            coins += GOBLIN_COINS_PER_SPADE * len(used)
            if used:
                res.tally["goblins setup spades"] += 1
        power = threshold_power(science)
        bowls = gain_power(BOARD_BOWLS.get(board, DEFAULT_BOWLS), power)
        got_science = [int(x) for x in p[P_SCIENCE]]
        if got_science != science:
            problems.append(f"science {got_science}, oracle {science}")
        if [int(x) for x in p[P_BOOKS]] != books:
            problems.append(f"books {[int(x) for x in p[P_BOOKS]]}, oracle {books}")
        if [int(x) for x in p[P_BOWLS]] != bowls:
            problems.append(f"bowls {[int(x) for x in p[P_BOWLS]]}, oracle {bowls}")
        for label, idx, want in (
            ("tools", P_TOOLS, tools),
            ("coins", P_COINS, coins),
            ("VP", P_VP, vp),
            ("pavilions", P_PAVILIONS, pavilions),
            ("scholars", P_SCHOLARS, 1 if board == "swamp" else 0),
            ("scholar supply", P_SCHOLAR_SUPPLY, SCHOLARS - (1 if board == "swamp" else 0)),
            ("sailing", P_SAILING, 1 if board == "lake" else 0),
            ("terraforming", P_TERRAFORMING, 0),
            ("setup spades left", P_SETUP_SPADES, 0),
        ):
            if int(p[idx]) != want:
                problems.append(_diff(label, want, int(p[idx])))
        if len(comps) != (1 if f in ("monks", "inventors") else 0):
            problems.append(f"competencies {comps}")
        own = [(int(h[q, H_BUILDING]), int(h[q, H_NEUTRAL])) for q in np.flatnonzero(h[:, H_OWNER] == seat)]
        want_own = [(Building.UNIVERSITY, 0)] if f == "monks" else [(Building.WORKSHOP, 0)] * 2
        if f == "omar":
            want_own = [*want_own, (Building.TOWER, 1)]
        extra = sorted(own)
        for item in want_own:
            if item in extra:
                extra.remove(item)
            else:
                problems.append(f"missing {Building(item[0]).name.lower()} (neutral {item[1]}) on the map")
        if extra and not (c10 and extra == [(Building.TOWER, 1)]):
            problems.append(f"unexpected buildings {extra}")
        if c10 and extra == [(Building.TOWER, 1)]:
            res.tally["setup C10 tower"] += 1
        for q in np.flatnonzero(h[:, H_OWNER] == seat):
            if int(h[q, H_TERRAIN]) != native:
                problems.append(f"building on {hex_name(int(q))} not on the native terrain (R34)")
        built = [int(p[P_BUILT.start + b]) for b in (Building.WORKSHOP, Building.UNIVERSITY)]
        want_built = [0, 1] if f == "monks" else [2, 0]
        if built != want_built or int(p[P_NEUTRAL_BUILT.start + Building.TOWER]) != sum(1 for o in own if o[0] == 6):
            problems.append(f"planning-board counts {built}")
        if problems:
            res.fail(
                where, f"setup of {f} on {board} (seat {seat}, competencies {comps}): " + "; ".join(problems), "setup"
            )
        res.tally["setup seat"] += 1
        res.tally[f"setup {f}"] += 1


# --------------------------------------------------------------------------------------------
# legality at decisions


@dataclass
class Turns:
    """What the oracle remembers during a game (its own X tokens, OP-61; turn structure, R58)."""

    rnd: int = -1
    specials: set[int] = field(default_factory=set)  # seats that used their faction action this round
    spells: set[str] = field(default_factory=set)  # spells used this round (R75)
    last_main: dict[int, str] = field(default_factory=dict)
    bridge_end: dict[int, int] = field(default_factory=dict)
    actions: Counter[int] = field(default_factory=Counter)  # main actions since the seat's last POST
    psychic_second: set[int] = field(default_factory=set)

    def new_round(self, rnd: int) -> None:
        if rnd != self.rnd:
            self.rnd = rnd
            self.specials.clear()
            self.spells.clear()
            self.actions.clear()
            self.psychic_second.clear()


def check_legal(g: Game, kind: int, seat: int, legal: list[int], t: Turns, res: Results, where: str, geo: Geo) -> None:
    s = g.state
    f = faction(s, seat)
    p = s.players[seat]
    legal_set = set(legal)
    if kind == Kind.MAIN:
        # R99 / R100 / R76 / OP-61: the faction special action, once per round
        want = f in ("philosophers", "psychics") and seat not in t.specials
        got = SPECIAL_BASE + SP_FACTION in legal_set
        if want != got:
            res.fail(where, f"{f} seat {seat}: faction special offered {got}, oracle {want}", "specials")
        res.tally[
            f"main special {f if f in ('philosophers', 'psychics') else 'none'} {'offered' if got else 'not'}"
        ] += 1
        # R95 / OP-47: the Moles' bridge action
        spots = bridge_spots(geo, s, seat, moles=True)
        want = f == "moles" and int(p[P_TOOLS]) >= MOLES_BRIDGE_TOOLS and bool(spots)
        got = A_MOLES_BRIDGE in legal_set
        if want != got:
            res.fail(
                where, f"{f} seat {seat}: molebridge offered {got}, oracle {want} (tools {int(p[P_TOOLS])})", "moles"
            )
        if f == "moles":
            res.tally[f"moles bridge action {'offered' if got else 'not offered'}"] += 1
        # R92 / R139: spell costs (soundness for all, completeness where the effect is always possible)
        three = int(p[P_BOWLS.start + 2])
        discount = 1 if f == "illusionists" else 0
        topic = "illusionists" if f == "illusionists" else "spells"
        for i, ident in enumerate(g.data.spell_ids):
            cost = SPELL_POWER[ident] - discount
            ok = ident not in t.spells and three >= cost
            got = SPELL_BASE + i in legal_set
            if got and not ok:
                res.fail(
                    where, f"{f} seat {seat}: spell {ident} offered with {three} power in bowl III (cost {cost})", topic
                )
            exact = ident in ("S4", "S5") or (ident == "S2" and int(p[P_SCHOLAR_SUPPLY]) > 0)
            if exact and got != ok:
                res.fail(
                    where,
                    f"{f} seat {seat}: spell {ident} offered {got}, oracle {ok} (III {three}, cost {cost})",
                    topic,
                )
            if got and f == "illusionists" and three == cost:
                res.tally["illusionists spell affordable only with the discount"] += 1
        # R58 / R100: one action per turn, two after the Psychics' special action
        if seat in t.psychic_second and A_PASS not in legal_set:
            res.fail(where, "OP-42: Pass is not offered as the Psychics' second action", "turns")
    elif kind == Kind.TB_TARGET:
        if TUNNEL in legal_set and not (f == "moles" and int(p[P_TOOLS]) >= TUNNEL_TOOLS):
            res.fail(where, f"{f} seat {seat}: tunnel offered (tools {int(p[P_TOOLS])})", "moles")
        if TUNNEL in legal_set:
            res.tally["tunnel offered"] += 1
    elif kind in (Kind.BRIDGE_END, Kind.BRIDGE_DIR):
        moles = t.last_main.get(seat) == "molebridge"
        spots = bridge_spots(geo, s, seat, moles)
        if kind == Kind.BRIDGE_END:
            want = {q for pair in spots for q in pair}
        else:
            end = t.bridge_end.get(seat, -1)
            want = {b if a == end else a for a, b in spots if end in (a, b)}
        got = {x - HEX_BASE for x in legal if HEX_BASE <= x < HEX_BASE + NUM_POSITIONS}
        if got != want:
            extra = sorted(hex_name(q) for q in got - want)
            missing = sorted(hex_name(q) for q in want - got)
            res.fail(
                where,
                f"{f} seat {seat} {'Moles' if moles else 'printed'} bridge: extra {extra} missing {missing}",
                "moles" if f == "moles" else "bridges",
            )
        res.tally[
            f"bridge choice {'moles' if moles else 'printed'}{' (moles spell)' if f == 'moles' and not moles else ''}"
        ] += 1
        if moles and any(pair not in geo.printed for pair in spots):
            res.tally["moles bridge off the printed spots offered"] += 1


# --------------------------------------------------------------------------------------------
# playing


def probe_kind(kind: int, text: str) -> str:
    """Which immediate check a decision gets ('' = none)."""
    if kind == Kind.MAIN and text.startswith("spell "):
        return "spell"
    if kind == Kind.MAIN and text.startswith("book "):
        return "book action"
    if kind == Kind.TB_TARGET and text.startswith("target "):
        return "target"
    if kind == Kind.TB_FINISH:
        return "workshop" if text == "workshop" else ("spade" if text.startswith("spade ") else "")
    if kind == Kind.TB_SPADES:
        return "spades"
    if kind == Kind.SPADES and text.startswith("spade "):
        return "spade"
    if kind == Kind.NEUTRAL_PLACE:
        return "neutral"
    if kind == Kind.TB_TUNNEL:
        return "tunnel"
    if kind == Kind.TB_FLY:
        return "fly"
    if kind == Kind.LIZARD_BUILD and text.startswith("workshop "):
        return "lizard"
    if kind == Kind.CHOOSE_COMPETENCY:
        return "competency"
    return ""


def choose(g: Game, rng: np.random.Generator, policy: str) -> int:
    legal = g.legal_actions()
    if policy == "uniform":
        return random_action(g, rng)
    kind = g.pending_kind()
    w = np.ones(len(legal))
    for i, a in enumerate(legal):
        if CONVERT_BASE <= a < CONVERT_BASE + NUM_CONVERSIONS:
            w[i] = 0.05
        elif a == A_PASS:
            w[i] = 0.03
        elif a == DONE:
            w[i] = 0.5
        elif policy == "builder":
            if kind == Kind.MAIN and (a == A_BUILD or BUILDING_BASE <= a < BUILDING_BASE + 7):
                w[i] = 5.0
            elif kind == Kind.MAIN and a in (A_MOLES_BRIDGE, SPECIAL_BASE + SP_FACTION):
                w[i] = 3.0
            elif kind == Kind.TB_FINISH and a == BUILDING_BASE:
                w[i] = 6.0
            elif a in (TUNNEL, YES):
                w[i] = 3.0
    return legal[int(rng.choice(len(legal), p=w / w.sum()))]


def play(
    g: Game, seed: int, policy: str, res: Results, where: str, prefix: list[str] | None = None, setup_only: bool = False
) -> None:
    """Play to the end (after the notation ``prefix``; or only the setup), checking every faction event."""
    rng = np.random.default_rng(seed + 4242)
    geo = Geo.of(g)
    mon = Monitor()
    t = Turns()
    setup_moves: list[Move] = []
    setup_checked = int(g.state.glob[G_ROUND]) > 0  # a built position: no setup to check
    prefix = list(prefix or [])
    with monitoring(mon):
        while not g.is_over() and not (setup_only and setup_checked):
            s = g.state
            rnd = int(s.glob[G_ROUND])
            t.new_round(rnd)
            seat, kind = g.current_seat(), int(g.pending_kind())
            legal = g.legal_actions()
            here = f"{where} round {rnd} decision {int(s.glob[G_DECISIONS])}"
            check_legal(g, kind, seat, legal, t, res, here, geo)
            a = g.parse_move(prefix.pop(0)) if prefix else choose(g, rng, policy)
            text = g.move_str(a)
            depth = int(s.glob[G_DEPTH])
            move = Move(seat, kind, text, int(s.stack[depth - 1, 2]))
            before = s.clone()
            what = probe_kind(kind, text)
            if what:
                mon.open.append(Probe(what, seat, before, depth - 1, True, text))
            if kind == Kind.CHOOSE_CITY:
                mon.open.append(Probe("city", seat, before, depth - 1, False, text))
            if kind == Kind.MAIN and a == SPECIAL_BASE + SP_FACTION:
                mon.open.append(Probe("special", seat, before, depth - 1, False, text, stop_at_post=True))
                mon.open.append(Probe("special now", seat, before, depth - 1, True, text))
            for pr in mon.open:
                if not pr.immediate:
                    pr.moves.append(move)
            if rnd == 0:
                setup_moves.append(move)
            # the oracle's own bookkeeping of the turn (R58, R75, R76, OP-61)
            if kind == Kind.MAIN and not CONVERT_BASE <= a < CONVERT_BASE + NUM_CONVERSIONS:
                allowed = 1 if seat in t.psychic_second else 0
                if t.actions[seat] > allowed:
                    res.fail(
                        here, f"{faction(s, seat)} seat {seat}: a further action '{text}' in one turn (R58)", "turns"
                    )
                t.actions[seat] += 1
                t.last_main[seat] = text
                if text.startswith("spell "):
                    t.spells.add(text.split()[1])
                if a == SPECIAL_BASE + SP_FACTION:
                    t.specials.add(seat)
            if kind == Kind.POST and text == "done":
                t.actions[seat] = 0
                t.psychic_second.discard(seat)
            if kind == Kind.BRIDGE_END:
                t.bridge_end[seat] = parse_hex(text.split()[1])
            g.apply_action(a)
            mon.returned(g)
            if kind == Kind.INITIAL_PLACE:
                setup_moves[-1].p0 = int(g.state.hexes[parse_hex(text.split()[1]), H_BUILDING])
            if kind == Kind.MAIN and a == SPECIAL_BASE + SP_FACTION and faction(s, seat) == "psychics":
                t.psychic_second.add(seat)
                if g.pending_kind() != Kind.MAIN or g.current_seat() != seat:
                    res.fail(here, "R100: the Psychics' second action does not follow at once", "turns")
                res.tally["psychics double action"] += 1
            if kind == Kind.MAIN and text == "molebridge":
                check_moles_bridge_cost(before, g.state, seat, res, here)
            if kind == Kind.BRIDGE_DIR:
                check_bridge_built(before, g.state, seat, text, t, res, here, geo)
            if not setup_checked and mon.setup_end is not None:
                setup_checked = True
                check_setup(g, mon.setup_end, setup_moves, res, where, geo)
            for pr in mon.closed:
                dispatch(g, pr, res, here, geo)
            mon.closed.clear()
    for seat in range(g.config.players):
        res.factions[(faction(g.state, seat), g.config.players, g.config.ruleset)] += 1


def dispatch(g: Game, pr: Probe, res: Results, where: str, geo: Geo) -> None:
    if pr.what in ("target", "workshop", "spade", "spades", "neutral", "tunnel", "fly", "lizard"):
        check_build_or_spade(g, pr, res, where, geo)
    elif pr.what == "spell":
        check_spell(g, pr, res, where)
    elif pr.what == "book action":
        check_book_action(pr, res, where)
    elif pr.what == "competency":
        check_competency(g, pr, res, where)
    elif pr.what == "city":
        check_city_window(g, pr, res, where)
    elif pr.what == "science":
        check_science(g, pr, res, where, geo)
    elif pr.what in ("special", "special now"):
        check_special(g, pr, res, where)


def check_special(g: Game, pr: Probe, res: Results, where: str) -> None:
    """R99: the Philosophers' action gives 1 book of choice; R100: the Psychics gain 5 power
    (up to the point where the second action is chosen)."""
    b, a, seat = pr.before, pr.after, pr.seat
    assert a is not None
    f = faction(b, seat)
    mine = [m for m in pr.moves if m.seat == seat]
    if pr.what == "special now":  # right after the action: R100's 5 power, nothing else
        want = [int(x) for x in b.players[seat, P_BOWLS]]
        if f == "psychics":
            want = gain_power(want, PSYCHIC_POWER)
            res.tally["psychics special power"] += 1
        if [int(x) for x in a.players[seat, P_BOWLS]] != want:
            res.fail(
                where, f"{f} special: bowls {[int(x) for x in a.players[seat, P_BOWLS]]}, oracle {want}", "specials"
            )
        if f not in ("philosophers", "psychics"):
            res.fail(where, f"{f} used a faction special action", "specials")
        return
    if f == "philosophers":
        books = [m for m in mine if m.kind == Kind.CHOOSE_BOOKS]
        got = int(a.players[seat, P_BOOKS].sum() - b.players[seat, P_BOOKS].sum())
        if len(books) != 1 or got != 1:
            res.fail(where, f"philosophers special: {len(books)} book decisions, books +{got} (R99: 1)", "specials")
        res.tally["philosophers special"] += 1


def check_moles_bridge_cost(b: State, a: State, seat: int, res: Results, where: str) -> None:
    """R95: the Moles' bridge action costs 1 tool (and nothing else)."""
    diff = a.players[seat] - b.players[seat]
    want = np.zeros_like(diff)
    want[P_TOOLS] = -MOLES_BRIDGE_TOOLS
    if not np.array_equal(diff, want):
        res.fail(where, f"molebridge changed {[(i, int(d)) for i, d in enumerate(diff) if d]}", "moles")
    res.tally["moles bridge action"] += 1


def check_bridge_built(b: State, a: State, seat: int, text: str, t: Turns, res: Results, where: str, geo: Geo) -> None:
    new = set(built_bridges(a)) - set(built_bridges(b))
    end, other = t.bridge_end.get(seat, -1), parse_hex(text.split()[-1])
    want = {(min(end, other), max(end, other))}
    if new != want or int(a.players[seat, P_BRIDGES] - b.players[seat, P_BRIDGES]) != 1:
        res.fail(where, f"bridge {text}: new bridges {new}, oracle {want}", "bridges")
    if bridges_of(a, seat) > BRIDGES_PER_PLAYER:
        res.fail(where, f"seat {seat} has {bridges_of(a, seat)} bridges (R3)", "bridges")
    if t.last_main.get(seat) == "molebridge":
        res.tally["moles bridge built" + ("" if next(iter(want)) in geo.printed else " off the printed spots")] += 1


# --------------------------------------------------------------------------------------------
# configurations: every faction with 2-5 players and both rulesets


def faction_games() -> list[tuple[str, int, str]]:
    """(game string, seed, policy): each faction in several player counts and both rulesets."""
    out = []
    rng = np.random.default_rng(20240611)
    k = 0
    for players in (2, 3, 4, 5):
        for ruleset in ("v1.2", "v1.0"):
            perm = [str(f) for f in rng.permutation(FACTIONS)]
            for start in range(0, 12, players):
                facs = (perm[start:] + perm[:start])[:players]
                boards = [str(b) for b in rng.choice(BOARDS, players, replace=False)]
                game = (
                    f"aoi(players={players},ruleset={ruleset},factions={'+'.join(facs)},"
                    f"boards={'+'.join(boards)},skip_forced=false)"
                )
                out.append((game, k, ("builder", "biased", "uniform")[k % 3]))
                k += 1
    for players in (2, 3, 4, 5):  # a second round, the Moles, Goblins and Navigators always present
        for ruleset in ("v1.2", "v1.0"):
            for rep in range(2):
                rest = [
                    str(f)
                    for f in rng.permutation([f for f in FACTIONS if f not in ("moles", "goblins", "navigators")])
                ]
                facs = (["moles", "goblins", "navigators"] + rest)[:players]
                facs = [str(f) for f in rng.permutation(facs)]
                boards = [str(b) for b in rng.choice(BOARDS, players, replace=False)]
                game = (
                    f"aoi(players={players},ruleset={ruleset},factions={'+'.join(facs)},"
                    f"boards={'+'.join(boards)},skip_forced=false)"
                )
                out.append((game, k, ("builder", "biased")[rep]))
                k += 1
    for game in (
        "aoi(players=3,skip_forced=false)",
        "aoi(players=4,distribution=draft,skip_forced=false)",
        "aoi(players=5,ruleset=v1.0,skip_forced=false)",
        "aoi(players=2,ruleset=v1.0,skip_forced=false)",
    ):
        for seed in range(3):
            out.append((game, 100 + seed, "builder"))
    return out


def _cluster(g: Game, rng: np.random.Generator, taken: set[int], own: set[int]) -> list[int] | None:
    """Four land hexes: a centre, two built neighbours and a free fourth next to them, none next
    to another of the seat's buildings (so separate clusters cannot already form a city)."""
    nb = g.geo.neighbors
    land = [int(q) for q in np.flatnonzero(g.geo.land)]
    for _ in range(200):
        c = int(rng.choice(land))
        ring = [q for q in nb[c] if g.geo.land[q] and q not in taken]
        if c in taken or len(ring) < 3:
            continue
        pick = [int(q) for q in rng.choice(ring, 3, replace=False)]
        hexes = [c, *pick]
        if any(q in own or any(r in own for r in nb[q]) for q in hexes):
            continue
        return hexes
    return None


def city_position(players: int, ruleset: str, seed: int, palace11: str = "") -> tuple[Game, list[str]]:
    """A random position in Phase II where every seat has clusters one Workshop short of a city
    (School + 2 Guilds, power 6, R43), the Felines and the Lizards always at the table, random
    science levels (Blessed sometimes above 9, so the virtual level passes 12, R89) and enough
    resources to build.  With ``palace11`` that faction sits in seat 0 with a Guild and the
    resources for its Palace, only palace tile 11 is offered (R131) and its first move is the
    upgrade (OP-18)."""
    rng = np.random.default_rng(seed)
    others = [f for f in FACTIONS if f not in ("felines", "lizards")]
    facs = ["felines", "lizards", *(str(f) for f in rng.choice(others, players - 2, replace=False))]
    rng.shuffle(facs)
    if palace11:
        facs.remove(palace11)
        facs.insert(0, palace11)
    boards = [str(b) for b in rng.choice(BOARDS, players, replace=False)]
    sc = Scenario(f"aoi(players={players},ruleset={ruleset})", factions=facs, boards=boards, seed=seed)
    g = sc.g
    sc.round(int(rng.integers(1, 6 if palace11 else 7)))
    taken: set[int] = set()
    top = [False] * 4
    for seat in range(players):
        own: set[int] = set()
        for _ in range(1 if palace11 and seat == 0 else 2):
            hexes = _cluster(g, rng, taken, own)
            if hexes is None:
                continue
            for q, kind in zip(hexes, ("school", "guild", "guild"), strict=False):
                sc.build(seat, hex_name(q), kind)
            if rng.random() < 0.7:
                sc.terrain(hex_name(hexes[3]), BOARDS[int(g.state.players[seat, P_BOARD])])
            taken.update(hexes)
            own.update(hexes[:3])
        if palace11 and seat == 0:
            hexes = _cluster(g, rng, taken, own)
            assert hexes is not None
            sc.build(0, hex_name(hexes[0]), "guild")
            taken.update(hexes)
        levels = [int(x) for x in rng.integers(0, 8, 4)]
        keys = 0
        if facs[seat] == "blessed" and rng.random() < 0.7:
            d = int(rng.integers(4))
            if not top[d]:
                levels[d], top[d], keys = int(rng.choice([9, 10, 11, 12])), True, 1
        free_cities = [c for c in g.data.city_ids if c != "K4"]
        if keys:
            sc.city_tile(seat, free_cities[seat % len(free_cities)])
        bowls = [int(x) for x in rng.multinomial(12, [0.3, 0.4, 0.3])]
        sc.set(
            seat,
            coins=int(rng.integers(8, 31)),
            tools=int(rng.integers(4, 11)),
            science=levels,
            scholars=int(rng.integers(0, 3)),
            books=[int(x) for x in rng.integers(0, 3, 4)],
            bowls=bowls,
        )
    prefix = []
    if palace11:
        sc.offer_palace(11)
        sc.set(0, coins=20, tools=8)
        prefix = ["upgrade palace"]
    return sc.turn(0 if palace11 else int(rng.integers(players))), prefix


SETUPS = 150
POSITIONS = [(players, ruleset, seed) for players in (2, 3, 4, 5) for ruleset in ("v1.2", "v1.0") for seed in range(8)]
PALACE11 = [
    (faction, ruleset, players)
    for faction in ("felines", "lizards")
    for ruleset in ("v1.2", "v1.0")
    for players in (3, 4)
]


@pytest.fixture(scope="module")
def results() -> Results:
    res = Results()
    t0 = time.time()
    for game, seed, policy in faction_games():
        play(Game(game, seed=seed), seed, policy, res, f"{game} seed {seed} {policy}")
    for seed in range(SETUPS):  # setups only: every faction on many boards, 2-5 players
        players = 2 + seed % 4
        rng = np.random.default_rng(seed)
        facs = "+".join(str(f) for f in rng.choice(FACTIONS, players, replace=False))
        boards = "+".join(str(b) for b in rng.choice(BOARDS, players, replace=False))
        game = f"aoi(players={players},factions={facs},boards={boards},skip_forced=false)"
        play(Game(game, seed=seed), seed, "uniform", res, f"{game} seed {seed} setup", setup_only=True)
    for players, ruleset, seed in POSITIONS:
        g, prefix = city_position(players, ruleset, 1000 + seed * 10 + players)
        play(g, seed, "builder", res, f"city position {players} {ruleset} seed {seed}", prefix)
    for i, (fac, ruleset, players) in enumerate(PALACE11):
        g, prefix = city_position(players, ruleset, 2000 + i, palace11=fac)
        play(g, i, "builder", res, f"palace 11 position {fac} {players} {ruleset}", prefix)
    res.tally["seen seconds"] = int(time.time() - t0)
    print(sorted(res.tally.items()))
    return res


def _ok(res: Results, *topics: str) -> None:
    problems = res.of(*topics)
    assert problems == [], f"{len(problems)} problems:\n" + "\n".join(problems[:25])


def test_every_faction_played_with_2_to_5_players_and_both_rulesets(results: Results) -> None:
    """R88: all 12 factions at the table with 2, 3, 4 and 5 players, under v1.2 and v1.0 (R145)."""
    seen = results.factions
    for f in FACTIONS:
        for players in (2, 3, 4, 5):
            for ruleset in ("v1.2", "v1.0"):
                assert seen[(f, players, ruleset)] > 0, (f, players, ruleset)
    assert results.checked > 3000


def test_r17_r23_setup_of_every_faction(results: Results) -> None:
    """R17-R19, R21-R23, R87, R49 / R17.7, R53: starting resources, tracks and bowls of each
    faction on each board (Blessed, Felines, Goblins, Illusionists, Moles, Monks, Navigators,
    Omar, Philosophers, Psychics per R19; Lizards' 2 free steps R94); the placement order with
    Omar's Tower (R98, OP-43) and the Monks' University (R96, OP-44); the Monks' and Inventors'
    competencies with their position reward (R93, R96, R53) and C4 / C5 / C6 / C10 effects; setup
    spades in turn order without buying or building (R23, OP-37; Goblins' coins R91, OP-36)."""
    _ok(results, "setup")
    t = results.tally
    for f in FACTIONS:
        assert t[f"setup {f}"] >= 20, f
    for label in (
        "lizards setup steps one",
        "lizards setup steps two",
        "monks setup competency",
        "inventors setup competency",
        "goblins setup spades",
        "setup spades",
        "setup placement order",
    ):
        assert t[label] > 0, label


def test_r92_op13_illusionists_spells(results: Results) -> None:
    """R92 / OP-13 / R145 / R139: every spell costs the Illusionists 1 power less (offered exactly
    when bowl III holds the reduced cost: S2 / S4 / S5 both ways, all spells soundly) and scores
    1 VP (2-3 players) / 2 VP (4-5) in v1.2, 3 VP / 4 VP (5 players) in v1.0; other factions pay
    the printed cost and score nothing."""
    _ok(results, "illusionists", "spells")
    t = results.tally
    for ruleset in ("v1.2", "v1.0"):
        for players in (2, 3, 4, 5):
            assert t[f"spell illusionists {ruleset} P{players}"] > 0, (ruleset, players)
    assert t["illusionists spell affordable only with the discount"] > 0
    assert t["spell other"] > 50


def test_r95_op14_op47_moles_tunnel_and_bridge(results: Results) -> None:
    """R95 / OP-14 / OP-47 / R40 / R3: a tunnel costs 1 tool and scores 2 + P VP (v1.2) or 4 VP
    (v1.0) and is offered only to the Moles; the Moles' bridge action is offered exactly when they
    have a tool, fewer than 3 bridges and a free land pair in bridge geometry with a Moles building
    at one end, costs 1 tool, and its end choices are exactly those pairs (off the printed spots
    too); the Moles' bridge spell (S1 / B6) keeps to the printed spots."""
    _ok(results, "moles", "bridges")
    t = results.tally
    for label in (
        "moles tunnel v1.2",
        "moles tunnel v1.0",
        "moles bridge action",
        "moles bridge built",
        "moles bridge built off the printed spots",
        "moles bridge action not offered",
        "bridge choice moles",
        "bridge choice printed",
    ):
        assert t[label] > 0, label


def test_r91_op36_goblins_coins_per_spade(results: Results) -> None:
    """R91 / OP-36: +2 coins per spade the Goblins use, in Phase II (TB spades, extra spades,
    tools-bought spades for a neutral building), in Phase III (science bonus spades) and at setup
    (Desert); other factions get no coins for spades."""
    _ok(results, "goblins", "build")
    t = results.tally
    for label in ("goblins spades phase 2", "goblins spades phase 3", "goblins setup spades"):
        assert t[label] > 0, label


def test_r97_op15_navigators_river_workshops(results: Results) -> None:
    """R97 / OP-15 / R145 / R146: a Workshop the Navigators build next to a river hex scores 2 VP
    and, in v1.2 only, 1 coin (with the other per-Workshop VP of R146: T1/T3, F1/F4, B1, C11,
    Palace 12); inland Workshops give nothing extra."""
    _ok(results, "navigators")
    t = results.tally
    for label in ("navigators river workshop v1.2", "navigators river workshop v1.0", "navigators inland workshop"):
        assert t[label] > 0, label


def test_r90_r94_op18_op53_felines_and_lizards_cities(results: Results) -> None:
    """R90: each city the Felines found gives 3 steps split freely and 1 book of choice; R94 /
    OP-53: each city the Lizards found gives a TB with 1 free spade and a free Workshop (no coins,
    no tools, the usual per-Workshop VP); OP-18 / R145: Palace 11's city tile counts as founding
    in v1.2 and not in v1.0; other factions get neither."""
    _ok(results, "cities", "lizards")
    t = results.tally
    for label in ("felines city", "lizards city", "lizards free workshop", "city window"):
        assert t[label] >= 3, label
    for f in ("felines", "lizards"):
        for ruleset in ("v1.2", "v1.0"):
            assert t[f"{f} palace 11 city {ruleset}"] > 0, (f, ruleset)


def test_r99_philosophers_books(results: Results) -> None:
    """R99 / R53 / R76 / OP-61: the Philosophers' special action (1 book of choice) is offered
    once per round, from every round anew, and to no other faction but the Psychics; each
    competency they take gives 1 more book of its column's discipline than the position reward."""
    _ok(results, "philosophers", "competency", "specials")
    t = results.tally
    for label in (
        "philosophers special",
        "philosophers competency book",
        "main special philosophers not",
        "main special philosophers offered",
        "competency",
    ):
        assert t[label] > 0, label


def test_r100_op42_psychics_double_action(results: Results) -> None:
    """R100 / OP-42 / R58 / OP-61: the Psychics' special action (once per round) gains 5 power
    (R30) and is followed at once by a second main action of the same player, Pass included; any
    other turn has exactly one main action."""
    _ok(results, "turns", "specials")
    t = results.tally
    for label in (
        "psychics double action",
        "psychics special power",
        "main special psychics offered",
        "main special psychics not",
    ):
        assert t[label] > 0, label


def test_r89_blessed_science_bonus(results: Results) -> None:
    """R89 / R80.1 / R143: in Phase III the Blessed receive reward x floor((level + 3) / threshold),
    the virtual level above 12 included; the other factions use their level (R142 rewards:
    scholars up to the supply, coins, tools, power by R30, books of choice, spades without
    building)."""
    _ok(results, "blessed", "science")
    t = results.tally
    for label in ("blessed science bonus", "blessed science bonus raised", "blessed virtual level above 12"):
        assert t[label] > 0, label
    assert t["science bonus"] > 200


def test_build_and_spade_effects_checked(results: Results) -> None:
    """R64 / R146 / R46.1: the coins, tools and VP of every Workshop build and every spade, which
    the faction checks above build on (paid Workshops 1 T + 2 C, neutral and Lizards' ones free)."""
    _ok(results, "build")
    assert results.tally["build/spade effect"] > 1000
