"""Independent oracles for the flow of play and for bridges, checked at every decision of random games.

**Oracle 1 -- the flow of play.**  From the sequence of decisions alone (their seat, kind and the
id chosen; forced decisions that ``skip_forced`` applies are seen too) and the automatic steps
of the game sequence (a seat's income, an Automa's turn, a seat's science bonus, the end of a
turn), the oracle keeps its own round, phase, turn order, passing order and whose turn it is,
and compares them with ``g.current_seat()``, ``g.pending_kind()``, ``G_ROUND``, ``G_PHASE``,
``G_ORDER``, ``G_NEXT_ORDER``, ``P_PASSED`` and the turn seat at every decision:

* R15.4 / R16.7 / R16.8 / R17.9 / R4 (and AUTOMA.md §3.7): the start player is the last to
  take a set (standard), the first to draft (draft) or the last to take a bonus tile; round 1's
  order is clockwise from the start player (humans first against the Automa);
* R56 / R82: rounds 1-6, each with Phase I (income, R57: one income per player seat, in turn
  order), Phase II, and Phase III (R80) in rounds 1-5 only; the game ends when everybody has
  passed in round 6;
* R58: turns in the round's order, top to bottom and again from the top, passed players
  skipped; exactly one action per turn, free conversions before it (``MAIN``) and after it
  (``POST`` ... ``done``, R79); never a decision of the acting kind by another seat;
* R59 / OP-58: Pass is always among the actions; ``POST`` offers only conversions and ``done``;
* R78: each player passes exactly once per round and never acts again in that Phase II; the
  round bonus tile is taken in rounds 1-5 only; R78.4: the passing order is the next round's
  turn order;
* R100 / OP-42: the Psychics' special action is followed by a second action in the same turn
  (Pass allowed, conversions in between, OP-59), once a round (OP-61);
* R42 / OP-56: power offers are answered by the other player seats out of turn (passed ones
  too), one run per build, clockwise from the builder (the order docs/rules.md documents);
* R80: the science bonus in the next round's order (player seats), then the X tokens are
  removed (spells, book actions, special actions) and 1 coin goes on each display bonus tile;
  R80.4 every tile face up again (no player passed) when the next round starts.

**Oracle 2 -- bridges** (R38, R40, R2 / R3, OP-12, R95 / OP-47, R139 S1, R138 B6, R135 / palace 15):
the printed bridge locations of both board sides are typed in from DATA.md §2 (OP-12) and the
Moles' geometry (two land hexes at distance 2 with two common neighbours, OP-47) is computed
from hex coordinates; at every ``MAIN`` the spell S1, the special action of B6 and the Moles'
bridge action are offered exactly when a legal placement exists (and the cost can be paid,
OP-58); every ``BRIDGE_END`` / ``BRIDGE_DIR`` offers exactly the legal placements (a building
of the seat at one end, no bridge there yet, at most 3 bridges a player); a built bridge appears
in the state's bridge table with its owner, is never removed, makes its two ends adjacent
(R38) and puts the far end in reach (R39): at every plain ``TB_TARGET`` the ends of bridge
locations next to the seat's buildings are targets exactly when the oracle's reach (edges,
built bridges, river paths up to the sailing value) and R61 / R64 allow it.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
import pytest

from aoi_env.core import flow, pending  # noqa: F401  (flow registers the automatic steps in AUTO)
from aoi_env.core.config import GameConfig
from aoi_env.core.engine import AUTO, HANDLERS, Game
from aoi_env.core.moves import (
    A_MOLES_BRIDGE,
    A_PASS,
    BONUS_BASE,
    CONVERT_BASE,
    COUNT_BASE,
    DONE,
    HEX_BASE,
    NUM_CONVERSIONS,
    SP_BONUS,
    SP_FACTION,
    SPECIAL_BASE,
    SPELL_BASE,
    YES,
)
from aoi_env.core.pending import TB_BUILD, TB_BUY, Kind
from aoi_env.core.state import (
    G_BONUS_COINS,
    G_BONUS_STATE,
    G_BOOKS_USED,
    G_NEXT_COUNT,
    G_NEXT_ORDER,
    G_ORDER,
    G_PHASE,
    G_ROUND,
    G_SPELLS_USED,
    G_START_PLAYER,
    H_BUILDING,
    H_NEUTRAL,
    H_OWNER,
    H_TERRAIN,
    P_BOARD,
    P_BONUS,
    P_BOOKS,
    P_BOWLS,
    P_BRIDGES,
    P_COINS,
    P_FACTION,
    P_PASSED,
    P_SCHOLARS,
    P_SPECIALS_USED,
    P_TERRAFORMING,
    P_TOOLS,
    Phase,
    turn_seat,
)
from aoi_env.data import load
from aoi_env.data.enums import Building, Faction, Terrain
from aoi_env.testing import biased_random_action, random_action
from tests.rules.oracle_common import (
    BRIDGES_PER_PLAYER,
    TOOLS_PER_SPADE,
    bridge_rows,
    built_bridges,
    free_bridge_spots,
    moles_geometry,
    own_hexes,
    reach_from,
    sailing,
)
from tests.rules.oracle_common import common_neighbours as _common_neighbours

# --------------------------------------------------------------------------------------------
# numbers typed in from RULES.md / DATA.md (not read from the engine's tables)

ROUNDS = 6  # R56
S1_COST = 3  # R139: the bridge spell costs 3 P ...
ILLUSIONIST_DISCOUNT = 1  # ... and 1 P less for the Illusionists (R92)
MOLES_BRIDGE_TOOLS = 1  # R95 / R77
WORKSHOP_TOOLS, WORKSHOP_COINS, WORKSHOP_PIECES = 1, 2, 9  # R64, R2
NCOLS, NROWS = 13, 9  # DATA.md §2.1: positions are row * 13 + col

# DATA.md §2.2 (3-5 side, CONFIRMED): the 31 printed bridge locations, (row, col) pairs
PRINTED_3_5 = (
    ((0, 2), (1, 0)), ((0, 2), (2, 2)), ((0, 8), (1, 6)), ((0, 11), (1, 12)), ((1, 3), (2, 2)),
    ((1, 10), (2, 12)), ((1, 10), (3, 10)), ((2, 4), (3, 2)), ((2, 6), (3, 7)), ((2, 9), (3, 7)),
    ((2, 9), (3, 10)), ((2, 9), (4, 9)), ((3, 4), (4, 3)), ((3, 4), (5, 4)), ((3, 5), (4, 7)),
    ((3, 5), (5, 5)), ((4, 2), (6, 2)), ((4, 3), (5, 4)), ((4, 3), (6, 3)), ((4, 7), (5, 5)),
    ((5, 0), (6, 2)), ((5, 4), (6, 3)), ((5, 7), (6, 6)), ((5, 7), (7, 7)), ((5, 8), (7, 8)),
    ((5, 10), (7, 10)), ((5, 11), (7, 11)), ((6, 0), (7, 1)), ((6, 0), (8, 0)), ((6, 3), (7, 4)),
    ((7, 2), (8, 4)),
)  # fmt: skip
# DATA.md §2.3 (1-3 side): bridge locations MISSING; the 16 geometric candidates (INFERRED)
CANDIDATES_1_3 = (
    ((0, 6), (1, 4)), ((1, 8), (2, 10)), ((1, 8), (3, 8)), ((2, 4), (3, 5)), ((2, 7), (3, 5)),
    ((2, 7), (3, 8)), ((2, 7), (4, 7)), ((3, 2), (5, 2)), ((3, 3), (4, 5)), ((3, 3), (5, 3)),
    ((4, 5), (5, 3)), ((5, 5), (6, 4)), ((5, 5), (7, 5)), ((5, 6), (7, 6)), ((5, 8), (7, 8)),
    ((5, 9), (7, 9)),
)  # fmt: skip
PRINTED = {"3-5": PRINTED_3_5, "1-3": CANDIDATES_1_3}

_DATA = load()
S1 = _DATA.spell_ids.index("S1")  # id lookups only (which spell / tile is which)
B6 = _DATA.bonus_ids.index("B6")
P15_BRIDGES = COUNT_BASE + 1  # palace 15 part "bridges" (the parts are TB, bridges, books)


def _pos(rc: tuple[int, int]) -> int:
    return rc[0] * NCOLS + rc[1]


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


# --------------------------------------------------------------------------------------------
# hex geometry from DATA.md §2.1 (odd rows shifted right): cube coordinates, not board.py


def printed_spots(side: str) -> set[tuple[int, int]]:
    return {_pair(_pos(a), _pos(b)) for a, b in PRINTED[side]}


def _edge_neighbours(g: Game) -> list[list[int]]:
    """Shared-edge neighbours inside the play area (land and river), from the static geometry."""
    adj = g.geo.adj
    return [[int(q) for q in np.flatnonzero(adj[p])] for p in range(adj.shape[0])]


@dataclass
class Geo:
    land: np.ndarray
    river: np.ndarray
    edges: list[list[int]]
    printed: set[tuple[int, int]]
    moles: set[tuple[int, int]]


_GEO: dict[str, Geo] = {}


def geo_of(g: Game) -> Geo:
    name = g.geo.name
    if name not in _GEO:
        land = g.geo.terrain < Terrain.RIVER
        river = g.geo.terrain == Terrain.RIVER
        _GEO[name] = Geo(land, river, _edge_neighbours(g), printed_spots(name), moles_geometry(land))
    return _GEO[name]


def bridge_placements(g: Game, seat: int, moles: bool) -> set[tuple[int, int]]:
    """R40 (printed location, own building at an end, no bridge there, 3 per player) or, for the
    Moles' action, the same with the relaxed geometry of R95 / OP-47."""
    geo = geo_of(g)
    used = int(g.state.players[seat, P_BRIDGES])
    return free_bridge_spots(geo.moles if moles else geo.printed, g.state, seat, used)


def oracle_reach(g: Game, seat: int) -> tuple[set[int], set[int]]:
    """(reach with the built bridges, reach without them) of the seat (R38, R39): land hexes
    edge-adjacent to an own building, at the other end of a built bridge, or joined to one by a
    path of 1..s edge-adjacent river hexes; s = sailing track + 1 with B1 in Phase II (R138)."""
    geo = geo_of(g)
    own = own_hexes(g.state, seat)
    sail = sailing(g.state, seat)
    base = reach_from(geo.edges, geo.land, geo.river, own, sail)
    return reach_from(geo.edges, geo.land, geo.river, own, sail, built_bridges(g.state)), base


# --------------------------------------------------------------------------------------------
# the flow oracle


@dataclass
class Turn:
    seat: int
    automa: bool = False
    actions: int = 0  # main actions chosen (R58: one; the Psychics' special brings a second, R100)
    second: bool = False
    stage: str = "main"  # main -> action -> post -> done
    passed: bool = False
    pass_snapshot: tuple[int, ...] = ()
    post_seen: bool = False
    complete: bool = False
    touch: set[int] = field(default_factory=set)  # other seats at the ends of a bridge built now


def _convertible(g: Game, seat: int) -> tuple[int, ...]:
    """What R79's conversions spend: bowl II, bowl III, tools, scholars, books."""
    p = g.state.players[seat]
    return (int(p[P_BOWLS][1]), int(p[P_BOWLS][2]), int(p[P_TOOLS]), int(p[P_SCHOLARS]), int(p[P_BOOKS].sum()))


def _is_conversion(a: int) -> bool:
    return CONVERT_BASE <= a < CONVERT_BASE + NUM_CONVERSIONS


PHASE_CODE = {"setup": Phase.SETUP, "income": Phase.INCOME, "actions": Phase.ACTIONS, "science": Phase.SCIENCE}


class Oracle:
    def __init__(self, g: Game, config: GameConfig, where: str, tally: Counter[str], problems: list[str]) -> None:
        self.g = g  # not initialised yet: the oracle watches the setup decisions made in __init__
        self.where = where
        self.tally = tally
        self.problems = problems
        self.n = config.seats
        self.humans = list(range(config.players))
        self.phase = "setup"
        self.round = 0
        self.order: list[int] = []
        self.passed: list[int] = []
        self.turn: Turn | None = None
        self.pointer = 0
        self.income_seen: list[int] = []
        self.science_seen: list[int] = []
        self.setup_seq: dict[int, list[int]] = {}
        self.offer_run: list[int] = []
        self.builder = -1
        self.psychic_used: set[int] = set()
        self.passes_per_round: list[list[int]] = []
        self.coins_snapshot: dict[int, int] = {}
        # bridges
        self.bridges: list[tuple[int, int, int]] = []
        self.bridge_todo: tuple[int, bool, int] | None = None  # (seat, moles, bridges left to place)
        self.bridge_end = -1
        self.verify: tuple[int, int, int] | None = None
        self.p15_parts: dict[int, set[int]] = {}
        self.bridge_cost: tuple[int, tuple[int, ...]] | None = None

    def bad(self, text: str) -> None:
        self.problems.append(f"{self.where} round {self.round} {self.phase}: {text}")

    # -- state fields against the oracle -------------------------------------------------

    def sync(self, what: str) -> None:
        g = self.g
        s = g.state
        glob = s.glob
        if self.verify is not None:
            self._verify_bridge()
        table = bridge_rows(s)
        if table != self.bridges:
            self.bad(f"{what}: bridge table {table} != bridges built {self.bridges}")
            self.bridges = table
        for seat in range(self.n):
            own = sum(1 for *_, o in self.bridges if o == seat)
            if int(s.players[seat, P_BRIDGES]) != own or own > BRIDGES_PER_PLAYER:
                self.bad(f"{what}: seat {seat} has P_BRIDGES {int(s.players[seat, P_BRIDGES])}, {own} on the map")
        if self.phase == "setup":
            if int(glob[G_ROUND]) != 0 or int(glob[G_PHASE]) != Phase.SETUP:
                self.bad(f"{what}: round/phase fields {int(glob[G_ROUND])}/{int(glob[G_PHASE])} during setup")
            return
        if int(glob[G_ROUND]) != self.round or int(glob[G_PHASE]) != PHASE_CODE[self.phase]:
            self.bad(f"{what}: round/phase fields {int(glob[G_ROUND])}/{Phase.NAMES[int(glob[G_PHASE])]}")
        order = [int(x) for x in glob[G_ORDER][: self.n]]
        if order != self.order:
            self.bad(f"{what}: G_ORDER {order} != {self.order}")
        if self.phase in ("actions", "science"):
            k = int(glob[G_NEXT_COUNT])
            nxt = [int(x) for x in glob[G_NEXT_ORDER][:k]]
            if nxt != self.passed:
                self.bad(f"{what}: passing order {nxt} != {self.passed} (R78.4)")
        flags = {seat for seat in range(self.n) if int(s.players[seat, P_PASSED])}
        if self.phase in ("actions", "science") and flags != set(self.passed):
            self.bad(f"{what}: P_PASSED {sorted(flags)} != passed {sorted(self.passed)}")
        if self.phase == "income" and flags:
            self.bad(f"{what}: P_PASSED {sorted(flags)} set in Phase I (R80.4: tiles face up)")

    # -- phase transitions -----------------------------------------------------------------

    def _start_player(self) -> int:
        g = self.g
        seq = self.setup_seq
        humans = len(self.humans)
        if g.config.automa:
            start = 0  # AUTOMA.md §3.7: the humans first, player 1 first
            self.tally["start player: automa game"] += 1
        elif Kind.DRAFT_PICK in seq:
            start = seq[Kind.DRAFT_PICK][0]  # R16.7
            want = [(start + k) % humans for k in range(humans)] * 3
            if seq[Kind.DRAFT_PICK] != want:
                self.bad(f"R16.7 draft order {seq[Kind.DRAFT_PICK]} != {want}")
            self.tally["start player: first draft pick (R16.7)"] += 1
        elif Kind.PICK_BUNDLE in seq:
            start = seq[Kind.PICK_BUNDLE][-1]  # R15.4: the start player chooses last
            want = [(start - k) % humans for k in range(1, humans + 1)]
            if seq[Kind.PICK_BUNDLE] != want:
                self.bad(f"R15.4 set order {seq[Kind.PICK_BUNDLE]} != {want}")
            self.tally["start player: last set pick (R15.4)"] += 1
        else:
            start = seq[Kind.PICK_BONUS][-1]
            self.tally["start player: last bonus pick (R16.8)"] += 1
        if Kind.PICK_BONUS in seq and not g.config.automa:  # R16.8: right of the start player, counter-clockwise
            want = [(start - k) % self.n for k in range(1, self.n + 1)]
            if seq[Kind.PICK_BONUS] != want:
                self.bad(f"R16.8 bonus pick order {seq[Kind.PICK_BONUS]} != {want}")
        if int(g.state.glob[G_START_PLAYER]) != start:
            self.bad(f"G_START_PLAYER {int(g.state.glob[G_START_PLAYER])} != {start}")
        return start

    def _begin_income(self) -> None:
        g = self.g
        if self.phase == "setup":
            start = self._start_player()
            self.round = 1
            self.order = [(start + k) % self.n for k in range(self.n)]  # R17.9 / R4: clockwise
        else:
            if self.phase != "science":
                self.bad("a new round's income without Phase III")
            want = [s for s in self.passed if g.is_player(s)]
            if self.science_seen != want:
                self.bad(f"R80.1 science bonus seats {self.science_seen} != passing order {want}")
            self._check_cleanup()
            self.round += 1
            self.order = list(self.passed)  # R78.4
            self.tally["R78.4 new order = passing order"] += 1
        self.phase = "income"
        self.passed = []
        self.income_seen = []
        self.psychic_used = set()
        self.turn = None
        self.pointer = 0

    def _check_cleanup(self) -> None:
        """R80.2-R80.5 after the science bonus: no X tokens left, a coin on each display tile."""
        s = self.g.state
        if int(s.glob[G_SPELLS_USED].sum()) or int(s.glob[G_BOOKS_USED].sum()):
            self.bad("R80.2: X tokens left on spells / book actions")
        if int(s.players[:, P_SPECIALS_USED].sum()):
            self.bad("R80.2: X tokens left on special actions")
        for b, coins in self.coins_snapshot.items():
            got = int(s.glob[G_BONUS_COINS.start + b])
            if got != coins + 1:
                self.bad(f"R80.3: display tile {b} has {got} coins, expected {coins + 1}")
        self.tally["R80 cleanup checked"] += 1

    def _begin_actions(self) -> None:
        want = [s for s in self.order if self.g.is_player(s)]
        if self.income_seen != want:
            self.bad(f"R57 income seats {self.income_seen} != {want}")
        self.phase = "actions"

    def _next_actor(self) -> int:
        for k in range(len(self.order)):
            seat = self.order[(self.pointer + k) % len(self.order)]
            if seat not in self.passed:
                return seat
        return -1

    def _record_pass(self, seat: int) -> None:
        if seat in self.passed:
            self.bad(f"seat {seat} passes twice in a round (R58)")
        self.passed.append(seat)
        self.tally["passes"] += 1

    def _complete(self, t: Turn) -> None:
        t.complete = True
        self.pointer = self.order.index(t.seat) + 1
        want = 2 if t.second else 1
        if not t.automa and t.actions != want:
            self.bad(f"seat {t.seat} took {t.actions} actions in a turn, expected {want} (R58, R100)")

    def _new_turn(self, seat: int, automa: bool) -> Turn:
        t = self.turn
        if t is not None and not t.complete:
            self.bad(f"a new turn of seat {seat} before the turn of seat {t.seat} ended")
        exp = self._next_actor()
        if seat != exp:
            self.bad(f"seat {seat} takes a turn, expected seat {exp} (order {self.order}, passed {self.passed})")
        if seat in self.passed:
            self.bad(f"seat {seat} acts after passing (R58)")
        self.turn = Turn(seat, automa=automa)
        self.tally["turns"] += 1
        return self.turn

    # -- events -----------------------------------------------------------------------------

    def on_auto(self, kind: int, seat: int) -> None:
        self.offer_run = []
        if self.bridge_todo is not None:
            self._bridge_dropped()
        if kind == Kind.INCOME_SEAT:
            if self.phase != "income":
                self._begin_income()
            self.sync("income")
            want = [s for s in self.order if self.g.is_player(s) and s not in self.income_seen]
            if not want or seat != want[0]:
                self.bad(f"income of seat {seat}, expected {want[:1]} (R57, order {self.order})")
            self.income_seen.append(seat)
            self.tally["income"] += 1
        elif kind == Kind.SCIENCE_SEAT:
            if self.phase == "actions":
                self._begin_science()
            self.sync("science bonus")
            want = [s for s in self.passed if self.g.is_player(s) and s not in self.science_seen]
            if not want or seat != want[0]:
                self.bad(f"science bonus of seat {seat}, expected {want[:1]} (R80.1, passing order {self.passed})")
            self.science_seen.append(seat)
            self.tally["science bonus"] += 1
        elif kind == Kind.AUTOMA_TURN:
            if self.phase == "income":
                self._begin_actions()
            self.sync("automa turn")
            self._new_turn(seat, automa=True)
            self.builder = seat
            self.tally["automa turns"] += 1
        elif kind == Kind.AUTOMA_STEP:
            self.builder = seat
        elif kind == Kind.END_TURN:
            self.sync("end of turn")
            t = self.turn
            if t is None or t.seat != seat:
                self.bad(f"end of a turn of seat {seat}, the oracle's turn is {t}")
                return
            if t.automa or t.complete:
                if not t.complete:
                    self._complete(t)
                return
            if t.passed and not t.post_seen:  # no conversions after a pass that gave nothing to convert
                now = _convertible(self.g, seat)
                if any(a > b for a, b in zip(now, t.pass_snapshot, strict=True)):
                    self.bad(f"R79: seat {seat} got {t.pass_snapshot} -> {now} by passing but no conversion step")
                self.tally["pass without POST"] += 1
                self._complete(t)
                return
            self.bad(f"turn of seat {seat} ends at stage {t.stage} without done (R58, R79)")
            self._complete(t)

    def after_automa_turn(self, seat: int) -> None:
        if int(self.g.state.players[seat, P_PASSED]) and seat not in self.passed:
            self._record_pass(seat)
            self.tally["automa passes"] += 1
            if self.turn is not None:
                self.turn.passed = True

    def _begin_science(self) -> None:
        t = self.turn
        if t is None or not t.complete:
            self.bad("Phase III before the last turn ended")
        if sorted(self.passed) != list(range(self.n)):
            self.bad(f"Phase III with passed {self.passed} (R58: all must pass)")
        if self.round >= ROUNDS:
            self.bad("a science bonus after round 6 (R56, R82)")
        self.passes_per_round.append(list(self.passed))
        self.phase = "science"
        self.science_seen = []
        s = self.g.state
        self.coins_snapshot = {
            b: int(s.glob[G_BONUS_COINS.start + b]) for b in range(10) if int(s.glob[G_BONUS_STATE.start + b]) == -1
        }

    def on_decision(self, kind: int, seat: int, action: int, legal: list[int], row: list[int]) -> None:
        g = self.g
        self.tally["decisions"] += 1
        if self.bridge_todo is not None and not (
            kind in (Kind.BRIDGE_END, Kind.BRIDGE_DIR) and seat == self.bridge_todo[0]
        ):
            self._bridge_dropped()
        if kind != Kind.OFFER:
            self.offer_run = []
        if self.phase == "setup" and kind in (Kind.MAIN, Kind.OFFER):
            self.bad(f"{Kind(kind).name} during setup")
        if self.phase == "income" and kind in (Kind.MAIN,):
            self._begin_actions()
        self.sync(f"decision {Kind(kind).name} seat {seat}")
        if not g.is_player(seat):
            self.bad(f"a decision for the Automa seat {seat}")
        if self.phase == "setup":
            if kind in (Kind.PICK_BUNDLE, Kind.DRAFT_PICK, Kind.PICK_BONUS):
                self.setup_seq.setdefault(kind, []).append(seat)
            return
        if self.phase == "income":
            if not self.income_seen or seat != self.income_seen[-1]:
                self.bad(f"{Kind(kind).name} of seat {seat} in the income of {self.income_seen[-1:]}")
            self.tally["income decisions"] += 1
            return
        if self.phase == "science":
            if not self.science_seen or seat != self.science_seen[-1]:
                self.bad(f"{Kind(kind).name} of seat {seat} in the science bonus of {self.science_seen[-1:]}")
            self.tally["science decisions"] += 1
            return
        # Phase II
        t = self.turn
        ts = turn_seat(g.state)
        if kind == Kind.MAIN:
            if t is None or t.complete:
                t = self._new_turn(seat, automa=False)
            elif not (seat == t.seat and t.stage == "main"):
                self.bad(f"MAIN of seat {seat} inside the turn of seat {t.seat} at stage {t.stage} (R58)")
            if ts != t.seat:
                self.bad(f"turn seat field {ts} != {t.seat}")
            self._check_main(t, legal)
            self._main_action(t, seat, action)
            self.builder = seat
            return
        if t is None:
            self.bad(f"{Kind(kind).name} of seat {seat} in Phase II before any turn")
            return
        if ts != t.seat:
            self.bad(f"turn seat field {ts} != {t.seat} at {Kind(kind).name}")
        if kind == Kind.OFFER:
            if sorted(legal) != sorted((YES, DONE)):
                self.bad(f"an offer allows {legal}: accept or decline only (R42.3; R79 no conversions)")
            self._offer(t, seat)
            return
        self.builder = seat
        if kind == Kind.POST:
            if seat != t.seat or t.stage not in ("action", "post"):
                self.bad(f"POST of seat {seat} in the turn of {t.seat} at stage {t.stage}")
            t.stage = "post"
            t.post_seen = True
            if DONE not in legal or any(not (_is_conversion(a) or a == DONE) for a in legal):
                self.bad(f"POST offers more than conversions and done: {legal} (R58, R79)")
            if action == DONE:
                t.stage = "done"
                self._complete(t)
            else:
                self.tally["conversions after the action"] += 1
            return
        if kind == Kind.PASS_BONUS:
            if seat != t.seat or not t.passed or t.stage != "action":
                self.bad(f"PASS_BONUS of seat {seat} outside its pass")
            if self.round >= ROUNDS:
                self.bad("a round bonus tile taken in round 6 (R78: only step 1)")
            display = [b for b in range(10) if int(g.state.glob[G_BONUS_STATE.start + b]) == -1]
            if sorted(a - BONUS_BASE for a in legal) != display or len(display) != 3:
                self.bad(f"pass bonus choice {legal} != the 3 display tiles {display} (R78.2)")
            if int(g.state.players[seat, P_BONUS]) in display:
                self.bad("the passing player may take back its own tile (R78.2 before R78.3)")
            self.tally["pass bonus taken"] += 1
            return
        if seat == t.seat and t.stage == "action":
            self.tally[f"action part {Kind(kind).name}"] += 1
        elif seat != t.seat and seat in t.touch:
            self.tally[f"out of turn after a bridge: {Kind(kind).name}"] += 1
        else:
            self.bad(f"{Kind(kind).name} of seat {seat} in the turn of seat {t.seat} at stage {t.stage}")

    def _check_main(self, t: Turn, legal: list[int]) -> None:
        if legal == [A_PASS]:
            self.tally["only Pass left (R78: cannot act, must pass)"] += 1
        if A_PASS not in legal:
            self.bad(f"Pass not offered to seat {t.seat} (R78, OP-58)")
        if t.second and SPECIAL_BASE + SP_FACTION in legal:
            self.bad("the Psychics' special offered again in its second action (R76: once a round)")
        if t.second:
            self.tally["Psychics second-action MAIN"] += 1

    def _main_action(self, t: Turn, seat: int, action: int) -> None:
        g = self.g
        if _is_conversion(action):
            self.tally["conversions before the action"] += 1
            return
        t.actions += 1
        faction = int(g.state.players[seat, P_FACTION])
        if action == SPECIAL_BASE + SP_FACTION and faction == Faction.PSYCHICS and not t.second:
            t.second = True  # R100: 5 power, then a second action in this turn
            if seat in self.psychic_used:
                self.bad("the Psychics' special twice in a round (R76, OP-61)")
            self.psychic_used.add(seat)
            self.tally["Psychics special"] += 1
            return
        t.stage = "action"
        if action == A_PASS:
            t.passed = True
            t.pass_snapshot = _convertible(g, seat)
            self._record_pass(seat)
            if t.second:
                self.tally["Psychics second action = pass (OP-42)"] += 1
            return
        if t.second:
            self.tally["Psychics second action (OP-42)"] += 1
        if action == SPELL_BASE + S1 or action == SPECIAL_BASE + SP_BONUS and int(g.state.players[seat, P_BONUS]) == B6:
            self.bridge_todo = (seat, False, 1)
            spell = action == SPELL_BASE + S1
            cost = S1_COST - (ILLUSIONIST_DISCOUNT if faction == Faction.ILLUSIONISTS else 0) if spell else 0
            self._expect_cost(seat, (0, 0, cost, 0, -cost))  # R139: spend = bowl III -> bowl I; B6 free
            self.tally["bridge action: " + ("S1" if spell else "B6")] += 1
        elif action == A_MOLES_BRIDGE:
            self.bridge_todo = (seat, True, 1)
            self._expect_cost(seat, (-MOLES_BRIDGE_TOOLS, 0, 0, 0, 0))  # R95: 1 tool
            self.tally["bridge action: Moles"] += 1

    def _resources(self, seat: int) -> tuple[int, ...]:
        p = self.g.state.players[seat]
        return (int(p[P_TOOLS]), int(p[P_COINS]), *(int(x) for x in p[P_BOWLS]))

    def _expect_cost(self, seat: int, delta: tuple[int, ...]) -> None:
        before = self._resources(seat)
        self.bridge_cost = (seat, tuple(b + d for b, d in zip(before, delta, strict=True)))

    def _offer(self, t: Turn, seat: int) -> None:
        builder = self.builder
        if seat == builder or seat in self.offer_run:
            self.bad(f"offer to seat {seat} (builder {builder}, run {self.offer_run})")
        dist = (seat - builder) % self.n
        if self.offer_run and dist <= (self.offer_run[-1] - builder) % self.n:
            self.bad(f"offers {self.offer_run + [seat]} not clockwise from builder {builder} (OP-56)")
        self.offer_run.append(seat)
        self.tally["offers"] += 1
        if seat in self.passed:
            self.tally["offers to passed players (OP-56)"] += 1
        if builder != t.seat:
            self.tally["offers from an out-of-turn build"] += 1
        if t.automa:
            self.tally["offers in an Automa turn"] += 1

    def finish(self) -> None:
        g = self.g
        if self.verify is not None:
            self._verify_bridge()
        t = self.turn
        if not g.is_over():
            self.bad("finished before the game is over")
        if self.phase != "actions" or self.round != ROUNDS:
            self.bad(f"the game ended in round {self.round} phase {self.phase} (R82)")
        if sorted(self.passed) != list(range(self.n)):
            self.bad(f"the game ended with passed {self.passed} (R82)")
        if t is None or not t.complete:
            self.bad("the game ended inside a turn")
        self.passes_per_round.append(list(self.passed))
        if len(self.passes_per_round) != ROUNDS:
            self.bad(f"{len(self.passes_per_round)} rounds played (R56)")
        if int(g.state.glob[G_PHASE]) != Phase.OVER:
            self.bad("G_PHASE is not OVER at the end")
        self.tally["games"] += 1

    # -- bridges -----------------------------------------------------------------------------

    def _bridge_dropped(self) -> None:
        seat, moles, left = self.bridge_todo  # type: ignore[misc]
        self.bridge_todo = None
        if left <= 0:
            return
        if bridge_placements(self.g, seat, moles):
            self.bad(f"seat {seat} lost a bridge it could still place (R135: 2 bridges)")
        else:
            self.tally["second palace-15 bridge impossible, dropped"] += 1

    def bridge_checks(self, kind: int, seat: int, action: int, legal: list[int], row: list[int]) -> None:
        g = self.g
        p = g.state.players[seat]
        if kind == Kind.MAIN:
            printed = bridge_placements(g, seat, moles=False)
            cost = S1_COST - (ILLUSIONIST_DISCOUNT if int(p[P_FACTION]) == Faction.ILLUSIONISTS else 0)
            want = not int(g.state.glob[G_SPELLS_USED.start + S1]) and int(p[P_BOWLS][2]) >= cost and bool(printed)
            if (SPELL_BASE + S1 in legal) != want:
                self.bad(f"spell S1 offered {SPELL_BASE + S1 in legal}, oracle {want} (R139, R40, OP-58) {printed}")
            self.tally[f"S1 legality checked ({want})"] += 1
            if int(p[P_BONUS]) == B6:
                want = not (int(p[P_SPECIALS_USED]) >> SP_BONUS & 1) and bool(printed)
                if (SPECIAL_BASE + SP_BONUS in legal) != want:
                    self.bad(f"B6 special offered {SPECIAL_BASE + SP_BONUS in legal}, oracle {want} (R138)")
                self.tally[f"B6 legality checked ({want})"] += 1
            if int(p[P_FACTION]) == Faction.MOLES:
                moles = bridge_placements(g, seat, moles=True)
                want = int(p[P_TOOLS]) >= MOLES_BRIDGE_TOOLS and bool(moles)
                if (A_MOLES_BRIDGE in legal) != want:
                    self.bad(f"Moles' bridge offered {A_MOLES_BRIDGE in legal}, oracle {want} (R95, OP-47)")
                self.tally[f"Moles bridge legality checked ({want})"] += 1
            elif A_MOLES_BRIDGE in legal:
                self.bad("the Moles' bridge action offered to another faction")
        elif kind == Kind.PALACE15:
            parts = self.p15_parts.setdefault(seat, {1, 2, 3})
            want = 2 in parts and bool(bridge_placements(g, seat, moles=False))
            if (P15_BRIDGES in legal) != want:
                self.bad(f"palace 15 bridges part offered {P15_BRIDGES in legal}, oracle {want} (R135)")
            self.tally["palace 15 bridges part checked"] += 1
            parts.discard(action - COUNT_BASE + 1)
            if action == P15_BRIDGES:
                self.bridge_todo = (seat, False, 2)
                self._expect_cost(seat, (0, 0, 0, 0, 0))  # R135: 2 free bridges
                self.tally["bridge action: palace 15"] += 1
        elif kind == Kind.BRIDGE_END:
            todo = self.bridge_todo
            if todo is None or todo[0] != seat or todo[2] <= 0:
                self.bad(f"BRIDGE_END of seat {seat} without a bridge to place ({todo})")
                return
            spots = bridge_placements(g, seat, todo[1])
            want = sorted({HEX_BASE + e for pair in spots for e in pair})
            if sorted(legal) != want:
                self.bad(f"bridge ends {sorted(legal)} != oracle {want} (R40 / OP-47, moles={todo[1]})")
            self.tally["bridge ends compared"] += 1
            self.bridge_end = action - HEX_BASE
        elif kind == Kind.BRIDGE_DIR:
            todo = self.bridge_todo
            if todo is None or todo[0] != seat:
                self.bad(f"BRIDGE_DIR of seat {seat} without a bridge to place")
                return
            end = self.bridge_end
            spots = bridge_placements(g, seat, todo[1])
            want = sorted(HEX_BASE + (b if a == end else a) for a, b in spots if end in (a, b))
            if sorted(legal) != want:
                self.bad(f"bridge partners of {end}: {sorted(legal)} != oracle {want}")
            self.tally["bridge partners compared"] += 1
            other = action - HEX_BASE
            self.verify = (*_pair(end, other), seat)
            self.bridge_todo = (seat, todo[1], todo[2] - 1)
            h = g.state.hexes
            t = self.turn
            if t is not None:
                t.touch |= {int(h[e, H_OWNER]) for e in (end, other) if h[e, H_BUILDING] > 0} - {seat}
            if todo[1] and _pair(end, other) not in geo_of(g).printed:
                self.tally["Moles bridge off the printed locations"] += 1
            geo = geo_of(g)
            flanks = [_pos_of_cube(c) for c in _common_neighbours(end, other)]
            if todo[1] and any(q is not None and geo.land[q] for q in flanks):
                self.tally["Moles bridge over land (OP-47)"] += 1
        elif kind == Kind.TB_TARGET and row[3] == TB_BUY | TB_BUILD:
            self._tb_reach(seat, legal, "TB_TARGET", free=row[2])
        elif kind == Kind.TB_FINISH and row[2] > 0:
            self._tb_reach(seat, legal, "TB_FINISH", first=row[4])
        elif kind == Kind.SPADES:
            self._tb_reach(seat, legal, "SPADES")

    def _verify_bridge(self) -> None:
        a, b, seat = self.verify  # type: ignore[misc]
        self.verify = None
        g = self.g
        self.bridges.append((a, b, seat))
        if (a, b, seat) not in bridge_rows(g.state):
            self.bad(f"bridge {(a, b, seat)} not in the bridge table {bridge_rows(g.state)}")
        if not (g.adjacency()[a, b] and g.adjacency()[b, a] and b in g.neighbours()[a] and a in g.neighbours()[b]):
            self.bad(f"bridge {a}-{b} does not make its ends adjacent (R38)")
        self.tally["bridges built"] += 1
        if self.bridge_cost is not None:
            want_seat, want = self.bridge_cost
            got = self._resources(seat)
            if want_seat != seat or got != want:
                self.bad(f"seat {seat} after its bridge has (tools, coins, bowls) {got}, expected {want}")
            self.tally["bridge costs checked"] += 1
        if sum(1 for *_, o in self.bridges if o == seat) == BRIDGES_PER_PLAYER:
            self.tally["a player reached 3 bridges"] += 1

    def _tb_reach(self, seat: int, legal: list[int], what: str, free: int = 0, first: int = -1) -> None:
        """R39 through bridges: every end of a bridge location next to an own building is a target
        exactly when it is empty land in reach and the rules of the decision allow it: a plain TB's
        first hex (R61: non-native with a spade to pay, R64: native with a Workshop to build), a
        TB's leftover free spades (R63.3: other non-native hexes in reach), Phase III / setup
        spades (R81, R23 / OP-37: non-native hexes in reach)."""
        g = self.g
        geo = geo_of(g)
        s = g.state
        p = s.players[seat]
        own = set(own_hexes(s, seat))
        reach, no_bridge = oracle_reach(g, seat)
        native = int(p[P_BOARD])
        h = s.hexes
        workshops = int(
            ((h[:, H_OWNER] == seat) & (h[:, H_BUILDING] == Building.WORKSHOP) & (h[:, H_NEUTRAL] == 0)).sum()
        )
        spade_ok = free > 0 or int(p[P_TOOLS]) >= TOOLS_PER_SPADE[int(p[P_TERRAFORMING])]
        workshop_ok = (
            workshops < WORKSHOP_PIECES and int(p[P_TOOLS]) >= WORKSHOP_TOOLS and int(p[P_COINS]) >= WORKSHOP_COINS
        )
        legal_set = set(legal)
        for a, b in geo.moles:
            for x, y in ((a, b), (b, a)):
                if x not in own:
                    continue
                empty = h[y, H_BUILDING] == 0
                ok = bool(empty and y in reach)
                if ok and what == "TB_TARGET":
                    ok = spade_ok if int(h[y, H_TERRAIN]) != native else workshop_ok
                elif ok:
                    ok = int(h[y, H_TERRAIN]) != native and y != first
                if (HEX_BASE + y in legal_set) != ok:
                    self.bad(
                        f"{what} hex {y} (bridge end next to {x}) offered {HEX_BASE + y in legal_set}, oracle {ok}"
                    )
                self.tally[f"bridge-end {what} hexes compared"] += 1
                if ok and y not in no_bridge:
                    self.tally[f"{what} hex in reach only through a bridge (R38, R39)"] += 1


def _pos_of_cube(c: tuple[int, int, int]) -> int | None:
    x, _, z = c
    r = z
    col = x + (r - (r & 1)) // 2
    if 0 <= r < NROWS and 0 <= col < NCOLS:
        return r * NCOLS + col
    return None


# --------------------------------------------------------------------------------------------
# watching a game


class Watch:
    def __init__(self) -> None:
        self.oracle: Oracle | None = None
        self.real: tuple[int, int | None] | None = None


@contextmanager
def watching(watch: Watch) -> Iterator[None]:
    """Feed every applied decision (forced ones too) and the sequence's automatic steps to the
    oracle (read-only wrappers around ``Game._apply`` and the AUTO table, restored after)."""
    original_apply = Game._apply
    autos = {
        k: AUTO[k] for k in (Kind.INCOME_SEAT, Kind.SCIENCE_SEAT, Kind.AUTOMA_TURN, Kind.AUTOMA_STEP, Kind.END_TURN)
    }

    def wrapped_apply(g: Game, action: int) -> None:
        o = watch.oracle
        if o is not None and o.g is g:
            row = pending.top(g.state)
            assert row is not None
            kind, seat = row[0], row[1]
            if watch.real is not None:  # the decision the player was shown: the public API's view
                pub_seat, pub_kind = watch.real
                watch.real = None
                if (pub_seat, pub_kind) != (seat, kind):
                    o.bad(f"current_seat/pending_kind {(pub_seat, pub_kind)} != applied {(seat, kind)}")
                legal = g.legal_actions()
                o.tally["real decisions"] += 1
            else:
                legal = sorted(HANDLERS[kind].legal(g, row))
                o.tally["forced decisions"] += 1
            o.on_decision(kind, seat, action, legal, row)
            o.bridge_checks(kind, seat, action, legal, row)
        original_apply(g, action)

    def wrap(kind: int):  # noqa: ANN202
        fn = autos[kind]

        def inner(g: Game, row: list[int]) -> None:
            o = watch.oracle
            if o is not None and o.g is g:
                o.on_auto(kind, row[1])
            fn(g, row)
            if o is not None and o.g is g and kind == Kind.AUTOMA_TURN:
                o.after_automa_turn(row[1])

        return inner

    Game._apply = wrapped_apply  # type: ignore[method-assign]
    for k in autos:
        AUTO[k] = wrap(k)
    try:
        yield
    finally:
        Game._apply = original_apply  # type: ignore[method-assign]
        for k, fn in autos.items():
            AUTO[k] = fn


@dataclass
class Results:
    problems: list[str] = field(default_factory=list)
    tally: Counter[str] = field(default_factory=Counter)
    factions: set[str] = field(default_factory=set)
    boards: set[str] = field(default_factory=set)
    configs: set[str] = field(default_factory=set)


def play(game: str, seed: int, biased: bool, res: Results) -> None:
    rng = np.random.default_rng(seed + 4242)
    watch = Watch()
    with watching(watch):
        g = Game.__new__(Game)  # the oracle must see the setup decisions made inside __init__
        watch.oracle = Oracle(g, GameConfig.parse(game), f"{game} seed {seed}", res.tally, res.problems)
        Game.__init__(g, game, seed=seed)
        o = watch.oracle
        while not g.is_over():
            a = biased_random_action(g, rng) if biased else random_action(g, rng)
            watch.real = (g.current_seat(), g.pending_kind())
            g.apply_action(a)
        o.finish()
    for s in range(g.seats):
        if g.is_player(s):
            res.factions.add(Faction(int(g.state.players[s, P_FACTION])).name.lower())
            res.boards.add(Terrain(int(g.state.players[s, P_BOARD])).name.lower())
    res.configs.add(game)


CONFIGS = [  # (game, seeds, biased): 2-5 players, both rulesets, standard / draft / fixed, Automa
    ("aoi(players=2)", range(0, 8), True),
    ("aoi(players=3)", range(0, 8), True),
    ("aoi(players=4)", range(0, 6), True),
    ("aoi(players=5)", range(0, 6), True),
    ("aoi(players=3,map=1-3)", range(0, 4), True),
    ("aoi(players=4,ruleset=v1.0)", range(0, 6), True),
    ("aoi(players=2,ruleset=v1.0)", range(0, 6), True),
    ("aoi(players=3,distribution=draft)", range(0, 6), True),
    ("aoi(players=5,ruleset=v1.0,distribution=draft)", range(0, 4), True),
    ("aoi(players=3,skip_forced=false)", range(0, 4), True),
    ("aoi(players=4,setup_choices=random)", range(0, 4), True),
    ("aoi(players=3,factions=moles+psychics+illusionists,boards=plains+lake+mountain)", range(0, 10), True),
    ("aoi(players=4,ruleset=v1.0,factions=psychics+moles+lizards+omar,boards=swamp+forest+wasteland+desert)",
     range(0, 8), True),
    ("aoi(players=2,factions=moles+psychics,skip_forced=false)", range(0, 6), True),
    ("aoi(players=5,factions=blessed+felines+goblins+inventors+monks)", range(0, 3), True),
    ("aoi(players=5,factions=navigators+philosophers+moles+psychics+illusionists)", range(0, 3), True),
    ("aoi(players=3)", range(100, 106), False),
    ("aoi(players=2,ruleset=v1.0)", range(100, 106), False),
    ("aoi(players=5)", range(100, 103), False),
    ("aoi(players=1,automa=simpletons:2)", range(0, 5), True),
    ("aoi(players=2,automa=druids:3)", range(0, 4), True),
    ("aoi(players=1,automa=simpletons:2,skip_forced=false)", range(10, 12), False),
]  # fmt: skip


@pytest.fixture(scope="module")
def results() -> Results:
    res = Results()
    t0 = time.perf_counter()
    for game, seeds, biased in CONFIGS:
        for seed in seeds:
            play(game, seed, biased, res)
    res.tally["seconds"] = int(time.perf_counter() - t0)
    return res


# --------------------------------------------------------------------------------------------
# tests


def test_r56_r58_r78_flow_matches_the_oracle_at_every_decision(results: Results) -> None:
    """R4, R15.4, R16.7, R16.8, R17.9, R56, R57, R58, R59, R78, R78.4, R79, R80, R82, R100 /
    OP-42, OP-58, OP-61, R42 / OP-56: at every decision of the random games (2-5 players, both
    rulesets, standard / draft / fixed distribution, Automa games) the seat, kind, round, phase,
    turn order, passing order and passed flags equal the independently tracked flow."""
    print(sorted(results.tally.items()))
    assert results.problems == [], "\n".join(results.problems[:25])
    t = results.tally
    assert t["games"] == sum(len(seeds) for _, seeds, _ in CONFIGS)
    assert t["decisions"] >= 20000
    assert t["turns"] >= 8000
    assert t["passes"] == sum(
        6 * (int(g.split("players=")[1][0]) + (g.count(":") if "automa" in g else 0)) * len(seeds)
        for g, seeds, _ in CONFIGS
    )
    for label in (
        "income", "science bonus", "automa turns", "automa passes", "pass without POST", "pass bonus taken",
        "conversions before the action", "conversions after the action", "R80 cleanup checked",
        "R78.4 new order = passing order", "start player: first draft pick (R16.7)",
        "start player: last set pick (R15.4)", "start player: automa game", "income decisions",
        "science decisions", "forced decisions",
    ):  # fmt: skip
        assert t[label] > 0, label


def test_r42_offers_answered_out_of_turn_clockwise_from_the_builder(results: Results) -> None:
    """R42 / OP-56: power offers are the only decisions other seats take in someone's turn (apart
    from city rewards after a bridge, OP-33); each build's offers go clockwise from the builder,
    once per seat, to passed players too, and in the Automa's turns to the player seats."""
    assert results.problems == [], "\n".join(results.problems[:25])
    t = results.tally
    assert t["offers"] >= 500
    assert t["offers to passed players (OP-56)"] > 0
    assert t["offers in an Automa turn"] > 0


def test_r100_op42_psychics_second_action(results: Results) -> None:
    """R100 / OP-42 / OP-59 / OP-61: the Psychics' special action is followed by a second MAIN
    decision of the same seat in the same turn (conversions allowed, Pass allowed, the special not
    offered again), once per round; the turn then has two actions and one POST."""
    assert results.problems == [], "\n".join(results.problems[:25])
    t = results.tally
    assert t["Psychics special"] >= 20
    assert t["Psychics second action (OP-42)"] >= 10
    assert t["Psychics second-action MAIN"] >= t["Psychics special"]


def test_every_faction_and_board_played(results: Results) -> None:
    """Coverage: all 12 factions and all 7 planning boards took part in the checked games."""
    assert results.factions == {f.name.lower() for f in Faction}
    assert results.boards == {t.name.lower() for t in Terrain if t < Terrain.RIVER}


def test_r40_bridges_match_the_oracle_at_every_decision(results: Results) -> None:
    """R40, R2 / R3, R139 S1, R138 B6, R95 / OP-47, R135, R38, R39, OP-58: S1, B6's special, the
    Moles' action and palace 15's bridge part are offered exactly when a legal placement exists;
    BRIDGE_END / BRIDGE_DIR offer exactly the oracle's placements (both directions); each built
    bridge lands in the bridge table with its owner, makes its ends adjacent and gives reach."""
    assert results.problems == [], "\n".join(results.problems[:25])
    t = results.tally
    for label in (
        "S1 legality checked (True)", "S1 legality checked (False)", "B6 legality checked (True)",
        "B6 legality checked (False)", "Moles bridge legality checked (True)",
        "Moles bridge legality checked (False)", "bridge action: S1", "bridge action: B6",
        "bridge action: Moles", "bridge ends compared", "bridge partners compared",
        "Moles bridge off the printed locations", "bridge-end TB_TARGET hexes compared",
        "TB_TARGET hex in reach only through a bridge (R38, R39)", "a player reached 3 bridges",
        "bridge-end TB_FINISH hexes compared", "bridge-end SPADES hexes compared",
        "SPADES hex in reach only through a bridge (R38, R39)",
        "bridge costs checked", "palace 15 bridges part checked", "bridge action: palace 15",
        "second palace-15 bridge impossible, dropped", "Moles bridge over land (OP-47)",
    ):  # fmt: skip
        assert t[label] > 0, label
    assert t["bridges built"] >= 200


# --------------------------------------------------------------------------------------------
# static checks: the bridge locations of both board sides (OP-12)


@pytest.mark.parametrize("side", ["3-5", "1-3"])
def test_op12_printed_bridge_locations_are_the_engine_spots(side: str) -> None:
    """OP-12 / R40: the engine's bridge locations are the ones DATA.md §2 lists for the side (3-5:
    the 31 printed ones, CONFIRMED; 1-3: the 16 geometric candidates, INFERRED, MISSING on the
    physical board), and every one has the bridge geometry of R95 / OP-47."""
    g = Game(f"aoi(players=3,map={side})", seed=0)
    engine = {_pair(int(a), int(b)) for a, b in g.geo.bridge_spots}
    assert engine == printed_spots(side)
    geo = geo_of(g)
    assert geo.printed <= geo.moles
    assert {_pair(int(a), int(b)) for a, b in g.geo.bridge_geometry} == geo.moles


def test_op12_3_5_side_locations_cross_a_river() -> None:
    """DATA.md §2.2: 30 of the 31 printed locations are exactly the land pairs of bridge shape whose
    two common neighbours are both river hexes; the 31st, (6,0)-(8,0), crosses river (7,0) at the
    map's left edge."""
    g = Game("aoi(players=3)", seed=0)
    geo = geo_of(g)
    interior = set()
    for a, b in geo.moles:
        flanks = [_pos_of_cube(c) for c in _common_neighbours(a, b)]
        if all(q is not None and geo.river[q] for q in flanks):
            interior.add((a, b))
    edge = {_pair(_pos((6, 0)), _pos((8, 0)))}
    assert len(interior) == 30
    assert interior | edge == geo.printed
