"""Round bonus tiles B1-B10 (R138, OP-10, OP-41, OP-55): income, Phase II effects, specials, pass.

Every position is 3 players: seat 0 Inventors on Desert, seat 1 Monks on Lake, seat 2 Psychics
on Forest (factions without in-game effects, so only the tile under test changes the numbers).
Desert starts with 15 coins, 3 tools, bowls 5/7/0 and sailing 0.  Round tile T10 (innovation)
is used unless a test needs another one: nothing in these tests develops an innovation, and
with Law 0 its science bonus pays nothing.
"""

from __future__ import annotations

import pytest

from aoi_env.core import effects
from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.rules import scoring, terrain
from aoi_env.core.state import (
    G_BONUS_COINS,
    G_PHASE,
    G_ROUND,
    H_BUILDING,
    P_BONUS,
    P_BOOKS,
    P_BOWLS,
    P_BRIDGES,
    P_COINS,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data.enums import Building
from aoi_env.testing import Scenario, play

GAME = "aoi(players=3)"
FACTIONS = ["inventors", "monks", "psychics"]
BOARDS = ["desert", "lake", "forest"]
BONUS_IDS = [f"B{i}" for i in range(1, 11)]
LAW = P_BOOKS.start + 1


def position(
    *,
    held: tuple[str, str, str] = ("B9", "B10", "B3"),
    display: tuple[str, ...] = ("B4", "B7", "B8"),
    tile: str = "T10",
    rnd: int = 1,
    final: str | None = None,
) -> Scenario:
    """Seat k holds ``held[k]``; exactly ``display`` lies next to the board, without coins."""
    sc = Scenario(GAME, factions=FACTIONS, boards=BOARDS).round(rnd, tile=tile, final=final)
    return sc.bonus_tiles(held, display, coins=0)


def finish_round(g: Game, *takes: str) -> Game:
    """Every seat in turn order passes and takes the given display tile."""
    for b in takes:
        play(g, "pass", f"bonus {b}")
    return g


# ------------------------------------------------------------------------------------------
# income (Phase I of the round the tile is held for)

PLAIN = ["B1", "B2", "B3", "B4", "B7", "B8", "B9", "B10"]  # tiles whose income needs no choice
INCOME = {
    "B1": {},
    "B2": {"scholars": 1},
    "B3": {"power": 3},
    "B4": {"tools": 1},
    "B5": {"books": 1},
    "B6": {"books": 1},
    "B7": {"tools": 2},
    "B8": {"coins": 4},
    "B9": {"power": 4, "coins": 2},
    "B10": {"coins": 6},
}


@pytest.mark.parametrize("bonus", BONUS_IDS)
def test_r138_income_of_the_tile_taken_at_pass_is_paid_next_phase_i(bonus: str) -> None:
    """R138: a tile's income is collected in Phase I of the round for which you hold it, i.e.
    the tile taken when passing pays in the next round; the returned tile pays nothing."""
    others = [b for b in PLAIN if b != bonus]
    g = position(held=(others[0], others[1], others[2]), display=(bonus, others[3], others[4])).turn(0)
    finish_round(g, bonus, others[3], others[4])
    if bonus in ("B5", "B6"):  # 1 book of choice
        assert g.pending_kind() == Kind.CHOOSE_BOOKS
        play(g, "book law")
    assert (g.state.glob[G_PHASE], g.pending_kind(), g.current_seat()) == (Phase.ACTIONS, Kind.MAIN, 0)
    inc = INCOME[bonus]
    p = g.state.players[0]
    assert p[P_BONUS] == BONUS_IDS.index(bonus)
    assert p[P_COINS] == 15 + inc.get("coins", 0)  # coins: start 15 + tile
    assert p[P_TOOLS] == 3 + 1 + inc.get("tools", 0)  # tools: start 3 + 1 base income + tile
    assert p[P_SCHOLARS] == inc.get("scholars", 0)  # scholars come out of the personal supply of 7
    assert p[P_SCHOLAR_SUPPLY] == 7 - inc.get("scholars", 0)
    assert p[LAW] == inc.get("books", 0)
    gained = inc.get("power", 0)  # a power gain moves tokens I -> II first (R30)
    assert list(p[P_BOWLS]) == [5 - gained, 7 + gained, 0]


def test_op10_bonus_tiles_pair_income_and_effect_as_in_r138() -> None:
    """OP-10: the tiles are anonymous in the text; the income / effect pairs follow the pictures
    (R138): B1 reach + river Workshops, B2 scholar, B3 Guilds, B4 pass, B5-B7 specials, B8 pass."""
    tab = Game(GAME).tab
    pairs = {
        b: (tab.bonus_income[i], set(tab.bonus_events[i]), tab.bonus_special[i], tab.bonus_pass[i], tab.bonus_reach[i])
        for i, b in enumerate(BONUS_IDS)
    }
    assert pairs["B1"] == ({}, {"build_workshop_river"}, {}, {}, 1)
    assert pairs["B2"] == ({"scholars": 1}, {"send_scholar"}, {}, {}, 0)
    assert pairs["B3"] == ({"power": 3}, {"build_guild"}, {}, {}, 0)
    assert pairs["B4"] == ({"tools": 1}, set(), {}, {"vp_per": {"palace": 4, "university": 4}}, 0)
    assert pairs["B5"] == ({"books": 1}, set(), {"tb": 1}, {}, 0)
    assert pairs["B6"] == ({"books": 1}, set(), {"bridge": 1}, {}, 0)
    assert pairs["B7"] == ({"tools": 2}, set(), {"steps_any": 1}, {}, 0)
    assert pairs["B8"] == ({"coins": 4}, set(), {}, {"steps_per": {"school": 1}}, 0)
    assert pairs["B9"] == ({"power": 4, "coins": 2}, set(), {}, {}, 0)
    assert pairs["B10"] == ({"coins": 6}, set(), {}, {}, 0)


def test_r78_tile_taken_at_pass_brings_its_coins() -> None:
    """R78.2 / R80.3: passing takes a display tile together with the coins lying on it."""
    sc = position(display=("B4", "B7", "B8"))
    sc.state().glob[G_BONUS_COINS.start + BONUS_IDS.index("B4")] = 2
    g = sc.turn(0)
    play(g, "pass", "bonus B4")
    assert g.state.players[0, P_COINS] == 15 + 2  # the 2 coins of two untaken rounds
    assert g.state.glob[G_BONUS_COINS.start + BONUS_IDS.index("B4")] == 0


# ------------------------------------------------------------------------------------------
# B1: river Workshops and +1 reach (OP-41)


def test_r138_b1_workshop_next_to_a_river_scores_2vp() -> None:
    """R138 B1: +2 VP for each Workshop you build adjacent to a river hex."""
    g = position(held=("B1", "B10", "B3")).build(0, "r1c4", "workshop").terrain("r2c4", "desert").turn(0)
    play(g, "build", "target r2c4")  # r2c4 touches the river hexes r2c3 / r3c3; already Desert
    p = g.state.players[0]
    assert p[P_VP] == 20 + 2  # B1
    assert (p[P_COINS], p[P_TOOLS]) == (15 - 2, 3 - 1)  # Workshop: 2 coins + 1 tool


def test_r138_b1_workshop_away_from_rivers_scores_nothing() -> None:
    """R138 B1: only a Workshop adjacent to a river hex scores; r1c5 touches none."""
    g = position(held=("B1", "B10", "B3")).build(0, "r1c4", "workshop").terrain("r1c5", "desert").turn(0)
    play(g, "build", "target r1c5")
    assert g.state.players[0, P_VP] == 20  # no river next to r1c5: no B1 VP


def test_r138_b1_reach_plus_one_without_moving_the_sailing_marker() -> None:
    """R138 B1 / R39: while you hold B1 your sailing value is +1 (the marker does not move):
    with sailing 0, r2c2 across one river hex from r1c3 becomes a TB target."""
    without = position(held=("B9", "B10", "B3")).build(0, "r1c3", "workshop").set(0, tools=10).turn(0)
    play(without, "build")
    assert "target r2c2" not in without.legal_moves()  # sailing 0: only direct neighbours
    g = position(held=("B1", "B10", "B3")).build(0, "r1c3", "workshop").set(0, tools=10).turn(0)
    play(g, "build")
    assert "target r2c2" in g.legal_moves()  # sailing 0 + 1 (B1) crosses the river hex r1c2/r2c3
    play(g, "target r2c2", "spades 2", "workshop")  # Swamp -> Desert: 2 spades
    p = g.state.players[0]
    assert p[P_VP] == 20 + 2  # B1: r2c2 is next to a river
    assert p[P_TOOLS] == 10 - 2 * 3 - 1  # 2 spades at 3 tools + 1 tool for the Workshop
    assert terrain.sailing(g, 0) == 1
    assert p[P_SAILING] == 0  # the track marker did not move


def test_op41_b1_reach_bonus_applies_above_sailing_3() -> None:
    """OP-41: B1's +1 applies even on top of a maxed sailing track (effective sailing 4):
    r3c5 is four river hexes from r1c3."""
    without = position(held=("B9", "B10", "B3")).build(0, "r1c3", "workshop").set(0, sailing=3).turn(0)
    play(without, "build")
    assert "target r3c5" not in without.legal_moves()  # sailing 3 is not enough
    g = position(held=("B1", "B10", "B3")).build(0, "r1c3", "workshop").set(0, sailing=3).turn(0)
    assert terrain.sailing(g, 0) == 4  # 3 (track maximum) + 1 (B1)
    play(g, "build")
    assert "target r3c5" in g.legal_moves()


def test_r78_r80_b1_taken_at_pass_is_face_down_for_the_rest_of_phase_ii() -> None:
    """R78.2 ([UA] "place it face down in front of you, showing you have left the round"), R138:
    the tile taken at pass acts from the next round; while the others still play, B1 gives its
    passed holder neither +1 reach nor the river-Workshop VP; R80.4 turns it face up for the next
    round."""
    g = position(display=("B1", "B7", "B8")).build(0, "r1c3", "workshop").turn(0)
    play(g, "pass", "bonus B1")
    assert g.state.players[0, P_BONUS] == BONUS_IDS.index("B1") and g.current_seat() == 1
    assert terrain.sailing(g, 0) == 0
    assert effects.listeners(g, 0, "build_workshop_river") == []
    play(g, "pass", "bonus B7", "pass", "bonus B8")  # R80.4: Phase III turns the tiles face up
    # Phases III and I of this position ask nobody anything: the next decision is round 2's first
    assert (g.pending_kind(), g.state.glob[G_PHASE], g.state.glob[G_ROUND], g.current_seat()) == (
        Kind.MAIN,
        Phase.ACTIONS,
        2,
        0,
    )  # seat 0 passed first
    assert terrain.sailing(g, 0) == 1
    assert effects.listeners(g, 0, "build_workshop_river") != []


def test_op41_b1_reach_bonus_does_not_apply_to_phase_iii_spades() -> None:
    """OP-41 / R81: B1's +1 is a Phase II ability; Phase III spades (T6 science bonus) use the
    track value, even for a player who took B1 when passing."""
    sc = position(held=("B9", "B10", "B3"), display=("B1", "B7", "B8"), tile="T6")
    g = sc.build(0, "r1c3", "workshop").set(0, science=(0, 0, 4, 0)).turn(0)
    finish_round(g, "B1", "B7", "B8")
    assert (g.pending_kind(), g.current_seat()) == (Kind.SPADES, 0)  # T6: 1 spade per 4 Engineering
    assert g.state.players[0, P_BONUS] == BONUS_IDS.index("B1")
    assert "spade r2c2" not in g.legal_moves()  # would need sailing 1
    assert "spade r1c4" in g.legal_moves()  # a direct neighbour (Lake) is fine


def test_r138_b1_held_in_round_6_does_not_count_at_final_scoring() -> None:
    """R138 B1 / R83: holding B1 in round 6 gives +1 reach in Phase II, but not at final area
    scoring: r1c3 and r2c2 (one river hex apart, sailing 0) are two separate groups of 1."""
    sc = position(held=("B1", "B10", "B3"), rnd=6, tile="T10", final="F2")
    sc.build(0, "r1c3", "workshop").build(0, "r2c2", "workshop")
    sc.build(1, "r7c5", "workshop").build(1, "r8c5", "workshop")  # seat 1: one group of 2
    g = sc.turn(0)
    assert terrain.sailing(g, 0) == 1  # Phase II of round 6: B1 still applies
    play(g, "pass", "pass", "pass")  # round 6: no new tile (R78)
    assert g.is_over()
    assert scoring.largest_area(g, 0) == 1  # final sailing 0: r1c3 and r2c2 are not connected
    # seat 0: 20 + 12 (2nd largest area) + 4 (15 C + 3 T + 7 // 2 bowl II = 21 coins -> 4 VP)
    assert g.state.players[0, P_VP] == 20 + 12 + 4
    # seat 1 (Lake, same resources): 20 + 18 (largest area, 2 buildings) + 4
    assert g.state.players[1, P_VP] == 20 + 18 + 4


# ------------------------------------------------------------------------------------------
# B2: sending scholars


@pytest.mark.parametrize("move", ["scholar banking 3", "scholar banking 2", "scholar banking return"])
def test_r138_b2_each_scholar_sent_scores_2vp(move: str) -> None:
    """R138 B2 / R74: +2 VP each time you send a scholar, including returning one for 1 step."""
    g = position(held=("B2", "B10", "B3")).set(0, scholars=1, scholar_supply=6).turn(0)
    play(g, move)
    steps = {"3": 3, "2": 2, "return": 1}[move.split()[-1]]
    p = g.state.players[0]
    assert p[P_VP] == 20 + 2  # B2
    assert p[P_SCIENCE.start] == steps  # banking steps of the space (3 / 2) or 1 for returning
    # reaching Banking 3 pays 1 power (R49): one token I -> II
    assert list(p[P_BOWLS]) == ([4, 8, 0] if steps == 3 else [5, 7, 0])


def test_op55_b2_scores_even_when_the_steps_are_lost() -> None:
    """OP-55: a scholar may be sent to a track stuck at 7 (no key); the steps are lost but B2
    still scores, because the scholar was sent."""
    g = position(held=("B2", "B10", "B3")).set(0, scholars=1, scholar_supply=6, science=(7, 0, 0, 0)).turn(0)
    play(g, "scholar banking 3")
    p = g.state.players[0]
    assert p[P_SCIENCE.start] == 7  # no key: every step above 7 is lost (R50)
    assert p[P_VP] == 20 + 2  # B2 still scores


# ------------------------------------------------------------------------------------------
# B3: Guilds


def test_r138_b3_each_guild_built_scores_3vp() -> None:
    """R138 B3: +3 VP for each Guild you build."""
    g = position(held=("B3", "B10", "B9")).build(0, "r1c4", "workshop").turn(0)
    play(g, "upgrade guild", "upgrade r1c4")
    p = g.state.players[0]
    assert p[P_VP] == 20 + 3  # B3
    assert (p[P_COINS], p[P_TOOLS]) == (15 - 6, 3 - 2)  # Guild: 6 coins (no other player adjacent) + 2 tools


# ------------------------------------------------------------------------------------------
# B4 and B8: pass effects


def test_r138_b4_pass_scores_4vp_per_palace_and_university() -> None:
    """R138 B4: when passing, 4 VP per University and per Palace on the map; a neutral
    University counts as a University (R46.2)."""
    sc = position(held=("B4", "B10", "B9"), display=("B3", "B7", "B8"))
    sc.build(0, "r1c4", "palace").palace_tile(0, 17).build(0, "r1c5", "university")
    sc.build(0, "r2c5", "university", neutral=True).build(0, "r0c4", "workshop")
    g = sc.turn(0)
    play(g, "pass")
    assert g.state.players[0, P_VP] == 20 + 4 * 3  # Palace + University + neutral University
    assert g.pending_kind() == Kind.PASS_BONUS  # then the new tile (R78.2)


def test_r138_b4_pass_effect_also_applies_in_round_6() -> None:
    """R78: in round 6 only step 1 of passing (the pass effects) is carried out: B4 still scores
    but no new tile is taken."""
    sc = position(held=("B4", "B10", "B9"), display=("B3", "B7", "B8"), rnd=6, final="F2")
    g = sc.build(0, "r1c4", "palace").palace_tile(0, 17).turn(0)
    play(g, "pass")
    assert g.state.players[0, P_VP] == 20 + 4  # one Palace
    assert g.state.players[0, P_BONUS] == BONUS_IDS.index("B4")  # kept: no exchange in round 6
    assert g.current_seat() == 1 and g.pending_kind() == Kind.MAIN


def test_r138_b8_pass_gives_one_step_per_school() -> None:
    """R138 B8: when passing, 1 step per School on the map, same or different disciplines."""
    sc = position(held=("B8", "B10", "B9"), display=("B3", "B4", "B7"))
    g = sc.build(0, "r1c4", "school").build(0, "r1c5", "school").turn(0)
    play(g, "pass")
    assert g.pending_kind() == Kind.STEPS_ANY  # 2 Schools -> 2 steps, placed one by one
    play(g, "step law", "step medicine")
    p = g.state.players[0]
    assert list(p[P_SCIENCE]) == [0, 1, 0, 1]
    assert g.pending_kind() == Kind.PASS_BONUS  # the steps come before the new tile


def test_r138_b8_without_schools_passing_gives_nothing() -> None:
    """R138 B8: 0 Schools -> 0 steps; the pass goes straight to taking a new tile."""
    g = position(held=("B8", "B10", "B9"), display=("B3", "B4", "B7")).build(0, "r1c4", "guild").turn(0)
    play(g, "pass")
    assert g.pending_kind() == Kind.PASS_BONUS
    assert list(g.state.players[0, P_SCIENCE]) == [0, 0, 0, 0]


# ------------------------------------------------------------------------------------------
# B5, B6, B7: special actions


def test_r138_b5_special_tb_with_one_free_spade_and_bought_spades() -> None:
    """R138 B5: special action, a TB with 1 free spade; missing spades may be bought (R63.1)."""
    g = position(held=("B5", "B10", "B9")).build(0, "r1c4", "workshop").set(0, tools=10).turn(0)
    play(g, "special bonus", "target r1c5")  # Forest -> Desert: 3 spades
    assert g.legal_moves() == ["spades 1", "spades 2", "spades 3"]
    play(g, "spades 3", "workshop")
    p = g.state.players[0]
    assert p[P_TOOLS] == 10 - 2 * 3 - 1  # 1 free spade + 2 bought at 3 tools, + 1 tool for the Workshop
    assert p[P_COINS] == 15 - 2  # Workshop coins
    assert p[P_BOWLS][2] == 0  # a special action costs nothing


def test_op35_b5_special_may_just_build_on_a_native_hex() -> None:
    """OP-35: the bonus TB may be used only to build a Workshop on an already native hex; the
    free spade is forfeited and the Workshop is paid normally."""
    g = position(held=("B5", "B10", "B9")).build(0, "r1c4", "workshop").terrain("r1c5", "desert").turn(0)
    play(g, "special bonus", "target r1c5")
    p = g.state.players[0]
    assert g.state.hexes[parse_hex("r1c5"), H_BUILDING] == Building.WORKSHOP
    assert (p[P_TOOLS], p[P_COINS]) == (3 - 1, 15 - 2)


def test_r138_b6_special_builds_a_bridge_for_free() -> None:
    """R138 B6: special action, build a bridge for free as with the spell S1: a printed bridge
    location with an own building at one end (R40)."""
    g = position(held=("B6", "B10", "B9")).build(0, "r1c3", "workshop").turn(0)
    play(g, "special bonus")
    assert g.legal_moves() == ["bridge r1c3", "bridge r2c2"]  # the one printed spot at r1c3
    play(g, "bridge r1c3", "bridge to r2c2")
    p = g.state.players[0]
    assert p[P_BOWLS][2] == 0 and list(p[P_BOWLS]) == [5, 7, 0]  # no power spent
    assert [tuple(b) for b in g.state.built_bridges()] == [(parse_hex("r1c3"), parse_hex("r2c2"))]
    assert p[P_BRIDGES] == 1


def test_op33_b6_bridge_can_complete_a_city() -> None:
    """R43 / OP-33: a bridge makes its hexes adjacent and may complete a city: Guilds on r0c4,
    r1c4, r1c3 (power 6) + the Workshop on r2c2 across the river = 4 buildings, power 7."""
    sc = position(held=("B6", "B10", "B9"))
    for x in ("r0c4", "r1c4", "r1c3"):
        sc.build(0, x, "guild")
    g = sc.build(0, "r2c2", "workshop").turn(0)
    play(g, "special bonus", "bridge r1c3", "bridge to r2c2")
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K1")
    assert g.state.players[0, P_VP] == 20 + 4


def test_op58_b6_special_needs_a_bridge_location() -> None:
    """OP-58: the bridge special is not offered when no printed location touches an own building
    (r1c4 is at no bridge location)."""
    g = position(held=("B6", "B10", "B9")).build(0, "r1c4", "workshop").turn(0)
    assert "special bonus" not in g.legal_moves()


def test_r138_b7_special_gives_one_step() -> None:
    """R138 B7: special action, advance 1 step in a discipline of choice."""
    g = position(held=("B7", "B10", "B9"), display=("B3", "B4", "B8")).turn(0)
    play(g, "special bonus")
    assert g.legal_moves() == ["step banking", "step law", "step engineering", "step medicine"]
    play(g, "step engineering")
    assert list(g.state.players[0, P_SCIENCE]) == [0, 0, 1, 0]


@pytest.mark.parametrize(("bonus", "moves"), [
    ("B5", ["special bonus", "target r1c5", "spades 3", "workshop", "done"]),
    ("B6", ["special bonus", "bridge r2c9", "bridge to r3c7", "done"]),
    ("B7", ["special bonus", "step law", "done"]),
])  # fmt: skip
def test_r138_bonus_special_actions_once_per_round(bonus: str, moves: list[str]) -> None:
    """R138 / R76: a bonus tile's special action is usable once per round (covered with an X);
    R80.2 removes the X in Phase III, so the next holder may use it the next round."""
    sc = position(held=(bonus, "B10", "B9"), display=("B3", "B4", "B8"))
    sc.build(0, "r1c4", "workshop").build(0, "r2c9", "workshop").set(0, tools=10)
    g = sc.turn(0)
    play(g, *moves)
    play(g, "pass", "bonus B3", "pass", "bonus B4")  # seats 1 and 2
    assert g.current_seat() == 0
    assert "special bonus" not in g.legal_moves()  # X token: not again this round


def test_r80_bonus_special_usable_again_after_the_round() -> None:
    """R80.2: X tokens are removed from round bonus tiles in Phase III; a player holding B7 at
    the start of the next round can use the special again."""
    sc = position(held=("B7", "B10", "B9"), display=("B3", "B4", "B8"))
    g = sc.turn(0)
    play(g, "special bonus", "step law", "done", "pass", "bonus B3", "pass", "bonus B4")
    play(g, "pass", "bonus B8")  # seat 0 returns B7
    # round 2: seat 1 (passed first) takes B7, seat 2 passes, seat 0 passes, then round 3
    play(g, "pass", "bonus B7", "pass", "bonus B9", "pass", "bonus B10")
    # round 3 order: 1, 2, 0; seat 1 holds B7 from the start of round 3
    assert g.current_seat() == 1 and g.state.players[1, P_BONUS] == BONUS_IDS.index("B7")
    assert "special bonus" in g.legal_moves()
    play(g, "special bonus", "step medicine")
    assert g.state.players[1, P_SCIENCE.start + 3] == 1
