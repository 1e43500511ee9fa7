"""Competencies C1-C12 (R141, R53, R57, R23, OP-10, OP-20, OP-37, OP-38, OP-50).

Every position is 3 players: seat 0 Inventors on Desert (15 coins, 3 tools, bowls 5/7/0,
sailing 0), seat 1 Monks on Lake, seat 2 Psychics on Forest.  A competency is usually taken by
upgrading seat 0's Guild on r1c4 to a School (3 tools + 5 coins, R69); the tested type is put on
a known display space, because the space sets the position reward (R53: top row 3 steps,
middle row 2 steps + 1 book, bottom row 1 step + 2 books, all in the column's discipline).
"""

from __future__ import annotations

import pytest

from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.rules import scoring
from aoi_env.core.state import (
    G_COMP_SPACES,
    G_PAVILIONS_LEFT,
    G_PHASE,
    G_ROUND_TILES,
    H_BUILDING,
    H_CITY,
    H_NEUTRAL,
    H_OWNER,
    H_PAVILION,
    H_TERRAIN,
    P_BOOKS,
    P_BOWLS,
    P_COINS,
    P_COMPETENCIES,
    P_PAVILIONS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario, play, power_moved

GAME = "aoi(players=3)"
FACTIONS = ["inventors", "monks", "psychics"]
BOARDS = ["desert", "lake", "forest"]
DISC = ("banking", "law", "engineering", "medicine")
BOOKS = P_BOOKS.start


def position(*, tile: str = "T10", rnd: int = 1, final: str | None = None, game: str = GAME) -> Scenario:
    """Neutral bonus tiles (B9 / B10 / B3 held; B1 / B7 / B8 on display, no coins)."""
    sc = Scenario(game, factions=FACTIONS, boards=BOARDS).round(rnd, tile=tile, final=final)
    return sc.bonus_tiles(("B9", "B10", "B3"), ("B1", "B7", "B8"), coins=0)


def on_space(sc: Scenario, comp: str, discipline: str, row: int) -> Scenario:
    """Put competency ``comp`` on the display space of ``discipline``'s column and ``row``."""
    spaces = sc.state().glob[G_COMP_SPACES]
    c = int(comp.lstrip("C")) - 1
    i = int(list(spaces).index(c))
    j = DISC.index(discipline) * 3 + row
    spaces[i], spaces[j] = spaces[j], spaces[i]
    return sc


def school_upgrade(sc: Scenario) -> Game:
    """Seat 0 upgrades its Guild on r1c4 to a School; the competency choice is pending."""
    g = sc.build(0, "r1c4", "guild").turn(0)
    play(g, "upgrade school", "upgrade r1c4")
    assert g.pending_kind() == Kind.CHOOSE_COMPETENCY
    return g


def to_round_2(g: Game) -> Game:
    """Everyone passes in round 1 (seat 0 takes B1, which has no income); round 2 income."""
    play(g, "pass", "bonus B1", "pass", "bonus B7", "pass", "bonus B8")
    return g


# ------------------------------------------------------------------------------------------
# R53: how a competency is taken


@pytest.mark.parametrize(("row", "steps", "books"), [(0, 3, 0), (1, 2, 1), (2, 1, 2)])
def test_r53_position_reward_by_row(row: int, steps: int, books: int) -> None:
    """R53.3 / OP-9: the space sets the reward: top 3 steps, middle 2 steps + 1 book, bottom
    1 step + 2 books, in the column's discipline (here Law; C2 has no immediate effect)."""
    g = school_upgrade(on_space(position(), "C2", "law", row))
    play(g, "competency C2")
    p = g.state.players[0]
    assert p[P_SCIENCE.start + 1] == steps
    assert list(p[P_BOOKS]) == [0, books, 0, 0]
    assert p[P_COMPETENCIES] == 1 << 1
    assert (p[P_TOOLS], p[P_COINS]) == (3 - 3, 15 - 5)  # the School


def test_r53_no_duplicate_competency() -> None:
    """R53.1 / R3: a player may never hold two competencies of the same type."""
    g = school_upgrade(position().competency(0, "C4"))
    assert "competency C4" not in g.legal_moves()
    assert len(g.legal_moves()) == 11


# ------------------------------------------------------------------------------------------
# income competencies: C1, C2, C3, C10


def test_r141_c1_income_tool_and_step_reaching_9_pays_at_once() -> None:
    """R141 C1 / R57 / OP-64: each Phase I, 1 tool + 1 step of choice; if the step reaches level
    9, that track's income (Banking: 3 coins) is collected right away.  Round scoring (T4 in
    round 2) does not score the step: Phase I is not Phase II (R142)."""
    sc = position().competency(0, "C1").set(0, science=(8, 0, 0, 0), cities=1)
    t4 = sc.g.data.round_tile_ids.index("T4")
    sc.state().glob[G_ROUND_TILES.start + 1] = t4
    g = to_round_2(sc.turn(0))
    assert (g.state.glob[G_PHASE], g.pending_kind(), g.current_seat()) == (Phase.INCOME, Kind.STEPS_ANY, 0)
    play(g, "step banking")
    p = g.state.players[0]
    assert p[P_SCIENCE.start] == 9
    assert p[P_COINS] == 15 + 3  # Banking 9+ income, at once
    assert p[P_TOOLS] == 3 + 1 + 1  # base income + C1
    assert p[P_VP] == 20  # T4 scores only in Phase II
    assert g.state.glob[G_PHASE] == Phase.ACTIONS and g.current_seat() == 0


def test_op64_c1_income_step_may_use_a_key_in_phase_i() -> None:
    """R57 / OP-64: C1's Phase I step may trigger a key decision (7 -> 8) at once."""
    sc = position().competency(0, "C1").set(0, science=(0, 7, 0, 0), cities=1)
    g = to_round_2(sc.turn(0))
    play(g, "step law")
    assert (g.pending_kind(), g.state.glob[G_PHASE]) == (Kind.USE_KEY, Phase.INCOME)
    play(g, "key law")
    assert g.state.players[0, P_SCIENCE.start + 1] == 8
    assert g.state.glob[G_PHASE] == Phase.ACTIONS


def test_op64_r52_two_c1_holders_at_11_the_first_in_turn_order_reaches_12() -> None:
    """OP-64 (ASSUMPTION: income resolves at once) meets R52 (level 12 is exclusive): the engine
    resolves Phase I seat by seat in the new round's turn order, so of two C1 holders at Banking
    11 the first to pass (first in round 2) reaches 12 and the other's Banking step is lost."""
    sc = position().competency(0, "C1").competency(2, "C1")
    g = sc.set(0, science=(11, 0, 0, 0), cities=1).set(2, science=(11, 0, 0, 0), cities=1).turn(0)
    play(g, "pass", "bonus B1", "pass", "bonus B7", "pass", "bonus B8")  # round 2 order: 0, 1, 2
    assert (g.pending_kind(), g.current_seat()) == (Kind.STEPS_ANY, 0)
    play(g, "step banking")
    assert (g.pending_kind(), g.current_seat()) == (Kind.STEPS_ANY, 2)
    play(g, "step banking")
    assert g.state.players[0, P_SCIENCE.start] == 12 and g.state.players[2, P_SCIENCE.start] == 11


def test_r141_c1_step_below_9_pays_no_track_income() -> None:
    """R141 C1: a step that does not reach 9 gives only the step."""
    sc = position().competency(0, "C1").set(0, science=(8, 0, 0, 0), cities=1)
    g = to_round_2(sc.turn(0))
    play(g, "step law")
    p = g.state.players[0]
    assert list(p[P_SCIENCE]) == [8, 1, 0, 0]
    assert p[P_COINS] == 15  # no Banking income: Banking is still 8
    assert p[P_TOOLS] == 3 + 1 + 1


@pytest.mark.parametrize(("comp", "income"), [
    ("C2", {"vp": 3, "coins": 2}),
    ("C3", {"books": 1, "power": 1}),
    ("C10", {"power": 2, "coins": 2}),
])  # fmt: skip
def test_r141_competency_income_in_phase_i(comp: str, income: dict[str, int]) -> None:
    """R141 C2 (3 VP + 2 coins), C3 (1 book of choice + 1 power), C10 (2 power + 2 coins):
    collected every Phase I (R57.3)."""
    g = to_round_2(position().competency(0, comp).turn(0))
    if "books" in income:
        play(g, "book medicine")
    assert g.state.glob[G_PHASE] == Phase.ACTIONS and g.current_seat() == 0
    p = g.state.players[0]
    assert p[P_VP] == 20 + income.get("vp", 0)
    assert p[P_COINS] == 15 + income.get("coins", 0)
    assert p[P_TOOLS] == 3 + 1  # base income only
    assert p[BOOKS + 3] == income.get("books", 0)
    gained = income.get("power", 0)
    assert list(p[P_BOWLS]) == [5 - gained, 7 + gained, 0]


def test_op10_the_tower_competency_carries_the_2p_2c_income() -> None:
    """OP-10: [PL] prints the "2 power and 2 coins" income line detached, after the border-hex
    competency; the pictures pair it with the Tower (C10), not with C11."""
    tab = Game(GAME).tab
    assert tab.competency_income[9] == {"power": 2, "coins": 2}  # C10
    assert tab.competency_once[9] == {"neutral": "tower"}
    assert tab.competency_income[10] == {}  # C11: only its border-Workshop VP


def test_op38_c10_income_is_paid_even_without_the_tower() -> None:
    """OP-38: C10's income is paid even if its Tower could not be placed (here: none was)."""
    g = to_round_2(position().competency(0, "C10").turn(0))
    assert g.state.players[0, P_COINS] == 15 + 2
    assert g.state.players[0, P_VP] == 20


# ------------------------------------------------------------------------------------------
# one-time competencies: C4, C5, C6, C10


def test_r141_c4_tool_5vp_and_2_coins() -> None:
    """R141 C4: one-time 1 tool + 5 VP + 2 coins, plus the position reward."""
    g = school_upgrade(on_space(position(), "C4", "banking", 2))
    play(g, "competency C4")
    p = g.state.players[0]
    assert p[P_VP] == 20 + 5
    assert p[P_TOOLS] == 3 - 3 + 1  # School, then C4
    assert p[P_COINS] == 15 - 5 + 2
    assert (p[P_SCIENCE.start], p[BOOKS]) == (1, 2)  # bottom row of Banking: 1 step + 2 books


def test_r141_c5_tb_with_2_free_spades_and_bought_ones() -> None:
    """R141 C5: one-time TB with 2 free spades; missing spades may be bought with tools (R63.1)
    and a Workshop may be built (paid normally)."""
    g = school_upgrade(on_space(position().set(0, tools=10), "C5", "law", 0))
    play(g, "competency C5")
    assert g.pending_kind() == Kind.TB_TARGET
    play(g, "target r1c5")  # Forest -> Desert: 3 spades
    assert g.legal_moves() == ["spades 1", "spades 2", "spades 3"]
    play(g, "spades 3", "workshop")
    p = g.state.players[0]
    assert p[P_TOOLS] == 10 - 3 - 3 - 1  # School, 1 bought spade, Workshop
    assert p[P_COINS] == 15 - 5 - 2
    assert g.state.hexes[parse_hex("r1c5"), H_BUILDING] == Building.WORKSHOP


def _setup_until(g: Game, kind: Kind, seat: int) -> None:
    """Play setup decisions (first legal move) until ``kind`` is pending for ``seat``."""
    while not (g.pending_kind() == kind and g.current_seat() == seat):
        assert g.state.glob[G_PHASE] == Phase.SETUP
        g.apply_action(g.legal_actions()[0])


def test_op37_c5_at_setup_follows_r23() -> None:
    """R141 C5 / R23 / OP-37: taken at setup (Inventors), its 2 spades follow the setup-spade
    rules: used at once, one step per spade on unbuilt hexes in reach, no bought spades and no
    Workshop.  Round 1's spade tile T2 does not score them (setup is not Phase II)."""
    g = Game("aoi(players=3,factions=inventors+monks+psychics,boards=plains+lake+forest,skip_forced=false)", seed=1)
    assert g.data.round_tile_ids[int(g.state.glob[G_ROUND_TILES.start])] == "T2"
    _setup_until(g, Kind.CHOOSE_COMPETENCY, 0)  # Inventors (seat 0, Plains)
    play(g, "competency C5")
    _setup_until(g, Kind.SPADES, 0)
    p = g.state.players[0]
    tools, coins, vp = int(p[P_TOOLS]), int(p[P_COINS]), int(p[P_VP])
    assert all(m.startswith("spade ") or m == "done" for m in g.legal_moves())  # no buying, no Workshop
    play(g, "spade r0c5")  # Wasteland -> Desert: one step toward Plains
    assert g.state.hexes[parse_hex("r0c5"), H_TERRAIN] == Terrain.DESERT
    assert g.pending_kind() == Kind.SPADES  # the second spade, on any hex in reach
    play(g, "spade r0c5")  # Desert -> Plains: native now
    assert g.state.hexes[parse_hex("r0c5"), H_TERRAIN] == Terrain.PLAINS
    assert g.state.hexes[parse_hex("r0c5"), H_BUILDING] == 0  # no Workshop at setup
    assert (int(p[P_TOOLS]), int(p[P_COINS]), int(p[P_VP])) == (tools, coins, vp)  # nothing paid, no T2 VP
    assert g.pending_kind() != Kind.SPADES or g.current_seat() != 0  # both spades used


def test_r141_c6_gives_two_pavilions() -> None:
    """R141 C6: one-time, gain 2 neutral Pavilions (from the 8 in the game, R1)."""
    g = school_upgrade(position())
    play(g, "competency C6")
    assert g.state.players[0, P_PAVILIONS] == 2
    assert g.state.glob[G_PAVILIONS_LEFT] == 8 - 2


def test_r141_c6_pavilion_action_is_not_a_build() -> None:
    """R141 C6 / R77: attaching a Pavilion is an action but not a build: no round-scoring VP
    (T1 scores Workshops built), no power offer to the neighbour."""
    sc = position(tile="T1").competency(0, "C6").set(0, pavilions=2)
    g = sc.build(0, "r1c4", "workshop").build(1, "r1c5", "workshop").turn(0)
    play(g, "pavilion")
    assert g.legal_moves() == ["pavilion r1c4"]  # own buildings without a Pavilion
    play(g, "pavilion r1c4")
    assert g.pending_kind() == Kind.POST  # no offer to seat 1
    p = g.state.players[0]
    assert p[P_VP] == 20
    assert p[P_PAVILIONS] == 1
    assert g.state.hexes[parse_hex("r1c4"), H_PAVILION] == 1


def test_op50_c6_pavilion_adds_1_to_offers_from_other_players_builds() -> None:
    """R41 / R141 C6 / OP-50: the Pavilion's +1 power value counts when another player builds
    next to the building: seat 1's Workshop on r1c5 offers seat 0 1 + 1 = 2 power."""
    sc = position().build(0, "r1c4", "workshop").pavilion("r1c4").build(1, "r2c5", "workshop")
    g = sc.terrain("r1c5", "lake").turn(1)
    play(g, "build", "target r1c5")
    assert (g.pending_kind(), g.current_seat()) == (Kind.OFFER, 0)
    before = g.clone()
    play(g, "leech accept")
    assert power_moved(before, g, seat=0) == 2  # Workshop 1 + Pavilion 1
    assert g.state.players[0, P_VP] == 20 - 1  # 2 power cost 2 - 1 VP (R42.3)


def test_op50_c6_pavilion_completes_a_city() -> None:
    """R43 / R141 C6 / OP-50: a Pavilion counts as a second building and +1 power, and placing
    it can complete a city: 3 Guilds (3 buildings, power 6) + Pavilion = 4 buildings, power 7."""
    sc = position().competency(0, "C6").set(0, pavilions=1)
    for x in ("r0c4", "r0c5", "r1c4"):
        sc.build(0, x, "guild")
    g = sc.turn(0)
    play(g, "pavilion", "pavilion r0c5")
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K5")
    assert g.state.players[0, P_VP] == 20 + 6  # K5
    assert all(g.state.hexes[parse_hex(x), H_CITY] for x in ("r0c4", "r0c5", "r1c4"))


def test_op50_c6_pavilion_on_a_neutral_building_once_per_building_and_kept_on_upgrade() -> None:
    """OP-50: neutral buildings qualify; at most 1 Pavilion per building; it stays with the hex
    when the building is upgraded."""
    sc = position().competency(0, "C6").set(0, pavilions=2)
    sc.build(0, "r1c4", "workshop").pavilion("r1c4").build(0, "r1c5", "tower", neutral=True)
    g = sc.turn(0)
    play(g, "pavilion")
    assert g.legal_moves() == ["pavilion r1c5"]  # r1c4 already has one; the Tower qualifies
    play(g, "pavilion r1c5", "done", "pass", "bonus B7", "pass", "bonus B8")
    play(g, "upgrade guild", "upgrade r1c4")  # seat 0's next turn
    assert g.state.hexes[parse_hex("r1c4"), H_BUILDING] == Building.GUILD
    assert g.state.hexes[parse_hex("r1c4"), H_PAVILION] == 1  # kept
    assert g.state.hexes[parse_hex("r1c5"), H_NEUTRAL] == 1 and g.state.hexes[parse_hex("r1c5"), H_PAVILION] == 1


def test_op20_c6_pavilion_is_not_a_building_for_area_scoring() -> None:
    """OP-20 / R83: a Pavilion is not a building for any other purpose: seat 0's Workshop with a
    Pavilion is a group of 1 at final area scoring, behind seat 1's group of 2."""
    sc = position(rnd=6, final="F2").build(0, "r1c4", "workshop").pavilion("r1c4")
    g = sc.build(1, "r7c5", "workshop").build(1, "r8c5", "workshop").turn(0)
    play(g, "pass", "pass", "pass")
    assert g.is_over()
    assert scoring.largest_area(g, 0) == 1
    # 20 + 12 (2nd area) + 4 (15 C + 3 T + 7 // 2 = 21 coins); seat 1: 20 + 18 + 4
    assert list(g.state.players[:2, P_VP]) == [20 + 12 + 4, 20 + 18 + 4]


def test_r141_c10_neutral_tower_is_placed_in_reach_and_is_a_build() -> None:
    """R141 C10 / R46: one-time neutral Tower: placed at once on an empty hex in reach, a
    non-native hex terraformed with tools only; it is a build (power offers)."""
    sc = position().set(0, tools=12).build(1, "r2c6", "workshop")
    g = school_upgrade(on_space(sc, "C10", "medicine", 0))
    play(g, "competency C10")
    assert g.pending_kind() == Kind.NEUTRAL_PLACE
    assert "neutral r1c5" in g.legal_moves()  # Forest: 3 spades x 3 tools = 9 of the 9 tools left
    play(g, "neutral r1c5")
    h = g.state.hexes[parse_hex("r1c5")]
    assert (h[H_BUILDING], h[H_NEUTRAL], h[H_OWNER], h[H_TERRAIN]) == (Building.TOWER, 1, 0, Terrain.DESERT)
    assert g.state.players[0, P_TOOLS] == 12 - 3 - 9  # School, then 3 spades bought with tools
    assert (g.pending_kind(), g.current_seat()) == (Kind.OFFER, 1)  # seat 1's Workshop on r2c6


def test_r141_c10_tower_has_power_2_and_completes_a_city() -> None:
    """R141 C10 / R41 / R43: the Tower's power value is 2 and it is a building of the group:
    Guild + Workshop + School (3 buildings, power 5) + Tower = 4 buildings, power 7 -> a city."""
    sc = position().set(0, tools=12).build(0, "r0c4", "guild").build(0, "r0c5", "workshop")
    g = school_upgrade(on_space(sc, "C10", "medicine", 0))  # r1c4 Guild -> School: still no city
    play(g, "competency C10", "neutral r1c5")  # r1c5 touches r0c5 and r1c4
    assert g.state.hexes[parse_hex("r1c5"), H_BUILDING] == Building.TOWER
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K1")
    assert all(g.state.hexes[parse_hex(x), H_CITY] for x in ("r0c4", "r0c5", "r1c4", "r1c5"))


# ------------------------------------------------------------------------------------------
# special action, passive and pass competencies: C7, C8, C9, C11, C12


def test_r141_c7_special_action_gains_4_power_once_per_round() -> None:
    """R141 C7 / R76: special action, gain 4 power; once per round."""
    g = position().competency(0, "C7").turn(0)
    play(g, "special competency")
    assert list(g.state.players[0, P_BOWLS]) == [1, 11, 0]  # gain 4: I -> II four times
    play(g, "done", "pass", "bonus B7", "pass", "bonus B8")
    assert g.current_seat() == 0
    assert "special competency" not in g.legal_moves()


def test_op58_c7_not_offered_when_no_power_can_be_gained() -> None:
    """OP-58: with every token in bowl III (capacity 0) C7's special action has no effect."""
    g = position().competency(0, "C7").set(0, bowls=(0, 0, 12)).turn(0)
    assert "special competency" not in g.legal_moves()


def test_r141_c8_pass_scores_2vp_per_city_tile() -> None:
    """R141 C8: when passing, 2 VP per city tile you own."""
    g = position().competency(0, "C8").set(0, cities=2).turn(0)
    play(g, "pass")
    assert g.state.players[0, P_VP] == 20 + 2 * 2


@pytest.mark.parametrize("move", ["scholar law 3", "scholar law return"])
def test_r141_c9_each_scholar_sent_scores_2vp(move: str) -> None:
    """R141 C9: +2 VP each time you send a scholar in Phase II, including returning one."""
    g = position().competency(0, "C9").set(0, scholars=1, scholar_supply=6).turn(0)
    play(g, move)
    assert g.state.players[0, P_VP] == 20 + 2


BORDER_AND_INNER = [  # (game, a border hex, an inner land hex next to it): both board sides (R5)
    pytest.param(GAME, "r8c6", "r7c5", id="3-5"),
    pytest.param("aoi(players=3,map=1-3)", "r8c5", "r7c4", id="1-3"),  # the 1-3 side's own border (OP-12)
]


@pytest.mark.parametrize(("game", "border", "inner"), BORDER_AND_INNER)
def test_r141_c11_workshop_on_a_border_hex_scores_3vp(game: str, border: str, inner: str) -> None:
    """R141 C11 / OP-12: +3 VP for each Workshop built on a border hex (one with a dashed edge):
    the border hex is on the map's edge, the inner one is not; on either board side."""
    sc = position(game=game).competency(0, "C11").build(0, inner, "workshop").terrain(border, "desert")
    g = sc.turn(0)
    play(g, "build", f"target {border}")
    assert g.state.players[0, P_VP] == 20 + 3


@pytest.mark.parametrize(("game", "border", "inner"), BORDER_AND_INNER)
def test_r141_c11_workshop_inside_the_map_scores_nothing(game: str, border: str, inner: str) -> None:
    """R141 C11: an inner hex is not a border hex, on either board side."""
    sc = position(game=game).competency(0, "C11").build(0, border, "workshop").terrain(inner, "desert")
    g = sc.turn(0)
    play(g, "build", f"target {inner}")
    assert g.state.players[0, P_VP] == 20


def test_r141_c12_pass_scores_the_lowest_discipline_level() -> None:
    """R141 C12: when passing, VP equal to your lowest discipline level (9/7/7/2 -> 2)."""
    g = position().competency(0, "C12").set(0, science=(9, 7, 7, 2), cities=1).turn(0)
    play(g, "pass")
    assert g.state.players[0, P_VP] == 20 + 2


def test_r78_c12_scores_after_the_b8_steps_of_the_same_pass() -> None:
    """R78.1, R141 C12, R138 B8: the player orders their pass effects, and scoring the lowest
    discipline after B8's step is never worse, so the engine resolves C12 last: science 2/3/3/3,
    one School -> B8's step on banking makes the lowest 3, and C12 then pays 3 (not 2)."""
    sc = position().competency(0, "C12").bonus(0, "B8").build(0, "r8c6", "school").set(0, science=(2, 3, 3, 3))
    g = sc.turn(0)
    play(g, "pass")
    assert g.pending_kind() == Kind.STEPS_ANY
    assert g.state.players[0, P_VP] == 20  # C12 waits for the step
    play(g, "step banking")
    assert g.state.players[0, P_VP] == 20 + 3
    assert g.pending_kind() == Kind.PASS_BONUS  # then the new round bonus tile (R78.2)


def test_r141_pass_competencies_add_up_with_the_bonus_tile() -> None:
    """R78.1: every pass effect applies: C8 (1 city -> 2) + C12 (lowest 3 -> 3) + B4 (Palace -> 4)."""
    sc = position().competency(0, "C8", "C12").set(0, cities=1, science=(3, 4, 5, 6))
    sc.bonus(0, "B4").build(0, "r1c4", "palace").palace_tile(0, 17)
    g = sc.turn(0)
    play(g, "pass")
    assert g.state.players[0, P_VP] == 20 + 2 + 3 + 4


def test_r141_c7_a_second_competency_with_a_special_action_is_a_data_error(monkeypatch) -> None:
    """R141 C7: the action space holds one competency special action, so data giving a second
    competency a ``special`` is refused as a DataError naming the competencies."""
    from aoi_env.core import turn
    from aoi_env.data import DataError, load

    assert turn._special_competency() == load().competency_ids.index("C7")
    monkeypatch.setitem(load().competencies[0], "special", {"power": 1})
    with pytest.raises(DataError, match=r"competencies \[0, 6\]"):
        turn._special_competency()
