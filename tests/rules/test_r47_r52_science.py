"""RULES.md §3.8 Science board (R47-R52, OP-29, OP-30, OP-31, OP-64).

Steps are given with ``Scenario.decide``: ``STEPS_ONE`` (n steps in one discipline, `steps law`)
and ``STEPS_ANY`` (n steps placed one at a time, `step law`); scholars are sent with the action
`scholar <discipline> 3|2|return`.
"""

from __future__ import annotations

import pytest

from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.state import G_NEUTRAL_SCIENCE, P_BOWLS, P_COINS, P_SCIENCE, P_TOOLS, P_VP, Phase
from aoi_env.testing import Scenario, play, power_moved

GAME = "aoi(players=3)"
FACTIONS = ["blessed", "inventors", "monks"]
BOARDS = ["desert", "plains", "forest"]


def scenario() -> Scenario:
    """Round tile T10 (innovations): steps score nothing (T4 would)."""
    return Scenario(GAME, factions=FACTIONS, boards=BOARDS).round(1, tile="T10").set(0, bowls=(12, 0, 0))


def levels(g: Game, seat: int = 0) -> list[int]:
    return [int(x) for x in g.state.players[seat, P_SCIENCE]]


# --------------------------------------------------------------------------------------------
# R47 structure


def test_r47_each_track_has_one_three_space_and_three_two_spaces() -> None:
    """R47 / R74: under each track are one "3" scholar space and three "2" spaces; each holds one
    scholar for the whole game (returning a scholar for 1 step is always possible)."""
    g = scenario().set(0, scholars=5).set(1, passed=1).set(2, passed=1).turn(0)  # seat 0 acts alone
    play(g, "scholar banking 3", "done", "scholar banking 2", "done", "scholar banking 2", "done")
    moves = g.legal_moves()
    assert "scholar banking 3" not in moves  # taken for the rest of the game
    assert "scholar banking 2" in moves  # the third "2" space is still free
    play(g, "scholar banking 2", "done")
    moves = g.legal_moves()
    assert "scholar banking 2" not in moves and "scholar banking 3" not in moves
    assert "scholar banking return" in moves and "scholar law 3" in moves
    assert levels(g)[0] == 7  # 3 + 2 + 2, then the last 2 steps are lost at the key barrier (R50, OP-55)


def test_r47_scholar_spaces_are_shared_by_all_players() -> None:
    """R47: a space holds one scholar in the whole game, whoever sent it."""
    g = scenario().set(0, scholars=1).set(1, scholars=1).turn(0)
    play(g, "scholar law 3", "done")
    assert g.current_seat() == 1
    assert "scholar law 3" not in g.legal_moves() and "scholar law 2" in g.legal_moves()


def test_r47_tracks_end_at_level_twelve() -> None:
    """R47: levels run 0-12; steps beyond 12 are lost."""
    g = scenario().set(0, science={"law": 11}).decide(Kind.STEPS_ONE, 0, 3)
    play(g, "steps law")
    assert levels(g)[1] == 12


# --------------------------------------------------------------------------------------------
# R48 advancing


def test_r48_steps_in_any_disciplines_are_split_freely() -> None:
    """R48: n steps "in any disciplines" may be split freely, one step at a time."""
    g = scenario().decide(Kind.STEPS_ANY, 0, 3)
    play(g, "step banking", "step medicine", "step banking")
    assert levels(g) == [2, 0, 0, 1]


def test_r48_steps_in_one_discipline_all_go_to_the_chosen_track() -> None:
    """R48: an effect that says "one discipline" puts all its steps on one track."""
    g = scenario().decide(Kind.STEPS_ONE, 0, 2)
    assert g.legal_moves() == ["steps banking", "steps law", "steps engineering", "steps medicine"]
    play(g, "steps engineering")
    assert levels(g) == [0, 0, 2, 0]


# --------------------------------------------------------------------------------------------
# R49 power thresholds


@pytest.mark.parametrize(("start", "power"), [(2, 1), (4, 2), (6, 2), (11, 3)])
def test_r49_op8_reaching_a_threshold_gains_power(start: int, power: int) -> None:
    """R49 / OP-8 (numbers from the science-board image): reaching level 3 / 5 / 7 / 12 for the
    first time gains 1 / 2 / 2 / 3 power."""
    g = scenario().set(0, science={"medicine": start}).decide(Kind.STEPS_ONE, 0, 1)
    before = g.clone()
    play(g, "steps medicine")
    assert levels(g)[3] == start + 1
    assert power_moved(before, g, 0) == power


@pytest.mark.parametrize("start", [3, 5, 8, 9])
def test_r49_no_power_between_thresholds(start: int) -> None:
    """R49: levels 4, 6, 9, 10 are no thresholds."""
    g = scenario().set(0, science={"medicine": start}).decide(Kind.STEPS_ONE, 0, 1)
    before = g.clone()
    play(g, "steps medicine")
    assert power_moved(before, g, 0) == 0


def test_op29_thresholds_passed_over_in_one_move_also_pay() -> None:
    """OP-29 (ASSUMPTION, as in TM): every threshold crossed or reached in a multi-step move pays:
    law 2 -> 5 pays 1 + 2 = 3 power."""
    g = scenario().set(0, science={"law": 2}).decide(Kind.STEPS_ONE, 0, 3)
    before = g.clone()
    play(g, "steps law")
    assert levels(g)[1] == 5
    assert power_moved(before, g, 0) == 3  # 1 (level 3) + 2 (level 5)


def test_op29_a_scholar_on_the_three_space_crosses_five_and_reaches_seven() -> None:
    """OP-29: law 4 -> 7 with the "3" space crosses 5 and reaches 7: 2 + 2 = 4 power."""
    g = scenario().set(0, scholars=1, science={"law": 4}).turn(0)
    before = g.clone()
    play(g, "scholar law 3")
    assert levels(g)[1] == 7
    assert power_moved(before, g, 0) == 4


def test_r49_thresholds_pay_during_setup() -> None:
    """R49: thresholds also pay during setup: the Navigators start on law 3 (+1 power), so the
    Desert board's 5/7/0 bowls are 4/8/0 when the Workshops are placed."""
    g = Game("aoi(players=3,factions=navigators+blessed+goblins,boards=desert+plains+forest)")
    while g.pending_kind() != Kind.INITIAL_PLACE:  # the round bonus picks come first
        g.apply_action(g.legal_actions()[0])
    assert levels(g)[1] == 3
    assert list(g.state.players[0, P_BOWLS]) == [4, 8, 0]


# --------------------------------------------------------------------------------------------
# R50 key barrier


def test_r50_without_a_key_the_marker_stops_at_seven_and_the_rest_is_lost() -> None:
    """R50: moving from 7 to 8 needs a key; without one every step above 7 is lost."""
    g = scenario().set(0, science={"law": 6}, cities=0).decide(Kind.STEPS_ONE, 0, 3)
    play(g, "steps law")
    assert levels(g)[1] == 7  # 6 + 1, the other 2 steps are lost
    assert g.pending_kind() != Kind.USE_KEY


def test_r50_op30_with_a_key_the_player_chooses_to_use_it() -> None:
    """R50, OP-30 (ASSUMPTION): using a key is an explicit choice at the moment of crossing: `key
    law` continues above 7."""
    g = scenario().set(0, science={"law": 6}, cities=1).decide(Kind.STEPS_ONE, 0, 3)
    play(g, "steps law")
    assert levels(g)[1] == 7
    assert g.legal_moves() == ["nokey", "key law"]
    play(g, "key law")
    assert levels(g)[1] == 9  # 7 -> 8 with the key, then 9


def test_r50_op30_declining_the_key_loses_the_steps_above_seven() -> None:
    """R50 / OP-30: using the key is optional; `nokey` stops the marker at 7 and the key stays."""
    g = scenario().set(0, science={"law": 6, "banking": 6}, cities=1).decide(Kind.STEPS_ONE, 0, 3)
    play(g, "steps law", "nokey")
    assert levels(g)[1] == 7
    g2 = scenario().set(0, science={"law": 7, "banking": 7}, cities=1).decide(Kind.STEPS_ONE, 0, 1)
    play(g2, "steps banking")
    assert g2.legal_moves() == ["nokey", "key banking"]  # the unused key is still available


def test_r50_op31_each_track_needs_its_own_key() -> None:
    """R50, OP-31 (ASSUMPTION): keys available = city tiles owned - disciplines already unlocked;
    a key used on banking cannot unlock law."""
    g = scenario().set(0, science={"banking": 8, "law": 6}, cities=1).decide(Kind.STEPS_ONE, 0, 3)
    play(g, "steps law")
    assert levels(g)[1] == 7  # no key left: banking used it
    assert g.pending_kind() != Kind.USE_KEY
    g = scenario().set(0, science={"banking": 8, "law": 6}, cities=2).decide(Kind.STEPS_ONE, 0, 3)
    play(g, "steps law")
    assert g.legal_moves() == ["nokey", "key law"]  # 2 cities - 1 unlocked = 1 key


def test_op31_an_unlocked_track_stays_unlocked() -> None:
    """OP-31: once a discipline is above 7, further steps on it need no key."""
    g = scenario().set(0, science={"banking": 8}, cities=1).decide(Kind.STEPS_ONE, 0, 2)
    play(g, "steps banking")
    assert levels(g)[0] == 10


def test_op30_steps_of_a_distribution_may_go_elsewhere_at_the_barrier() -> None:
    """OP-30: with a multi-discipline distribution the player may place the steps on other tracks
    instead of losing them at the barrier; a step placed on a blocked track is lost."""
    g = scenario().set(0, science={"law": 7}).decide(Kind.STEPS_ANY, 0, 3)
    play(g, "step law")  # lost: no key
    assert levels(g)[1] == 7
    play(g, "step banking", "step banking")
    assert levels(g) == [2, 7, 0, 0]


def test_r45_3_r50_a_key_from_a_new_city_unlocks_the_barrier() -> None:
    """R45.3 / R50: a key gained from a city (here K7: 1 step in every discipline) can be used at
    once."""
    g = (
        scenario()
        .build(0, "r3c0", "guild")
        .build(0, "r3c1", "guild")
        .build(0, "r3c2", "guild")
        .terrain("r4c1", "desert")
        .set(0, science={"law": 7})
        .turn(0)
    )
    play(g, "build", "target r4c1", "city K7")
    assert g.legal_moves() == ["nokey", "key law"]
    play(g, "key law")
    assert levels(g) == [1, 8, 1, 1]


# --------------------------------------------------------------------------------------------
# R51 income at level 9+


def test_r51_op8_income_at_level_nine_or_more() -> None:
    """R51 / OP-8: in Phase I each track at 9 or higher gives Banking 3 coins, Law 6 power,
    Engineering 1 tool, Medicine 3 VP."""
    g = (
        scenario()
        .bonus(0, "B10")  # 6 coins
        .set(0, science=(9, 10, 11, 12), coins=0, tools=0, bowls=(12, 0, 0))
        .decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)
    )
    p = g.state.players[0]
    assert p[P_COINS] == 9  # 6 (B10) + 3 (banking)
    assert p[P_TOOLS] == 2  # 1 (board base) + 1 (engineering)
    assert p[P_VP] == 23  # 20 + 3 (medicine)
    assert list(p[P_BOWLS]) == [6, 6, 0]  # 6 power (law)


def test_r51_no_income_at_level_eight() -> None:
    """R51: level 8 gives no science income."""
    g = (
        scenario()
        .bonus(0, "B10")
        .set(0, science=(8, 8, 8, 8), coins=0, tools=0, bowls=(12, 0, 0))
        .decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)
    )
    p = g.state.players[0]
    assert (p[P_COINS], p[P_TOOLS], p[P_VP]) == (6, 1, 20)  # B10 and the board base only
    assert list(p[P_BOWLS]) == [12, 0, 0]


def test_r51_science_income_is_collected_in_phase_one_of_the_next_round() -> None:
    """R51 / R57: reaching 9 in Phase II pays nothing at once; the income comes in Phase I."""
    g = scenario().set(0, science={"banking": 8}, cities=1, coins=0).decide(Kind.STEPS_ONE, 0, 1)
    play(g, "steps banking")
    assert levels(g)[0] == 9
    assert g.state.players[0, P_COINS] == 0


def test_op64_reaching_nine_during_phase_one_pays_at_once() -> None:
    """OP-64 (ASSUMPTION): C1's income step may reach level 9 during Phase I; the level-9 income
    is then paid immediately (law 8 -> 9: 6 power)."""
    g = (
        scenario()
        .competency(0, "C1")  # income: 1 tool + 1 step in any discipline
        .bonus(0, "B10")
        .set(0, science={"law": 8}, cities=1, bowls=(12, 0, 0))
        .decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)
    )
    assert g.pending_kind() == Kind.STEPS_ANY
    before = g.clone()
    play(g, "step law")
    assert levels(g)[1] == 9
    assert power_moved(before, g, 0) == 6


# --------------------------------------------------------------------------------------------
# R52 level 12 is exclusive


def test_r52_only_one_marker_may_reach_twelve() -> None:
    """R52: once a player is on 12, other players stop at 11 and extra steps are lost; the 3 power
    of level 12 goes to the first player only."""
    g = scenario().set(1, science={"engineering": 12}).set(0, science={"engineering": 10}, cities=1)
    g = g.decide(Kind.STEPS_ONE, 0, 3)
    before = g.clone()
    play(g, "steps engineering")
    assert levels(g)[2] == 11  # 10 + 1, two steps lost
    assert power_moved(before, g, 0) == 0  # no level-12 power


def test_r52_op62_a_neutral_marker_on_twelve_also_blocks_it() -> None:
    """R52, R24 / OP-62: the 2-player neutral faction's markers are markers too.  Set up they
    reach at most 11 (2 + the round tiles' thresholds), so this guards a corrupted or future
    setup: with the neutral marker on 12, a player stops at 11."""
    sc = Scenario("aoi(players=2)", factions=["blessed", "felines"], boards=["lake", "forest"])
    sc.state().glob[G_NEUTRAL_SCIENCE.start + 2] = 12
    g = sc.set(0, science={"engineering": 10}, cities=1).decide(Kind.STEPS_ONE, 0, 3)
    play(g, "steps engineering")
    assert levels(g)[2] == 11


def test_r52_twelve_is_open_while_nobody_stands_on_it() -> None:
    """R52: the first marker to arrive takes level 12 (and its 3 power)."""
    g = scenario().set(1, science={"engineering": 11}).set(0, science={"engineering": 10}, cities=1)
    g = g.decide(Kind.STEPS_ONE, 0, 3)
    before = g.clone()
    play(g, "steps engineering")
    assert levels(g)[2] == 12
    assert power_moved(before, g, 0) == 3
