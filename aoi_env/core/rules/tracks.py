"""Sailing and terraforming tracks (R71, R72, OP-40)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aoi_env.core.state import P_BOARD, P_COINS, P_SAILING, P_SCHOLAR_SUPPLY, P_SCHOLARS, P_TERRAFORMING, P_TOOLS

if TYPE_CHECKING:
    from aoi_env.core.engine import Game


def at_max(g: Game, seat: int, track: str) -> bool:
    p = g.state.players[seat]
    board = g.data.boards[p[P_BOARD]]
    if track == "sail":
        return bool(p[P_SAILING] >= board.sailing_max)
    return bool(p[P_TERRAFORMING] >= len(board.terraforming_tools) - 1)


def cost(g: Game, seat: int, track: str) -> dict[str, int]:
    board = g.data.boards[g.state.players[seat, P_BOARD]]
    return board.sailing_cost if track == "sail" else board.terraforming_cost


def can_pay(g: Game, seat: int, track: str) -> bool:
    p = g.state.players[seat]
    c = cost(g, seat, track)
    return bool(
        p[P_COINS] >= c.get("coins", 0) and p[P_TOOLS] >= c.get("tools", 0) and p[P_SCHOLARS] >= c.get("scholars", 0)
    )


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
    from aoi_env.core.effects import fire, gain

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
    fire(g, seat, "track")
    gain(g, seat, reward)
