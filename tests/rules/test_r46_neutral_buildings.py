"""RULES.md §3.7 Neutral buildings (R46.1-R46.6, OP-38, OP-52).

Seat 0 (Desert) has a Workshop on r3c0 whose land neighbours are r2c0, r2c1, r3c1, r4c0, r4c1.
A neutral building is placed with the ``neutral_place`` decision (`neutral r4c1`), either reached
through the innovation that grants it or set up directly with ``Scenario.decide``.
"""

from __future__ import annotations

from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_NEUTRAL_LEFT,
    H_BUILDING,
    H_NEUTRAL,
    H_OWNER,
    H_TERRAIN,
    P_BUILT,
    P_COINS,
    P_NEUTRAL_BUILT,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario, play, power_moved

GAME = "aoi(players=3)"
FACTIONS = ["blessed", "inventors", "monks"]
BOARDS = ["desert", "plains", "forest"]
NEIGHBOURS = ("r2c0", "r2c1", "r3c1", "r4c0", "r4c1")


def scenario(tile: str = "T10", factions: list[str] = FACTIONS) -> Scenario:
    """Seat 0's Workshop on r3c0; all its neighbours 1 spade from Desert (Plains) unless changed."""
    sc = Scenario(GAME, factions=factions, boards=BOARDS).round(1, tile=tile).build(0, "r3c0", "workshop")
    for x in NEIGHBOURS:
        sc = sc.terrain(x, "plains")
    return sc


def place(sc: Scenario, building: Building) -> Game:
    """Seat 0 has just gained a neutral building and must place it now."""
    return sc.decide(Kind.NEUTRAL_PLACE, 0, building)


def hex_row(g: Game, hex_: str) -> tuple[int, int, int, int]:
    h = g.state.hexes[parse_hex(hex_)]
    return int(h[H_BUILDING]), int(h[H_OWNER]), int(h[H_NEUTRAL]), int(h[H_TERRAIN])


# --------------------------------------------------------------------------------------------
# R46.1 placed at once or never


def test_r46_1_placed_on_an_empty_hex_in_reach() -> None:
    """R46.1: the neutral building goes at once on an empty hex in the player's reach."""
    g = place(scenario().terrain("r4c1", "desert").build(1, "r4c0", "workshop").set(0, tools=0), Building.GUILD)
    assert g.legal_moves() == ["neutral r4c1"]  # the only empty native hex in reach; r4c0 is built
    play(g, "neutral r4c1")
    assert hex_row(g, "r4c1") == (Building.GUILD, 0, 1, Terrain.DESERT)


def test_r46_1_non_native_hex_is_terraformed_with_tools_at_the_track_rate() -> None:
    """R46.1: a non-native hex must first be terraformed to native, paying spades only with tools
    at the terraforming-track rate."""
    g = place(scenario().terrain("r4c1", "swamp").set(0, tools=5, terraforming=1), Building.GUILD)
    play(g, "neutral r4c1")  # Swamp -> Desert = 2 spades at 2 tools
    assert g.state.players[0, P_TOOLS] == 1  # 5 - 2 x 2
    assert hex_row(g, "r4c1") == (Building.GUILD, 0, 1, Terrain.DESERT)


def test_r46_1_hexes_whose_spades_cannot_be_paid_are_not_offered() -> None:
    """R46.1: only hexes the player can turn native with their tools are legal (3 tools per spade:
    4 tools pay for Plains (1 spade) but not for Swamp (2 spades))."""
    g = place(scenario().terrain("r4c1", "swamp").set(0, tools=4), Building.GUILD)
    assert "neutral r4c1" not in g.legal_moves()
    assert set(g.legal_moves()) == {f"neutral {x}" for x in NEIGHBOURS if x != "r4c1"}


def test_r46_1_op38_no_tunnel_for_a_neutral_building() -> None:
    """R46.1, OP-38 (ASSUMPTION): the Moles' tunnel (and Palace 9's flight) may not be used to
    place a neutral building: a tunnel target of the TB is not a legal placement."""
    moles = ["moles", "inventors", "monks"]
    g = scenario(factions=moles).terrain("r5c0", "desert").set(0, tools=9).turn(0)
    play(g, "build", "tunnel")
    assert "tunnel r5c0" in g.legal_moves()  # r5c0 is two steps from r3c0
    g = place(scenario(factions=moles).terrain("r5c0", "desert").set(0, tools=9), Building.GUILD)
    assert "neutral r5c0" not in g.legal_moves()  # only hexes in reach (r3c0's neighbours)


def test_r46_1_op38_a_building_that_cannot_be_placed_is_lost_but_its_income_is_paid() -> None:
    """R46.1: if it cannot be placed now it is lost for good.  OP-38 (ASSUMPTION): the income of
    the innovation is paid anyway (neutral Guild: 5 coins)."""
    sc = (
        scenario()
        .display_innovations("neutral_guild")
        .set(0, tools=0, coins=5, books=(5, 0, 0, 0))  # no tools: no neighbour can be turned native
        .bonus(0, "B3")  # income: 3 power only
    )
    g = sc.turn(0)
    play(g, "innovate", "innovation neutral_guild", "pay banking", "pay banking", "pay banking")
    assert g.pending_kind() == Kind.POST  # the placement was skipped: nothing to decide
    p = g.state.players[0]
    assert p[P_NEUTRAL_BUILT.start + Building.GUILD] == 0
    assert g.state.glob[G_NEUTRAL_LEFT.start + Building.GUILD] == 1  # the piece stays in the supply
    assert p[P_COINS] == 0  # 5 - 5 (surcharge without a Palace, R73)
    g = scenario().innovation(0, "neutral_guild").set(0, coins=0).bonus(0, "B3")
    g = g.decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)  # next round's income, Guild never placed
    assert g.state.players[0, P_COINS] == 5  # the innovation's income


# --------------------------------------------------------------------------------------------
# R46.2 it is a build


def test_r46_2_placement_scores_round_tile_vp_for_its_type() -> None:
    """R46.2: placing counts as building: round scoring (T5: 3 VP per Guild) applies."""
    g = place(scenario(tile="T5").terrain("r4c1", "desert"), Building.GUILD)
    play(g, "neutral r4c1")
    assert g.state.players[0, P_VP] == 23  # 20 + 3 (T5)


def test_r46_2_placement_triggers_power_offers() -> None:
    """R46.2 / R42.1: neighbours get power offers for the placement."""
    g = place(scenario().terrain("r4c1", "desert").build(1, "r4c2", "guild"), Building.UNIVERSITY)
    before = g.clone()
    play(g, "neutral r4c1")
    assert (g.pending_kind(), g.current_seat()) == (Kind.OFFER, 1)
    play(g, "leech accept")
    assert power_moved(before, g, 1) == 2  # seat 1's Guild


def test_r46_2_placement_triggers_the_city_check() -> None:
    """R46.2 / R43: the placement can found a city (Guild, Guild, Workshop + neutral Guild = 7)."""
    sc = scenario().terrain("r4c1", "desert").build(0, "r3c1", "guild").build(0, "r3c2", "guild")
    g = place(sc.build(0, "r4c2", "workshop", terrain=True), Building.GUILD)
    play(g, "neutral r4c1")  # r3c0 W 1 + r3c1 G 2 + r3c2 G 2 + r4c2 W 1 + r4c1 G 2 = 8
    assert g.pending_kind() == Kind.CHOOSE_CITY


def test_r46_2_op52_neutral_buildings_count_for_pass_vp() -> None:
    """R46.2 / OP-52: counts of a building type include neutral ones (Trade Routes: 2 VP per Guild
    on passing, here 1 own + 1 neutral Guild)."""
    g = (
        scenario()
        .build(0, "r4c1", "guild")
        .build(0, "r8c12", "guild", neutral=True)
        .innovation(0, "trade_routes")
        .bonus(0, "B3")
        .turn(0)
    )
    play(g, "pass")
    assert g.state.players[0, P_VP] == 24  # 20 + 2 x 2 Guilds


# --------------------------------------------------------------------------------------------
# R46.3 ownership


def test_r46_3_the_neutral_building_belongs_to_the_player_whose_native_terrain_it_stands_on() -> None:
    """R46.3: ownership is read from the terrain: the neutral piece stands on the placer's native
    terrain and belongs to them (it gives them reach, R39)."""
    g = place(scenario().set(0, tools=3), Building.TOWER)
    play(g, "neutral r4c1")  # Plains -> Desert with 1 spade (3 tools)
    assert hex_row(g, "r4c1") == (Building.TOWER, 0, 1, Terrain.DESERT)
    assert g.state.players[0, P_NEUTRAL_BUILT.start + Building.TOWER] == 1


# --------------------------------------------------------------------------------------------
# R46.4 copies of player buildings


def test_r46_4_a_neutral_copy_has_the_power_value_of_its_type() -> None:
    """R46.4: a neutral School is treated as a School, power value 2 for offers."""
    g = scenario().terrain("r4c1", "desert").build(1, "r4c2", "school", neutral=True).turn(0)
    before = g.clone()
    play(g, "build", "target r4c1", "leech accept")
    assert power_moved(before, g, 1) == 2


def test_r46_4_a_neutral_copy_can_never_be_upgraded() -> None:
    """R46.4: a neutral Guild can never be upgraded (only own Guilds are School candidates)."""
    g = scenario().build(0, "r4c1", "guild", neutral=True).set(0, tools=9, coins=20).turn(0)
    assert "upgrade school" not in g.legal_moves() and "upgrade palace" not in g.legal_moves()
    g = scenario().build(0, "r4c1", "guild", neutral=True).build(0, "r4c0", "guild").set(0, tools=9, coins=20).turn(0)
    play(g, "upgrade school")
    assert g.legal_moves() == ["upgrade r4c0"]


def test_r46_4_income_comes_from_the_tile_not_the_planning_board() -> None:
    """R46.4: a neutral copy uncovers no planning-board income; its income, if any, is the
    granting tile's (neutral Guild innovation: 5 coins; a board Guild would give 1 power + 2 coins)."""
    g = (
        scenario()
        .build(0, "r4c1", "guild", neutral=True)
        .innovation(0, "neutral_guild")
        .bonus(0, "B3")
        .set(0, coins=0, tools=0, bowls=(12, 0, 0))
        .decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)
    )
    p = g.state.players[0]
    assert p[P_BUILT.start + Building.GUILD] == 0  # no Guild taken from the planning board
    assert p[P_COINS] == 5  # 5 (tile), no Guild-row coins
    assert p[P_TOOLS] == 2  # base 1 + 1st Workshop space 1


# --------------------------------------------------------------------------------------------
# R46.5 Tower and Monument


def test_r46_5_tower_has_power_value_two() -> None:
    """R46.5: the Tower's power value is 2 (printed on the granting tile)."""
    g = scenario().terrain("r4c1", "desert").build(1, "r4c2", "tower", neutral=True).turn(0)
    before = g.clone()
    play(g, "build", "target r4c1", "leech accept")
    assert power_moved(before, g, 1) == 2


def test_r46_5_monument_has_power_value_four() -> None:
    """R46.5: the Monument's power value is 4."""
    g = scenario().terrain("r4c1", "desert").build(1, "r4c2", "monument", neutral=True).turn(0)
    before = g.clone()
    play(g, "build", "target r4c1", "leech accept")
    assert power_moved(before, g, 1) == 4
    assert g.state.players[1, P_VP] == 17  # 20 - (4 - 1)


# --------------------------------------------------------------------------------------------
# R46.6 only route for non-Workshops


def test_r46_6_terraform_and_build_only_ever_places_a_workshop() -> None:
    """R46.6: the TB action can only put a Workshop on an empty hex."""
    g = scenario().set(0, tools=9).turn(0)
    play(g, "build", "target r4c1", "spades 1")
    assert g.legal_moves() == ["workshop", "done"]


def test_r46_6_a_neutral_placement_puts_another_building_on_an_empty_hex() -> None:
    """R46.6: placing a neutral building is the way (besides the Monks' University and Palace 16)
    to put a non-Workshop building on an empty hex."""
    g = place(scenario().terrain("r4c1", "desert"), Building.SCHOOL)
    play(g, "neutral r4c1")
    assert hex_row(g, "r4c1") == (Building.SCHOOL, 0, 1, Terrain.DESERT)
