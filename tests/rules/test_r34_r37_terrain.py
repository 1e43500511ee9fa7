"""RULES.md §3.3 Terrain, native terrain, spades (R34-R37)."""

from __future__ import annotations

import pytest

from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.rules.terrain import spade_distance
from aoi_env.core.state import G_ROUND, H_BUILDING, H_OWNER, H_TERRAIN, P_BOARD, P_TOOLS
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario, play

GAME = "aoi(players=3)"
FACTIONS = ["blessed", "inventors", "monks"]
BOARDS = ["desert", "plains", "forest"]  # seat 0 is native to Desert


def scenario() -> Scenario:
    """Seat 0 (Desert) has a Workshop on r3c0; r4c1, r4c0, r2c0, r2c1 and r3c1 are its neighbours."""
    return Scenario(GAME, factions=FACTIONS, boards=BOARDS).round(1, tile="T10").build(0, "r3c0", "workshop")


def terrain_at(g: Game, hex_: str) -> Terrain:
    return Terrain(int(g.state.hexes[parse_hex(hex_), H_TERRAIN]))


def tools(g: Game, seat: int = 0) -> int:
    return int(g.state.players[seat, P_TOOLS])


# --------------------------------------------------------------------------------------------
# R34 native terrain


def test_r34_initial_workshops_go_only_on_native_hexes() -> None:
    """R34 / R21: a player builds only on their native terrain, setup placements included."""
    g = Game("aoi(players=3,factions=blessed+navigators+goblins,boards=desert+plains+forest,skip_forced=false)")
    placements = 0
    while g.state.glob[G_ROUND] == 0:  # round 0 = setup
        if g.pending_kind() == Kind.INITIAL_PLACE:
            native = int(g.state.players[g.current_seat(), P_BOARD])
            targets = [parse_hex(m.split()[1]) for m in g.legal_moves()]
            assert targets and all(g.state.hexes[t, H_TERRAIN] == native for t in targets)
            placements += 1
        g.apply_action(g.legal_actions()[0])
    assert placements == 6  # 2 Workshops x 3 players, every one on native terrain


def test_r34_no_workshop_on_a_hex_that_is_not_yet_native() -> None:
    """R34: a hex terraformed only part of the way to native terrain cannot take a Workshop."""
    g = scenario().terrain("r4c1", "swamp").set(0, tools=4).turn(0)  # swamp -> desert = 2 spades
    play(g, "build", "target r4c1")
    assert g.legal_moves() == ["spades 1"]  # 4 tools buy one spade at 3 tools
    play(g, "spades 1")
    assert g.pending_kind() == Kind.POST  # no Workshop step: the hex is plains, not desert
    assert terrain_at(g, "r4c1") == Terrain.PLAINS
    assert g.state.hexes[parse_hex("r4c1"), H_BUILDING] == 0
    assert tools(g) == 1  # 4 - 3


def test_r34_a_native_hex_is_built_on_directly() -> None:
    """R34: a hex that already shows the native terrain is built on without spades."""
    g = scenario().terrain("r4c1", "desert").set(0, tools=3, coins=15).turn(0)
    play(g, "build", "target r4c1")
    h = g.state.hexes[parse_hex("r4c1")]
    assert (h[H_BUILDING], h[H_OWNER]) == (Building.WORKSHOP, 0)
    assert tools(g) == 2  # 3 - 1 (Workshop)


# --------------------------------------------------------------------------------------------
# R35 terraforming wheel

WHEEL = [  # RULES.md R35 table, rows = from, columns = to, order De Pl Sw La Fo Mo Wa
    [0, 1, 2, 3, 3, 2, 1],
    [1, 0, 1, 2, 3, 3, 2],
    [2, 1, 0, 1, 2, 3, 3],
    [3, 2, 1, 0, 1, 2, 3],
    [3, 3, 2, 1, 0, 1, 2],
    [2, 3, 3, 2, 1, 0, 1],
    [1, 2, 3, 3, 2, 1, 0],
]


@pytest.mark.parametrize("source", list(Terrain)[:7])
def test_r35_wheel_distance_table(source: Terrain) -> None:
    """R35: the cost in spades is the shortest distance on the 7-terrain cycle
    Desert -> Plains -> Swamp -> Lake -> Forest -> Mountain -> Wasteland -> Desert."""
    assert [spade_distance(source, native) for native in list(Terrain)[:7]] == WHEEL[source]


@pytest.mark.parametrize("start", ["swamp", "mountain"])
def test_r35_rulebook_examples_swamp_and_mountain_to_desert_cost_two_spades(start: str) -> None:
    """R35: the rulebook's examples: Swamp -> Desert costs 2 spades, Mountain -> Desert costs 2."""
    g = scenario().terrain("r4c1", start).set(0, tools=12).turn(0)
    play(g, "build", "target r4c1")
    assert g.legal_moves() == ["spades 1", "spades 2"]  # 12 tools would buy 4, the hex needs 2
    play(g, "spades 2", "workshop")
    assert terrain_at(g, "r4c1") == Terrain.DESERT
    assert tools(g) == 5  # 12 - 2 x 3 (spades) - 1 (Workshop)


def test_r35_lake_is_three_spades_from_desert() -> None:
    """R35: Lake -> Desert is 3 spades (Lake, Swamp, Plains, Desert), the longest distance."""
    g = scenario().terrain("r4c1", "lake").set(0, tools=12).turn(0)
    play(g, "build", "target r4c1")
    assert g.legal_moves() == ["spades 1", "spades 2", "spades 3"]
    play(g, "spades 3", "workshop")
    assert tools(g) == 2  # 12 - 3 x 3 - 1


# --------------------------------------------------------------------------------------------
# R36 one spade


@pytest.mark.parametrize(
    ("start", "after_one"),
    [("swamp", Terrain.PLAINS), ("mountain", Terrain.WASTELAND), ("lake", Terrain.SWAMP), ("forest", Terrain.MOUNTAIN)],
)
def test_r36_one_spade_moves_the_hex_one_step_toward_native(start: str, after_one: Terrain) -> None:
    """R36: one spade changes the hex one step along the shortest path toward the spender's native
    terrain (intermediate terrains are allowed)."""
    g = scenario().terrain("r4c1", start).set(0, tools=12).turn(0)
    play(g, "build", "target r4c1", "spades 1")
    assert terrain_at(g, "r4c1") == after_one
    assert g.pending_kind() == Kind.POST  # not native yet: no Workshop


def test_r36_a_hex_is_never_moved_past_native() -> None:
    """R36: spades never move a hex past the native terrain: one spade short of native is the most
    offered on a 1-spade hex, however many spades the player could pay."""
    g = scenario().terrain("r4c1", "wasteland").set(0, tools=12).turn(0)
    play(g, "build", "target r4c1")
    assert g.legal_moves() == ["spades 1"]  # Wasteland -> Desert is 1 step
    play(g, "spades 1")
    assert terrain_at(g, "r4c1") == Terrain.DESERT
    assert g.legal_moves() == ["workshop", "done"]


# --------------------------------------------------------------------------------------------
# R37 tools per spade


@pytest.mark.parametrize(("level", "rate"), [(0, 3), (1, 2), (2, 1)])
def test_r37_spade_price_follows_the_terraforming_track(level: int, rate: int) -> None:
    """R37: one spade costs 3 tools at the start, 2 after the first and 1 after the second
    terraforming upgrade."""
    g = scenario().terrain("r4c1", "plains").set(0, tools=6, terraforming=level).turn(0)
    play(g, "build", "target r4c1", "spades 1", "workshop")
    assert tools(g) == 6 - rate - 1  # one spade at the track rate, then 1 tool for the Workshop


def test_r37_spades_cannot_be_bought_without_enough_tools() -> None:
    """R37: with fewer tools than the spade price, a non-native hex cannot be targeted (a native
    hex still can)."""
    g = scenario().terrain("r4c1", "plains").terrain("r4c0", "desert").set(0, tools=2).turn(0)  # price 3
    play(g, "build")
    assert g.legal_moves() == ["target r4c0"]  # r4c1 would need 3 tools for its spade
