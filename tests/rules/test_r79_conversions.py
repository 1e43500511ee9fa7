"""RULES.md §4.2.11: free resource conversions (R79, R33 sacrifice, OP-59)."""

from __future__ import annotations

import pytest

from aoi_env.core.pending import Kind
from aoi_env.core.rules import power
from aoi_env.core.state import (
    G_TURN,
    P_BOOKS,
    P_BOWLS,
    P_COINS,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_TOOLS,
    Phase,
)
from aoi_env.testing import Scenario, play

I, II, III = 0, 1, 2


def scenario() -> Scenario:
    s = Scenario("aoi(players=3)", factions=["blessed", "felines", "monks"], boards=["desert", "lake", "forest"])
    for seat, tile in enumerate(("B10", "B9", "B8")):
        s.bonus(seat, tile)
    s.round(1, tile="T10")
    s.set(0, coins=5, tools=2, scholars=1, scholar_supply=6, books=(1, 1, 0, 0), bowls=(2, 4, 6))
    return s


def state_after(move: str) -> tuple:
    g = scenario().turn(0)
    play(g, move)
    assert g.pending_kind() == Kind.MAIN  # a conversion is not the action
    p = g.state.players[0]
    return (
        tuple(p[P_BOWLS]),
        int(p[P_COINS]),
        int(p[P_TOOLS]),
        int(p[P_SCHOLARS]),
        int(p[P_SCHOLAR_SUPPLY]),
        tuple(p[P_BOOKS]),
    )


START = ((2, 4, 6), 5, 2, 1, 6, (1, 1, 0, 0))


@pytest.mark.parametrize(
    ("move", "expected"),
    [
        # sacrifice (R33): one token from II leaves the game, another moves II -> III
        ("convert burn", ((2, 2, 7), 5, 2, 1, 6, (1, 1, 0, 0))),
        # 5 P -> 1 scholar from the personal supply
        ("convert 5pw scholar", ((7, 4, 1), 5, 2, 2, 5, (1, 1, 0, 0))),
        # 5 P -> 1 book of any discipline
        ("convert 5pw book medicine", ((7, 4, 1), 5, 2, 1, 6, (1, 1, 0, 1))),
        # 3 P -> 1 tool
        ("convert 3pw tool", ((5, 4, 3), 5, 3, 1, 6, (1, 1, 0, 0))),
        # 1 P -> 1 coin
        ("convert 1pw coin", ((3, 4, 5), 6, 2, 1, 6, (1, 1, 0, 0))),
        # 1 scholar -> 1 tool (the scholar goes back to the personal supply)
        ("convert scholar tool", ((2, 4, 6), 5, 3, 0, 7, (1, 1, 0, 0))),
        # 1 tool -> 1 coin
        ("convert tool coin", ((2, 4, 6), 6, 1, 1, 6, (1, 1, 0, 0))),
        # 1 book -> 1 coin
        ("convert book law coin", ((2, 4, 6), 6, 2, 1, 6, (1, 0, 0, 0))),
    ],
)
def test_r79_each_conversion(move: str, expected: tuple) -> None:
    """R79: the conversions and their exact rates."""
    assert state_after(move) == expected


def test_r79_the_full_list_and_nothing_else() -> None:
    """R79: no other exchanges exist: coins convert into nothing, and only power makes books."""
    g = scenario().turn(0)
    conv = sorted(m for m in g.legal_moves() if m.startswith("convert"))
    assert conv == sorted(
        ["convert burn", "convert 5pw scholar", "convert 3pw tool", "convert 1pw coin", "convert scholar tool",
         "convert tool coin", "convert book banking coin", "convert book law coin"]
        + [f"convert 5pw book {d}" for d in ("banking", "law", "engineering", "medicine")]
    )  # fmt: skip
    s = scenario()
    s.set(0, coins=40, tools=0, scholars=0, books=(0, 0, 0, 0), bowls=(12, 0, 0))
    assert not [m for m in s.turn(0).legal_moves() if m.startswith("convert")]  # 40 coins: nothing


def test_r79_5pw_scholar_needs_one_in_the_personal_supply() -> None:
    """R79: 5 P -> 1 scholar only while the personal supply has one (limit 7, R3)."""
    s = scenario()
    s.set(0, scholars=7, scholar_supply=0)
    moves = s.turn(0).legal_moves()
    assert "convert 5pw scholar" not in moves and "convert 5pw book law" in moves


def test_r33_sacrifice_repeats_while_bowl_ii_has_two_and_removes_tokens() -> None:
    """R33: burning may be repeated while bowl II holds at least 2 tokens; each burn removes a
    token for good."""
    g = scenario().turn(0)
    play(g, "convert burn", "convert burn")  # II 4 -> 2 -> 0, III 6 -> 8
    p = g.state.players[0]
    assert tuple(p[P_BOWLS]) == (2, 0, 8)
    assert power.tokens(p) == 12 - 2
    assert "convert burn" not in g.legal_moves()


def test_r33_no_sacrifice_with_one_token_in_bowl_ii() -> None:
    """R33: with a single token in bowl II there is no sacrifice."""
    s = scenario()
    s.set(0, bowls=(5, 1, 6))
    assert "convert burn" not in s.turn(0).legal_moves()


def test_r79_conversions_after_the_action() -> None:
    """R79: conversions are allowed immediately after the action too (POST)."""
    g = scenario().turn(0)
    play(g, "spell S2")  # 3 power -> 1 scholar
    assert g.pending_kind() == Kind.POST
    play(g, "convert scholar tool", "convert tool coin", "done")
    p = g.state.players[0]
    assert (p[P_SCHOLARS], p[P_TOOLS], p[P_COINS]) == (1, 2, 6)


def test_op59_no_conversions_in_another_players_turn() -> None:
    """R79 / OP-59: never during another player's turn: a power offer is only accept / decline, so
    an offer cannot be prepared by burning."""
    s = scenario()
    s.build(1, "r7c6", "workshop").build(0, "r7c7", "workshop")
    g = s.turn(1)
    play(g, "build", "target r8c7")  # printed Lake: seat 1 (Lake board) builds at once, next to r7c7
    assert g.pending_kind() == Kind.OFFER and g.current_seat() == 0
    assert sorted(g.legal_moves()) == ["leech accept", "leech decline"]


def test_op59_no_conversions_in_phase_iii() -> None:
    """R79 / OP-59: no conversions in Phase III (science bonus spades offer only spades / done)."""
    s = scenario()
    s.build(0, "r7c6", "workshop")
    g = s.decide(Kind.SPADES, 0, 1, phase=Phase.SCIENCE)
    assert g.legal_moves() == ["spade r6c6", "spade r7c5", "spade r7c7", "spade r8c6", "spade r8c7", "done"]


def test_op59_no_conversions_in_phase_i() -> None:
    """R79 / OP-59: no conversions in Phase I (an income book choice offers only the books)."""
    s = scenario()
    s.bonus(0, "B5")
    g = s.decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)
    assert g.legal_moves() == ["book banking", "book law", "book engineering", "book medicine"]


def test_op59_conversions_before_a_bonus_tb_inside_the_turn() -> None:
    """R79 / OP-59: conversions are allowed before a bonus TB received inside one's own turn, e.g.
    3 power -> 1 tool to buy the missing spade of a spell's TB."""
    s = scenario()
    s.build(0, "r7c6", "workshop").set(0, tools=0, bowls=(0, 0, 7))
    g = s.turn(0)
    play(g, "spell S3")  # 4 power: 1 free spade; 3 power left in bowl III, no tools
    assert g.pending_kind() == Kind.TB_TARGET
    assert "convert 3pw tool" in g.legal_moves()
    play(g, "convert 3pw tool", "convert tool coin")
    assert g.pending_kind() == Kind.TB_TARGET  # still before the TB
    play(g, "target r7c5")  # Swamp -> Desert needs 2 spades; no tool left to buy one
    assert g.legal_moves() == ["spades 1"]


def test_op59_conversions_before_a_city_tb_inside_the_turn() -> None:
    """OP-59: the TB of city tile K4 (2 free spades, missing ones bought with tools) is received
    inside the turn; converting power into tools first lets the player buy the third spade."""
    s = scenario()
    s.build(0, "r7c6", "school").build(0, "r6c6", "guild").build(0, "r8c6", "guild")
    s.set(0, tools=5, coins=8, bowls=(0, 0, 9))
    g = s.turn(0)
    play(g, "upgrade university", "upgrade r7c6", "first city", "city K4")  # University 3 + Guilds 2 + 2 = 7
    assert g.pending_kind() == Kind.TB_TARGET and g.state.players[0, P_TOOLS] == 0  # 5 - 5
    play(g, "convert 3pw tool", "convert 3pw tool", "convert 3pw tool")  # 9 power -> 3 tools
    play(g, "target r8c7")  # Lake -> Desert: 3 spades, 2 free
    assert g.legal_moves() == ["spades 1", "spades 2", "spades 3"]
    play(g, "spades 3")
    assert g.state.players[0, P_TOOLS] == 0  # the third spade bought for 3 tools


def test_op59_no_conversion_before_an_ordinary_tb() -> None:
    """OP-59: the tools-paid TB is the action itself: conversions come before choosing 'build', not
    at its first hex."""
    s = scenario()
    s.build(0, "r7c6", "workshop").set(0, tools=5)
    g = s.turn(0)
    play(g, "build")
    assert g.pending_kind() == Kind.TB_TARGET
    assert not [m for m in g.legal_moves() if m.startswith("convert")]


def test_op59_no_conversion_before_a_tb_in_another_players_turn() -> None:
    """R79 / OP-59: a bonus TB that is not in the seat's own turn offers no conversions."""
    s = scenario()
    s.build(0, "r7c6", "workshop").set(0, bowls=(0, 0, 9))
    s.state().glob[G_TURN] = 0
    g = s.decide(Kind.TB_TARGET, 0, 2, 3)  # 2 free spades (TB_BUY | TB_BUILD); turn order 0, 1, 2
    assert [m for m in g.legal_moves() if m.startswith("convert")]  # seat 0's own turn (G_TURN 0)
    s = scenario()
    s.build(1, "r7c6", "workshop").set(1, bowls=(0, 0, 9))
    s.state().glob[G_TURN] = 0
    g = s.decide(Kind.TB_TARGET, 1, 2, 3)  # seat 1 while it is seat 0's turn
    assert g.current_seat() == 1
    assert not [m for m in g.legal_moves() if m.startswith("convert")]


def test_r79_conversions_after_a_pass_that_gave_power() -> None:
    """R79 ("before and/or after your action"; Pass is an action, [UA] "За винятком дії «Пас»"):
    B8's pass step takes Law 2 -> 3, which gives 1 power (I -> II); after the new round bonus
    tile the player may convert, here burn with the new token."""
    s = scenario().display_bonus("B1", "B3", "B7")
    s.bonus(0, "B8").build(0, "r7c6", "school").set(0, science=(0, 2, 0, 0), bowls=(5, 7, 0), tools=0)
    s.set(0, scholars=0, books=(0, 0, 0, 0))
    g = s.turn(0)
    play(g, "pass", "step law", "bonus B1")
    assert list(g.state.players[0, P_BOWLS]) == [4, 8, 0]
    assert (g.pending_kind(), g.current_seat()) == (Kind.POST, 0)
    assert g.legal_moves() == ["convert burn", "done"]
    play(g, "convert burn", "done")
    assert list(g.state.players[0, P_BOWLS]) == [4, 6, 1]
    assert g.current_seat() == 1


def test_r79_no_redundant_decision_after_a_pass_that_gave_nothing_to_convert() -> None:
    """R79: when the pass gave nothing a conversion spends, converting after it equals converting
    before it, so the engine asks nothing after the pass (B10 has no pass effect)."""
    g = scenario().display_bonus("B1", "B3", "B7").turn(0)
    play(g, "pass", "bonus B1")
    assert (g.pending_kind(), g.current_seat()) == (Kind.MAIN, 1)
