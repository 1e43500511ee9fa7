"""RULES.md §4 / §4.1: rounds (R56) and Phase I income (R57, OP-1, OP-64).

Income is checked with ``Scenario.decide(Kind.INCOME_SEAT, seat, phase=Phase.INCOME)``: the seat
collects exactly its Phase I income, then Phase II starts.  Every position uses round bonus tile
B10 (6 coins) unless a test says otherwise, so each source can be isolated.
"""

from __future__ import annotations

from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_BONUS_COINS,
    G_PHASE,
    G_ROUND,
    P_BONUS,
    P_BOOKS,
    P_BOWLS,
    P_COINS,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.testing import Scenario, play

FACTIONS = ["felines", "blessed", "navigators"]  # no faction income among them


def scenario(boards: list[str] | None = None, factions: list[str] | None = None) -> Scenario:
    s = Scenario("aoi(players=3)", factions=factions or FACTIONS, boards=boards or ["desert", "lake", "forest"])
    for seat, tile in enumerate(("B10", "B9", "B8")):
        s.bonus(seat, tile)
    return s


def collect(s: Scenario, seat: int = 0) -> Game:
    """Run the seat's Phase I income; returns the game (Phase II then starts)."""
    return s.decide(Kind.INCOME_SEAT, seat, phase=Phase.INCOME)


def player(g: Game, seat: int = 0):  # noqa: ANN201 - the seat's row of the state
    return g.state.players[seat]


# --------------------------------------------------------------------------------------------
# R56 rounds


def test_r56_phase3_runs_after_rounds_1_to_5_then_next_round_income() -> None:
    """R56: each of rounds 1-5 has Phase I, II and III; after round 5's Phase II comes the science
    bonus (Phase III), then round 6 starts with income."""
    s = scenario()
    s.round(5, tile="T9")  # T9 science bonus: 1 coin per 1 Banking
    s.display_bonus("B1", "B5", "B7")
    s.state().glob[G_BONUS_COINS] = 0
    s.set(0, science=(4, 0, 0, 0))
    g = s.turn(0)
    play(g, "pass", "bonus B7")  # seat 0 gives back B10
    play(g, "pass", "bonus B10")  # seat 1
    play(g, "pass", "bonus B1")  # seat 2: all passed -> Phase III, then round 6
    assert int(g.state.glob[G_ROUND]) == 6
    assert int(g.state.glob[G_PHASE]) == Phase.ACTIONS
    p = player(g)
    assert p[P_COINS] == 15 + 4  # science bonus T9: 1 coin x floor(4 / 1) = 4; B7 gives no coins
    assert p[P_TOOLS] == 3 + 1 + 2  # round 6 income: base 1 tool + B7 2 tools
    # seat 1 (Blessed, Banking 0 counted as 3, R89) took B10: 3 coins bonus + 6 coins income
    assert player(g, 1)[P_COINS] == 15 + 3 + 6


def test_r56_game_ends_after_round_6_phase2_without_science_bonus() -> None:
    """R56 / R82: after round 6's Phase II the game ends; there is no Phase III in round 6."""
    s = scenario()
    s.round(6, tile="T9")  # its science half is covered by the final tile: never paid
    s.set(0, science=(4, 0, 0, 0))
    g = s.turn(0)
    play(g, "pass", "pass", "pass")  # round 6: no bonus tile is taken
    assert g.is_over()
    assert int(g.state.glob[G_PHASE]) == Phase.OVER
    assert player(g)[P_COINS] == 15  # no 4 coins from T9 after round 6


# --------------------------------------------------------------------------------------------
# R57 sources of income


def test_r57_workshop_row_income_only_from_uncovered_spaces() -> None:
    """R57.1 / R54: the planning board pays the always-visible base (1 tool) plus the spaces
    uncovered by Workshops taken off it; the 5th Workshop space is blank."""
    s = scenario()
    s.set(0, tools=0)
    for hex_ in ("r7c6", "r8c11", "r8c4", "r7c1", "r5c7"):
        s.build(0, hex_, "workshop")
    g = collect(s)
    assert player(g)[P_TOOLS] == 1 + 4  # base 1 + spaces 1-4 (1 tool each) + space 5 (blank) = 5


def test_r57_sixth_workshop_uncovers_tool_again() -> None:
    """R54 / OP-1: after the blank 5th space, the 6th Workshop uncovers 1 tool again."""
    s = scenario()
    s.set(0, tools=0)
    for hex_ in ("r7c6", "r8c11", "r8c4", "r7c1", "r5c7", "r0c11"):
        s.build(0, hex_, "workshop")
    g = collect(s)
    assert player(g)[P_TOOLS] == 1 + 4 + 0 + 1  # base + spaces 1-4 + blank + space 6 = 6


def test_r57_no_buildings_pays_only_the_base() -> None:
    """R57.1: with nothing built only the always-visible base (1 tool) is paid."""
    s = scenario()
    g = collect(s)
    assert player(g)[P_TOOLS] == 3 + 1
    assert player(g)[P_COINS] == 15 + 6  # and B10's 6 coins


def test_r57_guild_school_university_rows() -> None:
    """R57.1 / R54: Guild spaces 1P+2C, 1P+2C, 2P+2C, ...; School 1 scholar each; University 1
    scholar."""
    s = scenario()
    s.bonus(0, "B5")  # 1 book of choice only: keeps coins and power clean
    s.build(0, "r7c6", "guild").build(0, "r8c11", "guild").build(0, "r8c4", "guild")
    s.build(0, "r7c1", "school").build(0, "r5c7", "school").build(0, "r0c11", "university")
    s.set(0, bowls=(12, 0, 0))
    g = collect(s)
    play(g, "book law")  # B5's book of choice
    p = player(g)
    assert p[P_COINS] == 15 + 2 + 2 + 2  # three Guild spaces: 2 coins each
    assert tuple(p[P_BOWLS]) == (12 - 4, 4, 0)  # power 1 + 1 + 2 = 4 (a gain: I -> II)
    assert p[P_SCHOLARS] == 2 + 1  # two School spaces + the University space
    assert p[P_SCHOLAR_SUPPLY] == 7 - 3
    assert p[P_TOOLS] == 3 + 1  # only the base: no Workshop was taken off the board


def test_r57_mountain_board_base_coins_and_first_guild_space() -> None:
    """R57.1 / R87: Mountain's base is 1 tool + 2 coins, and its first Guild space shows 1P + 3C."""
    s = scenario(boards=["mountain", "lake", "forest"])
    s.bonus(0, "B5")
    s.build(0, "r4c8", "guild")
    g = collect(s)
    play(g, "book law")
    p = player(g)
    assert p[P_COINS] == 15 + 2 + 3  # base 2 coins + first Guild space 3 coins
    assert p[P_TOOLS] == 3 + 1
    assert tuple(p[P_BOWLS]) == (5 - 1, 7 + 1, 0)  # 1 power from the Guild space


def test_r57_round_bonus_tile_income() -> None:
    """R57.2: the held round bonus tile pays its income (B9: 4 power + 2 coins)."""
    s = scenario()
    s.bonus(0, "B9")
    s.set(0, bowls=(2, 5, 5))
    g = collect(s)
    p = player(g)
    assert p[P_COINS] == 15 + 2
    assert tuple(p[P_BOWLS]) == (0, 5, 7)  # gain 4: 2 from I to II, then 2 from II to III


def test_r57_competency_income_c2_and_c10() -> None:
    """R57.3: competencies C2 (3 VP + 2 coins) and C10 (2 power + 2 coins) pay each Phase I."""
    s = scenario()
    s.competency(0, "C2", "C10")
    g = collect(s)
    p = player(g)
    assert p[P_VP] == 20 + 3
    assert p[P_COINS] == 15 + 6 + 2 + 2  # B10 + C2 + C10
    assert tuple(p[P_BOWLS]) == (5 - 2, 7 + 2, 0)


def test_r57_competency_income_c3_book_of_choice_and_power() -> None:
    """R57.3: C3 pays 1 book of choice + 1 power; the player chooses the colour."""
    s = scenario()
    s.competency(0, "C3")
    g = collect(s)
    assert g.legal_moves() == ["book banking", "book law", "book engineering", "book medicine"]
    play(g, "book medicine")
    p = player(g)
    assert list(p[P_BOOKS]) == [0, 0, 0, 1]
    assert tuple(p[P_BOWLS]) == (4, 8, 0)


def test_r57_competency_c1_tool_and_step() -> None:
    """R57.3: C1 pays 1 tool + 1 step in a discipline of choice."""
    s = scenario()
    s.competency(0, "C1")
    g = collect(s)
    play(g, "step law")
    p = player(g)
    assert p[P_TOOLS] == 3 + 1 + 1  # base + C1
    assert list(p[P_SCIENCE]) == [0, 1, 0, 0]


def test_r57_c1_step_reaching_level_9_pays_that_track_at_once() -> None:
    """R57 / OP-64: if C1's income step makes a marker reach 9, that track's income is collected
    immediately as well."""
    s = scenario()
    s.competency(0, "C1")
    s.set(0, science=(8, 0, 0, 0))
    g = collect(s)
    play(g, "step banking")
    p = player(g)
    assert p[P_SCIENCE][0] == 9
    assert p[P_COINS] == 15 + 6 + 3  # B10 + Banking level-9 income 3 coins


def test_r57_innovation_income_neutral_buildings() -> None:
    """R57.4: neutral Workshop (3 tools), Guild (5 coins) and University (2 VP) innovations pay."""
    s = scenario()
    s.innovation(0, "neutral_workshop", "neutral_guild", "neutral_university")
    g = collect(s)
    p = player(g)
    assert p[P_TOOLS] == 3 + 1 + 3
    assert p[P_COINS] == 15 + 6 + 5
    assert p[P_VP] == 20 + 2


def test_r57_innovation_income_neutral_palace_power() -> None:
    """R57.4: the neutral Palace innovation pays 4 power."""
    s = scenario()
    s.innovation(0, "neutral_palace")
    g = collect(s)
    assert tuple(player(g)[P_BOWLS]) == (5 - 4, 7 + 4, 0)


def test_r57_palace_tile_income_once_palace_is_built() -> None:
    """R57.5: the palace tile pays once the Palace is built (palace 10: 6 coins)."""
    s = scenario()
    s.build(0, "r7c6", "palace").palace_tile(0, 10)
    g = collect(s)
    assert player(g)[P_COINS] == 15 + 6 + 6  # B10 + palace 10


def test_r57_no_palace_tile_income_before_the_palace() -> None:
    """R57.5: without a built Palace no palace tile income is paid (seat 1 built palace 10)."""
    s = scenario()
    s.build(1, "r4c9", "palace").palace_tile(1, 10)
    g = collect(s, seat=0)
    assert player(g)[P_COINS] == 15 + 6  # only B10


def test_r57_faction_income_omar() -> None:
    """R57.6 / R98: Omar gains 2 power + 2 coins every Phase I."""
    s = scenario(factions=["omar", "blessed", "navigators"])
    g = collect(s)
    p = player(g)
    assert p[P_COINS] == 15 + 6 + 2
    assert tuple(p[P_BOWLS]) == (3, 9, 0)


def test_r57_science_level_9_income_per_track() -> None:
    """R57.7 / R51: each track at 9 or more pays 3 C / 6 P / 1 T / 3 VP."""
    s = scenario()
    s.set(0, science=(9, 10, 12, 9), bowls=(5, 7, 0))
    g = collect(s)
    p = player(g)
    assert p[P_COINS] == 15 + 6 + 3  # B10 + Banking
    assert tuple(p[P_BOWLS]) == (0, 11, 1)  # Law 6 power: 5 from I to II, then 1 from II to III
    assert p[P_TOOLS] == 3 + 1 + 1  # base + Engineering
    assert p[P_VP] == 20 + 3  # Medicine


def test_r57_science_level_8_pays_nothing() -> None:
    """R57.7: a track below 9 pays no income."""
    s = scenario()
    s.set(0, science=(8, 8, 8, 8))
    g = collect(s)
    p = player(g)
    assert (p[P_COINS], p[P_TOOLS], p[P_VP]) == (15 + 6, 3 + 1, 20)


def test_r57_scholar_income_limited_by_personal_supply() -> None:
    """R57: scholars come from the personal supply; with fewer left than due, only those."""
    s = scenario()
    s.bonus(0, "B2")  # 1 scholar
    s.build(0, "r7c6", "school").build(0, "r8c11", "school")  # 2 scholars
    for d in ("banking", "law", "engineering", "medicine"):
        s.scholar_space(0, d)  # 4 of the 7 scholars on the board
    s.set(0, scholars=1, scholar_supply=2)
    g = collect(s)
    p = player(g)
    assert p[P_SCHOLARS] == 1 + 2  # 3 due, 2 left in the supply
    assert p[P_SCHOLAR_SUPPLY] == 0


def test_r57_power_income_is_a_gain_and_costs_no_vp() -> None:
    """R57: power income is a gain (R30) and costs no VP, unlike power from builds (R42)."""
    s = scenario()
    s.bonus(0, "B9")
    s.set(0, bowls=(1, 1, 10), vp=5)
    g = collect(s)
    p = player(g)
    assert tuple(p[P_BOWLS]) == (0, 0, 12)  # gain 4: 1 from I, then 2 from II; the rest is lost
    assert p[P_VP] == 5


def test_r57_all_sources_add_up() -> None:
    """R57: every source together (board, bonus tile, competency, innovation, palace tile,
    faction, science) adds up."""
    s = scenario(factions=["omar", "blessed", "navigators"])
    s.build(0, "r7c6", "workshop").build(0, "r8c11", "guild").build(0, "r8c4", "palace").palace_tile(0, 10)
    s.competency(0, "C2").innovation(0, "neutral_guild").set(0, science=(9, 0, 0, 0), bowls=(12, 0, 0))
    g = collect(s)
    p = player(g)
    # 15 + guild space 2 + B10 6 + C2 2 + neutral guild 5 + palace 10 6 + Omar 2 + Banking 9: 3
    assert p[P_COINS] == 15 + 2 + 6 + 2 + 5 + 6 + 2 + 3
    assert p[P_TOOLS] == 3 + 1 + 1  # base + first Workshop space
    assert tuple(p[P_BOWLS]) == (12 - 3, 3, 0)  # guild space 1 + Omar 2
    assert p[P_VP] == 20 + 3  # C2


def test_r57_round_1_income_follows_starting_resources() -> None:
    """R57: income is also collected in round 1, after the starting resources."""
    g = Game("aoi(players=3,factions=felines+blessed+navigators,boards=plains+forest+lake,setup_choices=random)")
    while int(g.state.glob[G_PHASE]) != Phase.ACTIONS:  # books of choice from bonus tiles
        g.apply_action(g.legal_actions()[0])
    assert int(g.state.glob[G_ROUND]) == 1
    p = g.state.players[0]  # plains board, Felines: 15 C + 3 T at the start, 2 Workshops placed
    bonus = g.tab.bonus_income[int(p[P_BONUS])]
    assert p[P_TOOLS] == 3 + 1 + 2 + bonus.get("tools", 0)  # start + base + 2 Workshop spaces
    assert p[P_COINS] == 15 + bonus.get("coins", 0)
