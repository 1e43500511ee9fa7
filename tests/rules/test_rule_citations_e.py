"""Edge cases of cited ids (R1, R96, R124, OP-32, OP-43, OP-45, OP-55, OP-64) that the tests
citing them did not check.

The other ids of this batch (R7, R31, R34, R85, R86, R88, R97, R101, OP-12, OP-13, OP-35, OP-39)
are checked with their edge cases by the tests that cite them.
"""

from __future__ import annotations

import pytest

from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.invariants import check
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_BONUS_STATE,
    G_BOOK_ACTIONS,
    G_CITY_LEFT,
    G_COMP_LEFT,
    G_COMP_SPACES,
    G_FINAL_TILE,
    G_NEUTRAL_LEFT,
    G_PALACE_STATE,
    G_PAVILIONS_LEFT,
    G_PHASE,
    G_ROUND,
    G_ROUND_TILES,
    G_SCHOLAR_SPACES,
    G_SPELLS_USED,
    H_BUILDING,
    H_CITY,
    H_OWNER,
    H_TERRAIN,
    P_BOOKS,
    P_BOWLS,
    P_BUILT,
    P_CITIES,
    P_COINS,
    P_COMPETENCIES,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario, play
from tests.rule_positions import monks_before_university


def resources(g: Game, seat: int = 0) -> list[int]:
    """VP, coins, tools, scholars (held and in the supply), books, bowls and science levels."""
    p = g.state.players[seat]
    parts = [p[[P_VP, P_COINS, P_TOOLS, P_SCHOLARS, P_SCHOLAR_SUPPLY]], p[P_BOOKS], p[P_BOWLS], p[P_SCIENCE]]
    return [int(x) for part in parts for x in part]


def field(g: Game, index: int | slice, seat: int = 0) -> int | list[int]:
    value = g.state.players[seat, index]
    return [int(x) for x in value] if isinstance(index, slice) else int(value)


# ------------------------------------------------------------------------------------------------
# R1: the shared components at the start of setup


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r1_shared_component_supply_of_a_new_game(players: int) -> None:
    """R1: neutral pieces "1 Workshop, 1 Guild, 1 School, 1 University, 1 Palace, 5 Towers,
    1 Monument, 8 Pavilions"; "21 city tiles: 7 types x 3 copies"; "48 competency tiles: 12 types
    x 4 copies"; 3 of the "6 book-action tiles"; "6 fixed spell spaces"; "6 round-scoring spaces"
    filled from the 12 round scoring tiles plus 1 of the 4 final round tiles; 17 palace tiles.
    The numbers are RULES.md's, not the data file's."""
    for seed in range(3):
        g = Game(f"aoi(players={players})", seed=seed)
        glob = g.state.glob
        assert int(glob[G_ROUND]) == 0  # still in setup: nothing taken from the supply yet
        neutral = {b: int(glob[G_NEUTRAL_LEFT.start + b]) for b in Building if b != Building.NONE}
        assert neutral == {
            Building.WORKSHOP: 1,
            Building.GUILD: 1,
            Building.SCHOOL: 1,
            Building.UNIVERSITY: 1,
            Building.PALACE: 1,
            Building.TOWER: 5,
            Building.MONUMENT: 1,
        }
        assert int(glob[G_PAVILIONS_LEFT]) == 8
        assert [int(x) for x in glob[G_CITY_LEFT]] == [3] * 7  # 21 city tiles
        assert [int(x) for x in glob[G_COMP_LEFT]] == [4] * 12  # 48 competency tiles
        assert sorted(int(x) for x in glob[G_COMP_SPACES]) == list(range(12))  # one stack per type
        books = [int(x) for x in glob[G_BOOK_ACTIONS]]
        assert len(set(books)) == 3 and all(0 <= b < 6 for b in books)
        assert G_SPELLS_USED.stop - G_SPELLS_USED.start == 6
        rounds = [int(x) for x in glob[G_ROUND_TILES]]
        assert len(rounds) == len(set(rounds)) == 6 and all(0 <= t < 12 for t in rounds)
        assert 0 <= int(glob[G_FINAL_TILE]) < 4
        assert G_PALACE_STATE.stop - G_PALACE_STATE.start == 17
        assert G_BONUS_STATE.stop - G_BONUS_STATE.start == 10  # 10 round bonus tiles


# ------------------------------------------------------------------------------------------------
# R96 Monks: the setup competency's spades


def test_r96_monks_competency_spades_are_used_at_once_without_building() -> None:
    """R96: "For building the University they take a competency of choice (with its position
    reward) ... Its spades are used immediately, in turn order, without building."  C5 (2 spades)
    on the Law middle space: 2 Law steps + 1 Law book on top of the Monks' +1 Law (level 3 pays
    1 power, R49).  The spades are due right after the competency, still in setup; both turn
    Plains r0c10 into Lake (native), yet no Workshop is built and no tool is spent (OP-37: no
    buying either); then round 1 starts.  (The turn order of several seats' setup spades is
    checked by tests/test_setup.py::test_r23_setup_spades_are_used_in_turn_order.)"""
    g = monks_before_university()
    play(g, "place r1c10", "competency C5")
    assert field(g, slice(P_SCIENCE.start, P_SCIENCE.stop), 1) == [0, 3, 0, 0]
    assert field(g, slice(P_BOOKS.start, P_BOOKS.stop), 1) == [0, 1, 0, 0]
    assert field(g, slice(P_BOWLS.start, P_BOWLS.stop), 1) == [4, 8, 0]
    assert (g.pending_kind(), g.current_seat(), int(g.state.glob[G_ROUND])) == (Kind.SPADES, 1, 0)
    assert not any(m.startswith(("workshop", "build", "spades")) for m in g.legal_moves())
    play(g, "spade r0c10")  # Plains -> Swamp
    assert (g.pending_kind(), g.current_seat()) == (Kind.SPADES, 1)  # the second spade, at once
    assert not any(m.startswith(("workshop", "build")) for m in g.legal_moves())
    play(g, "spade r0c10")  # Swamp -> Lake: native now
    h = g.state.hexes[parse_hex("r0c10")]
    assert int(h[H_TERRAIN]) == Terrain.LAKE
    assert int(h[H_BUILDING]) == Building.NONE and int(h[H_OWNER]) == -1  # no Workshop
    assert field(g, P_BUILT.start + Building.WORKSHOP, 1) == 0
    assert int(g.state.glob[G_ROUND]) == 1  # setup is over
    assert field(g, P_TOOLS, 1) == 3 + 1  # no tool spent; round-1 base income 1 tool
    check(g)


# ------------------------------------------------------------------------------------------------
# R124 palace 4: the pieces of the free Guild upgrade


def _palace4() -> Scenario:
    return (
        Scenario("aoi(players=3)", factions=["inventors", "monks", "illusionists"], boards=["plains", "lake", "swamp"])
        .round(2, tile="T9")
        .build(0, "r7c5", "palace")
        .palace_tile(0, 4)
    )


def test_r124_palace4_upgrade_takes_a_guild_piece_and_returns_the_workshop() -> None:
    """R124 "upgrade a Workshop to a Guild for free": any own Workshop is a target (not another
    player's next to it, not the neutral Workshop); the Guild comes from the planning board and
    the Workshop goes back to it (R54); nothing is paid."""
    sc = _palace4().build(0, "r8c6", "workshop").build(0, "r6c6", "workshop")
    sc.build(0, "r8c8", "workshop", neutral=True).build(1, "r8c7", "workshop")
    g = sc.turn(0)
    play(g, "special palace")
    assert g.legal_moves() == ["upgrade r6c6", "upgrade r8c6"]
    play(g, "upgrade r8c6")
    assert int(g.state.hexes[parse_hex("r8c6"), H_BUILDING]) == Building.GUILD
    assert field(g, P_BUILT.start + Building.WORKSHOP) == 1  # 2 - 1: back on the planning board
    assert field(g, P_BUILT.start + Building.GUILD) == 1
    assert (field(g, P_TOOLS), field(g, P_COINS)) == (3, 15)


def test_r124_palace4_special_needs_a_guild_piece_left() -> None:
    """R124 with R3 (buildings are limited to the planning board's pieces): all 4 Guilds on the
    map, palace 4's special action cannot upgrade the Workshop, so it is not offered."""
    sc = _palace4().build(0, "r8c6", "workshop")
    for x in ("r6c6", "r7c6", "r8c7", "r7c7"):
        sc.build(0, x, "guild")
    g = sc.turn(0)
    assert "special palace" not in g.legal_moves()
    assert field(g, P_BUILT.start + Building.GUILD) == 4


# ------------------------------------------------------------------------------------------------
# OP-32: one connected group founds one city


def test_op32_two_qualifying_halves_joined_by_one_workshop_found_one_city() -> None:
    """OP-32 / R44: "the whole adjacency-connected set of non-city buildings containing the new
    building becomes the city" and "a single connected group therefore never founds two cities
    at the same moment".  Desert (seat 0) Guilds r0c5, r1c5, r2c6 (power 6) and Schools r1c3,
    r2c4 + Guild r3c4 (power 6) are two groups of 3; the Workshop on r0c4 touches both.  Each
    half with the Workshop would qualify (4 buildings, power 7), but the 7 buildings found one
    city: one tile, one key, all 7 marked."""
    sc = Scenario("aoi(players=3)", factions=["blessed", "inventors", "monks"], boards=["desert", "plains", "forest"])
    sc.round(1, tile="T10")
    for x in ("r0c5", "r1c5", "r2c6", "r3c4"):
        sc.build(0, x, "guild")
    sc.build(0, "r1c3", "school").build(0, "r2c4", "school").terrain("r0c4", "desert")
    g = sc.turn(0)
    play(g, "build", "target r0c4")
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K1")
    assert g.pending_kind() == Kind.POST  # no second city tile to choose
    group = ("r0c4", "r0c5", "r1c5", "r2c6", "r1c3", "r2c4", "r3c4")
    assert [int(g.state.hexes[parse_hex(x), H_CITY]) for x in group] == [1] * 7
    assert field(g, P_CITIES) == 1
    assert field(g, P_VP) == 20 + 4  # K1's 4 VP once
    check(g)


# ------------------------------------------------------------------------------------------------
# OP-43: Omar's Tower has no income of its own


def _omar(tower: bool) -> Game:
    sc = Scenario("aoi(players=3)", factions=["omar", "felines", "navigators"], boards=["desert", "lake", "forest"])
    for seat, tile in enumerate(("B10", "B9", "B8")):
        sc.bonus(seat, tile)
    sc.build(0, "r4c3", "workshop").build(0, "r3c4", "workshop")
    if tower:
        sc.build(0, "r8c4", "tower", neutral=True)
    return sc.decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)


def test_op43_omar_tower_has_no_income_of_its_own() -> None:
    """OP-43: "The Tower is a neutral building (power 2) with no income of its own" (R22: "Its
    only income is Omar's faction income").  Omar's Phase I income with the Tower on the map is
    exactly the income without it: base 1 tool, the 2 uncovered Workshop spaces, B10's 6 coins
    and Omar's 2 P + 2 C."""
    with_tower, without = _omar(True), _omar(False)
    assert resources(with_tower) == resources(without)
    p = with_tower.state.players[0]
    assert int(p[P_COINS]) == 15 + 6 + 2  # B10 + Omar
    assert int(p[P_TOOLS]) == 3 + 1 + 2  # base + the 2 Workshop spaces; nothing for the Tower
    assert [int(x) for x in p[P_BOWLS]] == [3, 9, 0]  # Omar's 2 power
    assert int(with_tower.state.glob[G_PHASE]) == Phase.ACTIONS


# ------------------------------------------------------------------------------------------------
# OP-45: no legal competency, no Philosophers' book


def test_op45_philosophers_get_no_book_when_no_competency_is_gained() -> None:
    """OP-45: "nothing is gained (no position reward). Philosophers get no extra book."  The
    Philosophers already own all 12 types; their School upgrade gives no competency, no step and
    no book (R99's book comes only with a competency gained)."""
    sc = Scenario(
        "aoi(players=3)", factions=["philosophers", "inventors", "monks"], boards=["desert", "plains", "forest"]
    )
    sc.round(1, tile="T10").build(0, "r3c0", "guild").set(0, tools=3, coins=5, bowls=(12, 0, 0))
    sc.competency(0, *(f"C{c + 1}" for c in range(12)))
    g = sc.turn(0)
    play(g, "upgrade school", "upgrade r3c0")
    assert g.pending_kind() == Kind.POST  # the choice was skipped
    assert int(g.state.hexes[parse_hex("r3c0"), H_BUILDING]) == Building.SCHOOL
    assert field(g, slice(P_BOOKS.start, P_BOOKS.stop)) == [0, 0, 0, 0]
    assert field(g, slice(P_SCIENCE.start, P_SCIENCE.stop)) == [0, 0, 0, 0]
    assert field(g, P_COMPETENCIES) == (1 << 12) - 1


# ------------------------------------------------------------------------------------------------
# OP-55: the return form with its step lost, C9 still scores


def test_op55_returning_a_scholar_whose_step_is_lost_is_allowed_and_c9_scores() -> None:
    """OP-55: sending a scholar whose steps would be lost is "allowed. Lost steps do not count
    for T4. B2 and C9 still score, because the scholar was sent."  R74 (b): returning a scholar
    at Banking 7 without a key: the scholar goes back to the personal supply, the step is lost,
    C9 gives 2 VP and T4 nothing."""
    sc = Scenario("aoi(players=3)", factions=["blessed", "felines", "monks"], boards=["desert", "lake", "forest"])
    for seat, tile in enumerate(("B10", "B9", "B8")):
        sc.bonus(seat, tile)
    sc.round(1, tile="T4").competency(0, "C9").set(0, science=(7, 0, 0, 0), scholars=2, scholar_supply=5)
    g = sc.turn(0)
    assert "scholar banking return" in g.legal_moves()
    play(g, "scholar banking return")
    assert field(g, slice(P_SCIENCE.start, P_SCIENCE.stop)) == [7, 0, 0, 0]
    assert (field(g, P_SCHOLARS), field(g, P_SCHOLAR_SUPPLY)) == (1, 6)
    assert field(g, P_VP) == 20 + 2  # C9 only; T4 scores no lost step
    assert (g.state.glob[G_SCHOLAR_SPACES] != 0).all()  # no space taken by seat 0


# ------------------------------------------------------------------------------------------------
# OP-64: C1's Phase I step pays its power threshold at once


def test_op64_c1_step_reaching_a_power_threshold_pays_in_phase_i() -> None:
    """OP-64: "all income resolves simultaneously. Power gains are order-independent. C1's step
    may trigger science thresholds ... immediately."  Omar (2 P income) with C1 at Law 2, bowls
    1/4/7: the income's 2 power (1/4/7 -> 0/4/8) and the C1 step to Law 3 (threshold 1 P, R49)
    give 0/3/9, the same as one gain of 3; the threshold is paid during Phase I."""
    sc = Scenario("aoi(players=3)", factions=["omar", "felines", "navigators"], boards=["desert", "lake", "forest"])
    for seat, tile in enumerate(("B10", "B9", "B8")):
        sc.bonus(seat, tile)
    sc.competency(0, "C1").set(0, science={"law": 2}, bowls=(1, 4, 7))
    g = sc.decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)
    assert (g.pending_kind(), int(g.state.glob[G_PHASE])) == (Kind.STEPS_ANY, Phase.INCOME)
    assert field(g, slice(P_BOWLS.start, P_BOWLS.stop)) == [0, 4, 8]
    play(g, "step law")
    assert field(g, slice(P_SCIENCE.start, P_SCIENCE.stop)) == [0, 3, 0, 0]
    assert field(g, slice(P_BOWLS.start, P_BOWLS.stop)) == [0, 3, 9]  # 1/4/7 + 3 (R30)
    assert (field(g, P_COINS), field(g, P_TOOLS)) == (15 + 6 + 2, 3 + 1 + 1)  # B10 + Omar; base + C1
    assert int(g.state.glob[G_PHASE]) == Phase.ACTIONS
