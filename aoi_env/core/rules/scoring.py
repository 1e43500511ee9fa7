"""Final scoring (R82-R86): area, science, resources; shared ranks rounded down.

``final_scoring`` adds the VP and returns the breakdown; ``breakdown`` recomputes it from a
finished or running game for reports (train/records.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from aoi_env.core import automa
from aoi_env.core.rules import terrain
from aoi_env.core.state import (
    G_AREA_TOKEN,
    G_NEUTRAL_SCIENCE,
    G_ROUND,
    P_BOOKS,
    P_BOWLS,
    P_COINS,
    P_FACTION,
    P_PALACE_TILE,
    P_SCHOLARS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
)

if TYPE_CHECKING:
    from aoi_env.core.engine import Game

NEUTRAL = -1  # key of the 2-player neutral faction in rankings
NO_BRIDGES = np.zeros((0, 2), dtype=np.int32)
AREA_TOKEN_REVEALED_ROUND = 6  # R25: the token is turned face up at the start of round 6


def has_neutral_faction(g: Game) -> bool:
    """R24: a 2-player game without an Automa adds the neutral faction (AUTOMA.md §3.1)."""
    return g.seats == 2 and not g.config.automa


def visible_area_token(g: Game) -> int | None:
    """R24 / R25: the neutral faction's area token lies face down until round 6 starts; what the
    players may see: its value from then on, ``None`` before (and without a neutral faction)."""
    if not has_neutral_faction(g) or int(g.state.glob[G_ROUND]) < AREA_TOKEN_REVEALED_ROUND:
        return None
    return int(g.state.glob[G_AREA_TOKEN])


def shared_ranks(values: dict[int, int], payouts: list[int]) -> dict[int, int]:
    """Rank payouts with ties shared and rounded down (R83); zero values take no rank.

    >>> shared_ranks({0: 10, 1: 9, 2: 9, 3: 9}, [18, 12, 6])
    {0: 18, 1: 6, 2: 6, 3: 6}
    """
    out = {k: 0 for k in values}
    ranked = sorted((v, k) for k, v in values.items() if v > 0)[::-1]
    rank = 0
    i = 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j][0] == ranked[i][0]:
            j += 1
        tied = [k for _, k in ranked[i:j]]
        pot = sum(payouts[r] for r in range(rank, rank + len(tied)) if r < len(payouts))
        for k in tied:
            out[k] = pot // len(tied)
        rank += len(tied)
        i = j
    return out


def area_jump(g: Game, seat: int) -> int:
    """Extra "in reach" range for the final area (R83): the farthest jump the seat has, 2 for
    the Moles' tunnel (R95), 3 for palace 9's flight (R129), else 0."""
    p = g.state.players[seat]
    jump = 0
    if g.is_player(seat) and g.tab.faction_flags[int(p[P_FACTION])]["tunnel"]:
        jump = g.data.jumps["tunnel"].farthest
    tile = int(p[P_PALACE_TILE])
    if tile >= 0 and g.tab.palace_flags[tile]["flight"]:
        jump = max(jump, g.data.jumps["flight"].farthest)
    return jump


def largest_area(g: Game, seat: int, own: np.ndarray | None = None) -> int:
    """Largest group of buildings connected by reach with the final sailing (R83).

    Two buildings are connected when one is in the other's reach (``Geometry.area_relation``:
    sailing reach, the built bridges, the tunnel / flight range).  The groups are found on
    Python-int bit sets of positions (issue 10: no 117 x 117 matrix per seat).  ``own``: the
    seat's building positions as a bool mask (default: the map's; the heuristic passes a
    hypothetical one).
    """
    if own is None:
        own = terrain.own_mask(g, seat)
    positions = np.flatnonzero(own).tolist()
    if not positions:
        return 0
    table = terrain.reach_table_bits(g.geo.name, terrain.sailing(g, seat, final=True))
    # the Automa has no bridges, and other players' bridges do not connect her buildings
    # (AUTOMA.md §10 #3, the same Reach as her builds: docs/automa.md)
    links: dict[int, int] = {}
    if g.is_player(seat):
        for a, b in g.state.built_bridges().tolist():
            links[a] = links.get(a, 0) | 1 << b
            links[b] = links.get(b, 0) | 1 << a
    jump = area_jump(g, seat)
    neighbours = g.neighbours() if g.is_player(seat) else g.geo.neighbors
    left = 0
    for q in positions:
        left |= 1 << q
    best = 0
    while left:
        start = (left & -left).bit_length() - 1
        left ^= 1 << start
        todo, size = [start], 1
        while todo:
            p = todo.pop()
            linked = (table[p] | links.get(p, 0) | (_within(neighbours, p, jump) if jump else 0)) & left
            left ^= linked
            while linked:
                low = linked & -linked
                todo.append(low.bit_length() - 1)
                linked ^= low
                size += 1
        best = max(best, size)
    return best


def _within(neighbours: tuple[tuple[int, ...], ...], start: int, depth: int) -> int:
    """Bits of the positions 1..``depth`` steps from ``start`` over ``neighbours`` (any hexes)."""
    seen = 1 << start
    layer = [start]
    out = 0
    for _ in range(depth):
        nxt = []
        for p in layer:
            for q in neighbours[p]:
                bit = 1 << q
                if not seen & bit:
                    seen |= bit
                    nxt.append(q)
        for q in nxt:
            out |= 1 << q
        layer = nxt
    return out


def resource_coins(player: np.ndarray) -> int:
    """R85 / OP-60: coins + tools + books + scholars + bowl III + bowl II // 2."""
    bowls = player[P_BOWLS]
    return int(
        player[P_COINS] + player[P_TOOLS] + player[P_BOOKS].sum() + player[P_SCHOLARS] + bowls[2] + bowls[1] // 2
    )


def breakdown(g: Game) -> dict[str, list[int]]:
    """Final-scoring VP per seat: area, science (4 tracks summed), resources."""
    n = g.seats
    fs = g.data.raw["final_scoring"]
    areas = {seat: largest_area(g, seat) for seat in range(n)}
    neutral = has_neutral_faction(g)
    if neutral:
        areas[NEUTRAL] = int(g.state.glob[G_AREA_TOKEN])  # R25
    area_vp = shared_ranks(areas, fs["area"])
    science_vp = [0] * n
    for d in range(4):
        levels = {seat: int(g.state.players[seat, P_SCIENCE.start + d]) for seat in range(n)}
        if neutral:
            levels[NEUTRAL] = int(g.state.glob[G_NEUTRAL_SCIENCE][d])
        for seat, vp in shared_ranks(levels, fs["science"]).items():
            if seat != NEUTRAL:
                science_vp[seat] += vp
    # the Automa scores no resources but may have a faction bonus (AUTOMA.md §8)
    res = [resource_coins(g.state.players[seat]) // fs["coins_per_vp"] if g.is_player(seat) else 0 for seat in range(n)]
    extra = [0 if g.is_player(seat) else automa.end_game_vp(g, seat) for seat in range(n)]
    return {
        "area": [area_vp[seat] for seat in range(n)],
        "area_size": [areas[seat] for seat in range(n)],
        "science": science_vp,
        "resources": res,
        "faction": extra,
    }


def final_scoring(g: Game) -> dict[str, list[int]]:
    """Add the final scoring (R83-R86: area, science, resources, the Automa's faction VP) to every
    seat's VP and return the parts per seat."""
    parts = breakdown(g)
    for seat in range(g.seats):
        g.state.players[seat, P_VP] += sum(parts[k][seat] for k in ("area", "science", "resources", "faction"))
    return parts
