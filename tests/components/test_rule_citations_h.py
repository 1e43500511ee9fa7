"""Edge cases of weakly cited rules and open points (part h): OP-47 (the Moles' bridge joins two
land hexes at bridge distance *whether the hexes flanking it are land or river*, and *not where a
bridge already stands*), R123 (palace 3 swaps one of *your* Schools, which goes back to the
planning board: a neutral School, R46.4, is never swapped; the swap *is a build*, so it makes
power offers, R55 / R42) and OP-59 (conversions before the *Lizards'* city TB).

The other ids of this batch (R14 R20 R21 R22 R35 R44 R47 R58 R67 R71 R72 R81 R82 R92 R100 R143,
OP-30 OP-31 OP-38) were reviewed against their citing tests and found covered there.

Moles tests: seat 0 Moles on Mountain, 1 Felines on Forest, 2 Goblins on Desert; the Moles' Workshop
stands on r6c6.  Its five partners at bridge distance (two common neighbours) on the 3-5 side:

    r5c4  flanked by r5c5, r6c5 (land, land)
    r7c4  flanked by r6c5, r7c5 (land, land)
    r8c6  flanked by r7c5, r7c6 (land, land)
    r7c7  flanked by r7c6 (land) and r6c7 (river)
    r5c7  flanked by r5c6, r6c7 (river, river): also a printed bridge location (R40)
"""

from __future__ import annotations

import pytest

from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.state import H_BUILDING, H_NEUTRAL, H_OWNER, H_TERRAIN, P_BRIDGES, P_BUILT, P_TOOLS, P_VP
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario, power_moved
from tests.rule_positions import play
from tests.state_readers import hex_row, player

# ------------------------------------------------------------------------------------------------
# OP-47 the Moles' bridge geometry

FLANKS = {  # partner of r6c6 -> (flanking hexes, how many of them are river)
    "r5c4": (("r5c5", "r6c5"), 0),
    "r7c4": (("r6c5", "r7c5"), 0),
    "r8c6": (("r7c5", "r7c6"), 0),
    "r7c7": (("r7c6", "r6c7"), 1),
    "r5c7": (("r5c6", "r6c7"), 2),
}


def moles() -> Scenario:
    sc = Scenario("aoi(players=3)", factions=["moles", "felines", "goblins"], boards=["mountain", "forest", "desert"])
    return sc.round(2, tile="T9").build(0, "r6c6", "workshop").set(0, tools=3)


def bridge_partners(g: Game, end: str = "r6c6") -> set[str]:
    """The hexes offered as the other end once ``end`` is chosen as the first end."""
    c = play(g.clone(), f"bridge {end}")
    assert c.pending_kind() == Kind.BRIDGE_DIR
    return {m.split()[-1] for m in c.legal_moves()}


def test_op47_moles_bridge_whether_the_flanking_hexes_are_land_or_river():
    """OP-47: "A Moles bridge joins two land hexes at distance 2 (the usual bridge geometry),
    whether the hexes flanking it are land or river.  It need not be a printed location."  From
    the Moles' Workshop on r6c6 every one of the five partners is offered: three flanked by land
    only, r7c7 by land and river, and r5c7 by river only (also a printed location); after choosing
    r5c7 the bridge is built for 1 tool and makes the two hexes adjacent (R38)."""
    g = moles().turn(0)
    geo = g.geo
    for partner, (flanks, rivers) in FLANKS.items():  # the layout the docstring describes
        a, b = parse_hex("r6c6"), parse_hex(partner)
        common = set(geo.neighbors[a]) & set(geo.neighbors[b])
        assert common == {parse_hex(x) for x in flanks}, partner
        assert sum(bool(geo.river[x]) for x in common) == rivers, partner
    play(g, "molebridge")
    assert player(g)[P_TOOLS] == 2  # 3 - 1
    assert bridge_partners(g) == set(FLANKS)
    play(g, "bridge r6c6", "bridge to r5c7")
    assert player(g)[P_BRIDGES] == 1
    assert g.adjacency()[parse_hex("r6c6"), parse_hex("r5c7")]
    play(g, "done")
    assert g.current_seat() == 1


def test_op47_no_moles_bridge_where_a_bridge_already_stands():
    """OP-47: the Moles' bridge "needs a Moles building at one end and no bridge already there".
    Two bridges already touch r6c6: the Felines' on the printed location r5c7 - r6c6 and the
    Moles' own r6c6 - r8c6 (Moles geometry); neither pair is offered again, from either end, while
    the three free partners still are."""
    sc = moles().build(1, "r5c7", "workshop").bridge(1, "r5c7", "r6c6").bridge(0, "r6c6", "r8c6")
    g = play(sc.turn(0), "molebridge")
    assert bridge_partners(g) == {"r5c4", "r7c4", "r7c7"}
    ends = {m.split()[-1] for m in g.legal_moves()}
    assert ends == {"r6c6", "r5c4", "r7c4", "r7c7"}  # r5c7 / r8c6: their only pair with r6c6 is taken
    play(g, "bridge r7c7")
    assert g.legal_moves() == ["bridge to r6c6"]
    play(g, "bridge to r6c6")
    assert player(g)[P_BRIDGES] == 2
    assert g.pending_kind() == Kind.POST


# ------------------------------------------------------------------------------------------------
# R123 palace 3: your Schools, not a neutral one

FACTIONS = ["inventors", "monks", "illusionists"]
BOARDS = ["plains", "lake", "swamp"]


def palace3() -> Scenario:
    """Seat 0 (Inventors, Plains) has its Palace on r7c5 with tile 3; round 2, T9."""
    sc = Scenario("aoi(players=3)", factions=FACTIONS, boards=BOARDS).round(2, tile="T9")
    return sc.build(0, "r7c5", "palace").palace_tile(0, 3)


@pytest.mark.parametrize("own_school", [False, True])
def test_r123_palace3_swaps_only_a_school_from_the_planning_board(own_school: bool):
    """R123: "swap one of your Schools on the map for a Guild.  The School goes back to the
    planning board"; a neutral School (the R118 innovation) has no planning-board space and can
    never be upgraded (R46.4).  With only the neutral School on r6c6 the special action is not
    offered; with a School of the planning board on r8c6 too, only r8c6 is offered, and the swap
    gives 3 VP + 1 tool and leaves the neutral School in place."""
    sc = palace3().build(0, "r6c6", "school", neutral=True)
    if own_school:
        sc.build(0, "r8c6", "school")
    g = sc.turn(0)
    if not own_school:
        assert "special palace" not in g.legal_moves()
        return
    play(g, "special palace")
    assert g.pending_kind() == Kind.UPGRADE_TARGET
    assert g.legal_moves() == ["upgrade r8c6"]
    play(g, "upgrade r8c6")
    assert hex_row(g, "r8c6")[H_BUILDING] == Building.GUILD
    assert (hex_row(g, "r6c6")[H_BUILDING], hex_row(g, "r6c6")[H_NEUTRAL]) == (Building.SCHOOL, 1)
    p = player(g)
    assert p[P_BUILT.start + Building.SCHOOL] == 0 and p[P_BUILT.start + Building.GUILD] == 1
    assert p[P_VP] == 20 + 3 and p[P_TOOLS] == 3 + 1


def test_r123_r55_palace3_swap_is_a_build_with_power_offers():
    """R123: "The swap is a build (Guild)"; R55 lists "Palace 3's swap, which places a Guild" as a
    build event, so it triggers power offers (R42): seat 1's Workshop next to r8c6 is offered
    1 power (free, 0 VP) before seat 0's turn goes on; a School swapped far from others offers
    nothing."""
    sc = palace3().build(0, "r8c6", "school").build(1, "r8c7", "workshop")
    g = sc.turn(0)
    before = g.clone()
    play(g, "special palace", "upgrade r8c6")
    assert (g.pending_kind(), g.current_seat()) == (Kind.OFFER, 1)
    assert sorted(g.legal_moves()) == ["leech accept", "leech decline"]
    play(g, "leech accept")
    assert power_moved(before, g, 1) == 1
    assert player(g, 1)[P_VP] == 20  # 1 power costs 0 VP
    assert (g.pending_kind(), g.current_seat()) == (Kind.POST, 0)
    far = play(palace3().build(0, "r0c4", "school").build(1, "r8c7", "workshop").turn(0), "special palace")
    play(far, "upgrade r0c4")
    assert (far.pending_kind(), far.current_seat()) == (Kind.POST, 0)  # no neighbour: no offer


# ------------------------------------------------------------------------------------------------
# OP-59 conversions before the Lizards' city TB


def lizards_city() -> Game:
    """Lizards (Swamp; terraforming 2: 1 tool per spade) with Palace r8c5 + Guild r8c6 + Workshop
    r8c7 build a Workshop on r8c8 (their last tool and coins): a city (4 buildings, power 7); they
    take K5 and their city TB (1 free spade + 1 free Workshop, R94) is pending, with 0 tools and
    3 power in bowl III.  r7c6 is Desert: 2 spades from Swamp."""
    sc = Scenario("aoi(players=3)", factions=["lizards", "goblins", "omar"], boards=["swamp", "desert", "lake"])
    sc.round(2, tile="T9").build(0, "r8c5", "palace").build(0, "r8c6", "guild").build(0, "r8c7", "workshop")
    sc.terrain("r8c8", "swamp").terrain("r7c6", "desert")
    g = sc.set(0, tools=1, coins=2, terraforming=2, bowls=(9, 0, 3)).turn(0)
    play(g, "build", "target r8c8", "city K5")
    assert g.pending_kind() == Kind.TB_TARGET and g.current_seat() == 0
    assert player(g)[P_TOOLS] == 0
    return g


def test_op59_lizards_may_convert_before_their_city_tb():
    """OP-59: conversions are "allowed before a bonus TB received inside your turn (city tile,
    Lizards)".  At the Lizards' city TB the conversions are offered; without one only the free
    spade can be used on r7c6 (Desert -> Plains), with 3 power -> 1 tool the second spade is bought
    (1 tool at terraforming 2), r7c6 becomes Swamp and the free Workshop goes on it."""
    g = lizards_city()
    assert "convert 3pw tool" in g.legal_moves()
    without = play(g.clone(), "target r7c6")
    assert without.legal_moves() == ["spades 1"]  # no tool to buy the second spade
    play(g, "convert 3pw tool")
    assert g.pending_kind() == Kind.TB_TARGET  # still the same TB
    assert player(g)[P_TOOLS] == 1
    play(g, "target r7c6")
    assert g.legal_moves() == ["spades 1", "spades 2"]
    play(g, "spades 2")
    assert hex_row(g, "r7c6")[H_TERRAIN] == Terrain.SWAMP
    assert g.pending_kind() == Kind.LIZARD_BUILD
    play(g, "workshop r7c6")
    assert (hex_row(g, "r7c6")[H_BUILDING], hex_row(g, "r7c6")[H_OWNER]) == (Building.WORKSHOP, 0)
    assert player(g)[P_TOOLS] == 0  # the converted tool paid the spade; the Workshop is free
