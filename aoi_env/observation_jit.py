"""Compiled twin of the observation encoder (issue 10; DESIGN Performance: numba for hot loops).

``encode_into`` writes, in one numba-compiled call, everything ``aoi_env.observation`` computes
from the state's integers: the gathered blocks (players, turn orders, scholar spaces, round,
displays; the same ``_Gather`` tables), the static hex planes (terrain, building, hex flags;
``HEX_ONE_HOT`` / ``HEX_FLAGS``), the observer's map planes (owner and bridge rows rotated,
spades, reach, free bridge spots, border), the innovation display and the used book actions,
the game parameters and the pending decision.  The rare parts (the Automa's rows, the setup
pools, the 2-player neutral faction) stay in Python, shared with the numpy encoder.

numba is optional (``pip install aoi-env[fast]``; the ``dev`` and ``train`` extras include it).
Without it, or with the environment variable ``AOI_ENV_NUMBA=0``, ``AVAILABLE`` is False and the
numpy encoder is used.  Both must give identical observations: ``tests/test_observation_jit.py``
compares them over random games, and the golden records pin whichever runs.
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from aoi_env.core.board import BRIDGE_DIRECTIONS, MAX_SAILING
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_BOOK_ACTIONS,
    G_BOOKS_USED,
    G_DEPTH,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEXT_COUNT,
    G_NUM_BRIDGES,
    G_ORDER,
    G_PHASE,
    G_TURN,
    H_BUILDING,
    H_OWNER,
    H_TERRAIN,
    P_BOARD,
    P_BONUS,
    P_PASSED,
    P_SAILING,
    Phase,
)
from aoi_env.data import NUM_COLS
from aoi_env.observation import (
    _BRIDGE_KINDS,
    _BUILDING_P0,
    _COUNT_P0,
    _FLAT,
    _HEX_P0,
    _HEX_P2,
    _K,
    _KIND_INDEX,
    _LOW,
    _OPTION_P0,
    _SPADE_PLANES,
    _TB_BITS,
    _TB_KINDS,
    _TRASH,
    BRIDGE_SCALE,
    COUNT_SCALE,
    HEX_FLAGS,
    HEX_ONE_HOT,
    OBS_SIZE,
    OFFER_SCALE,
    P,
    _compiled_gather,
    _game_ones,
    _printed_spots,
    check_out,
)

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
_OWNER, _BRIDGES, _SPOTS = _FLAT["hex_owner"], _FLAT["hex_bridge_dirs"], _FLAT["hex_bridge_spots"]
_DX0, _DZ0 = BRIDGE_DIRECTIONS[0]  # board.bridge_direction, in the kernel
_DX1, _DZ1 = BRIDGE_DIRECTIONS[1]
_BORDER, _SPADES, _REACH = _FLAT["hex_border"], _FLAT["hex_spades"], _FLAT["hex_reach"]
_INNOVATION, _BOOKS_USED = _FLAT["innovation_display"], _FLAT["book_actions_used"]
_INNOV_SPACES, _INNOV_OWNER = G_INNOV_SPACES.start, G_INNOV_OWNER.start
_BOOK_ACTIONS, _BOOKS_USED_FIELD = G_BOOK_ACTIONS.start, G_BOOKS_USED.start
_HEX_PENDING = _FLAT["hex_pending"]
_PK, _PSEAT, _PCOUNT = _FLAT["pending_kind"], _FLAT["pending_seat"], _FLAT["pending_count"]
_PFLAGS, _PBUILDING, _PSOURCE = _FLAT["pending_flags"], _FLAT["pending_building"], _FLAT["pending_source"]
_PBRIDGE, _PDISC, _POPTION = _FLAT["pending_bridge"], _FLAT["pending_discipline"], _FLAT["pending_option"]
_PPARTS, _PBUILDER = _FLAT["pending_parts"], _FLAT["pending_builder"]
_PTURN, _PACQ = _FLAT["pending_turn"], _FLAT["pending_acquisition"]
_ORDER, _PHASE, _TURN, _ACTIONS = G_ORDER.start, G_PHASE, G_TURN, Phase.ACTIONS
_CHOOSE_COMPETENCY = int(Kind.CHOOSE_COMPETENCY)
_TB_BIT_VALUES = np.array(_TB_BITS, dtype=np.int64)
# the static hex planes: (field, block, lo, hi) and (field, block) rows, blocks as flat offsets
_HEX_ONE_HOT = np.array([(field, _FLAT[block], lo, hi) for field, block, lo, hi in HEX_ONE_HOT], dtype=np.int64)
_HEX_FLAGS = np.array([(field, _FLAT[block]) for field, block in HEX_FLAGS], dtype=np.int64)

# what ``_write_pending`` does per kind, as bits of one table entry per kind value
_USE_KEY, _COUNT, _TB, _BUILDING, _UPGRADE, _BRIDGE, _OPTION, _PALACE15, _OFFER, _HEX, _HEX0, _REWARD = (
    1 << i for i in range(12)
)
_KIND_COLUMN = np.full(max(Kind) + 1, -1, dtype=np.int64)
_KIND_BITS = np.zeros(max(Kind) + 1, dtype=np.int64)
for _kind, _column in _KIND_INDEX.items():
    _KIND_COLUMN[_kind] = _column
for _bit, _kinds in ((_USE_KEY, {Kind.USE_KEY}), (_COUNT, _COUNT_P0), (_TB, _TB_KINDS), (_BUILDING, _BUILDING_P0),
                     (_UPGRADE, {Kind.UPGRADE_TARGET}), (_BRIDGE, _BRIDGE_KINDS), (_OPTION, _OPTION_P0),
                     (_PALACE15, {Kind.PALACE15}), (_OFFER, {Kind.OFFER}), (_HEX, _HEX_P2), (_HEX0, _HEX_P0),
                     (_REWARD, {Kind.REWARD_ORDER})):  # fmt: skip
    for _kind in _kinds:
        _KIND_BITS[_kind] |= _bit


def _kernel(
    out: np.ndarray,
    players2d: np.ndarray,
    glob: np.ndarray,
    hexes: np.ndarray,
    bridges: np.ndarray,
    stack: np.ndarray,
    observer: int,
    prog: np.ndarray,
    numbers: np.ndarray,
) -> None:  # pragma: no cover - compiled by numba (its twin is tested against the numpy encoder)
    # the static arguments, packed by ``_static_arguments`` (fewer arguments: a cheaper call)
    n_hot, n_bits = prog[0], prog[1]
    source, line, flag_dst = prog[prog[2] : prog[3]], prog[prog[3] : prog[4]], prog[prog[4] : prog[5]]
    table = prog[prog[5] : prog[6]]
    empty_after, bit_pos, bit_dst = prog[prog[6] : prog[7]], prog[prog[7] : prog[8]], prog[prog[8] : prog[9]]
    num_dst, ones = prog[prog[9] : prog[10]], prog[prog[10] : prog[11]]
    n_line, n_flag, n_num = line.shape[0] // 4, flag_dst.shape[0], num_dst.shape[0]
    # the observer's effective sailing, as ``terrain.sailing``: the track, plus the reach bonus
    # of a player's bonus tile in Phase II until it passes (R138, OP-41, R78.2); ``sailing``
    # holds the number of players, then each bonus tile's reach bonus (a Python call less, issue 10)
    sailing = prog[prog[12] : prog[13]]
    sail = players2d[observer, P_SAILING]
    if observer < sailing[0] and glob[_PHASE] == _ACTIONS and players2d[observer, P_PASSED] == 0:
        bonus = players2d[observer, P_BONUS]
        if bonus >= 0:
            sail += sailing[1 + bonus]
    # the reach words (uint64 bits kept as int64) of the observer's sailing: P rows of _WORDS
    reach_rows = prog[prog[11] + min(sail, MAX_SAILING) * P * _WORDS : prog[12]]
    num_scale, num_low = numbers[:n_num], numbers[n_num : 2 * n_num]
    side = numbers[2 * n_num :]  # the board side: border, printed spots per hex, spot matrix
    border, spot_counts = side[:P], side[P : 2 * P]  # then the spot matrix, P x P, row by row
    out[:] = 0.0
    players = players2d.reshape(players2d.size)
    n = players2d.shape[0]  # the seats
    filled, n_bridges, depth = glob[G_NEXT_COUNT], glob[G_NUM_BRIDGES], glob[G_DEPTH]
    native = players2d[observer, P_BOARD]
    # -- the gather (``_Gather.write``) over players.ravel() + glob
    glob0 = players.shape[0]
    values = np.empty(source.shape[0], dtype=np.int64)
    for i in range(source.shape[0]):
        src = source[i]
        values[i] = players[src] if src < glob0 else glob[src - glob0]
    for k in range(filled, empty_after.shape[0]):
        values[empty_after[k]] = -1
    # the one-hot entries in three groups (``_split_hot``): lines, flags, then table rows
    for i in range(n_line):  # value v in lo..hi-1 sets base + v * stride
        v = min(max(values[i], _LOW), _LOW + _K - 1)
        if line[4 * i + 2] <= v < line[4 * i + 3]:
            out[line[4 * i] + v * line[4 * i + 1]] = 1.0
    for j in range(n_flag):  # any value but 0 sets one flag
        if values[n_line + j] != 0:
            out[flag_dst[j]] = 1.0
    first_row = n_line + n_flag
    for i in range(first_row, n_hot):
        v = min(max(values[i], _LOW), _LOW + _K - 1)
        d = table[(i - first_row) * _K - _LOW + v]  # the entry's table row + the value
        if d < OBS_SIZE:  # not the numpy encoder's trash float: nothing to set
            out[d] = 1.0
    for e in range(bit_pos.shape[0]):
        field, bit = divmod(bit_pos[e], 32)
        out[bit_dst[e]] = (values[n_hot + field] >> bit) & 1
    first = n_hot + n_bits
    for j in range(num_dst.shape[0]):
        x = values[first + j] * num_scale[j]
        out[num_dst[j]] = min(max(x, num_low[j]), 1.0)
    # -- the observer's map planes (``_write_map``, ``_shared_map``)
    # the reach and spot planes are worked out in ``out`` itself (no temporary arrays: each is
    # an allocation per call, issue 10): reach as 0 / 1, the spots as counts until divided
    word0 = word1 = np.uint64(0)  # reach as bits (two words: _WORDS): the union of the table rows
    for pos in range(P):
        # the static hex planes (``_hex_entries``): read here, not gathered by index (issue 10)
        for f in range(_HEX_ONE_HOT.shape[0]):
            v = hexes[pos, _HEX_ONE_HOT[f, 0]]
            if _HEX_ONE_HOT[f, 2] <= v < _HEX_ONE_HOT[f, 3]:
                out[_HEX_ONE_HOT[f, 1] + (v - _HEX_ONE_HOT[f, 2]) * P + pos] = 1.0
        for f in range(_HEX_FLAGS.shape[0]):
            if hexes[pos, _HEX_FLAGS[f, 0]] != 0:
                out[_HEX_FLAGS[f, 1] + pos] = 1.0
        owner = hexes[pos, H_OWNER]
        if hexes[pos, H_BUILDING] > 0 and owner >= 0:
            out[_OWNER + ((owner % n - observer) % n) * P + pos] = 1.0
            if owner == observer:
                word0 |= np.uint64(reach_rows[pos * _WORDS])  # the same 64 bits, as unsigned
                word1 |= np.uint64(reach_rows[pos * _WORDS + 1])
        out[_BORDER + pos] = 1.0 if border[pos] != 0 else 0.0
        if native >= 0:
            out[_SPADES + pos] = _SPADE_TABLE[native, hexes[pos, H_TERRAIN]]
        out[_SPOTS + pos] = spot_counts[pos]
    for q in range(P):
        if ((word0 if q < 64 else word1) >> np.uint64(q & 63)) & np.uint64(1):
            out[_REACH + q] = 1.0
    for k in range(n_bridges):
        a, b = bridges[k, 0], bridges[k, 1]
        r = ((bridges[k, 2] % n) - observer) % n
        lo, hi = min(a, b), max(a, b)  # board.bridge_direction: the upper end and the direction
        z_lo, z_hi = lo // NUM_COLS, hi // NUM_COLS
        dx = (hi % NUM_COLS - (z_hi - (z_hi & 1)) // 2) - (lo % NUM_COLS - (z_lo - (z_lo & 1)) // 2)
        dz = z_hi - z_lo
        d = 0 if (dx == _DX0 and dz == _DZ0) else 1 if (dx == _DX1 and dz == _DZ1) else 2
        out[_BRIDGES + (r * 3 + d) * P + lo] = 1.0
        if side[2 * P + a * P + b] != 0:  # a printed bridge spot
            out[_SPOTS + a] -= 1.0
            out[_SPOTS + b] -= 1.0
        if hexes[a, H_BUILDING] > 0 and hexes[a, H_OWNER] == observer:  # the observer's own end
            out[_REACH + b] = 1.0
        if hexes[b, H_BUILDING] > 0 and hexes[b, H_OWNER] == observer:
            out[_REACH + a] = 1.0
    for pos in range(P):
        out[_SPOTS + pos] = min(out[_SPOTS + pos] / np.float32(3.0), np.float32(1.0))
    # -- innovation display and used book actions (``_write_displays``)
    for space in range(12):
        tile = glob[_INNOV_SPACES + space]
        if tile >= 0 and glob[_INNOV_OWNER + tile] == -1:
            out[_INNOVATION + space * 18 + tile] = 1.0
    for j in range(3):
        action = glob[_BOOK_ACTIONS + j]
        out[_BOOKS_USED + action % 6] = 1.0 if glob[_BOOKS_USED_FIELD + j] != 0 else 0.0
    # -- the game parameters (``_game_ones``)
    for k in range(ones.shape[0]):
        out[ones[k]] = 1.0
    # -- the pending decision (``_write_pending``)
    if depth > 0:
        kind, seat = stack[depth - 1, 0], stack[depth - 1, 1]
        p0, p1, p2 = stack[depth - 1, 2], stack[depth - 1, 3], stack[depth - 1, 4]
        what = _KIND_BITS[kind]
        out[_PK + _KIND_COLUMN[kind]] = 1.0
        out[_PSEAT + (seat - observer) % n] = 1.0
        if what & _USE_KEY:
            out[_PDISC + p0] = 1.0
            out[_PCOUNT] = min(p1 / COUNT_SCALE, 1.0)
        elif what & _COUNT:
            out[_PCOUNT] = min(max(p0, 0) / (OFFER_SCALE if what & _OFFER else COUNT_SCALE), 1.0)
        if what & _TB:
            for i in range(_TB_BIT_VALUES.shape[0]):
                out[_PFLAGS + i] = 1.0 if (p1 & _TB_BIT_VALUES[i]) != 0 else 0.0
        if what & _BUILDING and p0 > 0:
            out[_PBUILDING + p0 - 1] = 1.0
        if what & _UPGRADE:
            out[_PSOURCE + p1] = 1.0
        if what & _BRIDGE:
            out[_PBRIDGE + p0] = 1.0
            out[_PBRIDGE + 2] = min(p1 / BRIDGE_SCALE, 1.0)
        if what & _OPTION:
            out[_POPTION] = 1.0 if p0 != 0 else 0.0
        if what & _PALACE15:
            for i in range(3):
                out[_PPARTS + i] = (p0 >> i) & 1
        if what & _OFFER:
            out[_PBUILDER + (p1 - observer) % n] = 1.0
        if what & _HEX:
            out[_HEX_PENDING + p2] = 1.0
        if what & _HEX0 and p0 > 0:
            out[_HEX_PENDING + p0 - 1] = 1.0
        if what & _REWARD:
            out[_PACQ + (0 if stack[depth - 2 - p0, 0] == _CHOOSE_COMPETENCY else 1)] = 1.0
        if glob[_PHASE] == _ACTIONS:
            out[_PTURN + (glob[_ORDER + glob[_TURN]] - observer) % n] = 1.0


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


_WORDS = (P + 63) // 64
if _WORDS != 2:  # the kernel keeps the reach in two uint64 locals, not an array (an allocation a call)
    raise RuntimeError(f"the observation kernel expects 65..128 positions, the board has {P}")


@functools.cache
def _reach_words(side: str) -> np.ndarray:
    """uint64[sailing, P, _WORDS]: the board's ``reach`` table (R39) with each row as bits."""
    from aoi_env.core.board import geometry

    rows = geometry(side).reach  # bool[sailing, P, P]
    padded = np.zeros(rows.shape[:2] + (_WORDS * 64,), dtype=np.bool_)
    padded[..., :P] = rows
    packed = np.packbits(padded, axis=-1, bitorder="little")  # uint8[sailing, P, _WORDS * 8]
    return np.ascontiguousarray(packed).view("<u8").astype(np.uint64)


def encode_into(out: np.ndarray, g: Game, observer: int) -> None:
    """Zero ``out`` (float32, ``OBS_SIZE``) and write the compiled part of ``observer``'s
    observation into it (see the module docstring for what is left to Python)."""
    if _compiled is None:
        raise RuntimeError("numba is not available (pip install aoi-env[fast]) or AOI_ENV_NUMBA=0")
    check_out(out)
    write(out, g, observer)


def write(out: np.ndarray, g: Game, observer: int) -> None:
    """``encode_into`` without its checks, for ``ObservationEncoder``, which makes ``out`` itself."""
    s = g.state
    (_entry or _first_call)(
        out,
        s.players,
        s.glob,
        s.hexes,
        s.bridges,
        s.stack,
        observer,
        *_static_arguments(g, observer),
    )


_entry: Any = None
"""The kernel's compiled overload, called without numba's dispatcher once known (``_first_call``)."""


def _first_call(*args: Any) -> None:
    """Call the kernel through numba's dispatcher (which compiles it on the first call), then keep
    the compiled overload for ``write``'s later calls.

    The dispatcher works out the numba type of every argument at every call (~3,900 instructions
    for the kernel's 13 arguments then, 9 now; issue 10).  Every call has the same types:
    ``out`` is a C-contiguous float32 vector (``encode_into`` and ``ObservationEncoder`` check
    it or make it), the static arguments come from ``_packed``, and ``State`` refuses arrays of
    another dtype, shape or layout.  Where a numba version keeps its overloads elsewhere, every
    call goes through the dispatcher."""
    global _entry
    _compiled(*args)
    try:
        _entry = _compiled.overloads[tuple(_nb.typeof(a) for a in args)].entry_point
    except (AttributeError, KeyError):
        _entry = _compiled


def _static_arguments(g: Game, observer: int) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's arguments that depend on the configuration and the observer only, kept on
    the game: the gather tables, the game-parameter indices and the board side's reach words
    packed into one int64 array (``prog``: n_hot, n_bits, the start of each part, then source,
    line, flag_dst, table, empty_after, bit_pos, bit_dst, num_dst, ones, reach, then the number of
    players and each bonus tile's reach bonus for the observer's sailing), and the count
    scales and floors with the board side's border, printed spots and spot matrix as one float64
    array (``numbers``).  Two arrays instead of sixteen arguments: numba's call costs ~40 ns per
    argument, and each array argument a reference-counted wrapper made and freed (issue 10)."""
    cache = g.__dict__.get("_obs_static")
    if cache is None:
        cache = g._obs_static = {}
    out = cache.get(observer)
    if out is None:
        ones = _game_ones(g).tobytes()
        out = cache[observer] = _packed(g.seats, observer, g.geo.name, ones, g.config.players, g.tab.bonus_reach)
    return out


class HotSplit(NamedTuple):
    """A gather's one-hot entries regrouped for the kernel (``_split_hot``)."""

    order: np.ndarray  # entry indices: the lines, then the flags, then the table rows
    line: np.ndarray  # (base, stride, lo, hi) per line entry, flat
    flag_dst: np.ndarray  # the one destination per flag entry
    table: np.ndarray  # the remaining entries' table rows, flat (``_K`` per entry)


def _split_hot(table: np.ndarray, n_hot: int) -> HotSplit:
    """Regroup the one-hot entries of a ``_Gather`` table by the shape of their row, so that the
    kernel reads a few numbers per entry instead of one cache line of a 239 KiB table (issue 10).

    A *line* sets ``base + v * stride`` for the values ``v`` in ``lo..hi-1`` and nothing for the
    others (a block indexed by the value, or a hex plane selected by it); a *flag* sets one index
    for every value but 0; every other row stays a table row.  Values are clamped to the table's
    range first, as before, so each group sets exactly what the row says.
    """
    rows = table.reshape(n_hot, _K)
    values = np.arange(_LOW, _LOW + _K)
    lines: list[tuple[int, int, int, int]] = []
    line_ids, flag_ids, flags, table_ids = [], [], [], []
    for i, row in enumerate(rows):
        sets = row != _TRASH
        dst, v = row[sets], values[sets]
        if len(v) and (v == np.arange(v[0], v[0] + len(v))).all():
            stride = int(dst[1] - dst[0]) if len(v) > 1 else 1
            if (dst == dst[0] + (v - v[0]) * stride).all():
                lines.append((int(dst[0] - v[0] * stride), stride, int(v[0]), int(v[-1]) + 1))
                line_ids.append(i)
                continue
        if len(v) == _K - 1 and not sets[-_LOW] and (dst == dst[0]).all():
            flag_ids.append(i)
            flags.append(int(dst[0]))
            continue
        table_ids.append(i)
    return HotSplit(
        np.array(line_ids + flag_ids + table_ids, dtype=np.int64),
        np.array(lines, dtype=np.int64).reshape(-1),
        np.array(flags, dtype=np.int64),
        rows[table_ids].reshape(-1).astype(np.int64),
    )


@functools.cache
def _packed(
    seats: int, observer: int, side_name: str, ones: bytes, players: int, bonus_reach: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """(prog, numbers) of ``_static_arguments``."""
    prog = _compiled_gather(seats, observer)
    split = _split_hot(prog.table, prog.n_hot)
    position = np.empty(prog.n_hot, dtype=np.int64)  # where each entry's value lands in the new order
    position[split.order] = np.arange(prog.n_hot)
    source = np.concatenate([prog.source[split.order], prog.source[prog.n_hot :]])
    empty_after = np.array([position[i] if i < prog.n_hot else i for i in prog.empty_after.tolist()], np.int64)
    parts = [source, split.line, split.flag_dst, split.table, empty_after, prog.bit_pos, prog.bit_dst, prog.num_dst,
             np.frombuffer(ones, dtype=np.intp), _reach_words(side_name).reshape(-1).view(np.int64),
             np.array([players, *bonus_reach], dtype=np.int64)]  # fmt: skip
    header = 2 + len(parts) + 1  # n_hot, n_bits, where each part starts and where the last ends
    starts = np.cumsum([header] + [len(part) for part in parts])
    packed = np.concatenate([[prog.n_hot, prog.n_bits], starts, *parts]).astype(np.int64)
    border, spot_counts, spot_matrix = _side(side_name)  # small counts and flags: exact as float64
    numbers = np.concatenate([prog.num_scale, prog.num_low, border, spot_counts, spot_matrix.ravel()])
    numbers = numbers.astype(np.float64)
    for a in (packed, numbers):
        a.setflags(write=False)
    return packed, numbers
