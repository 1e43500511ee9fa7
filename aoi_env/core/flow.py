"""The game sequence (R56-R86): rounds, phases, turns, income, science bonus, final scoring.

``step`` runs whenever the pending stack is empty and pushes the next piece of the sequence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from aoi_env.core import automa, effects, pending, setup
from aoi_env.core.engine import AUTO, automatic, sequence_step
from aoi_env.core.pending import Kind, Row
from aoi_env.core.rules import science, scoring
from aoi_env.core.state import (
    G_BONUS_COINS,
    G_BONUS_STATE,
    G_BOOKS_USED,
    G_NEXT_COUNT,
    G_NEXT_ORDER,
    G_ORDER,
    G_PHASE,
    G_ROUND,
    G_ROUND_TILES,
    G_SPELLS_USED,
    G_TURN,
    P_BOARD,
    P_BONUS,
    P_BUILT,
    P_COMPETENCIES,
    P_FACTION,
    P_INNOVATIONS,
    P_PALACE_TILE,
    P_PASSED,
    P_SCIENCE,
    P_SPECIALS_USED,
    PLAYER_FIELDS,
    Phase,
)
from aoi_env.data import ROUNDS
from aoi_env.data.enums import PLAYER_BUILDINGS

if TYPE_CHECKING:
    from aoi_env.core.engine import Game

DISC_KEYS = ("banking", "law", "engineering", "medicine")
_END_TURN, _AUTOMA_TURN, _MAIN = int(Kind.END_TURN), int(Kind.AUTOMA_TURN), int(Kind.MAIN)
"""The kinds every turn pushes, as plain ints: an IntEnum member costs ~100 ns a look-up on Python
3.11 (its metaclass's ``__getattr__`` sends every class attribute read through a slow path; 3.12
dropped it), ~2% of an engine decision in all (issue 10)."""


def order(g: Game) -> list[int]:
    return g.state.glob_ints[G_ORDER.start : G_ORDER.start + g._seats].tolist()  # not the property: ~600 instructions


@sequence_step
def step(g: Game) -> None:
    s = g.state
    phase = s.glob_ints[G_PHASE]
    if phase == Phase.SETUP:
        setup.setup_step(g)
    elif phase == Phase.INCOME:  # income resolved: Phase II begins with the first in order
        s.glob[G_PHASE] = Phase.ACTIONS
        s.glob[G_TURN] = 0
    elif phase == Phase.ACTIONS:
        _next_turn(g)
    elif phase == Phase.SCIENCE:
        cleanup(g)
        start_round(g, int(s.glob[G_ROUND]) + 1)


def start_round(g: Game, rnd: int) -> None:
    """Phase I of a round: the turn order is the passing order of the last round (R78.4)."""
    s = g.state
    n = g.seats
    s.glob[G_ROUND] = rnd
    if rnd > 1:
        s.glob[G_ORDER] = s.glob[G_NEXT_ORDER]
    s.glob[G_NEXT_ORDER] = -1
    s.glob[G_NEXT_COUNT] = 0
    s.players[:, P_PASSED] = 0
    s.glob[G_PHASE] = Phase.INCOME
    for seat in range(g.config.players, n):  # the Automa: ship level, next deck (AUTOMA.md §4.6)
        automa.start_round(g, seat, rnd)
    for seat in reversed(order(g)[:n]):
        if g.is_player(seat):  # the Automa gets no income (AUTOMA.md §4.1)
            pending.push(s, Kind.INCOME_SEAT, seat)


def _next_turn(g: Game) -> None:
    s = g.state
    seats = order(g)
    players, glob = s.players_ints, s.glob_ints  # Python ints, no column read (issue 10)
    n = len(seats)
    turn = glob[G_TURN]
    for _ in range(n):  # the first seat from G_TURN on in turn order that has not passed
        if not players[seats[turn] * PLAYER_FIELDS + P_PASSED]:
            break
        turn = (turn + 1) % n
    else:  # every seat passed
        _end_of_actions(g)
        return
    glob[G_TURN] = turn
    seat = seats[turn]
    pending.push(s, _END_TURN, seat)
    if g.is_automa(seat):
        pending.push(s, _AUTOMA_TURN, seat)
    else:
        pending.push(s, _MAIN, seat, 0)


@automatic(Kind.END_TURN)
def _end_turn(g: Game, row: Row) -> None:
    seats = order(g)
    g.state.glob_ints[G_TURN] = (seats.index(row[1]) + 1) % len(seats)


def _end_of_actions(g: Game) -> None:
    s = g.state
    if s.glob[G_ROUND] >= ROUNDS:  # R82: the game ends after round 6's Phase II
        scoring.final_scoring(g)
        s.glob[G_PHASE] = Phase.OVER
        s.glob[G_ROUND] = ROUNDS + 1  # "over": one past the last round
        return
    s.glob[G_PHASE] = Phase.SCIENCE  # R80.1: science bonus in next round's order
    nxt = [int(x) for x in s.glob[G_NEXT_ORDER][: g.seats]]
    for seat in reversed(nxt):
        if g.is_player(seat):  # "you gain the science bonus" (AUTOMA.md §4.6)
            pending.push(s, Kind.SCIENCE_SEAT, seat)


def cleanup(g: Game) -> None:
    """R80.2-R80.5: remove X tokens, a coin on each display bonus tile."""
    s = g.state
    s.glob[G_SPELLS_USED] = 0
    s.glob[G_BOOKS_USED] = 0
    s.players[:, P_SPECIALS_USED] = 0
    display = s.glob[G_BONUS_STATE] == -1
    s.glob[G_BONUS_COINS][display] += 1


# --------------------------------------------------------------------------------------------
# Phase I: income (R57)


def income(g: Game, seat: int) -> dict[str, int]:
    """Everything the seat receives in Phase I, summed (keys in the order they first appear)."""
    pl = g.state.players[seat].tolist()  # plain ints (issue 10)
    total: dict[str, int] = {}
    board = g.data.boards[pl[P_BOARD]]
    _add(total, board.base_income)
    for btype in PLAYER_BUILDINGS:
        for slot in board.slot_income[btype][: pl[P_BUILT.start + btype]]:
            _add(total, slot)
    tab = g.tab
    if pl[P_BONUS] >= 0:
        _add(total, tab.bonus_income[pl[P_BONUS]])
    comps = pl[P_COMPETENCIES]
    while comps:  # the set bits, lowest first (the heuristic asks for the income ~20 times a decision)
        low = comps & -comps
        _add(total, tab.competency_income[low.bit_length() - 1])
        comps ^= low
    for t in pl[P_INNOVATIONS]:
        if t >= 0:
            _add(total, tab.innovation_income[t])
    if pl[P_PALACE_TILE] >= 0:
        _add(total, tab.palace_income[pl[P_PALACE_TILE]])
    _add(total, tab.faction_income[pl[P_FACTION]])
    for d in range(4):
        if pl[P_SCIENCE.start + d] >= science.INCOME_LEVEL:  # R51
            _add(total, g.science_income[d])
    return total


def _add(total: dict[str, int], gain: dict[str, int]) -> None:
    """``total += gain`` key by key (as ``Counter.update``: zero amounts keep their key)."""
    for key, amount in gain.items():
        total[key] = total.get(key, 0) + amount


@automatic(Kind.INCOME_SEAT)
def _income_seat(g: Game, row: Row) -> None:
    seat = row[1]
    effects.gain(g, seat, income(g, seat))


# --------------------------------------------------------------------------------------------
# Phase III: science bonus (R80.1, R143)


def science_bonus(g: Game, seat: int) -> dict[str, Any]:
    s = g.state
    tile = s.glob_ints[G_ROUND_TILES.start + s.glob_ints[G_ROUND] - 1]
    sci = g.tab.round_science[tile]
    d = DISC_KEYS.index(sci["discipline"])
    offset = g.tab.faction_flags[int(s.players[seat, P_FACTION])]["science_bonus_offset"]
    times = (int(s.players[seat, P_SCIENCE.start + d]) + offset) // sci["per"]
    return {k: v * times for k, v in sci["reward"].items()} if times else {}


@automatic(Kind.SCIENCE_SEAT)
def _science_seat(g: Game, row: Row) -> None:
    seat = row[1]
    effects.gain(g, seat, science_bonus(g, seat))


@automatic(Kind.AUTOMA_TURN)
def _automa_turn(g: Game, row: Row) -> None:
    automa.take_turn(g, row[1])


@automatic(Kind.AUTOMA_STEP)
def _automa_step(g: Game, row: Row) -> None:
    automa.resolve_step(g, row[1], *row[2:6])


@automatic(Kind.PLAYER_SETUP)
def _player_setup(g: Game, row: Row) -> None:
    setup.player_setup(g, row[1])


# ------------------------------------------------------------------------------------------------
# watching the Automa (replays, aoi play): not used by the engine itself


@contextmanager
def automa_frames(
    on_before: Callable[[Game], None],
    on_step: Callable[[Game, int, str], None],
    before_step: Callable[[Game], None] | None = None,
    game: Game | None = None,
) -> Iterator[None]:
    """While active, the engine calls ``on_before(game)`` before each Automa turn,
    ``before_step(game)`` (if given) before each of her steps, and ``on_step(game, seat, what)``
    after each of her steps or her pass (the engine's automatic entries are wrapped for the time
    being; nothing changes outside the ``with``).  A turn a player's answer resumes (a power
    offer after her build) goes on with a step, without a new ``on_before``.  With ``game``
    only that game's turns are reported, not those of the clones an agent plays ahead in."""
    turn, step = AUTO[Kind.AUTOMA_TURN], AUTO[Kind.AUTOMA_STEP]

    def wrapped_turn(g: Game, row: Row) -> None:
        if game is not None and g is not game:
            return turn(g, row)
        on_before(g)
        turn(g, row)
        if g.state.players[row[1], P_PASSED]:
            on_step(g, row[1], "passes")

    def wrapped_step(g: Game, row: Row) -> None:
        if game is not None and g is not game:
            return step(g, row)
        if before_step is not None:
            before_step(g)
        step(g, row)
        on_step(g, row[1], automa.STEP_NAMES.get(row[2], f"step {row[2]}"))

    AUTO[Kind.AUTOMA_TURN], AUTO[Kind.AUTOMA_STEP] = wrapped_turn, wrapped_step
    try:
        yield
    finally:
        AUTO[Kind.AUTOMA_TURN], AUTO[Kind.AUTOMA_STEP] = turn, step
