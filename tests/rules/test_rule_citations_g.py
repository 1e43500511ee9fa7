"""Edge cases of ids whose citing tests did not check them (OP-36, OP-37, R120, R135).

Positions: a 3-player game, seat 0 Inventors on Plains (native plains, sailing 0), seat 1 Monks on
Lake, seat 2 Illusionists on Swamp (3-5 side), unless a test says otherwise.
"""

from __future__ import annotations

import numpy as np

from aoi_env.core.board import hex_name, parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.invariants import check
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_ROUND,
    H_BUILDING,
    H_OWNER,
    H_TERRAIN,
    P_BOARD,
    P_BOOKS,
    P_BOWLS,
    P_COINS,
    P_FACTION,
    P_SCHOLARS,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data.enums import Faction, Terrain
from aoi_env.testing import play
from tests.rule_positions import scenario


def terrain_at(g: Game, hex_: str) -> Terrain:
    return Terrain(int(g.state.hexes[parse_hex(hex_), H_TERRAIN]))


def spade_targets(g: Game) -> set[str]:
    return {m.split()[1] for m in g.legal_moves() if m.startswith("spade ")}


def adjacent_targets(g: Game, seat: int) -> set[str]:
    """Unbuilt land hexes of another terrain than the seat's native one, adjacent to one of its
    buildings: with sailing 0 exactly the hexes "in reach" (R39) a loose spade may go on."""
    h = g.state.hexes
    own = (h[:, H_BUILDING] > 0) & (h[:, H_OWNER] == seat)
    near = g.adjacency()[own].any(axis=0) & g.geo.land & (h[:, H_BUILDING] == 0)
    native = int(g.state.players[seat, P_BOARD])
    return {hex_name(int(x)) for x in np.flatnonzero(near) if h[x, H_TERRAIN] != native}


def own_hexes(g: Game, seat: int) -> np.ndarray:
    h = g.state.hexes
    return (h[:, H_BUILDING] > 0) & (h[:, H_OWNER] == seat)


# ------------------------------------------------------------------------------------------------
# OP-36: no flight with Phase III spades


def test_op36_palace9_flight_is_not_available_for_phase_iii_spades() -> None:
    """OP-36 (ASSUMPTION) "Tunnels and flights are not available" for the science-bonus spades
    (they exist only during a TB action): seat 0 holds palace 9 and 2 scholars, so a TB would
    offer a flight; its 2 Phase III spades go only on hexes in reach, and using them spends no
    scholar and scores no flight VP."""
    sc = scenario().build(0, "r7c6", "workshop").build(0, "r0c0", "palace").palace_tile(0, 9)
    sc.set(0, scholars=2)
    g = sc.decide(Kind.SPADES, 0, 2, phase=Phase.SCIENCE)
    flight = {hex_name(int(x)) for x in np.flatnonzero(g.geo.flight_targets(own_hexes(g, 0), g.state.built_bridges()))}
    assert flight  # e.g. r7c4, r8c8: 2 or 3 hexes away
    assert spade_targets(g) == adjacent_targets(g, 0) == {"r1c0", "r7c5", "r7c7", "r8c7"}
    assert not spade_targets(g) & flight
    play(g, "spade r7c5")  # swamp -> plains
    check(g)
    p = g.state.players[0]
    assert (int(p[P_SCHOLARS]), int(p[P_VP])) == (2, 20)  # no scholar returned, no +5 VP
    assert g.pending_kind() == Kind.SPADES and spade_targets(g) == {"r1c0", "r7c7", "r8c7"}
    play(g, "spade r8c7")  # lake -> swamp; then the game moves on (round 3)
    assert (terrain_at(g, "r7c5"), terrain_at(g, "r8c7")) == (Terrain.PLAINS, Terrain.SWAMP)
    # the same position in Phase II: a TB offers the flight (so the restriction is Phase III's)
    g2 = scenario().build(0, "r7c6", "workshop").build(0, "r0c0", "palace").palace_tile(0, 9)
    g2 = g2.set(0, scholars=2).turn(0)
    play(g2, "build")
    assert "fly" in g2.legal_moves()


# ------------------------------------------------------------------------------------------------
# OP-37: setup spades follow the Phase III rules


def _setup_until(g: Game, kind: Kind, seat: int) -> Game:
    """Take the first legal choice at every setup decision until ``seat`` faces ``kind``."""
    while not (g.pending_kind() == kind and g.current_seat() == seat):
        g.apply_action(g.legal_actions()[0])
    return g


def test_op37_setup_spades_may_be_split_without_finishing_the_first_hex() -> None:
    """OP-37 (ASSUMPTION) "each spade moves one unbuilt, non-native hex in reach one step toward
    your native terrain; the spades may be split over several hexes" (Phase III rules, OP-36: a
    hex need not be completed first): the Inventors take C5 at setup (2 spades, R23); the first
    spade turns Lake r1c4 into Swamp (still 1 step from Plains), the second may go on Swamp r0c3
    instead; nothing is bought and no Workshop is built."""
    g = Game("aoi(players=3,factions=inventors+monks+psychics,boards=plains+lake+forest,skip_forced=false)", seed=1)
    _setup_until(g, Kind.CHOOSE_COMPETENCY, 0)
    play(g, "competency C5")
    _setup_until(g, Kind.SPADES, 0)
    assert int(g.state.glob[G_ROUND]) == 0  # still setup
    targets = spade_targets(g)
    assert targets == adjacent_targets(g, 0)
    assert {"r1c4", "r0c3"} <= targets
    tools, coins = int(g.state.players[0, P_TOOLS]), int(g.state.players[0, P_COINS])
    play(g, "spade r1c4")
    assert terrain_at(g, "r1c4") == Terrain.SWAMP  # one step only
    assert g.pending_kind() == Kind.SPADES and g.current_seat() == 0
    assert spade_targets(g) == targets  # r1c4 is not forced first; every hex is still offered
    play(g, "spade r0c3")
    check(g)
    assert (terrain_at(g, "r1c4"), terrain_at(g, "r0c3")) == (Terrain.SWAMP, Terrain.PLAINS)
    assert all(g.state.hexes[parse_hex(x), H_BUILDING] == 0 for x in ("r1c4", "r0c3"))
    assert (int(g.state.players[0, P_TOOLS]), int(g.state.players[0, P_COINS])) == (tools, coins)
    assert not (g.pending_kind() == Kind.SPADES and g.current_seat() == 0)  # both spades used


def test_op37_moles_setup_spade_cannot_tunnel() -> None:
    """OP-37 (setup spades use the Phase III rules) with OP-36 "Tunnels and flights are not
    available": the Moles on the Desert board get 1 setup spade; it is offered only on hexes in
    reach of their Workshops, none of the tunnel targets two hexes away, and it costs no tool."""
    g = Game("aoi(players=3,factions=moles+felines+monks,boards=desert+lake+forest,skip_forced=false)", seed=3)
    while g.pending_kind() != Kind.SPADES:
        g.apply_action(g.legal_actions()[0])
    seat = g.current_seat()
    assert int(g.state.glob[G_ROUND]) == 0
    assert int(g.state.players[seat, P_FACTION]) == Faction.MOLES
    assert Terrain(int(g.state.players[seat, P_BOARD])) == Terrain.DESERT
    h = g.state.hexes
    tunnel = g.geo.tunnel_targets(own_hexes(g, seat), g.state.built_bridges())
    tunnel &= (h[:, H_BUILDING] == 0) & (h[:, H_TERRAIN] != Terrain.DESERT)
    tunnel_names = {hex_name(int(x)) for x in np.flatnonzero(tunnel)}
    assert tunnel_names  # a tunnel would have somewhere to go
    targets = spade_targets(g)
    assert targets == adjacent_targets(g, seat)
    assert not targets & tunnel_names
    tools = int(g.state.players[seat, P_TOOLS])
    play(g, f"spade {sorted(targets)[0]}")
    assert int(g.state.players[seat, P_TOOLS]) == tools


# ------------------------------------------------------------------------------------------------
# R120: palace tile income from the next Phase I


def _palace_then_next_round(number: int) -> tuple[list[int], list[int]]:
    """Seat 0 upgrades its Guild on r7c5 (Plains) to the Palace taking tile ``number`` in round 2,
    then every seat passes; (coins, tools, bowls I-III of seat 0) right after the build and at
    seat 0's first turn of round 3."""
    sc = scenario().build(0, "r7c5", "guild").offer_palace(number, 17).set(0, tools=4, coins=6)
    sc.bonus_tiles(["B9", "B3", "B6"], ["B1", "B5", "B7"])
    g = sc.turn(0)
    play(g, "upgrade palace", "upgrade r7c5", f"palace {number}")
    assert g.pending_kind() == Kind.POST  # palaces 2 and 8 have no one-time choice; no city here
    p = g.state.players[0]
    after_build = [int(p[P_COINS]), int(p[P_TOOLS]), *map(int, p[P_BOWLS])]
    play(g, "done", "pass", "bonus B1", "pass", "bonus B5", "pass", "bonus B7")
    while g.pending_kind() != Kind.MAIN:  # Phase III choices, if any
        play(g, g.legal_moves()[0])
    assert int(g.state.glob[G_ROUND]) == 3
    check(g)
    p = g.state.players[0]
    return after_build, [int(p[P_COINS]), int(p[P_TOOLS]), *map(int, p[P_BOWLS])]


def test_r120_palace_tile_income_starts_in_the_next_phase_i() -> None:
    """R120 "Income is collected from the next Phase I": taking palace 8 (income 2 C + 2 P + 1 T,
    R128) pays nothing when the Palace is built (the same resources as with palace 2, which has
    no income), and the next round's Phase I pays exactly 2 coins, 1 tool and 2 power more than
    with palace 2."""
    built2, next2 = _palace_then_next_round(2)
    built8, next8 = _palace_then_next_round(8)
    assert built8 == built2 == [0, 0, 5, 7, 0]  # 6 coins + 4 tools paid; no income yet
    assert next8[0] - next2[0] == 2  # coins
    assert next8[1] - next2[1] == 1  # tool
    moved2 = (next2[4] - built2[4]) - (next2[2] - built2[2])  # power moved I -> II -> III
    moved8 = (next8[4] - built8[4]) - (next8[2] - built8[2])
    assert moved8 - moved2 == 2


# ------------------------------------------------------------------------------------------------
# R135: palace 15's TB may buy missing spades; its books may differ


def test_r135_palace15_tb_buys_the_missing_spade_and_books_of_two_disciplines() -> None:
    """R135: palace 15's one-time TB has "2 free spades (missing spades may be bought with
    tools)" and its "2 books of choice (different disciplines allowed)": Forest r8c7 is 3 spades
    from Plains; the TB offers up to 3 spades, the third bought for 3 tools (track level 0), and
    the books go to Law and Medicine.  The 2 bridges cost nothing."""
    sc = scenario().build(0, "r8c6", "guild").build(0, "r6c6", "workshop").terrain("r8c7", "forest")
    sc.build(0, "r7c5", "guild").offer_palace(15, 17).set(0, tools=4 + 3, coins=6)
    g = sc.turn(0)
    play(g, "upgrade palace", "upgrade r7c5", "palace 15")
    assert g.pending_kind() == Kind.PALACE15
    assert int(g.state.players[0, P_TOOLS]) == 3  # 7 - 4 (Palace)
    play(g, "part spades", "target r8c7")
    assert g.legal_moves() == ["spades 1", "spades 2", "spades 3"]
    play(g, "spades 3")
    assert terrain_at(g, "r8c7") == Terrain.PLAINS
    assert int(g.state.players[0, P_TOOLS]) == 0  # 2 free + 1 bought at 3 tools
    play(g, "done")
    assert g.pending_kind() == Kind.PALACE15
    play(g, "part books", "book law", "book medicine")
    assert g.state.players[0, P_BOOKS].tolist() == [0, 1, 0, 1]
    bowls, coins = g.state.players[0, P_BOWLS].tolist(), int(g.state.players[0, P_COINS])
    play(g, "part bridges", "bridge r5c7", "bridge to r6c6")
    check(g)
    assert g.state.players[0, P_BOWLS].tolist() == bowls and int(g.state.players[0, P_COINS]) == coins
    assert g.adjacency()[parse_hex("r5c7"), parse_hex("r6c6")]
