"""Hex geometry of the 3-5 board side (aoi_env/core/board.py), checked by hand against DATA.md 2.2.

The grid (DATA.md 2.2; odd rows drawn half a hex to the right, ``.`` = river)::

           0  1  2  3  4  5  6  7  8  9 10 11 12
     r0   F  .  L  S  P  W  M  .  L  S  P  D  .
     r1    M  .  .  F  L  F  D  .  F  M  L  .  S
     r2   W  L  S  .  M  P  S  .  .  W  .  .  W
     r3    D  M  W  .  D  W  .  S  .  .  P  M  F
     r4   P  F  P  D  .  .  .  F  M  L  W  D  P
     r5    S  .  .  .  L  M  .  D  P  .  S  L  W
     r6   L  .  P  S  .  F  P  .  .  .  .  .  .
     r7    .  D  L  .  W  S  D  W  S  L  F  S  .
     r8   F  M  W  .  D  M  P  L  F  M  W  D  P

Neighbours of (r, c): even r -> (r, c±1), (r-1, c-1), (r-1, c), (r+1, c-1), (r+1, c);
odd r -> (r, c±1), (r-1, c), (r-1, c+1), (r+1, c), (r+1, c+1).
"""

from __future__ import annotations

import numpy as np
import pytest

from aoi_env.core.board import FAR, geometry, hex_name, parse_hex
from aoi_env.testing import random_action

GEO = geometry("3-5")
NO_BRIDGES = np.zeros((0, 2), dtype=np.intp)


def h(*names: str) -> set[int]:
    return {parse_hex(n) for n in names}


def names(mask_or_positions) -> set[str]:
    arr = np.asarray(mask_or_positions)
    if arr.dtype == bool:
        arr = np.flatnonzero(arr)
    return {hex_name(int(p)) for p in arr}


def mask(*hexes: str) -> np.ndarray:
    m = np.zeros(len(GEO.terrain), dtype=bool)
    for x in hexes:
        m[parse_hex(x)] = True
    return m


def bridges(*pairs: tuple[str, str]) -> np.ndarray:
    return np.array([sorted((parse_hex(a), parse_hex(b))) for a, b in pairs], dtype=np.intp).reshape(-1, 2)


# ------------------------------------------------------------------------------------------------
# hex names


def test_hex_name_and_parse_hex_round_trip():
    """Notation: a position is ``r<row>c<col>`` with pos = row * 13 + col."""
    assert parse_hex("r3c4") == 3 * 13 + 4 == 43
    assert hex_name(43) == "r3c4"
    assert parse_hex("R8C12") == 116  # case and surrounding spaces do not matter
    assert parse_hex(" r0c0 ") == 0
    for pos in range(117):
        assert parse_hex(hex_name(pos)) == pos


@pytest.mark.parametrize(
    "bad, why",
    [
        ("x3c4", "expected the form r<row>c<col>"),
        ("r3", "expected the form r<row>c<col>"),
        ("", "expected the form r<row>c<col>"),
        ("r3c4x", "expected the form r<row>c<col>"),
        ("r-1c2", "expected the form r<row>c<col>"),
        ("r9c0", "row must be 0..8 and column 0..12"),
        ("r0c13", "row must be 0..8 and column 0..12"),
    ],
)
def test_parse_hex_rejects_bad_names_with_a_clear_value_error(bad: str, why: str):
    with pytest.raises(ValueError, match=f"bad hex {bad!r}: {why}".replace("(", r"\(").replace(")", r"\)")):
        parse_hex(bad)


# ------------------------------------------------------------------------------------------------
# adjacency (R38)


def test_r38_neighbours_of_an_even_row_hex():
    """R38: r4c7 (forest, even row) touches (4,6) (4,8) (3,6) (3,7) (5,6) (5,7)."""
    assert names(GEO.neighbors[parse_hex("r4c7")]) == {"r4c6", "r4c8", "r3c6", "r3c7", "r5c6", "r5c7"}


def test_r38_neighbours_of_an_odd_row_hex():
    """R38: r3c4 (desert, odd row) touches (3,3) (3,5) (2,4) (2,5) (4,4) (4,5)."""
    assert names(GEO.neighbors[parse_hex("r3c4")]) == {"r3c3", "r3c5", "r2c4", "r2c5", "r4c4", "r4c5"}


@pytest.mark.parametrize(
    "hex_, expected",
    [
        ("r0c0", {"r0c1", "r1c0"}),  # top-left corner, even row: (1,-1) is off the grid
        ("r8c12", {"r8c11", "r7c11", "r7c12"}),  # bottom-right corner, even row
        ("r1c12", {"r1c11", "r0c12", "r2c12"}),  # right edge, odd row: (0,13) and (2,13) are off
        ("r5c0", {"r5c1", "r4c0", "r4c1", "r6c0", "r6c1"}),  # left edge, odd row
    ],
)
def test_r38_edge_hexes_have_fewer_neighbours(hex_: str, expected: set[str]):
    assert names(GEO.neighbors[parse_hex(hex_)]) == expected


def test_r38_adjacency_is_symmetric_and_has_no_self_loops():
    assert np.array_equal(GEO.adj, GEO.adj.T)
    assert not GEO.adj.diagonal().any()
    assert GEO.adj.sum(axis=1).max() == 6


def test_r38_a_built_bridge_makes_its_two_hexes_adjacent():
    """R38 / R40: a bridge on the printed spot r5c8-r7c8 makes the two hexes adjacent (they are two
    rows apart across rivers r6c8 and r6c9)."""
    a, b = parse_hex("r5c8"), parse_hex("r7c8")
    assert not GEO.adj[a, b]
    adj = GEO.adjacency(bridges(("r5c8", "r7c8")))
    assert adj[a, b] and adj[b, a]
    assert not GEO.adj[a, b]  # the static table is not modified
    assert (adj ^ GEO.adj).sum() == 2  # exactly the one pair (both directions) was added


# ------------------------------------------------------------------------------------------------
# river distance and reach (R39)

# From r5c8 (plains, odd row): land neighbours r5c7, r4c8, r4c9; river neighbours r5c9, r6c8, r6c9.
SAIL_0 = {"r5c7", "r4c8", "r4c9"}
# 1 river hex: via r5c9 -> r5c10, r4c9, r4c10; via r6c8 -> r5c7, r7c7, r7c8; via r6c9 -> r7c8, r7c9
SAIL_1 = SAIL_0 | {"r5c10", "r4c10", "r7c7", "r7c8", "r7c9"}
# 2 river hexes: r6c8 -> r6c7 -> r6c6, r7c6 (and r5c7, r7c7 again); r6c9 -> r6c10 -> r7c10 (and r5c10, r7c9)
SAIL_2 = SAIL_1 | {"r6c6", "r7c6", "r7c10"}
# 3 river hexes: r6c7 -> r5c6 -> r5c5, r4c7 (and r6c6, r5c7); r6c10 -> r6c11 -> r5c11, r7c11
SAIL_3 = SAIL_2 | {"r5c5", "r4c7", "r5c11", "r7c11"}


def test_r39_river_distance_from_r5c8():
    """R39: the river distance counts the river hexes on the shortest river-only path."""
    src = parse_hex("r5c8")
    dist = {hex_name(q): int(GEO.river_dist[src, q]) for q in np.flatnonzero(GEO.river_dist[src] < FAR)}
    for x in ("r4c9", "r4c10", "r5c10", "r5c7", "r7c7", "r7c8", "r7c9"):
        assert dist[x] == 1, x
    for x in ("r6c6", "r7c6", "r7c10"):
        assert dist[x] == 2, x
    for x in ("r5c5", "r4c7", "r5c11", "r7c11"):
        assert dist[x] == 3, x
    # r4c8 is a land neighbour, but by river it is far: r6c8 r6c7 r5c6 r4c6 r3c6 r2c7 r2c8 r3c8 = 8
    assert dist["r4c8"] == 8
    assert src not in {parse_hex(x) for x in dist}  # no distance to itself


@pytest.mark.parametrize("sailing, expected", [(0, SAIL_0), (1, SAIL_1), (2, SAIL_2), (3, SAIL_3)])
def test_r39_reach_from_r5c8_for_sailing_0_to_3(sailing: int, expected: set[str]):
    """R39: direct reach (adjacent land) plus land hexes behind 1..s river hexes."""
    src = parse_hex("r5c8")
    assert names(GEO.reach[sailing][src]) == expected
    assert names(GEO.reach_from(mask("r5c8"), sailing, NO_BRIDGES)) == expected


def test_r39_reach_is_land_only_and_grows_with_sailing():
    """Only land hexes are ever in reach; every level of sailing reaches at least as far."""
    for s in range(1, len(GEO.reach)):
        assert not (GEO.reach[s - 1] & ~GEO.reach[s]).any()
    assert not GEO.reach[3][:, GEO.river].any()
    assert not GEO.reach[3][GEO.river].any()


def test_r40_a_bridge_puts_its_far_end_in_reach():
    """R40: with a bridge r5c8-r7c8, r7c8 is in reach of r5c8 even with sailing 0, and the other
    way round; the bridge also extends reach for a building at its other end only."""
    br = bridges(("r5c8", "r7c8"))
    assert names(GEO.reach_from(mask("r5c8"), 0, br)) == SAIL_0 | {"r7c8"}
    assert "r5c8" in names(GEO.reach_from(mask("r7c8"), 0, br))
    # a building elsewhere gains nothing from the bridge
    assert names(GEO.reach_from(mask("r4c7"), 0, br)) == names(GEO.reach_from(mask("r4c7"), 0, NO_BRIDGES))


def test_r39_reach_of_several_buildings_is_the_union():
    """R39: a hex is in reach if it is in reach of at least one own building."""
    both = GEO.reach_from(mask("r5c8", "r0c0"), 0, NO_BRIDGES)
    # r0c0: neighbours r0c1 (river) and r1c0 (mountain): only r1c0 is land
    assert names(both) == SAIL_0 | {"r1c0"}


def test_r39_r40_engine_reach_equals_the_geometry_table_over_random_games():
    """R39/R40: the engine's cached reach (unpacked from a bit set, issue 10) is exactly
    ``Geometry.reach_from`` of the seat's buildings, effective sailing and built bridges, at every
    decision of random games on both board sides."""
    from aoi_env.core.engine import Game
    from aoi_env.core.rules import terrain

    rng = np.random.default_rng(5)
    checked = 0
    for config, seed in (("aoi(players=4)", 1), ("aoi(players=3,map=1-3)", 2), ("aoi(players=2)", 3)):
        g = Game(config, seed=seed)
        while not g.is_over():
            for seat in range(g.seats):
                table = g.geo.reach_from(terrain.own_mask(g, seat), terrain.sailing(g, seat), g.state.built_bridges())
                cached = terrain.reach(g, seat)
                assert cached.dtype == bool and not cached.flags.writeable
                assert np.array_equal(cached, table)
                checked += 1
            g.apply_action(random_action(g, rng))
    assert checked > 1000


# ------------------------------------------------------------------------------------------------
# jumps: Moles' tunnel (R95, OP-48) and palace 9's flight (R129, OP-49)


def test_r95_tunnel_targets_are_land_hexes_at_distance_exactly_2():
    """R95 / OP-48: the target is not adjacent to a Moles building, but a neighbour of it is
    (through any hex, land or river).  Ring 2 around r5c8: r3c7 r3c8 r3c9, r4c7 r4c10, r5c6 r5c10,
    r6c7 r6c10, r7c7 r7c8 r7c9; r3c8 r3c9 r5c6 r6c7 r6c10 are river."""
    targets = GEO.tunnel_targets(mask("r5c8"), NO_BRIDGES)
    assert names(targets) == {"r3c7", "r4c7", "r4c10", "r5c10", "r7c7", "r7c8", "r7c9"}


def test_op48_tunnel_distance_counts_bridges():
    """OP-48: bridges count as adjacency.  With the bridge r5c8-r7c8, r7c8 is adjacent (no tunnel
    target), and r7c8's other neighbours r8c8 and r8c9 are now at distance 2."""
    targets = GEO.tunnel_targets(mask("r5c8"), bridges(("r5c8", "r7c8")))
    assert names(targets) == {"r3c7", "r4c7", "r4c10", "r5c10", "r7c7", "r7c9", "r8c8", "r8c9"}


def test_r95_tunnel_target_may_not_be_adjacent_to_any_own_building():
    """R95: with buildings on r0c0 and r3c0, r2c0 and r2c1 (distance 2 from r0c0) touch r3c0 and are
    no targets.  From r0c0: ring 2 = r0c2, r1c1 (river), r2c0, r2c1; from r3c0 (odd row): ring 2 =
    r1c0, r1c1, r2c2, r3c2, r4c2, r5c0, r5c1 (river r1c1, r5c1)."""
    targets = GEO.tunnel_targets(mask("r0c0", "r3c0"), NO_BRIDGES)
    # r1c0 is adjacent to r0c0, so it is not a target either
    assert names(targets) == {"r0c2", "r2c2", "r3c2", "r4c2", "r5c0"}


def test_r129_flight_targets_are_land_hexes_at_distance_2_or_3():
    """R129 / OP-49: fly over 1 or 2 hexes: target at distance 2 or 3, not adjacent to own buildings.
    From r0c0: distance 2 = r0c2, r1c1 (river), r2c0, r2c1; distance 3 = r0c3, r1c2 (river), r2c2,
    r3c0, r3c1."""
    targets = GEO.flight_targets(mask("r0c0"), NO_BRIDGES)
    assert names(targets) == {"r0c2", "r2c0", "r2c1", "r0c3", "r2c2", "r3c0", "r3c1"}


def test_r129_flight_targets_exclude_hexes_next_to_other_own_buildings():
    """R129: with a second building on r3c1, its neighbours r3c0, r2c1, r2c2 are adjacent to an own
    building and no flight targets; its own ring 2 and 3 add hexes."""
    targets = GEO.flight_targets(mask("r0c0", "r3c1"), NO_BRIDGES)
    near = names(GEO.neighbors[parse_hex("r3c1")]) | {"r3c1"}
    assert {"r3c0", "r2c1", "r2c2"} <= near
    assert not names(targets) & near
    assert {"r0c2", "r2c0", "r0c3"} <= names(targets)  # still reachable from r0c0
    assert not (targets & ~GEO.land).any()


# ------------------------------------------------------------------------------------------------
# groups (R43 cities, R111 Communication) and the area relation (R83)


def test_r43_groups_under_adjacency():
    """R43: a group is connected through adjacency (a chain).  r4c7-r4c8-r5c8 form a chain; r7c8 is
    across the river; a bridge r5c8-r7c8 joins it to the chain."""
    pos = sorted(h("r4c7", "r4c8", "r5c8", "r7c8"))
    groups = GEO.groups(pos, GEO.adj)
    assert [names(g) for g in groups] == [{"r4c7", "r4c8", "r5c8"}, {"r7c8"}]
    joined = GEO.groups(pos, GEO.adjacency(bridges(("r5c8", "r7c8"))))
    assert [names(g) for g in joined] == [{"r4c7", "r4c8", "r5c8", "r7c8"}]
    assert GEO.groups([], GEO.adj) == []


def test_r83_area_relation_uses_final_sailing_and_bridges():
    """R83: buildings are connected for area scoring when in reach (final sailing, bridges)."""
    a, b = parse_hex("r0c0"), parse_hex("r0c2")  # across the river r0c1
    assert not GEO.area_relation(0, NO_BRIDGES, 0)[a, b]
    assert GEO.area_relation(1, NO_BRIDGES, 0)[a, b]  # 1 river hex
    x, y = parse_hex("r5c8"), parse_hex("r7c8")
    assert not GEO.area_relation(0, NO_BRIDGES, 0)[x, y]
    rel = GEO.area_relation(0, bridges(("r5c8", "r7c8")), 0)
    assert rel[x, y] and rel[y, x]


def test_r83_area_relation_with_tunnel_and_flight_jumps():
    """R83 (R95, R129): Moles connect buildings at distance 2, palace 9 at distance up to 3, with
    no tools or scholars.  r0c0 -> r2c0 is distance 2 (over r1c0); r0c0 -> r3c0 is distance 3."""
    a, two, three = parse_hex("r0c0"), parse_hex("r2c0"), parse_hex("r3c0")
    plain = GEO.area_relation(0, NO_BRIDGES, 0)
    tunnel = GEO.area_relation(0, NO_BRIDGES, 2)
    flight = GEO.area_relation(0, NO_BRIDGES, 3)
    assert not plain[a, two] and not plain[a, three]
    assert tunnel[a, two] and not tunnel[a, three]
    assert flight[a, two] and flight[a, three]
    # with buildings r0c0, r2c0, r5c0: r2c0 -> r5c0 is distance 3, so tunnels give 2 groups, flights 1
    pos = sorted(h("r0c0", "r2c0", "r5c0"))
    assert len(GEO.groups(pos, tunnel)) == 2
    assert len(GEO.groups(pos, flight)) == 1
