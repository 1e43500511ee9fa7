"""State (numpy arrays only): clone, equality, pickle, bytes and JSON round trips; Game rebuilt from bytes.

States are taken from games in progress (a few seeded random moves after setup), so every array
(hexes, players, glob, bridges, pending stack) holds real data.
"""

from __future__ import annotations

import base64
import json
import pickle

import numpy as np
import pytest

from aoi_env.core.config import GameConfig
from aoi_env.core.engine import Game
from aoi_env.core.state import (
    G_DEPTH,
    G_ROUND,
    H_BUILDING,
    P_COINS,
    P_VP,
    STATE_SCHEMA_VERSION,
    State,
)
from aoi_env.testing import random_action

GAMES = ["aoi(players=2)", "aoi(players=3)", "aoi(players=4,distribution=draft)", "aoi(players=5,ruleset=v1.0)"]


def in_progress(game: str, seed: int = 3, moves: int = 40) -> Game:
    """A game after setup plus ``moves`` seeded random decisions."""
    g = Game(game, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if g.is_over():
            break
        g.apply_action(random_action(g, rng))
    return g


# ------------------------------------------------------------------------------------------------
# clone and equality


@pytest.mark.parametrize("game", GAMES)
def test_clone_is_independent(game: str):
    """Mutating any array of a clone leaves the original unchanged."""
    g = in_progress(game)
    before = g.state.to_bytes()
    c = g.state.clone()
    assert c == g.state
    c.players[0, P_COINS] += 5
    c.hexes[:, H_BUILDING] = 0
    c.glob[G_ROUND] = 6
    c.bridges[:] = 1
    c.stack[:] = 7
    assert g.state.to_bytes() == before
    assert c != g.state
    for a, b in zip(c.arrays(), g.state.arrays(), strict=True):
        assert not np.shares_memory(a, b)


def test_equality_compares_every_array():
    g = in_progress("aoi(players=3)")
    s = g.state
    c = s.clone()
    assert c == s
    assert (c != s) is False
    for i in range(len(s.arrays())):
        d = s.clone()
        d.arrays()[i].flat[0] += 1
        assert d != s, f"array {i} is not compared"
    assert s != State.empty(2)  # different seat count: different shapes
    assert (s == "state") is False


def test_state_is_not_hashable():
    """States are mutable: hash the bytes instead."""
    s = in_progress("aoi(players=3)").state
    with pytest.raises(TypeError, match="to_bytes"):
        hash(s)
    assert hash(s.to_bytes()) == hash(s.clone().to_bytes())


def test_game_clone_is_independent():
    g = in_progress("aoi(players=3)")
    h = g.clone()
    before = g.state.to_bytes()
    h.apply_action(h.legal_actions()[0])
    assert g.state.to_bytes() == before
    assert g.legal_actions() == Game(g.config, state=State.from_bytes(before)).legal_actions()


# ------------------------------------------------------------------------------------------------
# serialisation round trips


@pytest.mark.parametrize("game", GAMES)
def test_pickle_round_trip(game: str):
    s = in_progress(game).state
    t = pickle.loads(pickle.dumps(s))
    assert t == s
    assert t.to_bytes() == s.to_bytes()
    assert all(a.dtype == b.dtype for a, b in zip(t.arrays(), s.arrays(), strict=True))


@pytest.mark.parametrize("game", GAMES)
def test_bytes_round_trip(game: str):
    s = in_progress(game).state
    b = s.to_bytes()
    t = State.from_bytes(b)
    assert t == s
    assert t.to_bytes() == b
    assert t.seats == s.seats
    assert int(t.glob[G_DEPTH]) > 0  # a pending decision was carried over


@pytest.mark.parametrize("game", GAMES)
def test_json_round_trip(game: str):
    s = in_progress(game).state
    text = s.to_json()
    doc = json.loads(text)
    assert doc["schema"] == STATE_SCHEMA_VERSION
    assert State.from_json(text) == s


def test_round_trip_of_a_finished_game():
    g = in_progress("aoi(players=2)", seed=1, moves=10_000)
    assert g.is_over()
    assert State.from_bytes(g.state.to_bytes()) == g.state


def test_bad_bytes_raise_value_error():
    """Anything that is not a state's bytes raises ValueError saying what is wrong."""
    b = in_progress("aoi(players=3)").state.to_bytes()
    with pytest.raises(ValueError, match="too short: 0 bytes"):
        State.from_bytes(b"")
    with pytest.raises(ValueError, match="too short: 3 bytes"):
        State.from_bytes(b"abc")
    with pytest.raises(ValueError, match=f"truncated: need {len(b)} bytes for 3 seats, have {len(b) - 1}"):
        State.from_bytes(b[:-1])
    with pytest.raises(ValueError, match="1 trailing bytes"):
        State.from_bytes(b + b"x")
    with pytest.raises(ValueError, match=f"state schema 7 is not {STATE_SCHEMA_VERSION}"):
        State.from_bytes(np.int32(7).tobytes() + b[4:])
    with pytest.raises(ValueError, match="seats must be 1..5, got 9"):
        State.from_bytes(b[:4] + np.int32(9).tobytes() + b[8:])


def test_bad_json_raises_value_error():
    s = in_progress("aoi(players=3)").state
    with pytest.raises(ValueError):
        State.from_json("not json")
    with pytest.raises(ValueError, match="must be an object"):
        State.from_json("[1, 2]")
    with pytest.raises(ValueError, match="must be an object"):
        State.from_json(json.dumps({"schema": STATE_SCHEMA_VERSION}))
    with pytest.raises(ValueError, match="state schema 0 is not"):
        State.from_json(json.dumps({"schema": 0, "bytes": base64.b64encode(s.to_bytes()).decode()}))
    with pytest.raises(ValueError):
        State.from_json(json.dumps({"schema": STATE_SCHEMA_VERSION, "bytes": "@@not base64@@"}))


# ------------------------------------------------------------------------------------------------
# a Game rebuilt from bytes continues identically


@pytest.mark.parametrize("game", GAMES)
def test_game_rebuilt_from_bytes_continues_identically(game: str):
    """``Game(config, state=State.from_bytes(b))`` offers the same legal moves after every move and
    reaches the same final scores when the same moves are played."""
    original = in_progress(game, seed=11, moves=60)
    config = GameConfig.parse(str(original.config))
    rebuilt = Game(config, state=State.from_bytes(original.state.to_bytes()))
    assert rebuilt.current_seat() == original.current_seat()
    assert rebuilt.pending_kind() == original.pending_kind()
    rng = np.random.default_rng(99)
    while not original.is_over():
        legal = original.legal_actions()
        assert rebuilt.legal_actions() == legal
        assert rebuilt.legal_moves() == original.legal_moves()
        a = random_action(original, rng)
        original.apply_action(a)
        rebuilt.apply_action(a)
    assert rebuilt.is_over()
    assert rebuilt.state == original.state
    assert rebuilt.scores().tolist() == original.scores().tolist()


def test_game_rebuilt_during_setup_continues_identically():
    """The same holds for a state saved in the middle of setup (players deciding)."""
    g = Game("aoi(players=4)", seed=5)
    g.apply_action(g.legal_actions()[0])  # first set picked
    rebuilt = Game(g.config, state=State.from_bytes(g.state.to_bytes()))
    for _ in range(12):
        assert rebuilt.legal_moves() == g.legal_moves()
        move = g.legal_moves()[-1]
        g.apply_move(move)
        rebuilt.apply_move(move)
    assert rebuilt.state == g.state


def test_game_rejects_a_state_of_another_player_count():
    """A state only continues under a config with the same number of players."""
    b = in_progress("aoi(players=4)").state.to_bytes()
    with pytest.raises(ValueError, match=r"the state has 4 seats but aoi\(players=3\) has 3 players"):
        Game("aoi(players=3)", state=State.from_bytes(b))


def test_pending_rows_are_plain_int_copies():
    """``pending.top`` / ``pending.pop`` hand the handlers the entry as a tuple of Python ints
    (issue 10: read several times per decision, in one C call), a copy: a later write to the
    stack does not change it, and ``pop`` removes exactly the entry ``top`` showed."""
    from aoi_env.core import pending
    from aoi_env.core.state import G_DEPTH, STACK_FIELDS

    g = Game("aoi(players=3)", seed=5)
    s = g.state.clone()
    depth = int(s.glob[G_DEPTH])
    row = pending.top(s)
    assert type(row) is tuple and len(row) == STACK_FIELDS and all(type(v) is int for v in row)
    assert list(row) == s.stack[depth - 1].tolist()
    s.stack[depth - 1, 0] = -7
    assert row[0] != -7 and pending.top(s)[0] == -7
    s.stack[depth - 1, 0] = row[0]
    popped = pending.pop(s)
    assert popped == row and list(popped) == g.state.stack[depth - 1].tolist()
    assert int(s.glob[G_DEPTH]) == depth - 1 and all(type(v) is int for v in popped)


def test_issue10_push_writes_the_whole_row_over_a_stale_one():
    """``pending.push`` packs a row in one call (issue 10): kind, seat, the parameters given
    (negative ones too) and zeros for the rest, whatever an earlier, popped row left in that
    slot; more parameters than a row holds is a ValueError that leaves the state unchanged."""
    from aoi_env.core import pending
    from aoi_env.core.state import STACK_FIELDS

    s = in_progress("aoi(players=3)").state
    depth = s.glob_ints[G_DEPTH]
    for n in range(STACK_FIELDS - 1):
        s.stack[depth] = 99  # a stale row above the top
        params = tuple(range(-1, n - 1))
        pending.push(s, 7, 2, *params)
        assert s.stack[depth].tolist() == [7, 2, *params] + [0] * (STACK_FIELDS - 2 - n)
        assert list(pending.pop(s)) == s.stack[depth].tolist() and s.glob_ints[G_DEPTH] == depth
    before = s.clone()
    with pytest.raises(ValueError, match=f"a pending row holds at most {STACK_FIELDS - 2} parameters, got 7"):
        pending.push(s, 7, 2, *range(7))
    assert s == before


def test_issue10_the_int_views_are_the_arrays_own_memory():
    """``glob_ints`` / ``stack_ints`` / ``players_ints`` (the fast paths of the pending stack, the
    conversions and the gains) read and write the same memory as ``glob`` / ``stack`` /
    ``players``, row after row; a clone's and an unpickled state's views (``player_ints``' rows,
    made once per state, included) are their own arrays',
    and a state whose glob, stack or players are not int32 is refused by name."""
    from aoi_env.core import pending
    from aoi_env.core.state import STACK_FIELDS

    s = in_progress("aoi(players=3)").state
    assert s.glob_ints.tolist() == s.glob.tolist()
    assert s.stack_ints.tolist() == s.stack.reshape(-1).tolist()
    depth = s.glob_ints[G_DEPTH]
    pending.push(s, 5, 2, 7, 8)  # written through the views ...
    assert int(s.glob[G_DEPTH]) == depth + 1  # ... seen by the arrays
    assert s.stack[depth].tolist() == [5, 2, 7, 8] + [0] * (STACK_FIELDS - 4)
    s.glob[G_ROUND] = 4  # written through the array, seen by the view
    assert s.glob_ints[G_ROUND] == 4
    for copy in (s.clone(), pickle.loads(pickle.dumps(s))):
        assert copy == s and copy.glob_ints.tolist() == s.glob_ints.tolist()
        copy.glob_ints[G_ROUND] = 5
        assert int(copy.glob[G_ROUND]) == 5 and int(s.glob[G_ROUND]) == 4  # its own memory
    row = s.player_ints(2)  # seat 2's row, written through the view ...
    row[P_VP] = 77
    assert int(s.players[2, P_VP]) == 77 and s.players_ints.tolist() == s.players.reshape(-1).tolist()
    s.players[1, P_VP] = 55  # ... and the other way round
    assert s.player_ints(1)[P_VP] == 55 and len(row) == s.players.shape[1]
    assert [len(s.player_ints(seat)) for seat in range(3)] == [s.players.shape[1]] * 3
    for copy in (s.clone(), pickle.loads(pickle.dumps(s))):  # the row views made above stay s's
        copy.player_ints(2)[P_VP] = 5
        assert int(copy.players[2, P_VP]) == 5 and int(s.players[2, P_VP]) == 77
    with pytest.raises(ValueError, match=r"state.glob must be a C-contiguous int32 array .* got int64"):
        State(s.hexes, s.players, s.glob.astype(np.int64), s.bridges, s.stack)
    with pytest.raises(ValueError, match=r"state.players must be a C-contiguous int32 array .* got int16"):
        State(s.hexes, s.players.astype(np.int16), s.glob, s.bridges, s.stack)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hexes": lambda a: a.astype(np.int16)}, r"state.hexes must be a C-contiguous int8 array .* got int16"),
        ({"hexes": np.asfortranarray}, r"state.hexes .* got non-contiguous int8 \(117, 8\)"),
        ({"bridges": lambda a: a[:, :2]}, r"state.bridges .* shape \(15, 3\), got non-contiguous int16 \(15, 2\)"),
        ({"bridges": lambda a: a.astype(np.int32)}, r"state.bridges must be a C-contiguous int16 array"),
        ({"stack": lambda a: a[:10].copy()}, r"state.stack .* got int32 \(10, 8\)"),
        ({"glob": lambda a: a.reshape(1, -1)}, r"state.glob .* got int32 \(1, 310\)"),
        ({"players": lambda a: a[0]}, r"state.players .* shape \(seats, \d+\), got int32 \(\d+,\)"),
        ({"players": lambda a: np.zeros((6, a.shape[1]), np.int32)}, r"state.players must have 1..5 rows .* got 6"),
        ({"players": lambda a: a.tolist()}, r"state.players must be a numpy array, got list"),
    ],
)
def test_issue10_a_state_refuses_arrays_of_another_dtype_shape_or_layout(change: dict, message: str) -> None:
    """Every State's five arrays have one dtype, shape (players: a row per seat) and C layout:
    the int views read them row after row, and the compiled observation kernel is called
    through its one compiled overload (observation_jit._first_call), which trusts these types.
    Anything else is a ValueError naming the array; a clone and an unpickled state pass."""
    s = in_progress("aoi(players=3)").state
    arrays = dict(zip(("hexes", "players", "glob", "bridges", "stack"), s.arrays(), strict=True))
    for name, make in change.items():
        arrays[name] = make(arrays[name])
    with pytest.raises(ValueError, match=message):
        State(**arrays)
    assert State(*s.arrays()) == s == s.clone() == pickle.loads(pickle.dumps(s))


def test_r40_bridge_ends_are_the_built_bridges_as_ints() -> None:
    """R40: ``State.bridge_ends`` (for the engine's loops, issue 10) lists exactly
    ``built_bridges()``, in the order built, as plain ints."""
    from aoi_env.core.state import G_NUM_BRIDGES

    g = Game("aoi(players=3)", seed=0)
    assert g.state.bridge_ends() == [] == g.state.built_bridges().tolist()
    g.state.bridges[:2] = [[10, 12, 0], [3, 30, 2]]
    g.state.glob_ints[G_NUM_BRIDGES] = 2
    ends = g.state.bridge_ends()
    assert ends == [[10, 12], [3, 30]] == g.state.built_bridges().tolist()
    assert all(type(v) is int for pair in ends for v in pair)
