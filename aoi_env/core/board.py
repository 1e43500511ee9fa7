"""Hex geometry of one board side: adjacency, river distance, reach, bridges, jumps, groups.

Positions are grid cells ``pos = row * 13 + col`` (offset coordinates, odd rows shifted half a hex
to the right, DATA.md §2.1).  Both board sides use the same 9 x 13 frame, so a position id means
the same cell on either side; cells outside the play area have terrain ``OFF``.

::

     r0   (0,0) (0,1) (0,2) ...            even row: neighbours (r, c±1), (r±1, c-1), (r±1, c)
     r1      (1,0) (1,1) (1,2) ...         odd row:  neighbours (r, c±1), (r±1, c),   (r±1, c+1)
     r2   (2,0) (2,1) (2,2) ...

Everything here is static per side and built once (``geometry(name)``); the dynamic parts
(bridges, buildings) are passed in as arrays.  Rules: adjacency R38, reach R39, bridges R40,
Moles' tunnel R95/OP-48, flight R129/OP-49, cities R43, area scoring R83.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from aoi_env.data import NUM_COLS, NUM_POSITIONS, NUM_ROWS, MapData, load
from aoi_env.data.enums import Terrain

MAX_SAILING = 5  # track max 3, +1 from bonus tile B1 (OP-41); one spare level
FAR = 99  # "no river path"

# Cube-coordinate unit directions in clockwise order starting east; consecutive pairs span the
# "bridge geometry" offsets (two land hexes with two common neighbours).
_CUBE_DIRS = ((1, -1, 0), (0, -1, 1), (-1, 0, 1), (-1, 1, 0), (0, 1, -1), (1, 0, -1))


def pos_of(row: int, col: int) -> int:
    return row * NUM_COLS + col


def row_col(pos: int) -> tuple[int, int]:
    return divmod(int(pos), NUM_COLS)


def hex_name(pos: int) -> str:
    """Notation name of a position, e.g. ``r3c4``."""
    r, c = row_col(pos)
    return f"r{r}c{c}"


def parse_hex(text: str) -> int:
    """Inverse of ``hex_name``; raises ValueError on anything else."""
    t = text.strip().lower()
    if not t.startswith("r") or "c" not in t:
        raise ValueError(f"bad hex {text!r}: expected the form r<row>c<col>, e.g. r3c4")
    r_txt, c_txt = t[1:].split("c", 1)
    if not (r_txt.isdigit() and c_txt.isdigit()):
        raise ValueError(f"bad hex {text!r}: expected the form r<row>c<col>, e.g. r3c4")
    r, c = int(r_txt), int(c_txt)
    if not (0 <= r < NUM_ROWS and 0 <= c < NUM_COLS):
        raise ValueError(f"bad hex {text!r}: row must be 0..{NUM_ROWS - 1} and column 0..{NUM_COLS - 1}")
    return pos_of(r, c)


def _cube(pos: int) -> tuple[int, int, int]:
    r, c = row_col(pos)
    x = c - (r - (r & 1)) // 2
    return x, -x - r, r


BRIDGE_DIRECTIONS = ((1, 1), (-2, 1), (-1, 2))
"""Cube (dx, dz) from a bridge's upper end (the lower position id) to its other end: the next row
far right, the next row far left, two rows straight down.  Every printed spot and every Moles
bridge on both board sides is one of these (tested), so a bridge is its upper end and one of 3."""


def bridge_direction(a: int, b: int) -> tuple[int, int]:
    """(upper end, direction index into ``BRIDGE_DIRECTIONS``) of the bridge a - b (observation)."""
    lo, hi = min(a, b), max(a, b)
    x_lo, _, z_lo = _cube(lo)
    x_hi, _, z_hi = _cube(hi)
    return lo, BRIDGE_DIRECTIONS.index((x_hi - x_lo, z_hi - z_lo))


def _from_cube(x: int, z: int) -> int | None:
    r = z
    c = x + (r - (r & 1)) // 2
    if 0 <= r < NUM_ROWS and 0 <= c < NUM_COLS:
        return pos_of(r, c)
    return None


@dataclass(frozen=True)
class Geometry:
    """Static tables of one board side (read-only numpy arrays)."""

    name: str
    terrain: np.ndarray  # int8[P] printed terrain
    land: np.ndarray  # bool[P]
    river: np.ndarray  # bool[P]
    border: np.ndarray  # bool[P] (C11, F1)
    river_adjacent: np.ndarray  # bool[P] land hex touching a river hex (B1, Navigators)
    adj: np.ndarray  # bool[P, P] shared edge, play-area cells only (land and river)
    neighbors: tuple[tuple[int, ...], ...]  # play-area neighbours per position
    river_dist: np.ndarray  # int8[P, P] fewest river hexes on a river-only path land -> land (FAR if none)
    reach: np.ndarray  # bool[MAX_SAILING + 1, P, P] land -> land direct or indirect reach (R39), no bridges
    bridge_spots: tuple[tuple[int, int], ...]  # printed bridge locations (R40)
    bridge_geometry: tuple[tuple[int, int], ...]  # every land pair at bridge distance (Moles, OP-47)
    land_positions: np.ndarray  # int16[#land]

    # -- dynamic helpers -------------------------------------------------------------------

    def adjacency(self, bridges: np.ndarray) -> np.ndarray:
        """Edge adjacency plus the built bridges (R38); ``bridges`` is an int array of (a, b) rows."""
        if len(bridges) == 0:
            return self.adj
        a = self.adj.copy()
        a[bridges[:, 0], bridges[:, 1]] = True
        a[bridges[:, 1], bridges[:, 0]] = True
        return a

    def reach_from(self, sources: np.ndarray, sailing: int, bridges: np.ndarray) -> np.ndarray:
        """bool[P]: land hexes in reach of at least one source position (R39)."""
        out = self.reach[min(sailing, MAX_SAILING)][sources].any(axis=0)
        for a, b in bridges:
            if sources[a]:
                out[b] = True
            if sources[b]:
                out[a] = True
        return out

    def ring_from(self, sources: np.ndarray, bridges: np.ndarray, depth: int) -> list[np.ndarray]:
        """[within 1, within 2, ...] bool masks of graph distance from ``sources`` (bridges count)."""
        a = self.adjacency(bridges)
        rings = []
        frontier = sources.copy()
        for _ in range(depth):
            frontier = frontier | a[frontier].any(axis=0)
            rings.append(frontier.copy())
        return rings

    def jump_targets(self, own: np.ndarray, bridges: np.ndarray, farthest: int) -> np.ndarray:
        """Land hexes at graph distance 2 .. ``farthest`` from an own building (a jump, R95, R129)."""
        rings = self.ring_from(own, bridges, farthest)
        return rings[-1] & ~rings[0] & self.land

    def tunnel_targets(self, own: np.ndarray, bridges: np.ndarray) -> np.ndarray:
        """Land hexes at distance exactly 2 from an own building (R95, OP-48; ``jumps.tunnel``)."""
        return self.jump_targets(own, bridges, load().jumps["tunnel"].farthest)

    def flight_targets(self, own: np.ndarray, bridges: np.ndarray) -> np.ndarray:
        """Land hexes at distance 2 or 3 from an own building (R129, OP-49; ``jumps.flight``)."""
        return self.jump_targets(own, bridges, load().jumps["flight"].farthest)

    def groups(self, positions: list[int], adjacency: np.ndarray) -> list[list[int]]:
        """Connected groups of ``positions`` under a symmetric bool relation (cities R43, R111, R83)."""
        left = set(positions)
        out = []
        while left:
            start = left.pop()
            group, todo = [start], [start]
            while todo:
                p = todo.pop()
                linked = [q for q in left if adjacency[p, q]]
                for q in linked:
                    left.discard(q)
                    group.append(q)
                    todo.append(q)
            out.append(sorted(group))
        out.sort()
        return out

    def area_relation(self, sailing: int, bridges: np.ndarray, jump: int) -> np.ndarray:
        """bool[P, P]: "in reach" for final area scoring (R83); ``jump`` = 2 (tunnel) or 3 (flight) or 0."""
        rel = self.reach[min(sailing, MAX_SAILING)].copy()
        if len(bridges):
            rel[bridges[:, 0], bridges[:, 1]] = True
            rel[bridges[:, 1], bridges[:, 0]] = True
        if jump:
            a = self.adjacency(bridges).astype(np.int32)
            m = a.copy()
            power = a.copy()
            for _ in range(jump - 1):
                power = np.minimum(power @ a, 1)
                m |= power
            rel |= m.astype(bool)
        return rel


def _build(m: MapData) -> Geometry:
    terrain = m.terrain
    play = terrain != Terrain.OFF
    land = terrain < Terrain.RIVER
    river = terrain == Terrain.RIVER
    adj = np.zeros((NUM_POSITIONS, NUM_POSITIONS), dtype=bool)
    cubes = [_cube(p) for p in range(NUM_POSITIONS)]
    for p in range(NUM_POSITIONS):
        if not play[p]:
            continue
        x, _, z = cubes[p]
        for dx, _, dz in _CUBE_DIRS:
            q = _from_cube(x + dx, z + dz)
            if q is not None and play[q]:
                adj[p, q] = True
    neighbors = tuple(tuple(int(q) for q in np.flatnonzero(adj[p])) for p in range(NUM_POSITIONS))

    # river distance: BFS from every land hex through river hexes only
    river_dist = np.full((NUM_POSITIONS, NUM_POSITIONS), FAR, dtype=np.int16)
    for src in np.flatnonzero(land):
        dist = {q: 1 for q in neighbors[src] if river[q]}
        frontier = list(dist)
        while frontier:
            nxt = []
            for q in frontier:
                for n in neighbors[q]:
                    if river[n] and n not in dist:
                        dist[n] = dist[q] + 1
                        nxt.append(n)
            frontier = nxt
        for q, d in dist.items():
            for n in neighbors[q]:
                if land[n] and n != src and d < river_dist[src, n]:
                    river_dist[src, n] = d
    river_dist = river_dist.clip(max=FAR).astype(np.int8)

    reach = np.zeros((MAX_SAILING + 1, NUM_POSITIONS, NUM_POSITIONS), dtype=bool)
    land_adj = adj & land[:, None] & land[None, :]
    for s in range(MAX_SAILING + 1):
        reach[s] = land_adj | (river_dist <= s)
        reach[s] &= land[:, None] & land[None, :]

    geo_pairs = set()
    for p in np.flatnonzero(land).tolist():
        x, _, z = cubes[p]
        for i in range(6):
            d1, d2 = _CUBE_DIRS[i], _CUBE_DIRS[(i + 1) % 6]
            q = _from_cube(x + d1[0] + d2[0], z + d1[2] + d2[2])
            if q is not None and land[q]:
                geo_pairs.add((min(p, q), max(p, q)))
    river_adjacent = land & (adj & river[None, :]).any(axis=1)
    for arr in (land, river, adj, river_dist, reach, river_adjacent):
        arr.setflags(write=False)
    return Geometry(
        name=m.name,
        terrain=terrain,
        land=land,
        river=river,
        border=m.border,
        river_adjacent=river_adjacent,
        adj=adj,
        neighbors=neighbors,
        river_dist=river_dist,
        reach=reach,
        bridge_spots=m.bridge_spots,
        bridge_geometry=tuple(sorted(geo_pairs)),
        land_positions=np.flatnonzero(land).astype(np.int16),
    )


@functools.cache
def geometry(name: str) -> Geometry:
    """The static geometry of a board side ("3-5" or "1-3"), built once per process."""
    return _build(load().map_for(name))
