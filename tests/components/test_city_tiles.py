"""City tiles K1-K7 (R140, R45, R50, OP-10, OP-31): VP, one-time bonus and key of every tile.

Every position is 3 players: seat 0 Inventors on Desert (15 coins, 3 tools, bowls 5/7/0),
seat 1 Monks on Lake, seat 2 Psychics on Forest.  Seat 0 has three Guilds on r0c4, r0c5 and
r1c4 and builds a Workshop on r1c5 (already Desert): 4 adjacent buildings with power
2 + 2 + 2 + 1 = 7 found a city (R43) and seat 0 chooses a city tile.
"""

from __future__ import annotations

import pytest

from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.rules import science
from aoi_env.core.state import (
    G_CITY_LEFT,
    H_BUILDING,
    H_CITY,
    H_TERRAIN,
    P_BOOKS,
    P_BOWLS,
    P_CITIES,
    P_COINS,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
)
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario, play

GAME = "aoi(players=3)"
FACTIONS = ["inventors", "monks", "psychics"]
BOARDS = ["desert", "lake", "forest"]
CITY = ("r0c4", "r0c5", "r1c4", "r1c5")


def position(*, tile: str = "T10") -> Scenario:
    """Three Guilds of seat 0 and the Desert hex r1c5 that completes the city."""
    sc = Scenario(GAME, factions=FACTIONS, boards=BOARDS).round(1, tile=tile)
    sc.bonus_tiles(("B9", "B10", "B3"), ("B4", "B7", "B8"))
    for x in CITY[:3]:
        sc.build(0, x, "guild")
    return sc.terrain("r1c5", "desert")


def found_city(sc: Scenario) -> Game:
    """Seat 0 builds the Workshop on r1c5; the city tile choice is pending."""
    g = sc.turn(0)
    play(g, "build", "target r1c5")  # Workshop: 1 tool + 2 coins
    assert g.pending_kind() == Kind.CHOOSE_CITY
    assert all(g.state.hexes[parse_hex(x), H_CITY] for x in CITY)
    return g


def test_r45_city_founding_offers_every_tile_type_with_copies_left() -> None:
    """R45 / R140: the founder chooses one available tile; 3 copies per type (R3): a type with no
    copy left is not offered."""
    sc = position()
    sc.city_tile(1, "K1", "K1").city_tile(2, "K1")  # all three K1 are taken
    g = found_city(sc)
    assert g.legal_moves() == ["city K2", "city K3", "city K4", "city K5", "city K6", "city K7"]


def test_r140_k1_4vp_3_tools_and_a_key() -> None:
    """R140 K1: 4 VP + 3 tools; every city tile also gives 1 key (R45.3)."""
    g = found_city(position())
    play(g, "city K1")
    p = g.state.players[0]
    assert p[P_VP] == 20 + 4
    assert p[P_TOOLS] == 3 - 1 + 3  # - Workshop + K1
    assert p[P_CITIES] == 1 and science.keys_available(p) == 1
    assert g.state.glob[G_CITY_LEFT.start + 0] == 3 - 1


def test_r140_k2_5vp_and_2_books_of_choice() -> None:
    """R140 K2: 5 VP + 2 books of choice (any disciplines): exactly two book choices, then the
    action is over (conversions or done, R79).
    Fails on: K2 giving 3 books (``city_tiles.K2.reward.books`` 2 -> 3)."""
    g = found_city(position())
    play(g, "city K2")
    assert g.pending_kind() == Kind.CHOOSE_BOOKS
    play(g, "book law")
    assert g.pending_kind() == Kind.CHOOSE_BOOKS  # the second book
    play(g, "book medicine")
    assert (g.pending_kind(), g.current_seat()) == (Kind.POST, 0)  # no third book
    assert "done" in g.legal_moves()
    p = g.state.players[0]
    assert p[P_VP] == 20 + 5
    assert list(p[P_BOOKS]) == [0, 1, 0, 1]
    assert p[P_CITIES] == 1


def test_r140_k3_8vp_and_8_power() -> None:
    """R140 K3: 8 VP + gain 8 power (R30: bowl I empties first)."""
    g = found_city(position())
    play(g, "city K3")
    p = g.state.players[0]
    assert p[P_VP] == 20 + 8
    assert list(p[P_BOWLS]) == [0, 9, 3]  # 5/7/0: 5 tokens I -> II, then 3 tokens II -> III
    assert p[P_CITIES] == 1


def test_r140_k4_tb_with_2_free_spades_bought_spades_and_a_workshop() -> None:
    """R140 K4 / R62: 5 VP + a TB with 2 free spades; missing spades may be bought with tools
    and a Workshop may be built (paid normally, OP-35)."""
    g = found_city(position().set(0, tools=10))
    play(g, "city K4")
    assert g.pending_kind() == Kind.TB_TARGET
    play(g, "target r1c3")  # Forest -> Desert: 3 spades
    assert g.legal_moves() == ["spades 1", "spades 2", "spades 3"]  # 2 free + 1 to buy
    play(g, "spades 3", "workshop")
    p = g.state.players[0]
    assert p[P_VP] == 20 + 5
    assert p[P_TOOLS] == 10 - 1 - 3 - 1  # first Workshop, 1 bought spade at 3 tools, second Workshop
    assert p[P_COINS] == 15 - 2 - 2  # two Workshops
    assert g.state.hexes[parse_hex("r1c3"), H_BUILDING] == Building.WORKSHOP
    assert g.state.hexes[parse_hex("r1c3"), H_CITY] == 1  # built next to the city: it joins (OP-21)
    assert p[P_CITIES] == 1  # no second city from the same group (OP-32)


def test_r140_k4_tb_may_stop_on_an_intermediate_terrain() -> None:
    """R140 K4 / R63.2: the 2 free spades may be used on a 3-spade hex without buying the
    third; the hex stays unbuilt, one step short of Desert."""
    g = found_city(position())
    play(g, "city K4", "target r1c3", "spades 2")
    assert g.state.hexes[parse_hex("r1c3"), H_TERRAIN] == Terrain.WASTELAND  # Forest -> Mountain -> Wasteland
    assert g.state.players[0, P_TOOLS] == 3 - 1  # nothing bought
    assert g.pending_kind() == Kind.POST  # not native: no Workshop, the action is over


def test_r140_k5_6vp_and_6_coins() -> None:
    """R140 K5: 6 VP + 6 coins."""
    g = found_city(position())
    play(g, "city K5")
    p = g.state.players[0]
    assert p[P_VP] == 20 + 6
    assert p[P_COINS] == 15 - 2 + 6


def test_r140_k6_8vp_and_a_scholar() -> None:
    """R140 K6: 8 VP + 1 scholar (from the personal supply)."""
    g = found_city(position())
    play(g, "city K6")
    p = g.state.players[0]
    assert p[P_VP] == 20 + 8
    assert (p[P_SCHOLARS], p[P_SCHOLAR_SUPPLY]) == (1, 6)


def test_r140_k7_7vp_and_a_step_in_each_discipline() -> None:
    """R140 K7: 7 VP + 1 step in each discipline."""
    g = found_city(position().set(0, science=(2, 4, 0, 6)))
    play(g, "city K7")
    p = g.state.players[0]
    assert p[P_VP] == 20 + 7
    assert list(p[P_SCIENCE]) == [3, 5, 1, 7]
    assert list(p[P_BOWLS]) == [0, 12, 0]  # thresholds 3, 5, 7 reached: 1 + 2 + 2 = 5 power


def test_r50_k7_step_may_use_the_key_of_the_same_tile() -> None:
    """R45.3 / R50 / OP-31: the tile's key is gained with the tile, so K7's step from 7 to 8
    may already use it (a player's choice)."""
    g = found_city(position().set(0, science=(7, 0, 0, 0)))
    play(g, "city K7")
    assert g.pending_kind() == Kind.USE_KEY
    assert sorted(g.legal_moves()) == ["key banking", "nokey"]
    play(g, "key banking")
    p = g.state.players[0]
    assert list(p[P_SCIENCE]) == [8, 1, 1, 1]
    assert science.keys_available(p) == 0  # 1 tile - 1 unlocked track


def test_r45_city_in_the_key_round_scores_5_more() -> None:
    """R45.1 / R142 T6: the tile's VP + 5 VP when the current round scoring tile shows the key."""
    g = found_city(position(tile="T6"))
    play(g, "city K1")
    assert g.state.players[0, P_VP] == 20 + 4 + 5  # K1 + T6


@pytest.mark.parametrize(("tile", "vp"), [("K1", 4), ("K2", 5), ("K3", 8), ("K4", 5), ("K5", 6), ("K6", 8), ("K7", 7)])
def test_r140_printed_vp_of_every_city_tile(tile: str, vp: int) -> None:
    """R140: the VP printed on each city tile type (the bonus is resolved after the VP)."""
    g = found_city(position())
    before = int(g.state.players[0, P_VP])
    play(g, f"city {tile}")
    assert g.state.players[0, P_VP] - before == vp
    assert g.state.players[0, P_CITIES] == 1
