"""Cities (R43-R45, OP-21, OP-32, OP-33, palace 8 and 14).

A seat's buildings form groups under adjacency (bridges included, sailing reach not).  A group
touching an existing city joins it (OP-21); a group with no city buildings founds one when it has
enough buildings (4; 3 with a University; 2 with the Monument; a pavilion counts twice) and
enough power (7; 6 with palace 8).  Each new city asks the seat for a city tile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from aoi_env.core import pending
from aoi_env.core.pending import Kind
from aoi_env.core.state import H_BUILDING, H_CITY, H_OWNER, H_PAVILION, H_RIVER_CITY, P_PALACE_TILE
from aoi_env.data.enums import Building

if TYPE_CHECKING:
    from aoi_env.core.engine import Game


def _requirements(g: Game, seat: int) -> tuple[int, int, int, int]:
    rule = g.data.raw["city_rule"]
    need_power = rule["power"]
    tile = int(g.state.players[seat, P_PALACE_TILE])
    if tile >= 0 and g.tab.palace_flags[tile]["city_power"]:
        need_power = g.tab.palace_flags[tile]["city_power"]
    return rule["buildings"], rule["university_buildings"], rule["monument_buildings"], need_power


def qualifies(g: Game, seat: int, group: list[int]) -> bool:
    """Does this group of buildings meet the founding requirements (R43)?"""
    h = g.state.hexes
    idx = np.asarray(group)
    kinds = h[idx, H_BUILDING]
    count = len(group) + int(h[idx, H_PAVILION].sum())  # a pavilion counts as 2 buildings
    base, with_univ, with_monument, need_power = _requirements(g, seat)
    need = base
    if (kinds == Building.UNIVERSITY).any():
        need = min(need, with_univ)
    if (kinds == Building.MONUMENT).any():
        need = min(need, with_monument)
    strength = int(g.building_power[kinds].sum() + h[idx, H_PAVILION].sum())
    return count >= need and strength >= need_power


def check(g: Game, seat: int) -> None:
    """Join buildings to cities and found new ones; push a city-tile choice per new city."""
    h = g.state.hexes
    positions = [int(p) for p in np.flatnonzero((h[:, H_OWNER] == seat) & (h[:, H_BUILDING] > 0))]
    groups = g.geo.groups(positions, g.adjacency())
    fresh: list[list[int]] = []
    for group in groups:
        if h[group, H_CITY].any():
            h[group, H_CITY] = 1  # OP-21: buildings connected to a city join it
        else:
            fresh.append(group)
    founded = 0
    for group in fresh:
        if not h[group, H_CITY].any() and qualifies(g, seat, group):
            h[group, H_CITY] = 1
            founded += 1
    tile = int(g.state.players[seat, P_PALACE_TILE])
    if tile >= 0 and g.tab.palace_flags[tile]["river_city"]:
        founded += _river_cities(g, seat, [grp for grp in fresh if not h[grp, H_CITY].any()])
    for _ in range(founded):
        pending.push(g.state, Kind.CHOOSE_CITY, seat, 0)


def _river_cities(g: Game, seat: int, groups: list[list[int]]) -> int:
    """Palace 14: two groups separated by one river hex may found a city together (R134)."""
    h = g.state.hexes
    adj = g.geo.adj
    founded = 0
    used = [False] * len(groups)
    for i, gi in enumerate(groups):
        for j in range(i + 1, len(groups)):
            if used[i] or used[j]:
                continue
            gj = groups[j]
            rivers = g.geo.river & adj[gi].any(axis=0) & adj[gj].any(axis=0)
            if rivers.any() and qualifies(g, seat, gi + gj):
                h[gi + gj, H_CITY] = 1
                h[int(np.flatnonzero(rivers)[0]), H_RIVER_CITY] = 1
                used[i] = used[j] = True
                founded += 1
    return founded
