"""Compiled twin of the observation encoder (issue 10; DESIGN.md "numba for hot loops").

``encode_into`` writes, in one numba-compiled call, everything ``aoi_env.observation`` computes
from the state's integers: the gathered blocks (players, turn orders, scholar spaces, round,
displays, the static hex planes; the same ``_Gather`` tables), the observer's map planes (owner
and bridge rows rotated, spades, reach, free bridge spots, border), the innovation display and
the used book actions.  The few remaining parts (Automa rows, game parameters, setup pools, the
2-player neutral faction, the pending decision) stay in Python, shared with the numpy encoder.

numba is optional (``pip install aoi-env[fast]``; the ``dev`` and ``train`` extras include it).
Without it, or with the environment variable ``AOI_ENV_NUMBA=0``, ``AVAILABLE`` is False and the
numpy encoder is used.  Both must give identical observations: ``tests/test_observation_jit.py``
compares them over random games, and the golden records pin whichever runs.
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING, Any

import numpy as np

from aoi_env.core.board import MAX_SAILING
from aoi_env.core.rules import terrain as terrain_rules
from aoi_env.core.state import (
    G_BOOK_ACTIONS,
    G_BOOKS_USED,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEXT_COUNT,
    G_NUM_BRIDGES,
    H_BUILDING,
    H_OWNER,
    H_TERRAIN,
    P_BOARD,
    PLAYER_FIELDS,
)
from aoi_env.observation import _FLAT, _K, _LOW, _SPADE_PLANES, OBS_SIZE, P, _compiled_gather, _printed_spots

if TYPE_CHECKING:
    from aoi_env.core.engine import Game


def _numba() -> Any:
    if os.environ.get("AOI_ENV_NUMBA", "1") == "0":
        return None
    try:
        import numba
    except ImportError:
        return None
    return numba


_nb = _numba()
AVAILABLE = _nb is not None
"""True when numba is importable and not switched off (``AOI_ENV_NUMBA=0``)."""

# flat offsets of the blocks written here (compile-time constants for numba)
_OWNER, _BRIDGES, _SPOTS = _FLAT["hex_owner"], _FLAT["hex_bridges"], _FLAT["hex_bridge_spots"]
_BORDER, _SPADES, _REACH = _FLAT["hex_border"], _FLAT["hex_spades"], _FLAT["hex_reach"]
_INNOVATION, _BOOKS_USED = _FLAT["innovation_display"], _FLAT["book_actions_used"]
_INNOV_SPACES, _INNOV_OWNER = G_INNOV_SPACES.start, G_INNOV_OWNER.start
_BOOK_ACTIONS, _BOOKS_USED_FIELD = G_BOOK_ACTIONS.start, G_BOOKS_USED.start


def _kernel(
    scratch: np.ndarray,
    state: np.ndarray,
    source: np.ndarray,
    table: np.ndarray,
    row: np.ndarray,
    empty_after: np.ndarray,
    filled: int,
    n_hot: int,
    n_bits: int,
    bit_pos: np.ndarray,
    bit_dst: np.ndarray,
    num_scale: np.ndarray,
    num_low: np.ndarray,
    num_dst: np.ndarray,
    hexes: np.ndarray,
    bridges: np.ndarray,
    n_bridges: int,
    observer: int,
    n: int,
    native: int,
    reach_rows: np.ndarray,
    border: np.ndarray,
    spot_counts: np.ndarray,
    spot_matrix: np.ndarray,
) -> None:  # pragma: no cover - compiled by numba (its twin is tested against the numpy encoder)
    scratch[:] = 0.0
    # -- the gather (``_Gather.write``)
    values = np.empty(source.shape[0], dtype=np.int64)
    for i in range(source.shape[0]):
        values[i] = state[source[i]]
    for k in range(filled, empty_after.shape[0]):
        values[empty_after[k]] = -1
    for i in range(n_hot):
        v = min(max(values[i], _LOW), _LOW + _K - 1)
        scratch[table[row[i] + v]] = 1.0
    for e in range(bit_pos.shape[0]):
        field, bit = divmod(bit_pos[e], 32)
        scratch[bit_dst[e]] = (values[n_hot + field] >> bit) & 1
    first = n_hot + n_bits
    for j in range(num_dst.shape[0]):
        x = values[first + j] * num_scale[j]
        scratch[num_dst[j]] = min(max(x, num_low[j]), 1.0)
    # -- the observer's map planes (``_write_map``, ``_shared_map``)
    own = np.zeros(P, dtype=np.bool_)
    reach = np.zeros(P, dtype=np.bool_)
    for pos in range(P):
        owner = hexes[pos, H_OWNER]
        if hexes[pos, H_BUILDING] > 0 and owner >= 0:
            scratch[_OWNER + ((owner % n - observer) % n) * P + pos] = 1.0
            if owner == observer:
                own[pos] = True
                for q in range(P):
                    if reach_rows[pos, q]:
                        reach[q] = True
        scratch[_BORDER + pos] = 1.0 if border[pos] else 0.0
        if native >= 0:
            scratch[_SPADES + pos] = _SPADE_TABLE[native, hexes[pos, H_TERRAIN]]
    spots = spot_counts.copy()
    for k in range(n_bridges):
        a, b = bridges[k, 0], bridges[k, 1]
        r = ((bridges[k, 2] % n) - observer) % n
        scratch[_BRIDGES + r * P + a] = 1.0
        scratch[_BRIDGES + r * P + b] = 1.0
        if spot_matrix[a, b]:
            spots[a] -= 1.0
            spots[b] -= 1.0
        if own[a]:
            reach[b] = True
        if own[b]:
            reach[a] = True
    for pos in range(P):
        scratch[_SPOTS + pos] = min(spots[pos] / np.float32(3.0), np.float32(1.0))
        if reach[pos]:
            scratch[_REACH + pos] = 1.0
    # -- innovation display and used book actions (``_write_displays``)
    glob0 = n * PLAYER_FIELDS
    for space in range(12):
        tile = state[glob0 + _INNOV_SPACES + space]
        if tile >= 0 and state[glob0 + _INNOV_OWNER + tile] == -1:
            scratch[_INNOVATION + space * 18 + tile] = 1.0
    for j in range(3):
        action = state[glob0 + _BOOK_ACTIONS + j]
        scratch[_BOOKS_USED + action % 6] = 1.0 if state[glob0 + _BOOKS_USED_FIELD + j] != 0 else 0.0


_SPADE_TABLE = _SPADE_PLANES
_compiled = _nb.njit(cache=False, nogil=True)(_kernel) if AVAILABLE else None


@functools.cache
def _side(side: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per board side: border (bool), printed bridge spots per hex (float32), spot matrix (bool)."""
    from aoi_env.core.board import geometry

    geo = geometry(side)
    counts, spots = _printed_spots(side)
    matrix = np.zeros((P, P), dtype=np.bool_)
    for a, b in spots:
        matrix[a, b] = True
    return np.ascontiguousarray(geo.border, dtype=np.bool_), counts, matrix


def encode_into(scratch: np.ndarray, g: Game, observer: int) -> None:
    """Zero ``scratch`` (``OBS_SIZE`` + 1 floats) and write the compiled part of ``observer``'s
    observation into it (see the module docstring for what is left to Python)."""
    if _compiled is None:
        raise RuntimeError("numba is not available (pip install aoi-env[fast]) or AOI_ENV_NUMBA=0")
    assert scratch.shape == (OBS_SIZE + 1,)
    n = g.seats
    s = g.state
    glob = s.glob
    prog = _compiled_gather(n, observer)
    sail = terrain_rules.sailing(g, observer)
    border, spot_counts, spot_matrix = _side(g.geo.name)
    _compiled(
        scratch,
        np.concatenate((s.players.ravel(), glob, s.hexes.ravel())),
        prog.source,
        prog.table,
        prog.row,
        prog.empty_after,
        int(glob[G_NEXT_COUNT]),
        prog.n_hot,
        prog.n_bits,
        prog.bit_pos,
        prog.bit_dst,
        prog.num_scale,
        prog.num_low,
        prog.num_dst,
        s.hexes,
        s.bridges,
        int(glob[G_NUM_BRIDGES]),
        observer,
        n,
        int(s.players[observer, P_BOARD]),
        g.geo.reach[min(sail, MAX_SAILING)],
        border,
        spot_counts,
        spot_matrix,
    )
