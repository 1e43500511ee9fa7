"""The compiled observation encoder (issue 10, ``aoi_env.observation_jit``) against its numpy twin.

STYLE §5.11: fast code is checked against a twin.  The numpy encoder is the reference (the golden
records were made with it); the compiled one must give bit-identical vectors for every seat at
every decision, in every configuration family.  Without numba these tests are skipped and the
numpy encoder is the only one.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from aoi_env import observation_jit
from aoi_env.core.engine import Game
from aoi_env.observation import ObservationEncoder
from aoi_env.testing import random_action

needs_numba = pytest.mark.skipif(not observation_jit.AVAILABLE, reason="numba is not installed")

CONFIGS = [
    ("aoi(players=2)", 1),
    ("aoi(players=3,distribution=draft)", 2),
    ("aoi(players=4,ruleset=v1.0)", 3),
    ("aoi(players=5)", 4),
    ("aoi(players=3,map=1-3)", 5),
    ("aoi(players=2,factions=moles+lizards)", 6),
    ("aoi(players=1,automa=simpletons:3)", 7),
    ("aoi(players=2,automa=powermongers:5)", 8),
]


@needs_numba
@pytest.mark.parametrize("config, seed", CONFIGS, ids=[c for c, _ in CONFIGS])
def test_issue10_compiled_encoder_equals_the_numpy_encoder(config: str, seed: int) -> None:
    """Every seat's observation at every decision of a random game (setup included) and at its
    end is the same float32 vector from both encoders."""
    fast, reference = ObservationEncoder(compiled=True), ObservationEncoder(compiled=False)
    g = Game(config, seed=seed)
    rng = np.random.default_rng(seed)
    checked = 0
    while not g.is_over():
        for seat in range(g.seats):
            np.testing.assert_array_equal(fast.encode(g, seat), reference.encode(g, seat))
            checked += 1
        g.apply_action(random_action(g, rng))
    for seat in range(g.seats):  # and the final position (no pending decision)
        np.testing.assert_array_equal(fast.encode(g, seat), reference.encode(g, seat))
    assert checked > 100


@needs_numba
def test_issue10_compiled_encoder_is_the_default_and_can_be_switched_off() -> None:
    """With numba the encoder compiles by default; ``compiled=False`` or ``AOI_ENV_NUMBA=0`` selects
    the numpy encoder, and asking for the compiled one without numba is a clear error."""
    assert ObservationEncoder().compiled and not ObservationEncoder(compiled=False).compiled
    code = (
        "from aoi_env import observation_jit; from aoi_env.observation import ObservationEncoder\n"
        "assert not observation_jit.AVAILABLE and not ObservationEncoder().compiled\n"
        "try:\n    ObservationEncoder(compiled=True)\nexcept ValueError as e:\n    print(e)\n"
    )
    env = dict(os.environ, AOI_ENV_NUMBA="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert "compiled=True needs numba" in out.stdout


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_issue10_split_gather_table_sets_exactly_what_the_table_sets(seats: int) -> None:
    """The kernel's regrouped one-hot entries (lines, flags, table rows) give, for every entry and
    every value of the table's range, the same destination as the gather's table row."""
    from aoi_env.observation import _K, _LOW, _TRASH, _compiled_gather

    values = range(_LOW, _LOW + _K)
    for observer in range(seats):
        gather = _compiled_gather(seats, observer)
        rows = gather.table.reshape(gather.n_hot, _K)
        split = observation_jit._split_hot(gather.table, gather.n_hot)
        assert sorted(split.order.tolist()) == list(range(gather.n_hot))
        lines, flags = split.line.reshape(-1, 4), split.flag_dst
        tables = split.table.reshape(-1, _K)
        assert len(lines) + len(flags) + len(tables) == gather.n_hot
        assert len(tables) < gather.n_hot // 3  # most entries leave the table
        for k, entry in enumerate(split.order.tolist()):
            if k < len(lines):
                base, stride, lo, hi = lines[k].tolist()
                rebuilt = [base + v * stride if lo <= v < hi else _TRASH for v in values]
            elif k < len(lines) + len(flags):
                rebuilt = [int(flags[k - len(lines)]) if v != 0 else _TRASH for v in values]
            else:
                rebuilt = tables[k - len(lines) - len(flags)].tolist()
            assert rebuilt == rows[entry].tolist(), (seats, observer, entry)


@pytest.mark.parametrize("compiled", [pytest.param(True, marks=needs_numba), False], ids=["compiled", "numpy"])
def test_issue10_encode_into_a_batch_row_equals_encode(compiled: bool) -> None:
    """``encode_into`` writes the same vector as ``encode`` into a row of a batch; a wrong shape,
    dtype, a non-contiguous or read-only array or a bad observer is a clear ValueError."""
    from aoi_env.observation import OBS_SIZE

    enc = ObservationEncoder(compiled=compiled)
    g = Game("aoi(players=2)", seed=3)  # 2 players: the neutral faction's rows are added too
    rng = np.random.default_rng(3)
    batch = np.full((3, OBS_SIZE), 7.0, dtype=np.float32)
    for _ in range(60):
        g.apply_action(random_action(g, rng))
    for seat in range(2):
        enc.encode_into(batch[seat], g, seat)
        np.testing.assert_array_equal(batch[seat], enc.encode(g, seat))
    assert (batch[2] == 7.0).all()  # the other rows are untouched
    bad = [np.zeros(OBS_SIZE, np.float64), np.zeros(OBS_SIZE + 1, np.float32), np.zeros((OBS_SIZE, 2), np.float32)]
    for out in bad + [[0.0] * OBS_SIZE]:
        with pytest.raises(ValueError, match="out must be a float32 array"):
            enc.encode_into(out, g, 0)
    with pytest.raises(ValueError, match="contiguous and writeable"):
        enc.encode_into(np.zeros(2 * OBS_SIZE, np.float32)[::2], g, 0)
    readonly = np.zeros(OBS_SIZE, np.float32)
    readonly.setflags(write=False)
    with pytest.raises(ValueError, match="contiguous and writeable"):
        enc.encode_into(readonly, g, 0)
    with pytest.raises(ValueError, match="observer must be a seat 0..1"):
        enc.encode_into(batch[0], g, 2)


@needs_numba
def test_issue10_the_kernel_has_one_compiled_overload_called_without_the_dispatcher() -> None:
    """``write`` calls the kernel's compiled overload directly after the first call
    (``_first_call``: numba's dispatcher types every argument at every call).  That is safe only
    while every call has the same argument types, so: games of 1-5 seats, both board sides,
    batch rows, numpy-integer observers and clones all leave the kernel with one overload, the
    one ``write`` calls; and the module's ``encode_into`` refuses an ``out`` of another type,
    shape or layout (a ``State`` refuses other arrays: tests/test_state.py)."""
    from aoi_env.observation import OBS_SIZE

    enc = ObservationEncoder(compiled=True)
    batch = np.zeros((2, OBS_SIZE), dtype=np.float32)
    for config, seed in CONFIGS:
        g = Game(config, seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(30):
            g.apply_action(random_action(g, rng))
        for seat in range(g.seats):
            reference = enc.encode(g, seat)
            enc.encode_into(batch[1], g, np.int32(seat))
            np.testing.assert_array_equal(batch[1], reference)
            observation_jit.encode_into(batch[0], g.clone(), np.int64(seat))  # the compiled part alone
            compiled_part = np.zeros(OBS_SIZE, np.float32)
            observation_jit.write(compiled_part, g, seat)
            np.testing.assert_array_equal(batch[0], compiled_part)
    overloads = observation_jit._compiled.overloads
    assert len(overloads) == 1
    assert observation_jit._entry is next(iter(overloads.values())).entry_point
    g = Game("aoi(players=3)", seed=0)
    readonly = np.zeros(OBS_SIZE, np.float32)
    readonly.setflags(write=False)
    for out, message in [
        (np.zeros(2 * OBS_SIZE, np.float32)[::2], "contiguous and writeable"),
        (readonly, "contiguous and writeable"),
        (np.zeros(OBS_SIZE, np.float64), "out must be a float32 array"),
        ([0.0] * OBS_SIZE, "out must be a float32 array .* got list"),
    ]:
        with pytest.raises(ValueError, match=message):
            observation_jit.encode_into(out, g, 0)


@needs_numba
def test_issue10_compiled_static_hex_planes_equal_the_numpy_ones_for_every_flag_and_building() -> None:
    """The kernel sets the static hex planes in its loop over the hexes (``HEX_ONE_HOT``,
    ``HEX_FLAGS``), the numpy encoder by its gather table: the same vectors for every flag
    field at 0 / 1 / 2 / -1 and every building type, also for the pavilions and river cities
    that random games rarely reach."""
    from aoi_env.core.state import H_BUILDING, H_OWNER
    from aoi_env.observation import HEX_FLAGS

    fast, reference = ObservationEncoder(compiled=True), ObservationEncoder(compiled=False)
    g = Game("aoi(players=3)", seed=11)
    rng = np.random.default_rng(11)
    for _ in range(120):
        g.apply_action(random_action(g, rng))
    hexes = g.state.hexes
    built = np.flatnonzero(hexes[:, H_BUILDING] > 0)
    assert len(built) >= 3
    for field, _ in HEX_FLAGS:
        for value in (1, 2, -1, 0):
            hexes[built[:2], field] = value
            hexes[5, field] = value
            for seat in range(g.seats):
                np.testing.assert_array_equal(fast.encode(g, seat), reference.encode(g, seat))
    for building in range(1, 8):
        hexes[built[0], H_BUILDING] = building
        assert hexes[built[0], H_OWNER] >= 0
        np.testing.assert_array_equal(fast.encode(g, 0), reference.encode(g, 0))


@needs_numba
@pytest.mark.parametrize("config", ["aoi(players=3)", "aoi(players=2,automa=druids:2)"])
def test_issue10_kernel_sailing_equals_the_rules_sailing_r138(config: str) -> None:
    """The kernel works out the observer's sailing itself (issue 10: no Python call per
    observation): the track, +1 with B1 in Phase II (R138, OP-41), not once its holder passed
    (R78.2), not in other phases and never for an Automa.  The vectors equal the numpy
    encoder's, which reads ``terrain.sailing``, and the reach plane does change with B1."""
    from aoi_env.core.rules import terrain
    from aoi_env.core.state import G_PHASE, G_ROUND, P_BONUS, P_PASSED, P_SAILING, Phase

    fast, reference = ObservationEncoder(compiled=True), ObservationEncoder(compiled=False)
    g = Game(config, seed=21)
    s = g.state
    rng = np.random.default_rng(21)
    while s.glob[G_PHASE] != Phase.ACTIONS or s.glob[G_ROUND] < 2:  # some buildings: round 2+
        g.apply_action(random_action(g, rng))
    b1 = g.tab.bonus_reach.index(1)
    changed = 0
    for seat in range(g.seats):
        s.players[seat, P_SAILING] = 0
        for phase in (Phase.ACTIONS, Phase.INCOME):
            s.glob[G_PHASE] = phase
            vectors = {}
            for bonus, passed in ((b1, 0), (b1, 1), (-1, 0), (b1 ^ 1, 0)):
                s.players[seat, P_BONUS], s.players[seat, P_PASSED] = bonus, passed
                expected = 1 if (bonus == b1 and not passed and phase == Phase.ACTIONS and g.is_player(seat)) else 0
                assert terrain.sailing(g, seat) == expected
                vectors[bonus, passed] = fast.encode(g, seat)
                np.testing.assert_array_equal(vectors[bonus, passed], reference.encode(g, seat))
            changed += not np.array_equal(vectors[b1, 0], vectors[-1, 0])
    assert changed >= 1  # B1's reach shows in some seat's observation (the test can fail)
