"""Independent oracle for the VP of passing (R78) and of the final scoring (R82-R86) in random games.

The expected values are re-derived here from RULES.md / the rulebook and the raw state arrays;
no engine function that implements these rules is called (``aoi_env.core.rules.scoring``,
``turn.pass_gains``, ``automa.pass_vp`` / ``end_game_vp``, ``Geometry.reach`` / ``area_relation``
are all avoided).  Used from the engine: the static map (``g.geo.terrain`` and ``g.geo.neighbors``,
plain edge adjacency), state field constants, and two observation hooks: ``flow._end_of_actions``
is wrapped to snapshot the position at the end of every Phase II (so just before the final
scoring in round 6), ``flow.automa_frames`` to see each Automa turn.  Games run with
``skip_forced=false`` so that a forced Pass is a decision too: every pass of every seat is checked
(the count is asserted per game).  A pass is measured from its Pass decision through its own
decisions (B8's steps, keys, the new bonus tile, conversions) up to the next seat's turn or the
end of Phase II.

Oracle 1 -- passing (R78.1, R146 "Pass" row; [UA] l. 888-906, 1326, 1392, 1473, 1547, 1571,
1716, 1726):

- round bonus B4: 4 VP per own University and per own Palace on the map;
- B8: 1 step per own School on the map (VP only through round tile T4, 1 VP per step gained in
  Phase II, R142);
- innovation Trade Routes (R103, OP-17): 2 VP per own Guild;
- Palace 7 (R127): 3 VP per own School;
- C8: 2 VP per city tile owned; C12: VP equal to the lowest discipline level (after B8's steps);
- neutral buildings count as their type ([UA] l. 1392: "also counted when passing");
- taking the new round bonus tile gives coins only, no VP (R78.2).

Automa pass (AUTOMA.md §2.4, §4.5; docs/automa.md "Round score tiles"): the Automa VP of the round
tile (rounds 1-3 / 4-6 side), the final tile's in round 6; Racelings twice when first to pass.

Oracle 2 -- final scoring (R82-R86, R24/R25, OP-11, OP-60; [UA] l. 1056-1104, 1138-1148):

- R83 area: largest group of own buildings, transitively "in reach" (R39: shared edge, a built
  bridge of anybody (R38), or a river-only path of 1..s river hexes, s = the sailing track, never
  B1's +1); Moles: + graph distance 2 (tunnel, R95 / OP-48); Palace 9: + distance <= 3 (flight,
  R129 / OP-49); 18/12/6 with ties sharing the payouts of the ranks they occupy, rounded down;
- R84 science: per track 8/4/2, same ties, level 0 scores nothing;
- R85 resources: coins + tools + books + held scholars + bowl III + bowl II // 2, 1 VP per 5;
- R24/R25 two players: the neutral faction ranks with the area token (OP-11) and its markers
  (level 2 + the science-bonus thresholds of the round 1-5 tiles); its share is lost;
- Automa (AUTOMA.md §8, docs/automa.md #3): area with her round-6 ship level and no bridges,
  science majorities, no resources, Wanderers +2 VP per own building.
Building ownership is derived from the terrain (R34: one builds only on native terrain, R46.3:
a neutral building belongs to the player whose native terrain it stands on) and checked against
the owner field.  The final round tiles F1-F4 (R144) score during round 6's Phase II only, so
they add nothing here.  Innovations R105-R113 are one-time effects when developed, not at the end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from aoi_env.core import flow
from aoi_env.core.config import GameConfig
from aoi_env.core.engine import Game
from aoi_env.core.moves import A_PASS, CONVERT_BASE, NUM_CONVERSIONS
from aoi_env.core.pending import Kind
from aoi_env.core.state import (
    G_AREA_TOKEN,
    G_FINAL_TILE,
    G_NEUTRAL_SCIENCE,
    G_PHASE,
    G_ROUND,
    G_ROUND_TILES,
    H_BUILDING,
    H_NEUTRAL,
    H_OWNER,
    H_TERRAIN,
    P_BOARD,
    P_BONUS,
    P_BOOKS,
    P_BOWLS,
    P_CITIES,
    P_COINS,
    P_COMPETENCIES,
    P_FACTION,
    P_INNOVATIONS,
    P_PALACE_TILE,
    P_PASSED,
    P_SAILING,
    P_SCHOLARS,
    P_SCIENCE,
    P_TOOLS,
    P_VP,
    Phase,
    turn_seat,
)
from aoi_env.data import load
from aoi_env.data.enums import Building, Faction, Terrain
from aoi_env.testing import Scenario, biased_random_action, random_action
from tests.rules.oracle_common import (
    AREA_VP,
    BOARDS,
    FACTIONS,
    NEUTRAL_PIECES,
    PIECES,
    SCIENCE_VP,
    adjacency,
    built_bridges,
    distances,
    groups,
    ranked_payouts,
    reach_from,
)

# ---------------------------------------------------------------------------------------------
# numbers from RULES.md / AUTOMA.md (typed in here, not read from the engine's tables)

COINS_PER_VP = 5  # R85
NEUTRAL_START = 2  # R24.3
# R142: science-bonus discipline (0 Bk, 1 La, 2 En, 3 Me) and threshold of T1..T12
ROUND_SCIENCE = {
    "T1": (1, 3), "T2": (2, 1), "T3": (0, 3), "T4": (3, 3), "T5": (1, 3), "T6": (2, 4),
    "T7": (3, 4), "T8": (2, 3), "T9": (0, 1), "T10": (1, 2), "T11": (3, 2), "T12": (0, 2),
}  # fmt: skip
# AUTOMA.md §2.4 by app tile number, with docs/automa.md's matching of app tiles to T ids
AUTOMA_ROUND_VP = {
    "T3": (3, 7), "T9": (4, 4), "T12": (3, 5), "T1": (4, 4), "T5": (2, 5), "T10": (3, 5),
    "T2": (3, 5), "T6": (2, 5), "T8": (0, 4), "T4": (4, 4), "T7": (3, 5), "T11": (2, 5),
}  # fmt: skip
AUTOMA_FINAL_VP = {"F4": 8, "F2": 6, "F3": 7, "F1": 7}  # AUTOMA.md §2.4 (app 1-4 = F4, F2, F3, F1)
AUTOMA_SHIP_ROUND6 = {1: 2, 2: 2, 3: 2, 4: 2, 5: 3}  # AUTOMA.md §2.3
WANDERERS_VP_PER_BUILDING = 2  # AUTOMA.md §7, §8.3

_DATA = load()
ROUND_TILE_KEYS = list(_DATA.raw["round_scoring_tiles"])  # "T1".."T12" in state index order
FINAL_TILE_KEYS = list(_DATA.raw["final_round_tiles"])  # "F1".."F4"
BONUS_KEYS = list(_DATA.raw["round_bonus_tiles"])  # "B1".."B10"
INNOVATION_KEYS = list(_DATA.raw["innovations"])
B4, B8 = BONUS_KEYS.index("B4"), BONUS_KEYS.index("B8")
TRADE_ROUTES = INNOVATION_KEYS.index("trade_routes")
PALACE_7, PALACE_9 = 7 - 1, 9 - 1  # palace tile ids are the printed number - 1
C8, C12 = 8 - 1, 12 - 1  # competency bits are C-number - 1
T4 = ROUND_TILE_KEYS.index("T4")

PASS_KINDS = {Kind.STEPS_ANY, Kind.USE_KEY, Kind.PASS_BONUS, Kind.POST}  # decisions inside a pass


# ---------------------------------------------------------------------------------------------
# the oracle: geometry, ownership, areas


def _automa_specs(g: Game) -> dict[int, tuple[str, int]]:
    """Automa seat -> (faction, level), read from the game string ``faction:level[:terrain]``."""
    out = {}
    for i, spec in enumerate(g.config.automa):
        faction, level = spec.split(":")[:2]
        out[g.config.players + i] = (faction, int(level))
    return out


def _buildings_by_seat(g: Game) -> dict[int, list[int]]:
    """Every seat's building positions; the owner is the seat whose native terrain the hex shows
    (R34, R46.3), checked against the state's owner field."""
    h = g.state.hexes
    native = {int(g.state.players[seat, P_BOARD]): seat for seat in range(g.seats)}
    assert len(native) == g.seats and -1 not in native, "every seat has its own terrain"
    out: dict[int, list[int]] = {seat: [] for seat in range(g.seats)}
    for pos in np.flatnonzero(h[:, H_BUILDING] > 0).tolist():
        seat = native[int(h[pos, H_TERRAIN])]
        assert int(h[pos, H_OWNER]) == seat, f"owner field of {pos} disagrees with its terrain"
        out[seat].append(pos)
    return out


def _in_reach(g: Game, pos: int, sailing: int, bridges: list[tuple[int, int]]) -> set[int]:
    """R39 / R38: land hexes adjacent to ``pos`` (edge or a built bridge), or at the end of a path
    through 1..``sailing`` river hexes."""
    terrain = g.geo.terrain
    return reach_from(g.geo.neighbors, terrain < Terrain.RIVER, terrain == Terrain.RIVER, [pos], sailing, bridges)


def _within(g: Game, pos: int, depth: int, bridges: list[tuple[int, int]]) -> set[int]:
    """Hexes at graph distance 1..depth over any hexes (edges and built bridges, OP-48 / OP-49)."""
    return {q for q, d in distances(adjacency(g.geo.neighbors, bridges), [pos], depth).items() if d}


def _largest_group(g: Game, seat: int, positions: list[int]) -> int:
    """R83: the largest set of own buildings connected by the pairwise "in reach" relation."""
    automa = _automa_specs(g)
    if seat in automa:  # AUTOMA.md §8.1, docs/automa.md #3: round-6 ship level, no bridges at all
        sailing, bridges, jump = AUTOMA_SHIP_ROUND6[automa[seat][1]], [], 0
    else:  # the track value; B1's +1 does not count (R83)
        p = g.state.players[seat]
        sailing, bridges = int(p[P_SAILING]), built_bridges(g.state)
        jump = 3 if int(p[P_PALACE_TILE]) == PALACE_9 else 2 if int(p[P_FACTION]) == Faction.MOLES else 0
    own = set(positions)
    rel = {}
    for pos in positions:
        near = _in_reach(g, pos, sailing, bridges)
        if jump:
            near |= _within(g, pos, jump, bridges)
        rel[pos] = near & own
    links = {p: {q for q in own if q in rel[p] or p in rel[q]} for p in own}
    return max((len(grp) for grp in groups(own, links)), default=0)


def _neutral_science(g: Game) -> list[int]:
    """R24.3: level 2 plus, per discipline, the thresholds of the round 1-5 science bonuses."""
    levels = [NEUTRAL_START] * 4
    for tile in g.state.glob[G_ROUND_TILES][:5].tolist():
        d, per = ROUND_SCIENCE[ROUND_TILE_KEYS[tile]]
        levels[d] += per
    return levels


def expected_final_vp(g: Game) -> tuple[list[int], dict[str, list[int]]]:
    """Every seat's VP gain from the final scoring, computed on the position just before it."""
    s = g.state
    n = g.seats
    automa = _automa_specs(g)
    humans = [seat for seat in range(n) if seat not in automa]
    own = _buildings_by_seat(g)
    neutral = n == 2 and not automa  # R24; no neutral faction with the Automa (docs/automa.md #32)
    areas: dict[Any, int] = {seat: _largest_group(g, seat, own[seat]) for seat in range(n)}
    if neutral:
        token = int(s.glob[G_AREA_TOKEN])
        assert token in g.config.area_tokens, "R24.2: the area token is one of the tokens"
        areas["neutral"] = token
        assert [int(x) for x in s.glob[G_NEUTRAL_SCIENCE]] == _neutral_science(g), "R24.3 neutral markers"
    area = ranked_payouts(areas, AREA_VP)
    science = [0] * n
    for d in range(4):
        levels: dict[Any, int] = {seat: int(s.players[seat, P_SCIENCE.start + d]) for seat in range(n)}
        if neutral:
            levels["neutral"] = _neutral_science(g)[d]
        for seat, vp in ranked_payouts(levels, SCIENCE_VP).items():
            if seat != "neutral":
                science[seat] += vp
    resources = [0] * n
    for seat in humans:  # R85 / OP-60; the Automa scores no resources (AUTOMA.md §8.5)
        p = s.players[seat]
        coins = int(p[P_COINS] + p[P_TOOLS] + p[P_BOOKS].sum() + p[P_SCHOLARS] + p[P_BOWLS][2] + p[P_BOWLS][1] // 2)
        resources[seat] = coins // COINS_PER_VP
    extra = [0] * n
    for seat, (faction, _) in automa.items():  # AUTOMA.md §8.3
        if faction == "wanderers":
            extra[seat] = WANDERERS_VP_PER_BUILDING * len(own[seat])
    total = [area[seat] + science[seat] + resources[seat] + extra[seat] for seat in range(n)]
    parts = {"area": [area[seat] for seat in range(n)], "area_size": [areas[seat] for seat in range(n)],
             "science": science, "resources": resources, "extra": extra}  # fmt: skip
    return total, parts


# ---------------------------------------------------------------------------------------------
# the oracle: passing


def _count(g: Game, positions: list[int], *types: Building) -> int:
    h = g.state.hexes
    return sum(1 for pos in positions if int(h[pos, H_BUILDING]) in types)


def expected_pass_vp(before: Game, after: Game, seat: int) -> tuple[int, dict[str, int]]:
    """R78.1: VP of one human pass, from the position before it (``before``, the Pass decision)
    and the science after its steps (``after``: B8's steps, C12 read after them)."""
    p = before.state.players[seat]
    own = _buildings_by_seat(before)[seat]
    rnd = int(before.state.glob[G_ROUND])
    parts: dict[str, int] = {}
    level_before = [int(x) for x in p[P_SCIENCE]]
    level_after = [int(x) for x in after.state.players[seat, P_SCIENCE]]
    steps = sum(level_after) - sum(level_before)
    if int(p[P_BONUS]) == B4:
        parts["B4"] = 4 * _count(before, own, Building.UNIVERSITY, Building.PALACE)
    schools = _count(before, own, Building.SCHOOL)
    if int(p[P_BONUS]) == B8:
        assert 0 <= steps <= schools, f"B8: {steps} steps for {schools} Schools"
        parts["B8 steps (no VP)"] = steps
    else:
        assert steps == 0, "science steps in a pass without B8"
    if int(before.state.glob[G_ROUND_TILES][rnd - 1]) == T4:  # R142 T4: 1 VP per step in Phase II
        parts["T4"] = steps
    if TRADE_ROUTES in p[P_INNOVATIONS].tolist():
        parts["trade_routes"] = 2 * _count(before, own, Building.GUILD)
    own_palace = [pos for pos in own if int(before.state.hexes[pos, H_BUILDING]) == Building.PALACE
                  and not before.state.hexes[pos, H_NEUTRAL]]  # fmt: skip
    assert bool(own_palace) == (int(p[P_PALACE_TILE]) >= 0), "R120: a palace tile iff the own Palace is built"
    if int(p[P_PALACE_TILE]) == PALACE_7:
        parts["palace7"] = 3 * schools
    comps = int(p[P_COMPETENCIES])
    if comps >> C8 & 1:
        parts["C8"] = 2 * int(p[P_CITIES])
    if comps >> C12 & 1:
        parts["C12"] = min(level_after)
        if steps and min(level_after) > min(level_before):
            parts["C12 raised by B8 (counted above)"] = 0
    neutral = [pos for pos in own if before.state.hexes[pos, H_NEUTRAL]]
    counted = {"B4": (Building.UNIVERSITY, Building.PALACE), "trade_routes": (Building.GUILD,),
               "palace7": (Building.SCHOOL,), "B8 steps (no VP)": (Building.SCHOOL,)}  # fmt: skip
    if any(k in parts and _count(before, neutral, *types) for k, types in counted.items()):
        parts["neutral building counted (counted above)"] = 0
    return sum(v for k, v in parts.items() if "(" not in k), parts


def expected_automa_pass_vp(g: Game, seat: int, first: bool) -> int:
    """AUTOMA.md §2.4, §4.5: the round tile's Automa VP (round 6: the final tile), twice for the
    Racelings when nobody passed before them this round."""
    rnd = int(g.state.glob[G_ROUND])
    if rnd == 6:
        vp = AUTOMA_FINAL_VP[FINAL_TILE_KEYS[int(g.state.glob[G_FINAL_TILE])]]
    else:
        vp = AUTOMA_ROUND_VP[ROUND_TILE_KEYS[int(g.state.glob[G_ROUND_TILES][rnd - 1])]][0 if rnd <= 3 else 1]
    faction = _automa_specs(g)[seat][0]
    return 2 * vp if faction == "racelings" and first else vp


# ---------------------------------------------------------------------------------------------
# playing random games with the checks


@dataclass
class Tally:
    human_passes: int = 0
    automa_passes: int = 0
    finals: int = 0
    seats_scored: int = 0
    parts: Counter = field(default_factory=Counter)  # pass parts / final features seen with VP > 0
    configs: set = field(default_factory=set)
    factions: set = field(default_factory=set)
    boards: set = field(default_factory=set)
    mismatches: list = field(default_factory=list)


@contextmanager
def _hooks(ends: list[Game], automa_events: list[tuple[int, int, int, int, bool]]):  # noqa: ANN202
    """Snapshot the game at every end of Phase II (before the round-6 final scoring) and record
    (seat, VP before, VP after, expected VP gain, first to pass) for every Automa pass."""
    original = flow._end_of_actions
    before: dict[str, Any] = {}

    def end_of_actions(g: Game) -> None:
        ends.append(g.clone())
        original(g)

    def on_before(g: Game) -> None:
        seat = turn_seat(g.state)
        before.update(seat=seat, vp=int(g.state.players[seat, P_VP]), first=not g.state.players[:, P_PASSED].any(),
                      game=g.clone())  # fmt: skip

    def on_step(g: Game, seat: int, what: str) -> None:
        if what == "passes":
            assert seat == before["seat"]
            expected = expected_automa_pass_vp(before["game"], seat, before["first"])
            automa_events.append((seat, before["vp"], int(g.state.players[seat, P_VP]), expected, before["first"]))

    flow._end_of_actions = end_of_actions
    try:
        with flow.automa_frames(on_before, on_step):
            yield
    finally:
        flow._end_of_actions = original


Policy = Callable[[Game, np.random.Generator], int]

PREFER = ("innovate", "innovation trade_routes", "palace 7", "palace 9", "competency C8", "competency C12",
          "bonus B4", "bonus B8", "convert 5pw book", "upgrade")  # fmt: skip
SPEND_BOOKS = ("book BA", "convert book")


def steered(g: Game, rng: np.random.Generator) -> int:
    """Biased random play steered towards the pass effects: 70% of the time the first of
    ``PREFER`` that is legal (innovations, Palace 7 / 9, C8, C12, B4, B8, books, upgrades), and
    books are kept for innovations (no book actions, no book -> coin)."""
    if g.pending_kind() == Kind.OFFER:
        return biased_random_action(g, rng)
    legal, moves = g.legal_actions(), g.legal_moves()
    if rng.random() < 0.7:
        for prefix in PREFER:
            hits = [i for i, m in enumerate(moves) if m.startswith(prefix)]
            if hits:
                return legal[hits[int(rng.integers(len(hits)))]]
    a = biased_random_action(g, rng)
    keep = [i for i, m in enumerate(moves) if not m.startswith(SPEND_BOOKS)]
    if keep and moves[legal.index(a)].startswith(SPEND_BOOKS):
        return legal[keep[int(rng.integers(len(keep)))]]
    return a


def passer(g: Game, rng: np.random.Generator) -> int:
    """Random play that passes at 80% of its main decisions (ends scenario rounds quickly)."""
    if g.pending_kind() == Kind.MAIN and A_PASS in g.legal_actions() and rng.random() < 0.8:
        return A_PASS
    return biased_random_action(g, rng)


def stubborn(g: Game, rng: np.random.Generator) -> int:
    """Random play that passes only when no real action is left (Automa games: she passes first)."""
    if g.pending_kind() == Kind.MAIN:
        real = [a for a in g.legal_actions() if a != A_PASS and not CONVERT_BASE <= a < CONVERT_BASE + NUM_CONVERSIONS]
        if real:
            return real[int(rng.integers(len(real)))]
    return biased_random_action(g, rng)


POLICIES: dict[str, Policy] = {"biased": biased_random_action, "uniform": random_action, "steered": steered,
            "passer": passer, "stubborn": stubborn}  # fmt: skip


def play_and_check(game: str, seed: int, policy: str, tally: Tally, start: Callable[[], Game] | None = None) -> None:
    """Play one game from its start (or from ``start()``) to the end with ``policy``, checking
    every pass (human and Automa) and the final scoring against the oracle."""
    rng = np.random.default_rng(seed * 7 + 11)
    choose = POLICIES[policy]
    ends: list[Game] = []
    automa_events: list = []
    window: tuple[int, Game] | None = None  # (seat, position at its Pass decision)
    with _hooks(ends, automa_events):
        # skip_forced=false: a Pass that is the only legal move is a decision too, so seen here
        g = (
            start()
            if start
            else Game(GameConfig.from_params(GameConfig.parse(game).to_params(), skip_forced=False), seed)
        )
        first_round, passes_before = max(1, int(g.state.glob[G_ROUND])), tally.human_passes
        while not g.is_over():
            kind, seat = g.pending_kind(), g.current_seat()
            action = choose(g, rng)
            if kind == Kind.MAIN and action == A_PASS:
                assert window is None
                window = (seat, g.clone())
            ends_before = len(ends)
            g.apply_action(action)
            if window is not None:
                if len(ends) > ends_before:  # Phase II ended (and maybe the game): read the VP there
                    _check_pass(window[1], ends[-1], window[0], tally, game, seed)
                    window = None
                elif not (g.current_seat() == window[0] and g.pending_kind() in PASS_KINDS):
                    assert int(g.state.glob[G_PHASE]) == Phase.ACTIONS
                    _check_pass(window[1], g, window[0], tally, game, seed)
                    window = None
    assert tally.human_passes - passes_before == (7 - first_round) * g.config.players, "a pass was not seen"
    for seat, vp0, vp1, expected, first in automa_events:
        tally.automa_passes += 1
        if first and _automa_specs(g)[seat][0] == "racelings":
            tally.parts["automa: Racelings pass first"] += 1
        if vp1 - vp0 != expected:
            tally.mismatches.append((game, seed, "automa pass", seat, vp1 - vp0, expected))
    final = ends[-1]
    assert int(final.state.glob[G_ROUND]) == 6
    expected, parts = expected_final_vp(final)
    got = (g.scores() - final.scores()).tolist()
    tally.finals += 1
    tally.seats_scored += g.seats
    if got != expected:
        tally.mismatches.append((game, seed, "final", got, expected, parts))
    tally.configs.add(game)
    players = final.state.players
    tally.factions.update(int(f) for f in players[: g.config.players, P_FACTION])
    tally.boards.update(int(b) for b in players[: g.config.players, P_BOARD])
    for seat in range(g.config.players):
        if int(players[seat, P_FACTION]) == Faction.MOLES:
            tally.parts["final: moles"] += 1
        if int(players[seat, P_PALACE_TILE]) == PALACE_9:
            tally.parts["final: palace 9"] += 1
    if built_bridges(final.state):
        tally.parts["final: bridges"] += 1
    if len(set(parts["area_size"])) < len(parts["area_size"]):
        tally.parts["final: area tie"] += 1


def _check_pass(before: Game, after: Game, seat: int, tally: Tally, game: str, seed: int) -> None:
    expected, parts = expected_pass_vp(before, after, seat)
    got = int(after.state.players[seat, P_VP]) - int(before.state.players[seat, P_VP])
    tally.human_passes += 1
    tally.parts.update(k for k, v in parts.items() if v > 0 or "counted above" in k)
    if got != expected:
        tally.mismatches.append((game, seed, "pass", seat, int(before.state.glob[G_ROUND]), got, expected, parts))


# ---------------------------------------------------------------------------------------------
# the configurations: 2-5 players, both rulesets, both distributions, every faction and board,
# the 1-3 side with 3 players, other area tokens, and Automa games


def _fixed(players: int, k: int) -> str:
    factions = "+".join(FACTIONS[(k * players + i) % 12] for i in range(players))
    boards = "+".join(BOARDS[(k * players + i) % 7] for i in range(players))
    return f"factions={factions},boards={boards}"


HUMAN_GAMES = [
    # (game string, seeds, policy)
    *[(f"aoi(players={n})", range(6), pol) for n in (2, 3, 4, 5) for pol in ("biased", "steered")],
    *[(f"aoi(players={n})", range(6, 9), "uniform") for n in (2, 3, 4, 5)],
    *[(f"aoi(players={n},ruleset=v1.0)", range(4), "steered") for n in (2, 3, 4, 5)],
    *[(f"aoi(players={n},ruleset=v1.0)", range(4, 6), "biased") for n in (2, 3, 4, 5)],
    *[(f"aoi(players={n},distribution=draft)", range(4), "steered") for n in (2, 3, 4, 5)],
    *[(f"aoi(players={n},ruleset=v1.0,distribution=draft)", range(2), "biased") for n in (2, 3, 4, 5)],
    *[(f"aoi(players=5,{_fixed(5, k)})", range(k, k + 2), "steered") for k in range(12)],
    *[(f"aoi(players=4,ruleset=v1.0,{_fixed(4, k)})", [k], "steered") for k in range(6)],
    *[(f"aoi(players=3,{_fixed(3, k)})", [k], "uniform") for k in range(4)],
    ("aoi(players=3,map=1-3)", range(4), "steered"),
    ("aoi(players=3,map=1-3,ruleset=v1.0)", range(2), "biased"),
    ("aoi(players=2,area_tokens=4+6)", range(4), "biased"),
    ("aoi(players=2,area_tokens=30)", range(2), "steered"),
    ("aoi(players=2,distribution=draft,area_tokens=8+9+10)", range(3), "steered"),
]
AUTOMA_GAMES = [
    *[(f"aoi(players=1,automa={a}:{lvl})", range(4), pol)
      for a, lvl, pol in [("simpletons", 1, "biased"), ("kuddlers", 2, "steered"), ("druids", 3, "biased"),
                          ("racelings", 4, "biased"), ("wanderers", 5, "biased"), ("mimics", 3, "steered"),
                          ("powermongers", 2, "uniform"), ("racelings", 1, "stubborn"), ("wanderers", 3, "steered")]],
    ("aoi(players=1,ruleset=v1.0,automa=racelings:5)", range(3), "biased"),
    ("aoi(players=2,map=1-3,automa=simpletons:4)", range(3), "steered"),
    ("aoi(players=2,automa=simpletons:3)", range(4), "steered"),
    ("aoi(players=2,ruleset=v1.0,automa=simpletons:5)", range(2), "biased"),
    ("aoi(players=1,automa=wanderers:2+racelings:4)", range(4), "biased"),
    ("aoi(players=1,automa=mimics:5+powermongers:1)", range(3), "steered"),
    ("aoi(players=1,automa=racelings:1+simpletons:2)", range(3), "stubborn"),
    ("aoi(players=1,automa=kuddlers:1)", range(2), "uniform"),
]  # fmt: skip


def _run(games: list[tuple[str, Any, str]]) -> Tally:
    tally = Tally()
    for game, seeds, policy in games:
        for seed in seeds:
            play_and_check(game, seed, policy, tally)
    return tally


def test_r78_r82_r86_pass_and_final_vp_match_the_oracle_in_random_human_games() -> None:
    """R78.1 (B4, B8 + T4, Trade Routes R103, Palace 7 R127, C8, C12; OP-17), R82-R86 (area R83
    with R38/R39 reach, bridges, Moles OP-48, Palace 9 OP-49; science R84; resources R85 / OP-60),
    R24 / R25 / OP-11 (2-player neutral faction): every pass's VP and every seat's final-scoring VP
    equal the independent computation, over 2-5 players, both rulesets, standard and draft
    distributions, every faction and planning board, both board sides."""
    tally = _run(HUMAN_GAMES)
    assert not tally.mismatches, tally.mismatches[:5]
    assert tally.finals >= 150 and tally.seats_scored >= 550 and tally.human_passes >= 3000
    assert tally.factions == set(range(12)) and len(tally.boards) == 7
    for part in ("B4", "B8 steps (no VP)", "T4", "trade_routes", "palace7", "C8", "C12"):
        assert tally.parts[part] >= 3, (part, tally.parts)
    for feature in ("final: moles", "final: palace 9", "final: bridges", "final: area tie"):
        assert tally.parts[feature] >= 2, (feature, tally.parts)


def test_automa_pass_and_final_vp_match_the_oracle_in_random_games() -> None:
    """AUTOMA.md §2.4 / §4.5 (round-tile Automa VP, final tile in round 6, Racelings twice when
    first), §8 (area with the round-6 ship level and no bridges, science majorities, no resources,
    Wanderers +2 per building) and R78 / R83-R85 for the human seats, in 1- and 2-human games
    against one or two Automas."""
    tally = _run(AUTOMA_GAMES)
    assert not tally.mismatches, tally.mismatches[:5]
    assert tally.finals >= 50 and tally.automa_passes >= 6 * tally.finals
    assert tally.human_passes >= 6 * tally.finals and tally.parts["automa: Racelings pass first"] >= 3


# ---------------------------------------------------------------------------------------------
# random explicit positions: rare combinations (neutral buildings in the pass counts, Palace 7 /
# Palace 9, Moles with bridges, long sailing, C12 after B8's steps with T4, cities and keys)

TYPE_WEIGHTS = {Building.WORKSHOP: 5, Building.GUILD: 3, Building.SCHOOL: 3, Building.UNIVERSITY: 1,
                Building.PALACE: 1, Building.TOWER: 1, Building.MONUMENT: 1}  # fmt: skip


def _ring(g: Game, pos: int, depth: int) -> list[int]:
    """Positions 1..``depth`` edge steps from ``pos`` (for placing buildings near each other)."""
    return sorted(q for q, d in distances(g.geo.neighbors, [pos], depth).items() if d)


def random_position(seed: int) -> Game:
    """A random Phase II position (round 6 half of the time) with every seat's buildings in loose
    clusters (gaps of 1-2 hexes, across rivers), random bonus tiles, Trade Routes, palace tiles,
    C8 / C12, city tiles, science levels, sailing, bridges and resources; seat 0 to move."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 6))
    factions = [FACTIONS[i] for i in rng.permutation(12)[:n]]
    if rng.random() < 0.4 and "moles" not in factions:
        factions[int(rng.integers(n))] = "moles"
    boards = [BOARDS[i] for i in rng.permutation(7)[:n]]
    ruleset = "v1.0" if rng.random() < 0.3 else "v1.2"
    sc = Scenario(f"aoi(players={n},ruleset={ruleset})", factions=factions, boards=boards, seed=seed)
    g = sc.g
    glob = g.state.glob
    rnd = 6 if rng.random() < 0.5 else int(rng.integers(1, 6))
    if rnd == 6:  # round 6's tile: often T4 (steps score), never one of rounds 1-5 or T2 (R6)
        used = {ROUND_TILE_KEYS[t] for t in glob[G_ROUND_TILES][:5].tolist()}
        free = [k for k in ROUND_TILE_KEYS if k not in used and k != "T2"]
        tile = "T4" if "T4" in free and rng.random() < 0.5 else free[int(rng.integers(len(free)))]
        sc.round(6, tile=tile, final=FINAL_TILE_KEYS[int(rng.integers(4))])
    else:
        sc.round(rnd)
    bonus = [BONUS_KEYS[i] for i in rng.permutation(10)]
    held = [("B4" if rng.random() < 0.3 else "B8" if rng.random() < 0.4 else bonus[i]) for i in range(n)]
    held = list(dict.fromkeys(held))
    held += [b for b in bonus if b not in held][: n - len(held)]
    sc.bonus_tiles(held, [b for b in bonus if b not in held][:3])
    palaces = [7, 9, *[int(x) for x in rng.permutation(np.arange(1, 18)) if x not in (7, 9)]]
    neutral_left = dict(NEUTRAL_PIECES)
    city_tiles = [k for k in g.data.city_ids for _ in range(3)]
    rng.shuffle(city_tiles)
    top_taken = [False] * 4
    copies = dict.fromkeys(("C8", "C12", "C1", "C4"), 4)  # R11: 4 copies per type
    land = g.geo.land
    for seat in range(n):
        left = dict(PIECES)
        own: list[int] = []
        for _ in range(int(rng.integers(2, 16))):
            empty = land & (g.state.hexes[:, H_BUILDING] == 0)
            if own and rng.random() < 0.85:  # 1-3 hexes from an own building
                base = own[int(rng.integers(len(own)))]
                ring = _ring(g, base, int(rng.integers(1, 4)))
                cands = [q for q in ring if empty[q]]
            else:
                cands = np.flatnonzero(empty).tolist()
            if not cands:
                continue
            pos = cands[int(rng.integers(len(cands)))]
            types = list(TYPE_WEIGHTS)
            weights = np.array([TYPE_WEIGHTS[t] for t in types], dtype=float)
            btype = types[int(rng.choice(len(types), p=weights / weights.sum()))]
            neutral = btype in (Building.TOWER, Building.MONUMENT) or rng.random() < 0.2
            if neutral and neutral_left.get(btype, 0) > 0:
                neutral_left[btype] -= 1
            elif not neutral and left.get(btype, 0) > 0 and (btype != Building.PALACE or palaces):
                left[btype] -= 1
            else:
                btype, neutral = Building.WORKSHOP, False
                if left[btype] == 0:
                    continue
                left[btype] -= 1
            sc.build(seat, f"r{pos // 13}c{pos % 13}", btype.name.lower(), neutral=neutral)
            own.append(pos)
            if btype == Building.PALACE and not neutral:
                first = rng.random() < 0.6  # mostly Palace 7 or 9 while they last
                sc.palace_tile(seat, palaces.pop(0 if first else int(rng.integers(len(palaces)))))
        keys = int(rng.integers(0, 4))
        sc.city_tile(seat, *[city_tiles.pop() for _ in range(keys)])
        levels = [int(x) for x in rng.integers(0, 13, size=4)]
        for d in rng.permutation(4).tolist():
            if levels[d] > 7 and keys == 0:
                levels[d] = 7
            elif levels[d] > 7:
                keys -= 1
            if levels[d] == 12 and top_taken[d]:
                levels[d] = 11
            top_taken[d] |= levels[d] == 12
        board = g.data.boards[int(g.state.players[seat, P_BOARD])]
        tokens = int(rng.integers(4, 13))
        one = int(rng.integers(0, tokens + 1))
        two = int(rng.integers(0, tokens - one + 1))
        sc.set(seat, science=levels, sailing=int(rng.integers(board.sailing_start, board.sailing_max + 1)),
               coins=int(rng.integers(0, 30)), tools=int(rng.integers(0, 8)), scholars=int(rng.integers(0, 4)),
               books=[int(x) for x in rng.integers(0, 3, size=4)], bowls=(one, two, tokens - one - two),
               vp=int(rng.integers(20, 120)))  # fmt: skip
        comps = [c for c in ("C8", "C12", "C1", "C4") if rng.random() < 0.4 and copies[c] > 0]
        for c in comps:
            copies[c] -= 1
        if comps:
            sc.competency(seat, *comps)
    if rng.random() < 0.6:
        sc.innovation(int(rng.integers(n)), "trade_routes")
    built = set()
    for seat in rng.permutation(n).tolist():
        owned = g.state.hexes[:, H_OWNER] == seat
        spots = g.geo.bridge_geometry if factions[seat] == "moles" else g.geo.bridge_spots
        spots = [(a, b) for a, b in spots if (owned[a] or owned[b]) and (a, b) not in built]
        for i in rng.permutation(len(spots))[: int(rng.integers(0, 4))].tolist():
            a, b = spots[i]
            built.add((a, b))
            sc.bridge(seat, f"r{a // 13}c{a % 13}", f"r{b // 13}c{b % 13}")
    return sc.turn(0)


POSITIONS = 150


def test_r78_r83_r85_oracle_on_random_explicit_positions() -> None:
    """R78.1 with neutral buildings in the counts ([UA] l. 1392), C12 read after B8's steps, T4
    scoring the steps in round 6; R83 with Moles' bridges (OP-47) and tunnels (OP-48), Palace 9
    (OP-49), sailing 0-3 and bridges of every seat (R38); R84 ties with 12s and keys; R85 with
    random leftovers; R24 / R25 in 2-player positions: random explicit positions played to the
    end, every pass and the final scoring against the oracle."""
    tally = Tally()
    for seed in range(POSITIONS):
        play_and_check(f"position {seed}", seed, "passer", tally, start=lambda seed=seed: random_position(seed))
    assert not tally.mismatches, tally.mismatches[:5]
    assert tally.finals == POSITIONS and tally.human_passes >= 5 * POSITIONS
    rare = ("C12 raised by B8 (counted above)", "neutral building counted (counted above)")
    for part in ("B4", "B8 steps (no VP)", "T4", "trade_routes", "palace7", "C8", "C12", *rare):
        assert tally.parts[part] >= 5, (part, tally.parts)
    for feature in ("final: moles", "final: palace 9", "final: bridges", "final: area tie"):
        assert tally.parts[feature] >= 5, (feature, tally.parts)
