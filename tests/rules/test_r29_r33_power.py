"""RULES.md §3.2 Power (R29-R33): bowls, gaining, spending, adding tokens, sacrifice."""

from __future__ import annotations

from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.state import P_BOWLS, P_BURNED, P_COINS, P_SCHOLARS, P_VP
from aoi_env.testing import Scenario, play, power_moved

GAME = "aoi(players=3)"
FACTIONS = ["blessed", "inventors", "monks"]
BOARDS = ["desert", "plains", "forest"]


def scenario() -> Scenario:
    return Scenario(GAME, factions=FACTIONS, boards=BOARDS).round(1, tile="T10")


def bowls(g: Game, seat: int) -> list[int]:
    return [int(x) for x in g.state.players[seat, P_BOWLS]]


def tokens(g: Game, seat: int) -> int:
    return sum(bowls(g, seat))


# --------------------------------------------------------------------------------------------
# R29 bowls


def test_r29_only_tokens_in_bowl_three_can_be_spent() -> None:
    """R29: tokens sit in bowls I, II, III and only bowl III can be spent."""
    g = scenario().set(0, bowls=(0, 12, 0)).turn(0)
    moves = g.legal_moves()
    assert "spell S2" not in moves  # 3 power needed in bowl III, which is empty
    assert "convert 1pw coin" not in moves
    g = scenario().set(0, bowls=(0, 11, 1)).turn(0)
    assert "convert 1pw coin" in g.legal_moves()  # the one token in bowl III can be spent


def test_r29_tokens_move_clockwise_through_the_bowls() -> None:
    """R29: tokens move only I -> II -> III -> I: a spend moves III -> I, a gain moves I -> II first."""
    g = scenario().set(0, bowls=(0, 9, 3)).turn(0)
    play(g, "spell S2")  # spend 3: III -> I
    assert bowls(g, 0) == [3, 9, 0]  # 0 + 3, 9, 3 - 3
    play(g, "done")
    g = scenario().set(0, bowls=(3, 9, 0)).competency(0, "C7").turn(0)
    play(g, "special competency")  # C7: gain 4 power
    assert bowls(g, 0) == [0, 11, 1]  # 3 tokens I -> II, then 1 token II -> III


# --------------------------------------------------------------------------------------------
# R30 gaining


def test_r30_example_bowls_2_5_5_gaining_3_gives_0_6_6() -> None:
    """R30 rulebook example: bowls 2/5/5 gaining 3 -> 0/6/6 (2 tokens I -> II, then 1 II -> III).

    The 3 power come from the R42 rulebook example: a Workshop (1) and a School (2) next to the
    new Workshop of another player.
    """
    g = (
        scenario()
        .build(0, "r3c0", "workshop")
        .build(1, "r3c1", "workshop")
        .build(1, "r4c0", "school")
        .terrain("r4c1", "desert")
        .set(1, bowls=(2, 5, 5))
        .turn(0)
    )
    before = g.clone()
    play(g, "build", "target r4c1")  # desert Workshop next to seat 1's Workshop and School
    assert g.pending_kind() == Kind.OFFER and g.current_seat() == 1
    play(g, "leech accept")
    assert bowls(g, 1) == [0, 6, 6]
    assert power_moved(before, g, 1) == 3
    assert g.state.players[1, P_VP] == 18  # 20 - (3 - 1)


def test_r30_capacity_is_twice_bowl_one_plus_bowl_two_and_the_rest_is_lost() -> None:
    """R30: a gain moves I -> II while I has tokens, then II -> III; when I and II are empty the
    rest of the gain is lost.  Capacity = 2 x |I| + |II|."""
    g = scenario().set(0, bowls=(1, 1, 10)).competency(0, "C7").turn(0)
    before = g.clone()
    play(g, "special competency")  # gain 4, capacity 2 x 1 + 1 = 3
    assert bowls(g, 0) == [0, 0, 12]
    assert power_moved(before, g, 0) == 3  # 1 of the 4 power is lost
    assert tokens(g, 0) == 12  # nothing leaves the bowls


def test_r30_two_gains_equal_one_gain_of_the_sum() -> None:
    """R30: the order of gains does not matter: gaining a then b equals gaining a + b.

    Crossing science levels 3 and 5 in one move gains 1 then 2 power (R49, OP-29); an offer of 3
    gains 3 at once.  From 2/1/9 both end at 0/2/10.
    """
    g = scenario().set(0, bowls=(2, 1, 9), science={"law": 2}).decide(Kind.STEPS_ONE, 0, 3)
    play(g, "steps law")  # law 2 -> 5: thresholds 3 (+1) and 5 (+2)
    two_gains = bowls(g, 0)
    g = (
        scenario()
        .build(1, "r3c0", "workshop")
        .build(0, "r3c1", "guild")
        .build(0, "r4c0", "workshop")
        .terrain("r4c1", "plains")
        .set(0, bowls=(2, 1, 9))
        .turn(1)
    )
    play(g, "build", "target r4c1", "leech accept")  # offer 2 + 1 = 3 to seat 0
    assert two_gains == bowls(g, 0) == [0, 2, 10]  # 2 tokens I -> II, then 1 II -> III


# --------------------------------------------------------------------------------------------
# R31 spending


def test_r31_spending_moves_tokens_from_bowl_three_to_bowl_one() -> None:
    """R31: spending n power moves n tokens from III to I and needs |III| >= n."""
    g = scenario().set(0, bowls=(5, 4, 3)).turn(0)
    play(g, "spell S2")  # the scholar spell costs 3 power
    assert bowls(g, 0) == [8, 4, 0]  # 5 + 3, 4, 3 - 3
    assert g.state.players[0, P_SCHOLARS] == 1
    g = scenario().set(0, bowls=(5, 5, 2)).turn(0)
    assert "spell S2" not in g.legal_moves()  # 2 < 3 tokens in bowl III


def test_r31_power_conversion_spends_from_bowl_three() -> None:
    """R31 / R79: converting 1 power into 1 coin moves one token III -> I."""
    g = scenario().set(0, bowls=(2, 8, 2), coins=15).turn(0)
    play(g, "convert 1pw coin")
    assert bowls(g, 0) == [3, 8, 1]
    assert g.state.players[0, P_COINS] == 16  # 15 + 1


# --------------------------------------------------------------------------------------------
# R32 adding tokens


def test_r32_neutral_palace_adds_two_new_tokens_into_bowl_three() -> None:
    """R32: the neutral Palace innovation puts 2 new tokens from the supply into bowl III; this is
    not a gain (bowl I is untouched) and the player's token total grows."""
    g = (
        scenario()
        .display_innovations("neutral_palace")
        .build(0, "r3c0", "workshop")
        .set(0, bowls=(5, 7, 0), books=(5, 0, 0, 0), coins=15)
        .turn(0)
    )
    play(g, "innovate", "innovation neutral_palace")
    play(g, "pay banking", "pay banking", "pay banking")  # 2 banking + 3 any books
    assert bowls(g, 0) == [5, 7, 2]  # 0 + 2 new tokens, bowls I and II unchanged
    assert tokens(g, 0) == 14  # 12 + 2
    assert g.pending_kind() == Kind.NEUTRAL_PLACE


# --------------------------------------------------------------------------------------------
# R33 sacrifice


def test_r33_burn_returns_one_token_and_moves_one_to_bowl_three() -> None:
    """R33: with at least 2 tokens in bowl II, return 1 to the supply and move 1 to bowl III."""
    g = scenario().set(0, bowls=(5, 7, 0)).turn(0)
    play(g, "convert burn")
    assert bowls(g, 0) == [5, 5, 1]  # 7 - 2, 0 + 1
    assert tokens(g, 0) == 11  # 12 - 1 sacrificed for good
    assert g.state.players[0, P_BURNED] == 1


def test_r33_burn_repeats_while_bowl_two_holds_two_tokens() -> None:
    """R33: the sacrifice may be repeated while bowl II holds at least 2 tokens."""
    g = scenario().set(0, bowls=(0, 5, 7)).turn(0)
    play(g, "convert burn", "convert burn")
    assert bowls(g, 0) == [0, 1, 9]  # 5 - 2 - 2, 7 + 1 + 1
    assert "convert burn" not in g.legal_moves()  # only 1 token left in bowl II


def test_r33_op59_no_burn_while_answering_a_power_offer() -> None:
    """R33 / R79, OP-59: the sacrifice is a free conversion of one's own turn, so a player cannot
    burn to make room while deciding on a power offer during another player's turn."""
    g = (
        scenario()
        .build(0, "r3c0", "workshop")
        .build(1, "r3c1", "guild")
        .terrain("r4c1", "desert")
        .set(1, bowls=(0, 4, 8))
        .turn(0)
    )
    play(g, "build", "target r4c1")
    assert g.pending_kind() == Kind.OFFER and g.current_seat() == 1
    assert g.legal_moves() == ["leech decline", "leech accept"]  # no "convert burn"
