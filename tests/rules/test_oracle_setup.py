"""Independent oracle for game setup (R1-R25) checked over many seeds and configurations.

Every setup is re-computed from RULES.md / DATA.md and the raw state arrays, never from the
engine's setup code (``setup.new_state``, ``setup.player_setup``, the ``tables`` / yaml start rows):
the numbers below are typed in from the rule text.  For 2-5 players, both rulesets, the standard
sets (R15), the draft variant (R16), fixed factions / boards, both board sides (R5) and Automa
games (docs/automa.md, AUTOMA.md §3) the test checks

* the displays right after the random draws: board side and its land/river counts (R5, OP-12);
  the 6 round tiles (R6: the spade tile T2 never on rounds 5/6, no discipline on all of rounds
  1-5), the final tile (R7, OP-27: never the round-6 tile's building type), 3 of 6 book actions
  (R8), the competency display (R11: 12 types, stacks of 4), the innovation display (R12, R20:
  2P + 2 tiles, column costs 2 own + 3 any, mixed "2/4" spaces for 2 and 4 players), the general
  supply (R1, R3, R13: 21 city tiles, 1 neutral piece of each kind but 5 Towers, 8 Pavilions, no
  X tokens), the palace tiles (R14: #17 + P + 1; R16.3: P + 1 drafted, #17 unused; Automa: #17 +
  one per faction), the sets (R15.1-2: 7 sets, 3 bonus tiles with a coin) or draft pools (R16.1-4:
  6 cards, P + 1 factions / palaces, P + 3 bonus tiles), the 2-player neutral faction (R24: one
  area token, a neutral scholar on a "2" space of each discipline, markers at 2 + the round 1-5
  science symbols);
* every setup decision, both ways (the exact legal set): which set (R15.4, counter-clockwise from
  the start player's right, start player last), which draft component (R16.7, clockwise, three
  times, a type not yet held), which bonus tile (R16.8), the Lizards' steps (R94), the Wasteland
  book (R87), the initial Workshops in snake order on empty native hexes (R21), Omar's Workshop /
  Tower choice and third building (R22.2, OP-43), the Monks' University after everybody (R22.3,
  OP-44), the Monks' / Inventors' competency (R22.3, R23, R53: any type, 12 stacks) and its
  Tower (C10, R46.1: in reach, terraformed with tools only), the setup spades in turn order
  (R23, OP-37: unbuilt non-native hexes in reach, one step each, no buying);
* the whole state after the last setup placement, before round 1's income: every player field
  (R17, R18, R19, R87, R88-R100: 15 C, 3 T, bowls 5/7/0, Forest 4/8 and +1 each discipline,
  Swamp 3/9 and a scholar, Lake sailing 1, Wasteland +1 book +1 tool, faction steps and tools,
  R49 power thresholds 3/5/7 paid at setup, R53 position rewards, C4 / C5 / C6 / C10 effects,
  Goblins +2 C per setup spade (OP-36), 20 VP, no offers at setup OP-56), the map, the bonus
  tiles (R15.6 / R16.8: P + 3 in play, 3 on display with 1 coin), the palace tiles, the supply,
  and the turn order of round 1 (R17.9, R4; Automa: humans first);
* that the random draws spread: over many seeds every tile appears where it may.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Iterator
from contextlib import contextmanager

import numpy as np
import pytest

from aoi_env.core import automa as am
from aoi_env.core import decisions, flow
from aoi_env.core.engine import Game
from aoi_env.core.moves import (
    BONUS_BASE,
    BUILDING_BASE,
    BUNDLE_BASE,
    COMPETENCY_BASE,
    DISC_BASE,
    DONE,
    FACTION_BASE,
    HEX_BASE,
    PALACE_BASE,
    TERRAIN_BASE,
)
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_AREA_TOKEN,
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
    G_DRAFT_BOARDS,
    G_DRAFT_FACTIONS,
    G_DRAFT_PALACES,
    G_FINAL_TILE,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEUTRAL_LEFT,
    G_NEUTRAL_SCIENCE,
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
    NEUTRAL_SEAT,
    P_BOARD,
    P_BONUS,
    P_BOOKS,
    P_BOWLS,
    P_BUILT,
    P_COINS,
    P_COMPETENCIES,
    P_DRAFT_PALACE,
    P_FACTION,
    P_INNOVATIONS,
    P_NEUTRAL_BUILT,
    P_PALACE_TILE,
    P_PAVILIONS,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
    PLAYER_FIELDS,
    Phase,
    State,
    turn_seat,
)
from aoi_env.data import load
from aoi_env.data.enums import Building, Faction, Terrain
from aoi_env.testing import biased_random_action, play_random
from tests.rules.oracle_common import (
    COMP_ROW_REWARD,
    DEFAULT_BOWLS,
    FIELD_NAMES,
    NEUTRAL_PIECES,
    SCHOLARS,
    START_COINS,
    START_TOOLS,
    START_VP,
    TOOLS_PER_SPADE,
    gain_power,
    reach_from,
    threshold_power,
)

# --------------------------------------------------------------------------------------------
# the printed numbers, typed in from RULES.md / DATA.md (not read from components.yaml)

BANK, LAW, ENG, MED = range(4)
ROWS, COLS = 9, 13  # DATA.md §2.1: both sides use a 9 x 13 frame
LAND_HEXES = {"3-5": 81, "1-3": 59}  # DATA.md §2.2 / §2.3, OP-12
RIVER_HEXES = {"3-5": 36}  # the 1-3 side's rivers are INFERRED (OP-12): not checked

# R142: id -> (building type the left half scores, science discipline, per N levels)
ROUND_TILES = {
    "T1": ("workshop", LAW, 3),
    "T2": (None, ENG, 1),  # the spade tile: never on round 5 or 6 (R6a)
    "T3": ("workshop", BANK, 3),
    "T4": (None, MED, 3),
    "T5": ("guild", LAW, 3),
    "T6": (None, ENG, 4),
    "T7": ("guild", MED, 4),
    "T8": (None, ENG, 3),
    "T9": ("school", BANK, 1),
    "T10": (None, LAW, 2),
    "T11": ("palace/university", MED, 2),
    "T12": ("palace/university", BANK, 2),
}
FINAL_TILES = {"F1": "workshop", "F2": "guild", "F3": "school", "F4": "workshop"}  # R144, OP-27

# R19 / R87 planning boards: bowls, sailing, extra tools, scholars, books of choice, steps, spades
BOARDS: dict[int, dict] = {
    Terrain.DESERT: {"spades": 1},
    Terrain.PLAINS: {},
    Terrain.SWAMP: {"bowls": (3, 9, 0), "scholars": 1},
    Terrain.LAKE: {"sailing": 1},
    Terrain.FOREST: {"bowls": (4, 8, 0), "steps": (1, 1, 1, 1)},
    Terrain.MOUNTAIN: {},
    Terrain.WASTELAND: {"tools": 1, "books_any": 1},
}
# R19 / R88-R100 factions: steps (Bk, La, En, Me) and extra tools
FACTIONS: dict[int, dict] = {
    Faction.BLESSED: {"steps": (1, 1, 1, 1)},
    Faction.FELINES: {"steps": (1, 0, 0, 1)},
    Faction.GOBLINS: {"steps": (1, 0, 1, 0), "tools": 1},
    Faction.ILLUSIONISTS: {"steps": (0, 0, 0, 2)},
    Faction.INVENTORS: {},  # a competency after placement (R23, R93)
    Faction.LIZARDS: {"choose_steps": 2},  # R94
    Faction.MOLES: {"steps": (0, 0, 2, 0)},
    Faction.MONKS: {"steps": (0, 1, 0, 0)},  # and the University start (R22.3, R96)
    Faction.NAVIGATORS: {"steps": (0, 3, 0, 0)},
    Faction.OMAR: {"steps": (1, 0, 1, 0)},  # and a neutral Tower (R22.2, R98)
    Faction.PHILOSOPHERS: {"steps": (2, 0, 0, 0)},
    Faction.PSYCHICS: {"steps": (1, 0, 0, 1), "tools": 1},
}
SPADE_TOOLS = TOOLS_PER_SPADE[0]  # R37: the terraforming track starts at 3 tools per spade
PAVILIONS, CITY_TYPES, CITY_COPIES, COMP_COPIES = 8, 7, 3, 4  # R1, R3, R11
PALACE_17 = 17  # R14: printed number of the red-backed tile
SCHOLAR_SPACE_3 = 0  # science board: one "3" space then three "2" spaces per discipline (R47)
NEUTRAL_START_LEVEL = 2  # R24.3

_DATA = load()
ROUND_IDS = _DATA.round_tile_ids  # ids only: which index is which tile
FINAL_IDS = _DATA.final_tile_ids
COMP_IDS = _DATA.competency_ids


# --------------------------------------------------------------------------------------------
# geometry and terrain, re-derived from DATA.md §1 / §2.1


def _neighbours(terrain: np.ndarray) -> list[list[int]]:
    """DATA.md §2.1 odd-r offset neighbours of every in-play position."""
    out: list[list[int]] = [[] for _ in range(ROWS * COLS)]
    for r in range(ROWS):
        for c in range(COLS):
            p = r * COLS + c
            if terrain[p] == Terrain.OFF:
                continue
            if r % 2 == 0:
                cand = [(r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c)]
            else:
                cand = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1)]
            for rr, cc in cand:
                if 0 <= rr < ROWS and 0 <= cc < COLS and terrain[rr * COLS + cc] != Terrain.OFF:
                    out[p].append(rr * COLS + cc)
    return out


def cycle_distance(t: int, native: int) -> int:
    """R35: shortest distance on the 7-terrain cycle."""
    d = (native - t) % 7
    return min(d, 7 - d)


def spade_step(t: int, native: int) -> int:
    """R36: one step along the shortest path toward the native terrain."""
    return (t + 1) % 7 if (native - t) % 7 <= 3 else (t - 1) % 7


def expected_innovation_costs(factions: int) -> list[tuple[tuple[int, ...], int]]:
    """R20 / OP-6 / OP-7: per display space (books of each discipline, any books)."""
    rows = {2: 1, 3: 2, 4: 2, 5: 3}[factions]
    out = []
    for _ in range(rows):
        for d in range(4):
            spec = [0, 0, 0, 0]
            spec[d] = 2
            out.append((tuple(spec), 3))
    if factions in (2, 4):  # the "2/4" side: 2 Bk + 2 La + 1 any, 2 En + 2 Me + 1 any
        out += [((2, 2, 0, 0), 1), ((0, 0, 2, 2), 1)]
    assert len(out) == 2 * factions + 2
    return sorted(out)


# --------------------------------------------------------------------------------------------
# the oracle: the displays, the decision script, the expected end state

Expect = list[tuple[int, int, set[int]]]  # alternatives (kind, seat, legal set) for the next decision


class SetupOracle:
    """Follows one game's setup: checks the random draws, then drives a decision script."""

    def __init__(self, g: Game) -> None:
        self.g = g
        cfg = g.config
        self.cfg = cfg
        self.n = cfg.seats
        self.humans = cfg.players
        self.automas = len(cfg.automa)
        # AUTOMA.md §3.3: an Automa's terrain differs from every human's; one asked for in the
        # spec is kept from the humans' choices (docs/automa.md)
        self.reserved = {Terrain[w.upper()] for _, _, w in map(am.parse_spec, cfg.automa) if w is not None}
        self.fixed = bool(cfg.factions or cfg.boards)
        self.draft = cfg.distribution == "draft" and not self.fixed and not self.automas
        s = g.state
        self.start = int(s.glob[G_START_PLAYER])
        self.order = [(self.start + k) % self.n for k in range(self.n)]  # R17.9
        self.people = [seat for seat in self.order if seat < self.humans]
        self.printed = g.geo.terrain.astype(int).copy()
        self.nb = _neighbours(self.printed)
        self.terrain = self.printed.copy()
        self.building = np.zeros(len(self.printed), dtype=int)
        self.owner = np.full(len(self.printed), -1)
        self.neutral = np.zeros(len(self.printed), dtype=int)
        self.mark = np.zeros(len(self.printed), dtype=int)
        self.faction = [-1] * self.n
        self.board = [-1] * self.n
        self.bonus = [-1] * self.n
        self.draft_palace = [-1] * self.n
        self.extra_books = [[0] * 4 for _ in range(self.n)]  # books of choice and from competencies
        self.extra_steps = [[0] * 4 for _ in range(self.n)]  # Lizards' and competency steps
        self.comps = [0] * self.n
        self.vp = [START_VP] * self.n
        self.coins = [0] * self.n  # on top of the start coins (C4, Goblins' spades)
        self.tools = [0] * self.n  # on top of the start tools (C4, minus the C10 Tower's spades)
        self.pavilions = [0] * self.n
        self.setup_spades = [0] * self.n
        self.spades_used = [0] * self.n
        self.events: Counter[str] = Counter()
        self.check_draws()

    # -- the random draws (before any decision) ------------------------------------------------

    def check_draws(self) -> None:
        s, g, cfg, n = self.g.state, self.g, self.cfg, self.n
        glob = s.glob
        # R5 / R24.1 / AUTOMA.md §3.2: the board side; DATA.md §2 land and river counts
        side = cfg.map if cfg.map != "auto" else ("1-3" if n == 2 else "3-5")
        assert g.geo.name == side, (cfg, g.geo.name)
        assert int((self.printed < Terrain.RIVER).sum()) == LAND_HEXES[side]
        if side in RIVER_HEXES:
            assert int((self.printed == Terrain.RIVER).sum()) == RIVER_HEXES[side]
        # R6: six distinct round tiles; T2 never on round 5/6; no discipline on all of rounds 1-5
        tiles = [ROUND_IDS[int(t)] for t in glob[G_ROUND_TILES]]
        assert len(set(tiles)) == 6, tiles
        assert "T2" not in tiles[4:], f"R6(a): spade tile on round 5/6: {tiles}"
        disc15 = Counter(ROUND_TILES[t][1] for t in tiles[:5])
        assert max(disc15.values()) <= 2, f"R6(b): all 3 tiles of a discipline on rounds 1-5: {tiles}"
        # R7 / OP-27: the final tile never shows the round-6 tile's building type
        final = FINAL_IDS[int(glob[G_FINAL_TILE])]
        assert FINAL_TILES[final] != ROUND_TILES[tiles[5]][0], (final, tiles[5])
        # R8: 3 of the 6 book actions; no X tokens anywhere (R13)
        books = [int(b) for b in glob[G_BOOK_ACTIONS]]
        assert len(set(books)) == 3 and all(0 <= b < 6 for b in books), books
        assert not glob[G_SPELLS_USED].any() and not glob[G_BOOKS_USED].any()
        # R11: each of the 12 competency types on one space, stacks of 4
        assert sorted(int(c) for c in glob[G_COMP_SPACES]) == list(range(12))
        assert [int(c) for c in glob[G_COMP_LEFT]] == [COMP_COPIES] * 12
        # R12 / R20: 2P + 2 distinct innovations face up, the rest out of the game
        shown = [int(i) for i in glob[G_INNOV_SPACES] if i >= 0]
        assert len(shown) == len(set(shown)) == 2 * n + 2, (n, shown)
        assert all(i >= 0 for i in glob[G_INNOV_SPACES][: 2 * n + 2])
        for i in range(18):
            assert glob[G_INNOV_OWNER.start + i] == (-1 if i in shown else -2)
        costs = sorted((tuple(int(x) for x in spec), int(extra)) for spec, extra in g.innovation_space_cost)
        assert costs == expected_innovation_costs(n), (n, costs)
        # R1 / R3 / R13: the general supply
        assert [int(c) for c in glob[G_CITY_LEFT]] == [CITY_COPIES] * CITY_TYPES
        for b in Building:
            assert glob[G_NEUTRAL_LEFT.start + b] == NEUTRAL_PIECES.get(b, 0), b
        assert glob[G_PAVILIONS_LEFT] == PAVILIONS
        assert glob[G_NUM_BRIDGES] == 0
        # the map is printed and empty
        assert np.array_equal(s.hexes[:, H_TERRAIN], self.printed)
        for f in (H_BUILDING, H_NEUTRAL, H_PAVILION, H_CITY, H_RIVER_CITY, H_MARK):
            assert not s.hexes[:, f].any()
        assert (s.hexes[:, H_OWNER] == -1).all()
        # start player (R15.3, R16.6; Automa: the humans first, AUTOMA.md §3.7)
        assert 0 <= self.start < n
        if self.automas:
            assert self.start == 0
        self._check_palaces_and_distribution()
        self._check_two_player()
        for seat in range(n):
            p = s.players[seat]
            assert p[P_VP] == START_VP and p[P_SCHOLAR_SUPPLY] == SCHOLARS and p[P_SCHOLARS] == 0
            assert p[P_BONUS] == -1 and p[P_PALACE_TILE] == -1 and p[P_DRAFT_PALACE] == -1

    def _check_palaces_and_distribution(self) -> None:
        glob, n, cfg = self.g.state.glob, self.n, self.cfg
        palace = [int(x) for x in glob[G_PALACE_STATE]]
        bonus = [int(x) for x in glob[G_BONUS_STATE]]
        coins = [int(x) for x in glob[G_BONUS_COINS]]
        offered = {t + 1 for t in range(17) if palace[t] == -1}
        self.palace_state = palace
        if self.draft:  # R16.3: P + 1 palace tiles in the draft, #17 not used; nothing offered
            assert all(x == -2 for x in palace), palace
            pool = [int(t) + 1 for t in glob[G_DRAFT_PALACES] if t >= 0]
            assert len(pool) == len(set(pool)) == n + 1 and PALACE_17 not in pool, pool
            self.pool_palaces = {t - 1 for t in pool}
        else:  # R14: #17 + (P + 1); with an Automa #17 + one per faction (AUTOMA.md §3.2)
            assert all(x in (-1, -2) for x in palace)
            assert PALACE_17 in offered and len(offered) == (n + 1 if self.automas else n + 2), offered
            assert (glob[G_DRAFT_PALACES] == -1).all()
        if self.fixed:
            for seat in range(self.humans):
                f, b = int(self.g.state.players[seat, P_FACTION]), int(self.g.state.players[seat, P_BOARD])
                if cfg.factions:
                    assert f == Faction[cfg.factions[seat].upper()]
                if cfg.boards:
                    assert b == Terrain[cfg.boards[seat].upper()]
                self.faction[seat], self.board[seat] = f, b
            assert len(set(self.faction[: self.humans])) == self.humans and min(self.faction[: self.humans]) >= 0
            assert len(set(self.board[: self.humans])) == self.humans and min(self.board[: self.humans]) >= 0
            assert not set(self.board[: self.humans]) & self.reserved, (self.board, self.reserved)
        if self.automas and self.humans == 1 and not self.fixed:  # AUTOMA.md §3.3: 3 cards x 2 factions
            cards = [int(t) for t in glob[G_DRAFT_BOARDS]]
            facs = [int(f) for f in glob[G_DRAFT_FACTIONS]]
            assert len(set(facs)) == 6 and min(facs) >= 0, facs
            assert cards[0::2] == cards[1::2] and len(set(cards[0::2])) == 3 and min(cards) >= 0, cards
            assert not set(cards) & self.reserved, (cards, self.reserved)
            self.solo_cards = dict(zip(facs, cards, strict=True))
            assert all(x == -2 for x in bonus)
        elif self.fixed:  # engine convention (config.py): P + 3 tiles, picked as in R16.8
            display = {b for b in range(10) if bonus[b] == -1}
            if not self.automas:
                assert len(display) == n + 3, bonus
            assert all(x in (-1, -2) for x in bonus)
            self.revealed = display
        elif self.draft:  # R16.1-4
            cards = [int(t) for t in glob[G_DRAFT_BOARDS]]
            assert len(set(cards)) == 6 and min(cards) >= 0, cards
            facs = [int(f) for f in glob[G_DRAFT_FACTIONS] if f >= 0]
            assert len(facs) == len(set(facs)) == n + 1, facs
            display = {b for b in range(10) if bonus[b] == -1}
            assert len(display) == n + 3 and all(x in (-1, -2) for x in bonus), bonus
            self.pool_cards, self.pool_factions, self.revealed = set(cards), set(facs), display
        else:  # R15.1-2: 7 sets of a faction and a bonus tile; the other 3 tiles with 1 coin
            facs = [int(f) for f in glob[G_BUNDLE_FACTION]]
            bons = [int(b) for b in glob[G_BUNDLE_BONUS]]
            offered = [f for t, f in enumerate(facs) if t not in self.reserved]
            assert all(facs[t] == -1 for t in self.reserved), (facs, self.reserved)
            assert len(set(offered)) == len(offered) == 7 - len(self.reserved) and min(offered) >= 0, facs
            assert max(facs) < 12, facs
            assert len(set(bons)) == 7 and min(bons) >= 0 and max(bons) < 10, bons
            rest = set(range(10)) - set(bons)
            if not self.automas:
                for b in range(10):
                    assert bonus[b] == (-1 if b in rest else -2), bonus
                    assert coins[b] == (1 if b in rest else 0), coins
            else:  # AUTOMA.md §3.7: the Automa's row is formed later
                assert all(x == -2 for x in bonus)
            self.sets = {t: (facs[t], bons[t]) for t in range(7) if t not in self.reserved}
            self.revealed = rest if not self.automas else set()

    def _check_two_player(self) -> None:
        glob = self.g.state.glob
        spaces = [int(x) for x in glob[G_SCHOLAR_SPACES]]
        if self.n == 2 and not self.automas:  # R24 (not against the Automa, AUTOMA.md §3.1)
            assert glob[G_AREA_TOKEN] in self.cfg.area_tokens
            for d in range(4):
                block = spaces[d * 4 : d * 4 + 4]
                assert block.count(NEUTRAL_SEAT) == 1 and block.count(-1) == 3, block
                assert block[SCHOLAR_SPACE_3] == -1, f"R24.3: the neutral scholar goes on a 2 space: {block}"
            level = [NEUTRAL_START_LEVEL] * 4
            for t in glob[G_ROUND_TILES][:5]:  # R24.3: round 1-5 science symbols; round 6 covered
                _, disc, per = ROUND_TILES[ROUND_IDS[int(t)]]
                level[disc] += per
            assert [int(x) for x in glob[G_NEUTRAL_SCIENCE]] == level
            self.events["neutral faction"] += 1
        else:
            assert glob[G_AREA_TOKEN] == 0 and not glob[G_NEUTRAL_SCIENCE].any()
            assert all(x == -1 for x in spaces)

    # -- helpers on the model --------------------------------------------------------------------

    def empty_native(self, seat: int) -> set[int]:
        """R21 / R22: any empty land hex of the native terrain, no reach."""
        return {
            HEX_BASE + p
            for p in range(len(self.terrain))
            if self.terrain[p] == self.board[seat] and not self.building[p]
        }

    def reach(self, seat: int) -> set[int]:
        """R39: land hexes adjacent to an own building or 1..s river hexes away (no bridges yet)."""
        sailing = BOARDS[self.board[seat]].get("sailing", 0)  # B1's +1 only in Phase II (R39)
        own = [p for p in range(len(self.terrain)) if self.owner[p] == seat]
        land, river = self.printed < Terrain.RIVER, self.printed == Terrain.RIVER
        return reach_from(self.nb, land, river, own, sailing) - set(own)

    def start_tools(self, seat: int) -> int:
        return START_TOOLS + BOARDS[self.board[seat]].get("tools", 0) + FACTIONS[self.faction[seat]].get("tools", 0)

    def place(self, seat: int, pos: int, btype: int, neutral: bool = False) -> None:
        assert not self.building[pos] and self.terrain[pos] == self.board[seat]
        self.building[pos], self.owner[pos], self.neutral[pos] = btype, seat, int(neutral)

    def take_bonus(self, seat: int, b: int) -> None:
        self.bonus[seat] = b

    # -- the decision script ---------------------------------------------------------------------

    def script(self) -> Generator[Expect, tuple[int, int], None]:
        """Yields the alternatives for the next decision; receives (kind, chosen action)."""
        n, humans = self.n, self.humans
        ccw = [(self.start - k) % n for k in range(1, n + 1)]  # R15.4 / R16.8
        # R15 / R16 / AUTOMA.md §3.3: the distribution
        if self.automas and humans == 1 and not self.fixed:
            _, a = yield [(Kind.SOLO_PICK, 0, {FACTION_BASE + f for f in self.solo_cards})]
            f = a - FACTION_BASE
            self.faction[0], self.board[0] = f, self.solo_cards[f]
        elif self.fixed or self.draft:
            if self.draft:
                pools = {"card": set(self.pool_cards), "faction": set(self.pool_factions)}
                pools["palace"] = set(self.pool_palaces)
                for _ in range(3):  # R16.7: clockwise from the start player, three times around
                    for seat in self.order:
                        legal: set[int] = set()
                        if self.board[seat] < 0:
                            legal |= {TERRAIN_BASE + t for t in pools["card"]}
                        if self.faction[seat] < 0:
                            legal |= {FACTION_BASE + f for f in pools["faction"]}
                        if self.draft_palace[seat] < 0:
                            legal |= {PALACE_BASE + t for t in pools["palace"]}
                        _, a = yield [(Kind.DRAFT_PICK, seat, legal)]
                        if TERRAIN_BASE <= a < TERRAIN_BASE + 7:
                            self.board[seat] = a - TERRAIN_BASE
                            pools["card"].discard(a - TERRAIN_BASE)
                        elif FACTION_BASE <= a < FACTION_BASE + 12:
                            self.faction[seat] = a - FACTION_BASE
                            pools["faction"].discard(a - FACTION_BASE)
                        else:
                            self.draft_palace[seat] = a - PALACE_BASE
                            self.palace_state[a - PALACE_BASE] = seat
                            pools["palace"].discard(a - PALACE_BASE)
                self.events["draft"] += 1
            if not self.automas:
                display = set(self.revealed)
                for seat in ccw:  # R16.8: counter-clockwise from the start player's right
                    _, a = yield [(Kind.PICK_BONUS, seat, {BONUS_BASE + b for b in display})]
                    display.discard(a - BONUS_BASE)
                    self.take_bonus(seat, a - BONUS_BASE)
        else:
            sets = dict(self.sets)
            for seat in [(self.start - k) % humans for k in range(1, humans + 1)]:  # R15.4
                _, a = yield [(Kind.PICK_BUNDLE, seat, {BUNDLE_BASE + t for t in sets})]
                t = a - BUNDLE_BASE
                self.faction[seat], self.board[seat] = sets.pop(t)[0], t  # R15.5
                self.take_bonus(seat, self.sets[t][1])
        assert len(set(self.faction[:humans])) == humans and len(set(self.board[:humans])) == humans
        if self.automas:  # the Automas' terrains and tiles (AUTOMA.md §3.3, §3.7): read and checked
            yield from self._automa_bonuses()
        # R17.6 / R17.7: Lizards' two steps (R94) and Wasteland's book of choice (R87), any order
        todo = {seat: [0, 0] for seat in range(humans)}
        for seat in range(humans):
            if FACTIONS[self.faction[seat]].get("choose_steps"):
                todo[seat][0] = FACTIONS[self.faction[seat]]["choose_steps"]
            todo[seat][1] = BOARDS[self.board[seat]].get("books_any", 0)
        every_disc = {DISC_BASE + d for d in range(4)}
        while any(sum(v) for v in todo.values()):
            alts: Expect = []
            for seat, (steps, books) in todo.items():
                if steps:
                    alts.append((Kind.STEPS_ANY, seat, every_disc))
                if books:
                    alts.append((Kind.CHOOSE_BOOKS, seat, every_disc))
            kind, a = yield alts
            seat = self._last_seat
            if kind == Kind.STEPS_ANY:
                todo[seat][0] -= 1
                self.extra_steps[seat][a - DISC_BASE] += 1
                self.events["lizards step"] += 1
            else:
                todo[seat][1] -= 1
                self.extra_books[seat][a - DISC_BASE] += 1
                self.events["wasteland book"] += 1
        # R21 / R22.1: the snake; Monks skip it; Automas between the two halves (AUTOMA.md §3.6)
        firsts = [seat for seat in self.people if self.faction[seat] != Faction.MONKS]
        for seat in firsts:
            yield from self._initial(seat)
        self.automa_done = True
        for seat in firsts[::-1]:
            yield from self._initial(seat)
        for seat in self.people:  # R22.2: Omar's third building, after every other Workshop
            if self.faction[seat] == Faction.OMAR:
                yield from self._initial(seat)
        for seat in self.people:  # R22.3: the Monks' University, then a competency
            if self.faction[seat] == Faction.MONKS:
                _, a = yield [(Kind.INITIAL_PLACE, seat, self.empty_native(seat))]
                self.place(seat, a - HEX_BASE, Building.UNIVERSITY)
                self.events["monks university"] += 1
                yield from self._competency(seat)
        for seat in self.people:  # R23: the Inventors' competency after all placements
            if self.faction[seat] == Faction.INVENTORS:
                yield from self._competency(seat)
        for seat in self.people:  # R23 / OP-37: setup spades in turn order
            left = BOARDS[self.board[seat]].get("spades", 0) + self.setup_spades[seat]
            while left:
                targets = {
                    HEX_BASE + p
                    for p in self.reach(seat) - {p for p in range(len(self.terrain)) if self.building[p]}
                    if self.printed[p] < Terrain.RIVER and self.terrain[p] != self.board[seat]
                }
                if not targets:  # nowhere to use them: lost
                    self.events["setup spades lost"] += 1
                    break
                _, a = yield [(Kind.SPADES, seat, targets | {DONE})]
                if a == DONE:
                    self.events["setup spades declined"] += 1
                    break
                p = a - HEX_BASE
                self.terrain[p] = spade_step(int(self.terrain[p]), self.board[seat])
                self.spades_used[seat] += 1
                if self.faction[seat] == Faction.GOBLINS:  # R91, OP-36
                    self.coins[seat] += 2
                    self.events["goblins setup spade"] += 1
                left -= 1
                self.events["setup spade"] += 1

    def _initial(self, seat: int) -> Iterator[Expect]:
        """One initial placement; Omar chooses Workshop or Tower (OP-43)."""
        btype = Building.WORKSHOP
        if self.faction[seat] == Faction.OMAR:
            workshops = sum(1 for p in range(len(self.owner)) if self.owner[p] == seat and not self.neutral[p])
            tower = any(self.owner[p] == seat and self.neutral[p] for p in range(len(self.owner)))
            legal = set()
            if workshops < 2:
                legal.add(BUILDING_BASE + Building.WORKSHOP - 1)
            if not tower:
                legal.add(BUILDING_BASE + Building.TOWER - 1)
            _, a = yield [(Kind.INITIAL_KIND, seat, legal)]
            btype = Building(a - BUILDING_BASE + 1)
        _, a = yield [(Kind.INITIAL_PLACE, seat, self.empty_native(seat))]
        self.place(seat, a - HEX_BASE, btype, neutral=btype == Building.TOWER)
        self.events["omar tower" if btype == Building.TOWER else "initial workshop"] += 1

    def _competency(self, seat: int) -> Iterator[Expect]:
        """R53 at setup: any type (12 stacks); position reward; C4/C5/C6/C10 effects."""
        spaces = [int(c) for c in self.g.state.glob[G_COMP_SPACES]]
        legal = {COMPETENCY_BASE + c for c in range(12) if not self.comps[seat] >> c & 1}
        _, a = yield [(Kind.CHOOSE_COMPETENCY, seat, legal)]
        c = a - COMPETENCY_BASE
        self.comps[seat] |= 1 << c
        self.comp_taken[c] += 1
        column, row = divmod(spaces.index(c), 3)
        steps, books = COMP_ROW_REWARD[row]
        self.extra_steps[seat][column] += steps
        self.extra_books[seat][column] += books
        cid = COMP_IDS[c]
        self.events[f"setup {cid}"] += 1
        if cid == "C4":  # 1 tool + 5 VP + 2 coins
            self.tools[seat] += 1
            self.vp[seat] += 5
            self.coins[seat] += 2
        elif cid == "C5":  # 2 spades, used with the other setup spades (R23, OP-37)
            self.setup_spades[seat] += 2
        elif cid == "C6":  # 2 Pavilions
            self.pavilions[seat] += 2
        elif cid == "C10":  # a neutral Tower in reach, spades only from tools (R46.1)
            tools = self.start_tools(seat) + self.tools[seat]
            targets = {
                HEX_BASE + p
                for p in self.reach(seat)
                if not self.building[p]
                and cycle_distance(int(self.terrain[p]), self.board[seat]) * SPADE_TOOLS <= tools
            }
            if targets:
                _, a = yield [(Kind.NEUTRAL_PLACE, seat, targets)]
                p = a - HEX_BASE
                self.tools[seat] -= cycle_distance(int(self.terrain[p]), self.board[seat]) * SPADE_TOOLS
                self.terrain[p] = self.board[seat]
                self.place(seat, p, Building.TOWER, neutral=True)
                self.events["setup C10 tower"] += 1
            else:
                self.events["setup C10 tower lost"] += 1

    def _automa_bonuses(self) -> Iterator[Expect]:
        """AUTOMA.md §3.3 / §3.7: read the Automas' terrains and tiles, then the human's pick."""
        s = self.g.state
        held = {self.bonus[h] for h in range(self.humans)} - {-1}
        human_boards = {self.board[h] for h in range(self.humans)}
        takes = [(seat, b, row) for seat, b, row in self.takes if seat >= self.humans]
        assert [seat for seat, _, _ in takes] == list(range(self.humans, self.n))
        size = self.n + 3 if self.humans == 1 else self.automas + 3  # AUTOMA.md §3.7
        assert len(takes[0][2]) == size and not set(takes[0][2]) & held, takes
        for _, b, row in takes:  # each Automa takes the leftmost tile of the row
            assert b == row[0], takes
        for i, spec in enumerate(self.cfg.automa):
            seat = self.humans + i
            _, _, wanted = am.parse_spec(spec)
            b = int(s.players[seat, P_BOARD])
            assert b not in human_boards and b not in self.board[self.humans : seat], (b, self.board)
            if wanted is not None:
                assert b == Terrain[wanted.upper()], (wanted, b)
            self.board[seat] = b
            self.bonus[seat] = int(s.players[seat, P_BONUS])
            assert self.bonus[seat] >= 0 and self.bonus[seat] not in held
            held.add(self.bonus[seat])
        display = {b for b in range(10) if s.glob[G_BONUS_STATE.start + b] == -1}
        if self.humans == 1 and not self.bonus[0] >= 0:  # a row of factions + 3, the Automa took one
            assert len(display) == self.n + 3 - self.automas, display
            _, a = yield [(Kind.PICK_BONUS, 0, {BONUS_BASE + b for b in display})]
            self.take_bonus(0, a - BONUS_BASE)
        else:
            assert len(display) == 3, display  # 2 humans: 4 tiles, the Automa took one (§3.7)

    # -- synchronisation with the Automas' automatic placements ---------------------------------

    def sync_automa(self) -> None:
        """The Automa places her 2 Workshops between the humans' halves (AUTOMA.md §3.6)."""
        s = self.g.state
        for seat in range(self.humans, self.n):
            mine = [p for p in range(len(self.terrain)) if s.hexes[p, H_OWNER] == seat]
            if not getattr(self, "automa_done", False):
                assert not mine, "AUTOMA.md §3.6: an Automa Workshop before the humans' first ones"
                continue
            assert len(mine) == 2, mine
            marks = []
            for p in mine:
                assert s.hexes[p, H_BUILDING] == Building.WORKSHOP and self.printed[p] == self.board[seat]
                if not self.building[p]:
                    self.place(seat, p, Building.WORKSHOP)
                self.mark[p] = int(s.hexes[p, H_MARK])
                marks.append(self.mark[p])
            assert sorted(marks) == [0, 1], marks
            self._check_automa_letters(seat, mine)

    def _check_automa_letters(self, seat: int, mine: list[int]) -> None:
        """AUTOMA.md §3.6: the marked / unmarked letters A/B, C/D or E/F of her terrain."""
        data = am.automa_data()
        lookup = data.initial_workshops[self.g.geo.name]
        terrain = Terrain(self.board[seat]).name.lower()
        where: dict[int, set[str]] = {}  # a hex may carry two letters (AUTOMA.md App. A "/XY")
        for letter, per in lookup.items():
            r, c = per[terrain]
            where.setdefault(r * COLS + c, set()).add(letter)
        marked = [p for p in mine if self.g.state.hexes[p, H_MARK] == 1]
        unmarked = [p for p in mine if self.g.state.hexes[p, H_MARK] == 0]
        pairs = [(x, y) for x, y in (("A", "B"), ("C", "D"), ("E", "F")) if x in where.get(marked[0], ())]
        assert any(y in where.get(unmarked[0], ()) for _, y in pairs), (where, marked, unmarked)

    # -- the expected state after the last placement ---------------------------------------------

    def expected_player(self, seat: int) -> np.ndarray:
        exp = np.zeros(PLAYER_FIELDS, dtype=np.int64)
        exp[P_INNOVATIONS] = -1
        exp[P_PALACE_TILE] = -1
        exp[P_FACTION] = self.faction[seat]
        exp[P_BOARD] = self.board[seat]
        exp[P_BONUS] = self.bonus[seat]
        exp[P_DRAFT_PALACE] = self.draft_palace[seat]
        exp[P_VP] = self.vp[seat]
        built = [0] * 8
        neutral_built = [0] * 8
        for p in range(len(self.owner)):
            if self.owner[p] == seat:
                (neutral_built if self.neutral[p] else built)[self.building[p]] += 1
        exp[P_BUILT] = built
        exp[P_NEUTRAL_BUILT] = neutral_built
        if seat >= self.humans:  # AUTOMA.md §3.4 / §1: no resources; steps of her faction
            spec = self.cfg.automa[seat - self.humans]
            faction, level, _ = am.parse_spec(spec)
            steps = am.automa_data().factions[faction]["steps"]
            exp[P_FACTION] = -1
            exp[P_SCHOLAR_SUPPLY] = SCHOLARS
            exp[P_SCIENCE] = [steps.get(k, 0) for k in ("banking", "law", "engineering", "medicine")]
            exp[P_SAILING] = am.automa_data().levels[level]["ship"][0]
            return exp
        board, faction = BOARDS[self.board[seat]], FACTIONS[self.faction[seat]]
        exp[P_COINS] = START_COINS + self.coins[seat]
        exp[P_TOOLS] = self.start_tools(seat) + self.tools[seat]
        scholars = board.get("scholars", 0)
        exp[P_SCHOLARS] = scholars
        exp[P_SCHOLAR_SUPPLY] = SCHOLARS - scholars
        exp[P_BOOKS] = self.extra_books[seat]
        levels = [
            board.get("steps", (0,) * 4)[d] + faction.get("steps", (0,) * 4)[d] + self.extra_steps[seat][d]
            for d in range(4)
        ]
        exp[P_SCIENCE] = levels
        exp[P_BOWLS] = gain_power(board.get("bowls", DEFAULT_BOWLS), threshold_power(levels))
        exp[P_SAILING] = board.get("sailing", 0)
        exp[P_PAVILIONS] = self.pavilions[seat]
        exp[P_COMPETENCIES] = self.comps[seat]
        return exp

    def check_end(self, s: State) -> None:
        """The whole state after the last setup placement, before round 1 (R17-R25)."""
        glob = s.glob
        assert glob[G_PHASE] == Phase.SETUP and glob[G_ROUND] == 0
        for seat in range(self.n):
            exp = self.expected_player(seat)
            got = s.players[seat].astype(np.int64)
            diff = {FIELD_NAMES[i]: (int(got[i]), int(exp[i])) for i in np.flatnonzero(got != exp)}
            assert not diff, f"seat {seat} ({self.cfg}): engine vs oracle {diff}"
        assert np.array_equal(s.hexes[:, H_TERRAIN], self.terrain), "terrain"
        assert np.array_equal(s.hexes[:, H_BUILDING], self.building), "buildings"
        assert np.array_equal(s.hexes[:, H_OWNER], self.owner), "owners"
        assert np.array_equal(s.hexes[:, H_NEUTRAL], self.neutral), "neutral flags"
        assert np.array_equal(s.hexes[:, H_MARK], self.mark), "Automa marks"
        for f in (H_PAVILION, H_CITY, H_RIVER_CITY):
            assert not s.hexes[:, f].any()
        # R15.6 / R16.8 / AUTOMA.md §3.7: P (+ Automas) tiles held, 3 on display with 1 coin
        held = {self.bonus[seat]: seat for seat in range(self.n)}
        assert len(held) == self.n and min(held) >= 0
        state = [int(x) for x in glob[G_BONUS_STATE]]
        display = [b for b in range(10) if state[b] == -1]
        assert len(display) == 3, state
        for b in range(10):
            if b in held:
                assert state[b] == held[b]
            assert glob[G_BONUS_COINS.start + b] == (1 if b in display else 0)
        assert sorted(int(t) for t in glob[G_BONUS_ROW] if t >= 0) == display
        if not self.automas and not self.fixed and not self.draft:  # R15.6: unchosen sets leave
            assert set(display) == self.revealed
        # palace tiles: nothing taken at setup (R14); drafted ones with their owner (R16.10)
        assert [int(x) for x in glob[G_PALACE_STATE]] == self.palace_state
        # the supply
        left = [COMP_COPIES - self.comp_taken[c] for c in range(12)]
        assert [int(x) for x in glob[G_COMP_LEFT]] == left
        towers = NEUTRAL_PIECES[Building.TOWER] - int(self.neutral.sum())  # Omar's, C10's (R46)
        assert glob[G_NEUTRAL_LEFT.start + Building.TOWER] == towers
        for b in Building:
            if b != Building.TOWER:
                assert glob[G_NEUTRAL_LEFT.start + b] == NEUTRAL_PIECES.get(b, 0)
        assert glob[G_PAVILIONS_LEFT] == PAVILIONS - sum(self.pavilions)
        assert [int(x) for x in glob[G_CITY_LEFT]] == [CITY_COPIES] * CITY_TYPES
        assert not glob[G_SPELLS_USED].any() and not glob[G_BOOKS_USED].any() and glob[G_NUM_BRIDGES] == 0
        # R17.9 / R4 (AUTOMA.md §3.7: the humans first): the turn order of round 1
        assert [int(x) for x in glob[G_ORDER]] == self.order + [-1] * (5 - self.n)

    comp_taken: Counter[int]
    takes: list[tuple[int, int, list[int]]]


# --------------------------------------------------------------------------------------------
# the driver


@contextmanager
def snapshot_before_round_one() -> Iterator[dict]:
    """Copies the state when round 1 starts (after the last setup step, before any income)."""
    got: dict = {"takes": []}
    original, original_take = flow.start_round, decisions.take_bonus

    def wrapped(g: Game, rnd: int) -> None:
        if rnd == 1 and "state" not in got:
            got["state"] = g.state.clone()
        original(g, rnd)

    def take(g: Game, seat: int, b: int, keep_coins: bool = True) -> None:  # the row before a take
        row = [int(t) for t in g.state.glob[G_BONUS_ROW] if t >= 0]
        got["takes"].append((seat, b, row))
        original_take(g, seat, b, keep_coins)

    flow.start_round, decisions.take_bonus = wrapped, take
    try:
        yield got
    finally:
        flow.start_round, decisions.take_bonus = original, original_take


class Stats:
    def __init__(self) -> None:
        self.games = 0
        self.decisions = 0
        self.forced = 0
        self.events: Counter[str] = Counter()
        self.factions: set[int] = set()
        self.boards: set[int] = set()


def play_setup(game: str, seed: int, stats: Stats, biased: bool) -> None:
    """One setup against the oracle; then round 1 must start with the first seat of the order."""
    rng = np.random.default_rng(seed * 7 + 1)
    with snapshot_before_round_one() as snap:
        g = Game(game, seed=seed)
        oracle = SetupOracle(g)
        oracle.takes = snap["takes"]
        oracle.comp_taken = Counter()
        script = oracle.script()
        alts = next(script)
        finished = False
        while not finished:
            # a decision with one legal move is applied by the engine itself (skip_forced), also
            # the last one of the setup (e.g. a C10 Tower with one hex): round 1 has begun then
            over = "state" in snap
            kind = None if over else g.pending_kind()
            seat = None if over else g.current_seat()
            match = [x for x in alts if x[0] == kind and x[1] == seat]
            if not match and g.config.skip_forced and len(alts) == 1 and len(alts[0][2]) == 1:
                k, st, legal = alts[0]
                a = next(iter(legal))
                stats.forced += 1
            else:
                assert not over, f"{game} seed {seed}: setup ended, the oracle expects {alts}"
                oracle.sync_automa()
                assert match, f"{game} seed {seed}: engine asks {kind!r} of seat {seat}, oracle expects {alts}"
                k, st, legal = match[0]
                got = set(g.legal_actions())
                assert got == legal, (
                    f"{game} seed {seed}: {kind.name} of seat {seat}: engine-only "
                    f"{sorted(g.move_str(x) for x in got - legal)}, oracle-only {sorted(legal - got)}"
                )
                a = biased_random_action(g, rng) if biased else sorted(got)[int(rng.integers(len(got)))]
                g.apply_action(a)
                stats.decisions += 1
            oracle._last_seat = st
            try:
                alts = script.send((k, a))
            except StopIteration:
                finished = True
        assert "state" in snap, f"{game} seed {seed}: the oracle's setup is over, the engine's is not"
    oracle.sync_automa()
    oracle.check_end(snap["state"])
    # R17.9 / R4: round 1's first turn belongs to the first seat of the order (after income)
    play_random(g, rng, lambda g: g.state.glob[G_PHASE] == Phase.ACTIONS, max_decisions=49)
    assert g.state.glob[G_ROUND] == 1 and turn_seat(g.state) == oracle.order[0]
    stats.games += 1
    stats.events.update(oracle.events)
    stats.factions.update(f for f in oracle.faction if f >= 0)
    stats.boards.update(b for b in oracle.board[: oracle.humans])


CONFIGS = [
    # (game string, seeds); skip_forced=false shows every decision, the default hides forced ones
    ("aoi(players=2,skip_forced=false)", 60),
    ("aoi(players=3,skip_forced=false)", 50),
    ("aoi(players=4,skip_forced=false)", 50),
    ("aoi(players=5,skip_forced=false)", 50),
    ("aoi(players=3,map=1-3,ruleset=v1.0,skip_forced=false)", 30),
    ("aoi(players=4,ruleset=v1.0)", 30),
    ("aoi(players=2,distribution=draft,skip_forced=false)", 40),
    ("aoi(players=3,distribution=draft,ruleset=v1.0,skip_forced=false)", 30),
    ("aoi(players=4,distribution=draft,skip_forced=false)", 30),
    ("aoi(players=5,distribution=draft)", 30),
    ("aoi(players=3,factions=monks+omar+inventors,boards=desert+lake+forest,skip_forced=false)", 30),
    ("aoi(players=4,factions=goblins+lizards+inventors+monks,skip_forced=false)", 30),
    ("aoi(players=2,boards=wasteland+swamp,skip_forced=false)", 20),
    ("aoi(players=3,distribution=draft,boards=plains+mountain+lake,skip_forced=false)", 10),
    ("aoi(players=5,factions=omar+monks+blessed+psychics+philosophers,boards=desert+wasteland+forest+lake+swamp)", 20),
    ("aoi(players=1,automa=simpletons:3,skip_forced=false)", 30),
    ("aoi(players=1,automa=kuddlers:2:lake,skip_forced=false)", 20),
    ("aoi(players=2,automa=druids:5,skip_forced=false)", 20),
    ("aoi(players=2,automa=druids:2:lake,skip_forced=false)", 20),
    ("aoi(players=1,automa=mimics:1+racelings:4,skip_forced=false)", 20),
]


def test_setup_decisions_and_end_state_match_the_oracle() -> None:
    """R5-R25, R49, R53, R87-R100, OP-4, OP-27, OP-36, OP-37, OP-43, OP-44, OP-56, OP-62, AUTOMA.md
    §3: the draws, every setup decision's legal set, and the whole state before round 1."""
    stats = Stats()
    for game, seeds in CONFIGS:
        for seed in range(seeds):
            play_setup(game, seed, stats, biased=seed % 2 == 0)
    assert stats.games == sum(s for _, s in CONFIGS)
    assert stats.decisions >= 5000, stats.decisions
    assert stats.forced >= 20, stats.forced  # Omar's forced third building etc. under skip_forced
    assert stats.factions == set(range(12)), stats.factions  # every faction ...
    assert stats.boards == set(range(7)), stats.boards  # ... and every planning board occurred
    ev = stats.events
    for key, least in {
        "draft": 100,
        "neutral faction": 100,
        "lizards step": 40,
        "wasteland book": 30,
        "omar tower": 40,
        "monks university": 40,
        "setup spade": 60,
        "goblins setup spade": 3,
        "setup spades declined": 3,
        "setup C10 tower": 3,
        "setup C5": 3,
        "setup C4": 3,
        "setup C6": 3,
    }.items():
        assert ev[key] >= least, (key, ev[key], dict(ev))


# --------------------------------------------------------------------------------------------
# setup_choices=random: the engine decides; the end state must still be a legal setup


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_setup_choices_give_a_legal_setup(players: int) -> None:
    """R15-R23 with ``setup_choices=random``: distinct factions and boards, the start resources
    (R17-R19, R87-R100) up to the free choices (Lizards' steps, Wasteland's book, the competency),
    buildings only on native hexes (R21, R22, R34), 3 bonus tiles on display with a coin."""
    checked = 0
    for seed in range(40):
        dist = ("standard", "draft")[seed % 2]
        with snapshot_before_round_one() as snap:
            Game(f"aoi(players={players},setup_choices=random,distribution={dist})", seed)
        s = snap["state"]
        p = s.players
        assert len({int(x) for x in p[:, P_FACTION]}) == players and p[:, P_FACTION].min() >= 0
        assert len({int(x) for x in p[:, P_BOARD]}) == players and p[:, P_BOARD].min() >= 0
        for seat in range(players):
            board, faction = BOARDS[int(p[seat, P_BOARD])], FACTIONS[int(p[seat, P_FACTION])]
            base = [board.get("steps", (0,) * 4)[d] + faction.get("steps", (0,) * 4)[d] for d in range(4)]
            levels = [int(x) for x in p[seat, P_SCIENCE]]
            books = [0, 0, 0, 0]
            spaces = [int(c) for c in s.glob[G_COMP_SPACES]]
            for c in range(12):
                if int(p[seat, P_COMPETENCIES]) >> c & 1:  # R53.3: the position reward
                    column, row = divmod(spaces.index(c), 3)
                    base[column] += COMP_ROW_REWARD[row][0]
                    books[column] += COMP_ROW_REWARD[row][1]
            free = 2 if faction.get("choose_steps") else 0  # R94: the Lizards' two steps
            assert all(levels[d] >= base[d] for d in range(4)) and sum(levels) == sum(base) + free
            got_books = [int(x) for x in p[seat, P_BOOKS]]
            assert all(got_books[d] >= books[d] for d in range(4))
            assert sum(got_books) == sum(books) + board.get("books_any", 0)  # R87: Wasteland's book
            assert [int(x) for x in p[seat, P_BOWLS]] == gain_power(
                board.get("bowls", DEFAULT_BOWLS), threshold_power(levels)
            )
            own = np.flatnonzero(s.hexes[:, H_OWNER] == seat)
            assert all(s.hexes[q, H_TERRAIN] == p[seat, P_BOARD] for q in own)
            kinds = sorted(int(s.hexes[q, H_BUILDING]) for q in own)
            c10 = [Building.TOWER] if p[seat, P_COMPETENCIES] >> COMP_IDS.index("C10") & 1 else []
            if p[seat, P_FACTION] == Faction.MONKS:
                assert kinds in ([Building.UNIVERSITY], [Building.UNIVERSITY, *c10]), kinds
            elif p[seat, P_FACTION] == Faction.OMAR:
                assert kinds == [Building.WORKSHOP, Building.WORKSHOP, Building.TOWER], kinds
            else:
                assert kinds in ([Building.WORKSHOP] * 2, [Building.WORKSHOP] * 2 + c10), kinds
            assert p[seat, P_VP] in (START_VP, START_VP + 5)  # + 5 only from C4
        display = [b for b in range(10) if s.glob[G_BONUS_STATE.start + b] == -1]
        assert len(display) == 3 and all(s.glob[G_BONUS_COINS.start + b] == 1 for b in display)
        assert sorted(int(x) for x in p[:, P_BONUS]) == sorted(
            b for b in range(10) if s.glob[G_BONUS_STATE.start + b] >= 0
        )
        checked += 1
    assert checked == 40


# --------------------------------------------------------------------------------------------
# the draws spread over seeds


def test_random_draws_spread_over_seeds() -> None:
    """R6, R7, R8, R11, R12, R14, R15, R16, R24: over many seeds every tile is dealt somewhere it
    may be (a sanity check that nothing is stuck), without asserting exact statistics."""
    round_slot: list[Counter[str]] = [Counter() for _ in range(6)]
    finals: Counter[str] = Counter()
    book_actions: Counter[int] = Counter()
    comp_space: Counter[tuple[int, int]] = Counter()
    innovations: Counter[int] = Counter()
    palaces: Counter[int] = Counter()
    draft_palaces: Counter[int] = Counter()
    set_factions: Counter[int] = Counter()
    set_bonus: Counter[int] = Counter()
    display_bonus: Counter[int] = Counter()
    draft_factions: Counter[int] = Counter()
    draft_missing: Counter[int] = Counter()
    starts: Counter[tuple[int, int]] = Counter()
    area: Counter[int] = Counter()
    final_vs_round6: Counter[tuple[str, str]] = Counter()
    seeds = 0
    for players in (2, 3, 4, 5):
        for dist in ("standard", "draft"):
            for _ in range(60):  # distinct seeds: the same seed deals the same round tiles
                g = Game(f"aoi(players={players},distribution={dist})", seed=1000 + seeds)
                SetupOracle(g)  # the draws obey the rules
                glob = g.state.glob
                seeds += 1
                tiles = [ROUND_IDS[int(t)] for t in glob[G_ROUND_TILES]]
                for r, t in enumerate(tiles):
                    round_slot[r][t] += 1
                finals[FINAL_IDS[int(glob[G_FINAL_TILE])]] += 1
                final_vs_round6[FINAL_IDS[int(glob[G_FINAL_TILE])], tiles[5]] += 1
                book_actions.update(int(b) for b in glob[G_BOOK_ACTIONS])
                comp_space.update((i, int(c)) for i, c in enumerate(glob[G_COMP_SPACES]))
                innovations.update(int(i) for i in glob[G_INNOV_SPACES] if i >= 0)
                starts[players, int(glob[G_START_PLAYER])] += 1
                if players == 2:
                    area[int(glob[G_AREA_TOKEN])] += 1
                if dist == "standard":
                    palaces.update(t + 1 for t in range(17) if glob[G_PALACE_STATE.start + t] == -1)
                    set_factions.update(int(f) for f in glob[G_BUNDLE_FACTION])
                    set_bonus.update(int(b) for b in glob[G_BUNDLE_BONUS])
                    display_bonus.update(b for b in range(10) if glob[G_BONUS_STATE.start + b] == -1)
                else:
                    draft_palaces.update(int(t) + 1 for t in glob[G_DRAFT_PALACES] if t >= 0)
                    draft_factions.update(int(f) for f in glob[G_DRAFT_FACTIONS] if f >= 0)
                    draft_missing.update(set(range(7)) - {int(t) for t in glob[G_DRAFT_BOARDS]})
    all_t = set(ROUND_TILES)
    for r in range(4):  # rounds 1-4: every tile
        assert set(round_slot[r]) == all_t, (r + 1, round_slot[r])
    for r in (4, 5):  # rounds 5, 6: every tile but the spade tile (R6a)
        assert set(round_slot[r]) == all_t - {"T2"}, (r + 1, round_slot[r])
    assert set(finals) == set(FINAL_TILES)
    # OP-27: each final tile appears with every round-6 tile it is compatible with
    for f, kind in FINAL_TILES.items():
        for t, (scored, _, _) in ROUND_TILES.items():
            if t != "T2":
                assert (final_vs_round6[f, t] > 0) == (scored != kind), (f, t, final_vs_round6[f, t])
    assert set(book_actions) == set(range(6))
    assert set(comp_space) == {(i, c) for i in range(12) for c in range(12)}
    assert set(innovations) == set(range(18))
    assert set(palaces) == set(range(1, 18)) and palaces[PALACE_17] == seeds // 2  # #17 always (R14)
    assert set(draft_palaces) == set(range(1, 17))  # never #17 (R16.3)
    assert set(set_factions) == set(range(12)) and set(draft_factions) == set(range(12))
    assert set(set_bonus) == set(range(10)) and set(display_bonus) == set(range(10))
    assert set(draft_missing) == set(range(7))
    assert set(starts) == {(p, s) for p in (2, 3, 4, 5) for s in range(p)}
    assert set(area) == set(load().raw["two_player"]["area_tokens"])
    assert seeds == 480
