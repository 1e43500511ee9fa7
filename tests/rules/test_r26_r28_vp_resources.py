"""RULES.md §3.1 Victory points and resources (R26-R28)."""

from __future__ import annotations

from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_PHASE,
    H_BUILDING,
    H_TERRAIN,
    P_BOOKS,
    P_BOWLS,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_VP,
    Phase,
)
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario, play, power_moved

GAME = "aoi(players=3)"
FACTIONS = ["blessed", "inventors", "monks"]
BOARDS = ["desert", "plains", "forest"]


def scenario(tile: str = "T10") -> Scenario:
    """Three plain factions; the round tile T10 scores only innovations (5 VP), so builds score
    nothing."""
    return Scenario(GAME, factions=FACTIONS, boards=BOARDS).round(1, tile=tile)


def vp(g: Game, seat: int) -> int:
    return int(g.state.players[seat, P_VP])


def offer_position(vp_of_seat_1: int, bowls: tuple[int, int, int] = (5, 7, 0)) -> Game:
    """Seat 0 is about to build a Workshop on r4c1, next to seat 1's Workshop and School (3 power)."""
    return (
        scenario()
        .build(0, "r3c0", "workshop")
        .build(1, "r3c1", "workshop")
        .build(1, "r4c0", "school")
        .terrain("r4c1", "desert")
        .set(1, vp=vp_of_seat_1, bowls=bowls)
        .turn(0)
    )


# --------------------------------------------------------------------------------------------
# R26 VP track


def test_r26_every_player_starts_with_20_vp() -> None:
    """R26: every player starts at 20 VP (checked at the first action of a real game)."""
    g = Game("aoi(players=3,factions=blessed+navigators+goblins,boards=desert+plains+forest,setup_choices=random)")
    while g.pending_kind() != Kind.MAIN:  # round-1 income may ask for a book colour
        g.apply_action(g.legal_actions()[0])
    assert g.state.glob[G_PHASE] == Phase.ACTIONS
    assert list(g.scores()) == [20, 20, 20]


def test_r26_vp_never_drop_below_zero_when_paying_for_power() -> None:
    """R26 / R42.5: the only VP payment (power from a neighbour's build) is capped at the score:
    a player on 0 VP still accepts, pays nothing and gains 0 + 1 = 1 power."""
    g = offer_position(vp_of_seat_1=0)
    before = g.clone()
    play(g, "build", "target r4c1", "leech accept")
    assert vp(g, 1) == 0  # g = min(3, capacity 17, 0 + 1) = 1, cost 1 - 1 = 0
    assert power_moved(before, g, 1) == 1


def test_r26_paying_stops_at_zero() -> None:
    """R26: with 1 VP an offer of 3 costs only 1 VP and gives 2 power; the track ends at 0."""
    g = offer_position(vp_of_seat_1=1)
    before = g.clone()
    play(g, "build", "target r4c1", "leech accept")
    assert vp(g, 1) == 0  # g = min(3, 17, 1 + 1) = 2, cost 2 - 1 = 1
    assert power_moved(before, g, 1) == 2


# --------------------------------------------------------------------------------------------
# R27 sources of VP


def test_r27_a_round_scoring_tile_awards_vp_for_each_event() -> None:
    """R27 (A): during Phase II the current round scoring tile awards VP each time its event
    happens (T3: 2 VP per Workshop built)."""
    g = scenario(tile="T3").build(0, "r3c0", "workshop").terrain("r4c1", "desert").turn(0)
    play(g, "build", "target r4c1")
    assert vp(g, 0) == 22  # 20 + 2 (T3)


def test_r27_b_city_tile_vp_plus_five_with_the_key_round_tile() -> None:
    """R27 (B): a city gives the VP printed on the chosen tile, plus 5 VP if the round tile shows
    the key (T6)."""
    g = (
        scenario(tile="T6")
        .build(0, "r3c0", "guild")
        .build(0, "r3c1", "guild")
        .build(0, "r3c2", "guild")
        .terrain("r4c1", "desert")
        .turn(0)
    )
    play(g, "build", "target r4c1")  # 4 buildings, 2 + 2 + 2 + 1 = 7 power
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K5")
    assert vp(g, 0) == 31  # 20 + 6 (K5) + 5 (T6)


def test_r27_c_innovations_mostly_give_immediate_vp() -> None:
    """R27 (C): innovations mostly give VP at once (League of Cities: 5 VP per city tile owned)."""
    g = scenario().display_innovations("league_of_cities").set(0, cities=2, books=(5, 0, 0, 0), coins=5).turn(0)
    play(g, "innovate", "innovation league_of_cities", "pay banking", "pay banking", "pay banking")
    assert vp(g, 0) == 35  # 20 + 5 x 2 cities + 5 (round tile T10: an innovation developed)


def test_r27_d_pass_vp_from_a_round_bonus_tile() -> None:
    """R27 (D): other components award VP, e.g. round bonus tile B4 on passing: 4 VP per
    Palace and University."""
    g = scenario().build(0, "r3c0", "university").bonus(0, "B4").turn(0)
    play(g, "pass")
    assert vp(g, 0) == 24  # 20 + 4 x 1 University


# --------------------------------------------------------------------------------------------
# R28 resources


def test_r28_scholars_come_only_from_the_personal_supply() -> None:
    """R28 / R3: scholars come from the player's own supply of 7; with the supply empty no
    conversion or spell can give one."""
    g = scenario().set(0, scholars=7, scholar_supply=0, bowls=(0, 0, 12)).turn(0)
    moves = g.legal_moves()
    assert "convert 5pw scholar" not in moves
    assert "spell S2" not in moves  # the scholar spell has no effect left
    g = scenario().set(0, scholars=6, scholar_supply=1, bowls=(0, 0, 12)).turn(0)
    play(g, "convert 5pw scholar")
    p = g.state.players[0]
    assert (p[P_SCHOLARS], p[P_SCHOLAR_SUPPLY]) == (7, 0)  # 6 + 1, 1 - 1


def test_r28_scholar_income_is_limited_by_the_personal_supply() -> None:
    """R28 / R57: School income of 1 scholar each is paid only while the supply lasts."""
    g = (
        scenario()
        .build(0, "r3c0", "school")
        .build(0, "r5c7", "school")
        .set(0, scholars=6, scholar_supply=1)
        .decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)
    )
    p = g.state.players[0]
    assert (p[P_SCHOLARS], p[P_SCHOLAR_SUPPLY]) == (7, 0)  # 2 School scholars, only 1 left


def test_r28_coloured_book_costs_need_that_discipline_and_any_book_takes_any_colour() -> None:
    """R28: a cost in coloured books needs books of exactly that discipline; an "any book" cost
    is paid with books of any colour.  Innovation columns cost 2 books of the column + 3 any."""
    g = (
        scenario()
        .display_innovations("steel", "sewerage")  # banking column, law column
        .set(0, books=(2, 0, 0, 3), coins=15)
        .turn(0)
    )
    play(g, "innovate")
    assert g.legal_moves() == ["innovation steel"]  # sewerage needs 2 law books: there are none
    play(g, "innovation steel")  # the 2 banking books are paid at once
    assert list(g.state.players[0, P_BOOKS]) == [0, 0, 0, 3]
    assert g.legal_moves() == ["pay medicine"]  # the 3 "any" books may be medicine books
    play(g, "pay medicine", "pay medicine", "pay medicine")
    assert list(g.state.players[0, P_BOOKS]) == [0, 0, 0, 0]


def test_r28_spades_are_not_stored_and_unused_spades_are_lost() -> None:
    """R28 / R62: spades exist only inside the effect that creates them; spades not used are
    lost.  The 2-spade spell used on a hex that needs 1 spade leaves 1 spade, which is lost when
    the Workshop is built."""
    g = (
        scenario()
        .build(0, "r3c0", "workshop")
        .terrain("r4c1", "plains")  # 1 spade from desert
        .terrain("r4c0", "plains")
        .set(0, bowls=(0, 0, 12))
        .turn(0)
    )
    play(g, "spell S6", "target r4c1", "spades 1")
    assert g.pending_kind() == Kind.TB_FINISH
    assert "spade r4c0" in g.legal_moves()  # the second spade could still go elsewhere
    play(g, "workshop")
    assert g.pending_kind() == Kind.POST  # the action is over: no spade kept
    h = g.state.hexes
    assert h[parse_hex("r4c1"), H_BUILDING] == Building.WORKSHOP
    assert h[parse_hex("r4c0"), H_TERRAIN] == Terrain.PLAINS  # untouched
    assert list(g.state.players[0, P_BOWLS]) == [6, 0, 6]  # 6 power spent, nothing else changed
