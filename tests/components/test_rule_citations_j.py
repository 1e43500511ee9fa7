"""Edge cases of much-cited rules (part j) that no citing test pinned down: R138 / R78.1 (a round
bonus tile's pass effect is the one of the tile you pass *with*, not of the tile you take when
passing), R50 (the 2-player neutral faction ignores the key barrier between 7 and 8) and R95 (a
tunnel target touches *no* Moles building, not merely the one it is two hexes from).

Unless a test says otherwise: 3-player game, seats 0 Inventors on Desert, 1 Monks on Lake, 2
Psychics on Forest (no faction effect during play), round 1 with round tile T10 (innovations only),
no coins on the round bonus tiles.
"""

from __future__ import annotations

import pytest

from aoi_env.core import setup
from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.invariants import check
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_NEUTRAL_SCIENCE,
    H_BUILDING,
    H_TERRAIN,
    P_BONUS,
    P_CITIES,
    P_COINS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
)
from aoi_env.data import load
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario, play

FACTIONS = ["inventors", "monks", "psychics"]
BOARDS = ["desert", "lake", "forest"]


def scenario(held: tuple[str, str, str], display: tuple[str, str, str]) -> Scenario:
    sc = Scenario("aoi(players=3)", factions=FACTIONS, boards=BOARDS).round(1, tile="T10")
    return sc.bonus_tiles(held, display, coins=0)


# ------------------------------------------------------------------------------------------------
# R138 / R78.1: the pass effect of the tile passed with, never of the tile taken


def test_r138_r78_taking_b4_when_passing_scores_nothing_this_pass():
    """R138 "Its pass effects apply when you pass with it" / R78.1 (pass effects first, then the
    new tile, R78.2): seat 0 holds B9 (no pass effect), has a Palace and a University, and takes B4
    (4 VP per Palace / University when passing) from the display: this pass scores no VP; the
    same pass made *with* B4 scores 8 (the control)."""
    for held, take, vp in (("B9", "B4", 0), ("B4", "B9", 8)):
        display = ("B4", "B7", "B3") if take == "B4" else ("B9", "B7", "B3")
        sc = scenario((held, "B10", "B8"), display)
        sc.build(0, "r1c4", "palace").palace_tile(0, 17).build(0, "r1c5", "university")
        g = sc.turn(0)
        play(g, "pass")
        assert g.pending_kind() == Kind.PASS_BONUS
        play(g, f"bonus {take}")
        check(g)
        assert g.data.bonus_ids[int(g.state.players[0, P_BONUS])] == take
        assert int(g.state.players[0, P_VP]) == 20 + vp, (held, take)


def test_r138_r78_taking_b8_when_passing_gives_no_steps_this_pass():
    """R138 B8 ("When passing: advance 1 step per School"; R146's Pass row) is a pass effect of the
    tile passed with: seat 0 passes with B10 and two Schools on the map and takes B8: no science step is
    offered or made, and seat 1 is next to act."""
    sc = scenario(("B10", "B9", "B4"), ("B8", "B7", "B3"))
    g = sc.build(0, "r1c4", "school").build(0, "r1c5", "school").turn(0)
    play(g, "pass", "bonus B8")
    check(g)
    assert [int(x) for x in g.state.players[0, P_SCIENCE]] == [0, 0, 0, 0]
    assert g.current_seat() == 1 and g.pending_kind() == Kind.MAIN


# ------------------------------------------------------------------------------------------------
# R50: the 2-player neutral faction ignores the key barrier


def test_r50_two_player_neutral_faction_passes_level_7_without_a_key(monkeypatch: pytest.MonkeyPatch):
    """R50 "The 2-player neutral faction ignores this barrier" (R24.3: "needs no key to pass level
    7"): rounds 1-5 show T8 (per 3 Engineering), T7 (per 4 Medicine), T5 (per 3 Law), T4 (per 3
    Medicine), T6 (per 4 Engineering), so the neutral markers stand on 2 / 5 / 9 / 9: Engineering
    and Medicine past 7 although the neutral faction has no city tile (no key); the position is
    sound (the invariants' key count applies to the players only), and neither player has a key."""
    data = load()
    ids = ["T8", "T7", "T5", "T4", "T6", "T12"]
    monkeypatch.setattr(setup, "draw_round_tiles", lambda g, rng: [data.round_tile_ids.index(t) for t in ids])
    g = Game("aoi(players=2)", seed=0)
    neutral = [int(x) for x in g.state.glob[G_NEUTRAL_SCIENCE]]
    assert neutral == [2, 5, 9, 9]
    assert sum(level > 7 for level in neutral) == 2
    assert [int(g.state.players[seat, P_CITIES]) for seat in range(2)] == [0, 0]
    check(g)


# ------------------------------------------------------------------------------------------------
# R95: the tunnel target is adjacent to *no* Moles building


@pytest.mark.parametrize("second", [None, "r6c6", "r7c6"])
def test_r95_tunnel_target_must_not_touch_any_moles_building(second: str | None):
    """R95: "The target hex must not be adjacent to *any* Moles building, and one of its
    neighbouring hexes must be adjacent to a Moles building": Moles (Mountain) Workshop on r8c5,
    forest hex r6c5 two hexes away.  Alone, r6c5 is a tunnel target and not a plain target (the
    control).  With a second Moles Workshop on r6c6 (adjacent to r6c5), r6c5 is a plain target
    but no tunnel target, although it is still at distance 2 from r8c5.  A second Workshop on r7c6
    (not adjacent to r6c5) changes nothing for r6c5."""
    sc = Scenario("aoi(players=3)", factions=["moles", "felines", "goblins"], boards=["mountain", "forest", "desert"])
    sc.round(1, tile="T10").bonus_tiles(("B9", "B10", "B4"), ("B7", "B3", "B8"), coins=0)
    sc.build(0, "r8c5", "workshop")
    if second is not None:
        sc.build(0, second, "workshop")
    g = sc.set(0, tools=5).turn(0)
    adj = g.adjacency()
    assert not adj[parse_hex("r8c5"), parse_hex("r6c5")]
    touching = second == "r6c6"
    if second is not None:
        assert bool(adj[parse_hex(second), parse_hex("r6c5")]) is touching
    play(g, "build")
    assert ("target r6c5" in g.legal_moves()) is touching
    play(g, "tunnel")
    tunnel = set(g.legal_moves())
    assert ("tunnel r6c5" in tunnel) is not touching
    own = [parse_hex(h) for h in ("r8c5", second) if h is not None]
    for move in tunnel:
        if move.startswith("tunnel "):
            assert not any(adj[o, parse_hex(move.split()[1])] for o in own), move


# ------------------------------------------------------------------------------------------------
# R142 / R146: the spades of a neutral building's placement are spent spades


def test_r142_r146_spades_bought_to_place_a_neutral_building_score_t2_and_goblins_coins():
    """R142 T2 ("spend a spade (any source; per spade)"), R146 "Spend a spade (Phase II): T2 +2 per
    spade; Goblins +2 C per spade", R46.1 (a neutral building's non-native hex is first terraformed,
    the spades paid with tools): the Goblins (Plains) develop the neutral Workshop in round 2 under
    T2 and place it on the Desert hex r7c6 next to their Workshop r7c5: one spade for 3 tools,
    +2 VP (T2) and +2 coins (Goblins); the Workshop build scores nothing else under T2."""
    sc = Scenario("aoi(players=3)", factions=["goblins", "monks", "illusionists"], boards=["plains", "lake", "swamp"])
    sc.round(2, tile="T2").build(0, "r7c5", "workshop").display_innovations("neutral_workshop")
    g = sc.set(0, books={"banking": 5}, coins=5, tools=3).turn(0)
    play(g, "innovate", "innovation neutral_workshop", "pay banking", "pay banking", "pay banking")
    assert g.pending_kind() == Kind.NEUTRAL_PLACE
    assert int(g.state.players[0, P_COINS]) == 0 and int(g.state.players[0, P_VP]) == 20  # 5 C paid (no Palace)
    play(g, "neutral r7c6")
    check(g)
    assert int(g.state.hexes[parse_hex("r7c6"), H_TERRAIN]) == Terrain.PLAINS
    assert int(g.state.hexes[parse_hex("r7c6"), H_BUILDING]) == Building.WORKSHOP
    p = g.state.players[0]
    assert int(p[P_TOOLS]) == 0  # one spade at 3 tools
    assert int(p[P_VP]) == 20 + 2  # T2: one spade
    assert int(p[P_COINS]) == 0 + 2  # Goblins: one spade
