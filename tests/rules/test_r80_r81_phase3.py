"""RULES.md §4.3: Phase III, science bonus and preparation (R80, R81, R143, OP-36, OP-61).

Most tests end round 1 by passing: seat 1 passes first, then seat 2, then seat 0, so the next
round's order (and the Phase III order) is 1, 2, 0.
"""

from __future__ import annotations

from aoi_env.core.board import parse_hex
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_BONUS_COINS,
    G_BOOK_ACTIONS,
    G_BOOKS_USED,
    G_PHASE,
    G_ROUND,
    G_SPELLS_USED,
    H_BUILDING,
    H_TERRAIN,
    P_BOWLS,
    P_COINS,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SPECIALS_USED,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data.enums import Terrain
from aoi_env.testing import Scenario, play


def scenario(tile: str, factions: list[str] | None = None) -> Scenario:
    s = Scenario(
        "aoi(players=3)", factions=factions or ["felines", "navigators", "monks"], boards=["desert", "lake", "forest"]
    )
    for seat, bonus in enumerate(("B10", "B9", "B8")):
        s.bonus(seat, bonus)
    s.round(1, tile=tile)
    s.display_bonus("B1", "B3", "B7")  # no income choices in round 2
    s.state().glob[G_BONUS_COINS] = 0
    return s


def pass_all(g) -> None:  # noqa: ANN001
    """From seat 1 to act: seat 1, seat 2, then seat 0 pass (tiles B1, B3, B7)."""
    play(g, "pass", "bonus B1")
    play(g, "pass", "bonus B3")
    play(g, "pass", "bonus B7")


def terrain(g, hex_: str) -> str:  # noqa: ANN001
    return Terrain(int(g.state.hexes[parse_hex(hex_), H_TERRAIN])).name.lower()


# --------------------------------------------------------------------------------------------
# R80.1 science bonus


def test_r80_1_bonus_is_reward_times_full_multiples_of_the_threshold() -> None:
    """R80.1 / R143: the science bonus is reward x floor(level / threshold) (T3: 4 power per 3
    Banking; Banking 8 -> 2 x 4 = 8 power)."""
    s = scenario("T3")
    s.set(0, science=(8, 0, 0, 0), bowls=(12, 0, 0))
    s.set(1, science=(2, 0, 0, 0), bowls=(12, 0, 0))  # below the threshold: nothing
    g = s.turn(1)
    pass_all(g)
    assert int(g.state.glob[G_ROUND]) == 2
    assert tuple(g.state.players[0, P_BOWLS]) == (12 - 8, 8, 0)
    assert tuple(g.state.players[1, P_BOWLS]) == (12, 0, 0)  # Banking 2 < 3; B1 has no income


def test_r80_1_blessed_count_three_levels_higher() -> None:
    """R80.1 / R89: the Blessed count their level as 3 higher (Law 6 -> 9: 3 scholars for T1)."""
    s = scenario("T1", factions=["blessed", "navigators", "monks"])
    s.set(0, science=(0, 6, 0, 0))
    g = s.turn(1)
    pass_all(g)
    assert g.state.players[0, P_SCHOLARS] == 3


def test_r80_1_scholars_limited_by_the_personal_supply() -> None:
    """R143: scholars of the science bonus come from the personal supply (at most what is left)."""
    s = scenario("T1")
    s.set(0, science=(0, 9, 0, 0), scholars=5, scholar_supply=2)
    g = s.turn(1)
    pass_all(g)
    assert (g.state.players[0, P_SCHOLARS], g.state.players[0, P_SCHOLAR_SUPPLY]) == (7, 0)  # 3 due, 2 left


def test_r80_1_resolved_in_next_round_order() -> None:
    """R80.1 / R81: the science bonus (here spades, T6: 1 per 4 Engineering) is resolved in the
    next round's turn order, i.e. the passing order: seat 1 decides before seat 0."""
    s = scenario("T6")
    s.build(0, "r7c6", "workshop").set(0, science=(0, 0, 8, 0))
    s.build(1, "r8c8", "workshop").set(1, science=(0, 0, 4, 0))
    g = s.turn(1)
    play(g, "pass", "bonus B1", "pass", "bonus B3", "pass", "bonus B7")
    assert int(g.state.glob[G_PHASE]) == Phase.SCIENCE
    assert g.pending_kind() == Kind.SPADES and g.current_seat() == 1  # first to pass, first to dig
    play(g, "spade r7c7")  # Lake player: Wasteland -> Mountain (toward Lake)
    assert terrain(g, "r7c7") == "mountain"
    assert g.current_seat() == 0  # seat 2 has no Engineering; then seat 0 with 2 spades
    assert "spade r7c7" in g.legal_moves()


# --------------------------------------------------------------------------------------------
# R81 spades in Phase III


def test_r81_spades_split_over_hexes_without_completing_the_first() -> None:
    """R81 / OP-36: Phase III spades go one step at a time onto unbuilt non-native hexes in reach,
    over one or more hexes; a hex need not be made native first."""
    s = scenario("T6")
    s.build(0, "r7c6", "workshop").set(0, science=(0, 0, 8, 0), tools=5)
    g = s.turn(1)
    pass_all(g)
    assert g.current_seat() == 0 and g.pending_kind() == Kind.SPADES
    play(g, "spade r7c5")  # Swamp -> Plains: not native yet
    assert g.pending_kind() == Kind.SPADES
    play(g, "spade r8c7")  # Lake -> Swamp
    assert (terrain(g, "r7c5"), terrain(g, "r8c7")) == ("plains", "swamp")
    assert int(g.state.glob[G_ROUND]) == 2  # both spades used: Phase III went on


def test_r81_no_buying_no_workshop() -> None:
    """R81: no spades may be bought and no Workshop built in Phase III: the choices are only hexes
    and 'done', and tools stay untouched."""
    s = scenario("T6")
    s.build(0, "r7c6", "workshop").set(0, science=(0, 0, 4, 0), tools=9)
    g = s.turn(1)
    pass_all(g)
    moves = g.legal_moves()
    assert moves == ["spade r6c6", "spade r7c5", "spade r7c7", "spade r8c6", "spade r8c7", "done"]
    play(g, "spade r6c6")  # Plains -> Desert: native, but no Workshop
    assert terrain(g, "r6c6") == "desert"
    # no tool was spent; round 2 income: base 1 + Workshop space 1 + B7 2
    assert g.state.players[0, P_TOOLS] == 9 + 1 + 1 + 2
    assert int(g.state.glob[G_ROUND]) == 2


def test_r81_spades_cannot_be_kept() -> None:
    """R81: unused spades are lost ('done' ends them; the next round starts)."""
    s = scenario("T6")
    s.build(0, "r7c6", "workshop").set(0, science=(0, 0, 8, 0))
    g = s.turn(1)
    pass_all(g)
    play(g, "spade r6c6", "done")
    assert int(g.state.glob[G_ROUND]) == 2 and int(g.state.glob[G_PHASE]) == Phase.ACTIONS
    assert terrain(g, "r7c5") == "swamp"


def test_op36_goblins_get_coins_for_phase_iii_spades() -> None:
    """OP-36: Phase III spades go on hexes in reach only (the Moles' case below shows no tunnel);
    the Goblins still get 2 coins per spade."""
    s = scenario("T6", factions=["goblins", "navigators", "moles"])
    s.build(0, "r7c6", "workshop").set(0, science=(0, 0, 4, 0))
    g = s.turn(1)
    pass_all(g)
    assert g.legal_moves() == ["spade r6c6", "spade r7c5", "spade r7c7", "spade r8c6", "spade r8c7", "done"]
    play(g, "spade r7c5")
    assert g.state.players[0, P_COINS] == 15 + 2  # Goblins: 2 coins per spade


def test_op36_moles_get_no_tunnel_in_phase_iii() -> None:
    """OP-36: the Moles cannot tunnel with Phase III spades."""
    s = scenario("T6", factions=["moles", "navigators", "monks"])
    s.build(0, "r7c6", "workshop").set(0, science=(0, 0, 4, 0))
    g = s.turn(1)
    pass_all(g)
    assert g.legal_moves() == ["spade r6c6", "spade r7c5", "spade r7c7", "spade r8c6", "spade r8c7", "done"]


def test_op36_spade_round_tile_does_not_score_in_phase_iii() -> None:
    """OP-36 / OP-57: the spade round-scoring tile (T2) scores only in Phase II."""
    s = scenario("T2")
    s.build(0, "r7c6", "workshop")
    g = s.decide(Kind.SPADES, 0, 1, phase=Phase.SCIENCE)
    play(g, "spade r7c7")
    assert g.state.players[0, P_VP] == 20


# --------------------------------------------------------------------------------------------
# R80.2 - R80.3 preparation


def test_r80_2_all_x_tokens_are_removed() -> None:
    """R80.2 / OP-61: X tokens leave the spells, book actions and the special actions of palace,
    innovation, competency, round bonus and faction tiles."""
    s = scenario("T10", factions=["philosophers", "navigators", "monks"])
    s.state().glob[G_BOOK_ACTIONS] = [0, 1, 3]
    s.build(0, "r7c6", "palace").palace_tile(0, 1).innovation(0, "professors").competency(0, "C7")
    s.bonus(0, "B5").display_bonus("B1", "B3", "B7")
    s.set(0, bowls=(4, 0, 8), books=(2, 0, 0, 0))
    g = s.turn(1)
    play(g, "pass", "bonus B1", "pass", "bonus B3")  # seats 1 and 2 pass; seat 0 acts alone
    for move in ("spell S5", "book BA2", "special palace", "special professors", "special faction",
                 "special competency", "special bonus"):  # fmt: skip
        play(g, move)
        while g.pending_kind() != Kind.POST:  # the books to pay / gain, the TB target
            play(g, g.legal_moves()[0])
        play(g, "done")
    assert g.state.glob[G_SPELLS_USED].sum() == 1 and g.state.glob[G_BOOKS_USED].sum() == 1
    assert bin(int(g.state.players[0, P_SPECIALS_USED])).count("1") == 5
    play(g, "pass", "bonus B7")  # round 1 ends; Phase III removes the X tokens
    assert int(g.state.glob[G_ROUND]) == 2
    assert g.state.glob[G_SPELLS_USED].sum() == 0 and g.state.glob[G_BOOKS_USED].sum() == 0
    assert int(g.state.players[0, P_SPECIALS_USED]) == 0


def test_r80_2_specials_usable_again_next_round() -> None:
    """R80.2: after Phase III the spell and the special action can be used again."""
    s = scenario("T10")
    s.bonus(1, "B7").set(1, bowls=(0, 0, 12))
    g = s.turn(1)
    play(g, "special bonus", "step law", "done")
    play(g, "pass", "bonus B3")  # seat 2
    play(g, "pass", "bonus B1")  # seat 0
    play(g, "spell S5", "done")  # seat 1 again
    play(g, "pass", "bonus B10")  # seat 1 gives back B7 ... and takes B10
    assert int(g.state.glob[G_ROUND]) == 2
    assert g.current_seat() == 2
    assert int(g.state.players[1, P_SPECIALS_USED]) == 0
    play(g, "pass", "bonus B7")  # seat 2 takes B7 in round 2
    play(g, "pass", "bonus B8")  # seat 0
    assert g.current_seat() == 1 and "spell S5" in g.legal_moves()


def test_r80_3_a_coin_on_each_display_tile_and_they_accumulate() -> None:
    """R80.3: a coin goes on each of the 3 round bonus tiles next to the board; a tile nobody took
    for 2 rounds carries 2 coins."""
    s = scenario("T10")
    s.state().glob[G_BONUS_COINS.start + 2] = 1  # B3 already waited one round
    g = s.turn(1)
    play(g, "pass", "bonus B1")  # seat 1 returns B9
    play(g, "pass", "bonus B9")  # seat 2 returns B8
    play(g, "pass", "bonus B8")  # seat 0 returns B10: display B3, B7, B10
    coins = {t: int(g.state.glob[G_BONUS_COINS.start + g.data.bonus_ids.index(t)]) for t in ("B3", "B7", "B10")}
    assert coins == {"B3": 2, "B7": 1, "B10": 1}
    assert int(g.state.glob[G_BONUS_COINS.start + g.data.bonus_ids.index("B1")]) == 0  # held tiles: none


def test_op37_setup_spades_follow_the_phase_iii_rules() -> None:
    """R23 / OP-37: the Desert board's setup spade is used like Phase III spades: one step on an
    unbuilt non-native hex in reach, no spades bought, no Workshop."""
    from aoi_env.core.engine import Game

    g = Game("aoi(players=3,factions=blessed+felines+monks,boards=desert+lake+forest,skip_forced=false)", seed=3)
    while g.pending_kind() != Kind.SPADES:  # the snake placement and the other setup choices
        g.apply_action(g.legal_actions()[0])
    assert int(g.state.glob[G_PHASE]) == Phase.SETUP and g.current_seat() == 0
    moves = g.legal_moves()
    assert moves[-1] == "done" and all(m.startswith("spade ") for m in moves[:-1])
    hex_ = moves[0].split()[1]
    before = Terrain(int(g.state.hexes[parse_hex(hex_), H_TERRAIN]))
    tools = int(g.state.players[0, P_TOOLS])
    play(g, moves[0])
    after = Terrain(int(g.state.hexes[parse_hex(hex_), H_TERRAIN]))
    assert after != before  # one step toward Desert
    assert int(g.state.players[0, P_TOOLS]) == tools  # nothing bought
    assert g.pending_kind() != Kind.SPADES  # the single spade is used up, nothing was built
    assert g.state.hexes[parse_hex(hex_), H_BUILDING] == 0  # still empty
