"""Independent oracle for innovations (RULES.md §4.2.5 R73, R20, OP-5, OP-6, OP-7, OP-39; §6.3
R101-R119; the neutral-building placement of R114-R119 under R46 / OP-38).

Oracle 1 -- what may be taken.  At every MAIN decision of the acting player the set of innovation
tiles it may develop is recomputed from the raw state arrays and the rule text alone:

* R20 / OP-6 / OP-7: the display has 2P + 2 spaces: one (2 players), two (3, 4 players) or three
  (5 players) spaces per discipline column (Banking, Law, Engineering, Medicine), each costing
  2 books of the column's discipline + 3 any books; in 2- and 4-player games also the two wide
  "2/4" spaces costing 2 Banking + 2 Law + 1 any and 2 Engineering + 2 Medicine + 1 any.
  Rulebook [UA]: "Жетони інновацій у цьому стовпці коштують 2 книжки з банківської справи та ще
  3 книжки з дисциплін на свій вибір" and "За жетони інновацій над цим символом ви повинні
  заплатити 2 книжки з банківської справи, 1 книжку на свій вибір і 2 книжки з юриспруденції".
* R73.3 / OP-39: + 5 coins unless the player has a Palace on the map (own or neutral).
* R73.4 / OP-5: the lowest empty of the 3 slots is filled; its surcharge is +0 / +1 / +2 any
  books (Wasteland, R87: +0 / +0 / +2).  [UA]: "У комірці ... може бути зазначена додаткова
  вартість в 1 або 2 книжки".
* R73 limits: at most 3 innovations per player; a tile taken is gone (unique, never replaced).

The engine's offer is the ``innovate`` action at MAIN and the CHOOSE_INNOVATION ids it opens
(applied on a clone): both directions are asserted.

Oracle 2 -- what taking one does.  When an innovation is taken the "any" books are paid one
PAY_BOOKS decision at a time (each offering exactly the colours still held); then the payment
(column books, any books and surcharge, coins) and the immediate one-time effect are compared
with R101-R119 read from the raw arrays before the action:

* R102 Deus Ex Machina: 1 book of choice + 1 step in each discipline (R48-R52: power thresholds,
  the key barrier at 7 -> 8, level 12 exclusive), T4 +1 VP per step gained;
* R105 Architecture: 10 VP + 1 step of choice per building shape on the map (OP-51);
* R106 League of Cities 5 VP per city tile; R107 Census 8/12/18 VP for 7/9/11 buildings;
  R108 Libraries: sum of the two highest levels; R109 Colleges 5 VP per School; R110 Sewerage
  2 VP per Workshop; R111 Communication 8/12/18 VP for 4/5/6 groups (adjacency incl. bridges,
  OP-52); R113 Steel 8/12/18 VP for 1/2/3 bridges (neutral copies count, Pavilions never, R101);
* R112 Steam Power: 1 scholar + one free terraforming and one free sailing advance with their
  printed rewards (OP-2, OP-3), T8 +3 each, an advance at the top is lost (OP-40);
* R114-R119: a neutral building placed at once on an empty hex in reach (R39, no tunnel or
  flight) that can be terraformed to native with tools only (R46.1, R37) -- the placement
  decision's hexes are compared both ways, or the building is lost when no hex qualifies;
  R117 +2 new tokens into bowl III; R118 a competency of choice (R53.1); R119 +7 VP;
* R103 Trade Routes and R104 Professors have no immediate effect; T10 +5 VP for every
  innovation developed (R142/R146).

Income, pass and final-scoring effects are covered by other oracles.  Random play rarely affords
innovations, so the random games top up books and coins at some MAIN decisions and prefer the
``innovate`` action; constructed positions (``aoi_env.testing.Scenario``) add many buildings,
groups, bridges, city tiles and science levels so every innovation's count varies.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from aoi_env.core.board import hex_name
from aoi_env.core.engine import Game
from aoi_env.core.moves import A_INNOVATE, DISC_BASE, HEX_BASE, INNOVATION_BASE
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_COMP_LEFT,
    G_DEPTH,
    G_INNOV_OWNER,
    G_INNOV_SPACES,
    G_NEUTRAL_SCIENCE,
    G_ROUND,
    G_ROUND_TILES,
    H_BUILDING,
    H_NEUTRAL,
    H_OWNER,
    H_TERRAIN,
    P_ADDED_TOKENS,
    P_BOARD,
    P_BOOKS,
    P_BOWLS,
    P_BRIDGES,
    P_CITIES,
    P_COINS,
    P_COMPETENCIES,
    P_FACTION,
    P_INNOVATIONS,
    P_NEUTRAL_PALACE,
    P_PALACE_TILE,
    P_SAILING,
    P_SCHOLAR_SUPPLY,
    P_SCHOLARS,
    P_SCIENCE,
    P_TERRAFORMING,
    P_TOOLS,
    P_VP,
)
from aoi_env.testing import Scenario, biased_random_action, random_action
from tests.rules.oracle_common import (
    BOARDS,
    CENSUS_TABLE,
    COMMUNICATION_TABLE,
    FACTIONS,
    FIXED_GAMES,
    NEUTRAL_PIECES,
    STEEL_TABLE,
    THRESHOLDS,
    TOOLS_PER_SPADE,
    WHEEL,
    adjacency,
    bridges_of,
    built_bridges,
    gain_power,
    groups,
    own_hexes,
    seat_reach,
    table_vp,
)

# --------------------------------------------------------------------------------------------
# numbers from RULES.md (not from the engine's tables)

KEYS = (
    "deus_ex_machina", "trade_routes", "professors", "architecture", "league_of_cities", "census",
    "library", "colleges", "sewerage", "communication", "steam_power", "steel", "neutral_workshop",
    "neutral_university", "neutral_guild", "neutral_palace", "neutral_school", "neutral_monument",
)  # fmt: skip
(DEUS, TRADE, PROFESSORS, ARCHITECTURE, LEAGUE, CENSUS, LIBRARY, COLLEGES, SEWERAGE, COMMUNICATION, STEAM,
 STEEL, N_WORKSHOP, N_UNIVERSITY, N_GUILD, N_PALACE, N_SCHOOL, N_MONUMENT) = range(18)  # fmt: skip

WORKSHOP, GUILD, SCHOOL, UNIVERSITY, PALACE, TOWER, MONUMENT = range(1, 8)  # state encoding of buildings
NEUTRAL_OF = {
    N_WORKSHOP: WORKSHOP,
    N_UNIVERSITY: UNIVERSITY,
    N_GUILD: GUILD,
    N_PALACE: PALACE,
    N_SCHOOL: SCHOOL,
    N_MONUMENT: MONUMENT,
}  # fmt: skip  R114-R119

# R20 / OP-6 / OP-7
COLUMN_OWN, COLUMN_ANY = 2, 3
MIXED_SPACES = (((2, 2, 0, 0), 1), ((0, 0, 2, 2), 1))  # left 2 Bk + 2 La + 1 any, right 2 En + 2 Me + 1 any
ROWS_PER_COLUMN = {2: 1, 3: 2, 4: 2, 5: 3}
HAS_MIXED = {2: True, 3: False, 4: True, 5: False}
NO_PALACE_COINS = 5  # R73.3
SLOT_BOOKS = (0, 1, 2)  # R73.4 / OP-5
WASTELAND_SLOT_BOOKS = (0, 0, 2)  # R87 Wasteland
MAX_INNOVATIONS = 3  # R73

LAKE, WASTELAND = 3, 6  # Terrain order De Pl Sw La Fo Mo Wa (R35)
T4, T8, T10 = 3, 7, 9  # R142: +1 VP per step, +3 VP per track advance, +5 VP per innovation
KEY_LEVEL, TOP_LEVEL = 8, 12  # R50, R52
SAIL_MAX, TERRA_MAX = 3, 2  # R71 (levels 0-3), R72 (3 -> 2 -> 1 tools: two upgrades)
SAIL_REWARD = {1: ("vp", 2), 2: ("books", 2), 3: ("vp", 4)}  # OP-2
LAKE_SAIL_REWARD = {2: ("vp", 3), 3: ("books", 2)}  # OP-2 Lake
TERRA_REWARD = {1: ("books", 2), 2: ("vp", 6)}  # OP-3


# --------------------------------------------------------------------------------------------
# oracle 1: the innovations on offer


def space_cost(players: int, space: int) -> tuple[tuple[int, ...], int]:
    """(specific books per discipline, any books) of a display space (R20); spaces are stored
    column by column row after row (Banking, Law, Engineering, Medicine), then the "2/4" spaces."""
    columns = 4 * ROWS_PER_COLUMN[players]
    if space < columns:
        spec = [0, 0, 0, 0]
        spec[space % 4] = COLUMN_OWN
        return tuple(spec), COLUMN_ANY
    return MIXED_SPACES[space - columns]


def owned_innovations(g: Game, seat: int) -> list[int]:
    """The seat's innovations, checked two ways: its slots (filled from the left) and the display owners."""
    slots = [int(t) for t in g.state.players[seat, P_INNOVATIONS]]
    held = [t for t in slots if t >= 0]
    assert slots == held + [-1] * (3 - len(held)), f"seat {seat}: slots {slots} not filled from the left (R73.4)"
    owner = g.state.glob[G_INNOV_OWNER]
    assert sorted(held) == [t for t in range(18) if owner[t] == seat], f"seat {seat}: {held} vs display owners"
    return held


def has_palace(g: Game, seat: int) -> bool:
    """R73.3 / OP-39: a Palace of the seat on the map, its own or the neutral one."""
    h = g.state.hexes
    return bool(((h[:, H_BUILDING] == PALACE) & (h[:, H_OWNER] == seat)).any())


def surcharge(g: Game, seat: int, slot: int) -> int:
    board = int(g.state.players[seat, P_BOARD])
    return (WASTELAND_SLOT_BOOKS if board == WASTELAND else SLOT_BOOKS)[slot]


def innovation_cost(g: Game, seat: int, tile: int) -> tuple[tuple[int, ...], int, int]:
    """(specific books, any books incl. the slot surcharge, coins) to develop ``tile`` now (R73)."""
    players = g.seats
    space = [int(t) for t in g.state.glob[G_INNOV_SPACES]].index(tile)
    spec, any_books = space_cost(players, space)
    slot = len(owned_innovations(g, seat))
    coins = 0 if has_palace(g, seat) else NO_PALACE_COINS
    return spec, any_books + surcharge(g, seat, slot), coins


def check_display(g: Game) -> None:
    """R20 / OP-7 / R12: 2P + 2 spaces, each with a distinct tile; the other tiles are out of the game."""
    spaces = [int(t) for t in g.state.glob[G_INNOV_SPACES]]
    on = [t for t in spaces if t >= 0]
    assert 4 * ROWS_PER_COLUMN[g.seats] + 2 * HAS_MIXED[g.seats] == 2 * g.seats + 2
    assert len(on) == 2 * g.seats + 2 and spaces[: len(on)] == on and len(set(on)) == len(on), spaces
    owner = [int(x) for x in g.state.glob[G_INNOV_OWNER]]
    assert all((owner[t] == -2) == (t not in on) for t in range(18)), (spaces, owner)


def expected_offer(g: Game, seat: int) -> set[int]:
    """Innovation ids the seat may develop now (R73, R20, OP-5, OP-6, OP-39)."""
    p = g.state.players[seat]
    held = owned_innovations(g, seat)
    if len(held) >= MAX_INNOVATIONS:
        return set()
    if not has_palace(g, seat) and p[P_COINS] < NO_PALACE_COINS:
        return set()
    books = [int(x) for x in p[P_BOOKS]]
    extra = surcharge(g, seat, len(held))
    owner = g.state.glob[G_INNOV_OWNER]
    out = set()
    for space, tile in enumerate(int(t) for t in g.state.glob[G_INNOV_SPACES]):
        if tile < 0 or owner[tile] != -1:
            continue
        spec, any_books = space_cost(g.seats, space)
        if all(b >= c for b, c in zip(books, spec, strict=True)) and sum(books) - sum(spec) >= any_books + extra:
            out.add(tile)
    return out


def engine_offer(g: Game) -> set[int]:
    if A_INNOVATE not in g.legal_actions():
        return set()
    c = g.clone()
    c.apply_action(A_INNOVATE)
    assert c.pending_kind() == Kind.CHOOSE_INNOVATION, c.pending_kind()
    ids = c.legal_actions()
    assert ids and all(INNOVATION_BASE <= a < INNOVATION_BASE + 18 for a in ids), ids
    return {a - INNOVATION_BASE for a in ids}


# --------------------------------------------------------------------------------------------
# oracle 2: the immediate effects


def count_type(g: Game, seat: int, btype: int) -> int:
    """Buildings of a type on the map, neutral copies included (R101)."""
    return len(own_hexes(g.state, seat, btype))


def group_count(g: Game, seat: int) -> int:
    """R111 / OP-52: maximal sets of own buildings connected by adjacency (bridges included)."""
    return len(groups(own_hexes(g.state, seat), adjacency(g.geo.neighbors, built_bridges(g.state))))


def own_bridges(g: Game, seat: int) -> int:
    """R113: the seat's bridges on the map (the state's bridge rows are (end, end, builder))."""
    n = bridges_of(g.state, seat)
    assert n == g.state.players[seat, P_BRIDGES]
    return n


def reach(g: Game, seat: int) -> set[int]:
    """R39: land hexes adjacent (edge or bridge) to an own building, or across 1..s river hexes;
    s = sailing, +1 with round bonus B1 in Phase II (R138).  No tunnel or flight (OP-38)."""
    return seat_reach(g.geo, g.state, seat)


def neutral_targets(g: Game, seat: int, btype: int) -> set[int]:
    """R46.1 / OP-38: empty land hexes in reach, terraformed to native with tools only at the
    track rate (R37); the neutral piece must still be in the box (R1)."""
    h = g.state.hexes
    if int(((h[:, H_BUILDING] == btype) & (h[:, H_NEUTRAL] == 1)).sum()) >= NEUTRAL_PIECES[btype]:
        return set()
    p = g.state.players[seat]
    native, tools = int(p[P_BOARD]), int(p[P_TOOLS])
    rate = TOOLS_PER_SPADE[int(p[P_TERRAFORMING])]
    out = set()
    for q in reach(g, seat):
        if h[q, H_BUILDING] == 0 and WHEEL[int(h[q, H_TERRAIN])][native] * rate <= tools:
            out.add(q)
    return out


def expected_competencies(g: Game, seat: int) -> set[int]:
    """R53.1: any type not owned whose stack still has a tile."""
    owned = int(g.state.players[seat, P_COMPETENCIES])
    left = g.state.glob[G_COMP_LEFT]
    return {c for c in range(12) if left[c] > 0 and not owned >> c & 1}


def round_tile(g: Game) -> int:
    rnd = int(g.state.glob[G_ROUND])
    return int(g.state.glob[G_ROUND_TILES][rnd - 1]) if 1 <= rnd <= 6 else -1


class Expected:
    """Deltas of the seat's row after the payment and the immediate effect, plus the decisions queued."""

    def __init__(self, g: Game, seat: int, tile: int) -> None:
        p = g.state.players[seat]
        self.vp = 5 if round_tile(g) == T10 else 0  # R142 T10 / R146
        self.scholars = 0
        self.science = [int(x) for x in p[P_SCIENCE]]
        self.bowls = [int(x) for x in p[P_BOWLS]]
        self.added_tokens = 0
        self.sailing, self.terraforming = int(p[P_SAILING]), int(p[P_TERRAFORMING])
        self.rows: list[tuple[int, int, int]] = []  # (kind, p0, p1), top of the stack first
        self.neutral = NEUTRAL_OF.get(tile, 0)
        self.neutral_hexes: set[int] = set()
        tile_round = round_tile(g)
        if tile == DEUS:  # R102: 1 book of choice, 1 step in each discipline
            keys = int(p[P_CITIES]) - sum(1 for x in self.science if x >= KEY_LEVEL)  # R50 / OP-31
            key_rows = []
            for d in range(4):
                level = self.science[d]
                col = [int(g.state.players[q, P_SCIENCE][d]) for q in range(g.seats) if q != seat]
                top_taken = any(x >= TOP_LEVEL for x in col) or int(g.state.glob[G_NEUTRAL_SCIENCE][d]) >= TOP_LEVEL
                if level >= TOP_LEVEL or (level == TOP_LEVEL - 1 and top_taken):
                    continue  # R52: lost
                if level == KEY_LEVEL - 1:
                    if keys > 0:
                        key_rows.append((Kind.USE_KEY, d, 1))  # R50: the key is the player's choice
                    continue  # without a key the step is lost
                self.science[d] = level + 1
                if level + 1 in THRESHOLDS:
                    self.bowls = gain_power(self.bowls, THRESHOLDS[level + 1])  # R49
                if tile_round == T4:
                    self.vp += 1
            self.rows = [*reversed(key_rows), (Kind.CHOOSE_BOOKS, 1, 0)]
        elif tile == ARCHITECTURE:  # R105 / OP-51
            self.vp += 10
            shapes = len({int(g.state.hexes[q, H_BUILDING]) for q in own_hexes(g.state, seat)})
            if shapes:
                self.rows = [(Kind.STEPS_ANY, shapes, 0)]
        elif tile == LEAGUE:  # R106
            self.vp += 5 * int(p[P_CITIES])
        elif tile == CENSUS:  # R107
            self.vp += table_vp(len(own_hexes(g.state, seat)), CENSUS_TABLE)
        elif tile == LIBRARY:  # R108
            self.vp += sum(sorted(self.science)[-2:])
        elif tile == COLLEGES:  # R109
            self.vp += 5 * count_type(g, seat, SCHOOL)
        elif tile == SEWERAGE:  # R110
            self.vp += 2 * count_type(g, seat, WORKSHOP)
        elif tile == COMMUNICATION:  # R111
            self.vp += table_vp(group_count(g, seat), COMMUNICATION_TABLE)
        elif tile == STEEL:  # R113 / OP-46
            self.vp += table_vp(own_bridges(g, seat), STEEL_TABLE)
        elif tile == STEAM:  # R112 / OP-40
            self.scholars = 1 if p[P_SCHOLAR_SUPPLY] > 0 else 0
            book_rows = []
            if self.terraforming < TERRA_MAX:
                self.terraforming += 1
                self.vp += 3 if tile_round == T8 else 0
                what, n = TERRA_REWARD[self.terraforming]
                if what == "vp":
                    self.vp += n
                else:
                    book_rows.append((Kind.CHOOSE_BOOKS, n, 0))
            if self.sailing < SAIL_MAX:
                self.sailing += 1
                self.vp += 3 if tile_round == T8 else 0
                rewards = LAKE_SAIL_REWARD if p[P_BOARD] == LAKE else SAIL_REWARD
                if self.sailing in rewards:
                    what, n = rewards[self.sailing]
                    if what == "vp":
                        self.vp += n
                    else:
                        book_rows.append((Kind.CHOOSE_BOOKS, n, 0))
            self.rows = book_rows
        elif self.neutral:  # R114-R119 / R46
            if tile == N_PALACE:
                self.bowls[2] += 2  # R117 / R32: new tokens straight into bowl III
                self.added_tokens = 2
            if tile == N_MONUMENT:
                self.vp += 7  # R119
            self.neutral_hexes = neutral_targets(g, seat, self.neutral)
            rows = [(Kind.NEUTRAL_PLACE, self.neutral, 0)] if self.neutral_hexes else []  # R46.1: else lost
            if tile == N_SCHOOL and (rows or expected_competencies(g, seat)):  # R118 / R53, OP-45
                rows.append((Kind.CHOOSE_COMPETENCY, 0, 0))
            self.rows = rows


# --------------------------------------------------------------------------------------------
# taking an innovation


class Stats:
    def __init__(self) -> None:
        self.mains = 0
        self.mains_offering = 0
        self.offered = 0
        self.taken: Counter[int] = Counter()
        self.taken_by_players: Counter[int] = Counter()
        self.slots: Counter[int] = Counter()
        self.blocked_by_coins = self.blocked_by_surcharge = self.blocked_by_colour = 0
        self.with_palace = self.wasteland_second = 0
        self.mixed_taken = 0
        self.pay_decisions = 0
        self.neutral_placed: Counter[int] = Counter()
        self.neutral_lost: Counter[int] = Counter()
        self.nonzero_vp: Counter[int] = Counter()
        self.key_rows = 0
        self.tile_bonus: Counter[int] = Counter()  # innovations taken under T4 (Deus), T8 (Steam Power), T10
        self.factions: set[int] = set()
        self.boards: set[int] = set()
        self.rulesets: set[str] = set()
        self.players: set[int] = set()

    def merge(self, other: Stats) -> None:
        for k, v in vars(other).items():
            mine = getattr(self, k)
            if isinstance(v, Counter):
                mine.update(v)
            elif isinstance(v, set):
                mine |= v
            else:
                setattr(self, k, mine + v)


def _stack(g: Game) -> list[list[int]]:
    return g.state.stack[: int(g.state.glob[G_DEPTH])].tolist()


def check_main(g: Game, st: Stats, ctx: str) -> set[int]:
    """Oracle 1 at a MAIN decision: the engine's offer equals the oracle's, both ways."""
    seat = g.current_seat()
    want = expected_offer(g, seat)
    got = engine_offer(g)
    p = g.state.players[seat]
    assert got == want, (
        f"{ctx} seat {seat}: engine offers extra {sorted(got - want)}, misses {sorted(want - got)} "
        f"(books {p[P_BOOKS].tolist()}, coins {int(p[P_COINS])}, held {owned_innovations(g, seat)}, "
        f"palace {has_palace(g, seat)}, board {int(p[P_BOARD])})"
    )
    st.mains += 1
    st.factions.add(int(p[P_FACTION]))
    st.boards.add(int(p[P_BOARD]))
    if want:
        st.mains_offering += 1
        st.offered += len(want)
    held = owned_innovations(g, seat)
    if len(held) < MAX_INNOVATIONS:  # boundary cases: only the coins or only the slot surcharge block an offer
        books = [int(x) for x in p[P_BOOKS]]
        extra = surcharge(g, seat, len(held))
        for space, tile in enumerate(int(t) for t in g.state.glob[G_INNOV_SPACES]):
            if tile < 0 or g.state.glob[G_INNOV_OWNER][tile] != -1:
                continue
            spec, any_books = space_cost(g.seats, space)
            colours = all(b >= c for b, c in zip(books, spec, strict=True))
            rest = sum(books) - sum(spec)
            if colours and rest >= any_books + extra and tile not in want:
                st.blocked_by_coins += 1
            if colours and any_books <= rest < any_books + extra and (has_palace(g, seat) or p[P_COINS] >= 5):
                st.blocked_by_surcharge += 1
            if not colours and sum(books) >= sum(spec) + any_books + extra:
                st.blocked_by_colour += 1
    return want


def take_innovation(g: Game, rng: np.random.Generator, st: Stats, ctx: str, pick) -> int:  # noqa: ANN001
    """At CHOOSE_INNOVATION: check the offer, take ``pick(offer)``, pay, check payment and effect;
    then resolve the neutral building's placement decision (if any) and check it."""
    seat = g.current_seat()
    want = expected_offer(g, seat)
    legal = {a - INNOVATION_BASE for a in g.legal_actions()}
    assert legal == want and legal, f"{ctx}: CHOOSE_INNOVATION {sorted(legal)} vs {sorted(want)}"
    tile = pick(sorted(legal))
    before = g.clone()
    pb = before.state.players[seat].copy()
    held = owned_innovations(before, seat)
    spec, any_books, coins = innovation_cost(before, seat, tile)
    expected = Expected(before, seat, tile)
    prefix = _stack(before)[:-1]
    ctx = f"{ctx} seat {seat} takes {KEYS[tile]} (slot {len(held) + 1})"

    g.apply_action(INNOVATION_BASE + tile)
    paid = [0, 0, 0, 0]
    for k in range(any_books):  # R73: the "any" books, one decision each
        row = _stack(g)[-1]
        assert row[0] == Kind.PAY_BOOKS and row[1] == seat and row[2] == any_books - k, f"{ctx}: {row}"
        books = g.state.players[seat, P_BOOKS]
        colours = {a - DISC_BASE for a in g.legal_actions()}
        assert colours == {d for d in range(4) if books[d] > 0}, f"{ctx}: pay {colours} with {books.tolist()}"
        d = int(rng.choice(sorted(colours)))
        paid[d] += 1
        g.apply_action(DISC_BASE + d)
        st.pay_decisions += 1
    pa = g.state.players[seat]
    # the payment (R73): column books, any books + slot surcharge, coins
    assert (pb[P_BOOKS] - pa[P_BOOKS]).tolist() == [s + q for s, q in zip(spec, paid, strict=True)], ctx
    assert int(pb[P_COINS] - pa[P_COINS]) == coins, f"{ctx}: coins {int(pb[P_COINS])} -> {int(pa[P_COINS])}"
    assert pa[P_TOOLS] == pb[P_TOOLS], ctx
    # the tile: lowest empty slot, off the display (R73.4, R73 limits)
    assert [int(t) for t in pa[P_INNOVATIONS]] == held + [tile] + [-1] * (2 - len(held)), ctx
    assert g.state.glob[G_INNOV_OWNER][tile] == seat, ctx
    assert (g.state.glob[G_INNOV_SPACES] == before.state.glob[G_INNOV_SPACES]).all(), ctx  # not replaced
    # the immediate effect (R101-R119)
    assert int(pa[P_VP] - pb[P_VP]) == expected.vp, f"{ctx}: VP +{int(pa[P_VP] - pb[P_VP])}, expected +{expected.vp}"
    assert int(pa[P_SCHOLARS] - pb[P_SCHOLARS]) == expected.scholars, ctx
    assert int(pa[P_SCHOLARS] + pa[P_SCHOLAR_SUPPLY]) == int(pb[P_SCHOLARS] + pb[P_SCHOLAR_SUPPLY]), ctx
    assert pa[P_SCIENCE].tolist() == expected.science, f"{ctx}: science {pa[P_SCIENCE].tolist()} vs {expected.science}"
    assert pa[P_BOWLS].tolist() == expected.bowls, f"{ctx}: bowls {pa[P_BOWLS].tolist()} vs {expected.bowls}"
    assert int(pa[P_ADDED_TOKENS] - pb[P_ADDED_TOKENS]) == expected.added_tokens, ctx
    assert (int(pa[P_SAILING]), int(pa[P_TERRAFORMING])) == (expected.sailing, expected.terraforming), ctx
    assert pa[P_COMPETENCIES] == pb[P_COMPETENCIES] and pa[P_CITIES] == pb[P_CITIES], ctx
    assert (g.state.hexes == before.state.hexes).all(), f"{ctx}: the map changed before any placement decision"
    for q in range(g.seats):
        if q != seat:
            assert (g.state.players[q] == before.state.players[q]).all(), f"{ctx}: seat {q} changed"
    # the decisions the effect queued (R46.1: an unplaceable neutral building is lost at once)
    rows = _stack(g)
    if rows[: len(prefix)] == prefix:
        new = [(r[0], r[2], r[3]) for r in rows[len(prefix) :]]
        assert all(r[1] == seat for r in rows[len(prefix) :]), f"{ctx}: {rows}"
    else:  # nothing queued: the action ended (END_ACTION -> conversions after the action, R79)
        assert prefix[-1][0] == Kind.END_ACTION and rows == [*prefix[:-1], [Kind.POST, seat, *[0] * 6]], (
            f"{ctx}: stack {rows} vs {prefix}")  # fmt: skip
        new = []
    assert Counter(new) == Counter((int(k), a, b) for k, a, b in expected.rows), (
        f"{ctx}: queued {[(Kind(k).name, a, b) for k, a, b in new]}, "
        f"expected {[(Kind(k).name, a, b) for k, a, b in expected.rows]}"
    )
    st.key_rows += sum(1 for r in new if r[0] == Kind.USE_KEY)
    st.taken[tile] += 1
    st.taken_by_players[g.seats] += 1
    st.slots[len(held) + 1] += 1
    st.with_palace += coins == 0
    st.wasteland_second += pb[P_BOARD] == WASTELAND and len(held) == 1
    space = [int(t) for t in before.state.glob[G_INNOV_SPACES]].index(tile)
    st.mixed_taken += space >= 4 * ROWS_PER_COLUMN[g.seats]
    rt = round_tile(before)
    if rt == T10 or (rt == T4 and tile == DEUS) or (rt == T8 and tile == STEAM):
        st.tile_bonus[rt] += 1
    if expected.vp - (5 if rt == T10 else 0) > 0:
        st.nonzero_vp[tile] += 1
    if expected.neutral:
        if expected.neutral_hexes:
            _place_neutral(g, rng, seat, expected, ctx)
            st.neutral_placed[tile] += 1
        else:
            st.neutral_lost[tile] += 1
    return tile


def _place_neutral(g: Game, rng: np.random.Generator, seat: int, expected: Expected, ctx: str) -> None:
    """The NEUTRAL_PLACE decision (R46.1): its hexes equal the oracle's; the building lands on the
    chosen hex as a neutral copy on native terrain, paid with tools only (R37)."""
    row = _stack(g)[-1]
    assert row[0] == Kind.NEUTRAL_PLACE and row[1] == seat and row[2] == expected.neutral, f"{ctx}: {row}"
    hexes = {a - HEX_BASE for a in g.legal_actions()}
    assert hexes == expected.neutral_hexes, (
        f"{ctx}: neutral hexes extra {sorted(hexes - expected.neutral_hexes)}, "
        f"missing {sorted(expected.neutral_hexes - hexes)}"
    )
    q = int(rng.choice(sorted(hexes)))
    h = g.state.hexes
    p = g.state.players[seat]
    native = int(p[P_BOARD])
    tools = int(p[P_TOOLS]) - WHEEL[int(h[q, H_TERRAIN])][native] * TOOLS_PER_SPADE[int(p[P_TERRAFORMING])]
    before = g.clone()
    g.apply_action(HEX_BASE + q)
    h = g.state.hexes
    p = g.state.players[seat]
    assert (int(h[q, H_BUILDING]), int(h[q, H_OWNER]), int(h[q, H_NEUTRAL])) == (expected.neutral, seat, 1), ctx
    assert h[q, H_TERRAIN] == native, ctx  # R34 / R46.3
    assert p[P_TOOLS] == tools, f"{ctx}: tools {int(p[P_TOOLS])}, expected {tools}"
    changed = np.flatnonzero(h[:, H_BUILDING] != before.state.hexes[:, H_BUILDING])
    assert changed.tolist() == [q], ctx  # one building placed, nothing upgraded (R46.4)
    if expected.neutral == PALACE:
        assert p[P_NEUTRAL_PALACE] == 1 and has_palace(g, seat), ctx
    # R115 / R117: no competency for the neutral University, no palace tile for the neutral Palace;
    # R118: the neutral School's competency is still to come
    assert p[P_PALACE_TILE] == before.state.players[seat, P_PALACE_TILE], ctx
    rows = _stack(g)
    assert not any(r[0] == Kind.CHOOSE_PALACE and r[1] == seat for r in rows), ctx
    comps = sum(1 for r in rows if r[0] == Kind.CHOOSE_COMPETENCY and r[1] == seat)
    assert comps == (expected.neutral == SCHOOL), f"{ctx}: {comps} competency choices pending"


# --------------------------------------------------------------------------------------------
# random games, topped up and steered toward innovations


def _least_taken(st: Stats, rng: np.random.Generator):  # noqa: ANN202
    def pick(options: list[int]) -> int:
        low = min(st.taken[t] for t in options)
        return int(rng.choice([t for t in options if st.taken[t] == low]))

    return pick


def play_game(game: str, seed: int, biased: bool, st: Stats) -> None:
    g = Game(game, seed=seed)
    st.rulesets.add(g.config.ruleset)
    st.players.add(g.seats)
    rng = np.random.default_rng(seed * 31 + 7)
    display_checked = False
    while not g.is_over():
        kind = g.pending_kind()
        seat = g.current_seat()
        ctx = f"{game} seed {seed} round {int(g.state.glob[G_ROUND])}"
        if kind == Kind.MAIN and g.is_player(seat):
            if not display_checked:
                check_display(g)
                display_checked = True
            if g.state.glob[G_ROUND] >= 2 and rng.random() < 0.3:  # a position with many books
                p = g.state.players[seat]
                p[P_BOOKS] += rng.multinomial(int(rng.integers(2, 9)), [0.25] * 4)
                p[P_COINS] += int(rng.integers(0, 7))
                if rng.random() < 0.3:
                    p[P_TOOLS] += int(rng.integers(0, 5))
                g._refresh()  # the legal ids of the edited position
            if check_main(g, st, ctx) and rng.random() < 0.8:
                g.apply_action(A_INNOVATE)
                continue
        elif kind == Kind.CHOOSE_INNOVATION:
            take_innovation(g, rng, st, ctx, _least_taken(st, rng))
            continue
        a = biased_random_action(g, rng) if biased else random_action(g, rng)
        g.apply_action(a)


_GAMES = [
    # every faction and every planning board, both rulesets, 2-5 players (the last 2-player game on Wasteland)
    *FIXED_GAMES[:7],
    "aoi(players=2,ruleset=v1.0,factions=omar+philosophers,boards=swamp+wasteland)",
    "aoi(players=2)",
    "aoi(players=3)",
    "aoi(players=4)",
    "aoi(players=5)",
    "aoi(players=3,ruleset=v1.0,distribution=draft)",
    "aoi(players=4,distribution=draft)",
    "aoi(players=1,automa=simpletons:3)",  # the Automa takes innovations too (AUTOMA.md): never offered again
    "aoi(players=2,ruleset=v1.0,automa=druids:4)",
]


def _no_skip(game: str) -> str:
    return game[:-1] + ",skip_forced=false)"


def test_r73_r101_r119_random_games_offer_and_effects_match_the_oracle() -> None:
    """R73, R20, OP-5, OP-6, OP-7, OP-39 (oracle 1) and R101-R119, R46.1, R142 T4/T8/T10 (oracle 2)
    in random games (biased and uniform play) whose players get extra books and coins at some
    MAIN decisions and prefer the ``innovate`` action: every offer equals the oracle's, every
    innovation taken pays and acts as the rules say; 2-5 players, v1.0 and v1.2, all 12
    factions and all 7 planning boards."""
    st = Stats()
    for game in _GAMES:
        for seed in range(4):
            play_game(_no_skip(game), seed, biased=True, st=st)
            play_game(_no_skip(game), seed + 50, biased=False, st=st)
    assert st.rulesets == {"v1.0", "v1.2"} and st.players == {2, 3, 4, 5}
    assert st.factions == set(range(12)) and st.boards == set(range(7))
    assert st.mains > 5000 and st.mains_offering > 500 and st.offered > 2000, (st.mains, st.mains_offering)
    assert set(st.taken) == set(range(18)) and min(st.taken.values()) >= 5, sorted(st.taken.items())
    assert all(st.taken_by_players[n] >= 20 for n in (2, 3, 4, 5)), st.taken_by_players
    assert all(st.slots[k] >= 20 for k in (1, 2, 3)), st.slots
    assert st.mixed_taken >= 10 and st.with_palace >= 5 and st.wasteland_second >= 3, (
        st.mixed_taken, st.with_palace, st.wasteland_second)  # fmt: skip
    assert sum(st.neutral_placed.values()) >= 30 and sum(st.neutral_lost.values()) >= 30, st.neutral_lost
    assert st.blocked_by_surcharge >= 100 and st.blocked_by_colour >= 500 and st.pay_decisions >= 2000


# --------------------------------------------------------------------------------------------
# constructed positions: every innovation with varied counts


def _position(seed: int, players: int, ruleset: str, tile: int) -> Game:
    """Seat 0 to act with clusters of own buildings (several groups, neutral Towers), bridges,
    city tiles, science levels, track levels, other players' buildings, 0-2 innovations already
    held, books and coins around the costs, and ``tile`` on the display."""
    rng = np.random.default_rng(seed)
    factions = [FACTIONS[i] for i in rng.permutation(12)[:players]]
    boards = [BOARDS[i] for i in rng.permutation(7)[:players]]
    rs = ",ruleset=v1.0" if ruleset == "v1.0" else ""
    sc = Scenario(f"aoi(players={players}{rs})", factions=factions, boards=boards, seed=seed)
    g0 = sc.g
    land = [int(q) for q in g0.geo.land_positions]
    free = set(land)
    left = {WORKSHOP: 9, GUILD: 4, SCHOOL: 3, UNIVERSITY: 1, PALACE: 1}
    names = {WORKSHOP: "workshop", GUILD: "guild", SCHOOL: "school", UNIVERSITY: "university", PALACE: "palace"}
    towers = 5
    own: list[int] = []
    for _ in range(int(rng.integers(1, 8))):  # clusters
        start = int(rng.choice(sorted(free)))
        cluster = [start]
        for _ in range(int(rng.integers(0, 4))):
            near = [int(q) for x in cluster for q in g0.geo.neighbors[x] if int(q) in free and int(q) not in cluster]
            if near:
                cluster.append(int(rng.choice(near)))
        for q in cluster:
            if q not in free:
                continue
            types = [b for b, n in left.items() if n > 0]
            if not types:
                break
            if rng.random() < 0.1 and towers > 0:
                sc.build(0, hex_name(q), "tower", neutral=True)
                towers -= 1
            else:
                b = int(rng.choice(types))
                if b == PALACE and rng.random() < 0.5 and left[WORKSHOP] > 0:
                    b = WORKSHOP
                left[b] -= 1
                sc.build(0, hex_name(q), names[b])
                if b == PALACE:
                    tile_no = int(rng.integers(1, 18))
                    sc.palace_tile(0, tile_no)
            free.discard(q)
            own.append(q)
    for other in range(1, players):
        for _ in range(int(rng.integers(0, 5))):
            q = int(rng.choice(sorted(free)))
            sc.build(other, hex_name(q), "workshop" if rng.random() < 0.7 else "guild")
            free.discard(q)
    # bridges at printed spots touching an own building (R40), up to 3
    spots = [s for s in g0.geo.bridge_spots if s[0] in own or s[1] in own]
    rng.shuffle(spots)
    for a, b in spots[: int(rng.integers(0, 4))]:
        sc.bridge(0, hex_name(min(a, b)), hex_name(max(a, b)))
    cities = int(rng.integers(0, 4))
    if cities:
        sc.city_tile(0, *[f"K{int(k) + 1}" for k in rng.choice(7, size=cities, replace=False)])
    science = [int(x) for x in rng.integers(0, 12, size=4)]
    if rng.random() < 0.4:
        science[int(rng.integers(4))] = 7  # the key barrier (R50)
    keys_needed = sum(1 for x in science if x >= KEY_LEVEL)
    science = [min(x, KEY_LEVEL - 1) if keys_needed > cities and x >= KEY_LEVEL else x for x in science]
    if rng.random() < 0.3:  # another player on 12 (R52), seat 0 often just below
        d = int(rng.integers(4))
        sc.set(1, science=[TOP_LEVEL if k == d else 0 for k in range(4)])
        if rng.random() < 0.5 and (science[d] >= KEY_LEVEL or sum(x >= KEY_LEVEL for x in science) < cities):
            science[d] = TOP_LEVEL - 1
    sc.set(0, science=science)
    board = int(g0.state.players[0, P_BOARD])
    sc.set(0, sailing=int(rng.integers(1 if board == LAKE else 0, SAIL_MAX + 1)),
           terraforming=int(rng.integers(0, TERRA_MAX + 1)))  # fmt: skip
    if rng.random() < 0.3:
        sc.bonus(0, "B1")
    # the display: 2P + 2 tiles including ``tile``; 0-2 other tiles already held by seat 0
    n_spaces = 2 * players + 2
    others = [t for t in rng.permutation(18).tolist() if t != tile]
    shown = others[: n_spaces - 1]
    shown.insert(int(rng.integers(n_spaces)), tile)
    sc.display_innovations(*[KEYS[t] for t in shown])
    held = others[n_spaces - 1 : n_spaces - 1 + int(rng.integers(0, 3))]
    if held:
        sc.innovation(0, *[KEYS[t] for t in held])
    for c in rng.choice(12, size=int(rng.integers(0, 4)), replace=False):
        sc.competency(0, f"C{int(c) + 1}")
    rnd = int(rng.integers(1, 5))
    round_tile_id = ("T4", "T8", "T10", "T1", "T5", "T9")[int(rng.integers(6))]
    if tile in (DEUS, STEAM) and rng.random() < 0.5:  # the tile that scores the effect's steps / advances
        round_tile_id = "T4" if tile == DEUS else "T8"
    sc.round(rnd, tile=round_tile_id)
    books = rng.multinomial(int(rng.integers(5, 15)), [0.25] * 4)
    empty_supply = rng.random() < (0.3 if tile == STEAM else 0.1)  # all 7 scholars held: none left to gain (R57)
    scholars = 7 if empty_supply else int(rng.integers(0, 3))
    sc.set(0, books=[int(x) for x in books], coins=int(rng.integers(4, 10)), tools=int(rng.integers(0, 9)),
           scholars=scholars)  # fmt: skip
    return sc.turn(0)


def test_r101_r119_constructed_positions_every_innovation() -> None:
    """R73 / R20 / OP-39 (oracle 1) and R101-R119, R46.1, R49, R50, R52, R53, R142 (oracle 2) in
    constructed positions (2-5 players, v1.0 and v1.2): each of the 18 innovations is put on the
    display next to a position with several groups of buildings (neutral Towers included),
    bridges, city tiles, science levels near the key barrier and tracks near their tops; the offer
    equals the oracle's and, when the innovation is affordable, taking it pays and acts as the
    rules say."""
    total = Stats()
    for players, ruleset in [(2, "v1.2"), (3, "v1.0"), (4, "v1.2"), (5, "v1.0"), (3, "v1.2"), (4, "v1.0")]:
        st = Stats()
        st.rulesets.add(ruleset)
        st.players.add(players)
        rng = np.random.default_rng(players)
        for seed in range(18 * 10):
            tile = seed % 18
            g = _position(seed * 10 + players, players, ruleset, tile)
            ctx = f"position {seed} ({players} players, {ruleset})"
            offer = check_main(g, st, ctx)
            if tile in offer:
                g.apply_action(A_INNOVATE)
                take_innovation(g, rng, st, ctx, lambda options, t=tile: t)
        assert set(st.taken) == set(range(18)) and min(st.taken.values()) >= 2, (players, sorted(st.taken.items()))
        assert st.mains == 18 * 10 and st.mains_offering >= 100
        total.merge(st)
    assert total.rulesets == {"v1.0", "v1.2"} and total.players == {2, 3, 4, 5}
    vp_tiles = {ARCHITECTURE, LEAGUE, CENSUS, LIBRARY, COLLEGES, SEWERAGE, COMMUNICATION, STEAM, STEEL, N_MONUMENT}
    assert all(total.nonzero_vp[t] >= 5 for t in vp_tiles), total.nonzero_vp
    assert total.key_rows >= 3 and total.tile_bonus[T10] >= 10 and total.tile_bonus[T4] >= 2, (
        total.key_rows, total.tile_bonus)  # fmt: skip
    assert total.tile_bonus[T8] >= 2 and total.blocked_by_coins >= 50 and total.blocked_by_surcharge >= 50
