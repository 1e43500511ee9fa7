"""Oracle: the hex the solo Automa picks for Transform & Build and for Upgrade.

An independent reading of ``docs/AUTOMA.md`` (the official solo Automa) is
compared with the engine (``aoi_env/core/automa.py``) in random solo games.  The oracle uses only
the raw state arrays, the static board geometry (printed terrain, grid frame) and the Automa
record's deck layout constants (to know which two cards she turns up); it does **not** call any
selection helper of ``automa.py`` (no ``valid_hexes``, ``choose_tb_hex``, ``resolve_upgrade``,
``directional``, ``atp_rank``, ``power_to_humans``, ``g.geo.reach_from`` ...).  Card, ATP and
ship-level tables are re-typed below from AUTOMA.md; the power values, piece counts, reach and
adjacency come from the shared independent helpers in ``tests/rules/oracle_common.py``.

What is checked, at every Automa turn (``automa_frames`` gives the position just before it):

* the cards: support = top of her deck, action = the next card; the pass check of §4.3
  (deck empty, or <= 2 cards left with a pass icon on the action card) -- a pass must not change
  the map;
* which map step the action card yields (§2.2, §2.5, §4.4.1: card *1/10/11 Upgrade, *4/13 T&B,
  the Faction action of *5/7 a T&B with the faction flag; Wanderers' faction T&B ignores Reach);
* T&B (§5.2): no Workshop in supply -> Upgrade with the same directional selection (§5.2.1);
  valid hexes = empty land in Reach (adjacent, or <= ship-level consecutive river hexes, ship by
  level and round §2.3, no bridges §10 #3) of her marked (M, MR) / unmarked (U, UR) buildings;
  "Bring together" for MR / UR (§5.1, §10 #5, hex distance counting every hex §10 #4); the
  fallbacks of §10 #7 (Reach of all her buildings, then any empty land, then Upgrade); the
  tie-breakers of §5.2.3 in the faction's order (default ATP -> closest -> directional;
  Powermongers most power first; Kuddlers closest -> human ATP; Mimics human ATP -> closest;
  §10 #23 best rank over the humans); ATP rank by current terrain (§2.1, §10 #6); directional
  selection RD = reading order, LU = reverse, index (n-1) mod k (§5.1, §10 #1);
  the result: a Workshop of hers on exactly that hex, turned to her native terrain, marked iff
  the structure is M / MR (§5.2.4), and nothing else on the map changed;
* Upgrade (§5.3, §10 #10, #11): candidates = her Workshops directly adjacent (edge or built
  bridge, R38) to a human building while a Guild is in her supply, else / if none every building
  she can upgrade; least power to the humans (R41 values, pavilion +1, §10 #12); directional;
  the new piece W -> G, G -> Palace if in supply else School, S -> University; the mark stays
  (§10 #29); nothing to upgrade -> no change (§10 #9).

Nothing in the procedure is random once the cards are known, so the engine's hex must be
exactly the oracle's.
"""

from __future__ import annotations

import collections
import itertools

import numpy as np
import pytest

from aoi_env import Game
from aoi_env.core.automa import A_DECK, A_DECK_LEN, A_LEVEL, A_SEAT, AUTOMA_FIELDS
from aoi_env.core.board import hex_name
from aoi_env.core.flow import automa_frames
from aoi_env.core.state import (
    G_AUTOMA,
    G_ROUND,
    H_BUILDING,
    H_MARK,
    H_OWNER,
    H_PAVILION,
    H_TERRAIN,
    P_BOARD,
    turn_seat,
)
from aoi_env.data import NUM_COLS, NUM_POSITIONS
from aoi_env.data.enums import Building, Terrain
from aoi_env.testing import Scenario, biased_random_action, random_action
from tests.rules.oracle_common import PIECES, POWER_VALUE, adjacent, built_bridges, reach_from

# ------------------------------------------------------------------------------------------------
# tables re-typed from AUTOMA.md / RULES.md

# §2.2: card -> (printed actions, pass icon, structure, ATP side, direction, count)
CARDS = {
    1: (("upgrade", "vp"), False, "M", "A", "RD", 2),
    2: (("block", "vp"), True, "M", "B", "LU", 1),
    3: (("scholar",), False, "UR", "B", "RD", 3),
    4: (("tb",), True, "U", "B", "LU", 3),
    5: (("faction",), False, "MR", "A", "LU", 2),
    6: (("innovation", "advance"), False, "U", "A", "RD", 1),
    7: (("faction",), True, "UR", "B", "RD", 4),
    8: (("scholar", "vp"), True, "MR", "A", "RD", 1),
    9: (("scholar", "vp"), True, "MR", "A", "RD", 2),
    10: (("upgrade", "vp"), True, "UR", "B", "LU", 4),
    11: (("upgrade", "vp"), True, "UR", "A", "LU", 2),
    12: (("block", "vp"), True, "UR", "A", "LU", 3),
    13: (("tb", "vp"), True, "MR", "B", "LU", 1),
    14: (("block", "vp"), True, "MR", "B", "RD", 3),
}

_P, _S, _L, _F, _M, _W, _D = ["plains", "swamp", "lake", "forest", "mountain", "wasteland", "desert"]
# §2.1: the ATP lists, rank 1 -> 7, as printed in the table (not the offset form)
ATP = {
    _L: ((_L, _S, _F, _P, _W, _M, _D), (_L, _F, _S, _M, _D, _P, _W)),
    _P: ((_P, _D, _S, _W, _F, _L, _M), (_P, _S, _D, _L, _M, _W, _F)),
    _F: ((_F, _L, _M, _S, _D, _W, _P), (_F, _M, _L, _W, _P, _S, _D)),
    _W: ((_W, _M, _D, _F, _S, _P, _L), (_W, _D, _M, _P, _L, _F, _S)),
    _S: ((_S, _P, _L, _D, _M, _F, _W), (_S, _L, _P, _F, _W, _D, _M)),
    _D: ((_D, _W, _P, _M, _L, _S, _F), (_D, _P, _W, _S, _F, _M, _L)),
    _M: ((_M, _F, _W, _L, _P, _D, _S), (_M, _W, _F, _D, _S, _L, _P)),
}
# §2.3: ship level by difficulty level, rounds 1..6
SHIP = {
    1: (0, 0, 1, 1, 2, 2),
    2: (0, 0, 1, 1, 2, 2),
    3: (1, 1, 2, 2, 2, 2),
    4: (1, 1, 2, 2, 2, 2),
    5: (1, 1, 2, 2, 3, 3),
}
# §5.2.3: T&B tie-breakers of a *faction* T&B (§4.4.1); every other T&B uses the default
DEFAULT_ORDER = ("atp", "closest")
FACTION_ORDER = {
    "powermongers": ("power", "atp", "closest"),
    "kuddlers": ("closest", "human_atp"),
    "mimics": ("human_atp", "closest"),
}
FACTIONS = ("simpletons", "kuddlers", "druids", "racelings", "wanderers", "mimics", "powermongers")
# R41 power values (POWER_VALUE) and her pieces per colour (§1 / RB: PIECES) come from oracle_common

TERRAIN_ID = {t.name.lower(): int(t) for t in Terrain if t < Terrain.RIVER}
_EVEN_DIRS = ((0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0))  # odd rows shifted right (board frame)
_ODD_DIRS = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1))


# ------------------------------------------------------------------------------------------------
# static geometry (own computation from the printed terrain and the grid frame)


class Board:
    def __init__(self, g: Game) -> None:
        printed = np.asarray(g.geo.terrain)
        self.land = printed < Terrain.RIVER
        self.river = printed == Terrain.RIVER
        play = printed != Terrain.OFF
        rows = NUM_POSITIONS // NUM_COLS
        self.nbrs: list[list[int]] = []
        for p in range(NUM_POSITIONS):
            r, c = divmod(p, NUM_COLS)
            out = []
            if play[p]:
                for dr, dc in _ODD_DIRS if r % 2 else _EVEN_DIRS:
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < rows and 0 <= cc < NUM_COLS and play[rr * NUM_COLS + cc]:
                        out.append(rr * NUM_COLS + cc)
            self.nbrs.append(out)
        cube = []
        for p in range(NUM_POSITIONS):
            r, c = divmod(p, NUM_COLS)
            x = c - (r - (r & 1)) // 2
            cube.append((x, -x - r, r))
        cube_a = np.array(cube)
        self.dist = np.abs(cube_a[:, None, :] - cube_a[None, :, :]).max(axis=2)
        # sanity of the frame: my neighbours are the geometry's, at distance 1
        for p in range(NUM_POSITIONS):
            assert sorted(self.nbrs[p]) == sorted(int(q) for q in np.flatnonzero(g.geo.adj[p]))
            assert all(self.dist[p, q] == 1 for q in self.nbrs[p])

    def reach(self, sources: list[int], ship: int) -> set[int]:
        """R39 / §5.1: land hexes adjacent to a source, or after 1..ship consecutive river hexes."""
        return reach_from(self.nbrs, self.land, self.river, sources, ship)


def _reading_pick(options: list[int], direction: str, count: int) -> int:
    """§5.1 / §10 #1: RD = rows top->bottom, each left->right; LU = exactly reversed; n-th, wrapping."""
    order = sorted(options, key=lambda p: divmod(p, NUM_COLS))
    if direction == "LU":
        order.reverse()
    return order[(count - 1) % len(order)]


def _keep_best(options: list[int], key) -> list[int]:  # noqa: ANN001 - a small scoring function
    values = {p: key(p) for p in options}
    best = min(values.values())
    return [p for p in options if values[p] == best]


# ------------------------------------------------------------------------------------------------
# the oracle


class Oracle:
    def __init__(self, g: Game, specs: dict[int, tuple[str, int]]) -> None:
        self.board = Board(g)
        self.specs = specs  # seat -> (faction, level)
        self.humans = list(range(g.config.players))
        self.stats: collections.Counter = collections.Counter()

    # -- readers of the raw state --------------------------------------------------------------

    def deck(self, state, seat: int) -> list[int]:  # noqa: ANN001
        block = state.glob[G_AUTOMA].reshape(-1, AUTOMA_FIELDS)
        for rec in block:
            if rec[A_SEAT] == seat and rec[A_LEVEL] > 0:
                assert int(rec[A_LEVEL]) == self.specs[seat][1]
                return [int(x) for x in rec[A_DECK][: rec[A_DECK_LEN]]]
        raise AssertionError(f"no Automa record for seat {seat}")

    def human_buildings(self, h: np.ndarray) -> list[int]:
        return [p for p in range(NUM_POSITIONS) if h[p, H_BUILDING] > 0 and h[p, H_OWNER] in self.humans]

    def adjacent(self, state, pos: int) -> set[int]:  # noqa: ANN001
        """R38: shared edge, or a built bridge (bridges count for everyone)."""
        return adjacent(self.board.nbrs, built_bridges(state), pos)

    def power_to_humans(self, state, pos: int) -> int:  # noqa: ANN001
        """§5.1 / §10 #12: power values (R41, pavilion +1) of human buildings adjacent to pos."""
        h = state.hexes
        return sum(
            POWER_VALUE[int(h[q, H_BUILDING])] + int(h[q, H_PAVILION])
            for q in self.adjacent(state, pos)
            if h[q, H_BUILDING] > 0 and h[q, H_OWNER] in self.humans
        )

    @staticmethod
    def supply(h: np.ndarray, seat: int, btype: int) -> int:
        return PIECES[btype] - int(np.count_nonzero((h[:, H_OWNER] == seat) & (h[:, H_BUILDING] == btype)))

    # -- §4.3 / §4.4: which map step this turn brings ---------------------------------------------

    def map_step(self, state, seat: int) -> tuple[str | None, int | None]:  # noqa: ANN001
        """(step, support card): step is None (a pass or no map step), "tb", "tb_faction",
        "tb_anywhere" or "upgrade"."""
        deck = self.deck(state, seat)
        if not deck:
            return None, None
        support, rest = deck[0], deck[1:]
        if not rest or (len(rest) <= 2 and CARDS[rest[0]][1]):
            self.stats["pass"] += 1
            return None, support
        faction = self.specs[seat][0]
        steps = []
        for printed in CARDS[rest[0]][0]:
            if printed == "faction":  # §2.5: every supported faction's action starts with a T&B
                steps.append("tb_anywhere" if faction == "wanderers" else "tb_faction")
            elif printed in ("tb", "upgrade"):
                steps.append(printed)
        assert len(steps) <= 1
        return (steps[0] if steps else None), support

    # -- §5.2 Transform & Build ---------------------------------------------------------------

    def tb_hex(self, state, seat: int, support: int, step: str) -> int | None:  # noqa: ANN001
        h = state.hexes
        _, _, structure, side, direction, count = CARDS[support]
        faction, level = self.specs[seat]
        rnd = int(state.glob[G_ROUND])
        ship = SHIP[level][rnd - 1]
        empty = {p for p in range(NUM_POSITIONS) if self.board.land[p] and h[p, H_BUILDING] == 0}
        mine = [p for p in range(NUM_POSITIONS) if h[p, H_OWNER] == seat and h[p, H_BUILDING] > 0]
        marked = [p for p in mine if h[p, H_MARK] == 1]
        unmarked = [p for p in mine if h[p, H_MARK] == 0]
        if step == "tb_anywhere":  # Wanderers: Reach is ignored (§5.1)
            options = sorted(empty)
            self.stats["tb anywhere"] += 1
        else:
            base = marked if structure.startswith("M") else unmarked
            options = sorted(self.board.reach(base, ship) & empty)
            if structure.endswith("R") and options and marked and unmarked:
                linked = bool(self.board.reach(marked, ship) & set(unmarked))
                if not linked:  # §5.1 "Bring together", §10 #5
                    dist = self.board.dist
                    d0 = int(dist[np.ix_(marked, unmarked)].min())
                    other = unmarked if structure == "MR" else marked
                    closer = [p for p in options if int(dist[p, other].min()) < d0]
                    self.stats["bring together: filter" if closer else "bring together: no hex closer"] += 1
                    if closer:
                        options = closer
            if not options:  # §10 #7
                options = sorted(self.board.reach(mine, ship) & empty)
                self.stats["fallback: reach of all"] += 1
                if not options:
                    options = sorted(empty)
                    self.stats["fallback: anywhere"] += 1
        if not options:
            self.stats["fallback: upgrade"] += 1
            return None
        order = FACTION_ORDER.get(faction, DEFAULT_ORDER) if step != "tb" else DEFAULT_ORDER
        terrain = h[:, H_TERRAIN]
        humans = self.human_buildings(h)
        for rule in order:
            if len(options) == 1:
                break
            if rule == "atp":
                names = ATP[Terrain(int(state.players[seat, P_BOARD])).name.lower()][side == "B"]
                rank = {TERRAIN_ID[t]: i for i, t in enumerate(names)}
                options = _keep_best(options, lambda p, rank=rank: rank[int(terrain[p])])
            elif rule == "human_atp":  # Kuddlers / Mimics: the humans' terrain, §10 #23 best rank
                ranks = []
                for s in self.humans:
                    names = ATP[Terrain(int(state.players[s, P_BOARD])).name.lower()][side == "B"]
                    ranks.append({TERRAIN_ID[t]: i for i, t in enumerate(names)})
                options = _keep_best(options, lambda p, ranks=ranks: min(r[int(terrain[p])] for r in ranks))
            elif rule == "closest" and humans:
                options = _keep_best(options, lambda p: int(self.board.dist[p, humans].min()))
            elif rule == "power":
                options = _keep_best(options, lambda p: -self.power_to_humans(state, p))
            if len(options) == 1:
                self.stats[f"decided by {rule}"] += 1
        if len(options) > 1:
            self.stats["decided by direction"] += 1
        return _reading_pick(options, direction, count)

    # -- §5.3 Upgrade -------------------------------------------------------------------------------

    def target(self, h: np.ndarray, seat: int, btype: int) -> int | None:
        """§5.3.4 / §10 #11: the highest power value building the piece can become (in supply)."""
        chain = {
            Building.WORKSHOP: (Building.GUILD,),
            Building.GUILD: (Building.PALACE, Building.SCHOOL),
            Building.SCHOOL: (Building.UNIVERSITY,),
        }.get(Building(btype), ())
        for new in chain:
            if self.supply(h, seat, new) > 0:
                return int(new)
        return None

    def upgrade_hex(self, state, seat: int, support: int) -> int | None:  # noqa: ANN001
        h = state.hexes
        _, _, _, _, direction, count = CARDS[support]
        mine = [p for p in range(NUM_POSITIONS) if h[p, H_OWNER] == seat and h[p, H_BUILDING] > 0]
        upgradable = [p for p in mine if self.target(h, seat, int(h[p, H_BUILDING])) is not None]
        humans = set(self.human_buildings(h))
        candidates = []
        if self.supply(h, seat, Building.GUILD) > 0:  # §10 #10 (German text)
            candidates = [
                p for p in upgradable if h[p, H_BUILDING] == Building.WORKSHOP and self.adjacent(state, p) & humans
            ]
            self.stats["upgrade: workshop next to a human" if candidates else "upgrade: no workshop next to human"] += 1
        else:
            self.stats["upgrade: no guild in supply"] += 1
        if not candidates:
            candidates = upgradable
        if not candidates:
            self.stats["upgrade: nothing"] += 1
            return None
        candidates = _keep_best(candidates, lambda p: self.power_to_humans(state, p))
        if len(candidates) > 1:
            self.stats["upgrade: decided by direction"] += 1
        return _reading_pick(candidates, direction, count)

    # -- the whole turn ----------------------------------------------------------------------------

    def expect(self, state, seat: int) -> dict:  # noqa: ANN001
        """The map change of the turn: None, or dict(pos, building, terrain, mark, kind)."""
        step, support = self.map_step(state, seat)
        h = state.hexes
        out: dict = {"step": step, "support": support, "change": None}
        if step is None:
            return out
        kind = "upgrade"
        if step != "upgrade":
            if self.supply(h, seat, Building.WORKSHOP) > 0:
                pos = self.tb_hex(state, seat, support, step)
                if pos is not None:
                    kind = "build"
            else:
                self.stats["no workshop left: upgrade"] += 1
        if kind == "build":
            mark = 1 if CARDS[support][2].startswith("M") else 0
            out["change"] = (pos, int(Building.WORKSHOP), int(state.players[seat, P_BOARD]), mark, seat)
        else:
            pos = self.upgrade_hex(state, seat, support)
            if pos is not None:
                new = self.target(h, seat, int(h[pos, H_BUILDING]))
                if h[pos, H_BUILDING] == Building.GUILD and new == Building.SCHOOL:
                    self.stats["upgrade: guild -> school (palace out)"] += 1
                out["change"] = (pos, new, int(h[pos, H_TERRAIN]), int(h[pos, H_MARK]), seat)
        out["kind"] = kind
        return out


# ------------------------------------------------------------------------------------------------
# playing random games


def _check_turn(oracle: Oracle, before, after: np.ndarray, seat: int, expected: dict, where: str) -> str | None:  # noqa: ANN001
    changed = [int(p) for p in np.flatnonzero((before.hexes != after).any(axis=1))]
    change = expected["change"]
    if change is None:
        assert not changed, f"{where}: seat {seat} changed {changed}, oracle expects no map change ({expected})"
        return None
    pos, btype, terrain, mark, owner = change
    row = after[pos]
    got = (int(row[H_BUILDING]), int(row[H_TERRAIN]), int(row[H_MARK]), int(row[H_OWNER]))
    assert changed == [pos], f"{where}: seat {seat} changed {changed}, oracle expects {pos} ({expected})"
    assert got == (btype, terrain, mark, owner), (
        f"{where}: hex {pos} is {got}, expected {(btype, terrain, mark, owner)}"
    )
    return expected["kind"]


def play(
    game: str,
    seed: int,
    specs: dict[int, tuple[str, int]],
    biased: bool,
    counts: collections.Counter,
    g: Game | None = None,
) -> Oracle:
    """One random game (or the rest of ``g``); every Automa turn is checked against the oracle."""
    g = Game(game, seed=seed) if g is None else g
    oracle = Oracle(g, specs)
    rng = np.random.default_rng(seed)
    current: dict = {}

    def finish() -> None:
        if current:
            after = current.get("after", current["before"].hexes)
            kind = _check_turn(oracle, current["before"], after, current["seat"], current["exp"], current["where"])
            counts[kind or "no change"] += 1
            if kind:
                counts[f"{kind} {specs[current['seat']][0]}"] += 1
                counts[f"{kind} level {specs[current['seat']][1]}"] += 1
            current.clear()

    def on_before(game_: Game) -> None:
        finish()
        seat = turn_seat(game_.state)
        assert seat in specs
        state = game_.state.clone()
        current.update(
            seat=seat,
            before=state,
            exp=oracle.expect(state, seat),
            where=f"{game} seed {seed} round {int(state.glob[G_ROUND])}",
        )

    def on_step(game_: Game, seat: int, what: str) -> None:
        assert current and seat == current["seat"], (seat, current.get("seat"))
        current["after"] = game_.state.hexes.copy()  # her map after this step (humans move later)
        step = current["exp"]["step"]
        if what in ("terraform & build", "terraform & build anywhere", "upgrade"):
            expected_name = {"upgrade": "upgrade", "tb_anywhere": "terraform & build anywhere"}.get(
                step, "terraform & build"
            )
            assert what == expected_name, f"{current['where']}: step {what!r}, oracle expects {step}"
            current["map_steps"] = current.get("map_steps", 0) + 1
            assert current["map_steps"] == 1

    with automa_frames(on_before, on_step):
        while not g.is_over():
            g.apply_action(biased_random_action(g, rng) if biased else random_action(g, rng))
    finish()
    return oracle


def _run(
    configs: list[tuple[str, int, dict[int, tuple[str, int]], bool]],
) -> tuple[collections.Counter, collections.Counter]:
    counts: collections.Counter = collections.Counter()
    stats: collections.Counter = collections.Counter()
    for game, seed, specs, biased in configs:
        stats.update(play(game, seed, specs, biased, counts).stats)
    return counts, stats


# ------------------------------------------------------------------------------------------------
# the tests


@pytest.mark.parametrize("faction", FACTIONS)
def test_solo_automa_tb_and_upgrade_hexes_match_the_procedure(faction: str) -> None:
    """AUTOMA.md §4.3, §4.4.1, §5.1, §5.2, §5.3, §2.1, §2.3, §10 #1 #3-#7 #9-#12 #23 #29: in
    1 human + 1 Automa games of every level 1-5 (both rulesets, biased and uniform random play),
    every Automa T&B or Upgrade lands on the hex the printed procedure selects, with the right
    piece, terrain and mark, and every other Automa turn leaves the map alone."""
    configs = []
    for level, seed in itertools.product(range(1, 6), range(6)):
        ruleset = ",ruleset=v1.0" if seed % 3 == 2 else ""
        game = f"aoi(players=1,automa={faction}:{level}{ruleset})"
        configs.append((game, 100 * level + seed, {1: (faction, level)}, seed % 3 != 1))
    counts, stats = _run(configs)
    assert counts["build"] >= 300, counts
    assert counts["upgrade"] >= 200, counts
    assert all(counts[f"build level {lv}"] + counts[f"upgrade level {lv}"] >= 5 for lv in range(1, 6)), counts
    if faction in FACTION_ORDER:  # the faction's own first tie-breaker decided some builds
        assert stats[f"decided by {FACTION_ORDER[faction][0]}"] > 0, stats


def test_automa_with_two_humans_and_with_two_automas() -> None:
    """Same checks (AUTOMA.md §3.1 player counts, §10 #23 best ATP rank over the humans, §10 #24
    "your buildings" = the humans'): 2 humans + 1 Automa (all 7 factions, on both board sides)
    and 1 human + 2 Automas (the other Automa's buildings block hexes but are not "yours")."""
    configs = []
    for k, (rep, faction) in enumerate(itertools.product(range(3), FACTIONS)):
        level = 1 + k % 5
        side = ",map=1-3" if k % 2 else ""
        configs.append((f"aoi(players=2,automa={faction}:{level}{side})", 700 + k, {2: (faction, level)}, k % 4 != 3))
        other = FACTIONS[(FACTIONS.index(faction) + 1 + rep) % len(FACTIONS)]
        level2 = 1 + (k + 2) % 5
        configs.append(
            (
                f"aoi(players=1,automa={faction}:{level}+{other}:{level2}{side})",
                800 + k,
                {1: (faction, level), 2: (other, level2)},
                k % 3 != 0,
            )
        )
    counts, stats = _run(configs)
    assert counts["build"] >= 300, counts
    assert counts["upgrade"] >= 200, counts
    assert stats["decided by human_atp"] + stats["decided by closest"] > 0, stats


def test_oracle_branches_are_exercised() -> None:
    """Coverage of the oracle itself over a batch of solo games: the Bring-together filter, the
    fallbacks of §10 #7 / §5.2.1 and the Upgrade candidate cases all occur and were checked."""
    configs = []
    for i, (faction, level) in enumerate(itertools.product(FACTIONS, range(1, 6))):
        configs.append((f"aoi(players=1,automa={faction}:{level})", 5000 + i, {1: (faction, level)}, True))
    counts, stats = _run(configs)
    for key in (
        "bring together: filter",
        "upgrade: workshop next to a human",
        "upgrade: no workshop next to human",
        "decided by atp",
        "decided by closest",
        "decided by direction",
        "pass",
    ):
        assert stats[key] > 0, (key, stats)
    assert counts["build"] + counts["upgrade"] >= 200, counts


_PIECE_NAMES = {Building.WORKSHOP: "workshop", Building.GUILD: "guild", Building.SCHOOL: "school",
                Building.UNIVERSITY: "university", Building.PALACE: "palace"}  # fmt: skip


def _crowded(game: str, seed: int, automa_seats: list[int]) -> Game:
    """A round-1 position (``Scenario``) with most land hexes built: every Automa has 2-18 of her
    pieces out (at least one marked and one unmarked building), then the human(s) fill up to 16
    more hexes (in odd seeds first those next to an Automa building); the rest of the game is
    then played at random."""
    rng = np.random.default_rng(seed)
    sc = Scenario(game, seed=seed, skip_forced=True)
    g = sc.g
    land = [int(p) for p in np.flatnonzero(np.asarray(g.geo.terrain) < Terrain.RIVER)]
    free = [land[i] for i in rng.permutation(len(land))]
    for seat in automa_seats:
        pieces = [Building.WORKSHOP] * int(rng.integers(2, 10)) + [Building.GUILD] * int(rng.integers(0, 5))
        pieces += [Building.SCHOOL] * int(rng.integers(0, 4)) + [Building.UNIVERSITY] * int(rng.integers(0, 2))
        pieces += [Building.PALACE] * int(rng.integers(0, 2))
        marks = rng.random(len(pieces)) < 0.5
        marks[0], marks[1] = True, False
        for b, m in zip(pieces, marks, strict=True):
            pos = free.pop()
            sc.build(seat, hex_name(pos), _PIECE_NAMES[b])
            g.state.hexes[pos, H_MARK] = int(m)
    humans = [Building.WORKSHOP] * 8 + [Building.GUILD] * 4 + [Building.SCHOOL] * 3 + [Building.UNIVERSITY]
    leave = int(rng.integers(0, 12))  # empty land hexes left, as far as the humans' pieces go
    if seed % 2:  # the humans first fill the hexes next to the Automa's buildings
        near = {q for q in free if any(g.state.hexes[n, H_OWNER] in automa_seats for n in g.geo.neighbors[q])}
        free = [q for q in free if q not in near] + [q for q in free if q in near]
    for seat in range(g.config.players):
        for b in humans[: max(1, len(free) - leave)]:
            sc.build(seat, hex_name(free.pop()), _PIECE_NAMES[b])
    return sc.turn(0)


def test_crowded_maps_reach_the_fallbacks() -> None:
    """AUTOMA.md §5.2.1 (no Workshop left -> Upgrade), §10 #7 (no valid hex in Reach: the Reach of
    all her buildings, then any empty land hex; the last fallback, Upgrade on a full map, does not
    occur), §10 #9 (nothing to upgrade), §10 #11 (Guild -> School once her Palace is out): games
    started from crowded round-1 positions (``Scenario``) are played out at random, every Automa
    turn checked as above."""
    counts: collections.Counter = collections.Counter()
    stats: collections.Counter = collections.Counter()
    for i in range(40):
        faction, other = FACTIONS[i % 7], FACTIONS[(i + 2) % 7]
        level, level2 = 1 + i % 5, 1 + (i + 1) % 5
        if i % 2:
            game, specs = f"aoi(players=1,automa={faction}:{level}+{other}:{level2},map=1-3)", {
                1: (faction, level), 2: (other, level2)}  # fmt: skip
        else:
            game, specs = f"aoi(players=1,automa={faction}:{level})", {1: (faction, level)}
        g = _crowded(game, 9000 + i, sorted(specs))
        stats.update(play(game, 9000 + i, specs, i % 4 != 3, counts, g=g).stats)
    assert counts["build"] >= 50 and counts["upgrade"] >= 50, counts
    for key in (
        "fallback: reach of all",
        "fallback: anywhere",
        "no workshop left: upgrade",
        "upgrade: nothing",
        "upgrade: guild -> school (palace out)",
    ):
        assert stats[key] > 0, (key, stats)
