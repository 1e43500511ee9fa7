"""Cities (R43-R45, OP-21, OP-32, OP-33, palace 8 and 14).

A seat's buildings form groups under adjacency (bridges included, sailing reach not).  A group
touching an existing city joins it (OP-21); a group with no city buildings founds one when it has
enough buildings (4; 3 with a University; 2 with the Monument; a pavilion counts twice, but only
towards the usual 4: [UA] C6 "для виконання звичайної вимоги в 4 будівлі") and enough power
(7; 6 with palace 8).  Each new city asks the seat for a city tile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from aoi_env.core import pending
from aoi_env.core.pending import Kind
from aoi_env.core.rules.terrain import hex_cache, owned_positions
from aoi_env.core.state import (
    H_BUILDING,
    H_CITY,
    H_PAVILION,
    H_RIVER_CITY,
    HEX_FIELDS,
    P_PALACE_TILE,
    PLAYER_FIELDS,
    turn_seat,
)
from aoi_env.data.enums import Building

if TYPE_CHECKING:
    from aoi_env.core.engine import Game


def _requirements(g: Game, seat: int) -> tuple[int, int, int, int]:
    rule = g.data.raw["city_rule"]
    need_power = rule["power"]
    tile = g.state.players_ints[seat * PLAYER_FIELDS + P_PALACE_TILE]
    if tile >= 0 and g.tab.palace_flags[tile]["city_power"]:
        need_power = g.tab.palace_flags[tile]["city_power"]
    return rule["buildings"], rule["university_buildings"], rule["monument_buildings"], need_power


def qualifies(g: Game, seat: int, group: list[int], hexes: bytes | None = None) -> bool:
    """Does this group of buildings meet the founding requirements (R43)?  ``hexes``: the hexes'
    bytes (``state.hexes.tobytes()``) when the caller has them; the two fields read are never
    negative, so a byte reads as the field (issue 10: ``hexes[group]`` cost ~12,000 instructions)."""
    if hexes is None:
        hexes = g.state.hexes.tobytes()
    kinds = []
    pavilions = 0
    for q in group:  # one loop, no comprehension frames (issue 10)
        start = q * HEX_FIELDS
        kinds.append(hexes[start + H_BUILDING])
        pavilions += hexes[start + H_PAVILION]
    return meets_requirements(g, seat, kinds, pavilions)


def meets_requirements(g: Game, seat: int, kinds: list[int], pavilions: int) -> bool:
    """R43 for a group given as its buildings' types and its number of pavilions."""
    power = g.data.building_power
    strength = pavilions
    for k in kinds:
        strength += power[k]
    base, with_univ, with_monument, need_power = _requirements(g, seat)
    if strength < need_power:
        return False
    need = base
    if _UNIVERSITY in kinds:
        need = min(need, with_univ)
    if _MONUMENT in kinds:
        need = min(need, with_monument)
    # C6: a pavilion counts as 2 buildings only for the usual requirement of 4 ([UA], [PL]), not
    # for the University's or the Monument's reduced one.
    return len(kinds) >= need or len(kinds) + pavilions >= base


_UNIVERSITY, _MONUMENT = int(Building.UNIVERSITY), int(Building.MONUMENT)  # plain ints: no enum look-ups


def connected_groups(g: Game, positions: list[int]) -> list[list[int]]:
    """``g.geo.groups(positions, g.adjacency())`` (edges and bridges, R38, R43) over neighbour lists."""
    nb = g.neighbours()
    left = set(positions)
    out = []
    while left:
        start = left.pop()
        group, todo = [start], [start]
        while todo:
            for q in nb[todo.pop()]:
                if q in left:
                    left.discard(q)
                    group.append(q)
                    todo.append(q)
        out.append(sorted(group))
    out.sort()
    return out


def check(g: Game, seat: int, tiles: bool = True) -> int:
    """Join buildings to cities and found new ones; push a city-tile choice per new city unless
    ``tiles`` is False (palace 15's parts: the tiles wait, OP-19).  Returns the cities founded.

    Reads the hexes from their cache key (its bytes; the building, pavilion and city fields are
    never negative) and writes only the city flags that change, through a byte view of the
    hexes (issue 10: the city column as a list and a fancy write per group cost ~17,000
    instructions a check)."""
    c = hex_cache(g)
    hexes = c.key  # the hexes before the writes below, which touch only city flags
    flags = memoryview(g.state.hexes).cast("B")  # the same memory, one byte per field
    fresh: list[list[int]] = []
    for group in connected_groups(g, owned_positions(g, seat, c)):
        outside = []  # a loop, not a comprehension: no frame (issue 10)
        for q in group:
            if not hexes[q * HEX_FIELDS + H_CITY]:
                outside.append(q)
        if len(outside) == len(group):
            fresh.append(group)
        else:  # OP-21: buildings connected to a city join it
            for q in outside:
                flags[q * HEX_FIELDS + H_CITY] = 1
    founded = 0
    for group in fresh:  # groups are disjoint: joining above never touches a fresh group
        if qualifies(g, seat, group, hexes):
            for q in group:
                flags[q * HEX_FIELDS + H_CITY] = 1
            founded += 1
    if not tiles:
        return founded
    if river_city_options(g, seat):
        pending.push(g.state, Kind.RIVER_CITY, seat)  # resolved after the new cities' tiles
    for _ in range(founded):
        pending.push(g.state, Kind.CHOOSE_CITY, seat, 0)
    return founded


def river_city_options(g: Game, seat: int) -> dict[int, list[int]]:
    """Palace 14 (R134): river hex -> the buildings of the non-city groups on its banks (two or
    more) that would found a city together across it.  The player decides whether and when to
    use it; in v1.2 only in their own turn ("у свій хід"), not when another player's bridge
    links the groups."""
    tile = g.state.players_ints[seat * PLAYER_FIELDS + P_PALACE_TILE]
    if tile < 0 or not g.tab.palace_flags[tile]["river_city"]:
        return {}
    if g.tab.palace_flags[tile]["river_city_own_turn"] and turn_seat(g.state) != seat:
        return {}
    h = g.state.hexes
    own = owned_positions(g, seat)
    groups = [grp for grp in connected_groups(g, own) if not h[grp, H_CITY].any()]
    if len(groups) < 2:
        return {}
    adj, river = g.geo.adj, g.geo.river
    banks = [(river & adj[grp].any(axis=0)) for grp in groups]  # river hexes next to each group
    out: dict[int, list[int]] = {}
    for r in np.flatnonzero(np.sum(banks, axis=0) >= 2).tolist():
        # ignoring r joins every group on its banks (all of them found the city, OP-32)
        joined = sorted(q for grp, bank in zip(groups, banks, strict=True) if bank[r] for q in grp)
        if qualifies(g, seat, joined):
            out[r] = joined
    return out


def found_river_city(g: Game, seat: int, river: int) -> None:
    """Found the city across ``river``: mark its groups and the river hex, then the tile choice."""
    group = river_city_options(g, seat)[river]
    g.state.hexes[group, H_CITY] = 1
    g.state.hexes[river, H_RIVER_CITY] = 1
    pending.push(g.state, Kind.RIVER_CITY, seat)  # another pair may still qualify
    pending.push(g.state, Kind.CHOOSE_CITY, seat, 0)
