"""Rule paths of the engine that no other test executed (branch-coverage audit).

Each test builds the game situation of one rule path that the whole suite left unexecuted (or
reached only through random play, with nothing checking the outcome) and checks the outcome
against the rule text of RULES.md.
"""

from __future__ import annotations

import numpy as np

from aoi_env.core.board import hex_name, parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.rules import terrain
from aoi_env.core.state import H_BUILDING, H_TERRAIN, P_BOWLS, P_BUILT, P_COINS, P_TOOLS, P_VP
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario, play


def bowls(g: Game, seat: int) -> tuple[int, int, int]:
    b = g.state.players[seat, P_BOWLS]
    return int(b[0]), int(b[1]), int(b[2])


# --------------------------------------------------------------------------------------------
# R62 / OP-34 / OP-59: a bonus TB with no first hex yet may be forfeited (terraform.py, TB_TARGET "skip")


def test_r62_op59_bonus_tb_without_a_first_hex_may_be_forfeited_and_its_spades_are_lost() -> None:
    """R62: "Spades cannot be saved. They must be used in the same action; unused spades are
    lost"; OP-34: "Leftovers may be forfeited"; OP-59: conversions are "allowed before a bonus TB
    received inside your turn (city tile ...)".  Seat 0 (Desert) founds a city with its University
    and takes K4 (5 VP + a TB with 2 free spades, R140).  Every empty hex in its reach is already
    Desert, so the TB could only build a Workshop (OP-35), which needs 1 tool: it has 0 tools and
    2 coins, but 3 power in bowl III.  The TB offers the conversions (3 power -> 1 tool would give
    a target) and "skip"; skipping forfeits both spades: no hex changes, nothing is paid, and the
    turn goes on with the University's competency (R53)."""
    s = Scenario("aoi(players=3)", factions=["blessed", "felines", "monks"], boards=["desert", "lake", "forest"])
    for seat, tile in enumerate(("B10", "B9", "B8")):
        s.bonus(seat, tile)
    s.round(1, tile="T10")  # T10 scores only innovations
    s.build(0, "r7c6", "school").build(0, "r6c6", "guild").build(0, "r8c6", "guild")
    reach = [hex_name(int(p)) for p in np.flatnonzero(terrain.reach(s.g, 0) & terrain.empty_land(s.g))]
    assert reach == ["r5c5", "r6c5", "r7c5", "r7c7", "r8c5", "r8c7"]
    for x in reach:
        s.terrain(x, "desert")
    s.set(0, tools=5, coins=10, bowls=(0, 0, 3))
    g = s.turn(0)
    play(g, "upgrade university", "upgrade r7c6", "first city", "city K4")  # University: 5 tools + 8 coins
    p = g.state.players[0]
    assert (int(p[P_TOOLS]), int(p[P_COINS]), int(p[P_VP])) == (0, 2, 25)  # 20 + 5 (K4)
    assert g.pending_kind() == Kind.TB_TARGET
    assert g.legal_moves() == ["convert 3pw tool", "convert 1pw coin", "skip"]  # no first hex yet
    converted = play(g.clone(), "convert 3pw tool")  # the TB would have a target after converting
    assert [m for m in converted.legal_moves() if m.startswith("target ")] == [f"target {x}" for x in reach]
    play(g, "skip")
    assert g.pending_kind() == Kind.CHOOSE_COMPETENCY  # the turn goes on without the TB
    p = g.state.players[0]
    assert (int(p[P_TOOLS]), int(p[P_COINS]), int(p[P_VP])) == (0, 2, 25)
    assert bowls(g, 0) == (0, 0, 3)
    assert int(p[P_BUILT.start + Building.WORKSHOP]) == 0
    for x in reach:  # both spades are lost: every hex is as it was
        h = g.state.hexes[parse_hex(x)]
        assert (Terrain(int(h[H_TERRAIN])), int(h[H_BUILDING])) == (Terrain.DESERT, 0)
