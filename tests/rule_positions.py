"""Positions and moves shared by the rule-citation tests (``tests/*/test_rule_citations_*.py``):
the standard 3-player scenario (Inventors on Plains, Monks on Lake, Illusionists on Swamp, round 2
with round tile T9), playing moves under the invariant check, developing an innovation, and the
Monks' University placement at setup."""

from __future__ import annotations

import numpy as np

from aoi_env import testing
from aoi_env.core.engine import Game
from aoi_env.core.invariants import check
from aoi_env.core.pending import Kind
from aoi_env.core.state import G_BONUS_STATE, G_COMP_SPACES, P_VP
from aoi_env.testing import Scenario

FACTIONS = ["inventors", "monks", "illusionists"]
BOARDS = ["plains", "lake", "swamp"]


def scenario(
    rnd: int = 2,
    tile: str = "T9",
    game: str = "aoi(players=3)",
    factions: list[str] | None = None,
    boards: list[str] | None = None,
) -> Scenario:
    """Round ``rnd`` of ``game`` with round scoring tile ``tile`` (T9 = +4 per School built, so
    the Workshops and Guilds of a test score no round VP)."""
    return Scenario(game, factions=factions or FACTIONS, boards=boards or BOARDS).round(rnd, tile=tile)


def play(g: Game, *moves: str) -> Game:
    """Play notation moves, then check the state invariants."""
    testing.play(g, *moves)
    check(g)
    return g


def develop(sc: Scenario, key: str, coins: int = 5) -> Game:
    """Seat 0 develops ``key`` from display space 0 (2 Banking + 3 any books; + 5 coins without a
    Palace, R73)."""
    sc.display_innovations(key).set(0, books={"banking": 5}, coins=coins)
    g = sc.turn(0)
    return play(g, "innovate", f"innovation {key}", "pay banking", "pay banking", "pay banking")


def with_palace(sc: Scenario, number: int, at: str = "r7c5") -> Scenario:
    """Seat 0 already has its Palace on ``at`` with tile ``number``."""
    return sc.build(0, at, "palace").palace_tile(0, number)


def vp(g: Game, seat: int = 0) -> int:
    return int(g.state.players[seat, P_VP])


def monks_before_university() -> Game:
    """Omar (Mountain) Workshops r0c6, r1c9 and Tower r8c9; Goblins (Swamp) r0c3, r0c9; the Monks
    (Lake) are to place their University.  Competency space i holds C(i+1)."""
    g = Game("aoi(players=3,factions=omar+monks+goblins,boards=mountain+lake+swamp,skip_forced=false)", seed=0)
    glob = g.state.glob
    glob[G_BONUS_STATE] = -2
    for tile in ("B10", "B9", "B7", "B8", "B4", "B3"):
        glob[G_BONUS_STATE.start + g.data.bonus_ids.index(tile)] = -1
    glob[G_COMP_SPACES] = np.arange(12)
    g = Game(g.config, state=g.state)
    script = {
        0: ["bonus B7", "start workshop", "place r0c6", "start workshop", "place r1c9", "start tower", "place r8c9"],
        1: ["bonus B10"],
        2: ["bonus B9", "place r0c3", "place r0c9"],
    }
    while script.get(g.current_seat()):
        play(g, script[g.current_seat()].pop(0))
    assert g.pending_kind() == Kind.INITIAL_PLACE and g.current_seat() == 1
    return g
