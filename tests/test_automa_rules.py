"""The solo Automa against the text of AUTOMA.md, one test per section or §10 decision.

Complements ``test_automa.py``: every test cites the AUTOMA.md ids it checks, and its expected
values are worked out from the spec (tables copied from it, hexes reasoned by hand from the
board excerpts below), not read off the engine.

Hex names use the DATA.md frame, whose 1-3 side columns are AUTOMA.md Appendix A's + 1.  Odd rows
are shifted half a hex to the right, so the neighbours of (r, c) are (r, c±1) and, on even rows,
(r±1, c-1), (r±1, c); on odd rows (r±1, c), (r±1, c+1).

Side 1-3 (1 human + 1 Automa), printed terrain, ``.`` river, ``-`` off the board::

           0  1  2  3  4  5  6  7  8  9 10
    r0     .  F  M  D  P  .  L  F  M  W  -
    r1      .  S  L  S  W  .  S  P  L  .  F
    r2     -  .  P  M  F  .  .  D  .  .  D
    r3      -  .  W  D  .  F  .  .  M  P  S
    r4     -  -  .  .  .  S  P  L  D  W  M
    r5      -  .  L  P  .  W  M  .  F  L  D
    r6     -  -  .  S  M  .  .  .  .  .  .
    r7      -  .  D  F  W  D  F  L  S  F  .
    r8     -  .  W  P  M  L  S  P  D  W  M

Side 3-5 (3 factions), rows 3-5 only::

           0  1  2  3  4  5  6  7  8  9 10 11 12
    r3      D  M  W  .  D  W  .  S  .  .  P  M  F
    r4     P  F  P  D  .  .  .  F  M  L  W  D  P
    r5      S  .  .  .  L  M  .  D  P  .  S  L  W
"""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

from aoi_env.core import automa as am
from aoi_env.core import pending
from aoi_env.core.board import parse_hex, row_col
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.rules import buildings, scoring
from aoi_env.core.state import (
    G_BONUS_COINS,
    G_BONUS_ROW,
    G_COMP_LEFT,
    G_DEPTH,
    G_NEXT_COUNT,
    G_NEXT_ORDER,
    G_ORDER,
    G_PALACE_STATE,
    G_PHASE,
    G_ROUND,
    H_BUILDING,
    H_CITY,
    H_MARK,
    H_OWNER,
    H_TERRAIN,
    P_BONUS,
    P_BOOKS,
    P_BOWLS,
    P_CITIES,
    P_COINS,
    P_COMPETENCIES,
    P_PALACE_TILE,
    P_PASSED,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario, biased_random_action, power_moved

AUTOMA = 1  # her seat with one human
CARDS = am.automa_data().cards
DISC = ("banking", "law", "engineering", "medicine")


def solo(spec: str = "simpletons:3:lake") -> Scenario:
    """1 human (Goblins on Plains) + 1 Automa, 1-3 side, cleared map."""
    return Scenario(f"aoi(players=1,automa={spec})", factions=["goblins"], boards=["plains"])


def duo(spec: str) -> Scenario:
    """2 humans (Plains, Swamp) + 1 Automa (seat 2), 3-5 side."""
    return Scenario(f"aoi(players=2,automa={spec})", factions=["goblins", "monks"], boards=["plains", "swamp"])


def mark(g: Game, *hexes: str) -> None:
    for x in hexes:
        g.state.hexes[parse_hex(x), H_MARK] = 1


def name(pos: int | None) -> str | None:
    if pos is None:
        return None
    r, c = row_col(pos)
    return f"r{r}c{c}"


def names(positions) -> set[str]:  # noqa: ANN001 - any iterable of positions
    return {f"r{row_col(int(p))[0]}c{row_col(int(p))[1]}" for p in positions}


def resources(g: Game, seat: int) -> list[int]:
    p = g.state.players[seat]
    return [int(p[P_COINS]), int(p[P_TOOLS]), int(p[P_SCHOLARS]), *p[P_BOOKS].tolist(), *p[P_BOWLS].tolist()]


def stack_kinds(g: Game, seat: int) -> list[int]:
    depth = int(g.state.glob[G_DEPTH])
    return [int(row[0]) for row in g.state.stack[:depth] if int(row[1]) == seat]


# ------------------------------------------------------------------------------------------------
# §2 data


ATP_TABLE = """
Lake A: Lake, Swamp, Forest, Plains, Wasteland, Mountain, Desert
Lake B: Lake, Forest, Swamp, Mountain, Desert, Plains, Wasteland
Plains A: Plains, Desert, Swamp, Wasteland, Forest, Lake, Mountain
Plains B: Plains, Swamp, Desert, Lake, Mountain, Wasteland, Forest
Forest A: Forest, Lake, Mountain, Swamp, Desert, Wasteland, Plains
Forest B: Forest, Mountain, Lake, Wasteland, Plains, Swamp, Desert
Wasteland A: Wasteland, Mountain, Desert, Forest, Swamp, Plains, Lake
Wasteland B: Wasteland, Desert, Mountain, Plains, Lake, Forest, Swamp
Swamp A: Swamp, Plains, Lake, Desert, Mountain, Forest, Wasteland
Swamp B: Swamp, Lake, Plains, Forest, Wasteland, Desert, Mountain
Desert A: Desert, Wasteland, Plains, Mountain, Lake, Swamp, Forest
Desert B: Desert, Plains, Wasteland, Swamp, Forest, Mountain, Lake
Mountain A: Mountain, Forest, Wasteland, Lake, Plains, Desert, Swamp
Mountain B: Mountain, Wasteland, Forest, Desert, Swamp, Lake, Plains
"""  # AUTOMA.md §2.1 (one line per side of each row of the table, lists copied verbatim)


def test_automa_atp_lists_match_the_spec_table() -> None:
    """§2.1: the 14 ATP lists (7 terrains x sides A, B) as printed in the spec table; rank 1 is
    always the terrain itself."""
    lines = ATP_TABLE.strip().splitlines()
    assert len(lines) == 14
    for line in lines:
        head, text = line.split(":")
        terrain, side = head.split()
        want = [t.strip().lower() for t in text.split(",")]
        rank = am.atp_rank(terrain.lower(), side)
        got = [am.TERRAIN_KEYS[t] for t, _ in sorted(rank.items(), key=lambda kv: kv[1])]
        assert got == want, (terrain, side)
        assert got[0] == terrain.lower()


CARD_TABLE = """
| *1 | yes | Upgrade; Gain VP | DL | – | M | A | RD 2 | SCORE | left | A / B |
| *2 | yes | BLOCK; Gain VP | DL | yes | M | B | LU 1 | CATCH | middle | A / B |
| *3 | yes | Send Scholar | – | – | UR | B | RD 3 | SCORE | right | A / B |
| *4 | yes | T&B | – | yes | U | B | LU 3 | CATCH | left | A / B |
| *5 | yes | Faction action | – | – | MR | A | LU 2 | CATCH | middle | A / B |
| *6 | yes | Take Innovation; Advance science | – | – | U | A | RD 1 | CATCH | right | C / D |
| 7 | no | Faction action | – | yes | UR | B | RD 4 | CATCH | left | C / D |
| 8 | no | Send Scholar; Gain VP | 3 | yes | MR | A | RD 1 | CATCH | middle | C / D |
| 9 | no | Send Scholar; Gain VP | 3 | yes | MR | A | RD 2 | CATCH | right | C / D |
| 10 | no | Upgrade; Gain VP | 2 | yes | UR | B | LU 4 | CATCH | left | C / D |
| 11 | no | Upgrade; Gain VP | DL | yes | UR | A | LU 2 | CATCH | middle | E / F |
| 12 | no | BLOCK; Gain VP | DL | yes | UR | A | LU 3 | CATCH | right | E / F |
| 13 | no | T&B; Gain VP | 3 | yes | MR | B | LU 1 | CATCH | left | E / F |
| 14 | no | BLOCK; Gain VP | DL | yes | MR | B | RD 3 | CATCH | middle | E / F |
"""  # AUTOMA.md §2.2, copied verbatim (markdown escapes and bold dropped)
ACTION_NAMES = {"Upgrade": "upgrade", "Gain VP": "vp", "BLOCK": "block", "Send Scholar": "scholar", "T&B": "tb",
                "Faction action": "faction", "Take Innovation": "innovation", "Advance science": "advance"}  # fmt: skip


def test_automa_card_table_matches_the_spec() -> None:
    """§2.2: all 14 cards, every column of the spec table (action part in printed order, VP,
    pass icon, structure, ATP side, directional selection, science selection, round bonus,
    initial Workshop letters); the starters *1-*6 are the base deck."""
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in CARD_TABLE.strip().splitlines()]
    assert sorted(int(r[0].lstrip("*")) for r in rows) == sorted(CARDS) == list(range(1, 15))
    for number, starter, actions, vp, pass_icon, structure, atp, dirsel, sci, bonus, setup in rows:
        card = CARDS[int(number.lstrip("*"))]
        assert card.starter == (starter == "yes") == number.startswith("*"), number
        assert card.actions == tuple(ACTION_NAMES[a.strip()] for a in actions.split(";")), number
        assert card.vp == (None if vp == "–" else "DL" if vp == "DL" else int(vp)), number
        assert card.pass_icon == (pass_icon == "yes"), number
        assert (card.structure, card.atp) == (structure, atp), number
        assert (card.direction, card.count) == (dirsel.split()[0], int(dirsel.split()[1])), number
        assert card.science == sci, number
        assert card.bonus == ("left", "middle", "right").index(bonus), number
        assert card.setup == tuple(x.strip() for x in setup.split("/")), number


# ------------------------------------------------------------------------------------------------
# §3.4 her components


@pytest.mark.parametrize(
    ("faction", "science"),
    [  # §2.5 starting science steps (Banking, Law, Engineering, Medicine)
        ("simpletons", (1, 1, 1, 1)),
        ("kuddlers", (1, 1, 0, 0)),
        ("druids", (0, 0, 0, 2)),
        ("racelings", (0, 1, 0, 1)),
        ("wanderers", (1, 0, 1, 0)),
        ("mimics", (0, 1, 1, 0)),
        ("powermongers", (0, 0, 1, 1)),
    ],
)
def test_automa_components_science_start_and_20_vp(faction: str, science: tuple[int, ...]) -> None:
    """§3.4 (with §2.5 and §1): after setup she has her buildings (9 Workshops, 4 Guilds, 3 Schools,
    1 University, 1 Palace; 2 Workshops are on the map, §3.6) and 7 Scholars in supply, her
    markers at 0 advanced by her faction's steps, 20 VP and no resources at all."""
    g = Game(f"aoi(players=1,automa={faction}:3:lake,factions=goblins,boards=plains,setup_choices=random)", seed=1)
    while g.state.glob[G_PHASE] != Phase.ACTIONS:  # the human's own setup choices
        g.apply_action(g.legal_actions()[0])
    assert g.current_seat() == 0  # §3.7: she has not acted yet
    p = g.state.players[AUTOMA]
    assert int(p[P_VP]) == 20
    assert tuple(p[P_SCIENCE].tolist()) == science
    on_map = int(np.count_nonzero((g.state.hexes[:, H_OWNER] == AUTOMA) & (g.state.hexes[:, H_BUILDING] > 0)))
    assert on_map == 2
    left = {b: buildings.pieces_left(g, AUTOMA, b) for b in (Building.WORKSHOP, Building.GUILD, Building.SCHOOL,
                                                              Building.UNIVERSITY, Building.PALACE)}  # fmt: skip
    assert left == {Building.WORKSHOP: 9 - 2, Building.GUILD: 4, Building.SCHOOL: 3, Building.UNIVERSITY: 1,
                    Building.PALACE: 1}  # fmt: skip
    assert int(p[P_SCHOLAR_SUPPLY]) == 7
    assert resources(g, AUTOMA) == [0] * 10  # §1: no coins, tools, scholars held, books, power


# ------------------------------------------------------------------------------------------------
# §4 round structure


def _to_round_2(sc: Scenario, automa_passed_first: bool) -> Game:
    """Round 1 with the human to act; the human passes (and takes a tile); the rest is automatic."""
    g = sc.turn(0)
    if automa_passed_first:
        s = g.state
        s.players[AUTOMA, P_PASSED] = 1
        s.glob[G_NEXT_ORDER.start] = AUTOMA
        s.glob[G_NEXT_COUNT] = 1
    g.apply_move("pass")
    assert g.pending_kind() == Kind.PASS_BONUS
    g.apply_move(g.legal_moves()[0])
    assert int(g.state.glob[G_ROUND]) == 2 and g.state.glob[G_PHASE] == Phase.ACTIONS
    return g


def test_automa_gets_no_income_and_no_science_bonus() -> None:
    """§4.1: "The Automa gets nothing" in Phase I; §4.6 / §1: humans get the science bonus, she
    does not.  Round tile T9's bonus is 1 coin per Banking level: at Banking 6 she would get 6
    coins.  The human, meanwhile, does collect (resources change)."""
    sc = solo().round(1, tile="T9").set(AUTOMA, science=(6, 0, 0, 0)).set(0, science=(2, 0, 0, 0))
    human_before = resources(sc.g, 0)
    g = _to_round_2(sc, automa_passed_first=False)
    assert resources(g, AUTOMA) == [0] * 10
    assert resources(g, 0) != human_before


@pytest.mark.parametrize(("automa_first", "order"), [(False, [0, 1]), (True, [1, 0])])
def test_automa_turn_order_follows_the_passing_order(automa_first: bool, order: list[int]) -> None:
    """§4.2: from round 2 on, the order is the order in which the seats passed in the previous
    round (first to pass goes first)."""
    g = _to_round_2(solo(), automa_passed_first=automa_first)
    assert g.state.glob[G_ORDER][:2].tolist() == order


@pytest.mark.parametrize("automa_passed", [False, True])
def test_automa_a_passed_seat_is_skipped(automa_passed: bool) -> None:
    """§4.2: each seat takes one turn in order; a seat that has passed is skipped.  After the
    human's upgrade the Automa, not passed, takes one turn (draws one card: a 7-card deck cannot
    pass on its first draw, §4.3) before the human acts again; passed, she is skipped and her
    deck is untouched."""
    sc = solo().build(0, "r4c6", "workshop").build(AUTOMA, "r1c2", "workshop")
    g = sc.turn(0)
    g.state.players[AUTOMA, P_PASSED] = int(automa_passed)
    rec = am.record(g, AUTOMA)
    deck_before = int(rec[am.A_DECK_LEN])
    g.apply_move("upgrade guild")
    g.apply_move("upgrade r4c6")
    g.apply_move("done")
    assert g.current_seat() == 0 and g.pending_kind() == Kind.MAIN
    drawn = deck_before - int(rec[am.A_DECK_LEN])
    assert drawn == (0 if automa_passed else 1)


# ------------------------------------------------------------------------------------------------
# §2.3 ship level, §5.1 Reach, §8 final scoring

SHIP_TABLE = {1: (0, 0, 1, 1, 2, 2), 2: (0, 0, 1, 1, 2, 2), 3: (1, 1, 2, 2, 2, 2), 4: (1, 1, 2, 2, 2, 2),
              5: (1, 1, 2, 2, 3, 3)}  # AUTOMA.md §2.3  # fmt: skip


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_automa_ship_level_by_round(level: int) -> None:
    """§2.3 / §4.4 step 3: her ship level (her sailing for Reach) is set by the difficulty table
    at the start of every round (``automa.start_round``)."""
    g = solo(f"simpletons:{level}:lake").turn(0)
    got = []
    for rnd in range(1, 7):
        g.state.glob[G_ROUND] = rnd
        am.start_round(g, AUTOMA, rnd)
        got.append(int(g.state.players[AUTOMA, P_SAILING]))
    assert tuple(got) == SHIP_TABLE[level]


def test_automa_tb_reach_grows_with_the_ship_level() -> None:
    """§5.1 Reach / §2.3: level 2 ship 0,0,1,1,2,2.  From her marked Lake r0c6 (neighbours r0c7 F,
    r1c6 S; rivers r0c5, r1c5): ship 1 adds r0c4 and r1c4 across one river hex, ship 2 adds
    r2c4, r3c5 and r2c7 across two (via r2c5 / r2c6)."""
    g = solo("simpletons:2:lake").build(AUTOMA, "r0c6", "workshop").turn(0)
    mark(g, "r0c6")
    by_round = {}
    for rnd in (1, 3, 5):
        g.state.glob[G_ROUND] = rnd
        by_round[rnd] = names(am.valid_hexes(g, AUTOMA, "M"))
    assert by_round[1] == {"r0c7", "r1c6"}
    assert by_round[3] == by_round[1] | {"r0c4", "r1c4"}
    assert by_round[5] == by_round[3] | {"r2c4", "r3c5", "r2c7"}


def test_automa_final_area_uses_the_round_6_ship_level() -> None:
    """§8.1: her largest group competes with the humans' (18 / 12 / 6), connected by Reach with
    her round-6 ship level.  Level 1: ship 0 in round 1, 2 in round 6.  r0c6 and r2c7 are two
    river hexes apart (r1c5, r2c6), so they form one group only with ship 2.  The human's single
    Workshop is a group of 1."""
    sc = solo("simpletons:1:lake").build(AUTOMA, "r0c6", "workshop").build(AUTOMA, "r2c7", "workshop")
    g = sc.build(0, "r8c3", "workshop").turn(0)
    am.start_round(g, AUTOMA, 1)
    assert scoring.largest_area(g, AUTOMA) == 1
    parts = scoring.breakdown(g)
    assert parts["area"] == [15, 15]  # 1 and 1 tie for first: (18 + 12) / 2 each
    g.state.glob[G_ROUND] = 6
    am.start_round(g, AUTOMA, 6)
    assert int(g.state.players[AUTOMA, P_SAILING]) == 2
    parts = scoring.breakdown(g)
    assert parts["area_size"] == [1, 2] and parts["area"] == [12, 18]


def test_automa_final_science_majorities() -> None:
    """§8.2 (ties as R84): per discipline 8 / 4 / 2, ties share and round down, level 0 scores
    nothing.  Automa (5, 0, 3, 0) vs human (3, 0, 3, 1): Banking 8 / 4; Law nothing; Engineering
    tie (8 + 4) / 2 = 6 each; Medicine human 8, her 0 scores nothing.  §8.5: no resources."""
    sc = solo().set(AUTOMA, science=(5, 0, 3, 0)).set(0, science=(3, 0, 3, 1))
    g = sc.turn(0)
    parts = scoring.breakdown(g)
    assert parts["science"] == [4 + 6 + 8, 8 + 6]
    assert parts["resources"][AUTOMA] == 0


# ------------------------------------------------------------------------------------------------
# §5 resolving the steps


def test_automa_advance_is_always_catch_up_and_druids_advance_two() -> None:
    """§5.6 / §10 #16: Advance (card *6, the Druids' faction action) always uses catch-up, even
    with a SCORE support card (*1, RD 2; the T3 tile's icon is Banking).  Automa at 0 everywhere,
    human (0, 2, 5, 0): (a) all at 0; (b) closest to the human: Banking and Medicine (diff 0);
    (c) RD 2 of [Banking, Medicine] -> Medicine.  §2.5 / §7: the Druids advance 2 levels."""
    sc = solo("druids:3:lake").round(3, tile="T3").set(0, science=(0, 2, 5, 0))
    g = sc.turn(0)
    steps = am.build_steps(6, 1, 3, "druids", 3)
    assert steps == [(am.INNOVATION, 0, 0), (am.ADVANCE, 1, 0)]
    am.resolve_step(g, AUTOMA, am.ADVANCE, 1, 0, 1)
    assert g.state.players[AUTOMA, P_SCIENCE].tolist() == [0, 0, 0, 1]
    # the Druids' faction action: T&B, then a 2-level catch-up advance, no Scholar
    steps = am.build_steps(5, 1, 3, "druids", 3)
    assert steps == [(am.TB, 0, am.FACTION_FLAG), (am.ADVANCE, 2, am.FACTION_FLAG)]
    # now: (a) Banking, Law, Engineering at 0; (b) |0-0| Banking beats Law 2, Engineering 5
    am.resolve_step(g, AUTOMA, am.ADVANCE, 2, am.FACTION_FLAG, 1)
    assert g.state.players[AUTOMA, P_SCIENCE].tolist() == [2, 0, 0, 1]
    assert int(g.state.players[AUTOMA, P_SCHOLAR_SUPPLY]) == 7


def test_automa_gain_vp_steps() -> None:
    """§5.8 / §4.4 step 4: a "Gain VP" step adds its value: card 8 a fixed 3; card *2 the DL
    value (level 5, round 3: 4); a Gain VP of 0 is dropped (level 1, round 1)."""
    g = solo("simpletons:5:lake").round(3).turn(0)
    assert am.build_steps(8, 1, 3, "simpletons", 5) == [(am.SCHOLAR, 0, 0), (am.VP, 3, 0)]
    am.resolve_step(g, AUTOMA, am.VP, 3, 0, 1)
    assert int(g.state.players[AUTOMA, P_VP]) == 23
    assert am.build_steps(2, 1, 3, "simpletons", 5) == [(am.BLOCK, 0, 0), (am.VP, 4, 0)]
    am.resolve_step(g, AUTOMA, am.VP, 4, 0, 1)
    assert int(g.state.players[AUTOMA, P_VP]) == 27
    assert am.build_steps(2, 1, 1, "simpletons", 1) == [(am.BLOCK, 0, 0)]


def test_automa_her_builds_score_no_round_tile_vp() -> None:
    """§1 / §5.8: she scores no round-score condition VP: on T3 ("Workshop: 2 VP") her T&B adds
    nothing to her 20 VP."""
    g = solo().round(1, tile="T3").build(AUTOMA, "r1c2", "workshop").turn(0)
    mark(g, "r1c2")
    am.resolve_tb(g, AUTOMA, CARDS[1], faction_step=False, anywhere=False)
    assert int(np.count_nonzero(g.state.hexes[:, H_OWNER] == AUTOMA)) == 2
    assert int(g.state.players[AUTOMA, P_VP]) == 20


# ------------------------------------------------------------------------------------------------
# §5.2 faction tie-breakers


def _faction_position(faction: str, guild: bool = False) -> Game:
    """Her marked Lake r1c2 (neighbours r1c1 S, r1c3 S, r0c2 M, r0c3 D, r2c2 P, r2c3 M), an
    unmarked r7c7 far away, the human's Plains Workshop r0c4 (and a Guild on r0c1)."""
    sc = solo(f"{faction}:3:lake").build(AUTOMA, "r1c2", "workshop").build(AUTOMA, "r7c7", "workshop")
    if guild:
        sc.build(0, "r0c1", "guild", terrain=False)
    g = sc.build(0, "r0c4", "workshop").turn(0)
    mark(g, "r1c2")
    return g


@pytest.mark.parametrize(
    ("faction", "want"),
    [
        # default: Lake ATP A (Lake, Swamp, ...) -> swamps r1c1, r1c3; closest to r0c4 -> r1c3 (1 vs 3)
        ("simpletons", "r1c3"),
        # closest first: r0c3 D and r1c3 S (1 step); then the human's Plains ATP A (Plains,
        # Desert, Swamp, ...): Desert (rank 2) beats Swamp (rank 3) -> r0c3
        ("kuddlers", "r0c3"),
        # the human's Plains ATP A first: r2c2 is Plains (rank 1)
        ("mimics", "r2c2"),
    ],
)
def test_automa_kuddlers_and_mimics_tie_breakers(faction: str, want: str) -> None:
    """§5.2 step 3 / §7: Kuddlers: closest, then *your* ATP, then directional; Mimics: *your* ATP,
    then closest, then directional (support *1: M, ATP A, RD 2)."""
    g = _faction_position(faction)
    assert name(am.choose_tb_hex(g, AUTOMA, CARDS[1], faction_step=True, anywhere=False)) == want
    # a T&B that is not the faction action uses the default tie-breakers (§4.4.1)
    assert name(am.choose_tb_hex(g, AUTOMA, CARDS[1], faction_step=False, anywhere=False)) == "r1c3"


def test_automa_powermongers_most_power_tie_breaker() -> None:
    """§5.2 step 3 / §7: the Powermongers' faction T&B first keeps the hexes giving the human the
    most power.  Add a human Guild on r0c1 (next to r0c2 and r1c1): power r1c1 2, r0c2 2, r0c3 1,
    r1c3 1, others 0; then her Lake ATP A: Swamp r1c1 (rank 2) beats Mountain r0c2 -> r1c1.
    The default order (ATP: r1c1, r1c3; closest: both 1 step; RD 2) gives r1c3."""
    g = _faction_position("powermongers", guild=True)
    assert am.power_to_humans(g, parse_hex("r1c1")) == 2 and am.power_to_humans(g, parse_hex("r0c2")) == 2
    assert name(am.choose_tb_hex(g, AUTOMA, CARDS[1], faction_step=True, anywhere=False)) == "r1c1"
    assert name(am.choose_tb_hex(g, AUTOMA, CARDS[1], faction_step=False, anywhere=False)) == "r1c3"


def test_automa_wanderers_faction_tb_ignores_reach() -> None:
    """§5.1 (Wanderers) / §2.5 / §7: the Wanderers' faction T&B may take any empty land hex:
    her Lake ATP A ranks the free Lake hexes first (r0c6, r1c8, r4c7, r5c2, r5c9, r8c5); the
    human's Workshop r8c4 is next to r8c5 -> r8c5, 3 steps from r7c7 and out of her Reach.
    Its VP is DL - 1 (level 3 round 1: 2 - 1 = 1).  A printed T&B (card *4) keeps to Reach: from
    r1c2, swamps r1c1 / r1c3 by ATP, both 7 steps from r8c4, RD 2 -> r1c3."""
    sc = solo("wanderers:3:lake").build(AUTOMA, "r1c2", "workshop").build(AUTOMA, "r7c7", "workshop")
    g = sc.build(0, "r8c4", "workshop").turn(0)
    mark(g, "r1c2")
    assert am.build_steps(5, 1, 1, "wanderers", 3) == [
        (am.TB_ANYWHERE, 0, am.FACTION_FLAG),
        (am.VP, 1, am.FACTION_FLAG),
    ]
    assert am.build_steps(4, 1, 1, "wanderers", 3) == [(am.TB, 0, 0)]
    assert "r8c5" not in names(am.valid_hexes(g, AUTOMA, "M")) | names(am.valid_hexes(g, AUTOMA, "U"))
    assert name(am.choose_tb_hex(g, AUTOMA, CARDS[1], faction_step=False, anywhere=False)) == "r1c3"
    am.resolve_step(g, AUTOMA, am.TB_ANYWHERE, 0, am.FACTION_FLAG, 1)
    pos = parse_hex("r8c5")
    h = g.state.hexes
    assert h[pos, H_OWNER] == AUTOMA and h[pos, H_BUILDING] == Building.WORKSHOP and h[pos, H_MARK] == 1


# ------------------------------------------------------------------------------------------------
# §10 implementation notes


ROWS_1_3 = """
F M D P . L F M W .
S L S W . S P L . F
. P M F . . D . . D
. W D . F . . M P S
. . . . S P L D W M
. L P . W M . F L D
. . S M . . . . . .
. D F W D F L S F .
. W P M L S P D W M
"""  # AUTOMA.md Appendix A.1 (letters dropped)
ROWS_3_5 = """
F ? L S P W M . L S P D .
M . . F L F D . F M L . S
W L S . M P S . . W . . W
D M W . D W . S . . P M F
P F P D . . . F M L W D P
S . . . L M . D P . S L W
L . P S . F P . . . . . .
. D L . W S D W S L F S .
? ? W . D M P L F M W D P
"""  # AUTOMA.md Appendix A.2 (letters dropped; (8,1) "M?" unknown)
CODES = {"P": Terrain.PLAINS, "S": Terrain.SWAMP, "L": Terrain.LAKE, "F": Terrain.FOREST, "M": Terrain.MOUNTAIN,
         "W": Terrain.WASTELAND, "D": Terrain.DESERT}  # fmt: skip


def _appendix_neighbours(r: int, c: int) -> list[tuple[int, int]]:
    """Appendix A: neighbours in the odd-r offset layout."""
    if r % 2 == 0:
        cells = [(r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c)]
    else:
        cells = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1)]
    return [(a, b) for a, b in cells if 0 <= a < 9 and 0 <= b < 13]


@pytest.mark.parametrize(("game", "rows", "shift"), [
    ("aoi(players=1,automa=simpletons:3)", ROWS_1_3, 1),
    ("aoi(players=2,automa=simpletons:3)", ROWS_3_5, 0),
])  # fmt: skip
def test_automa_board_rows_columns_and_odd_row_shift(game: str, rows: str, shift: int) -> None:
    """§10 #2 / Appendix A: the printed orientation, rows top to bottom, odd rows shifted half a
    hex to the right.  Every land cell of the transcription has that terrain on the engine's
    board (1-3 side: column + 1), nothing else is land, and two land hexes are adjacent exactly
    when the Appendix A neighbour rule says so."""
    g = Game(game, seed=0)
    grid = [line.split() for line in rows.strip().splitlines()]
    terrain = g.geo.terrain
    land = set()
    for r, cells in enumerate(grid):
        for c, code in enumerate(cells):
            pos = r * 13 + c + shift
            if code in CODES:
                assert terrain[pos] == CODES[code], (r, c)
                land.add((r, c + shift))
            elif code == ".":
                assert not g.geo.land[pos], (r, c)
    unknown = {(r, c + shift) for r, cells in enumerate(grid) for c, code in enumerate(cells) if code == "?"}
    assert {row_col(int(p)) for p in np.flatnonzero(g.geo.land)} - unknown == land
    for r, c in land:
        want = {(a, b) for a, b in _appendix_neighbours(r, c) if (a, b) in land}
        got = {row_col(int(q)) for q in np.flatnonzero(g.geo.adj[r * 13 + c])} & land
        assert got == want, (r, c)


def test_automa_distance_counts_every_hex_step() -> None:
    """§10 #4: "closest" and "Bring together" use hex-grid distance counting every hex step,
    river hexes included: a breadth-first search over the whole 9 x 13 grid with the Appendix A
    neighbour rule gives the same distance for every pair of land hexes.  E.g. r0c4 - r0c6 is 2
    (over the river r0c5), although her Reach joins them with ship 1."""
    g = solo().turn(0)
    dist = am._cube_distance()
    land = [row_col(int(p)) for p in np.flatnonzero(g.geo.land)]
    for start in land:
        seen = {start: 0}
        todo = deque([start])
        while todo:
            cell = todo.popleft()
            for nxt in _appendix_neighbours(*cell):
                if nxt not in seen:
                    seen[nxt] = seen[cell] + 1
                    todo.append(nxt)
        for end in land:
            assert dist[start[0] * 13 + start[1], end[0] * 13 + end[1]] == seen[end], (start, end)
    assert dist[parse_hex("r0c4"), parse_hex("r0c6")] == 2


def test_automa_terrain_priority_uses_the_current_terrain() -> None:
    """§10 #6: a hex ranks by its current terrain.  The printed Mountain r0c2 and r2c3 next to
    her marked r1c2 have become Lake (rank 1 on her ATP A) and beat the swamps; the two lakes
    tie, and the closer to the human's r0c1 wins (r0c2: 1 step, r2c3: 3).  Without the change
    the swamp r1c1 (next to r0c1) would be chosen."""
    sc = solo().build(AUTOMA, "r1c2", "workshop").build(0, "r0c1", "workshop", terrain=False)
    g = sc.turn(0)
    mark(g, "r1c2")
    assert name(am.choose_tb_hex(g, AUTOMA, CARDS[1], faction_step=False, anywhere=False)) == "r1c1"
    g.state.hexes[parse_hex("r0c2"), H_TERRAIN] = Terrain.LAKE
    g.state.hexes[parse_hex("r2c3"), H_TERRAIN] = Terrain.LAKE
    assert name(am.choose_tb_hex(g, AUTOMA, CARDS[1], faction_step=False, anywhere=False)) == "r0c2"


def test_automa_no_valid_hex_widens_then_anywhere_then_upgrades() -> None:
    """§10 #7: with no valid hex, widen to the Reach of all her buildings; then any empty land
    hex; then Upgrade.
    1. Only an unmarked r1c2 and support *1 (structure M): no marked building, so the Reach of
       all her buildings: swamps r1c1 / r1c3 by ATP, r1c3 closer to the human's r0c4 (anywhere
       would pick a Lake hex).  The Workshop is marked (M).
    2. No building of hers: any empty land hex; Lake first, r8c5 next to the human's r8c4.
    3. Every land hex built: her Workshop r1c2 becomes a Guild."""
    g = solo().build(AUTOMA, "r1c2", "workshop").build(0, "r0c4", "workshop").turn(0)
    assert am.valid_hexes(g, AUTOMA, "M") == []
    am.resolve_tb(g, AUTOMA, CARDS[1], faction_step=False, anywhere=False)
    pos = parse_hex("r1c3")
    assert g.state.hexes[pos, H_OWNER] == AUTOMA and g.state.hexes[pos, H_MARK] == 1

    g = solo().build(0, "r8c4", "workshop").turn(0)
    assert name(am.choose_tb_hex(g, AUTOMA, CARDS[1], faction_step=False, anywhere=False)) == "r8c5"

    # unchecked: every land hex built needs more Workshops than the 9 pieces (R54); no real game
    # reaches this last fallback, the test exercises the rule text
    sc = solo().unchecked().build(AUTOMA, "r1c2", "workshop")
    for p in np.flatnonzero(sc.g.geo.land):
        if int(p) != parse_hex("r1c2"):
            sc.build(0, name(int(p)), "workshop", terrain=False)
    g = sc.turn(0)
    assert am.choose_tb_hex(g, AUTOMA, CARDS[1], faction_step=False, anywhere=False) is None
    am.resolve_tb(g, AUTOMA, CARDS[1], faction_step=False, anywhere=False)
    assert g.state.hexes[parse_hex("r1c2"), H_BUILDING] == Building.GUILD


@pytest.mark.parametrize(("support", "want"), [(1, "r1c8"), (6, "r1c2")])
def test_automa_no_workshop_left_upgrade_uses_the_same_directional_selection(support: int, want: str) -> None:
    """§10 #8 / §5.2 step 1: with all 9 Workshops on the map the T&B is an Upgrade with the
    support card's directional selection.  Human Guilds r0c3 and r0c9 are each next to one of her
    Workshops (r1c2, r1c8): both give 2 power (tie), so RD 2 (*1) takes r1c8 and RD 1 (*6) r1c2.
    The Powermongers' conditional advance still follows: 2 power is offered, she advances 1
    (catch-up, all at 0 and level with the human: directional over the 4)."""
    sc = solo("powermongers:3:lake")
    for x in ("r1c2", "r1c6", "r1c7", "r1c8", "r3c8", "r3c9", "r4c6", "r4c7", "r4c8"):
        sc.build(AUTOMA, x, "workshop")
    sc.build(0, "r0c3", "guild", terrain=False).build(0, "r0c9", "guild", terrain=False).set(0, bowls=(5, 7, 0), vp=30)
    g = sc.turn(0)
    steps = am.build_steps(5, support, 1, "powermongers", 3)
    assert [s[0] for s in steps] == [am.TB, am.PM_ADVANCE, am.VP]
    for code, value, flags in steps:
        am.resolve_step(g, AUTOMA, code, value, flags, support)
    h = g.state.hexes
    assert h[parse_hex(want), H_BUILDING] == Building.GUILD
    assert int(np.count_nonzero((h[:, H_OWNER] == AUTOMA) & (h[:, H_BUILDING] == Building.GUILD))) == 1
    # catch-up over Banking..Medicine: *1 RD 2 -> Law, *6 RD 1 -> Banking
    want_science = [0, 1, 0, 0] if support == 1 else [1, 0, 0, 0]
    assert g.state.players[AUTOMA, P_SCIENCE].tolist() == want_science


def test_automa_nothing_to_upgrade_skips_the_step() -> None:
    """§10 #9: with nothing to upgrade (her only building is the Palace) the Upgrade is skipped
    and the rest of card *1 (Gain VP, DL = 2 at level 3 round 1) still happens."""
    sc = solo().build(AUTOMA, "r1c2", "palace")
    g = sc.turn(0)
    before = g.state.hexes.copy()
    for code, value, flags in am.build_steps(1, 2, 1, "simpletons", 3):
        am.resolve_step(g, AUTOMA, code, value, flags, 2)
    assert np.array_equal(g.state.hexes, before)
    assert int(g.state.players[AUTOMA, P_VP]) == 22


def test_automa_power_you_would_gain_is_before_limits() -> None:
    """§10 #12 / §5.3 step 2: "power you gain" is the sum of adjacent human building values,
    before capacity or VP limits.  With the human's bowls full (no power can be gained at all)
    her Workshop r1c2 (next to the human Guild r0c3) still counts 2 and r1c6 (next to the human
    Workshop r1c7) 1, so the Upgrade takes r1c6 although RD 1 (*6) alone would take r1c2."""
    sc = solo().build(AUTOMA, "r1c2", "workshop").build(AUTOMA, "r1c6", "workshop")
    sc.build(0, "r0c3", "guild", terrain=False).build(0, "r1c7", "workshop").set(0, bowls=(0, 0, 12), vp=0)
    g = sc.turn(0)
    assert am.power_to_humans(g, parse_hex("r1c2")) == 2 and am.power_to_humans(g, parse_hex("r1c6")) == 1
    am.resolve_upgrade(g, AUTOMA, CARDS[6])
    assert g.state.hexes[parse_hex("r1c6"), H_BUILDING] == Building.GUILD
    assert g.state.hexes[parse_hex("r1c2"), H_BUILDING] == Building.WORKSHOP


def test_automa_power_you_would_gain_sums_both_humans() -> None:
    """§10 #12 (2 humans): the power of a hex is summed over both humans' adjacent buildings:
    a Workshop of each next to r4c9 (r4c10, r5c8) gives 2."""
    g = duo("simpletons:1:lake").build(0, "r4c10", "workshop").build(1, "r5c8", "workshop").turn(0)
    assert am.power_to_humans(g, parse_hex("r4c9")) == 2


def test_automa_cannot_advance_rules() -> None:
    """§10 #14 / §5.5 / §5.6: she cannot advance at 12, at 11 with 12 taken, or at 7 (no key);
    steps past 7 are lost.  Automa (7, 11, 3, 12), human Law 12, round tile T3 (Banking):
    Send Scholar SCORE (*3) cannot use Banking, so catch-up leaves only Engineering: the "3"
    space, 3 -> 6.  The Druids' 2-level advance then goes 6 -> 7 (1 step lost); after that
    nothing can advance and a further Advance does nothing."""
    # unchecked: she has no keys, so no real game takes her past 7 (R50); the rule text covers 11 and 12
    sc = solo("druids:3:lake").unchecked().round(1, tile="T3").set(AUTOMA, science=(7, 11, 3, 12))
    sc.set(0, science=(0, 12, 0, 0))
    g = sc.turn(0)
    am.resolve_scholar(g, AUTOMA, CARDS[3])
    assert g.state.players[AUTOMA, P_SCIENCE].tolist() == [7, 11, 6, 12]
    am.resolve_step(g, AUTOMA, am.ADVANCE, 2, am.FACTION_FLAG, 1)
    assert g.state.players[AUTOMA, P_SCIENCE].tolist() == [7, 11, 7, 12]
    assert am.catch_up(g, AUTOMA, CARDS[1]) is None
    supply = int(g.state.players[AUTOMA, P_SCHOLAR_SUPPLY])
    am.resolve_scholar(g, AUTOMA, CARDS[3])
    am.resolve_step(g, AUTOMA, am.ADVANCE, 1, 0, 1)
    assert g.state.players[AUTOMA, P_SCIENCE].tolist() == [7, 11, 7, 12]
    assert int(g.state.players[AUTOMA, P_SCHOLAR_SUPPLY]) == supply


@pytest.mark.parametrize(
    ("automa", "human", "card", "want"),
    [
        # no marker at 0 (filter a skipped); |3-1| 2, |5-6| 1 (below), |2-6| 4, |4-6| 2 -> Law
        ((3, 5, 2, 4), (1, 6, 6, 6), 2, 1),
        # she is above: |3-4| 1, |5-4| 1, |2-1| 1, |4-0| 4 -> B, L, E tie; directional B, L, E, M
        ((3, 5, 2, 4), (4, 4, 1, 0), 2, 2),  # *2 LU 1: the rightmost -> Engineering
        ((3, 5, 2, 4), (4, 4, 1, 0), 5, 1),  # *5 LU 2 -> Law
        ((3, 5, 2, 4), (4, 4, 1, 0), 7, 0),  # card 7 RD 4: (4 - 1) mod 3 = 0 -> Banking
        # (a) keeps the 0s (Law, Medicine); (b) |0-3| vs |0-3| tie; *1 RD 2 -> Medicine
        ((2, 0, 5, 0), (0, 3, 0, 3), 1, 3),
    ],
)
def test_automa_catch_up_filters(automa: tuple, human: tuple, card: int, want: int) -> None:
    """§10 #15 / §5.1: catch-up is successive filters, each skipped when it would leave nothing:
    (a) at 0; (b) closest to the human's marker by absolute difference; (c) directional over
    Banking, Law, Engineering, Medicine."""
    g = solo().set(AUTOMA, science=automa).set(0, science=human).turn(0)
    assert am.catch_up(g, AUTOMA, CARDS[card]) == want, DISC[want]


def test_automa_catch_up_with_two_humans_uses_the_highest_marker() -> None:
    """§5.1 catch-up (b) with several humans / §10 #15: closest to the highest human marker.
    Automa (2, 2, 5, 5); humans (2, 0, 0, 5) and (0, 4, 5, 0): highest (2, 4, 5, 5), so Banking,
    Engineering and Medicine are level (0) and Law is 2 away; *2 LU 1 -> Medicine."""
    sc = duo("simpletons:1:lake").set(2, science=(2, 2, 5, 5)).set(0, science=(2, 0, 0, 5)).set(1, science=(0, 4, 5, 0))
    g = sc.turn(0)
    assert am.catch_up(g, 2, CARDS[2]) == 3
    assert am.catch_up(g, 2, CARDS[1]) == 2  # *1 RD 2 of [B, E, M] -> Engineering


def test_automa_bonus_row_returned_tile_takes_the_taken_slot() -> None:
    """§10 #20 / §4.5 step 3: she takes the support card's slot (*2: middle) of the 3 face-up
    tiles; her old tile goes back into that slot, so the row keeps its positions; the coins on
    the taken tile go back to the supply (she keeps none)."""
    sc = solo().round(2)
    g = sc.turn(0)
    row = [int(t) for t in g.state.glob[G_BONUS_ROW] if t >= 0]
    old = int(g.state.players[AUTOMA, P_BONUS])
    assert len(row) == 3 and old >= 0 and old not in row
    g.state.glob[G_BONUS_COINS.start + row[1]] = 2
    am.automa_pass(g, AUTOMA, 2)
    assert int(g.state.players[AUTOMA, P_BONUS]) == row[1]
    assert [int(t) for t in g.state.glob[G_BONUS_ROW] if t >= 0] == [row[0], old, row[2]]
    assert int(g.state.players[AUTOMA, P_COINS]) == 0 and int(g.state.glob[G_BONUS_COINS.start + row[1]]) == 0


def _set_deck(g: Game, deck: list[int]) -> None:
    rec = am.record(g, AUTOMA)
    am._store(rec, am.A_DECK, am.A_DECK_LEN, deck)
    am._store(rec, am.A_DISCARD, am.A_DISCARD_LEN, [])


@pytest.mark.parametrize(
    ("deck", "passes", "slot"),
    [
        ([1, 2, 5], True, 0),  # draw *1; action *2 has the pass icon, 2 cards left: pass, *1 -> left
        ([3, 4], True, 2),  # draw *3; action *4 (pass icon), 1 card left: pass, *3 -> right
        ([5], True, 1),  # draw *5; no action card: pass, *5 -> middle
        ([2, 1, 5], False, None),  # draw *2; action *1 has no pass icon: she acts
    ],
)
def test_automa_pass_check_after_the_draw_uses_the_drawn_card(deck: list[int], passes: bool, slot: int | None) -> None:
    """§10 #21 / §4.3: draw first (the drawn card is the support card, the next one the action
    card), then check for passing; the round-bonus pick uses the card just drawn.  When she acts,
    the queued steps carry the drawn card as their support card."""
    g = solo().round(2).turn(0)
    _set_deck(g, deck)
    row = [int(t) for t in g.state.glob[G_BONUS_ROW] if t >= 0]
    am.take_turn(g, AUTOMA)
    rec = am.record(g, AUTOMA)
    assert am._pile(rec, am.A_DISCARD, am.A_DISCARD_LEN) == [deck[0]]
    assert am._pile(rec, am.A_DECK, am.A_DECK_LEN) == deck[1:]
    assert int(g.state.players[AUTOMA, P_PASSED]) == int(passes)
    if passes:
        assert int(g.state.players[AUTOMA, P_BONUS]) == row[slot]
    else:
        top = pending.top(g.state)
        assert top[:6] == (Kind.AUTOMA_STEP, AUTOMA, am.UPGRADE, 0, 0, 2)  # action *1, support *2


def test_automa_racelings_not_first_to_pass_score_once() -> None:
    """§10 #22 / §7 Racelings: the double VP needs that no seat has passed earlier this round;
    after the human passed she takes the round tile's Automa VP once (T1, rounds 4-6: 4)."""
    g = solo("racelings:3:lake").round(4, tile="T1").turn(0)
    g.state.players[0, P_PASSED] = 1
    g.state.glob[G_NEXT_ORDER.start] = 0
    g.state.glob[G_NEXT_COUNT] = 1
    am.automa_pass(g, AUTOMA, 2)
    assert int(g.state.players[AUTOMA, P_VP]) == 20 + 4
    assert g.state.glob[G_NEXT_ORDER][:2].tolist() == [0, AUTOMA]


@pytest.mark.parametrize(
    ("second", "want"),
    [
        # Lake r4c7 vs Wasteland r5c8: Plains A ranks Wasteland 4, Lake 6; Swamp A ranks Lake 3,
        # Wasteland 7.  Best of both: Lake 3 < Wasteland 4 -> r4c7 (the first human alone: r5c8)
        ("wasteland", "r4c7"),
        # Lake r4c7 vs Desert r5c8: Plains A Desert 2; Swamp A Lake 3, Desert 4.  Best of both:
        # Desert 2 -> r5c8 (the second human alone: r4c7)
        ("desert", "r5c8"),
    ],
)
def test_automa_mimics_with_two_humans_rank_by_the_best_human_atp(second: str, want: str) -> None:
    """§10 #23: Mimics (and Kuddlers) with 2 humans rank a hex by its best rank over the humans'
    ATP lists (Plains and Swamp, side A of support *1).  Her marked r4c8 (3-5 side, level 1:
    ship 0) has the land neighbours r3c7, r4c7, r4c9, r5c7, r5c8; r4c7 is made Lake, r5c8 the
    other terrain, the rest Mountain (best rank 5)."""
    sc = duo("mimics:1:lake").build(2, "r4c8", "workshop")
    for x in ("r3c7", "r4c9", "r5c7"):
        sc.terrain(x, "mountain")
    sc.terrain("r4c7", "lake").terrain("r5c8", second)
    g = sc.turn(0)
    mark(g, "r4c8")
    assert names(am.valid_hexes(g, 2, "M")) == {"r3c7", "r4c7", "r4c9", "r5c7", "r5c8"}
    assert name(am.choose_tb_hex(g, 2, CARDS[1], faction_step=True, anywhere=False)) == want


def test_automa_your_buildings_are_the_humans_with_two_automas() -> None:
    """§10 #24: with two Automas "your buildings" are the human's only.  Automa 1 (seat 1) has
    her marked r4c8 (3-5 side; neighbours r3c7, r4c7, r4c9, r5c7, r5c8, all made Mountain so
    the ATP ties); Automa 2 (seat 2) has a Guild on r5c7, next to r4c7 and r5c8; the human's
    Workshop r4c11 is 2 steps from r4c9 and 3 from r5c8.  Closest to the human -> r4c9, and no
    hex next to Automa 2 counts any power."""
    sc = Scenario("aoi(players=1,automa=simpletons:1:lake+druids:1:forest)", factions=["goblins"], boards=["plains"])
    sc.build(1, "r4c8", "workshop").build(2, "r5c7", "guild").build(0, "r4c11", "workshop")
    for x in ("r3c7", "r4c7", "r4c9", "r5c8"):
        sc.terrain(x, "mountain")
    g = sc.turn(0)
    mark(g, "r4c8")
    assert g.geo.name == "3-5" and g.is_automa(1) and g.is_automa(2)
    assert names(am.valid_hexes(g, 1, "M")) == {"r3c7", "r4c7", "r4c9", "r5c8"}
    assert name(am.choose_tb_hex(g, 1, CARDS[2], faction_step=False, anywhere=False)) == "r4c9"  # LU 1 otherwise r5c8
    assert am.power_to_humans(g, parse_hex("r4c7")) == 0 and am.power_to_humans(g, parse_hex("r5c8")) == 0
    assert buildings.offers(g, 1, parse_hex("r5c8")) == []


@pytest.mark.parametrize(
    ("faction", "action", "want"),
    [
        ("simpletons", 1, [(am.UPGRADE, 0, 0), (am.VP, 2, 0)]),  # Upgrade; Gain VP
        ("simpletons", 6, [(am.INNOVATION, 0, 0), (am.ADVANCE, 1, 0)]),  # Take Innovation; Advance
        ("simpletons", 8, [(am.SCHOLAR, 0, 0), (am.VP, 3, 0)]),  # Send Scholar; Gain VP 3
        ("simpletons", 13, [(am.TB, 0, 0), (am.VP, 3, 0)]),  # T&B; Gain VP 3
        ("kuddlers", 7, [(am.TB, 0, am.FACTION_FLAG), (am.VP, 3, am.FACTION_FLAG)]),  # faction T&B -> VP DL+1
        ("powermongers", 13, [(am.TB, 0, 0), (am.PM_ADVANCE, 1, 0), (am.VP, 3, 0)]),  # §4.4.2 insertion
        ("powermongers", 10, [(am.UPGRADE, 0, 0), (am.PM_ADVANCE, 1, 0), (am.VP, 2, 0)]),
    ],
)
def test_automa_steps_in_printed_order(faction: str, action: int, want: list) -> None:
    """§10 #25 / §4.4: the steps follow the card's printed order (level 3, round 3: DL 2)."""
    assert am.build_steps(action, 1, 3, faction, 3) == want


def test_automa_steps_are_resolved_in_printed_order() -> None:
    """§10 #25 / §4.3 step 3: the queued steps of a turn come off the stack in printed order
    (action *1: Upgrade, then Gain VP)."""
    g = solo().round(3).turn(0)
    _set_deck(g, [2, 1, 5])
    am.take_turn(g, AUTOMA)
    rows = [pending.pop(g.state) for _ in range(2)]
    assert [r[2] for r in rows] == [am.UPGRADE, am.VP]


def test_automa_founds_no_city_and_takes_no_palace_or_competency() -> None:
    """§10 #26 / #27 / §11.2: she founds no city (no tile, no key) and takes no Palace tile or
    competency.  Her group r0c2 G, r0c3 W, r1c2 W, r1c3 G (power 6, 4 buildings) reaches power 7
    when RD 2 (*1) upgrades r0c3 (2nd of r0c2, r0c3, r1c2, r1c3; nobody is next to a human) to a
    Guild: a human would found a city.  Then r0c3 becomes her Palace (RD 2 again) and r0c2
    (RD 1, *6) a School, as the Palace is used."""
    sc = solo().build(AUTOMA, "r0c2", "guild").build(AUTOMA, "r0c3", "workshop")
    sc.build(AUTOMA, "r1c2", "workshop").build(AUTOMA, "r1c3", "guild")
    g = sc.turn(0)
    palace_state = g.state.glob[G_PALACE_STATE].copy()
    comp_left = g.state.glob[G_COMP_LEFT].copy()
    h = g.state.hexes
    for card, hex_, new in ((1, "r0c3", Building.GUILD), (1, "r0c3", Building.PALACE), (6, "r0c2", Building.SCHOOL)):
        am.resolve_upgrade(g, AUTOMA, CARDS[card])
        assert h[parse_hex(hex_), H_BUILDING] == new
        kinds = stack_kinds(g, AUTOMA)
        assert not {Kind.CITY_CHECK, Kind.CHOOSE_CITY, Kind.CHOOSE_PALACE, Kind.CHOOSE_COMPETENCY} & set(kinds)
        g._advance()
    p = g.state.players[AUTOMA]
    assert int(p[P_CITIES]) == 0 and not h[h[:, H_OWNER] == AUTOMA, H_CITY].any()
    assert int(p[P_PALACE_TILE]) == -1 and np.array_equal(g.state.glob[G_PALACE_STATE], palace_state)
    assert int(p[P_COMPETENCIES]) == 0 and np.array_equal(g.state.glob[G_COMP_LEFT], comp_left)


def test_automa_mark_stays_when_upgraded() -> None:
    """§10 #29 / §5.1: the mark belongs to the hex: her marked Workshop r1c2, upgraded, is a
    marked Guild, still the source of an M structure selection (its 6 land neighbours) and not
    of a U one."""
    g = solo().build(AUTOMA, "r1c2", "workshop").turn(0)
    mark(g, "r1c2")
    am.resolve_upgrade(g, AUTOMA, CARDS[1])
    pos = parse_hex("r1c2")
    assert g.state.hexes[pos, H_BUILDING] == Building.GUILD and g.state.hexes[pos, H_MARK] == 1
    assert names(am.valid_hexes(g, AUTOMA, "M")) == {"r1c1", "r1c3", "r0c2", "r0c3", "r2c2", "r2c3"}
    assert am.valid_hexes(g, AUTOMA, "U") == []


FINAL_TILES = {1: ("medicine", 8), 2: ("law", 6), 3: ("engineering", 7), 4: ("banking", 7)}  # §2.4, by app number


@pytest.mark.parametrize("final", ["F1", "F2", "F3", "F4"])
def test_automa_round_6_uses_the_final_tile_and_takes_no_bonus_tile(final: str) -> None:
    """§2.4 / §5.1 scoring-tile selection / §10 #30 / §4.5: in round 6 her pass VP and the
    SCORE discipline of Send Scholar come from the final round tile, not the 6th Round Score
    tile (here T8: Engineering, 4 VP in rounds 4-6), and she takes no bonus tile.  Final tiles
    (app numbers) #1 Medicine 8, #2 Law 6, #3 Engineering 7, #4 Banking 7; the engine's ids are
    F4, F2, F3, F1 = app 1-4 (docs/automa.md)."""
    app = am.automa_data().final_tiles[final]["app"]
    assert app == {"F4": 1, "F2": 2, "F3": 3, "F1": 4}[final]
    discipline, vp = FINAL_TILES[app]
    g = solo().round(6, tile="T8", final=final).turn(0)
    bonus = int(g.state.players[AUTOMA, P_BONUS])
    row = g.state.glob[G_BONUS_ROW].copy()
    am.resolve_scholar(g, AUTOMA, CARDS[3])  # *3: SCORE
    want = [0, 0, 0, 0]
    want[DISC.index(discipline)] = 3  # the "3" space
    assert g.state.players[AUTOMA, P_SCIENCE].tolist() == want
    am.automa_pass(g, AUTOMA, 1)
    assert int(g.state.players[AUTOMA, P_VP]) == 20 + vp
    assert int(g.state.players[AUTOMA, P_BONUS]) == bonus and np.array_equal(g.state.glob[G_BONUS_ROW], row)


def test_automa_pass_vp_worked_example() -> None:
    """§2.4: the spec's example: app tiles [1, 4, 5, 9, 11, 12] with final tile 2 give pass VP
    3, 4, 2, 4, 5, 6 and disciplines Banking, Law, Law, Engineering, Medicine, Law."""
    by_app = {row["app"]: key for key, row in am.automa_data().round_tiles.items()}
    final = next(k for k, row in am.automa_data().final_tiles.items() if row["app"] == 2)
    vps, disciplines = [], []
    for rnd, app in enumerate([1, 4, 5, 9, 11, 12], start=1):
        g = solo().round(rnd, tile=by_app[app], final=final).turn(0)
        vps.append(am.pass_vp(g))
        disciplines.append(DISC[am.scoring_discipline(g)])
    assert vps == [3, 4, 2, 4, 5, 6]
    assert disciplines == ["banking", "law", "law", "engineering", "medicine", "law"]


def test_automa_build_offers_power_by_the_normal_rule() -> None:
    """§10 #31 / §1: a human next to her new Workshop is offered power as for any build (R42):
    her T&B from the marked r1c2 goes to r1c3 (ATP swamp, next to the human Guild r0c3), the
    human is offered 2; accepting gains 2 power for 1 VP, declining changes nothing."""
    for answer, power, vp in (("leech accept", 2, 29), ("leech decline", 0, 30)):
        sc = solo().build(AUTOMA, "r1c2", "workshop").build(0, "r0c3", "guild", terrain=False)
        g = sc.set(0, bowls=(5, 7, 0), vp=30).turn(0)
        mark(g, "r1c2")
        am.resolve_tb(g, AUTOMA, CARDS[1], faction_step=False, anywhere=False)
        assert g.state.hexes[parse_hex("r1c3"), H_OWNER] == AUTOMA
        g._refresh()
        assert g.pending_kind() == Kind.OFFER and g.current_seat() == 0
        assert pending.top(g.state)[2] == 2
        before = g.clone()
        g.apply_move(answer)
        assert power_moved(before, g, 0) == power and int(g.state.players[0, P_VP]) == vp


def test_automa_randomness_is_seeded() -> None:
    """§9 / §10 #34: every random element (decks, reserve, the initial-Workshop card, reshuffles)
    comes from the game seed: the same seed gives the same deck, reserve and setup card and,
    played with the same human moves, the same game to the end; other seeds differ."""

    def setup(seed: int) -> tuple:
        g = Game("aoi(players=1,automa=simpletons:4,setup_choices=random)", seed=seed)
        rec = am.record(g, AUTOMA)
        piles = (tuple(am._pile(rec, am.A_DECK, am.A_DECK_LEN)), tuple(am._pile(rec, am.A_RESERVE, am.A_RESERVE_LEN)))
        return g, (*piles, int(rec[am.A_SETUP_CARD]))

    def play(seed: int) -> bytes:
        g, _ = setup(seed)
        rng = np.random.default_rng(seed)
        while not g.is_over():
            g.apply_action(biased_random_action(g, rng))
        return g.state.to_bytes()

    assert setup(3)[1] == setup(3)[1]
    assert len({setup(seed)[1] for seed in range(6)}) > 1
    assert play(3) == play(3)


@pytest.mark.parametrize("faction", ["symbionts", "blight", "gognomes"])
def test_automa_factions_without_a_card_text_are_refused(faction: str) -> None:
    """§11.1: the Symbionts', Blight's and Gognomes' faction cards are not in the app, so these
    factions cannot be played; asking for one is an error that says so."""
    with pytest.raises(ValueError, match="is not supported"):
        Game(f"aoi(players=1,automa={faction}:3)", seed=0)
