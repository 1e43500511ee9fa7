"""Round scoring tiles T1-T12 (R142, R143, R6) and final round tiles F1-F4 (R144, R7).

Left half: VP during Phase II of that round each time the event happens.  Right half: the
science bonus in Phase III, reward x floor(level / threshold), never after round 6.  Open points:
OP-10 (tile pairing), OP-18 (palace 11 counts as a city), OP-27 (final tile conflict), OP-36
(Phase III spades), OP-40 (free track advances), OP-57 (what counts as an event).

Every position is 3 players: seat 0 Inventors on Desert (15 coins, 3 tools, bowls 5/7/0,
sailing 0, 3 tools per spade), seat 1 Monks on Lake, seat 2 Psychics on Forest.
"""

from __future__ import annotations

import pytest

from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_COMP_SPACES,
    G_FINAL_TILE,
    G_PHASE,
    G_ROUND,
    G_ROUND_TILES,
    H_TERRAIN,
    P_BOOKS,
    P_BOWLS,
    P_COINS,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_TERRAFORMING,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data.enums import Terrain
from aoi_env.testing import Scenario, play

GAME = "aoi(players=3)"
FACTIONS = ["inventors", "monks", "psychics"]
BOARDS = ["desert", "lake", "forest"]
BOOKS = P_BOOKS.start


def position(
    *, tile: str = "T10", rnd: int = 1, final: str | None = None, factions: list[str] | None = None, game: str = GAME
) -> Scenario:
    """Neutral bonus tiles (B9 / B10 / B3 held; B1 / B7 / B8 on display, no coins)."""
    sc = Scenario(game, factions=factions or FACTIONS, boards=BOARDS).round(rnd, tile=tile, final=final)
    return sc.bonus_tiles(("B9", "B10", "B3"), ("B1", "B7", "B8"), coins=0)


def set_tile(sc: Scenario, rnd: int, tile: str) -> Scenario:
    """Put round scoring tile ``tile`` on round ``rnd`` (not necessarily the current round)."""
    sc.state().glob[G_ROUND_TILES.start + rnd - 1] = sc.g.data.round_tile_ids.index(tile)
    return sc


def on_space(sc: Scenario, comp: str, discipline: str, row: int) -> Scenario:
    """Put competency ``comp`` on the display space of ``discipline``'s column and ``row`` (R11)."""
    spaces = sc.state().glob[G_COMP_SPACES]
    c = int(comp.lstrip("C")) - 1
    i = int(list(spaces).index(c))
    j = ("banking", "law", "engineering", "medicine").index(discipline) * 3 + row
    spaces[i], spaces[j] = spaces[j], spaces[i]
    return sc


def finish_round(g: Game) -> Game:
    """Seats 0, 1, 2 pass in that order, taking B1 (no income), B7, B8."""
    return play(g, "pass", "bonus B1", "pass", "bonus B7", "pass", "bonus B8")


# ------------------------------------------------------------------------------------------
# Phase II VP: building


@pytest.mark.parametrize(("tile", "rnd", "final"), [("T1", 1, None), ("T3", 1, None), ("T10", 6, "F4")])
def test_r142_workshop_tiles_score_2vp_per_workshop(tile: str, rnd: int, final: str | None) -> None:
    """R142 T1 / T3, R144 F4: +2 VP each time you build a Workshop (F4 in round 6 only)."""
    g = position(tile=tile, rnd=rnd, final=final).build(0, "r1c4", "workshop").terrain("r1c5", "desert").turn(0)
    play(g, "build", "target r1c5")
    assert g.state.players[0, P_VP] == 20 + 2


@pytest.mark.parametrize(("tile", "rnd", "final"), [("T5", 1, None), ("T7", 1, None), ("T10", 6, "F2")])
def test_r142_guild_tiles_score_3vp_per_guild(tile: str, rnd: int, final: str | None) -> None:
    """R142 T5 / T7, R144 F2: +3 VP each time you build a Guild."""
    g = position(tile=tile, rnd=rnd, final=final).build(0, "r1c4", "workshop").turn(0)
    play(g, "upgrade guild", "upgrade r1c4")
    assert g.state.players[0, P_VP] == 20 + 3


@pytest.mark.parametrize(("tile", "rnd", "final"), [("T9", 1, None), ("T10", 6, "F3")])
def test_r142_school_tiles_score_4vp_per_school(tile: str, rnd: int, final: str | None) -> None:
    """R142 T9, R144 F3: +4 VP each time you build a School (position reward: C2 on the top of
    the Banking column, 3 Banking steps, no VP)."""
    g = position(tile=tile, rnd=rnd, final=final).build(0, "r1c4", "guild").turn(0)
    play(g, "upgrade school", "upgrade r1c4", "competency C2")
    assert g.state.players[0, P_VP] == 20 + 4


@pytest.mark.parametrize("tile", ["T11", "T12"])
def test_r142_palace_scores_5vp(tile: str) -> None:
    """R142 T11 / T12: +5 VP for building a Palace (palace 2 has no one-time effect)."""
    sc = position(tile=tile).build(0, "r1c4", "guild").offer_palace(2, 17).set(0, tools=4, coins=6)
    g = sc.turn(0)
    play(g, "upgrade palace", "upgrade r1c4", "palace 2")
    assert g.state.players[0, P_VP] == 20 + 5


@pytest.mark.parametrize("tile", ["T11", "T12"])
def test_r142_university_scores_5vp(tile: str) -> None:
    """R142 T11 / T12: +5 VP for building a University (then the competency, C2: no VP)."""
    g = position(tile=tile).build(0, "r1c4", "school").set(0, tools=5, coins=8).turn(0)
    play(g, "upgrade university", "upgrade r1c4", "competency C2")
    assert g.state.players[0, P_VP] == 20 + 5


@pytest.mark.parametrize(
    ("game", "border", "other", "vp"),
    [
        (GAME, "r8c6", "r7c5", 3),
        (GAME, "r7c5", "r8c6", 0),
        ("aoi(players=3,map=1-3)", "r8c5", "r7c4", 3),  # the 1-3 board side's own border (R5)
        ("aoi(players=3,map=1-3)", "r7c4", "r8c5", 0),
    ],
)
def test_r144_f1_workshop_on_a_border_hex_in_round_6(game: str, border: str, other: str, vp: int) -> None:
    """R144 F1 / OP-12: +3 VP for a Workshop built on a border hex in round 6; r8c6 (3-5 side)
    and r8c5 (1-3 side) are on the map's edge, r7c5 and r7c4 are not."""
    sc = position(tile="T10", rnd=6, final="F1", game=game).build(0, other, "workshop").terrain(border, "desert")
    g = sc.turn(0)
    play(g, "build", f"target {border}")
    assert g.state.players[0, P_VP] == 20 + vp


def test_r144_final_tile_does_not_score_before_round_6() -> None:
    """R144: the final tile scores only in round 6 (here F4 in round 5: nothing)."""
    g = position(tile="T10", rnd=5, final="F4").build(0, "r1c4", "workshop").terrain("r1c5", "desert").turn(0)
    play(g, "build", "target r1c5")
    assert g.state.players[0, P_VP] == 20


def test_r142_only_the_current_rounds_tile_scores() -> None:
    """R142: VP only in Phase II of the tile's own round: T1 on round 2 does not score a
    Workshop built in round 1 (tile T10)."""
    sc = set_tile(position(tile="T10"), 2, "T1").build(0, "r1c4", "workshop").terrain("r1c5", "desert")
    g = sc.turn(0)
    play(g, "build", "target r1c5")
    assert g.state.players[0, P_VP] == 20


# ------------------------------------------------------------------------------------------
# T2: spades


def test_r142_t2_scores_bought_spades() -> None:
    """R142 T2 / OP-57: +2 VP per spade spent in Phase II, however obtained, tool-bought ones
    included; the Workshop itself does not score on T2."""
    g = position(tile="T2").build(0, "r1c4", "workshop").set(0, tools=10).turn(0)
    play(g, "build", "target r2c4", "spades 2", "workshop")  # Mountain -> Desert: 2 bought spades
    p = g.state.players[0]
    assert p[P_VP] == 20 + 2 * 2
    assert p[P_TOOLS] == 10 - 2 * 3 - 1


def test_r142_t2_scores_free_and_bought_spades_of_one_tb() -> None:
    """R142 T2: a spell TB with 1 free spade and 2 bought ones scores 3 spades."""
    g = position(tile="T2").build(0, "r1c4", "workshop").set(0, tools=10, bowls=(0, 4, 8)).turn(0)
    play(g, "spell S3", "target r1c5", "spades 3")  # Forest -> Desert
    assert g.state.players[0, P_VP] == 20 + 3 * 2


def test_r142_t2_scores_split_spades() -> None:
    """R142 T2 / R63.3: spades spent on other hexes after the first count too (S6: 1 + 1)."""
    g = position(tile="T2").build(0, "r1c4", "workshop").set(0, bowls=(0, 6, 6)).turn(0)
    play(g, "spell S6", "target r2c5", "spades 1", "spade r1c5", "done")
    assert g.state.players[0, P_VP] == 20 + 2 * 2


def test_op36_t2_does_not_score_phase_iii_spades() -> None:
    """OP-36 / OP-57: spades from the science bonus (T6 on round 1) are spent in Phase III and
    do not score the spade tile, not even T2 waiting on round 2."""
    sc = set_tile(position(tile="T6"), 2, "T2").build(0, "r1c4", "workshop").set(0, science=(0, 0, 4, 0))
    g = finish_round(sc.turn(0))
    assert (g.pending_kind(), g.current_seat(), g.state.glob[G_PHASE]) == (Kind.SPADES, 0, Phase.SCIENCE)
    play(g, "spade r2c5")  # Plains -> Desert
    assert g.state.hexes[parse_hex("r2c5"), H_TERRAIN] == Terrain.DESERT
    assert g.state.players[0, P_VP] == 20


def test_op36_t2_does_not_score_setup_spades() -> None:
    """R23 / OP-37 / OP-57: the Desert board's setup spade is spent before round 1: T2 on
    round 1 does not score it."""
    g = Game("aoi(players=3,factions=inventors+monks+psychics,boards=desert+lake+forest,skip_forced=false)", seed=1)
    assert g.data.round_tile_ids[int(g.state.glob[G_ROUND_TILES.start])] == "T2"
    while not (g.pending_kind() == Kind.SPADES and g.current_seat() == 0):
        g.apply_action(g.legal_actions()[0])
    vp = int(g.state.players[0, P_VP])
    g.apply_action(g.legal_actions()[0])  # the first legal "spade <hex>"
    assert g.state.players[0, P_VP] == vp == 20


# ------------------------------------------------------------------------------------------
# T4: science steps


def test_r142_t4_scores_1vp_per_step() -> None:
    """R142 T4: +1 VP per step on the science board (a scholar on a "3" space: 3 steps)."""
    g = position(tile="T4").set(0, scholars=1, scholar_supply=6).turn(0)
    play(g, "scholar banking 3")
    assert g.state.players[0, P_VP] == 20 + 3


def test_op57_t4_scores_only_steps_actually_gained() -> None:
    """OP-57 / OP-55: steps lost at the key barrier do not score: Law 6 without a key, a scholar
    on the "3" space gains 1 step (6 -> 7), 2 are lost."""
    g = position(tile="T4").set(0, scholars=1, scholar_supply=6, science=(0, 6, 0, 0)).turn(0)
    play(g, "scholar law 3")
    p = g.state.players[0]
    assert p[P_SCIENCE.start + 1] == 7
    assert p[P_VP] == 20 + 1


@pytest.mark.parametrize(("key", "gained"), [("key law", 3), ("nokey", 1)])
def test_op57_t4_counts_the_steps_past_a_key(key: str, gained: int) -> None:
    """R50 / OP-30 / OP-57: Law 6, a scholar on the "3" space: with the key all 3 steps are
    gained (6 -> 9), without it only 1 (6 -> 7); T4 scores exactly the levels gained."""
    g = position(tile="T4").set(0, scholars=1, scholar_supply=6, science=(0, 6, 0, 0), cities=1).turn(0)
    play(g, "scholar law 3", key)
    p = g.state.players[0]
    assert p[P_SCIENCE.start + 1] == 6 + gained
    assert p[P_VP] == 20 + gained


def test_r142_t4_scores_every_step_of_a_city_tile() -> None:
    """R142 T4: K7's 4 steps score 4 VP on top of the tile's 7."""
    sc = position(tile="T4").terrain("r1c5", "desert")
    for x in ("r0c4", "r0c5", "r1c4"):
        sc.build(0, x, "guild")
    g = sc.turn(0)
    play(g, "build", "target r1c5", "city K7")
    assert g.state.players[0, P_VP] == 20 + 7 + 4


# ------------------------------------------------------------------------------------------
# T6: cities


def test_r142_t6_city_scores_5vp() -> None:
    """R142 T6 / R45.1: +5 VP each time you take a city tile."""
    sc = position(tile="T6").terrain("r1c5", "desert")
    for x in ("r0c4", "r0c5", "r1c4"):
        sc.build(0, x, "guild")
    g = sc.turn(0)
    play(g, "build", "target r1c5", "city K5")
    assert g.state.players[0, P_VP] == 20 + 6 + 5  # K5 + T6


def test_op18_t6_scores_the_palace_11_city_tile() -> None:
    """R131 / OP-18 / OP-57: palace 11's city tile counts as founding a city (v1.2): T6 +5."""
    sc = position(tile="T6").build(0, "r1c4", "guild").offer_palace(11, 17).set(0, tools=4, coins=6)
    g = sc.turn(0)
    play(g, "upgrade palace", "upgrade r1c4", "palace 11")
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K1")
    p = g.state.players[0]
    assert p[P_VP] == 20 + 4 + 5  # K1 + T6
    assert p[P_TOOLS] == 4 - 4 + 3  # Palace, then K1


# ------------------------------------------------------------------------------------------
# T8: track advances


@pytest.mark.parametrize(("action", "vp"), [("sail", 3 + 2), ("dig", 3)])
def test_r142_t8_scores_3vp_per_track_advance(action: str, vp: int) -> None:
    """R142 T8: +3 VP per advance on the sailing or the terraforming track (plus the printed
    reward: sailing 0 -> 1 gives 2 VP, terraforming 3 -> 2 tools gives 2 books)."""
    g = position(tile="T8").set(0, scholars=1, scholar_supply=6).turn(0)
    play(g, action)
    if action == "dig":
        play(g, "book law", "book law")
    p = g.state.players[0]
    assert p[P_VP] == 20 + vp
    assert (p[P_SAILING], p[P_TERRAFORMING]) == ((1, 0) if action == "sail" else (0, 1))


def test_op40_t8_scores_free_advances_of_steam_power() -> None:
    """R112 / OP-40: Steam Power's free terraforming and sailing advances score T8 each."""
    sc = position(tile="T8").display_innovations("steam_power").set(0, books=(5, 0, 0, 0))
    g = sc.turn(0)
    play(g, "innovate", "innovation steam_power", "pay banking", "pay banking", "pay banking")
    play(g, "book law", "book law")  # terraforming reward: 2 books
    p = g.state.players[0]
    assert (p[P_SAILING], p[P_TERRAFORMING]) == (1, 1)
    assert p[P_VP] == 20 + 3 + 3 + 2  # two T8 advances + the sailing reward


def test_op40_t8_does_not_score_a_free_advance_lost_at_the_top() -> None:
    """R134 / OP-40: palace 14's 2 free sailing advances from sailing 2: the first (to 3, 4 VP)
    scores T8, the second is lost and scores nothing."""
    sc = position(tile="T8").build(0, "r1c4", "guild").offer_palace(14, 17).set(0, tools=4, coins=6, sailing=2)
    g = sc.turn(0)
    play(g, "upgrade palace", "upgrade r1c4", "palace 14")
    p = g.state.players[0]
    assert p[P_SAILING] == 3
    assert p[P_VP] == 20 + 3 + 4


# ------------------------------------------------------------------------------------------
# T10: innovations


def test_r142_t10_innovation_scores_5vp() -> None:
    """R142 T10: +5 VP each time you develop an innovation (Steel: 0 bridges, 0 VP itself)."""
    sc = position(tile="T10").display_innovations("steel").set(0, books=(5, 0, 0, 0))
    g = sc.turn(0)
    play(g, "innovate", "innovation steel", "pay banking", "pay banking", "pay banking")
    p = g.state.players[0]
    assert p[P_VP] == 20 + 5
    assert p[P_COINS] == 15 - 5  # no Palace yet: +5 coins (R73)


# ------------------------------------------------------------------------------------------
# final tile stacking with the round-6 tile (R144)


def test_r144_final_tile_stacks_with_the_round_6_tile() -> None:
    """R144: in round 6 both the round-6 tile and the final tile score: a School upgrade with
    T4 on round 6 and F3: +4 (F3) and +3 (T4, the 3 Law steps of the competency's position)."""
    sc = on_space(position(tile="T4", rnd=6, final="F3").build(0, "r1c4", "guild"), "C2", "law", 0)
    g = sc.turn(0)
    play(g, "upgrade school", "upgrade r1c4", "competency C2")  # C2 on Law top: 3 Law steps
    p = g.state.players[0]
    assert p[P_SCIENCE.start + 1] == 3
    assert p[P_VP] == 20 + 4 + 3


def test_r144_border_workshop_city_in_round_6_scores_f1_and_t6() -> None:
    """R144 / R142: a Workshop on a border hex that founds a city in round 6 with T6 and F1:
    +3 (F1) + 5 (T6) + the city tile's VP."""
    sc = position(tile="T6", rnd=6, final="F1").terrain("r0c4", "desert")
    for x in ("r0c5", "r1c4", "r1c5"):
        sc.build(0, x, "guild")
    g = sc.turn(0)
    play(g, "build", "target r0c4", "city K1")  # r0c4 is on the map's edge
    assert g.state.players[0, P_VP] == 20 + 3 + 5 + 4


def test_r7_op27_final_tile_never_repeats_the_round_6_building() -> None:
    """R7 / OP-27: the final tile never shows the building type scored by the round-6 tile
    (F1/F4 vs T1/T3, F2 vs T5/T7, F3 vs T9)."""
    conflict = {"F1": {"T1", "T3"}, "F4": {"T1", "T3"}, "F2": {"T5", "T7"}, "F3": {"T9"}}
    for seed in range(200):
        g = Game("aoi(players=3)", seed=seed)
        data = g.data
        final = data.final_tile_ids[int(g.state.glob[G_FINAL_TILE])]
        round6 = data.round_tile_ids[int(g.state.glob[G_ROUND_TILES.start + 5])]
        assert round6 not in conflict[final], (seed, round6, final)


def test_r6_t2_never_on_round_5_or_6() -> None:
    """R6(a) / R142 T2: the spade tile may not be placed on round 5 or 6."""
    for seed in range(200):
        g = Game("aoi(players=3)", seed=seed)
        tiles = [g.data.round_tile_ids[int(t)] for t in g.state.glob[G_ROUND_TILES]]
        assert "T2" not in tiles[4:], (seed, tiles)


# ------------------------------------------------------------------------------------------
# the science bonus (Phase III, R80.1, R143)

SCIENCE = [
    # tile, science levels (B/L/E/M), expected gain; each level tells the threshold from its
    # neighbours (one less and one more), so a wrong threshold changes the gain
    ("T1", (0, 7, 0, 0), {"scholars": 2}),  # 1 scholar per 3 Law: 7 // 3 = 2
    ("T2", (0, 0, 5, 0), {"coins": 5}),  # 1 coin per Engineering
    ("T3", (6, 0, 0, 0), {"power": 8}),  # 4 power per 3 Banking: 2 x 4
    ("T4", (0, 0, 0, 7), {"books": 2}),  # 1 book per 3 Medicine
    ("T5", (0, 6, 0, 0), {"books": 2}),  # 1 book per 3 Law
    ("T6", (0, 0, 8, 0), {"spades": 2}),  # 1 spade per 4 Engineering (per 5: 1)
    ("T6", (0, 0, 6, 0), {"spades": 1}),  # (per 3: 2)
    ("T7", (0, 0, 0, 8), {"spades": 2}),  # 1 spade per 4 Medicine (per 5: 1)
    ("T7", (0, 0, 0, 6), {"spades": 1}),  # (per 3: 2)
    ("T8", (0, 0, 7, 0), {"scholars": 2}),  # 1 scholar per 3 Engineering (per 2: 3, per 4: 1)
    ("T9", (4, 0, 0, 0), {"coins": 4}),  # 1 coin per Banking
    ("T10", (0, 5, 0, 0), {"power": 6}),  # 3 power per 2 Law: 2 x 3
    ("T11", (0, 0, 0, 5), {"tools": 2}),  # 1 tool per 2 Medicine
    ("T12", (5, 0, 0, 0), {"tools": 2}),  # 1 tool per 2 Banking (per 1: 5, per 3: 1)
]


@pytest.mark.parametrize(("tile", "levels", "gain"), SCIENCE, ids=[f"{t}-{max(lv)}" for t, lv, _ in SCIENCE])
def test_r143_science_bonus_of_every_tile(tile: str, levels: tuple[int, ...], gain: dict[str, int]) -> None:
    """R142 / R143: in Phase III each player gets the right half of the round's tile once per
    full multiple of the threshold: reward x floor(level / threshold).  Spades follow R81
    (one step per spade on unbuilt hexes in reach, no buying, no Workshop)."""
    sc = position(tile=tile).build(0, "r1c4", "workshop").set(0, science=levels)
    g = finish_round(sc.turn(0))
    if "books" in gain:
        assert (g.pending_kind(), g.current_seat()) == (Kind.CHOOSE_BOOKS, 0)
        play(g, *["book medicine"] * gain["books"])
    if "spades" in gain:
        assert (g.pending_kind(), g.current_seat()) == (Kind.SPADES, 0)
        assert "workshop" not in g.legal_moves() and all(m.startswith("spade") or m == "done" for m in g.legal_moves())
        play(g, *["spade r1c5"] * gain["spades"])  # Forest -> Mountain (-> Wasteland)
        expect = Terrain.MOUNTAIN if gain["spades"] == 1 else Terrain.WASTELAND
        assert g.state.hexes[parse_hex("r1c5"), H_TERRAIN] == expect
    assert (g.state.glob[G_ROUND], g.state.glob[G_PHASE], g.current_seat()) == (2, Phase.ACTIONS, 0)
    p = g.state.players[0]
    assert p[P_SCHOLARS] == gain.get("scholars", 0)
    assert p[P_SCHOLAR_SUPPLY] == 7 - gain.get("scholars", 0)
    assert p[P_COINS] == 15 + gain.get("coins", 0)
    assert p[P_TOOLS] == 3 + 1 + 1 + gain.get("tools", 0)  # round 2 income: base 1 + 1st Workshop space 1
    assert p[BOOKS + 3] == gain.get("books", 0)
    power = gain.get("power", 0)
    assert list(p[P_BOWLS]) == [5 - min(power, 5), 7 + min(power, 5) - max(power - 5, 0), max(power - 5, 0)]
    assert p[P_VP] == 20


def test_r143_below_the_threshold_gives_nothing() -> None:
    """R143: floor(level / threshold) = 0 below the threshold: Law 2 on T1 (per 3 Law) gives 0."""
    sc = position(tile="T1").set(0, science=(0, 2, 0, 0))
    g = finish_round(sc.turn(0))
    assert g.state.glob[G_ROUND] == 2 and g.state.players[0, P_SCHOLARS] == 0


def test_r143_scholars_are_limited_by_the_personal_supply() -> None:
    """R143 / R57: scholars come from the personal supply: Law 6 on T1 earns 2, only 1 is left."""
    sc = position(tile="T1").set(0, science=(0, 6, 0, 0), scholars=6, scholar_supply=1)
    g = finish_round(sc.turn(0))
    assert (g.state.players[0, P_SCHOLARS], g.state.players[0, P_SCHOLAR_SUPPLY]) == (7, 0)


def test_r143_blessed_count_3_levels_more() -> None:
    """R89 / R143: Blessed compute the bonus with their level + 3: Law 6 on T1 -> 9 // 3 = 3."""
    sc = position(tile="T1", factions=["blessed", "monks", "psychics"]).set(0, science=(0, 6, 0, 0))
    g = finish_round(sc.turn(0))
    assert g.state.players[0, P_SCHOLARS] == 3


def test_r80_science_bonus_resolves_in_next_round_order() -> None:
    """R80.1: the science bonus is resolved in the turn order of the next round (passing order):
    seat 1 passes first, so seat 1 chooses its T4 books before seat 0."""
    sc = position(tile="T4").set(0, science=(0, 0, 0, 3), bowls=(0, 4, 8)).set(1, science=(0, 0, 0, 3))
    g = sc.turn(0)
    play(g, "spell S5", "done", "pass", "bonus B7", "pass", "bonus B8", "pass", "bonus B1")
    assert (g.pending_kind(), g.current_seat()) == (Kind.CHOOSE_BOOKS, 1)
    play(g, "book law")
    assert (g.pending_kind(), g.current_seat()) == (Kind.CHOOSE_BOOKS, 0)
    play(g, "book engineering")
    assert g.state.players[1, BOOKS + 1] == 1 and g.state.players[0, BOOKS + 2] == 1


def test_r143_no_science_bonus_after_round_6() -> None:
    """R7 / R82 / R143: the round-6 bonus never happens (covered by the final tile): the game
    ends after round 6's Phase II; Law 9 on T1 gives no scholars."""
    sc = position(tile="T1", rnd=6, final="F2").set(0, science=(0, 9, 0, 0), cities=1)
    g = sc.turn(0)
    play(g, "pass", "pass", "pass")
    assert g.is_over()
    assert g.state.players[0, P_SCHOLARS] == 0  # T1 would give 9 // 3 = 3 scholars
    assert g.state.players[0, P_SCHOLAR_SUPPLY] == 7
