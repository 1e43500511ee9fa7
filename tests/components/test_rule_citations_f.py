"""Edge cases of rules and open points whose citing tests left a named case unchecked: R2 (3 School
pieces), R84 (ties rounded down), R98 (Omar's second Tower via C10), R131 (palace 11 leaves the
city founding on the map alone), OP-49 (palace 9's flight: bridges count, one flight per TB) and
OP-61 (the Psychics' special action comes back every round).

The palace and flight positions use seat 0 Inventors on Plains (no faction effect during play),
1 Monks on Lake, 2 Illusionists on Swamp; 3-player game on the 3-5 side, round 2.  Hexes used
around seat 0 (Plains native):

          r5c4 L   r5c5 M   (r5c6 river)  r5c7 D   r5c8 P
    r6c5 F   r6c6 P   (r6c7 river)
  r7c4 W   r7c5 S   r7c6 D   r7c7 W   r7c8 S
    r8c5 M   r8c6 P   r8c7 L   r8c8 F
"""

from __future__ import annotations

import numpy as np

from aoi_env import testing
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.rules import scoring
from aoi_env.core.state import (
    G_BONUS_COINS,
    G_BONUS_STATE,
    G_COMP_SPACES,
    G_NEUTRAL_LEFT,
    G_ROUND,
    H_BUILDING,
    H_CITY,
    H_NEUTRAL,
    H_OWNER,
    P_BONUS,
    P_BUILT,
    P_CITIES,
    P_COINS,
    P_NEUTRAL_BUILT,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_TOOLS,
    P_VP,
)
from aoi_env.data.enums import Building
from aoi_env.testing import Scenario
from tests.rule_positions import play, scenario
from tests.state_readers import bowls, hex_row, player


def quiet(factions: list[str], boards: list[str]) -> Scenario:
    """Round 1 with T10 (innovations only); seat k holds B10 / B9 / B7 (no Phase II events), the
    display is B1 / B3 / B8 without coins, the competency space i holds C(i + 1) (column i // 3:
    banking / law / engineering / medicine; row i % 3: 3 steps / 2 steps + 1 book / 1 step + 2
    books, R53)."""
    sc = Scenario("aoi(players=3)", factions=factions, boards=boards)
    s = sc.state()
    for seat in range(3):
        old = int(s.players[seat, P_BONUS])
        if old >= 0:
            s.glob[G_BONUS_STATE.start + old] = -1
        s.players[seat, P_BONUS] = -1
    for seat, tile in enumerate(("B10", "B9", "B7")):
        sc.bonus(seat, tile)
    sc.display_bonus("B1", "B3", "B8")
    s.glob[G_BONUS_COINS] = 0
    s.glob[G_COMP_SPACES] = np.arange(12)
    return sc.round(1, tile="T10")


# ------------------------------------------------------------------------------------------------
# R2 pieces per colour


def test_r2_three_school_pieces_the_fourth_school_is_never_offered():
    """R2: each colour has "3 Schools" (with 9 Workshops, 4 Guilds, 1 University, 1 Palace).  With
    2 Schools on the map a Guild may still become a School; with all 3 there, the same Guild and
    the same resources offer no School upgrade (the Guild may still become the Palace)."""

    def position(*schools: str) -> Game:
        sc = scenario().build(0, "r7c5", "guild")
        for x in schools:
            sc.build(0, x, "school")
        return sc.set(0, tools=10, coins=20).turn(0)

    g = position("r8c6", "r6c6")
    assert "upgrade school" in g.legal_moves()
    play(g, "upgrade school", "upgrade r7c5")
    assert g.pending_kind() == Kind.CHOOSE_COMPETENCY  # the third School was built
    assert player(g)[P_BUILT.start + Building.SCHOOL] == 3
    g = position("r8c6", "r6c6", "r7c7")  # the same position with a third School already built
    moves = g.legal_moves()
    assert "upgrade school" not in moves
    assert "upgrade palace" in moves  # the Guild itself is upgradable: only the School is missing


def test_r2_real_game_start_12_power_tokens_7_scholars():
    """R2: "7 Scholars" per colour and "Each player also gets 12 power tokens".  In a real 4-player
    game at its first Phase II decision (setup and round 1 income done) every player holds 12
    tokens in the bowls and 7 scholars across the holdings and the personal supply (none sent to
    the science board yet)."""
    g = Game("aoi(players=4)", seed=3)
    while g.pending_kind() != Kind.MAIN:
        g.apply_action(g.legal_actions()[0])
    for seat in range(4):
        p = player(g, seat)
        assert sum(bowls(g, seat)) == 12, seat
        assert int(p[P_SCHOLARS]) + int(p[P_SCHOLAR_SUPPLY]) == 7, seat


# ------------------------------------------------------------------------------------------------
# R84 science scoring: ties rounded down


def test_r84_ties_share_the_ranks_rounded_down_at_the_end_of_the_game():
    """R84: per track 8 / 4 / 2, "ties are handled as in R83, rounded down", level 0 scores
    nothing.  Banking: all three at 5 share 8 + 4 + 2 = 14 -> 4 each (not 4.67 rounded up to 5);
    Law: seats 0 and 1 at 2 share 8 + 4 -> 6 each, seat 2 at 0 scores nothing (not the 2 of a
    third rank); Engineering: seat 2 alone -> 8.  Played to the end of round 6 with no buildings
    and no resources, the science VP are the whole final scoring."""
    sc = scenario(tile="T10").round(6, tile="T10")
    sc.set(0, science=(5, 2, 0, 0)).set(1, science=(5, 2, 0, 0)).set(2, science=(5, 0, 1, 0))
    for seat in range(3):
        sc.set(seat, coins=0, tools=0, bowls=(12, 0, 0))
    g = sc.turn(0)
    assert scoring.breakdown(g)["science"] == [4 + 6, 4 + 6, 4 + 8]
    play(g, "pass", "pass", "pass")
    assert g.is_over()
    assert [int(player(g, seat)[P_VP]) for seat in range(3)] == [30, 30, 32]


def test_r84_three_way_tie_for_second_with_four_players():
    """R84 with R83's tie rule: seat 0 first (8); seats 1-3 tied second share 4 + 2 + 0 = 6 ->
    2 each (the 4th rank pays nothing)."""
    sc = Scenario(
        "aoi(players=4)",
        factions=["inventors", "monks", "illusionists", "goblins"],
        boards=["plains", "lake", "swamp", "desert"],
    )
    sc.set(0, science=(0, 0, 0, 6))
    for seat in (1, 2, 3):
        sc.set(seat, science=(0, 0, 0, 3))
    assert scoring.breakdown(sc.turn(0))["science"] == [8, 2, 2, 2]


# ------------------------------------------------------------------------------------------------
# R98 Omar: a second Tower through C10


def test_r98_omar_gains_a_second_tower_through_c10():
    """R98: "They may gain a second Tower through competency C10": Omar, with his starting Tower on
    the map, upgrades a Guild to a School and takes C10; its neutral Tower is placed as a second
    one (neutral Towers left 4 -> 3), and with power 2 it completes a city: Tower 2 + School 2 +
    Workshop 1 + Tower 2 = 7 in 4 buildings."""
    sc = quiet(["omar", "goblins", "felines"], ["lake", "desert", "forest"])
    sc.build(0, "r8c6", "tower", neutral=True).build(0, "r8c7", "guild").build(0, "r8c5", "workshop")
    sc.terrain("r8c8", "lake").set(0, tools=3, coins=5)
    g = sc.turn(0)
    assert g.state.glob[G_NEUTRAL_LEFT.start + Building.TOWER] == 4
    play(g, "upgrade school", "upgrade r8c7", "competency C10")
    assert g.pending_kind() == Kind.NEUTRAL_PLACE
    assert g.legal_moves() == ["neutral r8c8"]
    play(g, "neutral r8c8")
    h = hex_row(g, "r8c8")
    assert (h[H_BUILDING], h[H_NEUTRAL], h[H_OWNER]) == (Building.TOWER, 1, 0)
    assert player(g)[P_NEUTRAL_BUILT.start + Building.TOWER] == 2
    assert g.state.glob[G_NEUTRAL_LEFT.start + Building.TOWER] == 3
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K5")
    assert all(hex_row(g, x)[H_CITY] == 1 for x in ("r8c5", "r8c6", "r8c7", "r8c8"))


# ------------------------------------------------------------------------------------------------
# R131 palace 11 and the cities on the map


def _palace11(sc: Scenario) -> Game:
    """Seat 0 upgrades its Guild on r7c5 to the Palace (4 tools + 6 coins) and takes tile 11."""
    g = sc.build(0, "r7c5", "guild").offer_palace(11, 17).set(0, tools=4, coins=6).turn(0)
    return play(g, "upgrade palace", "upgrade r7c5", "palace 11")


def test_r131_palace11_palace_still_founds_a_city_on_the_map():
    """R131: "It does not affect city founding on the map: the Palace can still found a city
    normally".  Guild r8c6 + Workshops r6c6, r7c6 + Guild r7c5 = 6 power; as the Palace (3) the
    group reaches 7 and founds a city.  The player gets both tiles, the city's and palace 11's, in
    the order of their choice: 2 keys, 2 x T6 (+5), K1 + K5 (4 VP + 3 tools, 6 VP + 6 coins)."""
    sc = scenario(tile="T6").build(0, "r8c6", "guild").build(0, "r6c6", "workshop").build(0, "r7c6", "workshop")
    g = _palace11(sc)
    assert g.pending_kind() == Kind.REWARD_ORDER
    assert sorted(g.legal_moves()) == ["first city", "first palace"]
    assert all(hex_row(g, x)[H_CITY] == 1 for x in ("r7c5", "r8c6", "r6c6", "r7c6"))  # founded on the map
    play(g, "first city", "city K1")
    assert g.pending_kind() == Kind.CHOOSE_CITY  # palace 11's own tile still comes
    play(g, "city K5")
    p = player(g)
    assert p[P_CITIES] == 2
    assert p[P_VP] == 20 + (4 + 5) + (6 + 5)
    assert (p[P_TOOLS], p[P_COINS]) == (0 + 3, 0 + 6)
    assert g.pending_kind() == Kind.POST


def test_r131_palace11_palace_already_in_a_city_still_takes_the_tile():
    """R131: the Palace "may already be in one" (a city): upgrading a Guild that already belongs to
    a city founds nothing new on the map, yet palace 11 still gives its city tile with VP, bonus and
    key (T6 +5)."""
    sc = scenario(tile="T6").build(0, "r8c6", "guild").build(0, "r6c6", "workshop").build(0, "r7c6", "school")
    sc.city("r8c6", "r6c6", "r7c6", "r7c5").city_tile(0, "K1")
    g = _palace11(sc)
    assert hex_row(g, "r7c5")[H_BUILDING] == Building.PALACE
    assert g.pending_kind() == Kind.CHOOSE_CITY
    play(g, "city K5")
    p = player(g)
    assert p[P_CITIES] == 2  # the old city's key + palace 11's
    assert p[P_VP] == 20 + 6 + 5 and p[P_COINS] == 6
    assert g.pending_kind() == Kind.POST  # one tile only: no second city on the map


# ------------------------------------------------------------------------------------------------
# OP-49 palace 9's flight


def _flight(bridge: bool) -> Game:
    sc = scenario().build(0, "r7c5", "palace").palace_tile(0, 9).build(0, "r6c6", "workshop")
    if bridge:
        sc.bridge(0, "r6c6", "r5c7")
    g = sc.set(0, scholars=1, scholar_supply=6, tools=9, coins=4).turn(0)
    return play(g, "build")


def test_op49_flight_bridges_count_as_adjacency():
    """OP-49: "the target lies at hex distance 2 or 3 from one of your buildings and not at
    distance 1 (bridges count as adjacency)".  Without a bridge r5c7 (across the river from r6c6)
    is a flight target and r4c9 is out of range; with the bridge r6c6-r5c7, r5c7 is adjacent (a
    plain TB target, no flight) and r4c9 (r6c6 - r5c7 - r4c8 - r4c9) comes within distance 3."""
    g = _flight(bridge=False)
    assert "target r5c7" not in g.legal_moves()
    play(g, "fly")
    assert "fly r5c7" in g.legal_moves() and "fly r4c9" not in g.legal_moves()
    g = _flight(bridge=True)
    assert "target r5c7" in g.legal_moves()
    play(g, "fly")
    assert "fly r5c7" not in g.legal_moves() and "fly r4c9" in g.legal_moves()
    play(g, "fly r4c9")
    assert player(g)[P_SCHOLARS] == 0 and player(g)[P_VP] == 25  # 1 scholar, +5 VP


def test_op49_one_flight_per_tb_the_leftover_spade_uses_normal_reach():
    """OP-49: "at most one flight per TB action", applied to the main target hex.  Spell S6 gives
    2 free spades; the flight to r7c8 (Swamp, 1 spade from Plains) leaves one, offered exactly on
    the non-native hexes in normal reach of the Palace on r7c5, never on another hex in flight
    range (r7c7, r8c7, r8c8) and with no second flight."""
    sc = scenario().build(0, "r7c5", "palace").palace_tile(0, 9)
    g = sc.set(0, scholars=2, scholar_supply=5, tools=1, coins=4, bowls=(0, 6, 6)).turn(0)
    play(g, "spell S6", "fly", "fly r7c8", "spades 1")
    assert g.pending_kind() == Kind.TB_FINISH
    assert g.legal_moves() == ["spade r6c5", "spade r7c4", "spade r7c6", "spade r8c5", "workshop", "done"]
    play(g, "spade r7c6", "workshop")
    p = player(g)
    assert hex_row(g, "r7c8")[H_BUILDING] == Building.WORKSHOP
    assert p[P_SCHOLARS] == 1  # one scholar paid: one flight
    assert p[P_VP] == 25  # 20 + 5 (one flight)


# ------------------------------------------------------------------------------------------------
# OP-61 the Psychics' X token


def test_op61_psychics_special_action_resets_every_round():
    """OP-61: "Philosophers' and Psychics' actions also reset every round".  The Psychics use their
    special action in round 1 (5 power, then Pass as the second action, OP-42); it is not offered
    again that round, but in round 2 it is, and gives 5 power and a second action again."""
    g = quiet(["felines", "goblins", "psychics"], ["forest", "desert", "lake"]).turn(2)
    play(g, "special faction")
    assert bowls(g, 2) == [0, 12, 0]  # 5/7/0 + 5 power
    assert "special faction" not in g.legal_moves()  # the second action: not the special again
    play(g, "pass", "bonus B3")  # seat 2 passes first: first in round 2
    play(g, "pass", "bonus B8", "pass", "bonus B1")
    assert g.state.glob[G_ROUND] == 2 and g.current_seat() == 2 and g.pending_kind() == Kind.MAIN
    assert "special faction" in g.legal_moves()
    before = g.clone()
    play(g, "special faction")
    assert g.pending_kind() == Kind.MAIN and g.current_seat() == 2  # the second action
    assert testing.power_moved(before, g, 2) == 5
