"""The 7 planning boards (RULES.md R87; setup R17-R19, R23; OP-37) shown in game positions.

Positions are built with the helpers of ``test_factions`` (quiet round tile T10 and round bonus
tiles without Phase II effects, a known bonus display and competency layout for real setups).
"""

from __future__ import annotations

import pytest

from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_BOOK_ACTIONS,
    G_ORDER,
    P_COINS,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_TERRAFORMING,
    P_TOOLS,
    P_VP,
)
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import play
from tests.components.test_factions import (
    PASS_DISPLAY,
    books,
    bowls,
    building_at,
    play_setup,
    scenario,
    sci,
    setup_game,
    terrain_at,
    val,
)

# ------------------------------------------------------------------------------------------------
# Desert: a free spade after all starting buildings are placed (R23, OP-37)


def _desert_setup() -> Game:
    g = setup_game("aoi(players=3,factions=felines+goblins+omar,boards=desert+swamp+lake,skip_forced=false)")
    return play_setup(
        g,
        {
            0: ["bonus B7", "place r8c4", "place r8c11"],
            1: ["bonus B10", "place r0c3", "place r0c9"],
            2: [
                "bonus B9",
                "start workshop",
                "place r0c2",
                "start workshop",
                "place r0c8",
                "start tower",
                "place r1c4",
            ],
        },
    )


def test_r87_desert_setup_spade_without_workshop_or_buying() -> None:
    """R87 / R23 / OP-37: after every starting building is placed the Desert player uses 1 free
    spade at once on a hex in reach: no Workshop, no spades bought with tools."""
    g = _desert_setup()
    assert g.pending_kind() == Kind.SPADES and g.current_seat() == 0
    moves = g.legal_moves()
    assert "spade r8c5" in moves and "spade r7c4" in moves and "done" in moves
    assert not [m for m in moves if not (m.startswith("spade ") or m == "done")]  # no Workshop
    play(g, "spade r8c5")  # mountain -> wasteland: one step toward desert
    assert terrain_at(g, "r8c5") == Terrain.WASTELAND
    assert building_at(g, "r8c5")[0] == Building.NONE
    assert g.pending_kind() == Kind.MAIN  # round 1: the Swamp and Lake players got no setup spade
    # tools: 3 start + round 1 income (base 1 + 2 Workshops + B7 2); none spent on the spade
    assert val(g, 0, P_TOOLS) == 3 + 1 + 2 + 2


def test_r23_setup_spades_are_used_in_turn_order() -> None:
    """R23 / R87: when several players gain spades after placement (Desert, an Inventors
    competency C5) they use them in turn order."""
    g = setup_game("aoi(players=3,factions=felines+inventors+goblins,boards=desert+plains+swamp,skip_forced=false)")
    play_setup(
        g,
        {
            0: ["bonus B7", "place r8c4", "place r8c11"],
            1: ["bonus B10", "place r0c4", "place r0c10", "competency C5"],  # C5: TB with 2 spades
            2: ["bonus B9", "place r0c3", "place r0c9"],
        },
    )
    order = [int(s) for s in g.state.glob[G_ORDER][:3] if s in (0, 1)]
    assert g.pending_kind() == Kind.SPADES and g.current_seat() == order[0]
    first = {0: ["spade r8c5"], 1: ["spade r0c5", "spade r1c4"]}
    play(g, *first[order[0]])
    assert g.pending_kind() == Kind.SPADES and g.current_seat() == order[1]
    play(g, *first[order[1]])
    assert g.pending_kind() == Kind.MAIN


# ------------------------------------------------------------------------------------------------
# Forest, Swamp and the default bowls (R17.4, R87)


def test_r87_forest_start_steps_and_bowls() -> None:
    """R87 / R17.7: the Forest board adds 1 step in every discipline to the faction's steps, and
    starts with bowls 4/8; thresholds reached at setup pay (Navigators +3 Law -> Law 4 passes 3:
    +1 power, R49)."""
    g = setup_game("aoi(players=3,factions=navigators+goblins+felines,boards=forest+swamp+lake,skip_forced=false)")
    play_setup(g, {0: ["bonus B7"], 1: ["bonus B10"], 2: ["bonus B9"]})
    assert g.pending_kind() == Kind.INITIAL_PLACE  # player setup is done
    assert sci(g, 0) == [1, 4, 1, 1]  # Forest 1/1/1/1 + Navigators 3 Law
    assert bowls(g, 0) == (3, 9, 0)  # 4/8/0, then +1 power for reaching Law 3
    assert sci(g, 2) == [1, 0, 0, 1]  # Felines on the Lake board: faction steps only
    assert bowls(g, 2) == (5, 7, 0)


@pytest.mark.parametrize(
    ("board", "after"),
    [("forest", (0, 11, 1)), ("swamp", (0, 10, 2)), ("lake", (0, 12, 0))],
)
def test_r87_board_bowls_decide_how_far_power_goes(board: str, after: tuple[int, int, int]) -> None:
    """R87 / R30: gaining 5 power (book action BA1) from the printed bowls: Forest 4/8 puts 1 token
    into bowl III, Swamp 3/9 puts 2 there, the default 5/7 none."""
    sc = scenario(["goblins", "felines", "omar"], [board, "desert", "mountain"])
    sc.state().glob[G_BOOK_ACTIONS] = [0, 1, 2]  # BA1 BA2 BA3
    g = sc.set(0, books={"law": 1}).turn(0)
    play(g, "book BA1", "pay law")
    assert bowls(g, 0) == after


def test_r87_swamp_starts_with_a_scholar_in_holdings_and_bowls_3_9() -> None:
    """R87 / R19 / R3: the Swamp board gives 1 scholar at setup, taken from the personal supply into
    the holdings (so it is usable at once); bowls 3/9."""
    g = setup_game("aoi(players=3,factions=goblins+felines+omar,boards=swamp+forest+lake,skip_forced=false)")
    play_setup(g, {0: ["bonus B7"], 1: ["bonus B10"], 2: ["bonus B9"]})
    assert val(g, 0, P_SCHOLARS) == 1 and val(g, 0, P_SCHOLAR_SUPPLY) == 6
    assert bowls(g, 0) == (3, 9, 0)
    assert val(g, 1, P_SCHOLARS) == 0  # Forest: no scholar


# ------------------------------------------------------------------------------------------------
# Lake: sailing starts at 1, own track rewards (R71, R87)


def test_r87_lake_sailing_one_reaches_across_a_river_hex() -> None:
    """R87 / R39: the Lake board starts at sailing 1, so a hex behind one river hex is in reach."""
    sc = scenario(["goblins", "felines", "omar"], ["lake", "desert", "mountain"])
    g = sc.build(0, "r7c2", "workshop").turn(0)
    assert val(g, 0, P_SAILING) == 1
    play(g, "build")
    assert "target r7c4" in g.legal_moves()  # r7c2 -> river r7c3 -> r7c4


def test_r87_sailing_zero_does_not_cross_the_river() -> None:
    """R87 counterpart: the same Workshop on a board with sailing 0 does not reach r7c4."""
    sc = scenario(["goblins", "felines", "omar"], ["plains", "desert", "mountain"])
    g = play(sc.build(0, "r7c2", "workshop").turn(0), "build")
    assert "target r7c4" not in g.legal_moves()


def test_r87_lake_track_rewards_3_vp_then_2_books() -> None:
    """R87 / R71: the Lake track runs 1-3: reaching 2 gives 3 VP (no books), reaching 3 gives 2
    books; each advance costs 4 coins + 1 scholar."""
    sc = scenario(["goblins", "felines", "omar"], ["lake", "desert", "mountain"])
    g = sc.set(0, scholars=2, scholar_supply=5, coins=8).display_bonus(*PASS_DISPLAY).turn(0)
    play(g, "sail", "done")
    assert val(g, 0, P_SAILING) == 2
    assert val(g, 0, P_VP) == 23  # 20 + 3
    assert books(g, 0) == [0, 0, 0, 0]
    assert val(g, 0, P_COINS) == 4 and val(g, 0, P_SCHOLARS) == 1  # 8 - 4, 2 - 1
    play(g, "pass", "bonus B3", "pass", "bonus B8")  # the others pass
    play(g, "sail", "book law", "book medicine", "done")
    assert val(g, 0, P_SAILING) == 3
    assert val(g, 0, P_VP) == 23  # no VP for 3 on the Lake track
    assert books(g, 0) == [0, 1, 0, 1]
    assert val(g, 0, P_SCHOLARS) == 0 and val(g, 0, P_COINS) == 0


def test_r71_default_track_rewards_differ_from_the_lake() -> None:
    """R71: on the other boards the track runs 0-3 with 2 VP, 2 books, 4 VP."""
    sc = scenario(["goblins", "felines", "omar"], ["plains", "desert", "mountain"])
    g = sc.set(0, sailing=1, scholars=1, scholar_supply=6).turn(0)
    play(g, "sail", "book law", "book law", "done")  # 1 -> 2: 2 books
    assert val(g, 0, P_VP) == 20
    assert books(g, 0) == [0, 2, 0, 0]


def test_r87_lake_track_ends_at_3() -> None:
    """R87 / R71: the sailing action is impossible at the top of the track."""
    sc = scenario(["goblins", "felines", "omar"], ["lake", "desert", "mountain"])
    g = sc.set(0, sailing=3, scholars=1, scholar_supply=6).turn(0)
    assert "sail" not in g.legal_moves()


# ------------------------------------------------------------------------------------------------
# Mountain: +2 coins income, first Guild space 3 coins (R54, R57, R87)


def test_r87_mountain_income_two_coins_and_first_guild_three_coins() -> None:
    """R87 / R54: the Mountain board's base income adds 2 coins, and its first Guild space shows
    1 power + 3 coins instead of 2 coins."""
    sc = scenario(["goblins", "felines", "omar"], ["mountain", "lake", "desert"])
    sc.build(0, "r8c5", "guild").build(1, "r8c7", "guild").display_bonus(*PASS_DISPLAY)
    g = play(sc.turn(0), "pass", "bonus B1", "pass", "bonus B3", "pass", "bonus B8")
    assert g.pending_kind() == Kind.MAIN  # round 2 income is paid
    assert val(g, 0, P_COINS) == 20  # 15 + 2 (base) + 3 (first Guild space); B1 has no income
    assert bowls(g, 0) == (4, 8, 0)  # +1 power (first Guild space)
    assert val(g, 0, P_TOOLS) == 4  # 3 + 1 (base)
    assert val(g, 1, P_COINS) == 17  # Lake board: 15 + 2 (first Guild space); B3 gives power only


# ------------------------------------------------------------------------------------------------
# Plains: cheaper terraforming track (R72, R87)


def test_r87_plains_terraforming_track_costs_one_coin() -> None:
    """R87 / R72: on the Plains board advancing the terraforming track costs 1 coin + 1 tool +
    1 scholar (instead of 5 coins); 3 -> 2 tools per spade gives 2 books."""
    sc = scenario(["goblins", "felines", "omar"], ["plains", "desert", "mountain"])
    g = sc.set(0, coins=1, tools=1, scholars=1, scholar_supply=6).turn(0)
    play(g, "dig", "book banking", "book banking", "done")
    assert val(g, 0, P_TERRAFORMING) == 1
    assert (val(g, 0, P_COINS), val(g, 0, P_TOOLS), val(g, 0, P_SCHOLARS)) == (0, 0, 0)
    assert books(g, 0) == [2, 0, 0, 0]


def test_r72_other_boards_pay_five_coins_for_the_terraforming_track() -> None:
    """R72: with the same 1 coin + 1 tool + 1 scholar another board cannot advance."""
    sc = scenario(["goblins", "felines", "omar"], ["desert", "plains", "mountain"])
    g = sc.set(0, coins=4, tools=1, scholars=1, scholar_supply=6).turn(0)
    assert "dig" not in g.legal_moves()  # needs 5 coins


# ------------------------------------------------------------------------------------------------
# Wasteland: book + tool at setup, no surcharge on the 2nd innovation (R73, R87)


def test_r87_wasteland_starts_with_a_book_of_choice_and_four_tools() -> None:
    """R87 / R19: the Wasteland board gives 1 book of choice and 1 tool (4 tools in total)."""
    g = setup_game("aoi(players=3,factions=goblins+felines+omar,boards=wasteland+forest+lake,skip_forced=false)")
    play_setup(g, {0: ["bonus B7"], 1: ["bonus B10"], 2: ["bonus B9"]})
    assert g.pending_kind() == Kind.CHOOSE_BOOKS and g.current_seat() == 0
    play(g, "book medicine")
    assert books(g, 0) == [0, 0, 0, 1]
    assert val(g, 0, P_TOOLS) == 5  # 3 + 1 (Wasteland) + 1 (Goblins)
    assert val(g, 1, P_TOOLS) == 3 and books(g, 1) == [0, 0, 0, 0]  # Forest


def _innovation_position(board: str, owned: tuple[str, ...], banking_books: int) -> Game:
    """Seat 0 owns ``owned`` and has only banking books; colleges is on a banking space
    (2 banking + 3 any books), no Palace (+5 coins, R73)."""
    sc = scenario(["goblins", "felines", "omar"], [board, "desert", "mountain"], tile="T1")
    sc.innovation(0, *owned).display_innovations("colleges")
    return sc.set(0, books={"banking": banking_books}, coins=5).turn(0)


def test_r87_wasteland_second_innovation_has_no_slot_surcharge() -> None:
    """R87 / R73: on the Wasteland board the 2nd innovation slot costs +0 books: 2 + 3 = 5 books."""
    g = _innovation_position("wasteland", ("sewerage",), banking_books=5)
    play(g, "innovate", "innovation colleges", "pay banking", "pay banking", "pay banking", "done")
    assert books(g, 0) == [0, 0, 0, 0]  # 2 banking + 3 any, slot surcharge 0
    assert val(g, 0, P_COINS) == 0  # 5 - 5 (no Palace)


def test_r73_other_boards_pay_one_book_for_the_second_slot() -> None:
    """R73: on another board the same 2nd innovation costs 2 + 3 + 1 = 6 books."""
    g = _innovation_position("plains", ("sewerage",), banking_books=5)
    assert "innovate" not in g.legal_moves()


@pytest.mark.parametrize(("banking_books", "legal"), [(6, False), (7, True)])
def test_r87_wasteland_third_innovation_still_costs_two_books(banking_books: int, legal: bool) -> None:
    """R87 / R73: the Wasteland board's 3rd slot still costs +2 books: 2 + 3 + 2 = 7 books."""
    g = _innovation_position("wasteland", ("sewerage", "census"), banking_books)
    assert ("innovate" in g.legal_moves()) is legal
