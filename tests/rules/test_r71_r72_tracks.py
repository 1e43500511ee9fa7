"""RULES.md §4.2.3-4.2.4: the sailing track (R71) and the terraforming track (R72), OP-2, OP-3."""

from __future__ import annotations

import pytest

from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    P_BOOKS,
    P_COINS,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_TERRAFORMING,
    P_TOOLS,
    P_VP,
)
from aoi_env.testing import Scenario, play


def scenario(board: str = "desert") -> Scenario:
    boards = [board, "swamp" if board != "swamp" else "lake", "forest" if board != "forest" else "mountain"]
    s = Scenario("aoi(players=3)", factions=["blessed", "felines", "monks"], boards=boards)
    for seat, tile in enumerate(("B10", "B9", "B8")):
        s.bonus(seat, tile)
    s.round(1, tile="T10")
    s.set(0, coins=20, tools=5, scholars=3, scholar_supply=4)
    return s


# --------------------------------------------------------------------------------------------
# R71 sailing


@pytest.mark.parametrize(("start", "vp", "books"), [(0, 2, 0), (1, 0, 2), (2, 4, 0)])
def test_r71_sailing_costs_4_coins_and_a_scholar_and_pays_the_space(start: int, vp: int, books: int) -> None:
    """R71 / OP-2: pay 4 coins + 1 scholar, move up 1 and take the new space's reward:
    -> 1: 2 VP; -> 2: 2 books of choice; -> 3: 4 VP."""
    s = scenario()
    s.set(0, sailing=start)
    g = s.turn(0)
    play(g, "sail")
    for _ in range(books):
        play(g, "book law")
    p = g.state.players[0]
    assert p[P_SAILING] == start + 1
    assert p[P_COINS] == 20 - 4
    assert (p[P_SCHOLARS], p[P_SCHOLAR_SUPPLY]) == (3 - 1, 4 + 1)  # the scholar returns to the supply (R3)
    assert p[P_VP] == 20 + vp
    assert p[P_BOOKS][1] == books


def test_r71_rulebook_example_sailing_1_to_2_gives_2_books() -> None:
    """R71, rulebook example: 1 scholar + 4 coins, sailing 1 -> 2, gain 2 books of any disciplines."""
    s = scenario()
    s.set(0, sailing=1)
    g = s.turn(0)
    play(g, "sail")
    assert g.pending_kind() == Kind.CHOOSE_BOOKS
    play(g, "book banking", "book medicine")
    assert list(g.state.players[0, P_BOOKS]) == [1, 0, 0, 1]


def test_r71_no_sailing_action_at_the_top() -> None:
    """R71: the maximum is level 3; the action is impossible there."""
    s = scenario()
    s.set(0, sailing=3)
    assert "sail" not in s.turn(0).legal_moves()


def test_r71_sailing_needs_a_scholar_in_holdings() -> None:
    """R71 / R3: the scholar must be in the holdings, not in the personal supply."""
    s = scenario()
    s.set(0, scholars=0, scholar_supply=7)
    assert "sail" not in s.turn(0).legal_moves()


@pytest.mark.parametrize(("start", "vp", "books"), [(1, 3, 0), (2, 0, 2)])
def test_r71_lake_board_track(start: int, vp: int, books: int) -> None:
    """R71 / R87: the Lake board starts at 1; -> 2: 3 VP; -> 3: 2 books."""
    s = scenario("lake")
    s.set(0, sailing=start)
    g = s.turn(0)
    play(g, "sail")
    for _ in range(books):
        play(g, "book engineering")
    p = g.state.players[0]
    assert p[P_SAILING] == start + 1
    assert p[P_VP] == 20 + vp and p[P_BOOKS][2] == books


def test_r71_lake_board_starts_at_1_and_stops_at_3() -> None:
    """R71 / R17: a Lake player starts with sailing 1 and cannot sail past 3."""
    s = scenario("lake")
    assert s.state().players[0, P_SAILING] == 1
    s.set(0, sailing=3)
    assert "sail" not in s.turn(0).legal_moves()


def test_r71_new_sailing_extends_reach_at_once() -> None:
    """R71 / R39: after sailing 0 -> 1, the desert hex r5c7 across one river hex from r7c6 is in
    reach for the next TB."""
    s = scenario()
    s.build(0, "r7c6", "workshop").set(1, passed=1).set(2, passed=1)
    g = s.turn(0)
    play(g, "build")
    assert "target r5c7" not in g.legal_moves()
    g = scenario().build(0, "r7c6", "workshop").set(1, passed=1).set(2, passed=1).turn(0)
    play(g, "sail", "done", "build")
    assert "target r5c7" in g.legal_moves()


def test_r71_track_advance_scores_round_tile_t8() -> None:
    """R71 / R146: advancing the sailing track scores round tile T8 (3 VP)."""
    s = scenario().round(1, tile="T8")
    g = s.turn(0)
    play(g, "sail")
    assert g.state.players[0, P_VP] == 20 + 2 + 3  # space reward 2 + T8 3


# --------------------------------------------------------------------------------------------
# R72 terraforming


def test_r72_first_upgrade_costs_5c_1t_1s_and_gives_2_books() -> None:
    """R72: pay 5 coins + 1 tool + 1 scholar; 3 -> 2 tools per spade gives 2 books of choice."""
    g = scenario().turn(0)
    play(g, "dig", "book law", "book law")
    p = g.state.players[0]
    assert p[P_TERRAFORMING] == 1
    assert (p[P_COINS], p[P_TOOLS], p[P_SCHOLARS]) == (20 - 5, 5 - 1, 3 - 1)
    assert p[P_BOOKS][1] == 2


def test_r72_rulebook_example_second_upgrade_gives_6_vp() -> None:
    """R72, rulebook example: 5 C + 1 T + 1 S, 2 -> 1 tool per spade, gain 6 VP."""
    s = scenario()
    s.set(0, terraforming=1)
    g = s.turn(0)
    play(g, "dig")
    p = g.state.players[0]
    assert p[P_TERRAFORMING] == 2
    assert p[P_VP] == 20 + 6
    assert (p[P_COINS], p[P_TOOLS], p[P_SCHOLARS]) == (20 - 5, 5 - 1, 3 - 1)


def test_r72_maximum_is_one_tool_per_spade() -> None:
    """R72: at most two upgrades (1 tool per spade); no third."""
    s = scenario()
    s.set(0, terraforming=2)
    assert "dig" not in s.turn(0).legal_moves()


def test_r72_plains_board_costs_1_coin() -> None:
    """R72 / OP-3: the Plains board pays 1 coin + 1 tool + 1 scholar."""
    g = scenario("plains").turn(0)
    play(g, "dig", "book law", "book law")
    p = g.state.players[0]
    assert (p[P_COINS], p[P_TOOLS], p[P_SCHOLARS]) == (20 - 1, 5 - 1, 3 - 1)


def test_r72_plains_board_affordable_with_one_coin() -> None:
    """R72: with 1 coin, only the Plains board can advance terraforming."""
    assert "dig" in scenario("plains").set(0, coins=1).turn(0).legal_moves()
    assert "dig" not in scenario("desert").set(0, coins=4).turn(0).legal_moves()


def test_r72_new_rate_applies_to_the_next_tb() -> None:
    """R72 / R37: after the upgrade a spade costs 2 tools."""
    s = scenario()
    s.build(0, "r7c6", "workshop").set(0, tools=10).set(1, passed=1).set(2, passed=1)
    g = s.turn(0)
    play(g, "dig", "book law", "book law", "done")
    play(g, "build", "target r7c5", "spades 2", "done")  # Swamp -> Desert
    assert g.state.players[0, P_TOOLS] == 10 - 1 - 2 * 2
