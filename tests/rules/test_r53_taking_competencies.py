"""RULES.md §3.9 Competencies, how they are taken (R53.1-R53.6, OP-9, OP-45).

The competency display has 12 stacks: space = column x 3 + row, the column is the discipline
(banking, law, engineering, medicine) and the row gives the position reward (top: 3 steps,
middle: 2 steps + 1 book, bottom: 1 step + 2 books, all in the column's discipline).  Which
competency lies where depends on the seed, so tests read it from the state.
"""

from __future__ import annotations

import pytest

from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_COMP_LEFT,
    G_COMP_SPACES,
    P_BOOKS,
    P_COINS,
    P_COMPETENCIES,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.testing import Scenario, play

GAME = "aoi(players=3)"
FACTIONS = ["blessed", "inventors", "monks"]
BOARDS = ["desert", "plains", "forest"]
DISC = ("banking", "law", "engineering", "medicine")


def scenario(factions: list[str] = FACTIONS) -> Scenario:
    """Seat 0 has a lone Guild on r3c0 and can pay a School (3 tools + 5 coins)."""
    return (
        Scenario(GAME, factions=factions, boards=BOARDS)
        .round(1, tile="T10")
        .build(0, "r3c0", "guild")
        .set(0, tools=3, coins=5, bowls=(12, 0, 0))
    )


def school_upgrade(sc: Scenario) -> Game:
    g = sc.turn(0)
    play(g, "upgrade school", "upgrade r3c0")
    return g


def comp_at(sc_or_g: Scenario | Game, space: int) -> int:
    """Index (0 = C1) of the competency stack on a display space."""
    state = sc_or_g.state() if isinstance(sc_or_g, Scenario) else sc_or_g.state
    return int(state.glob[G_COMP_SPACES][space])


def owns(g: Game, comp: int, seat: int = 0) -> bool:
    return bool(int(g.state.players[seat, P_COMPETENCIES]) >> comp & 1)


# --------------------------------------------------------------------------------------------
# R53 triggers


def test_r53_upgrading_to_a_school_gives_a_competency() -> None:
    """R53 / R69: upgrading to a School gives a competency."""
    g = school_upgrade(scenario())
    assert (g.pending_kind(), g.current_seat()) == (Kind.CHOOSE_COMPETENCY, 0)


def test_r53_upgrading_to_the_university_gives_a_competency() -> None:
    """R53 / R70: upgrading to the University gives a competency."""
    g = Scenario(GAME, factions=FACTIONS, boards=BOARDS).round(1, tile="T10").build(0, "r3c0", "school")
    g = g.set(0, tools=5, coins=8).turn(0)
    play(g, "upgrade university", "upgrade r3c0")
    assert g.pending_kind() == Kind.CHOOSE_COMPETENCY


def test_r53_palace_tile_5_gives_a_competency() -> None:
    """R53 / R125: taking palace tile 5 gives a competency."""
    g = scenario().offer_palace(5, 17).set(0, tools=4, coins=6).turn(0)
    play(g, "upgrade palace", "upgrade r3c0", "palace 5")
    assert g.pending_kind() == Kind.CHOOSE_COMPETENCY


def test_r53_neutral_school_innovation_gives_a_competency() -> None:
    """R53 / R118: the neutral School innovation gives a competency (and the School to place)."""
    g = scenario().display_innovations("neutral_school").set(0, books=(5, 0, 0, 0), coins=5).turn(0)
    play(g, "innovate", "innovation neutral_school", "pay banking", "pay banking", "pay banking")
    play(g, "neutral r4c0")  # the School is placed at once (R46.1): Plains -> Desert for 3 tools
    assert g.pending_kind() == Kind.CHOOSE_COMPETENCY


def test_r53_inventors_start_with_a_competency() -> None:
    """R53 / R93: the Inventors gain a competency at setup."""
    g = Game("aoi(players=3,factions=inventors+blessed+goblins,boards=desert+plains+forest,setup_choices=random)")
    assert bin(int(g.state.players[0, P_COMPETENCIES])).count("1") == 1
    assert g.state.players[1, P_COMPETENCIES] == 0


# --------------------------------------------------------------------------------------------
# R53.1 / R53.2 which stack


def test_r53_1_a_competency_already_owned_cannot_be_taken_again() -> None:
    """R53.1: any stack whose type the player does not own yet; duplicates are forbidden."""
    sc = scenario()
    first = comp_at(sc, 0)
    g = school_upgrade(sc.competency(0, f"C{first + 1}"))
    moves = g.legal_moves()
    assert f"competency C{first + 1}" not in moves
    assert len(moves) == 11  # the other 11 stacks


def test_r53_1_an_empty_stack_cannot_be_chosen() -> None:
    """R53.1 / R53.2: the top tile of a stack is taken; a stack with no tile left is not offered."""
    # a stack empties only when four other players own its copies (4 copies, one per player): 5 players
    sc = Scenario("aoi(players=5)", factions=[*FACTIONS, "felines", "goblins"], boards=[*BOARDS, "lake", "swamp"])
    sc.round(1, tile="T10").build(0, "r3c0", "guild").set(0, tools=3, coins=5, bowls=(12, 0, 0))
    comp = comp_at(sc, 4)
    for seat in range(1, 5):
        sc.competency(seat, f"C{comp + 1}")
    assert sc.state().glob[G_COMP_LEFT.start + comp] == 0
    g = school_upgrade(sc)
    assert f"competency C{comp + 1}" not in g.legal_moves()


def test_r53_2_the_top_tile_is_taken_from_the_stack() -> None:
    """R53.2: the chosen tile leaves its stack and lies in front of the player."""
    sc = scenario()
    comp = comp_at(sc, 7)
    g = school_upgrade(sc)
    play(g, f"competency C{comp + 1}")
    assert owns(g, comp)
    assert g.state.glob[G_COMP_LEFT.start + comp] == 3  # 4 copies - 1


# --------------------------------------------------------------------------------------------
# R53.3 position reward


@pytest.mark.parametrize(("row", "steps", "books"), [(0, 3, 0), (1, 2, 1), (2, 1, 2)])
@pytest.mark.parametrize("column", [1, 3])
def test_r53_3_position_reward_by_row_in_the_columns_discipline(column: int, row: int, steps: int, books: int) -> None:
    """R53.3, OP-9: the reward is 3 items of the column's discipline: top row 3 steps, middle row
    2 steps + 1 book, bottom row 1 step + 2 books."""
    sc = scenario()
    comp = comp_at(sc, column * 3 + row)
    g = school_upgrade(sc)
    play(g, f"competency C{comp + 1}")
    p = g.state.players[0]
    assert int(p[P_SCIENCE.start + column]) == steps
    assert int(p[P_BOOKS.start + column]) == books
    assert int(p[P_SCIENCE].sum()) == steps and int(p[P_BOOKS].sum()) == books  # nothing elsewhere


# --------------------------------------------------------------------------------------------
# R53.4 the tile's own effect


def test_r53_4_an_immediate_effect_applies_now() -> None:
    """R53.4 / R141: an immediate effect applies at once (C4: 1 tool, 5 VP, 2 coins)."""
    sc = scenario()
    g = school_upgrade(sc)
    p = g.state.players[0]
    tools, coins, vp = int(p[P_TOOLS]), int(p[P_COINS]), int(p[P_VP])
    play(g, "competency C4")
    assert (p[P_TOOLS], p[P_COINS], p[P_VP]) == (tools + 1, coins + 2, vp + 5)


def test_r53_4_income_starts_with_the_next_phase_one() -> None:
    """R53.4: an income competency (C2: 3 VP + 2 coins) pays nothing now, then in Phase I."""
    g = school_upgrade(scenario())
    vp = int(g.state.players[0, P_VP])
    play(g, "competency C2")
    assert g.state.players[0, P_VP] == vp  # nothing yet
    g = (
        Scenario(GAME, factions=FACTIONS, boards=BOARDS)
        .competency(0, "C2")
        .bonus(0, "B3")
        .set(0, coins=0)
        .decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)
    )
    assert g.state.players[0, P_VP] == 23  # 20 + 3 (C2)
    assert g.state.players[0, P_COINS] == 2  # C2's 2 coins (B3 gives power)


def test_r53_4_a_passive_effect_works_from_now_on() -> None:
    """R53.4: a passive effect applies from the moment the tile is taken (C9: 2 VP per scholar
    sent)."""
    g = Scenario(GAME, factions=FACTIONS, boards=BOARDS).round(1, tile="T10").competency(0, "C9")
    g = g.set(0, scholars=1).turn(0)
    play(g, "scholar medicine return")
    assert g.state.players[0, P_VP] == 22  # 20 + 2 (C9)


# --------------------------------------------------------------------------------------------
# R53.5 Philosophers


def test_r53_5_philosophers_get_one_more_book_of_the_same_discipline() -> None:
    """R53.5 / R99: the Philosophers gain 1 extra book of the column's discipline."""
    sc = scenario(factions=["philosophers", "inventors", "monks"])
    comp = comp_at(sc, 3 * 2 + 1)  # engineering, middle row: 2 steps + 1 book
    g = school_upgrade(sc)
    play(g, f"competency C{comp + 1}")
    p = g.state.players[0]
    assert int(p[P_BOOKS.start + 2]) == 2  # 1 + 1 (Philosophers)
    assert int(p[P_SCIENCE.start + 2]) == 2


# --------------------------------------------------------------------------------------------
# R53.6 no legal stack


def test_r53_6_op45_no_legal_stack_gives_nothing() -> None:
    """R53.6, OP-45 (ASSUMPTION): if no legal stack exists, nothing is gained (no position
    reward) and the game goes on."""
    sc = scenario().competency(0, *(f"C{c + 1}" for c in range(12)))  # owns every type already
    g = school_upgrade(sc)
    assert g.pending_kind() == Kind.POST  # the choice was skipped
    assert int(g.state.players[0, P_SCIENCE].sum()) == 0
    assert int(g.state.players[0, P_BOOKS].sum()) == 0
