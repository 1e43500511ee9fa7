"""Short readers of a game's state for the component tests (plain ints, seat 0 by default)."""

from __future__ import annotations

from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.state import P_BOOKS, P_BOWLS, P_SCIENCE


def player(g: Game, seat: int = 0):  # noqa: ANN201 - the seat's row of the state
    return g.state.players[seat]


def hex_row(g: Game, name: str):  # noqa: ANN201 - the hex's row of the state
    return g.state.hexes[parse_hex(name)]


def science(g: Game, seat: int = 0) -> list[int]:
    return [int(x) for x in g.state.players[seat, P_SCIENCE]]


def books(g: Game, seat: int = 0) -> list[int]:
    return [int(x) for x in g.state.players[seat, P_BOOKS]]


def bowls(g: Game, seat: int = 0) -> list[int]:
    return [int(x) for x in g.state.players[seat, P_BOWLS]]
