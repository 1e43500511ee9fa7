"""RULES.md §4.2.1: Terraform and Build (R60-R65, OP-34, OP-35, OP-48, OP-49, OP-57).

Seat 0 plays the Desert board (native terrain desert) with a Workshop on r7c6 and sailing 0, so
its reach is exactly the five land neighbours::

    r6c6 plains (1 spade)   r7c5 swamp (2)   r7c7 wasteland (1)   r8c6 plains (1)   r8c7 lake (3)

Round tile T10 (innovation VP) keeps builds and spades from scoring unless a test sets another.
"""

from __future__ import annotations

import pytest

from aoi_env.core.board import parse_hex
from aoi_env.core.pending import Kind
from aoi_env.core.state import G_BOOK_ACTIONS, H_BUILDING, H_OWNER, H_TERRAIN, P_BOWLS, P_COINS, P_TOOLS, P_VP
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario, play

HOME = "r7c6"
FAR = "r0c0"  # far from HOME: the Palace a palace tile lies on (R68)


REACH = ["r6c6", "r7c5", "r7c7", "r8c6", "r8c7"]


def scenario(factions: list[str] | None = None, tools: int = 10, coins: int = 15) -> Scenario:
    s = Scenario(
        "aoi(players=3)", factions=factions or ["felines", "blessed", "monks"], boards=["desert", "lake", "forest"]
    )
    for seat, tile in enumerate(("B10", "B9", "B8")):
        s.bonus(seat, tile)
    s.round(1, tile="T10")
    s.build(0, HOME, "workshop")
    s.set(0, tools=tools, coins=coins, bowls=(0, 0, 12))
    return s


def terrain(g, hex_: str) -> str:  # noqa: ANN001
    return Terrain(int(g.state.hexes[parse_hex(hex_), H_TERRAIN])).name.lower()


def building(g, hex_: str) -> tuple[str, int]:  # noqa: ANN001
    h = g.state.hexes[parse_hex(hex_)]
    return Building(int(h[H_BUILDING])).name.lower(), int(h[H_OWNER])


def targets(g) -> list[str]:  # noqa: ANN001
    return [m.split()[1] for m in g.legal_moves() if m.startswith("target ")]


def spade_targets(g) -> list[str]:  # noqa: ANN001
    return [m.split()[1] for m in g.legal_moves() if m.startswith("spade ")]


# --------------------------------------------------------------------------------------------
# R60 the three forms


def test_r60a_terraform_then_build_rulebook_mountain_example() -> None:
    """R60 (a), rulebook example: Mountain -> Desert costs 2 spades = 6 tools at 3 tools per
    spade; then the Workshop costs 1 tool + 2 coins."""
    s = scenario()
    s.terrain("r7c7", "mountain")
    g = s.turn(0)
    play(g, "build", "target r7c7", "spades 2", "workshop")
    p = g.state.players[0]
    assert p[P_TOOLS] == 10 - 6 - 1  # 2 spades x 3 tools, Workshop 1 tool
    assert p[P_COINS] == 15 - 2
    assert terrain(g, "r7c7") == "desert"
    assert building(g, "r7c7") == ("workshop", 0)
    assert g.pending_kind() == Kind.POST


def test_r60_rulebook_swamp_to_desert_costs_two_spades() -> None:
    """R35 / R60, rulebook example: terraforming Swamp into Desert costs 2 spades."""
    g = scenario().turn(0)
    play(g, "build", "target r7c5")
    assert g.legal_moves() == ["spades 1", "spades 2"]  # at most the 2 spades the hex needs
    play(g, "spades 2", "workshop")
    assert terrain(g, "r7c5") == "desert"
    assert g.state.players[0, P_TOOLS] == 10 - 2 * 3 - 1


def test_r60b_only_build_on_a_native_hex() -> None:
    """R60 (b): a Workshop may be built on an already native hex without terraforming."""
    s = scenario()
    s.terrain("r8c6", "desert")
    g = s.turn(0)
    play(g, "build", "target r8c6")  # native: the Workshop is built at once
    assert building(g, "r8c6") == ("workshop", 0)
    p = g.state.players[0]
    assert (p[P_TOOLS], p[P_COINS]) == (10 - 1, 15 - 2)


def test_r60c_only_terraform_without_building() -> None:
    """R60 (c) / R64: terraforming without building; the hex stays unbuilt."""
    g = scenario().turn(0)
    play(g, "build", "target r7c7", "spades 1")
    assert g.legal_moves() == ["workshop", "done"]
    play(g, "done")
    assert terrain(g, "r7c7") == "desert" and building(g, "r7c7") == ("none", -1)
    p = g.state.players[0]
    assert (p[P_TOOLS], p[P_COINS]) == (10 - 3, 15)


# --------------------------------------------------------------------------------------------
# R61 targets


def test_r61_targets_are_unbuilt_hexes_in_reach() -> None:
    """R61: the hex must be unbuilt and in reach of one of the player's buildings."""
    s = scenario()
    s.build(1, "r8c7", "workshop")  # built by another player: not a target
    g = s.turn(0)
    play(g, "build")
    assert targets(g) == ["r6c6", "r7c5", "r7c7", "r8c6"]  # r8c8 etc. are out of reach


def test_r61_native_hex_is_no_terraform_target() -> None:
    """R61: a hex of the player's native terrain cannot be terraformed (it is only a build
    target, and only if a Workshop can be paid)."""
    s = scenario(coins=1)  # cannot pay the 2 coins of a Workshop
    s.terrain("r8c6", "desert")
    g = s.turn(0)
    play(g, "build")
    assert "r8c6" not in targets(g)
    assert "r6c6" in targets(g)


def test_r61_hex_terraformed_by_someone_else_can_be_terraformed_again() -> None:
    """R61: any unbuilt hex may be terraformed again, even one another player changed."""
    s = scenario()
    s.terrain("r7c7", "lake")  # seat 1 (Lake) made it native earlier but did not build
    g = s.turn(0)
    play(g, "build", "target r7c7", "spades 3")  # Lake -> Desert: 3 spades
    assert terrain(g, "r7c7") == "desert"


# --------------------------------------------------------------------------------------------
# R62 spade sources


@pytest.mark.parametrize(("level", "rate"), [(0, 3), (1, 2), (2, 1)])
def test_r62_tools_pay_spades_at_the_track_rate(level: int, rate: int) -> None:
    """R62 / R37: tools pay for spades at the terraforming-track rate, 3 / 2 / 1 per spade."""
    s = scenario()
    s.set(0, terraforming=level)
    g = s.turn(0)
    play(g, "build", "target r7c5", "spades 2", "done")
    assert g.state.players[0, P_TOOLS] == 10 - 2 * rate


def test_r62_free_spade_from_a_spell_costs_no_tools() -> None:
    """R62: a bonus TB (spell S3: 1 free spade, 4 power) terraforms without tools."""
    g = scenario().turn(0)
    play(g, "spell S3", "target r7c7", "spades 1", "done")
    assert terrain(g, "r7c7") == "desert"
    assert g.state.players[0, P_TOOLS] == 10
    assert tuple(g.state.players[0, P_BOWLS]) == (4, 0, 8)


def test_r62_tools_only_tb_terraforms_one_hex() -> None:
    """R62: a normal TB paid with tools terraforms one hex: no spade for another hex is offered."""
    g = scenario().turn(0)
    play(g, "build", "target r7c7", "spades 1")
    assert spade_targets(g) == []


def test_r62_unused_free_spades_are_lost() -> None:
    """R62 / OP-34: spades cannot be saved; leftovers are lost when the TB ends."""
    g = scenario().turn(0)
    play(g, "spell S6", "target r7c7", "spades 1", "workshop")  # 2 free spades, 1 used
    assert g.pending_kind() == Kind.POST
    assert terrain(g, "r6c6") == "plains" and terrain(g, "r8c6") == "plains"


def test_op35_bonus_tb_only_builds_on_native_hex_and_pays_the_workshop() -> None:
    """OP-35 / R62: a bonus TB may just build on a native hex; the spades are forfeited and the
    Workshop is paid normally."""
    s = scenario()
    s.terrain("r8c6", "desert")
    g = s.turn(0)
    play(g, "spell S3", "target r8c6")
    assert building(g, "r8c6") == ("workshop", 0)
    p = g.state.players[0]
    assert (p[P_TOOLS], p[P_COINS]) == (10 - 1, 15 - 2)
    assert g.pending_kind() == Kind.POST


# --------------------------------------------------------------------------------------------
# R63 special cases


def test_r63_1_buy_missing_spades_only_when_free_ones_do_not_suffice() -> None:
    """R63.1: with 1 free spade on a 2-spade hex, the missing spade may be bought with tools."""
    g = scenario().turn(0)
    play(g, "spell S3", "target r7c5")
    assert g.legal_moves() == ["spades 1", "spades 2"]
    play(g, "spades 2", "workshop")
    assert g.state.players[0, P_TOOLS] == 10 - 3 - 1  # 1 free + 1 bought (3 tools), Workshop 1


def test_r63_1_no_buying_without_tools() -> None:
    """R63.1: missing spades can only be bought with tools at the track rate."""
    s = scenario(tools=2)  # less than 3 tools: no spade can be bought
    g = s.turn(0)
    play(g, "spell S6", "target r8c7")  # Lake needs 3, 2 are free
    assert g.legal_moves() == ["spades 1", "spades 2"]


def test_r63_1_free_spades_suffice_so_none_are_bought() -> None:
    """R63.1: when the free spades are enough, no tools are spent, even with spades left over."""
    g = scenario().turn(0)
    play(g, "spell S6", "target r7c5")  # 2 free spades, the hex needs 2
    assert g.legal_moves() == ["spades 1", "spades 2"]
    play(g, "spades 2", "done")
    assert g.state.players[0, P_TOOLS] == 10


def test_r63_2_stop_on_an_intermediate_terrain_and_no_workshop() -> None:
    """R63.2 / R36: spades move the hex along the shortest path toward native; the player may stop
    on an intermediate terrain, and may not build there."""
    g = scenario().turn(0)
    play(g, "build", "target r8c7", "spades 1")  # Lake -> Swamp (toward Desert: Lake-Swamp-Plains-Desert)
    assert terrain(g, "r8c7") == "swamp"
    assert g.pending_kind() == Kind.POST  # no Workshop on a non-native hex
    assert building(g, "r8c7") == ("none", -1)
    assert g.state.players[0, P_TOOLS] == 10 - 3


def test_r63_2_shortest_path_goes_the_other_way_round_the_wheel() -> None:
    """R36: Mountain -> Desert goes Mountain - Wasteland - Desert (the short way)."""
    s = scenario()
    s.terrain("r6c6", "mountain")
    g = s.turn(0)
    play(g, "build", "target r6c6", "spades 1")
    assert terrain(g, "r6c6") == "wasteland"


def test_r63_3_rulebook_example_two_spades_on_two_hexes() -> None:
    """R63.3, rulebook example: with 2 free spades, turn one plains hex to desert (1 spade), spend
    the second on another plains hex in reach, then build the one Workshop on the first hex.  A
    hex reachable only from the new Workshop (r8c5) cannot receive a spade."""
    g = scenario().turn(0)
    play(g, "spell S6", "target r8c6", "spades 1")
    assert g.pending_kind() == Kind.TB_FINISH
    extra = spade_targets(g)
    assert extra == ["r6c6", "r7c5", "r7c7", "r8c7"]  # reach at the start of the action
    assert "r8c5" not in extra  # next to r8c6 only
    play(g, "spade r6c6")
    assert g.legal_moves() == ["workshop", "done"]  # no spade left, no second Workshop
    play(g, "workshop")
    assert terrain(g, "r8c6") == "desert" and terrain(g, "r6c6") == "desert"
    assert building(g, "r8c6") == ("workshop", 0) and building(g, "r6c6") == ("none", -1)
    assert g.pending_kind() == Kind.POST  # all spades before the Workshop; nothing after it


def test_r63_3_first_hex_must_become_native_before_spades_go_elsewhere() -> None:
    """R63.3 / OP-34: only after the first hex is fully native may leftovers go elsewhere; a first
    hex left on an intermediate terrain ends the TB (the other free spade is lost)."""
    g = scenario().turn(0)
    play(g, "spell S6", "target r7c5", "spades 1")  # Swamp -> Plains, not native
    assert g.pending_kind() == Kind.POST
    assert terrain(g, "r7c5") == "plains"
    assert terrain(g, "r7c7") == "wasteland"


def test_r63_3_three_spades_on_three_hexes_with_one_workshop() -> None:
    """R63.3: with 3 spades (book action BA6) up to 3 hexes may be affected, one step per spade."""
    s = scenario()
    s.state().glob[G_BOOK_ACTIONS] = [3, 4, 5]  # BA4, BA5, BA6 in this game
    s.set(0, books=(3, 0, 0, 0))
    g = s.turn(0)
    play(g, "book BA6", "pay banking", "pay banking", "pay banking")
    play(g, "target r7c7", "spades 1", "spade r6c6", "spade r8c7", "workshop")
    assert [terrain(g, x) for x in ("r7c7", "r6c6", "r8c7")] == ["desert", "desert", "swamp"]
    assert building(g, "r7c7") == ("workshop", 0)
    assert g.state.players[0, P_TOOLS] == 10 - 1  # only the Workshop's tool


def test_op34_several_leftover_spades_may_go_to_the_same_hex() -> None:
    """OP-34: each leftover spade is one step on any unbuilt non-native hex in reach; several may go
    to the same hex (Swamp -> Plains -> Desert)."""
    s = scenario()
    s.state().glob[G_BOOK_ACTIONS] = [3, 4, 5]
    s.set(0, books=(3, 0, 0, 0))
    g = s.turn(0)
    play(g, "book BA6", "pay banking", "pay banking", "pay banking", "target r7c7", "spades 1")
    play(g, "spade r7c5", "spade r7c5", "done")
    assert terrain(g, "r7c5") == "desert"


def test_op34_leftover_spades_may_be_forfeited_and_are_never_bought() -> None:
    """OP-34: leftovers may be forfeited ('done'); tool-bought spades only finish the first hex,
    so after the free spades run out no further spade is offered."""
    g = scenario().turn(0)
    play(g, "spell S6", "target r7c7", "spades 1", "spade r8c7")  # Lake -> Swamp with the last free spade
    assert spade_targets(g) == []  # tools cannot buy a spade for another hex
    play(g, "done")
    assert g.state.players[0, P_TOOLS] == 10
    assert building(g, "r7c7") == ("none", -1)


# --------------------------------------------------------------------------------------------
# R64 building a Workshop


def test_r64_workshop_needs_a_piece_on_the_planning_board() -> None:
    """R64: with all 9 Workshops on the map, no Workshop can be built (terraforming still can)."""
    s = scenario()
    for hex_ in ("r8c11", "r8c4", "r7c1", "r5c7", "r0c11", "r4c3", "r3c0", "r3c4"):
        s.build(0, hex_, "workshop")
    s.terrain("r8c6", "desert")
    g = s.turn(0)
    play(g, "build")
    assert "r8c6" not in targets(g)  # native: only a build target, and no piece is left
    play(g, "target r7c7", "spades 1")
    assert g.legal_moves() == ["done"]


def test_r64_workshop_costs_one_tool_and_two_coins() -> None:
    """R64: without 2 coins, the Workshop cannot be built after terraforming."""
    g = scenario(coins=1).turn(0)
    play(g, "build", "target r7c7", "spades 1")
    assert g.legal_moves() == ["done"]


def test_r64_workshop_is_a_build_with_power_offers() -> None:
    """R64 / R55: placing the Workshop is a build: round scoring VP (T1: 2) and power offers to
    neighbours."""
    s = scenario().round(1, tile="T1")
    s.build(1, "r8c7", "workshop")  # seat 1's Workshop touches r7c7
    g = s.turn(0)
    play(g, "build", "target r7c7", "spades 1", "workshop")
    assert g.state.players[0, P_VP] == 20 + 2  # T1: 2 VP per Workshop
    assert g.pending_kind() == Kind.OFFER and g.current_seat() == 1
    play(g, "leech accept")
    assert tuple(g.state.players[1, P_BOWLS]) == (4, 8, 0)  # 1 power (Workshop value 1), 0 VP
    assert g.state.players[1, P_VP] == 20


# --------------------------------------------------------------------------------------------
# R65 modifiers


def test_r65_moles_tunnel_costs_a_tool_and_scores() -> None:
    """R65 / R95: the Moles' tunnel skips one hex for 1 tool and scores 2 + P VP (v1.2)."""
    g = scenario(factions=["moles", "blessed", "monks"]).turn(0)
    play(g, "build", "tunnel", "tunnel r7c8", "spades 2", "workshop")  # r7c8 swamp: 2 from r7c6
    p = g.state.players[0]
    assert p[P_VP] == 20 + 2 + 3  # 2 + 3 players
    assert p[P_TOOLS] == 10 - 1 - 6 - 1  # tunnel, 2 spades, Workshop
    assert building(g, "r7c8") == ("workshop", 0)


def test_op48_one_tunnel_per_tb_on_the_main_hex_only() -> None:
    """OP-48: at most one tunnel per TB, for the main target; leftover spades use normal reach.
    S6 gives 2 free spades; the tunnel to r7c4 (wasteland, 1 spade from desert) leaves one, and
    it is offered exactly on the hexes of normal reach, with no second tunnel."""
    g = scenario(factions=["moles", "blessed", "monks"]).turn(0)
    play(g, "spell S6", "tunnel", "tunnel r7c4", "spades 1")
    moves = g.legal_moves()
    assert sorted(m.split()[1] for m in moves if m.startswith("spade ")) == REACH
    assert not any(m.startswith("tunnel") for m in moves)
    play(g, "workshop")
    assert building(g, "r7c4") == ("workshop", 0)


def test_r65_palace9_flight_costs_a_scholar_and_scores() -> None:
    """R65 / R129: palace 9's flight (1 scholar) reaches 1-2 hexes further and scores 5 VP."""
    s = scenario()
    s.build(0, FAR, "palace").palace_tile(0, 9).set(0, scholars=1)
    g = s.turn(0)
    play(g, "build", "fly", "fly r8c9", "spades 2", "workshop")  # r8c9 mountain, 3 steps from r7c6
    p = g.state.players[0]
    assert p[P_VP] == 20 + 5
    assert p[P_TOOLS] == 10 - 6 - 1
    assert building(g, "r8c9") == ("workshop", 0)


def test_r65_goblins_gain_two_coins_per_spade() -> None:
    """R65 / R91: Goblins gain 2 coins per spade used."""
    g = scenario(factions=["goblins", "blessed", "monks"]).turn(0)
    play(g, "build", "target r7c5", "spades 2", "done")
    assert g.state.players[0, P_COINS] == 15 + 2 * 2


def test_r65_navigators_workshop_next_to_a_river() -> None:
    """R65 / R97: Navigators score 2 VP and 1 coin (v1.2) for a Workshop next to a river."""
    g = scenario(factions=["navigators", "blessed", "monks"]).turn(0)
    play(g, "build", "target r7c7", "spades 1", "workshop")  # r7c7 touches river r6c7
    p = g.state.players[0]
    assert p[P_VP] == 20 + 2
    assert p[P_COINS] == 15 - 2 + 1


def test_r65_per_build_vp_palace12_and_c11_border() -> None:
    """R65: per-build VP from components: palace 12 (+2 per Workshop), C11 (+3 on a border hex)."""
    s = scenario()
    s.build(0, FAR, "palace").palace_tile(0, 12).competency(0, "C11")
    g = s.turn(0)
    play(g, "build", "target r8c6", "spades 1", "workshop")  # r8c6 is a border hex
    assert g.state.players[0, P_VP] == 20 + 2 + 3


def test_r65_spade_round_tile_counts_bought_spades() -> None:
    """R65 / OP-57: round tile T2 scores 2 VP per spade spent in Phase II, tool-bought ones too."""
    s = scenario().round(1, tile="T2")
    g = s.turn(0)
    play(g, "spell S3", "target r7c5", "spades 2", "done")  # 1 free + 1 bought
    assert g.state.players[0, P_VP] == 20 + 2 * 2


def test_r65_b1_workshop_next_to_a_river_and_reach_plus_one() -> None:
    """R65 / R138 / OP-41: round bonus B1 scores 2 VP per Workshop built next to a river, and its
    +1 reach lets the TB target r5c7 across one river hex (sailing 0)."""
    s = scenario()
    s.bonus(0, "B1")
    g = s.turn(0)
    play(g, "build")
    assert "r5c7" in targets(g)  # one river hex away: sailing 0 + 1
    play(g, "target r5c7")  # printed Desert: the Workshop is built at once; r5c7 touches a river
    assert g.state.players[0, P_VP] == 20 + 2


def test_r65_final_round_tile_scores_in_round_6() -> None:
    """R65 / R144: in round 6 the final tile scores too (F4: 2 VP per Workshop, with T1's 2 VP)."""
    s = scenario().round(6, tile="T1", final="F4")
    g = s.turn(0)
    play(g, "build", "target r8c6", "spades 1", "workshop")
    assert g.state.players[0, P_VP] == 20 + 2 + 2
