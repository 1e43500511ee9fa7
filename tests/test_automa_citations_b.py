"""Focused tests for AUTOMA.md §5-§10 where the citing tests could not fail on a section's own
edge cases (how each action is resolved, the full turn, faction rules, final scoring,
randomness and the §10 decisions).

Each test cites its section; the expected values are worked out from the spec text and the
printed board, not read off the engine.  Complements ``test_automa.py``,
``test_automa_rules.py`` and the random-game oracles.

Hex names use the DATA.md frame (1-3 side, 1 human + 1 Automa); the printed terrain of that
side, with the neighbour rule, is drawn in ``test_automa_rules.py``'s docstring.
"""

from __future__ import annotations

import numpy as np
import pytest

from aoi_env.core import automa as am
from aoi_env.core import pending
from aoi_env.core.board import parse_hex
from aoi_env.core.engine import Game
from aoi_env.core.pending import Kind
from aoi_env.core.rules import buildings, scoring
from aoi_env.core.state import (
    G_BOOKS_USED,
    G_DEPTH,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEXT_COUNT,
    G_NEXT_ORDER,
    G_ORDER,
    G_RNG_COUNTER,
    G_ROUND,
    G_SCHOLAR_SPACES,
    G_SEED,
    G_SPELLS_USED,
    G_TURN,
    H_BUILDING,
    H_MARK,
    H_OWNER,
    H_TERRAIN,
    P_INNOVATIONS,
    P_PASSED,
    P_SCHOLAR_SUPPLY,
    P_SCIENCE,
    P_VP,
)
from aoi_env.data.enums import Building, Terrain
from tests.test_automa_rules import mark, name, names, solo  # the same solo positions and hex names

AUTOMA = 1  # her seat with one human
CARDS = am.automa_data().cards


def building(g: Game, hex_: str) -> int:
    return int(g.state.hexes[parse_hex(hex_), H_BUILDING])


def her_turn_through_the_engine(g: Game, deck: list[int]) -> None:
    """Give her this deck (index 0 on top, empty discard) and let the engine play her turn
    (AUTOMA_TURN on her END_TURN, as ``flow._next_turn`` queues it) up to the next decision."""
    rec = am.record(g, AUTOMA)
    am._store(rec, am.A_DECK, am.A_DECK_LEN, deck)
    am._store(rec, am.A_DISCARD, am.A_DISCARD_LEN, [])
    s = g.state
    s.glob[G_TURN] = s.glob[G_ORDER].tolist().index(AUTOMA)
    s.glob[G_DEPTH] = 0
    pending.push(s, Kind.END_TURN, AUTOMA)
    pending.push(s, Kind.AUTOMA_TURN, AUTOMA)
    g._advance()
    g._refresh()


# ------------------------------------------------------------------------------------------------
# §5.1 shared concepts, §10 #5 "Bring together"


def test_automa_md_5_1_mr_bring_together_keeps_hexes_closer_to_the_unmarked_set() -> None:
    """AUTOMA.md §5.1 MR / §10 #5: marked r1c2 and unmarked r1c7 are not in Reach of each other
    (level 3, round 1: ship 1; d0 = 5).  M gives the 6 neighbours of r1c2; MR keeps those closer
    than 5 to the unmarked r1c7: only r1c3 (4; r0c3 and r2c3 are 5, the others 6).  UR, for
    contrast, keeps the unmarked's options closer than 5 to the marked r1c2: only r1c6 (4)."""
    sc = solo().build(AUTOMA, "r1c2", "workshop").build(AUTOMA, "r1c7", "workshop").build(0, "r8c3", "workshop")
    g = sc.turn(0)
    mark(g, "r1c2")
    assert names(am.valid_hexes(g, AUTOMA, "M")) == {"r1c1", "r1c3", "r0c2", "r0c3", "r2c2", "r2c3"}
    assert names(am.valid_hexes(g, AUTOMA, "MR")) == {"r1c3"}
    assert names(am.valid_hexes(g, AUTOMA, "U")) == {"r0c7", "r0c8", "r1c6", "r1c8", "r2c7", "r3c8"}
    assert names(am.valid_hexes(g, AUTOMA, "UR")) == {"r1c6"}
    # the T&B of card *5 (MR, ATP A, LU 2) therefore builds on r1c3, and marks it (§5.2 step 4)
    am.resolve_tb(g, AUTOMA, CARDS[5], faction_step=False, anywhere=False)
    pos = parse_hex("r1c3")
    assert g.state.hexes[pos, H_OWNER] == AUTOMA and g.state.hexes[pos, H_MARK] == 1


def test_automa_md_5_1_bring_together_only_when_marked_and_unmarked_are_not_in_reach() -> None:
    """AUTOMA.md §5.1 / §10 #5: the filter applies only "if no marked building is in Reach of any
    unmarked building".  Marked r0c6 and unmarked r0c4 are joined by the river hex r0c5 (ship 1
    at level 3): they are in Reach, so MR keeps every M hex (r0c7, r1c4, r1c6), although r1c4 is
    closer (1) to r0c4 than d0 = 2 and the filter would keep it alone."""
    sc = solo().build(AUTOMA, "r0c6", "workshop").build(AUTOMA, "r0c4", "workshop").build(0, "r8c3", "workshop")
    g = sc.turn(0)
    mark(g, "r0c6")
    assert names(am.valid_hexes(g, AUTOMA, "M")) == {"r0c7", "r1c4", "r1c6"}
    assert names(am.valid_hexes(g, AUTOMA, "MR")) == {"r0c7", "r1c4", "r1c6"}


def test_automa_md_5_1_bring_together_keeps_all_when_none_shrinks_the_distance() -> None:
    """AUTOMA.md §5.1 / §10 #5: "If no hex would shrink it, keep every hex found before".  Marked
    r1c2, unmarked r7c7 (d0 = 8, not in Reach); the two neighbours of r1c2 that are 7 from r7c7
    (r1c3, r2c3) hold human buildings, so no valid M hex (r0c2, r0c3, r1c1, r2c2: 8 or 9) is
    closer: MR keeps all four.  Valid hexes are empty land only: the built r1c3 / r2c3 are out."""
    sc = solo().build(AUTOMA, "r1c2", "workshop").build(AUTOMA, "r7c7", "workshop")
    g = sc.build(0, "r1c3", "workshop").build(0, "r2c3", "workshop").turn(0)
    mark(g, "r1c2")
    want = {"r0c2", "r0c3", "r1c1", "r2c2"}
    assert names(am.valid_hexes(g, AUTOMA, "M")) == want
    assert names(am.valid_hexes(g, AUTOMA, "MR")) == want


def test_automa_md_5_1_terrain_priority_uses_the_support_cards_side() -> None:
    """AUTOMA.md §5.1 terrain-priority tie-breaker: the ATP side comes from the support card.
    Her marked Lake r1c2; its neighbour r0c2 made Forest; the other neighbours are Swamp (r1c1,
    r1c3), Desert (r0c3), Plains (r2c2), Mountain (r2c3).  Lake side A (Lake, Swamp, Forest, ...)
    keeps the swamps: *1 (M, A, RD 2) builds on one of them; Lake side B (Lake, Forest, Swamp, ...)
    keeps the Forest r0c2: *2 (M, B, LU 1) builds there."""
    sc = solo().build(AUTOMA, "r1c2", "workshop").build(0, "r8c3", "workshop").terrain("r0c2", "forest")
    g = sc.turn(0)
    mark(g, "r1c2")
    assert name(am.choose_tb_hex(g, AUTOMA, CARDS[2], faction_step=False, anywhere=False)) == "r0c2"
    assert name(am.choose_tb_hex(g, AUTOMA, CARDS[1], faction_step=False, anywhere=False)) in {"r1c1", "r1c3"}


def test_automa_md_5_1_human_atp_of_mimics_uses_the_support_cards_side() -> None:
    """AUTOMA.md §5.1 / §5.2 step 3: the Mimics' faction T&B ranks by *your* ATP "(support
    side)".  Her marked Lake r1c2 with the neighbours Swamp r1c1, r1c3, Desert r0c3, Mountain
    r0c2, r2c3 and r2c2 (made Mountain); the human (Plains) has a Workshop on r0c4.  Plains side A
    (Plains, Desert, Swamp, ...) keeps the Desert r0c3 (*1, A); side B (Plains, Swamp, Desert,
    ...) keeps the swamps, and closest to r0c4 takes r1c3 (*2, B)."""
    sc = solo("mimics:3:lake").build(AUTOMA, "r1c2", "workshop").build(AUTOMA, "r7c7", "workshop")
    g = sc.build(0, "r0c4", "workshop").terrain("r2c2", "mountain").turn(0)
    mark(g, "r1c2")
    assert name(am.choose_tb_hex(g, AUTOMA, CARDS[1], faction_step=True, anywhere=False)) == "r0c3"
    assert name(am.choose_tb_hex(g, AUTOMA, CARDS[2], faction_step=True, anywhere=False)) == "r1c3"


def test_automa_md_5_1_power_you_would_gain_counts_neutral_buildings_and_pavilions() -> None:
    """AUTOMA.md §5.1 "Power you would gain": human buildings adjacent to the hex by their power
    value, neutral buildings by their own value (Tower 2, Monument 4); docs/automa.md #12: a
    pavilion adds 1.  r1c2 has the neighbours r0c2 (a human neutral Monument: 4), r0c3 (a human
    neutral Tower: 2) and r1c3 (a human Workshop with a pavilion: 1 + 1): 8.  Her own building
    next to it counts nothing."""
    sc = solo().build(0, "r0c2", "monument", neutral=True).build(0, "r0c3", "tower", neutral=True)
    sc.build(0, "r1c3", "workshop").pavilion("r1c3").build(AUTOMA, "r2c2", "workshop")
    g = sc.turn(0)
    assert am.power_to_humans(g, parse_hex("r1c2")) == 4 + 2 + 2
    assert am.power_to_humans(g, parse_hex("r2c3")) == 2  # next to r1c3 (2) and her r2c2 (nothing)


# ------------------------------------------------------------------------------------------------
# §5.2 Transform & Build


@pytest.mark.parametrize(("card", "structure"), [(1, "M"), (5, "MR"), (4, "U"), (3, "UR")])
def test_automa_md_5_2_step_4_marks_only_m_and_mr_builds(card: int, structure: str) -> None:
    """AUTOMA.md §5.2 step 4 / §5.1 marked buildings: a Workshop built by a T&B whose structure
    selection is M or MR gets a Power token (marked); U and UR builds stay unmarked.  Her marked
    r1c2 and unmarked r7c7, the human's r0c4; the hex changes to her terrain (Lake)."""
    assert CARDS[card].structure == structure
    sc = solo().build(AUTOMA, "r1c2", "workshop").build(AUTOMA, "r7c7", "workshop").build(0, "r0c4", "workshop")
    g = sc.turn(0)
    mark(g, "r1c2")
    before = set(np.flatnonzero(g.state.hexes[:, H_OWNER] == AUTOMA).tolist())
    am.resolve_tb(g, AUTOMA, CARDS[card], faction_step=False, anywhere=False)
    (new,) = set(np.flatnonzero(g.state.hexes[:, H_OWNER] == AUTOMA).tolist()) - before
    assert g.state.hexes[new, H_BUILDING] == Building.WORKSHOP and g.state.hexes[new, H_TERRAIN] == Terrain.LAKE
    assert int(g.state.hexes[new, H_MARK]) == int(structure.startswith("M"))
    assert int(g.state.hexes[parse_hex("r1c2"), H_MARK]) == 1 and int(g.state.hexes[parse_hex("r7c7"), H_MARK]) == 0


# ------------------------------------------------------------------------------------------------
# §5.3 Upgrade, §10 #10, #11


def test_automa_md_5_3_candidates_are_her_workshops_next_to_a_human() -> None:
    """AUTOMA.md §5.3 step 1 / §10 #10: with a Guild in her supply, the candidates are her
    *Workshops* directly adjacent to a human building, even when another of her buildings would
    give less power.  Her Workshop r1c2 is next to the human Guild r0c3 (power 2); her Guild r1c6
    next to the human Workshop r1c7 (power 1) is not a candidate, nor is her Workshop r7c7 far
    from everyone (power 0).  So r1c2 becomes a Guild."""
    sc = solo().build(AUTOMA, "r1c2", "workshop").build(AUTOMA, "r1c6", "guild").build(AUTOMA, "r7c7", "workshop")
    g = sc.build(0, "r0c3", "guild", terrain=False).build(0, "r1c7", "workshop").turn(0)
    am.resolve_upgrade(g, AUTOMA, CARDS[6])
    assert building(g, "r1c2") == Building.GUILD
    assert building(g, "r1c6") == Building.GUILD and building(g, "r7c7") == Building.WORKSHOP


def test_automa_md_5_3_no_workshop_next_to_a_human_means_every_upgradable_building() -> None:
    """AUTOMA.md §5.3 step 1 / §10 #10: with no Workshop of hers next to a human building, every
    building she can legally upgrade is a candidate, Guilds included.  Her Guild r0c2 and her
    Workshop r7c7 both give 0 power (the human's r4c10 is far); *6 RD 1 takes the first in reading
    order, r0c2, which becomes her Palace (§5.3 step 4)."""
    sc = solo().build(AUTOMA, "r0c2", "guild").build(AUTOMA, "r7c7", "workshop").build(0, "r4c10", "workshop")
    g = sc.turn(0)
    am.resolve_upgrade(g, AUTOMA, CARDS[6])
    assert building(g, "r0c2") == Building.PALACE and building(g, "r7c7") == Building.WORKSHOP


@pytest.mark.parametrize(
    ("pieces", "want"),
    [
        # School -> University (the only candidate)
        ({"r1c2": "school"}, {"r1c2": "university"}),
        # her University is on the map: the School cannot be upgraded, so the Guild (reading
        # order after r0c2, *6 RD 1 would otherwise take the School) becomes her Palace
        ({"r0c2": "school", "r1c2": "guild", "r7c7": "university"}, {"r0c2": "school", "r1c2": "palace"}),
        # her Palace is on the map: the Guild becomes a School
        ({"r1c2": "guild", "r7c7": "palace"}, {"r1c2": "school", "r7c7": "palace"}),
        # Palace, all 3 Schools and the University on the map: the Guild has no target, nothing
        # is upgraded (§10 #9)
        (
            {"r1c2": "guild", "r7c7": "palace", "r5c2": "school", "r5c3": "school", "r8c3": "school",
             "r8c5": "university"},
            {"r1c2": "guild", "r5c2": "school"},
        ),
    ],
)  # fmt: skip
def test_automa_md_5_3_step_4_upgrade_targets_and_pieces_in_supply(pieces: dict, want: dict) -> None:
    """AUTOMA.md §5.3 step 4 / §10 #11: Workshop -> Guild; Guild -> Palace if hers is still in
    supply, otherwise School; School -> University.  If the target piece is not in her supply,
    that building is not a candidate.  (No human building on the map; support *6: RD 1.)"""
    sc = solo()
    for hex_, piece in pieces.items():
        sc.build(AUTOMA, hex_, piece)
    g = sc.build(0, "r4c10", "workshop").turn(0)
    am.resolve_upgrade(g, AUTOMA, CARDS[6])
    for hex_, piece in want.items():
        assert building(g, hex_) == Building[piece.upper()], hex_


def test_automa_md_5_3_step_4_the_old_piece_goes_back_to_her_supply() -> None:
    """AUTOMA.md §5.3 step 4: the replaced piece goes back to her supply, "so a Workshop can be
    built again later".  All 9 Workshops on the map: an Upgrade (*1) leaves 1 Workshop in her
    supply, and the next T&B (*1) builds a Workshop instead of upgrading (§5.2 step 1)."""
    sc = solo()
    for x in ("r1c2", "r1c6", "r1c7", "r1c8", "r3c8", "r3c9", "r4c6", "r4c7", "r4c8"):
        sc.build(AUTOMA, x, "workshop")
    g = sc.build(0, "r8c3", "workshop").turn(0)
    mark(g, "r1c2")
    assert buildings.pieces_left(g, AUTOMA, Building.WORKSHOP) == 0
    am.resolve_upgrade(g, AUTOMA, CARDS[1])
    assert buildings.pieces_left(g, AUTOMA, Building.WORKSHOP) == 1
    h = g.state.hexes
    mine = (h[:, H_OWNER] == AUTOMA) & (h[:, H_BUILDING] > 0)
    assert int(np.count_nonzero(mine)) == 9
    am.resolve_tb(g, AUTOMA, CARDS[1], faction_step=False, anywhere=False)
    mine = (h[:, H_OWNER] == AUTOMA) & (h[:, H_BUILDING] > 0)
    assert int(np.count_nonzero(mine)) == 10
    assert int(np.count_nonzero(mine & (h[:, H_BUILDING] == Building.WORKSHOP))) == 9
    assert buildings.pieces_left(g, AUTOMA, Building.WORKSHOP) == 0


# ------------------------------------------------------------------------------------------------
# §5.4 BLOCK, §10 #18


def test_automa_md_5_4_block_reads_the_printed_rows_over_uncovered_spaces() -> None:
    """AUTOMA.md §5.4 / §10 #18: one X on an uncovered Power action and one on an uncovered Book
    action, each by directional selection over the *uncovered* spaces; the power actions are read
    in their printed order S1, S2, S4, S5, S3, S6.  Card 14 is RD 3: on an empty board S4 and the
    third book action; with S1, S2 and the first book action covered, S3 (the 3rd of S4, S5, S3,
    S6) and the second book action ((3 - 1) mod 2 = 0: the first of the 2 uncovered).  She gains
    nothing."""
    g = solo().turn(0)
    spell_ids = g.data.spell_ids
    before = g.state.players[AUTOMA].copy()
    am.resolve_block(g, AUTOMA, CARDS[14])
    used = [spell_ids[i] for i in np.flatnonzero(g.state.glob[G_SPELLS_USED])]
    assert used == ["S4"] and g.state.glob[G_BOOKS_USED].tolist() == [0, 0, 1]
    assert np.array_equal(g.state.players[AUTOMA], before)

    g = solo().turn(0)
    g.state.glob[G_SPELLS_USED.start + spell_ids.index("S1")] = 1
    g.state.glob[G_SPELLS_USED.start + spell_ids.index("S2")] = 1
    g.state.glob[G_BOOKS_USED.start] = 1
    am.resolve_block(g, AUTOMA, CARDS[14])
    used = {spell_ids[i] for i in np.flatnonzero(g.state.glob[G_SPELLS_USED])}
    assert used == {"S1", "S2", "S3"} and g.state.glob[G_BOOKS_USED].tolist() == [1, 1, 0]


def test_automa_md_5_4_a_full_row_is_skipped_and_the_x_tokens_come_off_at_round_end() -> None:
    """AUTOMA.md §5.4: "If a row has nothing uncovered, skip that part" -- the other part is still
    made: with every power action covered, card *2 (LU 1) covers the rightmost book action, and
    with every book action covered, the rightmost power action (S6).  "The X-tokens come off at
    round end": the human has passed, her next turn (deck [*5]: no action card) is a pass, the
    round ends and round 3 starts with no X-token left."""
    g = solo().round(2).build(AUTOMA, "r1c2", "workshop").turn(0)
    glob = g.state.glob
    glob[G_SPELLS_USED] = 1
    am.resolve_block(g, AUTOMA, CARDS[2])
    assert glob[G_SPELLS_USED].tolist() == [1] * 6 and glob[G_BOOKS_USED].tolist() == [0, 0, 1]
    glob[G_SPELLS_USED] = 0
    glob[G_BOOKS_USED] = 1
    am.resolve_block(g, AUTOMA, CARDS[2])
    assert glob[G_SPELLS_USED].tolist() == [0, 0, 0, 0, 0, 1] and glob[G_BOOKS_USED].tolist() == [1] * 3
    g.state.players[0, P_PASSED] = 1  # the human passed first
    glob[G_NEXT_ORDER.start] = 0
    glob[G_NEXT_COUNT] = 1
    her_turn_through_the_engine(g, [5])
    assert int(glob[G_ROUND]) == 3 and g.current_seat() == 0
    assert not glob[G_SPELLS_USED].any() and not glob[G_BOOKS_USED].any()


# ------------------------------------------------------------------------------------------------
# §5.5 Send Scholar, §10 #17


def test_automa_md_5_5_scholar_spaces_taken_by_anyone_are_not_free() -> None:
    """AUTOMA.md §5.5 step 2 / §10 #17: the highest-valued *empty* space; a space taken by the
    human is not available.  Round tile T3 (Banking icon), *3 SCORE: the human holds the Banking
    "3" space, so she takes a "2" space: Banking 2, one Scholar from her supply."""
    g = solo().round(1, tile="T3").scholar_space(0, "banking", 0).turn(0)
    am.resolve_scholar(g, AUTOMA, CARDS[3])
    assert g.state.players[AUTOMA, P_SCIENCE].tolist() == [2, 0, 0, 0]
    assert g.state.glob[G_SCHOLAR_SPACES][:4].tolist() == [0, AUTOMA, -1, -1]
    assert int(g.state.players[AUTOMA, P_SCHOLAR_SUPPLY]) == 6


def test_automa_md_5_5_no_free_space_or_no_scholar_advances_one_level() -> None:
    """AUTOMA.md §5.5 step 3: without an empty space under the discipline, or without a Scholar
    in her supply, she advances 1 level and places no Scholar.
    1. The human holds all 4 Banking spaces (T3, *3 SCORE): Banking 1, her 7 Scholars stay.
    2. Her 7 Scholars sit on the Law and Engineering spaces: Banking 1, the Banking spaces stay
       empty."""
    g = solo().set(0, scholar_supply=7).round(1, tile="T3")
    for space in range(4):
        g.scholar_space(0, "banking", space)
    g = g.turn(0)
    am.resolve_scholar(g, AUTOMA, CARDS[3])
    assert g.state.players[AUTOMA, P_SCIENCE].tolist() == [1, 0, 0, 0]
    assert int(g.state.players[AUTOMA, P_SCHOLAR_SUPPLY]) == 7

    sc = solo().round(1, tile="T3")
    for d, space in [("law", s) for s in range(4)] + [("engineering", s) for s in range(3)]:
        sc.scholar_space(AUTOMA, d, space)
    g = sc.set(AUTOMA, science=(0, 7, 7, 0)).turn(0)  # Law 3 + 2 + 2 + 2 stops at 7 (no key, §10 #14)
    assert int(g.state.players[AUTOMA, P_SCHOLAR_SUPPLY]) == 0
    am.resolve_scholar(g, AUTOMA, CARDS[3])
    assert g.state.players[AUTOMA, P_SCIENCE].tolist() == [1, 7, 7, 0]
    assert g.state.glob[G_SCHOLAR_SPACES][:4].tolist() == [-1, -1, -1, -1]


# ------------------------------------------------------------------------------------------------
# §5.7 Take Innovation, §10 #19


@pytest.mark.parametrize("held", [2, 3])
def test_automa_md_5_7_she_takes_an_innovation_only_while_holding_fewer_than_3(held: int) -> None:
    """AUTOMA.md §5.7 / §10 #19: "If she holds fewer than 3 innovations, take one": with 2 she
    takes her third (*6 RD 1: the left wide space), with 3 nothing changes."""
    sc = solo().round(3)
    shown = set(sc.g.state.glob[G_INNOV_SPACES].tolist())
    keys = [k for i, k in enumerate(sc.g.data.innovation_keys) if i not in shown][:held]
    g = sc.innovation(AUTOMA, *keys).turn(0)
    tiles = g.state.glob[G_INNOV_SPACES].tolist()
    owners = g.state.glob[G_INNOV_OWNER].copy()
    am.resolve_innovation(g, AUTOMA, CARDS[6])
    p = g.state.players[AUTOMA]
    if held == 2:
        assert int(np.count_nonzero(p[P_INNOVATIONS] >= 0)) == 3 and p[P_INNOVATIONS.start + 2] == tiles[4]
        assert g.state.glob[G_INNOV_OWNER.start + tiles[4]] == AUTOMA
    else:
        assert int(np.count_nonzero(p[P_INNOVATIONS] >= 0)) == 3
        assert np.array_equal(g.state.glob[G_INNOV_OWNER], owners)
    assert int(p[P_VP]) == 20


# ------------------------------------------------------------------------------------------------
# §5.9 faction-only steps


@pytest.mark.parametrize("faction", ["symbionts", "blight"])
def test_automa_md_5_9_factions_with_faction_only_steps_are_refused(faction: str) -> None:
    """AUTOMA.md §5.9: the Symbionts' Tool and the Blight's Fallow Land steps need rules the app
    does not give (what Tools and Fallow / Blighted Land do, §11.1); the engine does not play
    them (docs/automa.md): asking for either faction is an error, and no supported faction's
    Faction action has a step the engine would not resolve."""
    with pytest.raises(ValueError, match="not supported"):
        Game(f"aoi(players=1,automa={faction}:3)", seed=0)
    for data in am.automa_data().factions.values():
        assert set(data["faction_action"]) <= {"tb", "tb_anywhere", "advance2", "vp"}


# ------------------------------------------------------------------------------------------------
# §6 the full turn, §9 randomness


def _three_workshops() -> Game:
    """Her Workshops r1c2 (marked), r4c6, r7c7; the human's r8c10 far away (level 3, round 2)."""
    sc = solo().round(2).build(AUTOMA, "r1c2", "workshop").build(AUTOMA, "r4c6", "workshop")
    g = sc.build(AUTOMA, "r7c7", "workshop").build(0, "r8c10", "workshop").turn(0)
    mark(g, "r1c2")
    return g


def test_automa_md_6_a_full_turn_draws_checks_and_resolves_with_the_support_card() -> None:
    """AUTOMA.md §6: draw (support = the drawn card, action = the next), pass check, build the
    steps of the action card and resolve each with the *support* card's parameters.  Deck
    [*2, *1, *5]: support *2 (LU 1), action *1 (Upgrade; Gain VP DL = 2 at level 3 round 2), 2
    cards left and *1 has no pass icon: she acts.  Upgrade: no Workshop is next to a human, so all
    three (power 0) are candidates; LU 1 takes the last in reading order, r7c7 (the action card's
    own RD 2 would take r4c6).  Then +2 VP, and the human is to act."""
    g = _three_workshops()
    her_turn_through_the_engine(g, [2, 1, 5])
    rec = am.record(g, AUTOMA)
    assert am._pile(rec, am.A_DISCARD, am.A_DISCARD_LEN) == [2] and am._pile(rec, am.A_DECK, am.A_DECK_LEN) == [1, 5]
    assert [building(g, x) for x in ("r1c2", "r4c6", "r7c7")] == [Building.WORKSHOP] * 2 + [Building.GUILD]
    assert int(g.state.players[AUTOMA, P_VP]) == 22 and not g.state.players[AUTOMA, P_PASSED]
    assert g.current_seat() == 0 and g.pending_kind() == Kind.MAIN


def test_automa_md_6_a_turn_with_no_action_card_is_a_pass() -> None:
    """AUTOMA.md §6: "if action is None ... automa_pass(support)": deck [*5]: she draws *5, no
    action card is left, so she passes (the round tile's Automa VP, §4.5) and does nothing on the
    map.  Deck [*1, *4, *3]: she draws *1; the action card *4 has the pass icon and only 2 cards
    are left, so she passes too (§4.3)."""
    for deck in ([5], [1, 4, 3]):
        g = _three_workshops()
        hexes = g.state.hexes.copy()
        her_turn_through_the_engine(g, deck)
        assert g.state.players[AUTOMA, P_PASSED] == 1, deck
        assert int(g.state.players[AUTOMA, P_VP]) == 20 + am.pass_vp(g), deck
        assert np.array_equal(g.state.hexes, hexes), deck


def test_automa_md_9_nothing_is_random_inside_a_turn() -> None:
    """AUTOMA.md §9: "Nothing is random inside a turn": given the map and the cards, her turn is
    the same whatever the game's random stream.  Two copies of a position that differ only in the
    seed and the RNG counter play the same T&B turn (deck [*2, *4, *5]: support *2, action *4)
    and the same Upgrade turn (deck [*2, *1, *5]) to identical states."""
    for deck in ([2, 4, 5], [2, 1, 5]):
        a = _three_workshops()
        b = a.clone()
        b.state.glob[G_SEED] += 12345
        b.state.glob[G_RNG_COUNTER] += 7
        her_turn_through_the_engine(a, deck)
        her_turn_through_the_engine(b, deck)
        assert np.array_equal(a.state.hexes, b.state.hexes), deck
        assert np.array_equal(a.state.players, b.state.players), deck
        glob_a, glob_b = a.state.glob.copy(), b.state.glob.copy()
        for field in (G_SEED, G_RNG_COUNTER):
            glob_a[field] = glob_b[field] = 0
        assert np.array_equal(glob_a, glob_b), deck


# ------------------------------------------------------------------------------------------------
# §7 faction rules, §8 final scoring


def test_automa_md_7_powermongers_advance_needs_the_offer_of_this_build() -> None:
    """AUTOMA.md §7 Powermongers / §4.4.2: the conditional advance follows the T&B / Upgrade it is
    attached to: "whenever a human gains 2 or more power from an Automa building (built or
    upgraded)".  An offer of 2 from an earlier build does not count for a later Upgrade step that
    upgrades nothing (her only building is her Palace), nor for a T&B far from every human."""
    sc = solo("powermongers:3:lake").build(AUTOMA, "r1c2", "palace").build(0, "r8c10", "workshop")
    g = sc.turn(0)
    before = g.state.players[AUTOMA, P_SCIENCE].tolist()
    rec = am.record(g, AUTOMA)
    rec[am.A_LAST_OFFER] = 2  # an earlier build of hers offered the human 2 power
    am.resolve_step(g, AUTOMA, am.UPGRADE, 0, 0, 1)
    am.resolve_step(g, AUTOMA, am.PM_ADVANCE, 1, 0, 1)
    assert g.state.players[AUTOMA, P_SCIENCE].tolist() == before
    rec[am.A_LAST_OFFER] = 2
    am.resolve_step(g, AUTOMA, am.TB, 0, 0, 1)  # next to her Palace r1c2: far from r8c10
    assert int(np.count_nonzero(g.state.hexes[:, H_OWNER] == AUTOMA)) == 2
    am.resolve_step(g, AUTOMA, am.PM_ADVANCE, 1, 0, 1)
    assert g.state.players[AUTOMA, P_SCIENCE].tolist() == before


@pytest.mark.parametrize(("faction", "vp"), [("wanderers", 2 * 5), ("simpletons", 0), ("druids", 0)])
def test_automa_md_8_3_wanderers_score_2_per_building_of_any_kind(faction: str, vp: int) -> None:
    """AUTOMA.md §8.3 / §7 Wanderers: "+2 VP per own building anywhere on the board" -- every
    building, not only Workshops: Workshop, Guild, School, University and Palace give 10.  No
    other faction has this (§8: area and science only)."""
    sc = solo(f"{faction}:3:lake")
    for hex_, piece in (("r1c2", "workshop"), ("r4c6", "guild"), ("r7c7", "school"), ("r8c5", "university"),
                        ("r0c6", "palace")):  # fmt: skip
        sc.build(AUTOMA, hex_, piece)
    g = sc.build(0, "r8c10", "workshop").turn(0)
    assert am.end_game_vp(g, AUTOMA) == vp
    assert scoring.breakdown(g)["faction"][AUTOMA] == vp
