"""Edge cases of cited ids that the tests citing them did not check: R17.3 (terraforming starts at
3 tools per spade), R64 (the Workshop's tool; its hex in reach), R66 (no School piece left),
R83 (tunnel and flight ranges connect for the final area without tools or scholars), R129 (a
flight needs a scholar in the holdings; it may land in sailing reach), R134 (palace 14 ignores
one river hex, not two).

The other ids of this batch (R3, R6, R15, R23, R24, R30, R45, R49, R54, R63, R75, R76, R79, R94,
R140, R145, OP-58) are checked, edge cases included, by the tests that cite them.
"""

from __future__ import annotations

import pytest

from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.invariants import check
from aoi_env.core.pending import Kind
from aoi_env.core.rules import terrain
from aoi_env.core.state import (
    G_PHASE,
    G_ROUND,
    H_BUILDING,
    H_CITY,
    H_OWNER,
    H_RIVER_CITY,
    P_COINS,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_TERRAFORMING,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data.enums import Building
from aoi_env.testing import Scenario, play


def building(g: Game, hex_: str) -> tuple[str, int]:
    h = g.state.hexes[parse_hex(hex_)]
    return Building(int(h[H_BUILDING])).name.lower(), int(h[H_OWNER])


def targets(g: Game) -> list[str]:
    return [m.split()[1] for m in g.legal_moves() if m.startswith("target ")]


# ------------------------------------------------------------------------------------------------
# R17.3: the terraforming track starts at "3 tools per spade"


@pytest.mark.parametrize("game", ["aoi(players=3,setup_choices=random)", "aoi(players=5,setup_choices=random)"])
def test_r17_3_terraforming_starts_at_three_tools_per_spade(game: str) -> None:
    """R17.3: "Put the two track markers on the lowest spaces ... Terraforming starts at '3 tools
    per spade'" -- on every planning board (the Plains board only pays less to advance, R72).
    After a real setup, in round 1, every player's marker is on the lowest space and a spade
    costs 3 tools; one TB spade bought with tools costs exactly 3 of them."""
    for seed in range(3):
        g = Game(game, seed=seed)
        while int(g.state.glob[G_ROUND]) < 1 or int(g.state.glob[G_PHASE]) == Phase.SETUP:
            g.apply_action(g.legal_actions()[0])
        for seat in range(g.seats):
            assert int(g.state.players[seat, P_TERRAFORMING]) == 0
            assert terrain.tools_per_spade(g, seat) == 3, (seed, seat)
    g = _desert(tools=10).turn(0)
    play(g, "build", "target r7c7", "spades 1")  # wasteland -> desert: 1 spade bought with tools
    assert int(g.state.players[0, P_TOOLS]) == 10 - 3


# ------------------------------------------------------------------------------------------------
# R64: building a Workshop (seat 0: Desert board, Workshop on r7c6, sailing 0; its reach is the
# five land neighbours r6c6 plains, r7c5 swamp, r7c7 wasteland, r8c6 plains, r8c7 lake)


def _desert(tools: int, coins: int = 15) -> Scenario:
    s = Scenario("aoi(players=3)", factions=["felines", "blessed", "monks"], boards=["desert", "lake", "forest"])
    for seat, tile in enumerate(("B10", "B9", "B8")):
        s.bonus(seat, tile)
    s.round(1, tile="T10")  # innovation VP: nothing here scores
    s.build(0, "r7c6", "workshop")
    return s.set(0, tools=tools, coins=coins, bowls=(0, 0, 12))


@pytest.mark.parametrize("tools", [0, 1])
def test_r64_the_workshop_after_a_free_spade_needs_its_tool(tools: int) -> None:
    """R64: "the player pays 1 tool + 2 coins" (only Lizards' free Workshop and effects that say
    "free" are exempt).  Spell S3's spade is free, so r7c7 (wasteland, 1 spade) becomes desert
    with no tool; the Workshop on it is then offered only with a tool to pay: with 0 tools (and
    15 coins) the TB ends with the hex unbuilt, with 1 tool the Workshop costs exactly 1 tool +
    2 coins."""
    g = _desert(tools).turn(0)
    play(g, "spell S3", "target r7c7", "spades 1")
    assert g.state.players[0, P_TOOLS] == tools  # the free spade cost nothing
    if tools == 0:
        assert g.legal_moves() == ["done"]
        play(g, "done")
        assert building(g, "r7c7") == ("none", -1)
    else:
        assert "workshop" in g.legal_moves()
        play(g, "workshop")
        assert building(g, "r7c7") == ("workshop", 0)
        p = g.state.players[0]
        assert (int(p[P_TOOLS]), int(p[P_COINS])) == (0, 15 - 2)
    check(g)


def test_r64_a_native_hex_out_of_reach_is_no_workshop_target() -> None:
    """R64: the Workshop's hex must be "unbuilt and in reach of one of the player's buildings".
    r8c6 (a neighbour of r7c6) and r8c8 (two hexes away, sailing 0, no bridge) are both made
    desert: only r8c6 may be built on; r8c8 is offered neither as a build nor as a terraform
    target."""
    s = _desert(tools=10).terrain("r8c6", "desert").terrain("r8c8", "desert")
    g = s.turn(0)
    play(g, "build")
    assert "r8c6" in targets(g)
    assert "r8c8" not in targets(g)
    play(g, "target r8c6")  # native: the Workshop is built at once
    assert building(g, "r8c6") == ("workshop", 0)
    assert building(g, "r8c8") == ("none", -1)


# ------------------------------------------------------------------------------------------------
# R66: no upgrade into a type with no piece left (the other rows than the Guild's)


def _plains(tile: str = "T9") -> Scenario:
    """Round 2 of a 3-player game; seat 0 Inventors on Plains (no faction effect in play)."""
    return Scenario(
        "aoi(players=3)", factions=["inventors", "monks", "illusionists"], boards=["plains", "lake", "swamp"]
    ).round(2, tile=tile)


def test_r66_no_school_upgrade_once_all_three_school_pieces_are_on_the_map() -> None:
    """R66: "You cannot upgrade into a type of which no piece is left on your board."  Seat 0 has
    its 3 Schools on the map, a Guild and plenty of tools and coins: Guild -> School is not
    offered, Guild -> Palace (a piece left, a palace tile on display) still is.  With only two
    Schools on the map the School upgrade is offered on the same Guild."""
    for schools, offered in ((3, False), (2, True)):
        s = _plains().build(0, "r7c5", "guild")
        for hex_ in ("r0c0", "r0c2", "r0c4")[:schools]:
            s.build(0, hex_, "school")
        g = s.offer_palace(1, 17).set(0, tools=10, coins=20).turn(0)
        moves = g.legal_moves()
        assert ("upgrade school" in moves) is offered
        assert "upgrade palace" in moves


# ------------------------------------------------------------------------------------------------
# R83: the Moles' and palace 9's area connections need no tools and no scholars


def test_r83_tunnel_and_flight_ranges_connect_without_tools_or_scholars() -> None:
    """R83: "Moles: buildings count as connected if they could be reached by a tunnel ...
    regardless of tools"; "Palace 9: ... reached by a flight (over 1 or 2 hexes), regardless of
    scholars".  Round 6, every seat with 0 coins, 0 tools, 0 scholars, sailing 0 and bowls
    12/0/0 (no resource VP) and science 0: the Moles' Workshops r7c6 / r7c8 (2 apart) are one
    group of 2, seat 1's Palace r0c0 (tile 9) and Workshop r0c3 (3 apart) one group of 2, seat 2
    has 1 Workshop.  The final area scoring shares 18 + 12 between the two tied groups of 2 (15
    each) and gives 6 to the third; with palace 17 instead of 9 seat 1 has two groups of 1."""
    for tile, gained in ((9, [15, 15, 6]), (17, [18, 9, 9])):
        s = Scenario("aoi(players=3)", factions=["moles", "felines", "monks"], boards=["mountain", "lake", "forest"])
        for seat, bonus in enumerate(("B10", "B9", "B7")):
            s.bonus(seat, bonus)
        s.round(6, tile="T10")
        s.build(0, "r7c6", "workshop").build(0, "r7c8", "workshop")
        s.build(1, "r0c0", "palace").palace_tile(1, tile).build(1, "r0c3", "workshop")
        s.build(2, "r4c8", "workshop")
        for seat in range(3):
            s.set(seat, coins=0, tools=0, scholars=0, bowls=(12, 0, 0), sailing=0)
        g = s.turn(0)
        vp = [int(v) for v in g.state.players[:3, P_VP]]
        play(g, "pass", "pass", "pass")
        assert g.is_over()
        assert [int(g.state.players[seat, P_VP]) - vp[seat] for seat in range(3)] == gained, tile


# ------------------------------------------------------------------------------------------------
# R129: palace 9's flight


def test_r129_a_flight_needs_a_scholar_in_the_holdings() -> None:
    """R129: "Whenever you take a TB action you may return 1 scholar to fly" -- the scholar
    comes from the holdings (R3: scholars in the personal supply are not available).  With all 7
    scholars in the personal supply the TB offers no flight and no flight target; with 1 scholar
    held it does, and the flight returns it to the supply (+5 VP)."""
    for held in (0, 1):
        s = _plains().build(0, "r7c5", "palace").palace_tile(0, 9)
        g = s.set(0, scholars=held, tools=4, coins=2).turn(0)
        assert int(g.state.players[0, P_SCHOLARS] + g.state.players[0, P_SCHOLAR_SUPPLY]) == 7
        play(g, "build")
        if not held:
            assert "fly" not in g.legal_moves()
            assert not any(m.startswith("fly") for m in g.legal_moves())
            continue
        play(g, "fly", "fly r7c8", "spades 1", "workshop")  # distance 3: only a flight reaches it
        p = g.state.players[0]
        assert building(g, "r7c8") == ("workshop", 0)
        assert (int(p[P_SCHOLARS]), int(p[P_SCHOLAR_SUPPLY]), int(p[P_VP])) == (0, 7, 25)


def test_r129_a_flight_may_land_on_a_hex_already_in_sailing_reach() -> None:
    """R129: "Flight is allowed even if the target is in sailing reach" (only "the target hex
    must not be adjacent to any of your buildings").  Seat 0 (Plains, sailing 1) has its Palace
    (tile 9) on r7c5 and a Workshop on r7c7; r5c7 lies across river hex r6c7, so it is an
    ordinary TB target in sailing reach and not adjacent to either building.  The flight still
    offers it, and flying there costs the scholar and scores the 5 VP."""
    s = _plains(tile="T10").build(0, "r7c5", "palace").palace_tile(0, 9).build(0, "r7c7", "workshop")
    g = s.set(0, scholars=1, tools=6, coins=4, sailing=1).turn(0)
    play(g, "build")
    assert "r5c7" in targets(g)  # in sailing reach over r6c7
    play(g, "fly")
    assert "fly r5c7" in g.legal_moves()
    play(g, "fly r5c7", "spades 1", "workshop")  # desert -> plains: 1 spade (3 tools)
    p = g.state.players[0]
    assert building(g, "r5c7") == ("workshop", 0)
    assert (int(p[P_SCHOLARS]), int(p[P_SCHOLAR_SUPPLY]), int(p[P_VP])) == (0, 7, 20 + 5)
    assert (int(p[P_TOOLS]), int(p[P_COINS])) == (6 - 3 - 1, 4 - 2)


# ------------------------------------------------------------------------------------------------
# R134: palace 14 ignores ONE river hex

LAYOUTS = {
    # A: Palace + Workshop south of river r6c7; B: Guild r5c7 north of it, + the new Workshop r5c8
    "one river hex": (("r7c6", "r7c7"), "r5c7", "r5c8"),
    # A: Palace r1c0 + Workshop r2c0; B: Guild r1c3 + the new Workshop r1c4: every path between
    # the two groups crosses two river hexes, and no river hex touches both groups
    "two river hexes": (("r1c0", "r2c0"), "r1c3", "r1c4"),
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_r134_palace14_ignores_one_river_hex_not_two(layout: str) -> None:
    """R134: "whenever you found a city, you may ignore **1 river hex** between your buildings
    when forming the group".  Two groups of seat 0 (Palace 3 + Workshop 1 | Guild 2 + a new
    Workshop 1: 7 power in 4 buildings, a city only together) separated by one river hex are
    offered the crossing when the Workshop's build checks for cities; the same groups separated
    by two river hexes are not: no crossing offered, no city founded."""
    (palace, workshop), guild, new = LAYOUTS[layout]
    s = _plains(tile="T10").build(0, palace, "palace").palace_tile(0, 14).build(0, workshop, "workshop")
    s.build(0, guild, "guild").terrain(new, "plains").set(0, tools=1, coins=2)
    g = s.turn(0)
    play(g, "build", f"target {new}")  # native: the Workshop is built at once, then the city check
    assert building(g, new) == ("workshop", 0)
    if layout == "one river hex":
        assert g.pending_kind() == Kind.RIVER_CITY
        crossing = [m for m in g.legal_moves() if m.startswith("rivercity")]
        assert crossing
        play(g, crossing[0])
        assert g.state.hexes[parse_hex(crossing[0].split()[1]), H_RIVER_CITY] == 1
        assert all(g.state.hexes[parse_hex(x), H_CITY] == 1 for x in (palace, workshop, guild, new))
    else:
        assert g.pending_kind() != Kind.RIVER_CITY
        assert not any(m.startswith("rivercity") for m in g.legal_moves())
        assert not g.state.hexes[:, H_CITY].any()
        assert not g.state.hexes[:, H_RIVER_CITY].any()
