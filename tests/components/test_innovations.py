"""The 18 innovations (R101-R119) and their open points (OP-16, OP-17, OP-38, OP-39, OP-40, OP-46,
OP-51, OP-52), each shown by its effect in a game.

Developing an innovation is ``innovate`` -> ``innovation <key>`` -> ``pay <discipline>`` for every
"any book" of the cost (R73).  ``develop`` puts the tile on display space 0 (the Banking column:
2 Banking + 3 any books), so seat 0 (slot 1, +0 books) pays 5 Banking books and, without a
Palace, 5 coins.

Seats: 0 Inventors on Plains (no faction effect during play), 1 Monks on Lake, 2 Illusionists on
Swamp.  The map is the 3-5 side; the hexes used around seat 0 (Plains native):

    r6c5 F   r6c6 P
  r7c4 W   r7c5 S   r7c6 D   r7c7 W
    r8c5 M   r8c6 P   r8c7 L

Seat 0 holds round bonus tile B9 (income only) unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from aoi_env import testing
from aoi_env.core.engine import Game
from aoi_env.core.invariants import check
from aoi_env.core.pending import Kind
from aoi_env.core.rules.power import tokens
from aoi_env.core.state import (
    G_COMP_SPACES,
    G_DEPTH,
    G_NEUTRAL_LEFT,
    G_PHASE,
    G_ROUND,
    H_BUILDING,
    H_CITY,
    H_NEUTRAL,
    H_OWNER,
    H_TERRAIN,
    P_COINS,
    P_COMPETENCIES,
    P_NEUTRAL_BUILT,
    P_NEUTRAL_PALACE,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_TERRAFORMING,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario
from tests.state_readers import books, bowls, hex_row, player, science

FACTIONS = ["inventors", "monks", "illusionists"]
BOARDS = ["plains", "lake", "swamp"]


def scenario(tile: str = "T9") -> Scenario:
    """Round 2 of a 3-player game with round scoring tile ``tile`` (T9 = +4 per School built)."""
    return Scenario("aoi(players=3)", factions=FACTIONS, boards=BOARDS).round(2, tile=tile)


def play(g: Game, *moves: str) -> Game:
    """Play notation moves, then check the state invariants."""
    testing.play(g, *moves)
    check(g)
    return g


def develop(sc: Scenario, key: str, coins: int = 5) -> Game:
    """Seat 0 develops ``key`` from display space 0 (2 Banking + 3 any books, + 5 coins w/o Palace)."""
    sc.display_innovations(key).set(0, books={"banking": 5}, coins=coins)
    g = sc.turn(0)
    play(g, "innovate", f"innovation {key}", "pay banking", "pay banking", "pay banking")
    return g


# ------------------------------------------------------------------------------------------------
# special abilities (R102-R104)


def test_r102_deus_ex_machina_one_time_book_and_step_in_each_discipline():
    """R102: developing Deus Ex Machina gives 1 book of choice and 1 step in each of the 4
    disciplines at once."""
    g = develop(scenario(), "deus_ex_machina")
    assert g.pending_kind() == Kind.CHOOSE_BOOKS
    play(g, "book law")
    assert books(g) == [0, 1, 0, 0]  # 5 Banking - 2 - 3 paid; + 1 Law of choice
    assert science(g) == [1, 1, 1, 1]  # 0 + 1 step in each discipline
    assert player(g)[P_COINS] == 0  # 5 - 5 (no Palace, R73)
    assert g.pending_kind() == Kind.POST  # nothing else to decide


def test_r102_deus_ex_machina_special_is_a_tb_with_one_free_spade():
    """R102: the special action is a Terraform & Build with 1 free spade; one Swamp step from
    Plains needs exactly that spade, so no tool is spent on terraforming."""
    sc = scenario().innovation(0, "deus_ex_machina").build(0, "r8c6", "workshop").set(0, tools=1, coins=2)
    g = sc.turn(0)
    play(g, "special deus_ex_machina", "target r7c5")
    assert g.legal_moves() == ["spades 1"]  # the hex needs 1 spade (Swamp -> Plains)
    play(g, "spades 1", "workshop")
    assert hex_row(g, "r7c5")[H_TERRAIN] == Terrain.PLAINS
    assert hex_row(g, "r7c5")[H_BUILDING] == Building.WORKSHOP
    assert player(g)[P_TOOLS] == 0  # 1 - 1 (Workshop); the spade was free
    assert player(g)[P_COINS] == 0  # 2 - 2 (Workshop)


def test_r102_deus_ex_machina_missing_spades_may_be_bought_and_once_per_round():
    """R102, R63.1, R76: missing spades may be bought with tools at the track rate; the special
    action is then covered for the rest of the round."""
    sc = scenario().innovation(0, "deus_ex_machina").build(0, "r8c6", "workshop").set(0, tools=4, coins=2)
    g = sc.turn(0)
    play(g, "special deus_ex_machina", "target r8c7")  # Lake -> Plains is 2 spades
    assert g.legal_moves() == ["spades 1", "spades 2"]  # 1 free + 1 bought (3 tools each, 4 held)
    play(g, "spades 2", "workshop")
    assert hex_row(g, "r8c7")[H_BUILDING] == Building.WORKSHOP
    assert player(g)[P_TOOLS] == 0  # 4 - 3 (bought spade) - 1 (Workshop)
    play(g, "done", "pass", "bonus B1", "pass", "bonus B5")
    assert g.current_seat() == 0 and g.pending_kind() == Kind.MAIN
    assert "special deus_ex_machina" not in g.legal_moves()  # used this round (X token)


def test_r103_op17_trade_routes_scores_2_vp_per_guild_when_passing():
    """R103, OP-17: when passing, Trade Routes scores 2 VP per Guild on the map (the rulebooks'
    pass examples saying 4 VP or "round bonus" are misprints); a neutral Guild counts (OP-52)."""
    sc = (
        scenario()
        .innovation(0, "trade_routes")
        .build(0, "r7c5", "guild")
        .build(0, "r8c8", "guild")
        .build(0, "r6c6", "guild", neutral=True)
        .build(0, "r8c6", "workshop")
    )
    g = sc.turn(0)
    play(g, "pass")
    assert player(g)[P_VP] == 26  # 20 + 2 x 3 Guilds (2 own + 1 neutral); the Workshop scores 0
    assert g.pending_kind() == Kind.PASS_BONUS  # then the new round bonus tile (R78.2)


def test_r104_op16_professors_special_gives_a_scholar_and_3_vp():
    """R104, OP-16: the special action gives 1 scholar (from the personal supply) and 3 VP."""
    g = scenario().innovation(0, "professors").turn(0)
    play(g, "special professors")
    assert player(g)[P_SCHOLARS] == 1  # 0 + 1
    assert player(g)[P_SCHOLAR_SUPPLY] == 6  # 7 - 1
    assert player(g)[P_VP] == 23  # 20 + 3 (not the 2 of [PL]'s example)
    play(g, "done", "pass", "bonus B1", "pass", "bonus B5")
    assert "special professors" not in g.legal_moves()  # once per round


# ------------------------------------------------------------------------------------------------
# immediate VP or bonuses (R105-R113)


def test_r105_op51_architecture_one_step_per_distinct_shape_and_10_vp():
    """R105, OP-51: 1 step per different building shape on the map, plus 10 VP.  A neutral copy
    has its type's shape (own + neutral Workshop = one shape); a Tower is a shape of its own;
    Pavilions are not shapes."""
    sc = (
        scenario()
        .build(0, "r8c6", "workshop")
        .build(0, "r8c8", "workshop")
        .build(0, "r8c10", "workshop", neutral=True)
        .build(0, "r7c5", "school", neutral=True)
        .build(0, "r6c6", "tower", neutral=True)
        .pavilion("r8c6")
    )
    g = develop(sc, "architecture")
    assert g.pending_kind() == Kind.STEPS_ANY
    play(g, "step engineering", "step engineering", "step medicine")  # Workshop, School, Tower = 3
    assert science(g) == [0, 0, 2, 1]
    assert player(g)[P_VP] == 30  # 20 + 10
    assert g.pending_kind() == Kind.POST  # no fourth step


def test_r106_league_of_cities_5_vp_per_city_tile():
    """R106: 5 VP per city tile owned."""
    g = develop(scenario().set(0, cities=2), "league_of_cities")
    assert player(g)[P_VP] == 30  # 20 + 5 x 2


def _census_buildings(sc: Scenario, n: int) -> Scenario:
    """n buildings of seat 0: one neutral Tower, then Workshops, then Guilds."""
    hexes = ["r8c4", "r8c5", "r8c6", "r8c7", "r8c8", "r8c9", "r8c10", "r8c11", "r8c12", "r7c4", "r7c5"]
    for i, h in enumerate(hexes[:n]):
        if i == 0:
            sc.build(0, h, "tower", neutral=True)
        else:
            sc.build(0, h, "workshop" if i <= 9 else "guild")
    return sc


@pytest.mark.parametrize(("n", "vp"), [(6, 0), (7, 8), (8, 8), (9, 12), (10, 12), (11, 18)])
def test_r107_census_vp_by_number_of_buildings(n: int, vp: int):
    """R107, OP-52: 7-8 buildings -> 8 VP, 9-10 -> 12, 11 or more -> 18, fewer than 7 -> 0; a
    neutral building counts."""
    g = develop(_census_buildings(scenario(), n), "census")
    assert player(g)[P_VP] == 20 + vp


def test_r107_op52_census_does_not_count_pavilions():
    """R107, R101, OP-52, OP-20: counts do not include Pavilions (R101): a Pavilion is not a
    building, so 6 buildings + 1 Pavilion stay below 7."""
    sc = _census_buildings(scenario(), 6).pavilion("r8c6")
    g = develop(sc, "census")
    assert player(g)[P_VP] == 20  # 6 buildings -> 0 VP


def test_r108_libraries_vp_equal_to_two_highest_levels():
    """R108: VP = sum of the two highest discipline levels (rulebook example 9, 7, 7, 2 -> 16)."""
    g = develop(scenario().set(0, science=[7, 2, 9, 7], cities=1), "library")  # a key for 9
    assert player(g)[P_VP] == 36  # 20 + 9 + 7


def test_r109_colleges_5_vp_per_school():
    """R109, OP-52: 5 VP per School on the map, the neutral School included."""
    sc = scenario().build(0, "r7c5", "school").build(0, "r8c8", "school").build(0, "r8c10", "school", neutral=True)
    g = develop(sc, "colleges")
    assert player(g)[P_VP] == 35  # 20 + 5 x 3


def test_r110_sewerage_2_vp_per_workshop():
    """R110, OP-52: 2 VP per Workshop on the map, the neutral Workshop included; Guilds do not count."""
    sc = (
        scenario()
        .build(0, "r8c4", "workshop")
        .build(0, "r8c6", "workshop")
        .build(0, "r8c8", "workshop")
        .build(0, "r8c10", "workshop", neutral=True)
        .build(0, "r7c5", "guild")
    )
    g = develop(sc, "sewerage")
    assert player(g)[P_VP] == 28  # 20 + 2 x 4


def _lone_buildings(sc: Scenario) -> Scenario:
    """Five buildings of seat 0, no two adjacent; r7c2 and r8c4 face each other across a river
    at a printed bridge location."""
    for h in ("r7c2", "r8c4", "r8c7", "r8c10", "r3c11"):
        sc.build(0, h, "workshop")
    return sc.set(0, sailing=3)


def test_r111_op52_communication_groups_are_adjacency_not_reach():
    """R111, OP-52: VP by separate groups of buildings under adjacency; sailing reach does not
    join groups (r7c2 and r8c4 are in reach of each other with sailing 3).  5 groups -> 12 VP."""
    g = develop(_lone_buildings(scenario()), "communication")
    assert player(g)[P_VP] == 32  # 20 + 12 (5 groups)


def test_r111_r38_communication_a_bridge_joins_two_groups():
    """R111, R38: a bridge makes its two ends adjacent, so it merges two groups: 4 groups -> 8 VP."""
    sc = _lone_buildings(scenario()).bridge(0, "r7c2", "r8c4")
    g = develop(sc, "communication")
    assert player(g)[P_VP] == 28  # 20 + 8 (4 groups)


@pytest.mark.parametrize(("lone", "vp"), [(3, 0), (6, 18)])
def test_r111_communication_fewer_than_4_groups_score_0_and_6_score_18(lone: int, vp: int):
    """R111: fewer than 4 groups -> 0 VP; 6 or more -> 18 VP."""
    sc = scenario()
    for h in ("r7c2", "r8c4", "r8c7", "r8c10", "r3c11", "r0c4")[:lone]:
        sc.build(0, h, "workshop")
    g = develop(sc, "communication")
    assert player(g)[P_VP] == 20 + vp


def test_r112_op40_steam_power_scholar_free_dig_and_sail_with_rewards_t8_each():
    """R112, OP-40: 1 scholar, 1 free terraforming advance and 1 free sailing advance; the printed
    rewards are gained and round tile T8 (+3 per track advance) scores each advance."""
    g = develop(scenario(tile="T8"), "steam_power")
    assert g.pending_kind() == Kind.CHOOSE_BOOKS  # terraforming 3 -> 2 tools per spade: 2 books
    play(g, "book law", "book medicine")
    p = player(g)
    assert p[P_SCHOLARS] == 1 and p[P_SCHOLAR_SUPPLY] == 6
    assert p[P_TERRAFORMING] == 1 and p[P_SAILING] == 1
    assert books(g) == [0, 1, 0, 1]
    assert p[P_VP] == 28  # 20 + 2 (sailing 0 -> 1) + 3 + 3 (T8, two advances)
    assert p[P_COINS] == 0 and p[P_TOOLS] == 3  # the advances were free


def test_op40_steam_power_advance_at_the_top_is_lost():
    """OP-40: a free advance on a track already at its maximum is lost (no reward, no T8 VP)."""
    g = develop(scenario(tile="T8").set(0, sailing=3, terraforming=1), "steam_power")
    p = player(g)
    assert p[P_SAILING] == 3  # already at the top: lost
    assert p[P_TERRAFORMING] == 2  # 2 -> 1 tool per spade
    assert p[P_VP] == 29  # 20 + 6 (terraforming reward) + 3 (T8, one advance only)
    assert g.pending_kind() == Kind.POST


@pytest.mark.parametrize(("bridges", "vp"), [(0, 0), (1, 8), (2, 12), (3, 18)])
def test_r113_op46_steel_vp_by_number_of_bridges(bridges: int, vp: int):
    """R113, OP-46: 1 bridge -> 8 VP, 2 -> 12, 3 -> 18; each bridge touches one own building."""
    sc = scenario()
    spots = [("r8c4", "r7c2"), ("r7c4", "r6c3"), ("r6c0", "r7c1")]
    for a, b in spots[:bridges]:
        sc.build(0, a, "workshop").bridge(0, a, b)
    g = develop(sc, "steel")
    assert player(g)[P_VP] == 20 + vp


# ------------------------------------------------------------------------------------------------
# neutral buildings (R46, R114-R119)


def test_r46_neutral_building_placed_in_reach_native_or_terraformed_with_tools():
    """R46.1, R114: the neutral building goes at once on an empty hex in reach; a non-native hex
    must be terraformed first, paid only with tools at the track rate (3 tools per spade)."""
    sc = scenario().build(0, "r7c5", "workshop").set(0, tools=3)
    g = develop(sc, "neutral_workshop")
    assert g.pending_kind() == Kind.NEUTRAL_PLACE
    # native: r6c6, r8c6 (Plains); r7c6 Desert needs 1 spade = 3 tools; the others need 2-3 spades
    assert g.legal_moves() == ["neutral r6c6", "neutral r7c6", "neutral r8c6"]
    play(g, "neutral r7c6")
    h = hex_row(g, "r7c6")
    assert h[H_TERRAIN] == Terrain.PLAINS and h[H_BUILDING] == Building.WORKSHOP
    assert h[H_NEUTRAL] == 1 and h[H_OWNER] == 0
    assert player(g)[P_TOOLS] == 0  # 3 - 3 (one spade)
    assert player(g)[P_NEUTRAL_BUILT.start + Building.WORKSHOP] == 1
    assert g.state.glob[G_NEUTRAL_LEFT.start + Building.WORKSHOP] == 0  # the only neutral Workshop


def test_r46_op38_neutral_building_gets_no_free_spades_and_no_flight():
    """R46.1, OP-38: only tools pay the spades (2 tools cannot buy a 3-tool spade), and palace 9's
    flight does not extend where it may go (r7c7, made Plains, is at flight distance 2)."""
    sc = (
        scenario()
        .build(0, "r7c5", "palace")  # palace 9 lies on a Palace (R68)
        .palace_tile(0, 9)
        .terrain("r7c7", "plains")
        .set(0, tools=2, scholars=1, scholar_supply=6)
    )
    g = develop(sc, "neutral_workshop")
    assert g.legal_moves() == ["neutral r6c6", "neutral r8c6"]  # no r7c6 (3 tools), no r7c7 (flight)


def test_r46_op38_neutral_building_lost_when_it_cannot_be_placed_but_income_is_paid():
    """R46.1, OP-38: with no legal hex the neutral Guild is lost for good; the innovation's income
    (5 coins) is still paid in the next Phase I."""
    sc = scenario().build(0, "r8c6", "workshop").set(0, tools=0)  # neighbours M, D, S, L: no Plains
    g = develop(sc, "neutral_guild")
    assert g.pending_kind() == Kind.POST  # the placement decision was dropped
    assert player(g)[P_NEUTRAL_BUILT.start + Building.GUILD] == 0
    assert g.state.glob[G_NEUTRAL_LEFT.start + Building.GUILD] == 1  # the piece stays in the box
    play(g, "done", "pass", "bonus B1", "pass", "bonus B7", "pass", "bonus B8")  # round 2 ends
    assert g.state.glob[G_ROUND] == 3 and g.state.glob[G_PHASE] == Phase.ACTIONS
    p = player(g)
    assert p[P_COINS] == 9  # 0 + 4 (B8, returned by seat 1 without coins) + 5 (neutral Guild, OP-38)
    assert p[P_TOOLS] == 2  # 0 + 1 (base) + 1 (1st Workshop space)


@pytest.mark.parametrize(
    ("key", "field", "before", "after"),
    [
        ("neutral_workshop", P_TOOLS, 3, 7),  # 3 + 1 (Plains base income) + 3 (R114)
        ("neutral_guild", P_COINS, 15, 20),  # 15 + 5 (R116)
        ("neutral_university", P_VP, 20, 22),  # 20 + 2 (R115)
    ],
)
def test_r114_r115_r116_neutral_building_income(key: str, field: int, before: int, after: int):
    """R114 (3 tools), R115 (2 VP), R116 (5 coins): the granting tile pays income in Phase I, not
    the planning board; paid here with no neutral building on the map (OP-38)."""
    sc = scenario().bonus(0, "B1").innovation(0, key)  # B1 has no income
    assert player(sc.g)[field] == before
    g = sc.decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)
    assert player(g)[field] == after


def test_r117_neutral_palace_income_is_4_power():
    """R117: the neutral Palace innovation's income is 4 power (a gain, R30)."""
    g = scenario().bonus(0, "B1").innovation(0, "neutral_palace").decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)
    assert bowls(g) == [1, 11, 0]  # 5/7/0 gaining 4: four tokens I -> II


def test_r46_4_neutral_building_is_never_upgraded():
    """R46.4, R66: a neutral Workshop is treated as a Workshop but can never be upgraded."""
    g = scenario().build(0, "r7c5", "workshop", neutral=True).set(0, tools=9, coins=20).turn(0)
    assert "upgrade guild" not in g.legal_moves()


def test_r115_neutral_university_city_of_3_buildings_scores_t11():
    """R115, R46.2, R43: placing the neutral University is a build: round tile T11 scores +5, and
    the city check runs; with the University 3 buildings of total power 2 + 2 + 3 = 7 found a city
    (no competency is taken for it)."""
    sc = scenario(tile="T11").build(0, "r7c5", "guild").build(0, "r8c6", "guild")
    g = develop(sc, "neutral_university")
    play(g, "neutral r6c6")
    assert g.pending_kind() == Kind.CHOOSE_CITY  # no competency choice (R115)
    play(g, "city K1")
    p = player(g)
    assert p[P_VP] == 29  # 20 + 5 (T11: build a University) + 4 (K1)
    assert p[P_TOOLS] == 6  # 3 + 3 (K1)
    assert p[P_COMPETENCIES] == 0
    assert all(hex_row(g, h)[H_CITY] == 1 for h in ("r6c6", "r7c5", "r8c6"))
    assert g.pending_kind() == Kind.POST


def test_r116_neutral_guild_is_a_build_power_offer_and_round_scoring():
    """R116, R46.2, R42: placing the neutral Guild is a build: round tile T5 scores +3 for the
    Guild and the neighbour is offered power for its adjacent Workshop (value 1)."""
    sc = scenario(tile="T5").build(0, "r7c5", "workshop").build(1, "r7c6", "workshop")
    g = develop(sc, "neutral_guild")
    assert g.legal_moves() == ["neutral r6c6", "neutral r8c6"]  # the native hexes in reach
    play(g, "neutral r6c6")
    assert player(g)[P_VP] == 23  # 20 + 3 (T5: build a Guild)
    assert g.current_seat() == 1 and g.pending_kind() == Kind.OFFER
    play(g, "leech accept")
    assert bowls(g, 1) == [4, 8, 0]  # 1 power: one token I -> II
    assert player(g, 1)[P_VP] == 20  # 1 power costs 1 - 1 = 0 VP
    assert g.current_seat() == 0 and g.pending_kind() == Kind.POST


def test_r117_neutral_palace_adds_2_tokens_to_bowl_iii():
    """R117, R32: the neutral Palace adds 2 new power tokens straight into bowl III (not a gain);
    no palace tile is taken; placing it is a build (T11 +5)."""
    sc = scenario(tile="T11").build(0, "r7c5", "workshop")
    g = develop(sc, "neutral_palace")
    play(g, "neutral r6c6")
    p = player(g)
    assert bowls(g) == [5, 7, 2]  # 5/7/0 + 2 new tokens in III
    assert tokens(p) == 14  # 12 + 2
    assert p[P_NEUTRAL_PALACE] == 1
    assert p[P_VP] == 25  # 20 + 5 (T11: build a Palace)
    assert g.pending_kind() == Kind.POST  # no palace tile choice


def test_r117_op38_neutral_palace_tokens_are_added_even_if_the_palace_is_lost():
    """R117 ("additionally ... add 2 power tokens"), OP-38: the 2 tokens do not depend on placing
    the neutral Palace; when it cannot be placed it is lost and does not count as a Palace."""
    sc = scenario().build(0, "r8c6", "workshop").set(0, tools=0)  # no Plains hex in reach
    g = develop(sc, "neutral_palace")
    assert g.pending_kind() == Kind.POST  # the placement was dropped
    p = player(g)
    assert bowls(g) == [5, 7, 2] and tokens(p) == 14  # 12 + 2
    assert p[P_NEUTRAL_PALACE] == 0
    assert g.state.glob[G_NEUTRAL_LEFT.start + Building.PALACE] == 1


def _moles() -> Scenario:
    """Seat 0 is the Moles: Workshop on r7c5, r7c7 (tunnel distance 2) made Plains, 2 tools."""
    sc = Scenario("aoi(players=3)", factions=["moles", "monks", "illusionists"], boards=BOARDS)
    return sc.round(2, tile="T9").build(0, "r7c5", "workshop").terrain("r7c7", "plains").set(0, tools=2)


def test_r46_op38_neutral_building_cannot_use_the_moles_tunnel():
    """R46.1, R95, OP-38: in a TB the Moles may tunnel to r7c7, but the tunnel does not extend
    where a neutral building may go."""
    g = _moles().turn(0)
    play(g, "build", "tunnel")
    assert "tunnel r7c7" in g.legal_moves()
    g = develop(_moles(), "neutral_workshop")
    assert g.legal_moves() == ["neutral r6c6", "neutral r8c6"]  # no r7c7 (tunnel), no r7c6 (3 tools)


def _second_innovation(neutral_palace: bool) -> Game:
    """Seat 0 with the neutral Palace innovation (slot 1) and 0 coins; Sewerage on space 0 costs
    2 Banking + 3 any + 1 any (slot 2) books."""
    sc = scenario().innovation(0, "neutral_palace").display_innovations("sewerage")
    if neutral_palace:
        sc.build(0, "r6c6", "palace", neutral=True)
    return sc.set(0, books={"banking": 6}, coins=0).turn(0)


def test_op39_neutral_palace_waives_the_5_coin_innovation_surcharge():
    """R73.3, OP-39: "+5 coins if you have not built a Palace" - the neutral Palace counts as a
    Palace, so the next innovation costs no coins."""
    g = _second_innovation(neutral_palace=True)
    play(g, "innovate", "innovation sewerage", *["pay banking"] * 4)
    assert player(g)[P_COINS] == 0  # no surcharge
    assert books(g) == [0, 0, 0, 0]  # 6 - 2 - 3 - 1 (slot 2)


def test_op39_neutral_palace_does_not_use_up_the_own_palace():
    """OP-39: the neutral Palace gives no palace tile and leaves the player's own Palace to build."""
    sc = scenario().build(0, "r6c6", "palace", neutral=True).build(0, "r7c5", "guild")
    g = sc.offer_palace(17).set(0, tools=4, coins=6).turn(0)
    play(g, "upgrade palace", "upgrade r7c5", "palace 17")
    assert player(g)[P_VP] == 30  # 20 + 10 (palace 17)


def test_op39_without_any_palace_the_surcharge_applies():
    """R73.3: the same position without the neutral Palace on the map needs 5 coins."""
    g = _second_innovation(neutral_palace=False)
    assert "innovate" not in g.legal_moves()  # 0 coins < 5


def test_r118_neutral_school_takes_a_competency_and_scores_t9():
    """R118, R53: the neutral School gives a competency of choice with its position reward (C4 sits
    on the Law column's bottom row: 1 step + 2 Law books) and is a School build for T9 (+4)."""
    sc = scenario(tile="T9").build(0, "r7c5", "workshop")
    assert sc.g.state.glob[G_COMP_SPACES.start + 5] == 3  # space 5 (Law, bottom row) holds C4
    g = develop(sc, "neutral_school")
    assert g.pending_kind() == Kind.NEUTRAL_PLACE  # the School first, "at once" (R46.1)
    play(g, "neutral r6c6", "competency C4")
    p = player(g)
    assert p[P_VP] == 29  # 20 + 5 (C4) + 4 (T9: build a School)
    assert science(g) == [0, 1, 0, 0]  # 1 Law step
    assert books(g) == [0, 2, 0, 0]  # 2 Law books
    assert p[P_TOOLS] == 4 and p[P_COINS] == 2  # C4: + 1 tool, + 2 coins
    assert hex_row(g, "r6c6")[H_BUILDING] == Building.SCHOOL and hex_row(g, "r6c6")[H_NEUTRAL] == 1


def test_r46_r118_neutral_school_hex_cannot_be_prepared_by_its_competency():
    """R46.1, R118: the School is placed at once, before its competency: with no hex available it
    is lost, even though C5 (a TB with 2 free spades) could have made a Plains hex next."""
    sc = scenario().build(0, "r8c6", "workshop").set(0, tools=0)  # neighbours M, D, S, L: no Plains
    g = develop(sc, "neutral_school")
    assert g.pending_kind() == Kind.CHOOSE_COMPETENCY  # the placement was dropped: School lost
    play(g, "competency C5", "target r7c6", "spades 1", "done")  # Desert -> Plains, no Workshop
    assert g.pending_kind() == Kind.POST  # no second chance to place the School
    assert player(g)[P_NEUTRAL_BUILT.start + Building.SCHOOL] == 0
    assert g.state.glob[G_NEUTRAL_LEFT.start + Building.SCHOOL] == 1


def test_r119_monument_7_vp_and_city_of_2_buildings():
    """R119, R43: the Monument gives 7 VP, has power value 4 and lowers the city size to 2:
    Palace (3) + Monument (4) = 7 power found a city."""
    sc = scenario().build(0, "r7c5", "palace")
    g = develop(sc, "neutral_monument")
    assert player(g)[P_VP] == 27  # 20 + 7
    play(g, "neutral r6c6")
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K5")
    assert player(g)[P_VP] == 33  # 27 + 6 (K5)
    assert player(g)[P_COINS] == 11  # 5 (no surcharge: the Palace is built, R73.3) + 6 (K5)
    assert hex_row(g, "r6c6")[H_CITY] == 1 and hex_row(g, "r7c5")[H_CITY] == 1


def test_r41_neutral_power_values_in_a_power_offer():
    """R41, R42: neutral Monument = 4, Tower = 2, a neutral Guild = 2 (its type's value).  When
    seat 1 upgrades next to all three, seat 0 is offered 4 + 2 + 2 = 8 power."""
    sc = (
        scenario()
        .build(0, "r7c5", "monument", neutral=True)
        .build(0, "r6c6", "tower", neutral=True)
        .build(0, "r8c6", "guild", neutral=True)
        .build(1, "r7c6", "workshop")
    )
    g = sc.turn(1)
    play(g, "upgrade guild", "upgrade r7c6")
    assert g.current_seat() == 0 and g.pending_kind() == Kind.OFFER
    assert int(g.state.stack[g.state.glob[G_DEPTH] - 1][2]) == 8  # the offered amount
    play(g, "leech accept")
    assert player(g)[P_VP] == 13  # 20 - (8 - 1)
    assert bowls(g) == [0, 9, 3]  # 5/7/0 gaining 8: five I -> II, three II -> III
