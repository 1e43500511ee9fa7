"""Component effects: events fired to listeners (R146) and gains in the data vocabulary.

``fire(g, seat, event, n)`` adds up every row that listens for the event (faction, held round
bonus tile, palace tile, competencies, the current round tile and the final tile) and applies each
gain ``n`` times.  ``gain(g, seat, gain)`` applies a gain dict: resources at once, and choices
(books, steps, TB, bridges, competencies, ...) as pending decisions in the order listed below.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from aoi_env.core import pending
from aoi_env.core.pending import BR_SPELL, TB_BUILD, TB_BUY, TB_LIZARD, UP_FREE, UP_SWAP, Kind
from aoi_env.core.rules import buildings, cities, power, science, terrain, tracks
from aoi_env.core.state import (
    G_FINAL_TILE,
    G_PAVILIONS_LEFT,
    G_PHASE,
    G_ROUND,
    G_ROUND_TILES,
    P_BONUS,
    P_BOOKS,
    P_BRIDGES,
    P_CITIES,
    P_COINS,
    P_COMPETENCIES,
    P_DEFER_CITY,
    P_FACTION,
    P_PALACE_TILE,
    P_PASSED,
    P_PAVILIONS,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_SETUP_SPADES,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data import ROUNDS
from aoi_env.data.enums import NUM_DISCIPLINES, Building

if TYPE_CHECKING:
    from aoi_env.core.engine import Game

BOOKS = P_BOOKS.start
# gains applied at once (no decision needed); the decision gains follow in ``DECIDED`` order
IMMEDIATE = ("vp", "coins", "tools", "scholars", "power", "power_tokens", "pavilions", "vp_per", "vp_table")
_IMMEDIATE_KEYS = frozenset(IMMEDIATE)
_BUILDING_COUNTERS = {b.name.lower(): b for b in Building if b != Building.NONE}


# --------------------------------------------------------------------------------------------
# counters (vp_per, steps_per, vp_table)


def counter(g: Game, seat: int, name: str) -> int:
    p = g.state.players[seat]
    if name in _BUILDING_COUNTERS:
        return buildings.count(g, seat, _BUILDING_COUNTERS[name])
    if name == "buildings":
        return sum(buildings.count(g, seat, b) for b in _BUILDING_COUNTERS.values())
    if name == "shapes":
        return sum(1 for b in _BUILDING_COUNTERS.values() if buildings.count(g, seat, b) > 0)
    if name == "groups":
        return len(cities.connected_groups(g, terrain.owned_positions(g, seat)))
    if name == "bridges":
        return int(p[P_BRIDGES])
    if name == "cities":
        return int(p[P_CITIES])
    levels = np.sort(p[P_SCIENCE])
    if name == "lowest_discipline":
        return int(levels[0])
    if name == "top_two_disciplines":
        return int(levels[-1] + levels[-2])
    raise ValueError(f"unknown counter {name!r}")


STEP_KEYS = frozenset({"steps_one", "steps_any"})
"""Gain keys that only advance science (OP-58: such an action needs a step it can gain)."""

SCIENCE_COUNTERS = frozenset({"lowest_discipline", "top_two_disciplines"})
"""Counters read from the discipline levels, which science steps change."""


def reads_science(gain: dict[str, Any]) -> bool:
    """Does this gain score VP from the discipline levels (C12)?  Such a part of a pass waits for
    the steps of the other parts (R78.1, ``turn.do_pass``)."""
    return not SCIENCE_COUNTERS.isdisjoint(gain.get("vp_per", ()))


def table_vp(value: int, thresholds: list[list[int]]) -> int:
    """The VP of a ``vp_table`` gain for a counter value: the highest threshold reached."""
    vp = 0
    for minimum, points in thresholds:
        if value >= minimum:
            vp = points
    return vp


# --------------------------------------------------------------------------------------------
# gains


_RESOURCE_FIELDS = {"vp": P_VP, "coins": P_COINS, "tools": P_TOOLS}  # gains that are a plain add


def gain_now(g: Game, seat: int, gain: dict[str, Any], mult: int = 1) -> None:
    """Apply only the immediate part of a gain (resources)."""
    if _IMMEDIATE_KEYS.isdisjoint(gain):  # a decision gain only (steps, spades, books, ...)
        return
    p = g.state.player_ints(seat)  # single fields only: Python ints (issue 10)
    for key in IMMEDIATE:
        if key not in gain:
            continue
        v = gain[key]
        if key in _RESOURCE_FIELDS:
            p[_RESOURCE_FIELDS[key]] += v * mult
        elif key == "scholars":
            n = min(v * mult, int(p[P_SCHOLAR_SUPPLY]))  # R57: only what is left in the supply
            p[P_SCHOLAR_SUPPLY] -= n
            p[P_SCHOLARS] += n
        elif key == "power":
            power.gain(p, v * mult)
        elif key == "power_tokens":
            power.add_tokens(p, v * mult)
        elif key == "pavilions":
            n = min(v * mult, int(g.state.glob[G_PAVILIONS_LEFT]))
            g.state.glob[G_PAVILIONS_LEFT] -= n
            p[P_PAVILIONS] += n
        elif key == "vp_per":
            p[P_VP] += mult * sum(k * counter(g, seat, c) for c, k in v.items())
        elif key == "vp_table":
            p[P_VP] += mult * table_vp(counter(g, seat, v["counter"]), v["thresholds"])


def gain(g: Game, seat: int, gain: dict[str, Any], mult: int = 1) -> None:
    """Apply a gain: resources now, decisions pushed so they resolve in ``DECIDED`` order."""
    if not gain or mult <= 0:
        return
    gain_now(g, seat, gain, mult)
    if _DECIDED_KEYS.isdisjoint(gain):  # resources only, as most gains: no decision to push
        return
    for key in _DECIDED_LAST_FIRST:  # the stack resolves the last push first
        value = gain.get(key)
        if value:  # absent or 0: a gain of no books, steps or spades asks for no decision
            _DECIDED_EFFECTS[key](g, seat, value * mult if isinstance(value, int) else value, mult)


# The decision gains, in resolution order: each pushes its decisions (or applies what needs
# none) for ``value`` (an amount already multiplied, or the data's own value: a building name,
# a counter table).
_Effect = Callable[["Game", int, Any, int], None]


def _push(kind: Kind, *params: int) -> _Effect:
    """The effect that pushes one ``kind`` decision with the amount first."""
    return lambda g, seat, value, mult: pending.push(g.state, kind, seat, value, *params)


def _push_fixed(kind: Kind, *params: int) -> _Effect:
    """The effect that pushes one ``kind`` decision with these parameters, whatever the amount."""
    return lambda g, seat, value, mult: pending.push(g.state, kind, seat, *params)


def _push_each(kind: Kind, setup_param: bool = False) -> _Effect:
    """The effect that pushes one ``kind`` decision per unit (1 as its parameter; a competency
    taken in the setup marks it with 1, one taken later with 0)."""

    def effect(g: Game, seat: int, value: int, mult: int) -> None:
        param = int(g.state.glob[G_PHASE] == Phase.SETUP) if setup_param else 1
        for _ in range(value):
            pending.push(g.state, kind, seat, param)

    return effect


def _steps_each(g: Game, seat: int, value: int, mult: int) -> None:
    for d in range(NUM_DISCIPLINES):
        science.advance(g, seat, d, value)


def _steps_per(g: Game, seat: int, value: dict[str, int], mult: int) -> None:
    n = mult * sum(k * counter(g, seat, c) for c, k in value.items())
    if n:
        pending.push(g.state, Kind.STEPS_ANY, seat, n)


def _track(track: str) -> _Effect:
    def effect(g: Game, seat: int, value: int, mult: int) -> None:
        for _ in range(value):
            tracks.advance(g, seat, track, free=True)

    return effect


def _neutral(g: Game, seat: int, value: str, mult: int) -> None:
    pending.push(g.state, Kind.NEUTRAL_PLACE, seat, _BUILDING_COUNTERS[value])


def _tb(g: Game, seat: int, value: int, mult: int) -> None:
    if g.state.glob[G_PHASE] == Phase.SETUP:
        g.state.players[seat, P_SETUP_SPADES] += value  # R23 / OP-37: setup spades
    else:
        pending.push(g.state, Kind.TB_TARGET, seat, value, TB_BUY | TB_BUILD)


def _palace15_parts(g: Game, seat: int, value: int, mult: int) -> None:
    s = g.state
    if g.tab.palace_flags[int(s.players[seat, P_PALACE_TILE])]["defer_city"]:
        pending.push(s, Kind.CITY_CHECK, seat, 1)  # OP-19 (v1.2): rewards wait for all three parts
        s.players[seat, P_DEFER_CITY] = 1
    pending.push(s, Kind.PALACE15, seat, 7)


_DECIDED_EFFECTS: dict[str, _Effect] = {
    "neutral": _neutral,
    "steps_each": _steps_each,
    "books": _push(Kind.CHOOSE_BOOKS),
    "steps_one": _push(Kind.STEPS_ONE),
    "steps_any": _push(Kind.STEPS_ANY),
    "steps_per": _steps_per,
    "sail": _track("sail"),
    "dig": _track("dig"),
    "competency": _push_each(Kind.CHOOSE_COMPETENCY, setup_param=True),
    "city_tile": _push_each(Kind.CHOOSE_CITY),
    "tb": _tb,
    "spades": _push(Kind.SPADES),
    "bridge": lambda g, seat, value, mult: pending.push(g.state, Kind.BRIDGE_END, seat, BR_SPELL, value),
    "free_guild_upgrade": _push_fixed(Kind.UPGRADE_TARGET, Building.GUILD, UP_FREE),
    "school_to_guild": _push_fixed(Kind.UPGRADE_TARGET, Building.GUILD, UP_SWAP),
    "palace15_parts": _palace15_parts,
    "guild_anywhere": _push_fixed(Kind.GUILD_ANYWHERE),
    "lizard_tb": _push_fixed(Kind.TB_TARGET, 1, TB_BUY | TB_LIZARD),
    "second_action": _push_fixed(Kind.MAIN, 1),
}
DECIDED = tuple(_DECIDED_EFFECTS)
"""The decision gains in resolution order.  A neutral building is placed first, "at once", so the
same gain's competency (neutral School) cannot prepare its hex with free spades or extend reach
first (R46.1, R118)."""
_DECIDED_KEYS = frozenset(DECIDED)
_DECIDED_LAST_FIRST = DECIDED[::-1]


def feasible(g: Game, seat: int, gain: dict[str, Any], pl: list[int] | None = None) -> bool:
    """Can the main effect of a gain be performed now (OP-58: actions need their main effect)?
    ``pl``: the seat's player row as plain ints, when the caller has it."""
    if "tb" in gain:
        return terraform.has_tb_target(g, seat, gain["tb"], TB_BUY | TB_BUILD, pl)
    if pl is None:
        pl = g.state.players[seat].tolist()
    if "bridge" in gain:
        return pl[P_BRIDGES] < g.data.raw["bridges_per_player"] and bool(g.free_bridge_spots(seat))
    if "free_guild_upgrade" in gain:
        return buildings.pieces_left(g, seat, Building.GUILD) > 0 and pl[buildings.BUILT + Building.WORKSHOP] > 0
    if "school_to_guild" in gain:
        return buildings.pieces_left(g, seat, Building.GUILD) > 0 and pl[buildings.BUILT + Building.SCHOOL] > 0
    if len(gain) == 1 and "power" in gain:
        return power.capacity(pl) > 0
    if len(gain) == 1 and "scholars" in gain:
        return pl[P_SCHOLAR_SUPPLY] > 0
    if "vp_per" in gain and len(gain) == 1:
        return any(counter(g, seat, c) > 0 for c in gain["vp_per"])
    if STEP_KEYS.issuperset(gain):  # BA4, palace 6, B7: only science steps
        return any(science.can_step(g, seat, d) for d in range(4))
    return True


def source_gain(g: Game, src: int, ident: int, part: int) -> dict[str, Any]:
    """The gain dict of a component part, for gains applied later (``Kind.GAIN``)."""
    return g.tab.gains_by_source[(src, part)][ident]


# --------------------------------------------------------------------------------------------
# events


def listeners(g: Game, seat: int, event: str) -> list[dict[str, Any]]:
    """Every gain listening for ``event`` for this seat (R146)."""
    s = g.state
    p = s.players[seat].tolist()  # plain ints: one conversion, not a numpy scalar per field (issue 10)
    glob = s.glob_ints
    tab = g.tab
    out = []
    faction = p[P_FACTION]
    if faction >= 0 and event in tab.faction_events[faction]:
        out.append(tab.faction_events[faction][event])
    tile = p[P_PALACE_TILE]
    if tile >= 0 and event in tab.palace_events[tile]:
        out.append(tab.palace_events[tile][event])
    comps = p[P_COMPETENCIES]
    if comps:
        for c, evs in enumerate(tab.competency_events):
            if comps >> c & 1 and event in evs:
                out.append(evs[event])
    if glob[G_PHASE] == Phase.ACTIONS:  # round tiles and bonus tiles score in Phase II only
        bonus = p[P_BONUS]  # a tile taken at pass lies face down until the next round (R78.2)
        if bonus >= 0 and event in tab.bonus_events[bonus] and not p[P_PASSED]:
            out.append(tab.bonus_events[bonus][event])
        rnd = glob[G_ROUND]
        if 1 <= rnd <= ROUNDS:
            rt = glob[G_ROUND_TILES.start + rnd - 1]
            if event in tab.round_events[rt]:
                out.append(tab.round_events[rt][event])
            if rnd == ROUNDS and event in tab.final_events[glob[G_FINAL_TILE]]:
                out.append(tab.final_events[glob[G_FINAL_TILE]][event])
    return out


def fire(g: Game, seat: int, event: str, n: int = 1) -> None:
    """An event happened ``n`` times for ``seat``: apply every listening gain ``n`` times."""
    if n <= 0 or not g.is_player(seat):
        return
    for row in listeners(g, seat, event):
        gain(g, seat, row, n)


# At the bottom: terraform imports this module (a function-level import cost ~0.7 µs a call, issue 10).
from aoi_env.core import terraform  # noqa: E402
