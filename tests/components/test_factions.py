"""The 12 factions (RULES.md R88-R100; version values R145, OP-13/14/15) shown in game positions.

Every test builds its position explicitly: ``Scenario`` for Phase II positions, or a real game
(``setup_game``) for the setup abilities.  Unless a test says otherwise the current round tile is
T10 (innovations only) and every seat holds a round bonus tile without Phase II events or reach
bonus, so the numbers below come from the faction alone.

Map hexes used (3-5 side): the bottom row ``r8c4 D, r8c5 M, r8c6 P, r8c7 L, r8c8 F, r8c9 M`` has
no river next to it from ``r8c5`` to ``r8c9``; ``r7c9`` (lake) touches the river.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from aoi_env.core.board import parse_hex
from aoi_env.core.config import GameConfig
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.rules import scoring, terrain
from aoi_env.core.state import (
    G_BONUS_COINS,
    G_BONUS_STATE,
    G_BOOK_ACTIONS,
    G_COMP_SPACES,
    H_BUILDING,
    H_CITY,
    H_OWNER,
    H_RIVER_CITY,
    H_TERRAIN,
    P_BONUS,
    P_BOOKS,
    P_BOWLS,
    P_BRIDGES,
    P_BUILT,
    P_CITIES,
    P_COINS,
    P_COMPETENCIES,
    P_NEUTRAL_BUILT,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
)
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario, play

QUIET_BONUS = ("B10", "B9", "B7", "B8", "B4")  # no Phase II VP events, no reach bonus (R138)
PASS_DISPLAY = ("B1", "B3", "B8")  # taken when passing: no scholar income, no book choice in Phase I
SETUP_DISPLAY = ("B10", "B9", "B7", "B8", "B4", "B3", "B6", "B5")  # P + 3 of these at setup


# ------------------------------------------------------------------------------------------------
# helpers


def scenario(factions: list[str], boards: list[str], game: str = "aoi(players=3)", tile: str = "T10") -> Scenario:
    """A Scenario whose round tile and round bonus tiles add nothing on their own.

    Seat k holds ``QUIET_BONUS[k]``; the competency display is laid out in order (space i holds
    C(i+1): column = i // 3 is banking/law/engineering/medicine, row = i % 3 gives 3 steps /
    2 steps + 1 book / 1 step + 2 books, R53).
    """
    sc = Scenario(game, factions=factions, boards=boards)
    s = sc.state()
    for seat in range(len(factions)):
        old = int(s.players[seat, P_BONUS])
        if old >= 0:
            s.glob[G_BONUS_STATE.start + old] = -1
        s.players[seat, P_BONUS] = -1
    for seat in range(len(factions)):
        sc.bonus(seat, QUIET_BONUS[seat])
    s.glob[G_BONUS_COINS] = 0  # passing takes no coins from the display
    s.glob[G_COMP_SPACES] = np.arange(12)
    return sc.round(1, tile=tile)


def setup_game(game: str, seed: int = 0) -> Game:
    """A real game at its first setup decision, with a known bonus display and competency layout.

    The display holds the first P + 3 tiles of ``SETUP_DISPLAY``; the competency layout is the one
    of ``scenario``.  Everything else (start player, round tiles) comes from ``seed``.
    """
    g = Game(game, seed=seed)
    glob = g.state.glob
    glob[G_BONUS_STATE] = -2
    for tile in SETUP_DISPLAY[: g.seats + 3]:
        glob[G_BONUS_STATE.start + g.data.bonus_ids.index(tile)] = -1
    glob[G_COMP_SPACES] = np.arange(12)
    return Game(g.config, state=g.state)


def play_setup(g: Game, moves: dict[int, list[str]]) -> Game:
    """Play each seat's scripted moves in the order the engine asks for them.

    Stops at the first decision of a seat whose script is used up, so a test can look at exactly
    that decision; the scripts are consumed, so a later call with the same dict (after adding moves)
    continues where this one stopped.  The start player is random: the engine interleaves the seats.
    """
    while not g.is_over() and moves.get(g.current_seat()):
        play(g, moves[g.current_seat()].pop(0))
    return g


def seats_of(game: str) -> int:
    return GameConfig.parse(game).players


def sci(g: Game, seat: int) -> list[int]:
    return [int(x) for x in g.state.players[seat, P_SCIENCE]]


def books(g: Game, seat: int) -> list[int]:
    return [int(x) for x in g.state.players[seat, P_BOOKS]]


def bowls(g: Game, seat: int) -> tuple[int, int, int]:
    b = g.state.players[seat, P_BOWLS]
    return int(b[0]), int(b[1]), int(b[2])


def val(g: Game, seat: int, field: int) -> int:
    return int(g.state.players[seat, field])


def terrain_at(g: Game, hex_: str) -> Terrain:
    return Terrain(int(g.state.hexes[parse_hex(hex_), H_TERRAIN]))


def building_at(g: Game, hex_: str) -> tuple[Building, int]:
    h = g.state.hexes[parse_hex(hex_)]
    return Building(int(h[H_BUILDING])), int(h[H_OWNER])


# ------------------------------------------------------------------------------------------------
# R89 Blessed


def test_r89_blessed_science_bonus_counts_three_levels_higher() -> None:
    """R89 / R143: in Phase III the Blessed count every track 3 levels higher (rulebook example:
    Law 6, "1 scholar per 3 Law" -> virtual 9 -> 3 scholars); other factions use the real level."""
    sc = scenario(["blessed", "felines", "goblins"], ["mountain", "lake", "desert"], tile="T1")
    sc.set(0, science={"law": 6}).set(1, science={"law": 6}).display_bonus(*PASS_DISPLAY)
    g = play(sc.turn(0), "pass", "bonus B3", "pass", "bonus B8", "pass", "bonus B1")
    # round 2 has begun (no scholar income: no Schools, no University, bonus tiles without scholars)
    assert val(g, 0, P_SCHOLARS) == 3  # T1: (6 + 3) // 3 = 3 scholars
    assert val(g, 0, P_SCHOLAR_SUPPLY) == 4  # 7 - 3
    assert val(g, 1, P_SCHOLARS) == 2  # Felines: 6 // 3 = 2


def test_r89_blessed_virtual_level_may_exceed_12() -> None:
    """R89: the virtual level may exceed 12: Law 12 counts as 15 for "1 scholar per 3 Law"."""
    sc = scenario(["blessed", "felines", "goblins"], ["mountain", "lake", "desert"], tile="T1")
    sc.set(0, science={"law": 12}, cities=1).set(1, science={"law": 11}, cities=1).display_bonus(*PASS_DISPLAY)
    g = play(sc.turn(0), "pass", "bonus B3", "pass", "bonus B8", "pass", "bonus B1")
    assert val(g, 0, P_SCHOLARS) == 5  # (12 + 3) // 3 = 5, not min(12 + 3, 12) // 3 = 4
    assert val(g, 1, P_SCHOLARS) == 3  # Felines: 11 // 3 = 3


# ------------------------------------------------------------------------------------------------
# R90 Felines


def _felines_city(game: str = "aoi(players=3)") -> Scenario:
    """Felines (Forest) with Palace + Guild + Workshop in a row: a 4th Workshop founds a city (R43)."""
    sc = scenario(["felines", "goblins", "omar"], ["forest", "desert", "lake"], game=game)
    return sc.build(0, "r8c5", "palace").build(0, "r8c6", "guild").build(0, "r8c7", "workshop")


def test_r90_felines_found_city_gain_three_steps_and_a_book() -> None:
    """R90: each time the Felines found a city they advance 3 steps in total, split freely over the
    disciplines, and gain 1 book of their choice (after the city tile's own reward, R45)."""
    g = _felines_city().turn(0)
    play(g, "build", "target r8c8")  # forest is native: build only; power 3 + 2 + 1 + 1 = 7, 4 buildings
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K1")  # K1: 4 VP + 3 tools, and a key
    assert g.pending_kind() == Kind.CHOOSE_BOOKS
    play(g, "book law")
    assert g.legal_moves() == ["step banking", "step law", "step engineering", "step medicine"]
    play(g, "step law", "step law", "step medicine")
    assert g.pending_kind() == Kind.POST
    assert sci(g, 0) == [0, 2, 0, 1]  # 3 steps split 2 law + 1 medicine
    assert books(g, 0) == [0, 1, 0, 0]
    assert val(g, 0, P_VP) == 24  # 20 + 4 (K1)
    assert val(g, 0, P_TOOLS) == 5  # 3 - 1 (Workshop) + 3 (K1)
    assert val(g, 0, P_CITIES) == 1


def test_r90_goblins_found_city_without_the_felines_bonus() -> None:
    """R90 is a Felines ability: another faction founding the same city gets no steps and no book."""
    sc = scenario(["goblins", "felines", "omar"], ["forest", "desert", "lake"])
    sc.build(0, "r8c5", "palace").build(0, "r8c6", "guild").build(0, "r8c7", "workshop")
    g = play(sc.turn(0), "build", "target r8c8", "city K1")
    assert g.pending_kind() == Kind.POST
    assert sci(g, 0) == [0, 0, 0, 0] and books(g, 0) == [0, 0, 0, 0]


def _felines_palace11(game: str) -> Game:
    sc = scenario(["felines", "goblins", "omar"], ["forest", "desert", "lake"], game=game)
    sc.build(0, "r8c6", "guild").offer_palace(11, 17).set(0, tools=4, coins=6)
    return play(sc.turn(0), "upgrade palace", "upgrade r8c6", "palace 11", "city K1")


def test_op18_felines_palace11_tile_counts_as_founding_in_v12() -> None:
    """OP-18 (v1.2, [UA]): taking palace 11's city tile counts as founding a city, so the Felines
    get their 3 steps and book although no city appears on the map."""
    g = _felines_palace11("aoi(players=3)")
    assert g.pending_kind() == Kind.CHOOSE_BOOKS
    play(g, "book banking", "step banking", "step banking", "step banking")
    assert g.pending_kind() == Kind.POST
    assert sci(g, 0) == [3, 0, 0, 0] and books(g, 0) == [1, 0, 0, 0]
    assert val(g, 0, P_CITIES) == 1  # the key (R131)
    assert val(g, 0, P_VP) == 24  # 20 + 4 (K1)


def test_op18_felines_palace11_tile_is_not_founding_in_v10() -> None:
    """OP-18 / R145 (v1.0, [PL]): the founding sentence is missing, so palace 11's tile does not
    trigger the Felines (it still gives its VP, bonus and key)."""
    g = _felines_palace11("aoi(players=3,ruleset=v1.0)")
    assert g.pending_kind() == Kind.POST
    assert sci(g, 0) == [0, 0, 0, 0] and books(g, 0) == [0, 0, 0, 0]
    assert val(g, 0, P_CITIES) == 1
    assert val(g, 0, P_VP) == 24  # 20 + 4 (K1)


# ------------------------------------------------------------------------------------------------
# R91 Goblins


def test_r91_goblins_two_coins_per_spade_bought_with_tools() -> None:
    """R91: +2 coins for each spade used, here two spades bought with tools in a TB action."""
    sc = scenario(["goblins", "felines", "omar"], ["desert", "forest", "lake"])
    g = sc.build(0, "r8c4", "workshop").set(0, tools=7).turn(0)
    play(g, "build", "target r8c5", "spades 2")  # mountain -> desert: 2 spades x 3 tools
    assert terrain_at(g, "r8c5") == Terrain.DESERT
    assert val(g, 0, P_COINS) == 19  # 15 + 2 x 2
    play(g, "workshop")
    assert val(g, 0, P_COINS) == 17  # 19 - 2 (Workshop)
    assert val(g, 0, P_TOOLS) == 0  # 7 - 6 (spades) - 1 (Workshop)


def test_r91_goblins_coins_for_free_spades_of_a_spell() -> None:
    """R91: the coins come for spades of any source: the 2 free spades of spell S6, split over two
    hexes (R63.3)."""
    sc = scenario(["goblins", "felines", "omar"], ["desert", "forest", "lake"])
    g = sc.build(0, "r8c4", "workshop").set(0, bowls=(6, 0, 6)).turn(0)
    play(g, "spell S6", "target r7c4", "spades 1")  # wasteland -> desert: 1 spade, native
    assert val(g, 0, P_COINS) == 17  # 15 + 2
    play(g, "spade r8c5")  # the second free spade: mountain -> wasteland
    assert terrain_at(g, "r8c5") == Terrain.WASTELAND
    assert val(g, 0, P_COINS) == 19  # 17 + 2
    assert val(g, 0, P_TOOLS) == 3  # free spades cost no tools


def test_op36_goblins_coins_for_phase3_science_spades() -> None:
    """R91 / OP-36: the Goblins also get 2 coins per spade from the Phase III science bonus
    (T6: 1 spade per 4 Engineering)."""
    sc = scenario(["goblins", "felines", "omar"], ["desert", "forest", "lake"], tile="T6")
    sc.build(0, "r8c4", "workshop").set(0, science={"engineering": 7}).display_bonus(*PASS_DISPLAY)
    g = play(sc.turn(0), "pass", "bonus B3", "pass", "bonus B8", "pass", "bonus B1")
    assert g.pending_kind() == Kind.SPADES and g.current_seat() == 0  # 7 // 4 = 1 spade
    assert "workshop" not in g.legal_moves()
    play(g, "spade r8c5")
    assert terrain_at(g, "r8c5") == Terrain.WASTELAND
    # Phase III done, then round 2 income: 1 tool (base), 1 tool (Workshop), 3 power (B3): no coins
    assert val(g, 0, P_COINS) == 17  # 15 + 2 (Goblins)


def test_op37_goblins_coins_for_desert_setup_spade() -> None:
    """R91 / R23 / OP-37: the Desert board's setup spade also pays the Goblins 2 coins."""
    g = setup_game("aoi(players=3,factions=goblins+felines+omar,boards=desert+forest+lake,skip_forced=false)")
    play_setup(
        g,
        {
            0: ["bonus B7", "place r8c4", "place r8c11"],
            1: ["bonus B10", "place r1c3", "place r4c1"],
            2: [
                "bonus B9",
                "start workshop",
                "place r0c2",
                "start workshop",
                "place r1c4",
                "start tower",
                "place r2c1",
            ],
        },
    )
    assert g.pending_kind() == Kind.SPADES and g.current_seat() == 0
    assert val(g, 0, P_COINS) == 15
    play(g, "spade r8c5")  # mountain -> wasteland, one step toward desert
    assert terrain_at(g, "r8c5") == Terrain.WASTELAND
    # round 1 income: base 1 tool + 2 Workshop tools + B7 2 tools, no coins
    assert val(g, 0, P_COINS) == 17  # 15 + 2 (Goblins)


# ------------------------------------------------------------------------------------------------
# R92 Illusionists


ILLUSIONIST_VP = [
    ("aoi(players=2)", 1),  # v1.2: 1 VP with 2-3 players
    ("aoi(players=3)", 1),
    ("aoi(players=4)", 2),  # v1.2: 2 VP with 4-5 players
    ("aoi(players=5)", 2),
    ("aoi(players=3,ruleset=v1.0)", 3),  # v1.0: 3 VP
    ("aoi(players=4,ruleset=v1.0)", 3),
    ("aoi(players=5,ruleset=v1.0)", 4),  # v1.0: 4 VP with 5 players
]


@pytest.mark.parametrize(("game", "vp"), ILLUSIONIST_VP)
def test_op13_illusionists_spell_costs_one_less_and_scores_vp(game: str, vp: int) -> None:
    """R92 / OP-13: a spell costs the Illusionists 1 power less and scores VP per spell:
    v1.2 1 VP (2-3 players) / 2 VP (4-5 players); v1.0 3 VP / 4 VP with 5 players."""
    n = seats_of(game)
    factions = ["illusionists", "felines", "goblins", "omar", "monks"][:n]
    boards = ["lake", "forest", "desert", "swamp", "plains"][:n]
    g = scenario(factions, boards, game=game).set(0, bowls=(5, 4, 3)).turn(0)
    assert "spell S5" in g.legal_moves()  # S5 costs 4 power; 3 in bowl III is enough
    play(g, "spell S5")
    assert bowls(g, 0) == (8, 4, 0)  # 4 - 1 = 3 tokens III -> I
    assert val(g, 0, P_COINS) == 22  # 15 + 7
    assert val(g, 0, P_VP) == 20 + vp


def test_r92_other_factions_pay_the_full_spell_cost() -> None:
    """R92 / R75: without the Illusionists' discount, 3 power in bowl III cannot pay spell S5."""
    g = scenario(["felines", "illusionists", "goblins"], ["lake", "forest", "desert"]).set(0, bowls=(5, 4, 3)).turn(0)
    assert "spell S5" not in g.legal_moves()
    assert "spell S2" in g.legal_moves()  # S2 costs 3


def test_r92_illusionists_book_action_is_not_a_spell() -> None:
    """R92: book actions are not spells: no discount and no VP."""
    sc = scenario(["illusionists", "felines", "goblins"], ["lake", "forest", "desert"])
    sc.state().glob[G_BOOK_ACTIONS] = [0, 1, 2]  # BA1 BA2 BA3
    g = sc.set(0, books={"law": 2}).turn(0)
    play(g, "book BA2", "pay law", "pay law")  # 2 books -> 6 coins
    assert val(g, 0, P_COINS) == 21  # 15 + 6
    assert val(g, 0, P_VP) == 20  # no spell VP
    assert books(g, 0) == [0, 0, 0, 0]  # the full 2 books


# ------------------------------------------------------------------------------------------------
# R93 Inventors


def _inventors_setup(comp: str) -> Game:
    g = setup_game("aoi(players=3,factions=inventors+goblins+felines,boards=plains+swamp+lake,skip_forced=false)")
    play_setup(
        g,
        {
            0: ["bonus B7", "place r0c4", "place r0c10"],
            1: ["bonus B10", "place r0c3", "place r0c9"],
            2: ["bonus B9", "place r0c2", "place r0c8"],
        },
    )
    assert g.pending_kind() == Kind.CHOOSE_COMPETENCY and g.current_seat() == 0
    return play(g, f"competency {comp}")


def test_r93_inventors_take_a_competency_after_placement_income_from_round_1() -> None:
    """R93 / R53: after the initial Workshops and the bonus tile pick, the Inventors take any
    competency with its position reward; its income is paid from round 1 on."""
    g = _inventors_setup("C2")  # C2 on the banking middle space: 2 steps + 1 banking book; income 3 VP + 2 C
    assert sci(g, 0) == [2, 0, 0, 0]  # the Inventors' faction tile has no steps
    assert books(g, 0) == [1, 0, 0, 0]
    assert val(g, 0, P_COMPETENCIES) == 1 << 1
    assert g.pending_kind() == Kind.MAIN  # round 1 has begun
    assert val(g, 0, P_VP) == 23  # 20 + 3 (C2 income, round 1)
    assert val(g, 0, P_COINS) == 17  # 15 + 2 (C2 income; B7 and the board give tools only)


def test_r93_inventors_competency_spades_are_used_at_once_without_workshop() -> None:
    """R93 / R23 / OP-37: spades of the setup competency (C5: TB with 2 spades) are used at once,
    split over hexes in reach, never with a Workshop and never with bought spades."""
    g = _inventors_setup("C5")  # C5 on the law middle space: 2 law steps + 1 law book
    assert sci(g, 0) == [0, 2, 0, 0] and books(g, 0) == [0, 1, 0, 0]
    assert g.pending_kind() == Kind.SPADES and g.current_seat() == 0
    assert "workshop" not in " ".join(g.legal_moves())
    play(g, "spade r0c5", "spade r1c4")  # one step toward plains on each hex
    assert terrain_at(g, "r0c5") == Terrain.DESERT  # wasteland -> desert
    assert terrain_at(g, "r1c4") == Terrain.SWAMP  # lake -> swamp
    assert building_at(g, "r0c5")[0] == Building.NONE and building_at(g, "r1c4")[0] == Building.NONE
    assert val(g, 0, P_TOOLS) == 3 + 1 + 2 + 2  # start 3; income: base 1, 2 Workshops, B7 2 (no tools spent)


# ------------------------------------------------------------------------------------------------
# R94 Lizards


@pytest.mark.parametrize(
    ("moves", "science"),
    [(["step law", "step law"], [0, 2, 0, 0]), (["step banking", "step medicine"], [1, 0, 0, 1])],
)
def test_r94_lizards_choose_their_setup_steps(moves: list[str], science: list[int]) -> None:
    """R94 / R19: the Lizards' setup steps are a choice: 2 steps in one discipline or 1 step in
    each of two disciplines."""
    g = setup_game("aoi(players=3,factions=lizards+goblins+felines,boards=plains+swamp+lake,skip_forced=false)")
    play_setup(g, {0: ["bonus B7"], 1: ["bonus B10"], 2: ["bonus B9"]})
    assert g.pending_kind() == Kind.STEPS_ANY and g.current_seat() == 0
    play(g, *moves)
    assert sci(g, 0) == science
    assert g.pending_kind() == Kind.INITIAL_PLACE  # then the snake placement begins


def _lizards_city() -> Game:
    """Lizards (Swamp): Palace + Guild + Workshop; a Workshop on r8c8 founds a city."""
    sc = scenario(["lizards", "goblins", "omar"], ["swamp", "desert", "lake"], tile="T1")
    sc.build(0, "r8c5", "palace").build(0, "r8c6", "guild").build(0, "r8c7", "workshop")
    sc.terrain("r8c8", "swamp").terrain("r7c6", "plains")
    g = play(sc.turn(0), "build", "target r8c8")  # T1: +2 VP for the Workshop
    assert val(g, 0, P_VP) == 22
    return play(g, "city K1")  # 4 VP + 3 tools


def test_r94_lizards_city_gives_tb_with_free_spade_and_free_workshop_anywhere() -> None:
    """R94 / OP-53: after founding a city the Lizards take a TB with 1 free spade and 1 free
    Workshop; the Workshop may go on any native hex in reach (here one reached only through the
    Workshop that founded the city), not only on the terraformed hex, and it is a build."""
    g = _lizards_city()
    assert g.pending_kind() == Kind.TB_TARGET
    assert "skip" in g.legal_moves()
    coins, tools = val(g, 0, P_COINS), val(g, 0, P_TOOLS)
    play(g, "target r7c6", "spades 1")  # plains -> swamp with the free spade
    assert terrain_at(g, "r7c6") == Terrain.SWAMP
    assert g.pending_kind() == Kind.LIZARD_BUILD
    assert {"workshop r7c6", "workshop r7c8", "done"} <= set(g.legal_moves())
    play(g, "workshop r7c8")  # r7c8 (swamp) touches only the new Workshop on r8c8
    assert building_at(g, "r7c8") == (Building.WORKSHOP, 0)
    assert building_at(g, "r7c6")[0] == Building.NONE
    assert (val(g, 0, P_COINS), val(g, 0, P_TOOLS)) == (coins, tools)  # spade and Workshop free
    assert val(g, 0, P_VP) == 28  # 22 + 4 (K1) + 2 (T1: the free Workshop is a build)
    assert val(g, 0, P_BUILT.start + Building.WORKSHOP) == 3


def test_r94_op53_lizards_workshop_may_go_on_the_hex_reached_by_a_palace9_flight() -> None:
    """R94 / OP-53, R129: the city TB may fly (palace 9); the flown-to hex, made native by the
    free spade, is out of ordinary reach, yet it is the hex just terraformed, which the free
    Workshop may always use ([UA] "need not be built on the just terraformed hex")."""
    sc = scenario(["lizards", "goblins", "omar"], ["swamp", "desert", "lake"], tile="T1")
    sc.build(0, "r8c5", "palace").palace_tile(0, 9).build(0, "r8c6", "guild").build(0, "r8c7", "workshop")
    sc.terrain("r8c8", "swamp").set(0, scholars=2, scholar_supply=5)
    g = play(sc.turn(0), "build", "target r8c8", "city K1", "fly", "fly r5c4", "spades 1")
    assert terrain_at(g, "r5c4") == Terrain.SWAMP and not terrain.reach(g, 0)[parse_hex("r5c4")]
    assert g.pending_kind() == Kind.LIZARD_BUILD and "workshop r5c4" in g.legal_moves()
    play(g, "workshop r5c4")
    assert building_at(g, "r5c4") == (Building.WORKSHOP, 0)


def test_r94_lizards_may_skip_the_spade_and_only_build() -> None:
    """R94 / OP-53: the Lizards may skip the spade and just place the free Workshop."""
    g = _lizards_city()
    play(g, "skip")
    assert g.pending_kind() == Kind.LIZARD_BUILD
    play(g, "workshop r7c5")  # native swamp next to the city
    assert building_at(g, "r7c5") == (Building.WORKSHOP, 0)
    assert terrain_at(g, "r7c6") == Terrain.PLAINS  # no spade was used


@pytest.mark.parametrize(("game", "tb"), [("aoi(players=3)", True), ("aoi(players=3,ruleset=v1.0)", False)])
def test_op18_lizards_palace11_tile_gives_the_city_tb_in_v12_only(game: str, tb: bool) -> None:
    """OP-18 / R145: palace 11's city tile counts as founding in v1.2, so the Lizards get their
    TB; in v1.0 it does not."""
    sc = scenario(["lizards", "goblins", "omar"], ["swamp", "desert", "lake"], game=game)
    sc.build(0, "r8c6", "guild").offer_palace(11, 17).set(0, tools=4, coins=6)
    g = play(sc.turn(0), "upgrade palace", "upgrade r8c6", "palace 11", "city K1")
    assert (g.pending_kind() == Kind.TB_TARGET) is tb
    assert (g.pending_kind() == Kind.POST) is not tb


# ------------------------------------------------------------------------------------------------
# R95 Moles

MOLES_TUNNEL_VP = [
    ("aoi(players=3)", 5),  # v1.2: 2 + P
    ("aoi(players=4)", 6),
    ("aoi(players=5)", 7),
    ("aoi(players=3,ruleset=v1.0)", 4),  # v1.0: 4
    ("aoi(players=5,ruleset=v1.0)", 4),
]


@pytest.mark.parametrize(("game", "vp"), MOLES_TUNNEL_VP)
def test_op14_moles_tunnel_costs_a_tool_and_scores(game: str, vp: int) -> None:
    """R95 / OP-14 / OP-48: in a TB the Moles may pay 1 tool to skip one hex: the target is not
    adjacent to a Moles building but a neighbour of it is.  VP per tunnel: v1.2 2 + P, v1.0 4."""
    n = seats_of(game)
    factions = ["moles", "felines", "goblins", "omar", "monks"][:n]
    boards = ["mountain", "forest", "desert", "swamp", "plains"][:n]
    g = scenario(factions, boards, game=game).build(0, "r8c5", "workshop").set(0, tools=5).turn(0)
    play(g, "build")
    assert "target r6c5" not in g.legal_moves()  # r6c5 is two hexes away: not in reach
    assert "tunnel" in g.legal_moves()
    play(g, "tunnel")
    tunnel = set(g.legal_moves())
    assert "tunnel r6c5" in tunnel and "tunnel r7c6" in tunnel
    assert not {"tunnel r7c5", "tunnel r8c6", "tunnel r7c4"} & tunnel  # adjacent to the Workshop
    play(g, "tunnel r6c5")
    assert val(g, 0, P_VP) == 20 + vp
    play(g, "spades 1", "workshop")  # forest -> mountain: 1 spade
    assert building_at(g, "r6c5") == (Building.WORKSHOP, 0)
    assert val(g, 0, P_TOOLS) == 0  # 5 - 1 (tunnel) - 3 (spade) - 1 (Workshop)


def test_r95_moles_tunnel_under_a_river_even_without_sailing() -> None:
    """R95: the skipped hex may be a river hex; r7c4 lies behind the river hex r7c3, out of reach
    with sailing 0, but is a tunnel target."""
    sc = scenario(["moles", "felines", "goblins"], ["lake", "forest", "desert"])
    g = sc.build(0, "r7c2", "workshop").set(0, sailing=0, tools=5).turn(0)
    play(g, "build")
    assert "target r7c4" not in g.legal_moves()
    play(g, "tunnel", "tunnel r7c4", "spades 1")  # wasteland -> mountain, one step toward lake
    assert val(g, 0, P_VP) == 25  # 20 + 5 (3 players, v1.2)
    assert terrain_at(g, "r7c4") == Terrain.MOUNTAIN


def test_r95_moles_tunnel_allowed_even_when_target_in_sailing_reach() -> None:
    """R95: a tunnel is allowed even if the target could be reached by sailing."""
    sc = scenario(["moles", "felines", "goblins"], ["lake", "forest", "desert"])
    g = sc.build(0, "r7c2", "workshop").set(0, sailing=1, tools=5).turn(0)
    play(g, "build")
    assert "target r7c4" in g.legal_moves()  # sailing 1 crosses r7c3
    play(g, "tunnel", "tunnel r7c4")
    assert val(g, 0, P_VP) == 25 and val(g, 0, P_TOOLS) == 4


def test_r95_op48_moles_tunnel_to_an_already_native_hex_just_builds() -> None:
    """R95 / OP-48: "during any TB action" covers a TB that only builds (R60: a native hex needs
    no spade), so a tunnel may reach a hex that is already the Moles' terrain.  The UA text calls
    the target "the hex being terraformed", which could be read as excluding this; we follow the
    "any TB action" wording (TM's Dwarves tunnel the same way).  Interpretation, see
    docs/components.md."""
    sc = scenario(["moles", "felines", "goblins"], ["mountain", "forest", "desert"])
    g = sc.build(0, "r8c5", "workshop").terrain("r6c5", "mountain").set(0, tools=5, coins=10).turn(0)
    play(g, "build", "tunnel", "tunnel r6c5")
    assert building_at(g, "r6c5") == (Building.WORKSHOP, 0)  # no spade needed: the Workshop follows
    assert val(g, 0, P_VP) == 25  # 20 + 5 (tunnel)
    assert val(g, 0, P_TOOLS) == 3  # 5 - 1 (tunnel) - 1 (Workshop)


def test_r95_moles_tunnel_in_a_bonus_tb() -> None:
    """R95: "during any TB action": the free-spade TB of spell S3 may use a tunnel too."""
    sc = scenario(["moles", "felines", "goblins"], ["mountain", "forest", "desert"])
    g = sc.build(0, "r8c5", "workshop").set(0, bowls=(5, 3, 4)).turn(0)
    play(g, "spell S3", "tunnel", "tunnel r6c5", "spades 1", "workshop")  # forest -> mountain: free spade
    assert building_at(g, "r6c5") == (Building.WORKSHOP, 0)
    assert val(g, 0, P_VP) == 25  # 20 + 5 (tunnel)
    assert val(g, 0, P_TOOLS) == 1  # 3 - 1 (tunnel) - 1 (Workshop)


def test_r95_other_factions_cannot_tunnel() -> None:
    """R95 is a Moles ability: the same position gives the Felines no tunnel."""
    sc = scenario(["felines", "moles", "goblins"], ["mountain", "forest", "desert"])
    g = sc.build(0, "r8c5", "workshop").set(0, tools=5).turn(0)
    play(g, "build")
    assert "tunnel" not in g.legal_moves()


def test_op47_moles_bridge_over_land_for_one_tool() -> None:
    """R95 / R77 / OP-47: as their action the Moles pay 1 tool for a bridge with relaxed geometry:
    r8c5-r7c6 is flanked by land hexes (r7c5, r8c6) and is no printed bridge location.  The bridge
    makes both ends adjacent (R38), so on the next turn r7c6 is in direct reach."""
    sc = scenario(["moles", "felines", "goblins"], ["mountain", "forest", "desert"])
    g = sc.build(0, "r8c5", "workshop").set(0, tools=10).display_bonus(*PASS_DISPLAY).turn(0)
    play(g, "molebridge")
    assert val(g, 0, P_TOOLS) == 9  # 10 - 1
    play(g, "bridge r8c5")
    assert "bridge to r7c6" in g.legal_moves()
    play(g, "bridge to r7c6", "done")
    assert val(g, 0, P_BRIDGES) == 1
    play(g, "pass", "bonus B3", "pass", "bonus B8")  # Felines and Goblins
    play(g, "build")
    assert "target r7c6" in g.legal_moves()  # desert, 2 spades from mountain


def test_op47_moles_bridge_ids_are_python_ints() -> None:
    """OP-47: the Moles' bridge ends and directions (from the relaxed bridge geometry) are plain
    ``int`` ids, like every other legal id: numpy integers broke ``json.dumps`` of the legal ids."""
    sc = scenario(["moles", "felines", "goblins"], ["mountain", "forest", "desert"])
    g = play(sc.build(0, "r8c5", "workshop").set(0, tools=10).turn(0), "molebridge")
    ends = g.legal_actions()
    assert ends and all(type(a) is int for a in ends)
    play(g, "bridge r8c5")
    directions = g.legal_actions()
    assert directions and all(type(a) is int for a in directions)
    assert json.loads(json.dumps(ends + directions)) == ends + directions


def test_op47_without_the_bridge_the_hex_is_out_of_reach() -> None:
    """Counterpart of the Moles' bridge test: without it, r7c6 is no TB target (only a tunnel)."""
    sc = scenario(["moles", "felines", "goblins"], ["mountain", "forest", "desert"])
    g = play(sc.build(0, "r8c5", "workshop").set(0, tools=10).turn(0), "build")
    assert "target r7c6" not in g.legal_moves()


def test_op47_moles_bridge_is_a_moles_action() -> None:
    """R95 / R77: other factions have no bridge action of their own."""
    sc = scenario(["felines", "moles", "goblins"], ["mountain", "forest", "desert"])
    assert "molebridge" not in sc.build(0, "r8c5", "workshop").turn(0).legal_moves()


def test_op47_moles_bridge_limited_to_three_bridges() -> None:
    """R95 / R3 / OP-47: the Moles' bridge uses one of their 3 bridges; with 3 built the action is
    gone."""
    sc = scenario(["moles", "felines", "goblins"], ["mountain", "forest", "desert"])
    sc.build(0, "r8c5", "workshop").build(0, "r8c9", "workshop")
    sc.bridge(0, "r8c5", "r7c6").bridge(0, "r8c9", "r7c10").bridge(0, "r8c9", "r7c8")
    g = sc.turn(0)
    assert val(g, 0, P_BRIDGES) == 3
    assert "molebridge" not in g.legal_moves()


def test_r95_moles_tunnel_range_connects_for_final_area_scoring() -> None:
    """R95 / R83 / OP-48: in the final area scoring Moles buildings two hexes apart count as
    connected (no tools needed); the same layout of another faction makes two groups of one."""
    sc = scenario(["moles", "felines", "goblins"], ["mountain", "forest", "desert"])
    sc.build(0, "r8c5", "workshop").build(0, "r6c5", "workshop")  # r7c4 / r7c5 between them
    sc.build(1, "r8c9", "workshop").build(1, "r8c11", "workshop")  # r8c10 between them
    sc.build(2, "r0c4", "workshop")
    g = sc.round(6, tile="T10").turn(0)
    assert scoring.breakdown(g)["area_size"] == [2, 1, 1]
    vp = [val(g, seat, P_VP) for seat in range(3)]
    play(g, "pass", "pass", "pass")
    assert g.is_over()
    gained = [val(g, seat, P_VP) - vp[seat] for seat in range(3)]
    # area: Moles 18; Felines and Goblins tie for 2nd: (12 + 6) // 2 = 9 each.  Resources: every
    # seat has 15 C + 3 T + 7 // 2 = 21 coins -> 4 VP; the Felines' forest bowls 4/8: 22 -> 4 VP
    assert gained == [18 + 4, 9 + 4, 9 + 4]


# ------------------------------------------------------------------------------------------------
# R96 Monks


def _monks_omar_setup() -> Game:
    g = setup_game("aoi(players=3,factions=omar+monks+goblins,boards=mountain+lake+swamp,skip_forced=false)")
    return play_setup(
        g,
        {
            0: ["bonus B7", "start workshop", "place r0c6", "start workshop", "place r1c9"],
            1: ["bonus B10"],
            2: ["bonus B9", "place r0c3", "place r0c9"],
        },
    )


def test_op43_omar_tower_is_the_third_building_after_all_workshops() -> None:
    """R22 / OP-43: after every Workshop is placed, Omar places the third building; having placed
    two Workshops, only the Tower is left.  It goes on any empty native hex, no reach needed."""
    g = _monks_omar_setup()
    assert g.pending_kind() == Kind.INITIAL_KIND and g.current_seat() == 0
    assert g.legal_moves() == ["start tower"]
    play(g, "start tower")
    assert "place r8c9" in g.legal_moves()  # far from both Workshops
    play(g, "place r8c9")
    assert building_at(g, "r8c9") == (Building.TOWER, 0)
    assert val(g, 0, P_NEUTRAL_BUILT.start + Building.TOWER) == 1


def test_op43_omar_may_place_the_tower_in_the_snake() -> None:
    """OP-43: Omar chooses Workshop or Tower at each of its three placements: the Tower first
    leaves Workshops for the other two."""
    g = setup_game("aoi(players=3,factions=omar+monks+goblins,boards=mountain+lake+swamp,skip_forced=false)")
    script = {
        0: ["bonus B7", "start tower", "place r8c9"],
        1: ["bonus B10"],
        2: ["bonus B9", "place r0c3", "place r0c9"],
    }
    play_setup(g, script)
    assert g.pending_kind() == Kind.INITIAL_KIND and g.current_seat() == 0  # Omar's 2nd placement
    assert g.legal_moves() == ["start workshop"]  # the Tower is placed
    script[0] += ["start workshop", "place r0c6"]
    play_setup(g, script)
    assert g.pending_kind() == Kind.INITIAL_KIND and g.current_seat() == 0  # the 3rd, after all Workshops
    assert g.legal_moves() == ["start workshop"]
    play(g, "start workshop", "place r1c9")
    assert val(g, 0, P_BUILT.start + Building.WORKSHOP) == 2
    assert val(g, 0, P_NEUTRAL_BUILT.start + Building.TOWER) == 1
    assert g.pending_kind() == Kind.INITIAL_PLACE and g.current_seat() == 1  # then the Monks


def test_op44_monks_place_their_university_after_everyone_and_take_a_competency() -> None:
    """R22 / R96 / OP-44: the Monks place no Workshops; after all others (Omar's third building
    included) they place their University on any empty native hex and take a competency, whose
    income starts in round 1 together with the University's scholar."""
    g = _monks_omar_setup()
    assert val(g, 1, P_BUILT.start + Building.WORKSHOP) == 0  # the snake skipped the Monks
    play(g, "start tower", "place r8c9")
    assert g.pending_kind() == Kind.INITIAL_PLACE and g.current_seat() == 1
    assert "place r8c7" in g.legal_moves()  # any empty lake hex
    play(g, "place r8c7")
    assert building_at(g, "r8c7") == (Building.UNIVERSITY, 1)
    assert g.pending_kind() == Kind.CHOOSE_COMPETENCY and g.current_seat() == 1
    play(g, "competency C2")  # banking middle space: 2 banking steps + 1 banking book
    assert sci(g, 1) == [2, 1, 0, 0]  # + the Monks' 1 law
    assert books(g, 1) == [1, 0, 0, 0]
    assert g.pending_kind() == Kind.MAIN  # round 1
    assert val(g, 1, P_VP) == 23  # 20 + 3 (C2 income in round 1)
    assert val(g, 1, P_SCHOLARS) == 1  # the University's income space


# ------------------------------------------------------------------------------------------------
# R97 Navigators


@pytest.mark.parametrize(("game", "coins"), [("aoi(players=3)", 1), ("aoi(players=3,ruleset=v1.0)", 0)])
def test_op15_navigators_workshop_next_to_river(game: str, coins: int) -> None:
    """R97 / OP-15: each Workshop the Navigators build next to a river hex: +2 VP, and +1 coin in
    v1.2 only."""
    sc = scenario(["navigators", "felines", "goblins"], ["lake", "forest", "desert"], game=game)
    g = sc.build(0, "r8c9", "workshop").turn(0)
    play(g, "build", "target r7c9")  # lake, next to the river hexes r6c9 / r6c10
    assert val(g, 0, P_VP) == 22  # 20 + 2
    assert val(g, 0, P_COINS) == 13 + coins  # 15 - 2 (Workshop) + bonus coin


def test_r97_navigators_no_bonus_away_from_river() -> None:
    """R97: a Workshop not next to a river gives the Navigators nothing."""
    sc = scenario(["navigators", "felines", "goblins"], ["lake", "forest", "desert"])
    g = sc.build(0, "r8c9", "workshop").terrain("r8c8", "lake").turn(0)
    play(g, "build", "target r8c8")  # no river around r8c8
    assert val(g, 0, P_VP) == 20
    assert val(g, 0, P_COINS) == 13  # 15 - 2


# ------------------------------------------------------------------------------------------------
# R98 Omar


def test_r98_omar_income_two_power_two_coins() -> None:
    """R98 / R57: Omar's faction income is 2 power + 2 coins in every Phase I."""
    g = _monks_omar_setup()
    play(g, "start tower", "place r8c9", "place r8c7", "competency C7")
    assert g.pending_kind() == Kind.MAIN  # round 1 income is paid
    assert val(g, 0, P_COINS) == 19  # 15 + 2 (Omar) + 2 (Mountain board base income)
    assert bowls(g, 0) == (3, 9, 0)  # 5/7/0 + 2 power (I -> II)


def test_r98_omar_tower_power_two_in_offers() -> None:
    """R98 / R41 / R42: Omar's Tower has power value 2: a build next to it offers Omar 2 power
    (for 1 VP)."""
    sc = scenario(["omar", "goblins", "felines"], ["lake", "desert", "forest"])
    sc.build(0, "r8c6", "tower", neutral=True).build(1, "r7c7", "workshop")
    g = sc.turn(1)
    play(g, "build", "target r7c6")  # desert is the Goblins' native terrain: build only
    assert g.pending_kind() == Kind.OFFER and g.current_seat() == 0
    play(g, "leech accept")
    assert bowls(g, 0) == (3, 9, 0)  # +2 power
    assert val(g, 0, P_VP) == 19  # 2 - 1 = 1 VP paid


@pytest.mark.parametrize(("third", "city"), [("tower", True), ("workshop", False)])
def test_r98_omar_tower_power_two_for_cities(third: str, city: bool) -> None:
    """R98 / R43: the Tower counts 2 power for a city: Tower + Guild + Guild + Workshop = 7 founds a
    city; with a Workshop instead of the Tower the group has only 6."""
    sc = scenario(["omar", "goblins", "felines"], ["lake", "desert", "forest"])
    sc.build(0, "r8c5", third, neutral=third == "tower").build(0, "r8c6", "guild").build(0, "r8c7", "guild")
    g = play(sc.terrain("r8c8", "lake").turn(0), "build", "target r8c8")
    assert (g.pending_kind() == Kind.CHOOSE_CITY) is city


# ------------------------------------------------------------------------------------------------
# R99 Philosophers


def test_r99_philosophers_extra_book_of_the_column_per_competency() -> None:
    """R99 / R53.5: each competency gives the Philosophers 1 extra book of its column's
    discipline, even from a top-row space that gives no book."""
    sc = scenario(["philosophers", "felines", "goblins"], ["lake", "forest", "desert"])
    g = sc.build(0, "r8c7", "guild").set(0, tools=3, coins=5).turn(0)
    play(g, "upgrade school", "upgrade r8c7", "competency C7")  # engineering top: 3 steps, no book
    assert sci(g, 0) == [0, 0, 3, 0]
    assert books(g, 0) == [0, 0, 1, 0]  # 0 + 1 (Philosophers)


def test_r99_other_faction_gets_no_extra_competency_book() -> None:
    """R99 is a Philosophers ability: the same competency gives the Felines no book."""
    sc = scenario(["felines", "philosophers", "goblins"], ["lake", "forest", "desert"])
    g = sc.build(0, "r8c7", "guild").set(0, tools=3, coins=5).turn(0)
    play(g, "upgrade school", "upgrade r8c7", "competency C7")
    assert books(g, 0) == [0, 0, 0, 0]


def test_op61_philosophers_special_action_one_book_once_per_round() -> None:
    """R99 / R76 / OP-61: the special action gives 1 book of choice, once per round; the X token
    comes off in Phase III."""
    sc = scenario(["philosophers", "felines", "goblins"], ["lake", "forest", "desert"])
    g = sc.display_bonus(*PASS_DISPLAY).turn(0)
    play(g, "special faction", "book medicine", "done")
    assert books(g, 0) == [0, 0, 0, 1]
    play(g, "pass", "bonus B3")  # Felines
    assert g.current_seat() == 2
    play(g, "pass", "bonus B8")  # Goblins
    assert g.current_seat() == 0
    assert "special faction" not in g.legal_moves()  # used this round
    play(g, "pass", "bonus B1")
    assert g.pending_kind() == Kind.MAIN and g.current_seat() == 1  # round 2, the Felines passed first
    play(g, "pass", "bonus B10")
    play(g, "pass", "bonus B9")
    assert g.current_seat() == 0
    assert "special faction" in g.legal_moves()  # round 2: available again


# ------------------------------------------------------------------------------------------------
# R100 Psychics


def test_op42_psychics_special_gives_power_then_second_action_with_conversions() -> None:
    """R100 / OP-42 / OP-59: the special action first gains 5 power, then the Psychics take a
    second action at once; free conversions are allowed between the two."""
    sc = scenario(["psychics", "felines", "goblins"], ["lake", "forest", "desert"])
    g = sc.set(0, bowls=(0, 12, 0)).turn(0)
    assert "spell S5" not in g.legal_moves()
    play(g, "special faction")
    assert bowls(g, 0) == (0, 7, 5)  # +5 power: II -> III
    assert g.pending_kind() == Kind.MAIN and g.current_seat() == 0
    assert "special faction" not in g.legal_moves()
    play(g, "convert 1pw coin")  # a conversion between the two actions
    assert val(g, 0, P_COINS) == 16
    play(g, "spell S5")  # 4 power -> 7 coins
    assert bowls(g, 0) == (5, 7, 0)
    assert val(g, 0, P_COINS) == 23  # 16 + 7
    assert g.pending_kind() == Kind.POST
    play(g, "done")
    assert g.current_seat() == 1  # one turn, two actions


def test_op42_psychics_second_action_may_be_another_special_action() -> None:
    """OP-42: the second action may be another special action (here round bonus tile B7: 1 step)."""
    sc = scenario(["felines", "goblins", "psychics"], ["lake", "forest", "desert"])  # seat 2 holds B7
    g = sc.turn(2)
    play(g, "special faction", "special bonus", "step law")
    assert sci(g, 2) == [0, 1, 0, 0]
    assert bowls(g, 2) == (0, 12, 0)  # 5 power: 5 tokens I -> II
    assert g.pending_kind() == Kind.POST


def test_op42_psychics_second_action_may_be_pass() -> None:
    """OP-42: the second action may be Pass."""
    sc = scenario(["psychics", "felines", "goblins"], ["lake", "forest", "desert"])
    g = sc.display_bonus(*PASS_DISPLAY).turn(0)
    play(g, "special faction", "pass")
    assert g.pending_kind() == Kind.PASS_BONUS
    play(g, "bonus B3")
    assert g.current_seat() == 1


# ------------------------------------------------------------------------------------------------
# Faction sub-cases: Lizards without a Workshop, buying spades in their TB; Navigators' neutral
# Workshop; the Moles' bridge negatives; Felines' cities completed by a bridge or a river crossing;
# a Guild next to Omar's Tower.


def _lizards_city_tb(tools: int = 3, terraforming: int = 0, workshops_elsewhere: int = 0) -> Game:
    """Lizards (Swamp, round tile T1): Palace + Guild + Workshop; a Workshop on r8c8 founds a city,
    K5 (6 VP + 6 coins) is taken and the city TB is pending.  ``workshops_elsewhere`` Workshops are
    first put on far hexes of row 0 (with 7 of them the city's Workshop is the last of the 9)."""
    sc = scenario(["lizards", "goblins", "omar"], ["swamp", "desert", "lake"], tile="T1")
    sc.build(0, "r8c5", "palace").build(0, "r8c6", "guild").build(0, "r8c7", "workshop")
    for hex_ in ("r0c2", "r0c3", "r0c4", "r0c5", "r0c6", "r0c8", "r0c9")[:workshops_elsewhere]:
        sc.build(0, hex_, "workshop")
    sc.terrain("r8c8", "swamp").terrain("r7c6", "plains").set(0, tools=tools, terraforming=terraforming)
    g = play(sc.turn(0), "build", "target r8c8", "city K5")  # T1: +2 VP; K5: 6 VP + 6 coins
    assert g.pending_kind() == Kind.TB_TARGET
    return g


@pytest.mark.parametrize("moves", [["target r7c6", "spades 1"], ["skip"]])
def test_op53_lizards_city_tb_without_a_workshop_left_uses_only_the_spade(moves: list[str]) -> None:
    """R94 / OP-53: "If no Workshop is left on the board, only the spade is used": the city's
    Workshop was the last of the 9, so after the free spade (or skipping it) the Workshop step
    offers nothing but ``done`` (no dead end), and nothing is built or paid."""
    g = _lizards_city_tb(workshops_elsewhere=7)
    assert val(g, 0, P_BUILT.start + Building.WORKSHOP) == 9  # none left on the planning board
    coins, tools = val(g, 0, P_COINS), val(g, 0, P_TOOLS)
    assert (coins, tools) == (19, 2)  # 15 - 2 + 6 (K5); 3 - 1 (Workshop)
    play(g, *moves)
    assert g.pending_kind() == Kind.LIZARD_BUILD
    assert g.legal_moves() == ["done"]
    play(g, "done")
    assert g.pending_kind() == Kind.POST and g.current_seat() == 0
    expected = Terrain.SWAMP if moves[0] != "skip" else Terrain.PLAINS  # plains -> swamp: 1 free spade
    assert terrain_at(g, "r7c6") == expected
    assert building_at(g, "r7c6") == (Building.NONE, -1)
    assert val(g, 0, P_BUILT.start + Building.WORKSHOP) == 9
    assert (val(g, 0, P_COINS), val(g, 0, P_TOOLS)) == (coins, tools)  # the free spade costs nothing
    assert val(g, 0, P_VP) == 28  # 20 + 2 (T1) + 6 (K5); no second Workshop, no second T1 VP


@pytest.mark.parametrize(("terraforming", "paid"), [(0, 6), (1, 4), (2, 2)])
def test_op53_lizards_buy_missing_spades_at_track_rate_and_the_workshop_stays_free(
    terraforming: int, paid: int
) -> None:
    """R94 / R63.1 / R37 / R64: the city TB's 1 free spade may be topped up by buying the missing
    spades with tools at the terraforming-track rate (3/2/1 tools per spade): r7c7 wasteland ->
    swamp needs 3 spades, so 2 are bought.  The Workshop then is still free ("no tool or coin
    cost") and it is a build (T1 +2 VP)."""
    g = _lizards_city_tb(tools=8, terraforming=terraforming)
    play(g, "target r7c7")
    assert terrain_at(g, "r7c7") == Terrain.WASTELAND
    assert g.legal_moves() == ["spades 1", "spades 2", "spades 3"]
    tools = val(g, 0, P_TOOLS)
    assert tools == 7  # 8 - 1 (the city's Workshop)
    play(g, "spades 3")
    assert terrain_at(g, "r7c7") == Terrain.SWAMP
    assert val(g, 0, P_TOOLS) == tools - paid  # 2 bought spades x 3 / 2 / 1 tools
    assert g.legal_moves() == ["workshop r7c5", "workshop r7c7", "workshop r7c8", "done"]
    coins, tools = val(g, 0, P_COINS), val(g, 0, P_TOOLS)
    play(g, "workshop r7c7")
    assert building_at(g, "r7c7") == (Building.WORKSHOP, 0)
    assert (val(g, 0, P_COINS), val(g, 0, P_TOOLS)) == (coins, tools) == (19, 7 - paid)
    assert val(g, 0, P_VP) == 30  # 20 + 2 (T1) + 6 (K5) + 2 (T1: the free Workshop)
    assert val(g, 0, P_BUILT.start + Building.WORKSHOP) == 3


def test_op53_lizards_bought_spades_are_limited_by_tools() -> None:
    """R94 / R63.1: bought spades are paid with tools: with 3 tools left at rate 3, r7c7 (3 spades
    from swamp) can take the free spade plus 1 bought one, not 3."""
    g = _lizards_city_tb(tools=4)
    assert val(g, 0, P_TOOLS) == 3
    play(g, "target r7c7")
    assert g.legal_moves() == ["spades 1", "spades 2"]
    play(g, "spades 2")
    assert terrain_at(g, "r7c7") == Terrain.PLAINS  # wasteland -> desert -> plains: in stages (R63.2)
    assert val(g, 0, P_TOOLS) == 0  # 3 - 3 (1 bought spade)
    assert g.legal_moves() == ["workshop r7c5", "workshop r7c8", "done"]  # r7c7 is not native yet


@pytest.mark.parametrize(
    ("game", "hex_", "vp", "coins"),
    [
        ("aoi(players=3)", "r7c9", 27, 16),  # v1.2: +2 VP +1 coin
        ("aoi(players=3,ruleset=v1.0)", "r7c9", 27, 15),  # v1.0: +2 VP only
        ("aoi(players=3)", "r8c8", 25, 15),  # no river next to r8c8: nothing
    ],
)
def test_op15_navigators_neutral_workshop_next_to_river(game: str, hex_: str, vp: int, coins: int) -> None:
    """R97 / OP-15 / R114 / R46.2 / R146: "Build Workshop (any source, incl. neutral)" -> next to a
    river: Navigators +2 VP (+1 C in v1.2).  The neutral Workshop innovation (5 books + 5 coins
    without a Palace, R73; T10 +5 VP) placed on r7c9 (lake, next to the river) scores it; placed
    on r8c8 (forest, terraformed with 3 tools, R46.1) it does not."""
    sc = scenario(["navigators", "felines", "goblins"], ["lake", "forest", "desert"], game=game)
    sc.build(0, "r8c9", "workshop").set(0, books={"banking": 5}, coins=20).display_innovations("neutral_workshop")
    # banking column (R20): 2 banking books are taken at once, then 3 any books
    g = play(sc.turn(0), "innovate", "innovation neutral_workshop", "pay banking", "pay banking", "pay banking")
    assert books(g, 0) == [0, 0, 0, 0]
    assert g.pending_kind() == Kind.NEUTRAL_PLACE
    assert g.legal_moves() == ["neutral r7c8", "neutral r7c9", "neutral r8c8"]
    assert (val(g, 0, P_VP), val(g, 0, P_COINS), val(g, 0, P_TOOLS)) == (25, 15, 3)  # 20 + 5 (T10); 20 - 5
    play(g, f"neutral {hex_}")
    assert building_at(g, hex_) == (Building.WORKSHOP, 0)
    assert terrain_at(g, hex_) == Terrain.LAKE
    assert val(g, 0, P_NEUTRAL_BUILT.start + Building.WORKSHOP) == 1
    assert val(g, 0, P_BUILT.start + Building.WORKSHOP) == 1  # only r8c9: the board's pieces are untouched
    assert val(g, 0, P_VP) == vp
    assert val(g, 0, P_COINS) == coins
    assert val(g, 0, P_TOOLS) == (0 if hex_ == "r8c8" else 3)  # 1 spade (forest -> lake) x 3 tools


@pytest.mark.parametrize(("tools", "offered"), [(0, False), (1, True)])
def test_op47_moles_bridge_needs_a_tool(tools: int, offered: bool) -> None:
    """R95 / R77 / OP-47: the Moles' bridge action costs 1 tool; with 0 tools it is not offered
    although free bridge ends exist (and it would be with 1 tool)."""
    sc = scenario(["moles", "felines", "goblins"], ["mountain", "forest", "desert"])
    g = sc.build(0, "r8c5", "workshop").set(0, tools=tools).turn(0)
    assert ("molebridge" in g.legal_moves()) is offered


def test_op47_moles_bridge_ends_need_a_moles_building() -> None:
    """R95 / OP-47: a Moles bridge joins two land hexes at bridge distance "and a Moles building
    at one end".  Around the Moles' Workshop on r8c5 the bridge-geometry pairs are r8c5-r6c5,
    r8c5-r7c6, r6c5-r7c6 and r7c6-r8c8 (a Felines Workshop); only the two with r8c5 are offered,
    whichever end is chosen first."""
    sc = scenario(["moles", "felines", "goblins"], ["mountain", "forest", "desert"])
    g = sc.build(0, "r8c5", "workshop").build(1, "r8c8", "workshop").set(0, tools=1).turn(0)
    play(g, "molebridge")
    assert val(g, 0, P_TOOLS) == 0
    assert g.pending_kind() == Kind.BRIDGE_END
    assert g.legal_moves() == ["bridge r6c5", "bridge r7c6", "bridge r8c5"]
    directions = {}
    for end in g.legal_moves():
        c = play(g.clone(), end)
        directions[end] = c.legal_moves()
    assert directions == {
        "bridge r6c5": ["bridge to r8c5"],  # not r7c6: neither end is a Moles building
        "bridge r7c6": ["bridge to r8c5"],  # not r6c5, not the Felines' r8c8
        "bridge r8c5": ["bridge to r6c5", "bridge to r7c6"],
    }
    play(g, "bridge r7c6", "bridge to r8c5")
    assert val(g, 0, P_BRIDGES) == 1
    assert g.pending_kind() == Kind.POST


def _felines_bridge_city(bonus: str = "B10") -> Scenario:
    """Felines: Palace r7c7 + Guild r7c6 + Workshop r7c5 (3 buildings, power 6) and a Workshop on
    r5c7 across the river; the printed bridge location r5c7-r7c7 joins them (4 buildings, 7)."""
    sc = scenario(["felines", "goblins", "omar"], ["forest", "desert", "lake"])
    sc.build(0, "r7c7", "palace").build(0, "r7c6", "guild").build(0, "r7c5", "workshop").build(0, "r5c7", "workshop")
    return sc.set(0, bowls=(0, 5, 7)).bonus(0, bonus)


@pytest.mark.parametrize(
    ("action", "bonus", "power"),
    [("spell S1", "B10", (3, 5, 4)), ("special bonus", "B6", (0, 5, 7))],  # S1: 3 power; B6: free
)
def test_r90_felines_city_completed_by_a_bridge(action: str, bonus: str, power: tuple[int, int, int]) -> None:
    """R90 / R43 / OP-33: the Felines "each time they found a city" advance 3 steps and gain 1
    book; a city completed by a bridge (spell S1 for 3 power, or round bonus B6 for free) is
    founded like any other (the city check runs after a bridge, OP-33)."""
    g = _felines_bridge_city(bonus).turn(0)
    assert val(g, 0, P_CITIES) == 0
    play(g, action)
    assert g.legal_moves() == ["bridge r5c7", "bridge r6c6", "bridge r7c7"]
    play(g, "bridge r5c7", "bridge to r7c7")
    assert val(g, 0, P_BRIDGES) == 1
    assert bowls(g, 0) == power
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K1")
    assert g.pending_kind() == Kind.CHOOSE_BOOKS
    play(g, "book law")
    assert g.legal_moves() == ["step banking", "step law", "step engineering", "step medicine"]
    play(g, "step law", "step law", "step medicine")
    assert g.pending_kind() == Kind.POST
    assert sci(g, 0) == [0, 2, 0, 1] and books(g, 0) == [0, 1, 0, 0]
    assert val(g, 0, P_VP) == 24  # 20 + 4 (K1)
    assert val(g, 0, P_TOOLS) == 6  # 3 + 3 (K1)
    assert val(g, 0, P_CITIES) == 1
    assert all(g.state.hexes[parse_hex(x), H_CITY] for x in ("r7c7", "r7c6", "r7c5", "r5c7"))


@pytest.mark.parametrize("cross", [True, False])
def test_r90_r134_felines_city_across_a_river_with_palace14(cross: bool) -> None:
    """R90 / R134 / R43: with palace 14 the Felines "may ignore 1 river hex between [their]
    buildings when forming the group"; founding a city that way triggers the Felines' 3 steps and
    book.  Palace r7c7 + Guild r7c6 and a Workshop on r5c7 across the river hex r6c7 (or r6c8); the
    new Workshop on r7c5 makes 4 buildings with power 7.  Declining (``done``) founds nothing."""
    sc = scenario(["felines", "goblins", "omar"], ["forest", "desert", "lake"])
    sc.build(0, "r7c7", "palace").palace_tile(0, 14).build(0, "r7c6", "guild").build(0, "r5c7", "workshop")
    g = play(sc.terrain("r7c5", "forest").turn(0), "build", "target r7c5")
    assert building_at(g, "r7c5") == (Building.WORKSHOP, 0)
    assert g.pending_kind() == Kind.RIVER_CITY
    assert g.legal_moves() == ["rivercity r6c7", "rivercity r6c8", "done"]
    if not cross:
        play(g, "done")
        assert g.pending_kind() == Kind.POST
        assert val(g, 0, P_CITIES) == 0 and sci(g, 0) == [0, 0, 0, 0] and books(g, 0) == [0, 0, 0, 0]
        return
    play(g, "rivercity r6c7")
    assert g.state.hexes[parse_hex("r6c7"), H_RIVER_CITY] == 1
    assert all(g.state.hexes[parse_hex(x), H_CITY] for x in ("r7c7", "r7c6", "r7c5", "r5c7"))
    play(g, "city K1")
    assert g.pending_kind() == Kind.CHOOSE_BOOKS
    play(g, "book law", "step law", "step law", "step medicine")
    assert g.pending_kind() == Kind.POST
    assert sci(g, 0) == [0, 2, 0, 1] and books(g, 0) == [0, 1, 0, 0]
    assert val(g, 0, P_VP) == 24  # 20 + 4 (K1)
    assert val(g, 0, P_TOOLS) == 5  # 3 - 1 (Workshop) + 3 (K1)
    assert val(g, 0, P_CITIES) == 1


@pytest.mark.parametrize(("tower", "coins"), [("omar", 3), ("none", 6), ("own", 6)])
def test_r67_r98_guild_next_to_omars_tower_costs_three_coins(tower: str, coins: int) -> None:
    """R67 / R98 / R46.3: a Guild costs 2 tools + 6 coins, only 3 coins "if at least one building
    of another player is adjacent" (ASSUMPTION: neutral buildings owned by another player count).
    Omar's neutral Tower (on lake, Omar's terrain) next to the Felines' Workshop makes it 3 coins
    and Omar is offered the Tower's 2 power; no Tower, or a neutral Tower of the Felines' own
    (C10), leaves it at 6."""
    sc = scenario(["felines", "omar", "goblins"], ["forest", "lake", "desert"])
    sc.build(0, "r8c8", "workshop")
    if tower != "none":
        sc.build(0 if tower == "own" else 1, "r8c9", "tower", neutral=True)
    g = play(sc.turn(0), "upgrade guild", "upgrade r8c8")
    assert building_at(g, "r8c8") == (Building.GUILD, 0)
    assert val(g, 0, P_COINS) == 15 - coins
    assert val(g, 0, P_TOOLS) == 1  # 3 - 2
    assert (g.pending_kind() == Kind.OFFER and g.current_seat() == 1) is (tower == "omar")


def test_r67_r98_omars_tower_makes_the_guild_affordable_with_three_coins() -> None:
    """R67 / R98: legality uses the reduced price: with 3 coins and 2 tools the Felines may
    upgrade next to Omar's Tower (and then have 0 coins); Omar accepts the 2 power for 1 VP."""
    sc = scenario(["felines", "omar", "goblins"], ["forest", "lake", "desert"])
    sc.build(0, "r8c8", "workshop").set(0, coins=3, tools=2)
    assert "upgrade guild" not in sc.turn(0).legal_moves()  # no Tower yet: 6 coins needed
    g = sc.build(1, "r8c9", "tower", neutral=True).turn(0)
    assert [m for m in g.legal_moves() if m.startswith("upgrade")] == ["upgrade guild"]
    play(g, "upgrade guild", "upgrade r8c8")
    assert (val(g, 0, P_COINS), val(g, 0, P_TOOLS)) == (0, 0)
    assert g.pending_kind() == Kind.OFFER and g.current_seat() == 1
    play(g, "leech accept")
    assert bowls(g, 1) == (3, 9, 0)  # lake bowls 5/7/0 + 2 power
    assert val(g, 1, P_VP) == 19


@pytest.mark.parametrize(
    "tools",
    [1, 0],
)
def test_op59_moles_may_convert_before_a_k4_tb_to_pay_the_tunnel(tools: int) -> None:
    """R95 / R140 (K4) / R79 / OP-59: conversions are "allowed before a bonus TB received inside
    your turn (city tile, Lizards)".  The Moles found a city and take K4 (TB, 2 free spades); every
    hex next to their buildings is built, so the only first hexes are tunnel targets (1 tool).
    With ``tools`` left and 3 power in bowl III they may convert 3 power -> 1 tool, then tunnel
    (+5 VP) to r6c5.  With 0 tools no first hex exists before converting, so the TB offers the
    conversions and "skip" (it used to be dropped)."""
    sc = scenario(["moles", "felines", "goblins"], ["mountain", "forest", "desert"])
    sc.build(0, "r8c5", "palace").build(0, "r8c6", "guild").build(0, "r8c7", "workshop").terrain("r8c8", "mountain")
    for hex_ in ("r8c4", "r7c4", "r7c5", "r7c6"):
        sc.build(1, hex_, "workshop")
    for hex_ in ("r7c7", "r7c8", "r8c9"):
        sc.build(2, hex_, "workshop")
    g = play(sc.set(0, tools=tools + 1, coins=2, bowls=(9, 0, 3)).turn(0), "build", "target r8c8")
    assert g.pending_kind() == Kind.OFFER and g.current_seat() == 2  # only the Goblins touch r8c8
    play(g, "leech decline", "city K4")
    assert val(g, 0, P_TOOLS) == tools and val(g, 0, P_VP) == 25  # 20 + 5 (K4)
    assert g.pending_kind() == Kind.TB_TARGET
    assert "convert 3pw tool" in g.legal_moves()
    assert ("skip" in g.legal_moves()) == (tools == 0)  # no target yet: the TB may be forfeited
    play(g, "convert 3pw tool", "tunnel")
    assert g.legal_moves() == ["tunnel r6c5", "tunnel r6c6", "tunnel r7c9", "tunnel r8c10"]
    play(g, "tunnel r6c5")
    assert val(g, 0, P_VP) == 30  # + 5 (tunnel, v1.2 with 3 players)
    assert val(g, 0, P_TOOLS) == tools  # + 1 (3 power) - 1 (tunnel)
    assert bowls(g, 0) == (12, 0, 0)


def test_r95_moles_tunnel_and_bridge_prices_and_range_are_read_from_the_data(monkeypatch) -> None:
    """R95 / OP-47 / OP-48: the tunnel's distance and price (``jumps.tunnel``) and the Moles'
    bridge price (``bridge_action``) are data: made dearer or longer there, the engine follows."""
    from aoi_env.core import terraform
    from aoi_env.core.tables import tables
    from aoi_env.data import Jump, load
    from aoi_env.data.enums import Faction

    def moles(tools: int) -> Game:
        sc = scenario(["moles", "felines", "goblins"], ["mountain", "forest", "desert"])
        return sc.build(0, "r8c5", "workshop").set(0, tools=tools, coins=10).turn(0)

    assert load().jumps["tunnel"] == Jump(2, "tools", 1) and terraform.TUNNEL_TOOLS == 1
    assert tables("v1.2", 3).faction_flags[Faction.MOLES]["bridge_action"] == {"tools": 1}
    monkeypatch.setattr(terraform, "TUNNEL_TOOLS", 2)
    g = play(moles(5), "build", "tunnel", "tunnel r6c5")
    assert val(g, 0, P_TOOLS) == 3  # 5 - 2 (the tunnel's price in this data)
    g = play(moles(4), "build")
    assert "tunnel" not in g.legal_moves()  # 4 tools pay the tunnel but no spade (3 tools) after it
    monkeypatch.setattr(terraform, "TUNNEL_TOOLS", 1)
    assert "tunnel" in play(moles(4), "build").legal_moves()

    two = {m for m in play(moles(5), "build", "tunnel").legal_moves() if m.startswith("tunnel ")}
    monkeypatch.setitem(load().jumps, "tunnel", Jump(3, "tools", 1))
    g = play(moles(5), "build", "tunnel")
    targets = {m for m in g.legal_moves() if m.startswith("tunnel ")}
    assert "tunnel r6c5" in two and two < targets  # distance 3 too now (r6c5 is 2 away)
    assert scoring.area_jump(g, 0) == 3  # and the final area links what is within 3 (R83)

    monkeypatch.setitem(tables("v1.2", 3).faction_flags[Faction.MOLES], "bridge_action", {"tools": 3})
    assert "molebridge" not in moles(2).legal_moves()
    g = play(moles(10), "molebridge")
    assert val(g, 0, P_TOOLS) == 7  # 10 - 3


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ({"jumps": {"tunnel": {"farthest": 1, "cost": {"tools": 1}}}}, "jumps.tunnel.farthest"),
        ({"jumps": {"tunnel": {"farthest": [2, 3], "cost": {"tools": 1}}}}, "jumps.tunnel.farthest"),
        ({"jumps": {"tunnel": {"farthest": True, "cost": {"tools": 1}}}}, "jumps.tunnel.farthest"),
        ({"jumps": {"flight": {"distances": [2, 3], "cost": {"scholars": 1}}}}, "jumps.flight"),
        ({"jumps": {"flight": {"farthest": 3, "cost": {"tools": 1}}}}, "jumps.flight.cost"),
        ({"jumps": {"flight": {"farthest": 3, "cost": {"scholars": 0}}}}, "jumps.flight.cost"),
        ({"factions": {"moles": {"bridge_action": 1}}}, "factions.moles.bridge_action"),
        ({"palace_tiles": {3: {"swap_reward": {"books": 1}}}}, "palace_tiles.3.swap_reward"),
        ({"palace_tiles": {4: {"swap_reward": {"vp": 1}}}}, "palace_tiles.4.swap_reward: expected exactly on the tile"),
        (
            {"palace_tiles": {4: {"special": {"school_to_guild": 1}, "swap_reward": {"coins": 5}}}},
            r"palace_tiles: expected one tile with the school_to_guild swap, got \[3, 4\]",
        ),
    ],
)
def test_r95_r123_r129_bad_jump_bridge_and_swap_data_is_refused(edit: dict, message: str) -> None:
    """R95, R123, R129: the data those rules read is checked when it loads."""
    import copy

    import yaml

    from aoi_env.data import DATA_DIR, DataError, parse

    raw = yaml.safe_load((DATA_DIR / "components.yaml").read_text(encoding="utf-8"))
    maps = yaml.safe_load((DATA_DIR / "maps.yaml").read_text(encoding="utf-8"))
    raw = copy.deepcopy(raw)
    for table, rows in edit.items():
        for key, fields in rows.items():
            raw[table][key] = {**raw[table][key], **fields}
    with pytest.raises(DataError, match=message):
        parse(raw, maps)


@pytest.mark.parametrize("jumps", [5, [1], {"tunnel": 2, "flight": {"farthest": 3, "cost": {"scholars": 1}}}])
def test_r95_r129_a_jumps_table_of_the_wrong_shape_is_refused(jumps: object) -> None:
    """R95, R129: ``jumps`` must map tunnel and flight to rows; anything else is a DataError, not a TypeError."""
    import copy

    import yaml

    from aoi_env.data import DATA_DIR, DataError, parse

    raw = copy.deepcopy(yaml.safe_load((DATA_DIR / "components.yaml").read_text(encoding="utf-8")))
    maps = yaml.safe_load((DATA_DIR / "maps.yaml").read_text(encoding="utf-8"))
    raw["jumps"] = jumps
    with pytest.raises(DataError, match="jumps"):
        parse(raw, maps)


# ------------------------------------------------------------------------------------------------
# R19 faction tile icons: start steps and start resources; 2-player values of OP-13 / OP-14

# Seat 0's position right after the player setup (R17, R19) on the plains board, which has no
# start steps and the common start (15 coins, 3 tools, bowls 5/7/0): science steps
# banking/law/engineering/medicine of the faction tile, bowls (a level-3 threshold moves 1 power
# I -> II, R47), coins and tools.  The Lizards choose their 2 steps afterwards (R94).
START_POSITION = [
    ("blessed", [1, 1, 1, 1], (5, 7, 0), 15, 3),
    ("felines", [1, 0, 0, 1], (5, 7, 0), 15, 3),
    ("goblins", [1, 0, 1, 0], (5, 7, 0), 15, 4),  # + 1 tool
    ("illusionists", [0, 0, 0, 2], (5, 7, 0), 15, 3),
    ("inventors", [0, 0, 0, 0], (5, 7, 0), 15, 3),  # a competency instead (R93)
    ("lizards", [0, 0, 0, 0], (5, 7, 0), 15, 3),  # 2 steps of their choice (R94)
    ("moles", [0, 0, 2, 0], (5, 7, 0), 15, 3),
    ("monks", [0, 1, 0, 0], (5, 7, 0), 15, 3),
    ("navigators", [0, 3, 0, 0], (4, 8, 0), 15, 3),  # law level 3: 1 power
    ("omar", [1, 0, 1, 0], (5, 7, 0), 15, 3),
    ("philosophers", [2, 0, 0, 0], (5, 7, 0), 15, 3),
    ("psychics", [1, 0, 0, 1], (5, 7, 0), 15, 4),  # + 1 tool
]


def _after_player_setup(faction: str, board: str = "plains", players: int = 3) -> Game:
    """A real game with ``faction`` on ``board`` in seat 0, right after every seat's player setup
    (the round bonus tiles are picked first, R16.8; they pay nothing before round 1)."""
    others = [f for f in ("goblins", "felines", "monks") if f != faction][: players - 1]
    boards = [board, "swamp", "lake"][:players]
    g = setup_game(
        f"aoi(players={players},factions={'+'.join([faction, *others])},boards={'+'.join(boards)},skip_forced=false)"
    )
    play_setup(g, {0: ["bonus B7"], 1: ["bonus B10"], 2: ["bonus B9"]})
    assert g.pending_kind() in (Kind.INITIAL_PLACE, Kind.STEPS_ANY)  # no Workshop placed yet
    return g


@pytest.mark.parametrize(
    ("faction", "science", "power", "coins", "tools"), START_POSITION, ids=[row[0] for row in START_POSITION]
)
def test_r19_faction_tile_start_steps_and_resources(
    faction: str, science: list[int], power: tuple[int, int, int], coins: int, tools: int
) -> None:
    """R19 / R17: after the player setup each faction stands on the science steps of its faction
    tile (Blessed 1/1/1/1, Felines banking + medicine, Goblins banking + engineering, Illusionists
    medicine 2, Moles engineering 2, Monks law 1, Navigators law 3, Omar banking + engineering,
    Philosophers banking 2, Psychics banking + medicine; none for the Inventors and the Lizards)
    and the Goblins and the Psychics start with 1 extra tool.  Fails on: any
    ``factions.<f>.start_steps.<discipline>`` + 1 or a deleted ``start_steps`` (a wrong science
    row), ``factions.psychics.start.tools`` 1 -> 2 or a deleted ``factions.psychics.start``
    (a wrong tool count)."""
    g = _after_player_setup(faction)
    assert sci(g, 0) == science
    assert bowls(g, 0) == power
    assert (val(g, 0, P_COINS), val(g, 0, P_TOOLS)) == (coins, tools)
    assert books(g, 0) == [0, 0, 0, 0] and val(g, 0, P_SCHOLARS) == 0 and val(g, 0, P_VP) == 20


@pytest.mark.parametrize(
    ("faction", "science", "power"),
    [
        ("inventors", [1, 1, 1, 1], (4, 8, 0)),  # the forest board's steps alone
        ("moles", [1, 1, 3, 1], (3, 9, 0)),  # engineering 1 + 2 = 3: 1 power (forest bowls 4/8/0)
        ("psychics", [2, 1, 1, 2], (4, 8, 0)),
    ],
    ids=["inventors", "moles", "psychics"],
)
def test_r19_forest_board_steps_add_to_the_faction_tile_steps(
    faction: str, science: list[int], power: tuple[int, int, int]
) -> None:
    """R19 / R87: the forest board's 1 step in every discipline adds to the faction tile's steps.
    Fails on: ``factions.moles.start_steps.engineering`` 2 -> 3 or
    ``factions.psychics.start_steps.banking`` / ``.medicine`` 1 -> 2, or their deletion."""
    g = _after_player_setup(faction, board="forest")
    assert sci(g, 0) == science
    assert bowls(g, 0) == power


@pytest.mark.parametrize(("game", "vp"), [("aoi(players=2)", 1), ("aoi(players=2,ruleset=v1.0)", 3)])
def test_r92_op13_illusionists_two_player_spell_vp(game: str, vp: int) -> None:
    """R92 / OP-13 / R145: with 2 players a spell scores the Illusionists 1 VP in v1.2 and 3 VP in
    v1.0 (the cost is 1 power less in both).  Fails on:
    ``factions.illusionists.events.spell.vp.v1.0.2`` 3 -> 4 or ``...v1.2.2`` 1 -> 2."""
    g = scenario(["illusionists", "felines"], ["lake", "forest"], game=game).set(0, bowls=(5, 4, 3)).turn(0)
    play(g, "spell S5")  # S5: 4 power - 1, + 7 coins
    assert bowls(g, 0) == (8, 4, 0)
    assert val(g, 0, P_COINS) == 22
    assert val(g, 0, P_VP) == 20 + vp


@pytest.mark.parametrize("game", ["aoi(players=2)", "aoi(players=2,ruleset=v1.0)"])
def test_r95_op14_moles_two_player_tunnel_vp(game: str) -> None:
    """R95 / OP-14 / R145: with 2 players a tunnel scores the Moles 4 VP in both rulesets (v1.2:
    2 + P; v1.0: always 4).  The 2-player map: r7c6 is two hexes from the Workshop on r8c5.
    Fails on: ``factions.moles.events.tunnel.vp.v1.2.2`` 4 -> 5 or ``...v1.0`` 4 -> 5."""
    sc = scenario(["moles", "felines"], ["mountain", "forest"], game=game).build(0, "r8c5", "workshop")
    g = sc.set(0, tools=5).turn(0)
    play(g, "build")
    assert "target r7c6" not in g.legal_moves() and "tunnel" in g.legal_moves()
    play(g, "tunnel", "tunnel r7c6")
    assert val(g, 0, P_VP) == 24  # 20 + 4
    assert val(g, 0, P_TOOLS) == 4  # 5 - 1 (tunnel)
    play(g, "spades 1", "workshop")
    assert building_at(g, "r7c6") == (Building.WORKSHOP, 0)
