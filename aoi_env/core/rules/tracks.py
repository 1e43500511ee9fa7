"""Sailing and terraforming tracks (R71, R72, OP-40)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from aoi_env.core.state import P_BOARD, P_COINS, P_SAILING, P_SCHOLAR_SUPPLY, P_SCHOLARS, P_TERRAFORMING, P_TOOLS
from aoi_env.data import load

if TYPE_CHECKING:
    from aoi_env.core.engine import Game

RESOURCES = ("coins", "tools", "scholars")  # what a track step may cost (``limits`` checks the data)


@functools.cache
def limits() -> tuple[tuple[int, int, int, int, int, int, int, int], ...]:
    """Per planning board: (the sailing maximum, a sailing step's coins, tools and scholars, the top
    terraforming level, a terraforming step's coins, tools and scholars), read from the data once:
    the MAIN legality checks both tracks at every decision (issue 10)."""
    out = []
    for board in load().boards:
        for step_cost in (board.sailing_cost, board.terraforming_cost):
            if set(step_cost) - set(RESOURCES):
                raise ValueError(f"track cost of the {board.terrain.name} board is not in {RESOURCES}: {step_cost}")
        sail = tuple(board.sailing_cost.get(r, 0) for r in RESOURCES)
        dig = tuple(board.terraforming_cost.get(r, 0) for r in RESOURCES)
        out.append((board.sailing_max, *sail, len(board.terraforming_tools) - 1, *dig))
    return tuple(out)


def at_max(g: Game, seat: int, track: str) -> bool:
    p = g.state.players
    row = limits()[p.item(seat, P_BOARD)]
    if track == "sail":
        return p.item(seat, P_SAILING) >= row[0]
    return p.item(seat, P_TERRAFORMING) >= row[4]


def cost(g: Game, seat: int, track: str) -> dict[str, int]:
    board = g.data.boards[g.state.players[seat, P_BOARD]]
    return board.sailing_cost if track == "sail" else board.terraforming_cost


def pay(g: Game, seat: int, track: str) -> None:
    p = g.state.players[seat]
    c = cost(g, seat, track)
    p[P_COINS] -= c.get("coins", 0)
    p[P_TOOLS] -= c.get("tools", 0)
    n = c.get("scholars", 0)
    p[P_SCHOLARS] -= n
    p[P_SCHOLAR_SUPPLY] += n  # spent scholars return to the personal supply (R3)


def advance(g: Game, seat: int, track: str, free: bool = False) -> None:
    """Move one space up and take the printed reward; a free advance at the top is lost (OP-40)."""
    if at_max(g, seat, track):
        return
    p = g.state.players[seat]
    board = g.data.boards[p[P_BOARD]]
    if track == "sail":
        p[P_SAILING] += 1
        reward = board.sailing_rewards.get(int(p[P_SAILING]), {})
    else:
        p[P_TERRAFORMING] += 1
        reward = board.terraforming_rewards.get(int(p[P_TERRAFORMING]), {})
    effects.fire(g, seat, "track")
    effects.gain(g, seat, reward)


# At the bottom: effects imports this module (a function-level import cost ~1.5 µs a call, issue 10).
from aoi_env.core import effects  # noqa: E402
