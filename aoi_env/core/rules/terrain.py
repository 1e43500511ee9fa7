"""Terraforming (R34-R37, R61-R63) and reach (R39) for a player."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from aoi_env.core.state import (
    G_NUM_BRIDGES,
    G_PHASE,
    H_BUILDING,
    H_NEUTRAL,
    H_OWNER,
    H_TERRAIN,
    P_BOARD,
    P_BONUS,
    P_SAILING,
    P_TERRAFORMING,
    Phase,
)
from aoi_env.data import NUM_POSITIONS
from aoi_env.data.enums import Terrain

if TYPE_CHECKING:
    from aoi_env.core.engine import Game

CYCLE = 7
_BYTES = (NUM_POSITIONS + 7) // 8  # a position bit set as bytes


def spade_distance(terrain: int, native: int) -> int:
    """Spades from ``terrain`` to ``native`` along the cycle (R35); 0 if native."""
    d = (native - terrain) % CYCLE
    return min(d, CYCLE - d)


_DISTANCES = np.array(
    [[min((native - t) % CYCLE, CYCLE - (native - t) % CYCLE) for t in range(len(Terrain))] for native in range(CYCLE)],
    dtype=np.int16,
)  # spade_distance per (native, terrain); on river / off board it means nothing (callers mask by land)


def step_toward(terrain: int, native: int) -> int:
    """Terrain after one spade toward ``native`` on the shortest path (R36)."""
    d = (native - terrain) % CYCLE
    if d == 0:
        return terrain
    return (terrain + 1) % CYCLE if d <= CYCLE - d else (terrain - 1) % CYCLE


def tools_per_spade(g: Game, seat: int) -> int:
    """Current terraforming-track price of one spade (R37)."""
    p = g.state.players[seat]
    return g.data.boards[p[P_BOARD]].terraforming_tools[p[P_TERRAFORMING]]


class HexCache:
    """Values derived from ``state.hexes`` alone (plus the keys named), for one exact hexes content.

    ``hex_cache(g)`` returns the cache of the current hexes: a new one whenever any hex byte
    changed, so a cached value can never be stale.  The arrays handed out are read-only (callers
    combine them into new arrays).  Clones share the object until their hexes differ (issue 10).
    """

    __slots__ = ("key", "own", "typed", "owned", "reach", "dist", "empty", "extra")

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.own: dict[int, np.ndarray] = {}
        self.typed: dict[tuple[int, int], list[int]] | None = None  # see _index
        self.owned: dict[int, list[int]] = {}
        self.reach: dict[tuple, np.ndarray] = {}
        self.dist: dict[int, np.ndarray] = {}
        self.empty: np.ndarray | None = None
        self.extra: dict[tuple, np.ndarray] = {}  # for other modules (the observation's planes)


def hex_cache(g: Game) -> HexCache:
    key = g.state.hexes.tobytes()
    c = g.__dict__.get("_hex_cache")
    if c is None or c.key != key:
        c = g._hex_cache = HexCache(key)
    return c


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def own_mask(g: Game, seat: int) -> np.ndarray:
    """bool[P]: positions with a building of ``seat`` (neutral ones included, R39); read-only."""
    c = hex_cache(g)
    out = c.own.get(seat)
    if out is None:
        h = g.state.hexes
        out = c.own[seat] = _frozen((h[:, H_OWNER] == seat) & (h[:, H_BUILDING] > 0))
    return out


def sailing(g: Game, seat: int, final: bool = False) -> int:
    """Effective sailing: track value, +1 with bonus tile B1 during Phase II (R138, OP-41)."""
    p = g.state.players[seat]
    s = int(p[P_SAILING])  # an Automa's ship level of the round (AUTOMA.md §2.3)
    if not final and g.is_player(seat) and g.state.glob[G_PHASE] == Phase.ACTIONS and p[P_BONUS] >= 0:
        s += g.tab.bonus_reach[p[P_BONUS]]
    return s


def _index(g: Game) -> HexCache:
    """The hexes' cache with its building index filled: ``typed[(seat, type)]`` the positions of
    the seat's own (non-neutral) buildings of a type, ``owned[seat]`` of all its buildings
    (neutral ones included), ascending; one pass over the built hexes for every seat."""
    c = hex_cache(g)
    if c.typed is None:
        h = g.state.hexes
        built = np.flatnonzero(h[:, H_BUILDING] > 0)
        typed: dict[tuple[int, int], list[int]] = {}
        owned: dict[int, list[int]] = {}
        for pos, (owner, btype, neutral) in zip(built.tolist(), h[built][:, _INDEX_FIELDS].tolist(), strict=True):
            owned.setdefault(owner, []).append(pos)
            if not neutral:
                typed.setdefault((owner, btype), []).append(pos)
        c.typed, c.owned = typed, owned
    return c


_INDEX_FIELDS = [H_OWNER, H_BUILDING, H_NEUTRAL]


def own_positions(g: Game, seat: int, btype: int) -> list[int]:
    """Positions of the seat's own (non-neutral) buildings of ``btype``, ascending; do not mutate."""
    return _index(g).typed.get((seat, btype), _NONE)


_NONE: list[int] = []  # the answer without such buildings (callers never mutate the lists)


def bits(mask: np.ndarray) -> int:
    """A bool[P] mask as a Python int with bit ``pos`` set for every true position."""
    return int.from_bytes(np.packbits(mask, bitorder="little").tobytes(), "little")


@functools.cache
def reach_table_bits(side: str, sail: int) -> tuple[int, ...]:
    """Per position, the ``reach`` table row (R39, no bridges) as bits."""
    from aoi_env.core.board import MAX_SAILING, geometry

    return tuple(bits(row) for row in geometry(side).reach[min(sail, MAX_SAILING)])


def reach_bits(g: Game, seat: int) -> int:
    """``reach(g, seat)`` as bits (same hexes: bridges, effective sailing), cached with the hexes."""
    c = hex_cache(g)
    s = g.state
    sail = sailing(g, seat)
    key = ("reach_bits", seat, sail, int(s.glob[G_NUM_BRIDGES]), s.bridges.tobytes())
    out = c.extra.get(key)
    if out is None:
        own = _index(g).owned.get(seat, _NONE)
        table = reach_table_bits(g.geo.name, sail)
        out = 0
        for q in own:
            out |= table[q]
        mine = set(own)
        for a, b in s.built_bridges().tolist():  # as Geometry.reach_from
            if a in mine:
                out |= 1 << b
            if b in mine:
                out |= 1 << a
        c.extra[key] = out
    return out


def land_bits(g: Game, seat: int) -> tuple[int, int]:
    """(empty non-native land, empty native land) for the seat's native terrain, as bits; cached."""
    c = hex_cache(g)
    native = int(g.state.players[seat, P_BOARD])
    key = ("land_bits", native)
    out = c.extra.get(key)
    if out is None:
        empty, by_terrain = _terrain_bits(g, c)
        mine = by_terrain[native]  # = spade distance 0 on land (native -1 reads as row 6, as in _DISTANCES)
        out = c.extra[key] = (empty & ~mine, empty & mine)
    return out


def _terrain_bits(g: Game, c: HexCache) -> tuple[int, list[int]]:
    """(empty land, [land hexes of each terrain type 0..6]) as bits, once per hexes content for
    every seat's ``land_bits``."""
    out = c.extra.get("terrain_bits")
    if out is None:
        planes = g.state.hexes[:, H_TERRAIN][None, :] == _LAND_TYPES[:, None]
        packed = np.packbits(planes, axis=1, bitorder="little")
        out = c.extra["terrain_bits"] = (bits(empty_land(g)), [int.from_bytes(r.tobytes(), "little") for r in packed])
    return out


_LAND_TYPES = np.arange(CYCLE, dtype=np.int8)


def reach(g: Game, seat: int) -> np.ndarray:
    """bool[P]: land hexes in reach of the seat's buildings (R39); read-only."""
    c = hex_cache(g)
    s = g.state
    sail = sailing(g, seat)
    key = (seat, sail, int(s.glob[G_NUM_BRIDGES]), s.bridges.tobytes())
    out = c.reach.get(key)
    if out is None:  # unpacked from the bit set: the Python-int union is cheaper than the table rows
        packed = np.frombuffer(reach_bits(g, seat).to_bytes(_BYTES, "little"), dtype=np.uint8)
        out = c.reach[key] = _frozen(np.unpackbits(packed, count=NUM_POSITIONS, bitorder="little").view(bool))
    return out


def empty_land(g: Game) -> np.ndarray:
    """bool[P]: land hexes without a building; read-only."""
    c = hex_cache(g)
    if c.empty is None:
        c.empty = _frozen(g.geo.land & (g.state.hexes[:, H_BUILDING] == 0))
    return c.empty


def distances_to_native(g: Game, seat: int) -> np.ndarray:
    """int[P]: spades each position needs to become the seat's native terrain (R35); read-only."""
    native = int(g.state.players[seat, P_BOARD])
    c = hex_cache(g)
    out = c.dist.get(native)
    if out is None:
        out = c.dist[native] = _frozen(_DISTANCES[native][g.state.hexes[:, H_TERRAIN]])
    return out


def apply_spades(g: Game, seat: int, pos: int, n: int) -> None:
    """Move the hex ``n`` steps toward the seat's native terrain (R36) and fire the spade event."""
    from aoi_env.core.effects import fire

    native = int(g.state.players[seat, P_BOARD])
    t = int(g.state.hexes[pos, H_TERRAIN])
    for _ in range(n):
        t = step_toward(t, native)
    g.state.hexes[pos, H_TERRAIN] = t
    fire(g, seat, "spade", n)
