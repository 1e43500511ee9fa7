"""The engine trigger reference (R146, R55, OP-57): every event and the effects listening to it.

First the table itself is checked against the component data (who listens to what), then each
row is played: the event fires from every source named in R146, and all listeners add up.
Round-scoring effects (T*, F*) fire only in Phase II; component effects fire whenever the
event happens.

Positions are 3 players; seat 0 is on Desert (15 coins, 3 tools, bowls 5/7/0, 3 tools per
spade), seat 1 on Lake, seat 2 on Forest.  Unless a test needs another faction, seat 0 is the
Inventors, seat 1 the Monks, seat 2 the Psychics (no in-game abilities that fire on events).
"""

from __future__ import annotations

from typing import Any

import pytest

from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_BOOK_ACTIONS,
    G_COMP_SPACES,
    G_PHASE,
    H_BUILDING,
    H_NEUTRAL,
    P_BOOKS,
    P_CITIES,
    P_COINS,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data import load
from aoi_env.data.enums import Building
from aoi_env.testing import Scenario, play

GAME = "aoi(players=3)"
FACTIONS = ["inventors", "monks", "psychics"]
BOARDS = ["desert", "lake", "forest"]
BOOKS = P_BOOKS.start


def position(
    *,
    tile: str = "T10",
    rnd: int = 1,
    final: str | None = None,
    seat0: str = "inventors",
    bonus: str = "B9",
) -> Scenario:
    """Seat 0 plays ``seat0`` and holds ``bonus``; B1 / B7 / B8 (or others) on display."""
    sc = Scenario(GAME, factions=[seat0, *FACTIONS[1:]], boards=BOARDS).round(rnd, tile=tile, final=final)
    held = (bonus, "B10", "B3" if bonus != "B3" else "B6")
    return sc.bonus_tiles(held, [b for b in ("B1", "B7", "B8", "B5") if b != bonus][:3], coins=0)


def guilds_around_r1c5(sc: Scenario) -> Scenario:
    """Three Guilds of seat 0 (power 6) that a building on r1c5 turns into a city (R43)."""
    for x in ("r0c4", "r0c5", "r1c4"):
        sc.build(0, x, "guild")
    return sc.terrain("r1c5", "desert")


# ------------------------------------------------------------------------------------------
# the table as data (R146)

R146_LISTENERS: dict[str, set[str]] = {
    "build_workshop": {"T1", "T3", "F4", "palace 12"},
    "build_workshop_border": {"C11", "F1"},
    "build_workshop_river": {"B1", "navigators"},
    "build_guild": {"T5", "T7", "F2", "B3", "palace 13"},
    "build_school": {"T9", "F3"},
    "build_university": {"T11", "T12"},
    "build_palace": {"T11", "T12"},
    "spade": {"T2", "goblins"},
    "step": {"T4"},
    "city": {"T6"},  # any city tile taken, palace 11's included (OP-18)
    "found_city": {"felines", "lizards"},  # a city founded (palace 11 only where it counts, R145)
    "track": {"T8"},
    "innovation": {"T10"},
    "send_scholar": {"B2", "C9"},
    "spell": {"illusionists"},
    "tunnel": {"moles"},
    "flight": {"palace 9"},
}
R146_PASS = {"B4", "B8", "trade_routes", "palace 7", "C8", "C12"}


def _rows() -> list[tuple[str, dict[str, Any]]]:
    raw = load().raw
    rows: list[tuple[str, dict[str, Any]]] = []
    for section in ("round_bonus_tiles", "round_scoring_tiles", "final_round_tiles", "competencies", "factions"):
        rows += [(str(k), v) for k, v in raw[section].items()]
    rows += [(f"palace {k}", v) for k, v in raw["palace_tiles"].items()]
    rows += [(k, v) for k, v in raw["innovations"].items()]
    return rows


def test_r146_every_event_has_exactly_the_listeners_of_the_table() -> None:
    """R146: the component data listens to each event exactly as the trigger table says."""
    found: dict[str, set[str]] = {}
    for name, row in _rows():
        for event in row.get("events", {}):
            found.setdefault(event, set()).add(name)
    assert found == R146_LISTENERS


def test_r146_pass_effects_are_exactly_the_table_row() -> None:
    """R146 / R78.1: B4, B8, Trade Routes, palace 7, C8 and C12 act when passing."""
    assert {name for name, row in _rows() if row.get("pass")} == R146_PASS


# ------------------------------------------------------------------------------------------
# Build Workshop (any source)


def test_r146_workshop_listeners_add_up() -> None:
    """R146 build Workshop: on a river-side border hex in round 6, Navigators (+2 VP + 1 coin,
    v1.2), B1 (+2), C11 (+3), palace 12 (+2) and F1 (+3) all fire for one Workshop."""
    sc = position(tile="T10", rnd=6, final="F1", seat0="navigators", bonus="B1")
    sc.competency(0, "C11").build(0, "r7c4", "palace").palace_tile(0, 12).terrain("r8c4", "desert")
    g = sc.turn(0)
    play(g, "build", "target r8c4")  # r8c4 touches the river r8c3 and lies on the map's edge
    p = g.state.players[0]
    assert p[P_VP] == 20 + 2 + 2 + 3 + 2 + 3  # Navigators, B1, C11, palace 12, F1
    assert p[P_COINS] == 15 - 2 + 1  # Workshop, Navigators' coin


def test_r146_neutral_workshop_is_a_workshop_build() -> None:
    """R146 / R46.2 / R114: placing the neutral Workshop of the innovation is a Workshop build:
    T1 +2 (and T10 is not the round's tile)."""
    sc = position(tile="T1").build(0, "r1c4", "workshop").terrain("r1c5", "desert")
    g = sc.display_innovations("neutral_workshop").set(0, books=(5, 0, 0, 0)).turn(0)
    play(g, "innovate", "innovation neutral_workshop", "pay banking", "pay banking", "pay banking")
    play(g, "neutral r1c5")
    assert g.state.hexes[parse_hex("r1c5"), H_NEUTRAL] == 1
    assert g.state.players[0, P_VP] == 20 + 2


def test_r146_lizards_free_workshop_is_a_workshop_build() -> None:
    """R146 / R94: the Lizards' free Workshop after a city is a build: T1 +2 (no cost)."""
    sc = guilds_around_r1c5(position(tile="T1", seat0="lizards"))
    g = sc.turn(0)
    play(g, "build", "target r1c5")  # +2 (T1), founds a city
    play(g, "city K5")  # 6 VP + 6 coins, then the Lizards' TB with 1 free spade
    assert g.pending_kind() == Kind.TB_TARGET
    play(g, "target r2c5", "spades 1")  # Plains -> Desert
    assert g.pending_kind() == Kind.LIZARD_BUILD
    play(g, "workshop r2c5")
    p = g.state.players[0]
    assert p[P_VP] == 20 + 2 + 6 + 2  # T1, K5, T1
    assert p[P_COINS] == 15 - 2 + 6  # only the first Workshop was paid
    assert p[P_TOOLS] == 3 - 1


# ------------------------------------------------------------------------------------------
# Build Guild (every source)


def _guild_by_upgrade(sc: Scenario) -> Game:
    g = sc.build(0, "r1c4", "workshop").turn(0)
    return play(g, "upgrade guild", "upgrade r1c4")


def _guild_by_ba5(sc: Scenario) -> Game:
    sc.state().glob[G_BOOK_ACTIONS] = [3, 4, 5]  # BA4 BA5 BA6
    g = sc.build(0, "r1c4", "workshop").set(0, books=(0, 2, 0, 0)).turn(0)
    return play(g, "book BA5", "pay law", "pay law", "upgrade r1c4")


def _guild_by_palace4(sc: Scenario) -> Game:
    g = sc.build(0, "r0c4", "palace").palace_tile(0, 4).build(0, "r1c4", "workshop").turn(0)
    return play(g, "special palace", "upgrade r1c4")


def _guild_by_palace3(sc: Scenario) -> Game:
    g = sc.build(0, "r0c4", "palace").palace_tile(0, 3).build(0, "r1c4", "school").turn(0)
    return play(g, "special palace", "upgrade r1c4")  # + 3 VP and 1 tool of palace 3 itself


def _guild_by_palace16(sc: Scenario) -> Game:
    sc.build(0, "r1c4", "guild").offer_palace(16, 17).set(0, tools=4, coins=6).terrain("r8c8", "desert")
    g = sc.turn(0)
    return play(g, "upgrade palace", "upgrade r1c4", "palace 16", "guild r8c8")


def _guild_by_innovation(sc: Scenario) -> Game:
    sc.build(0, "r1c4", "workshop").terrain("r1c5", "desert")
    g = sc.display_innovations("neutral_guild").set(0, books=(5, 0, 0, 0)).turn(0)
    return play(g, "innovate", "innovation neutral_guild", "pay banking", "pay banking", "pay banking", "neutral r1c5")


@pytest.mark.parametrize(("source", "extra"), [
    (_guild_by_upgrade, 0),
    (_guild_by_ba5, 0),
    (_guild_by_palace4, 0),
    (_guild_by_palace3, 3),  # palace 3's own 3 VP
    (_guild_by_palace16, 0),
    (_guild_by_innovation, 0),
], ids=["upgrade", "BA5", "palace4", "palace3_swap", "palace16", "neutral_guild"])  # fmt: skip
def test_r146_every_guild_source_is_a_guild_build(source: Any, extra: int) -> None:
    """R146 build Guild: an upgrade, palace 3's swap, palace 4, BA5, palace 16 and the neutral
    Guild all score T5 (+3)."""
    g = source(position(tile="T5"))
    assert g.state.players[0, P_VP] == 20 + 3 + extra


def test_r146_guild_listeners_add_up() -> None:
    """R146 build Guild: T5 (+3), B3 (+3) and palace 13 (+3) for one Guild."""
    sc = position(tile="T5", bonus="B3").build(0, "r0c4", "palace").palace_tile(0, 13)
    g = _guild_by_upgrade(sc)
    assert g.state.players[0, P_VP] == 20 + 3 + 3 + 3


# ------------------------------------------------------------------------------------------
# Build School / Palace / University (neutral ones included)


def test_r146_neutral_school_is_a_school_build() -> None:
    """R146 / R118: placing the neutral School is a School build: T9 +4 (its competency, C2 here,
    gives no VP; the order of placement and competency is the engine's, R46.1 / R55)."""
    sc = position(tile="T9").build(0, "r1c4", "workshop").terrain("r1c5", "desert")
    g = sc.display_innovations("neutral_school").set(0, books=(5, 0, 0, 0)).turn(0)
    play(g, "innovate", "innovation neutral_school", "pay banking", "pay banking", "pay banking")
    while g.pending_kind() in (Kind.CHOOSE_COMPETENCY, Kind.NEUTRAL_PLACE):
        play(g, "competency C2" if g.pending_kind() == Kind.CHOOSE_COMPETENCY else "neutral r1c5")
    assert g.state.hexes[parse_hex("r1c5"), H_BUILDING] == Building.SCHOOL
    assert g.state.players[0, P_VP] == 20 + 4


@pytest.mark.parametrize(("innovation", "building"), [
    ("neutral_university", Building.UNIVERSITY),
    ("neutral_palace", Building.PALACE),
])  # fmt: skip
def test_r146_neutral_university_and_palace_score_t11(innovation: str, building: Building) -> None:
    """R146 / R115 / R117: a neutral University or Palace is a University / Palace build: T11 +5."""
    sc = position(tile="T11").build(0, "r1c4", "workshop").terrain("r1c5", "desert")
    g = sc.display_innovations(innovation).set(0, books=(5, 0, 0, 0)).turn(0)
    play(g, "innovate", f"innovation {innovation}", "pay banking", "pay banking", "pay banking", "neutral r1c5")
    assert g.state.hexes[parse_hex("r1c5"), H_BUILDING] == building
    assert g.state.players[0, P_VP] == 20 + 5


# ------------------------------------------------------------------------------------------
# Spend a spade


def test_r146_goblins_and_t2_per_spade_in_phase_ii() -> None:
    """R146 spend a spade: T2 +2 VP and Goblins +2 coins per spade."""
    g = position(tile="T2", seat0="goblins").build(0, "r1c4", "workshop").set(0, tools=10).turn(0)
    play(g, "build", "target r2c4", "spades 2", "workshop")  # Mountain -> Desert
    p = g.state.players[0]
    assert p[P_VP] == 20 + 2 * 2
    assert p[P_COINS] == 15 + 2 * 2 - 2  # Goblins, Workshop


def test_op36_goblins_also_gain_coins_for_phase_iii_spades() -> None:
    """R146 / OP-36: component effects fire outside Phase II too: Goblins get 2 coins per Phase III
    spade (T6 science bonus); round-scoring effects do not."""
    sc = position(tile="T6", seat0="goblins").build(0, "r1c4", "workshop").set(0, science=(0, 0, 4, 0))
    g = sc.turn(0)
    play(g, "pass", "bonus B1", "pass", "bonus B7", "pass", "bonus B8")
    assert (g.pending_kind(), g.state.glob[G_PHASE]) == (Kind.SPADES, Phase.SCIENCE)
    play(g, "spade r2c5")
    assert g.state.players[0, P_COINS] == 15 + 2


# ------------------------------------------------------------------------------------------
# Science step, city, track, innovation, send scholar, spell, tunnel / flight


@pytest.mark.parametrize(("moves", "steps"), [
    (["special bonus", "step law"], 1),  # B7
    (["book BA4", "pay law", "steps law"], 2),
], ids=["B7", "BA4"])  # fmt: skip
def test_r146_t4_scores_steps_from_any_source(moves: list[str], steps: int) -> None:
    """R146 science step: T4 +1 per level actually gained, whatever gives the step."""
    sc = position(tile="T4", bonus="B7").set(0, books=(0, 1, 0, 0))
    sc.state().glob[G_BOOK_ACTIONS] = [3, 4, 5]  # BA4 BA5 BA6
    g = sc.turn(0)
    play(g, *moves)
    assert g.state.players[0, P_SCIENCE.start + 1] == steps
    assert g.state.players[0, P_VP] == 20 + steps


def test_r146_city_fires_t6_felines_and_the_key() -> None:
    """R146 take a city tile: T6 +5, the Felines' 3 steps + 1 book (R90, fired as "found_city"),
    and a key (R45.3)."""
    sc = guilds_around_r1c5(position(tile="T6", seat0="felines"))
    g = sc.turn(0)
    play(g, "build", "target r1c5", "city K1")
    assert g.pending_kind() in (Kind.STEPS_ANY, Kind.CHOOSE_BOOKS)
    while g.pending_kind() in (Kind.STEPS_ANY, Kind.CHOOSE_BOOKS):
        play(g, "step medicine" if g.pending_kind() == Kind.STEPS_ANY else "book banking")
    p = g.state.players[0]
    assert p[P_VP] == 20 + 4 + 5  # K1 + T6
    assert p[P_SCIENCE.start + 3] == 3 and p[BOOKS] == 1
    assert p[P_TOOLS] == 3 - 1 + 3  # Workshop, K1
    assert p[P_CITIES] == 1  # the key


def test_r146_send_scholar_fires_b2_and_c9() -> None:
    """R146 send scholar: B2 +2 and C9 +2 for the same scholar."""
    sc = position(bonus="B2").competency(0, "C9").set(0, scholars=1, scholar_supply=6)
    g = sc.turn(0)
    play(g, "scholar medicine return")
    assert g.state.players[0, P_VP] == 20 + 2 + 2


def test_r146_spell_fires_illusionists_but_a_book_action_does_not() -> None:
    """R146 cast spell / R92: Illusionists +1 VP per spell (v1.2, 3 players); book actions are
    not spells."""
    sc = position(seat0="illusionists").set(0, bowls=(0, 0, 12), books=(1, 0, 0, 0))
    sc.state().glob[G_BOOK_ACTIONS] = [0, 1, 2]  # BA1 BA2 BA3
    g = sc.turn(0)
    play(g, "spell S4")
    assert g.state.players[0, P_VP] == 20 + 1
    play(g, "done", "pass", "bonus B1", "pass", "bonus B7", "book BA1", "pay banking")
    assert g.state.players[0, P_VP] == 20 + 1  # BA1 is not a spell


def test_r146_tunnel_fires_the_moles_vp() -> None:
    """R146 tunnel / R95 / OP-14: Moles +2 + P VP per tunnel (5 with 3 players, v1.2)."""
    g = position(seat0="moles").build(0, "r1c4", "workshop").set(0, tools=10).turn(0)
    play(g, "build", "tunnel")
    assert "tunnel r1c6" in g.legal_moves()  # two hexes east of r1c4, across r1c5
    play(g, "tunnel r1c6")  # r1c6 is Desert already: the Workshop is built at once (OP-35)
    p = g.state.players[0]
    assert p[P_VP] == 20 + 5
    assert p[P_TOOLS] == 10 - 1 - 1  # tunnel, Workshop


def test_r146_flight_fires_palace_9() -> None:
    """R146 flight / R129: palace 9 +5 VP per flight (1 scholar returned)."""
    sc = position().build(0, "r1c4", "palace").palace_tile(0, 9).set(0, scholars=1, scholar_supply=6)
    g = sc.turn(0)
    play(g, "build", "fly", "fly r1c6")  # Desert already: the Workshop is built at once
    p = g.state.players[0]
    assert p[P_VP] == 20 + 5
    assert (p[P_SCHOLARS], p[P_SCHOLAR_SUPPLY]) == (0, 7)  # the scholar went back to the supply


# ------------------------------------------------------------------------------------------
# Pass, gain competency, any build


def test_r146_all_pass_effects_add_up() -> None:
    """R146 pass: B4 (4 per Palace / University), Trade Routes (2 per Guild), palace 7 (3 per
    School), C8 (2 per city) and C12 (lowest level) all fire; B8 would replace B4 as the tile."""
    sc = position(bonus="B4").competency(0, "C8", "C12").set(0, cities=1, science=(2, 3, 4, 5))
    sc.build(0, "r0c4", "palace").palace_tile(0, 7).build(0, "r0c5", "guild").build(0, "r1c4", "school")
    sc.innovation(0, "trade_routes")
    g = sc.turn(0)
    play(g, "pass")
    assert g.state.players[0, P_VP] == 20 + 4 + 2 + 3 + 2 + 2  # B4, Trade Routes, palace 7, C8, C12


def test_r146_gain_competency_fires_the_philosophers_book() -> None:
    """R146 gain competency / R99: Philosophers +1 book of the column's discipline."""
    sc = position(seat0="philosophers").build(0, "r1c4", "guild")
    spaces = sc.state().glob[G_COMP_SPACES]
    i, j = int(list(spaces).index(1)), 2 * 3 + 0  # C2 onto the top of the Engineering column
    spaces[i], spaces[j] = spaces[j], spaces[i]
    g = sc.turn(0)
    play(g, "upgrade school", "upgrade r1c4", "competency C2")  # Engineering top: 3 steps, 0 books
    p = g.state.players[0]
    assert p[P_SCIENCE.start + 2] == 3
    assert p[BOOKS + 2] == 0 + 1  # position gives no book; Philosophers +1 Engineering book


def test_r146_any_build_offers_power_then_checks_cities() -> None:
    """R146 any build / R55: power offers to neighbours come first, then the city check."""
    sc = guilds_around_r1c5(position()).build(1, "r2c6", "workshop")
    g = sc.turn(0)
    play(g, "build", "target r1c5")
    assert (g.pending_kind(), g.current_seat()) == (Kind.OFFER, 1)  # seat 1's Workshop on r2c6
    play(g, "leech decline")
    assert (g.pending_kind(), g.current_seat()) == (Kind.CHOOSE_CITY, 0)
