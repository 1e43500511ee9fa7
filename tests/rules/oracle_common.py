"""Helpers shared by the independent rule oracles (``tests/rules/test_oracle_*.py``,
``tests/test_oracle_automa_*.py``).

Like the oracles, this module is a reading of RULES.md / the rulebook that stays independent of
the engine's rule code: nothing from ``aoi_env.core`` that implements a rule is called (no
``Geometry.reach`` / ``reach_from`` / ``adjacency`` / ``ring_from``, ``rules.*``, ``terraform``,
``effects`` ...).  Used are only the static board geometry an oracle passes in (edge neighbours,
land / river cells, printed bridge spots), the raw state arrays with their field constants, and
numbers typed in from RULES.md.  Each helper names the rules it implements.

The reach helpers take the neighbour lists and land / river masks as parameters, so an oracle
that derives its own board geometry (from DATA.md or the grid frame) keeps using it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from aoi_env.core.state import (
    G_NUM_BRIDGES,
    G_PHASE,
    H_BUILDING,
    H_NEUTRAL,
    H_OWNER,
    P_BONUS,
    P_PASSED,
    P_SAILING,
    PLAYER_LAYOUT,
    Phase,
    State,
)
from aoi_env.data.enums import Building

if TYPE_CHECKING:
    from aoi_env.core.board import Geometry

# --------------------------------------------------------------------------------------------
# numbers typed in from RULES.md / the rulebook (not read from the engine's tables)

DISC = ("banking", "law", "engineering", "medicine")  # the science disciplines, board order
# R19: the 12 factions, in Faction order
FACTIONS = (
    "blessed",
    "felines",
    "goblins",
    "illusionists",
    "inventors",
    "lizards",
    "moles",
    "monks",
    "navigators",
    "omar",
    "philosophers",
    "psychics",
)
BOARDS = ("desert", "plains", "swamp", "lake", "forest", "mountain", "wasteland")  # R34: Terrain order

# R35: terraforming cost (spades) from terrain (row) to native terrain (column); order De Pl Sw La Fo Mo Wa
WHEEL = (
    (0, 1, 2, 3, 3, 2, 1),
    (1, 0, 1, 2, 3, 3, 2),
    (2, 1, 0, 1, 2, 3, 3),
    (3, 2, 1, 0, 1, 2, 3),
    (3, 3, 2, 1, 0, 1, 2),
    (2, 3, 3, 2, 1, 0, 1),
    (1, 2, 3, 3, 2, 1, 0),
)
TOOLS_PER_SPADE = (3, 2, 1)  # R37 / R72: by terraforming-track upgrades done
THRESHOLDS = {3: 1, 5: 2, 7: 2, 12: 3}  # R49 / OP-8: power for reaching a science level
SCIENCE_INCOME = ({"coins": 3}, {"power": 6}, {"tools": 1}, {"vp": 3})  # R51: level >= 9, by discipline
START_COINS, START_TOOLS, START_VP, SCHOLARS = 15, 3, 20, 7  # R18, R17.8 / R26, R2 / R3
DEFAULT_BOWLS = (5, 7, 0)  # R17.4: bowls I / II / III (Forest and Swamp differ, R87)
COMP_ROW_REWARD = ((3, 0), (2, 1), (1, 2))  # R53.3 / OP-9: (steps, books) of the rows top..bottom
C4_GAIN = {"tools": 1, "vp": 5, "coins": 2}  # R141
BRIDGES_PER_PLAYER = 3  # R2 / R3 / R40
# R2 / R54: a player's pieces
PIECES = {
    Building.WORKSHOP: 9,
    Building.GUILD: 4,
    Building.SCHOOL: 3,
    Building.UNIVERSITY: 1,
    Building.PALACE: 1,
}
# R1 / R3: the neutral pieces
NEUTRAL_PIECES = {
    Building.WORKSHOP: 1,
    Building.GUILD: 1,
    Building.SCHOOL: 1,
    Building.UNIVERSITY: 1,
    Building.PALACE: 1,
    Building.TOWER: 5,
    Building.MONUMENT: 1,
}
# R41: power value of a building
POWER_VALUE = {
    Building.WORKSHOP: 1,
    Building.GUILD: 2,
    Building.SCHOOL: 2,
    Building.UNIVERSITY: 3,
    Building.PALACE: 3,
    Building.TOWER: 2,
    Building.MONUMENT: 4,
}
CENSUS_TABLE = ((7, 8), (9, 12), (11, 18))  # R107: (buildings, VP)
COMMUNICATION_TABLE = ((4, 8), (5, 12), (6, 18))  # R111: (groups, VP)
STEEL_TABLE = ((1, 8), (2, 12), (3, 18))  # R113: (bridges, VP)
AREA_VP = (18, 12, 6)  # R83: the largest areas, first to third
SCIENCE_VP = (8, 4, 2)  # R84: per discipline, first to third
B1 = 0  # R138: round bonus tile B1 (reach +1 in Phase II) is index 0 of B1..B10

# names of the player-row fields (for messages): index -> "field" or "field[i]"
FIELD_NAMES = {
    (v if isinstance(v, int) else i): (k if isinstance(v, int) else f"{k}[{i - v.start}]")
    for k, v in PLAYER_LAYOUT.names.items()
    for i in ([v] if isinstance(v, int) else range(v.start, v.stop))
}

# games with fixed seats: every faction and every planning board, 2-5 players, both rulesets
FIXED_GAMES = (
    "aoi(players=5,factions=blessed+felines+goblins+illusionists+inventors,boards=desert+plains+swamp+lake+forest)",
    "aoi(players=5,ruleset=v1.0,factions=lizards+moles+monks+navigators+omar,boards=mountain+wasteland+desert+plains+swamp)",
    "aoi(players=4,factions=philosophers+psychics+monks+omar,boards=lake+forest+mountain+wasteland)",
    "aoi(players=4,ruleset=v1.0,factions=psychics+philosophers+goblins+lizards,boards=wasteland+mountain+plains+lake)",
    "aoi(players=3,factions=inventors+navigators+moles,boards=forest+swamp+desert)",
    "aoi(players=3,ruleset=v1.0,factions=illusionists+felines+blessed,boards=mountain+lake+wasteland)",
    "aoi(players=2,factions=monks+psychics,boards=plains+mountain)",
    "aoi(players=2,ruleset=v1.0,factions=omar+philosophers,boards=swamp+forest)",
)
# drawn seats, both board sides and rulesets
RANDOM_GAMES = (
    "aoi(players=2)",
    "aoi(players=3)",
    "aoi(players=3,map=1-3)",
    "aoi(players=4)",
    "aoi(players=5)",
    "aoi(players=2,ruleset=v1.0)",
    "aoi(players=4,ruleset=v1.0)",
    "aoi(players=3,distribution=draft)",
)


# --------------------------------------------------------------------------------------------
# small rules


def gain_power(bowls: Sequence[int], n: int) -> list[int]:
    """R30, one token at a time: I -> II while I has tokens, then II -> III; the rest is lost."""
    one, two, three = (int(x) for x in bowls)
    for _ in range(n):
        if one:
            one, two = one - 1, two + 1
        elif two:
            two, three = two - 1, three + 1
    return [one, two, three]


def threshold_power(levels: Iterable[int]) -> int:
    """R49: every threshold reached from 0 pays once (OP-29: also when passed over)."""
    return sum(p for lvl in levels for t, p in THRESHOLDS.items() if lvl >= t)


def illusionist_vp(ruleset: str, players: int) -> int:
    """R92 / OP-13 / R145: VP per spell; v1.2 1 VP (2-3 players) or 2 (4-5), v1.0 3 VP or 4 (5)."""
    if ruleset == "v1.0":
        return 4 if players == 5 else 3
    return 1 if players <= 3 else 2


def ranked_payouts(values: Mapping[Any, int], payouts: Sequence[int]) -> dict[Any, int]:
    """R83 / R84 ties: the tied share the payouts of the ranks they occupy, rounded down; a value
    of 0 takes no rank and scores nothing (R84)."""
    out = {}
    for k, v in values.items():
        if v <= 0:
            out[k] = 0
            continue
        above = sum(1 for w in values.values() if w > v)
        tied = sum(1 for w in values.values() if w == v)
        out[k] = sum(payouts[above : above + tied]) // tied
    return out


def table_vp(value: int, table: Iterable[tuple[int, int]]) -> int:
    """R107 / R111 / R113: the VP of the highest row whose minimum ``value`` reaches (0 if none)."""
    vp = 0
    for minimum, points in table:
        if value >= minimum:
            vp = points
    return vp


# --------------------------------------------------------------------------------------------
# readers of the raw state


def own_hexes(state: State, seat: int, btype: int | None = None, neutral: bool | None = None) -> list[int]:
    """Hexes with a building of the seat (R39: neutral buildings it owns count, R46.3, R101;
    Pavilions are not buildings), optionally of one type and neutral or not."""
    h = state.hexes
    mask = (h[:, H_OWNER] == seat) & (h[:, H_BUILDING] > 0)
    if btype is not None:
        mask &= h[:, H_BUILDING] == btype
    if neutral is not None:
        mask &= (h[:, H_NEUTRAL] != 0) == neutral
    return [int(q) for q in np.flatnonzero(mask)]


def bridge_rows(state: State) -> list[tuple[int, int, int]]:
    """R40: the bridge table, (end, end, builder) per bridge built (never removed)."""
    n = int(state.glob[G_NUM_BRIDGES])
    return [(int(a), int(b), int(o)) for a, b, o in state.bridges[:n]]


def built_bridges(state: State) -> list[tuple[int, int]]:
    """R38 / R40: the two ends of every built bridge (any builder's)."""
    return [(a, b) for a, b, _ in bridge_rows(state)]


def bridges_of(state: State, seat: int) -> int:
    """R3 / R113: bridges the seat has built, counted in the bridge table."""
    return sum(1 for *_, o in bridge_rows(state) if o == seat)


def sailing(state: State, seat: int, b1: bool = True) -> int:
    """R39 / R138 / OP-41: the sailing track value, +1 while the seat holds B1 face up in Phase II
    (``b1=False``: the track alone, e.g. outside Phase II or for the area scoring, R83)."""
    p = state.players[seat]
    value = int(p[P_SAILING])
    if b1 and int(state.glob[G_PHASE]) == Phase.ACTIONS and int(p[P_BONUS]) == B1 and not int(p[P_PASSED]):
        value += 1
    return value


# --------------------------------------------------------------------------------------------
# geometry: adjacency (R38), reach (R39), distances (R95 / R129), groups, bridge locations (R40)


def adjacency(nb: Sequence[Iterable[int]], bridges: Iterable[tuple[int, int]] = ()) -> list[set[int]]:
    """R38: adjacent = a shared edge (``nb``) or the two ends of a built bridge."""
    adj = [{int(q) for q in n} for n in nb]
    for a, b in bridges:
        adj[a].add(b)
        adj[b].add(a)
    return adj


def adjacent(nb: Sequence[Iterable[int]], bridges: Iterable[tuple[int, int]], pos: int) -> set[int]:
    """R38 for one hex: its edge neighbours plus the other end of every built bridge at ``pos``."""
    out = {int(q) for q in nb[pos]}
    for a, b in bridges:
        if a == pos:
            out.add(b)
        if b == pos:
            out.add(a)
    return out


def reach_from(
    nb: Sequence[Iterable[int]],
    land: Sequence[bool] | np.ndarray,
    river: Sequence[bool] | np.ndarray,
    sources: Iterable[int],
    sailing: int,
    bridges: Iterable[tuple[int, int]] = (),
) -> set[int]:
    """R38 / R39: land hexes in reach of at least one source hex: adjacent to it (shared edge, or
    the other end of a built bridge), or joined to it by a path of 1..``sailing`` edge-adjacent
    river hexes.  A source is not in its own reach (it may be in another source's)."""
    sources = [int(y) for y in sources]
    out: set[int] = set()
    for y in sources:
        out.update(q for q in nb[y] if land[q])
        frontier = [r for r in nb[y] if river[r]]
        seen = set(frontier)
        for _ in range(sailing):
            nxt = []
            for r in frontier:
                for q in nb[r]:
                    if land[q]:
                        if q != y:
                            out.add(q)
                    elif river[q] and q not in seen:
                        seen.add(q)
                        nxt.append(q)
            frontier = nxt
    mine = set(sources)
    for a, b in bridges:
        if a in mine:
            out.add(b)
        if b in mine:
            out.add(a)
    return out


def seat_reach(geo: Geometry, state: State, seat: int, *, b1: bool = True, bridges: bool = True) -> set[int]:
    """R38 / R39 for a seat on ``geo`` (``g.geo``: edge neighbours, land / river cells): the hexes
    in reach of its buildings (neutral ones included), with the sailing value of ``sailing`` (B1's
    +1 in Phase II unless ``b1=False``), across the built bridges unless ``bridges=False``.  No
    tunnel or flight (R95, R129: see ``distances``)."""
    return reach_from(
        geo.neighbors,
        geo.land,
        geo.river,
        own_hexes(state, seat),
        sailing(state, seat, b1),
        built_bridges(state) if bridges else (),
    )


def distances(
    adj: Sequence[Iterable[int]] | Mapping[int, Iterable[int]], sources: Iterable[int], depth: int
) -> dict[int, int]:
    """Adjacency distance (``adj``: edges and bridges, land and river hexes alike) from the nearest
    source, up to ``depth``; the sources are at 0.  The Moles' tunnel reaches distance 2 (R95 /
    OP-48), palace 9's flight distance 2 or 3 (R129 / OP-49)."""
    dist = {int(q): 0 for q in sources}
    frontier = list(dist)
    for k in range(1, depth + 1):
        nxt = []
        for q in frontier:
            for n in adj[q]:
                if n not in dist:
                    dist[n] = k
                    nxt.append(n)
        frontier = nxt
    return dist


def groups(members: Iterable[int], near: Sequence[Iterable[int]] | Mapping[int, Iterable[int]]) -> list[list[int]]:
    """The connected sets of ``members``: a group grows from a member to the members in its
    ``near`` (pass a symmetric relation): adjacency for cities and Communication (R43, R111,
    OP-52), reach for the area scoring (R83, AUTOMA.md §8.1).  Each group sorted."""
    left = {int(q) for q in members}
    out = []
    while left:
        start = left.pop()
        grp, todo = [start], [start]
        while todo:
            for n in near[todo.pop()]:
                if n in left:
                    left.discard(n)
                    grp.append(n)
                    todo.append(n)
        out.append(sorted(grp))
    return out


def free_bridge_spots(
    spots: Iterable[tuple[int, int]], state: State, seat: int, used: int | None = None
) -> set[tuple[int, int]]:
    """R40 (R95 / OP-47 for the Moles' action): the locations of ``spots`` -- the printed ones, or
    every pair in bridge geometry -- with no bridge built and a building of the seat (neutral ones
    included) at one end, as (low, high) pairs; none once the seat has built its 3 bridges (R3).
    ``used``: the seat's bridges built (default: counted in the bridge table)."""
    if (bridges_of(state, seat) if used is None else used) >= BRIDGES_PER_PLAYER:
        return set()
    own = set(own_hexes(state, seat))
    built = {(min(a, b), max(a, b)) for a, b in built_bridges(state)}
    pairs = {(min(int(a), int(b)), max(int(a), int(b))) for a, b in spots}
    return {(a, b) for a, b in pairs if (a in own or b in own) and (a, b) not in built}


# --------------------------------------------------------------------------------------------
# hex geometry from DATA.md §2.1 (odd rows shifted right): cube coordinates, not board.py

GRID_COLS = 13  # DATA.md §2.1: positions are row * 13 + col of the 9 x 13 frame
_CUBE_DIRS = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))


def cube(pos: int) -> tuple[int, int, int]:
    """Cube coordinates of a grid position (odd rows shifted half a hex to the right)."""
    r, c = divmod(pos, GRID_COLS)
    x = c - (r - (r & 1)) // 2
    return x, -x - r, r


def cube_neighbours(c: tuple[int, int, int]) -> set[tuple[int, int, int]]:
    x, y, z = c
    return {(x + dx, y + dy, z + dz) for dx, dy, dz in _CUBE_DIRS}


def hex_distance(a: int, b: int) -> int:
    ca, cb = cube(a), cube(b)
    return max(abs(ca[i] - cb[i]) for i in range(3))


def common_neighbours(a: int, b: int) -> set[tuple[int, int, int]]:
    """The cells next to both positions, also off the frame (a bridge's two flanks)."""
    return cube_neighbours(cube(a)) & cube_neighbours(cube(b))


def moles_geometry(land: Sequence[bool] | np.ndarray) -> set[tuple[int, int]]:
    """R95 / OP-47: every pair of land hexes at distance 2 with two common neighbours (the shape
    of a printed bridge), whatever the flanking cells are: river, land or off the map (the 3-5
    side prints such an edge spot, r6c0-r8c0)."""
    lands = [int(p) for p in np.flatnonzero(np.asarray(land))]
    out = set()
    for i, a in enumerate(lands):
        for b in lands[i + 1 :]:
            if hex_distance(a, b) == 2 and len(common_neighbours(a, b)) == 2:
                out.add((a, b))
    return out
