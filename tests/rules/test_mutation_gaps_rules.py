"""Rule behaviours of ``aoi_env/core/rules`` that no other test pinned (mutation audit M1).

Each test pins one rule whose engine code could be changed without any focused test failing:
the capacity formula in power offers (R30, R42.4), the exclusive level 12 for actions that only
advance science (R52, OP-58), a free terraforming advance at the top of the track (OP-40),
palace 14 used for two cities in one city check (R134), when the 2-player area token is revealed
(R25), B1's reach only in Phase II (OP-41), and level-9 science income once per round (R51)."""

from __future__ import annotations

from aoi_env import testing
from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.invariants import check
from aoi_env.core.pending import Kind
from aoi_env.core.rules.scoring import visible_area_token
from aoi_env.core.rules.terrain import sailing
from aoi_env.core.state import (
    G_AREA_TOKEN,
    G_BOOK_ACTIONS,
    G_PHASE,
    H_CITY,
    H_RIVER_CITY,
    P_BOWLS,
    P_CITIES,
    P_COINS,
    P_SAILING,
    P_SCIENCE,
    P_TERRAFORMING,
    P_VP,
    Phase,
)
from aoi_env.testing import Scenario, power_moved


def play(g: Game, *moves: str) -> Game:
    """Play notation moves, then check the state invariants."""
    testing.play(g, *moves)
    check(g)
    return g


def bowls(g: Game, seat: int) -> list[int]:
    return [int(x) for x in g.state.players[seat, P_BOWLS]]


def vp(g: Game, seat: int) -> int:
    return int(g.state.players[seat, P_VP])


# --------------------------------------------------------------------------------------------
# R30 / R42.4: capacity counts bowl I twice


def test_r30_r42_4_capacity_counts_each_token_in_bowl_one_twice() -> None:
    """R30: "The capacity of a player (the most power they can still gain) is therefore
    2 x |I| + |II|"; R42.4: "If the player's capacity (R30) is below v ... They gain only up to
    capacity and pay (gained - 1) VP."  Seat 1 (bowls 1/1/10, capacity 2 x 1 + 1 = 3) is offered
    v = 4 (Guild + School next to the new Workshop): it gains 3, not |I| + |II| = 2, and pays 2 VP."""
    g = (
        Scenario("aoi(players=3)", factions=["blessed", "inventors", "monks"], boards=["desert", "plains", "forest"])
        .round(1, tile="T10")  # T10 scores only innovations
        .build(0, "r3c0", "workshop")
        .terrain("r4c1", "desert")
        .build(1, "r4c0", "guild")
        .build(1, "r4c2", "school")
        .set(1, bowls=(1, 1, 10))
        .turn(0)
    )
    play(g, "build", "target r4c1")
    assert (g.pending_kind(), g.current_seat()) == (Kind.OFFER, 1)
    before = g.clone()
    play(g, "leech accept")
    assert power_moved(before, g, 1) == 3
    assert bowls(g, 1) == [0, 0, 12]
    assert vp(g, 1) == 18  # 20 - (3 - 1)


# --------------------------------------------------------------------------------------------
# R52 / OP-58: a discipline at 11 whose 12 is taken offers no step


def _science_only_actions(other_medicine: int) -> list[str]:
    """Seat 0 with BA4 (2 steps in one discipline) on display, palace 6 (special: 2 steps) and
    B7 (special: 1 step), no key, science 7 / 7 / 7 / 11; seat 1 has ``other_medicine``."""
    s = Scenario("aoi(players=3)", factions=["felines", "blessed", "monks"], boards=["desert", "lake", "forest"])
    for seat, tile in enumerate(("B7", "B9", "B8")):
        s.bonus(seat, tile)
    s.round(1, tile="T10").build(0, "r7c6", "workshop").build(0, "r8c6", "palace").palace_tile(0, 6)
    s.state().glob[G_BOOK_ACTIONS] = [3, 0, 1]  # BA4 in the first book-action slot
    s.set(0, books=(2, 0, 0, 0), science=(7, 7, 7, 11), cities=1, bowls=(0, 0, 12))  # the key used for 11
    s.set(1, science={"medicine": other_medicine})
    return s.turn(0).legal_moves()


def test_r52_op58_steps_only_actions_need_a_free_twelve() -> None:
    """R52: "On each track only one player's marker may ever reach 12. Once someone is there,
    other players cannot go past 11, and extra steps are lost."  OP-58: "An action must have at
    least its main effect".  Seat 0 stands at 7 (no key) in three disciplines and at 11 in
    Medicine: BA4 and the steps-only specials of palace 6 and B7 are offered while 12 is free,
    and not once seat 1 stands on Medicine 12."""
    free = _science_only_actions(other_medicine=11)
    assert {"book BA4", "special palace", "special bonus"} <= set(free)
    taken = _science_only_actions(other_medicine=12)
    assert not {"book BA4", "special palace", "special bonus"} & set(taken)
    assert "book BA2" in taken  # another book action stays legal


# --------------------------------------------------------------------------------------------
# OP-40: a free terraforming advance at the top is lost


def test_op40_r112_steam_power_terraforming_advance_at_the_top_is_lost() -> None:
    """OP-40: "rewards are gained, T8 scores each advance, and advances beyond the top are lost";
    R112 (Steam Power): 1 free terraforming and 1 free sailing advance.  With terraforming already
    at its top (1 tool per spade) only the sailing advance happens: terraforming stays 2, no
    terraforming reward, and round tile T8 (+3 per track advance) scores once."""
    sc = Scenario("aoi(players=3)", factions=["inventors", "monks", "illusionists"], boards=["plains", "lake", "swamp"])
    sc.round(2, tile="T8").set(0, terraforming=2, sailing=0)
    sc.display_innovations("steam_power").set(0, books={"banking": 5}, coins=5)
    g = sc.turn(0)
    play(g, "innovate", "innovation steam_power", "pay banking", "pay banking", "pay banking")
    p = g.state.players[0]
    assert p[P_TERRAFORMING] == 2  # already at the top: lost
    assert p[P_SAILING] == 1
    assert p[P_VP] == 25  # 20 + 2 (sailing 0 -> 1) + 3 (T8, one advance only)
    assert g.pending_kind() == Kind.POST  # no terraforming reward (no book choice)


# --------------------------------------------------------------------------------------------
# R134: palace 14 may be used for every city founded


def test_r134_palace14_two_river_cities_in_one_city_check() -> None:
    """R134: "whenever you found a city, you may ignore 1 river hex between your buildings";
    [UA v1.2] palace 14: "**Щоразу,** коли ви **засновуєте місто**, то можете проігнорувати
    1 клітинку річки".  Two pairs of groups qualify across two river hexes in the same city
    check (west: Guilds r4c1, r4c2 | r5c1 / r5c2 | Guild r6c2 + new Workshop r7c2; east: Schools
    r7c6, r7c7 | r6c7 / r6c8 | Guild r5c7 + Workshop r5c8): after the first river city and its
    tile, the crossing is offered again for the second city."""
    g = (
        Scenario("aoi(players=3)", factions=["blessed", "inventors", "monks"], boards=["desert", "plains", "forest"])
        .round(1, tile="T10")
        .build(0, "r0c4", "palace")
        .palace_tile(0, 14)
        .build(0, "r4c1", "guild")
        .build(0, "r4c2", "guild")
        .build(0, "r6c2", "guild")
        .terrain("r7c2", "desert")
        .build(0, "r7c6", "school")
        .build(0, "r7c7", "school")
        .build(0, "r5c7", "guild")
        .build(0, "r5c8", "workshop")
        .turn(0)
    )
    play(g, "build", "target r7c2")
    assert g.pending_kind() == Kind.RIVER_CITY
    assert g.legal_moves() == ["rivercity r5c1", "rivercity r5c2", "rivercity r6c7", "rivercity r6c8", "done"]
    play(g, "rivercity r5c1", "city K5")
    assert g.pending_kind() == Kind.RIVER_CITY  # the second city may use the crossing too
    assert g.legal_moves() == ["rivercity r6c7", "rivercity r6c8", "done"]
    play(g, "rivercity r6c7", "city K1")
    assert int(g.state.players[0, P_CITIES]) == 2
    for x in ("r4c1", "r4c2", "r6c2", "r7c2", "r5c7", "r5c8", "r7c6", "r7c7"):
        assert g.state.hexes[parse_hex(x), H_CITY] == 1, x
    assert [int(g.state.hexes[parse_hex(x), H_RIVER_CITY]) for x in ("r5c1", "r6c7")] == [1, 1]
    assert g.state.hexes[parse_hex("r0c4"), H_CITY] == 0


# --------------------------------------------------------------------------------------------
# R25: the area token is revealed at the start of round 6


def test_r25_area_token_is_hidden_until_round_six() -> None:
    """R25: "At the start of round 6, reveal the area-scoring token."  In a 2-player game without
    an Automa the neutral faction's token is face down (not visible) in rounds 1-5 and face up
    from round 6 on.  R24 / R25: only that game has a neutral faction, so a 3-player game shows
    no token even in round 6."""
    sc = Scenario("aoi(players=2)")
    token = int(sc.state().glob[G_AREA_TOKEN])
    assert token > 0
    for rnd, seen in ((1, None), (5, None), (6, token)):
        g = sc.round(rnd).turn(0)
        assert visible_area_token(g) == seen, rnd
    assert visible_area_token(Scenario("aoi(players=3)").round(6).turn(0)) is None


# --------------------------------------------------------------------------------------------
# R51 / OP-64: level-9 income once per round, also when C1's step passes 9


def test_r51_op64_c1_step_above_nine_in_phase_one_pays_no_second_income() -> None:
    """R51: "In Phase I, each track on which your marker is at 9 or higher gives, once per
    round" 3 C for Banking; OP-64: "C1's step may trigger ... level-9 income immediately" (only
    on reaching 9).  Banking at 9 pays its 3 coins with the income; C1's step 9 -> 10 in the same
    Phase I pays nothing more."""
    s = Scenario("aoi(players=3)", factions=["felines", "blessed", "navigators"], boards=["desert", "lake", "forest"])
    for seat, tile in enumerate(("B10", "B9", "B8")):
        s.bonus(seat, tile)  # B10: 6 coins income
    s.competency(0, "C1").set(0, science=(9, 0, 0, 0), cities=1)  # the key that unlocked Banking
    g = s.decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)
    play(g, "step banking")
    p = g.state.players[0]
    assert p[P_SCIENCE.start] == 10
    assert p[P_COINS] == 15 + 6 + 3  # start + B10 + Banking income once


# --------------------------------------------------------------------------------------------
# R138 / OP-41: B1's +1 reach only in Phase II


def test_r138_op41_b1_reach_bonus_counts_only_in_phase_two() -> None:
    """R138 (B1): "your reach is increased by 1 (the marker does not move)"; OP-41: "effective
    sailing = track + 1 for every reach check during Phase II ... No effect in Phase III".  A B1
    holder who has not passed, sailing track 1: effective sailing 2 in Phase II, 1 in Phase I and
    Phase III."""
    sc = Scenario("aoi(players=3)", factions=["blessed", "inventors", "monks"], boards=["desert", "plains", "forest"])
    sc.bonus(0, "B1").set(0, sailing=1, passed=0)
    g = sc.turn(0)
    assert g.state.glob[G_PHASE] == Phase.ACTIONS and sailing(g, 0) == 2
    for phase in (Phase.INCOME, Phase.SCIENCE):
        g.state.glob[G_PHASE] = phase
        assert sailing(g, 0) == 1, phase
        assert sailing(g, 0, final=True) == 1
