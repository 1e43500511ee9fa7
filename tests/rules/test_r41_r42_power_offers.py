"""RULES.md §3.5 Building power values and power from others' builds (R41, R42, OP-56).

Standard position: seat 0 (Desert) has a Workshop on r3c0 and builds on r4c1; the other seats'
buildings on r4c0 / r4c2 / r3c1 / r5c0 are neighbours of r4c1, r2c1 and r4c3 are not.
"""

from __future__ import annotations

import numpy as np
import pytest

from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.state import G_DEPTH, G_ROUND, H_BUILDING, H_OWNER, H_PAVILION, P_BOWLS, P_VP
from aoi_env.data.enums import Building
from aoi_env.testing import Scenario, biased_random_action, play, power_moved

GAME = "aoi(players=3)"
FACTIONS = ["blessed", "inventors", "monks"]
BOARDS = ["desert", "plains", "forest"]


def scenario(game: str = GAME, factions: list[str] = FACTIONS, boards: list[str] = BOARDS) -> Scenario:
    """Round tile T10 scores only innovations, so building gives no round-scoring VP here."""
    return (
        Scenario(game, factions=factions, boards=boards)
        .round(1, tile="T10")
        .build(0, "r3c0", "workshop")
        .terrain("r4c1", "desert")
    )


def vp(g: Game, seat: int) -> int:
    return int(g.state.players[seat, P_VP])


def bowls(g: Game, seat: int) -> list[int]:
    return [int(x) for x in g.state.players[seat, P_BOWLS]]


def offered(g: Game) -> list[tuple[int, int]]:
    """Answer every pending offer with accept; return (seat, power gained) in the order asked."""
    out = []
    while g.pending_kind() == Kind.OFFER:
        seat = g.current_seat()
        before = g.clone()
        play(g, "leech accept")
        out.append((seat, power_moved(before, g, seat)))
    return out


# --------------------------------------------------------------------------------------------
# R41 power values


@pytest.mark.parametrize(
    ("building", "neutral", "pavilion", "value"),
    [
        ("workshop", False, False, 1),
        ("guild", False, False, 2),
        ("school", False, False, 2),
        ("palace", False, False, 3),
        ("university", False, False, 3),
        ("tower", True, False, 2),
        ("monument", True, False, 4),
        ("guild", True, False, 2),  # a neutral copy has the value of the building it copies
        ("university", True, False, 3),
        ("workshop", False, True, 2),  # a pavilion adds +1 (C6)
        ("school", False, True, 3),
    ],
)
def test_r41_power_value_of_each_building(building: str, neutral: bool, pavilion: bool, value: int) -> None:
    """R41: Workshop 1; Guild, School 2; Palace, University 3; Tower 2; Monument 4; neutral copies
    as their type; a Pavilion adds +1.  The neighbour is offered exactly that value."""
    sc = scenario().build(1, "r4c0", building, neutral=neutral).set(1, bowls=(12, 0, 0))
    if pavilion:
        sc = sc.pavilion("r4c0")
    g = sc.turn(0)
    play(g, "build", "target r4c1")
    assert offered(g) == [(1, value)]
    assert vp(g, 1) == 20 - (value - 1)


# --------------------------------------------------------------------------------------------
# R42.1 trigger


def test_r42_1_placing_a_new_building_triggers_offers() -> None:
    """R42.1: placing a new building (TB action) triggers offers."""
    g = scenario().build(1, "r4c0", "workshop").turn(0)
    play(g, "build", "target r4c1")
    assert offered(g) == [(1, 1)]


def test_r42_1_upgrading_triggers_offers() -> None:
    """R42.1: upgrading a building triggers offers to the neighbours of the upgraded building."""
    g = scenario().build(0, "r4c1", "workshop").build(1, "r4c2", "guild").set(0, tools=5, coins=10).turn(0)
    play(g, "upgrade guild", "upgrade r4c1")
    assert offered(g) == [(1, 2)]


def test_r42_1_placing_a_neutral_building_triggers_offers() -> None:
    """R42.1 / R46.2: placing a neutral building is a build and triggers offers."""
    g = scenario().build(1, "r4c2", "school").decide(Kind.NEUTRAL_PLACE, 0, Building.TOWER)
    play(g, "neutral r4c1")
    assert offered(g) == [(1, 2)]


# --------------------------------------------------------------------------------------------
# R42.2 offers


def test_r42_2_offer_is_the_sum_over_all_own_adjacent_buildings() -> None:
    """R42.2: each other player adds up the power values of all their own buildings adjacent to
    the new building; non-adjacent buildings do not count."""
    g = (
        scenario()
        .build(1, "r4c0", "workshop")
        .build(1, "r4c2", "school")
        .build(1, "r3c1", "guild")
        .build(1, "r2c1", "palace")  # not adjacent to r4c1
        .turn(0)
    )
    play(g, "build", "target r4c1")
    assert offered(g) == [(1, 5)]  # 1 + 2 + 2 (the Palace does not count)


def test_r42_2_the_value_of_the_new_building_is_irrelevant() -> None:
    """R42.2: the power value of the new or upgraded building does not change the offer: a
    Workshop and a Palace on the same hex offer the same 3 power."""
    g = scenario().build(1, "r4c2", "workshop").build(1, "r4c0", "school").turn(0)
    play(g, "build", "target r4c1")  # a Workshop (value 1)
    assert offered(g) == [(1, 3)]  # 1 + 2
    g = scenario().build(0, "r4c1", "guild").build(1, "r4c2", "workshop").build(1, "r4c0", "school")
    g = g.set(0, tools=9, coins=9).offer_palace(17).turn(0)
    play(g, "upgrade palace", "upgrade r4c1")  # a Palace (value 3)
    assert g.legal_moves() == ["palace 17"]  # R68: its tile first
    play(g, "palace 17")
    assert offered(g) == [(1, 3)]


def test_r42_2_no_offer_without_adjacent_buildings() -> None:
    """R42.2: a player whose sum is 0 receives no offer."""
    g = scenario().build(1, "r2c1", "palace").turn(0)
    play(g, "build", "target r4c1")
    assert g.pending_kind() == Kind.POST


def test_r42_2_each_other_player_gets_their_own_offer() -> None:
    """R42.2: every other player sums only their own buildings."""
    g = scenario().build(1, "r4c0", "guild").build(2, "r4c2", "workshop").build(2, "r3c1", "school").turn(0)
    play(g, "build", "target r4c1")
    assert offered(g) == [(1, 2), (2, 3)]


# --------------------------------------------------------------------------------------------
# R42.3 decision and cost


def test_r42_3_rulebook_example_three_power_cost_two_vp() -> None:
    """R42.3, rulebook example: Red builds a Workshop; Yellow may gain 3 power (1 for a Workshop,
    2 for a School; the Guild is not adjacent), accepts and loses 2 VP.  Bowls 2/5/5 -> 0/6/6."""
    g = (
        scenario()
        .build(1, "r4c0", "workshop")
        .build(1, "r4c2", "school")
        .build(1, "r2c1", "guild")  # not adjacent
        .set(1, bowls=(2, 5, 5))
        .turn(0)
    )
    play(g, "build", "target r4c1", "leech accept")
    assert vp(g, 1) == 18  # 20 - (3 - 1)
    assert bowls(g, 1) == [0, 6, 6]


@pytest.mark.parametrize(("neighbours", "power", "cost"), [(1, 1, 0), (2, 2, 1), (3, 3, 2), (4, 4, 3)])
def test_r42_3_power_costs_one_vp_less_than_it_gives(neighbours: int, power: int, cost: int) -> None:
    """R42.3: accepting v power costs v - 1 VP: 1/2/3/4 power cost 0/1/2/3 VP."""
    sc = scenario().set(1, bowls=(12, 0, 0))
    for hex_ in ("r4c0", "r4c2", "r3c1", "r5c0")[:neighbours]:
        sc = sc.build(1, hex_, "workshop")
    g = sc.turn(0)
    play(g, "build", "target r4c1")
    assert offered(g) == [(1, power)]
    assert vp(g, 1) == 20 - cost


def test_r42_3_all_or_nothing_declining_changes_nothing() -> None:
    """R42.3: the offered player accepts all or nothing; declining leaves power and VP as they
    were.  Only the two answers exist (no partial amounts)."""
    g = scenario().build(1, "r4c0", "guild").build(1, "r4c2", "school").turn(0)
    play(g, "build", "target r4c1")
    assert g.legal_moves() == ["leech decline", "leech accept"]
    before = g.clone()
    play(g, "leech decline")
    assert bowls(g, 1) == bowls(before, 1) and vp(g, 1) == 20


# --------------------------------------------------------------------------------------------
# R42.4 / R42.5 exceptions


def test_r42_4_capacity_exception_gain_up_to_capacity_and_pay_for_that() -> None:
    """R42.4: if capacity (2|I| + |II|) is below v the player may still accept, gains only up to
    capacity and pays (gained - 1) VP."""
    g = scenario().build(1, "r4c0", "guild").build(1, "r4c2", "school").set(1, bowls=(0, 2, 10)).turn(0)
    play(g, "build", "target r4c1")
    assert offered(g) == [(1, 2)]  # v = 4, capacity 2 x 0 + 2 = 2
    assert vp(g, 1) == 19  # 20 - (2 - 1)
    assert bowls(g, 1) == [0, 0, 12]


def test_r42_5_vp_floor_pay_down_to_zero_and_gain_vp_paid_plus_one() -> None:
    """R42.5: if paying would take the player below 0 VP, they pay down to 0 and gain
    (VP paid + 1) power."""
    g = scenario().build(1, "r4c0", "guild").build(1, "r4c2", "school").set(1, vp=1, bowls=(12, 0, 0)).turn(0)
    play(g, "build", "target r4c1")
    assert offered(g) == [(1, 2)]  # v = 4, but only 1 VP: pay 1, gain 1 + 1 = 2
    assert vp(g, 1) == 0


@pytest.mark.parametrize(
    ("bowls_", "vp_", "gained", "vp_after"),
    [
        ((12, 0, 0), 20, 4, 17),  # g = min(4, 24, 21) = 4
        ((0, 3, 9), 20, 3, 18),  # g = min(4, 3, 21) = 3: capacity
        ((12, 0, 0), 2, 3, 0),  # g = min(4, 24, 3) = 3: VP floor
        ((0, 3, 9), 1, 2, 0),  # g = min(4, 3, 2) = 2: both, the VP floor binds
        ((1, 0, 11), 0, 1, 0),  # g = min(4, 2, 1) = 1: free
    ],
)
def test_r42_5_combined_gain_is_min_of_offer_capacity_and_vp_plus_one(
    bowls_: tuple[int, int, int], vp_: int, gained: int, vp_after: int
) -> None:
    """R42.5 (engine rule): actual gain g = min(v, capacity, VP + 1), cost g - 1."""
    g = scenario().build(1, "r4c0", "guild").build(1, "r4c2", "school").set(1, vp=vp_, bowls=bowls_).turn(0)
    play(g, "build", "target r4c1")
    assert offered(g) == [(1, gained)]
    assert vp(g, 1) == vp_after


def test_r42_5_no_offer_when_the_gain_would_be_zero() -> None:
    """R42.5: if g = 0 (all tokens in bowl III, capacity 0) there is no offer at all."""
    g = scenario().build(1, "r4c0", "guild").set(1, bowls=(0, 0, 12)).turn(0)
    play(g, "build", "target r4c1")
    assert g.pending_kind() == Kind.POST and g.current_seat() == 0


# --------------------------------------------------------------------------------------------
# R42.6 only build offers cost VP


def test_r42_6_power_from_other_sources_costs_no_vp() -> None:
    """R42.6: power from any other source never costs VP (competency C7: gain 4 power)."""
    g = scenario().competency(0, "C7").set(0, bowls=(12, 0, 0)).turn(0)
    before = g.clone()
    play(g, "special competency")
    assert power_moved(before, g, 0) == 4
    assert vp(g, 0) == 20


def test_r42_6_science_threshold_power_costs_no_vp() -> None:
    """R42.6 / R49: power from a science threshold is free."""
    g = scenario().set(0, science={"law": 2}).decide(Kind.STEPS_ONE, 0, 1)
    before = g.clone()
    play(g, "steps law")  # law 2 -> 3: +1 power
    assert power_moved(before, g, 0) == 1
    assert vp(g, 0) == 20


# --------------------------------------------------------------------------------------------
# R42.7 / OP-56 who gets offers, in which order


def test_op56_passed_players_still_receive_offers() -> None:
    """R42.7, OP-56 (ASSUMPTION, as in TM): offers also go to players who have already passed."""
    g = scenario().build(1, "r4c0", "guild").set(1, passed=1).turn(0)
    play(g, "build", "target r4c1")
    assert offered(g) == [(1, 2)]


def test_op56_offers_are_asked_clockwise_from_the_builder() -> None:
    """OP-56 (ASSUMPTION): for a deterministic engine the offers are asked in clockwise order from
    the builder: with seat 2 building, seats 3, 0, 1 decide in that order."""
    g = (
        Scenario("aoi(players=4)", factions=[*FACTIONS, "psychics"], boards=[*BOARDS, "swamp"])
        .round(1, tile="T10")
        .build(2, "r2c1", "workshop")
        .build(3, "r2c2", "workshop")
        .build(0, "r3c0", "guild")
        .build(1, "r4c2", "school")
        .terrain("r3c1", "forest")
        .turn(2)
    )
    play(g, "build", "target r3c1")
    assert offered(g) == [(3, 1), (0, 2), (1, 2)]


def test_op56_decisions_are_independent() -> None:
    """OP-56: each offered player decides independently (one declines, the next still accepts)."""
    g = scenario().build(1, "r4c0", "guild").build(2, "r4c2", "school").turn(0)
    play(g, "build", "target r4c1")
    assert g.current_seat() == 1
    play(g, "leech decline")
    assert (g.pending_kind(), g.current_seat()) == (Kind.OFFER, 2)
    play(g, "leech accept")
    assert vp(g, 1) == 20 and vp(g, 2) == 19  # seat 2: 2 power for 1 VP


def test_op56_offers_resolve_before_the_builders_follow_up_rewards() -> None:
    """OP-56 / R55: offers resolve right after the build, before the builder's own acquisition
    effects (here: the competency of a School upgrade)."""
    g = scenario().build(0, "r4c1", "guild").build(1, "r4c2", "workshop").set(0, tools=9, coins=9).turn(0)
    play(g, "upgrade school", "upgrade r4c1")
    assert (g.pending_kind(), g.current_seat()) == (Kind.OFFER, 1)
    play(g, "leech accept")
    assert (g.pending_kind(), g.current_seat()) == (Kind.CHOOSE_COMPETENCY, 0)


def test_op56_initial_placement_makes_no_offers() -> None:
    """R21, OP-56 (ASSUMPTION): initial Workshop placement is not a build and makes no offers,
    even next to another player's Workshop."""
    g = Game("aoi(players=3,factions=blessed+inventors+goblins,boards=lake+forest+desert,skip_forced=false)")
    adjacent_placements = 0
    while g.state.glob[G_ROUND] == 0:
        assert g.pending_kind() != Kind.OFFER
        if g.pending_kind() == Kind.INITIAL_PLACE:
            seat = g.current_seat()
            h = g.state.hexes
            others = (h[:, H_OWNER] >= 0) & (h[:, H_OWNER] != seat) & (h[:, H_BUILDING] > 0)

            def touching(move: str, others=others) -> int:
                return int((g.adjacency()[parse_hex(move.split()[1])] & others).sum())

            best = max(g.legal_moves(), key=touching)
            adjacent_placements += touching(best) > 0
            before = [bowls(g, s) for s in range(3)]
            play(g, best)
            assert g.pending_kind() != Kind.OFFER
            if g.state.glob[G_ROUND] == 0:
                assert [bowls(g, s) for s in range(3)] == before
        else:
            g.apply_action(g.legal_actions()[0])
    assert adjacent_placements >= 2  # Workshops were placed next to other players' Workshops


def test_op56_c10_tower_taken_at_setup_makes_no_offers() -> None:
    """OP-56 (ASSUMPTION, every setup placement), R22 / R23, R141 C10: the Monks take C10 with
    their University and place its neutral Tower during setup; next to another player's
    Workshop it still makes no offer (it used to, costing the neighbour VP before round 1)."""
    g = Game("aoi(players=3,factions=monks+omar+felines,boards=lake+forest+desert,skip_forced=false)", seed=0)
    while g.pending_kind() != Kind.NEUTRAL_PLACE:
        moves = g.legal_moves()
        play(g, "competency C10" if "competency C10" in moves else moves[0])
    seat = g.current_seat()
    h = g.state.hexes
    others = (h[:, H_OWNER] >= 0) & (h[:, H_OWNER] != seat) & (h[:, H_BUILDING] > 0)
    target = max(g.legal_moves(), key=lambda m: int((g.adjacency()[parse_hex(m.split()[1])] & others).sum()))
    assert (g.adjacency()[parse_hex(target.split()[1])] & others).any()  # a neighbour is there
    before = [bowls(g, s) for s in range(3)], [vp(g, s) for s in range(3)]
    play(g, target)
    assert g.state.glob[G_ROUND] == 0 and g.pending_kind() != Kind.OFFER
    while g.state.glob[G_ROUND] == 0:
        assert g.pending_kind() != Kind.OFFER
        g.apply_action(g.legal_actions()[0])
    assert [vp(g, s) for s in range(3) if s != seat] == [v for s, v in enumerate(before[1]) if s != seat]


# --------------------------------------------------------------------------------------------
# property check against an independent reading of R41 / R42 in random games

_POWER = {1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 6: 2, 7: 4}  # R41 by Building value: W G S U P Tower Monument


def _expected_offers(g: Game, builder: int, pos: int) -> list[tuple[int, int]]:
    """(seat, v) in clockwise order from the builder, for seats whose gain min(v, capacity, VP + 1)
    is positive; adjacency = shared edge or a built bridge (R38)."""
    h = g.state.hexes
    near = set(g.geo.neighbors[pos])
    for a, b in g.state.built_bridges():
        if int(a) == pos:
            near.add(int(b))
        if int(b) == pos:
            near.add(int(a))
    out = []
    for k in range(1, g.seats):
        seat = (builder + k) % g.seats
        v = sum(_POWER[int(h[q, H_BUILDING])] + int(h[q, H_PAVILION]) for q in near if h[q, H_OWNER] == seat)
        one, two, _ = (int(x) for x in g.state.players[seat, P_BOWLS])
        if min(v, 2 * one + two, vp(g, seat) + 1) > 0:
            out.append((seat, v))
    return out


def _pending_offers(g: Game) -> list[tuple[int, int]]:
    s = g.state
    out = []
    top = int(s.glob[G_DEPTH]) - 1
    if top >= 0 and s.stack[top, 0] == Kind.CHOOSE_PALACE:
        top -= 1  # R68: a new Palace's tile is chosen before the offers
    for i in range(top, -1, -1):
        if s.stack[i, 0] != Kind.OFFER:
            break
        out.append((int(s.stack[i, 1]), int(s.stack[i, 2])))
    return out


@pytest.mark.parametrize("game", ["aoi(players=3)", "aoi(players=4)", "aoi(players=5)"])
def test_r42_offers_match_an_independent_computation_in_random_games(game: str) -> None:
    """R41 / R42 / OP-56: after every decision that puts exactly one building on a hex (build,
    upgrade, neutral placement), the offers queued are exactly the other players with a positive
    gain, in clockwise order from the builder, each for the sum of its adjacent power values."""
    checked = 0
    for seed in range(6):
        g = Game(game, seed=seed)
        rng = np.random.default_rng(seed)
        while not g.is_over():
            kind = g.pending_kind()
            before = g.state.hexes[:, H_BUILDING].copy()
            g.apply_action(biased_random_action(g, rng))
            changed = np.flatnonzero(g.state.hexes[:, H_BUILDING] != before)
            if kind in (Kind.OFFER, Kind.INITIAL_PLACE) or len(changed) != 1:
                continue  # answering an offer, setup placement (no offers, OP-56), or no build
            pos = int(changed[0])
            expected = _expected_offers(g, int(g.state.hexes[pos, H_OWNER]), pos)
            assert _pending_offers(g) == expected, f"seed {seed}, build on {pos}"
            checked += 1
    assert checked > 50
