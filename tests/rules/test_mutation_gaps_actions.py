"""Rule behaviours of the action modules (core/terraform.py, core/turn.py, core/decisions.py) that
a mutation audit found unpinned by the other rule tests (M2).

Terraform positions: seat 0 plays the Desert board (native desert, terraforming 0 = 3 tools per
spade) with a Workshop on r7c6, sailing 0; its reach is r6c6, r7c5, r7c7, r8c6, r8c7 (none
desert).  The Moles' tunnel area around r7c6 is r5c5, r5c7, r6c5, r7c4, r7c8, r8c5, r8c8, of
which only r5c7 is desert.
"""

from __future__ import annotations

from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.rules import science
from aoi_env.core.state import (
    H_BUILDING,
    H_OWNER,
    H_TERRAIN,
    P_BRIDGES,
    P_COINS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
)
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario, play

TUNNEL_AREA = ["r5c5", "r5c7", "r6c5", "r7c4", "r7c8", "r8c5", "r8c8"]


def desert(factions: list[str] | None = None, tools: int = 10, coins: int = 15) -> Scenario:
    """Seat 0 on Desert with a Workshop on r7c6; round 1, round tile T10 (no build / spade VP)."""
    s = Scenario(
        "aoi(players=3)", factions=factions or ["felines", "blessed", "monks"], boards=["desert", "lake", "forest"]
    )
    for seat, tile in enumerate(("B10", "B9", "B8")):
        s.bonus(seat, tile)
    s.round(1, tile="T10")
    s.build(0, "r7c6", "workshop")
    return s.set(0, tools=tools, coins=coins, bowls=(0, 0, 12))


def terrain(g: Game, hex_: str) -> str:
    return Terrain(int(g.state.hexes[parse_hex(hex_), H_TERRAIN])).name.lower()


def building(g: Game, hex_: str) -> tuple[str, int]:
    h = g.state.hexes[parse_hex(hex_)]
    return Building(int(h[H_BUILDING])).name.lower(), int(h[H_OWNER])


# --------------------------------------------------------------------------------------------
# Moles' tunnel: tools left after the tunnel's own tool (R95, R62, R63.1, OP-58)


def test_r95_tunnel_with_exactly_one_spade_of_tools_left_reaches_non_native_hexes() -> None:
    """R95: "pay 1 tool to skip one hex"; R62: "Pay tools at the terraforming-track rate,
    3/2/1 tools per spade".  With 4 tools the tunnel (1) leaves exactly one spade (3), so every
    hex of the tunnel area is a target, and terraforming one of them spends all 4 tools."""
    g = desert(factions=["moles", "blessed", "monks"], tools=4).turn(0)
    play(g, "build", "tunnel")
    assert g.legal_moves() == [f"tunnel {h}" for h in TUNNEL_AREA]
    play(g, "tunnel r7c4", "spades 1")  # wasteland -> desert: 1 spade
    assert terrain(g, "r7c4") == "desert"
    p = g.state.players[0]
    assert p[P_TOOLS] == 0  # 1 tunnel + 3 spade
    assert p[P_VP] == 20 + 2 + 3  # tunnel VP (v1.2): 2 + 3 players
    assert g.legal_moves() == ["done"]  # no tool left for the Workshop


def test_r95_r61_tunnel_without_tools_for_a_spade_offers_only_native_hexes() -> None:
    """R95 "pay 1 tool" + R61/R64: with 3 tools the tunnel leaves 2, less than one spade (3), so
    only the native (desert) hex r5c7 of the tunnel area is a target, to build on at once
    (1 tool + 2 coins); the other hexes would be dead ends (OP-58)."""
    g = desert(factions=["moles", "blessed", "monks"], tools=3).turn(0)
    play(g, "build")
    assert "tunnel" in g.legal_moves()
    play(g, "tunnel")
    assert g.legal_moves() == ["tunnel r5c7"]
    play(g, "tunnel r5c7")
    assert building(g, "r5c7") == ("workshop", 0)
    p = g.state.players[0]
    assert (p[P_TOOLS], p[P_COINS]) == (3 - 1 - 1, 15 - 2)


# --------------------------------------------------------------------------------------------
# the TB action needs a first hex (R59, OP-58)


def test_op58_build_action_needs_a_payable_spade_or_a_native_hex() -> None:
    """OP-58: "An action must have at least its main effect: ... a legal hex for the TB"; R62
    "A normal TB action paid with tools".  With 2 tools (a spade costs 3) and no native hex in
    reach there is no TB; a native empty hex in reach makes the Workshop-only TB legal."""
    assert "build" not in desert(tools=2).turn(0).legal_moves()
    g = desert(tools=2).terrain("r8c6", "desert").turn(0)
    assert "build" in g.legal_moves()
    play(g, "build")
    assert g.legal_moves() == ["target r8c6"]  # no spade affordable: only the native hex
    play(g, "target r8c6")
    assert building(g, "r8c6") == ("workshop", 0)
    assert g.state.players[0, P_TOOLS] == 2 - 1


# --------------------------------------------------------------------------------------------
# Pavilion action (C6, R141, OP-58)


def test_c6_pavilion_action_needs_a_pavilion_in_the_supply() -> None:
    """R141 C6: "as an action, attach 1 of your Pavilions to one of your buildings that has
    none".  Without a Pavilion left the action is not offered, with one it is."""
    assert "pavilion" not in desert().set(0, pavilions=0).turn(0).legal_moves()
    assert "pavilion" in desert().set(0, pavilions=1).turn(0).legal_moves()


# --------------------------------------------------------------------------------------------
# keys (R50, OP-31)


def _city_position(science_levels: tuple[int, int, int, int]) -> Game:
    """Seat 0 (Inventors, Desert) has three Guilds on r0c4, r0c5, r1c4 and builds a Workshop on
    r1c5: a city (4 buildings, power 7); the city tile choice is pending."""
    sc = Scenario("aoi(players=3)", factions=["inventors", "monks", "psychics"], boards=["desert", "lake", "forest"])
    sc.round(1, tile="T10")
    sc.bonus_tiles(("B9", "B10", "B3"), ("B4", "B7", "B8"))
    for x in ("r0c4", "r0c5", "r1c4"):
        sc.build(0, x, "guild")
    sc.terrain("r1c5", "desert").set(0, science=science_levels)
    g = sc.turn(0)
    play(g, "build", "target r1c5")
    assert g.pending_kind() == Kind.CHOOSE_CITY
    return g


def test_r50_op31_one_key_unlocks_one_track_even_when_two_tracks_reach_the_barrier() -> None:
    """R50: "Each track needs its own key: a key used to unlock one track cannot be used again";
    OP-31: keys = city tiles - unlocked tracks.  K7 (1 step in each discipline) with Banking and
    Law at 7 and its single key: after the key goes to Law, the Banking step can only be lost."""
    g = _city_position((7, 7, 0, 0))
    play(g, "city K7")
    assert g.pending_kind() == Kind.USE_KEY
    assert sorted(g.legal_moves()) == ["key law", "nokey"]
    play(g, "key law")
    assert g.pending_kind() == Kind.USE_KEY
    assert g.legal_moves() == ["nokey"]  # the key is used up
    play(g, "nokey")
    p = g.state.players[0]
    assert list(p[P_SCIENCE]) == [7, 8, 1, 1]
    assert science.keys_available(p) == 0


# --------------------------------------------------------------------------------------------
# bridges (R40, R2, R135)


def test_r40_r135_palace15_bridges_stop_at_the_third_bridge() -> None:
    """R2 / R40: "Each player has 3 bridges"; R135 palace 15: "build 2 free bridges (bridge rules
    of R40)".  With 2 bridges already on the map, the part builds the third and the second free
    bridge is lost: the next decision is the choice of the remaining parts."""
    sc = Scenario("aoi(players=3)", factions=["inventors", "monks", "illusionists"], boards=["plains", "lake", "swamp"])
    sc.round(2, tile="T9")
    sc.build(0, "r8c6", "guild").build(0, "r6c6", "workshop").build(0, "r7c7", "workshop")
    sc.bridge(0, "r0c2", "r1c0").bridge(0, "r0c8", "r1c6")
    sc.build(0, "r7c5", "guild").offer_palace(15, 17).set(0, tools=5, coins=8)
    g = sc.turn(0)
    play(g, "upgrade palace", "upgrade r7c5", "palace 15", "part bridges")
    assert g.legal_moves() == ["bridge r5c7", "bridge r6c6", "bridge r7c7"]
    play(g, "bridge r5c7", "bridge to r6c6")
    assert g.state.players[0, P_BRIDGES] == 3
    assert g.pending_kind() == Kind.PALACE15
    assert g.legal_moves() == ["part spades", "part books"]


def test_r135_op58_palace15_bridges_part_not_offered_with_all_three_bridges_built() -> None:
    """R135 palace 15: "build 2 free bridges (bridge rules of R40)"; R40 "Each player has 3
    bridges"; OP-58: a choice must have its main effect.  With all 3 bridges on the map the
    bridges part cannot build anything, so only the spades and books parts are offered."""
    sc = Scenario("aoi(players=3)", factions=["inventors", "monks", "illusionists"], boards=["plains", "lake", "swamp"])
    sc.round(2, tile="T9")
    sc.build(0, "r8c6", "guild").build(0, "r6c6", "workshop")
    sc.bridge(0, "r0c2", "r1c0").bridge(0, "r0c8", "r1c6").bridge(0, "r0c11", "r1c12")
    sc.build(0, "r7c5", "guild").offer_palace(15, 17).set(0, tools=5, coins=8)
    g = sc.turn(0)
    play(g, "upgrade palace", "upgrade r7c5", "palace 15")
    assert g.pending_kind() == Kind.PALACE15
    assert g.legal_moves() == ["part spades", "part books"]
