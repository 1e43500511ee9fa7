"""RULES.md §3.4 Adjacency and reach (R38-R40): adjacency, direct and indirect reach, bridges.

Map corner used here (3-5 side): r4c2 and r4c3 touch the river hexes r5c1, r5c2, r5c3; the
printed bridge location r4c2 - r6c2 crosses that river; r6c2 and r6c3 lie one river hex south of
r4c3.
"""

from __future__ import annotations

from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.state import P_BOWLS, P_BRIDGES, P_COINS
from aoi_env.testing import Scenario, play, power_moved

GAME = "aoi(players=3)"
FACTIONS = ["blessed", "inventors", "monks"]
BOARDS = ["desert", "plains", "forest"]


def scenario() -> Scenario:
    return Scenario(GAME, factions=FACTIONS, boards=BOARDS).round(1, tile="T10")


def targets(g: Game) -> set[str]:
    """Hexes offered as the first hex of a TB (the pending decision must be tb_target)."""
    assert g.pending_kind() == Kind.TB_TARGET
    return {m.split()[1] for m in g.legal_moves() if m.startswith("target ")}


def bridges(g: Game) -> set[tuple[int, int]]:
    return {(int(a), int(b)) for a, b in g.state.built_bridges()}


# --------------------------------------------------------------------------------------------
# R38 adjacency


def test_r38_hexes_sharing_an_edge_are_adjacent() -> None:
    """R38: buildings on hexes sharing an edge are adjacent (a power offer reaches r4c2 from
    r4c1, but not r4c3, which is two hexes away)."""
    g = (
        scenario()
        .build(0, "r3c0", "workshop")
        .build(1, "r4c2", "workshop")
        .build(2, "r4c3", "workshop")
        .terrain("r4c1", "desert")
        .turn(0)
    )
    play(g, "build", "target r4c1")
    assert (g.pending_kind(), g.current_seat()) == (Kind.OFFER, 1)
    play(g, "leech accept")
    assert g.pending_kind() == Kind.POST  # no offer for seat 2


def test_r38_bridge_ends_are_adjacent_for_everyone() -> None:
    """R38: the two ends of a built bridge are adjacent for all players, whoever built it: seat 0
    builds on r4c2 and seat 1's Workshop across seat 2's bridge on r6c2 gets an offer."""
    g = (
        scenario()
        .build(0, "r3c1", "workshop")
        .build(1, "r6c2", "workshop")
        .build(2, "r7c2", "workshop")
        .bridge(2, "r4c2", "r6c2")
        .terrain("r4c2", "desert")
        .turn(0)
    )
    before = g.clone()
    play(g, "build", "target r4c2")
    assert (g.pending_kind(), g.current_seat()) == (Kind.OFFER, 1)
    play(g, "leech accept")
    assert power_moved(before, g, 1) == 1  # the Workshop across the bridge


def test_r38_without_the_bridge_the_river_separates() -> None:
    """R38: without a bridge, r4c2 and r6c2 (across the river) are not adjacent: no offer."""
    g = scenario().build(0, "r3c1", "workshop").build(1, "r6c2", "workshop").terrain("r4c2", "desert").turn(0)
    play(g, "build", "target r4c2")
    assert g.pending_kind() == Kind.POST


def test_r38_r67_guild_discount_counts_a_neighbour_across_a_bridge() -> None:
    """R38 / R67: the Guild discount (3 coins instead of 6 next to another player's building) uses
    adjacency, bridges included."""

    def position() -> Scenario:
        return scenario().build(0, "r4c2", "workshop").build(1, "r6c2", "workshop").set(0, coins=10, tools=5)

    g = position().turn(0)
    play(g, "upgrade guild", "upgrade r4c2")
    assert g.state.players[0, P_COINS] == 4  # 10 - 6: no neighbour without the bridge
    g = position().bridge(2, "r4c2", "r6c2").turn(0)
    play(g, "upgrade guild", "upgrade r4c2")
    assert g.state.players[0, P_COINS] == 7  # 10 - 3: seat 1's Workshop is adjacent by the bridge


# --------------------------------------------------------------------------------------------
# R39 reach


def test_r39_direct_reach_is_the_adjacent_land_hexes() -> None:
    """R39 (a): with sailing 0, the hexes in reach are the land hexes adjacent to a building."""
    g = scenario().build(0, "r3c0", "workshop").set(0, tools=9, sailing=0).turn(0)
    play(g, "build")
    assert targets(g) == {"r2c0", "r2c1", "r3c1", "r4c0", "r4c1"}  # r3c0's land neighbours


def test_r39_indirect_reach_crosses_up_to_sailing_river_hexes() -> None:
    """R39 (b): a hex is in reach across a path of 1 <= k <= s river hexes (s = sailing value).
    r6c3 is one river hex from r4c3: out of reach with sailing 0, in reach with sailing 1."""
    g = scenario().build(0, "r4c3", "workshop").set(0, tools=9, sailing=0).turn(0)
    play(g, "build")
    assert targets(g) == {"r3c2", "r4c2"}
    g = scenario().build(0, "r4c3", "workshop").set(0, tools=9, sailing=1).turn(0)
    play(g, "build")
    assert targets(g) == {"r3c2", "r4c2", "r2c4", "r3c4", "r5c4", "r6c2", "r6c3"}


def test_r39_sailing_two_reaches_two_river_hexes_away() -> None:
    """R39 (b): with sailing 2, r7c4 (river hexes r5c3 and r6c4 between) is in reach of r4c3."""
    g = scenario().build(0, "r4c3", "workshop").set(0, tools=9, sailing=1).turn(0)
    play(g, "build")
    assert "r7c4" not in targets(g)
    g = scenario().build(0, "r4c3", "workshop").set(0, tools=9, sailing=2).turn(0)
    play(g, "build")
    assert "r7c4" in targets(g)


def test_r39_r138_river_bonus_tile_adds_one_sailing_in_phase_ii() -> None:
    """R39: the sailing value is the track value, +1 while holding round bonus tile B1 in Phase II."""
    g = scenario().build(0, "r4c3", "workshop").set(0, tools=9, sailing=0).bonus(0, "B1").turn(0)
    play(g, "build")
    assert "r6c3" in targets(g)  # sailing 0 + 1 (B1)


def test_r39_own_neutral_buildings_give_reach() -> None:
    """R39: neutral buildings the player owns count for reach."""
    g = scenario().build(0, "r3c0", "tower", neutral=True).set(0, tools=9, sailing=0).turn(0)
    play(g, "build")
    assert targets(g) == {"r2c0", "r2c1", "r3c1", "r4c0", "r4c1"}


def test_r39_other_players_buildings_give_no_reach() -> None:
    """R39: only one's own buildings give reach."""
    g = scenario().build(0, "r8c12", "workshop").build(1, "r3c0", "workshop").set(0, tools=9, sailing=0).turn(0)
    play(g, "build")
    assert targets(g) == {"r7c11", "r8c11"}  # only around seat 0's own r8c12


def test_r39_r40_a_bridge_puts_its_far_end_in_reach() -> None:
    """R39 / R40: a bridge makes its ends adjacent, so the far end is in direct reach (sailing 0),
    even when another player built the bridge."""
    g = scenario().build(0, "r4c2", "workshop").bridge(1, "r4c2", "r6c2").set(0, tools=9, sailing=0).turn(0)
    play(g, "build")
    assert "r6c2" in targets(g)


# --------------------------------------------------------------------------------------------
# R40 bridges


def test_r40_bridge_spell_connects_a_printed_location_next_to_an_own_building() -> None:
    """R40: a bridge joins the two land hexes of a printed bridge location; one end must hold an
    own building.  The bridge spell costs 3 power."""
    g = scenario().build(0, "r4c2", "workshop").set(0, bowls=(0, 9, 3)).turn(0)
    play(g, "spell S1")
    assert g.legal_moves() == ["bridge r4c2", "bridge r6c2"]  # the only location touching r4c2
    play(g, "bridge r4c2")
    assert g.legal_moves() == ["bridge to r6c2"]
    play(g, "bridge to r6c2")
    assert bridges(g) == {(parse_hex("r4c2"), parse_hex("r6c2"))}
    assert g.state.players[0, P_BRIDGES] == 1
    assert list(g.state.players[0, P_BOWLS]) == [3, 9, 0]  # 3 power spent


def test_r40_bridge_spell_on_the_1_3_side_uses_its_own_printed_locations() -> None:
    """R40 / OP-12 on the 1-3 board side (R5): r5c5 touches two of that side's printed bridge
    locations (to r6c4 and to r7c5), and the bridge joins the chosen one."""
    sc = Scenario("aoi(players=3,map=1-3)", factions=FACTIONS, boards=BOARDS).round(1, tile="T10")
    g = sc.build(0, "r5c5", "workshop").set(0, bowls=(0, 9, 3)).turn(0)
    play(g, "spell S1")
    assert g.legal_moves() == ["bridge r5c5", "bridge r6c4", "bridge r7c5"]
    play(g, "bridge r5c5")
    assert g.legal_moves() == ["bridge to r6c4", "bridge to r7c5"]
    play(g, "bridge to r7c5")
    assert bridges(g) == {(parse_hex("r5c5"), parse_hex("r7c5"))}


def test_r40_no_bridge_without_an_own_building_at_an_end() -> None:
    """R40: a bridge needs an own building on at least one of its two hexes."""
    g = scenario().build(0, "r3c1", "workshop").set(0, bowls=(0, 9, 3)).turn(0)
    assert "spell S1" not in g.legal_moves()  # no printed location touches r3c1


def test_r40_no_second_bridge_on_a_location() -> None:
    """R40: there may not already be a bridge at the location."""
    g = scenario().build(0, "r4c2", "workshop").bridge(1, "r4c2", "r6c2").set(0, bowls=(0, 9, 3)).turn(0)
    assert "spell S1" not in g.legal_moves()


def test_r40_each_player_has_three_bridges() -> None:
    """R40: each player has 3 bridges; a fourth cannot be built."""
    g = scenario().build(0, "r4c2", "workshop").set(0, bowls=(0, 9, 3)).turn(0)
    assert "spell S1" in g.legal_moves()
    g = scenario().build(0, "r4c2", "workshop").set(0, bowls=(0, 9, 3))
    g = g.bridge(0, "r0c2", "r1c0").bridge(0, "r0c8", "r1c6").bridge(0, "r0c11", "r1c12").turn(0)
    assert "spell S1" not in g.legal_moves()


def test_r40_a_new_bridge_makes_its_ends_adjacent_for_offers() -> None:
    """R40 / R38: once built, the bridge makes the two hexes adjacent for all purposes (here: a
    later build on r4c2 offers power to seat 2's Workshop on r6c2, across seat 2's new bridge)."""
    g = (
        scenario()
        .build(0, "r3c1", "workshop")
        .build(2, "r6c2", "workshop")
        .set(2, bowls=(0, 9, 3))
        .terrain("r4c2", "desert")
        .turn(2)
    )
    play(g, "spell S1", "bridge r6c2", "bridge to r4c2", "done")
    assert (g.pending_kind(), g.current_seat()) == (Kind.MAIN, 0)
    play(g, "build", "target r4c2")
    assert (g.pending_kind(), g.current_seat()) == (Kind.OFFER, 2)
