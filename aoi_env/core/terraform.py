"""Terraform & Build as a sequence of decisions (R60-R65, OP-34, OP-35, OP-48, OP-49).

A TB has ``free`` spades (0 for the plain action paid with tools) and flags (``TB_*``):

1. ``TB_TARGET``: the first hex, in reach and unbuilt; non-native if a spade can be paid, or
   native if a Workshop can be built (OP-35).  ``tunnel`` / ``fly`` switch to a jump target
   (Moles R95 for 1 tool, palace 9 R129 for 1 scholar; at most one per TB, OP-48/49).
2. ``TB_SPADES``: how many spades on that hex; free ones first, tools buy the missing ones only
   if the free spades cannot finish the hex (R63.1); stopping short is allowed (R63.2).
3. ``TB_FINISH``: once the hex is native, leftover free spades go one by one to other hexes in
   reach (R63.3), then the one Workshop on the first hex, or ``done``.

Phase III and setup spades use ``SPADES`` (split freely, no buying, no Workshop: R81, OP-36/37);
neutral buildings use ``NEUTRAL_PLACE`` (tools only, no jumps: R46, OP-38).
"""

from __future__ import annotations

import numpy as np

from aoi_env.core import pending
from aoi_env.core.board import hex_name
from aoi_env.core.effects import fire
from aoi_env.core.engine import Game, applies, decision
from aoi_env.core.moves import BUILDING_BASE, CONVERT_BASE, COUNT_BASE, DONE, FLY, HEX_BASE, NUM_CONVERSIONS, TUNNEL
from aoi_env.core.pending import TB_BUILD, TB_BUY, TB_LIZARD, TB_NO_JUMP, Kind, Row
from aoi_env.core.rules import buildings, terrain
from aoi_env.core.state import (
    G_NEUTRAL_LEFT,
    G_NUM_BRIDGES,
    H_BUILDING,
    P_BOARD,
    P_BOOKS,
    P_COINS,
    P_FACTION,
    P_NEUTRAL_PALACE,
    P_PALACE_TILE,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_TERRAFORMING,
    P_TOOLS,
    turn_seat,
)
from aoi_env.data import load
from aoi_env.data.enums import Building

WORKSHOP_ID = BUILDING_BASE + Building.WORKSHOP - 1


_WORKSHOP = int(Building.WORKSHOP)
TUNNEL_TOOLS = load().jumps["tunnel"].amount  # R95: tools per tunnel
FLIGHT_SCHOLARS = load().jumps["flight"].amount  # R129: scholars per flight, back to the supply


def _can_tunnel(g: Game, pl: list[int]) -> bool:
    """The seat's faction tunnels (R95); ``pl``: its player row as plain ints."""
    return bool(g.tab.faction_flags[pl[P_FACTION]]["tunnel"])


def _can_fly(g: Game, pl: list[int]) -> bool:
    """The seat's palace tile gives flight (R129); ``pl``: its player row as plain ints."""
    tile = pl[P_PALACE_TILE]
    return tile >= 0 and bool(g.tab.palace_flags[tile]["flight"])


def _targets(g: Game, seat: int, area: np.ndarray, free: int, flags: int, tools: int, coins_ok: bool) -> np.ndarray:
    """First-hex candidates inside ``area`` given the tools left after any jump cost."""
    dist = terrain.distances_to_native(g, seat)
    empty = terrain.empty_land(g) & area
    rate = terrain.tools_per_spade(g, seat)
    spade_ok = free > 0 or (flags & TB_BUY and tools >= rate)
    out = empty & (dist > 0) if spade_ok else np.zeros_like(empty)
    if flags & TB_BUILD and not flags & TB_LIZARD:
        cost = g.data.building_cost[Building.WORKSHOP]
        if buildings.pieces_left(g, seat, Building.WORKSHOP) > 0 and tools >= cost["tools"] and coins_ok:
            out = out | (empty & (dist == 0))
    return out


def _coins_for_workshop(g: Game, seat: int) -> bool:
    return bool(g.state.players[seat, P_COINS] >= g.data.building_cost[Building.WORKSHOP]["coins"])


def _plain_targets(g: Game, seat: int, free: int, flags: int) -> np.ndarray:
    p = g.state.players[seat]
    return _targets(g, seat, terrain.reach(g, seat), free, flags, int(p[P_TOOLS]), _coins_for_workshop(g, seat))


def _tunnel_targets(g: Game, seat: int, free: int, flags: int) -> np.ndarray:
    p = g.state.players[seat]
    if flags & TB_NO_JUMP or not _can_tunnel(g, p.tolist()) or p[P_TOOLS] < TUNNEL_TOOLS:
        return np.zeros(len(g.geo.land), dtype=bool)
    area = g.geo.tunnel_targets(terrain.own_mask(g, seat), g.state.built_bridges())
    return _targets(g, seat, area, free, flags, int(p[P_TOOLS]) - TUNNEL_TOOLS, _coins_for_workshop(g, seat))


def _fly_targets(g: Game, seat: int, free: int, flags: int) -> np.ndarray:
    p = g.state.players[seat]
    if flags & TB_NO_JUMP or not _can_fly(g, p.tolist()) or p[P_SCHOLARS] < FLIGHT_SCHOLARS:
        return np.zeros(len(g.geo.land), dtype=bool)
    area = g.geo.flight_targets(terrain.own_mask(g, seat), g.state.built_bridges())
    return _targets(g, seat, area, free, flags, int(p[P_TOOLS]), _coins_for_workshop(g, seat))


def has_tb_target(g: Game, seat: int, free: int, flags: int, pl: list[int] | None = None) -> bool:
    """Some first hex exists for a TB with these free spades and flags (no dead ends).

    The same answer as ``_plain_targets(...).any() or _tunnel_targets(...).any() or
    _fly_targets(...).any()``, from two cached facts per area: does it hold an empty non-native
    hex, an empty native hex (``_area_facts``; issue 10).  ``pl``: the seat's player row as
    plain ints, when the caller has it.
    """
    if pl is None:
        pl = g.state.players[seat].tolist()
    return _tb_possible(g, seat, "reach", free, flags, pl[P_TOOLS], pl) or bool(_jumps(g, seat, free, flags, pl))


def _jumps(g: Game, seat: int, free: int, flags: int, pl: list[int]) -> list[int]:
    """[TUNNEL] / [FLY] / both when that jump leads to a first hex: ``_tunnel_targets(...).any()``
    and ``_fly_targets(...).any()`` from the cached area facts."""
    out = []
    if flags & TB_NO_JUMP:
        return out
    tools = pl[P_TOOLS]
    if (
        tools >= TUNNEL_TOOLS
        and _can_tunnel(g, pl)
        and _tb_possible(g, seat, "tunnel", free, flags, tools - TUNNEL_TOOLS, pl)
    ):
        out.append(TUNNEL)  # R95: the tunnel costs tools
    if pl[P_SCHOLARS] >= FLIGHT_SCHOLARS and _can_fly(g, pl) and _tb_possible(g, seat, "fly", free, flags, tools, pl):
        out.append(FLY)  # R129: the flight costs a scholar
    return out


def _dig_or_build(g: Game, free: int, flags: int, tools: int, pl: list[int]) -> tuple[bool, bool]:
    """(a spade can be had, a Workshop can be built) for a first hex, with ``tools`` left after
    any jump: the two conditions of ``_targets`` from the player row as plain ints."""
    data = g.data
    # tools >= terrain.tools_per_spade(g, seat), from the list
    dig = free > 0 or bool(flags & TB_BUY and tools >= data.boards[pl[P_BOARD]].terraforming_tools[pl[P_TERRAFORMING]])
    build = False
    if flags & TB_BUILD and not flags & TB_LIZARD:
        cost = data.building_cost[_WORKSHOP]
        build = (
            pl[buildings.BUILT + _WORKSHOP] < data.building_pieces[_WORKSHOP]  # buildings.pieces_left > 0
            and tools >= cost["tools"]
            and pl[P_COINS] >= cost["coins"]
        )
    return dig, build


def _tb_possible(g: Game, seat: int, area: str, free: int, flags: int, tools: int, pl: list[int]) -> bool:
    """``_targets(...).any()`` for the ``area`` (reach / tunnel / fly): a non-native empty hex to
    dig, or a native empty hex to build on; the area is looked at only when the seat can do one."""
    dig, build = _dig_or_build(g, free, flags, tools, pl)
    if not dig and not build:
        return False
    non_native, native = _area_facts(g, seat, area, pl[P_BOARD])
    return bool((dig and non_native) or (build and native))


def _reach_target_ids(g: Game, seat: int, free: int, flags: int, pl: list[int]) -> list[int]:
    """``_hexes(_plain_targets(...))`` from the reach and land bit sets (issue 10)."""
    dig, build = _dig_or_build(g, free, flags, pl[P_TOOLS], pl)
    if not dig and not build:
        return []
    reach = terrain.reach_bits(g, seat)
    non_native, native = terrain.land_bits(g, seat)
    targets = reach & ((non_native if dig else 0) | (native if build else 0))
    out = []
    while targets:
        low = targets & -targets
        out.append(HEX_BASE + low.bit_length() - 1)
        targets ^= low
    return out


def _area_facts(g: Game, seat: int, kind: str, board: int) -> tuple[bool, bool]:
    """(an empty non-native land hex, an empty native land hex) in the seat's reach / tunnel / flight
    area, cached with the hexes (``terrain.hex_cache``); ``board``: the seat's planning board (its
    native terrain), which the caller has as an int."""
    s = g.state
    if kind == "reach":  # the frequent case, with bit sets
        c = terrain.hex_cache(g)
        key = ("tb_reach", seat, board, terrain.sailing(g, seat), s.glob_ints[G_NUM_BRIDGES], s.bridges.tobytes())
        facts = c.extra.get(key)
        if facts is None:
            reach = terrain.reach_bits(g, seat, c)
            non_native, native_land = terrain.land_bits(g, seat, c)
            facts = c.extra[key] = (bool(reach & non_native), bool(reach & native_land))
        return facts
    key = ("tb_facts", kind, seat, board, s.glob_ints[G_NUM_BRIDGES], s.bridges.tobytes())
    cache = terrain.hex_cache(g).extra
    facts = cache.get(key)
    if facts is None:
        if kind == "tunnel":
            area = g.geo.tunnel_targets(terrain.own_mask(g, seat), s.built_bridges())
        else:
            area = g.geo.flight_targets(terrain.own_mask(g, seat), s.built_bridges())
        empty = terrain.empty_land(g) & area
        dist = terrain.distances_to_native(g, seat)
        facts = cache[key] = (bool((empty & (dist > 0)).any()), bool((empty & (dist == 0)).any()))
    return facts


def _hexes(mask: np.ndarray) -> list[int]:
    return [HEX_BASE + int(p) for p in np.flatnonzero(mask)]


# --------------------------------------------------------------------------------------------
# TB_TARGET / TB_TUNNEL / TB_FLY


def _target_text(g: Game, row: Row, a: int) -> str:
    if CONVERT_BASE <= a < CONVERT_BASE + NUM_CONVERSIONS:
        from aoi_env.core.turn import describe_turn

        return describe_turn(g, row, a)
    if a == TUNNEL:
        return "tunnel"
    if a == FLY:
        return "fly"
    if a == DONE:
        return "skip"
    return f"target {hex_name(a - HEX_BASE)}"


@decision(Kind.TB_TARGET, _target_text)
def _target_legal(g: Game, row: Row) -> list[int]:
    seat, free, flags = row[1], row[2], row[3]
    pl = g.state.players[seat].tolist()
    out = _reach_target_ids(g, seat, free, flags, pl) + _jumps(g, seat, free, flags, pl)
    if flags & TB_LIZARD:
        out.append(DONE)  # Lizards may skip the spade and only place the free Workshop
    if _converts_first(g, seat, free, flags):
        from aoi_env.core.turn import conversions

        if out:
            out.extend(conversions(g.state.players[seat]))
        elif _converting_finds_a_target(g, seat, free, flags):
            out = [*conversions(g.state.players[seat]), DONE]  # DONE: forfeit the TB instead
    return out


def _converts_first(g: Game, seat: int, free: int, flags: int) -> bool:
    """R79 / OP-59: free conversions are allowed before a bonus TB received inside one's own turn."""
    return turn_seat(g.state) == seat and (free > 0 or bool(flags & TB_LIZARD))


def _converting_finds_a_target(g: Game, seat: int, free: int, flags: int) -> bool:
    """OP-59: would some run of free conversions give a bonus TB with no first hex yet one (the
    tool of a tunnel, the scholar of a flight, a Workshop's coins)?  A search over the player
    row alone; books only turn into coins, so one book discipline and no power-to-book stand
    for all of them."""
    from aoi_env.core.moves import CV_BOOK_COIN, CV_POWER_BOOK
    from aoi_env.core.turn import conversions, convert

    useless = {CONVERT_BASE + CV_POWER_BOOK + d for d in range(4)} | {
        CONVERT_BASE + CV_BOOK_COIN + d for d in range(1, 4)
    }
    start = g.state.players[seat].copy()
    start[P_BOOKS.start] = start[P_BOOKS].sum()  # books as one discipline
    start[P_BOOKS.start + 1 : P_BOOKS.stop] = 0
    seen = {start.tobytes()}
    todo = [start]
    while todo:
        row = todo.pop()
        for a in conversions(row):
            if a in useless:
                continue
            nxt = row.copy()
            convert(nxt, a - CONVERT_BASE)
            key = nxt.tobytes()
            if key not in seen:
                if has_tb_target(g, seat, free, flags, nxt.tolist()):
                    return True
                seen.add(key)
                todo.append(nxt)
    return False


@applies(Kind.TB_TARGET)
def _target_apply(g: Game, row: Row, a: int) -> None:
    seat, free, flags = row[1], row[2], row[3]
    if CONVERT_BASE <= a < CONVERT_BASE + NUM_CONVERSIONS:  # OP-59: then the same TB
        from aoi_env.core.turn import convert

        convert(g.state.players[seat], a - CONVERT_BASE)
        pending.push(g.state, Kind.TB_TARGET, seat, free, flags)
    elif a == TUNNEL:
        pending.push(g.state, Kind.TB_TUNNEL, seat, free, flags)
    elif a == FLY:
        pending.push(g.state, Kind.TB_FLY, seat, free, flags)
    elif a == DONE:  # the Lizards skip the spade; otherwise the TB is forfeited (OP-59 above)
        if flags & TB_LIZARD:
            pending.push(g.state, Kind.LIZARD_BUILD, seat, 0, flags)
    else:
        _start_on(g, seat, a - HEX_BASE, free, flags)


@decision(Kind.TB_TUNNEL, lambda g, row, a: f"tunnel {hex_name(a - HEX_BASE)}")
def _tunnel_legal(g: Game, row: Row) -> list[int]:
    return _hexes(_tunnel_targets(g, row[1], row[2], row[3]))


@applies(Kind.TB_TUNNEL)
def _tunnel_apply(g: Game, row: Row, a: int) -> None:
    seat = row[1]
    g.state.players[seat, P_TOOLS] -= TUNNEL_TOOLS  # R95
    fire(g, seat, "tunnel")
    _start_on(g, seat, a - HEX_BASE, row[2], row[3])


@decision(Kind.TB_FLY, lambda g, row, a: f"fly {hex_name(a - HEX_BASE)}")
def _fly_legal(g: Game, row: Row) -> list[int]:
    return _hexes(_fly_targets(g, row[1], row[2], row[3]))


@applies(Kind.TB_FLY)
def _fly_apply(g: Game, row: Row, a: int) -> None:
    seat = row[1]
    p = g.state.players[seat]
    p[P_SCHOLARS] -= FLIGHT_SCHOLARS  # R129: returned to the supply
    p[P_SCHOLAR_SUPPLY] += FLIGHT_SCHOLARS
    fire(g, seat, "flight")
    _start_on(g, seat, a - HEX_BASE, row[2], row[3])


def _start_on(g: Game, seat: int, pos: int, free: int, flags: int) -> None:
    if terrain.spades_to_native(g, seat, pos) == 0:
        _build_workshop(g, seat, pos, free=False)  # OP-35: build only, spades forfeited
    else:
        pending.push(g.state, Kind.TB_SPADES, seat, free, flags, pos)


def _build_workshop(g: Game, seat: int, pos: int, free: bool) -> None:
    if not free:
        buildings.pay(g.state.players[seat], g.data.building_cost[Building.WORKSHOP])
    buildings.place(g, seat, pos, Building.WORKSHOP)
    buildings.after_build(g, seat, pos, Building.WORKSHOP)


# --------------------------------------------------------------------------------------------
# TB_SPADES


def _max_spades(g: Game, seat: int, free: int, flags: int, pos: int) -> int:
    d = terrain.spades_to_native(g, seat, pos)
    if free >= d:
        return d
    buy = g.state.players.item(seat, P_TOOLS) // terrain.tools_per_spade(g, seat) if flags & TB_BUY else 0
    return int(min(d, free + buy))


@decision(Kind.TB_SPADES, lambda g, row, a: f"spades {a - COUNT_BASE + 1}")
def _spades_legal(g: Game, row: Row) -> list[int]:
    k = _max_spades(g, row[1], row[2], row[3], row[4])
    return [COUNT_BASE + i for i in range(k)]


@applies(Kind.TB_SPADES)
def _spades_apply(g: Game, row: Row, a: int) -> None:
    seat, free, flags, pos = row[1:5]
    k = a - COUNT_BASE + 1
    bought = max(0, k - free)
    g.state.players[seat, P_TOOLS] -= bought * terrain.tools_per_spade(g, seat)
    left = free - min(k, free)
    terrain.apply_spades(g, seat, pos, k)
    native = terrain.spades_to_native(g, seat, pos) == 0
    if flags & TB_LIZARD:
        pending.push(g.state, Kind.LIZARD_BUILD, seat, pos + 1, flags)  # the hex just terraformed
    elif native:
        pending.push(g.state, Kind.TB_FINISH, seat, left, flags, pos)  # R63.3: extras only after native


# --------------------------------------------------------------------------------------------
# TB_FINISH


def _finish_text(g: Game, row: Row, a: int) -> str:
    if a == WORKSHOP_ID:
        return "workshop"
    if a == DONE:
        return "done"
    return f"spade {hex_name(a - HEX_BASE)}"


def _extra_targets(g: Game, seat: int, exclude: int) -> np.ndarray:
    area = terrain.reach(g, seat) & terrain.empty_land(g) & (terrain.distances_to_native(g, seat) > 0)
    area[exclude] = False
    return area


@decision(Kind.TB_FINISH, _finish_text)
def _finish_legal(g: Game, row: Row) -> list[int]:
    seat, left, flags, pos = row[1:5]
    out = _hexes(_extra_targets(g, seat, pos)) if left > 0 else []
    if flags & TB_BUILD and buildings.workshop_affordable(g, seat) and g.state.hexes[pos, H_BUILDING] == 0:
        out.append(WORKSHOP_ID)
    out.append(DONE)
    return out


@applies(Kind.TB_FINISH)
def _finish_apply(g: Game, row: Row, a: int) -> None:
    seat, left, flags, pos = row[1:5]
    if a == DONE:
        return
    if a == WORKSHOP_ID:
        _build_workshop(g, seat, pos, free=False)
        return
    terrain.apply_spades(g, seat, a - HEX_BASE, 1)
    pending.push(g.state, Kind.TB_FINISH, seat, left - 1, flags, pos)


# --------------------------------------------------------------------------------------------
# Lizards' free Workshop (R94, OP-53)


def _lizard_targets(g: Game, seat: int, terraformed: int = -1) -> np.ndarray:
    """Empty native hexes in reach, and the hex the TB just terraformed even when a palace 9
    flight put it out of ordinary reach ([UA] "need not be built on the just terraformed hex":
    that hex is always one of the choices, OP-53)."""
    if buildings.pieces_left(g, seat, Building.WORKSHOP) <= 0:
        return np.zeros(len(g.geo.land), dtype=bool)
    where = terrain.reach(g, seat).copy()
    if terraformed >= 0:
        where[terraformed] = True
    return where & terrain.empty_land(g) & (terrain.distances_to_native(g, seat) == 0)


@decision(Kind.LIZARD_BUILD, lambda g, row, a: "done" if a == DONE else f"workshop {hex_name(a - HEX_BASE)}")
def _lizard_legal(g: Game, row: Row) -> list[int]:
    return [*_hexes(_lizard_targets(g, row[1], row[2] - 1)), DONE]


@applies(Kind.LIZARD_BUILD)
def _lizard_apply(g: Game, row: Row, a: int) -> None:
    if a != DONE:
        _build_workshop(g, row[1], a - HEX_BASE, free=True)


# --------------------------------------------------------------------------------------------
# SPADES: Phase III science bonus and setup spades (R81, R23)


def _loose_targets(g: Game, seat: int) -> np.ndarray:
    return terrain.reach(g, seat) & terrain.empty_land(g) & (terrain.distances_to_native(g, seat) > 0)


@decision(Kind.SPADES, lambda g, row, a: "done" if a == DONE else f"spade {hex_name(a - HEX_BASE)}")
def _loose_legal(g: Game, row: Row) -> list[int]:
    targets = _hexes(_loose_targets(g, row[1]))
    return [*targets, DONE] if targets else []


@applies(Kind.SPADES)
def _loose_apply(g: Game, row: Row, a: int) -> None:
    seat, left = row[1], row[2]
    if a == DONE:
        return
    terrain.apply_spades(g, seat, a - HEX_BASE, 1)
    if left > 1:
        pending.push(g.state, Kind.SPADES, seat, left - 1)


# --------------------------------------------------------------------------------------------
# NEUTRAL_PLACE (R46, OP-38)


def neutral_targets(g: Game, seat: int) -> np.ndarray:
    p = g.state.players[seat]
    dist = terrain.distances_to_native(g, seat)
    affordable = dist * terrain.tools_per_spade(g, seat) <= p[P_TOOLS]
    return terrain.reach(g, seat) & terrain.empty_land(g) & affordable


@decision(Kind.NEUTRAL_PLACE, lambda g, row, a: f"neutral {hex_name(a - HEX_BASE)}")
def _neutral_legal(g: Game, row: Row) -> list[int]:
    if g.state.glob[G_NEUTRAL_LEFT.start + row[2]] <= 0:
        return []
    return _hexes(neutral_targets(g, row[1]))


@applies(Kind.NEUTRAL_PLACE)
def _neutral_apply(g: Game, row: Row, a: int) -> None:
    seat, btype, pos = row[1], row[2], a - HEX_BASE
    d = terrain.spades_to_native(g, seat, pos)
    if d:
        g.state.players[seat, P_TOOLS] -= d * terrain.tools_per_spade(g, seat)
        terrain.apply_spades(g, seat, pos, d)
    buildings.place(g, seat, pos, btype, neutral=True)
    if btype == Building.PALACE:
        g.state.players[seat, P_NEUTRAL_PALACE] = 1
    buildings.after_build(g, seat, pos, btype)
