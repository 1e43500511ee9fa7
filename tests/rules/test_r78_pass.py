"""RULES.md §4.2.10: passing (R78): pass effects, the round bonus tile swap, the next turn order."""

from __future__ import annotations

from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_BONUS_COINS,
    G_BONUS_STATE,
    G_NEXT_ORDER,
    G_ORDER,
    G_ROUND,
    P_BONUS,
    P_COINS,
    P_PASSED,
    P_SCIENCE,
    P_VP,
)
from aoi_env.testing import Scenario, play


def scenario(rnd: int = 1) -> Scenario:
    s = Scenario("aoi(players=3)", factions=["blessed", "felines", "monks"], boards=["desert", "lake", "forest"])
    for seat, tile in enumerate(("B10", "B9", "B8")):
        s.bonus(seat, tile)
    s.round(rnd, tile="T10")
    s.display_bonus("B1", "B3", "B7")  # no income choices
    s.state().glob[G_BONUS_COINS] = 0
    return s


def bonus_of(g, seat: int) -> str:  # noqa: ANN001
    return g.data.bonus_ids[int(g.state.players[seat, P_BONUS])]


def tile_index(g, tile: str) -> int:  # noqa: ANN001
    return g.data.bonus_ids.index(tile)


# --------------------------------------------------------------------------------------------
# step 1: pass effects


def test_r78_1_b4_scores_4_vp_per_palace_and_university() -> None:
    """R78.1 / R138: B4 when passing: 4 VP per University and per Palace on the map."""
    s = scenario()
    s.bonus(0, "B4").build(0, "r7c6", "palace").palace_tile(0, 17).build(0, "r7c7", "university")
    g = s.turn(0)
    play(g, "pass")
    assert g.state.players[0, P_VP] == 20 + 4 + 4


def test_r78_1_b8_one_step_per_school() -> None:
    """R78.1 / R138: B8 when passing: 1 step per School (same or different disciplines)."""
    s = scenario()
    s.bonus(0, "B8").build(0, "r7c6", "school").build(0, "r7c7", "school")
    g = s.turn(0)
    play(g, "pass", "step law", "step medicine")
    assert list(g.state.players[0, P_SCIENCE]) == [0, 1, 0, 1]
    assert g.pending_kind() == Kind.PASS_BONUS  # then the new tile


def test_r78_1_trade_routes_palace7_c8_c12() -> None:
    """R78.1: Trade Routes (2 VP per Guild), palace 7 (3 VP per School), C8 (2 VP per city tile)
    and C12 (VP = lowest discipline level) all pay when passing."""
    s = scenario()
    s.build(0, "r7c6", "palace").palace_tile(0, 7).innovation(0, "trade_routes").competency(0, "C8", "C12")
    s.build(0, "r7c7", "guild").build(0, "r8c7", "guild").build(0, "r8c11", "school")
    s.set(0, cities=2, science=(3, 5, 2, 7))
    g = s.turn(0)
    play(g, "pass")
    # Trade Routes 2 x 2 Guilds + palace 7 3 x 1 School + C8 2 x 2 cities + C12 lowest level 2
    assert g.state.players[0, P_VP] == 20 + 4 + 3 + 4 + 2


# --------------------------------------------------------------------------------------------
# steps 2-3: the round bonus tile


def test_r78_2_take_a_display_tile_with_its_coins() -> None:
    """R78.2: take one of the 3 face-up tiles and any coins lying on it."""
    s = scenario()
    s.state().glob[G_BONUS_COINS.start + 2] = 2  # B3 has lain there for two rounds
    g = s.turn(0)
    play(g, "pass")
    assert g.legal_moves() == ["bonus B1", "bonus B3", "bonus B7"]  # never the own B10
    play(g, "bonus B3")
    assert bonus_of(g, 0) == "B3"
    assert g.state.players[0, P_COINS] == 15 + 2
    assert g.state.glob[G_BONUS_COINS.start + tile_index(g, "B3")] == 0
    assert g.state.players[0, P_PASSED] == 1


def test_r78_3_old_tile_returns_face_up_for_later_passers() -> None:
    """R78.2 / R78.3: the old tile goes back face up after the new one is taken; a later passer may
    take it this round."""
    g = scenario().turn(0)
    play(g, "pass", "bonus B7")
    assert g.state.glob[G_BONUS_STATE.start + tile_index(g, "B10")] == -1  # on the display
    assert g.current_seat() == 1
    play(g, "pass")
    assert g.legal_moves() == ["bonus B1", "bonus B3", "bonus B10"]
    play(g, "bonus B10")
    assert bonus_of(g, 1) == "B10"


def test_r4_r78_4_next_round_order_is_the_passing_order() -> None:
    """R4 / R78.4: the passers fill the other column of the turn-order board from the top: each
    takes the highest free row of the next round's column, so the order of passing becomes the
    next round's turn order."""
    s = scenario()
    s.set(0, scholars=1)
    g = s.turn(0)  # order 0, 1, 2
    play(g, "scholar law return", "done")  # seat 0 acts
    play(g, "pass", "bonus B1")  # seat 1 passes first
    play(g, "pass", "bonus B3")  # seat 2 second
    assert [int(x) for x in g.state.glob[G_NEXT_ORDER][:2]] == [1, 2]
    play(g, "pass", "bonus B7")  # seat 0 last: round 2 starts
    assert int(g.state.glob[G_ROUND]) == 2
    assert [int(x) for x in g.state.glob[G_ORDER][:3]] == [1, 2, 0]
    assert g.current_seat() == 1


def test_r78_round_6_only_pass_effects() -> None:
    """R78: in round 6 only step 1 is carried out: pass effects, no new tile, no turn order."""
    s = scenario(rnd=6)
    s.bonus(0, "B4").build(0, "r7c6", "university")
    g = s.turn(0)
    play(g, "pass")
    assert g.state.players[0, P_VP] == 20 + 4
    assert bonus_of(g, 0) == "B4"  # kept: no tile is taken
    assert g.current_seat() == 1 and g.pending_kind() == Kind.MAIN
