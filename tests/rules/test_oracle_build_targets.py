"""Independent oracle: the hexes a player may terraform and build on (R38-R40, R60-R65).

At every ``MAIN`` decision of random games the set of hexes on which the acting player can take
the *Terraform and Build* action right now is recomputed from RULES.md / the rulebook and the raw
state arrays only, and compared in both directions with what the engine offers through the
decision chain ``build`` -> ``TB_TARGET`` (plain reach) / ``tunnel`` -> ``TB_TUNNEL`` (Moles, R95) /
``fly`` -> ``TB_FLY`` (palace 9, R129).  The same oracle is run on every bonus TB (spells S3/S6,
book action BA6, specials B5 / palace 2 / Deus Ex Machina, city K4, C5, palace 15, Lizards' city
TB) and on the next steps of the chain (spade counts, the Workshop offer, leftover spades).

The oracle uses only the board's static geometry (edge neighbours, river / land cells), the state
arrays and the numbers printed in RULES.md (terraforming wheel R35, spade price R37, Workshop
row and cost R54 / R64); none of ``aoi_env.core.terraform`` / ``rules.terrain`` /
``Geometry.reach`` / ``tunnel_targets`` / ``flight_targets`` is used.

Reading of the rules (rulebook v1.2 [UA] p. 8 / 11, RULES.md):

* R38: adjacent = shared edge, or the two ends of a built bridge (any owner's, Moles' too).
* R39: X is in reach of building Y if adjacent, or joined by a path Y - r1 .. rk - X of
  edge-adjacent river hexes with 1 <= k <= sailing; sailing = track + 1 while holding B1 in
  Phase II (R138, OP-41).  Own neutral buildings count.
* R61 / R64: the hex is unbuilt land in reach; a non-native hex needs at least one spade
  (a free one, or tools at 3/2/1 per spade, R37, R62), a native hex a Workshop left on the board
  (9 in the row) and 1 tool + 2 coins (R64; OP-35 for bonus TBs).  Terraform-only is allowed
  (R60 c, R63.2), so a non-native hex is a target even when no Workshop can follow.
* R95 / OP-48 (Moles): for 1 tool, a hex not adjacent to any own building but adjacent to a hex
  that is adjacent to one (bridges count), even if it is also in reach.
* R129 / OP-49 (palace 9, once the Palace is built): for 1 scholar, a hex at adjacency distance
  2 or 3 from an own building (never 1).
* R94 / OP-53 (Lizards' city TB): 1 free spade; the free Workshop is placed afterwards (the
  engine asks it in ``LIZARD_BUILD``), so the first hex of that TB is a non-native hex.
"""

from __future__ import annotations

import time
from collections import Counter

import numpy as np

from aoi_env.core.engine import Game
from aoi_env.core.moves import (
    A_BUILD,
    BOOK_BASE,
    BUILDING_BASE,
    COUNT_BASE,
    DONE,
    FLY,
    HEX_BASE,
    PALACE_BASE,
    SP_BONUS,
    SP_DEUS,
    SP_PALACE,
    SPECIAL_BASE,
    SPELL_BASE,
    TUNNEL,
)
from aoi_env.core.pending import TB_BUILD, TB_BUY, TB_LIZARD, Kind
from aoi_env.core.state import (
    G_BOOK_ACTIONS,
    G_BOOKS_USED,
    G_DEPTH,
    G_SPELLS_USED,
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
    P_INNOVATIONS,
    P_PALACE_TILE,
    P_SAILING,
    P_SCHOLARS,
    P_SPECIALS_USED,
    P_TERRAFORMING,
    P_TOOLS,
)
from aoi_env.data import NUM_POSITIONS
from aoi_env.data.enums import Faction
from aoi_env.testing import biased_random_action, random_action
from tests.rules.oracle_common import (
    TOOLS_PER_SPADE,
    WHEEL,
    adjacency,
    built_bridges,
    distances,
    reach_from,
    sailing,
)

# --------------------------------------------------------------------------------------------
# numbers from RULES.md (not from the engine's tables)

# WHEEL (R35 terraforming cost) and TOOLS_PER_SPADE (R37 / R72) come from oracle_common
WORKSHOP_PIECES = 9  # R54 Workshop row
WORKSHOP_TOOLS, WORKSHOP_COINS = 1, 2  # R64
WORKSHOP, PALACE = 1, 5  # Building values (state encoding)
B5 = 4  # R138: B5, special action TB with 1 free spade
PALACE_2, PALACE_9 = 1, 8  # R122 (TB with 2 free spades), R129 (flight); tile number - 1
SPELL_S3, SPELL_S6 = 4, 5  # R139: printed order S1 S2 S4 S5 S3 S6
BOOK_BA6 = 5  # R139: BA6, 3 any books, TB with 3 free spades
SPELL_POWER = {SPELL_S3: 4, SPELL_S6: 6}  # R139
FREE_SPADES = {("spell", SPELL_S3): 1, ("spell", SPELL_S6): 2, ("book", BOOK_BA6): 3}  # R139
FREE_SPADES |= {("special", "B5"): 1, ("special", "palace2"): 2, ("special", "deus"): 1}  # R138, R122, R102
TUNNEL_TOOLS, FLIGHT_SCHOLARS = 1, 1  # R95, R129
HEX_END = HEX_BASE + NUM_POSITIONS


def _hex_ids(legal: list[int]) -> set[int]:
    return {a - HEX_BASE for a in legal if HEX_BASE <= a < HEX_END}


# --------------------------------------------------------------------------------------------
# the oracle


class Oracle:
    """R38/R39/R61/R64/R95/R129 for one seat in the current position (raw arrays only)."""

    def __init__(self, g: Game, seat: int) -> None:
        s = g.state
        geo = g.geo
        h = s.hexes
        p = [int(x) for x in s.players[seat]]
        self.g, self.seat, self.p = g, seat, p
        self.land = [bool(x) for x in geo.land]
        self.river = [bool(x) for x in geo.river]
        self.edges = geo.neighbors  # shared edges, play area only
        self.bridges = built_bridges(s)  # R38 / R40: every built bridge, for everyone
        self.adj = adjacency(self.edges, self.bridges)
        built = h[:, H_BUILDING].tolist()
        owner = h[:, H_OWNER].tolist()
        neutral = h[:, H_NEUTRAL].tolist()
        self.own = {q for q in range(NUM_POSITIONS) if built[q] > 0 and owner[q] == seat}  # neutral ones too (R39)
        self.empty = {q for q in range(NUM_POSITIONS) if self.land[q] and built[q] == 0}
        native = p[P_BOARD]
        terr = h[:, H_TERRAIN].tolist()
        self.dist = {q: WHEEL[terr[q]][native] for q in self.empty}
        self.rate = TOOLS_PER_SPADE[p[P_TERRAFORMING]]
        self.workshops_left = WORKSHOP_PIECES - sum(1 for q in self.own if built[q] == WORKSHOP and not neutral[q])
        self.sailing = sailing(s, seat)  # R39 + B1 in Phase II (R138, OP-41)
        self.moles = p[P_FACTION] == Faction.MOLES
        palace_built = any(built[q] == PALACE and not neutral[q] for q in self.own)
        self.flight = p[P_PALACE_TILE] == PALACE_9 and palace_built

    # -- areas ----------------------------------------------------------------------------

    def reach(self) -> set[int]:
        """R39: land hexes adjacent to an own building, or across 1..sailing river hexes."""
        return reach_from(self.edges, self.land, self.river, self.own, self.sailing, self.bridges)

    def _distance(self, depth: int) -> dict[int, int]:
        """Adjacency distance (edges and bridges, land and river) from the own buildings."""
        return distances(self.adj, self.own, depth)

    def tunnel_area(self) -> set[int]:
        """R95 / OP-48: not adjacent to an own building, but next to a hex that is."""
        if not self.moles:
            return set()
        return {q for q, k in self._distance(2).items() if k == 2 and self.land[q]}

    def flight_area(self) -> set[int]:
        """R129 / OP-49: one or two hexes flown over: distance 2 or 3, never adjacent."""
        if not self.flight:
            return set()
        return {q for q, k in self._distance(3).items() if k in (2, 3) and self.land[q]}

    # -- targets --------------------------------------------------------------------------

    def can_build(self, tools: int, coins: int) -> bool:
        """R64: a Workshop on the board and 1 tool + 2 coins."""
        return self.workshops_left > 0 and tools >= WORKSHOP_TOOLS and coins >= WORKSHOP_COINS

    def _ok(self, q: int, free: int, tools: int, lizard: bool) -> bool:
        if self.dist[q] > 0:  # R61: terraform (at least one spade: free, or bought R62/R63.1)
            return free > 0 or tools >= self.rate
        return not lizard and self.can_build(tools, self.p[P_COINS])  # R60 b / OP-35

    def targets(self, free: int = 0, lizard: bool = False) -> dict[str, set[int]]:
        """{"plain", "tunnel", "fly"}: first hexes of a TB with ``free`` free spades."""
        tools, scholars = self.p[P_TOOLS], self.p[P_SCHOLARS]
        out = {"plain": set(), "tunnel": set(), "fly": set()}
        for q in self.reach() & self.empty:
            if self._ok(q, free, tools, lizard):
                out["plain"].add(q)
        if tools >= TUNNEL_TOOLS:
            for q in self.tunnel_area() & self.empty:
                if self._ok(q, free, tools - TUNNEL_TOOLS, lizard):
                    out["tunnel"].add(q)
        if scholars >= FLIGHT_SCHOLARS:
            for q in self.flight_area() & self.empty:
                if self._ok(q, free, tools, lizard):
                    out["fly"].add(q)
        return out


# --------------------------------------------------------------------------------------------
# the engine's answer, read through the decision chain


def engine_targets(c: Game) -> dict[str, set[int]]:
    """At a ``TB_TARGET`` decision: the hexes offered directly, after ``tunnel`` and after ``fly``."""
    assert c.pending_kind() == Kind.TB_TARGET
    legal = c.legal_actions()
    out = {"plain": _hex_ids(legal), "tunnel": set(), "fly": set()}
    _check_notation(c, out["plain"], "target")
    for jump, kind, name in ((TUNNEL, Kind.TB_TUNNEL, "tunnel"), (FLY, Kind.TB_FLY, "fly")):
        if jump in legal:
            assert c.move_str(jump) == name
            j = c.clone()
            j.apply_action(jump)
            assert j.pending_kind() == kind
            out[name] = _hex_ids(j.legal_actions())
            assert out[name], f"{name} offered without a target"
            _check_notation(j, out[name], name)
    return out


def _check_notation(c: Game, hexes: set[int], word: str) -> None:
    """The hex ids read as ``<word> r<row>c<col>`` in ``legal_moves`` (docs/notation.md)."""
    moves = set(c.legal_moves())
    assert {f"{word} r{q // 13}c{q % 13}" for q in hexes} <= moves, (word, sorted(hexes), moves)


def _top(g: Game) -> list[int]:
    """The pending row (kind, seat, p0..p5) as plain ints."""
    s = g.state
    return s.stack[int(s.glob[G_DEPTH]) - 1].tolist()


def _describe(g: Game, seat: int, diff: dict) -> str:
    p = g.state.players[seat]
    return (
        f"seat {seat} faction {Faction(int(p[P_FACTION])).name} board {int(p[P_BOARD])} "
        f"tools {int(p[P_TOOLS])} coins {int(p[P_COINS])} scholars {int(p[P_SCHOLARS])} "
        f"sail {int(p[P_SAILING])} bonus {int(p[P_BONUS])} dig {int(p[P_TERRAFORMING])} "
        f"palace {int(p[P_PALACE_TILE])}: {diff}"
    )


def compare(g: Game, c: Game, seat: int, free: int, lizard: bool, stats: Counter) -> dict[str, set[int]]:
    """Oracle vs engine at the ``TB_TARGET`` of ``c`` (a TB of ``seat`` in position ``g``)."""
    want = Oracle(g, seat).targets(free, lizard)
    got = engine_targets(c)
    diff = {}
    for k in want:
        missing, extra = want[k] - got[k], got[k] - want[k]
        if missing or extra:
            diff[k] = {"missing (completeness)": sorted(missing), "extra (soundness)": sorted(extra)}
    assert not diff, _describe(g, seat, diff)
    for k, v in want.items():
        stats[f"hexes {k}"] += len(v)
        stats[f"tb with {k}"] += bool(v)
    return want


# --------------------------------------------------------------------------------------------
# deeper in the chain: spades on the first hex, the Workshop, leftover spades (R62-R64, OP-34)


def check_chain(g: Game, c: Game, seat: int, free: int, lizard: bool, route: str, q: int, stats: Counter) -> None:
    """Choose ``q`` as the first hex of the TB pending in ``c`` (via ``route``) and check what follows."""
    o = Oracle(g, seat)
    p = o.p
    tools, coins = p[P_TOOLS], p[P_COINS]
    c = c.clone()
    if route == "tunnel":
        c.apply_action(TUNNEL)
        tools -= TUNNEL_TOOLS
    elif route == "fly":
        c.apply_action(FLY)
    d = o.dist[q]
    c.apply_action(HEX_BASE + q)
    if d == 0:  # R60 b / OP-35: the Workshop is built at once, paid normally
        assert int(c.state.hexes[q, H_BUILDING]) == WORKSHOP and int(c.state.hexes[q, H_OWNER]) == seat
        stats["chain build-only"] += 1
        return
    # R63.1 / R63.2: 1..k spades, free ones first, missing ones bought only if the free ones fall short
    k = d if free >= d else min(d, free + tools // o.rate)
    assert c.pending_kind() == Kind.TB_SPADES
    assert sorted(c.legal_actions()) == [COUNT_BASE + i for i in range(k)], (k, c.legal_moves())
    stats["chain spades"] += 1
    if k < d:
        return  # the hex cannot be finished: only terraforming in stages
    c.apply_action(COUNT_BASE + d - 1)  # finish the hex
    if lizard:  # R94 / OP-53: the free Workshop on any native hex in reach, this one included
        assert c.pending_kind() == Kind.LIZARD_BUILD
        want = lizard_workshop_hexes(o) | ({q} if o.workshops_left > 0 else set())
        assert _hex_ids(c.legal_actions()) == want and DONE in c.legal_actions(), c.legal_moves()
        stats["chain lizard workshop"] += 1
        return
    bought = max(0, d - free)
    tools_after = tools - bought * o.rate
    coins_after = coins + (2 * d if p[P_FACTION] == Faction.GOBLINS else 0)  # R91: +2 coins per spade
    assert c.pending_kind() == Kind.TB_FINISH
    legal = c.legal_actions()
    workshop = BUILDING_BASE + WORKSHOP - 1
    want_build = o.workshops_left > 0 and tools_after >= WORKSHOP_TOOLS and coins_after >= WORKSHOP_COINS
    assert (workshop in legal) == want_build, (tools_after, coins_after, c.legal_moves())
    left = free - min(d, free)
    # R63.3 / OP-34: leftovers one by one on other unbuilt non-native hexes in reach at the start
    want_extra = {x for x in o.reach() & o.empty if o.dist[x] > 0 and x != q} if left > 0 else set()
    assert _hex_ids(legal) == want_extra, (sorted(_hex_ids(legal) ^ want_extra), c.legal_moves())
    assert DONE in legal
    stats["chain finish"] += 1
    stats["chain leftovers"] += bool(want_extra)


def lizard_workshop_hexes(o: Oracle) -> set[int]:
    """R94: native unbuilt hexes in reach, if a Workshop is left (no tool or coin cost)."""
    if o.workshops_left <= 0:
        return set()
    return {x for x in o.reach() & o.empty if o.dist[x] == 0}


def check_lizard_skip(g: Game, seat: int, stats: Counter) -> None:
    """R94 / OP-53: the Lizards may skip the spade and only place the free Workshop."""
    c = g.clone()
    assert DONE in c.legal_actions()
    c.apply_action(DONE)
    want = lizard_workshop_hexes(Oracle(g, seat))
    if c.pending_kind() == Kind.LIZARD_BUILD:  # with no hex to build on, "done" alone is left
        assert _hex_ids(c.legal_actions()) == want, c.legal_moves()
        stats["lizard skip"] += 1
        stats["lizard skip, nothing to place"] += not want
    else:
        assert not want  # nothing to place: the decision is dropped (or answered when forced)


# --------------------------------------------------------------------------------------------
# bonus TB sources offered at MAIN (OP-58: only with a first hex)


def bonus_sources(g: Game, seat: int) -> dict[int, int]:
    """{action id: free spades} of the TB-granting actions whose cost the seat can pay now."""
    s = g.state
    p = [int(x) for x in s.players[seat]]
    out = {}
    discount = 1 if p[P_FACTION] == Faction.ILLUSIONISTS else 0  # R92
    power3 = p[P_BOWLS.start + 2]
    for i in (SPELL_S3, SPELL_S6):
        if not s.glob[G_SPELLS_USED.start + i] and power3 >= SPELL_POWER[i] - discount:
            out[SPELL_BASE + i] = FREE_SPADES[("spell", i)]
    books = sum(p[P_BOOKS])
    for slot, k in enumerate(s.glob[G_BOOK_ACTIONS].tolist()):
        if k == BOOK_BA6 and not s.glob[G_BOOKS_USED.start + slot] and books >= 3:
            out[BOOK_BASE + k] = FREE_SPADES[("book", k)]
    used = p[P_SPECIALS_USED]
    if p[P_BONUS] == B5 and not used >> SP_BONUS & 1:
        out[SPECIAL_BASE + SP_BONUS] = FREE_SPADES[("special", "B5")]
    palace_built = any(
        int(s.hexes[q, H_BUILDING]) == PALACE and int(s.hexes[q, H_OWNER]) == seat and not s.hexes[q, H_NEUTRAL]
        for q in range(NUM_POSITIONS)
    )
    if p[P_PALACE_TILE] == PALACE_2 and palace_built and not used >> SP_PALACE & 1:
        out[SPECIAL_BASE + SP_PALACE] = FREE_SPADES[("special", "palace2")]
    deus = g.data.innovation_keys.index("deus_ex_machina")
    if deus in p[P_INNOVATIONS.start : P_INNOVATIONS.stop] and not used >> SP_DEUS & 1:
        out[SPECIAL_BASE + SP_DEUS] = FREE_SPADES[("special", "deus")]
    return out


# --------------------------------------------------------------------------------------------
# random games


def _steer(g: Game, rng: np.random.Generator, mode: str) -> int:
    """``uniform``: any legal id; ``biased``: ``biased_random_action``; ``builder``: biased, but
    prefers TB / upgrades / palace 9 so tunnels, flights and bridges show up."""
    legal = g.legal_actions()
    if mode == "uniform":
        return random_action(g, rng)
    if mode == "builder":
        kind = g.pending_kind()
        if kind == Kind.CHOOSE_PALACE and PALACE_BASE + PALACE_9 in legal:
            return PALACE_BASE + PALACE_9
        if kind in (Kind.TB_TARGET,) and rng.random() < 0.5:
            jumps = [a for a in legal if a in (TUNNEL, FLY)]
            if jumps:
                return jumps[int(rng.integers(len(jumps)))]
        if kind == Kind.MAIN and rng.random() < 0.6:
            good = [a for a in legal if a == A_BUILD or BUILDING_BASE < a < BUILDING_BASE + 5]
            good += [a for a in legal if a == BUILDING_BASE + PALACE - 1] * 3
            if good:
                return good[int(rng.integers(len(good)))]
    return biased_random_action(g, rng)


GAMES = [
    # (game string, seeds, play mode)
    ("aoi(players=2,skip_forced=false)", range(8), "biased"),
    ("aoi(players=2,ruleset=v1.0,skip_forced=false)", range(4), "uniform"),
    ("aoi(players=3,skip_forced=false)", range(6), "biased"),
    ("aoi(players=3,map=1-3,skip_forced=false)", range(6), "biased"),
    ("aoi(players=3,map=1-3,ruleset=v1.0,distribution=draft,skip_forced=false)", range(4), "builder"),
    ("aoi(players=4,skip_forced=false)", range(6), "builder"),
    ("aoi(players=4,ruleset=v1.0,skip_forced=false)", range(4), "uniform"),
    ("aoi(players=5,skip_forced=false)", range(4), "biased"),
    ("aoi(players=5,distribution=draft,skip_forced=false)", range(4), "builder"),
    (
        "aoi(players=5,factions=moles+lizards+goblins+navigators+psychics,"
        "boards=desert+plains+swamp+lake+forest,skip_forced=false)",
        range(6),
        "builder",
    ),
    (
        "aoi(players=4,factions=blessed+felines+illusionists+inventors,"
        "boards=mountain+wasteland+lake+plains,skip_forced=false)",
        range(4),
        "builder",
    ),
    (
        "aoi(players=3,map=1-3,factions=monks+omar+philosophers,boards=forest+mountain+wasteland,skip_forced=false)",
        range(4),
        "builder",
    ),
    ("aoi(players=2,factions=moles+omar,boards=lake+desert,skip_forced=false)", range(6), "builder"),
    ("aoi(players=3,factions=moles+lizards+monks,boards=swamp+lake+mountain,skip_forced=false)", range(6), "builder"),
]


def run_games(games: list[tuple[str, range, str]]) -> Counter:
    stats: Counter = Counter()
    for game, seeds, mode in games:
        for seed in seeds:
            g = Game(game, seed=seed)
            rng = np.random.default_rng(1000 + seed)
            stats[f"side {g.geo.name}"] += 1
            expect_free: tuple[int, int] | None = None  # (seat, free spades) of a bonus TB just chosen
            while not g.is_over():
                kind = g.pending_kind()
                seat = g.current_seat()
                if kind == Kind.MAIN:
                    p = g.state.players[seat]
                    stats[f"faction {Faction(int(p[P_FACTION])).name}"] += 1
                    stats[f"board {int(p[P_BOARD])}"] += 1
                    legal = g.legal_actions()
                    o = Oracle(g, seat)
                    want = o.targets(0)
                    if A_BUILD in legal:
                        c = g.clone()
                        c.apply_action(A_BUILD)
                        compare(g, c, seat, 0, False, stats)
                        route = [r for r in ("plain", "tunnel", "fly") if want[r]]
                        r = route[int(rng.integers(len(route)))]
                        hexes = sorted(want[r])
                        check_chain(g, c, seat, 0, False, r, hexes[int(rng.integers(len(hexes)))], stats)
                    else:
                        assert not any(want.values()), _describe(g, seat, {"build not offered": want})
                    stats["main"] += 1
                    # OP-58: bonus TBs are offered only with a first hex for their free spades
                    for a, free in bonus_sources(g, seat).items():
                        has = any(o.targets(free).values())
                        assert (a in legal) == has, _describe(g, seat, {f"bonus TB {a} offered": a in legal})
                        stats["bonus source checked"] += 1
                elif kind == Kind.TB_TARGET:
                    row = _top(g)
                    free, flags = row[2], row[3]
                    if free > 0:
                        lizard = bool(flags & TB_LIZARD)
                        if lizard:
                            assert int(g.state.players[seat, P_FACTION]) == Faction.LIZARDS
                            assert free == 1  # R94
                            stats["tb lizard"] += 1
                        if expect_free is not None and expect_free[0] == seat:
                            assert free == expect_free[1], (free, expect_free)
                            stats["tb source free spades"] += 1
                        expect_free = None
                        want = compare(g, g, seat, free, lizard, stats)
                        if lizard:
                            check_lizard_skip(g, seat, stats)
                        stats[f"bonus tb {free}"] += 1
                        routes = [r for r in ("plain", "tunnel", "fly") if want[r]]
                        if routes:
                            r = routes[int(rng.integers(len(routes)))]
                            hexes = sorted(want[r])
                            check_chain(g, g, seat, free, lizard, r, hexes[int(rng.integers(len(hexes)))], stats)
                a = _steer(g, rng, mode)
                if kind == Kind.MAIN:
                    expect_free = None
                    src = None
                    if SPELL_BASE <= a < SPELL_BASE + 6:
                        src = FREE_SPADES.get(("spell", a - SPELL_BASE))
                    elif BOOK_BASE <= a < BOOK_BASE + 6:
                        src = FREE_SPADES.get(("book", a - BOOK_BASE))
                    elif a in bonus_sources(g, seat) and SPECIAL_BASE <= a < SPECIAL_BASE + 6:
                        src = bonus_sources(g, seat)[a]
                    if src is not None:
                        expect_free = (seat, src)
                g.apply_action(a)
    return stats


def test_tb_targets_match_an_independent_oracle_in_random_games() -> None:
    """R38, R39, R40, R60, R61, R62, R63, R64, R65, R94, R95, R129, R138 (B1), OP-34, OP-35,
    OP-41, OP-48, OP-49, OP-58: at every MAIN decision the hexes offered for the Terraform and
    Build action (direct, Moles' tunnel, palace 9 flight) equal the oracle's, both ways; the same
    for every bonus TB (S3, S6, BA6, B5, palace 2, Deus Ex Machina, K4, C5, palace 15, Lizards);
    the spade counts, Workshop offer and leftover spades down the chain agree; bonus TB actions
    are offered exactly when the oracle finds a first hex.  Every faction, every planning board
    and both board sides occur."""
    t0 = time.perf_counter()
    stats = run_games(GAMES)
    elapsed = time.perf_counter() - t0
    print(dict(sorted(stats.items())), f"{elapsed:.1f}s")
    assert stats["main"] > 2000
    assert stats["tb with plain"] > 1000
    assert stats["hexes plain"] > 5000
    assert stats["tb with tunnel"] > 50  # Moles' tunnel (R95)
    assert stats["tb with fly"] > 5  # palace 9 (R129)
    assert stats["chain spades"] > 500 and stats["chain finish"] > 100 and stats["chain build-only"] > 50
    assert stats["chain leftovers"] > 5
    assert sum(v for k, v in stats.items() if k.startswith("bonus tb ")) > 100
    assert stats["tb source free spades"] > 50 and stats["bonus source checked"] > 500
    assert all(stats[f"faction {f.name}"] > 0 for f in Faction)
    assert all(stats[f"board {b}"] > 0 for b in range(7))
    assert stats["side 1-3"] > 0 and stats["side 3-5"] > 0


# --------------------------------------------------------------------------------------------
# random positions: rare situations random play seldom reaches (9 Workshops on the map, B1 on
# sailing 3, bridges of every kind, palace 9 with few scholars, own neutral buildings ...)

_BUILDINGS = ("workshop",) * 6 + ("guild", "school")
_TERRAINS = ("desert", "plains", "swamp", "lake", "forest", "mountain", "wasteland")


def random_position(side: str, seed: int, bonus_tb: bool = False) -> tuple[Game, int, int, int]:
    """A random legal Phase II position (``Scenario``); returns (game with the seat's MAIN
    pending -- or, with ``bonus_tb``, a bonus TB's first hex --, seat, free spades of that bonus
    TB (0: none), 1 if it is the Lizards' city TB)."""
    from aoi_env.testing import Scenario

    rng = np.random.default_rng(seed)
    players = 2 if side == "1-3" and rng.random() < 0.5 else 3
    game = f"aoi(players={players},map={side})" if players == 3 else "aoi(players=2)"
    seat = int(rng.integers(players))
    names = [f.name.lower() for f in Faction]
    r = rng.random()
    if r < 0.5:  # the Moles' tunnel (R95) or the Lizards' city TB (R94) at the deciding seat
        mine = "moles" if r < 0.35 else "lizards"
        others = list(rng.choice([n for n in names if n != mine], size=players - 1, replace=False))
        factions = [*others[:seat], mine, *others[seat:]]
    else:
        factions = list(rng.choice(names, size=players, replace=False))
    boards = list(rng.choice(_TERRAINS, size=players, replace=False))
    sc = Scenario(game, factions=factions, boards=boards, seed=seed)
    g = sc.g
    land = [int(q) for q in g.geo.land_positions]
    for q in rng.choice(land, size=len(land) // 3, replace=False):  # scrambled terrain
        sc.terrain(f"r{q // 13}c{q % 13}", _TERRAINS[int(rng.integers(7))])
    free_land = list(rng.permutation(land))

    def place(owner: int, building: str, **kw: bool) -> None:
        q = int(free_land.pop())
        sc.build(owner, f"r{q // 13}c{q % 13}", building, **kw)

    for s_ in range(players):
        if s_ == seat and rng.random() < 0.25:
            workshops = WORKSHOP_PIECES  # R64: none left on the planning board
        else:
            workshops = int(rng.integers(0 if s_ != seat else 1, 6 if s_ == seat else 4))
        for _ in range(workshops):
            place(s_, "workshop", terrain=bool(rng.random() < 0.9))
        for _ in range(int(rng.integers(0, 3))):
            place(s_, "guild")
        if rng.random() < 0.3:
            place(s_, "school")
        if rng.random() < 0.3:  # an own neutral Tower (Omar / C10, R39: counts for reach)
            place(s_, "tower", neutral=True)
    flight = rng.random() < 0.35
    if flight:
        place(seat, "palace")
        sc.palace_tile(seat, 9)
    elif rng.random() < 0.3:  # draft: palace 9 drafted but no Palace yet, so no flight (OP-54)
        sc.draft_palace(seat, 9)
    # bridges: printed spots and Moles-geometry pairs touching some building (R40, OP-47)
    h = g.state.hexes
    spots = list(g.geo.bridge_spots) + list(g.geo.bridge_geometry)
    used: set[tuple[int, int]] = set()
    for _ in range(int(rng.integers(0, 5))):
        a, b = spots[int(rng.integers(len(spots)))]
        owners = {int(h[x, H_OWNER]) for x in (a, b) if h[x, H_BUILDING] > 0}
        owner = next(iter(owners), -1)
        if owner < 0 or (a, b) in used or int(g.state.players[owner, P_BRIDGES]) >= 3:
            continue
        used.add((a, b))
        sc.bridge(owner, f"r{a // 13}c{a % 13}", f"r{b // 13}c{b % 13}")
    board_sail = g.data.boards[int(g.state.players[seat, P_BOARD])].sailing_start
    sc.set(
        seat,
        tools=int(rng.integers(0, 8)),
        coins=int(rng.integers(0, 6)),
        scholars=int(rng.integers(0, 3)),
        sailing=int(rng.integers(board_sail, 4)),
        terraforming=int(rng.integers(0, 3)),
    )
    if rng.random() < 0.4:
        sc.bonus(seat, "B1")
    free = int(rng.integers(0, 4))
    lizard = int(factions[seat] == "lizards" and rng.random() < 0.7)
    free = 1 if lizard else free
    if bonus_tb and free:
        flags = TB_BUY | (TB_LIZARD if lizard else TB_BUILD)  # R94: the Lizards' TB (free Workshop)
        return sc.decide(Kind.TB_TARGET, seat, free, flags), seat, free, lizard
    return sc.turn(seat), seat, free, lizard


def test_tb_targets_match_the_oracle_in_random_positions() -> None:
    """R38, R39 (B1 +1 above sailing 3, OP-41; own neutral buildings), R40 (printed and Moles
    bridges), R61, R62, R64 (no Workshop left: terraform only), R95 / OP-48, R129 / OP-49:
    the first hexes of the TB action at MAIN, and of a bonus TB with 1-3 free spades, equal the
    oracle's in random positions of both board sides."""
    stats: Counter = Counter()
    for i in range(400):
        side = "1-3" if i % 2 else "3-5"
        g, seat, free, lizard = random_position(side, i)
        o = Oracle(g, seat)
        want = o.targets(0)
        stats["no workshop left"] += o.workshops_left == 0
        if A_BUILD in g.legal_actions():
            c = g.clone()
            c.apply_action(A_BUILD)
            compare(g, c, seat, 0, False, stats)
        else:
            assert not any(want.values()), _describe(g, seat, {"build not offered": want})
        if free and any(o.targets(free, bool(lizard)).values()):
            c = random_position(side, i, bonus_tb=True)[0]
            want = compare(c, c, seat, free, bool(lizard), stats)
            stats["bonus"] += 1
            if lizard:
                check_lizard_skip(c, seat, stats)
            route = [r for r in ("plain", "tunnel", "fly") if want[r]][0]
            check_chain(c, c, seat, free, bool(lizard), route, min(want[route]), stats)
        stats["positions"] += 1
    print(dict(stats))
    assert stats["positions"] == 400
    assert stats["tb with plain"] > 150 and stats["tb with tunnel"] > 30 and stats["tb with fly"] > 30
    assert stats["no workshop left"] > 20 and stats["bonus"] > 100
    assert stats["chain spades"] > 100 and stats["chain finish"] > 50 and stats["chain leftovers"] > 20
    assert stats["lizard skip"] > 10 and stats["chain lizard workshop"] > 5
    assert stats["lizard skip, nothing to place"] > 0  # R64: no Workshop left (the Lizards' TB then only digs)
