"""Edge cases of cited ids (OP-62, R26, R113, R115, R137) that the tests citing them did not
check.

The other ids of this batch (OP-1, OP-5, OP-6, OP-7, OP-8, OP-9, OP-11, OP-14, OP-27, R13, R27,
R29, R59, R102, R118) are checked with their edge cases by the tests that cite them.

Innovation positions follow ``tests/components/test_innovations.py``: round 2 of a 3-player game
(seat 0 Inventors on Plains, 1 Monks on Lake, 2 Illusionists on Swamp, 3-5 side); seat 0 develops
the innovation from display space 0 (2 Banking + 3 any books, + 5 coins without a Palace).
"""

from __future__ import annotations

from aoi_env.core.board import parse_hex
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_ROUND,
    G_SCHOLAR_SPACES,
    H_BUILDING,
    H_CITY,
    H_NEUTRAL,
    NEUTRAL_SEAT,
    P_BOWLS,
    P_CITIES,
    P_SCIENCE,
    Phase,
)
from aoi_env.data.enums import Building
from aoi_env.testing import Scenario, play, power_moved
from tests.rule_positions import develop, scenario, vp

LAW = 1


# ------------------------------------------------------------------------------------------------
# OP-62: the 2-player neutral scholars block a "2" space for the whole game


def test_op62_neutral_scholar_blocks_one_two_space_of_every_discipline_for_the_players() -> None:
    """R24.3 / OP-62: the neutral scholar sits on one of the three "2" spaces of each discipline
    "for the whole game", so a player of a 2-player game finds only the "3" space and two "2"
    spaces: after three scholars on Law (3 + 2 + 2 steps) no Law space is left, only the return
    form, while the other disciplines still offer their "2" spaces.  The neutral scholar is still
    there in the next round."""
    sc = Scenario("aoi(players=2)", factions=["blessed", "felines"], boards=["lake", "forest"]).round(1, tile="T10")
    g = sc.set(0, scholars=4).set(1, passed=1).turn(0)  # seat 0 acts alone
    spaces = g.state.glob[G_SCHOLAR_SPACES].reshape(4, 4)
    assert [row.tolist().count(NEUTRAL_SEAT) for row in spaces] == [1, 1, 1, 1]
    assert all(row[0] == -1 for row in spaces)  # never on the "3" space
    play(g, "scholar law 3", "done", "scholar law 2", "done")
    assert "scholar law 2" in g.legal_moves()  # the second free "2" space
    play(g, "scholar law 2", "done")
    moves = g.legal_moves()
    assert "scholar law 2" not in moves and "scholar law 3" not in moves  # the neutral one blocks the last
    assert "scholar law return" in moves
    assert {"scholar banking 2", "scholar engineering 2", "scholar medicine 2"} <= set(moves)
    assert int(g.state.players[0, P_SCIENCE.start + LAW]) == 7  # 3 + 2 + 2
    law = g.state.glob[G_SCHOLAR_SPACES].reshape(4, 4)[LAW].tolist()
    assert sorted(law) == sorted([0, 0, 0, NEUTRAL_SEAT])
    play(g, "pass")  # the last seat passes: round 1 ends
    while int(g.state.glob[G_ROUND]) == 1 or g.pending_kind() != Kind.MAIN:
        play(g, g.legal_moves()[0])
    assert int(g.state.glob[G_ROUND]) == 2
    after = g.state.glob[G_SCHOLAR_SPACES].reshape(4, 4)
    assert [row.tolist().count(NEUTRAL_SEAT) for row in after] == [1, 1, 1, 1]
    assert after[LAW].tolist() == law


# ------------------------------------------------------------------------------------------------
# R26: the VP track has no end


def test_r26_the_100_and_200_tokens_only_mark_laps() -> None:
    """R26: "The 100/200 tokens only mark laps of the track": a score is never capped or wrapped
    at 100 or 200 (199 + 2 VP for a Workshop under T3 = 201)."""
    sc = Scenario("aoi(players=3)", factions=["blessed", "inventors", "monks"], boards=["desert", "plains", "forest"])
    g = sc.round(1, tile="T3").build(0, "r3c0", "workshop").terrain("r4c1", "desert").set(0, vp=199).turn(0)
    play(g, "build", "target r4c1")
    assert vp(g) == 201
    assert list(g.scores())[0] == 201


# ------------------------------------------------------------------------------------------------
# R113: only the developer's own bridges count


def test_r113_steel_counts_only_the_developers_bridges() -> None:
    """R113 "VP by the number of your bridges on the map": seat 0 has 1 bridge (8 VP); the 2
    bridges of seat 1 do not raise it to the 18 VP of 3 bridges, and seat 1 scores nothing."""
    sc = (
        scenario()
        .build(0, "r8c4", "workshop")
        .bridge(0, "r8c4", "r7c2")
        .build(1, "r7c4", "workshop")
        .bridge(1, "r7c4", "r6c3")
        .build(1, "r6c0", "workshop")
        .bridge(1, "r6c0", "r7c1")
    )
    g = develop(sc, "steel")
    assert vp(g) == 20 + 8
    assert vp(g, 1) == 20


# ------------------------------------------------------------------------------------------------
# R115: the neutral University lowers the building count only, not the power


def test_r115_neutral_university_city_of_3_buildings_still_needs_7_power() -> None:
    """R115 "A city containing it needs only 3 buildings (still 7 power)": the neutral University
    (power 3) placed next to a Guild (2) and a Workshop (1) makes 3 buildings of power 6: no city
    is founded (with a second Guild instead, power 7, it is: test_innovations)."""
    sc = scenario(tile="T10").build(0, "r7c5", "guild").build(0, "r8c6", "workshop")
    g = develop(sc, "neutral_university")
    assert g.pending_kind() == Kind.NEUTRAL_PLACE  # no competency (R115)
    play(g, "neutral r6c6")
    assert g.state.hexes[parse_hex("r6c6"), H_BUILDING] == Building.UNIVERSITY
    assert g.state.hexes[parse_hex("r6c6"), H_NEUTRAL] == 1
    assert g.pending_kind() == Kind.POST  # no city tile to choose
    assert int(g.state.players[0, P_CITIES]) == 0
    assert all(g.state.hexes[parse_hex(h), H_CITY] == 0 for h in ("r6c6", "r7c5", "r8c6"))


# ------------------------------------------------------------------------------------------------
# R137: palace 17's 10 VP are one-time, its income is 2 power


def test_r137_palace17_pays_2_power_and_no_vp_in_phase_one() -> None:
    """R137 "Income: 2 P. One-time: 10 VP": after the Palace with tile 17 is built, Phase I pays
    2 power and no VP (the 10 VP are not income), and the board base of 1 tool."""
    sc = scenario().build(0, "r7c5", "palace").palace_tile(0, 17).bonus(0, "B1")  # B1: no income
    before = sc.g.clone()
    g = sc.decide(Kind.INCOME_SEAT, 0, phase=Phase.INCOME)
    assert vp(g) == 20
    assert power_moved(before, g, 0) == 2
    assert g.state.players[0, P_BOWLS].tolist() == [3, 9, 0]  # 5/7/0 gaining 2
