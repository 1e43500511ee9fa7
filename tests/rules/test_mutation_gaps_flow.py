"""Rule behaviours no other test pinned, found by a mutation audit of ``effects``, ``flow``,
``setup`` and ``automa`` (each test fails on the engine mutant named in its docstring).

R107 / R108 (innovation counters), OP-58 (a Terraform & Build spell needs a hex), and the Automa
(AUTOMA.md §3.3 distinct terrains, §5.7 at most 3 innovations, §8.3 Wanderers' end bonus,
§10 #14 "cannot advance").
"""

from __future__ import annotations

import numpy as np

from aoi_env import testing
from aoi_env.core import automa as am
from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.invariants import check
from aoi_env.core.rules import scoring
from aoi_env.core.state import (
    G_BOOK_ACTIONS,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    H_MARK,
    P_BOARD,
    P_INNOVATIONS,
    P_SCIENCE,
    P_VP,
)
from aoi_env.testing import Scenario

AUTOMA = 1  # her seat with one human
CARDS = am.automa_data().cards


# ------------------------------------------------------------------------------------------------
# R107, R108: innovation counters (effects.counter)


def _innovation_scenario() -> Scenario:
    """Round 2 of a 3-player game (T9: no innovation event), seat 0 Inventors on Plains."""
    sc = Scenario("aoi(players=3)", factions=["inventors", "monks", "illusionists"], boards=["plains", "lake", "swamp"])
    return sc.round(2, tile="T9")


def _develop(sc: Scenario, key: str) -> Game:
    """Seat 0 develops ``key`` from display space 0 (2 Banking + 3 any books, 5 coins w/o Palace)."""
    sc.display_innovations(key).set(0, books={"banking": 5}, coins=5)
    g = sc.turn(0)
    testing.play(g, "innovate", f"innovation {key}", "pay banking", "pay banking", "pay banking")
    check(g)
    return g


def test_r108_libraries_add_the_two_highest_levels_not_the_highest_and_third() -> None:
    """R108: "VP equal to the sum of your two highest discipline levels".  Levels 3, 5, 9, 0 give
    9 + 5 = 14 (the rulebook example 9, 7, 7, 2 cannot tell the second from the third highest).
    Mutant: effects.counter top_two_disciplines = levels[-1] + levels[-3] (9 + 3 = 12)."""
    g = _develop(_innovation_scenario().set(0, science=[3, 5, 9, 0], cities=1), "library")  # a key for 9
    assert int(g.state.players[0, P_VP]) == 20 + 14


def test_r107_op52_census_counts_the_neutral_monument() -> None:
    """R107 "VP by the number of your buildings on the map: 7-8 -> 8"; OP-52 "neutral buildings
    count as their type" (R105 lists Monument among the building shapes): a neutral Tower,
    5 Workshops and the neutral Monument are 7 buildings -> 8 VP.
    Mutant: effects.counter "buildings" leaves the Monument out (6 -> 0 VP)."""
    sc = _innovation_scenario().build(0, "r8c4", "tower", neutral=True)
    for h in ("r8c5", "r8c6", "r8c7", "r8c8", "r8c9"):
        sc.build(0, h, "workshop")
    sc.build(0, "r8c10", "monument", neutral=True)
    g = _develop(sc, "census")
    assert int(g.state.players[0, P_VP]) == 20 + 8


# ------------------------------------------------------------------------------------------------
# OP-58: a Terraform & Build spell or book action needs a hex (effects.feasible)


def _boxed_in(open_hex: str | None) -> list[str]:
    """Seat 0 (Felines, Desert, sailing 0) has one Workshop at r7c5 whose six land neighbours are
    all built by others, except ``open_hex``; 12 power in bowl III, 3 books, 9 tools, BA6
    (Terraform & Build with 3 spades) on the display.  Returns the non-conversion moves."""
    s = Scenario("aoi(players=3)", factions=["felines", "blessed", "navigators"], boards=["desert", "lake", "forest"])
    for seat, tile in enumerate(("B10", "B9", "B8")):
        s.bonus(seat, tile)
    s.build(0, "r7c5", "workshop")
    for i, h in enumerate(("r6c5", "r6c6", "r7c4", "r7c6", "r8c5", "r8c6")):
        if h != open_hex:
            s.build(1 + i % 2, h, "workshop")
    s.set(0, bowls=(0, 0, 12), tools=9, coins=20, sailing=0, books=(3, 0, 0, 0))
    s.state().glob[G_BOOK_ACTIONS] = [5, 0, 1]  # BA6 (tb: 3), BA1, BA2
    return [m for m in s.turn(0).legal_moves() if not m.startswith("convert")]


def test_op58_terraform_spells_and_book_need_a_hex_in_reach() -> None:
    """OP-58: "An action must have at least its main effect: a legal bridge location, a legal hex
    for the TB"; "A spell or book action cannot be taken merely to block it".  With every hex in
    reach built, S3 (1 spade), S6 (2 spades) and BA6 (3 spades) are not offered, while S5 (coins)
    is; with one neighbour empty they are.
    Mutant: effects.feasible returns True for a "tb" gain."""
    boxed = _boxed_in(None)
    assert "build" not in boxed
    assert not {"spell S3", "spell S6", "book BA6"} & set(boxed)
    assert "spell S5" in boxed and "book BA2" in boxed
    open_ = _boxed_in("r8c6")
    assert {"build", "spell S3", "spell S6", "book BA6"} <= set(open_)


# ------------------------------------------------------------------------------------------------
# the Automa


def _solo(spec: str = "simpletons:3:lake") -> Scenario:
    """1 human (Goblins on Plains) + 1 Automa, 1-3 side, cleared map."""
    return Scenario(f"aoi(players=1,automa={spec})", factions=["goblins"], boards=["plains"])


def test_automa_3_3_two_automas_get_distinct_random_terrains() -> None:
    """AUTOMA.md §3.3: "a native terrain different from every human's ... the app demands that all
    terrains be distinct": with two Automas and no terrain given, the three seats always have
    three different terrains.
    Mutant: setup._automa_terrains_and_bonuses does not add the first Automa's terrain to the
    taken ones."""
    for seed in range(30):
        g = Game("aoi(players=1,automa=simpletons:1+druids:1,setup_choices=random)", seed=seed)
        boards = [int(b) for b in g.state.players[:, P_BOARD]]
        assert len(set(boards)) == 3, (seed, boards)


def test_automa_5_7_takes_a_third_innovation_but_not_a_fourth() -> None:
    """AUTOMA.md §5.7: "If she holds fewer than 3 innovations, take one tile from the innovation
    display by directional selection"; §10 #19 "At most 3".  Holding 2 she takes the left wide
    tile (card *6: RD 1) into her third slot; holding 3 the step does nothing.
    Mutant: automa.resolve_innovation stops at 2 innovations."""
    for held, takes in ((2, True), (3, False)):
        g = _solo().round(3).turn(0)
        tiles = g.state.glob[G_INNOV_SPACES].tolist()
        others = [t for t in range(18) if t not in tiles][:held]
        for slot, t in enumerate(others):
            g.state.players[AUTOMA, P_INNOVATIONS.start + slot] = t
            g.state.glob[G_INNOV_OWNER.start + t] = AUTOMA
        am.resolve_innovation(g, AUTOMA, CARDS[6])
        owned = [int(t) for t in g.state.players[AUTOMA, P_INNOVATIONS] if t >= 0]
        if takes:
            assert owned == [*others, tiles[4]]
            assert int(g.state.glob[G_INNOV_OWNER.start + tiles[4]]) == AUTOMA
        else:
            assert owned == others
            assert int(g.state.glob[G_INNOV_OWNER.start + tiles[4]]) == -1


def test_automa_8_3_wanderers_count_marked_and_unmarked_buildings() -> None:
    """AUTOMA.md §8.3 / §7: "Wanderers: +2 VP per own building on the board" - every building,
    marked or not, of any type: a marked Workshop, an unmarked Workshop and a Guild -> 6 VP.
    Mutant: automa.end_game_vp counts only her unmarked buildings."""
    sc = _solo("wanderers:3:lake").build(AUTOMA, "r1c2", "workshop").build(AUTOMA, "r1c6", "workshop")
    sc.build(AUTOMA, "r7c7", "guild")
    g = sc.turn(0)
    g.state.hexes[parse_hex("r1c2"), H_MARK] = 1
    assert am.end_game_vp(g, AUTOMA) == 6
    assert scoring.breakdown(g)["faction"][AUTOMA] == 6


def test_automa_10_14_she_advances_from_11_to_a_free_12() -> None:
    """AUTOMA.md §10 #14: "Ineligible if her marker is at 12, or at 11 with level 12 already
    taken, or at 7 with no key" - at 11 with 12 free she can advance.  Automa (11, 7, 7, 7)
    without a key: catch-up leaves only Banking and an Advance takes her to 12.
    Mutant: automa.can_advance refuses every marker at 11."""
    # unchecked: she has no keys, so no real game takes her past 7 (R50); the rule text covers 11
    g = _solo().unchecked().set(AUTOMA, science=(11, 7, 7, 7)).turn(0)
    assert am.can_advance(g, AUTOMA, 0)
    assert am.catch_up(g, AUTOMA, CARDS[1]) == 0
    am.resolve_step(g, AUTOMA, am.ADVANCE, 1, 0, 1)
    assert np.array_equal(g.state.players[AUTOMA, P_SCIENCE], [12, 7, 7, 7])
