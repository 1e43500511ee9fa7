"""Science board (R47-R52): steps with power thresholds, the key barrier and the level-12 cap.

``advance`` moves one marker; when a step would cross from 7 to 8 and the player has an unused
key, it stops and pushes a ``USE_KEY`` decision for the rest (OP-30: using a key is a choice).
Steps that cannot be taken are lost.  Only steps actually gained fire the ``step`` event (T4, OP-57).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from aoi_env.core import pending
from aoi_env.core.pending import Kind
from aoi_env.core.rules import power
from aoi_env.core.state import G_NEUTRAL_SCIENCE, G_PHASE, P_CITIES, P_SCIENCE, Phase
from aoi_env.data import load

if TYPE_CHECKING:
    from aoi_env.core.engine import Game

SCI = P_SCIENCE.start
_BOARD = load().raw["science"]  # the numbers of the science board (components.yaml)
MAX_LEVEL: int = _BOARD["levels"]  # R47
KEY_LEVEL: int = _BOARD["key_level"]  # R50: a key to step onto it
THRESHOLDS: dict[int, int] = {int(level): p for level, p in _BOARD["power_on_reaching"].items()}  # R49
INCOME_LEVEL: int = _BOARD["income_from_level"]  # R51


def keys_available(player: np.ndarray) -> int:
    """Keys = city tiles owned - disciplines already unlocked (level >= 8), OP-31."""
    return int(player[P_CITIES] - np.count_nonzero(player[P_SCIENCE] >= KEY_LEVEL))


def top_taken(g: Game, seat: int, d: int) -> bool:
    """True if another marker already stands on 12 in discipline ``d`` (R52)."""
    col = g.state.players[:, SCI + d]
    others = np.delete(col, seat)
    return bool((others >= MAX_LEVEL).any() or g.state.glob[G_NEUTRAL_SCIENCE][d] >= MAX_LEVEL)


def can_step(g: Game, seat: int, d: int) -> bool:
    """Would a step in discipline ``d`` be gained now: below 12 and 12 free (R52), past 7 only
    with a key to use (R50)?"""
    player = g.state.players[seat]
    level = int(player[SCI + d])
    if level >= MAX_LEVEL or (level == MAX_LEVEL - 1 and top_taken(g, seat, d)):
        return False
    return level != KEY_LEVEL - 1 or keys_available(player) > 0


def advance(g: Game, seat: int, d: int, n: int) -> int:
    """Advance ``n`` steps in discipline ``d``; returns the steps gained before any key decision."""
    s = g.state
    player = s.player_ints(seat)  # single fields only: Python ints (issue 10)
    idx = SCI + d
    gained = 0
    while n > 0:
        level = player[idx]
        if level >= MAX_LEVEL or (level == MAX_LEVEL - 1 and top_taken(g, seat, d)):
            break  # R52: the rest is lost
        if level == KEY_LEVEL - 1:
            if keys_available(s.players[seat]) > 0:
                pending.push(s, Kind.USE_KEY, seat, d, n)
            break  # R50: without a key the rest is lost
        player[idx] = level + 1
        gained += 1
        n -= 1
        bonus = THRESHOLDS.get(level + 1)
        if bonus:
            power.gain(player, bonus)  # R49: passing a threshold pays (OP-29)
        if level + 1 == INCOME_LEVEL and s.glob_ints[G_PHASE] == Phase.INCOME:
            effects.gain_now(g, seat, g.science_income[d])  # R57 / C1: reaching 9 in Phase I pays at once
    if gained:
        effects.fire(g, seat, "step", gained)
    return gained


def unlock_and_continue(g: Game, seat: int, d: int, n: int) -> None:
    """USE_KEY accepted: step from 7 to 8 with the key, then continue (R50)."""
    player = g.state.players[seat]
    player[SCI + d] = KEY_LEVEL
    effects.fire(g, seat, "step", 1)
    if n > 1:
        advance(g, seat, d, n - 1)


# At the bottom: effects imports this module (a function-level import cost ~1.5 µs a call, issue 10).
from aoi_env.core import effects  # noqa: E402
