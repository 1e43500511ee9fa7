"""Component data (aoi_env/data): counts and invariants against RULES.md and DATA.md (issue 2).

Every number here is read from DATA.md / RULES.md, not from the YAML under test, so a typo in
``components.yaml`` or ``maps.yaml`` fails a test instead of silently changing the game.
"""

from __future__ import annotations

import copy
from collections import Counter

import numpy as np
import pytest
import yaml

from aoi_env.core.board import geometry, hex_name, parse_hex
from aoi_env.core.rules.terrain import spade_distance, step_toward
from aoi_env.core.setup import innovation_spaces
from aoi_env.core.tables import tables
from aoi_env.data import DATA_DIR, DataError, load, parse
from aoi_env.data.enums import Building, Discipline, Faction, Terrain

D, P, S, L, F, M, W = (Terrain(i) for i in range(7))


def _hexes(*names: str) -> set[int]:
    return {parse_hex(n) for n in names}


def _names(mask: np.ndarray) -> set[str]:
    return {hex_name(p) for p in np.flatnonzero(mask)}


def _common_neighbours(geo, a: int, b: int) -> list[int]:
    return [q for q in geo.neighbors[a] if q in geo.neighbors[b]]


# ------------------------------------------------------------------------------------------------
# the 3-5 board side (DATA.md 2.2)


def test_r5_side_3_5_has_81_land_and_36_river_hexes():
    """R5 / DATA 2.2: the 3-5 side is 9 x 13 = 117 hexes, 81 land + 36 river."""
    geo = geometry("3-5")
    assert int(geo.land.sum()) == 81
    assert int(geo.river.sum()) == 36  # 81 + 36 = 117: no cell of the frame is off the map
    assert _names(geo.river) == {
        f"r{r}c{c}"
        for r, c in [(0, 1), (0, 7), (0, 12), (1, 1), (1, 2), (1, 7), (1, 11), (2, 3), (2, 7), (2, 8), (2, 10),
                     (2, 11), (3, 3), (3, 6), (3, 8), (3, 9), (4, 4), (4, 5), (4, 6), (5, 1), (5, 2), (5, 3),
                     (5, 6), (5, 9), (6, 1), (6, 4), (6, 7), (6, 8), (6, 9), (6, 10), (6, 11), (6, 12), (7, 0),
                     (7, 3), (7, 12), (8, 3)]
    }  # fmt: skip


def test_r5_side_3_5_terrain_counts():
    """DATA 2.2: desert 11, plains 12, swamp 12, lake 12, forest 11, mountain 11, wasteland 12."""
    geo = geometry("3-5")
    counts = np.bincount(geo.terrain[geo.land], minlength=7)
    assert counts.tolist() == [11, 12, 12, 12, 11, 11, 12]  # sum 81
    # a few hexes read off the DATA.md grid
    assert geo.terrain[parse_hex("r0c0")] == F
    assert geo.terrain[parse_hex("r4c12")] == P
    assert geo.terrain[parse_hex("r8c3")] == Terrain.RIVER
    assert geo.terrain[parse_hex("r5c8")] == P


def test_r40_side_3_5_has_31_printed_bridge_spots():
    """R40 / DATA 2.2: 31 bridge spots; 30 are the land pairs whose two common neighbours are both
    river, the 31st, r6c0-r8c0, crosses river r7c0 at the left edge (other neighbour off-map)."""
    geo = geometry("3-5")
    assert len(geo.bridge_spots) == 31
    assert len(set(geo.bridge_spots)) == 31
    both_river = {
        (a, b)
        for a, b in geo.bridge_geometry
        if len(cn := _common_neighbours(geo, a, b)) == 2 and all(geo.river[q] for q in cn)
    }
    assert len(both_river) == 30
    assert set(geo.bridge_spots) - both_river == {(parse_hex("r6c0"), parse_hex("r8c0"))}
    assert both_river <= set(geo.bridge_spots)
    edge = _common_neighbours(geo, parse_hex("r6c0"), parse_hex("r8c0"))
    assert [hex_name(q) for q in edge] == ["r7c0"]  # the only on-map common neighbour, a river


def test_c11_side_3_5_has_33_border_hexes():
    """DATA 2.2: border hexes (C11, F1) are the 33 land hexes of rows 0 and 8 and columns 0 and 12."""
    geo = geometry("3-5")
    assert int(geo.border.sum()) == 33
    rule = np.zeros_like(geo.border)
    for pos in np.flatnonzero(geo.land):
        r, c = divmod(int(pos), 13)
        rule[pos] = r in (0, 8) or c in (0, 12)
    assert np.array_equal(geo.border, rule)
    assert not (geo.border & ~geo.land).any()


def test_r138_side_3_5_has_59_river_adjacent_land_hexes():
    """DATA 2.2 (computed by board.py): 59 land hexes touch a river hex (B1, Navigators R97)."""
    geo = geometry("3-5")
    assert int(geo.river_adjacent.sum()) == 59
    expected = {
        f"r{r}c{c}"
        for r, c in [(0, 0), (0, 2), (0, 3), (0, 6), (0, 8), (0, 11), (1, 0), (1, 3), (1, 6), (1, 8), (1, 9),
                     (1, 10), (1, 12), (2, 1), (2, 2), (2, 4), (2, 6), (2, 9), (2, 12), (3, 2), (3, 4), (3, 5),
                     (3, 7), (3, 10), (3, 11), (4, 1), (4, 2), (4, 3), (4, 7), (4, 8), (4, 9), (4, 10), (5, 0),
                     (5, 4), (5, 5), (5, 7), (5, 8), (5, 10), (5, 11), (5, 12), (6, 0), (6, 2), (6, 3), (6, 5),
                     (6, 6), (7, 1), (7, 2), (7, 4), (7, 6), (7, 7), (7, 8), (7, 9), (7, 10), (7, 11), (8, 0),
                     (8, 1), (8, 2), (8, 4), (8, 12)]
    }  # fmt: skip
    assert _names(geo.river_adjacent) == expected


# ------------------------------------------------------------------------------------------------
# the 1-3 board side (DATA.md 2.3, OP-12)


def test_r5_side_1_3_has_59_land_hexes():
    """DATA 2.3: 59 land hexes, desert 9, plains 8, swamp 8, lake 8, forest 9, mountain 9, wasteland 8."""
    geo = geometry("1-3")
    assert int(geo.land.sum()) == 59
    assert np.bincount(geo.terrain[geo.land], minlength=7).tolist() == [9, 8, 8, 8, 9, 9, 8]
    assert int(geo.river.sum()) == 31  # inferred rivers (DATA 2.3)
    assert int(geo.border.sum()) == 22  # inferred border hexes


def test_op12_side_1_3_has_the_16_inferred_bridge_candidates():
    """DATA 2.3 / OP-12: bridge spots are missing; the 16 geometric candidates are used, each a land
    pair whose two common neighbours are river hexes."""
    geo = geometry("1-3")
    expected = {
        tuple(sorted((parse_hex(a), parse_hex(b))))
        for a, b in [("r0c6", "r1c4"), ("r1c8", "r2c10"), ("r1c8", "r3c8"), ("r2c4", "r3c5"), ("r2c7", "r3c5"),
                     ("r2c7", "r3c8"), ("r2c7", "r4c7"), ("r3c2", "r5c2"), ("r3c3", "r4c5"), ("r3c3", "r5c3"),
                     ("r4c5", "r5c3"), ("r5c5", "r6c4"), ("r5c5", "r7c5"), ("r5c6", "r7c6"), ("r5c8", "r7c8"),
                     ("r5c9", "r7c9")]
    }  # fmt: skip
    assert set(geo.bridge_spots) == expected
    assert len(geo.bridge_spots) == 16
    both_river = {
        (a, b)
        for a, b in geo.bridge_geometry
        if len(cn := _common_neighbours(geo, a, b)) == 2 and all(geo.river[q] for q in cn)
    }
    assert both_river == expected


def test_r138_side_1_3_has_41_river_adjacent_land_hexes():
    """DATA audit log: the 1-3 side has 41 river-adjacent land hexes (computed); the same 41 as the
    river-bank list of an independent public implementation (macycumapy/age-of-innovation)."""
    assert int(geometry("1-3").river_adjacent.sum()) == 41


def test_c11_op12_side_1_3_border_hexes_are_rows_0_and_8_and_the_eastern_edge():
    """DATA 2.3 / OP-12: the 22 border hexes of the 1-3 side are the land of rows 0 and 8 and the
    eastern end of rows 1-5; the western land edge runs along a river, so it is no border.  The
    same 22 hexes are the edge list of macycumapy/age-of-innovation (cross-check, 2026-11-26)."""
    geo = geometry("1-3")
    expected = {f"r0c{c}" for c in (1, 2, 3, 4, 6, 7, 8, 9)}
    expected |= {f"r{r}c10" for r in range(1, 6)} | {f"r8c{c}" for c in range(2, 11)}
    assert _names(geo.border) == expected


@pytest.mark.parametrize("side", ["3-5", "1-3"])
def test_r40_every_printed_bridge_spot_is_a_geometric_bridge_pair(side: str):
    """R40 / DATA 2.1: a bridge spot joins two land hexes at distance 2 with two common neighbours
    in "bridge geometry" (the Moles' relaxed bridges use the same pairs, OP-47)."""
    geo = geometry(side)
    pairs = set(geo.bridge_geometry)
    for a, b in geo.bridge_spots:
        assert (a, b) in pairs, f"{hex_name(a)}-{hex_name(b)}"
        assert geo.land[a] and geo.land[b]
        assert not geo.adj[a, b]  # not adjacent without a bridge


# ------------------------------------------------------------------------------------------------
# terraforming (R35, R36)


def test_r35_terraforming_cycle_order():
    """R35: desert -> plains -> swamp -> lake -> forest -> mountain -> wasteland -> (desert)."""
    assert load().raw["terrains"] == ["desert", "plains", "swamp", "lake", "forest", "mountain", "wasteland"]
    assert [t.name for t in Terrain][:7] == ["DESERT", "PLAINS", "SWAMP", "LAKE", "FOREST", "MOUNTAIN", "WASTELAND"]


# R35's printed table: row = from, column = to, both in the order De Pl Sw La Fo Mo Wa
R35_TABLE = [
    [0, 1, 2, 3, 3, 2, 1],
    [1, 0, 1, 2, 3, 3, 2],
    [2, 1, 0, 1, 2, 3, 3],
    [3, 2, 1, 0, 1, 2, 3],
    [3, 3, 2, 1, 0, 1, 2],
    [2, 3, 3, 2, 1, 0, 1],
    [1, 2, 3, 3, 2, 1, 0],
]


def test_r35_spade_distance_table():
    """R35: the cost in spades is the shortest distance on the 7-cycle; the whole 7 x 7 table."""
    for src in range(7):
        for dst in range(7):
            assert spade_distance(src, dst) == R35_TABLE[src][dst], (Terrain(src).name, Terrain(dst).name)
    # the rulebook's examples: swamp -> desert 2, mountain -> desert 2, plains -> desert 1
    assert spade_distance(S, D) == 2
    assert spade_distance(M, D) == 2
    assert spade_distance(P, D) == 1


def test_r36_one_spade_moves_one_step_toward_native():
    """R36: one spade moves a hex one step along the shortest path toward the native terrain."""
    assert step_toward(S, D) == P  # swamp -> plains -> desert
    assert step_toward(M, D) == W  # mountain -> wasteland -> desert (the other way round)
    assert step_toward(L, L) == L  # already native: no change
    for src in range(7):
        for dst in range(7):
            if src != dst:
                assert spade_distance(step_toward(src, dst), dst) == R35_TABLE[src][dst] - 1


# ------------------------------------------------------------------------------------------------
# science and competency display


def test_r49_power_thresholds_and_r51_level_9_income():
    """R49: reaching 3 / 5 / 7 / 12 gives 1 / 2 / 2 / 3 power; R51: level 9+ income per discipline."""
    sci = load().raw["science"]
    assert sci["power_on_reaching"] == {3: 1, 5: 2, 7: 2, 12: 3}
    assert sci["key_level"] == 8
    assert sci["income"] == {
        "banking": {"coins": 3},
        "law": {"power": 6},
        "engineering": {"tools": 1},
        "medicine": {"vp": 3},
    }
    assert sci["scholar_spaces"] == [3, 2, 2, 2]  # R47


def test_op9_every_competency_space_totals_3_steps_and_books():
    """R53 / OP-9: top row 3 steps, middle 2 steps + 1 book, bottom 1 step + 2 books: always 3 items."""
    rows = load().raw["competency_display"]["rows"]
    assert [(r["steps"], r["books"]) for r in rows] == [(3, 0), (2, 1), (1, 2)]
    assert all(r["steps"] + r["books"] == 3 for r in rows)
    assert load().raw["competency_display"]["copies"] == 4  # R11: 12 stacks of 4


# ------------------------------------------------------------------------------------------------
# tile sets


def test_r1_counts_of_every_tile_set():
    """DATA audit: 18 innovations, 17 palaces, 12 competencies, 10 bonus tiles, 12 round + 4 final,
    7 city tiles, 6 book actions, 6 spells (power actions), 12 factions, 7 planning boards."""
    d = load()
    assert len(d.innovations) == len(d.innovation_keys) == 18
    assert len(d.palace_tiles) == 17
    assert d.competency_ids == tuple(f"C{i}" for i in range(1, 13))
    assert d.bonus_ids == tuple(f"B{i}" for i in range(1, 11))
    assert d.round_tile_ids == tuple(f"T{i}" for i in range(1, 13))
    assert d.final_tile_ids == ("F1", "F2", "F3", "F4")
    assert d.city_ids == tuple(f"K{i}" for i in range(1, 8))
    assert d.book_action_ids == tuple(f"BA{i}" for i in range(1, 7))
    assert d.spell_ids == ("S1", "S2", "S4", "S5", "S3", "S6")  # printed board order (DATA 10)
    assert len(d.factions) == 12
    assert len(d.boards) == 7
    assert d.raw["city_copies"] == 3  # 7 types x 3 = 21 city tiles (R13)


def test_r142_each_discipline_appears_exactly_3_times_on_round_tiles():
    """R142: Law T1/T5/T10, Engineering T2/T6/T8, Banking T3/T9/T12, Medicine T4/T7/T11."""
    d = load()
    by_disc: dict[str, list[str]] = {}
    for tid, row in zip(d.round_tile_ids, d.round_tiles, strict=True):
        by_disc.setdefault(row["science"]["discipline"], []).append(tid)
    assert by_disc == {
        "law": ["T1", "T5", "T10"],
        "engineering": ["T2", "T6", "T8"],
        "banking": ["T3", "T9", "T12"],
        "medicine": ["T4", "T7", "T11"],
    }
    assert d.round_tiles[d.round_tile_ids.index("T2")]["not_in_rounds"] == [5, 6]  # R6(a)


def test_r139_spell_and_book_action_costs():
    """R139 / DATA 10: spells 3/3/4/4/4/6 power in printed order; book actions 1/2/2/1/2/3 books."""
    d = load()
    assert [s["power"] for s in d.spells] == [3, 3, 4, 4, 4, 6]  # S1 S2 S4 S5 S3 S6
    assert [b["books"] for b in d.book_actions] == [1, 2, 2, 1, 2, 3]  # BA1..BA6


def test_r140_city_tiles_vp():
    """R140: K1 4 VP + 3 tools ... K7 7 VP + 1 step in every discipline."""
    d = load()
    assert [c["vp"] for c in d.city_tiles] == [4, 5, 8, 5, 6, 8, 7]
    assert d.city_tiles[0]["reward"] == {"tools": 3}
    assert d.city_tiles[6]["reward"] == {"steps_each": 1}


# ------------------------------------------------------------------------------------------------
# planning boards (R17-R19, R87)


def test_r17_planning_board_bowls():
    """R17.4: bowls I/II/III = 5/7/0; Forest 4/8/0; Swamp 3/9/0 (12 tokens each)."""
    boards = load().boards
    for b in boards:
        want = {F: (4, 8, 0), S: (3, 9, 0)}.get(b.terrain, (5, 7, 0))
        assert b.bowls == want, b.terrain.name
        assert sum(b.bowls) == 12  # R2: 12 power tokens


def test_r18_r19_planning_board_starting_items():
    """R18/R19: 15 coins + 3 tools; Swamp +1 scholar; Wasteland +1 book and 4 tools in total;
    Forest +1 step in every discipline; Desert 1 setup spade."""
    boards = load().boards
    for b in boards:
        assert b.start.get("coins") == 15, b.terrain.name
    assert boards[S].start == {"coins": 15, "tools": 3, "scholars": 1}
    assert boards[W].start == {"coins": 15, "tools": 4, "books": 1}  # 3 + 1 = 4 tools (R19)
    for t in (D, P, L, F, M):
        assert boards[t].start == {"coins": 15, "tools": 3}, Terrain(t).name
    assert boards[F].start_steps == {Discipline(d): 1 for d in range(4)}
    assert [b.setup_spades for b in boards] == [1, 0, 0, 0, 0, 0, 0]  # Desert only


def test_r71_lake_sailing_track():
    """R71 / DATA 3.2: sailing starts at 0 (Lake 1); rewards 2 VP / 2 books / 4 VP on reaching
    1 / 2 / 3; Lake's own track 1 -> 3 gives 3 VP on reaching 2 and 2 books on reaching 3."""
    boards = load().boards
    assert boards[L].sailing_start == 1
    assert boards[L].sailing_rewards == {2: {"vp": 3}, 3: {"books": 2}}
    for t in (D, P, S, F, M, W):
        assert boards[t].sailing_start == 0
        assert boards[t].sailing_rewards == {1: {"vp": 2}, 2: {"books": 2}, 3: {"vp": 4}}
        assert boards[t].sailing_cost == {"coins": 4, "scholars": 1}


def test_r72_plains_terraforming_step_costs_1_coin():
    """R72 / R87: a terraforming step costs 5 coins + 1 tool + 1 scholar, Plains 1 coin instead of 5;
    3 -> 2 -> 1 tools per spade; rewards 2 books then 6 VP."""
    boards = load().boards
    assert boards[P].terraforming_cost == {"coins": 1, "tools": 1, "scholars": 1}
    for b in boards:
        assert b.terraforming_tools == (3, 2, 1)
        assert b.terraforming_rewards == {1: {"books": 2}, 2: {"vp": 6}}
        if b.terrain != P:
            assert b.terraforming_cost == {"coins": 5, "tools": 1, "scholars": 1}


def test_r87_mountain_income_and_first_guild_slot():
    """R87: Mountain's base income is 1 tool + 2 coins and its first Guild slot shows 3 coins + 1
    power (others: base 1 tool; Guild slots 2c+1pw, 2c+1pw, 2c+2pw, 2c+2pw)."""
    boards = load().boards
    assert boards[M].base_income == {"tools": 1, "coins": 2}
    assert boards[M].slot_income[Building.GUILD][0] == {"power": 1, "coins": 3}
    assert boards[M].slot_income[Building.GUILD][1:] == ({"power": 1, "coins": 2}, {"power": 2, "coins": 2},
                                                        {"power": 2, "coins": 2})  # fmt: skip
    for t in (D, P, S, L, F, W):
        b = boards[t]
        assert b.base_income == {"tools": 1}
        assert [g.get("coins") for g in b.slot_income[Building.GUILD]] == [2, 2, 2, 2]
        assert [g.get("power") for g in b.slot_income[Building.GUILD]] == [1, 1, 2, 2]
        # workshop slots 1-9 reveal 1,1,1,1,0,1,1,1,1 tools (the 5th slot is empty)
        assert [w.get("tools", 0) for w in b.slot_income[Building.WORKSHOP]] == [1, 1, 1, 1, 0, 1, 1, 1, 1]


def test_r73_wasteland_innovation_slots_cost_0_0_2():
    """R73 / R87: the 1st / 2nd / 3rd innovation costs 0 / 1 / 2 extra books; Wasteland 0 / 0 / 2."""
    boards = load().boards
    for b in boards:
        assert b.innovation_slot_books == ((0, 0, 2) if b.terrain == W else (0, 1, 2))


def test_r41_building_costs_and_power_values():
    """R41, R64-R70: costs and power values of the buildings; pieces per colour (R2)."""
    d = load()
    assert d.building_power[Building.WORKSHOP : Building.MONUMENT + 1] == (1, 2, 2, 3, 3, 2, 4)
    assert d.building_pieces[Building.WORKSHOP : Building.PALACE + 1] == (9, 4, 3, 1, 1)
    assert d.building_cost[Building.WORKSHOP] == {"tools": 1, "coins": 2}
    assert d.building_cost[Building.GUILD] == {"tools": 2, "coins": 6}
    assert d.building_cost[Building.SCHOOL] == {"tools": 3, "coins": 5}
    assert d.building_cost[Building.UNIVERSITY] == {"tools": 5, "coins": 8}
    assert d.building_cost[Building.PALACE] == {"tools": 4, "coins": 6}


# ------------------------------------------------------------------------------------------------
# innovation display (R20)


@pytest.mark.parametrize("players, spaces, mixed", [(2, 6, 2), (3, 8, 0), (4, 10, 2), (5, 12, 0)])
def test_r20_innovation_display_has_2p_plus_2_spaces(players: int, spaces: int, mixed: int):
    """R20: 2P + 2 spaces (6/8/10/12); columns cost 2 own + 3 any books; 2 and 4 players add the two
    mixed spaces 2 Bk + 2 La + 1 any and 2 En + 2 Me + 1 any."""
    cost = innovation_spaces(players, load().raw)
    assert len(cost) == spaces == 2 * players + 2
    columns = [(spec.tolist(), any_) for spec, any_ in cost[: spaces - mixed]]
    for i, (spec, any_) in enumerate(columns):
        want = [0, 0, 0, 0]
        want[i % 4] = 2
        assert (spec, any_) == (want, 3)
    mixed_costs = [(spec.tolist(), any_) for spec, any_ in cost[spaces - mixed :]]
    assert mixed_costs == ([([2, 2, 0, 0], 1), ([0, 0, 2, 2], 1)] if mixed else [])


# ------------------------------------------------------------------------------------------------
# factions and the two rule versions (R88-R100, R145)


def test_r19_faction_start_steps_and_items():
    """R19: discipline steps and items printed on the faction tiles."""
    d = load()
    B, La, E, Me = Discipline.BANKING, Discipline.LAW, Discipline.ENGINEERING, Discipline.MEDICINE
    want = {
        Faction.BLESSED: {B: 1, La: 1, E: 1, Me: 1},
        Faction.FELINES: {B: 1, Me: 1},
        Faction.GOBLINS: {B: 1, E: 1},
        Faction.ILLUSIONISTS: {Me: 2},
        Faction.INVENTORS: {},
        Faction.LIZARDS: {},
        Faction.MOLES: {E: 2},
        Faction.MONKS: {La: 1},
        Faction.NAVIGATORS: {La: 3},
        Faction.OMAR: {B: 1, E: 1},
        Faction.PHILOSOPHERS: {B: 2},
        Faction.PSYCHICS: {B: 1, Me: 1},
    }
    for f, steps in want.items():
        assert d.factions[f]["start_steps"] == steps, f.name
    t = tables("v1.2", 3)
    assert t.faction_start[Faction.GOBLINS] == {"tools": 1}
    assert t.faction_start[Faction.PSYCHICS] == {"tools": 1}
    assert t.faction_flags[Faction.LIZARDS]["setup_steps_any"] == 2  # R94: 2 steps of choice
    assert t.faction_income[Faction.OMAR] == {"power": 2, "coins": 2}  # R98


@pytest.mark.parametrize(
    "players, illusionists, moles",
    [(2, 1, 4), (3, 1, 5), (4, 2, 6), (5, 2, 7)],
)
def test_r145_v1_2_faction_values(players: int, illusionists: int, moles: int):
    """R145 v1.2: Illusionists 1 VP per spell (2-3 players) / 2 (4-5); Moles 2 + players VP per
    tunnel; Navigators 2 VP + 1 coin per Workshop next to a river."""
    t = tables("v1.2", players)
    assert t.faction_events[Faction.ILLUSIONISTS]["spell"] == {"vp": illusionists}
    assert t.faction_events[Faction.MOLES]["tunnel"] == {"vp": moles}  # 2 + players
    assert t.faction_events[Faction.NAVIGATORS]["build_workshop_river"] == {"vp": 2, "coins": 1}
    assert t.faction_flags[Faction.ILLUSIONISTS]["spell_discount"] == 1  # R92: spells cost 1 less


@pytest.mark.parametrize("players, illusionists", [(2, 3), (3, 3), (4, 3), (5, 4)])
def test_r145_v1_0_faction_values(players: int, illusionists: int):
    """R145 v1.0: Illusionists 3 VP per spell (2-4 players) / 4 (5); Moles 4 VP per tunnel;
    Navigators 2 VP (no coin)."""
    t = tables("v1.0", players)
    assert t.faction_events[Faction.ILLUSIONISTS]["spell"] == {"vp": illusionists}
    assert t.faction_events[Faction.MOLES]["tunnel"] == {"vp": 4}
    assert t.faction_events[Faction.NAVIGATORS]["build_workshop_river"].get("coins", 0) == 0
    assert t.faction_events[Faction.NAVIGATORS]["build_workshop_river"]["vp"] == 2


# ------------------------------------------------------------------------------------------------
# the loader rejects bad data (STYLE §5.5)


def _raw() -> tuple[dict, dict]:
    with open(DATA_DIR / "components.yaml", encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    with open(DATA_DIR / "maps.yaml", encoding="utf-8") as fh:
        maps_raw = yaml.safe_load(fh)
    return raw, maps_raw


def test_loader_accepts_the_shipped_data():
    """The unmodified YAML parses to the same tables as ``load()``."""
    raw, maps_raw = _raw()
    data = parse(copy.deepcopy(raw), maps_raw)
    assert data.innovation_keys == load().innovation_keys
    assert Counter(data.bonus_ids) == Counter(load().bonus_ids)


def test_loader_rejects_an_unknown_gain_key():
    """A gain key outside the vocabulary fails at load time, naming the row and the key."""
    raw, maps_raw = _raw()
    raw["competencies"]["C2"]["income"]["gold"] = 1
    with pytest.raises(DataError, match=r"competencies\.C2\.income: unknown gain key.*'gold'"):
        parse(raw, maps_raw)
    assert issubclass(DataError, ValueError)


def test_loader_rejects_an_unknown_event():
    """An event outside the R146 list fails at load time, naming the event and the valid ones."""
    raw, maps_raw = _raw()
    raw["factions"]["goblins"]["events"]["dig_hole"] = {"vp": 1}
    with pytest.raises(DataError, match=r"factions\.goblins\.events: unknown event 'dig_hole'; valid: build_workshop"):
        parse(raw, maps_raw)


def test_loader_rejects_an_unknown_counter():
    """A vp_per counter outside the closed list fails at load time, naming the counter."""
    raw, maps_raw = _raw()
    raw["innovations"]["trade_routes"]["pass"]["vp_per"] = {"castle": 2}
    with pytest.raises(DataError, match=r"innovations\.trade_routes\.pass\.vp_per: unknown counter.*'castle'"):
        parse(raw, maps_raw)


def test_loader_rejects_an_unknown_field_and_a_bad_map_letter():
    """Unknown row fields and unknown map letters are rejected too."""
    raw, maps_raw = _raw()
    raw["palace_tiles"][4]["bogus"] = 1
    with pytest.raises(DataError, match=r"palace_tiles\.4: unknown field.*'bogus'"):
        parse(raw, maps_raw)
    raw, maps_raw = _raw()
    maps_raw["maps"]["3-5"]["grid"][0] = "X" + maps_raw["maps"]["3-5"]["grid"][0][1:]
    with pytest.raises(DataError, match=r"unknown grid letter 'X' at \(0, 0\)"):
        parse(raw, maps_raw)


def test_r56_loader_rejects_a_round_count_the_state_cannot_hold():
    """R56: 6 rounds.  The state holds one round tile per round, so components.yaml's ``rounds``
    is checked against that layout instead of being silently ignored."""
    raw, maps_raw = _raw()
    raw["rounds"] = 7
    with pytest.raises(DataError, match=r"rounds is 7; the state is laid out for 6"):
        parse(raw, maps_raw)


def test_r79_conversion_prices_are_read_from_the_data():
    """R79: 5 power for a scholar or a book, 3 for a tool, 1 for a coin; the engine's prices and
    the notation words come from components.yaml's ``conversions`` table."""
    from aoi_env.core import turn

    table = load().raw["conversions"]
    assert (turn.PW_SCHOLAR, turn.PW_BOOK, turn.PW_TOOL, turn.PW_COIN) == (5, 5, 3, 1)
    prices = [table[k]["pay"]["power"] for k in ("power_scholar", "power_book", "power_tool", "power_coin")]
    assert prices == [5, 5, 3, 1]
    assert "3pw tool" in turn.CONVERT_WORDS and "1pw coin" in turn.CONVERT_WORDS


def test_r79_conversion_amounts_are_read_from_the_data():
    """R79: every conversion's amounts come from the ``conversions`` table (a tool for a coin
    made worth 5 coins gives 5), and a table whose resources differ from the action's is refused."""
    from aoi_env.core import turn
    from aoi_env.core.moves import CONVERT_BASE
    from aoi_env.core.state import P_COINS, P_SCHOLAR_SUPPLY, P_SCHOLARS, P_TOOLS, PLAYER_FIELDS

    amounts = load().conversion_amounts
    assert amounts == {
        "power_scholar": (5, 1), "power_book": (5, 1), "power_tool": (3, 1), "power_coin": (1, 1),
        "scholar_tool": (1, 1), "tool_coin": (1, 1), "book_coin": (1, 1),
    }  # fmt: skip
    assert (turn.SCHOLAR_TOOL, turn.TOOL_COIN, turn.BOOK_COIN) == ((1, 1), (1, 1), (1, 1))
    raw, maps = _raw()
    edited = copy.deepcopy(raw)
    edited["conversions"]["tool_coin"]["get"]["coins"] = 5
    assert parse(edited, maps).conversion_amounts["tool_coin"] == (1, 5)

    old = turn.TOOL_COIN
    try:
        turn.TOOL_COIN = (2, 5)  # what turn reads from such data
        row = np.zeros(PLAYER_FIELDS, dtype=np.int32)
        row[P_TOOLS] = 1
        assert CONVERT_BASE + turn.CV_TOOL_COIN not in turn.conversions(row)
        row[P_TOOLS] = 2
        assert CONVERT_BASE + turn.CV_TOOL_COIN in turn.conversions(row)
        turn.convert(row, turn.CV_TOOL_COIN)
        assert (row[P_TOOLS], row[P_COINS]) == (0, 5)
    finally:
        turn.TOOL_COIN = old
    row = np.zeros(PLAYER_FIELDS, dtype=np.int32)
    row[P_SCHOLARS] = 1
    turn.convert(row, turn.CV_SCHOLAR_TOOL)  # the scholar goes back to the supply (R79)
    assert (row[P_SCHOLARS], row[P_SCHOLAR_SUPPLY], row[P_TOOLS]) == (0, 1, 1)

    edited = copy.deepcopy(raw)
    edited["conversions"]["tool_coin"]["get"] = {"books": 1}
    with pytest.raises(DataError, match=r"conversions.tool_coin: the action pays \['tools'\] for \['coins'\]"):
        parse(edited, maps)
    edited = copy.deepcopy(raw)
    edited["conversions"]["power_coin"]["pay"]["power"] = 0
    with pytest.raises(DataError, match="conversions.power_coin: amounts must be positive integers"):
        parse(edited, maps)
    edited = copy.deepcopy(raw)
    edited["conversions"]["burn"] = {}
    with pytest.raises(DataError, match="conversions.burn: the action pays"):
        parse(edited, maps)
    edited = copy.deepcopy(raw)
    del edited["conversions"]["burn"]
    with pytest.raises(DataError, match="conversions: expected"):
        parse(edited, maps)


def test_r14_palace_tiles_offered_are_read_from_the_data():
    """R14: palace 17 plus P + 1 random tiles in a standard game; ``palace_tiles_offered`` and
    the tile's ``always_offered`` flag say so, and the setup reads the flag (moved to another tile,
    that tile is the one always offered and the draw of the others is over the rest)."""
    import dataclasses
    import types

    import numpy as np

    from aoi_env.core import setup
    from aoi_env.core.engine import Game
    from aoi_env.core.state import G_PALACE_STATE

    offered = load().raw["palace_tiles_offered"]
    assert offered == {"extra": 1}
    assert [t for t, row in enumerate(load().palace_tiles) if row.get("always_offered")] == [16]
    g = Game("aoi(players=3)", seed=4)
    assert int((g.state.glob[G_PALACE_STATE] == -1).sum()) == 1 + 3 + 1
    assert g.state.glob[G_PALACE_STATE][16] == -1  # palace 17 (index 16)

    tiles = [{k: v for k, v in row.items() if k != "always_offered"} for row in load().palace_tiles]
    tiles[0] = {**tiles[0], "always_offered": True}
    moved = types.SimpleNamespace(data=dataclasses.replace(load(), palace_tiles=tuple(tiles)))
    others = setup._random_palace_tiles(moved, np.random.default_rng(0))
    assert sorted(others) == list(range(1, 17))
    glob = np.zeros_like(g.state.glob)
    setup._offer_palaces(moved, glob, others, 4)
    assert glob[G_PALACE_STATE][0] == -1 and glob[G_PALACE_STATE][16] in (0, -1)
    assert int((glob[G_PALACE_STATE] == -1).sum()) == 1 + 4


def test_r6_the_tile_kept_out_of_rounds_is_read_from_the_data():
    """R6(a): T2 never scores rounds 5 or 6 because its ``not_in_rounds`` says so; the same
    field on another tile keeps that tile out of those rounds instead."""
    import dataclasses
    import types

    import numpy as np

    from aoi_env.core import setup
    from aoi_env.core.engine import Game

    g = Game("aoi(players=3)", seed=0)
    ids = load().round_tile_ids
    t2, t5 = ids.index("T2"), ids.index("T5")
    rows = [dict(row) for row in load().round_tiles]
    rows[t2].pop("not_in_rounds")
    rows[t5]["not_in_rounds"] = [1, 2, 3]
    moved = types.SimpleNamespace(data=dataclasses.replace(load(), round_tiles=tuple(rows)), tab=g.tab)
    t2_late = t5_early = 0
    for seed in range(300):
        real = setup.draw_round_tiles(g, np.random.default_rng(seed))
        assert t2 not in real[4:], (seed, real)
        edited = setup.draw_round_tiles(moved, np.random.default_rng(seed))
        assert t5 not in edited[:3], (seed, edited)
        t2_late += t2 in edited[4:]
        t5_early += t5 in real[:3]
    assert t2_late > 20 and t5_early > 20  # without the field each tile goes anywhere


def test_r66_r70_the_upgrade_ladder_is_read_from_the_data():
    """R66-R70: each upgrade replaces the building its ``from`` names; the engine's table is the
    data's, and data that names another set of upgrades or an unknown building is refused."""
    from aoi_env.core import decisions

    assert load().building_from == decisions._FROM
    names = {Building(b).name.lower(): Building(f).name.lower() for b, f in enumerate(load().building_from) if f >= 0}
    assert names == {"guild": "workshop", "school": "guild", "university": "school", "palace": "guild"}
    raw, maps = _raw()
    edited = copy.deepcopy(raw)
    edited["buildings"]["school"]["from"] = "workshop"
    assert parse(edited, maps).building_from[Building.SCHOOL] == Building.WORKSHOP
    edited["buildings"]["school"]["from"] = "hut"
    with pytest.raises(DataError, match="buildings.school.from: unknown building 'hut'"):
        parse(edited, maps)
    del edited["buildings"]["school"]["from"]
    with pytest.raises(DataError, match="upgrade actions are guild, school, university, palace"):
        parse(edited, maps)


def test_docs_components_names_only_tests_that_exist():
    """docs/components.md lists tests per component; each named test is defined in tests/."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    named = set(re.findall(r"`(test_\w+)`", (root / "docs" / "components.md").read_text(encoding="utf-8")))
    defined = set()
    for path in (root / "tests").rglob("test_*.py"):
        defined |= set(re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.MULTILINE))
    assert len(named) > 100 and named <= defined, sorted(named - defined)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda r: r["round_scoring_tiles"]["T2"].update(not_in_rounds=[7]), "T2.not_in_rounds: expected a list"),
        (lambda r: r["round_scoring_tiles"]["T2"].update(not_in_rounds=5), "T2.not_in_rounds: expected a list"),
        (lambda r: r["palace_tiles"][17].update(always_offered="yes"), "palace_tiles.17.always_offered"),
        (lambda r: r["palace_tiles_offered"].update(standard_includes_17=True), "palace_tiles_offered: expected only"),
        (lambda r: r["buildings"]["guild"].update(colour="red"), r"buildings.guild: unknown field\(s\) \['colour'\]"),
    ],
)
def test_r6_r14_bad_offer_and_ladder_fields_are_refused(edit, message):
    """R6, R14, R66: the fields the setup and the upgrades read are checked when the data loads."""
    raw, maps = _raw()
    edited = copy.deepcopy(raw)
    edit(edited)
    with pytest.raises(DataError, match=message):
        parse(edited, maps)


# the loader names the table, row and problem of every malformed value (a coverage audit's cases)


def _set_in(doc: dict, path: tuple, value: object) -> None:
    for key in path[:-1]:
        doc = doc[key]
    doc[path[-1]] = value


LOADER_CASES = {
    "map rows": ("maps", ("maps", "3-5", "grid"), lambda v: v[:-1], r"map 3-5: expected 9 rows, got 8"),
    "map row length": ("maps", ("maps", "1-3", "grid"), lambda v: [v[0] + "FF", *v[1:]],
                       r"map 1-3: row 0 is longer than 13"),
    "bridge on river": ("maps", ("maps", "3-5", "bridge_spots"), lambda v: [[[0, 1], [0, 2]], *v],
                        r"map 3-5: bridge spot \(0,1\)-\(0,2\) is not between land hexes"),
    "border on river": ("maps", ("maps", "3-5", "border_hexes"), lambda v: [[0, 1], *v],
                        r"map 3-5: border hex \(0,1\) is not land"),
    "gain not a mapping": ("raw", ("competencies", "C2", "income"), lambda v: 3,
                           r"competencies\.C2\.income: expected a mapping of gains, got 3"),
    "income key": ("raw", ("competencies", "C2", "income"), lambda v: {**v, "dig": 1},
                   r"competencies\.C2\.income: \['dig'\] cannot be income"),
    "neutral building": ("raw", ("competencies", "C10", "once", "neutral"), lambda v: "castle",
                         r"competencies\.C10\.once\.neutral: unknown building 'castle'"),
    "vp_table counter": ("raw", ("innovations", "census", "once", "vp_table", "counter"), lambda v: "castles",
                         r"innovations\.census\.once\.vp_table: needs a known counter and thresholds"),
    "start step discipline": ("raw", ("factions", "monks", "start_steps"), lambda v: {"alchemy": 1},
                              r"factions\.monks: unknown discipline 'alchemy'"),
    # a 13th faction, a missing or misspelt one (the last two were a bare KeyError: coverage audit)
    "faction count": ("raw", ("factions",), lambda v: {**v, "extra": v["monks"]},
                      r"factions: expected exactly blessed, .*; missing \[\], unknown \['extra'\]"),
    "faction missing": ("raw", ("factions",), lambda v: {k: x for k, x in v.items() if k != "monks"},
                        r"factions: expected exactly .*; missing \['monks'\], unknown \[\]"),
    "faction misspelt": ("raw", ("factions",), lambda v: {("monk" if k == "monks" else k): x for k, x in v.items()},
                         r"factions: expected exactly .*; missing \['monks'\], unknown \['monk'\]"),
    "planning board missing": ("raw", ("planning_boards",), lambda v: {k: x for k, x in v.items() if k != "lake"},
                               r"planning_boards: expected exactly desert, .*; missing \['lake'\]"),
    "factions not a mapping": ("raw", ("factions",), lambda v: list(v), r"factions must map each name to its row"),
    "faction numbered": ("raw", ("factions",), lambda v: {**v, 7: v["monks"]}, r"factions: .*unknown \[7\]"),
    "palace numbers": ("raw", ("palace_tiles",), lambda v: {**v, 99: v[1]}, r"palace_tiles: expected numbers 1\.\.17"),
    "round tile count": ("raw", ("round_scoring_tiles",), lambda v: {k: x for k, x in v.items() if k != "T1"},
                         r"round_scoring_tiles: expected 12 entries, got 11"),
    "science bonus": ("raw", ("round_scoring_tiles", "T1", "science", "per"), lambda v: 0,
                      r"round_scoring_tiles\.T1: bad science bonus"),
    "science reward": ("raw", ("round_scoring_tiles", "T1", "science", "reward"), lambda v: {"vp": 3},
                       r"round_scoring_tiles\.T1: bad science reward"),
    "schema version": ("raw", ("schema_version",), lambda v: 2, r"components\.yaml: unsupported schema_version"),
    "terrain order": ("raw", ("terrains",), lambda v: v[::-1], r"terrains must list the cycle in enum order"),
    "discipline order": ("raw", ("disciplines",), lambda v: v[::-1], r"disciplines must be listed in enum order"),
    "slot income": ("raw", ("planning_board_common", "slot_income"), lambda v: {k: x for k, x in v.items()
                    if k != "school"}, r"planning board \w+: no slot income for SCHOOL"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(LOADER_CASES))
def test_loader_rejects_malformed_maps_and_tables_naming_the_place(case: str) -> None:
    """aoi_env/data: the loader validates the YAML so that a typo fails at load time with a
    ``DataError`` naming the table, row and problem (never a KeyError or a silently wrong game).
    Each case breaks one shipped value in a copy of the data."""
    raw, maps_raw = _raw()
    which, path, change, message = LOADER_CASES[case]
    doc = maps_raw if which == "maps" else raw
    node = doc
    for key in path:
        node = node[key]
    _set_in(doc, path, change(copy.deepcopy(node)))
    with pytest.raises(DataError, match=message):
        parse(raw, maps_raw)


def test_r73_loader_rejects_a_limit_other_than_the_3_innovation_slots():
    """R73: at most 3 innovations per player.  The state holds 3 slots and the engine reads the
    limit from there, so the data's ``max_per_player`` and each board's slot costs must say 3 too:
    another number fails at load time instead of being silently ignored (the data mutation audit
    found the value read by nothing)."""
    raw, maps_raw = _raw()
    raw["innovation_display"]["max_per_player"] = 4
    with pytest.raises(DataError, match=r"innovation_display\.max_per_player is 4; the state is laid out for 3"):
        parse(raw, maps_raw)
    raw, maps_raw = _raw()
    raw["planning_boards"]["wasteland"]["innovation_slot_books"] = [0, 0, 2, 3]
    with pytest.raises(DataError, match=r"planning board WASTELAND: expected 3 innovation slot costs \(R73\)"):
        parse(raw, maps_raw)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("palace_tiles", 3, "special", "school_to_guild"), 2, r"palace_tiles\.3\.special\.school_to_guild: an effect"),
        (("palace_tiles", 16, "once", "guild_anywhere"), 0, r"palace_tiles\.16\.once\.guild_anywhere: an effect"),
        (("factions", "psychics", "special", "second_action"), 2, r"factions\.psychics\.special\.second_action"),
        (("book_actions", "BA5", "effect", "free_guild_upgrade"), 2, r"book_actions\.BA5\.effect\.free_guild_upgr"),
        (("factions", "moles", "tunnel"), 2, r"factions\.moles\.tunnel: an ability that is on or off"),
        (("factions", "monks", "setup_university"), 2, r"factions\.monks\.setup_university: an ability"),
        (("palace_tiles", 9, "flight"), 2, r"palace_tiles\.9\.flight: an ability that is on or off"),
        (("palace_tiles", 15, "defer_city", "v1.2"), 2, r"palace_tiles\.15\.defer_city: an ability"),
    ],
)
def test_loader_rejects_a_number_where_an_effect_or_ability_is_on_or_off(path, value, message):
    """The named one-off gains (palace 3 / 4 / 15 / 16, BA5, the Psychics' second action, the
    Lizards' city TB) are effects, and the factions' and palace tiles' abilities (tunnel, flight,
    setup University, ...) are on or off: the engine cannot read a 2 as anything but "on", so the
    loader asks for 1 (or 0 for an ability) instead of playing a 2 as a 1 (the data mutation audit,
    docs/reliability-audits.md)."""
    raw, maps_raw = _raw()
    node = raw
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(DataError, match=message):
        parse(raw, maps_raw)


def test_a_gain_of_0_asks_for_no_decision():
    """components.yaml's vocabulary: "an amount of 0 gains nothing".  A gain of 0 books, steps,
    spades, bridges, competencies or city tiles pushes no choice (it used to push one book or
    step choice anyway, so a 0 in the data played as a 1: the data mutation audit's 1 -> 0
    mutants of C3's book, C1's step, palace 6's book and S1's bridge survived every test)."""
    from aoi_env.core import effects
    from aoi_env.core.pending import Kind
    from aoi_env.testing import Scenario

    g = Scenario("aoi(players=3)").turn(0)
    before = g.state.to_bytes()
    zero = {key: 0 for key in ("books", "steps_any", "steps_one", "steps_each", "tb", "spades", "bridge")}
    effects.gain(g, 0, {**zero, "competency": 0, "city_tile": 0, "sail": 0, "dig": 0, "coins": 0, "vp": 0})
    assert g.state.to_bytes() == before
    effects.gain(g, 0, {"books": 1})  # one book is one choice
    assert g.pending_kind() == Kind.CHOOSE_BOOKS
