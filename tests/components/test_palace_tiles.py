"""The 17 palace tiles (R120-R137) and their open points (OP-18, OP-19, OP-40, OP-49, OP-54),
each shown by its effect in a game.

In the standard game the Palace is built with ``upgrade palace`` -> ``upgrade <hex>`` ->
``palace <n>`` (R68); ``Scenario.offer_palace`` sets which tiles lie next to the board (R14).

Seats: 0 Inventors on Plains (no faction effect during play), 1 Monks on Lake, 2 Illusionists on
Swamp; 3-player game on the 3-5 side, round 2.  Hexes used around seat 0 (Plains native):

          r5c4 L   r5c5 M   (r5c6 river)  r5c7 D   r5c8 P
    r6c5 F   r6c6 P   (r6c7 river)
  r7c4 W   r7c5 S   r7c6 D   r7c7 W   r7c8 S
    r8c5 M   r8c6 P   r8c7 L   r8c8 F

Seat 0 holds round bonus tile B9 (income only) unless a test says otherwise.
"""

from __future__ import annotations

import numpy as np
import pytest

from aoi_env import testing
from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.invariants import check
from aoi_env.core.pending import Kind
from aoi_env.core.rules.scoring import breakdown
from aoi_env.core.state import (
    G_DEPTH,
    G_DRAFT_PALACES,
    G_PALACE_STATE,
    H_BUILDING,
    H_CITY,
    H_NEUTRAL,
    H_OWNER,
    H_RIVER_CITY,
    H_TERRAIN,
    P_BOOKS,
    P_BRIDGES,
    P_BUILT,
    P_CITIES,
    P_COINS,
    P_COMPETENCIES,
    P_DRAFT_PALACE,
    P_PALACE_TILE,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario
from tests.state_readers import books, bowls, hex_row, player, science

FACTIONS = ["inventors", "monks", "illusionists"]
BOARDS = ["plains", "lake", "swamp"]


def scenario(tile: str = "T9", factions: list[str] | None = None, game: str = "aoi(players=3)") -> Scenario:
    """Round 2 of a 3-player game with round scoring tile ``tile`` (T9 = +4 per School built)."""
    return Scenario(game, factions=factions or FACTIONS, boards=BOARDS).round(2, tile=tile)


def build_palace(sc: Scenario, number: int, at: str = "r7c5", tools: int = 4, coins: int = 6) -> Game:
    """Seat 0 upgrades its Guild on ``at`` to the Palace (4 tools + 6 coins) and takes tile ``number``."""
    sc.build(0, at, "guild").offer_palace(*sorted({number, 17})).set(0, tools=tools, coins=coins)
    g = sc.turn(0)
    play(g, "upgrade palace", f"upgrade {at}", f"palace {number}")
    return g


def play(g: Game, *moves: str) -> Game:
    """Play notation moves, then check the state invariants."""
    testing.play(g, *moves)
    check(g)
    return g


def with_palace(sc: Scenario, number: int, at: str = "r7c5") -> Scenario:
    """Seat 0 already has its Palace on ``at`` with tile ``number``."""
    return sc.build(0, at, "palace").palace_tile(0, number)


def others_pass(g: Game) -> Game:
    """Seat 0 ends its turn; seats 1 and 2 pass, so seat 0 acts again in the same round."""
    play(g, "done", "pass", "bonus B1", "pass", "bonus B5")
    assert g.current_seat() == 0 and g.pending_kind() == Kind.MAIN
    return g


# ------------------------------------------------------------------------------------------------
# general (R68, R120)

# tile: (coins, tools, scholars, books, bowls after the income) from bowls 5/7/0, 15 C, 3 T
INCOME = {
    1: (0, 0, 0, 0, [0, 12, 0]),  # 5 P
    2: (0, 0, 0, 0, [5, 7, 0]),  # none
    3: (0, 0, 0, 0, [3, 9, 0]),  # 2 P
    4: (0, 0, 0, 0, [3, 9, 0]),  # 2 P
    5: (0, 0, 0, 0, [1, 11, 0]),  # 4 P
    6: (0, 0, 0, 1, [3, 9, 0]),  # 2 P + 1 book
    7: (0, 0, 0, 0, [1, 11, 0]),  # 4 P
    8: (2, 1, 0, 0, [3, 9, 0]),  # 2 C + 2 P + 1 T
    9: (0, 0, 1, 0, [5, 7, 0]),  # 1 scholar
    10: (6, 0, 0, 0, [5, 7, 0]),  # 6 C
    11: (0, 1, 0, 0, [5, 7, 0]),  # 1 T
    12: (0, 0, 0, 0, [0, 9, 3]),  # 8 P: five I -> II, three II -> III
    13: (0, 0, 0, 0, [5, 7, 0]),  # none
    14: (0, 0, 0, 0, [0, 11, 1]),  # 6 P: five I -> II, one II -> III
    15: (0, 0, 0, 0, [0, 11, 1]),  # 6 P
    16: (0, 0, 0, 1, [3, 9, 0]),  # 2 P + 1 book
    17: (0, 0, 0, 0, [3, 9, 0]),  # 2 P
}


@pytest.mark.parametrize("number", sorted(INCOME))
def test_r120_palace_tile_income_in_phase_i(number: int):
    """R120-R137: once the Palace is built, its tile's income is collected in Phase I (the Palace
    row of the planning board itself shows no income, R54).  Plains base income: 1 tool."""
    coins, tools, scholars, nbooks, after = INCOME[number]
    sc = with_palace(scenario().bonus(0, "B1"), number)  # B1 has no income
    g = sc.decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)
    if nbooks:
        play(g, "book medicine")
    p = player(g)
    assert p[P_COINS] == 15 + coins
    assert p[P_TOOLS] == 3 + 1 + tools  # + 1 Plains base income
    assert p[P_SCHOLARS] == scholars
    assert sum(books(g)) == nbooks
    assert bowls(g) == after


@pytest.mark.parametrize("number", [1, 2, 3, 4, 6, 13])
def test_r120_r76_palace_special_usable_in_the_round_built_once_per_round(number: int):
    """R120 (ASSUMPTION), R76: a palace tile's special action can be used from the round the
    Palace is built, once per round."""
    sc = scenario().build(0, "r8c6", "workshop").build(0, "r6c6", "school")
    g = build_palace(sc, number, tools=7, coins=9)  # 3 tools + 3 coins left for the special
    while g.pending_kind() != Kind.POST:  # one-time choices of the tile, if any
        play(g, g.legal_moves()[0])
    others_pass(g)
    assert "special palace" in g.legal_moves()
    play(g, "special palace")
    while g.pending_kind() != Kind.POST:
        play(g, g.legal_moves()[0])
    play(g, "done")
    assert g.current_seat() == 0 and "special palace" not in g.legal_moves()  # X token until Phase III


# ------------------------------------------------------------------------------------------------
# the tiles


def test_r121_palace1_special_gains_2_tools():
    """R121: palace 1's special action gives 2 tools."""
    g = with_palace(scenario(), 1).turn(0)
    play(g, "special palace")
    assert player(g)[P_TOOLS] == 5  # 3 + 2


def test_r122_palace2_special_is_a_tb_with_2_free_spades():
    """R122: palace 2's special action is a TB with 2 free spades: Lake -> Plains (2 spades)
    costs no tools; the Workshop is paid as usual."""
    g = with_palace(scenario(), 2).set(0, tools=1, coins=2).turn(0)
    play(g, "special palace", "target r7c4")  # Wasteland -> Plains: 2 spades (W -> D -> P)
    assert g.legal_moves() == ["spades 1", "spades 2"]
    play(g, "spades 2", "workshop")
    assert hex_row(g, "r7c4")[H_TERRAIN] == Terrain.PLAINS
    assert hex_row(g, "r7c4")[H_BUILDING] == Building.WORKSHOP
    assert player(g)[P_TOOLS] == 0 and player(g)[P_COINS] == 0  # only the Workshop: 1 T + 2 C


def test_r122_palace2_missing_spades_may_be_bought():
    """R122, R63.1: a hex 3 spades away takes the 2 free spades plus 1 bought for 3 tools."""
    g = with_palace(scenario(), 2).set(0, tools=3).turn(0)
    play(g, "special palace", "target r6c5")  # Forest -> Plains: 3 spades
    assert g.legal_moves() == ["spades 1", "spades 2", "spades 3"]
    play(g, "spades 3")
    assert hex_row(g, "r6c5")[H_TERRAIN] == Terrain.PLAINS
    assert player(g)[P_TOOLS] == 0  # 3 - 3 (one bought spade)


def test_r123_palace3_swaps_a_school_for_a_guild_3_vp_1_tool():
    """R123: palace 3's special action swaps one of your Schools for a Guild for free (the School
    returns to the planning board) and gives 3 VP + 1 tool; the swap is a Guild build (T5 +3)."""
    g = with_palace(scenario(tile="T5"), 3).build(0, "r8c6", "school").turn(0)
    play(g, "special palace", "upgrade r8c6")
    p = player(g)
    assert hex_row(g, "r8c6")[H_BUILDING] == Building.GUILD
    assert p[P_BUILT.start + Building.SCHOOL] == 0 and p[P_BUILT.start + Building.GUILD] == 1
    assert p[P_VP] == 26  # 20 + 3 (palace 3) + 3 (T5: build a Guild)
    assert p[P_TOOLS] == 4  # 3 + 1
    assert p[P_COINS] == 15  # free


def test_r123_palace3_needs_a_guild_left_on_the_planning_board():
    """R123: the swap is not usable when no Guild piece is left on the planning board."""
    sc = with_palace(scenario(), 3).build(0, "r8c6", "school")
    for h in ("r6c6", "r7c6", "r8c7", "r7c7"):
        sc.build(0, h, "guild")  # all 4 Guild pieces on the map
    assert "special palace" not in sc.turn(0).legal_moves()


def test_r124_palace4_free_workshop_to_guild_upgrade_is_a_build():
    """R124: palace 4's special action upgrades a Workshop to a Guild for free; it is a build:
    T5 scores +3 and the neighbour is offered power."""
    sc = with_palace(scenario(tile="T5"), 4).build(0, "r8c6", "workshop").build(1, "r8c7", "workshop")
    g = sc.turn(0)
    play(g, "special palace", "upgrade r8c6")
    assert hex_row(g, "r8c6")[H_BUILDING] == Building.GUILD
    assert player(g)[P_TOOLS] == 3 and player(g)[P_COINS] == 15  # free
    assert player(g)[P_VP] == 23  # 20 + 3 (T5)
    assert g.current_seat() == 1 and g.pending_kind() == Kind.OFFER  # seat 1's Workshop is adjacent


def test_r125_palace5_takes_a_competency_with_its_position_reward():
    """R125, R53: palace 5 gives a competency of choice for free with its position reward (C4 on
    the Law column's bottom row: 1 Law step + 2 Law books; C4 itself: 1 tool, 5 VP, 2 coins)."""
    g = build_palace(scenario(), 5)
    assert g.pending_kind() == Kind.CHOOSE_COMPETENCY
    play(g, "competency C4")
    p = player(g)
    assert p[P_COMPETENCIES] == 1 << 3  # C4
    assert science(g) == [0, 1, 0, 0] and books(g) == [0, 2, 0, 0]
    assert p[P_VP] == 25 and p[P_TOOLS] == 1 and p[P_COINS] == 2  # 20 + 5; 4 - 4 + 1; 6 - 6 + 2


def test_r126_palace6_special_two_steps_in_one_discipline():
    """R126: palace 6's special action advances 2 steps in one discipline (reaching level 3 pays
    1 power, R49)."""
    g = with_palace(scenario(), 6).set(0, science=[0, 1, 0, 0]).turn(0)
    play(g, "special palace")
    assert g.pending_kind() == Kind.STEPS_ONE
    play(g, "steps law")
    assert science(g) == [0, 3, 0, 0]  # 1 + 2
    assert bowls(g) == [4, 8, 0]  # threshold 3: 1 power


def test_r127_palace7_pass_scores_3_vp_per_school():
    """R127, OP-52: when passing, palace 7 scores 3 VP per School on the map (neutral included)."""
    sc = with_palace(scenario(), 7).build(0, "r8c6", "school").build(0, "r6c6", "school")
    g = sc.build(0, "r8c8", "school", neutral=True).turn(0)
    play(g, "pass")
    assert player(g)[P_VP] == 29  # 20 + 3 x 3


def test_r128_palace8_city_needs_power_6():
    """R128: with palace 8 a city needs total power 6 instead of 7: the 4th building of a group
    Palace + 3 Workshops (3 + 1 + 1 + 1 = 6) founds a city."""
    sc = with_palace(scenario(), 8).build(0, "r6c6", "workshop").build(0, "r8c6", "workshop")
    g = sc.set(0, tools=4, coins=2).turn(0)  # 3 tools (spade) + 1 tool and 2 coins (Workshop)
    play(g, "build", "target r7c6", "spades 1", "workshop")
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K1")
    assert all(hex_row(g, h)[H_CITY] == 1 for h in ("r6c6", "r7c5", "r7c6", "r8c6"))


def test_r128_palace8_city_still_needs_power_6_not_5():
    """R128, R43: palace 8 lowers the power to 6, not further: with the Palace elsewhere, Guild +
    3 Workshops (2 + 1 + 1 + 1 = 5) found no city."""
    sc = with_palace(scenario(), 8, at="r0c4").build(0, "r6c6", "guild").build(0, "r8c6", "workshop")
    g = sc.build(0, "r7c5", "workshop").set(0, tools=4, coins=2).turn(0)
    play(g, "build", "target r7c6", "spades 1", "workshop")
    assert g.pending_kind() == Kind.POST
    assert not any(hex_row(g, h)[H_CITY] for h in ("r6c6", "r7c5", "r7c6", "r8c6"))


def test_r128_op33_palace8_founds_a_city_when_the_tile_is_taken():
    """R128, R43, OP-33: a group of 4 buildings with power 6 is no city (7 needed); taking palace 8
    lowers the need to 6 and the city is founded right away: the tile is placed before the build's
    city check (R68), which then founds it; R55.4 lets the player take the city first."""
    sc = scenario().build(0, "r6c6", "workshop").build(0, "r8c6", "workshop").build(0, "r7c6", "workshop")
    g = build_palace(sc, 8)  # Palace 3 + Workshops 3 x 1 = 6
    assert g.legal_moves() == ["first city", "first palace"]
    play(g, "first city")
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K5")
    assert player(g)[P_VP] == 26 and player(g)[P_CITIES] == 1  # 20 + 6 (K5)


def test_r128_palace8_building_count_is_unchanged():
    """R128: palace 8 lowers only the power: Palace (3) + 2 Guilds (2 + 2) = 7 power in 3
    buildings is still no city (4 buildings needed)."""
    sc = scenario().build(0, "r6c6", "guild").build(0, "r8c6", "guild")
    g = build_palace(sc, 8)
    assert g.pending_kind() == Kind.POST
    assert not g.state.hexes[:, H_CITY].any()


def test_r129_op49_palace9_flight_over_1_or_2_hexes_for_a_scholar_and_5_vp():
    """R129, OP-49: in a TB, return 1 scholar to fly to a hex at distance 2 or 3 from your
    buildings that is not adjacent to any of them; +5 VP.  Spades are paid as usual."""
    g = with_palace(scenario(), 9).set(0, scholars=1, scholar_supply=6, tools=4, coins=2).turn(0)
    play(g, "build")
    assert "fly" in g.legal_moves()
    play(g, "fly")
    targets = g.legal_moves()
    assert "fly r7c7" in targets and "fly r7c8" in targets  # distance 2 and 3
    assert "fly r7c6" not in targets  # adjacent
    assert "fly r7c9" not in targets  # distance 4
    play(g, "fly r7c8", "spades 1", "workshop")  # Swamp -> Plains: 1 spade = 3 tools
    p = player(g)
    assert hex_row(g, "r7c8")[H_BUILDING] == Building.WORKSHOP
    assert p[P_VP] == 25  # 20 + 5 (flight)
    assert p[P_SCHOLARS] == 0 and p[P_SCHOLAR_SUPPLY] == 7  # the scholar returned to the supply
    assert p[P_TOOLS] == 0 and p[P_COINS] == 0  # 4 - 3 (spade) - 1; 2 - 2


def test_r129_op49_palace9_flight_to_an_already_native_hex_just_builds():
    """R129 / OP-49: as with the Moles' tunnel (OP-48), "whenever you take a TB action" includes a
    TB that only builds: a flight may reach a hex that is already native."""
    sc = scenario().terrain("r7c8", "plains")
    g = with_palace(sc, 9).set(0, scholars=1, scholar_supply=6, tools=4, coins=2).turn(0)
    play(g, "build", "fly")
    assert "fly r7c8" in g.legal_moves()
    play(g, "fly r7c8")
    p = player(g)
    assert hex_row(g, "r7c8")[H_BUILDING] == Building.WORKSHOP
    assert p[P_VP] == 25 and p[P_SCHOLARS] == 0
    assert p[P_TOOLS] == 3 and p[P_COINS] == 0  # only the Workshop was paid


@pytest.mark.parametrize(("number", "far", "size"), [(9, "r7c8", 2), (17, "r7c8", 1), (9, "r7c9", 1)])
def test_r129_op49_palace9_flight_range_connects_for_final_area_scoring(number: int, far: str, size: int):
    """R129, R83, OP-49: for final area scoring, buildings within flight range (distance <= 3)
    count as connected; no scholar is needed.  Distance 3 connects with palace 9 only; 4 never."""
    sc = with_palace(scenario(), number).build(0, far, "workshop")
    assert breakdown(sc.g)["area_size"][0] == size


def test_r130_palace10_gives_12_power_and_2_books():
    """R130: palace 10's one-time effect: 12 power and 2 books of choice."""
    g = build_palace(scenario(), 10)
    play(g, "book law", "book medicine")
    assert bowls(g) == [0, 5, 7]  # 5/7/0 gaining 12: five I -> II, seven II -> III
    assert books(g) == [0, 1, 0, 1]


def test_r131_op18_palace11_city_tile_counts_as_founding_t6_and_felines():
    """R131, OP-18 (v1.2): palace 11 gives a city tile of choice with its VP, bonus and key; gaining
    it counts as founding a city (T6 +5, the Felines' 3 steps + 1 book) but makes no city on the
    map."""
    sc = scenario(tile="T6", factions=["felines", "monks", "illusionists"])
    g = build_palace(sc, 11)
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K6")
    play(g, "book engineering", "step banking", "step banking", "step law")  # Felines (R90)
    p = player(g)
    assert p[P_VP] == 33  # 20 + 8 (K6) + 5 (T6)
    assert p[P_SCHOLARS] == 1  # K6 bonus
    assert p[P_CITIES] == 1  # the key
    assert science(g) == [2, 1, 0, 0] and books(g) == [0, 0, 1, 0]
    assert not g.state.hexes[:, H_CITY].any()  # no city on the map
    assert g.pending_kind() == Kind.POST


def test_op18_r145_palace11_in_v1_0_is_a_city_tile_but_no_founding():
    """OP-18, R145: in v1.0 the palace 11 tile does not count as founding a city: T6 still scores
    taking a city tile (+5), but the Felines' founding ability does not fire."""
    sc = scenario(tile="T6", factions=["felines", "monks", "illusionists"], game="aoi(players=3,ruleset=v1.0)")
    g = build_palace(sc, 11)
    play(g, "city K6")
    assert player(g)[P_VP] == 33  # 20 + 8 (K6) + 5 (T6)
    assert g.pending_kind() == Kind.POST  # no Felines steps or book
    assert science(g) == [0, 0, 0, 0] and books(g) == [0, 0, 0, 0]


def test_r131_palace11_key_opens_level_8():
    """R131, R50: the palace 11 tile is a key like any other city tile."""
    g = with_palace(scenario(), 11).set(0, cities=1, science=[7, 0, 0, 0], scholars=1, scholar_supply=6).turn(0)
    play(g, "scholar banking 2")
    assert g.pending_kind() == Kind.USE_KEY
    play(g, "key banking")
    assert science(g) == [9, 0, 0, 0]  # 7 + 2 with the key


def test_r132_palace12_each_workshop_built_scores_2_vp():
    """R132: from now on, each Workshop built gives +2 VP."""
    g = with_palace(scenario(), 12).turn(0)
    play(g, "build", "target r8c6")  # already Plains: build only
    assert hex_row(g, "r8c6")[H_BUILDING] == Building.WORKSHOP
    assert player(g)[P_VP] == 22  # 20 + 2


def test_r133_palace13_special_book_and_3_coins():
    """R133: palace 13's special action gives 1 book of choice and 3 coins."""
    g = with_palace(scenario(), 13).turn(0)
    play(g, "special palace", "book banking")
    assert books(g) == [1, 0, 0, 0] and player(g)[P_COINS] == 18  # 15 + 3


def test_r133_palace13_each_guild_built_scores_3_vp():
    """R133: from now on, each Guild built gives +3 VP."""
    g = with_palace(scenario(), 13).build(0, "r8c6", "workshop").turn(0)
    play(g, "upgrade guild", "upgrade r8c6")
    assert player(g)[P_VP] == 23  # 20 + 3
    assert player(g)[P_COINS] == 9 and player(g)[P_TOOLS] == 1  # 15 - 6; 3 - 2


def test_r134_op40_palace14_two_free_sailing_advances_with_rewards_and_t8():
    """R134, OP-40: palace 14 gives 2 free sailing advances with their rewards (0 -> 1: 2 VP,
    1 -> 2: 2 books); round tile T8 scores each advance."""
    g = build_palace(scenario(tile="T8"), 14)
    play(g, "book law", "book law")
    p = player(g)
    assert p[P_SAILING] == 2
    assert p[P_VP] == 28  # 20 + 2 (sailing 1) + 3 + 3 (T8)
    assert books(g) == [0, 2, 0, 0]


def test_op40_palace14_advance_beyond_the_top_is_lost():
    """OP-40: from sailing 2 only one advance fits (-> 3: 4 VP); the second is lost."""
    g = build_palace(scenario(tile="T8").set(0, sailing=2), 14)
    p = player(g)
    assert p[P_SAILING] == 3
    assert p[P_VP] == 27  # 20 + 4 (sailing 3) + 3 (T8, one advance)


def test_r134_op32_palace14_city_across_one_river_hex():
    """R134, OP-32: with palace 14 a city may be founded over one river hex between two groups:
    Palace (3) + Workshop (1) south of river hex r6c7 and Guild (2) + Workshop (1) north of it;
    the player decides whether and when ("rivercity <hex>"), and the river hex is marked.  The
    tile is placed before the build's own city check (R68), so the Palace's build may use it."""
    sc = scenario().build(0, "r7c7", "workshop").build(0, "r5c7", "guild").build(0, "r5c8", "workshop")
    g = build_palace(sc, 14, at="r7c6")
    assert g.pending_kind() == Kind.RIVER_CITY
    assert g.legal_moves() == ["rivercity r6c7", "rivercity r6c8", "done"]  # either river hex between them
    play(g, "rivercity r6c7", "first city")  # the order of the rewards (R55.4; see below)
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K1")
    play(g, "book law", "book law")  # then the tile's one-time effect: sailing 0 -> 1 -> 2 rewards
    assert hex_row(g, "r6c7")[H_RIVER_CITY] == 1
    assert all(hex_row(g, h)[H_CITY] == 1 for h in ("r5c7", "r5c8", "r7c6", "r7c7"))


def test_r134_palace14_river_city_may_wait():
    """R134: "you decide whether and when": declining now leaves both groups without a city, and
    the crossing is offered again at the next city check (here: the one after the tile's
    one-time effect)."""
    sc = scenario().build(0, "r7c7", "workshop").build(0, "r5c7", "guild").build(0, "r5c8", "workshop")
    g = build_palace(sc, 14, at="r7c6")
    play(g, "done", "book law", "book law")
    assert g.pending_kind() == Kind.RIVER_CITY  # offered again
    play(g, "done")
    assert not g.state.hexes[:, H_CITY].any()
    assert g.pending_kind() == Kind.POST


def _river_groups(sc: Scenario) -> Scenario:
    """School r7c6 + Workshop r7c7 south of river r6c7, Guild r5c7 + Workshop r5c8 north of it:
    a University on r7c6 gives 7 power and 4 buildings across the river."""
    sc.build(0, "r7c6", "school").build(0, "r7c7", "workshop")
    return sc.build(0, "r5c7", "guild").build(0, "r5c8", "workshop")


def test_r70_r134_river_city_of_an_upgrade_lets_the_player_order_the_rewards():
    """R70 ([UA] "if this action founds a city, you may take the rewards in any order"), R134:
    a University upgrade that founds a city across a river offers the same order as one that
    founds it over land; "first competency" takes the University's competency before the tile."""
    g = _river_groups(with_palace(scenario(), 14, at="r0c4").set(0, tools=5, coins=8)).turn(0)
    play(g, "upgrade university", "upgrade r7c6")
    assert g.pending_kind() == Kind.RIVER_CITY
    play(g, "rivercity r6c7")
    assert g.pending_kind() == Kind.REWARD_ORDER
    assert g.legal_moves() == ["first city", "first competency"]
    play(g, "first competency")
    assert g.pending_kind() == Kind.CHOOSE_COMPETENCY


def test_r55_r134_palace14_river_city_of_the_palace_build_lets_the_tile_come_first():
    """R55.4, R134: when the Palace's own build founds the river city, "first palace" gives the
    tile's one-time effect (2 sailing advances) before the city tile; "first city" keeps the old
    order."""
    sc = scenario().build(0, "r7c7", "workshop").build(0, "r5c7", "guild").build(0, "r5c8", "workshop")
    g = build_palace(sc, 14, at="r7c6")
    play(g, "rivercity r6c7")
    assert g.legal_moves() == ["first city", "first palace"]
    play(g, "first palace", "book law", "book law")
    assert player(g)[P_SAILING] == 2
    assert g.pending_kind() == Kind.CHOOSE_CITY


def test_r134_op32_palace14_river_hex_joins_every_group_on_its_banks():
    """R134, OP-32: ignoring river hex r6c7 joins all of seat 0's groups on its banks, here three:
    Guild r5c7 + Workshop r5c8 (north), Guild r6c6 (west), Guild r7c7 (south).  No two of them
    qualify (3 buildings at most), all three do (4 buildings, 7 power), and all found the city."""
    sc = with_palace(scenario(), 14, at="r0c4").build(0, "r5c7", "guild").build(0, "r6c6", "guild")
    g = sc.build(0, "r7c7", "guild").set(0, tools=3, coins=5).turn(0)
    play(g, "build", "target r5c8")
    assert g.pending_kind() == Kind.RIVER_CITY
    assert g.legal_moves() == ["rivercity r6c7", "done"]  # r6c8 touches only two of the groups
    play(g, "rivercity r6c7", "city K1")
    assert all(hex_row(g, h)[H_CITY] == 1 for h in ("r5c7", "r5c8", "r6c6", "r7c7"))
    assert hex_row(g, "r0c4")[H_CITY] == 0


def _bridge_links_seat0(game: str) -> Game:
    """Seat 0 (palace 14) has two groups across river r6c7 (7 power, 4 buildings) and declined the
    crossing so far; seat 1 casts the bridge spell from its Workshop r6c6 to seat 0's Guild r5c7."""
    sc = scenario(tile="T6", game=game).build(0, "r0c4", "palace").palace_tile(0, 14)
    sc.build(0, "r7c6", "guild").build(0, "r7c7", "guild").build(0, "r5c7", "guild").build(0, "r5c8", "workshop")
    g = sc.build(1, "r6c6", "workshop").set(1, bowls=(0, 0, 7)).turn(1)
    play(g, "spell S1", "bridge r6c6", "bridge to r5c7")
    return g


def test_r134_v12_palace14_river_crossing_only_in_its_owners_turn():
    """R134 [UA v1.2]: "you decide when to use this ability in your turn": another player's bridge
    that links the two groups does not let seat 0 found the river city in seat 1's turn."""
    g = _bridge_links_seat0("aoi(players=3)")
    assert g.current_seat() == 1 and g.pending_kind() == Kind.POST
    assert not g.state.hexes[:, H_CITY].any()


def test_r134_v12_palace14_river_crossing_offered_again_in_the_owners_turn():
    """R134: in seat 0's own turn the next city check (after its build) offers the crossing."""
    g = _bridge_links_seat0("aoi(players=3)")
    play(g, "done", "pass", "bonus B1")  # seat 1 ends its turn, seat 2 passes
    assert g.current_seat() == 0
    play(g, "upgrade guild", "upgrade r5c8")  # a build of seat 0: its city check
    assert g.pending_kind() == Kind.RIVER_CITY


def test_r145_v10_palace14_river_crossing_in_any_turn():
    """R145, R134 [PL v1.0]: the first edition does not say "in your turn"; treated as any turn
    (as Palace 11's "counts as founding" and palace 15's interleaving are: the v1.2 addition off)."""
    g = _bridge_links_seat0("aoi(players=3,ruleset=v1.0)")
    assert g.current_seat() == 0 and g.pending_kind() == Kind.RIVER_CITY


def test_r134_without_palace14_the_river_separates_the_groups():
    """R43: the same position with another tile founds no city (two groups of 2)."""
    sc = scenario().build(0, "r7c7", "workshop").build(0, "r5c7", "guild").build(0, "r5c8", "workshop")
    g = build_palace(sc, 17, at="r7c6")
    assert g.pending_kind() == Kind.POST
    assert not g.state.hexes[:, H_CITY].any()


def _palace15(tools: int = 5, coins: int = 8) -> Game:
    """Palace 3 on r7c5 + Guild r8c6 + Workshop r6c6 (power 6, 3 buildings): a Workshop on r7c6
    completes a city (7 power, 4 buildings).  r6c6 is one end of the printed bridge r5c7-r6c6."""
    sc = scenario().build(0, "r8c6", "guild").build(0, "r6c6", "workshop")
    return build_palace(sc, 15, tools=tools, coins=coins)


def test_r135_palace15_three_parts_in_any_order():
    """R135: palace 15 gives, in an order of the player's choice, a TB with 2 free spades, 2 free
    bridges and 2 books."""
    g = _palace15()
    assert g.pending_kind() == Kind.PALACE15
    assert g.legal_moves() == ["part spades", "part bridges", "part books"]
    play(g, "part books", "book law", "book law")
    assert g.legal_moves() == ["part spades", "part bridges"]
    play(g, "part bridges", "bridge r5c7", "bridge to r6c6")
    assert player(g)[P_BOOKS.start + 1] == 2 and g.state.bridges[0, 2] == 0
    # the second bridge has no legal location (no other own building at a printed spot): lost
    assert g.legal_moves() == ["part spades"]
    play(g, "part spades", "target r8c7", "spades 2", "done")  # Lake -> Plains with 2 free spades
    assert hex_row(g, "r8c7")[H_TERRAIN] == Terrain.PLAINS
    assert player(g)[P_TOOLS] == 1  # 5 - 4 (Palace); the spades were free
    assert g.pending_kind() == Kind.POST


def test_r135_palace15_two_free_bridges():
    """R135, R40: the bridges part builds 2 bridges, free: with own buildings at two printed spots
    (r6c6 and r7c7 across the river from r5c7) both are built, the third bridge stays in the
    supply, and no power, tools or coins are paid."""
    sc = scenario().build(0, "r8c6", "guild").build(0, "r6c6", "workshop").build(0, "r7c7", "workshop")
    g = build_palace(sc, 15, tools=5, coins=8)
    before = (bowls(g), player(g)[P_TOOLS], player(g)[P_COINS])
    play(g, "part bridges", "bridge r5c7", "bridge to r6c6")
    assert g.pending_kind() == Kind.BRIDGE_END  # the second bridge
    play(g, "bridge r5c7", "bridge to r7c7")
    assert player(g)[P_BRIDGES] == 2
    assert sorted(map(tuple, g.state.built_bridges().tolist())) == sorted(
        [tuple(sorted((parse_hex("r5c7"), parse_hex(h)))) for h in ("r6c6", "r7c7")]
    )
    assert (bowls(g), player(g)[P_TOOLS], player(g)[P_COINS]) == before


def test_r135_op19_palace15_parts_not_interleaved_city_rewards_wait():
    """R135, OP-19 (v1.2): a part must be finished before the next starts, and rewards triggered
    during a part (here the city founded by the TB's Workshop) resolve only after all three parts
    are done."""
    g = _palace15()
    play(g, "part spades", "target r7c6")
    assert g.legal_moves() == ["spades 1"]  # inside the TB part: no other part can start
    play(g, "spades 1", "workshop")  # 4th building, power 3 + 2 + 1 + 1 = 7: a city is founded (R43)
    assert g.pending_kind() == Kind.PALACE15  # ... but its tile waits: the next part comes first
    assert hex_row(g, "r7c6")[H_CITY] and player(g)[P_CITIES] == 0
    play(g, "part bridges", "bridge r5c7", "bridge to r6c6", "part books", "book law", "book law")
    assert g.pending_kind() == Kind.CHOOSE_CITY  # now the city
    play(g, "city K1")
    assert all(hex_row(g, h)[H_CITY] == 1 for h in ("r6c6", "r7c5", "r7c6", "r8c6"))
    assert player(g)[P_VP] == 24  # 20 + 4 (K1)


@pytest.mark.parametrize("game", ["aoi(players=3)", "aoi(players=3,ruleset=v1.0)"])
def test_op19_palace15_city_founded_in_a_part_stays_a_city_when_a_bridge_joins_another(game: str):
    """OP-19, R43, R44: only the city's rewards wait in v1.2, not its founding.  The TB part
    founds city A (Palace r7c5, Guild r8c6, Workshops r6c6 and r7c6); the bridges part then joins
    it to the existing city B (r5c7, r5c8, r4c7, r4c8).  Both stay cities, so A's tile, VP and key
    still come (they were lost when the founding itself waited)."""
    sc = scenario(game=game).build(0, "r8c6", "guild").build(0, "r6c6", "workshop")
    city_b = ("r5c7", "r5c8", "r4c7", "r4c8")
    for h, building in zip(city_b, ("guild", "school", "guild", "workshop"), strict=True):
        sc.build(0, h, building)
    g = build_palace(sc.city(*city_b).set(0, cities=1), 15, tools=5, coins=8)
    play(g, "part spades", "target r7c6", "spades 1", "workshop")
    if g.pending_kind() == Kind.CHOOSE_CITY:  # v1.0: at once
        play(g, "city K1")
    play(g, "part bridges", "bridge r5c7", "bridge to r6c6")
    while g.pending_kind() != Kind.POST:
        play(g, "city K1" if g.pending_kind() == Kind.CHOOSE_CITY else g.legal_moves()[0])
    assert player(g)[P_CITIES] == 2
    assert player(g)[P_VP] == 24  # 20 + 4 (K1)
    assert all(hex_row(g, h)[H_CITY] == 1 for h in ("r7c5", "r8c6", "r6c6", "r7c6", *city_b))


def test_op19_r145_palace15_in_v1_0_city_rewards_do_not_wait():
    """OP-19, R145: v1.0 forbids only mixing the three parts with each other, so the city founded
    by the TB part takes its tile right away, before the next part."""
    sc = scenario(game="aoi(players=3,ruleset=v1.0)").build(0, "r8c6", "guild").build(0, "r6c6", "workshop")
    g = build_palace(sc, 15, tools=5, coins=8)
    play(g, "part spades", "target r7c6", "spades 1", "workshop")
    assert g.pending_kind() == Kind.CHOOSE_CITY  # at once
    play(g, "city K1")
    assert g.legal_moves() == ["part bridges", "part books"]


def test_r136_palace16_guild_on_any_empty_native_hex_is_a_build():
    """R136: palace 16 places a Guild from the planning board on any empty hex of your native
    terrain anywhere (no reach, no terraforming); it is a build: T5 +3 and power offers."""
    sc = scenario(tile="T5").build(1, "r0c3", "workshop")
    g = build_palace(sc, 16)
    assert g.pending_kind() == Kind.GUILD_ANYWHERE
    moves = g.legal_moves()
    assert "guild r0c4" in moves and "guild r4c0" in moves  # far away, printed Plains
    assert "guild r7c6" not in moves  # adjacent, but Desert: no terraforming
    play(g, "guild r0c4")
    h = hex_row(g, "r0c4")
    assert h[H_BUILDING] == Building.GUILD and h[H_OWNER] == 0 and h[H_NEUTRAL] == 0
    assert player(g)[P_VP] == 23  # 20 + 3 (T5: build a Guild)
    assert player(g)[P_COINS] == 0 and player(g)[P_TOOLS] == 0  # only the Palace was paid
    assert g.current_seat() == 1 and g.pending_kind() == Kind.OFFER  # seat 1 on r0c3 is adjacent


def test_r137_palace17_gives_10_vp():
    """R137: palace 17's one-time effect is 10 VP."""
    g = build_palace(scenario(), 17)
    assert player(g)[P_VP] == 30  # 20 + 10
    assert player(g)[P_PALACE_TILE] == 16  # tile 17 (0-based id 16)


@pytest.mark.parametrize("seed", range(4))
def test_r14_r137_palace17_always_offered_in_the_standard_distribution(seed: int):
    """R14, R137: standard game: tile 17 plus P + 1 random tiles are available (5 with 3 players)."""
    state = Game("aoi(players=3)", seed=seed).state.glob[G_PALACE_STATE]
    assert state[16] == -1
    assert int(np.count_nonzero(state == -1)) == 5  # 17 + (3 + 1)


@pytest.mark.parametrize("seed", range(4))
def test_r16_draft_offers_p_plus_1_tiles_without_17(seed: int):
    """R16.3, R120: the draft variant reveals P + 1 random palace tiles; no. 17 is not used."""
    drafted = [int(t) for t in Game("aoi(players=3,distribution=draft)", seed=seed).state.glob[G_DRAFT_PALACES]]
    tiles = [t for t in drafted if t >= 0]
    assert len(tiles) == 4 and 16 not in tiles


def _drafted(number: int) -> Scenario:
    """Draft variant: seat 0 drafted palace tile ``number`` (R16.10); no tiles lie by the board."""
    sc = scenario(game="aoi(players=3,distribution=draft)").offer_palace()
    sc.draft_palace(0, number)  # the drafted tile on the planning board
    return sc


def test_op54_drafted_palace_tile_has_no_effect_before_the_palace_is_built():
    """R16.10, OP-54: the drafted tile gives nothing (here palace 10's 6 coins of income) until
    the Palace is built."""
    g = _drafted(10).bonus(0, "B1").decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)
    assert player(g)[P_COINS] == 15  # no income from the drafted tile
    assert player(g)[P_PALACE_TILE] == -1


def test_r68_op54_draft_palace_uses_the_drafted_tile_without_a_choice():
    """R68, R16.10, OP-54: in the draft variant the Palace takes the drafted tile with no choice;
    its one-time effect fires when the Palace is built."""
    sc = _drafted(10).build(0, "r7c5", "guild").set(0, tools=4, coins=6)
    g = sc.turn(0)
    play(g, "upgrade palace", "upgrade r7c5")
    assert g.pending_kind() == Kind.CHOOSE_BOOKS  # palace 10's 2 books, no palace choice
    play(g, "book law", "book law")
    assert player(g)[P_PALACE_TILE] == 9 and player(g)[P_DRAFT_PALACE] == -1
    assert bowls(g) == [0, 5, 7]  # 12 power
    assert g.state.glob[G_PALACE_STATE.start + 9] == 0
    assert g.state.glob[G_DEPTH] > 0 and g.pending_kind() == Kind.POST


def test_r123_r129_palace3_reward_and_palace9_flight_are_read_from_the_data(monkeypatch):
    """R123 / R129: palace 3's swap reward (``swap_reward``) and the flight's distances and price
    (``jumps.flight``) are data: changed there, the engine follows."""
    from aoi_env.core import terraform
    from aoi_env.core.rules import scoring
    from aoi_env.data import Jump, load

    assert load().palace_tiles[2]["swap_reward"] == {"vp": 3, "tools": 1}
    assert load().jumps["flight"] == Jump(3, "scholars", 1) and terraform.FLIGHT_SCHOLARS == 1
    monkeypatch.setitem(load().palace_tiles[2], "swap_reward", {"coins": 4})
    g = with_palace(scenario(tile="T5"), 3).build(0, "r8c6", "school").turn(0)
    play(g, "special palace", "upgrade r8c6")
    p = player(g)
    assert (p[P_VP], p[P_TOOLS], p[P_COINS]) == (23, 3, 19)  # 20 + 3 (T5); no tool; 15 + 4

    monkeypatch.setitem(load().jumps, "flight", Jump(4, "scholars", 1))
    g = with_palace(scenario(), 9).turn(0)
    assert scoring.area_jump(g, 0) == 4  # the farthest distance reaches for the final area (R83)


# ------------------------------------------------------------------------------------------------
# exact amounts: no further choice is left pending after the tile's gain


def test_r125_palace5_takes_exactly_one_competency():
    """R125: palace 5 gives ONE competency: after taking C4 no second competency choice is
    pending, the turn goes on to its free conversions, and the player holds one competency.
    Fails on: ``palace_tiles.5.once.competency`` 1 -> 2 (a second CHOOSE_COMPETENCY follows)."""
    g = build_palace(scenario(), 5)
    assert g.pending_kind() == Kind.CHOOSE_COMPETENCY
    play(g, "competency C4")
    assert g.pending_kind() == Kind.POST and "done" in g.legal_moves()
    assert not any(m.startswith("competency") for m in g.legal_moves())
    assert bin(int(player(g)[P_COMPETENCIES])).count("1") == 1  # C4 only


def _income_book(number: int) -> Game:
    """Phase I income of seat 0 with palace ``number`` (B1: no income of its own); the book of
    choice is taken in Medicine."""
    g = with_palace(scenario().bonus(0, "B1"), number).decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)
    assert g.pending_kind() == Kind.CHOOSE_BOOKS
    assert g.legal_moves() == ["book banking", "book law", "book engineering", "book medicine"]
    play(g, "book medicine")
    return g


@pytest.mark.parametrize("number", [6, 16])
def test_r126_r136_palace6_and_16_income_is_exactly_one_book(number: int):
    """R126 / R136, R120: palace 6's and palace 16's income is 2 power + exactly 1 book: after one
    book choice no other book choice is pending (seat 0's turn starts), and the player holds one
    book.  Fails on: ``palace_tiles.6.income.books`` or ``palace_tiles.16.income.books`` 1 -> 2
    (a second CHOOSE_BOOKS follows)."""
    g = _income_book(number)
    assert g.current_seat() == 0 and g.pending_kind() == Kind.MAIN
    assert not any(m.startswith("book ") and "BA" not in m for m in g.legal_moves())
    assert books(g) == [0, 0, 0, 1]
    assert bowls(g) == [3, 9, 0]  # 5/7/0 + 2 power


def test_r133_palace13_special_is_exactly_one_book_and_3_coins():
    """R133: palace 13's special action gives 3 coins + exactly 1 book: after one book choice the
    action is over (free conversions or done, no second book choice) and the player holds one
    book.  Fails on: ``palace_tiles.13.special.books`` 1 -> 2 (a second CHOOSE_BOOKS follows)."""
    g = with_palace(scenario(), 13).turn(0)
    play(g, "special palace")
    assert g.pending_kind() == Kind.CHOOSE_BOOKS
    play(g, "book banking")
    assert g.pending_kind() == Kind.POST and "done" in g.legal_moves()
    assert not any(m.startswith("book ") for m in g.legal_moves())
    assert books(g) == [1, 0, 0, 0] and player(g)[P_COINS] == 18  # 15 + 3
