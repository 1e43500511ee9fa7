"""State invariants (DESIGN.md Quality): checked after every decision by the fuzz tests.

``violations(game)`` returns a list of human-readable problems (empty when the state is sound);
``check(game)`` raises ``AssertionError`` with all of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from aoi_env.core.rules.science import KEY_LEVEL, MAX_LEVEL
from aoi_env.core.state import (
    G_NUM_BRIDGES,
    G_PHASE,
    G_SCHOLAR_SPACES,
    H_BUILDING,
    H_NEUTRAL,
    H_OWNER,
    P_ADDED_TOKENS,
    P_BOOKS,
    P_BOWLS,
    P_BRIDGES,
    P_BUILT,
    P_BURNED,
    P_CITIES,
    P_COINS,
    P_NEUTRAL_BUILT,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
    Phase,
)

if TYPE_CHECKING:
    from aoi_env.core.engine import Game


def violations(g: Game) -> list[str]:
    s = g.state
    out: list[str] = []
    data = g.data
    h = s.hexes
    for seat in range(g.seats):
        p = s.players[seat]
        for name, value in (("coins", p[P_COINS]), ("tools", p[P_TOOLS]), ("scholars", p[P_SCHOLARS]),
                            ("scholar supply", p[P_SCHOLAR_SUPPLY]), ("VP", p[P_VP])):  # fmt: skip
            if value < 0:
                out.append(f"seat {seat}: {name} is negative ({int(value)})")
        if (p[P_BOOKS] < 0).any() or (p[P_BOWLS] < 0).any():
            out.append(f"seat {seat}: negative books or bowls {p[P_BOOKS]} {p[P_BOWLS]}")
        tokens = data.raw["power_tokens_per_player"] - int(p[P_BURNED]) + int(p[P_ADDED_TOKENS])
        if s.glob[G_PHASE] != Phase.SETUP and g.is_player(seat) and int(p[P_BOWLS].sum()) != tokens:
            out.append(f"seat {seat}: {int(p[P_BOWLS].sum())} power tokens in the bowls, expected {tokens}")
        on_board = int(np.count_nonzero(s.glob[G_SCHOLAR_SPACES] == seat))
        total = int(p[P_SCHOLARS] + p[P_SCHOLAR_SUPPLY]) + on_board
        if total != data.raw["scholars_per_player"]:
            out.append(f"seat {seat}: {total} scholars in supply, holdings and on the board, expected 7")
        mine = (h[:, H_OWNER] == seat) & (h[:, H_BUILDING] > 0)
        for b in range(1, 8):
            own = int(np.count_nonzero(mine & (h[:, H_BUILDING] == b) & (h[:, H_NEUTRAL] == 0)))
            neutral = int(np.count_nonzero(mine & (h[:, H_BUILDING] == b) & (h[:, H_NEUTRAL] == 1)))
            if own != p[P_BUILT.start + b] or neutral != p[P_NEUTRAL_BUILT.start + b]:
                out.append(f"seat {seat}: building {b} count mismatch (map {own}/{neutral})")
            if p[P_BUILT.start + b] > data.building_pieces[b]:
                out.append(f"seat {seat}: more buildings of type {b} than pieces")
        sci = p[P_SCIENCE]
        if (sci < 0).any() or (sci > MAX_LEVEL).any():
            out.append(f"seat {seat}: science level out of range {sci}")
        if np.count_nonzero(sci >= KEY_LEVEL) > p[P_CITIES]:
            out.append(f"seat {seat}: {np.count_nonzero(sci >= KEY_LEVEL)} tracks above 7 with {int(p[P_CITIES])} keys")
        bridges = int(np.count_nonzero(s.bridges[: s.glob[G_NUM_BRIDGES], 2] == seat))
        if bridges != p[P_BRIDGES]:
            out.append(f"seat {seat}: {bridges} bridges on the map, counter says {int(p[P_BRIDGES])}")
    tops = (s.players[:, P_SCIENCE] >= MAX_LEVEL).sum(axis=0)
    if (tops > 1).any():
        out.append(f"more than one marker on level 12: {tops}")
    if not g.is_over() and not g.legal_actions():
        out.append("the acting seat has no legal move")
    return out


def check(g: Game) -> None:
    problems = violations(g)
    if problems:
        raise AssertionError("; ".join(problems))
