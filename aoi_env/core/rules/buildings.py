"""Buildings: placing, upgrading, power values, and the build event (R41, R42, R54, R55, R64-R70)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from aoi_env.core import pending
from aoi_env.core.pending import Kind
from aoi_env.core.rules import power
from aoi_env.core.state import (
    G_NEUTRAL_LEFT,
    G_PHASE,
    H_BUILDING,
    H_NEUTRAL,
    H_OWNER,
    H_PAVILION,
    HEX_FIELDS,
    P_BUILT,
    P_COINS,
    P_NEUTRAL_BUILT,
    P_TOOLS,
    P_VP,
    PLAYER_FIELDS,
    Phase,
    PlayerRow,
)
from aoi_env.data.enums import Building

if TYPE_CHECKING:
    from aoi_env.core.engine import Game

BUILT = P_BUILT.start
NEUTRAL_BUILT = P_NEUTRAL_BUILT.start

BUILD_EVENT = {
    Building.WORKSHOP: "build_workshop",
    Building.GUILD: "build_guild",
    Building.SCHOOL: "build_school",
    Building.UNIVERSITY: "build_university",
    Building.PALACE: "build_palace",
}


def pieces_left(g: Game, seat: int, btype: int) -> int:
    """Pieces of ``btype`` still on the seat's planning board (R3, R66)."""
    return g.data.building_pieces[btype] - g.state.players_ints[seat * PLAYER_FIELDS + BUILT + btype]  # issue 10


def count(g: Game, seat: int, btype: int) -> int:
    """Buildings of a type on the map, neutral copies included (OP-52)."""
    p = g.state.players[seat]
    return int(p[BUILT + btype] + p[NEUTRAL_BUILT + btype])


def power_values(g: Game) -> np.ndarray:
    """int[P]: power value of the building on each position, pavilion included (R41, C6)."""
    h = g.state.hexes
    return g.building_power[h[:, H_BUILDING]] + h[:, H_PAVILION]


def can_pay(player: PlayerRow | list[int], cost: dict[str, int]) -> bool:
    return bool(player[P_TOOLS] >= cost.get("tools", 0) and player[P_COINS] >= cost.get("coins", 0))


def pay(player: np.ndarray, cost: dict[str, int]) -> None:
    player[P_TOOLS] -= cost.get("tools", 0)
    player[P_COINS] -= cost.get("coins", 0)


def workshop_affordable(g: Game, seat: int) -> bool:
    """A Workshop piece is left and 1 tool + 2 coins can be paid (R64)."""
    return pieces_left(g, seat, Building.WORKSHOP) > 0 and can_pay(
        g.state.players[seat], g.data.building_cost[Building.WORKSHOP]
    )


def guild_cost(g: Game, seat: int, pos: int) -> dict[str, int]:
    """Workshop -> Guild: 2 tools + 6 coins, 3 coins next to another player's building (R67)."""
    cost = dict(g.data.building_cost[Building.GUILD])
    h = g.state.hexes
    for q in g.neighbours()[pos]:  # edges and bridges (R38)
        owner = h.item(q, H_OWNER)  # Python ints, not numpy scalars (issue 10)
        if owner >= 0 and owner != seat and h.item(q, H_BUILDING) > 0:
            cost["coins"] = g.data.raw["buildings"]["guild"]["coins_if_neighbour"]
            break
    return cost


def upgrade_cost(g: Game, seat: int, pos: int, new: int) -> dict[str, int]:
    if new == Building.GUILD:
        return guild_cost(g, seat, pos)
    return g.data.building_cost[new]


def place(g: Game, seat: int, pos: int, btype: int, neutral: bool = False) -> None:
    """Put a building on an empty hex (from the planning board, or a neutral piece)."""
    h = g.state.hexes[pos]
    h[H_BUILDING] = btype
    h[H_OWNER] = seat
    h[H_NEUTRAL] = 1 if neutral else 0
    p = g.state.players[seat]
    if neutral:
        p[NEUTRAL_BUILT + btype] += 1
        g.state.glob[G_NEUTRAL_LEFT.start + btype] -= 1
    else:
        p[BUILT + btype] += 1


def replace(g: Game, seat: int, pos: int, new: int) -> None:
    """Upgrade / swap in place: the old piece returns to its row (R54, R66)."""
    h = g.state.hexes[pos]
    p = g.state.players[seat]
    p[BUILT + int(h[H_BUILDING])] -= 1
    p[BUILT + new] += 1
    h[H_BUILDING] = new


def offers(g: Game, builder: int, pos: int) -> list[tuple[int, int]]:
    """(seat, power) offers to the other players after a build on ``pos`` (R42, OP-56).

    Each other player sums the power values of their own buildings adjacent to ``pos`` (edges
    and bridges, ``Game.neighbours``); the players are asked clockwise from the builder.  The
    hexes are read from their bytes (issue 10: a numpy mask per seat cost ~10,000 instructions).
    """
    hexes = g.state.hexes.tobytes()  # owner, building and pavilion of a built hex are never negative
    power = g.data.building_power
    n = g.state.seats
    sums = [0] * n
    for q in g.neighbours()[pos]:
        start = q * HEX_FIELDS
        btype = hexes[start + H_BUILDING]
        owner = hexes[start + H_OWNER]
        if btype and owner < n:
            sums[owner] += power[btype] + hexes[start + H_PAVILION]  # R41, C6
    out = []
    for k in range(1, n):
        seat = (builder + k) % n
        if sums[seat] > 0 and g.is_player(seat):
            out.append((seat, sums[seat]))
    return out


def effective_offer(player: np.ndarray, v: int) -> int:
    """Power actually gained when accepting: min(v, capacity, VP + 1) (R42.5)."""
    return min(v, power.capacity(player), int(player[P_VP]) + 1)


def after_build(g: Game, seat: int, pos: int, btype: int) -> list[tuple[int, int]]:
    """The build event (R55): per-build VP now, then power offers, then the city check.

    Acquisition effects (palace tile, competency) must already be on the stack below.  Returns
    the ``offers`` of the build (none at setup), which the Automa's Powermongers record (§10 #13).
    """
    event = BUILD_EVENT.get(Building(btype))
    if event:
        effects.fire(g, seat, event)
        if btype == Building.WORKSHOP:
            if g.geo.river_adjacent[pos]:
                effects.fire(g, seat, "build_workshop_river")
            if g.geo.border[pos]:
                effects.fire(g, seat, "build_workshop_border")
    if g.is_player(seat):  # the Automa founds no cities (AUTOMA.md §10 #26)
        pending.push(g.state, Kind.CITY_CHECK, seat)
    if g.state.glob.item(G_PHASE) == Phase.SETUP:
        return []  # OP-56: setup placements make no offers (C10's Tower taken at setup, R22, R23)
    made = offers(g, seat, pos)
    for other, v in reversed(made):
        if effective_offer(g.state.players[other], v) > 0:
            pending.push(g.state, Kind.OFFER, other, v, seat)
    return made


# At the bottom: effects imports this module (a function-level import cost ~1.5 µs a call, issue 10).
from aoi_env.core import effects  # noqa: E402
