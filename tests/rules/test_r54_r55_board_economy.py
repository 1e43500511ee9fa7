"""RULES.md §3.10 Planning board economy (R54 building rows and income, R55 the build event).

Income is checked with ``Scenario.decide(Kind.INCOME_SEAT, ...)`` (one seat's Phase I, R57) after
taking the seat's round bonus tile away, so only the planning board pays.
"""

from __future__ import annotations

import pytest

from aoi_env.core import flow
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_BONUS_STATE,
    P_BONUS,
    P_BOWLS,
    P_BUILT,
    P_COINS,
    P_SCHOLARS,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data.enums import Building
from aoi_env.testing import Scenario, play, power_moved

GAME = "aoi(players=3)"
FACTIONS = ["blessed", "inventors", "monks"]
BOARDS = ["desert", "plains", "forest"]
# 10 land hexes in the west of the map, used to put many buildings of seat 0 on the board
WEST = ("r3c0", "r3c1", "r3c2", "r4c0", "r4c1", "r4c2", "r4c3", "r2c0", "r2c1", "r2c2", "r5c0")


def scenario(boards: list[str] = BOARDS) -> Scenario:
    return Scenario(GAME, factions=FACTIONS, boards=boards).round(1, tile="T10")


def without_bonus(sc: Scenario, seat: int = 0) -> Scenario:
    """Return the seat's round bonus tile to the display (so its income does not interfere)."""
    s = sc.state()
    b = int(s.players[seat, P_BONUS])
    if b >= 0:
        s.glob[G_BONUS_STATE.start + b] = -1
        s.players[seat, P_BONUS] = -1
    return sc


def with_buildings(sc: Scenario, *kinds: str) -> Scenario:
    for hex_, kind in zip(WEST, kinds, strict=False):
        sc = sc.build(0, hex_, kind)
    return sc


def income_of(sc: Scenario) -> dict[str, int]:
    """Seat 0's Phase I: the resources it gains (coins, tools, scholars, power moved, VP)."""
    sc = without_bonus(sc).set(0, coins=0, tools=0, scholars=0, bowls=(12, 0, 0))
    before = sc.g.clone()
    g = sc.decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)
    p = g.state.players[0]
    return {
        "coins": int(p[P_COINS]),
        "tools": int(p[P_TOOLS]),
        "scholars": int(p[P_SCHOLARS]),
        "power": power_moved(before, g, 0),
        "vp": int(p[P_VP]) - 20,
    }


# --------------------------------------------------------------------------------------------
# R54 rows and income


def test_r54_rulebook_example_two_workshops_and_one_guild_give_1_power_2_coins_3_tools() -> None:
    """R54, rulebook example: "1 power, 2 coins, 3 tools" = 2 Workshops and 1 Guild on the map
    (board base 1 tool + two uncovered Workshop spaces + the first Guild space 1 power 2 coins)."""
    sc = with_buildings(scenario(), "workshop", "workshop", "guild")
    assert income_of(sc) == {"coins": 2, "tools": 3, "scholars": 0, "power": 1, "vp": 0}


def test_r54_an_upgrade_returns_the_workshop_and_covers_its_income_again() -> None:
    """R54: buildings leave the row from the left; an upgraded Workshop returns to the rightmost
    empty space, so the row's income is again the first k spaces (3 Workshops -> 2 + 1 Guild)."""
    sc = with_buildings(without_bonus(scenario()), "workshop", "workshop", "workshop").set(0, tools=2, coins=6)
    g = sc.turn(0)
    assert flow.income(g, 0) == {"tools": 4}  # base 1 + 3 Workshop spaces
    play(g, "upgrade guild", "upgrade r3c0")
    p = g.state.players[0]
    assert (p[P_BUILT.start + Building.WORKSHOP], p[P_BUILT.start + Building.GUILD]) == (2, 1)
    assert flow.income(g, 0) == {"tools": 3, "power": 1, "coins": 2}  # the rulebook example


@pytest.mark.parametrize(("workshops", "tools"), [(4, 5), (5, 5), (6, 6), (9, 9)])
def test_r54_the_fifth_workshop_space_is_blank(workshops: int, tools: int) -> None:
    """R54 / OP-1: the Workshop row reveals 1 tool per space except the blank 5th space; the
    board's base income is 1 tool."""
    sc = with_buildings(scenario(), *["workshop"] * workshops)
    assert income_of(sc)["tools"] == tools  # 1 + (workshops, minus 1 from the 5th on)


def test_r54_upgrading_one_of_five_workshops_loses_no_tool_income() -> None:
    """R54: the Workshop returns to the blank 5th space, so no tool income is lost."""
    sc = with_buildings(without_bonus(scenario()), *["workshop"] * 5).set(0, tools=2, coins=6)
    g = sc.turn(0)
    assert flow.income(g, 0)["tools"] == 5  # 1 + 4 (the 5th space is blank)
    play(g, "upgrade guild", "upgrade r3c0")
    assert flow.income(g, 0)["tools"] == 5  # 1 + 4 Workshops


def test_r54_guild_row_income() -> None:
    """R54 / OP-1: Guild spaces reveal 1P+2C, 1P+2C, 2P+2C, 2P+2C."""
    incomes = [income_of(with_buildings(scenario(), *["guild"] * k)) for k in range(1, 5)]
    assert [(i["power"], i["coins"]) for i in incomes] == [(1, 2), (2, 4), (4, 6), (6, 8)]


def test_r54_mountain_board_base_and_first_guild() -> None:
    """R54 / R87: the Mountain board's base income is 1 tool + 2 coins and its first Guild space
    shows 1 power + 3 coins."""
    sc = with_buildings(scenario(boards=["mountain", "plains", "forest"]), "guild")
    assert income_of(sc) == {"coins": 5, "tools": 1, "scholars": 0, "power": 1, "vp": 0}  # 2 + 3 coins


def test_r54_mountain_board_every_guild_space() -> None:
    """R54 / R87: the Mountain board's four Guild spaces show 1 P + 3 C, 1 P + 2 C, 2 P + 2 C and
    2 P + 2 C: four Guilds reveal 6 power + 9 coins (+ the base 2 coins and 1 tool)."""
    sc = with_buildings(scenario(boards=["mountain", "plains", "forest"]), "guild", "guild", "guild", "guild")
    assert income_of(sc) == {"coins": 11, "tools": 1, "scholars": 0, "power": 6, "vp": 0}


def test_r54_every_school_space_shows_a_scholar() -> None:
    """R54: each of the three School spaces reveals 1 scholar (three Schools: 3)."""
    sc = with_buildings(scenario(), "school", "school", "school")
    assert income_of(sc) == {"coins": 0, "tools": 1, "scholars": 3, "power": 0, "vp": 0}


def test_r54_school_university_and_palace_rows() -> None:
    """R54: each School reveals 1 scholar, the University 1 scholar, the Palace the income of its
    palace tile (tile 1: 5 power)."""
    sc = with_buildings(scenario(), "school", "school", "university", "palace").palace_tile(0, 1)
    assert income_of(sc) == {"coins": 0, "tools": 1, "scholars": 3, "power": 5, "vp": 0}


@pytest.mark.parametrize(
    ("start", "action", "new", "tools", "coins"),
    [
        ("workshop", "upgrade guild", "guild", 2, 6),
        ("guild", "upgrade school", "school", 3, 5),
        ("school", "upgrade university", "university", 5, 8),
        ("guild", "upgrade palace", "palace", 4, 6),
    ],
)
def test_r54_upgrade_costs(start: str, action: str, new: str, tools: int, coins: int) -> None:
    """R54: Guild 2 tools + 6 coins, School 3 + 5, University 5 + 8, Palace 4 + 6."""
    g = scenario().offer_palace(17).build(0, "r8c12", start).set(0, tools=tools, coins=coins).turn(0)
    play(g, action, "upgrade r8c12")
    p = g.state.players[0]
    assert (p[P_TOOLS], p[P_COINS]) == (0, 0)
    assert p[P_BUILT.start + Building[new.upper()]] == 1
    g = scenario().offer_palace(17).build(0, "r8c12", start).set(0, tools=tools, coins=coins - 1).turn(0)
    assert action not in g.legal_moves()  # one coin short


def test_r54_workshop_costs_one_tool_and_two_coins() -> None:
    """R54: a Workshop costs 1 tool + 2 coins."""
    g = scenario().build(0, "r3c0", "workshop").terrain("r4c1", "desert").set(0, tools=1, coins=2).turn(0)
    play(g, "build", "target r4c1")
    p = g.state.players[0]
    assert (p[P_TOOLS], p[P_COINS]) == (0, 0)


def test_r54_r3_no_building_when_the_row_is_empty() -> None:
    """R54 / R3 / R64: buildings come only from the planning board: with all 9 Workshops on the
    map the TB can only terraform (R60 c); a native hex is no target and no Workshop is offered."""
    sc = with_buildings(scenario(), *["workshop"] * 9).terrain("r5c0", "desert").terrain("r2c2", "plains")
    g = sc.set(0, tools=9, coins=9).turn(0)
    play(g, "build")
    assert "target r5c0" not in g.legal_moves()  # native: it could only take a Workshop
    play(g, "target r2c2", "spades 1")
    assert g.legal_moves() == ["done"]  # native now, but no Workshop left to build


# --------------------------------------------------------------------------------------------
# R55 the build event


def test_r55_order_round_vp_then_offers_then_city_then_acquisition() -> None:
    """R55 (order ASSUMPTION, OP-57): a build first scores round VP (T11: 5 per Palace), then makes
    power offers, then checks for cities; the acquisition effect (the palace tile's one-time
    effect) comes after.  R68: the tile itself is chosen and placed first, before the offers."""
    g = (
        scenario()
        .round(1, tile="T11")
        .offer_palace(17)
        .build(0, "r3c0", "workshop")
        .build(0, "r3c1", "guild")
        .build(0, "r3c2", "guild")
        .build(0, "r4c1", "workshop")  # 1 + 2 + 2 + 1 = 6: no city yet
        .build(1, "r4c2", "workshop")
        .set(0, tools=4, coins=6)
        .turn(0)
    )
    play(g, "upgrade palace", "upgrade r3c1")  # Guild -> Palace: 1 + 3 + 2 + 1 = 7
    assert g.state.players[0, P_VP] == 25  # 1. round scoring first: 20 + 5 (T11)
    assert (g.pending_kind(), g.current_seat()) == (Kind.CHOOSE_PALACE, 0)  # R68: the tile first
    play(g, "palace 17")
    assert g.state.players[0, P_VP] == 25  # placed; its one-time 10 VP come with step 4
    assert (g.pending_kind(), g.current_seat()) == (Kind.OFFER, 1)  # 2. offers
    play(g, "leech accept")
    # 3. the city check founds a city; R55.4: the player orders city rewards and the palace tile
    assert (g.pending_kind(), g.current_seat()) == (Kind.REWARD_ORDER, 0)
    assert g.legal_moves() == ["first city", "first palace"]
    play(g, "first city")
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K5")  # 4. then the palace tile's one-time effect, automatically
    assert g.state.players[0, P_VP] == 41  # 25 + 6 (K5) + 10 (palace 17)


def test_r55_4_op22_acquisition_may_come_before_the_city_rewards() -> None:
    """R55.4, OP-22 ([UA]): the upgrade's own effect (here the palace tile) may be taken before the
    city tile: palace 10's 12 power come first, then the city tile K3's 8 power."""
    g = (
        scenario()
        .offer_palace(10, 17)
        .build(0, "r3c0", "workshop")
        .build(0, "r3c1", "guild")
        .build(0, "r3c2", "guild")
        .build(0, "r4c1", "workshop")
        .set(0, tools=4, coins=6, bowls=(12, 0, 0))
        .turn(0)
    )
    play(g, "upgrade palace", "upgrade r3c1")
    assert g.pending_kind() == Kind.CHOOSE_PALACE  # R68: the tile is chosen first ...
    play(g, "palace 10", "first palace")  # ... and its effect may precede the city rewards
    play(g, "book law", "book law")  # 12 power: I 12 -> 0, II 12 (R30); 2 books
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K3")  # 8 power: II 12 -> 4, III 8
    assert list(g.state.players[0, P_BOWLS]) == [0, 4, 8]


def test_r55_workshop_upgrade_and_neutral_placement_are_builds() -> None:
    """R55: placing a Workshop, any upgrade and placing a neutral building fire the build event
    (round scoring T5: 3 VP per Guild; T3: 2 VP per Workshop)."""
    g = scenario().round(1, tile="T3").build(0, "r3c0", "workshop").terrain("r4c1", "desert").turn(0)
    play(g, "build", "target r4c1")
    assert g.state.players[0, P_VP] == 22  # 20 + 2 (T3)
    g = scenario().round(1, tile="T5").build(0, "r3c0", "workshop").set(0, tools=2, coins=6).turn(0)
    play(g, "upgrade guild", "upgrade r3c0")
    assert g.state.players[0, P_VP] == 23  # 20 + 3 (T5)
    g = scenario().round(1, tile="T5").build(0, "r3c0", "workshop").terrain("r4c1", "desert")
    g = g.decide(Kind.NEUTRAL_PLACE, 0, Building.GUILD)
    play(g, "neutral r4c1")
    assert g.state.players[0, P_VP] == 23  # 20 + 3 (T5)


def test_r55_pavilion_placement_is_not_a_build() -> None:
    """R55 / OP-20: placing a Pavilion is not a build: no power offers to the neighbours."""
    g = scenario().build(0, "r3c0", "workshop").build(1, "r4c0", "guild").set(0, pavilions=1).turn(0)
    bowls = list(g.state.players[1, P_BOWLS])
    play(g, "pavilion", "pavilion r3c0")
    assert g.pending_kind() == Kind.POST
    assert list(g.state.players[1, P_BOWLS]) == bowls


def test_r55_building_a_bridge_is_not_a_build() -> None:
    """R55: a bridge is not a build: no power offers to buildings at either end."""
    g = scenario().build(0, "r4c2", "workshop").build(1, "r6c2", "guild").set(0, bowls=(0, 9, 3)).turn(0)
    play(g, "spell S1", "bridge r4c2", "bridge to r6c2")
    assert g.pending_kind() == Kind.POST
