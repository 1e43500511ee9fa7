"""Edge cases of weakly cited rules and open points (second half): R119 (the Monument's city still
needs power 7), R126 (palace 6: *up to* 2 steps in *one* discipline), R132 (palace 12: *from now
on*, each *Workshop* built, any source) and OP-60 (the final resource conversion may sacrifice).

Seats: 0 Inventors on Plains (no faction effect during play), 1 Monks on Lake, 2 Illusionists on
Swamp; 3-player game on the 3-5 side, round 2 with round tile T9 (+4 per School built, so the
Workshops and Guilds built here score no round VP).  Hexes used around seat 0 (Plains native):

    r6c5 F   r6c6 P
  r7c4 W   r7c5 S   r7c6 D   r7c7 W   r7c8 S
    r8c5 M   r8c6 P   r8c7 L   r8c8 F
"""

from __future__ import annotations

import pytest

from aoi_env.core.pending import Kind
from aoi_env.core.rules.scoring import breakdown
from aoi_env.core.state import H_BUILDING, H_CITY, H_NEUTRAL, P_COINS, P_VP
from aoi_env.data.enums import Building
from tests.rule_positions import develop, play, scenario, with_palace
from tests.state_readers import bowls, hex_row, player, science

# ------------------------------------------------------------------------------------------------
# R119 Monument


@pytest.mark.parametrize(
    ("others", "city"),
    [
        (("r7c5:guild",), False),  # Monument 4 + Guild 2 = 6: 2 buildings but only power 6
        (("r7c5:guild", "r6c5:workshop"), True),  # 4 + 2 + 1 = 7 with 3 buildings (< 4)
    ],
)
def test_r119_monument_city_of_2_buildings_still_needs_power_7(others: tuple[str, ...], city: bool):
    """R119: "A city containing it needs only 2 buildings (still 7 power)": the Monument lowers
    the building count, not the power.  Monument + Guild (6) found no city; adding a Workshop
    (7, 3 buildings) does."""
    sc = scenario()
    for item in others:
        hex_, building = item.split(":")
        sc.build(0, hex_, building)
    g = develop(sc, "neutral_monument")
    assert player(g)[P_VP] == 27  # 20 + 7 (one-time)
    play(g, "neutral r6c6")
    assert hex_row(g, "r6c6")[H_BUILDING] == Building.MONUMENT and hex_row(g, "r6c6")[H_NEUTRAL] == 1
    if city:
        assert g.pending_kind() == Kind.CHOOSE_CITY
        play(g, "city K5")
        assert all(hex_row(g, h)[H_CITY] == 1 for h in ("r6c6", "r7c5", "r6c5"))
    else:
        assert g.pending_kind() == Kind.POST
        assert not g.state.hexes[:, H_CITY].any()


# ------------------------------------------------------------------------------------------------
# R126 Palace 6


def test_r126_palace6_one_discipline_only_and_up_to_2_steps_at_the_top():
    """R126: "advance up to 2 steps in one discipline": the choice is one discipline (no split
    between two), and at Law 11 the marker reaches 12 (3 power, R49) while the second step is
    lost (R52) instead of the action being refused."""
    g = with_palace(scenario(), 6).set(0, science=[0, 11, 0, 0]).turn(0)
    play(g, "special palace")
    assert g.pending_kind() == Kind.STEPS_ONE
    assert g.legal_moves() == ["steps banking", "steps law", "steps engineering", "steps medicine"]
    play(g, "steps law")
    assert science(g) == [0, 12, 0, 0]  # 11 + 1; the second step is lost
    assert bowls(g) == [2, 10, 0]  # threshold 12: 3 power (5/7/0: three I -> II)
    assert g.pending_kind() == Kind.POST


# ------------------------------------------------------------------------------------------------
# R132 Palace 12


def test_r132_palace12_from_now_on_workshops_already_on_the_map_score_nothing():
    """R132: "From now on, each Workshop you build: +2 VP": taking the tile scores nothing for the
    2 Workshops already on the map (Palace 3 + 1 + 1 = 5 power: no city either); the next
    Workshop built scores +2."""
    sc = scenario().build(0, "r7c5", "guild").build(0, "r8c6", "workshop").build(0, "r6c6", "workshop")
    sc.terrain("r7c6", "plains")
    g = sc.offer_palace(12, 17).set(0, tools=5, coins=8).turn(0)  # Palace 4 T + 6 C, Workshop 1 T + 2 C
    play(g, "upgrade palace", "upgrade r7c5", "palace 12")
    assert g.pending_kind() == Kind.POST
    assert player(g)[P_VP] == 20  # no retroactive VP
    play(g, "done", "pass", "bonus B1", "pass", "bonus B5")  # seats 1 and 2 pass: seat 0 again
    assert g.current_seat() == 0 and g.pending_kind() == Kind.MAIN
    play(g, "build", "target r7c6")  # already Plains: build only (4 buildings, power 6: no city)
    assert hex_row(g, "r7c6")[H_BUILDING] == Building.WORKSHOP
    assert player(g)[P_VP] == 22  # 20 + 2


def test_r132_palace12_guild_upgrade_and_other_players_workshops_score_nothing():
    """R132: only a Workshop *you* build scores: upgrading a Workshop to a Guild gives nothing,
    and seat 1 building a Workshop gives seat 0 nothing."""
    g = with_palace(scenario(), 12).build(0, "r8c6", "workshop").turn(0)
    play(g, "upgrade guild", "upgrade r8c6")
    assert hex_row(g, "r8c6")[H_BUILDING] == Building.GUILD
    assert player(g)[P_VP] == 20
    g = with_palace(scenario(), 12).build(1, "r8c8", "workshop").terrain("r8c9", "lake").turn(1)
    play(g, "build", "target r8c9")  # Lake is the Monks' native terrain: build only
    assert hex_row(g, "r8c9")[H_BUILDING] == Building.WORKSHOP
    assert player(g, 0)[P_VP] == 20 and player(g, 1)[P_VP] == 20


def test_r132_r146_palace12_neutral_workshop_scores_2_vp():
    """R132, R146 ("Build Workshop (any source, incl. neutral)" -> Palace 12 +2): placing the
    neutral Workshop of the innovation scores +2 VP."""
    g = develop(with_palace(scenario(), 12), "neutral_workshop", coins=0)  # Palace built: no surcharge
    assert g.pending_kind() == Kind.NEUTRAL_PLACE
    assert player(g)[P_VP] == 20
    play(g, "neutral r6c6")
    assert hex_row(g, "r6c6")[H_BUILDING] == Building.WORKSHOP and hex_row(g, "r6c6")[H_NEUTRAL] == 1
    assert player(g)[P_VP] == 22  # 20 + 2
    assert player(g)[P_COINS] == 0


# ------------------------------------------------------------------------------------------------
# OP-60 final resource conversion


def test_op60_final_resources_may_sacrifice_bowl_ii_power():
    """OP-60 / R85: the final conversion may sacrifice: bowl II counts floor(II / 2) coins.  3 coins
    + bowl III 2 + bowl II 10 (-> 5 after sacrificing 5) = 10 coins = 2 VP; without sacrifice it
    would be 5 coins (1 VP), counting bowl II 1:1 would be 15 (3 VP).  Played to the end of
    round 6, seat 0 (no buildings, science 0) scores exactly these 2 VP."""
    sc = scenario(rnd=6, tile="T10").bonus_tiles(("B9", "B10", "B3"), ("B1", "B7", "B8"), coins=0)
    sc.set(0, coins=3, tools=0, bowls=(0, 10, 2))
    sc.build(1, "r4c8", "workshop").build(2, "r0c11", "workshop")
    g = sc.turn(0)
    assert breakdown(g)["resources"][0] == 2
    play(g, "pass", "pass", "pass")
    assert g.is_over()
    assert player(g)[P_VP] == 20 + 2  # no area (no building), no science, 2 resource VP
