"""Reliability (issue 9): the invariant checker catches every corruption, hypothesis fuzzing over
configurations, determinism and persistence, and a clear ``ValueError`` for every rejected input.

Positions are built with ``Scenario``: seats 0 Inventors on Plains, 1 Monks on Lake, 2
Illusionists on Swamp, 3 players on the 3-5 side (the seats of tests/components/test_palace_tiles.py).
``sound_position`` gives every kind of piece an owner: buildings of seat 0 around r7c5 with palace
tile 5, a School with competency C3, city tile K2 with its key used on Banking 8 and a bridge
r5c7-r6c6; seat 1 a neutral Tower, a scholar on the science board and an innovation; seat 2 a
Workshop with a pavilion.  Every corruption test spoils one fact of it and expects the checker
to name it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import aoi_env
from aoi_env.core.config import FACTION_NAMES, TERRAIN_NAMES, GameConfig
from aoi_env.core.engine import Game
from aoi_env.core.invariants import check, violations
from aoi_env.core.moves import NUM_ACTIONS
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_BONUS_ROW,
    G_BONUS_STATE,
    G_CITY_LEFT,
    G_COMP_LEFT,
    G_DECISIONS,
    G_DEPTH,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEUTRAL_LEFT,
    G_NEUTRAL_SCIENCE,
    G_NEXT_ORDER,
    G_ORDER,
    G_PALACE_STATE,
    G_PAVILIONS_LEFT,
    G_PHASE,
    G_ROUND,
    G_SCHOLAR_SPACES,
    H_BUILDING,
    H_MARK,
    H_OWNER,
    H_PAVILION,
    P_BONUS,
    P_BOOKS,
    P_BOWLS,
    P_BRIDGES,
    P_BUILT,
    P_CITIES,
    P_COINS,
    P_COMPETENCIES,
    P_INNOVATIONS,
    P_PALACE_TILE,
    P_PASSED,
    P_PAVILIONS,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_TERRAFORMING,
    P_TOOLS,
    P_VP,
    Phase,
    State,
)
from aoi_env.data.enums import Building
from aoi_env.env import raw_env
from aoi_env.fuzz import automa_factions, board_sides
from aoi_env.testing import Scenario, biased_random_action, check_random_game, play_random, random_action

FACTIONS = ["inventors", "monks", "illusionists"]
BOARDS = ["plains", "lake", "swamp"]
BANKING, LAW = 0, 1
WORKSHOP, GUILD, TOWER = int(Building.WORKSHOP), int(Building.GUILD), int(Building.TOWER)


def pos(name: str) -> int:
    from aoi_env.core.board import parse_hex

    return parse_hex(name)


@cache
def _sound_position() -> Game:
    sc = (
        Scenario("aoi(players=3)", factions=FACTIONS, boards=BOARDS)
        .round(2)
        .build(0, "r6c6", "workshop")
        .build(0, "r5c7", "workshop")
        .build(0, "r8c6", "guild")
        .build(0, "r7c5", "school")
        .build(0, "r5c8", "palace")
        .palace_tile(0, 5)
        .competency(0, "C3")
        .bridge(0, "r5c7", "r6c6")
        .build(1, "r8c7", "workshop")
        .build(1, "r8c8", "tower", neutral=True)
        .build(2, "r7c7", "workshop")
        .pavilion("r7c7")
        .bonus(0, "B9")
        .set(0, coins=7, tools=2, books=(1, 0, 2, 0), bowls=(3, 6, 3), cities=1, science=(8, 2, 0, 1))
        .set(2, science=(3, 5, 0, 1))
    )
    s = sc.state()
    s.glob[G_PAVILIONS_LEFT] = 8 - 1  # the pavilion came from the supply (C6)
    s.glob[G_CITY_LEFT.start + 1] -= 1  # seat 0 took city tile K2 (R45): its key opened Banking 8
    s.glob[G_SCHOLAR_SPACES.start + LAW * 4] = 1  # seat 1's scholar on a Law space (R47)
    s.players[1, P_SCHOLAR_SUPPLY] -= 1
    key = sc.g.data.innovation_keys[int(s.glob[G_INNOV_SPACES.start])]
    sc.innovation(1, key)
    return sc.turn(0)


def sound_position() -> Game:
    """A fresh copy of the rich, sound 3-player position (seat 0 to act in round 2)."""
    return _sound_position().clone()


@cache
def _automa_position() -> Game:
    """1 player (seat 0, Inventors on Plains) against the Simpletons Automa (seat 1) on Lake."""
    sc = Scenario("aoi(players=1,automa=simpletons:3:lake)", factions=["inventors"], boards=["plains"])
    sc.build(0, "r7c5", "workshop").build(1, "r8c7", "workshop")
    sc.state().hexes[pos("r8c7"), H_MARK] = 1  # her marked building (AUTOMA.md §5.1)
    return sc.turn(0)


def two_player_position() -> Game:
    """A 2-player game (R24: the neutral faction has science markers and scholars)."""
    sc = Scenario("aoi(players=2)", factions=["inventors", "monks"], boards=["plains", "lake"])
    return sc.turn(0)


def test_issue9_scenario_checks_its_positions() -> None:
    """``Scenario.turn`` / ``.decide`` refuse a position that breaks an invariant unless told
    otherwise; the setters keep the bookkeeping (keys for science 8+, the scholar supply, the
    passing order, the pavilion supply) consistent by themselves."""
    sc = Scenario("aoi(players=3)", factions=FACTIONS, boards=BOARDS).set(0, scholar_supply=9)
    with pytest.raises(AssertionError, match="9 scholars"):
        sc.turn(0)
    sc = Scenario("aoi(players=3)", factions=FACTIONS, boards=BOARDS).set(0, scholar_supply=9).unchecked()
    assert "seat 0: 9 scholars in supply, holdings and on the board, expected 7" in violations(sc.turn(0))
    sc = Scenario("aoi(players=3)", factions=FACTIONS, boards=BOARDS)
    sc.set(0, science=(9, 8, 0, 0), scholars=3, pavilions=1).set(2, passed=1).set(1, passed=1)
    assert violations(sc.turn(0)) == []
    p = sc.state().players[0]
    assert (int(p[P_CITIES]), int(p[P_SCHOLAR_SUPPLY]), int(sc.state().glob[G_PAVILIONS_LEFT])) == (2, 4, 7)
    assert sc.state().glob[G_NEXT_ORDER][:2].tolist() == [2, 1]


@pytest.mark.parametrize(
    ("kind", "params"),
    [
        (Kind.UPGRADE_TARGET, (2, 0)),
        (Kind.GUILD_ANYWHERE, ()),
        (Kind.REWARD_ORDER, (1,)),
        (Kind.PALACE15, (7,)),
        (Kind.PASS_BONUS, ()),
    ],
)
def test_r66_r136_r55_r135_r78_scenario_decide_puts_the_row_the_sequence_has_under_the_decision(
    kind: Kind, params: tuple[int, ...]
) -> None:
    """``Scenario.decide`` builds a position the checker accepts also for a decision that only
    ever sits on one row (an upgrade on its action's END_ACTION, R66; palace 16's Guild and palace
    15's parts on the palace's city check, R136, R135; a reward order on its city tiles, R55.4; a
    pass's bonus tile on END_ACTION, R78): it puts that row under it (``testing.DECIDED_ON``, read
    from ``invariants.STACK_SHAPE``), as the game does."""
    from aoi_env.testing import DECIDED_ON

    g = Scenario("aoi(players=3)").build(0, "r4c9", "workshop").decide(kind, 0, *params)
    depth = int(g.state.glob[G_DEPTH])
    rows = [int(k) for k in g.state.stack[:depth, 0]]
    assert g.pending_kind() == kind and rows == [Kind.END_TURN, DECIDED_ON[kind], kind]
    assert violations(g) == [] and g.legal_moves()


def test_r20_scenario_display_innovations_shows_exactly_those_once() -> None:
    """R20: ``Scenario.display_innovations`` leaves the spaces after the named tiles empty; it
    kept their old tiles, marked out of the game, so a named tile could lie on two spaces and be
    offered twice (found by the fifteenth session's interaction audit)."""
    sc = Scenario("aoi(players=3)", factions=FACTIONS, boards=BOARDS)
    last = sc.g.data.innovation_keys[int(sc.state().glob[G_INNOV_SPACES][4])]  # the fifth space's tile
    sc.display_innovations(last, "neutral_university")
    spaces = sc.state().glob[G_INNOV_SPACES].tolist()
    keys = sc.g.data.innovation_keys
    assert [keys[t] for t in spaces if t >= 0] == [last, "neutral_university"]
    owner = sc.state().glob[G_INNOV_OWNER]
    assert sorted(np.flatnonzero(owner == -1).tolist()) == sorted(t for t in spaces if t >= 0)
    assert violations(sc.turn(0)) == []
    with pytest.raises(ValueError, match="one display space only"):
        Scenario("aoi(players=3)", factions=FACTIONS, boards=BOARDS).display_innovations(last, last)


def test_issue9_scenario_positions_are_sound() -> None:
    """The base positions of the corruption tests break no invariant, strict conservation included."""
    for g in (sound_position(), _automa_position().clone(), two_player_position()):
        assert violations(g, strict=True) == []
    g = sound_position()
    p = g.state.players
    assert int(p[0, P_BUILT.start + WORKSHOP]) == 2 and int(p[0, P_CITIES]) == 1
    assert int(p[0, P_BOWLS].sum()) == 12  # 3 + 6 + 3 tokens, none burned (R29)


# ------------------------------------------------------------------------------------------------
# 1. the invariant checker catches each corruption

Corruption = Callable[[Game], None]


def _set(field: int, seat: int, value: int) -> Corruption:
    def corrupt(g: Game) -> None:
        g.state.players[seat, field] = value

    return corrupt


def _add(field: int, seat: int, delta: int) -> Corruption:
    def corrupt(g: Game) -> None:
        g.state.players[seat, field] += delta

    return corrupt


def _glob(field: int, value: int) -> Corruption:
    def corrupt(g: Game) -> None:
        g.state.glob[field] = value

    return corrupt


def _hex(name: str, field: int, value: int) -> Corruption:
    def corrupt(g: Game) -> None:
        g.state.hexes[pos(name), field] = value

    return corrupt


def _held_innovation(g: Game) -> int:
    return int(g.state.players[1, P_INNOVATIONS.start])


def _innovation_released(g: Game) -> None:
    g.state.glob[G_INNOV_OWNER.start + _held_innovation(g)] = -1


def _innovation_gap(g: Game) -> None:
    slots = g.state.players[1, P_INNOVATIONS]
    slots[1], slots[0] = slots[0], -1


def _bonus_twice(g: Game) -> None:
    g.state.players[1, P_BONUS] = g.state.players[0, P_BONUS]


def _two_on_twelve(g: Game) -> None:
    g.state.players[0, P_SCIENCE.start + BANKING] = 12
    g.state.players[1, P_SCIENCE.start + BANKING] = 12
    g.state.players[1, P_CITIES] = 1
    g.state.glob[G_CITY_LEFT.start + 2] -= 1  # seat 1 has a city tile too: only R52 is broken


def _five_bridges(g: Game) -> None:
    from aoi_env.core.state import G_NUM_BRIDGES

    s = g.state
    spots = g.geo.bridge_spots[:4]
    for i, (a, b) in enumerate(spots, start=1):
        s.bridges[i] = (a, b, 0)
    s.glob[G_NUM_BRIDGES] = 5
    s.players[0, P_BRIDGES] = 5


def _stack_top(kind: int, seat: int) -> Corruption:
    def corrupt(g: Game) -> None:
        s = g.state
        s.stack[int(s.glob[G_DEPTH]) - 1, :2] = (kind, seat)

    return corrupt


def _no_legal_move(g: Game) -> None:
    g._legal = []  # the mask of the acting seat would be all zeros


def _passed_without_order(g: Game) -> None:
    g.state.players[2, P_PASSED] = 1  # passed, but not in the passing order (R78.4)


def _order_twice(g: Game) -> None:
    g.state.glob[G_ORDER.start + 1] = g.state.glob[G_ORDER.start]


CORRUPTIONS: list[tuple[str, Corruption, str]] = [
    # resources never negative; the score never below 0
    ("r3_coins_negative", _set(P_COINS, 0, -1), "seat 0: coins is negative (-1)"),
    ("r3_tools_negative", _set(P_TOOLS, 2, -2), "seat 2: tools is negative (-2)"),
    ("r3_scholars_negative", _set(P_SCHOLARS, 1, -1), "seat 1: scholars is negative"),
    ("r47_books_negative", _set(P_BOOKS.start + 2, 0, -1), "seat 0: negative books or bowls"),
    ("r82_score_negative", _set(P_VP, 1, -4), "seat 1: VP is negative (-4)"),
    # power tokens: 12 - burned + added across the three bowls (R29, R32, R33)
    # seat 0 has 3 + 6 + 3 = 12 tokens, none burned; one fewer in bowl I = 11
    ("r29_power_token_lost", _add(P_BOWLS.start, 0, -1), "seat 0: 11 power tokens in the bowls, expected 12"),
    ("r32_power_token_from_nowhere", _add(P_BOWLS.start + 2, 2, 1), "seat 2: 13 power tokens in the bowls"),
    # buildings on the map + planning board = the pieces (R54)
    ("r54_workshop_vanished", _hex("r6c6", H_BUILDING, 0), "owner set on empty hexes"),
    # one Guild of seat 0 on the map (r8c6); the counter says 1 + 1 = 2
    ("r54_counter_off", _add(P_BUILT.start + GUILD, 0, 1), "seat 0: building 2 count mismatch (map 1/0"),
    ("r3_r54_more_than_the_pieces", _set(P_BUILT.start + WORKSHOP, 1, 10), "seat 1: 10 buildings of type 1, 9 pieces"),
    ("r54_building_without_owner", _hex("r8c7", H_OWNER, -1), "buildings without a valid owner"),
    ("r54_building_in_the_river", _hex("r6c7", H_BUILDING, WORKSHOP), "buildings off the land"),
    # 5 neutral Towers: seat 1 owns 1, so 4 are in the supply; 3 + 1 = 4 != 5
    (
        "r3_r46_neutral_piece_lost",
        _glob(G_NEUTRAL_LEFT.start + TOWER, 3),
        "neutral tower: 3 in the supply + 1 on the map",
    ),
    # 8 pavilions = 7 in the supply + 1 attached on r7c7; one more in hand makes 9
    ("c6_pavilion_from_nowhere", _add(P_PAVILIONS, 1, 1), "pavilions: 7 in the supply + [0, 1, 0] in hand + 1"),
    ("c6_pavilion_on_an_empty_hex", _hex("r7c8", H_PAVILION, 1), "flags on empty hexes at positions [99]"),
    # seat 0 has 1 bridge on the map (r5c7-r6c6)
    ("r40_bridge_counter", _add(P_BRIDGES, 0, 1), "seat 0: 1 bridges on the map, counter says 2"),
    ("r3_r40_more_than_three_bridges", _five_bridges, "seat 0: 5 bridges, at most 3 (R40)"),
    # scholars: supply + holdings + science board = 7 (R3, R47)
    # seat 1: 6 in the supply + 1 on the Law space = 7; one lost = 5 + 1 = 6
    (
        "r3_r47_scholar_vanished",
        _add(P_SCHOLAR_SUPPLY, 1, -1),
        "seat 1: 6 scholars in supply, holdings and on the board",
    ),
    ("r47_unknown_scholar", _glob(G_SCHOLAR_SPACES.start + 5, 7), "scholar spaces hold unknown occupants"),
    # science levels 0-12, 8+ only with keys, one marker on 12 (R47, R50, R52, OP-31)
    ("r47_level_above_12", _set(P_SCIENCE.start + LAW, 2, 13), "seat 2: science level out of range [3, 13, 0, 1]"),
    ("r50_level_8_without_a_key", _set(P_SCIENCE.start + LAW, 2, 8), "seat 2: 1 tracks above 7 with 0 keys (R50)"),
    ("r50_two_tracks_one_key", _set(P_SCIENCE.start + LAW, 0, 9), "seat 0: 2 tracks above 7 with 1 keys (R50)"),
    ("r52_two_markers_on_12", _two_on_twelve, "more than one marker on level 12: [2, 0, 0, 0] (R52)"),
    # tiles: one place each, players and displays agree
    (
        "r78_bonus_tile_state",
        _glob(G_BONUS_STATE.start + 8, -1),
        "bonus tile B9 is with -1 by the display, with seat 0",
    ),
    ("r78_bonus_tile_twice", _bonus_twice, "bonus tile 9 is held by seats 0 and 1"),
    ("r73_innovation_owner", _innovation_released, "by the display, with seat 1 by the players"),
    ("r73_innovation_slot_gap", _innovation_gap, "seat 1: innovation slots"),
    ("r68_palace_tile_state", _glob(G_PALACE_STATE.start + 4, -1), "palace tile 5 is with seat -1 by the display"),
    ("r68_palace_tile_lost", _set(P_PALACE_TILE, 0, -1), "palace tile 5 is with seat 0 by the display, with seat -9"),
    # 4 copies of each competency; seat 1 takes C1 (bit 0) without the display losing one
    ("r53_competency_not_from_display", _add(P_COMPETENCIES, 1, 1), "competency C1: 4 left + 1 taken != 4 copies"),
    ("r3_r53_competency_copies", _glob(G_COMP_LEFT.start + 2, 4), "competency C3: 4 left + 1 taken != 4 copies"),
    # K2 (seat 0) and now 2 of the 3 K4 tiles are gone = 3 tiles for 1 key
    ("r45_city_tile_without_key", _glob(G_CITY_LEFT.start + 3, 1), "3 city tiles taken, players hold 1 (R45)"),
    # tracks (R71, R72)
    ("r71_sailing_beyond_the_board", _set(P_SAILING, 1, 4), "seat 1: sailing 4 outside 0..3 (R71)"),
    ("r72_terraforming_beyond_the_board", _set(P_TERRAFORMING, 0, 3), "seat 0: terraforming 3 outside 0..2 (R72)"),
    # the decision machine
    ("r58_acting_seat_without_a_move", _no_legal_move, "the acting seat has no legal move"),
    ("r58_unknown_pending_kind", _stack_top(150, 0), "pending row 1 is [150, 0"),
    ("r58_automatic_entry_waits", _stack_top(int(Kind.END_TURN), 0), "an automatic entry (END_TURN) waits"),
    ("r58_stack_overflow", _glob(G_DEPTH, 65), "pending stack depth 65 outside 0..64"),
    ("r58_turn_order_repeats_a_seat", _order_twice, "is not a permutation of the 3 seats"),
    ("r78_pass_not_in_passing_order", _passed_without_order, "passing order [] does not match the passed seats [2]"),
    ("r78_passed_flag", _set(P_PASSED, 1, 2), "seat 1: passed flag is 2"),
    ("r82_over_in_round_2", _glob(G_PHASE, Phase.OVER), "phase over in round 2"),
]


@pytest.mark.parametrize(("corrupt", "message"), [c[1:] for c in CORRUPTIONS], ids=[c[0] for c in CORRUPTIONS])
def test_issue9_invariants_catch_each_corruption(corrupt: Corruption, message: str) -> None:
    """Issue 9 item 1: one spoiled fact of a sound position is reported by name."""
    g = sound_position()
    corrupt(g)
    problems = violations(g, strict=True)
    assert any(message in p for p in problems), problems
    with pytest.raises(AssertionError, match=re.escape(message)):
        check(g, strict=True)


@pytest.mark.parametrize(
    ("name", "corrupt", "message"),
    [
        ("c6_pavilion_attached_still_in_hand", _add(P_PAVILIONS, 2, 1), "+ [0, 0, 1] in hand + 1 attached != 8 (C6)"),
        ("r45_key_without_a_city_tile", _add(P_CITIES, 2, 1), "1 city tiles taken, players hold 2 keys (R45)"),
    ],
)
def test_r45_c6_strict_conservation_of_city_tiles_and_pavilions(name: str, corrupt: Corruption, message: str) -> None:
    """R45, C6: in a played game every key comes with a city tile and every pavilion is in exactly
    one place; Scenario shortcuts (``.pavilion``, ``.set(cities=)``) skip the supply, so only
    ``strict`` checks the equality."""
    g = sound_position()
    corrupt(g)
    assert not any(message in p for p in violations(g))
    assert any(message in p for p in violations(g, strict=True)), name


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (_set(P_COINS, 1, 3), "Automa seat 1 has coins (3) (AUTOMA.md §1)"),
        (_set(P_CITIES, 1, 1), "Automa seat 1 has cities (1)"),
        (_add(P_BOWLS.start, 1, 5), "Automa seat 1 has books or power [0, 0, 0, 0] [5, 0, 0]"),
        (_stack_top(int(Kind.MAIN), 1), "seat 1 decides, but it is not a player"),
        (_hex("r8c7", H_OWNER, 0), "marked buildings not an Automa's (AUTOMA.md §5.1)"),
    ],
    ids=["coins", "keys", "power", "automa_decides", "marked_human_building"],
)
def test_automa1_the_automa_has_no_resources_and_never_decides(corrupt: Corruption, message: str) -> None:
    """AUTOMA.md §1: the Automa has no resources and never makes a decision; only her own
    buildings carry a mark."""
    g = _automa_position().clone()
    corrupt(g)
    assert any(message in p for p in violations(g)), violations(g)


ARRAYS = ("hexes", "players", "glob", "bridges", "stack")


@settings(max_examples=300, derandomize=True, deadline=None, database=None)
@given(which=st.sampled_from(ARRAYS), cell=st.integers(0, 10**6), value=st.integers(-200, 200))
def test_issue9_the_checker_reports_and_never_crashes_on_any_corrupted_cell(which: str, cell: int, value: int):
    """Issue 9: whatever one cell of the state holds, the checker returns its list of sentences
    instead of raising (a corrupt state is explained, not crashed on); negative resources are
    always among them."""
    g = sound_position()
    arr = getattr(g.state, which)
    info = np.iinfo(arr.dtype)
    arr.flat[cell % arr.size] = min(max(value, info.min), info.max)
    problems = violations(g, strict=True)
    assert isinstance(problems, list) and all(isinstance(p, str) for p in problems)
    if which == "players" and cell % arr.size % arr.shape[1] == P_COINS and value < 0:
        assert any("coins is negative" in p for p in problems)


@cache
def _setup_positions() -> tuple[Game, ...]:
    """Setup decisions of a draft, a standard and a solo game: their pending rows name seats."""
    return tuple(Game(config, seed=3) for config in ("aoi(players=3,distribution=draft)", "aoi(players=4)",
                                                      "aoi(players=1,automa=simpletons:3)"))  # fmt: skip


@settings(max_examples=200, derandomize=True, deadline=None, database=None)
@given(game=st.integers(0, 2), which=st.sampled_from(ARRAYS), cell=st.integers(0, 10**6), value=st.integers(-200, 200))
def test_issue9_the_checker_never_crashes_on_a_corrupted_setup_position(game: int, which: str, cell: int, value: int):
    """The same at setup decisions: a draft or set pick of a seat out of range was an IndexError
    inside the checker (found by the fifteenth session's review)."""
    g = _setup_positions()[game].clone()
    arr = getattr(g.state, which)
    info = np.iinfo(arr.dtype)
    arr.flat[cell % arr.size] = min(max(value, info.min), info.max)
    problems = violations(g, strict=True)
    assert isinstance(problems, list) and all(isinstance(p, str) for p in problems)


@pytest.mark.parametrize("seat", [3, 7, -4])
def test_issue9_a_draft_pick_of_no_seat_is_reported_not_crashed_on(seat: int) -> None:
    g = Game("aoi(players=3,distribution=draft)", seed=3)
    depth = int(g.state.glob[G_DEPTH])
    assert g.state.stack[depth - 1, 0] == Kind.DRAFT_PICK
    g.state.stack[: depth - 1, 1] = seat  # the picks waiting below the top
    assert any("unknown kind or seat" in p for p in violations(g))


def test_r15_scenario_bonus_row_stays_in_its_field() -> None:
    """``Scenario`` keeps the bonus row equal to the display but never writes past its 6 cells
    into the Automa records that follow (a 5-player test display of 8 tiles did)."""
    sc = Scenario("aoi(players=5)", factions=["felines", "blessed", "monks", "goblins", "moles"],
                  boards=["desert", "lake", "forest", "plains", "swamp"])  # fmt: skip
    after = G_BONUS_ROW.stop
    before = sc.state().glob[after : after + 12].copy()
    sc.bonus_tiles(held=[], display=["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8"])
    assert (sc.state().glob[after : after + 12] == before).all()
    row = sc.state().glob[G_BONUS_ROW].tolist()
    assert len(set(row)) == 6 and set(row) < set(range(8))  # 6 of the 8 shown tiles, the field's length
    assert any("bonus row" in p for p in violations(sc.g))  # 8 tiles shown: no game has that


def test_r24_r52_neutral_marker_on_12_blocks_a_second_marker() -> None:
    """R24, R52: the 2-player neutral faction's marker on 12 counts for the one-marker rule."""
    g = two_player_position()
    g.state.glob[G_NEUTRAL_SCIENCE.start + LAW] = 12
    assert violations(g) == []
    g.state.players[0, P_SCIENCE.start + LAW] = 12
    g.state.players[0, P_CITIES] = 1  # with a key: only the second marker on 12 is wrong
    assert "more than one marker on level 12: [0, 2, 0, 0] (R52)" in violations(g)


def test_r24_neutral_markers_only_in_a_two_player_game() -> None:
    """R24: only the 2-player game has neutral science markers."""
    g = sound_position()
    g.state.glob[G_NEUTRAL_SCIENCE.start] = 3
    assert any("neutral science levels [3, 0, 0, 0] (R24" in p for p in violations(g))


def test_r68_a_palace_tile_is_placed_with_the_palace_even_while_its_effect_waits() -> None:
    """R68: the tile is on the player from the moment the Palace is built (drafted or chosen);
    a pending PALACE_EFFECT (its one-time effect, R55 step 4) holds no tile, so a tile that the
    display gives to a seat which does not hold it is reported even then."""
    g = sound_position()
    s = g.state
    s.glob[G_PALACE_STATE.start + 6] = 1  # tile 7 to seat 1 ...
    depth = int(s.glob[G_DEPTH])
    s.stack[depth] = s.stack[depth - 1]
    s.stack[depth - 1] = 0
    s.stack[depth - 1, :3] = (Kind.PALACE_EFFECT, 1, -1)  # ... with an effect pending below the top
    s.glob[G_DEPTH] = depth + 1
    assert any("palace tile 7 is with seat 1 by the display, with seat -9" in p for p in violations(g))
    s.players[1, P_PALACE_TILE] = 6  # placed on the player: the display and the players agree
    assert not [p for p in violations(g) if "by the display" in p]
    assert "seat 1 holds palace tile 7 without a Palace (R68)" in violations(g)  # (seat 1 has none)


# ------------------------------------------------------------------------------------------------
# 2. hypothesis fuzzing over configurations (derandomized: the same examples in every CI run)

FUZZ = settings(
    max_examples=10,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@st.composite
def human_configs(draw: st.DrawFn) -> GameConfig:
    """2-5 players, both board sides where allowed, rulesets, distributions, fixed setups."""
    players = draw(st.integers(2, 5))
    params: dict = {
        "players": players,
        "map": draw(st.sampled_from(("auto", *board_sides(players)))),
        "ruleset": draw(st.sampled_from(("v1.2", "v1.0"))),
        "distribution": draw(st.sampled_from(("standard", "draft"))),
        "setup_choices": draw(st.sampled_from(("players", "random"))),
        "skip_forced": draw(st.booleans()),
    }
    fixed = draw(st.sampled_from(("none", "factions", "boards", "both")))
    if fixed in ("factions", "both"):
        params["factions"] = draw(st.permutations(FACTION_NAMES))[:players]
    if fixed in ("boards", "both"):
        params["boards"] = draw(st.permutations(TERRAIN_NAMES))[:players]
    return GameConfig.from_params(params)


@st.composite
def automa_configs(draw: st.DrawFn) -> GameConfig:
    """1 player + 1 Automa, 2 players + 1 Automa, 1 player + 2 Automas (AUTOMA.md §3.1), each
    supported Automa faction at levels 1-5 with or without a terrain, the humans' factions and
    boards from the distribution or fixed."""
    humans, automas = draw(st.sampled_from(((1, 1), (2, 1), (1, 2))))
    names = draw(st.permutations(automa_factions()))[:automas]
    terrains = draw(st.permutations(TERRAIN_NAMES))  # all distinct (§3.3): humans first, then the Automas
    specs = []
    for i, name in enumerate(names):
        spec = f"{name}:{draw(st.integers(1, 5))}"
        if draw(st.booleans()):
            spec += f":{terrains[humans + i]}"
        specs.append(spec)
    params: dict = {}
    if draw(st.booleans()):  # the humans' factions and / or boards fixed
        params["factions"] = draw(st.permutations(FACTION_NAMES))[:humans]
    if draw(st.booleans()):
        params["boards"] = terrains[:humans]
    return GameConfig.from_params(
        params,
        players=humans,
        automa=tuple(specs),
        ruleset=draw(st.sampled_from(("v1.2", "v1.0"))),
        setup_choices=draw(st.sampled_from(("players", "random"))),
        map=draw(st.sampled_from(("auto", *board_sides(humans + automas)))),
    )


@settings(FUZZ, max_examples=150)
@given(config=human_configs(), seed=st.integers(0, 2**31 - 1), biased=st.booleans())
def test_issue9_random_games_keep_the_invariants_over_configurations(config: GameConfig, seed: int, biased: bool):
    """Issue 9 item 2: any configuration, any seed: the invariants hold after every decision and
    the game ends with scores >= 0 (R82)."""
    g = check_random_game(config, seed, policy="biased" if biased else "uniform")
    assert g.is_over() and (g.scores() >= 0).all()
    check(g, strict=True)


@settings(FUZZ, max_examples=100)
@given(config=automa_configs(), seed=st.integers(0, 2**31 - 1), biased=st.booleans())
def test_automa_random_games_keep_the_invariants(config: GameConfig, seed: int, biased: bool):
    """Issue 9 item 2 with the Automa (AUTOMA.md): every supported faction, level and seat mix."""
    g = check_random_game(config, seed, policy="biased" if biased else "uniform")
    assert g.is_over() and int(g.scores().min()) >= 0
    check(g, strict=True)


@settings(FUZZ, max_examples=8)
@given(config=st.one_of(human_configs(), automa_configs()), seed=st.integers(0, 2**31 - 1))
def test_issue9_oracle_every_offered_id_applies_over_configurations(config: GameConfig, seed: int):
    """STYLE §5.11: with the oracle, every legal id of every position applies cleanly on a clone."""
    check_random_game(config, seed, oracle=True)


def test_style511_random_play_helpers_draw_as_the_inline_loop() -> None:
    """``random_action`` draws exactly ``rng.integers(len(legal))`` per decision, as the inline
    loops the tests used before it did, so ``play_random`` with the same seed reaches the same
    positions; ``until`` is checked before every decision, the end of the game stops the play,
    and ``max_decisions`` names the count once it is used up."""

    def inline(seed: int, done) -> tuple[Game, np.random.Generator, int]:  # noqa: ANN001 - a predicate
        g, rng, n = Game("aoi(players=3)", seed=seed), np.random.default_rng(seed), 0
        while not done(g):
            legal = g.legal_actions()
            g.apply_action(legal[int(rng.integers(len(legal)))])
            n += 1
        return g, rng, n

    old, old_rng, _ = inline(5, Game.is_over)
    rng = np.random.default_rng(5)
    g = play_random(Game("aoi(players=3)", seed=5), rng)
    assert g.is_over() and g.state.to_bytes() == old.state.to_bytes()
    assert rng.bit_generator.state == old_rng.bit_generator.state  # the same draws, no more

    def round_2(g: Game) -> bool:
        return int(g.state.glob[G_ROUND]) >= 2

    old, old_rng, n = inline(6, round_2)
    rng = np.random.default_rng(6)
    g = play_random(Game("aoi(players=3)", seed=6), rng, round_2, max_decisions=n)  # exactly n is enough
    assert int(g.state.glob[G_ROUND]) == 2 and not g.is_over()
    assert g.state.to_bytes() == old.state.to_bytes() and rng.bit_generator.state == old_rng.bit_generator.state
    before = rng.bit_generator.state
    assert play_random(g, rng, round_2) is g  # already there: no decision, no draw
    assert g.state.to_bytes() == old.state.to_bytes() and rng.bit_generator.state == before
    legal = g.legal_actions()
    assert random_action(g, np.random.default_rng(1)) == legal[int(np.random.default_rng(1).integers(len(legal)))]

    with pytest.raises(AssertionError, match=rf"play_random: until\(g\) still false after {n - 1} decisions"):
        play_random(Game("aoi(players=3)", seed=6), np.random.default_rng(6), round_2, max_decisions=n - 1)
    with pytest.raises(AssertionError, match=r"play_random: the game not over after 3 decisions \(max_decisions=3\)"):
        play_random(Game("aoi(players=3)", seed=6), np.random.default_rng(6), max_decisions=3)
    end = play_random(Game("aoi(players=3)", seed=6), np.random.default_rng(6), lambda g: False)  # stops at the end
    assert end.is_over()
    with pytest.raises(ValueError, match="random_action: the game is over"):
        random_action(end, np.random.default_rng(0))


# ------------------------------------------------------------------------------------------------
# 3. determinism and persistence


def perturb(k: int) -> None:
    """Disturb the global ``random`` and ``np.random`` streams (RLCard determinism_util style)."""
    random.seed(k * 7919 + 1)
    np.random.seed(k % 2**32)
    random.random()
    np.random.rand(3)


DETERMINISM_GAMES = [
    "aoi(players=3,setup_choices=random)",
    "aoi(players=4,distribution=draft)",
    "aoi(players=2,ruleset=v1.0)",
    "aoi(players=1,automa=druids:4)",
    "aoi(players=1,automa=racelings:2+wanderers:5)",
]


def record_game(config: str, seed: int, policy_seed: int) -> tuple[list[int], list[bytes]]:
    """The actions of a biased random game and the state bytes after each."""
    g = Game(config, seed=seed)
    rng = np.random.default_rng(policy_seed)
    actions, states = [], [g.state.to_bytes()]
    while not g.is_over():
        a = biased_random_action(g, rng)
        g.apply_action(a)
        actions.append(a)
        states.append(g.state.to_bytes())
    return actions, states


@pytest.mark.parametrize("config", DETERMINISM_GAMES)
def test_issue9_same_seed_same_moves_same_bytes_with_global_rngs_disturbed(config: str) -> None:
    """Issue 9 item 3: the engine draws only from its seed and state: replaying the moves with the
    global random streams disturbed before every decision gives byte-identical states."""
    actions, states = record_game(config, seed=21, policy_seed=5)
    perturb(0)
    g = Game(config, seed=21)
    assert g.state.to_bytes() == states[0]
    for i, a in enumerate(actions):
        perturb(i + 1)
        g.apply_action(a)
        assert g.state.to_bytes() == states[i + 1], f"decision {i} differs"
    assert g.is_over()


_HASH_SEED_DIGEST = """
import hashlib, sys
from agents import make_agent
from aoi_env.core.engine import Game
from tests.test_reliability import DETERMINISM_GAMES, record_game
h = hashlib.sha256()
for config in DETERMINISM_GAMES:
    actions, states = record_game(config, seed=4, policy_seed=9)
    h.update(repr(actions).encode() + states[-1])
g = Game("aoi(players=2)", seed=3)
agents = [make_agent("heuristic", seed=i) for i in range(2)]
while not g.is_over():
    g.apply_action(agents[g.current_seat()].choose(g))
h.update(g.state.to_bytes())
print(h.hexdigest(), hash("aoi"))
"""


def test_issue9_same_seed_same_game_in_another_process_whatever_its_string_hash_seed() -> None:
    """Issue 9 item 3: a record made in one process replays in another.  Python salts the hash
    of a string per process (``PYTHONHASHSEED``), so a set or dict of strings iterated in an
    engine or agent decision would order differently there; two processes with different salts
    play the same random and heuristic games to the same bytes."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    digests = []
    for salt in ("1", "987654"):
        env = {**os.environ, "PYTHONHASHSEED": salt}
        out = subprocess.run(
            [sys.executable, "-c", _HASH_SEED_DIGEST], cwd=root, env=env, capture_output=True, text=True, check=True
        )
        digests.append(out.stdout.split())
    (first, salted_1), (second, salted_2) = digests
    assert salted_1 != salted_2  # the salt took effect: the same string hashes differently
    assert len(first) == 64 and first == second


def test_issue9_different_seeds_give_different_games() -> None:
    """The seed matters: two seeds give two different setups (so the test above is not vacuous)."""
    assert Game("aoi(players=3)", seed=1).state != Game("aoi(players=3)", seed=2).state


@pytest.mark.parametrize("config", DETERMINISM_GAMES)
def test_issue9_save_and_load_at_every_decision_continues_identically(config: str) -> None:
    """Issue 9 item 3: at every decision, ``Game(config, state=State.from_bytes(...))`` rebuilt from
    the game string and the bytes (or JSON) offers the same moves and, given the same move, reaches
    the same next state; so a saved game continues identically from any decision."""
    actions, states = record_game(config, seed=8, policy_seed=3)
    cfg = GameConfig.parse(config)
    g = Game(cfg, seed=8)
    for i, a in enumerate(actions):
        saved = g.state.to_json() if i % 2 else g.state.to_bytes()
        loaded = State.from_json(saved) if i % 2 else State.from_bytes(saved)
        rebuilt = Game(GameConfig.parse(str(cfg)), state=loaded)
        assert rebuilt.legal_actions() == g.legal_actions()
        assert rebuilt.current_seat() == g.current_seat()
        rebuilt.apply_action(a)
        g.apply_action(a)
        assert rebuilt.state.to_bytes() == g.state.to_bytes() == states[i + 1], f"decision {i}"


@settings(FUZZ, max_examples=8)
@given(config=st.sampled_from(DETERMINISM_GAMES), seed=st.integers(0, 10**6), cut=st.floats(0, 1))
def test_issue9_a_game_saved_anywhere_plays_out_to_the_same_end(config: str, seed: int, cut: float) -> None:
    """Issue 9 item 3: save at a random decision, load in a new Game, play the remaining moves:
    the final state is byte-identical to the uninterrupted game's."""
    actions, states = record_game(config, seed, policy_seed=seed + 1)
    k = int(cut * len(actions))
    g = Game(config, seed=seed)
    for a in actions[:k]:
        g.apply_action(a)
    rebuilt = Game(config, state=State.from_bytes(g.state.to_bytes()))
    del g
    for a in actions[k:]:
        rebuilt.apply_action(a)
    assert rebuilt.is_over() and rebuilt.state.to_bytes() == states[-1]


def test_issue9_clone_is_independent_of_the_original() -> None:
    """Issue 9 item 3: a clone shares nothing mutable: moves on the clone (bridges included) leave
    the original's bytes, legal moves and adjacency unchanged, and vice versa."""
    g = Game("aoi(players=3)", seed=4)
    rng = np.random.default_rng(4)
    checked = 0
    while not g.is_over():
        if g.state.glob[G_DECISIONS] % 15 == 0:
            before, legal = g.state.to_bytes(), g.legal_actions()
            c = g.clone()
            crng = np.random.default_rng(checked)
            for _ in range(10):
                if c.is_over():
                    break
                c.apply_action(biased_random_action(c, crng))
            assert g.state.to_bytes() == before and g.legal_actions() == legal
            assert np.array_equal(g.adjacency(), g.geo.adjacency(g.state.built_bridges()))
            clone_bytes = c.state.to_bytes()
            g2 = g.clone()
            g2.apply_action(legal[0])
            assert c.state.to_bytes() == clone_bytes
            checked += 1
        g.apply_action(biased_random_action(g, rng))
    assert checked >= 10


def _env_trajectory(make: Callable[[], object], seed: int, disturb: int) -> list[tuple]:
    """Play the env with its own seeded action spaces (seed_test style), disturbing the global RNGs."""
    e = make()
    e.reset(seed=seed)
    for agent in e.possible_agents:
        e.action_space(agent).seed(seed)
    out = []
    for i, agent in enumerate(e.agent_iter(max_iter=3000)):
        perturb(disturb + i)
        obs, reward, term, trunc, _ = e.last()
        action = None if term or trunc else int(e.action_space(agent).sample(obs["action_mask"]))
        out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, term, action))
        e.step(action)
    return out


@pytest.mark.parametrize(
    "make", [lambda: aoi_env.env(num_players=3), lambda: raw_env(num_players=2)], ids=["env", "raw"]
)
def test_a15_reset_seed_reproduces_the_game_with_global_rngs_disturbed(make: Callable[[], object]) -> None:
    """A15 (seed_test, RLCard determinism style): two envs reset with the same seed and stepped
    with seeded action spaces give identical observations, masks and rewards, whatever the
    global random streams do in between."""
    first = _env_trajectory(make, seed=42, disturb=0)
    second = _env_trajectory(make, seed=42, disturb=10_000)
    assert len(first) > 100 and first == second


# ------------------------------------------------------------------------------------------------
# 4. errors: a ValueError naming the problem, and the state byte-equal afterwards


def rejected(g: Game, fn: Callable[[], object], message: str) -> None:
    before = g.state.to_bytes()
    legal = g.legal_actions()
    with pytest.raises(ValueError, match=message):
        fn()
    assert g.state.to_bytes() == before and g.legal_actions() == legal


def test_design8_illegal_id_is_rejected_naming_the_decision() -> None:
    """An id outside the legal set: the seat, the pending decision and the legal moves are named."""
    g = sound_position()
    illegal = next(a for a in range(NUM_ACTIONS) if a not in g.legal_actions())
    rejected(
        g, lambda: g.apply_action(illegal), rf"action {illegal} is not legal for seat 0 \(pending: main\); legal: "
    )


@pytest.mark.parametrize("action", [NUM_ACTIONS, -1, 10**9])
def test_design8_out_of_range_id_is_rejected(action: int) -> None:
    g = sound_position()
    rejected(g, lambda: g.apply_action(action), rf"action id {action} is out of range 0..{NUM_ACTIONS - 1}")


@pytest.mark.parametrize("action", [3.0, "5", None, True, np.float64(2), [1]], ids=repr)
def test_design8_non_integer_id_is_rejected(action: object) -> None:
    g = sound_position()
    rejected(g, lambda: g.apply_action(action), "action must be an integer id, got ")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"cannot parse '' at decision \d+ \(main\): unknown verb ''"),
        ("xyzzy r3c4", r"cannot parse 'xyzzy r3c4' at decision \d+ \(main\): unknown verb 'xyzzy'"),
        ("bonus B3", r"'bonus B3' is not legal at decision \d+ \(main\); legal: "),  # a pass-bonus move now
        (7, "a move must be a notation string, got 7"),
        (None, "a move must be a notation string, got None"),
    ],
)
def test_design8_malformed_notation_is_rejected(text: object, message: str) -> None:
    """docs/notation.md: a string that is no move of the pending decision names the known verbs."""
    g = sound_position()
    rejected(g, lambda: g.apply_move(text), message)


@pytest.mark.parametrize("text", ["upgrade university", "sail", "scholar banking 3", "target r3c4"])
def test_r58_legal_looking_move_that_is_illegal_now_is_rejected(text: str) -> None:
    """R58: a well-formed move that cannot be played now (seat 0 has 7 coins, 2 tools, no scholar:
    no University, no sailing, no scholar to send; "target" belongs to a later decision) is
    rejected with the list of legal moves."""
    g = sound_position()
    assert text not in g.legal_moves()
    rejected(g, lambda: g.apply_move(text), r"(is not legal at decision \d+ \(main\); legal: |unknown verb)")


def test_design8_describing_an_illegal_id_is_rejected() -> None:
    """move_str names only legal ids (a describe function assumes one)."""
    g = sound_position()
    illegal = next(a for a in range(NUM_ACTIONS) if a not in g.legal_actions())
    rejected(g, lambda: g.move_str(illegal), rf"action {illegal} is not legal now; legal: ")


def finished_game() -> Game:
    return play_random(Game("aoi(players=2)", seed=3), np.random.default_rng(3))


def test_r82_no_move_after_the_game_is_over() -> None:
    """R82: after final scoring every action, move and description is rejected."""
    g = finished_game()
    assert g.legal_actions() == [] and g.current_seat() == -1
    rejected(g, lambda: g.apply_action(0), "the game is over: no more actions")
    rejected(g, lambda: g.apply_move("pass"), "the game is over: cannot play 'pass'")
    rejected(g, lambda: g.move_str(0), "the game is over: no moves")


def env_at_turn() -> raw_env:
    e = raw_env(num_players=3)
    e.reset(options={"game": sound_position()})
    return e


def test_a19_raw_env_refuses_to_act_for_an_agent_out_of_turn() -> None:
    """A19: only the agent whose decision is pending acts; stepping after ``agent_selection`` was
    set to another agent raises ValueError naming both, and nothing changes."""
    e = env_at_turn()
    assert e.agent_selection == "player_0"
    legal = e.game.legal_actions()[0]
    before = e.game.state.to_bytes()
    e.agent_selection = "player_1"
    with pytest.raises(ValueError, match=r"player_1 cannot act now: the pending decision \(main\) is player_0's"):
        e.step(legal)
    assert e.game.state.to_bytes() == before and e.rewards == dict.fromkeys(e.agents, 0.0)
    e.agent_selection = "player_0"
    e.step(legal)  # the right agent may


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (2.7, "player_0: action must be an integer id, got 2.7"),
        ("131", "player_0: action must be an integer id, got '131'"),
        (np.array(NUM_ACTIONS), f"player_0: action id {NUM_ACTIONS} is out of range"),
        (np.float32(131), "player_0: action must be an integer id"),
    ],
    ids=["float", "str", "array_out_of_range", "np_float"],
)
def test_design8_raw_env_rejects_non_integer_ids_instead_of_truncating(action: object, message: str) -> None:
    """DESIGN §8: raw_env does not round 2.7 to 2 or read '131' as 131: it raises ValueError."""
    e = env_at_turn()
    before = e.game.state.to_bytes()
    with pytest.raises(ValueError, match=re.escape(message)):
        e.step(action)
    assert e.game.state.to_bytes() == before and e.agent_selection == "player_0"


def test_a7_raw_env_step_after_the_end() -> None:
    """A7: after the game each agent takes one step(None); an action there, or any step once
    every agent is done, raises ValueError; before reset() the env says to call reset()."""
    e = raw_env(num_players=2)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before using the environment"):
        e.step(0)
    e.reset(options={"game": Game("aoi(players=2)", seed=3)})
    rng = np.random.default_rng(3)
    while not e.game.is_over():
        e.step(random_action(e.game, rng))
    final = e.game.state.to_bytes()
    with pytest.raises(ValueError, match="when an agent is dead, the only valid action is None"):
        e.step(5)
    e.step(None)
    e.step(None)
    assert e.agents == []
    with pytest.raises(ValueError, match=r"every agent has taken its final step: call reset\(\)"):
        e.step(None)
    assert e.game.state.to_bytes() == final


@pytest.mark.filterwarnings("ignore:.*[Ii]llegal move", "ignore:.*step.*terminated")
def test_style13_wrapped_env_out_of_turn_and_out_of_range() -> None:
    """STYLE §5.13: env() keeps PettingZoo's documented behaviour: an out-of-range id fails the
    AssertOutOfBoundsWrapper; an agent acting out of turn has an all-zero mask, so its move is
    illegal and ends the game with -1 for it, 0 for the others; later steps only warn."""
    e = aoi_env.env(num_players=3)
    e.reset(options={"game": sound_position()})
    before = e.unwrapped.game.state.to_bytes()
    with pytest.raises(AssertionError, match="action is not in action space"):
        e.step(NUM_ACTIONS)
    with pytest.raises(AssertionError, match="action is not in action space"):
        e.step("5")
    assert e.unwrapped.game.state.to_bytes() == before
    e.unwrapped.agent_selection = "player_2"
    e.step(e.unwrapped.game.legal_actions()[0])
    assert e.unwrapped.game.state.to_bytes() == before  # the engine never saw the move
    assert e.unwrapped._cumulative_rewards == {"player_0": 0, "player_1": 0, "player_2": -1}
    assert all(e.terminations.values())


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Game("aoi(players=6)"), "players must be 2..5, got 6"),
        (lambda: Game("aoi(players=3,ruleset=v3)"), "ruleset must be one of v1.2, v1.0; got 'v3'"),
        (lambda: Game("aoi(players=3"), "bad game string"),
        (lambda: Game("aoi(players=1,automa=gognomes:3)"), "Automa faction 'gognomes' is not supported"),
        (lambda: Game("aoi(players=1,automa=druids:9)"), "Automa level must be 1..5, got '9'"),
        (lambda: Game("aoi(players=3,automa=druids:2)"), "an Automa game has 1-2 players and 1-2 Automas"),
        (lambda: Game("aoi(players=2,skip_forced=maybe)"), "skip_forced must be true or false, got 'maybe'"),
        (lambda: raw_env(num_players=3, check_invariants="yes"), "check_invariants must be True or False, got 'yes'"),
        (lambda: raw_env(num_players=3, invariants=True), "unknown parameter 'invariants'; valid: num_players"),
        (lambda: aoi_env.env(num_players=2, map="3-5"), "a 2-player game uses the 1-3 board side"),
    ],
    ids=[
        "players",
        "ruleset",
        "string",
        "automa_faction",
        "automa_level",
        "automa_players",
        "bool",
        "check_option",
        "unknown_option",
        "map",
    ],  # fmt: skip
)
def test_design8_bad_config_or_env_option_names_the_problem(make: Callable[[], object], message: str) -> None:
    """DESIGN §8: an impossible configuration or env option raises ValueError saying what is wrong."""
    with pytest.raises(ValueError, match=re.escape(message)):
        make()


# ------------------------------------------------------------------------------------------------
# the env's debug option


def test_issue9_check_invariants_option_checks_every_step() -> None:
    """``raw_env(check_invariants=True)`` plays normally while the state is sound and raises
    AssertionError listing every violation after the first step that breaks one."""
    e = raw_env(num_players=3, check_invariants=True)
    e.reset(options={"game": sound_position()})
    e.step(e.game.legal_actions()[0])
    e.game.state.players[1, P_COINS] = -5  # a corruption a buggy rule could cause
    e.game.state.players[2, P_VP] = -1
    with pytest.raises(AssertionError, match=r"seat 1: coins is negative \(-5\); seat 2: VP is negative \(-1\)"):
        e.step(e.game.legal_actions()[0])
    e = raw_env(num_players=2, check_invariants=True)
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    while not e.game.is_over():
        e.step(random_action(e.game, rng))
    assert all(e.terminations.values())


def test_style12_card_documents_check_invariants() -> None:
    """STYLE §5.12: the option is in the card's Parameters table (docs/environment.md is the card)."""
    from aoi_env.env import card

    assert "| `check_invariants` | `False` | debug: run `aoi_env.core.invariants.check`" in card()


# ------------------------------------------------------------------------------------------------
# 5. the long-run fuzz command (aoi fuzz / python -m aoi_env.fuzz)


def test_issue9_fuzz_command_plays_games_and_writes_a_summary(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    """``aoi fuzz`` plays the requested games on the given workers and reports games, decisions,
    wall time and games/s; the configurations depend only on the seed and the game index."""
    import json

    from aoi_env.cli import main
    from aoi_env.fuzz import make_tasks

    out = tmp_path / "fuzz.json"
    code = main(["fuzz", "--games", "6", "--workers", "2", "--seed", "3", "--oracle-every", "5", "--no-progress",
                 "--json", str(out)])  # fmt: skip
    printed = capsys.readouterr().out
    assert code == 0
    assert re.search(r"^6 games \(2 with the oracle\), \d+ decisions .* 0 failed; .* games/s \(seed 3\)", printed)
    assert "no failures" in printed
    summary = json.loads(out.read_text())
    assert summary["games"] == 6 and summary["failures"] == 0 and summary["workers"] == 2
    assert set(summary["reached_per_game"]) == {"palaces", "cities", "innovations", "bridges", "competencies",
                                                "science tops"}  # fmt: skip
    assert "reached per finished game (player seats): " in printed
    assert sum(summary["families"].values()) == 6
    first = [(t.config, t.seed, t.policy) for t in make_tasks(6, seed=3)]
    assert first == [(t.config, t.seed, t.policy) for t in make_tasks(6, seed=3)]  # reproducible
    assert first[3:] == [(t.config, t.seed, t.policy) for t in make_tasks(3, seed=3, start=3)]


def test_issue9_fuzz_reports_a_failure_with_its_reproduction(capsys: pytest.CaptureFixture[str]) -> None:
    """A failing game is listed with its configuration, seed and the command that replays it;
    the exit status is 1.  (A decision cap of 5 makes every game fail.)"""
    from aoi_env.fuzz import format_summary, run_fuzz

    summary = run_fuzz(3, workers=1, seed=1, oracle_every=0, progress=False, max_decisions=5)
    assert summary["failures"] == 3
    (group,) = summary["failure_groups"]
    assert group["signature"] == "GameFailure: no end after # decisions" and group["count"] == 3
    example = group["examples"][0]
    assert example["repro"] == (
        f"python -m aoi_env.fuzz --repro '{example['config']}' --seed {example['seed']} --policy {example['policy']}"
        " --max-decisions 5"  # the cap that made it fail
    )
    text = format_summary(summary)
    assert "FAILED x3: GameFailure: no end after # decisions" in text and "reproduce: python -m aoi_env.fuzz" in text
    counts = [ex["decisions"] for ex in group["examples"]]  # a failed game's decisions count too,
    assert min(counts) >= 5 and summary["decisions"] == sum(counts)  # in the cap's unit (G_DECISIONS)
    assert all(f"no end after {n} decisions" in ex["error"] for n, ex in zip(counts, group["examples"], strict=True))


def test_issue9_fuzz_a_failure_only_the_oracle_sees_is_reproduced_with_the_oracle(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An oracle game's failure (here: a notation string that parses back to another id) is
    printed with ``--oracle``; that command fails again, the same command without it does not."""
    from aoi_env.core.engine import Game
    from aoi_env.fuzz import main, run_fuzz

    parse = Game.parse_move
    monkeypatch.setattr(Game, "parse_move", lambda self, text: -1 if text == "done" else parse(self, text))
    summary = run_fuzz(2, workers=1, seed=1, oracle_every=1, progress=False)
    example = summary["failure_groups"][0]["examples"][0]
    assert example["oracle"] and example["repro"].endswith(" --oracle")
    command = example["repro"].split("python -m aoi_env.fuzz ")[1]
    args = ["--repro", example["config"], "--seed", str(example["seed"]), "--policy", example["policy"]]
    assert command == f"--repro '{example['config']}' --seed {example['seed']} --policy {example['policy']} --oracle"
    assert main([*args, "--oracle"]) == 1
    assert main(args) == 0
    capsys.readouterr()


def test_issue9_fuzz_repro_checks_the_decision_cap(capsys: pytest.CaptureFixture[str]) -> None:
    """``--repro`` with ``--max-decisions 0`` is a usage error (exit 2), not a game that failed."""
    from aoi_env.fuzz import main

    assert main(["--repro", "aoi(players=2)", "--seed", "1", "--max-decisions", "0"]) == 2
    assert "--max-decisions must be >= 1, got 0" in capsys.readouterr().err


def test_issue9_fuzz_repro_replays_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    """``--repro CONFIG --seed S --policy P`` replays the game of check_random_game(CONFIG, S)."""
    from aoi_env.fuzz import main

    assert main(["--repro", "aoi(players=2)", "--seed", "4", "--policy", "uniform"]) == 0
    g = check_random_game("aoi(players=2)", 4, policy="uniform")
    assert f"aoi(players=2) seed 4 uniform: no failure; final VP {g.scores().tolist()}" in capsys.readouterr().out


def test_issue9_fuzz_heuristic_policy_plays_the_same_configurations_with_the_heuristic(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--policy heuristic`` plays every game with the heuristic player (15% random moves): the
    same configurations and seeds as the default run, no failure, the policy in the summary."""
    from aoi_env.fuzz import format_summary, make_tasks, run_fuzz

    default = [(t.config, t.seed) for t in make_tasks(2, seed=11)]
    tasks = list(make_tasks(2, seed=11, policy="heuristic"))
    assert [(t.config, t.seed) for t in tasks] == default and {t.policy for t in tasks} == {"heuristic"}
    summary = run_fuzz(2, workers=1, seed=11, oracle_every=0, progress=False, policy="heuristic")
    assert summary["failures"] == 0 and summary["policies"] == {"heuristic": 2} and summary["decisions"] > 200
    assert "policies: heuristic 2" in format_summary(summary)
    uniform = run_fuzz(2, workers=1, seed=11, oracle_every=0, progress=False, policy="uniform")
    deep, shallow = summary["reached_per_game"], uniform["reached_per_game"]
    assert deep["cities"] > shallow["cities"] and deep["competencies"] > shallow["competencies"]
    with pytest.raises(ValueError, match="unknown fuzz policy 'smart'; valid: biased, uniform, heuristic"):
        list(make_tasks(1, policy="smart"))


def test_issue9_fuzz_summary_counts_what_the_player_seats_reached() -> None:
    """``fuzz.reached``: palaces (R68), city tiles (R45), innovations (R73), bridges (R40),
    competencies and science tracks at level 12 (R47, R52) of the player seats only (not an
    Automa's row), averaged over the finished games in the summary."""
    from aoi_env.core.state import P_BRIDGES, P_CITIES, P_COMPETENCIES, P_INNOVATIONS, P_PALACE_TILE, P_SCIENCE
    from aoi_env.fuzz import REACHED, format_summary, reached, run_fuzz

    g = Game("aoi(players=1,automa=simpletons:2)", seed=3)
    p = g.state.players
    p[:, P_PALACE_TILE], p[:, P_CITIES], p[:, P_BRIDGES], p[:, P_INNOVATIONS], p[:, P_SCIENCE] = -1, 0, 0, -1, 0
    p[:, P_COMPETENCIES] = 0
    assert reached(g) == dict.fromkeys(REACHED, 0)
    p[:, P_PALACE_TILE], p[:, P_CITIES], p[:, P_BRIDGES], p[:, P_COMPETENCIES] = 4, 2, 1, 0b1010_0001
    p[:, P_INNOVATIONS] = (7, 2, -1)
    p[:, P_SCIENCE] = (12, 11, 12, 0)
    counts = (1, 2, 2, 1, 3, 2)  # seat 0 only: seat 1 is the Automa
    assert reached(g) == dict(zip(REACHED, counts, strict=True))
    summary = run_fuzz(2, workers=1, seed=5, oracle_every=0, progress=False, max_decisions=5)  # both fail
    assert summary["reached_per_game"] == dict.fromkeys(REACHED, 0.0)
    assert "reached per finished game (player seats): 0 palaces, 0 cities" in format_summary(summary)


def test_issue9_fuzz_heuristic_mover_is_the_heuristic_player_of_each_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without its random share, a heuristic fuzz game is the game of one ``HeuristicAgent(seed=seed
    + seat)`` per seat, move for move; with it, the same seed gives the same game again."""
    import aoi_env.testing as testing
    from agents.heuristic import HeuristicAgent

    config, seed = "aoi(players=2,map=1-3)", 6
    g = Game(config, seed=seed)
    agents = [HeuristicAgent(seed=seed + seat) for seat in range(2)]
    while not g.is_over():
        g.apply_action(agents[g.current_seat()].choose(g))
    with monkeypatch.context() as m:
        m.setattr(testing, "HEURISTIC_RANDOM_SHARE", 0.0)
        assert check_random_game(config, seed, policy="heuristic").state == g.state
    first = check_random_game(config, seed, policy="heuristic")
    assert check_random_game(config, seed, policy="heuristic").state == first.state != g.state
    with pytest.raises(ValueError, match="unknown fuzz policy 'greedy'"):
        testing.fuzz_mover("greedy", 0)


def test_issue9_fuzz_repro_replays_a_heuristic_game(capsys: pytest.CaptureFixture[str]) -> None:
    """``--repro ... --policy heuristic`` replays check_random_game(..., policy="heuristic"); the
    CLI offers exactly the policies ``fuzz_mover`` knows."""
    from aoi_env.fuzz import main
    from aoi_env.testing import FUZZ_POLICIES

    assert main(["--repro", "aoi(players=2)", "--seed", "8", "--policy", "heuristic"]) == 0
    g = check_random_game("aoi(players=2)", 8, policy="heuristic")
    assert f"aoi(players=2) seed 8 heuristic: no failure; final VP {g.scores().tolist()}" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--games", "1", "--policy", "bogus"])
    choices = capsys.readouterr().err.split("choose from", 1)[1]
    assert re.findall(r"[a-z]+", choices) == list(FUZZ_POLICIES)


def test_issue9_fuzz_configurations_cover_every_family() -> None:
    """The sampler draws valid configurations of every family: 2-5 players (standard, draft,
    fixed factions x boards) and the three Automa seat mixes."""
    from aoi_env.fuzz import family_of, make_tasks

    families = {family_of(t.config) for t in make_tasks(400, seed=0)}
    for p in (2, 3, 4, 5):
        assert {f"standard {p}p", f"draft {p}p", f"fixed {p}p"} <= families
    assert {"automa 1+1", "automa 2+1", "automa 1+2"} <= families
