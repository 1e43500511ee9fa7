"""Edge cases of little-cited ids (R10, R104, R106, R109, R110, OP-16, OP-20, OP-26, OP-28,
OP-51, OP-63) that the tests citing them did not check.

Innovation positions follow ``tests/components/test_innovations.py``: round 2 of a 3-player game
(seat 0 Inventors on Plains, 1 Monks on Lake, 2 Illusionists on Swamp, 3-5 side); seat 0 develops
the innovation from display space 0 (2 Banking + 3 any books, + 5 coins without a Palace).
"""

from __future__ import annotations

import pytest

from aoi_env.core.engine import Game
from aoi_env.core.invariants import check
from aoi_env.core.pending import Kind
from aoi_env.core.setup import draw_round_tiles
from aoi_env.core.state import (
    G_AREA_TOKEN,
    G_NEUTRAL_SCIENCE,
    G_SCHOLAR_SPACES,
    NEUTRAL_SEAT,
    P_BOARD,
    P_BOOKS,
    P_COINS,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_TERRAFORMING,
    P_TOOLS,
)
from aoi_env.data import load
from aoi_env.data.enums import Terrain
from aoi_env.render.svg import owner_colour
from aoi_env.testing import Scenario, play
from tests.rule_positions import develop, scenario, vp
from tests.rules.test_r1_r25_uncited import FixedReveal  # the stand-in generator of the OP-28 reveal tests

DATA = load()
DISC = [DATA.round_tiles[t]["science"]["discipline"] for t in range(12)]
SPADE = DATA.round_tile_ids.index("T2")


# ------------------------------------------------------------------------------------------------
# innovations: what is counted (R106, R109, R110, OP-20, OP-51, R104 / OP-16)


def test_r109_op20_colleges_counts_only_own_schools() -> None:
    """R109 "5 VP per School on the map": only the developer's Schools (own + neutral, OP-52)
    count; own Workshop, Guild, University and Palace do not, nor do another player's Schools,
    and a Pavilion on a School does not make it two (OP-20: not a building)."""
    sc = (
        scenario()
        .build(0, "r7c5", "school")
        .build(0, "r8c10", "school", neutral=True)
        .build(0, "r8c4", "workshop")
        .build(0, "r8c6", "guild")
        .build(0, "r8c8", "university")
        .build(0, "r6c6", "palace")
        .pavilion("r7c5")
        .build(1, "r3c11", "school")
        .build(1, "r0c4", "school")
    )
    g = develop(sc, "colleges")
    assert vp(g) == 20 + 5 * 2  # own School + neutral School
    assert vp(g, 1) == 20


def test_r110_op20_sewerage_counts_only_own_workshops() -> None:
    """R110 "2 VP per Workshop on the map": another player's Workshops do not count, nor do own
    Guilds and Schools, and a Pavilion on a Workshop does not make it two (OP-20)."""
    sc = (
        scenario()
        .build(0, "r8c4", "workshop")
        .build(0, "r8c6", "workshop")
        .build(0, "r8c10", "workshop", neutral=True)
        .build(0, "r7c5", "guild")
        .build(0, "r8c8", "school")
        .pavilion("r8c6")
        .build(1, "r3c11", "workshop")
        .build(1, "r0c4", "workshop")
        .build(2, "r7c7", "workshop")
    )
    g = develop(sc, "sewerage")
    assert vp(g) == 20 + 2 * 3  # 2 own + 1 neutral Workshop


@pytest.mark.parametrize(("tiles", "gain"), [(0, 0), (1, 5), (3, 15)])
def test_r106_league_of_cities_counts_own_city_tiles_only(tiles: int, gain: int) -> None:
    """R106 "5 VP per city tile you own": 0 tiles score nothing, each own tile 5 VP; the tiles of
    another player (seat 1 holds 2) do not count."""
    g = develop(scenario().set(0, cities=tiles).set(1, cities=2), "league_of_cities")
    assert vp(g) == 20 + gain
    assert vp(g, 1) == 20


def test_r105_op51_architecture_at_most_seven_shapes() -> None:
    """R105 / OP-51: the shapes are Workshop, Guild, School, University, Palace, Tower and
    Monument, "so at most 7": one of each gives exactly 7 steps (and 10 VP), a second Workshop
    adds none."""
    sc = (
        scenario()
        .build(0, "r8c4", "workshop")
        .build(0, "r8c5", "workshop")
        .build(0, "r8c6", "guild")
        .build(0, "r8c8", "school")
        .build(0, "r8c10", "university")
        .build(0, "r7c5", "palace")
        .build(0, "r6c6", "tower", neutral=True)
        .build(0, "r3c11", "monument", neutral=True)
    )
    g = develop(sc, "architecture")
    assert g.pending_kind() == Kind.STEPS_ANY
    play(g, *["step law"] * 4, *["step medicine"] * 3)
    assert g.state.players[0, P_SCIENCE].tolist() == [0, 4, 0, 3]  # 7 steps
    assert g.pending_kind() == Kind.POST  # no eighth step
    assert vp(g) == 20 + 10


def test_r104_op16_professors_with_an_empty_scholar_supply_still_scores_3_vp() -> None:
    """R104 / OP-16 with R3 (at most 7 scholars): all 7 scholars already held, the special action
    gains no 8th scholar but still the 3 VP."""
    g = scenario().innovation(0, "professors").set(0, scholars=7, scholar_supply=0).turn(0)
    assert "special professors" in g.legal_moves()
    play(g, "special professors")
    check(g)
    p = g.state.players[0]
    assert (int(p[P_SCHOLARS]), int(p[P_SCHOLAR_SUPPLY])) == (7, 0)
    assert vp(g) == 23  # 20 + 3


# ------------------------------------------------------------------------------------------------
# setup: innovation board (R10), round tiles (OP-28), solo (OP-63)


@pytest.mark.parametrize(
    ("players", "column_spaces", "mixed"),
    [(2, 1, 2), (3, 2, 0), (4, 2, 2), (5, 3, 0)],
)
def test_r10_innovation_board_sections_by_player_count(players: int, column_spaces: int, mixed: int) -> None:
    """R10 / R20: base row (1 space per discipline column) + 1 extension for 2-3 players ("2/4"
    side: 2 wide spaces; "3/5" side: 1 more space per column) or 2 extensions for 4-5 players
    ("4/5" section + the "2/4" or the "3/5" side), each at its printed cost."""
    g = Game(f"aoi(players={players})", seed=0)
    costs = [(spec.tolist(), int(extra)) for spec, extra in g.innovation_space_cost]
    for d in range(4):
        column = [0, 0, 0, 0]
        column[d] = 2
        assert costs.count((column, 3)) == column_spaces  # 2 own-discipline + 3 any books
    wide = [c for c in costs if sum(c[0]) == 4]
    assert len(wide) == mixed
    if mixed:
        assert wide == [([2, 2, 0, 0], 1), ([0, 0, 2, 2], 1)]  # 2 Bk + 2 La + 1, 2 En + 2 Me + 1
    assert len(costs) == 4 * column_spaces + mixed


def _discipline_with_three() -> str:
    return next(d for d in dict.fromkeys(DISC) if sum(t != SPADE and DISC[t] == d for t in range(12)) == 3)


def test_op28_third_tile_of_a_discipline_is_placed_when_round_6_has_that_discipline() -> None:
    """R6(b) / OP-28: a third tile of a discipline is set aside only when no tile of that
    discipline is on round 6; revealed a (round 6), b, c (all of discipline d): all three are
    placed on rounds 6, 5, 4 (rounds 1-5 hold only 2 of d)."""
    g = Game("aoi(players=3)", seed=0)
    d = _discipline_with_three()
    a, b, c = [t for t in range(12) if DISC[t] == d]
    rest = [t for t in range(12) if t not in (a, b, c, SPADE)]
    tiles = draw_round_tiles(g, FixedReveal([a, b, c, *rest, SPADE]))
    assert (tiles[5], tiles[4], tiles[3]) == (a, b, c)
    assert (tiles[2], tiles[1], tiles[0]) == tuple(rest[:3])  # rounds 3, 2, 1: nothing set aside


def test_op28_spade_tile_revealed_second_is_set_aside_until_round_4() -> None:
    """R6(a) / OP-28: the spade tile is set aside also when it is the second tile revealed: round
    6 gets the first tile, round 5 the third, and the spade tile, shuffled back (on top by the
    identity shuffle), fills round 4."""
    g = Game("aoi(players=3)", seed=0)
    others = [t for t in range(12) if t != SPADE]
    by_disc = {d: [t for t in others if DISC[t] == d] for d in dict.fromkeys(DISC[t] for t in others)}
    mixed = [t for group in zip(*by_disc.values(), strict=False) for t in group]
    mixed += [t for t in others if t not in mixed]
    tiles = draw_round_tiles(g, FixedReveal([mixed[0], SPADE, *mixed[1:]]))
    assert (tiles[5], tiles[4]) == (mixed[0], mixed[1])
    assert tiles[3] == SPADE
    assert SPADE not in tiles[4:]  # never on round 5 or 6


def test_op63_solo_game_builds_on_the_two_player_setup() -> None:
    """OP-63: the 2-player rules are the base for solo play: 1 human + 1 Automa use the 1-3 side
    (R24.1) and the 2-faction innovation display (R20: 6 spaces).  AUTOMA.md §3.1 (the app)
    switches off the neutral faction of R24.3 and the area token of R24.2, which a real 2-player
    game has."""
    solo = Game("aoi(players=1,automa=simpletons:1)", seed=2)
    duo = Game("aoi(players=2)", seed=2)
    for g in (solo, duo):
        assert g.seats == 2 and g.geo.name == "1-3"
        assert len(g.innovation_space_cost) == 6
    assert (duo.state.glob[G_SCHOLAR_SPACES] == NEUTRAL_SEAT).sum() == 4  # one per discipline
    assert (duo.state.glob[G_NEUTRAL_SCIENCE] >= 2).all() and duo.state.glob[G_AREA_TOKEN] > 0
    assert (solo.state.glob[G_SCHOLAR_SPACES] != NEUTRAL_SEAT).all()
    assert (solo.state.glob[G_NEUTRAL_SCIENCE] == 0).all() and solo.state.glob[G_AREA_TOKEN] == 0


# ------------------------------------------------------------------------------------------------
# OP-26: terrain names by colour


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def test_op26_yellow_is_desert_red_is_wasteland_brown_is_plains() -> None:
    """OP-26: yellow = Desert, red = Wasteland, brown = Plains.  The board drawn red is the one
    with the Wasteland abilities (4 tools, a book, no 2nd-slot surcharge), the yellow one has the
    setup spade, the brown one advances terraforming for 1 coin."""
    sc = Scenario("aoi(players=3)", factions=["blessed", "felines", "monks"], boards=["desert", "wasteland", "plains"])
    g = sc.g
    boards = [Terrain(int(g.state.players[s, P_BOARD])) for s in range(3)]
    assert boards == [Terrain.DESERT, Terrain.WASTELAND, Terrain.PLAINS]
    (yr, yg, yb), (rr, rg, rb), (br, bg, bb) = (_rgb(owner_colour(g, s)) for s in range(3))
    assert yr > 200 and yg > 180 and yb < 120  # yellow
    assert rr > 180 and rg < 100 and rb < 100  # red
    assert 120 < br < 200 and bg < br and bb < bg  # brown: a dark orange
    desert, wasteland = g.data.boards[Terrain.DESERT], g.data.boards[Terrain.WASTELAND]
    assert (wasteland.start.get("tools"), wasteland.start.get("books")) == (4, 1)
    assert desert.start.get("books", 0) == 0 and int(g.state.players[0, P_TOOLS]) == 3
    assert int(g.state.players[1, P_TOOLS]) == 4  # the red board's start
    assert g.data.raw["planning_boards"]["wasteland"]["innovation_slot_books"] == [0, 0, 2]
    assert g.data.raw["planning_boards"]["desert"]["setup_spades"] == 1
    g = sc.round(1, tile="T10").set(2, coins=1, scholars=1, scholar_supply=6).turn(2)
    play(g, "dig", "book law", "book law")  # the brown board: 1 coin + 1 tool + 1 scholar
    p = g.state.players[2]
    assert int(p[P_TERRAFORMING]) == 1 and int(p[P_COINS]) == 0 and p[P_BOOKS].tolist() == [0, 2, 0, 0]
