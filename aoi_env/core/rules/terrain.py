"""Terraforming (R34-R37, R61-R63) and reach (R39) for a player."""

from __future__ import annotations

import functools
import struct
from typing import TYPE_CHECKING, Any

import numpy as np

from aoi_env.core.state import (
    G_NUM_BRIDGES,
    G_PHASE,
    H_BUILDING,
    H_NEUTRAL,
    H_OWNER,
    H_TERRAIN,
    HEX_FIELDS,
    P_BOARD,
    P_BONUS,
    P_PASSED,
    P_SAILING,
    P_TERRAFORMING,
    PLAYER_FIELDS,
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

    __slots__ = ("key", "own", "typed", "owned", "reach", "dist", "empty", "extra", "prev", "changed")

    def __init__(self, key: bytes, prev: HexCache | None = None) -> None:
        self.key = key
        self.own: dict[int, np.ndarray] = {}
        self.typed: dict[tuple[int, int], list[int]] | None = None  # see _index
        self.owned: dict[int, list[int]] = {}
        self.reach: dict[tuple, np.ndarray] = {}
        self.dist: dict[int, np.ndarray] = {}
        self.empty: np.ndarray | None = None
        self.extra: dict[tuple, np.ndarray] = {}  # for other modules (the observation's planes)
        self.prev = prev  # the cache of the hexes before the last change (one level), see _changed
        self.changed: list[int] | None = None


def hex_cache(g: Game) -> HexCache:
    key = g.state.hexes.tobytes()
    c = g.__dict__.get("_hex_cache")
    if c is None or c.key != key:
        if c is not None:
            c.prev = None  # keep one level: a cache is derived from its predecessor or from scratch
        c = g._hex_cache = HexCache(key, c)
    return c


_MAX_CHANGED = 6  # more changed hexes than this: derive from scratch


def _changed(c: HexCache) -> list[int] | None:
    """The positions whose hex differs from the previous cache's (ascending), or None when there
    is no previous cache or more than ``_MAX_CHANGED`` hexes changed (issue 10: a build or a
    terraform changes one or two hexes, so the derived values are updated instead of rebuilt)."""
    prev = c.prev
    if prev is None:
        return None
    if c.changed is None:  # the two keys as integers: their XOR has bits only in changed hexes
        diff = int.from_bytes(c.key, "little") ^ int.from_bytes(prev.key, "little")
        changed = []
        while diff and len(changed) <= _MAX_CHANGED:  # lowest first: ascending; stop once too many
            pos = ((diff & -diff).bit_length() - 1) // _HEX_BITS
            changed.append(pos)
            diff >>= (pos + 1) * _HEX_BITS
            diff <<= (pos + 1) * _HEX_BITS
        c.changed = changed
    return c.changed if len(c.changed) <= _MAX_CHANGED else None


_HEX_BITS = HEX_FIELDS * 8  # one hex's int8 fields in the key's bits
_HEX_ROW = struct.Struct(f"{HEX_FIELDS}b")
"""``_HEX_ROW.unpack_from(key, pos * HEX_FIELDS)``: a hex's fields (int8) as ints, from a cache key."""


def _hex_fields(key: bytes, pos: int) -> tuple[int, ...]:
    """The hex fields of ``pos`` in a cache key (the hexes' bytes), as ints, in one C call."""
    return _HEX_ROW.unpack_from(key, pos * HEX_FIELDS)


def _previous_hex(c: HexCache, pos: int) -> tuple[int, ...]:
    """The previous cache's hex fields of ``pos`` (as ints)."""
    assert c.prev is not None
    return _hex_fields(c.prev.key, pos)


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
    """Effective sailing: track value, +1 with bonus tile B1 during Phase II (R138, OP-41), not
    from a tile taken at pass, which lies face down until the next round (R78.2)."""
    s = g.state
    players, row = s.players_ints, seat * PLAYER_FIELDS  # Python ints: cheaper than item() (issue 10)
    sail = players[row + P_SAILING]  # an Automa's ship level of the round (AUTOMA.md §2.3)
    if final or seat >= g.config.players or s.glob_ints[G_PHASE] != Phase.ACTIONS:  # not is_player: no call
        return sail
    bonus = players[row + P_BONUS]
    if bonus >= 0 and not players[row + P_PASSED]:
        return sail + g.tab.bonus_reach[bonus]  # 0 for the tiles without B1's reach
    return sail


def _index(g: Game, c: HexCache | None = None) -> HexCache:
    """The hexes' cache with its building index filled: ``typed[(seat, type)]`` the positions of
    the seat's own (non-neutral) buildings of a type, ``owned[seat]`` of all its buildings
    (neutral ones included), ascending; one pass over the built hexes for every seat, or the
    previous index updated at the changed hexes.  ``c``: ``hex_cache(g)``, when the caller has it
    (issue 10: each call takes the hexes' bytes again, ~0.4 µs)."""
    if c is None:
        c = hex_cache(g)
    if c.typed is None:
        prev = c.prev
        changed = _changed(c) if prev is not None and prev.typed is not None else None
        if changed is not None:
            c.typed, c.owned = _index_update(g, c, prev.typed, prev.owned, changed)
            return c
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


def _index_update(
    g: Game, c: HexCache, typed: dict[tuple[int, int], list[int]], owned: dict[int, list[int]], changed: list[int]
) -> tuple[dict[tuple[int, int], list[int]], dict[int, list[int]]]:
    """The building index of the previous hexes with the ``changed`` positions moved; the lists
    of the previous index are shared where unchanged (no list is ever mutated)."""
    typed_out, owned_out = typed, owned  # copied on the first real change
    for pos in changed:
        was, now = _previous_hex(c, pos), _hex_fields(c.key, pos)  # c: the current hexes' cache
        old = (was[H_OWNER], was[H_BUILDING], was[H_NEUTRAL])
        new = (now[H_OWNER], now[H_BUILDING], now[H_NEUTRAL])
        if old == new:
            continue  # terraformed, a city or a mark: no building moved
        if typed_out is typed:
            typed_out, owned_out = dict(typed), dict(owned)
        for (owner, btype, neutral), add in ((old, False), (new, True)):
            if btype <= 0:
                continue
            _move(owned_out, owner, pos, add)
            if not neutral:
                _move(typed_out, (owner, btype), pos, add)
    return typed_out, owned_out


def _move(index: dict, key: Any, pos: int, add: bool) -> None:
    """Add ``pos`` to (or remove it from) ``index[key]`` as a new ascending list."""
    positions = index.get(key, _NONE)
    if add:
        index[key] = sorted([*positions, pos])
    else:
        rest = [q for q in positions if q != pos]
        if rest:
            index[key] = rest
        else:
            index.pop(key, None)


_INDEX_FIELDS = [H_OWNER, H_BUILDING, H_NEUTRAL]


def own_positions(g: Game, seat: int, btype: int) -> list[int]:
    """Positions of the seat's own (non-neutral) buildings of ``btype``, ascending; do not mutate."""
    return _index(g).typed.get((seat, btype), _NONE)


_NONE: list[int] = []  # the answer without such buildings (callers never mutate the lists)


def owned_positions(g: Game, seat: int, c: HexCache | None = None) -> list[int]:
    """Positions of all the seat's buildings, neutral ones included (``own_mask``'s true
    positions), ascending; do not mutate (issue 10: no mask, no ``flatnonzero``).  ``c``: the
    hexes' cache, when the caller has it."""
    return _index(g, c).owned.get(seat, _NONE)


def bits(mask: np.ndarray) -> int:
    """A bool[P] mask as a Python int with bit ``pos`` set for every true position."""
    return int.from_bytes(np.packbits(mask, bitorder="little").tobytes(), "little")


def positions(bit_set: int) -> list[int]:
    """The positions of a bit set (``bits``), ascending: ``np.flatnonzero`` of its mask as ints."""
    out = []
    while bit_set:
        low = bit_set & -bit_set
        out.append(low.bit_length() - 1)
        bit_set ^= low
    return out


def empty_land_bits(g: Game) -> int:
    """``empty_land(g)`` as bits, cached with the hexes."""
    return _terrain_bits(g, hex_cache(g))[0]


@functools.cache
def reach_table_bits(side: str, sail: int) -> tuple[int, ...]:
    """Per position, the ``reach`` table row (R39, no bridges) as bits."""
    from aoi_env.core.board import MAX_SAILING, geometry

    return tuple(bits(row) for row in geometry(side).reach[min(sail, MAX_SAILING)])


def reach_bits(g: Game, seat: int, c: HexCache | None = None) -> int:
    """``reach(g, seat)`` as bits (same hexes: bridges, effective sailing), cached with the hexes.

    Reach depends only on the seat's building positions, its sailing and the built bridges, so
    a miss (after any hex changed) first looks in a per-game memo keyed by exactly those; most
    hex changes are other seats' builds and terraforms, which leave the seat's reach as it was.
    ``c``: ``hex_cache(g)``, when the caller has it."""
    if c is None:
        c = hex_cache(g)
    s = g.state
    sail = sailing(g, seat)
    bridges = s.bridges.tobytes()
    n_bridges = s.glob_ints[G_NUM_BRIDGES]
    key = ("reach_bits", seat, sail, n_bridges, bridges)
    out = c.extra.get(key)
    if out is None:
        own = _index(g, c).owned.get(seat, _NONE)
        memo = g.__dict__.get("_reach_memo")
        if memo is None or len(memo) > _REACH_MEMO_SIZE:
            memo = g._reach_memo = {}  # shared by clones: the key determines the value
        memo_key = (sail, n_bridges, bridges, tuple(own))
        out = memo.get(memo_key)
        if out is None:
            table = reach_table_bits(g.geo.name, sail)
            out = 0
            for q in own:
                out |= table[q]
            mine = set(own)
            for a, b in s.bridge_ends():  # as Geometry.reach_from
                if a in mine:
                    out |= 1 << b
                if b in mine:
                    out |= 1 << a
            memo[memo_key] = out
        c.extra[key] = out
    return out


_REACH_MEMO_SIZE = 4096  # entries before the per-game reach memo starts over


def land_bits(g: Game, seat: int, c: HexCache | None = None) -> tuple[int, int]:
    """(empty non-native land, empty native land) for the seat's native terrain, as bits; cached.
    ``c``: ``hex_cache(g)``, when the caller has it."""
    if c is None:
        c = hex_cache(g)
    native = g.state.players_ints[seat * PLAYER_FIELDS + P_BOARD]  # not item(): ~400 instructions less
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
        prev = c.prev
        changed = _changed(c) if prev is not None and "terrain_bits" in prev.extra else None
        if changed is not None:
            out = c.extra["terrain_bits"] = _terrain_bits_update(g, c, prev.extra["terrain_bits"], changed)
            return out
        planes = g.state.hexes[:, H_TERRAIN][None, :] == _LAND_TYPES[:, None]
        packed = np.packbits(planes, axis=1, bitorder="little")
        out = c.extra["terrain_bits"] = (bits(empty_land(g)), [int.from_bytes(r.tobytes(), "little") for r in packed])
    return out


_LAND_TYPES = np.arange(CYCLE, dtype=np.int8)


def _terrain_bits_update(
    g: Game, c: HexCache, before: tuple[int, list[int]], changed: list[int]
) -> tuple[int, list[int]]:
    """``_terrain_bits`` of the previous hexes with the ``changed`` positions updated."""
    empty, by_terrain = before[0], list(before[1])
    land = g.geo.land
    for pos in changed:
        bit = 1 << pos
        was = _previous_hex(c, pos)[H_TERRAIN]
        fields = _hex_fields(c.key, pos)  # c: the current hexes' cache
        now = fields[H_TERRAIN]
        if was != now:
            if 0 <= was < CYCLE:
                by_terrain[was] &= ~bit
            if 0 <= now < CYCLE:
                by_terrain[now] |= bit
        if land[pos] and fields[H_BUILDING] == 0:  # empty_land
            empty |= bit
        else:
            empty &= ~bit
    return empty, by_terrain


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


def spades_to_native(g: Game, seat: int, pos: int) -> int:
    """``distances_to_native(g, seat)[pos]`` as an int, without the array: the callers that ask
    for one hex (issue 10: a miss of the array's cache cost ~16,000 instructions)."""
    s = g.state
    return spade_distance(s.hexes.item(pos, H_TERRAIN), s.players_ints[seat * PLAYER_FIELDS + P_BOARD])


def distances_to_native(g: Game, seat: int) -> np.ndarray:
    """int[P]: spades each position needs to become the seat's native terrain (R35); read-only."""
    native = g.state.players.item(seat, P_BOARD)
    c = hex_cache(g)
    out = c.dist.get(native)
    if out is None:
        out = c.dist[native] = _frozen(_DISTANCES[native][g.state.hexes[:, H_TERRAIN]])
    return out


def apply_spades(g: Game, seat: int, pos: int, n: int) -> None:
    """Move the hex ``n`` steps toward the seat's native terrain (R36) and fire the spade event."""
    native = int(g.state.players[seat, P_BOARD])
    t = int(g.state.hexes[pos, H_TERRAIN])
    for _ in range(n):
        t = step_toward(t, native)
    g.state.hexes[pos, H_TERRAIN] = t
    effects.fire(g, seat, "spade", n)


# At the bottom: effects imports this module (a function-level import cost ~1.5 µs a call, issue 10).
from aoi_env.core import effects  # noqa: E402
