"""Each check of the state invariants has a state that only it refuses (issue 9).

A sixteenth-session mutation audit changed the checks of ``aoi_env/core/invariants.py`` one at a
time (a bound shifted, a kind or field dropped, a condition negated): 69 of 80 such mutants
passed the suite, because tests/test_bad_input.py had one representative case per group.  Each
case here edits a sound position (a game at its first setup or main-action decision, or in
Phase I / III) so that exactly one check is broken, and loading it must be refused with that
check's message, bounds included, so that a bound moved either way fails.  Rules: R8 (book
actions), R15-R16 (sets and draft, OP-54), R21-R22 (the initial placements), R24 (the neutral
scholars), R56-R58 and R78-R82 (the turn machine), R68 and R134 (palace tiles), AUTOMA.md §1,
§3.5 and §3.6 (what the Automa has, her cards, her initial Workshops).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from aoi_env import Game
from aoi_env.core import automa
from aoi_env.core.invariants import violations
from aoi_env.core.pending import BR_SPELL, PART_EFFECT, SRC_BOOK, UP_FREE, Kind
from aoi_env.core.state import (
    G_BONUS_ROW,
    G_BONUS_STATE,
    G_BOOK_ACTIONS,
    G_DEPTH,
    G_DRAFT_BOARDS,
    G_DRAFT_FACTIONS,
    G_NEUTRAL_LEFT,
    G_NEXT_COUNT,
    G_NEXT_ORDER,
    G_ORDER,
    G_PALACE_STATE,
    G_PHASE,
    G_ROUND,
    G_SCHOLAR_SPACES,
    G_SETUP_STEP,
    G_TURN,
    H_BUILDING,
    H_NEUTRAL,
    H_OWNER,
    NEUTRAL_SEAT,
    P_BOARD,
    P_BOOKS,
    P_BUILT,
    P_COMPETENCIES,
    P_DRAFT_PALACE,
    P_FACTION,
    P_NEUTRAL_BUILT,
    P_PALACE_TILE,
    P_TERRAFORMING,
    P_TOOLS,
    Phase,
    State,
)
from aoi_env.data.enums import Building
from aoi_env.testing import Scenario, play_random, random_action
from tests.test_bad_input import _at, _at_phase, _repeat_first, _row_below, _set


def _refused_after(g: Game, edit: Callable[[Game], None], message: str) -> None:
    """``g`` is sound; after ``edit`` breaks one fact, loading its state is refused naming it."""
    assert not violations(g)
    edit(g)
    with pytest.raises(ValueError, match=f"not a valid position .*{message}"):
        Game(g.config, state=State.from_bytes(g.state.to_bytes()))


def _turn(*rows: tuple[Kind, int]) -> Callable[[Game], None]:
    """Replace the pending stack by ``rows`` (kind, seat offset from the current seat), bottom first."""

    def edit(g: Game) -> None:
        s, me = g.state, g.current_seat()
        s.stack[:] = 0
        for i, (kind, offset) in enumerate(rows):
            s.stack[i, :2] = (kind, (me + offset) % g.seats)
        s.glob[G_DEPTH] = len(rows)

    return edit


def _drop_first_draft_pick(g: Game) -> None:
    """The lowest pending draft pick (a seat's last) removed: she would end the draft lacking a component."""
    s = g.state
    depth = int(s.glob[G_DEPTH])
    i = int(np.flatnonzero(s.stack[:depth, 0] == Kind.DRAFT_PICK)[0])
    s.stack[i : depth - 1] = s.stack[i + 1 : depth].copy()
    s.stack[depth - 1] = 0
    s.glob[G_DEPTH] = depth - 1


def _bonus_row_repeats_a_tile(g: Game) -> None:
    """The bonus row's first tile copied into its first empty cell (same set of tiles, one twice)."""
    row = g.state.glob[G_BONUS_ROW]
    row[int((row >= 0).sum())] = row[0]


def _palace_tile_1_without_a_palace(g: Game) -> None:
    g.state.glob[G_PALACE_STATE.start] = 0
    g.state.players[0, P_PALACE_TILE] = 0


def _automa_drafted_palace_tile(g: Game) -> None:
    tile = int(np.flatnonzero(g.state.glob[G_PALACE_STATE] == -1)[0])
    g.state.glob[G_PALACE_STATE.start + tile] = 1
    g.state.players[1, P_DRAFT_PALACE] = tile


SOLO = "aoi(players=1,automa=simpletons:3)"
P3 = "aoi(players=3)"
DRAFT = "aoi(players=3,distribution=draft)"
GLOB, PLAYERS = (lambda g: g.state.glob), (lambda g: g.state.players)


@pytest.mark.parametrize(
    ("config", "phase", "edit", "message"),
    [
        (P3, "actions", _set(GLOB, G_BONUS_STATE.start + 2, -3), "bonus tile B3 is with -3 by the display"),
        (P3, "actions", _set(GLOB, G_BOOK_ACTIONS.start, -1), r"book actions \[-1, 1, 2\]: not 3 different"),
        (P3, "actions", _bonus_row_repeats_a_tile, "bonus row .* is not the display's tiles"),
        (P3, "actions", _palace_tile_1_without_a_palace, "seat 0 holds palace tile 1 without a Palace"),
        (SOLO, "actions", _set(PLAYERS, (1, P_TOOLS), 2), r"Automa seat 1 has tools \(2\)"),
        (SOLO, "actions", _set(PLAYERS, (1, P_COMPETENCIES), 1), r"Automa seat 1 has competencies \(1\)"),
        (SOLO, "actions", _set(PLAYERS, (1, P_TERRAFORMING), 1), r"Automa seat 1 has terraforming \(1\)"),
        (SOLO, "actions", _set(PLAYERS, (1, P_BOOKS.start), 1), r"Automa seat 1 has books or power \[1, 0, 0, 0\]"),
        (SOLO, "actions", _automa_drafted_palace_tile, "Automa seat 1 has a palace tile"),
        (P3, "setup", _set(GLOB, G_SETUP_STEP, 7), "setup step 7 in phase setup"),
        (P3, "actions", _set(GLOB, G_SETUP_STEP, 8), "setup step 8 in phase actions"),
        (P3, "setup", _set(GLOB, G_SETUP_STEP, 2), "a pick_bundle decision waits at setup step 2"),
        (P3, "actions", _row_below(Kind.INCOME_SEAT), "a income_seat entry is pending in phase actions"),
        (SOLO, "actions", _row_below(Kind.AUTOMA_SETUP), "a automa_setup decision waits at setup step 7"),
        (P3, "actions", lambda g: g.state.players.__setitem__((1, P_FACTION), g.state.players[0, P_FACTION]),
         r"factions \[(\d+), \1, \d+\] held by the seats, \[\] on offer: one is in two places"),
        (DRAFT, "setup", _drop_first_draft_pick, "seat 0 has 2 draft picks left and lacks 3"),
        (DRAFT, "setup",
         lambda g: g.state.glob.__setitem__(slice(G_DRAFT_FACTIONS.start + 2, G_DRAFT_FACTIONS.stop), -1),
         "3 seats still draft from a pool of 2"),
        (SOLO, "setup", _repeat_first(G_DRAFT_FACTIONS), "faction pool .* twice"),
        (P3, "setup", lambda g: g.state.players.__setitem__((g.current_seat(), P_FACTION), 0),
         r"seats \[.*\] still take a set, 7 on offer"),
        (DRAFT, "setup",
         lambda g: g.state.players.__setitem__((0, P_BOARD), g.state.glob[G_DRAFT_BOARDS.start]),
         r"planning boards \[0\] held by the seats, \[0, 1, 2, 3, 4, 5\] on offer"),
        (P3, "actions", _set(GLOB, G_ROUND, 8), "phase 2 / round 8 out of range"),
        (P3, "actions", _set(GLOB, G_ROUND, 0), "phase actions in round 0"),
        (P3, "actions", _set(GLOB, G_ORDER.start + 3, 0), "turn order .* is not a permutation of the 3"),
        (P3, "actions", _set(GLOB, G_NEXT_COUNT, -1), r"passing order \[\] does not match the passed"),
        (P3, "actions", _turn((Kind.END_TURN, 0), (Kind.POST, 0), (Kind.MAIN, 0)),
         r"row 1 \(post\) is not the top row"),
        (P3, "actions", _turn((Kind.END_TURN, 0), (Kind.POST, 1)), r"row 1 \(post\) of seat \d above"),
        (P3, "actions", _row_below(Kind.INCOME_SEAT), r"row 1 \(income_seat\) above a end_turn row"),
        (P3, "actions", _row_below(Kind.SCIENCE_SEAT), r"row 1 \(science_seat\) above a end_turn row"),
        (P3, "actions", _turn((Kind.END_TURN, 0), (Kind.END_ACTION, 0), (Kind.PASS_BONUS, 1)),
         r"row 2 \(pass_bonus\) of seat \d above seat \d's end_action"),
        (P3, "actions", _turn((Kind.END_TURN, 0), (Kind.END_ACTION, 1), (Kind.PASS_BONUS, 1)),
         r"row 1 \(end_action\) of seat \d above seat \d's end_turn"),
        (P3, "actions",
         _turn((Kind.END_TURN, 0), (Kind.END_ACTION, 0), (Kind.END_ACTION, 0), (Kind.PASS_BONUS, 0)),
         r"row 2 \(end_action\) above a end_action row"),
        (SOLO, "actions", _turn((Kind.END_TURN, 0), (Kind.AUTOMA_STEP, 1), (Kind.MAIN, 0)),
         r"row 1 \(automa_step\) of seat 1 above seat 0's end_turn"),
        (P3, "actions", _row_below(Kind.INNOVATION_EFFECT, -1), r"innovation -1 outside 0\.\.17"),
        (P3, "actions", _row_below(Kind.INNOVATION_EFFECT, 18), r"innovation 18 outside 0\.\.17"),
        (P3, "actions", _row_below(Kind.OFFER, 0, 1), r"power offered 0 outside 1\.\."),
    ],
)  # fmt: skip
def test_issue9_each_check_refuses_its_own_broken_state_when_loading(
    config: str, phase: str, edit: Callable[[Game], None], message: str
) -> None:
    """Each check of the groups (a bound, a kind, a field, a seat: the bonus display R78, book
    actions R8, palace tiles R68, the Automa's empty supply AUTOMA.md §1, the setup stages and
    picks R15 / R16, the round and turn order R56 / R81, a turn's rows R58 / R78, pending-row
    parameters) has a state edit that only it refuses, with its own message."""
    g = _at(config, phase)
    _refused_after(g, edit, message)


@pytest.mark.parametrize(
    ("phase", "edit", "message"),
    [
        (Phase.INCOME, _set(GLOB, G_NEXT_COUNT, 1), "a passing order of 1, before the round's actions"),
        (Phase.SCIENCE, _set(GLOB, G_NEXT_COUNT, 4), r"\(4 seats\) after the actions is not every seat"),
        (Phase.INCOME, _row_below(Kind.END_TURN), r"row 1 \(end_turn\) above a income_seat row"),
    ],
)  # fmt: skip
def test_r56_r81_a_passing_order_or_turn_row_out_of_its_phase_is_refused_when_loading(
    phase: int, edit: Callable[[Game], None], message: str
) -> None:
    """R56, R81: in Phase I no seat has passed yet and in Phase III every seat has, once; an
    END_TURN row belongs to Phase II's turns, not above a seat's income."""
    g = _at_phase("aoi(players=3)", phase)
    _refused_after(g, edit, message)


def test_r82_a_finished_game_with_a_pending_row_is_refused_when_loading() -> None:
    """R82: after the final scoring nothing is pending; a MAIN row left on the stack of a finished
    game would let a seat act after the end."""
    g = play_random(Game("aoi(players=2)", seed=0), np.random.default_rng(0))

    def main_after_the_end(g: Game) -> None:
        g.state.stack[0, :2] = (Kind.MAIN, 0)
        g.state.glob[G_DEPTH] = 1

    _refused_after(g, main_after_the_end, "the game is over with 1 pending entries")


def _at_kind(config: str, kind: Kind) -> Game:
    """The first decision of ``kind`` in a random game of ``config``."""
    return play_random(Game(config, seed=0), np.random.default_rng(0), lambda g: g.pending_kind() == kind)


def test_r21_an_initial_placement_of_no_building_is_refused_when_loading() -> None:
    """R21, R22: an initial placement places a building (1..7); building 9 is no piece."""
    g = _at_kind("aoi(players=3)", Kind.INITIAL_PLACE)

    def no_building(g: Game) -> None:
        g.state.stack[int(g.state.glob[G_DEPTH]) - 1, 2] = 9

    _refused_after(g, no_building, r"\(initial_place\): building 9 outside 1\.\.7")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (_row_below(Kind.NEUTRAL_PLACE, 0), r"\(neutral_place\): building 0 outside 1\.\.7"),
        (_row_below(Kind.UPGRADE_TARGET, 0, 0), r"\(upgrade_target\): building 0 outside 1\.\.7"),
        (_row_below(Kind.TB_SPADES, 1, 0, 500), r"\(tb_spades\): hex 500 outside 0\.\.116"),
        (_row_below(Kind.BRIDGE_DIR, 1, 0, 500), r"\(bridge_dir\): hex 500 outside 0\.\.116"),
        (_row_below(Kind.LIZARD_BUILD, 118), r"\(lizard_build\): hex \+ 1 118 outside 0\.\.117"),
        (_row_below(Kind.GAIN, SRC_BOOK, 2, PART_EFFECT, -1), r"multiplier -1 outside 0\.\."),
        (_row_below(Kind.GAIN, SRC_BOOK, 6, PART_EFFECT, 1), "no component 6 of source"),
        (lambda g: g.state.glob.__setitem__(G_NEXT_ORDER.start + 4, 7), "seat in the passing order 7 outside -1..2"),
        (lambda g: g.state.glob.__setitem__(G_TURN, 5), r"turn 5 outside 0\.\.4"),
    ],
)  # fmt: skip
def test_issue9_a_row_parameter_or_id_out_of_range_is_refused_when_loading(
    edit: Callable[[Game], None], message: str
) -> None:
    """Pending-row parameters that name a building, a hex, a multiplier or a component part, and
    the passing order and turn fields, lie in their ranges (both bounds checked by the message)."""
    g = _at("aoi(players=3)", "actions")
    _refused_after(g, edit, message)


def _automa_record(field: int, value: Callable[[int], int]) -> Callable[[Game], None]:
    def edit(g: Game) -> None:
        rec = automa.record(g, 1)
        rec[field] = value(int(rec[field]))

    return edit


@pytest.mark.parametrize(
    ("config", "phase", "edit", "message"),
    [
        (SOLO, "actions", _automa_record(automa.A_DECK_LEN, lambda n: n - 1), "Automa seat 1: .* not each card once"),
        (SOLO, "actions", _automa_record(automa.A_DECK_LEN, lambda n: 15),
         r"Automa seat 1: deck of 15 cards \(0\.\.14\)"),
        (SOLO, "actions", _automa_record(automa.A_SETUP_CARD, lambda c: 99), "Automa seat 1: unknown setup card 99"),
        (SOLO, "actions", _automa_record(automa.A_FACTION, lambda f: f + 1),
         r"Automa seat 1: level 3, faction \d+ in her"),
        (DRAFT, "setup", _set(GLOB, G_DRAFT_BOARDS.start, 99), "drafted planning board 99"),
    ],
)  # fmt: skip
def test_issue9_an_automa_record_or_draft_pool_out_of_range_is_refused_when_loading(
    config: str, phase: str, edit: Callable[[Game], None], message: str
) -> None:
    """AUTOMA.md §3.5: her deck, reserve and discard hold each of the 14 cards once; her setup card,
    level and faction are her config's; a drafted planning board is one of the 7 (R16)."""
    g = _at(config, phase)
    _refused_after(g, edit, message)


def test_r21_r17_a_player_setup_row_after_its_stage_is_refused_when_loading() -> None:
    """R17, R21: each seat's starting resources (PLAYER_SETUP) come at setup stage 3, before the
    initial buildings; such a row still waiting at an initial placement (stage 4) is one the setup
    left behind."""
    g = _at_kind("aoi(players=3)", Kind.INITIAL_PLACE)
    _refused_after(g, _row_below(Kind.PLAYER_SETUP), "a player_setup decision waits at setup step 4")


def test_r40_a_bridge_end_off_the_map_is_refused_when_loading() -> None:
    """R40: a bridge joins two land hexes of the map; an end one past the last position (117) is
    refused naming the range, where it would index past the map's arrays."""
    g = Scenario("aoi(players=3)").bridge(0, "r0c2", "r1c0").turn(0)

    def off_the_map(g: Game) -> None:
        g.state.bridges[0, 1] = len(g.geo.terrain)

    _refused_after(g, off_the_map, r"bridge end 117 outside 0\.\.116")


ME = object()
"""``_under_top``'s parameter for the current seat."""


def _under_top(*rows: tuple[object, ...]) -> Callable[[Game], None]:
    """Slip ``rows`` (kind, seat offset from the current seat, parameters), bottom first, under the
    pending decision; a parameter ``ME`` is the current seat (an offer's builder)."""

    def edit(g: Game) -> None:
        s, me = g.state, g.current_seat()
        depth = int(s.glob[G_DEPTH])
        top = s.stack[depth - 1].copy()
        for i, (kind, offset, *params) in enumerate(rows):
            s.stack[depth - 1 + i] = 0
            values = [me if v is ME else v for v in params]
            s.stack[depth - 1 + i, : 2 + len(params)] = (kind, (me + offset) % g.seats, *values)
        s.stack[depth - 1 + len(rows)] = top
        s.glob[G_DEPTH] = depth + len(rows)

    return edit


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (_under_top((Kind.OFFER, 1, 3, ME)), r"row 2 \(offer\) above a end_action row: its sequence never"),
        (_under_top((Kind.CITY_CHECK, 0), (Kind.OFFER, 1, 3, ME)),
         r"row 3 \(offer\) under a upgrade_target row: its sequence never puts one on it"),
    ],
    ids=["on_the_end_action", "on_a_city_check"],
)  # fmt: skip
def test_r42_a_power_offer_left_under_the_pending_decision_is_refused_when_loading(
    edit: Callable[[Game], None], message: str
) -> None:
    """R42: a build's offers are pushed right after it, on its city check (on the Automa's next step
    or END_TURN for her build), and only a new Palace's tile choice (R68) or the next offer comes
    above them.  An offer left on the turn's END_ACTION, or on a city check under the upgrade now
    pending, would ask the seat a second time after that upgrade's own offers."""
    g = _at_kind(P3, Kind.UPGRADE_TARGET)
    _refused_after(g, edit, message)


@pytest.mark.parametrize(
    ("kind", "params"),
    [(Kind.TB_SPADES, (2, 3, 40)), (Kind.TB_FINISH, (2, 3, 40)), (Kind.LIZARD_BUILD, (0, 1))],
    ids=["tb_spades", "tb_finish", "lizard_build"],
)
def test_r62_r63_r94_a_spade_choice_left_under_the_pending_decision_is_refused_when_loading(
    kind: Kind, params: tuple[int, ...]
) -> None:
    """R62, R63, R94: the spades on a TB's first hex, its extra spades and Workshop, the Lizards'
    free Workshop are asked by the choice before them and answered at once: only ever the top
    row.  One left under a pending upgrade would give free spades or a Workshop after it."""
    g = _at_kind(P3, Kind.UPGRADE_TARGET)
    _refused_after(g, _under_top((kind, 0, *params)), rf"row 2 \({kind.name.lower()}\) is not the top row")


@pytest.mark.parametrize("kind", [Kind.TB_TUNNEL, Kind.TB_FLY], ids=["tb_tunnel", "tb_fly"])
def test_r95_r129_a_tunnel_or_flight_target_left_under_the_pending_decision_is_refused_when_loading(
    kind: Kind,
) -> None:
    """R95, R129: a tunnel or flight target is chosen right after TB's [TUNNEL] / [FLY]; one left
    under a pending upgrade would be a second terraform & build after it."""
    g = _at_kind(P3, Kind.UPGRADE_TARGET)
    _refused_after(g, _under_top((kind, 0, 2, 3)), rf"row 2 \({kind.name.lower()}\) is not the top row")


def test_r23_r81_setup_or_phase3_spades_left_under_another_decision_are_refused_when_loading() -> None:
    """R23, R81: setup spades wait seat by seat under each other, Phase III spades are pushed by
    the seat's science bonus and answered at once; spades left under a Phase II upgrade would
    be placed after it, mid-turn."""
    g = _at_kind(P3, Kind.UPGRADE_TARGET)
    _refused_after(g, _under_top((Kind.SPADES, 0, 2)), r"row 2 \(spades\) under a upgrade_target row")


def test_r73_an_innovation_choice_left_under_the_pending_decision_is_refused_when_loading() -> None:
    """R73: the innovation is chosen right after the Innovate action; one left under a pending
    upgrade would develop a second innovation in the same turn."""
    g = _at_kind(P3, Kind.UPGRADE_TARGET)
    _refused_after(g, _under_top((Kind.CHOOSE_INNOVATION, 0)), r"row 2 \(choose_innovation\) is not the top row")


def test_r68_a_palace_tile_choice_left_under_the_pending_decision_is_refused_when_loading() -> None:
    """R68: the palace tile is chosen right after the Palace is built, above its offers; a choice
    left under a pending upgrade would place a second tile (the first one's place on the display
    lost) after it."""
    g = _at_kind(P3, Kind.UPGRADE_TARGET)
    _refused_after(g, _under_top((Kind.CHOOSE_PALACE, 0)), r"row 2 \(choose_palace\) is not the top row")


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (((Kind.GAIN, 0, SRC_BOOK, 2, PART_EFFECT, 1), (Kind.PAY_BOOKS, 0, 2)), r"row 3 \(pay_books\) is not the top"),
        (((Kind.STEPS_ONE, 0, 2),), r"row 2 \(steps_one\) is not the top row"),
        (((Kind.UPGRADE_TARGET, 0, Building.GUILD, UP_FREE),), r"row 2 \(upgrade_target\) is not the top row"),
        (((Kind.BRIDGE_END, 0, BR_SPELL, 1),), r"row 2 \(bridge_end\) is not the top row"),
        (((Kind.BRIDGE_DIR, 0, BR_SPELL, 1, 40),), r"row 2 \(bridge_dir\) is not the top row"),
        (((Kind.PAVILION_TARGET, 0),), r"row 2 \(pavilion_target\) is not the top row"),
        (((Kind.CITY_CHECK, 0), (Kind.GUILD_ANYWHERE, 0)), r"row 3 \(guild_anywhere\) is not the top row"),
        (((Kind.CHOOSE_CITY, 0, 0), (Kind.REWARD_ORDER, 0, 1)), r"row 3 \(reward_order\) is not the top row"),
    ],
    ids=["pay_books", "steps_one", "upgrade_target", "bridge_end", "bridge_dir", "pavilion_target", "guild_anywhere",
         "reward_order"],
)  # fmt: skip
def test_r75_r126_r66_r40_c6_r136_r55_an_action_part_left_under_the_pending_decision_is_refused_when_loading(
    rows: tuple[tuple[object, ...], ...], message: str
) -> None:
    """R75 / R73 (books paid for a book action or an innovation), R126 / R139 (palace 6's and BA4's
    steps in one discipline), R66 / R123 / R124 (an upgrade), R40 (a bridge's ends), C6 (a
    pavilion), R136 (palace 16's Guild), R55.4 (the order of city tiles and an upgrade's tile) are
    pushed last by the apply or gain that asks for them and answered at once: only ever the top
    row, even on the row their push puts them on.  One left under a pending upgrade would pay,
    step, upgrade, bridge, attach or build once more after it."""
    g = _at_kind(P3, Kind.UPGRADE_TARGET)
    _refused_after(g, _under_top(*rows), message)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (((Kind.CHOOSE_BOOKS, 0, 2),), r"row 3 \(upgrade_target\) above a choose_books row"),
        (((Kind.STEPS_ANY, 0, 2),), r"row 3 \(upgrade_target\) above a steps_any row"),
        (((Kind.CHOOSE_COMPETENCY, 0, 0),), r"row 3 \(upgrade_target\) above a choose_competency row"),
        (((Kind.CHOOSE_CITY, 0, 0),), r"row 3 \(upgrade_target\) above a choose_city row"),
        (((Kind.TB_TARGET, 0, 2, 3),), r"row 3 \(upgrade_target\) above a tb_target row"),
        (((Kind.GUILD_ANYWHERE, 0),), r"row 2 \(guild_anywhere\) above a end_action row"),
        (((Kind.REWARD_ORDER, 0, 1),), r"row 2 \(reward_order\) above a end_action row"),
        (((Kind.PALACE15, 0, 7),), r"row 2 \(palace15\) above a end_action row"),
        (((Kind.CITY_CHECK, 0), (Kind.PAVILION_TARGET, 0)), r"row 3 \(pavilion_target\) above a city_check row"),
    ],
    ids=["books_under_an_upgrade", "steps_under_an_upgrade", "competency_under_an_upgrade", "city_under_an_upgrade",
         "tb_under_an_upgrade", "guild_anywhere", "reward_order", "palace15", "pavilion_target"],
)  # fmt: skip
def test_r66_r75_r136_r55_r135_c6_an_action_part_on_a_row_its_push_never_leaves_under_it_is_refused_when_loading(
    rows: tuple[tuple[object, ...], ...], message: str
) -> None:
    """R66 / R123 / R124 / R139: an upgrade is pushed by its action (or palace 3 / 4's special, BA5's
    effect) right on the action's END_ACTION, so a book, step, competency, city or TB choice left
    under a pending upgrade is refused by the upgrade's row (those choices may legitimately wait
    under one another, so their own rows are not constrained).  Palace 16's Guild and palace 15's parts on the
    palace's city check (R136, R135, OP-19), a reward order on the city tiles it orders (R55.4,
    OP-22), the pavilion action on its END_ACTION (C6)."""
    g = _at_kind(P3, Kind.UPGRADE_TARGET)
    _refused_after(g, _under_top(*rows), message)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ((Kind.USE_KEY, 0, 0, 2), r"row 2 \(use_key\) under a upgrade_target row"),
        ((Kind.NEUTRAL_PLACE, 0, Building.WORKSHOP), r"row 2 \(neutral_place\) under a upgrade_target row"),
    ],
    ids=["use_key", "neutral_place"],
)
def test_r50_r46_a_key_or_neutral_building_left_under_the_pending_decision_is_refused_when_loading(
    row: tuple[object, ...], message: str
) -> None:
    """R50 / OP-30: a key is asked by the step that reaches level 7, the last push of its apply or
    gain but for the next discipline's key; R46 / R53: a neutral building is the first decision of
    its gain, only a competency's key above it.  One left under a pending upgrade would give free
    steps above 7 or a neutral building after it."""
    g = _at_kind(P3, Kind.UPGRADE_TARGET)
    _refused_after(g, _under_top(row), message)


def _draft_pick_moved_to_the_bottom(g: Game) -> None:
    """The lowest draft pick (a seat's last) moved under the bonus tile picks: same rows, same counts."""
    s = g.state
    depth = int(s.glob[G_DEPTH])
    rows = s.stack[:depth].copy()
    i = int(np.flatnonzero(rows[:, 0] == Kind.DRAFT_PICK)[0])
    s.stack[:depth] = np.concatenate([rows[i : i + 1], np.delete(rows, i, axis=0)])


@pytest.mark.parametrize(
    ("config", "kind", "edit", "message"),
    [
        (P3, Kind.PICK_BUNDLE, _under_top((Kind.PICK_BONUS, 0)), r"row 2 \(pick_bonus\) above a pick_bundle row"),
        (P3, Kind.PICK_BUNDLE, _under_top((Kind.SOLO_PICK, 0)), r"row 2 \(solo_pick\) above a pick_bundle row"),
        (SOLO, Kind.SOLO_PICK, _under_top((Kind.SOLO_PICK, 0)), r"row 0 \(solo_pick\) is not the top row"),
        (SOLO, Kind.SOLO_PICK, _under_top((Kind.PICK_BONUS, 0)), r"row 0 \(pick_bonus\) under a solo_pick row"),
        (DRAFT, Kind.DRAFT_PICK, _draft_pick_moved_to_the_bottom, r"row 0 \(draft_pick\) under a pick_bonus row"),
        (DRAFT, Kind.DRAFT_PICK, _under_top((Kind.PICK_BUNDLE, 0)), r"\(pick_bundle\) above a draft_pick row"),
        (DRAFT, Kind.DRAFT_PICK, _under_top((Kind.SOLO_PICK, 0)), r"row 12 \(draft_pick\) above a solo_pick row"),
        (P3, Kind.PICK_BUNDLE, _under_top((Kind.PICK_BONUS, 0)), r"row 1 \(pick_bundle\) under a pick_bonus row"),
    ],
    ids=["bonus_under_a_set", "solo_under_a_set", "solo_under_solo", "bonus_under_solo", "draft_under_bonus",
         "set_under_a_draft_pick", "draft_pick_on_a_solo_pick", "set_under_a_bonus_pick"],
)  # fmt: skip
def test_r15_r16_solo_a_setup_pick_out_of_the_distribution_order_is_refused_when_loading(
    config: str, kind: Kind, edit: Callable[[Game], None], message: str
) -> None:
    """R15.4, R16.7, R16.8, AUTOMA.md §3.3: the distribution stage pushes its picks at once on the
    empty stack, the sets one after the other, the draft picks above the bonus tile picks, one solo
    pick alone.  A bonus tile pick under a set would give a second tile, a solo pick under a set or
    a second one (or a bonus pick before the Automa's row is laid out) has no legal move, a draft
    pick under the bonus picks is made after the tiles are chosen."""
    g = _at_kind(config, kind)
    _refused_after(g, edit, message)


# ------------------------------------------------------------------------------------------------
# the initial placements (R21, R22, AUTOMA.md §3.6)

DUO = "aoi(players=2,automa=simpletons:3)"
OMAR_MONKS = "aoi(players=3,factions=omar+monks+inventors)"  # seat 0 Omar, seat 1 the Monks


def _restack(order: Callable[[list[np.ndarray]], list[np.ndarray]]) -> Callable[[Game], None]:
    """Rewrite the pending rows, given top first, by ``order`` (a reordering, a row dropped or edited)."""

    def edit(g: Game) -> None:
        s = g.state
        depth = int(s.glob[G_DEPTH])
        rows = order([row.copy() for row in s.stack[:depth][::-1]])
        s.stack[:] = 0
        for i, row in enumerate(rows[::-1]):
            s.stack[i] = row
        s.glob[G_DEPTH] = len(rows)

    return edit


def _swap(i: int, j: int) -> Callable[[Game], None]:
    """Rows ``i`` and ``j`` (0 = the top) swapped."""

    def order(rows: list[np.ndarray]) -> list[np.ndarray]:
        rows[i], rows[j] = rows[j], rows[i]
        return rows

    return _restack(order)


def _edited(i: int, column: int, value: int) -> Callable[[Game], None]:
    """Row ``i`` (0 = the top) with ``column`` (0 kind, 1 seat, 2 the first parameter) set to ``value``."""

    def order(rows: list[np.ndarray]) -> list[np.ndarray]:
        rows[i][column] = value
        return rows

    return _restack(order)


def _automa_row_on(seat_row: int) -> Callable[[Game], None]:
    """The two rows from ``seat_row`` (0 = the top), one seat's two Workshops, made one Automa row of that seat."""

    def order(rows: list[np.ndarray]) -> list[np.ndarray]:
        assert rows[seat_row][1] == rows[seat_row + 1][1]
        rows[seat_row][0] = Kind.AUTOMA_SETUP
        rows[seat_row][2] = 0
        return rows[: seat_row + 1] + rows[seat_row + 2 :]

    return _restack(order)


def _monks_university_under_the_top(g: Game) -> None:
    """The Monks' (seat 1's) University slipped into the snake, under the first Workshop."""
    row = np.zeros_like(g.state.stack[0])
    row[:3] = (Kind.INITIAL_PLACE, 1, Building.UNIVERSITY)
    _restack(lambda rows: [rows[0], row, *rows[1:]])(g)


def _at_initial(config: str, placed: int = 0) -> Game:
    """The first initial placement decision of a random game of ``config`` after ``placed`` buildings."""

    def reached(g: Game) -> bool:
        on_the_map = int((g.state.hexes[:, H_BUILDING] > 0).sum())
        return g.pending_kind() in (Kind.INITIAL_PLACE, Kind.INITIAL_KIND) and on_the_map == placed

    return play_random(Game(config, seed=0), np.random.default_rng(0), reached)


def _first_workshop_to(offset: int) -> Callable[[Game], None]:
    """The one building on the map handed to the seat ``offset`` after its owner (map and counters)."""

    def edit(g: Game) -> None:
        h, p = g.state.hexes, g.state.players
        (pos,) = np.flatnonzero(h[:, H_BUILDING] > 0)
        owner = int(h[pos, H_OWNER])
        other = (owner + offset) % g.seats
        h[pos, H_OWNER] = other
        p[owner, P_BUILT.start + Building.WORKSHOP] -= 1
        p[other, P_BUILT.start + Building.WORKSHOP] += 1

    return edit


def _workshop_before_the_placements(g: Game) -> None:
    """Seat 0 has a Workshop on a land hex while the components are still being distributed."""
    pos = int(np.flatnonzero(g.geo.land)[0])
    g.state.hexes[pos, H_BUILDING] = Building.WORKSHOP
    g.state.hexes[pos, H_OWNER] = 0
    g.state.players[0, P_BUILT.start + Building.WORKSHOP] = 1


@pytest.mark.parametrize(
    ("config", "placed", "edit", "message"),
    [
        (P3, 0, _swap(0, 1), r"pending for seats \[(\d), (\d), \d, \d, \d, \d\] \(next first\) after 0 placements, "
         r"the placement order gives \[\2, \1, "),
        (SOLO, 0, _swap(1, 2), r"pending for seats \[0, 0, 1, 1\] \(next first\) after 0 placements, .* gives "
         r"\[0, 1, 1, 0\]"),
        (SOLO, 0, _restack(lambda rows: rows[:1] + rows[2:]), r"pending for seats \[0, 0\] .* gives \[0, 1, 1, 0\]"),
        (DUO, 0, _swap(1, 2), r"pending for seats \[0, 2, 2, 1, 1, 0\] .* gives \[0, 1, 2, 2, 1, 0\]"),
        (OMAR_MONKS, 4, _swap(0, 1), r"pending for seats \[1, 0\] \(next first\) after 4 placements, .* \[0, 1\]"),
        (OMAR_MONKS, 0, _monks_university_under_the_top, r"seats \[2, 1, 0, 0, 2\] .* gives \[2, 0, 0, 2\]"),
        (P3, 1, _first_workshop_to(1), r"initial buildings per seat \[\d, \d, \d\] after 1 placements at setup step 4, "
         r"the placement order gives"),
        (P3, 0, _edited(0, 2, Building.UNIVERSITY), r"seat \d's initial placement is building 4, the rules give \[1\]"),
        (OMAR_MONKS, 4, _edited(1, 2, Building.WORKSHOP), r"seat 1's initial placement is building 1, .* give \[4\]"),
        (P3, 0, _edited(0, 0, Kind.INITIAL_KIND), r"seat \d's initial placement is a initial_kind row"),
        (P3, 0, _automa_row_on(2), r"seat \d's initial placement is a automa_setup row"),
    ],
    ids=["snake_first_two_swapped", "automa_before_the_human", "automa_row_dropped", "automa_before_the_second_human",
         "university_before_omars_third", "monks_in_the_snake", "workshop_of_the_wrong_seat", "university_in_the_snake",
         "monks_workshop", "building_choice_of_no_omar", "automa_row_of_a_human"],
)  # fmt: skip
def test_r21_r22_automa_initial_placements_out_of_the_rules_order_are_refused_when_loading(
    config: str, placed: int, edit: Callable[[Game], None], message: str
) -> None:
    """R21: the initial Workshops go in snake order (start player first, then back in reverse
    turn order); AUTOMA.md §3.6: an Automa's marked and unmarked Workshops come between the
    humans' two passes; R22: the Monks skip the snake and place their University last, after
    Omar's third building (OP-43, OP-44).  A pending placement row moved, dropped or given to
    another seat, a building on the map of a seat the order has not reached, or a row placing
    another building than its pass gives would place out of that order."""
    g = _at_initial(config, placed)
    _refused_after(g, edit, message)


def test_r21_a_building_before_the_initial_placements_is_refused_when_loading() -> None:
    """R21: the first buildings are the initial Workshops; one on the map while the sets are still
    being taken (setup step 1) was placed out of any order."""
    g = _at(P3, "setup")
    _refused_after(g, _workshop_before_the_placements, "1 buildings on the map at setup step 1, before the initial")


def _omars_third_before_the_last_workshop(g: Game) -> None:
    """At the snake's last Workshop (seat 2's), that Workshop and Omar's (seat 0's) Tower are already on
    the map and a book choice of seat 2 is pending in place of the placement: a stage-5 building at stage 4."""
    s, h = g.state, g.state.hexes
    free = np.flatnonzero(g.geo.land & (h[:, H_BUILDING] == 0))
    for pos, seat, building, neutral in ((free[0], 2, Building.WORKSHOP, 0), (free[1], 0, Building.TOWER, 1)):
        h[pos, H_BUILDING], h[pos, H_OWNER], h[pos, H_NEUTRAL] = building, seat, neutral
        s.players[seat, (P_NEUTRAL_BUILT if neutral else P_BUILT).start + building] += 1
    s.glob[G_NEUTRAL_LEFT.start + Building.TOWER] -= 1
    s.stack[int(s.glob[G_DEPTH]) - 1, :3] = (Kind.CHOOSE_BOOKS, 2, 1)


def test_r22_omars_third_building_during_the_snake_is_refused_when_loading() -> None:
    """R22.2, OP-43: Omar's third building comes after every Workshop of the snake (setup stage 5);
    with it on the map while the snake's stage is still running (step 4), more buildings stand
    than the snake places, though each seat has those of the order's first placements."""
    g = _at_initial(OMAR_MONKS, 3)
    _refused_after(
        g, _omars_third_before_the_last_workshop, "5 initial buildings on the map at setup step 4, its stage"
    )


@pytest.mark.parametrize(
    "config",
    [P3, "aoi(players=2)", "aoi(players=5)", DRAFT, SOLO, DUO, "aoi(players=1,automa=simpletons:2+druids:1)",
     OMAR_MONKS, "aoi(players=4,factions=inventors+monks+lizards+omar)"],
)  # fmt: skip
def test_r21_r22_automa_played_setups_keep_the_initial_placement_order(config: str) -> None:
    """Random setups of every kind (sets, draft, fixed factions with Omar, the Monks and the
    Inventors, the 2-player neutral faction, one or two Automas) pass the placement-order check
    at every decision, and end with every building of the order placed."""
    for seed in range(3):
        g = Game(config, seed=seed)
        rng = np.random.default_rng(seed)
        while g.state.glob[G_PHASE] == Phase.SETUP:
            assert not violations(g)
            g.apply_action(random_action(g, rng))
        assert not violations(g)
        assert int((g.state.hexes[:, H_BUILDING] > 0).sum()) >= 2 * g.seats - 1


# ------------------------------------------------------------------------------------------------
# Phase I / III: one seat paid at a time (R57, R80); palace 14's crossing (R134)


def _run_row_at_the_bottom(kind: Kind) -> Callable[[Game], None]:
    """A row of ``kind`` (a seat's income or science bonus) for the deciding seat put under the stack."""

    def edit(g: Game) -> None:
        row = np.zeros_like(g.state.stack[0])
        row[:2] = (kind, g.current_seat())
        _restack(lambda rows: [*rows, row])(g)

    return edit


@pytest.mark.parametrize(
    ("phase", "edit", "message"),
    [
        (Phase.INCOME, _under_top((Kind.CHOOSE_BOOKS, 1, 1)),
         r"rows of seats \[\d, \d\] wait above the income run: one seat is paid at a time \(R57\)"),
        (Phase.INCOME, _run_row_at_the_bottom(Kind.INCOME_SEAT),
         r"seat \d's rows wait above the income run before her own income \(R57\)"),
        (Phase.SCIENCE, _under_top((Kind.STEPS_ANY, 1, 1)),
         r"rows of seats \[\d, \d\] wait above the science bonus run: one seat is paid at a time \(R80\)"),
        (Phase.SCIENCE, _run_row_at_the_bottom(Kind.SCIENCE_SEAT),
         r"seat \d's rows wait above the science bonus run before her own science bonus \(R80\)"),
    ],
    ids=["income_choice_of_another_seat", "income_choice_before_her_income", "science_choice_of_another_seat",
         "science_choice_before_her_bonus"],
)  # fmt: skip
def test_r57_r80_a_choice_left_from_another_seats_income_or_science_bonus_is_refused_when_loading(
    phase: int, edit: Callable[[Game], None], message: str
) -> None:
    """R57, R80: Phase I's incomes and Phase III's science bonuses are paid seat by seat from the
    run of rows at the bottom of the stack; what a seat's income or bonus asks (books, steps,
    keys, spades) is hers and answered before the next seat is paid.  A book or step choice of
    another seat above the run, or of a seat whose own row is still in the run, was left by an
    earlier payment or would be answered before her income."""
    g = _at_phase(P3, phase)
    _refused_after(g, edit, message)


def _palace_14(ruleset: str) -> Game:
    """Seat 1 has a Palace with tile 14 (the river crossing, R134); seat 0 chooses a book in her turn."""
    sc = Scenario(f"aoi(players=3,ruleset={ruleset})").build(1, "r0c2", "palace").palace_tile(1, 14)
    return sc.decide(Kind.CHOOSE_BOOKS, 0, 1)


@pytest.mark.parametrize(
    ("seat", "message"),
    [
        (1, r"pending row 1 \(river_city\) of seat 1 outside her own turn \(R134, v1.2\)"),
        (2, r"pending row 1 \(river_city\) of seat 2, whose palace tile has no river crossing \(R134\)"),
    ],
    ids=["holder_in_another_turn", "no_palace_14"],
)
def test_r134_a_river_crossing_of_another_seat_is_refused_when_loading(seat: int, message: str) -> None:
    """R134: palace 14's crossing is asked only of the seat holding the tile, and in v1.2 only in
    her own turn; a crossing row of the holder left in seat 0's turn, or of a seat without the
    tile, would found a city across a river the tile never gave her then."""
    g = _palace_14("v1.2")
    _refused_after(g, _under_top((Kind.RIVER_CITY, seat)), message)


def test_r134_r145_a_river_crossing_in_another_turn_is_sound_in_v1_0() -> None:
    """R145: v1.0's palace 14 has no own-turn condition (a city check in another player's turn may
    offer it), so the holder's crossing row under seat 0's decision is a sound position there."""
    g = _palace_14("v1.0")
    _under_top((Kind.RIVER_CITY, 1))(g)
    assert not violations(g)


def _neutral_scholar_to_space(d: int, space: int) -> Callable[[Game], None]:
    """Discipline ``d``'s neutral scholar moved to ``space`` (-1: taken off the board)."""

    def edit(g: Game) -> None:
        spaces = g.state.glob[G_SCHOLAR_SPACES]
        spaces[spaces == NEUTRAL_SEAT] = [-1 if i == d else NEUTRAL_SEAT for i in range(4)]
        if space >= 0:
            spaces[d * 4 + space] = NEUTRAL_SEAT

    return edit


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (_neutral_scholar_to_space(0, 0), r"discipline 0: neutral scholars on spaces of \[3\] steps"),
        (_neutral_scholar_to_space(2, -1), r"discipline 2: neutral scholars on spaces of \[\] steps"),
    ],
    ids=["on_the_3_space", "off_the_board"],
)
def test_r24_a_neutral_scholar_off_its_2_space_is_refused_when_loading(
    edit: Callable[[Game], None], message: str
) -> None:
    """R24.3, OP-62: the 2-player neutral faction puts one scholar on a "2" space of each discipline
    for the whole game; one on the 3 space (a 2-space freed for the players) or none at all (a
    player could take all 4 spaces) is not a position of the game."""
    g = _at("aoi(players=2)", "actions")
    _refused_after(g, edit, message)
