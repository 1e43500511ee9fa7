"""RULES.md §4.2.7-4.2.9: spells and book actions (R75), special actions (R76) and component
actions (R77: the Moles' bridge, the Pavilion)."""

from __future__ import annotations

from aoi_env.core.board import parse_hex
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_BOOK_ACTIONS,
    H_PAVILION,
    P_BOOKS,
    P_BOWLS,
    P_BRIDGES,
    P_COINS,
    P_PAVILIONS,
    P_SCHOLARS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
)
from aoi_env.testing import Scenario, play


def scenario(factions: list[str] | None = None) -> Scenario:
    s = Scenario(
        "aoi(players=3)", factions=factions or ["blessed", "felines", "monks"], boards=["desert", "lake", "forest"]
    )
    for seat, tile in enumerate(("B10", "B9", "B8")):
        s.bonus(seat, tile)
        s.set(seat, bowls=(0, 0, 12))
    s.round(1, tile="T10")
    s.state().glob[G_BOOK_ACTIONS] = [0, 1, 3]  # BA1, BA2, BA4 in this game
    return s


# --------------------------------------------------------------------------------------------
# R75 spells and book actions


def test_r75_spell_is_paid_by_spending_power() -> None:
    """R75 / R31: a spell moves its cost from bowl III to bowl I (S5: 4 power -> 7 coins)."""
    g = scenario().turn(0)
    play(g, "spell S5")
    p = g.state.players[0]
    assert tuple(p[P_BOWLS]) == (4, 0, 8)
    assert p[P_COINS] == 15 + 7


def test_r75_each_spell_once_per_round_by_one_player() -> None:
    """R75: each spell can be used by only one player per round (X token): after seat 0's S5,
    neither seat 1 nor seat 0 again may use it this round."""
    s = scenario()
    s.set(2, passed=1)
    g = s.turn(0)
    play(g, "spell S5", "done")
    assert g.current_seat() == 1
    assert "spell S5" not in g.legal_moves() and "spell S4" in g.legal_moves()
    play(g, "spell S4", "done")
    assert g.current_seat() == 0
    assert "spell S5" not in g.legal_moves() and "spell S4" not in g.legal_moves()


def test_r75_illusionists_pay_one_power_less_and_score() -> None:
    """R75 / R92: Illusionists pay 1 power less per spell and score 1 VP (v1.2, 3 players)."""
    g = scenario(["illusionists", "felines", "monks"]).turn(0)
    play(g, "spell S5")
    p = g.state.players[0]
    assert tuple(p[P_BOWLS]) == (3, 0, 9)  # 4 - 1 = 3 power spent
    assert p[P_VP] == 20 + 1


def test_r75_spell_needs_enough_power_in_bowl_iii() -> None:
    """R75 / R31: with 3 power in bowl III the 4-power spells are not available."""
    s = scenario()
    s.set(0, bowls=(9, 0, 3))
    moves = s.turn(0).legal_moves()
    assert "spell S2" in moves  # 3 power
    assert "spell S4" not in moves and "spell S5" not in moves


def test_r75_book_action_paid_with_books_of_any_disciplines() -> None:
    """R75: a book action is paid by returning the shown number of books in any combination of
    disciplines (BA2: 2 books -> 6 coins)."""
    s = scenario()
    s.set(0, books=(0, 1, 0, 1))
    g = s.turn(0)
    play(g, "book BA2")
    assert g.pending_kind() == Kind.PAY_BOOKS
    assert g.legal_moves() == ["pay law", "pay medicine"]
    play(g, "pay law", "pay medicine")
    p = g.state.players[0]
    assert list(p[P_BOOKS]) == [0, 0, 0, 0]
    assert p[P_COINS] == 15 + 6


def test_r75_book_action_once_per_round() -> None:
    """R75: a book action is also covered with an X token after use."""
    s = scenario()
    s.set(0, books=(4, 0, 0, 0)).set(1, books=(4, 0, 0, 0)).set(2, passed=1)
    g = s.turn(0)
    play(g, "book BA2", "pay banking", "pay banking", "done")
    assert g.current_seat() == 1  # seat 1 has 4 books too
    assert "book BA2" not in g.legal_moves()
    assert "book BA4" in g.legal_moves()


def test_r75_book_action_needs_enough_books() -> None:
    """R75: with one book, BA2 (2 books) is not available, BA1 and BA4 (1 book) are."""
    s = scenario()
    s.set(0, books=(0, 0, 1, 0), bowls=(12, 0, 0))
    moves = s.turn(0).legal_moves()
    assert "book BA2" not in moves
    assert "book BA1" in moves and "book BA4" in moves


def test_r75_book_action_ba4_two_steps_in_one_discipline() -> None:
    """R75 / R139: BA4 (1 book) advances 2 steps in one discipline of choice."""
    s = scenario()
    s.set(0, books=(0, 0, 1, 0))
    g = s.turn(0)
    play(g, "book BA4", "pay engineering", "steps medicine")
    assert list(g.state.players[0, P_SCIENCE]) == [0, 0, 0, 2]


# --------------------------------------------------------------------------------------------
# R76 special actions


def test_r76_special_action_is_free_and_once_per_round() -> None:
    """R76: a special action (round bonus B7: 1 step) costs nothing and is usable once per round."""
    s = scenario()
    s.bonus(0, "B7").set(1, passed=1).set(2, passed=1)
    g = s.turn(0)
    before = g.state.players[0].copy()
    play(g, "special bonus", "step law", "done")
    p = g.state.players[0]
    assert p[P_SCIENCE][1] == 1
    assert (p[P_COINS], p[P_TOOLS], tuple(p[P_BOWLS])) == (before[P_COINS], before[P_TOOLS], (0, 0, 12))
    assert "special bonus" not in g.legal_moves()  # X token until Phase III


def test_r76_only_the_owner_may_use_a_special_action() -> None:
    """R76: only the owner of the component may use its special action."""
    s = scenario()
    s.innovation(0, "professors")
    assert "special professors" in s.turn(0).legal_moves()
    s = scenario()
    s.innovation(0, "professors")
    assert "special professors" not in s.turn(1).legal_moves()


def test_r76_special_actions_of_several_components_are_separate() -> None:
    """R76: palace tile, innovation, competency C7 and round bonus specials each have their own
    X token."""
    s = scenario()
    s.build(0, "r7c6", "palace").palace_tile(0, 1).innovation(0, "professors").competency(0, "C7").bonus(0, "B7")
    s.set(0, bowls=(12, 0, 0)).set(1, passed=1).set(2, passed=1)
    g = s.turn(0)
    assert {"special palace", "special professors", "special competency", "special bonus"} <= set(g.legal_moves())
    play(g, "special palace", "done")  # palace 1: 2 tools
    assert g.state.players[0, P_TOOLS] == 3 + 2
    play(g, "special professors", "done")  # 1 scholar + 3 VP
    assert g.state.players[0, P_SCHOLARS] == 1 and g.state.players[0, P_VP] == 20 + 3
    play(g, "special competency", "done")  # C7: 4 power
    assert tuple(g.state.players[0, P_BOWLS]) == (8, 4, 0)
    moves = g.legal_moves()
    assert "special palace" not in moves and "special professors" not in moves
    assert "special competency" not in moves and "special bonus" in moves


def test_r76_faction_special_action_philosophers() -> None:
    """R76 / R99: the Philosophers' special action gains 1 book of choice, once per round."""
    s = scenario(["philosophers", "felines", "monks"])
    s.set(1, passed=1).set(2, passed=1)
    g = s.turn(0)
    play(g, "special faction", "book law", "done")
    assert g.state.players[0, P_BOOKS][1] == 1
    assert "special faction" not in g.legal_moves()


# --------------------------------------------------------------------------------------------
# R77 component actions


def test_r77_moles_bridge_costs_one_tool_and_may_cross_land() -> None:
    """R77 / R95 / OP-47: the Moles pay 1 tool to build a bridge with bridge geometry from one of
    their buildings, even over a land hex (r7c6 - r6c5 over r6c6 / r7c5)."""
    s = scenario(["moles", "felines", "monks"])
    s.build(0, "r7c6", "workshop")
    g = s.turn(0)
    play(g, "molebridge", "bridge r7c6", "bridge to r6c5")
    p = g.state.players[0]
    assert p[P_TOOLS] == 3 - 1 and p[P_BRIDGES] == 1
    assert g.adjacency()[parse_hex("r7c6"), parse_hex("r6c5")]


def test_r77_pavilion_attaches_to_own_building_and_is_not_a_build() -> None:
    """R77 / C6: a Pavilion goes on one of your buildings without one (neutral ones included); it is
    not a build: no round scoring, no power offers."""
    s = scenario().round(1, tile="T1")  # T1 would score a Workshop build
    s.build(0, "r7c6", "workshop").build(0, "r8c11", "tower", neutral=True).build(1, "r7c7", "workshop")
    s.set(0, pavilions=2)
    g = s.turn(0)
    play(g, "pavilion")
    assert g.legal_moves() == ["pavilion r7c6", "pavilion r8c11"]
    play(g, "pavilion r7c6")
    assert g.pending_kind() == Kind.POST  # no offer to seat 1 next door
    assert g.state.hexes[parse_hex("r7c6"), H_PAVILION] == 1
    p = g.state.players[0]
    assert p[P_PAVILIONS] == 1 and p[P_VP] == 20
    play(g, "done")
