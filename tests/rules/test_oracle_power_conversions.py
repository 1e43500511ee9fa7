"""Independent oracle for power, conversions and the main board's action spaces, in random games.

RULES.md and the rulebooks ([UA] v1.2 "ДОДАТКОВА МОЖЛИВІСТЬ: ПЕРЕТВОРЕННЯ РЕСУРСІВ" / "ДІЇ СИЛИ ТА
ДІЇ КНИЖОК" / Додаток VI, [PL] v1.0 "Zamiana Zasobów") are re-read here; nothing is taken from the
engine's rule code (``rules/power.py``, ``turn.conversions``, ``turn.main_actions``,
``effects.feasible``, ``terraform.has_tb_target``, the ``tables`` costs or ``components.yaml``):

* R29-R31: tokens move I -> II -> III -> I only; a gain of n moves I -> II while I has tokens,
  then II -> III, the rest is lost; spending n moves n tokens III -> I and needs |III| >= n.
  Every bowl change of every player at every decision of the game is classified: a gain
  (shape of R30: I never grows, III grows only once I is empty, the token count is kept), a
  spend (III -> I, only by the acting player's conversion or spell), a sacrifice (R33, only by
  the acting player's ``convert burn``), or new tokens straight into bowl III (R32, only the
  neutral Palace innovation, R117: +2, once).  The token count is always
  12 - sacrificed + added (R2, R32, R33).  Exact gains are checked where the amount is known:
  offers (R42.5: min(v, capacity, VP + 1), paying gained - 1 VP), the Psychics' special action
  (R100: 5 P, then a second action), the book action BA1 (R139: 5 P).
* R87 / R17.4: starting bowls 5/7 (Forest 4/8, Swamp 3/9), plus the setup thresholds (R49).
* R79 (and R33): the conversion ids offered are exactly: burn iff |II| >= 2; 5 P -> scholar iff
  |III| >= 5 and a scholar in the personal supply; 5 P -> book (4 colours) iff |III| >= 5;
  3 P -> tool iff |III| >= 3; 1 P -> coin iff |III| >= 1; scholar -> tool iff a scholar is held;
  tool -> coin iff a tool is held; book -> coin per colour held.  No faction (R89-R100) and no
  planning board (R87: "Conversion chart: R79" on every board) changes them.  Offered only in
  one's own Phase II turn: before / after the action (MAIN, POST) and, OP-59, before a bonus TB
  received inside the turn (TB_TARGET with free spades or the Lizards' TB); never in the middle
  of another decision, never in another player's turn (offers, Phase I / III).  Each applied
  conversion must change exactly the resources R79 names.
* R75 / R139: the six spells in printed order S1 (3) S2 (3) S4 (4) S5 (4) S3 (4) S6 (6), paid
  from bowl III (R31); Illusionists pay 1 less and score +1 VP (2-3 players) / +2 VP (4-5) in
  v1.2, +3 VP / +4 VP (5 players) in v1.0 (R92, R145, OP-13); each spell and each book action
  space is usable by one player once per round (X token, tracked here from the moves played and
  cleared when the round changes, R80); a spell / book action is offered only if its main
  effect can be carried out (OP-58): S1 a printed bridge location next to an own building with no
  bridge yet and a bridge left (R40), S2 a scholar in the supply, S3 / S6 / BA6 a first hex for a
  TB with free spades (R61, R39 reach, R63, OP-35, the Moles' tunnel R95, Palace 9's flight
  R129), BA1 capacity > 0, BA3 a Guild on the map (OP-52: neutral ones count), BA4 a step
  that can be gained (R50, R52), BA5 an own Workshop and a Guild piece left.  Book actions cost
  1/2/2/1/2/3 books of any colours.  When a spell or book action is taken, its cost, its
  immediate effect (S2 +1 scholar, S4 +2 tools, S5 +7 coins, BA1 +5 P, BA2 +6 coins,
  BA3 +2 VP per Guild) and the decision it opens (S1 bridge, S3 / S6 / BA6 TB with 1 / 2 / 3
  free spades, BA4 2 steps in one discipline, BA5 free Guild upgrade) are compared.
* R33 / R79 "affordability including sacrifice": whenever a spell is out of reach only for lack
  of bowl-III power but |III| + floor(|II| / 2) covers it, burning on a copy of the game until
  |III| suffices must make the spell appear.

Games: every faction and planning board, 2-5 players, v1.0 and v1.2, standard / draft
distribution and fixed seats, both map sides, ``skip_forced=false`` (so every decision is
seen); random play uniform, ``biased_random_action``, and a policy that likes spells, book
actions and burning.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from aoi_env.core.board import hex_name
from aoi_env.core.engine import Game
from aoi_env.core.moves import (
    A_PASS,
    BOOK_BASE,
    CONVERT_BASE,
    DISC_BASE,
    DONE,
    SPECIAL_BASE,
    SPELL_BASE,
    YES,
)
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_BOOK_ACTIONS,
    G_BOOKS_USED,
    G_DEPTH,
    G_NEUTRAL_SCIENCE,
    G_ORDER,
    G_PHASE,
    G_ROUND,
    G_SPELLS_USED,
    G_TURN,
    H_BUILDING,
    H_TERRAIN,
    P_BOARD,
    P_BOOKS,
    P_BOWLS,
    P_BURNED,
    P_CITIES,
    P_COINS,
    P_FACTION,
    P_INNOVATIONS,
    P_PALACE_TILE,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_SPECIALS_USED,
    P_TOOLS,
    P_VP,
    Phase,
)
from aoi_env.data import load
from aoi_env.data.enums import Faction, Terrain
from aoi_env.testing import Scenario, biased_random_action, random_action
from tests.rules.oracle_common import (
    DEFAULT_BOWLS,
    DISC,
    PIECES,
    adjacency,
    built_bridges,
    distances,
    free_bridge_spots,
    gain_power,
    illusionist_vp,
    own_hexes,
    seat_reach,
    threshold_power,
)

# --------------------------------------------------------------------------------------------
# the printed numbers, typed in from RULES.md / the rulebooks

I, II, III = P_BOWLS.start, P_BOWLS.start + 1, P_BOWLS.start + 2
BOOKS = P_BOOKS.start
TOKENS = 12  # R2
START_BOWLS = {Terrain.FOREST: (4, 8, 0), Terrain.SWAMP: (3, 9, 0)}  # R87; all others 5/7/0
KEY_LEVEL, TOP = 8, 12  # R50, R52

# R79, as (notation, {field: delta}); offsets inside the CONVERT block (moves.py docstring order)
BURN = 0
CONVERSIONS: list[tuple[str, dict[int, int]]] = [
    ("burn", {II: -2, III: +1}),  # R33 (one token leaves the game)
    ("5pw scholar", {III: -5, I: +5, P_SCHOLARS: +1, P_SCHOLAR_SUPPLY: -1}),
    *((f"5pw book {d}", {III: -5, I: +5, BOOKS + i: +1}) for i, d in enumerate(DISC)),
    ("3pw tool", {III: -3, I: +3, P_TOOLS: +1}),
    ("1pw coin", {III: -1, I: +1, P_COINS: +1}),
    ("scholar tool", {P_SCHOLARS: -1, P_SCHOLAR_SUPPLY: +1, P_TOOLS: +1}),
    ("tool coin", {P_TOOLS: -1, P_COINS: +1}),
    *((f"book {d} coin", {BOOKS + i: -1, P_COINS: +1}) for i, d in enumerate(DISC)),
]

# R139, printed order on the main board (S1 S2 S4 S5 S3 S6): (id, power cost, effect)
SPELLS = (("S1", 3, "bridge"), ("S2", 3, "scholar"), ("S4", 4, "tools"), ("S5", 4, "coins"),
          ("S3", 4, "tb1"), ("S6", 6, "tb2"))  # fmt: skip
BOOK_ACTIONS = (("BA1", 1), ("BA2", 2), ("BA3", 2), ("BA4", 1), ("BA5", 2), ("BA6", 3))  # (id, books)


WORKSHOP, GUILD, SCHOOL = 1, 2, 3  # Building values
PALACE_9 = 8  # 0-based palace tile id: flight (R129)
_DATA = load()
NEUTRAL_PALACE = _DATA.innovation_keys.index("neutral_palace")  # R117: +2 tokens into bowl III


# --------------------------------------------------------------------------------------------
# the oracle: power


def bowls_of(row: np.ndarray) -> tuple[int, int, int]:
    return int(row[I]), int(row[II]), int(row[III])


def is_gain_shape(b: tuple[int, int, int], a: tuple[int, int, int]) -> bool:
    """R30: a = gain(b, n) for some n >= 0."""
    if sum(a) != sum(b) or a[0] > b[0] or a[2] < b[2]:
        return False
    return a[2] == b[2] or a[0] == 0


# --------------------------------------------------------------------------------------------
# the oracle: what may be done


def expected_conversions(row: np.ndarray) -> set[int]:
    """R79 / R33: the conversion offsets the player may make now."""
    out = set()
    if row[II] >= 2:
        out.add(BURN)
    if row[III] >= 5 and row[P_SCHOLAR_SUPPLY] > 0:
        out.add(1)
    if row[III] >= 5:
        out.update(2 + d for d in range(4))
    if row[III] >= 3:
        out.add(6)
    if row[III] >= 1:
        out.add(7)
    if row[P_SCHOLARS] > 0:
        out.add(8)
    if row[P_TOOLS] > 0:
        out.add(9)
    out.update(10 + d for d in range(4) if row[BOOKS + d] > 0)
    return out


def reach(g: Game, seat: int) -> set[int]:
    """R39 / R38: land hexes adjacent (edge or bridge) to an own building (neutral ones included,
    pavilions are not buildings), or behind 1..s river hexes; s = track + 1 with B1 in Phase II (R138)."""
    return seat_reach(g.geo, g.state, seat)


def _graph_dist(g: Game, seat: int, depth: int) -> dict[int, int]:
    """Distance (hex edges and bridges, land or river) from the own buildings, up to ``depth``."""
    return distances(adjacency(g.geo.neighbors, built_bridges(g.state)), own_hexes(g.state, seat), depth)


def tb_feasible(g: Game, seat: int, free: int) -> bool:
    """OP-58 / R60-R64 / OP-35: a TB with ``free`` (>= 1) free spades has a first hex: an unbuilt
    non-native land hex in reach (one free spade suffices, R63.2), or an unbuilt native one in reach
    where a Workshop can be built (a piece left, 1 tool + 2 coins); the Moles may tunnel for 1 tool
    to a hex at distance exactly 2 (R95), Palace 9 flies for 1 scholar to distance 2-3 (R129)."""
    assert free >= 1
    s = g.state
    p = s.players[seat]
    h = s.hexes
    native = int(p[P_BOARD])
    pieces = PIECES[WORKSHOP] - len(own_hexes(g.state, seat, WORKSHOP, neutral=False))

    def ok(area: set[int], tools: int) -> bool:
        build = pieces > 0 and tools >= 1 and p[P_COINS] >= 2
        for q in area:
            if not g.geo.land[q] or h[q, H_BUILDING] > 0:
                continue
            if h[q, H_TERRAIN] != native or build:
                return True
        return False

    if ok(reach(g, seat), int(p[P_TOOLS])):
        return True
    moles = p[P_FACTION] == Faction.MOLES and p[P_TOOLS] >= 1
    flight = p[P_PALACE_TILE] == PALACE_9 and p[P_SCHOLARS] >= 1
    if moles or flight:
        dist = _graph_dist(g, seat, 3)
        if moles and ok({q for q, d in dist.items() if d == 2}, int(p[P_TOOLS]) - 1):
            return True
        if flight and ok({q for q, d in dist.items() if d in (2, 3)}, int(p[P_TOOLS])):
            return True
    return False


def bridge_feasible(g: Game, seat: int) -> bool:
    """R40 / R139 S1: a bridge left, a printed location with an own building at one end and no
    bridge there yet."""
    return bool(free_bridge_spots(g.geo.bridge_spots, g.state, seat))


def step_feasible(g: Game, seat: int) -> bool:
    """R50 / R52: some discipline where one more step would be gained."""
    s = g.state
    p = s.players[seat]
    levels = [int(x) for x in p[P_SCIENCE]]
    keys = int(p[P_CITIES]) - sum(1 for lvl in levels if lvl >= KEY_LEVEL)
    for d, lvl in enumerate(levels):
        if lvl >= TOP:
            continue
        if lvl == TOP - 1:
            others = [int(s.players[o, P_SCIENCE.start + d]) for o in range(s.seats) if o != seat]
            if max(others + [int(s.glob[G_NEUTRAL_SCIENCE.start + d])]) >= TOP:
                continue
        if lvl == KEY_LEVEL - 1 and keys <= 0:
            continue
        return True
    return False


def guilds_on_map(g: Game, seat: int) -> int:
    return len(own_hexes(g.state, seat, GUILD))  # OP-52: neutral Guilds count


def spell_cost(g: Game, seat: int, i: int) -> int:
    return SPELLS[i][1] - (1 if g.state.players[seat, P_FACTION] == Faction.ILLUSIONISTS else 0)


def spell_effect_possible(g: Game, seat: int, effect: str) -> bool:
    if effect == "bridge":
        return bridge_feasible(g, seat)
    if effect == "scholar":
        return bool(g.state.players[seat, P_SCHOLAR_SUPPLY] > 0)
    if effect in ("tb1", "tb2"):
        return tb_feasible(g, seat, int(effect[2]))
    return True  # tools, coins


def book_effect_possible(g: Game, seat: int, k: int) -> bool:
    p = g.state.players[seat]
    if k == 0:  # BA1: 5 power
        return 2 * int(p[I]) + int(p[II]) > 0
    if k == 2:  # BA3: 2 VP per Guild
        return guilds_on_map(g, seat) > 0
    if k == 3:  # BA4: 2 steps in one discipline
        return step_feasible(g, seat)
    if k == 4:  # BA5: free Workshop -> Guild
        own_guilds = len(own_hexes(g.state, seat, GUILD, neutral=False))
        return own_guilds < PIECES[GUILD] and bool(own_hexes(g.state, seat, WORKSHOP, neutral=False))
    if k == 5:  # BA6: TB with 3 free spades
        return tb_feasible(g, seat, 3)
    return True  # BA2: 6 coins


# --------------------------------------------------------------------------------------------
# the watcher


@dataclass
class Stats:
    decisions: int = 0
    mains: int = 0
    posts: int = 0
    tb_conversions: int = 0
    conversion_sets: int = 0
    applied_conversions: Counter = field(default_factory=Counter)
    applied_spells: Counter = field(default_factory=Counter)
    applied_books: Counter = field(default_factory=Counter)
    illusionist_spells: Counter = field(default_factory=Counter)  # (ruleset, players) -> n
    blocked: int = 0  # spell / book spaces withheld only because of their X token
    infeasible: Counter = field(default_factory=Counter)  # spells withheld only for their main effect (OP-58)
    lizard_tb: int = 0  # conversions before the Lizards' city TB (OP-59)
    foreign_tb: int = 0  # bonus TBs outside one's own turn: no conversions (R79)
    book_payments: int = 0
    burn_to_afford: int = 0
    psychics: int = 0
    offers: int = 0
    gains: int = 0
    adds: int = 0
    start_bowls: int = 0
    factions: set = field(default_factory=set)
    boards: set = field(default_factory=set)
    rulesets: set = field(default_factory=set)
    players: set = field(default_factory=set)

    def merge(self, other: Stats) -> None:
        for k, v in vars(other).items():
            mine = getattr(self, k)
            if isinstance(v, (Counter, set)):
                mine.update(v)
            else:
                setattr(self, k, mine + v)


def _top(g: Game) -> list[int] | None:
    d = int(g.state.glob[G_DEPTH])
    return [int(x) for x in g.state.stack[d - 1]] if d else None


def _turn_seat(g: Game) -> int:
    glob = g.state.glob
    if glob[G_PHASE] != Phase.ACTIONS:
        return -1
    return int(glob[G_ORDER.start + int(glob[G_TURN])])


class Watcher:
    def __init__(self, g: Game, stats: Stats) -> None:
        self.g = g
        self.st = stats
        self.round = -1
        self.spells_used: set[int] = set()
        self.books_used: set[int] = set()  # book action type ids
        self.burned = [0] * g.seats
        self.added = [0] * g.seats
        self.started = [False] * g.seats
        self.book_pending: dict[int, int] = {}  # seat -> book action being paid
        self.ruleset = g.config.ruleset
        self.nplayers = g.config.players
        self._tokens()

    # -- before a decision ---------------------------------------------------------------

    def before(self) -> None:
        g = self.g
        s = g.state
        if int(s.glob[G_ROUND]) != self.round:  # R80: X tokens come off between rounds
            self.round = int(s.glob[G_ROUND])
            self.spells_used.clear()
            self.books_used.clear()
        # the engine's X tokens agree with the moves played this round (R75)
        assert {i for i in range(6) if s.glob[G_SPELLS_USED.start + i]} == self.spells_used
        slots = [int(k) for k in s.glob[G_BOOK_ACTIONS]]
        assert {slots[j] for j in range(3) if s.glob[G_BOOKS_USED.start + j]} == self.books_used
        legal = g.legal_actions()
        moves = g.legal_moves()
        row = _top(g)
        kind, seat = row[0], row[1]
        self.st.decisions += 1
        conv = {a - CONVERT_BASE for a in legal if CONVERT_BASE <= a < CONVERT_BASE + len(CONVERSIONS)}
        spells = {a - SPELL_BASE for a in legal if SPELL_BASE <= a < SPELL_BASE + 6}
        books = {a - BOOK_BASE for a in legal if BOOK_BASE <= a < BOOK_BASE + 6}
        for a, text in zip(legal, moves, strict=True):  # the ids mean what R79 / R139 print
            if CONVERT_BASE <= a < CONVERT_BASE + len(CONVERSIONS):
                assert text == f"convert {CONVERSIONS[a - CONVERT_BASE][0]}", (a, text)
            elif SPELL_BASE <= a < SPELL_BASE + 6 and kind == Kind.MAIN:
                assert text == f"spell {SPELLS[a - SPELL_BASE][0]}", (a, text)
            elif BOOK_BASE <= a < BOOK_BASE + 6 and kind == Kind.MAIN:
                assert text == f"book {BOOK_ACTIONS[a - BOOK_BASE][0]}", (a, text)
        own_turn = seat == _turn_seat(g)
        p = s.players[seat]
        if kind in (Kind.MAIN, Kind.POST):
            assert own_turn and s.glob[G_PHASE] == Phase.ACTIONS, "R79: conversions only in one's own turn"
            assert conv == expected_conversions(p), (kind, conv, expected_conversions(p), bowls_of(p))
            self.st.conversion_sets += 1
            self.st.posts += kind == Kind.POST
        elif kind == Kind.TB_TARGET and own_turn and (row[2] > 0 or row[3] & 4):  # OP-59, TB_LIZARD = 4
            assert conv == expected_conversions(p), (conv, expected_conversions(p))
            self.st.tb_conversions += 1
            self.st.lizard_tb += bool(row[3] & 4)
        else:
            self.st.foreign_tb += kind == Kind.TB_TARGET and row[2] > 0 and not own_turn
            assert not conv, f"R79 / OP-59: conversions offered at {Kind(kind).name} (own turn {own_turn})"
        if kind == Kind.PAY_BOOKS and seat in self.book_pending:  # R75: books of any colours held
            assert sorted(legal) == [DISC_BASE + d for d in range(4) if p[BOOKS + d] > 0], legal
            self.st.book_payments += 1
        if kind != Kind.MAIN:
            return
        self.st.mains += 1
        want_spells = set()
        for i, (_, _, effect) in enumerate(SPELLS):
            possible = spell_effect_possible(g, seat, effect)
            cost = spell_cost(g, seat, i)
            if i in self.spells_used:
                self.st.blocked += int(possible and p[III] >= cost)
                continue
            if p[III] >= cost and not possible:
                self.st.infeasible[SPELLS[i][0]] += 1
            if p[III] >= cost and possible:
                want_spells.add(i)
            elif possible and p[III] < cost <= p[III] + p[II] // 2:
                self._burn_to_afford(seat, i, cost)
        assert spells == want_spells, (
            f"spells offered {sorted(SPELLS[i][0] for i in spells)}, "
            f"expected {sorted(SPELLS[i][0] for i in want_spells)}; bowls {bowls_of(p)}"
        )
        want_books = set()
        total_books = int(p[P_BOOKS].sum())
        for k in slots:
            if k in self.books_used:
                self.st.blocked += int(total_books >= BOOK_ACTIONS[k][1] and book_effect_possible(g, seat, k))
                continue
            if total_books >= BOOK_ACTIONS[k][1] and book_effect_possible(g, seat, k):
                want_books.add(k)
        assert books == want_books, (sorted(books), sorted(want_books))

    def _burn_to_afford(self, seat: int, i: int, cost: int) -> None:
        """R33 / R79: sacrifice until bowl III pays the spell; then it must be offered."""
        c = self.g.clone()
        while c.state.players[seat, III] < cost:
            c.apply_action(CONVERT_BASE + BURN)
            assert _top(c)[0] == Kind.MAIN and _top(c)[1] == seat
        assert SPELL_BASE + i in c.legal_actions(), f"{SPELLS[i][0]} not offered after burning to {cost}"
        self.st.burn_to_afford += 1

    # -- after a decision ----------------------------------------------------------------

    def after(self, row: list[int], a: int, before: np.ndarray, before_hexes: np.ndarray) -> None:
        g = self.g
        s = g.state
        kind, seat = row[0], row[1]
        after = s.players
        top = _top(g)
        exact: dict[int, np.ndarray] = {}  # seats whose whole row is checked exactly
        if kind in (Kind.MAIN, Kind.POST, Kind.TB_TARGET) and CONVERT_BASE <= a < CONVERT_BASE + len(CONVERSIONS):
            c = a - CONVERT_BASE
            want = before[seat].copy()
            for f, d in CONVERSIONS[c][1].items():
                want[f] += d
            if c == BURN:
                want[P_BURNED] += 1
                self.burned[seat] += 1
            exact[seat] = want
            self.st.applied_conversions[CONVERSIONS[c][0]] += 1
            assert top is not None and top[:2] == row[:2] and top[2:4] == row[2:4], (top, row)
            assert (s.hexes == before_hexes).all()
        elif kind == Kind.MAIN and SPELL_BASE <= a < SPELL_BASE + 6:
            i = a - SPELL_BASE
            sid, _, effect = SPELLS[i]
            cost = spell_cost(g, seat, i)
            want = before[seat].copy()
            want[III] -= cost  # R31
            want[I] += cost
            if before[seat, P_FACTION] == Faction.ILLUSIONISTS:
                want[P_VP] += illusionist_vp(self.ruleset, self.nplayers)
                self.st.illusionist_spells[(self.ruleset, self.nplayers)] += 1
            if effect == "scholar":
                want[P_SCHOLARS] += 1
                want[P_SCHOLAR_SUPPLY] -= 1
            elif effect == "tools":
                want[P_TOOLS] += 2
            elif effect == "coins":
                want[P_COINS] += 7
            exact[seat] = want
            assert (s.hexes == before_hexes).all()
            self.spells_used.add(i)
            self.st.applied_spells[sid] += 1
            if effect == "bridge":
                assert top[:4] == [Kind.BRIDGE_END, seat, 0, 1], top
            elif effect in ("tb1", "tb2"):
                assert top[:4] == [Kind.TB_TARGET, seat, int(effect[2]), 3], top  # TB_BUY | TB_BUILD
            else:
                assert top[:2] == [Kind.POST, seat], top
        elif kind == Kind.MAIN and BOOK_BASE <= a < BOOK_BASE + 6:
            k = a - BOOK_BASE
            exact[seat] = before[seat].copy()  # nothing is paid yet: the books come next
            self.books_used.add(k)
            self.book_pending[seat] = k
            assert top[:3] == [Kind.PAY_BOOKS, seat, BOOK_ACTIONS[k][1]], top
        elif kind == Kind.PAY_BOOKS and seat in self.book_pending and row[2] == 1:
            k = self.book_pending.pop(seat)
            want = before[seat].copy()
            disc = [d for d in range(4) if after[seat, BOOKS + d] != before[seat, BOOKS + d]]
            assert len(disc) == 1
            want[BOOKS + disc[0]] -= 1
            if k == 0:
                want[I : III + 1] = gain_power(bowls_of(before[seat]), 5)
                self.st.gains += 1
            elif k == 1:
                want[P_COINS] += 6
            elif k == 2:
                want[P_VP] += 2 * guilds_on_map(g, seat)
            if k in (0, 1, 2):
                exact[seat] = want
                assert top[:2] == [Kind.POST, seat], top
            else:
                expected_top = {3: [Kind.STEPS_ONE, seat, 2], 4: [Kind.UPGRADE_TARGET, seat, GUILD, 1],
                                5: [Kind.TB_TARGET, seat, 3]}[k]  # fmt: skip
                assert top[: len(expected_top)] == expected_top, (BOOK_ACTIONS[k][0], top)
            self.st.applied_books[BOOK_ACTIONS[k][0]] += 1
        elif kind == Kind.PAY_BOOKS and seat in self.book_pending:
            pass
        elif (
            kind == Kind.MAIN and a == SPECIAL_BASE + 5 and before[seat, P_FACTION] == Faction.PSYCHICS
        ):  # R100: 5 power, then a second action
            want = before[seat].copy()
            want[I : III + 1] = gain_power(bowls_of(before[seat]), 5)
            want[P_SPECIALS_USED] |= 1 << 5
            exact[seat] = want
            assert top[:3] == [Kind.MAIN, seat, 1], top
            self.st.psychics += 1
            self.st.gains += 1
        elif kind == Kind.OFFER:  # R42.5
            v = row[2]
            b = before[seat]
            want = b.copy()
            if a == YES:
                n = min(v, 2 * int(b[I]) + int(b[II]), int(b[P_VP]) + 1)
                want[I : III + 1] = gain_power(bowls_of(b), n)
                want[P_VP] -= max(n - 1, 0)
                self.st.gains += 1
            else:
                assert a == DONE
            assert (after[seat] == want).all(), (v, bowls_of(b), bowls_of(after[seat]))
            self.st.offers += 1
        for q in range(s.seats):
            if q in exact:
                diff = np.flatnonzero(after[q] != exact[q])
                assert not len(diff), (
                    f"seat {q} after {a}: fields {diff.tolist()} "
                    f"{before[q][diff].tolist()} -> {after[q][diff].tolist()}, expected {exact[q][diff].tolist()}"
                )
                continue
            b, n = bowls_of(before[q]), bowls_of(after[q])
            if b == n or sum(b) == 0:  # unchanged, or the seat's setup (checked in ``_tokens``)
                continue
            if sum(n) == sum(b) + 2 and n[:2] == b[:2]:  # R32 / R117: +2 tokens into bowl III
                assert NEUTRAL_PALACE in after[q, P_INNOVATIONS] and self.added[q] == 0, (b, n)
                self.added[q] += 2
                self.st.adds += 1
                continue
            assert is_gain_shape(b, n), f"seat {q}: bowls {b} -> {n} is not an R30 gain ({Kind(kind).name})"
        self._tokens()

    def _tokens(self) -> None:
        s = self.g.state
        for q in range(s.seats):
            total = sum(bowls_of(s.players[q]))
            if not self.started[q]:
                if total == 0:
                    continue
                # R17.4 / R87: the printed bowls, then the setup thresholds (R49)
                self.started[q] = True
                board = Terrain(int(s.players[q, P_BOARD]))
                start = START_BOWLS.get(board, DEFAULT_BOWLS)
                levels = [int(x) for x in s.players[q, P_SCIENCE]]
                assert bowls_of(s.players[q]) == tuple(gain_power(start, threshold_power(levels))), (board, levels)
                self.st.start_bowls += 1
            assert total == TOKENS - self.burned[q] + self.added[q], (q, total, self.burned[q], self.added[q])


# --------------------------------------------------------------------------------------------
# the games


def _power_policy(g: Game, rng: np.random.Generator) -> int:
    """Random, but fond of spells, book actions and sacrifice."""
    legal = g.legal_actions()
    w = np.ones(len(legal))
    for j, a in enumerate(legal):
        if SPELL_BASE <= a < SPELL_BASE + 6:
            w[j] = 6.0
        elif BOOK_BASE <= a < BOOK_BASE + 6:
            w[j] = 3.0
        elif a == CONVERT_BASE + BURN:
            w[j] = 0.6
        elif CONVERT_BASE <= a < CONVERT_BASE + len(CONVERSIONS):
            w[j] = 0.15
        elif a == SPECIAL_BASE + 5:
            w[j] = 3.0
        elif a == A_PASS:
            w[j] = 0.03
        elif a == DONE:
            w[j] = 0.6
    return legal[int(rng.choice(len(legal), p=w / w.sum()))]


def play_one(game: str, seed: int, policy: str) -> Stats:
    g = Game(game, seed=seed)
    st = Stats()
    w = Watcher(g, st)
    rng = np.random.default_rng(seed * 7 + len(game))
    while not g.is_over():
        w.before()
        row = _top(g)
        before = g.state.players.copy()
        before_hexes = g.state.hexes.copy()
        if policy == "uniform":
            a = random_action(g, rng)
        elif policy == "biased":
            a = biased_random_action(g, rng)
        else:
            a = _power_policy(g, rng)
        g.apply_action(a)
        w.after(row, a, before, before_hexes)
    for q in range(g.seats):
        st.factions.add(int(g.state.players[q, P_FACTION]))
        st.boards.add(int(g.state.players[q, P_BOARD]))
    st.rulesets.add(g.config.ruleset)
    st.players.add(g.config.players)
    return st


def _games(configs: list[tuple[str, range]]) -> Stats:
    total = Stats()
    for game, seeds in configs:
        for seed in seeds:
            for policy in ("uniform", "biased", "power"):
                total.merge(play_one(game, seed, policy))
    return total


_FIXED = [
    # every faction and every planning board; Illusionists in every VP column of R145
    ("aoi(players=5,factions=blessed+felines+goblins+illusionists+inventors,"
     "boards=desert+plains+swamp+lake+forest,skip_forced=false)", range(4)),
    ("aoi(players=5,ruleset=v1.0,factions=lizards+moles+monks+navigators+illusionists,"
     "boards=mountain+wasteland+desert+plains+swamp,skip_forced=false)", range(4)),
    ("aoi(players=4,factions=philosophers+psychics+illusionists+omar,"
     "boards=lake+forest+mountain+wasteland,skip_forced=false)", range(5)),
    ("aoi(players=4,ruleset=v1.0,factions=psychics+philosophers+illusionists+lizards,"
     "boards=wasteland+mountain+plains+lake,skip_forced=false)", range(5)),
    ("aoi(players=3,factions=illusionists+psychics+moles,boards=forest+swamp+desert,skip_forced=false)", range(5)),
    ("aoi(players=3,map=1-3,ruleset=v1.0,factions=monks+omar+illusionists,"
     "boards=mountain+lake+wasteland,skip_forced=false)", range(5)),
    ("aoi(players=2,factions=illusionists+psychics,boards=plains+swamp,skip_forced=false)", range(6)),
    ("aoi(players=2,ruleset=v1.0,factions=illusionists+goblins,boards=forest+lake,skip_forced=false)", range(4)),
]  # fmt: skip
_DISTRIBUTED = [
    ("aoi(players=2,skip_forced=false)", range(3)),
    ("aoi(players=3,skip_forced=false)", range(3)),
    ("aoi(players=4,ruleset=v1.0,skip_forced=false)", range(2)),
    ("aoi(players=5,skip_forced=false)", range(2)),
    ("aoi(players=3,distribution=draft,ruleset=v1.0,skip_forced=false)", range(2)),
    ("aoi(players=5,distribution=draft,skip_forced=false)", range(2)),
]


def test_r29_r33_r75_r79_r139_power_and_conversions_match_an_independent_reading_fixed_seats() -> None:
    """R29-R33, R79, OP-59, R75, R139, R92 / R145 / OP-13, R100, R42.5, R87 / R17.4, OP-58: at every
    decision the offered conversions, spells and book actions equal the oracle's, every applied one
    changes exactly what the rules say, every bowl change is a gain / spend / sacrifice / addition
    of the right shape and source; all 12 factions, all 7 boards, 2-5 players, v1.0 and v1.2."""
    st = _games(_FIXED)
    assert st.factions == set(range(12)) and st.boards == set(range(7)), (st.factions, st.boards)
    assert st.rulesets == {"v1.0", "v1.2"} and st.players == {2, 3, 4, 5}
    assert st.mains > 8000 and st.posts > 5000 and st.conversion_sets > 15000, (st.mains, st.posts)
    assert set(st.applied_conversions) == {name for name, _ in CONVERSIONS}, st.applied_conversions
    assert st.applied_conversions["burn"] > 500 and st.applied_conversions["1pw coin"] > 500
    assert set(st.applied_spells) == {sid for sid, _, _ in SPELLS} and min(st.applied_spells.values()) >= 10
    assert set(st.applied_books) == {bid for bid, _ in BOOK_ACTIONS}, st.applied_books
    assert set(st.illusionist_spells) >= {("v1.2", 2), ("v1.2", 3), ("v1.2", 4), ("v1.0", 2), ("v1.0", 4),
                                          ("v1.0", 5)}, st.illusionist_spells  # fmt: skip
    assert st.blocked > 500 and st.burn_to_afford > 1000 and st.infeasible["S1"] > 20
    assert st.psychics > 50 and st.offers > 300 and st.gains > 500 and st.tb_conversions > 100
    assert st.book_payments > 100


def test_r29_r33_r75_r79_r139_power_and_conversions_match_an_independent_reading_distributions() -> None:
    """The same checks with standard sets (R15) and the draft (R16), both map sides, 2-5 players."""
    st = _games(_DISTRIBUTED)
    assert st.players == {2, 3, 4, 5} and st.rulesets == {"v1.0", "v1.2"}
    assert st.mains > 4000 and len(st.applied_spells) == 6 and len(st.applied_conversions) >= 12
    assert st.start_bowls >= 40 and st.offers > 100


# --------------------------------------------------------------------------------------------
# constructed positions: crowded maps, few own buildings, bridges, tunnels and flights


def _crowded_position(rng: np.random.Generator, trial: int) -> Game:
    """A random Phase II position where seat 0 has 1-3 buildings on a crowded map: bonus-TB spells
    and book actions are often impossible there (OP-58), and the reach details matter (sailing,
    B1, bridges R38 / R40, the Moles' tunnel R95, Palace 9's flight R129)."""
    names = [f.name.lower() for f in Faction]
    boards = [t.name.lower() for t in list(Terrain)[:7]]
    factions = [names[trial % 12], *rng.choice([n for n in names if n != names[trial % 12]], 2, replace=False)]
    seat_boards = list(rng.choice(boards, 3, replace=False))
    side = "1-3" if trial % 2 else "3-5"
    sc = Scenario(f"aoi(players=3,map={side})", factions=factions, boards=seat_boards, seed=trial, check=False)
    g = sc.g
    land = [int(q) for q in np.flatnonzero(g.geo.land)]
    order = [land[i] for i in rng.permutation(len(land))]
    mine = order[: int(rng.integers(1, 4))]
    for j, q in enumerate(mine):
        sc.build(0, hex_name(q), ("workshop", "guild", "school")[j % 3] if rng.random() < 0.8 else "tower",
                 neutral=False)  # fmt: skip
    density = rng.uniform(0.5, 0.97)
    for q in order[len(mine) :]:
        if rng.random() < density:
            sc.build(int(rng.integers(1, 3)), hex_name(q), "workshop")
        elif rng.random() < 0.3:
            sc.terrain(hex_name(q), seat_boards[0])  # an empty native hex of seat 0
    for a, b in g.geo.bridge_spots:
        if rng.random() < 0.25:
            sc.bridge(int(rng.integers(0, 3)), hex_name(a), hex_name(b))
    board = g.data.boards[int(g.state.players[0, P_BOARD])]
    sc.set(0, tools=int(rng.integers(0, 3)), coins=int(rng.integers(0, 4)), scholars=int(rng.integers(0, 2)),
           sailing=int(rng.integers(board.sailing_start, 4)), bowls=((0, 2, 10), (0, 0, 12), (0, 1, 11))[trial % 3],
           books=(1, 1, 1, 0),
           science=[int(x) for x in rng.choice([0, 6, 7, 11, 12], 4)], cities=int(rng.integers(0, 2)))  # fmt: skip
    if rng.random() < 0.4:
        sc.bonus(0, "B1")
    if rng.random() < 0.3:
        sc.palace_tile(0, 9)
    return sc.turn(0)


def test_op58_spells_and_book_actions_in_crowded_constructed_positions() -> None:
    """OP-58 / R139 / R61 / R39 / R40 / R95 / R129 / R50 / R52: in random constructed positions the
    spells and book actions offered equal the oracle's, with their main effect often impossible."""
    rng = np.random.default_rng(2024)
    st = Stats()
    withheld = Counter()
    for trial in range(240):
        g = _crowded_position(rng, trial)
        w = Watcher.__new__(Watcher)  # no setup to check: only the offers of this position
        w.g, w.st, w.round, w.spells_used, w.books_used = g, st, int(g.state.glob[G_ROUND]), set(), set()
        w.book_pending = {}
        w.before()
        offered = set(g.legal_actions())
        for i, (sid, _, _) in enumerate(SPELLS):
            if SPELL_BASE + i not in offered:
                withheld[sid] += 1
        for k in [int(x) for x in g.state.glob[G_BOOK_ACTIONS]]:
            if BOOK_BASE + k not in offered and sum(g.state.players[0, P_BOOKS]) >= BOOK_ACTIONS[k][1]:
                withheld[BOOK_ACTIONS[k][0]] += 1
    assert st.mains == 240
    assert withheld["S3"] >= 20 and withheld["S6"] >= 20 and withheld["S1"] >= 40, withheld
    assert 20 <= withheld["S3"] <= 220, withheld  # both outcomes occur


def test_r32_r117_neutral_palace_adds_two_tokens_to_bowl_iii() -> None:
    """R32 / R117: the neutral Palace innovation adds 2 new tokens straight into bowl III (not a
    gain, the token count grows to 14); later gains, spends and sacrifices keep the new count."""
    checked = 0
    for seed, (faction, board) in enumerate([("goblins", "plains"), ("psychics", "forest"), ("monks", "swamp")]):
        sc = Scenario("aoi(players=3,skip_forced=false)", factions=[faction, "omar", "blessed"],
                      boards=[board, "lake", "desert"], seed=seed)  # fmt: skip
        land = [int(q) for q in np.flatnonzero(sc.g.geo.land)]
        sc.build(0, hex_name(land[10]), "workshop").build(0, hex_name(land[30]), "guild")
        sc.set(0, books=(3, 3, 3, 3), coins=20).display_innovations("neutral_palace", "sewerage", "census")
        g = sc.turn(0)
        st = Stats()
        w = Watcher(g, st)
        rng = np.random.default_rng(seed)
        g_moves = ["innovate", "innovation neutral_palace"]
        while not g.is_over() and g.state.glob[G_ROUND] <= 2:
            w.before()
            row = _top(g)
            before, before_hexes = g.state.players.copy(), g.state.hexes.copy()
            legal = g.legal_actions()
            if g_moves and g.parse_move(g_moves[0]) in legal:
                a = g.parse_move(g_moves.pop(0))
            else:
                a = _power_policy(g, rng)
            g.apply_action(a)
            w.after(row, a, before, before_hexes)
        assert not g_moves and st.adds == 1 and w.added[0] == 2
        assert sum(bowls_of(g.state.players[0])) == TOKENS + 2 - w.burned[0]
        checked += 1
    assert checked == 3
