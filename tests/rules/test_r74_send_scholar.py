"""RULES.md §4.2.6: sending a scholar (R74, R47, OP-55)."""

from __future__ import annotations

from aoi_env.core.state import G_ROUND, G_SCHOLAR_SPACES, P_SCHOLAR_SUPPLY, P_SCHOLARS, P_SCIENCE, P_VP
from aoi_env.testing import Scenario, play

BANKING, LAW, ENGINEERING, MEDICINE = range(4)


def scenario() -> Scenario:
    s = Scenario("aoi(players=3)", factions=["blessed", "felines", "monks"], boards=["desert", "lake", "forest"])
    for seat, tile in enumerate(("B10", "B9", "B8")):
        s.bonus(seat, tile)
    s.round(1, tile="T10")
    for seat in range(3):
        s.set(seat, scholars=2, scholar_supply=5)
    return s


def space(d: int, i: int) -> int:
    """Index of scholar space ``i`` (0 = the "3" space, 1-3 the "2" spaces) under discipline d."""
    return G_SCHOLAR_SPACES.start + d * 4 + i


def test_r74a_scholar_on_the_3_space_gives_3_steps_and_stays() -> None:
    """R74 (a): a scholar on the empty '3' space advances that discipline 3 steps and stays there
    for the rest of the game (it does not return to the supply)."""
    g = scenario().turn(0)
    play(g, "scholar law 3")
    p = g.state.players[0]
    assert p[P_SCIENCE][LAW] == 3
    assert (p[P_SCHOLARS], p[P_SCHOLAR_SUPPLY]) == (2 - 1, 5)
    assert g.state.glob[space(LAW, 0)] == 0


def test_r74a_rulebook_example_3_space_taken_so_2_steps() -> None:
    """R74 (a), rulebook example: the Medicine '3' space is taken, so the scholar goes on a free
    '2' space and Medicine advances 2 steps."""
    s = scenario()
    s.scholar_space(1, "medicine", 0)  # seat 1's scholar
    g = s.turn(0)
    assert "scholar medicine 3" not in g.legal_moves()
    play(g, "scholar medicine 2")
    assert g.state.players[0, P_SCIENCE][MEDICINE] == 2
    assert g.state.glob[space(MEDICINE, 1)] == 0


def test_r74a_each_space_holds_one_scholar_for_the_game() -> None:
    """R47 / R74: each space holds at most one scholar; with all four taken only the return form
    is left for that discipline, and the spaces stay taken after the round ends."""
    s = scenario()
    for i in range(4):
        s.scholar_space(1, "banking", i)
    s.display_bonus("B1", "B7")  # no income choices in round 2 (seat 0 takes B9, returned by seat 1)
    g = s.turn(0)
    moves = g.legal_moves()
    assert "scholar banking 3" not in moves and "scholar banking 2" not in moves
    assert "scholar banking return" in moves
    play(g, "scholar law 3", "done")
    play(g, "pass", "bonus B1", "pass", "bonus B7")  # seats 1, 2
    play(g, "pass", "bonus B9")  # seat 0: round 1 ends, round 2 begins in passing order 1, 2, 0
    assert g.current_seat() == 1 and g.state.glob[G_ROUND] == 2
    assert g.state.glob[space(LAW, 0)] == 0  # still seat 0's scholar in round 2
    assert "scholar law 3" not in g.legal_moves() and "scholar law 2" in g.legal_moves()


def test_r74b_return_a_scholar_for_one_step() -> None:
    """R74 (b): return 1 scholar from the holdings to the personal supply and advance 1 step."""
    g = scenario().turn(0)
    play(g, "scholar engineering return")
    p = g.state.players[0]
    assert p[P_SCIENCE][ENGINEERING] == 1
    assert (p[P_SCHOLARS], p[P_SCHOLAR_SUPPLY]) == (2 - 1, 5 + 1)
    assert (g.state.glob[G_SCHOLAR_SPACES] == 0).sum() == 0  # no space used


def test_r74_needs_a_scholar_in_the_holdings() -> None:
    """R74 / R3: the scholar comes from the holdings; scholars in the personal supply cannot be sent."""
    s = scenario()
    s.set(0, scholars=0, scholar_supply=7)
    assert not [m for m in s.turn(0).legal_moves() if m.startswith("scholar ")]


def test_r74_both_forms_count_as_sending_for_b2_and_c9() -> None:
    """R74: both forms count as sending a scholar: round bonus B2 (+2 VP) and competency C9 (+2 VP)."""
    s = scenario()
    s.bonus(0, "B2").competency(0, "C9")
    g = s.turn(0)
    play(g, "scholar law 2", "done")
    assert g.state.players[0, P_VP] == 20 + 2 + 2
    g = scenario().bonus(0, "B2").competency(0, "C9").turn(0)
    play(g, "scholar law return")
    assert g.state.players[0, P_VP] == 20 + 2 + 2


def test_op55_sending_is_allowed_when_steps_are_lost_at_the_key_barrier() -> None:
    """OP-55: the action is allowed when its steps are lost (level 7, no key); B2 still scores
    because the scholar was sent, but the lost steps do not score T4."""
    s = scenario().round(1, tile="T4")
    s.set(0, science=(7, 0, 0, 0)).bonus(0, "B2")
    g = s.turn(0)
    play(g, "scholar banking 3")
    p = g.state.players[0]
    assert p[P_SCIENCE][BANKING] == 7  # 3 steps lost without a key (R50)
    assert p[P_VP] == 20 + 2  # B2 only; T4 scores no lost step
    assert g.state.glob[space(BANKING, 0)] == 0  # the scholar is on the space anyway


def test_op55_steps_up_to_7_are_taken_the_rest_lost() -> None:
    """OP-55 / R50: from level 6 with no key, a '3' scholar gains 1 step (to 7); T4 scores 1."""
    s = scenario().round(1, tile="T4")
    s.set(0, science=(6, 0, 0, 0))
    g = s.turn(0)
    play(g, "scholar banking 3")
    assert g.state.players[0, P_SCIENCE][BANKING] == 7
    assert g.state.players[0, P_VP] == 20 + 1


def test_op55_level_12_cap_loses_the_steps() -> None:
    """OP-55 / R52: at level 11 with another marker on 12, the steps are lost but the action is
    allowed."""
    s = scenario()
    s.set(0, science=(11, 0, 0, 0)).set(1, science=(12, 0, 0, 0))
    g = s.turn(0)
    assert "scholar banking 2" in g.legal_moves()
    play(g, "scholar banking 2")
    assert g.state.players[0, P_SCIENCE][BANKING] == 11


def test_r74a_every_2_space_gives_2_steps() -> None:
    """R74 (a) / R47: each discipline has one '3' space and three '2' spaces; the '2' spaces
    fill in order, and the second and third of them give 2 steps each, like the first.
    Fails on: ``science.scholar_spaces.2`` 2 -> 3 or ``science.scholar_spaces.3`` 2 -> 3."""
    for taken, i in ((2, 2), (3, 3)):  # the '3' space and ``taken - 1`` '2' spaces are occupied
        s = scenario().round(1, tile="T4")  # T4: 1 VP per step
        for k in range(taken):
            s.scholar_space(1, "engineering", k)
        g = s.turn(0)
        assert "scholar engineering 3" not in g.legal_moves()
        play(g, "scholar engineering 2")
        p = g.state.players[0]
        assert p[P_SCIENCE][ENGINEERING] == 2
        assert p[P_VP] == 20 + 2
        assert g.state.glob[space(ENGINEERING, i)] == 0
        assert (p[P_SCHOLARS], p[P_SCHOLAR_SUPPLY]) == (2 - 1, 5)
