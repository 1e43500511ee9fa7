"""Edge cases of weakly cited rules and open points (part d): R107 / R111 (Census and Communication
count only *your* buildings), R133 (palace 13: each Guild *you* build, any source), R136 (palace 16:
*any* empty native hex, a Guild *from the planning board*), R4 (the turn order is read top to
bottom, not clockwise), OP-22 (a *School* upgrade that founds a city: rewards in any order), OP-44
(the Monks' University at setup makes no power offers and is their only building for reach),
OP-53 (the Lizards' free Workshop can itself extend or found a city) and OP-54 (a drafted palace
tile has no ability before the Palace is built).

Unless a test says otherwise: seats 0 Inventors on Plains (no faction effect during play), 1 Monks
on Lake, 2 Illusionists on Swamp; 3-player game on the 3-5 side, round 2 with round tile T9 (+4 per
School built).  Hexes used around seat 0 (Plains native; odd rows are shifted right):

          r5c7 D   r5c8 P
    r6c5 F   r6c6 P   (r6c7 river)
  r7c4 W   r7c5 S   r7c6 D   r7c7 W   r7c8 S
    r8c5 M   r8c6 P   r8c7 L   r8c8 F
"""

from __future__ import annotations

import numpy as np
import pytest

from aoi_env import testing
from aoi_env.core.board import hex_name, parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.invariants import check
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_BONUS_COINS,
    G_COMP_SPACES,
    G_ORDER,
    G_ROUND,
    H_BUILDING,
    H_CITY,
    H_OWNER,
    H_TERRAIN,
    P_BOWLS,
    P_BUILT,
    P_CITIES,
    P_COINS,
    P_COMPETENCIES,
    P_TOOLS,
    P_VP,
)
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario
from tests.rule_positions import develop, monks_before_university, play, scenario, with_palace
from tests.state_readers import hex_row, player


def competencies(g: Game, seat: int = 0) -> int:
    return bin(int(player(g, seat)[P_COMPETENCIES])).count("1")


# ------------------------------------------------------------------------------------------------
# R107 Census / R111 Communication: only your buildings

OWN = ["r8c4", "r8c5", "r8c6", "r8c7", "r8c8", "r8c9", "r8c10"]
OTHERS = {1: ["r0c2", "r0c3", "r0c4"], 2: ["r2c0", "r2c1", "r2c2"]}


@pytest.mark.parametrize(("own", "vp"), [(6, 0), (7, 8)])
def test_r107_census_counts_only_your_own_buildings(own: int, vp: int):
    """R107: "VP by the number of *your* buildings on the map": the 6 buildings of seats 1 and 2
    do not count.  6 own -> 0 VP (12 with theirs would be 18); 7 own -> 8 VP (13 -> 18)."""
    sc = scenario()
    for h in OWN[:own]:
        sc.build(0, h, "workshop")
    for seat, hexes in OTHERS.items():
        for h in hexes:
            sc.build(seat, h, "workshop")
    g = develop(sc, "census")
    assert player(g)[P_VP] == 20 + vp


@pytest.mark.parametrize(("middle", "vp"), [(1, 12), (0, 8)])
def test_r111_communication_groups_join_only_through_your_own_buildings(middle: int, vp: int):
    """R111: "separate groups of *your* buildings ... connected by adjacency": seat 0 has lone
    Workshops r8c5, r8c7, r3c11, r0c4 and r5c0.  Seat 1's Workshop on r8c6, touching r8c5 and r8c7,
    does not join them (5 groups -> 12 VP); seat 0's own neutral Tower there (OP-52: a neutral
    building counts as yours) does (4 groups -> 8 VP)."""
    sc = scenario()
    for h in ("r8c5", "r8c7", "r3c11", "r0c4", "r5c0"):
        sc.build(0, h, "workshop")
    if middle == 0:
        sc.build(0, "r8c6", "tower", neutral=True)
    else:
        sc.build(1, "r8c6", "workshop")
    g = develop(sc, "communication")
    assert player(g)[P_VP] == 20 + vp


# ------------------------------------------------------------------------------------------------
# R133 Palace 13


def test_r133_palace13_other_players_guilds_score_nothing():
    """R133: "each Guild *you* build: +3 VP": seat 1 upgrading a Workshop to a Guild gives seat 0
    (palace 13) nothing, and seat 1 nothing either."""
    sc = with_palace(scenario(), 13).build(1, "r8c8", "workshop").set(1, tools=2, coins=6)
    g = sc.turn(1)
    play(g, "upgrade guild", "upgrade r8c8")
    assert hex_row(g, "r8c8")[H_BUILDING] == Building.GUILD and hex_row(g, "r8c8")[H_OWNER] == 1
    assert player(g, 0)[P_VP] == 20 and player(g, 1)[P_VP] == 20


def test_r133_r146_palace13_neutral_guild_scores_3_vp():
    """R133, R146 ("Build Guild (..., neutral Guild)" -> Palace 13 +3): placing the neutral Guild
    of the innovation is a Guild you build: +3 VP (round tile T9 scores no Guild)."""
    g = develop(with_palace(scenario(), 13), "neutral_guild", coins=0)  # Palace built: no surcharge
    assert g.pending_kind() == Kind.NEUTRAL_PLACE
    assert player(g)[P_VP] == 20
    play(g, "neutral r6c6")
    assert hex_row(g, "r6c6")[H_BUILDING] == Building.GUILD
    assert player(g)[P_VP] == 23  # 20 + 3


# ------------------------------------------------------------------------------------------------
# R136 Palace 16


def test_r136_palace16_offers_exactly_every_empty_native_hex_and_uses_a_planning_board_guild():
    """R136: "place 1 Guild from your planning board on any empty hex of your native terrain
    anywhere": the offered hexes are exactly the empty Plains hexes of the map (no reach; the
    Plains hexes built by seat 0 itself and by seat 1 are not offered; no other terrain), and the
    Guild comes off the planning board (seat 0's Guild count on the map goes 0 -> 1)."""
    sc = scenario().build(0, "r8c6", "workshop").build(1, "r0c10", "workshop", terrain=False)
    sc.build(0, "r7c5", "guild").offer_palace(16, 17).set(0, tools=4, coins=6)
    g = sc.turn(0)
    play(g, "upgrade palace", "upgrade r7c5", "palace 16")
    assert g.pending_kind() == Kind.GUILD_ANYWHERE
    assert int(player(g)[P_BUILT.start + Building.GUILD]) == 0  # the Guild went back to its row
    h = g.state.hexes
    plains = (h[:, H_TERRAIN] == Terrain.PLAINS) & (h[:, H_BUILDING] == 0)
    empty_plains = {hex_name(int(i)) for i in np.flatnonzero(plains)}
    offered = {m.split()[1] for m in g.legal_moves()}
    assert offered == empty_plains
    assert len(offered) >= 10 and not {"r8c6", "r0c10", "r7c6"} & offered  # built / built / Desert
    play(g, "guild r4c0")  # far from every building of seat 0
    assert hex_row(g, "r4c0")[H_BUILDING] == Building.GUILD and hex_row(g, "r4c0")[H_OWNER] == 0
    assert int(player(g)[P_BUILT.start + Building.GUILD]) == 1


# ------------------------------------------------------------------------------------------------
# R4 turn-order board


def test_r4_turn_order_is_read_top_to_bottom_not_clockwise():
    """R4 / R78.4: the next round's column is filled in passing order and read from top to bottom.
    Passing order 0, 2, 1 (not a rotation of the seat order) makes round 2's order 0, 2, 1: after
    seat 0 comes seat 2, not the clockwise neighbour seat 1."""
    sc = Scenario("aoi(players=3)", factions=["blessed", "felines", "monks"], boards=["desert", "lake", "forest"])
    for seat, tile in enumerate(("B10", "B9", "B8")):
        sc.bonus(seat, tile)
    sc.round(1, tile="T10").display_bonus("B1", "B3", "B7").set(1, scholars=1)
    sc.state().glob[G_BONUS_COINS] = 0
    g = sc.turn(0)  # order 0, 1, 2
    play(g, "pass", "bonus B1")  # seat 0 passes first
    assert g.current_seat() == 1
    play(g, "scholar law return", "done")  # seat 1 acts
    assert g.current_seat() == 2
    play(g, "pass", "bonus B3")  # seat 2 passes second
    assert g.current_seat() == 1
    play(g, "pass", "bonus B7")  # seat 1 last: round 2
    while int(g.state.glob[G_ROUND]) == 1 or g.pending_kind() != Kind.MAIN:
        play(g, g.legal_moves()[0])  # income / science-bonus choices, if any
    assert int(g.state.glob[G_ROUND]) == 2
    assert [int(x) for x in g.state.glob[G_ORDER][:3]] == [0, 2, 1]
    assert g.current_seat() == 0
    play(g, "pass", "bonus B10")
    assert g.current_seat() == 2  # top to bottom: row II is seat 2
    play(g, "pass", "bonus B9")
    assert g.current_seat() == 1


# ------------------------------------------------------------------------------------------------
# OP-22: a School upgrade that founds a city


def _school_founds_river_city() -> Game:
    """Seat 0 (palace 14 on r0c4) has Guilds r7c6 + r7c7 south of river hex r6c7 and Guild r5c7 +
    Workshop r5c8 north of it (7 power, 4 buildings): a city only across the river, which palace
    14 offers at seat 0's next city check (R134).  Seat 0 upgrades r7c6 to a School."""
    sc = with_palace(scenario(), 14, at="r0c4")
    sc.build(0, "r7c6", "guild").build(0, "r7c7", "guild").build(0, "r5c7", "guild").build(0, "r5c8", "workshop")
    g = sc.set(0, tools=3, coins=5).turn(0)
    play(g, "upgrade school", "upgrade r7c6")
    assert hex_row(g, "r7c6")[H_BUILDING] == Building.SCHOOL
    assert g.pending_kind() == Kind.RIVER_CITY
    play(g, "rivercity r6c7")
    return g


@pytest.mark.parametrize("first", ["city", "competency"])
def test_op22_school_upgrade_that_founds_a_city_takes_the_rewards_in_any_order(first: str):
    """OP-22 ([UA] on the School upgrade: "if this action founds a city, you may take the rewards
    in any order"): the School's competency and the city tile are offered in either order, and
    both are taken."""
    g = _school_founds_river_city()
    assert g.pending_kind() == Kind.REWARD_ORDER
    assert g.legal_moves() == ["first city", "first competency"]
    play(g, f"first {first}")
    if first == "city":
        assert g.pending_kind() == Kind.CHOOSE_CITY
        play(g, "city K1")
        assert g.pending_kind() == Kind.CHOOSE_COMPETENCY
        play(g, g.legal_moves()[0])
    else:
        assert g.pending_kind() == Kind.CHOOSE_COMPETENCY
        play(g, g.legal_moves()[0])
        while g.pending_kind() != Kind.CHOOSE_CITY:  # the competency's own choices, if any
            play(g, g.legal_moves()[0])
        play(g, "city K1")
    while g.pending_kind() != Kind.POST:
        play(g, g.legal_moves()[0])
    assert player(g)[P_CITIES] == 1 and competencies(g) == 1
    assert all(hex_row(g, h)[H_CITY] == 1 for h in ("r7c6", "r7c7", "r5c7", "r5c8"))


# ------------------------------------------------------------------------------------------------
# OP-44 Monks' University at setup


def test_op44_monks_university_next_to_another_building_makes_no_power_offer():
    """OP-44: "no power offers at setup": the University (power 3) placed on r1c10, next to Omar's
    Workshop r1c9, offers Omar nothing (a build would offer 3 power, R42): no offer is queued
    for the rest of setup and Omar's bowls are unchanged by the placement."""
    g = monks_before_university()
    assert g.adjacency()[parse_hex("r1c10"), parse_hex("r1c9")]
    before = [int(x) for x in player(g, 0)[P_BOWLS]]
    testing.play(g, "place r1c10")  # the rule's assertions first, then the invariants
    assert hex_row(g, "r1c10")[H_BUILDING] == Building.UNIVERSITY and hex_row(g, "r1c10")[H_OWNER] == 1
    assert g.pending_kind() == Kind.CHOOSE_COMPETENCY and g.current_seat() == 1  # no OFFER first
    assert [int(x) for x in player(g, 0)[P_BOWLS]] == before
    check(g)
    play(g, "competency C2")  # 2 Banking steps + 1 book: no power, no spades
    while int(g.state.glob[G_ROUND]) == 0:
        assert g.pending_kind() != Kind.OFFER
        play(g, g.legal_moves()[0])
    assert player(g, 0)[P_VP] == 20  # no power taken, so no VP paid for it


def test_op44_monks_university_is_their_only_building_for_reach():
    """OP-44: "it counts as their only building for reach": the setup spades of competency C5
    (2 spades, R23 / OP-37) may go exactly on the unbuilt non-Lake hexes in reach of the
    University on r1c10: its land neighbours r0c10, r0c11 and, across one river hex (Lake board:
    sailing 1), r1c12, r2c9, r2c12, r3c10, r3c11; never next to the other players' buildings."""
    g = monks_before_university()
    play(g, "place r1c10", "competency C5")
    while g.pending_kind() != Kind.SPADES or g.current_seat() != 1:
        play(g, g.legal_moves()[0])
    targets = {m.split()[1] for m in g.legal_moves() if m.startswith("spade ")}
    assert targets == {"r0c10", "r0c11", "r1c12", "r2c9", "r2c12", "r3c10", "r3c11"}
    assert "done" in g.legal_moves()


# ------------------------------------------------------------------------------------------------
# OP-53 Lizards' city TB


def _lizards(second_group: bool = False) -> Game:
    """Lizards (Swamp, seat 0): Palace r8c5 + Guild r8c6 + Workshop r8c7; a Workshop on r8c8
    founds a city and K1 is taken; the city TB is pending.  With ``second_group`` seat 0 also has
    Guilds r7c10, r8c11, r8c12 (power 6, 3 buildings: no city) around the Swamp hex r7c11."""
    sc = Scenario("aoi(players=3)", factions=["lizards", "goblins", "omar"], boards=["swamp", "desert", "lake"])
    sc.round(1, tile="T10").bonus_tiles(("B10", "B9", "B7"), ("B1", "B3", "B8"), coins=0)
    sc.state().glob[G_COMP_SPACES] = np.arange(12)
    sc.build(0, "r8c5", "palace").build(0, "r8c6", "guild").build(0, "r8c7", "workshop").terrain("r8c8", "swamp")
    if second_group:
        sc.build(0, "r7c10", "guild").build(0, "r8c11", "guild").build(0, "r8c12", "guild")
        sc.terrain("r7c11", "swamp")
    g = play(sc.turn(0), "build", "target r8c8", "city K1")
    assert g.pending_kind() == Kind.TB_TARGET
    return g


def test_op53_lizards_free_workshop_next_to_the_city_joins_it():
    """OP-53: "The free Workshop is a build and can itself ... extend cities" (R44: a building
    built next to one of your cities becomes part of it): the free Workshop on r7c5, next to the
    Palace and Guild of the new city, is marked as part of that city; no second tile is taken."""
    g = _lizards()
    play(g, "skip", "workshop r7c5")
    assert hex_row(g, "r7c5")[H_BUILDING] == Building.WORKSHOP
    assert hex_row(g, "r7c5")[H_CITY] == hex_row(g, "r8c5")[H_CITY] != 0
    assert player(g)[P_CITIES] == 1
    assert g.pending_kind() == Kind.POST


def test_op53_lizards_free_workshop_founds_a_second_city_and_a_second_tb():
    """OP-53: "The free Workshop ... can itself found ... cities", and R94 "each time they found a
    city" gives another TB: the free Workshop on r7c11 completes seat 0's other group (3 Guilds +
    Workshop: 4 buildings, power 7), a second city tile is chosen, then a second city TB follows."""
    g = _lizards(second_group=True)
    play(g, "skip", "workshop r7c11")
    assert g.pending_kind() == Kind.CHOOSE_CITY and g.current_seat() == 0
    play(g, "city K5")
    assert player(g)[P_CITIES] == 2
    assert all(hex_row(g, h)[H_CITY] != 0 for h in ("r7c10", "r8c11", "r8c12", "r7c11"))
    assert g.pending_kind() == Kind.TB_TARGET and g.current_seat() == 0  # the second city's TB


# ------------------------------------------------------------------------------------------------
# OP-54 drafted palace tile


def _drafted(number: int) -> Scenario:
    """Draft variant: seat 0 drafted palace tile ``number`` (R16.10) but has no Palace yet; a
    Workshop on r8c6, Guild on r7c5."""
    sc = scenario(game="aoi(players=3,distribution=draft)").offer_palace()
    return sc.draft_palace(0, number).build(0, "r8c6", "workshop").build(0, "r7c5", "guild")


def test_op54_drafted_palace12_gives_no_workshop_vp_before_the_palace_is_built():
    """OP-54: the drafted tile "has no effect at all until the Palace is built": with palace 12
    (+2 VP per Workshop built) drafted, building a Workshop scores nothing."""
    g = _drafted(12).turn(0)
    play(g, "build", "target r6c6")  # printed Plains: build only
    assert hex_row(g, "r6c6")[H_BUILDING] == Building.WORKSHOP
    assert player(g)[P_VP] == 20


def test_op54_drafted_palace1_special_action_only_after_the_palace_is_built():
    """OP-54: a drafted tile's special action (palace 1: 2 tools) is not offered before the Palace
    is built; once built (with that tile, no choice) it is."""
    g = _drafted(1).set(0, tools=4, coins=6).turn(0)
    assert "special palace" not in g.legal_moves()
    play(g, "upgrade palace", "upgrade r7c5")
    assert player(g)[P_TOOLS] == 0 and player(g)[P_COINS] == 0  # 4 T + 6 C paid
    play(g, "done", "pass", "bonus B1", "pass", "bonus B5")
    assert g.current_seat() == 0 and "special palace" in g.legal_moves()
    play(g, "special palace")
    assert player(g)[P_TOOLS] == 2
