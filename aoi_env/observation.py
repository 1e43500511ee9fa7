"""Egocentric observation encoding: one flat float32 vector with named views (STYLE §5.14).

``encode(game, observer)`` writes every block of ``LAYOUT`` in order into one buffer of
``OBS_SIZE`` floats and asserts that the cursor ends exactly at ``OBS_SIZE``.  Every value lies in
[0, 1]: counts are divided by the scale given in ``LAYOUT`` and clipped, categories are one-hot.

The view is **egocentric**: the observer is relative seat 0, the player after them in seat order
is relative seat 1, and so on (``relative_seat``, the one rotation function).  Player blocks have
``MAX_SEATS`` = 5 rows whatever the player count, so the size is the same for 2-5 players; rows of
absent seats are zero (``player_present`` tells which rows are real).  Everything on the table is
public in *Age of Innovation*, so the observation is the full position but for what no player sees
(``aoi_env.core.hidden``): the order of an Automa's face-down cards and which advanced cards joined
her deck, the 2-player area token before round 6, and the seed of later chance.

The schema (``LAYOUT``, the scales, ``views``, ``layout``, ``layout_table``) lives in
``aoi_env.observation_layout`` and is re-exported here; this module is the encoder: what each
block holds for a position, the caches that skip unchanged parts, and the hand-off to the numba
kernel (``aoi_env.observation_jit``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from aoi_env.core import automa
from aoi_env.core import pending as pending_stack
from aoi_env.core.automa import A_DECK_LEN, A_DISCARD, A_DISCARD_LEN, A_FACTION, A_LEVEL, A_RESERVE_LEN
from aoi_env.core.automa import NUM_CARDS as NUM_AUTOMA_CARDS
from aoi_env.core.board import bridge_direction, geometry
from aoi_env.core.moves import NUM_ACTIONS
from aoi_env.core.pending import TB_BUILD, TB_BUY, TB_LIZARD, TB_NO_JUMP, Kind
from aoi_env.core.rules import scoring
from aoi_env.core.rules import terrain as terrain_rules
from aoi_env.core.rules.science import MAX_LEVEL
from aoi_env.core.rules.scoring import visible_area_token
from aoi_env.core.state import (
    G_AUTOMA,
    G_BONUS_COINS,
    G_BONUS_ROW,
    G_BONUS_STATE,
    G_BOOK_ACTIONS,
    G_BOOKS_USED,
    G_BUNDLE_BONUS,
    G_BUNDLE_FACTION,
    G_CITY_LEFT,
    G_COMP_LEFT,
    G_COMP_SPACES,
    G_DEPTH,
    G_DRAFT_BOARDS,
    G_DRAFT_FACTIONS,
    G_DRAFT_PALACES,
    G_FINAL_TILE,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEUTRAL_LEFT,
    G_NEUTRAL_SCIENCE,
    G_NEXT_COUNT,
    G_NEXT_ORDER,
    G_NUM_BRIDGES,
    G_ORDER,
    G_PALACE_STATE,
    G_PAVILIONS_LEFT,
    G_PHASE,
    G_ROUND,
    G_ROUND_TILES,
    G_SCHOLAR_SPACES,
    G_SPELLS_USED,
    G_START_PLAYER,
    H_BUILDING,
    H_CITY,
    H_MARK,
    H_NEUTRAL,
    H_OWNER,
    H_PAVILION,
    H_RIVER_CITY,
    H_TERRAIN,
    HEX_FIELDS,
    NEUTRAL_SEAT,
    P_BOARD,
    P_BONUS,
    P_BOOKS,
    P_BOWLS,
    P_BRIDGES,
    P_BUILT,
    P_CITIES,
    P_COINS,
    P_COMPETENCIES,
    P_DEFER_CITY,
    P_DRAFT_PALACE,
    P_FACTION,
    P_INNOVATIONS,
    P_NEUTRAL_BUILT,
    P_NEUTRAL_PALACE,
    P_PALACE_TILE,
    P_PASSED,
    P_PAVILIONS,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_SETUP_SPADES,
    P_SPECIALS_USED,
    P_TERRAFORMING,
    P_TOOLS,
    P_VP,
    PLAYER_FIELDS,
    Phase,
    turn_seat,
)
from aoi_env.data import load
from aoi_env.data.enums import Terrain
from aoi_env.observation_layout import (
    AREA_SCALE,
    BONUS_COIN_SCALE,
    BOOKS_SCALE,
    BOWL_SCALE,
    BRIDGE_SCALE,
    CITY_COPIES,
    COINS_SCALE,
    COMP_COPIES,
    COUNT_SCALE,
    DECISION_KINDS,
    DEFER_SCALE,
    LAYOUT,
    NEUTRAL_SCALE,
    OBS_SCHEMA_VERSION,
    OBS_SIZE,
    OFFER_SCALE,
    PAVILION_SCALE,
    PIECES,
    SAILING_SCALE,
    SCHOLARS_SCALE,
    SHAPES,
    SLICES,
    TERRAFORMING_SCALE,
    TOOLS_SCALE,
    VP_SCALE,
    Block,
    P,
    S,
    layout,
    layout_table,
    relative_seat,
    views,
)

if TYPE_CHECKING:
    from aoi_env.core.engine import Game

__all__ = [  # the encoder, and the schema of aoi_env.observation_layout (re-exported: callers import it from here)
    "AREA_SCALE", "BONUS_COIN_SCALE", "BOOKS_SCALE", "BOWL_SCALE", "BRIDGE_SCALE", "CITY_COPIES", "COINS_SCALE",
    "COMP_COPIES", "COUNT_SCALE", "DECISION_KINDS", "DEFER_SCALE", "LAYOUT", "NEUTRAL_SCALE", "OBS_SCHEMA_VERSION",
    "OBS_SIZE", "OFFER_SCALE", "PAVILION_SCALE", "PIECES", "SAILING_SCALE", "SCHOLARS_SCALE", "SHAPES", "SLICES",
    "TERRAFORMING_SCALE", "TOOLS_SCALE", "VP_SCALE", "Block", "ObservationEncoder", "action_mask", "encode",
    "layout", "layout_table", "relative_order", "relative_seat", "views",
]  # fmt: skip


_TB_KINDS = frozenset({Kind.TB_TARGET, Kind.TB_TUNNEL, Kind.TB_FLY, Kind.TB_SPADES, Kind.TB_FINISH, Kind.LIZARD_BUILD})
_COUNT_P0 = frozenset(
    {Kind.TB_TARGET, Kind.TB_TUNNEL, Kind.TB_FLY, Kind.TB_SPADES, Kind.TB_FINISH, Kind.SPADES, Kind.PAY_BOOKS,
     Kind.CHOOSE_BOOKS, Kind.STEPS_ANY, Kind.STEPS_ONE, Kind.OFFER, Kind.REWARD_ORDER}
)  # fmt: skip
_OPTION_P0 = frozenset({Kind.MAIN, Kind.CHOOSE_COMPETENCY, Kind.CHOOSE_CITY})
_BUILDING_P0 = frozenset({Kind.INITIAL_PLACE, Kind.UPGRADE_TARGET, Kind.NEUTRAL_PLACE})
_HEX_P2 = frozenset({Kind.TB_SPADES, Kind.TB_FINISH, Kind.BRIDGE_DIR})
_HEX_P0 = frozenset({Kind.LIZARD_BUILD})  # p0 = hex + 1, 0 = none
_TB_BITS = (TB_BUY, TB_BUILD, TB_LIZARD, TB_NO_JUMP)
_FLOAT32 = np.dtype(np.float32)  # a dtype object: np.empty parses no type name (issue 10)


_PLAYER_NUMBERS = (
    ("player_resources", [(P_VP, VP_SCALE), (P_COINS, COINS_SCALE), (P_TOOLS, TOOLS_SCALE),
                          (P_SCHOLARS, SCHOLARS_SCALE), (P_SCHOLAR_SUPPLY, SCHOLARS_SCALE)]
                         + [(P_BOOKS.start + d, BOOKS_SCALE) for d in range(4)]
                         + [(P_BOWLS.start + b, BOWL_SCALE) for b in range(3)]),
    ("player_science", [(P_SCIENCE.start + d, float(MAX_LEVEL)) for d in range(4)]),
    ("player_tracks", [(P_SAILING, SAILING_SCALE), (P_TERRAFORMING, TERRAFORMING_SCALE)]),
    ("player_buildings", [(P_BUILT.start + 1 + i, float(PIECES[i])) for i in range(5)]),
    ("player_neutral", [(P_NEUTRAL_BUILT.start + 1 + i, NEUTRAL_SCALE) for i in range(7)]),
    ("player_counts", [(P_CITIES, COUNT_SCALE), (P_BRIDGES, BRIDGE_SCALE), (P_PAVILIONS, PAVILION_SCALE),
                       (P_SETUP_SPADES, 3.0), (P_DEFER_CITY, DEFER_SCALE)]),
)  # fmt: skip
"""The player blocks that hold scaled counts: (block, [(player field, scale) per column])."""
_NUMBER_FIELDS = np.array([f for _, cols in _PLAYER_NUMBERS for f, _ in cols], dtype=np.intp)
_NUMBER_INV_SCALE = np.array([1.0 / sc for _, cols in _PLAYER_NUMBERS for _, sc in cols], dtype=np.float32)
_NUMBER_SPANS = []
_col = 0
for _name, _cols in _PLAYER_NUMBERS:
    assert SHAPES[_name] == (S, len(_cols)), _name
    _NUMBER_SPANS.append((_name, _col, _col + len(_cols)))
    _col += len(_cols)
_NUMBER_INDEX = np.array(
    [
        SLICES[name].start + row * (b - a) + col
        for row in range(S)
        for name, a, b in _NUMBER_SPANS
        for col in range(b - a)
    ],
    dtype=np.intp,
)  # flat buffer index of numbers[row, column] (row-major), for the scatter in _write
_PLAYER_CATEGORIES = (
    ("player_faction", (P_FACTION,)),
    ("player_board", (P_BOARD,)),
    ("player_innovations", tuple(range(P_INNOVATIONS.start, P_INNOVATIONS.stop))),
    ("player_palace", (P_PALACE_TILE,)),
    ("player_draft_palace", (P_DRAFT_PALACE,)),
    ("player_bonus", (P_BONUS,)),
)
"""One-hot player blocks: (block, player fields whose value, if >= 0, is the column to set)."""
_NEUTRAL_NAMES = ("workshop", "guild", "school", "university", "palace", "tower", "monument")


_KIND_INDEX = {int(k): i for i, k in enumerate(DECISION_KINDS)}
_NAMES = tuple(b.name for b in LAYOUT)
_ENDS = tuple(SLICES[b.name].stop for b in LAYOUT)
_INDEX = {name: i for i, name in enumerate(_NAMES)}


class _Writer:
    """Hands out the views of consecutive blocks and checks that they are taken in layout order."""

    __slots__ = ("buf", "views", "index", "shared", "scratch")

    def __init__(
        self, buf: np.ndarray, views: list[np.ndarray], shared: dict | None = None, scratch: np.ndarray | None = None
    ) -> None:
        self.buf = buf
        self.scratch = scratch  # buf plus one float (_TRASH), for _Gather.write
        self.views = views
        self.index = 0
        self.shared = {} if shared is None else shared  # observer-independent parts (the encoder's)

    @property
    def cursor(self) -> int:
        """Flat offset after the blocks taken so far."""
        return _ENDS[self.index - 1] if self.index else 0

    def __call__(self, name: str) -> np.ndarray:
        i = self.index
        if i >= len(_NAMES) or _NAMES[i] != name:
            expected = _NAMES[i] if i < len(_NAMES) else "nothing"
            raise AssertionError(f"observation block {name!r} written out of order (expected {expected!r})")
        self.index = i + 1
        return self.views[i]

    def skip(self, names: tuple[str, ...]) -> None:
        """Take the consecutive blocks ``names`` without writing them (restored from a cache)."""
        i = self.index
        if _NAMES[i : i + len(names)] != names:
            raise AssertionError(f"observation section {names[0]!r} written out of order (expected {_NAMES[i]!r})")
        self.index = i + len(names)


class ObservationEncoder:
    """Writes observations into one reusable buffer (views built once) and returns copies.

    Two encoders give the same vectors (``tests/test_observation_jit.py``):

    * ``compiled``: one numba call (``aoi_env.observation_jit``) writes everything computed from
      the state's integers, Python adds the rest; used when numba is installed (the ``fast``,
      ``train`` and ``dev`` extras) unless ``compiled=False`` or ``AOI_ENV_NUMBA=0``;
    * numpy: the map and display sections change only when something is built, taken or used:
      the map is cached per observer under a key holding every input it is computed from
      (``_map_key``), the displays once for all observers (their glob fields; the scholar spaces,
      which depend on the observer, are written by the player gather); a test compares cached and
      fresh encodings over random games.
    """

    def __init__(self, compiled: bool | None = None) -> None:
        from aoi_env import observation_jit

        if compiled and not observation_jit.AVAILABLE:
            raise ValueError("compiled=True needs numba (pip install aoi-env[fast]) and AOI_ENV_NUMBA unset")
        self.compiled = observation_jit.AVAILABLE if compiled is None else bool(compiled)
        self._encode_into = observation_jit.write  # out is made here: no checks needed
        self.scratch = np.zeros(OBS_SIZE + 1, dtype=np.float32)  # the observation, then _TRASH
        self.buf = self.scratch[:OBS_SIZE]
        self.block_views = [self.buf[SLICES[b.name]].reshape(b.shape) for b in LAYOUT]
        self._cache: dict[tuple[str, int], tuple[tuple, np.ndarray]] = {}
        self._shared: dict[str, tuple] = {}  # observer-independent parts of the sections (one entry each)

    def encode(self, g: Game, observer: int) -> np.ndarray:
        """The observation of ``observer`` (a seat) as a new float32 vector of ``OBS_SIZE``."""
        n = g._seats  # the seats property without its call (issue 10)
        if type(observer) is not int and (isinstance(observer, bool) or not isinstance(observer, np.integer)):
            raise ValueError(f"observer must be a seat number, got {observer!r}")
        if not 0 <= observer < n:
            raise ValueError(f"observer must be a seat 0..{n - 1}, got {observer}")
        if self.compiled:  # written straight into the array handed out (no scratch, no copy)
            out = np.empty(OBS_SIZE, _FLOAT32)
            self._write_compiled(out, g, observer, n)
            return out
        self.scratch[:] = 0.0
        w = _Writer(self.buf, self.block_views, self._shared, self.scratch)

        def cached(section: str, key: tuple, write: Callable[[Game, int, _Writer], None]) -> None:
            names, span = _SECTIONS[section]
            hit = self._cache.get((section, observer))
            if hit is not None and hit[0] == key:
                w.skip(names)  # the writer still checks the order and the size
                self.buf[span] = hit[1]
            else:
                write(g, observer, w)
                self._cache[(section, observer)] = (key, self.buf[span].copy())

        _write(g, observer, w, cached)
        if w.cursor != OBS_SIZE or w.index != len(LAYOUT):
            raise AssertionError(f"observation writer stopped at {w.cursor}, expected OBS_SIZE = {OBS_SIZE}")
        return self.buf.copy()

    def encode_into(self, out: np.ndarray, g: Game, observer: int) -> None:
        """``encode`` written into ``out``, a C-contiguous float32 vector of ``OBS_SIZE`` (e.g. one
        row of a batch, ``aoi_env.vector``): the compiled encoder writes there directly, without
        a new array and a copy."""
        check_out(out)
        n = g.seats
        if type(observer) is not int and (isinstance(observer, bool) or not isinstance(observer, np.integer)):
            raise ValueError(f"observer must be a seat number, got {observer!r}")
        if not 0 <= observer < n:
            raise ValueError(f"observer must be a seat 0..{n - 1}, got {observer}")
        if self.compiled:
            self._write_compiled(out, g, observer, n)
        else:
            out[:] = self.encode(g, observer)

    def _write_compiled(self, out: np.ndarray, g: Game, observer: int, n: int) -> None:
        """The compiled kernel's part, then the rare parts Python adds; ``n``: ``g.seats``, which
        the caller has (a property read costs ~600 instructions; issue 10)."""
        self._encode_into(out, g, observer)
        if n == 2:
            _write_neutral_faction(g, out)
        if g.config.players < n or g.state.glob_ints[G_PHASE] == Phase.SETUP:  # Python ints (issue 10)
            _write_rare(g, observer, out)


def check_out(out: np.ndarray) -> None:
    """``encode_into``'s ``out`` must be a C-contiguous, writeable float32 vector of ``OBS_SIZE``
    (the compiled kernel writes it through its one compiled overload, ``observation_jit``)."""
    if not isinstance(out, np.ndarray) or out.shape != (OBS_SIZE,) or out.dtype != np.float32:
        got = f"{out.dtype} {out.shape}" if isinstance(out, np.ndarray) else type(out).__name__
        raise ValueError(f"out must be a float32 array of shape ({OBS_SIZE},), got {got}")
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError("out must be contiguous and writeable (a row of a C-ordered batch is)")


def encode(g: Game, observer: int) -> np.ndarray:
    """The observation of ``observer`` (a seat): a float32 vector of ``OBS_SIZE`` in [0, 1]."""
    return ObservationEncoder().encode(g, observer)


def _section(first: str, last: str) -> tuple[tuple[str, ...], slice]:
    names = [b.name for b in LAYOUT]
    return tuple(names[names.index(first) : names.index(last) + 1]), slice(SLICES[first].start, SLICES[last].stop)


_SECTIONS = {"map": _section("hex_terrain", "hex_reach")}


def _map_key(g: Game, observer: int) -> tuple:
    """Everything the map section depends on (terrain, buildings, bridges, the observer's reach)."""
    s = g.state
    return (g.seats, g.geo.name, int(s.players[observer, P_BOARD]), terrain_rules.sailing(g, observer),
            s.hexes.tobytes(), s.bridges.tobytes(), int(s.glob[G_NUM_BRIDGES]))  # fmt: skip


@functools.cache
def _compiled_gather(seats: int, observer: int) -> _Gather:
    """The player and display entries in one gather over ``players.ravel() + glob`` (the compiled
    encoder, ``observation_jit``, which sets the static hex planes in its loop over the hexes)."""
    glob0 = seats * PLAYER_FIELDS
    hot, bits, numbers, empty_after = _player_entries(seats, observer)
    display_hot, _, display_numbers, _ = _display_entries()
    hot = hot + [(src + glob0, dst) for src, dst in display_hot]
    numbers = numbers + [(src + glob0, scale, low, dst) for src, scale, low, dst in display_numbers]
    return _Gather(hot, bits, numbers, empty_after)


def _write(g: Game, observer: int, w: _Writer, cached: Callable[..., None]) -> None:
    """Write every block in layout order (``cached`` writes or restores a cached section).

    Outside the map the blocks are taken in groups (``w.skip`` checks their order) and written
    by flat index (issue 10): the displays are kept once for all observers, keyed by their glob
    fields; the player, turn-order, scholar-space and round blocks come from one gather of the
    state's integers through a ``_Gather`` precomputed per (seats, observer).
    """
    n = g.seats
    s = g.state
    glob = s.glob
    buf = w.buf

    cached("map", _map_key(g, observer), _write_map)
    hex_pending = w.views[w.index]
    w.skip(_PLAYER_PART)
    w.skip(_DISPLAY_PART)
    # -- displays (before the gather: it writes the scholar spaces inside their span)
    span = _DISPLAY_SPAN
    revealed = int(glob[G_ROUND]) >= scoring.AREA_TOKEN_REVEALED_ROUND  # the area token (R25)
    key = (n, scoring.has_neutral_faction(g), glob[_DISPLAY_FIELDS].tobytes(), revealed)
    hit = w.shared.get("displays")
    if hit is not None and hit[0] == key:
        buf[span] = hit[1]
    else:
        _write_displays(g, w.scratch)
        w.shared["displays"] = (key, buf[span].copy())

    # -- game parameters, players, turn orders, scholar spaces and the round
    _player_gather(n, observer).write(w.scratch, np.concatenate((s.players.ravel(), glob)), int(glob[G_NEXT_COUNT]))
    w.skip(_ROUND_PART)
    buf[_game_ones(g)] = 1.0
    _write_rare(g, observer, buf)
    # -- the pending decision
    w.skip(_PENDING_NAMES)
    _write_pending(g, observer, buf, hex_pending)


def _offsets(name: str) -> tuple[int, ...]:
    """The flat index of block ``name``'s first entry, then the flat stride of each axis but the
    last (``_write_rare`` adds ``row * stride + column`` to the start)."""
    shape = SHAPES[name]
    strides = [int(np.prod(shape[i + 1 :])) for i in range(len(shape) - 1)]
    return (SLICES[name].start, *strides)


_AUTOMA_ROW, _AUTOMA_ROW_STRIDE = _offsets("player_automa")
_AUTOMA_CARDS, _AUTOMA_CARDS_STRIDE = _offsets("player_automa_cards")
_AUTOMA_OPEN, _AUTOMA_OPEN_STRIDE, _AUTOMA_OPEN_ROW = _offsets("player_automa_open")
_AUTOMA_BONUS, _AUTOMA_BONUS_STRIDE = _offsets("automa_bonus_row")
_BUNDLE_FACTION, _BUNDLE_FACTION_STRIDE = _offsets("setup_bundle_faction")
_BUNDLE_BONUS, _BUNDLE_BONUS_STRIDE = _offsets("setup_bundle_bonus")
(_DRAFT,) = _offsets("setup_draft")
_SOLO_PAIRS, _SOLO_PAIRS_STRIDE = _offsets("setup_solo_pairs")
_DRAFT_FIELDS = ((0, G_DRAFT_BOARDS), (7, G_DRAFT_FACTIONS), (19, G_DRAFT_PALACES))  # offset in setup_draft
_SETUP = int(Phase.SETUP)


def _write_rare(g: Game, observer: int, buf: np.ndarray) -> None:
    """The Automa's player rows (solo) and the setup pools (during setup) into the flat
    observation ``buf``, in Python for both encoders (issue 10: in a solo game this runs at every
    decision; from the state's int views, without a numpy view or fancy index per block)."""
    n = g.seats
    humans = g.config.players
    if humans < n:
        index, values = _automa_entries(g, observer, n, humans)
        buf[index] = values
    if g.state.glob_ints[G_PHASE] == _SETUP:
        ones = _setup_ones(g, humans)
        if ones:
            buf[ones] = 1.0


_AUTOMA_ENTRIES: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def _automa_entries(g: Game, observer: int, n: int, humans: int) -> tuple[np.ndarray, np.ndarray]:
    """(flat indices, values) of the Automa blocks: her level, faction, card counts, discard pile
    and open cards per Automa seat, and the Automa bonus row.  Memoised on all they are computed
    from (the seats, the observer, the bonus row and the Automa records), which change only on
    her turns and at the rounds' ends, not at every decision."""
    glob = g.state.glob_ints
    key = (n, humans, observer, glob[G_BONUS_ROW].tobytes(), glob[G_AUTOMA].tobytes())
    out = _AUTOMA_ENTRIES.get(key)
    if out is None:
        if len(_AUTOMA_ENTRIES) > 4096:
            _AUTOMA_ENTRIES.clear()
        index: list[int] = []
        values: list[float] = []
        ones: list[int] = []  # after the numbers: set last, as the blocks were written
        for seat in range(humans, n):
            r = relative_seat(seat, observer, n)
            rec = automa.record_values(g, seat)
            row = _AUTOMA_ROW + r * _AUTOMA_ROW_STRIDE
            cards = _AUTOMA_CARDS + r * _AUTOMA_CARDS_STRIDE
            index += (row, cards, cards + 1)
            values += (rec[A_LEVEL] / 5.0, rec[A_DECK_LEN] / NUM_AUTOMA_CARDS, rec[A_RESERVE_LEN] / NUM_AUTOMA_CARDS)
            ones.append(row + 1 + rec[A_FACTION])
            for card in rec[A_DISCARD.start : A_DISCARD.start + rec[A_DISCARD_LEN]]:
                ones.append(cards + 1 + card)  # card c (1..14) -> column 1 + c
            open_cards = _AUTOMA_OPEN + r * _AUTOMA_OPEN_STRIDE
            for i, card in enumerate((automa.support_card(rec), automa.open_action_card(rec))):
                if card:
                    ones.append(open_cards + i * _AUTOMA_OPEN_ROW + card - 1)
        for i, tile in enumerate(glob[G_BONUS_ROW].tolist()):
            if tile >= 0:
                ones.append(_AUTOMA_BONUS + i * _AUTOMA_BONUS_STRIDE + tile)
        out = _AUTOMA_ENTRIES[key] = (
            np.array(index + ones, dtype=np.intp),
            np.array(values + [1.0] * len(ones), dtype=np.float32),
        )
    return out


def _setup_ones(g: Game, humans: int) -> list[int]:
    """The flat indices set to 1 by the setup pools: the bundles (a bonus tile shown only with its
    faction), the draft pools, and in a solo game the faction-card pairs."""
    glob = g.state.glob_ints
    ones: list[int] = []
    bundle_bonus = glob[G_BUNDLE_BONUS].tolist()
    for i, faction in enumerate(glob[G_BUNDLE_FACTION].tolist()):
        if faction >= 0:
            ones.append(_BUNDLE_FACTION + i * _BUNDLE_FACTION_STRIDE + faction)
            if bundle_bonus[i] >= 0:
                ones.append(_BUNDLE_BONUS + i * _BUNDLE_BONUS_STRIDE + bundle_bonus[i])
    for offset, field in _DRAFT_FIELDS:
        for k in glob[field].tolist():
            if k >= 0:
                ones.append(_DRAFT + offset + k)
    if g.config.automa and humans == 1:  # the solo pick: faction i comes with card i
        for faction, card in zip(glob[G_DRAFT_FACTIONS].tolist(), glob[G_DRAFT_BOARDS].tolist(), strict=True):
            if faction >= 0 and card >= 0:
                ones.append(_SOLO_PAIRS + faction * _SOLO_PAIRS_STRIDE + card)
    return ones


def _write_displays(g: Game, scratch: np.ndarray) -> None:
    """The display blocks but the scholar spaces, into a zeroed span of ``scratch``."""
    glob = g.state.glob
    _display_gather().write(scratch, glob)
    owner = glob[G_INNOV_OWNER].tolist()
    base = _FLAT["innovation_display"]
    for space, tile in enumerate(glob[G_INNOV_SPACES].tolist()):
        if tile >= 0 and owner[tile] == -1:  # available on the display (R12, R20)
            scratch[base + space * 18 + tile] = 1.0
    base = _FLAT["book_actions_used"]
    for action, used in zip(glob[G_BOOK_ACTIONS].tolist(), glob[G_BOOKS_USED].tolist(), strict=True):
        scratch[base + action % 6] = used != 0  # X token on the book action (numpy's -1: the last)
    _write_neutral_faction(g, scratch)


def _write_neutral_faction(g: Game, scratch: np.ndarray) -> None:
    """The 2-player neutral faction (R24): its area token once face up (R25), its science.  Zeros
    without one (a solo game also has two seats): its science stays 0 then (an invariant,
    ``invariants.py``), so nothing is written (issue 10: from Python ints, no array per call)."""
    if not scoring.has_neutral_faction(g):
        return
    token = visible_area_token(g)  # hidden information until round 6 (R25)
    if token is not None:
        scratch[_NEUTRAL_FACTION] = min(token / AREA_SCALE, 1.0)
    for d, level in enumerate(g.state.glob_ints[G_NEUTRAL_SCIENCE].tolist()):
        scratch[_NEUTRAL_FACTION + 1 + d] = min(level / MAX_LEVEL, 1.0)


_NEUTRAL_FACTION = SLICES["neutral_faction"].start


def _game_ones(g: Game) -> np.ndarray:
    """Flat indices of the 1.0 values of game_players, game_ruleset, game_map and player_present
    (they depend on the configuration only; kept on the game, shared by its clones)."""
    out = g.__dict__.get("_obs_game_ones")
    if out is None:
        n = g.seats
        idx = [_FLAT["game_players"] + n - 2]
        if g.config.ruleset == "v1.0":
            idx.append(_FLAT["game_ruleset"])
        if g.config.map_side == "1-3":
            idx.append(_FLAT["game_map"])
        idx.extend(_FLAT["player_present"] + r for r in range(n))
        out = g._obs_game_ones = np.array(idx, dtype=np.intp)
    return out


def _write_map(g: Game, observer: int, w: _Writer) -> None:
    """The hex planes hex_terrain .. hex_reach.

    The observer-independent planes, and the owner and bridge planes by absolute seat, are kept
    once for all observers (keyed by the hexes and bridges); an observer gets the latter with
    their rows rotated (egocentric), then the spades and reach planes (cached with the hexes).
    """
    n = g.seats
    s = g.state
    names, span = _SECTIONS["map"]
    first = w.index
    w.skip(names)
    views = w.views
    key = (n, g.geo.name, s.hexes.tobytes(), s.bridges.tobytes(), int(s.glob[G_NUM_BRIDGES]))  # n: the owner planes
    hit = w.shared.get("map")
    if hit is None or hit[0] != key:
        v = dict(zip(names, views[first : first + len(names)], strict=True))
        hit = w.shared["map"] = (key, *_shared_map(g, v, span, w.scratch))
    _, static, owner, bridges = hit
    w.buf[span] = static  # the owner, bridge, spade and reach planes are zero in it
    rows = relative_order(observer, n)
    views[_INDEX["hex_owner"]][:n] = owner[rows]
    if bridges is not None:
        views[_INDEX["hex_bridge_dirs"]][:n] = bridges[rows]
    native = int(s.players[observer, P_BOARD])
    if native >= 0:
        cache = terrain_rules.hex_cache(g).extra  # per hexes content: the plane of each native terrain
        plane = cache.get(("obs_spades", native))
        if plane is None:  # land hexes only: river and off-board terrain types give 0
            plane = cache[("obs_spades", native)] = _SPADE_PLANES[native][s.hexes[:, H_TERRAIN]]
        views[_INDEX["hex_spades"]][0] = plane
    views[_INDEX["hex_reach"]][0] = terrain_rules.reach(g, observer)


def _shared_map(
    g: Game, v: dict[str, np.ndarray], span: slice, scratch: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The map section's observer-independent part: (static planes as written into
    ``scratch[span]``, zero before; owner planes by absolute seat; bridge planes by absolute seat
    or None without bridges)."""
    n = g.seats
    s = g.state
    bridges = s.built_bridges()
    _write_static_planes(g, v, bridges, scratch)
    static = scratch[span].copy()
    h = s.hexes
    owned = np.flatnonzero((h[:, H_BUILDING] > 0) & (h[:, H_OWNER] >= 0))
    owner = np.zeros((n, P), dtype=np.float32)
    owner[h[owned, H_OWNER].astype(np.intp) % n, owned] = 1.0
    if not len(bridges):
        return static, owner, None
    planes = np.zeros((n, 3, P), dtype=np.float32)
    for (a, b), seat in zip(bridges.tolist(), s.bridges[: len(bridges), 2].tolist(), strict=True):
        upper, direction = bridge_direction(a, b)  # the pair, not only the two hexes (which pairs are joined)
        planes[seat % n, direction, upper] = 1.0
    return static, owner, planes


_SPADE_PLANES = np.array(
    [[terrain_rules.spade_distance(t, native) / 3.0 if t < terrain_rules.CYCLE else 0.0 for t in range(len(Terrain))]
     for native in range(terrain_rules.CYCLE)],
    dtype=np.float32,
)  # fmt: skip
"""hex_spades value per (native terrain, hex terrain): spades / 3 on land (R35), 0 on river and off board."""


def _write_static_planes(g: Game, v: dict[str, np.ndarray], bridges: np.ndarray, scratch: np.ndarray) -> None:
    """The observer-independent hex planes (terrain, building, flags, bridge spots, border)."""
    _hex_gather().write(scratch, g.state.hexes.ravel())
    v["hex_bridge_spots"][0] = np.minimum(_free_spots(g, bridges) / 3.0, 1.0)
    v["hex_border"][0] = g.geo.border


@functools.cache
def _hex_gather() -> _Gather:
    """The terrain and building one-hot planes and the 0/1 hex flags, from ``hexes.ravel()``."""
    return _Gather(*_hex_entries())


HEX_ONE_HOT = ((H_TERRAIN, "hex_terrain", 0, 9), (H_BUILDING, "hex_building", 1, 8))
"""(hex field, block, lo, hi): the value v in lo..hi-1 sets plane v - lo of the block at the hex."""
HEX_FLAGS = ((H_NEUTRAL, "hex_neutral"), (H_PAVILION, "hex_pavilion"), (H_CITY, "hex_city"),
             (H_RIVER_CITY, "hex_river_city"), (H_MARK, "hex_mark"))  # fmt: skip
"""(hex field, block): any value but 0 sets the block at the hex."""


def _hex_entries() -> Entries:
    """The entries of ``_hex_gather`` (the compiled kernel sets the same planes from ``HEX_ONE_HOT``
    and ``HEX_FLAGS`` in its loop over the hexes)."""
    hot: list[Hot] = []
    for pos in range(P):
        row = pos * HEX_FIELDS
        for field, block, lo, hi in HEX_ONE_HOT:
            plane = _FLAT[block] + pos
            hot.append((row + field, lambda v, d=plane, lo=lo, hi=hi: d + (v - lo) * P if lo <= v < hi else None))
        for field, block in HEX_FLAGS:
            hot.append((row + field, lambda v, d=_FLAT[block] + pos: d if v != 0 else None))
    return hot, [], [], []


def relative_order(observer: int, seats: int) -> list[int]:
    """Absolute seats in relative order: entry r is the seat the observer sees as relative seat r
    (the inverse of ``relative_seat``)."""
    return [(observer + r) % seats for r in range(seats)]


@functools.cache
def _neutral_supply() -> np.ndarray:
    """Neutral pieces in the game per type workshop .. monument (R1), at least 1."""
    raw = load().raw["neutral_pieces"]
    return np.array([max(int(raw.get(k, 0)), 1) for k in _NEUTRAL_NAMES], dtype=np.float32)


@functools.cache
def _printed_spots(side: str) -> tuple[np.ndarray, frozenset[tuple[int, int]]]:
    geo = geometry(side)
    counts = np.zeros(P, dtype=np.float32)
    for a, b in geo.bridge_spots:
        counts[a] += 1.0
        counts[b] += 1.0
    return counts, frozenset(geo.bridge_spots)


def _free_spots(g: Game, bridges: np.ndarray) -> np.ndarray:
    """Number of free printed bridge spots touching each position."""
    counts, spots = _printed_spots(g.geo.name)
    out = counts.copy()
    for a, b in bridges.tolist():
        if (a, b) in spots:
            out[a] -= 1.0
            out[b] -= 1.0
    return out


def _write_pending(g: Game, observer: int, buf: np.ndarray, hex_pending: np.ndarray) -> None:
    """The pending row (kind, seat, p0..p5) decoded per kind (see ``aoi_env.core.pending``),
    written by flat index (``_P``: the start of each pending block)."""
    row = pending_stack.top(g.state)
    if row is None:
        return
    kind, seat, *p = row
    buf[_P["pending_kind"] + _KIND_INDEX[kind]] = 1.0
    buf[_P["pending_seat"] + relative_seat(seat, observer, g.seats)] = 1.0
    if kind == Kind.USE_KEY:
        buf[_P["pending_discipline"] + p[0]] = 1.0
        buf[_P["pending_count"]] = min(p[1] / COUNT_SCALE, 1.0)
    elif kind in _COUNT_P0:
        buf[_P["pending_count"]] = min(max(p[0], 0) / (OFFER_SCALE if kind == Kind.OFFER else COUNT_SCALE), 1.0)
    if kind in _TB_KINDS:
        for i, bit in enumerate(_TB_BITS):
            buf[_P["pending_flags"] + i] = (p[1] & bit) != 0
    if kind in _BUILDING_P0 and p[0] > 0:
        buf[_P["pending_building"] + p[0] - 1] = 1.0
    if kind == Kind.UPGRADE_TARGET:
        buf[_P["pending_source"] + p[1]] = 1.0
    if kind in _BRIDGE_KINDS:
        buf[_P["pending_bridge"] + p[0]] = 1.0
        buf[_P["pending_bridge"] + 2] = min(p[1] / BRIDGE_SCALE, 1.0)
    if kind in _OPTION_P0:
        buf[_P["pending_option"]] = p[0] != 0
    if kind == Kind.PALACE15:
        for i in range(3):
            buf[_P["pending_parts"] + i] = (p[0] >> i) & 1
    if kind == Kind.OFFER:
        buf[_P["pending_builder"] + relative_seat(p[1], observer, g.seats)] = 1.0
    if kind in _HEX_P2:
        hex_pending[0, p[2]] = 1.0
    if kind in _HEX_P0 and p[0] > 0:
        hex_pending[0, p[0] - 1] = 1.0
    if kind == Kind.REWARD_ORDER:  # the acquisition lies under this row and its p0 city rewards
        below = int(g.state.stack[g.state.glob.item(G_DEPTH) - p[0] - 2, 0])
        buf[_P["pending_acquisition"] + (below != Kind.CHOOSE_COMPETENCY)] = 1.0
    seat_in_turn = turn_seat(g.state)
    if seat_in_turn >= 0:
        buf[_P["pending_turn"] + relative_seat(seat_in_turn, observer, g.seats)] = 1.0


_PENDING_NAMES = _NAMES[_INDEX["pending_kind"] :]
_P = {name: SLICES[name].start for name in _PENDING_NAMES}
_BRIDGE_KINDS = frozenset({Kind.BRIDGE_END, Kind.BRIDGE_DIR})
_PLAYER_PART = _NAMES[_INDEX["hex_pending"] : _INDEX["player_next_order"] + 1]
_ROUND_PART = _NAMES[_INDEX["round"] : _INDEX["setup_solo_pairs"] + 1]
_DISPLAY_PART = _NAMES[_INDEX["bonus_display"] : _INDEX["neutral_faction"] + 1]
_DISPLAY_SPAN = slice(SLICES["bonus_display"].start, SLICES["neutral_faction"].stop)
_DISPLAY_FIELDS = slice(G_BOOK_ACTIONS.start, G_NEUTRAL_SCIENCE.stop)  # every glob field the displays read
_FLAT = {name: SLICES[name].start for name in _NAMES}


_LOW, _K = -2, 32  # one-hot values -2 (out of the game) .. 29 have a column in a gather's table
_TRASH = OBS_SIZE  # destination of a value that sets nothing: the encoder's one extra float

Hot = tuple[int, Callable[[int], "int | None"]]
"""A one-hot entry: (source index, value -> the flat index it sets, or None)."""
Bits = tuple[int, range]
"""A bit field: (source index, flat indices of bits 0, 1, ...)."""
Number = tuple[int, float, float, int]
"""A scaled count: (source index, scale, lower clip, flat index); written as clip(v * scale, low, 1)."""
Entries = tuple[list[Hot], list[Bits], list[Number], list[int]]
"""What a ``_Gather`` is built from: one-hot entries, bit fields, counts, ``empty_after``."""


class _Gather:
    """Writes many observation values from an integer state vector with a few array operations
    (issue 10), in place of a Python loop per row or block.

    * one-hot entries: ``table[row + v]`` is the flat index value ``v`` sets, worked out once
      (with the egocentric rotation and the validity rules; ``_TRASH`` when nothing is set, also
      for a value that would land outside the entry's block: a corrupted state can change that
      block at most);
      ``empty_after`` lists entries that count as empty (-1) from a given position on (the next
      round's order past the number of passed players);
    * bit fields: unpacked bits copied to their flat indices;
    * scaled counts: ``clip(v * scale, low, 1)``.
    """

    __slots__ = ("source", "n_hot", "n_bits", "row", "table", "empty_after", "bit_pos", "bit_dst",
                 "num_scale", "num_low", "num_dst")  # fmt: skip

    def __init__(self, hot: list[Hot], bits: list[Bits], numbers: list[Number], empty_after: list[int]) -> None:
        table = [_TRASH if (d := dst(v)) is None else d for _, dst in hot for v in range(_LOW, _LOW + _K)]
        self.table = np.array(table, dtype=np.intp)
        self.row = np.arange(len(hot), dtype=np.intp) * _K - _LOW  # + value: the value's column
        self.empty_after = np.array(empty_after, dtype=np.intp)
        self.bit_pos = np.array([i * 32 + b for i, (_, dsts) in enumerate(bits) for b in range(len(dsts))], np.intp)
        self.bit_dst = np.array([d for _, dsts in bits for d in dsts], dtype=np.intp)
        self.n_hot, self.n_bits = len(hot), len(bits)
        self.source = np.array([src for src, _ in hot] + [src for src, _ in bits] + [n[0] for n in numbers], np.intp)
        self.num_scale = np.array([n[1] for n in numbers], dtype=np.float64)
        self.num_low = np.array([n[2] for n in numbers], dtype=np.float64)
        self.num_dst = np.array([n[3] for n in numbers], dtype=np.intp)

    def write(self, scratch: np.ndarray, state: np.ndarray, filled: int = S) -> None:
        """Write into ``scratch`` (the observation plus the ``_TRASH`` float) from ``state``;
        ``filled``: entries of ``empty_after`` from this position on count as empty."""
        values = state[self.source]
        h, b = self.n_hot, self.n_hot + self.n_bits
        if filled < len(self.empty_after):
            values[self.empty_after[filled:]] = -1
        hot = values[:h]
        np.maximum(hot, _LOW, out=hot)  # a value outside the table stays in its own row
        np.minimum(hot, _LOW + _K - 1, out=hot)
        scratch[self.table[self.row + hot]] = 1.0
        if b > h:
            bits = np.unpackbits(values[h:b].astype("<i4", copy=False).view(np.uint8), bitorder="little")
            scratch[self.bit_dst] = bits[self.bit_pos]
        if len(self.num_dst):
            numbers = values[b:] * self.num_scale
            np.maximum(numbers, self.num_low, out=numbers)  # = np.clip without its Python overhead
            np.minimum(numbers, 1.0, out=numbers)
            scratch[self.num_dst] = numbers


@functools.cache
def _player_gather(seats: int, observer: int) -> _Gather:
    """The player, turn-order, scholar-space and round blocks of ``observer``'s observation, from
    ``players.ravel() + glob``."""
    return _Gather(*_player_entries(seats, observer))


def _player_entries(seats: int, observer: int) -> Entries:
    """The entries of ``_player_gather``."""
    n, o = seats, observer
    glob0 = n * PLAYER_FIELDS  # offset of glob in the concatenation

    def rel(v: int) -> int:
        return relative_seat(v, o, n)

    hot: list[Hot] = []
    bits: list[Bits] = []
    for r in range(n):
        row = ((o + r) % n) * PLAYER_FIELDS
        for name, fields in _PLAYER_CATEGORIES:
            base, width = _FLAT[name] + r * SHAPES[name][1], SHAPES[name][1]
            hot.extend((row + f, lambda v, b=base, w=width: b + v if 0 <= v < w else None) for f in fields)
        flags = _FLAT["player_flags"] + r * 9
        for i, f in enumerate((P_PASSED, P_NEUTRAL_PALACE, P_DEFER_CITY)):
            hot.append((row + f, lambda v, d=flags + i: d if v != 0 else None))
        comp = _FLAT["player_competencies"] + r * 12
        bits += [(row + P_COMPETENCIES, range(comp, comp + 12)), (row + P_SPECIALS_USED, range(flags + 3, flags + 9))]
    for block, field, count in (("player_order", G_ORDER, min(n, S)), ("player_next_order", G_NEXT_ORDER, S)):
        for position in range(count):
            base = _FLAT[block] + position
            hot.append((glob0 + field.start + position, lambda v, b=base: b + rel(v) * S if 0 <= v < n else None))
    empty_after = list(range(len(hot) - S, len(hot)))
    scholars = _FLAT["scholar_spaces"]
    for i in range(16):
        base = scholars + i * (S + 1)
        hot.append((glob0 + G_SCHOLAR_SPACES.start + i,
                    lambda v, b=base: b + (S if v == NEUTRAL_SEAT else rel(v)) if v >= 0 else None))  # fmt: skip
    hot.append((glob0 + G_ROUND, lambda v: _FLAT["round"] + min(v, 7) if v >= 0 else None))
    hot.append((glob0 + G_PHASE, lambda v: _FLAT["phase"] + v if 0 <= v < 5 else None))
    for r in range(6):
        base = _FLAT["round_tiles"] + r * 12
        hot.append((glob0 + G_ROUND_TILES.start + r, lambda v, b=base: b + v if 0 <= v < 12 else None))
    hot.append((glob0 + G_FINAL_TILE, lambda v: _FLAT["final_tile"] + v if 0 <= v < 4 else None))
    hot.append((glob0 + G_START_PLAYER, lambda v: _FLAT["start_player"] + rel(v)))
    inverse = np.tile(_NUMBER_INV_SCALE, n).tolist()  # float32 inverses, as written before
    sources = [((o + r) % n) * PLAYER_FIELDS + f for r in range(n) for f in _NUMBER_FIELDS.tolist()]
    dsts = _NUMBER_INDEX[: n * _NUMBER_FIELDS.size].tolist()
    numbers = [(src, scale, 0.0, d) for src, scale, d in zip(sources, inverse, dsts, strict=True)]
    return hot, bits, numbers, empty_after


_DISPLAY_NUMBERS = (
    (G_BONUS_COINS.start, "bonus_coins", (BONUS_COIN_SCALE,) * 10, False),
    (G_COMP_LEFT.start, "competency_left", (COMP_COPIES,) * 12, False),
    (G_CITY_LEFT.start, "city_left", (CITY_COPIES,) * 7, False),
    (G_NEUTRAL_LEFT.start + 1, "neutral_left", tuple(float(x) for x in _neutral_supply()), True),
    (G_PAVILIONS_LEFT, "pavilions_left", (PAVILION_SCALE,), False),
)
"""Scaled display counts: (first glob field, block, divisor per column, also clipped at 0)."""


@functools.cache
def _display_gather() -> _Gather:
    """The display blocks but the scholar spaces (observer-dependent, in ``_player_gather``), the
    innovation display and the used book actions (``_write_displays``), from ``glob``."""
    return _Gather(*_display_entries())


def _display_entries() -> Entries:
    """The entries of ``_display_gather``."""
    hot: list[Hot] = []

    def add(field: slice, dst: Callable[[int, int], int | None]) -> None:
        hot.extend((field.start + i, lambda v, i=i: dst(i, v)) for i in range(field.stop - field.start))

    add(G_BONUS_STATE, lambda i, v: _FLAT["bonus_display"] + i if v == -1 else None)
    add(G_COMP_SPACES, lambda i, v: _FLAT["competency_display"] + i * 12 + v if 0 <= v < 12 else None)
    add(G_PALACE_STATE, lambda i, v: _FLAT["palace_display"] + i if v == -1 else None)
    add(G_SPELLS_USED, lambda i, v: _FLAT["spells_used"] + i if v != 0 else None)
    # a book-action slot holds the action's id (numpy indexing read -1 as the last one)
    add(G_BOOK_ACTIONS, lambda i, v: _FLAT["book_actions"] + v % 6 if -6 <= v < 6 else None)
    numbers = [
        (first + i, 1.0 / divisor, 0.0 if clip_low else -np.inf, _FLAT[block] + i)
        for first, block, divisors, clip_low in _DISPLAY_NUMBERS
        for i, divisor in enumerate(divisors)
    ]
    return hot, [], numbers, []


def action_mask(g: Game, seat: int) -> np.ndarray:
    """int8 mask of ``NUM_ACTIONS``: the legal ids if ``seat`` decides now, else all zeros."""
    if g.current_seat() != seat:
        return np.zeros(NUM_ACTIONS, dtype=np.int8)
    return g.action_mask()


if __name__ == "__main__":  # print the card's table: python -m aoi_env.observation
    print(f"OBS_SIZE = {OBS_SIZE}\n")
    print(layout_table())
