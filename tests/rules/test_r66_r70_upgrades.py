"""RULES.md §4.2.2: upgrading a building (R66-R70, OP-22, R54 pieces and income).

Seat 0 plays the Desert board; round tile T10 (innovation VP) unless a test needs another.
"""

from __future__ import annotations

import pytest

from aoi_env.core import flow
from aoi_env.core.board import parse_hex
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_PALACE_STATE,
    H_BUILDING,
    P_BUILT,
    P_CITIES,
    P_COINS,
    P_COMPETENCIES,
    P_DRAFT_PALACE,
    P_PALACE_TILE,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
)
from aoi_env.data.enums import Building
from aoi_env.testing import Scenario, play

WORKSHOP, GUILD, SCHOOL, UNIVERSITY, PALACE = (
    Building.WORKSHOP,
    Building.GUILD,
    Building.SCHOOL,
    Building.UNIVERSITY,
    Building.PALACE,
)


def scenario(tools: int = 20, coins: int = 30) -> Scenario:
    s = Scenario("aoi(players=3)", factions=["blessed", "felines", "monks"], boards=["desert", "lake", "forest"])
    for seat, tile in enumerate(("B10", "B9", "B8")):
        s.bonus(seat, tile)
    s.round(1, tile="T10")
    s.set(0, tools=tools, coins=coins)
    return s


def building_at(g, hex_: str) -> Building:  # noqa: ANN001
    return Building(int(g.state.hexes[parse_hex(hex_), H_BUILDING]))


def built(g, b: Building, seat: int = 0) -> int:  # noqa: ANN001
    return int(g.state.players[seat, P_BUILT][b])


def spent(g, tools: int = 20, coins: int = 30) -> tuple[int, int]:  # noqa: ANN001
    p = g.state.players[0]
    return tools - int(p[P_TOOLS]), coins - int(p[P_COINS])


# --------------------------------------------------------------------------------------------
# R66 general


def test_r66_one_action_upgrades_one_building_by_one_step() -> None:
    """R66 / OP-22: one action upgrades one building by one step (Workshop -> Guild only)."""
    s = scenario()
    s.build(0, "r7c6", "workshop").build(0, "r7c7", "workshop")
    g = s.turn(0)
    moves = g.legal_moves()
    assert "upgrade guild" in moves
    assert not {"upgrade school", "upgrade palace", "upgrade university"} & set(moves)  # no skipping
    play(g, "upgrade guild")
    assert g.legal_moves() == ["upgrade r7c6", "upgrade r7c7"]  # exactly one building
    play(g, "upgrade r7c6")
    assert building_at(g, "r7c6") == GUILD and building_at(g, "r7c7") == WORKSHOP
    assert g.pending_kind() == Kind.POST


def test_r66_pieces_go_back_to_the_row_and_come_from_the_next_row() -> None:
    """R66 / R54: the old piece returns to its row on the planning board, the new one comes off its
    row; the map count of each type changes by one."""
    s = scenario()
    s.build(0, "r7c6", "workshop").build(0, "r7c7", "workshop")
    g = s.turn(0)
    play(g, "upgrade guild", "upgrade r7c6")
    assert (built(g, WORKSHOP), built(g, GUILD)) == (1, 1)


def test_r66_returned_workshop_covers_its_income_again() -> None:
    """R66 / R54: the returned Workshop goes to the rightmost empty space and covers that income:
    with 4 Workshops, upgrading one costs 1 tool of income."""
    s = scenario()
    for hex_ in ("r7c6", "r8c11", "r8c4", "r7c1"):
        s.build(0, hex_, "workshop")
    g = s.turn(0)
    assert flow.income(g, 0)["tools"] == 1 + 4
    play(g, "upgrade guild", "upgrade r7c6")
    income = flow.income(g, 0)
    assert income["tools"] == 1 + 3  # the 4th space is covered again
    assert income["coins"] == 6 + 2 and income["power"] == 1  # B10 + first Guild space 1P + 2C


def test_r66_returned_workshop_on_the_blank_fifth_space_costs_no_income() -> None:
    """R54 example: if the returned Workshop lands on the blank 5th space, no tool income is lost."""
    s = scenario()
    for hex_ in ("r7c6", "r8c11", "r8c4", "r7c1", "r5c7"):
        s.build(0, hex_, "workshop")
    g = s.turn(0)
    assert flow.income(g, 0)["tools"] == 1 + 4  # 5th space is blank
    play(g, "upgrade guild", "upgrade r7c6")
    assert flow.income(g, 0)["tools"] == 1 + 4


def test_r66_no_upgrade_into_a_type_with_no_piece_left() -> None:
    """R66: you cannot upgrade into a type of which no piece is left on your board (4 Guilds)."""
    s = scenario()
    for hex_ in ("r8c11", "r8c4", "r7c1", "r5c7"):
        s.build(0, hex_, "guild")
    s.build(0, "r7c6", "workshop")
    g = s.turn(0)
    assert "upgrade guild" not in g.legal_moves()


def test_r66_upgrade_is_a_build() -> None:
    """R66 / R55: an upgrade is a build: round scoring for the new type (T5: Guild 3 VP) and power
    offers to neighbours."""
    s = scenario().round(1, tile="T5")
    s.build(0, "r7c6", "workshop").build(1, "r7c7", "workshop")
    g = s.turn(0)
    play(g, "upgrade guild", "upgrade r7c6")
    assert g.state.players[0, P_VP] == 20 + 3
    assert g.pending_kind() == Kind.OFFER and g.current_seat() == 1


def test_r66_neutral_buildings_are_never_upgraded() -> None:
    """R66 / R46.4: a neutral Workshop can never be upgraded."""
    s = scenario()
    s.build(0, "r7c6", "workshop", neutral=True)
    g = s.turn(0)
    assert "upgrade guild" not in g.legal_moves()


def test_r66_palace_and_university_only_once_per_game() -> None:
    """R66: Guild -> Palace and School -> University happen once per game (one piece each)."""
    s = scenario()
    s.build(0, "r7c6", "palace").palace_tile(0, 17).build(0, "r7c7", "guild")
    s.build(0, "r8c6", "university").build(0, "r8c11", "school")
    g = s.turn(0)
    moves = g.legal_moves()
    assert "upgrade palace" not in moves and "upgrade university" not in moves
    assert "upgrade school" in moves


# --------------------------------------------------------------------------------------------
# R67 Workshop -> Guild


def test_r67_guild_costs_2_tools_6_coins() -> None:
    """R67: Workshop -> Guild costs 2 tools + 6 coins."""
    s = scenario()
    s.build(0, "r7c6", "workshop")
    g = s.turn(0)
    play(g, "upgrade guild", "upgrade r7c6")
    assert spent(g) == (2, 6)


def test_r67_rulebook_example_discount_only_next_to_another_player() -> None:
    """R67, rulebook example: next to another faction's building the Guild costs 2 tools + 3 coins;
    next to only your own buildings it costs 2 tools + 6 coins."""
    s = scenario()
    s.build(0, "r7c6", "workshop").build(1, "r7c7", "workshop")  # left: another player's neighbour
    s.build(0, "r8c11", "workshop").build(0, "r8c12", "workshop")  # right: only its own neighbour
    s.set(1, passed=1).set(2, passed=1)  # seat 0 takes two turns in a row
    g = s.turn(0)
    play(g, "upgrade guild", "upgrade r7c6", "leech decline", "done")  # seat 1 is offered 1 power
    assert spent(g) == (2, 3)
    play(g, "upgrade guild", "upgrade r8c11", "done")
    assert spent(g) == (2 + 2, 3 + 6)


def test_r67_another_players_neutral_building_counts() -> None:
    """R67 (ASSUMPTION): a neutral building owned by another player counts for the discount."""
    s = scenario()
    s.build(0, "r7c6", "workshop").build(1, "r7c7", "tower", neutral=True)
    g = s.turn(0)
    play(g, "upgrade guild", "upgrade r7c6")
    assert spent(g) == (2, 3)


def test_r67_discount_needs_only_three_coins_to_be_legal() -> None:
    """R67: with the discount, 3 coins are enough to upgrade."""
    s = scenario(coins=3)
    s.build(0, "r7c6", "workshop").build(1, "r7c7", "workshop").build(0, "r8c11", "workshop")
    g = s.turn(0)
    play(g, "upgrade guild")
    assert g.legal_moves() == ["upgrade r7c6"]  # r8c11 would cost 6 coins


@pytest.mark.parametrize(("tools", "coins"), [(2, 2), (1, 3), (1, 30)])
def test_r67_guild_not_offered_one_short_of_the_discounted_price(tools: int, coins: int) -> None:
    """R67: one coin or one tool short of 2 tools + 3 coins, the Guild is not offered even next
    to another player's building, nor is any other upgrade (``decisions.upgradable`` answers at
    once below the cheapest upgrade's tools or coins)."""
    s = scenario(tools=tools, coins=coins)
    s.build(0, "r7c6", "workshop").build(1, "r7c7", "workshop")
    g = s.turn(0)
    assert not [m for m in g.legal_moves() if m.startswith("upgrade")]
    s = scenario(tools=max(tools, 2), coins=max(coins, 3))  # the same position at the price: offered
    s.build(0, "r7c6", "workshop").build(1, "r7c7", "workshop")
    assert "upgrade guild" in s.turn(0).legal_moves()


# --------------------------------------------------------------------------------------------
# R68 Guild -> Palace


def test_r68_palace_costs_and_tile_choice() -> None:
    """R68: Guild -> Palace costs 4 tools + 6 coins; choose one of the available palace tiles; its
    one-time effect happens at once (palace 17: 10 VP)."""
    s = scenario().offer_palace(2, 5, 17)
    s.build(0, "r7c6", "guild")
    g = s.turn(0)
    play(g, "upgrade palace", "upgrade r7c6")
    assert g.legal_moves() == ["palace 2", "palace 5", "palace 17"]
    play(g, "palace 17")
    assert spent(g) == (4, 6)
    p = g.state.players[0]
    assert p[P_PALACE_TILE] == 17 - 1 and p[P_VP] == 20 + 10
    assert building_at(g, "r7c6") == PALACE


def test_r68_tiles_chosen_by_earlier_builders_are_gone() -> None:
    """R68: a palace tile taken by an earlier builder is no longer available."""
    s = scenario().offer_palace(2, 5, 17)
    s.build(1, "r4c9", "palace").palace_tile(1, 17)
    s.build(0, "r7c6", "guild")
    g = s.turn(0)
    play(g, "upgrade palace", "upgrade r7c6")
    assert g.legal_moves() == ["palace 2", "palace 5"]


def test_r68_draft_variant_uses_the_drafted_tile() -> None:
    """R68 / R16: in the draft variant the drafted tile is used; there is no choice."""
    s = scenario().offer_palace()
    s.draft_palace(0, 17)
    s.build(0, "r7c6", "guild")
    g = s.turn(0)
    play(g, "upgrade palace", "upgrade r7c6")
    assert g.pending_kind() == Kind.POST
    p = g.state.players[0]
    assert p[P_PALACE_TILE] == 17 - 1 and p[P_DRAFT_PALACE] == -1
    assert p[P_VP] == 20 + 10
    assert g.state.glob[G_PALACE_STATE][17 - 1] == 0


def test_r68_the_tile_is_chosen_first_before_the_neighbours_decide_their_offers() -> None:
    """R68 ([UA] "спершу вибрати жетон палацу": you must first choose the palace tile, before
    placing the Palace): the builder's tile choice comes before the power offers, so the offered
    neighbour sees the placed tile; its one-time effect follows the offers (R55 step 4)."""
    s = scenario().offer_palace(2, 17)
    s.build(0, "r7c6", "guild").build(1, "r7c7", "workshop")
    g = s.turn(0)
    play(g, "upgrade palace", "upgrade r7c6")
    assert (g.pending_kind(), g.current_seat()) == (Kind.CHOOSE_PALACE, 0)
    play(g, "palace 17")
    assert (g.pending_kind(), g.current_seat()) == (Kind.OFFER, 1)
    assert g.state.players[0, P_PALACE_TILE] == 17 - 1  # on the board while seat 1 decides
    assert g.state.players[0, P_VP] == 20  # the 10 VP of palace 17 come after the offer
    play(g, "leech decline")
    assert g.state.players[0, P_VP] == 20 + 10


def test_r68_draft_variant_places_the_drafted_tile_before_the_offers() -> None:
    """R68 / R16: the drafted tile is on the board before the neighbours decide their offers."""
    s = scenario().offer_palace()
    s.draft_palace(0, 17)
    s.build(0, "r7c6", "guild").build(1, "r7c7", "workshop")
    g = s.turn(0)
    play(g, "upgrade palace", "upgrade r7c6")
    assert (g.pending_kind(), g.current_seat()) == (Kind.OFFER, 1)
    assert g.state.players[0, P_PALACE_TILE] == 17 - 1 and g.state.players[0, P_DRAFT_PALACE] == -1


def test_r68_palace_tile_income_applies_from_now_on() -> None:
    """R68 / R57.5: after building the Palace the tile's income is paid (palace 1: 5 power)."""
    s = scenario().offer_palace(1, 17)
    s.build(0, "r7c6", "guild")
    g = s.turn(0)
    assert flow.income(g, 0)["power"] == 1  # the first Guild space
    play(g, "upgrade palace", "upgrade r7c6", "palace 1")
    assert flow.income(g, 0)["power"] == 5  # palace 1; the Guild went back and covers its space


# --------------------------------------------------------------------------------------------
# R69 / R70 School and University


def test_r69_school_costs_and_takes_a_competency() -> None:
    """R69 / R53: Guild -> School costs 3 tools + 5 coins and immediately takes a competency with
    its position reward."""
    s = scenario()
    s.build(0, "r7c6", "guild")
    g = s.turn(0)
    play(g, "upgrade school", "upgrade r7c6")
    assert g.pending_kind() == Kind.CHOOSE_COMPETENCY
    assert spent(g) == (3, 5)
    comp = g.legal_moves()[0]
    before = int(g.state.players[0, P_SCIENCE].sum())
    play(g, comp)
    p = g.state.players[0]
    assert bin(int(p[P_COMPETENCIES])).count("1") == 1
    assert int(p[P_SCIENCE].sum()) > before  # every position reward includes at least 1 step


def test_r70_university_costs_and_takes_a_competency() -> None:
    """R70: School -> University costs 5 tools + 8 coins and immediately takes a competency."""
    s = scenario()
    s.build(0, "r7c6", "school")
    g = s.turn(0)
    play(g, "upgrade university", "upgrade r7c6")
    assert spent(g) == (5, 8)
    assert g.pending_kind() == Kind.CHOOSE_COMPETENCY


def test_r70_op22_university_lowers_the_city_requirement_and_both_rewards_are_taken() -> None:
    """R70 / R43: with the University, 3 buildings of total power 7 found a city
    (University 3 + Guild 2 + Guild 2 = 7).  OP-22 / R55.4: the city rewards and the competency
    are both taken, in the order the player chooses."""
    s = scenario()
    s.build(0, "r7c6", "school").build(0, "r7c7", "guild").build(0, "r8c7", "guild")
    g = s.turn(0)
    play(g, "upgrade university", "upgrade r7c6")
    assert g.legal_moves() == ["first city", "first competency"]  # OP-22: any order
    play(g, "first city")
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K5")
    assert g.state.players[0, P_CITIES] == 1
    assert g.state.players[0, P_COINS] == 30 - 8 + 6  # University 8 coins, K5 6 coins
    assert g.pending_kind() == Kind.CHOOSE_COMPETENCY
    play(g, g.legal_moves()[0])
    assert bin(int(g.state.players[0, P_COMPETENCIES])).count("1") == 1
