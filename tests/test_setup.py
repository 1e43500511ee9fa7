"""Setup rules R5-R25 (aoi_env/core/setup.py): random draws, distribution, player setup, placement.

Setup happens before any position a ``Scenario`` could build, so these tests start real games
(``Game(game string, seed)``) with ``skip_forced=false`` and play every setup decision as notation
(``set lake``, ``draft moles``, ``bonus B4``, ``start tower``, ``place r2c5``, ``spade r0c6``).
Fixed ``factions``/``boards`` make the starting values independent of the seed.

Seat numbers go clockwise; the start player is drawn at random (R15.3), so expected orders are
computed from ``glob[G_START_PLAYER]``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from aoi_env.core import setup
from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_AREA_TOKEN,
    G_BONUS_COINS,
    G_BONUS_STATE,
    G_BOOK_ACTIONS,
    G_BUNDLE_BONUS,
    G_BUNDLE_FACTION,
    G_CITY_LEFT,
    G_COMP_LEFT,
    G_COMP_SPACES,
    G_DRAFT_BOARDS,
    G_DRAFT_FACTIONS,
    G_DRAFT_PALACES,
    G_FINAL_TILE,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEUTRAL_LEFT,
    G_NEUTRAL_SCIENCE,
    G_ORDER,
    G_PALACE_STATE,
    G_PHASE,
    G_ROUND,
    G_ROUND_TILES,
    G_SCHOLAR_SPACES,
    G_START_PLAYER,
    H_BUILDING,
    H_NEUTRAL,
    H_OWNER,
    H_TERRAIN,
    NEUTRAL_SEAT,
    P_BOARD,
    P_BONUS,
    P_BOOKS,
    P_BOWLS,
    P_BUILT,
    P_COINS,
    P_COMPETENCIES,
    P_DRAFT_PALACE,
    P_FACTION,
    P_NEUTRAL_BUILT,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data import load
from aoi_env.data.enums import Building, Faction, Terrain

DATA = load()
DISC = ("banking", "law", "engineering", "medicine")
SETUP_KINDS = {Kind.PICK_BUNDLE, Kind.DRAFT_PICK, Kind.PICK_BONUS, Kind.INITIAL_KIND, Kind.INITIAL_PLACE}
SPADE_TILE = DATA.round_tile_ids.index("T2")
PALACE_17 = 16  # palace tile no. 17 has id 16


@dataclass
class Step:
    seat: int
    kind: Kind
    moves: list[str]
    played: str


Chooser = Callable[[Game], str]


def first(g: Game) -> str:
    return g.legal_moves()[0]


def prefer(*wanted: str) -> Chooser:
    """Play the first of ``wanted`` that is legal, else the first legal move."""

    def choose(g: Game) -> str:
        legal = g.legal_moves()
        return next((m for m in wanted if m in legal), legal[0])

    return choose


def run_setup(g: Game, choose: Chooser = first, until: Callable[[Game], bool] | None = None) -> list[Step]:
    """Play setup decisions until round 1 (or ``until``); return the log of decisions."""
    log: list[Step] = []
    while g.state.glob[G_ROUND] == 0 and not (until and until(g)):
        kind = g.pending_kind()
        assert kind is not None
        move = choose(g)
        log.append(Step(g.current_seat(), kind, g.legal_moves(), move))
        g.apply_move(move)
    return log


def placing(g: Game) -> bool:
    """True once the initial placement has begun (all player setups are done)."""
    return g.pending_kind() in (Kind.INITIAL_PLACE, Kind.INITIAL_KIND)


def fixed(factions: str, boards: str, **extra: str) -> str:
    params = ",".join(f"{k}={v}" for k, v in extra.items())
    n = factions.count("+") + 1
    return f"aoi(players={n},factions={factions},boards={boards},skip_forced=false{',' + params if params else ''})"


def turn_order(g: Game) -> list[int]:
    """R17.9: round-1 order, clockwise from the start player."""
    start, n = int(g.state.glob[G_START_PLAYER]), g.seats
    return [(start + k) % n for k in range(n)]


def seat_of(g: Game, faction: str) -> int:
    return int(np.flatnonzero(g.state.players[:, P_FACTION] == Faction[faction.upper()])[0])


def hexes(g: Game, terrain: str) -> set[str]:
    t = Terrain[terrain.upper()]
    return {f"r{p // 13}c{p % 13}" for p in np.flatnonzero(g.state.hexes[:, H_TERRAIN] == t)}


# ------------------------------------------------------------------------------------------------
# R5 board side


@pytest.mark.parametrize("players, side, land", [(2, "1-3", 59), (3, "3-5", 81), (4, "3-5", 81), (5, "3-5", 81)])
def test_r5_board_side_by_player_count(players: int, side: str, land: int):
    """R5: 2 players use the 1-3 side, 3-5 players the 3-5 side."""
    g = Game(f"aoi(players={players})", seed=1)
    assert g.geo.name == side
    assert int(g.geo.land.sum()) == land
    assert np.array_equal(g.state.hexes[:, H_TERRAIN], g.geo.terrain)  # the printed terrain at start


def test_r5_three_players_may_use_the_1_3_side():
    """R5: with 3 players the 1-3 side is optional; initial Workshops then go on its hexes."""
    g = Game(fixed("felines+goblins+moles", "lake+forest+plains", map="1-3"), seed=2)
    run_setup(g, until=placing)
    assert g.geo.name == "1-3"
    seat = g.current_seat()
    native = DATA.boards[int(g.state.players[seat, P_BOARD])].terrain.name.lower()
    assert {m.split()[1] for m in g.legal_moves()} == hexes(g, native)
    assert len(hexes(g, "lake")) == 8 and len(hexes(g, "forest")) == 9  # 1-3 side counts (DATA 2.3)


# ------------------------------------------------------------------------------------------------
# R6-R8, R11-R14 random draws (checked over many seeds)

SEEDS = range(400)


@pytest.fixture(scope="module")
def many_games() -> list[Game]:
    return [Game("aoi(players=3)", seed=s) for s in SEEDS]


def _disc(tile: int) -> str:
    return DATA.round_tiles[tile]["science"]["discipline"]


def test_r6_six_different_round_tiles(many_games: list[Game]):
    """R6: one tile per round 1-6, all different."""
    for g in many_games:
        tiles = g.state.glob[G_ROUND_TILES].tolist()
        assert len(set(tiles)) == 6 and all(0 <= t < 12 for t in tiles)


def test_r6a_spade_tile_never_on_round_5_or_6(many_games: list[Game]):
    """R6(a): the spade tile T2 may not end up on round 5 or 6 (it still appears in rounds 1-4)."""
    rounds = Counter()
    for g in many_games:
        tiles = g.state.glob[G_ROUND_TILES].tolist()
        if SPADE_TILE in tiles:
            rounds[tiles.index(SPADE_TILE) + 1] += 1
    assert rounds[5] == 0 and rounds[6] == 0
    assert all(rounds[r] > 0 for r in (1, 2, 3, 4))  # not simply left out


def test_r6b_rounds_1_to_5_never_hold_all_3_tiles_of_a_discipline(many_games: list[Game]):
    """R6(b): every discipline is on 3 tiles; rounds 1-5 may never hold all 3 of them."""
    two_seen = 0
    for g in many_games:
        tiles = g.state.glob[G_ROUND_TILES].tolist()
        counts = Counter(_disc(t) for t in tiles[:5])
        assert max(counts.values()) <= 2, [DATA.round_tile_ids[t] for t in tiles]
        two_seen += max(counts.values()) == 2
        # all three in the game is possible only with one of them on round 6
        full = Counter(_disc(t) for t in tiles)
        for disc, n in full.items():
            if n == 3:
                assert _disc(tiles[5]) == disc
    assert two_seen > 0  # two tiles of one discipline in rounds 1-5 are allowed


def test_r7_op27_final_tile_never_shows_the_round_6_building_type(many_games: list[Game]):
    """R7 / OP-27: redraw if the final tile shows the round-6 tile's building type: F1 and F4
    (Workshop) conflict with T1/T3, F2 (Guild) with T5/T7, F3 (School) with T9."""
    conflict = {"T1": {"F1", "F4"}, "T3": {"F1", "F4"}, "T5": {"F2"}, "T7": {"F2"}, "T9": {"F3"}}
    finals = Counter()
    for g in many_games:
        round6 = DATA.round_tile_ids[int(g.state.glob[G_ROUND_TILES][5])]
        final = DATA.final_tile_ids[int(g.state.glob[G_FINAL_TILE])]
        assert final not in conflict.get(round6, set()), (round6, final)
        finals[final] += 1
    assert set(finals) == {"F1", "F2", "F3", "F4"}


def test_r8_three_different_book_actions(many_games: list[Game]):
    """R8: 3 of the 6 book actions are drawn."""
    seen = Counter()
    for g in many_games:
        books = g.state.glob[G_BOOK_ACTIONS].tolist()
        assert len(set(books)) == 3 and all(0 <= b < 6 for b in books)
        seen.update(books)
    assert set(seen) == set(range(6))


def test_r11_competency_display_12_types_on_12_spaces_4_copies(many_games: list[Game]):
    """R11: one tile of each of the 12 types on the 12 spaces (4 columns x 3 rows), 12 stacks of 4."""
    for g in many_games[:50]:
        assert sorted(g.state.glob[G_COMP_SPACES].tolist()) == list(range(12))
        assert g.state.glob[G_COMP_LEFT].tolist() == [4] * 12
    spaces = {tuple(g.state.glob[G_COMP_SPACES].tolist()) for g in many_games[:50]}
    assert len(spaces) > 1  # shuffled


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r10_r12_r20_innovation_display_has_2p_plus_2_different_tiles(players: int):
    """R10 (base + 1 extension for 2-3 players, + 2 for 4-5) / R12 / R20 / OP-7: every one of the
    2P + 2 spaces gets a different tile; the rest leave the game."""
    for seed in range(20):
        g = Game(f"aoi(players={players})", seed=seed)
        spaces = g.state.glob[G_INNOV_SPACES]
        used = spaces[spaces >= 0].tolist()
        assert len(used) == 2 * players + 2  # 6 / 8 / 10 / 12
        assert len(set(used)) == len(used)
        assert (spaces[len(used) :] == -1).all()
        owner = g.state.glob[G_INNOV_OWNER]
        assert sorted(np.flatnonzero(owner == -1).tolist()) == sorted(used)
        assert int((owner == -2).sum()) == 18 - len(used)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r14_palace_17_plus_p_plus_1_tiles_in_standard_setup(players: int):
    """R14: palace tile no. 17 plus P + 1 of the other 16 are available (P + 2 in all)."""
    for seed in range(20):
        g = Game(f"aoi(players={players})", seed=seed)
        state = g.state.glob[G_PALACE_STATE]
        available = np.flatnonzero(state == -1).tolist()
        assert PALACE_17 in available
        assert len(available) == players + 2
        assert int((state == -2).sum()) == 17 - (players + 2)


def test_r13_op24_general_supply():
    """R13 / R1 / OP-24: 21 city tiles (3 of each type; not "bridge tokens") and the neutral
    buildings next to the board."""
    g = Game("aoi(players=3)", seed=0)
    assert g.state.glob[G_CITY_LEFT].tolist() == [3] * 7
    left = g.state.glob[G_NEUTRAL_LEFT]
    assert left[Building.TOWER] == 5 and left[Building.MONUMENT] == 1
    for b in (Building.WORKSHOP, Building.GUILD, Building.SCHOOL, Building.UNIVERSITY, Building.PALACE):
        assert left[b] == 1


# ------------------------------------------------------------------------------------------------
# R15 standard distribution


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r15_1_2_seven_sets_and_three_display_bonus_tiles_with_a_coin(players: int):
    """R15.1-2: 7 sets of planning card + random bonus tile + random faction; the 3 other bonus
    tiles lie next to the board with 1 coin each."""
    g = Game(f"aoi(players={players})", seed=7)
    glob = g.state.glob
    factions = glob[G_BUNDLE_FACTION].tolist()
    bonuses = glob[G_BUNDLE_BONUS].tolist()
    assert len(set(factions)) == 7 and all(0 <= f < 12 for f in factions)
    assert len(set(bonuses)) == 7
    display = np.flatnonzero(glob[G_BONUS_STATE] == -1).tolist()
    assert sorted(display + bonuses) == list(range(10))  # 7 in sets + 3 on display = all 10
    assert glob[G_BONUS_COINS][display].tolist() == [1, 1, 1]
    assert g.pending_kind() == Kind.PICK_BUNDLE
    assert g.legal_moves() == [f"set {t.name.lower()}" for t in Terrain if t < Terrain.RIVER]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r15_4_sets_are_chosen_counter_clockwise_from_the_right_of_the_start_player(players: int):
    """R15.4: the player right of the start player chooses first, then counter-clockwise; the
    start player chooses last."""
    for seed in range(6):
        g = Game(f"aoi(players={players},skip_forced=false)", seed=seed)
        log = run_setup(g, until=placing)
        start = int(g.state.glob[G_START_PLAYER])
        picks = [s.seat for s in log if s.kind == Kind.PICK_BUNDLE]
        assert picks == [(start - k) % players for k in range(1, players + 1)]
        assert picks[-1] == start
        # each chooser sees one set fewer
        assert [len(s.moves) for s in log if s.kind == Kind.PICK_BUNDLE] == list(range(7, 7 - players, -1))


def test_r15_5_a_set_gives_its_faction_planning_board_and_bonus_tile():
    """R15.5: the player takes the set's faction, the planning board of its card and its bonus tile."""
    g = Game("aoi(players=3,skip_forced=false)", seed=4)
    seat = g.current_seat()
    lake = Terrain.LAKE
    faction = int(g.state.glob[G_BUNDLE_FACTION][lake])
    bonus = int(g.state.glob[G_BUNDLE_BONUS][lake])
    g.apply_move("set lake")
    p = g.state.players[seat]
    assert (int(p[P_FACTION]), int(p[P_BOARD]), int(p[P_BONUS])) == (faction, lake, bonus)
    assert int(g.state.glob[G_BONUS_STATE][bonus]) == seat
    assert int(p[P_COINS]) == 0  # a set's bonus tile carries no coin; starting coins come in R17
    assert "set lake" not in g.legal_moves()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r15_6_p_plus_3_bonus_tiles_stay_in_play(players: int):
    """R15.6: unchosen sets go back to the box with their bonus tiles: P held + 3 on display."""
    g = Game(f"aoi(players={players},skip_forced=false)", seed=3)
    sets = g.state.glob[G_BUNDLE_BONUS].copy()
    run_setup(g, until=placing)
    state = g.state.glob[G_BONUS_STATE]
    held = sorted(int(g.state.players[s, P_BONUS]) for s in range(players))
    assert sorted(np.flatnonzero(state >= 0).tolist()) == held
    assert int((state == -1).sum()) == 3
    assert int((state == -2).sum()) == 7 - players
    chosen = {int(g.state.players[s, P_BOARD]) for s in range(players)}
    for t in range(7):
        if t not in chosen:
            assert state[sets[t]] == -2  # the unchosen set's bonus tile left the game
    display = np.flatnonzero(state == -1)
    assert g.state.glob[G_BONUS_COINS][display].tolist() == [1, 1, 1]


# ------------------------------------------------------------------------------------------------
# R16 draft variant


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r16_1_4_draft_pools(players: int):
    """R16.1-4: 6 planning cards, P + 1 factions, P + 1 palace tiles without no. 17, P + 3 bonus tiles."""
    g = Game(f"aoi(players={players},distribution=draft)", seed=5)
    glob = g.state.glob
    boards = glob[G_DRAFT_BOARDS].tolist()
    assert len(set(boards)) == 6 and all(0 <= b < 7 for b in boards)
    factions = [f for f in glob[G_DRAFT_FACTIONS].tolist() if f >= 0]
    assert len(set(factions)) == players + 1
    palaces = [t for t in glob[G_DRAFT_PALACES].tolist() if t >= 0]
    assert len(set(palaces)) == players + 1 and PALACE_17 not in palaces
    assert int((glob[G_BONUS_STATE] == -1).sum()) == players + 3
    assert (glob[G_PALACE_STATE] == -2).all()  # no palace display in the draft (R16 replaces R14)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_r16_7_three_clockwise_rounds_one_new_component_type_per_pick(players: int):
    """R16.7: from the start player clockwise, three times around; each pick is a type the player
    does not have yet, so everyone ends with one planning card, one faction and one palace tile."""
    g = Game(f"aoi(players={players},distribution=draft,skip_forced=false)", seed=8)
    pools = (g.state.glob[G_DRAFT_BOARDS].copy(), g.state.glob[G_DRAFT_FACTIONS].copy(),
             g.state.glob[G_DRAFT_PALACES].copy())  # fmt: skip
    log = run_setup(g, until=placing)
    picks = [s for s in log if s.kind == Kind.DRAFT_PICK]
    assert [s.seat for s in picks] == turn_order(g) * 3
    had: dict[int, set[str]] = {s: set() for s in range(players)}
    for s in picks:
        kinds = {"palace" if m.startswith("draft palace") else _draft_type(m) for m in s.moves}
        assert not kinds & had[s.seat]  # no type the player already has is offered
        had[s.seat].add("palace" if s.played.startswith("draft palace") else _draft_type(s.played))
    for seat in range(players):
        p = g.state.players[seat]
        assert int(p[P_BOARD]) in pools[0].tolist()
        assert int(p[P_FACTION]) in pools[1].tolist()
        assert int(p[P_DRAFT_PALACE]) in pools[2].tolist()
        assert int(g.state.glob[G_PALACE_STATE][int(p[P_DRAFT_PALACE])]) == seat


def _draft_type(move: str) -> str:
    name = move.split()[1]
    return "board" if name in {t.name.lower() for t in Terrain} else "faction"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r16_8_bonus_tiles_counter_clockwise_and_three_left_with_a_coin(players: int):
    """R16.8: bonus tiles are taken counter-clockwise starting right of the start player; the 3
    left lie next to the board with 1 coin each."""
    g = Game(f"aoi(players={players},distribution=draft,skip_forced=false)", seed=9)
    log = run_setup(g, until=placing)
    start = int(g.state.glob[G_START_PLAYER])
    bonus = [s for s in log if s.kind == Kind.PICK_BONUS]
    assert [s.seat for s in bonus] == [(start - k) % players for k in range(1, players + 1)]
    assert [len(s.moves) for s in bonus] == list(range(players + 3, 3, -1))
    display = np.flatnonzero(g.state.glob[G_BONUS_STATE] == -1)
    assert len(display) == 3
    assert g.state.glob[G_BONUS_COINS][display].tolist() == [1, 1, 1]
    for seat in range(players):
        b = int(g.state.players[seat, P_BONUS])
        assert b >= 0 and int(g.state.glob[G_BONUS_STATE][b]) == seat


# ------------------------------------------------------------------------------------------------
# R17-R19 player setup


def test_r17_r18_op4_every_player_starts_with_15_coins_3_tools_20_vp():
    """R18 / OP-4 (the numbers from the board images): 15 coins and 3 tools, no scholars or
    books; R17.8: 20 VP; R17.5: 7 scholars in supply."""
    g = Game(fixed("felines+inventors+moles", "plains+mountain+lake"), seed=1)
    run_setup(g, until=placing)
    for seat in range(3):
        p = g.state.players[seat]
        assert (int(p[P_COINS]), int(p[P_TOOLS]), int(p[P_VP])) == (15, 3, 20)
        assert int(p[P_SCHOLARS]) == 0 and int(p[P_SCHOLAR_SUPPLY]) == 7
        assert p[P_BOOKS].tolist() == [0, 0, 0, 0]
        assert int(g.state.glob[G_PHASE]) == Phase.SETUP


def test_r17_4_bowls_as_printed_on_each_board():
    """R17.4: bowls I/II/III = 5/7/0, Forest 4/8/0, Swamp 3/9/0 (factions without a threshold)."""
    g = Game(fixed("felines+inventors+goblins", "forest+swamp+desert"), seed=1)
    run_setup(g, until=placing)
    # Felines on Forest: banking 1+1, law 1, engineering 1, medicine 1+1: no level 3, no power
    assert g.state.players[seat_of(g, "felines"), P_BOWLS].tolist() == [4, 8, 0]
    assert g.state.players[seat_of(g, "inventors"), P_BOWLS].tolist() == [3, 9, 0]
    assert g.state.players[seat_of(g, "goblins"), P_BOWLS].tolist() == [5, 7, 0]


def test_r17_3_sailing_starts_at_0_and_at_1_on_the_lake_board():
    """R17.3: the sailing marker starts at 0 (Lake board: 1)."""
    g = Game(fixed("felines+inventors+goblins", "lake+swamp+desert"), seed=1)
    run_setup(g, until=placing)
    assert int(g.state.players[seat_of(g, "felines"), P_SAILING]) == 1
    assert int(g.state.players[seat_of(g, "inventors"), P_SAILING]) == 0
    assert int(g.state.players[seat_of(g, "goblins"), P_SAILING]) == 0


@pytest.mark.parametrize(
    "factions, levels",
    [
        ("blessed+felines+goblins", [[1, 1, 1, 1], [1, 0, 0, 1], [1, 0, 1, 0]]),
        ("illusionists+inventors+moles", [[0, 0, 0, 2], [0, 0, 0, 0], [0, 0, 2, 0]]),
        ("monks+navigators+omar", [[0, 1, 0, 0], [0, 3, 0, 0], [1, 0, 1, 0]]),
        ("philosophers+psychics+felines", [[2, 0, 0, 0], [1, 0, 0, 1], [1, 0, 0, 1]]),
    ],
)
def test_r17_7_r19_starting_science_steps_per_faction(factions: str, levels: list[list[int]]):
    """R17.7 / R19: one step per discipline icon on the faction tile (banking/law/engineering/
    medicine) on a board without steps."""
    g = Game(fixed(factions, "plains+mountain+lake"), seed=1)
    run_setup(g, until=placing)
    for name, want in zip(factions.split("+"), levels, strict=True):
        assert g.state.players[seat_of(g, name), P_SCIENCE].tolist() == want, name


def test_r17_7_r49_navigators_law_3_gains_1_power_at_setup():
    """R17.7 / R49: thresholds pay during setup.  Navigators start at law 3: +1 power, one token
    from bowl I to II (5/7/0 -> 4/8/0).  On Forest: law 3 + 1 = 4, still only the level-3 power
    (4/8/0 -> 3/9/0); Blessed on Forest reach 2 everywhere: no power."""
    g = Game(fixed("navigators+blessed+felines", "plains+forest+lake"), seed=1)
    run_setup(g, until=placing)
    nav = g.state.players[seat_of(g, "navigators")]
    assert nav[P_SCIENCE].tolist() == [0, 3, 0, 0]
    assert nav[P_BOWLS].tolist() == [4, 8, 0]  # 5 - 1 = 4, 7 + 1 = 8
    blessed = g.state.players[seat_of(g, "blessed")]
    assert blessed[P_SCIENCE].tolist() == [2, 2, 2, 2]  # 1 (faction) + 1 (Forest) each
    assert blessed[P_BOWLS].tolist() == [4, 8, 0]

    g = Game(fixed("navigators+blessed+felines", "forest+plains+lake"), seed=1)
    run_setup(g, until=placing)
    nav = g.state.players[seat_of(g, "navigators")]
    assert nav[P_SCIENCE].tolist() == [1, 4, 1, 1]
    assert nav[P_BOWLS].tolist() == [3, 9, 0]  # 4 - 1 = 3, 8 + 1 = 9


def test_r19_op4_op26_wasteland_book_of_choice_and_4_tools():
    """R19: Wasteland: +1 book of the player's choice and +1 tool (4 tools in all).  OP-4: the
    numbers from the board image; OP-26: the red board with book + tool is the Wasteland."""
    g = Game(fixed("felines+inventors+moles", "wasteland+plains+lake"), seed=1)
    log = run_setup(g, prefer("book medicine"), until=placing)
    seat = seat_of(g, "felines")
    books = [s for s in log if s.kind == Kind.CHOOSE_BOOKS]
    assert [(s.seat, s.moves) for s in books] == [
        (seat, ["book banking", "book law", "book engineering", "book medicine"])
    ]
    p = g.state.players[seat]
    assert p[P_BOOKS].tolist() == [0, 0, 0, 1]
    assert int(p[P_TOOLS]) == 4  # 3 + 1
    assert int(p[P_COINS]) == 15


def test_r19_swamp_starts_with_a_scholar():
    """R19: Swamp: +1 scholar (taken from the personal supply of 7)."""
    g = Game(fixed("felines+inventors+moles", "swamp+plains+lake"), seed=1)
    run_setup(g, until=placing)
    p = g.state.players[seat_of(g, "felines")]
    assert (int(p[P_SCHOLARS]), int(p[P_SCHOLAR_SUPPLY])) == (1, 6)  # 7 - 1 = 6


def test_r19_goblins_and_psychics_start_with_an_extra_tool():
    """R19: Goblins +1 tool (and banking 1, engineering 1); Psychics +1 tool (banking 1, medicine 1)."""
    g = Game(fixed("goblins+psychics+felines", "plains+mountain+lake"), seed=1)
    run_setup(g, until=placing)
    gob = g.state.players[seat_of(g, "goblins")]
    psy = g.state.players[seat_of(g, "psychics")]
    assert int(gob[P_TOOLS]) == 4 and int(psy[P_TOOLS]) == 4  # 3 + 1
    assert gob[P_SCIENCE].tolist() == [1, 0, 1, 0]
    assert psy[P_SCIENCE].tolist() == [1, 0, 0, 1]
    assert int(g.state.players[seat_of(g, "felines"), P_TOOLS]) == 3


@pytest.mark.parametrize(
    "steps, want",
    [(("step law", "step law"), [0, 2, 0, 0]), (("step banking", "step medicine"), [1, 0, 0, 1])],
)
def test_r94_r19_lizards_two_starting_steps_are_player_decisions(steps: tuple[str, str], want: list[int]):
    """R19 / R94: Lizards take 2 steps in one discipline of choice or 1 step in each of two."""
    g = Game(fixed("lizards+felines+moles", "plains+mountain+lake"), seed=1)
    order = iter(steps)
    log = run_setup(g, lambda g: next(order) if g.pending_kind() == Kind.STEPS_ANY else first(g), until=placing)
    seat = seat_of(g, "lizards")
    decisions = [s for s in log if s.kind == Kind.STEPS_ANY]
    assert [s.seat for s in decisions] == [seat, seat]
    assert decisions[0].moves == ["step banking", "step law", "step engineering", "step medicine"]
    assert g.state.players[seat, P_SCIENCE].tolist() == want
    assert g.state.players[seat, P_BOWLS].tolist() == [5, 7, 0]  # level 2 at most: no threshold


# ------------------------------------------------------------------------------------------------
# R21-R23 initial placement

PLAIN_FACTIONS = ["felines", "goblins", "moles", "navigators", "philosophers"]
PLAIN_BOARDS = ["plains", "swamp", "lake", "forest", "mountain"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r21_initial_workshops_in_snake_order(players: int):
    """R21: one Workshop each in turn order from the start player, then one each in reverse order;
    the last player places two in a row, the start player the first and the last."""
    game = fixed("+".join(PLAIN_FACTIONS[:players]), "+".join(PLAIN_BOARDS[:players]))
    for seed in range(4):
        g = Game(game, seed=seed)
        log = run_setup(g)
        order = turn_order(g)
        places = [s.seat for s in log if s.kind == Kind.INITIAL_PLACE]
        assert places == order + order[::-1]
        for seat in range(players):
            assert int(g.state.players[seat, P_BUILT.start + Building.WORKSHOP]) == 2  # 2 slots uncovered (R54)


def test_r21_r34_initial_workshop_on_any_empty_native_hex_without_reach_or_cost():
    """R21 / R34: any empty hex of the native terrain, no reach requirement, no cost."""
    g = Game(fixed("felines+goblins+moles", "lake+forest+plains"), seed=0)
    run_setup(g, until=placing)
    lake = seat_of(g, "felines")
    # the first legal placements are exactly the 12 lake hexes of the 3-5 side
    first_lake = None
    while g.pending_kind() == Kind.INITIAL_PLACE:
        seat = g.current_seat()
        native = Terrain(int(g.state.players[seat, P_BOARD])).name.lower()
        empty = {x for x in hexes(g, native) if g.state.hexes[parse_hex(x), H_BUILDING] == 0}
        assert {m.split()[1] for m in g.legal_moves()} == empty
        if seat == lake:
            # the lake player's two workshops go to opposite corners: r0c2 and r8c7 (no reach needed)
            move = "place r0c2" if first_lake is None else "place r8c7"
            if first_lake is None:
                assert len(empty) == 12
                first_lake = move
        else:
            move = g.legal_moves()[0]
        g.apply_move(move)
    p = g.state.players[lake]
    assert g.state.hexes[parse_hex("r0c2"), H_OWNER] == lake
    assert g.state.hexes[parse_hex("r8c7"), H_OWNER] == lake
    assert (int(p[P_COINS]), int(p[P_TOOLS])) == (15, 3)  # nothing paid


def test_r21_op56_initial_placement_triggers_no_power_offers():
    """R21 / OP-56: initial placement is not a build: neighbours are offered no power and nothing
    scores.  Lake r1c4 is placed between the forest Workshops on r1c3 and r1c5."""
    g = Game(fixed("felines+goblins+moles", "lake+forest+plains"), seed=0)
    run_setup(g, until=placing)
    lake, forest = seat_of(g, "felines"), seat_of(g, "goblins")
    want = {lake: ["place r1c4", "place r0c8"], forest: ["place r1c3", "place r1c5"]}
    bowls = g.state.players[:, P_BOWLS].copy()
    while g.state.glob[G_PHASE] == Phase.SETUP and placing(g):
        legal = g.legal_moves()
        g.apply_move(next((m for m in want.get(g.current_seat(), []) if m in legal), legal[0]))
        assert g.pending_kind() != Kind.OFFER
        if g.state.glob[G_PHASE] == Phase.SETUP:
            assert np.array_equal(g.state.players[:, P_BOWLS], bowls)  # no power moved
            assert g.state.players[:, P_VP].tolist() == [20, 20, 20]  # nothing scored
    assert g.state.hexes[parse_hex("r1c3"), H_OWNER] == forest
    assert g.state.hexes[parse_hex("r1c4"), H_OWNER] == lake
    assert g.state.hexes[parse_hex("r1c5"), H_OWNER] == forest


def test_r22_op43_omar_chooses_workshop_or_tower_at_each_placement():
    """R22 / OP-43: Omar's three placements (two in the snake, one after the others) each choose
    Workshop or Tower; the Tower is a neutral building (power 2) on a native hex."""
    g = Game(fixed("omar+felines+moles", "desert+lake+plains"), seed=0)
    log = run_setup(g, prefer("start tower", "place r3c0", "place r0c11", "place r8c11"))
    omar = seat_of(g, "omar")
    kinds = [s for s in log if s.kind == Kind.INITIAL_KIND]
    assert [s.seat for s in kinds] == [omar] * 3
    assert kinds[0].moves == ["start workshop", "start tower"]
    assert kinds[0].played == "start tower"
    assert kinds[1].moves == ["start workshop"] and kinds[2].moves == ["start workshop"]  # the tower is placed
    tower = parse_hex("r3c0")
    assert g.state.hexes[tower, H_BUILDING] == Building.TOWER
    assert g.state.hexes[tower, H_NEUTRAL] == 1 and g.state.hexes[tower, H_OWNER] == omar
    p = g.state.players[omar]
    assert int(p[P_NEUTRAL_BUILT.start + Building.TOWER]) == 1
    assert int(p[P_BUILT.start + Building.WORKSHOP]) == 2
    assert int(g.state.glob[G_NEUTRAL_LEFT][Building.TOWER]) == 4  # 5 - 1


def test_r22_placement_order_omar_last_building_then_the_monks_university():
    """R22: snake Workshops (Monks skip), then Omar's third building after every other Workshop,
    then the Monks' University, who then take a competency (R96)."""
    for seed in range(4):
        g = Game(fixed("omar+monks+felines+goblins", "desert+forest+lake+plains"), seed=seed)
        log = run_setup(g)
        order = turn_order(g)
        omar, monks = seat_of(g, "omar"), seat_of(g, "monks")
        snake = [s for s in order + order[::-1] if s != monks]
        places = [s for s in log if s.kind == Kind.INITIAL_PLACE]
        assert [s.seat for s in places] == snake + [omar, monks]
        i = log.index(places[-1])
        assert log[i + 1].kind == Kind.CHOOSE_COMPETENCY and log[i + 1].seat == monks
        m = g.state.players[monks]
        assert int(m[P_BUILT.start + Building.UNIVERSITY]) == 1  # uncovers the University income (OP-44)
        assert int(m[P_BUILT.start + Building.WORKSHOP]) == 0
        assert bin(int(m[P_COMPETENCIES])).count("1") == 1


def test_r96_op44_monks_university_on_a_native_hex_and_competency_reward():
    """R96 / OP-44: the University goes on an empty native hex with no reach requirement; the
    competency gives its position reward (R53: row 1 = 3 steps, row 2 = 2 steps + 1 book, row 3 =
    1 step + 2 books in its column's discipline)."""
    g = Game(fixed("monks+felines+goblins", "lake+forest+plains"), seed=3)
    monks = seat_of(g, "monks")
    run_setup(g, until=lambda g: g.current_seat() == monks and g.pending_kind() == Kind.INITIAL_PLACE)
    empty = {x for x in hexes(g, "lake") if g.state.hexes[parse_hex(x), H_BUILDING] == 0}
    assert {m.split()[1] for m in g.legal_moves()} == empty and len(empty) == 12  # all lakes free
    g.apply_move("place r8c7")
    assert g.state.hexes[parse_hex("r8c7"), H_BUILDING] == Building.UNIVERSITY
    assert g.pending_kind() == Kind.CHOOSE_COMPETENCY and g.current_seat() == monks
    space = int(np.flatnonzero(g.state.glob[G_COMP_SPACES] == 1)[0])  # where C2 lies
    column, row = divmod(space, 3)
    before = g.state.players[monks].copy()
    g.apply_move("competency C2")  # C2: income only (3 VP + 2 coins), no immediate effect
    p = g.state.players[monks]
    assert int(p[P_SCIENCE.start + column]) == int(before[P_SCIENCE.start + column]) + (3 - row)
    assert int(p[P_BOOKS.start + column]) == row  # 0 / 1 / 2 books
    assert int(g.state.glob[G_COMP_LEFT][1]) == 3  # 4 - 1
    assert int(p[P_VP]) == 20 and int(p[P_COINS]) == 15  # income comes in round 1


def test_r23_inventors_take_a_competency_after_all_placements():
    """R23 / R93: after the initial Workshops (and holding a bonus tile) the Inventors choose any
    competency and take its position reward."""
    g = Game(fixed("inventors+felines+goblins", "plains+lake+mountain"), seed=2)
    inventors = seat_of(g, "inventors")
    log = run_setup(g, prefer("competency C4"))
    comp = [i for i, s in enumerate(log) if s.kind == Kind.CHOOSE_COMPETENCY]
    assert len(comp) == 1 and log[comp[0]].seat == inventors
    last_place = max(i for i, s in enumerate(log) if s.kind == Kind.INITIAL_PLACE)
    assert comp[0] > last_place
    assert len(log[comp[0]].moves) == 12  # any of the 12 types
    assert int(g.state.players[inventors, P_COMPETENCIES]) == 1 << 3  # C4


def test_r23_op37_desert_free_spade_is_used_at_once_without_a_workshop():
    """R23 / OP-37: Desert's free spade after all buildings are placed moves one hex in reach one
    step toward desert; no tools can be added and no Workshop is built.  From r1c6 the mountain
    r0c6 is in reach: mountain -> wasteland (-> desert would need a second spade)."""
    g = Game(fixed("felines+goblins+moles", "desert+lake+plains"), seed=1)
    desert = seat_of(g, "felines")
    log = run_setup(g, prefer("place r1c6", "place r8c11"), until=lambda g: g.pending_kind() == Kind.SPADES)
    assert g.current_seat() == desert
    assert all(s.kind != Kind.SPADES for s in log)
    moves = g.legal_moves()
    assert "spade r0c6" in moves and "done" in moves
    assert not any(m.startswith("workshop") for m in moves)
    tools = int(g.state.players[desert, P_TOOLS])
    g.apply_move("spade r0c6")
    pos = parse_hex("r0c6")
    assert g.state.hexes[pos, H_TERRAIN] == Terrain.WASTELAND
    assert g.state.hexes[pos, H_BUILDING] == 0
    assert int(g.state.players[desert, P_TOOLS]) == tools
    assert int(g.state.glob[G_ROUND]) == 1  # the spade was the last setup decision


def test_r23_setup_spades_are_used_in_turn_order():
    """R23: Desert's spade and the spades of a Monks' or Inventors' competency (C5: 2 spades) are
    used in turn order, after every building is placed."""
    for seed in range(4):
        g = Game(fixed("inventors+monks+felines", "forest+lake+desert"), seed=seed)
        log = run_setup(g, prefer("competency C5"))
        spades = [s.seat for s in log if s.kind == Kind.SPADES]
        seats = list(dict.fromkeys(spades))  # first appearance of each seat
        assert seats == turn_order(g)  # all three have spades: Inventors 2, Monks 2, Desert 1
        first_spade = next(i for i, s in enumerate(log) if s.kind == Kind.SPADES)
        assert all(s.kind not in (Kind.INITIAL_PLACE, Kind.CHOOSE_COMPETENCY) for s in log[first_spade:])


def test_r17_9_round_1_turn_order_is_clockwise_from_the_start_player():
    """R17.9: the start player is on top, the others follow clockwise."""
    for players in (2, 3, 4, 5):
        for seed in range(5):
            g = Game(f"aoi(players={players},setup_choices=random)", seed=seed)
            start = int(g.state.glob[G_START_PLAYER])
            assert g.state.glob[G_ORDER][:players].tolist() == [(start + k) % players for k in range(players)]


# ------------------------------------------------------------------------------------------------
# R24 two-player neutral faction


def test_r24_neutral_scholar_on_a_2_space_of_each_discipline():
    """R24.3 / OP-62: one neutral scholar on a "2" space under each discipline, for the whole game."""
    g = Game("aoi(players=2)", seed=4)
    spaces = g.state.glob[G_SCHOLAR_SPACES].reshape(4, 4)  # discipline x (space "3", "2", "2", "2")
    for d in range(4):
        row = spaces[d].tolist()
        assert row[0] == -1  # the "3" space stays free
        assert row[1:].count(NEUTRAL_SEAT) == 1 and row.count(-1) == 3


def test_r24_neutral_markers_start_at_2_plus_the_thresholds_of_rounds_1_to_5():
    """R24.3: neutral markers start at level 2, then rise by the per-N value of each round tile's
    science bonus for rounds 1-5 (round 6 is covered)."""
    for seed in range(30):
        g = Game("aoi(players=2)", seed=seed)
        want = [2, 2, 2, 2]
        for t in g.state.glob[G_ROUND_TILES][:5]:
            sci = DATA.round_tiles[int(t)]["science"]
            want[DISC.index(sci["discipline"])] += sci["per"]  # e.g. "1 scholar per 3 law": +3 law
        assert g.state.glob[G_NEUTRAL_SCIENCE].tolist() == want


def test_r24_example_neutral_levels(monkeypatch: pytest.MonkeyPatch):
    """R24.3 worked example: rounds 1-5 show T8 (per 3 En), T7 (per 4 Me), T5 (per 3 La),
    T4 (per 3 Me), T6 (per 4 En); round 6 (T12) does not count."""
    ids = ["T8", "T7", "T5", "T4", "T6", "T12"]
    monkeypatch.setattr(setup, "draw_round_tiles", lambda g, rng: [DATA.round_tile_ids.index(t) for t in ids])
    g = Game("aoi(players=2)", seed=0)
    assert [DATA.round_tile_ids[int(t)] for t in g.state.glob[G_ROUND_TILES]] == ids
    # banking 2 (+0); law 2 + 3 = 5; engineering 2 + 3 + 4 = 9; medicine 2 + 4 + 3 = 9
    assert g.state.glob[G_NEUTRAL_SCIENCE].tolist() == [2, 5, 9, 9]


def test_r24_op11_area_token_from_the_area_tokens_parameter():
    """R24.2 / OP-11: one of the area tokens is drawn; the values are the ``area_tokens`` parameter."""
    assert int(Game("aoi(players=2,area_tokens=13)", seed=0).state.glob[G_AREA_TOKEN]) == 13
    drawn = Counter(int(Game("aoi(players=2)", seed=s).state.glob[G_AREA_TOKEN]) for s in range(60))
    assert set(drawn) == {12, 13, 14, 15}
    drawn = {int(Game("aoi(players=2,area_tokens=9+11)", seed=s).state.glob[G_AREA_TOKEN]) for s in range(30)}
    assert drawn == {9, 11}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_r24_no_neutral_faction_with_3_or_more_players(players: int):
    g = Game(f"aoi(players={players})", seed=4)
    assert int(g.state.glob[G_AREA_TOKEN]) == 0
    assert (g.state.glob[G_SCHOLAR_SPACES] == -1).all()
    assert (g.state.glob[G_NEUTRAL_SCIENCE] == 0).all()


# ------------------------------------------------------------------------------------------------
# determinism and random setup choices

RANDOM_GAMES = [
    "aoi(players=2,setup_choices=random)",
    "aoi(players=3,setup_choices=random)",
    "aoi(players=4,setup_choices=random,distribution=draft)",
    "aoi(players=5,setup_choices=random)",
    "aoi(players=3,setup_choices=random,factions=omar+monks+lizards,boards=desert+wasteland+lake)",
]


@pytest.mark.parametrize("game", RANDOM_GAMES)
def test_setup_is_deterministic_per_seed(game: str):
    """The same seed gives byte-identical states; different seeds give different setups."""
    a = Game(game, seed=12).state.to_bytes()
    b = Game(game, seed=12).state.to_bytes()
    assert a == b
    others = {Game(game, seed=s).state.to_bytes() for s in range(13, 18)}
    assert a not in others and len(others) == 5


@pytest.mark.parametrize("game", RANDOM_GAMES)
def test_random_setup_choices_reach_round_1_with_no_setup_decision_pending(game: str):
    """``setup_choices=random``: the engine takes every setup decision; round 1 starts."""
    for seed in range(10):
        g = Game(game, seed=seed)
        assert int(g.state.glob[G_ROUND]) == 1
        assert int(g.state.glob[G_PHASE]) in (Phase.INCOME, Phase.ACTIONS)
        assert g.pending_kind() not in SETUP_KINDS
        for seat in range(g.seats):
            p = g.state.players[seat]
            assert int(p[P_FACTION]) >= 0 and int(p[P_BOARD]) >= 0 and int(p[P_BONUS]) >= 0
            on_map = int(((g.state.hexes[:, H_OWNER] == seat) & (g.state.hexes[:, H_BUILDING] > 0)).sum())
            assert on_map == (1 if int(p[P_FACTION]) == Faction.MONKS else 2 + (int(p[P_FACTION]) == Faction.OMAR))


def test_issue10_games_share_only_read_only_setup_constants() -> None:
    """A new game reuses what its seat count and board side fix (issue 10): the parsed game
    string, the building power values (R54), the innovation display's costs (R20) and a blank
    state (R5 start values), none of which a game can change for another one: the shared arrays
    are read-only and the blank state is copied."""
    from aoi_env.core.config import GameConfig
    from aoi_env.core.state import G_SEED, H_OWNER, P_VP

    a, b = Game("aoi(players=3)", seed=1), Game("aoi(players=3)", seed=2)
    assert a.config is b.config and a.config == GameConfig.parse("aoi(players=3)")
    assert a.building_power is b.building_power and not a.building_power.flags.writeable
    assert a.innovation_space_cost is b.innovation_space_cost
    assert all(not spec.flags.writeable for spec, _ in a.innovation_space_cost)
    with pytest.raises(ValueError, match="read-only"):
        a.building_power[1] = 9
    a.state.hexes[:, H_OWNER] = 0  # a game's own state: the next game still starts blank
    a.state.players[:, P_VP] = 0
    c = Game("aoi(players=3)", seed=1)
    assert (c.state.hexes[:, H_OWNER] == -1).all() and (c.state.players[:, P_VP] == 20).all()
    assert int(c.state.glob[G_SEED]) == 1 and int(b.state.glob[G_SEED]) == 2
    assert c.state == Game(GameConfig.parse("aoi(players=3)"), seed=1).state
