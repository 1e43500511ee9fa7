"""Terraforming (R34-R37, R61-R63) and reach (R39) for a player."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from aoi_env.core.state import (
    G_PHASE,
    H_BUILDING,
    H_OWNER,
    H_TERRAIN,
    P_BOARD,
    P_BONUS,
    P_SAILING,
    P_TERRAFORMING,
    Phase,
)

if TYPE_CHECKING:
    from aoi_env.core.engine import Game

CYCLE = 7


def spade_distance(terrain: int, native: int) -> int:
    """Spades from ``terrain`` to ``native`` along the cycle (R35); 0 if native."""
    d = (native - terrain) % CYCLE
    return min(d, CYCLE - d)


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


def own_mask(g: Game, seat: int) -> np.ndarray:
    """bool[P]: positions with a building of ``seat`` (neutral ones included, R39)."""
    h = g.state.hexes
    return (h[:, H_OWNER] == seat) & (h[:, H_BUILDING] > 0)


def sailing(g: Game, seat: int, final: bool = False) -> int:
    """Effective sailing: track value, +1 with bonus tile B1 during Phase II (R138, OP-41)."""
    p = g.state.players[seat]
    s = int(p[P_SAILING])  # an Automa's ship level of the round (AUTOMA.md §2.3)
    if not final and g.is_player(seat) and g.state.glob[G_PHASE] == Phase.ACTIONS and p[P_BONUS] >= 0:
        s += g.tab.bonus_reach[p[P_BONUS]]
    return s


def reach(g: Game, seat: int) -> np.ndarray:
    """bool[P]: land hexes in reach of the seat's buildings (R39)."""
    return g.geo.reach_from(own_mask(g, seat), sailing(g, seat), g.state.built_bridges())


def empty_land(g: Game) -> np.ndarray:
    h = g.state.hexes
    return g.geo.land & (h[:, H_BUILDING] == 0)


def distances_to_native(g: Game, seat: int) -> np.ndarray:
    """int[P]: spades each position needs to become the seat's native terrain (R35)."""
    native = int(g.state.players[seat, P_BOARD])
    d = (native - g.state.hexes[:, H_TERRAIN].astype(np.int16)) % CYCLE
    return np.minimum(d, CYCLE - d)


def apply_spades(g: Game, seat: int, pos: int, n: int) -> None:
    """Move the hex ``n`` steps toward the seat's native terrain (R36) and fire the spade event."""
    from aoi_env.core.effects import fire

    native = int(g.state.players[seat, P_BOARD])
    t = int(g.state.hexes[pos, H_TERRAIN])
    for _ in range(n):
        t = step_toward(t, native)
    g.state.hexes[pos, H_TERRAIN] = t
    fire(g, seat, "spade", n)
